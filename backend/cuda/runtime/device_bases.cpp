#include "backend/cuda/runtime/device_bases.hpp"

namespace cuzk::cuda {

bool DeviceBases::evict_one_unused_locked() {
  auto oldest = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->second.buffer.use_count() == 1 &&
        (oldest == entries_.end() || it->second.last_used < oldest->second.last_used))
      oldest = it;
  if (oldest == entries_.end()) return false;
  bytes_ -= oldest->second.bytes;
  entries_.erase(oldest);
  arrays_ = entries_.size();
  return true;
}

void DeviceBases::release_unused() {
  std::lock_guard lock(mu_);
  while (evict_one_unused_locked()) {
  }
}

}  // namespace cuzk::cuda
