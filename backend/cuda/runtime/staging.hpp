// Copies between ordinary (pageable) host memory and one device at PCIe speed.
//
// The driver copies pageable memory synchronously through its own small bounce buffer, at 1-4 GB/s
// (perf-anchors.md §9); pinned memory goes at ~50 GB/s on Gen5. The prover's vectors (a, b, c, the
// assignment, the H scalars) and parameter sets too large to keep on the device live in pageable
// memory, so every such copy goes through here: a ring of pinned slots, filled by several host
// threads while the DMA of the previous slot runs. Memory that is already pinned (registered or
// cudaMallocHost) is copied directly.
//
// A stager belongs to one device and serves one caller at a time (a backend has one per worker).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "backend/cuda/runtime/runtime.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"

namespace cuzk::cuda {

struct StagerOptions {
  size_t slot_bytes = size_t(16) << 20;  // one DMA; large enough to run at full PCIe speed
  unsigned slots = 4;                    // DMAs in flight while the next slots are filled
  unsigned threads = 4;                  // host threads filling a slot (host memcpy is ~5-10 GB/s/thread)
};

class HostStager {
 public:
  static Result<std::unique_ptr<HostStager>> create(int device, const StagerOptions& options = {});
  ~HostStager();
  HostStager(const HostStager&) = delete;
  HostStager& operator=(const HostStager&) = delete;

  int device() const { return device_; }
  size_t pinned_bytes() const { return slot_bytes_ * slots_.size(); }

  // Host `src` to device `dst`, in order on `s` (a stream of this device). Returns once `src` has
  // been read into pinned slots (pageable) or the copy is queued (pinned src, which must then stay
  // valid until `s` reaches it); `dst` holds the data in stream order.
  Status to_device(void* dst, const void* src, size_t bytes, const Stream& s);

  // Device `src` (in order on `s`) to host `dst`. Returns when `dst` holds the data.
  Status to_host(void* dst, const void* src, size_t bytes, const Stream& s);

  // Whether `p` is pinned host memory the device can read directly.
  static bool is_pinned(const void* p);

 private:
  HostStager(int device, size_t slot_bytes, unsigned threads);
  Status take_slot(size_t k);  // waits until slot k's last DMA is done
  void parallel_copy(void* dst, const void* src, size_t bytes);

  int device_;
  size_t slot_bytes_;
  std::vector<char*> slots_;          // pinned, slot_bytes_ each
  std::vector<cudaEvent_t> drained_;  // recorded after each slot's last DMA
  ThreadPool pool_;
};

}  // namespace cuzk::cuda
