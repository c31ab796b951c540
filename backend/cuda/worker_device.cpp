#include "backend/cuda/worker_device.hpp"

#include <algorithm>
#include <thread>
#include <utility>

#include "backend/cuda/runtime/device_bases.hpp"

namespace cuzk::cuda {

std::string mib(size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

Result<std::unique_ptr<WorkerDevice>> WorkerDevice::create(const CudaBackendOptions& options) {
  std::string why;
  const int count = device_count(&why);
  if (options.device < 0 || options.device >= count)
    return make_error("cuda: no device " + std::to_string(options.device) + " (" + std::to_string(count) +
                      " found" + (why.empty() ? "" : ": " + why) + ")");
  auto guard = DeviceGuard::enter(options.device);
  if (!guard) return guard.error();
  size_t free_bytes = 0, total_bytes = 0;
  CUZK_TRY_STATUS(check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
  size_t budget = options.vram_budget;
  if (budget == 0) budget = free_bytes > options.margin ? free_bytes - options.margin : 0;
  if (budget > free_bytes)
    return make_error("cuda: device " + std::to_string(options.device) + " has " + mib(free_bytes) +
                      " free, less than the budget of " + mib(budget));
  if (options.shared_bases && options.shared_bases->device() != options.device)
    return make_error("cuda: the shared bases of device " + std::to_string(options.shared_bases->device()) +
                      " given to a backend of device " + std::to_string(options.device));
  if (options.shared_bases && options.precompute != 1)
    return make_error("cuda: shared bases are not precomputed (precompute must be 1)");
  auto stream = Stream::create(options.device, options.priority);
  if (!stream) return stream.error();
  StagerOptions so;
  so.threads = options.staging_threads ? options.staging_threads
                                       : std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u);
  auto stager = HostStager::create(options.device, so);
  if (!stager) return stager.error();
  auto copy_stream = Stream::create(options.device, options.priority);
  if (!copy_stream) return copy_stream.error();
  cudaEvent_t uploaded = nullptr;
  CUZK_TRY_STATUS(check(cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming), "cudaEventCreate"));
  return std::unique_ptr<WorkerDevice>(new WorkerDevice(
      options, budget, std::move(*stream), std::move(*copy_stream), uploaded, std::move(*stager)));
}

WorkerDevice::WorkerDevice(const CudaBackendOptions& o, size_t b, Stream s, Stream cs, cudaEvent_t ev,
                           std::unique_ptr<HostStager> st)
    : options(o),
      budget(b),
      cache(o.device,
            [this] {
              return budget > resident + compiled_resident ? budget - resident - compiled_resident : 0;
            }),
      stream_(std::move(s)),
      copy_stream_(std::move(cs)),
      uploaded_(ev),
      stager_(std::move(st)) {}

WorkerDevice::~WorkerDevice() {
  auto g = DeviceGuard::enter(options.device);
  (void)cudaStreamSynchronize(copy_stream_.get());
  (void)cudaEventDestroy(uploaded_);
  if (witness_on_host_) (void)cudaEventDestroy(witness_on_host_);
}

Status WorkerDevice::witness_to_host(void* dst, const void* src, size_t bytes) {
  CUZK_TRY_STATUS(wait_witness_on_host());
  if (!HostStager::is_pinned(dst)) return to_host(dst, src, bytes);
  if (!witness_on_host_)
    CUZK_TRY_STATUS(
        check(cudaEventCreateWithFlags(&witness_on_host_, cudaEventDisableTiming), "cudaEventCreate"));
  CUZK_TRY_STATUS(copies_after_compute());
  CUZK_TRY_STATUS(detail::copy_async(dst, src, bytes, cudaMemcpyDeviceToHost, copy_stream_));
  CUZK_TRY_STATUS(check(cudaEventRecord(witness_on_host_, copy_stream_.get()), "cudaEventRecord"));
  witness_copy_pending_ = true;
  return Status::Ok();
}

Status WorkerDevice::wait_witness_on_host() {
  if (!witness_copy_pending_) return Status::Ok();
  witness_copy_pending_ = false;
  return check(cudaEventSynchronize(witness_on_host_), "cudaEventSynchronize (the witness to the host)");
}

Status WorkerDevice::to_device(void* dst, const void* src, size_t bytes) {
  return stager_->to_device(dst, src, bytes, stream_);
}

Status WorkerDevice::to_host(void* dst, const void* src, size_t bytes) {
  return stager_->to_host(dst, src, bytes, stream_);
}

Status WorkerDevice::to_device_overlapped(void* dst, const void* src, size_t bytes) {
  CUZK_TRY_STATUS(stager_->to_device(dst, src, bytes, copy_stream_));
  CUZK_TRY_STATUS(check(cudaEventRecord(uploaded_, copy_stream_.get()), "cudaEventRecord"));
  return check(cudaStreamWaitEvent(stream_.get(), uploaded_, 0), "cudaStreamWaitEvent");
}

Status WorkerDevice::copies_after_compute() {
  CUZK_TRY_STATUS(check(cudaEventRecord(uploaded_, stream_.get()), "cudaEventRecord"));
  return check(cudaStreamWaitEvent(copy_stream_.get(), uploaded_, 0), "cudaStreamWaitEvent");
}

void WorkerDevice::record(const StagePlan& p) {
  log.push_back(p);
  log.back().budget_left = available();
  peak = std::max(peak, resident + compiled_resident + kept.bytes() + p.bytes);
}

void WorkerDevice::finish(std::chrono::steady_clock::time_point t0) {
  if (!log.empty())
    log.back().ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void WorkerDevice::log_device_blocks(const DeviceCacheStats& before) {
  const DeviceCacheStats now = cache.stats();
  if (now.made == before.made && now.freed == before.freed) return;
  log.push_back(
      {"device blocks",
       std::to_string(now.made - before.made) + " allocated (" + mib(now.made_bytes - before.made_bytes) +
           "), " + std::to_string(now.freed - before.freed) + " freed (" +
           mib(now.freed_bytes - before.freed_bytes) + "), " + std::to_string(now.reused - before.reused) +
           " reused; the cache holds " + mib(now.lent_bytes) + " lent and " + mib(now.idle_bytes) + " idle",
       now.made_bytes - before.made_bytes});
  log.back().budget_left = available();
}

}  // namespace cuzk::cuda
