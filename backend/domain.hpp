// The evaluation domain of a proving key: which 2^32-th root of unity its domains are built from,
// and the coset the prover's H polynomial is evaluated on. One definition for every backend and for
// the keys (groth16::ProvingKey::convention), since a key must be used with the convention it was
// made with, or the proofs are invalid (formats.md §1, §4.7):
//
//   bellman: ω_{2^32} = 7^t, the root of bellman, bellperson, blstrs and sppark; the coset shift
//            is g = 7 (evaluations at 7·ω^j, Z(7ω^j) = 7^n − 1, formats.md §3.2);
//   snarkjs: ω_{2^32} = 5^t, ffjavascript's root (5 is the smallest non-residue); the coset shift
//            is ω_{2n}, so the coset is the odd points of the 2n-domain (snarkjs groth16_prove.js).
//
// with t = (r − 1)/2^32, r the order of Fr.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/fields.hpp"

namespace cuzk {

enum class RootConvention {
  bellman,  // ω from generator 7
  snarkjs,  // ω from generator 5
};

// x^(2^k): x squared k times.
inline Fr square_n_times(Fr x, unsigned k) {
  for (unsigned i = 0; i < k; ++i) x = x.sqr();
  return x;
}

// ω_{2^32} of a convention: its generator raised to t = (r − 1)/2^32.
inline Fr root_of_unity_2_32(RootConvention convention) {
  using P = Fr::params;
  uint64_t t[Fr::N];  // (r − 1) >> S, little-endian limbs
  for (size_t i = 0; i < Fr::N; ++i) {
    const uint64_t lo = (i == 0 ? P::mod(0) - 1 : P::mod(i)) >> P::S;
    const uint64_t hi = i + 1 < Fr::N ? P::mod(i + 1) << (64 - P::S) : 0;
    t[i] = lo | hi;
  }
  return Fr::from_u64(convention == RootConvention::bellman ? 7 : 5).pow(t, Fr::N);
}

// ω of the domain of 2^log_n points (log_n <= 32).
inline Fr domain_root(RootConvention convention, unsigned log_n) {
  return square_n_times(root_of_unity_2_32(convention), Fr::params::S - log_n);
}

// The convention's coset shift for the domain of 2^log_n points (log_n < 32).
inline Fr default_coset_shift(RootConvention convention, unsigned log_n) {
  if (convention == RootConvention::bellman) return Fr::from_u64(7);
  return square_n_times(root_of_unity_2_32(convention), Fr::params::S - log_n - 1);
}

}  // namespace cuzk
