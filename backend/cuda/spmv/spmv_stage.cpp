#include "backend/cuda/spmv/spmv_stage.hpp"

#include <string>

#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {

Status evaluate_witness(WorkerDevice& dev, const CompiledWitness& w, const SpmvPlan& plan, DeviceSpan<Fr> a,
                        DeviceSpan<Fr> b, DeviceSpan<Fr> c, const SpmvConfig& config) {
  const size_t wires = w.inputs.size() + w.aux.size();
  if (w.inputs.size() != w.matrices.num_inputs || w.aux.size() != w.matrices.num_aux)
    return make_error("spmv: the witness has " + std::to_string(w.inputs.size()) + " inputs and " +
                      std::to_string(w.aux.size()) + " aux for a circuit of " +
                      std::to_string(w.matrices.num_inputs) + " and " + std::to_string(w.matrices.num_aux));
  const bool resident = plan.kind == SpmvPlan::Kind::resident;
  if (resident && (!w.resident || w.resident->num_wires() != wires ||
                   w.resident->num_constraints() != w.matrices.num_constraints))
    return make_error("spmv: a resident plan without the circuit's device copy");
  // A deferred witness filled on this device by the last call (witness_stage.hpp) is there already.
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
  if (resident) return evaluate_on_device(*w.resident, witness->data(), a, b, c, dev.stream(), config);
  return evaluate_streamed(w.matrices, plan, witness->data(), a, b, c, dev.stager(), dev.stream(),
                           dev.copy_stream(), &dev.cache, config);
}

}  // namespace cuzk::cuda
