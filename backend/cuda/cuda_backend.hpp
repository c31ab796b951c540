// The compute interface on one CUDA device, with every device allocation planned first.
//
// The seed of cuzk is a crash: two workers allocated on one card at once and one died in
// cudaMallocAsync. So here every stage (the H polynomial, each MSM) computes its peak device memory
// from the problem and the budget before it allocates anything, picks a plan that fits (fewer
// resident buffers, smaller MSM chunks, bases streamed from the host), and fails with a clear
// error if none does. All of a stage's memory comes from its plan and is freed when the stage
// ends; a failure anywhere (allocation, kernel) comes back as a Status and leaves the device clean.
//
// Base arrays of a parameter set can stay resident between proofs: the backend keeps an MSM
// context (bases uploaded, multiples precomputed) per base array it has seen, all of them sharing
// one work area, as long as the resident total stays within `resident_fraction` of the budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/compute.hpp"
#include "backend/cuda/runtime/device_cache.hpp"
#include "backend/cuda/runtime/runtime.hpp"

namespace cuzk::cuda {

class DeviceBases;

struct CudaBackendOptions {
  int device = 0;
  // Device memory this backend may use. 0: the device's free memory at creation less `margin`.
  size_t vram_budget = 0;
  size_t margin = size_t(512) << 20;
  // Keep MSM contexts (bases + precomputed multiples) between calls, within this share of the budget.
  double resident_fraction = 0.75;
  // Precomputed multiples per base for resident bases (1: none). Costs m × the base array.
  unsigned precompute = 1;
  // Points per pass of a resident MSM context (0: 2^25), halved (down to 2^22) while the context
  // would not fit `resident_fraction` of the budget. A pass's work buffers (digits, sort, buckets)
  // scale with it — about 7 GiB for G1 at 2^24, 13 GiB at 2^25 — and the bases do not; all resident
  // contexts share one work area (MsmWorkspace), as large as the largest of them needs, which the
  // H stage borrows for its vectors.
  size_t resident_pass_points = 0;
  // Host threads copying pageable host memory into the pinned staging slots (HostStager);
  // 0: half the hardware threads, at most 8.
  unsigned staging_threads = 0;
  // The device's store of resident bases, shared with its other workers (device_bases.hpp): the
  // bases then live there, outside `vram_budget`, which holds this worker's work area and stages.
  // nullptr: this backend keeps its own bases within `resident_fraction` of its budget.
  std::shared_ptr<DeviceBases> shared_bases;
  // pick_resident_window's bucket_cost (msm/window.hpp; 1: the windows that make one MSM alone
  // fastest).
  double window_bucket_cost = 1.0;
  // Resident contexts' MsmConfig::set_passes: device scalars that need several passes take every
  // point for a group of bucket sets per pass (the window model then counts each bucket once).
  bool msm_set_passes = true;
  // MSMs' MsmConfig::narrow_windows: windows of c − 1 bits where W·c exceeds 256 (fewer buckets).
  bool msm_narrow_windows = true;
  // The priority of the backend's streams (compute and copy). An express worker's are high: its
  // kernels then take SMs ahead of the ordinary workers' as their blocks finish, instead of
  // queueing behind them. A device's lead worker may run raised (CudaDeviceOptions::lead_worker).
  StreamPriority priority = StreamPriority::normal;
};

// One stage's plan, for logs and tests.
using StagePlan = DeviceStage;

class WorkerDevice;
class MsmResidency;
class CompiledResidency;
class HStage;
class MsmBatchRunner;

// A thin class over its parts, which share one WorkerDevice: the H stage (h_stage.hpp), the MSM
// contexts (msm_residency.hpp) and the batch of a proof's MSMs (msm_batch.hpp). It serves one call
// at a time (one backend per worker), on its device.
class CudaBackend final : public ComputeBackend {
 public:
  static Result<std::unique_ptr<CudaBackend>> create(const CudaBackendOptions& options);
  ~CudaBackend() override;

  std::string name() const override;
  Status compute_h(const HRequest& request) override;
  bool evaluates_compiled_rows() const override { return true; }
  Result<G1Jacobian> msm(const MsmRequest<G1Affine>& request) override;
  Result<G2Jacobian> msm(const MsmRequest<G2Affine>& request) override;
  Result<MsmBatchResult> msm_batch(const MsmBatch& batch) override;
  // On the device where the witness has a device form and the budget leaves room (witness_stage.hpp).
  Status fill_witness(const DeferredWitness& witness, std::span<const Fr> inputs, std::span<Fr> aux) override;

  // The plan compute_h would follow for 2^log_n (checking the rows or not), without allocating.
  Result<StagePlan> plan_h(unsigned log_n, bool check_rows = true) const;

  size_t memory_budget() const override { return budget_; }
  size_t resident_bytes() const;
  // Device bytes of this worker's own copy of a compiled circuit (0 where the shared store holds it).
  size_t compiled_bytes() const;
  // The largest resident + stage total planned so far (the backend's peak device memory).
  size_t peak_planned_bytes() const override;
  // Every stage planned so far, in order (cleared by clear_log()).
  std::vector<StagePlan> plan_log() const;
  void clear_log();
  std::vector<DeviceStage> take_stage_log() override;
  // Drops resident bases (e.g. when a parameter set is evicted) and the stages' idle cached blocks.
  void release_resident();
  // The stages' block cache (device_cache.hpp): what it holds, and how often it reused a block.
  DeviceCacheStats device_cache_stats() const;

 private:
  explicit CudaBackend(std::unique_ptr<WorkerDevice> device);
  // One public call: one at a time, counted (the contexts it uses are the most recent), on this
  // backend's device; the shared bases it held may be evicted once it returns, and h kept by the
  // call before is dropped.
  // `witness_may_cross`: the call may start while a deferred witness still crosses to the host
  // (the H stage, which waits where it reads the host copy); every other call waits for it first.
  template <class Call>
  auto serve(Call&& call, bool witness_may_cross = false) -> decltype(call());

  mutable std::mutex mutex_;
  std::unique_ptr<WorkerDevice> device_;  // declared first: the parts use it until they are gone
  std::unique_ptr<MsmResidency> msms_;
  std::unique_ptr<CompiledResidency> compiled_;
  std::unique_ptr<HStage> h_;
  std::unique_ptr<MsmBatchRunner> batch_;
  size_t budget_ = 0;
};

}  // namespace cuzk::cuda
