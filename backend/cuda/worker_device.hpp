// One worker's share of a CUDA device, as CudaBackend's parts use it: the budget and what holds
// it between calls, the two streams, the stages' block cache, the host stager, h kept for the next
// MSM, and the log of planned stages. The parts (HStage, MsmResidency, MsmBatchRunner) run one at
// a time on it: CudaBackend serves one call at a time.
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/runtime/device_cache.hpp"
#include "backend/cuda/runtime/runtime.hpp"
#include "backend/cuda/runtime/staging.hpp"

namespace cuzk::cuda {

// "12 MiB": bytes rounded up to MiB, for plans and errors.
std::string mib(size_t bytes);

// H kept on the device by the H stage (HRequest::keep_on_device) for the MSM over the caller's `a`
// (`host`, as many values as the buffer holds). It lives until the end of the next call: an MSM
// over that storage reads it, and nothing else can mistake it for another vector. Outside the
// resident memory (whose cap is for bases and the work area), inside what available() leaves.
struct KeptScalars {
  std::optional<DeviceBuffer<Fr>> buffer;
  const Fr* host = nullptr;
  uint64_t call = 0;  // the call that kept it

  size_t bytes() const { return buffer ? buffer->size() * sizeof(Fr) : 0; }
  // The device copy of a request's scalars, or nullptr.
  const Fr* copy_of(std::span<const Fr> scalars) const {
    const bool same = buffer && scalars.data() == host && scalars.size() <= buffer->size();
    return same ? buffer->data() : nullptr;
  }
  void drop() {
    buffer.reset();
    host = nullptr;
  }
};

// The auxiliaries of a deferred witness the last call filled on the device (witness_stage.hpp),
// idle in dev.cache under `key` behind the call's inputs: the sparse products of the next call over
// the same host aux take the block back instead of uploading it.
struct FilledWitness {
  const Fr* host = nullptr;
  size_t aux = 0;
  std::string key;
};

class WorkerDevice {
 public:
  // The device of `options`, its budget (options.vram_budget, or the free memory less the margin),
  // streams at the options' priority and a stager; checks the options against the device.
  static Result<std::unique_ptr<WorkerDevice>> create(const CudaBackendOptions& options);
  ~WorkerDevice();
  WorkerDevice(const WorkerDevice&) = delete;
  WorkerDevice& operator=(const WorkerDevice&) = delete;

  const CudaBackendOptions options;
  const size_t budget;
  // Held between calls: resident bases and the MSM work area (MsmResidency counts them here).
  size_t resident = 0;
  // Held between calls apart from the MSMs' resident share: the compiled circuit's matrices
  // (CompiledResidency), which must not push the key's bases out of it.
  size_t compiled_resident = 0;
  // Public calls so far; the current one protects the resident contexts it uses.
  uint64_t calls = 0;

  int device() const { return options.device; }
  // The budget less what is held between calls (resident memory, the compiled circuit and the kept h).
  size_t available() const {
    const size_t held = resident + compiled_resident + kept.bytes();
    return budget > held ? budget - held : 0;
  }

  // ------------------------------------------------ memory and copies
  // The stages' buffers, kept for the next stage (device_cache.hpp: each cudaFree waits for the
  // whole device). It holds at most the budget less the resident memory, and outlives every buffer
  // it lends (declared before them).
  DeviceCache cache;
  KeptScalars kept;
  FilledWitness filled_witness;
  const Stream& stream() const { return stream_; }
  const Stream& copy_stream() const { return copy_stream_; }
  HostStager& stager() { return *stager_; }

  // Host `src` to device `dst` in order on the compute stream (through the stager).
  Status to_device(void* dst, const void* src, size_t bytes);
  // Device `src` to host `dst` in order on the compute stream; returns when `dst` holds it.
  Status to_host(void* dst, const void* src, size_t bytes);
  // An upload on the copy stream that the compute stream waits for: kernels already queued on the
  // compute stream run while the host fills the staging slots.
  Status to_device_overlapped(void* dst, const void* src, size_t bytes);
  // Orders the copy stream's next copies after the compute stream's work queued so far (the last
  // call's kernels may still read the blocks those copies write).
  Status copies_after_compute();
  // A deferred witness's device `src` to pinned host `dst` on the copy stream, after the compute
  // stream's work so far, without waiting (the H stage's kernels run meanwhile); to pageable `dst`,
  // at once. Until wait_witness_on_host() the host copy is incomplete: every call but the H stage
  // right after the fill waits for it first, and so does the H stage before it reads the host aux.
  Status witness_to_host(void* dst, const void* src, size_t bytes);
  Status wait_witness_on_host();

  // ------------------------------------------------ the stage log
  // Records a stage as planned (with the budget left beside it) and the peak it implies.
  void record(const StagePlan& plan);
  // Stamps the last recorded stage with its wall time since `t0`.
  void finish(std::chrono::steady_clock::time_point t0);
  // A stage-log line for the device blocks allocated or freed since `before`, if any: the
  // operator's record of every cudaMalloc and cudaFree (a proof like the last one has neither).
  void log_device_blocks(const DeviceCacheStats& before);
  std::vector<StagePlan> log;
  size_t peak = 0;  // the largest resident + kept + stage total planned so far

 private:
  WorkerDevice(const CudaBackendOptions& options, size_t budget, Stream stream, Stream copy_stream,
               cudaEvent_t uploaded, std::unique_ptr<HostStager> stager);

  Stream stream_;
  Stream copy_stream_;                     // uploads that overlap kernels on stream_
  cudaEvent_t uploaded_ = nullptr;         // the last such upload, for stream_ to wait on
  cudaEvent_t witness_on_host_ = nullptr;  // the last witness_to_host copy, on copy_stream_
  bool witness_copy_pending_ = false;
  std::unique_ptr<HostStager> stager_;
};

}  // namespace cuzk::cuda
