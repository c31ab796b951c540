#include "backend/cuda/spmv/spmv_stage.hpp"

#include <string>

#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {
namespace {

Status check_witness(const CompiledWitness& w, const SpmvPlan& plan) {
  const size_t wires = w.inputs.size() + w.aux.size();
  if (w.inputs.size() != w.matrices.num_inputs || w.aux.size() != w.matrices.num_aux)
    return make_error("spmv: the witness has " + std::to_string(w.inputs.size()) + " inputs and " +
                      std::to_string(w.aux.size()) + " aux for a circuit of " +
                      std::to_string(w.matrices.num_inputs) + " and " + std::to_string(w.matrices.num_aux));
  if (plan.kind == SpmvPlan::Kind::resident && (!w.resident || w.resident->num_wires() != wires ||
                                                w.resident->num_constraints() != w.matrices.num_constraints))
    return make_error("spmv: a resident plan without the circuit's device copy");
  return Status::Ok();
}

// The witness on the device: the block a deferred witness was filled into by the last call
// (witness_stage.hpp), with the inputs added, or else a block of the cache with the host's witness
// uploaded. It goes back to the cache in stream order.
Result<DeviceBuffer<Fr>> device_witness(WorkerDevice& dev, const CompiledWitness& w) {
  const size_t wires = w.inputs.size() + w.aux.size();
  const FilledWitness filled = std::move(dev.filled_witness);
  dev.filled_witness = {};
  const bool same = filled.host == w.aux.data() && filled.aux == w.aux.size() && !filled.key.empty();
  bool kept = false;
  auto witness = same ? dev.cache.take_kept<Fr>(wires, filled.key, kept) : dev.cache.take<Fr>(wires);
  if (!witness) return witness.error();
  if (kept) {
    // The inputs on the compute stream: the copy stream may still carry the aux to the host.
    CUZK_TRY_STATUS(dev.to_device(witness->data(), w.inputs.data(), w.inputs.size_bytes()));
  } else {
    CUZK_TRY_STATUS(dev.wait_witness_on_host());  // the host aux is read from here on
    CUZK_TRY_STATUS(dev.copies_after_compute());  // the block may still be read by the last stage
    CUZK_TRY_STATUS(dev.to_device_overlapped(witness->data(), w.inputs.data(), w.inputs.size_bytes()));
    CUZK_TRY_STATUS(
        dev.to_device_overlapped(witness->data() + w.inputs.size(), w.aux.data(), w.aux.size_bytes()));
  }
  return witness;
}

// The sides given of a, b, c from the device witness, as the plan holds the matrices.
Status evaluate_sides(WorkerDevice& dev, const CompiledWitness& w, const SpmvPlan& plan, const Fr* d_witness,
                      DeviceSpan<Fr> a, DeviceSpan<Fr> b, DeviceSpan<Fr> c, const SpmvConfig& config) {
  if (plan.kind == SpmvPlan::Kind::resident)
    return evaluate_on_device(*w.resident, d_witness, a, b, c, dev.stream(), config);
  return evaluate_streamed(w.matrices, plan, d_witness, a, b, c, dev.stager(), dev.stream(),
                           dev.copy_stream(), &dev.cache, config);
}

}  // namespace

Status evaluate_witness(WorkerDevice& dev, const CompiledWitness& w, const SpmvPlan& plan, DeviceSpan<Fr> a,
                        DeviceSpan<Fr> b, DeviceSpan<Fr> c, const SpmvConfig& config) {
  CUZK_TRY_STATUS(check_witness(w, plan));
  auto witness = device_witness(dev, w);
  if (!witness) return witness.error();
  return evaluate_sides(dev, w, plan, witness->data(), a, b, c, config);
}

Status evaluate_witness_to_host(WorkerDevice& dev, const CompiledWitness& w, const SpmvPlan& plan,
                                DeviceSpan<Fr> vec, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                                const SpmvConfig& config) {
  CUZK_TRY_STATUS(check_witness(w, plan));
  if ((!a.empty() && a.size() != vec.size()) || b.size() != vec.size() ||
      (!c.empty() && c.size() != vec.size()))
    return make_error("spmv: the host's a (or none), b (and c) must each hold the device vector's " +
                      std::to_string(vec.size()) + " values");
  auto witness = device_witness(dev, w);
  if (!witness) return witness.error();
  // b and c first, so that an a without a host array is the last side formed in vec.
  const std::span<Fr> host[3] = {a, b, c};
  for (const size_t side : {1, 2, 0}) {
    if (side == 2 && c.empty()) continue;
    DeviceSpan<Fr> outs[3];
    outs[side] = vec;
    CUZK_TRY_STATUS(evaluate_sides(dev, w, plan, witness->data(), outs[0], outs[1], outs[2], config));
    if (!host[side].empty())
      CUZK_TRY_STATUS(dev.to_host(host[side].data(), vec.data(), host[side].size_bytes()));
  }
  return Status::Ok();
}

}  // namespace cuzk::cuda
