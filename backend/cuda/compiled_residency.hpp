// The compiled circuit one CudaBackend keeps on its device between calls (HRequest::rows): the
// matrices of the circuit its last proofs came from, so that a stream of partitions of one shape
// uploads them once (~7 GiB at PoRep size, a few seconds over PCIe) and afterwards moves only each
// partition's witness. Counted in the worker's resident memory; dropped for another circuit, and
// before a stage of a call that does not use it would fail for want of room.
#pragma once

#include <cstdint>
#include <optional>

#include "backend/compute.hpp"
#include "backend/cuda/spmv/device_circuit.hpp"
#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {

class CompiledResidency {
 public:
  explicit CompiledResidency(WorkerDevice& device) : dev_(device) {}

  // The device copy of `rows`' matrices, uploaded when absent and when it fits with `beside`
  // bytes still available for the stage that reads it; nullptr when it does not fit (the caller
  // streams the matrices instead).
  Result<const DeviceCompiledCircuit*> get(const CompiledRows& rows, size_t beside);

  // Drops the copy when the current call has not used it; false when there was none to drop.
  bool evict_idle();
  void release();

 private:
  WorkerDevice& dev_;
  std::optional<DeviceCompiledCircuit> circuit_;
  uint64_t id_ = 0;
  uint64_t used_in_call_ = 0;
};

}  // namespace cuzk::cuda
