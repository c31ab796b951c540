// The compiled circuit one CudaBackend keeps on its device between calls (HRequest::rows): the
// matrices of the circuit its last proofs came from, so that a stream of partitions of one shape
// uploads them once (~7 GiB at PoRep size, 8.9 GB at WindowPoSt's, seconds over PCIe) and
// afterwards moves only each partition's witness. With a store shared by the device's workers
// (CudaBackendOptions::shared_bases) the matrices live there, one copy for the device, outside the
// worker's budget like the bases, and the backend holds them for one call at a time; else (or when
// the store has no room) the backend keeps its own copy, counted in its resident memory, dropped
// for another circuit and before a stage of a call that does not use it would fail for want of room.
#pragma once

#include <cstdint>
#include <memory>
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
  // The end of a call: lets go of the store's copy, which other circuits may then push out.
  void end_call() { held_.reset(); }

 private:
  WorkerDevice& dev_;
  std::optional<DeviceCompiledCircuit> circuit_;       // this backend's own copy
  std::shared_ptr<const DeviceCompiledCircuit> held_;  // the store's, for the current call
  uint64_t id_ = 0;
  uint64_t used_in_call_ = 0;
};

}  // namespace cuzk::cuda
