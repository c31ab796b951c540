// Shared helpers of the r1cs tests: a fresh seed per run, printed on failure.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "field/fields.hpp"

namespace cuzk::r1cs::test {

inline uint64_t fresh_seed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) ^ rd();
}

// Uniform enough for tests: 254 random bits are always < r.
inline Fr random_fr(std::mt19937_64& rng) {
  uint64_t v[Fr::N];
  for (auto& x : v) x = rng();
  v[Fr::N - 1] &= (uint64_t(1) << 62) - 1;
  return Fr::from_canonical(v);
}

inline std::string seed_trace(uint64_t seed) { return "seed = " + std::to_string(seed); }

}  // namespace cuzk::r1cs::test
