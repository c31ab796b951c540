// Helpers shared by the CPU backend tests: seeded randomness and hex constants.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "field/fields.hpp"

namespace cuzk::test {

inline uint64_t fresh_seed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) | rd();
}

// A uniformly random element of a prime field (rejection sampling on the canonical value).
template <class F>
F random_field(std::mt19937_64& rng) {
  for (;;) {
    uint64_t v[F::N];
    for (auto& x : v) x = rng();
    v[F::N - 1] &= ~uint64_t(0) >> (64 * F::N - F::BITS);
    if (F::is_canonical(v)) return F::from_canonical(v);
  }
}

// A field element from a big-endian hex string (no 0x), e.g. the constants of formats.md.
template <class F>
F from_hex(const std::string& hex) {
  uint64_t v[F::N] = {};
  size_t bit = 0;
  for (size_t i = hex.size(); i-- > 0; bit += 4) {
    const char c = hex[i];
    const uint64_t d = c <= '9' ? uint64_t(c - '0') : uint64_t((c | 0x20) - 'a' + 10);
    v[bit / 64] |= d << (bit % 64);
  }
  return F::from_canonical(v);
}

}  // namespace cuzk::test
