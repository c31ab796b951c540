#include "backend/cuda/runtime/runtime.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace cuzk::cuda {

void load_kernels_eagerly() {
  static std::once_flag once;
  std::call_once(once, [] { (void)setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0); });
}

Status check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::Ok();
  return make_error(std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

Status check_launch(const char* kernel) {
  return check(cudaGetLastError(), (std::string("launch of ") + kernel).c_str());
}

int device_count(std::string* why) {
  load_kernels_eagerly();
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // the error is sticky only for this query; clear it
    if (why) *why = std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    return 0;
  }
  if (n == 0 && why) *why = "no CUDA device found";
  return n;
}

// ---------------------------------------------------------------- DeviceGuard
Result<DeviceGuard> DeviceGuard::enter(int device) {
  load_kernels_eagerly();
  int prev = 0;
  CUZK_TRY_STATUS(check(cudaGetDevice(&prev), "cudaGetDevice"));
  if (prev != device) CUZK_TRY_STATUS(check(cudaSetDevice(device), "cudaSetDevice"));
  return DeviceGuard(prev);
}

DeviceGuard::~DeviceGuard() {
  if (prev_ >= 0) (void)cudaSetDevice(prev_);
}

// ---------------------------------------------------------------- Stream
Result<Stream> Stream::create(int device, StreamPriority priority) {
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  int least = 0, greatest = 0;
  CUZK_TRY_STATUS(
      check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange"));
  // CUDA numbers priorities downward: greatest <= least, and a lower number is more urgent.
  int p = least;
  if (priority == StreamPriority::high) p = greatest;
  if (priority == StreamPriority::raised && least - 1 > greatest) p = least - 1;
  cudaStream_t s = nullptr;
  CUZK_TRY_STATUS(check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, p), "cudaStreamCreate"));
  return Stream(device, s);
}

Result<int> Stream::priority() const {
  int p = 0;
  CUZK_TRY_STATUS(check(cudaStreamGetPriority(s_, &p), "cudaStreamGetPriority"));
  return p;
}

Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    reset();
    device_ = o.device_;
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}

void Stream::reset() {
  if (!s_) return;
  auto g = DeviceGuard::enter(device_);
  (void)cudaStreamDestroy(s_);
  s_ = nullptr;
}

Stream::~Stream() { reset(); }

Status Stream::synchronize() const { return check(cudaStreamSynchronize(s_), "cudaStreamSynchronize"); }

// ---------------------------------------------------------------- buffers
namespace detail {
Result<void*> device_alloc(int device, size_t bytes) {
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes == 0 ? 1 : bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return make_error("cudaMalloc of " + std::to_string(bytes) + " bytes on device " +
                      std::to_string(device) + ": " + cudaGetErrorString(e));
  }
  return p;
}

void device_free(int device, void* p) {
  auto g = DeviceGuard::enter(device);
  (void)cudaFree(p);
}

Status copy_async(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, const Stream& s) {
  if (bytes == 0) return Status::Ok();
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToHost)
    return check(cudaMemcpyAsync(dst, src, bytes, kind, s.get()), "cudaMemcpyAsync");
  // Cut where the host side's registrations are (PinnedRange): one copy per piece.
  const void* host = kind == cudaMemcpyHostToDevice ? src : dst;
  return for_each_pin_piece(host, bytes, [&](size_t off, size_t len) {
    return check(cudaMemcpyAsync(static_cast<char*>(dst) + off, static_cast<const char*>(src) + off, len,
                                 kind, s.get()),
                 "cudaMemcpyAsync");
  });
}
}  // namespace detail

// ---------------------------------------------------------------- PinnedRange
// One registration at a time in the process, with a pause between pieces in which the driver's lock
// is free: two synthesis workers pinning at once otherwise hand the lock to each other, and a
// WinningPoSt's calls found it held for seconds (its MSMs 3.8 s beside two 8.46 GB sets pinned in
// pieces with no pause, on the H200). The pause costs about 3 % of a registration.
namespace {
std::mutex& registration_mutex() {
  static std::mutex m;
  return m;
}
constexpr auto kPinPause = std::chrono::milliseconds(1);
}  // namespace

Result<PinnedRange> PinnedRange::pin(const void* p, size_t bytes) {
  std::lock_guard one_at_a_time(registration_mutex());
  std::vector<void*> pieces;
  const auto undo = [&pieces] {
    for (void* q : pieces) (void)cudaHostUnregister(q);
  };
  auto st = for_each_pin_piece(p, bytes, [&](size_t off, size_t len) -> Status {
    if (off > 0) std::this_thread::sleep_for(kPinPause);  // a waiting CUDA call goes between pieces
    void* q = const_cast<char*>(static_cast<const char*>(p)) + off;
    const cudaError_t e = cudaHostRegister(q, len, cudaHostRegisterPortable);
    if (e == cudaErrorHostMemoryAlreadyRegistered) {  // someone else's: theirs to unregister
      (void)cudaGetLastError();
      return Status::Ok();
    }
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return make_error("cudaHostRegister of " + std::to_string(len >> 20) + " MiB (of " +
                        std::to_string(bytes >> 20) + "): " + cudaGetErrorString(e));
    }
    pieces.push_back(q);
    return Status::Ok();
  });
  if (!st) {
    undo();
    return st.error();
  }
  return PinnedRange(std::move(pieces));
}

PinnedRange::~PinnedRange() {
  for (void* q : pieces_) (void)cudaHostUnregister(q);
}

// ---------------------------------------------------------------- EventTimer
Result<EventTimer> EventTimer::create(int device) {
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  cudaEvent_t a = nullptr, b = nullptr;
  CUZK_TRY_STATUS(check(cudaEventCreate(&a), "cudaEventCreate"));
  if (auto st = check(cudaEventCreate(&b), "cudaEventCreate"); !st) {
    (void)cudaEventDestroy(a);
    return st.error();
  }
  return EventTimer(device, a, b);
}

EventTimer::~EventTimer() {
  if (!start_) return;
  auto g = DeviceGuard::enter(device_);
  (void)cudaEventDestroy(start_);
  (void)cudaEventDestroy(stop_);
}

Status EventTimer::start(const Stream& s) {
  return check(cudaEventRecord(start_, s.get()), "cudaEventRecord");
}
Status EventTimer::stop(const Stream& s) { return check(cudaEventRecord(stop_, s.get()), "cudaEventRecord"); }

Result<float> EventTimer::elapsed_ms() const {
  CUZK_TRY_STATUS(check(cudaEventSynchronize(stop_), "cudaEventSynchronize"));
  float ms = 0;
  CUZK_TRY_STATUS(check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime"));
  return ms;
}

// ---------------------------------------------------------------- info
Result<DeviceInfo> device_info(int device) {
  cudaDeviceProp p{};
  CUZK_TRY_STATUS(check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties"));
  DeviceInfo d;
  d.name = p.name;
  d.sm_count = p.multiProcessorCount;
  d.total_mem = p.totalGlobalMem;
  CUZK_TRY_STATUS(
      check(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, device), "cudaDeviceGetAttribute"));
  CUZK_TRY_STATUS(check(cudaDriverGetVersion(&d.driver_version), "cudaDriverGetVersion"));
  CUZK_TRY_STATUS(check(cudaRuntimeGetVersion(&d.runtime_version), "cudaRuntimeGetVersion"));
  return d;
}

}  // namespace cuzk::cuda
