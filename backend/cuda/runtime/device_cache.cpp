#include "backend/cuda/runtime/device_cache.hpp"

#include <algorithm>
#include <utility>

namespace cuzk::cuda {

namespace {
// The most a reused block may exceed the request by. A stage's plan counts its requests, and the
// blocks lent for them may exceed that by this much, so it stays small: a proof repeats the last
// one's sizes exactly, and a block too large for a request stays idle for the next.
size_t slack(size_t bytes) { return std::max(bytes / 64, size_t(64) << 10); }
}  // namespace

DeviceCache::DeviceCache(int device, std::function<size_t()> ceiling, Source source)
    : device_(device), ceiling_(std::move(ceiling)), source_(std::move(source)) {
  if (!source_.alloc) source_.alloc = [device](size_t bytes) { return detail::device_alloc(device, bytes); };
  if (!source_.free) source_.free = [device](void* p) { detail::device_free(device, p); };
}

DeviceCache::~DeviceCache() { release_idle(); }

Result<void*> DeviceCache::take_bytes(size_t bytes, size_t& block, const std::string* key, bool* kept) {
  bytes = std::max<size_t>(bytes, 1);
  std::lock_guard lock(mutex_);
  if (kept) *kept = false;
  const auto lend = [&](std::multimap<size_t, void*>::iterator it) {
    block = it->first;
    void* p = it->second;
    idle_.erase(it);
    stats_.idle_bytes -= block;
    stats_.lent_bytes += block;
    ++stats_.reused;
    return p;
  };
  const auto first = idle_.lower_bound(bytes), last = idle_.upper_bound(bytes + slack(bytes));
  if (key)
    for (auto it = first; it != last; ++it)
      if (auto k = idle_keys_.find(it->second); k != idle_keys_.end() && k->second == *key) {
        lent_keys_.insert(idle_keys_.extract(k));
        *kept = true;
        ++stats_.kept;
        return lend(it);
      }
  // The smallest block that fits, one that holds named contents only when no other does.
  auto pick = last;
  for (auto it = first; it != last; ++it) {
    if (!idle_keys_.count(it->second)) {
      pick = it;
      break;
    }
    if (pick == last) pick = it;
  }
  if (pick != last) {
    idle_keys_.erase(pick->second);
    return lend(pick);
  }
  trim_locked(bytes);
  auto p = source_.alloc(bytes);
  if (!p && !idle_.empty()) {  // memory the accounting did not see (another process): make room
    trim_locked(SIZE_MAX);
    p = source_.alloc(bytes);
  }
  if (!p) return p.error();
  block = bytes;
  stats_.lent_bytes += block;
  ++stats_.made;
  stats_.made_bytes += block;
  return *p;
}

void DeviceCache::keep_contents_at(const void* p, std::string key) {
  std::lock_guard lock(mutex_);
  lent_keys_[p] = std::move(key);
}

void DeviceCache::give_back(void* p, size_t bytes) noexcept {
  std::lock_guard lock(mutex_);
  stats_.lent_bytes -= bytes;
  stats_.idle_bytes += bytes;
  idle_.emplace(bytes, p);
  if (auto k = lent_keys_.find(p); k != lent_keys_.end()) idle_keys_.insert(lent_keys_.extract(k));
}

void DeviceCache::trim(size_t room) {
  std::lock_guard lock(mutex_);
  trim_locked(room);
}

void DeviceCache::release_idle() {
  std::lock_guard lock(mutex_);
  trim_locked(SIZE_MAX);
}

void DeviceCache::trim_locked(size_t room) {
  const size_t ceiling = room == SIZE_MAX ? 0 : ceiling_();
  while (!idle_.empty() && (room == SIZE_MAX || stats_.lent_bytes + stats_.idle_bytes > ceiling ||
                            room > ceiling - stats_.lent_bytes - stats_.idle_bytes))
    free_block(std::prev(idle_.end()));
}

void DeviceCache::free_block(std::multimap<size_t, void*>::iterator it) {
  idle_keys_.erase(it->second);
  source_.free(it->second);
  stats_.idle_bytes -= it->first;
  ++stats_.freed;
  stats_.freed_bytes += it->first;
  idle_.erase(it);
}

DeviceCacheStats DeviceCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace cuzk::cuda
