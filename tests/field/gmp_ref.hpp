// Test helpers: GMP as the reference for the Montgomery fields, and seeded random elements of
// every field of the tower. Test code only.
#pragma once

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "field/fp12.hpp"

namespace cuzk::test {

inline mpz_class limbs_to_mpz(const uint64_t* v, size_t n) {
  mpz_class x;
  mpz_import(x.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, v);
  return x;
}

// Little-endian 64-bit limbs of x >= 0 (at least one limb).
inline std::vector<uint64_t> mpz_to_limbs(const mpz_class& x) {
  std::vector<uint64_t> v(mpz_sizeinbase(x.get_mpz_t(), 2) / 64 + 1, 0);
  size_t count = 0;
  mpz_export(v.data(), &count, -1, sizeof(uint64_t), 0, 0, x.get_mpz_t());
  v.resize(count == 0 ? 1 : count);
  return v;
}

template <class F>
mpz_class modulus() {
  uint64_t v[F::N];
  for (size_t i = 0; i < F::N; ++i) v[i] = F::params::mod(i);
  return limbs_to_mpz(v, F::N);
}

template <class F>
mpz_class to_mpz(const F& a) {
  uint64_t v[F::N];
  a.to_canonical(v);
  return limbs_to_mpz(v, F::N);
}

// x mod the field's modulus, into Montgomery form through the code under test's own entry point.
template <class F>
F from_mpz(const mpz_class& x) {
  mpz_class m = x % modulus<F>();
  if (m < 0) m += modulus<F>();
  uint64_t v[F::N] = {};
  size_t count = 0;
  mpz_export(v, &count, -1, sizeof(uint64_t), 0, 0, m.get_mpz_t());
  return F::from_canonical(v);
}

// A generator seeded from std::random_device; tests SCOPED_TRACE(rng.trace()) so that a failure
// names the seed that reproduces it.
struct Rng {
  uint64_t seed;
  std::mt19937_64 gen;
  Rng() : seed((uint64_t(std::random_device{}()) << 32) | std::random_device{}()), gen(seed) {}
  std::string trace() const { return "seed = " + std::to_string(seed); }
  uint64_t u64() { return gen(); }
  // Uniform enough: 512 random bits reduced mod the modulus.
  mpz_class below(const mpz_class& m) {
    uint64_t v[8];
    for (auto& x : v) x = gen();
    return limbs_to_mpz(v, 8) % m;
  }
  template <class F>
  F fp() {
    return from_mpz<F>(below(modulus<F>()));
  }
  Fp2 fp2() { return {fp<Fp>(), fp<Fp>()}; }
  Fp6 fp6() { return {fp2(), fp2(), fp2()}; }
  Fp12 fp12() { return {fp6(), fp6()}; }
};

// Edge values of a field: 0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2, and 2^k - 1, 2^k, 2^k + 1 for k
// up to the modulus's bit length (reduced when they exceed it).
template <class F>
std::vector<mpz_class> edge_values() {
  const mpz_class m = modulus<F>();
  std::vector<mpz_class> out = {0, 1, 2, m - 1, m - 2, (m - 1) / 2, (m + 1) / 2};
  for (size_t k = 1; k <= F::BITS; k += (k < 70 || k > F::BITS - 70) ? 1 : 17) {
    mpz_class t = mpz_class(1) << k;
    for (const mpz_class& x : {mpz_class(t - 1), t, mpz_class(t + 1)}) out.push_back(x % m);
  }
  return out;
}

}  // namespace cuzk::test
