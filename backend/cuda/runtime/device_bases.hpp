// The base arrays of parameter sets kept on one device, shared by every worker of that device, and
// the other read-only arrays a parameter set keeps there (a compiled circuit's matrices).
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
// recently used first, when another one needs the room. A compiled circuit is held alike (found by
// its id): one copy of a WindowPoSt's 8.9 GB of matrices serves both workers of an H200, where each
// kept its own and each first proof of a worker uploaded them again.
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

  // Another read-only object of a parameter set (a compiled circuit on the device), found by `id`
  // (nonzero, unique to its content): made by `make` (a Result<T> of `bytes` device bytes on this
  // device, complete before it returns) if it is not here yet and the store has that much room
  // free; nullptr otherwise. It never pushes out base arrays (a context would upload them again
  // at once, and the two would take turns on every proof), while bases push out an idle object
  // like any idle array. The handle keeps it alive, and a second worker asking while it is made
  // waits for it.
  template <class T, class Make>
  Result<std::shared_ptr<const T>> get_object(uint64_t id, size_t bytes, Make&& make);

  // Drops every array no context holds (a parameter set was evicted).
  void release_unused();

 private:
  struct Entry {
    std::shared_ptr<const void> buffer;  // a DeviceBuffer<Affine>, or a get_object object
    uint64_t print = 0;
    size_t bytes = 0;
    uint64_t last_used = 0;
  };
  using Key = std::tuple<const void*, size_t, size_t>;  // address, count, element size

  // Frees the least recently used array nobody holds; false if there is none. Caller holds mu_.
  bool evict_one_unused_locked();
  // The entry of `key` made by `make` (a Result<std::shared_ptr<const T>>) when absent or stale,
  // under the capacity, pushing out idle arrays for room where `may_evict`; shared by get and
  // get_object.
  template <class T, class Make>
  Result<std::shared_ptr<const T>> find_or_make(const Key& key, uint64_t print, size_t bytes, bool may_evict,
                                                Make&& make);

  const int device_;
  const size_t capacity_;
  mutable std::mutex mu_;  // held across an upload, so an array is uploaded once
  std::map<Key, Entry> entries_;
  std::atomic<size_t> bytes_{0}, arrays_{0}, uploads_{0};  // changed under mu_
  uint64_t clock_ = 0;
};

template <class T, class Make>
Result<std::shared_ptr<const T>> DeviceBases::find_or_make(const Key& key, uint64_t print, size_t bytes,
                                                           bool may_evict, Make&& make) {
  using Handle = std::shared_ptr<const T>;
  std::lock_guard lock(mu_);
  ++clock_;
  if (auto it = entries_.find(key); it != entries_.end()) {
    if (it->second.print == print) {
      it->second.last_used = clock_;
      return std::static_pointer_cast<const T>(it->second.buffer);
    }
    // Another array now lives at that address. A context still holding the old copy keeps it
    // alive (and finds the mismatch itself); the store forgets it.
    bytes_ -= it->second.bytes;
    entries_.erase(it);
    arrays_ = entries_.size();
  }
  while (may_evict && bytes_ + bytes > capacity_ && evict_one_unused_locked()) {
  }
  if (bytes_ + bytes > capacity_) return Handle();
  Result<Handle> made = make();
  if (!made) return made.error();
  entries_[key] = Entry{*made, print, bytes, clock_};
  bytes_ += bytes;
  arrays_ = entries_.size();
  ++uploads_;
  return *made;
}

template <class Affine>
Result<std::shared_ptr<const DeviceBuffer<Affine>>> DeviceBases::get(std::span<const Affine> bases,
                                                                     uint64_t print, HostStager* stager,
                                                                     const Stream& s) {
  using Handle = std::shared_ptr<const DeviceBuffer<Affine>>;
  const Key key{static_cast<const void*>(bases.data()), bases.size(), sizeof(Affine)};
  return find_or_make<DeviceBuffer<Affine>>(
      key, print, bases.size() * sizeof(Affine), true, [&]() -> Result<Handle> {
        auto buf = DeviceBuffer<Affine>::alloc(device_, bases.size());
        if (!buf) return buf.error();
        if (stager) {
          CUZK_TRY_STATUS(stager->to_device(buf->data(), bases.data(), bases.size() * sizeof(Affine), s));
        } else {
          CUZK_TRY_STATUS(buf->upload(bases.data(), bases.size(), s));
        }
        CUZK_TRY_STATUS(s.synchronize());  // complete before another worker's stream reads it
        return std::make_shared<const DeviceBuffer<Affine>>(std::move(*buf));
      });
}

template <class T, class Make>
Result<std::shared_ptr<const T>> DeviceBases::get_object(uint64_t id, size_t bytes, Make&& make) {
  using Handle = std::shared_ptr<const T>;
  // No array has a null address: (null, id, 0) names objects apart from every base array.
  const Key key{nullptr, size_t(id), 0};
  return find_or_make<T>(key, id, bytes, false, [&]() -> Result<Handle> {
    Result<T> made = make();
    if (!made) return made.error();
    return std::make_shared<const T>(std::move(*made));
  });
}

}  // namespace cuzk::cuda
