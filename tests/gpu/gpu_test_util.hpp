// Shared helpers of the GPU tests: skip without a device, a stream on the chosen device, random
// field elements, a parallel loop for the host references, and device round trips.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/runtime/runtime.hpp"

namespace cuzk::gputest {

// The device under test: $CUZK_TEST_DEVICE, else 0 (named explicitly; never "whatever is current").
inline int test_device() {
  const char* e = std::getenv("CUZK_TEST_DEVICE");
  return e ? std::atoi(e) : 0;
}

#define CUZK_REQUIRE_GPU()                                                                  \
  do {                                                                                      \
    std::string why_;                                                                       \
    const int n_ = ::cuzk::cuda::device_count(&why_);                                       \
    if (n_ <= ::cuzk::gputest::test_device()) GTEST_SKIP() << "GPU test skipped: " << why_; \
  } while (0)

#define CUZK_ASSERT_OK(expr)                                 \
  do {                                                       \
    const auto& st_ = (expr);                                \
    ASSERT_TRUE(st_.ok()) << #expr << ": " << st_.message(); \
  } while (0)

// A seed printed with every failure, so a failing draw can be replayed ($CUZK_TEST_SEED).
inline uint64_t test_seed() {
  static const uint64_t seed = [] {
    const char* e = std::getenv("CUZK_TEST_SEED");
    return e ? std::strtoull(e, nullptr, 0) : std::random_device{}() * 0x9e3779b97f4a7c15ull;
  }();
  return seed;
}

// Uniform in [0, p): random limbs below the modulus's bit length, rejected when >= p. Any
// value < p is a valid Montgomery-form element.
template <class F>
F random_field(std::mt19937_64& rng) {
  for (;;) {
    F x;
    for (size_t i = 0; i < F::N; ++i) x.l[i] = rng();
    const size_t top_bits = F::BITS - 64 * (F::N - 1);
    if (top_bits < 64) x.l[F::N - 1] &= (uint64_t(1) << top_bits) - 1;
    if (F::is_canonical(x.l)) return x;
  }
}

// f(begin, end) over [0, n) split across the host's cores.
template <class Fn>
void parallel_for(size_t n, Fn&& f) {
  const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), 64));
  const size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    const size_t b = t * chunk, e = std::min(n, b + chunk);
    if (b >= e) break;
    pool.emplace_back([&f, b, e] { f(b, e); });
  }
  for (auto& th : pool) th.join();
}

// Indices where got != want (bytewise), at most `max_report` of them, plus the total count.
template <class T>
std::vector<size_t> mismatches(const std::vector<T>& got, const std::vector<T>& want, size_t* total,
                               size_t max_report = 8) {
  std::vector<size_t> idx;
  *total = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      if (idx.size() < max_report) idx.push_back(i);
      ++*total;
    }
  return idx;
}

template <class T>
cuzk::Result<cuda::DeviceBuffer<T>> to_device(const std::vector<T>& v, const cuda::Stream& s) {
  auto b = cuda::DeviceBuffer<T>::alloc(s.device(), v.size());
  if (!b) return b.error();
  if (auto st = b->upload(v.data(), v.size(), s); !st) return st.error();
  return std::move(*b);
}

}  // namespace cuzk::gputest
