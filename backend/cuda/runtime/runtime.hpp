// Small RAII wrappers over the CUDA runtime: a stream bound to a named device, a typed device
// buffer, and event timing. Every failure comes back as a Status carrying the runtime's own error
// text; nothing here aborts, and nothing relies on the thread's "current device": each call
// switches to the device it names and restores the previous one on return (DeviceGuard).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/result.hpp"

namespace cuzk::cuda {

// Status from a runtime return code; `what` names the call for the reader of the message.
Status check(cudaError_t e, const char* what);
// The error of the last launch on this thread (cudaGetLastError), as a Status.
Status check_launch(const char* kernel);

// Asks the CUDA runtime to load every kernel when a device's context is created
// (CUDA_MODULE_LOADING=EAGER), unless the environment already says how. Under the default lazy
// loading a kernel's first launch loads its module, and that load may synchronize the context: an
// express worker's WinningPoSt that launches a kernel variant for the first time then waits for the
// PoRep proofs running beside it (measured on an H200: 0.66 and 2.04 s on the device instead of
// 0.12). The setting counts only before the process's first CUDA call, so device_count and
// DeviceGuard::enter, the first calls every path makes, call this; it is idempotent.
void load_kernels_eagerly();

// Number of CUDA devices. A missing driver or device is not an error here: it yields 0 and a
// reason in *why (when given), so tests can skip with a clear message.
int device_count(std::string* why = nullptr);

// Makes `device` current for the guard's lifetime and restores the previous one afterwards.
class DeviceGuard {
 public:
  static Result<DeviceGuard> enter(int device);
  DeviceGuard(DeviceGuard&& o) noexcept : prev_(std::exchange(o.prev_, -1)) {}
  DeviceGuard& operator=(DeviceGuard&&) = delete;
  DeviceGuard(const DeviceGuard&) = delete;
  ~DeviceGuard();

 private:
  explicit DeviceGuard(int prev) : prev_(prev) {}
  int prev_;
};

// A stream's scheduling priority. The block scheduler starts blocks of a more urgent stream's
// kernels before those of less urgent streams as SMs free up, so a short kernel beside a long one
// need not wait for the long one's blocks to drain (an express worker's WinningPoSt beside PoRep
// MSMs). normal is the device's least urgent level and high its most urgent; raised is the level
// just above normal, or normal itself on a device with only two levels.
enum class StreamPriority { normal, raised, high };

// A non-blocking stream owned by one device.
class Stream {
 public:
  static Result<Stream> create(int device, StreamPriority priority = StreamPriority::normal);
  Stream(Stream&& o) noexcept : device_(o.device_), s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept;
  Stream(const Stream&) = delete;
  ~Stream();

  int device() const { return device_; }
  cudaStream_t get() const { return s_; }
  // The stream's priority as CUDA numbers it (lower is more urgent; 0 is the default).
  Result<int> priority() const;
  Status synchronize() const;

 private:
  Stream(int device, cudaStream_t s) : device_(device), s_(s) {}
  void reset();
  int device_;
  cudaStream_t s_;
};

namespace detail {
Result<void*> device_alloc(int device, size_t bytes);
void device_free(int device, void* p);
Status copy_async(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, const Stream& s);

// Where a DeviceBuffer's block goes when the buffer is done with it: cudaFree when the buffer has
// no home, else back to the home that lent it (a DeviceCache keeps it for the next stage).
class BlockHome {
 public:
  virtual void give_back(void* p, size_t bytes) noexcept = 0;

 protected:
  ~BlockHome() = default;
};
}  // namespace detail

// `n` elements of T in device memory owned by something else (a DeviceBuffer carved into several
// buffers): the same interface as DeviceBuffer, without ownership.
template <class T>
class DeviceSpan {
 public:
  DeviceSpan() = default;
  DeviceSpan(int device, T* p, size_t n) : device_(device), p_(p), n_(n) {}

  T* data() const { return p_; }
  size_t size() const { return n_; }
  int device() const { return device_; }

  // Host -> device / device -> host of the first n elements, ordered on `s` (the host memory
  // must stay valid until the stream reaches the copy; pageable memory makes it synchronous).
  Status upload(const T* host, size_t n, const Stream& s) const {
    if (n > n_) return make_error("upload: more elements than the device memory holds");
    return detail::copy_async(p_, host, n * sizeof(T), cudaMemcpyHostToDevice, s);
  }
  Status download(T* host, size_t n, const Stream& s) const {
    if (n > n_) return make_error("download: more elements than the device memory holds");
    return detail::copy_async(host, p_, n * sizeof(T), cudaMemcpyDeviceToHost, s);
  }

 private:
  int device_ = -1;
  T* p_ = nullptr;
  size_t n_ = 0;
};

// `n` elements of trivially copyable T in device memory of one device; contents uninitialized.
template <class T>
class DeviceBuffer {
 public:
  static Result<DeviceBuffer> alloc(int device, size_t n) {
    auto p = detail::device_alloc(device, n * sizeof(T));
    if (!p) return p.error();
    return DeviceBuffer(device, static_cast<T*>(*p), n);
  }
  // `n` elements of T at the start of a block of `block_bytes` that `home` lent: the block goes
  // back to `home`, not to cudaFree, when the buffer is done with it.
  static DeviceBuffer lent(int device, void* block, size_t n, detail::BlockHome* home, size_t block_bytes) {
    DeviceBuffer b(device, static_cast<T*>(block), n);
    b.home_ = home;
    b.block_bytes_ = block_bytes;
    return b;
  }
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : device_(o.device_),
        p_(std::exchange(o.p_, nullptr)),
        n_(std::exchange(o.n_, 0)),
        home_(std::exchange(o.home_, nullptr)),
        block_bytes_(std::exchange(o.block_bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      device_ = o.device_;
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
      home_ = std::exchange(o.home_, nullptr);
      block_bytes_ = std::exchange(o.block_bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  T* data() const { return p_; }
  size_t size() const { return n_; }
  int device() const { return device_; }

  // The buffer without ownership; its copies (DeviceSpan::upload, download) serve both.
  DeviceSpan<T> span() const { return DeviceSpan<T>(device_, p_, n_); }
  Status upload(const T* host, size_t n, const Stream& s) { return span().upload(host, n, s); }
  Status download(T* host, size_t n, const Stream& s) const { return span().download(host, n, s); }

 private:
  DeviceBuffer(int device, T* p, size_t n) : device_(device), p_(p), n_(n) {}
  void release() {
    if (p_ && home_)
      home_->give_back(p_, block_bytes_);
    else if (p_)
      detail::device_free(device_, p_);
    p_ = nullptr;
    n_ = 0;
    home_ = nullptr;
    block_bytes_ = 0;
  }
  int device_ = -1;
  T* p_ = nullptr;
  size_t n_ = 0;
  detail::BlockHome* home_ = nullptr;  // null: cudaMalloc'd, freed by cudaFree
  size_t block_bytes_ = 0;             // the lent block's size (at least n_ · sizeof(T))
};

// Registered host memory comes in pieces that never cross a multiple of kPinPieceBytes of the
// address. Registering pages takes the driver's lock for its whole call (about 2 GB/s): one
// registration of a partition's 8 GB buffer set stalled every CUDA call of the process for 5-8 s,
// the express worker's WinningPoSt and the PoRep proofs beside it alike (measured on the H200).
// In pieces, one registration at a time in the process and a pause between pieces, another
// thread's call waits for one piece at most. Copies between the device and registered memory are
// cut at the same boundaries, so none spans two registrations.
inline constexpr size_t kPinPieceBytes = size_t(64) << 20;

// Calls f(offset, length) for the pieces of [p, p + bytes) cut at multiples of kPinPieceBytes of
// the address; stops at the first failure.
template <class F>
Status for_each_pin_piece(const void* p, size_t bytes, F&& f) {
  const auto start = reinterpret_cast<uintptr_t>(p);
  for (size_t off = 0; off < bytes;) {
    const size_t to_boundary = kPinPieceBytes - (start + off) % kPinPieceBytes;
    const size_t len = std::min(bytes - off, to_boundary);
    CUZK_TRY_STATUS(f(off, len));
    off += len;
  }
  return Status::Ok();
}

// A range of ordinary host memory pinned (cudaHostRegister, portable to every device, piece by
// piece) for the object's lifetime, so that copies from it run at PCIe speed as direct DMA.
// Pinning locks the pages one by one (seconds for tens of GiB): for memory copied many times, such
// as parameter sets that do not stay on the device. The memory must outlive the object.
class PinnedRange {
 public:
  static Result<PinnedRange> pin(const void* p, size_t bytes);
  PinnedRange(PinnedRange&& o) noexcept : pieces_(std::move(o.pieces_)) {}
  PinnedRange& operator=(PinnedRange&&) = delete;
  PinnedRange(const PinnedRange&) = delete;
  ~PinnedRange();
  size_t pieces() const { return pieces_.size(); }

 private:
  explicit PinnedRange(std::vector<void*> pieces) : pieces_(std::move(pieces)) {}
  std::vector<void*> pieces_;  // registered here (a piece someone else had pinned is not listed)
};

// Elapsed device time between two events recorded on one stream.
class EventTimer {
 public:
  static Result<EventTimer> create(int device);
  EventTimer(EventTimer&& o) noexcept
      : device_(o.device_),
        start_(std::exchange(o.start_, nullptr)),
        stop_(std::exchange(o.stop_, nullptr)) {}
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  EventTimer& operator=(EventTimer&&) = delete;
  ~EventTimer();
  Status start(const Stream& s);
  Status stop(const Stream& s);
  // Waits for the stop event; milliseconds between the two.
  Result<float> elapsed_ms() const;

 private:
  EventTimer(int device, cudaEvent_t a, cudaEvent_t b) : device_(device), start_(a), stop_(b) {}
  int device_;
  cudaEvent_t start_, stop_;
};

// Name, SM count, clock and driver of a device, for benchmark reports.
struct DeviceInfo {
  std::string name;
  int sm_count = 0;
  int clock_khz = 0;
  int driver_version = 0;
  int runtime_version = 0;
  size_t total_mem = 0;
};
Result<DeviceInfo> device_info(int device);

}  // namespace cuzk::cuda
