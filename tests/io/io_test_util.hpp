// Random inputs and a mutation engine shared by the io tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "curve/point.hpp"
#include "field/fields.hpp"

namespace cuzk::test {

// One generator per test, seeded from the hardware; the seed goes into every failure message.
class Rng {
 public:
  Rng() : seed_(std::random_device{}()), gen_(seed_) {}
  uint64_t u64() { return gen_(); }
  uint32_t seed() const { return seed_; }
  size_t below(size_t n) { return n == 0 ? 0 : size_t(u64() % n); }

 private:
  uint32_t seed_;
  std::mt19937_64 gen_;
};
#define CUZK_SEED_TRACE(rng) SCOPED_TRACE(::testing::Message() << "seed " << (rng).seed())

inline Fr random_fr(Rng& rng) {
  for (;;) {
    uint64_t v[Fr::N];
    for (auto& w : v) w = rng.u64();
    v[Fr::N - 1] &= (uint64_t(1) << 63) - 1;
    if (Fr::is_canonical(v)) return Fr::from_canonical(v);
  }
}

// n random subgroup points: P = k*G for a random k, then P + G, P + 2G, ... (one scalar
// multiplication, then cheap additions), none at infinity.
template <class A>
std::vector<A> random_points(Rng& rng, size_t n) {
  using J = curve::jacobian_t<typename A::field, typename A::params>;
  const A g = A::generator();
  J acc = g.mul(random_fr(rng));
  std::vector<J> jac(n);
  for (size_t i = 0; i < n; ++i) {
    acc = acc.add_mixed(g);
    jac[i] = acc;
  }
  std::vector<A> out(n);
  curve::batch_to_affine(jac.data(), out.data(), n);
  for (auto& p : out)
    if (p.is_inf()) p = g;  // probability ~ n / r
  return out;
}
inline G1Affine random_g1(Rng& rng) { return random_points<G1Affine>(rng, 1)[0]; }
inline G2Affine random_g2(Rng& rng) { return random_points<G2Affine>(rng, 1)[0]; }

// One random damage to a valid file: truncation (at a chosen boundary or anywhere), byte flips,
// a random 4- or 8-byte field overwritten with a huge or random value, inserted or deleted bytes.
// `boundaries` are offsets where structures begin (section headers, counts), so that truncations
// and count rewrites hit the places parsers are most likely to get wrong.
inline std::vector<uint8_t> mutate(Rng& rng, const std::vector<uint8_t>& in,
                                   std::span<const size_t> boundaries) {
  std::vector<uint8_t> b = in;
  if (b.empty()) return b;
  const auto pick_offset = [&]() -> size_t {
    if (!boundaries.empty() && rng.below(2) == 0)
      return std::min(b.size() - 1, boundaries[rng.below(boundaries.size())]);
    return rng.below(b.size());
  };
  switch (rng.below(7)) {
    case 0:  // truncate
      b.resize(pick_offset());
      break;
    case 1: {  // flip 1..8 random bits
      const size_t n = 1 + rng.below(8);
      for (size_t i = 0; i < n; ++i) b[rng.below(b.size())] ^= uint8_t(1u << rng.below(8));
      break;
    }
    case 2: {  // a 32-bit field: huge, zero, off by one, random (little or big endian alike)
      const size_t at = pick_offset();
      const uint32_t choices[] = {0xffffffffu, 0x80000000u, 0x7fffffffu, 0, 1, uint32_t(rng.u64())};
      const uint32_t v = choices[rng.below(6)];
      for (size_t i = 0; i < 4 && at + i < b.size(); ++i) b[at + i] = uint8_t(v >> (8 * i));
      break;
    }
    case 3: {  // a 64-bit field (section sizes): huge or overflowing
      const size_t at = pick_offset();
      const uint64_t choices[] = {~0ull, ~0ull - 11, 1ull << 63, 1ull << 40, uint64_t(rng.u64())};
      const uint64_t v = choices[rng.below(5)];
      for (size_t i = 0; i < 8 && at + i < b.size(); ++i) b[at + i] = uint8_t(v >> (8 * i));
      break;
    }
    case 4: {  // random bytes over a range
      const size_t at = pick_offset(), n = 1 + rng.below(64);
      for (size_t i = 0; i < n && at + i < b.size(); ++i) b[at + i] = uint8_t(rng.u64());
      break;
    }
    case 5: {  // delete a range
      const size_t at = pick_offset(), n = 1 + rng.below(16);
      b.erase(b.begin() + at, b.begin() + std::min(b.size(), at + n));
      break;
    }
    default: {  // insert random bytes
      const size_t at = pick_offset(), n = 1 + rng.below(16);
      std::vector<uint8_t> junk(n);
      for (auto& x : junk) x = uint8_t(rng.u64());
      b.insert(b.begin() + at, junk.begin(), junk.end());
      break;
    }
  }
  return b;
}

}  // namespace cuzk::test
