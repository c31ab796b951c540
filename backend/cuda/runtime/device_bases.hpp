// The base arrays of parameter sets kept on one device, shared by every worker of that device.
//
// A resident MSM context is mostly bases (56 GiB of the 2^27 PoRep key, against a work area of a
// few GiB), and the bases never change. So the workers of one GPU keep one copy between them: each
// worker's CudaBackend keeps its own contexts and work area, which only reference the bases held
// here. Two workers on one card can then both run resident, one computing H while the other runs
// its MSMs, where two private copies would not fit.
//
// The store has a fixed capacity, carved out of the device's budget before the workers' shares.
// An array is found by address, count and fingerprint (a freed key's address is soon reused by the
// next key); it is uploaded by the first worker that asks, and stays while a call holds it (the
// backends hold their handles for one call at a time); arrays nobody holds give way, least
// recently used first, when another one needs the room.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>

#include "backend/cuda/runtime/runtime.hpp"
#include "backend/cuda/runtime/staging.hpp"
#include "common/result.hpp"

namespace cuzk::cuda {

class DeviceBases {
 public:
  DeviceBases(int device, size_t capacity) : device_(device), capacity_(capacity) {}

  int device() const { return device_; }
  size_t capacity() const { return capacity_; }
  // Read without the lock (an upload holds it for seconds), for status pages. uploads: made so far
  // (an array evicted and asked for again counts twice).
  size_t bytes() const { return bytes_.load(); }
  size_t arrays() const { return arrays_.load(); }
  size_t uploads() const { return uploads_.load(); }

  // The device copy of `bases` (identified by `print`, see above), uploaded through `stager` on `s`
  // if it is not here yet and fits; nullptr when it does not fit beside the arrays in use. The
  // handle keeps the copy alive. Thread-safe: a second worker asking for the same array while it
  // uploads waits for it.
  template <class Affine>
  Result<std::shared_ptr<const DeviceBuffer<Affine>>> get(std::span<const Affine> bases, uint64_t print,
                                                          HostStager* stager, const Stream& s);

  // Drops every array no context holds (a parameter set was evicted).
  void release_unused();

 private:
  struct Entry {
    std::shared_ptr<const void> buffer;  // a DeviceBuffer<Affine>
    uint64_t print = 0;
    size_t bytes = 0;
    uint64_t last_used = 0;
  };
  using Key = std::tuple<const void*, size_t, size_t>;  // address, count, element size

  // Frees the least recently used array nobody holds; false if there is none. Caller holds mu_.
  bool evict_one_unused_locked();

  const int device_;
  const size_t capacity_;
  mutable std::mutex mu_;  // held across an upload, so an array is uploaded once
  std::map<Key, Entry> entries_;
  std::atomic<size_t> bytes_{0}, arrays_{0}, uploads_{0};  // changed under mu_
  uint64_t clock_ = 0;
};

template <class Affine>
Result<std::shared_ptr<const DeviceBuffer<Affine>>> DeviceBases::get(std::span<const Affine> bases,
                                                                     uint64_t print, HostStager* stager,
                                                                     const Stream& s) {
  using Handle = std::shared_ptr<const DeviceBuffer<Affine>>;
  const Key key{static_cast<const void*>(bases.data()), bases.size(), sizeof(Affine)};
  const size_t bytes = bases.size() * sizeof(Affine);
  std::lock_guard lock(mu_);
  ++clock_;
  if (auto it = entries_.find(key); it != entries_.end()) {
    if (it->second.print == print) {
      it->second.last_used = clock_;
      return std::static_pointer_cast<const DeviceBuffer<Affine>>(it->second.buffer);
    }
    // Another array now lives at that address. A context still holding the old copy keeps it
    // alive (and finds the mismatch itself); the store forgets it.
    bytes_ -= it->second.bytes;
    entries_.erase(it);
    arrays_ = entries_.size();
  }
  while (bytes_ + bytes > capacity_ && evict_one_unused_locked()) {
  }
  if (bytes_ + bytes > capacity_) return Handle();
  auto buf = DeviceBuffer<Affine>::alloc(device_, bases.size());
  if (!buf) return buf.error();
  if (stager) {
    CUZK_TRY_STATUS(stager->to_device(buf->data(), bases.data(), bytes, s));
  } else {
    CUZK_TRY_STATUS(buf->upload(bases.data(), bases.size(), s));
  }
  CUZK_TRY_STATUS(s.synchronize());  // complete before another worker's stream reads it
  auto handle = std::make_shared<const DeviceBuffer<Affine>>(std::move(*buf));
  entries_[key] = Entry{handle, print, bytes, clock_};
  bytes_ += bytes;
  arrays_ = entries_.size();
  ++uploads_;
  return Handle(handle);
}

}  // namespace cuzk::cuda
