#include "backend/cuda/witness_stage.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {

Status fill_witness(WorkerDevice& dev, const DeferredWitness& witness, std::span<const Fr> inputs,
                    std::span<Fr> aux) {
  dev.filled_witness = {};
  if (aux.size() != witness.num_aux())
    return make_error(witness.describe() + ": " + std::to_string(aux.size()) + " aux values for " +
                      std::to_string(witness.num_aux()));
  const size_t wires = inputs.size() + aux.size();
  const size_t scratch = witness.device_scratch_bytes();
  const size_t bytes = wires * sizeof(Fr) + scratch;
  StagePlan plan{"witness " + std::to_string(aux.size()), "", bytes, dev.available(), 0};
  const auto on_host = [&](const std::string& why) {
    plan.choice = "filled on the host (" + why + ")";
    plan.bytes = 0;
    dev.record(plan);
    const auto t0 = std::chrono::steady_clock::now();
    Status s = witness.fill_host(aux, 0);
    dev.finish(t0);
    return s;
  };
  if (!witness.has_device_form()) return on_host("no device form");
  if (bytes > dev.available())
    return on_host("needs " + mib(bytes) + ", the budget leaves " + mib(dev.available()));
  auto block = dev.cache.take<Fr>(wires);
  if (!block) return on_host(block.message());
  auto room = dev.cache.take<uint8_t>(scratch);
  if (!room) return on_host(room.message());
  plan.choice = "computed on the device (" + witness.describe() +
                "), kept for the rows, copied to the host " +
                (HostStager::is_pinned(aux.data()) ? "beside the next stage" : "at once");
  dev.record(plan);
  const auto t0 = std::chrono::steady_clock::now();
  Fr* device_aux = block->data() + inputs.size();
  CUZK_TRY_STATUS(witness.fill_device(device_aux, room->data(), dev.stream().get()));
  CUZK_TRY_STATUS(dev.witness_to_host(aux.data(), device_aux, aux.size_bytes()));
  // Named for the sparse products: the same host aux on the next call finds it (a fresh name per
  // fill, so an idle block of an earlier witness in reused host storage never matches).
  static std::atomic<uint64_t> fills{0};
  dev.filled_witness = {aux.data(), aux.size(), "deferred witness " + std::to_string(++fills)};
  dev.cache.keep_contents(*block, dev.filled_witness.key);
  dev.finish(t0);
  return Status::Ok();
}

}  // namespace cuzk::cuda
