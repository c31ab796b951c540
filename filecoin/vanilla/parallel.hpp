// A blocking parallel loop over [0, n) for the vanilla side's independent work (parent
// generation, tree levels, column hashes): the range is split into one contiguous chunk per
// hardware thread, and small ranges run on the calling thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace cuzk::filecoin::vanilla {

// body(begin, end) for disjoint chunks covering [0, n). `min_chunk` is the least work worth a
// thread of its own.
template <class Body>
void parallel_for(uint64_t n, uint64_t min_chunk, Body&& body) {
  const uint64_t hw = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t threads =
      std::min<uint64_t>(hw, std::max<uint64_t>(1, n / std::max<uint64_t>(1, min_chunk)));
  if (threads <= 1) {
    if (n) body(uint64_t(0), n);
    return;
  }
  const uint64_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (uint64_t t = 1; t < threads; ++t) {
    const uint64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&body, b, e] { body(b, e); });
  }
  body(uint64_t(0), std::min(n, chunk));
  for (std::thread& th : pool) th.join();
}

}  // namespace cuzk::filecoin::vanilla
