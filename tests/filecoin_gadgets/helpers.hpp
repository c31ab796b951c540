// Shared helpers of the Filecoin gadget tests.
#pragma once

#include <random>
#include <vector>

#include "filecoin/gadgets/bits.hpp"
#include "filecoin/types/domain.hpp"
#include "r1cs/matrices.hpp"
#include "tests/r1cs/test_util.hpp"

namespace cuzk::filecoin::test {

using r1cs::test::fresh_seed;
using r1cs::test::random_fr;
using r1cs::test::seed_trace;

// Values whose bit patterns matter: zero, one, r - 1 (bit 254 set), 2^254 (only bit 254), 2^253,
// 2^254 + 2^253 + … (the top byte 0x7f-ish), and a random one.
inline std::vector<Fr> edge_values(std::mt19937_64& rng) {
  uint64_t top[4] = {~0ull, ~0ull, ~0ull, 0x3fffffffffffffffull};  // 2^254 - 1
  uint64_t b254[4] = {0, 0, 0, 1ull << 62};
  uint64_t b253[4] = {0, 0, 0, 1ull << 61};
  return {Fr::zero(),
          Fr::one(),
          -Fr::one(),
          Fr::from_canonical(b254),
          Fr::from_canonical(b253),
          Fr::from_canonical(top),
          random_fr(rng)};
}

// The PoRep circuit's decomposition of a value: reverse_bit_numbering(to_bits_le(x)).
inline std::vector<r1cs::Boolean> porep_bits(r1cs::ConstraintSystem& cs, const r1cs::AllocatedNum& x) {
  return reverse_bit_numbering(r1cs::to_bits_le(cs, x));
}

// 32 bytes allocated as 256 bits, most significant bit of each byte first
// (storage-proofs-core's bytes_into_boolean_vec_be), or least significant first (bytes_into_boolean_vec).
inline std::vector<r1cs::Boolean> alloc_byte_bits(r1cs::ConstraintSystem& cs, const Domain& d,
                                                  bool msb_first) {
  std::vector<r1cs::Boolean> bits;
  for (uint8_t byte : d)
    for (int i = 0; i < 8; ++i)
      bits.push_back(r1cs::Boolean::alloc(cs, (byte >> (msb_first ? 7 - i : i)) & 1));
  return bits;
}

inline Domain domain_of(const r1cs::AllocatedNum& x) { return fr_to_domain(x.value); }

}  // namespace cuzk::filecoin::test
