// Uniform random field elements from a seeded generator, so that a failing run can be replayed
// from the seed it printed. Not for secrets: the prover's blinding factors need a CSPRNG.
#pragma once

#include <cstdint>
#include <random>

#include "field/fp2.hpp"

namespace cuzk::cli {

using Rng = std::mt19937_64;

// Rejection sampling on the modulus' bit length: uniform, and at most ~2 draws on average.
template <class F>
F random_element(Rng& rng) {
  constexpr unsigned top_bits = F::BITS % 64;
  constexpr uint64_t top_mask = top_bits == 0 ? ~uint64_t{0} : (uint64_t{1} << top_bits) - 1;
  uint64_t v[F::N];
  do {
    for (auto& limb : v) limb = rng();
    v[F::N - 1] &= top_mask;
  } while (!F::is_canonical(v));
  return F::from_canonical(v);
}

template <class F>
F random_nonzero(Rng& rng) {
  F x;
  do x = random_element<F>(rng);
  while (x.is_zero());
  return x;
}

inline Fp2 random_fp2(Rng& rng) { return {random_element<Fp>(rng), random_element<Fp>(rng)}; }

}  // namespace cuzk::cli
