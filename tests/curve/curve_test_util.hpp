// Random inputs and per-curve traits shared by the curve tests.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <span>

#include "curve/encoding.hpp"
#include "field/sqrt.hpp"

namespace cuzk::test {

// One generator per test, seeded from the hardware; the seed is attached to every failure.
class Rng {
 public:
  Rng() : seed_(std::random_device{}()), gen_(seed_) {}
  uint64_t u64() { return gen_(); }
  uint32_t seed() const { return seed_; }
  size_t below(size_t n) { return size_t(u64() % n); }

 private:
  uint32_t seed_;
  std::mt19937_64 gen_;
};
#define CUZK_SEED_TRACE(rng) SCOPED_TRACE(::testing::Message() << "seed " << (rng).seed())

// Uniform field element by rejection sampling on the canonical value.
template <class F>
F random_mont(Rng& rng) {
  for (;;) {
    uint64_t v[F::N];
    for (auto& w : v) w = rng.u64();
    v[F::N - 1] &= (uint64_t(1) << (F::BITS - 64 * (F::N - 1))) - 1;
    if (F::is_canonical(v)) return F::from_canonical(v);
  }
}
inline Fp random_fp(Rng& rng) { return random_mont<Fp>(rng); }
inline Fr random_fr(Rng& rng) { return random_mont<Fr>(rng); }
inline Fp2 random_fp2(Rng& rng) { return {random_fp(rng), random_fp(rng)}; }

// The group order r as raw limbs, for [r]P (r is not an Fr element).
inline std::array<uint64_t, 4> order_limbs() {
  return {field::FrParams::mod(0), field::FrParams::mod(1), field::FrParams::mod(2), field::FrParams::mod(3)};
}

// Per-curve traits for typed tests.
struct G1Traits {
  using F = Fp;
  using Affine = G1Affine;
  using Jacobian = G1Jacobian;
  using Xyzz = G1Xyzz;
  static constexpr const char* name = "G1";
  static F random_field(Rng& rng) { return random_fp(rng); }
  static Result<Affine> decode(std::span<const uint8_t> in, Check c = Check::full) {
    return g1_decode(in, c);
  }
  static auto compress(const Affine& p) { return g1_compress(p); }
  static auto serialize(const Affine& p) { return g1_serialize(p); }
};
struct G2Traits {
  using F = Fp2;
  using Affine = G2Affine;
  using Jacobian = G2Jacobian;
  using Xyzz = G2Xyzz;
  static constexpr const char* name = "G2";
  static F random_field(Rng& rng) { return random_fp2(rng); }
  static Result<Affine> decode(std::span<const uint8_t> in, Check c = Check::full) {
    return g2_decode(in, c);
  }
  static auto compress(const Affine& p) { return g2_compress(p); }
  static auto serialize(const Affine& p) { return g2_serialize(p); }
};

// [k]G for a fresh random k: a random point of the prime-order subgroup.
template <class T>
typename T::Jacobian random_subgroup_point(Rng& rng) {
  return T::Jacobian::generator().mul(random_fr(rng));
}

// A random point of the whole curve group E(F): random x until x^3 + b is a square. Its order is
// r times a cofactor part, so it is almost never in the subgroup (probability ~1/h).
template <class T>
typename T::Affine random_curve_point(Rng& rng) {
  for (;;) {
    const typename T::F x = T::random_field(rng);
    typename T::F y;
    if (sqrt(x.sqr() * x + T::Affine::params::b(), y)) return {x, (rng.u64() & 1) ? y : -y};
  }
}

template <class J>
bool order_divides_r(const J& p) {
  const auto r = order_limbs();
  return p.mul(r.data(), r.size()).is_inf();
}

}  // namespace cuzk::test
