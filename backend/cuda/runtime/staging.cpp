#include "backend/cuda/runtime/staging.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk::cuda {

HostStager::HostStager(int device, size_t slot_bytes, unsigned threads)
    : device_(device), slot_bytes_(slot_bytes), pool_(std::max(1u, threads)) {}

HostStager::~HostStager() {
  auto g = DeviceGuard::enter(device_);
  for (cudaEvent_t e : drained_) {
    (void)cudaEventSynchronize(e);
    (void)cudaEventDestroy(e);
  }
  for (char* p : slots_) (void)cudaFreeHost(p);
}

Result<std::unique_ptr<HostStager>> HostStager::create(int device, const StagerOptions& options) {
  if (options.slots < 2 || options.slot_bytes < (size_t(1) << 16))
    return make_error("stager: at least two slots of 64 KiB");
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  std::unique_ptr<HostStager> st(new HostStager(device, options.slot_bytes, options.threads));
  for (unsigned i = 0; i < options.slots; ++i) {
    void* p = nullptr;
    CUZK_TRY_STATUS(check(cudaMallocHost(&p, options.slot_bytes), "cudaMallocHost (staging slot)"));
    st->slots_.push_back(static_cast<char*>(p));
    cudaEvent_t e = nullptr;
    CUZK_TRY_STATUS(check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate"));
    st->drained_.push_back(e);
  }
  return st;
}

bool HostStager::is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

Status HostStager::take_slot(size_t k) {
  return check(cudaEventSynchronize(drained_[k % slots_.size()]), "cudaEventSynchronize (staging slot)");
}

void HostStager::parallel_copy(void* dst, const void* src, size_t bytes) {
  constexpr size_t kPiece = size_t(1) << 20;
  if (pool_.size() == 1 || bytes <= kPiece) {
    std::memcpy(dst, src, bytes);
    return;
  }
  pool_.for_ranges(
      bytes, kPiece,
      [&](size_t b, size_t e) {
        std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, e - b);
      },
      1);
}

Status HostStager::to_device(void* dst, const void* src, size_t bytes, const Stream& s) {
  if (bytes == 0) return Status::Ok();
  if (s.device() != device_) return make_error("stager: stream of another device");
  auto g = DeviceGuard::enter(device_);
  if (!g) return g.error();
  if (is_pinned(src)) return detail::copy_async(dst, src, bytes, cudaMemcpyHostToDevice, s);
  const size_t pieces = (bytes + slot_bytes_ - 1) / slot_bytes_;
  for (size_t k = 0; k < pieces; ++k) {
    const size_t off = k * slot_bytes_, len = std::min(slot_bytes_, bytes - off);
    char* slot = slots_[k % slots_.size()];
    CUZK_TRY_STATUS(take_slot(k));
    parallel_copy(slot, static_cast<const char*>(src) + off, len);
    CUZK_TRY_STATUS(
        check(cudaMemcpyAsync(static_cast<char*>(dst) + off, slot, len, cudaMemcpyHostToDevice, s.get()),
              "cudaMemcpyAsync (staged upload)"));
    CUZK_TRY_STATUS(check(cudaEventRecord(drained_[k % slots_.size()], s.get()), "cudaEventRecord"));
  }
  return Status::Ok();
}

Status HostStager::to_host(void* dst, const void* src, size_t bytes, const Stream& s) {
  if (bytes == 0) return Status::Ok();
  if (s.device() != device_) return make_error("stager: stream of another device");
  auto g = DeviceGuard::enter(device_);
  if (!g) return g.error();
  if (is_pinned(dst)) {
    CUZK_TRY_STATUS(detail::copy_async(dst, src, bytes, cudaMemcpyDeviceToHost, s));
    return s.synchronize();
  }
  const size_t pieces = (bytes + slot_bytes_ - 1) / slot_bytes_, S = slots_.size();
  const auto issue = [&](size_t k) -> Status {
    const size_t off = k * slot_bytes_, len = std::min(slot_bytes_, bytes - off);
    CUZK_TRY_STATUS(take_slot(k));
    CUZK_TRY_STATUS(check(cudaMemcpyAsync(slots_[k % S], static_cast<const char*>(src) + off, len,
                                          cudaMemcpyDeviceToHost, s.get()),
                          "cudaMemcpyAsync (staged download)"));
    return check(cudaEventRecord(drained_[k % S], s.get()), "cudaEventRecord");
  };
  // Up to S downloads in flight; each slot is emptied into `dst` as soon as its DMA is done.
  for (size_t k = 0; k < std::min(pieces, S); ++k) CUZK_TRY_STATUS(issue(k));
  for (size_t k = 0; k < pieces; ++k) {
    const size_t off = k * slot_bytes_, len = std::min(slot_bytes_, bytes - off);
    CUZK_TRY_STATUS(take_slot(k));
    parallel_copy(static_cast<char*>(dst) + off, slots_[k % S], len);
    if (k + S < pieces) CUZK_TRY_STATUS(issue(k + S));
  }
  return Status::Ok();
}

}  // namespace cuzk::cuda
