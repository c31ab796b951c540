#include "backend/cuda/cuda_backend.hpp"

#include <utility>

#include "backend/cuda/compiled_residency.hpp"
#include "backend/cuda/h_stage.hpp"
#include "backend/cuda/msm_batch.hpp"
#include "backend/cuda/msm_residency.hpp"
#include "backend/cuda/runtime/device_bases.hpp"
#include "backend/cuda/witness_stage.hpp"
#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {

Result<std::unique_ptr<CudaBackend>> CudaBackend::create(const CudaBackendOptions& options) {
  auto device = WorkerDevice::create(options);
  if (!device) return device.error();
  return std::unique_ptr<CudaBackend>(new CudaBackend(std::move(*device)));
}

CudaBackend::CudaBackend(std::unique_ptr<WorkerDevice> device)
    : device_(std::move(device)),
      msms_(std::make_unique<MsmResidency>(*device_)),
      compiled_(std::make_unique<CompiledResidency>(*device_)),
      h_(std::make_unique<HStage>(*device_, *msms_, *compiled_)),
      batch_(std::make_unique<MsmBatchRunner>(*device_, *msms_)),
      budget_(device_->budget) {}

CudaBackend::~CudaBackend() = default;

template <class Call>
auto CudaBackend::serve(Call&& call, bool witness_may_cross) -> decltype(call()) {
  std::lock_guard lock(mutex_);
  WorkerDevice& dev = *device_;
  ++dev.calls;
  auto guard = DeviceGuard::enter(dev.device());
  if (!guard) return guard.error();
  // A deferred witness still crossing to the host is complete before any other call reads it.
  if (!witness_may_cross)
    if (Status w = dev.wait_witness_on_host(); !w) return w.error();
  const DeviceCacheStats before = dev.cache.stats();
  auto out = call();
  if (!out) (void)dev.wait_witness_on_host();  // a failed call leaves the host copy complete
  msms_->end_call();
  compiled_->end_call();
  if (dev.kept.buffer && dev.kept.call != dev.calls) dev.kept.drop();
  dev.log_device_blocks(before);
  return out;
}

std::string CudaBackend::name() const { return "cuda:" + std::to_string(device_->device()); }

Status CudaBackend::compute_h(const HRequest& rq) {
  return serve([&] { return h_->compute(rq); }, /*witness_may_cross=*/true);
}

Result<G1Jacobian> CudaBackend::msm(const MsmRequest<G1Affine>& rq) {
  return serve([&] { return msms_->msm(rq); });
}

Result<G2Jacobian> CudaBackend::msm(const MsmRequest<G2Affine>& rq) {
  return serve([&] { return msms_->msm(rq); });
}

Result<MsmBatchResult> CudaBackend::msm_batch(const MsmBatch& batch) {
  return serve([&] { return batch_->run(batch); });
}

Status CudaBackend::fill_witness(const DeferredWitness& witness, std::span<const Fr> inputs,
                                 std::span<Fr> aux) {
  return serve([&] { return cuda::fill_witness(*device_, witness, inputs, aux); });
}

Result<StagePlan> CudaBackend::plan_h(unsigned log_n, bool check_rows) const {
  std::lock_guard lock(mutex_);
  auto plan = h_->plan(log_n, check_rows);
  if (!plan) return plan.error();
  return plan->stage;
}

size_t CudaBackend::resident_bytes() const {
  std::lock_guard lock(mutex_);
  return device_->resident;
}

size_t CudaBackend::compiled_bytes() const {
  std::lock_guard lock(mutex_);
  return device_->compiled_resident;
}

size_t CudaBackend::peak_planned_bytes() const {
  std::lock_guard lock(mutex_);
  return device_->peak;
}

std::vector<StagePlan> CudaBackend::plan_log() const {
  std::lock_guard lock(mutex_);
  return device_->log;
}

std::vector<DeviceStage> CudaBackend::take_stage_log() {
  std::lock_guard lock(mutex_);
  return std::exchange(device_->log, {});
}

void CudaBackend::clear_log() {
  std::lock_guard lock(mutex_);
  device_->log.clear();
}

void CudaBackend::release_resident() {
  std::lock_guard lock(mutex_);
  msms_->release_all();
  compiled_->release();
  device_->kept.drop();
  device_->cache.release_idle();
  if (device_->options.shared_bases) device_->options.shared_bases->release_unused();
}

DeviceCacheStats CudaBackend::device_cache_stats() const {
  std::lock_guard lock(mutex_);
  return device_->cache.stats();
}

}  // namespace cuzk::cuda
