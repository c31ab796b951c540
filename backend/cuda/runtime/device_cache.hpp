// Device blocks that one backend keeps between its stages, so that each proof's stages reuse the
// last proof's buffers instead of calling cudaMalloc and cudaFree.
//
// Why: cudaFree returns only once the whole device is idle, every stream of every worker. On a
// card that two workers share, a worker freeing its H stage's vectors waited there for the other
// worker's queued MSMs, and the device drained to empty before either queued more; a 2^27 proof
// freed seven buffers. Blocks lent by the cache go back to it in stream order (the backend queues
// all of a stage's work on its own streams, so the next stage's work on a reused block runs after
// the last stage's), and only a block the budget needs for something else is ever freed.
//
// The cache never holds more than its ceiling: the owner's budget less what it keeps resident
// outside the cache (bases, the MSM work area). Before it makes a new block it frees idle ones,
// the largest first, until lent + idle + the new block fit; the owner calls trim() before it
// allocates resident memory of its own.
//
// Some blocks are worth more than their bytes: a table that costs a kernel to fill and that every
// proof reads the same (the NTT's 2 GiB of twiddles at 2^27, 2.7 ms a proof to compute). A holder
// names such contents (keep_contents); the block keeps the name while idle, take_kept lends it
// back with its contents, and a plain take() lends it to another use only when no other idle
// block fits (the name is then forgotten). The contents are ordered like the block: written on the
// owner's streams before the block went back, read on them after it is lent again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "backend/cuda/runtime/runtime.hpp"

namespace cuzk::cuda {

struct DeviceCacheStats {
  size_t lent_bytes = 0;  // blocks held by live buffers
  size_t idle_bytes = 0;  // blocks kept for reuse
  uint64_t made = 0;      // blocks allocated from the device
  uint64_t reused = 0;    // requests served by an idle block
  uint64_t kept = 0;      // of those, take_kept's served with the contents they named
  uint64_t freed = 0;     // blocks returned to the device (each one a device-wide wait)
  size_t made_bytes = 0, freed_bytes = 0;
};

class DeviceCache final : public detail::BlockHome {
 public:
  // How blocks are made and returned to the device: cudaMalloc / cudaFree on `device` unless given
  // (tests count the calls on host memory).
  struct Source {
    std::function<Result<void*>(size_t bytes)> alloc;
    std::function<void(void* p)> free;
  };

  // `ceiling()`: the most bytes the cache may hold, lent and idle together, asked at each new block.
  DeviceCache(int device, std::function<size_t()> ceiling, Source source = {});
  ~DeviceCache();
  DeviceCache(const DeviceCache&) = delete;
  DeviceCache& operator=(const DeviceCache&) = delete;

  // `n` elements of T: the smallest idle block that holds them without wasting more than 1/64 of
  // them (or 64 KiB), else a new block. The buffer gives the block back when it is destroyed;
  // the cache must outlive it.
  template <class T>
  Result<DeviceBuffer<T>> take(size_t n) {
    size_t block = 0;
    auto p = take_bytes(n * sizeof(T), block);
    if (!p) return p.error();
    return DeviceBuffer<T>::lent(device_, *p, n, this, block);
  }

  // Like take(), but an idle block last given back under `key` (keep_contents) is lent first, with
  // what it holds: `kept` says whether it was (else the caller fills the block and may name it).
  template <class T>
  Result<DeviceBuffer<T>> take_kept(size_t n, const std::string& key, bool& kept) {
    size_t block = 0;
    auto p = take_bytes(n * sizeof(T), block, &key, &kept);
    if (!p) return p.error();
    return DeviceBuffer<T>::lent(device_, *p, n, this, block);
  }
  // Names what a lent block holds (call once it is filled, or its fill queued): given back, the
  // block keeps `key` for take_kept. A key names one content exactly (it is compared, not hashed).
  template <class T>
  void keep_contents(const DeviceBuffer<T>& b, std::string key) {
    keep_contents_at(b.data(), std::move(key));
  }

  // Frees idle blocks, the largest first, until lent + idle + `room` ≤ the ceiling (or none is
  // left): room for `room` bytes the owner is about to allocate outside the cache.
  void trim(size_t room);
  // Frees every idle block.
  void release_idle();
  DeviceCacheStats stats() const;

 private:
  Result<void*> take_bytes(size_t bytes, size_t& block, const std::string* key = nullptr,
                           bool* kept = nullptr);
  void keep_contents_at(const void* p, std::string key);
  void give_back(void* p, size_t bytes) noexcept override;
  void trim_locked(size_t room);
  void free_block(std::multimap<size_t, void*>::iterator it);

  int device_;
  std::function<size_t()> ceiling_;
  Source source_;
  mutable std::mutex mutex_;
  std::multimap<size_t, void*> idle_;  // by size
  // Blocks named by keep_contents: the lent ones, and the idle ones (which take_kept looks up).
  std::map<const void*, std::string> lent_keys_, idle_keys_;
  DeviceCacheStats stats_;
};

}  // namespace cuzk::cuda
