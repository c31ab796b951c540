// Packing bits into field elements, as bellperson's multipack builds it (and rust-fil-proofs'
// storage-proofs-core copy of pack_bits): chunks of at most Fr's capacity, 254 bits, read
// little-endian, bit i with weight 2^i (reference/filecoin-circuits.md §2.3).
#pragma once

#include <span>
#include <vector>

#include "r1cs/gadgets/num.hpp"

namespace cuzk::r1cs {

inline constexpr size_t kFrCapacity = Fr::BITS - 1;  // 254: packing stays injective below r

// The first min(254, bits.size()) bits as one aux variable: alloc x; (Σ 2^i·bit_i)·(ONE) = (x).
AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits);
// For each chunk of 254 bits, in order: input p; (Σ 2^i·bit_i)·(ONE) = (p). Returns the inputs.
std::vector<Variable> pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits);

// Out of circuit, the values pack_into_inputs gives: each 254-bit chunk as a little-endian integer.
std::vector<Fr> compute_multipacking(std::span<const bool> bits);
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits);

}  // namespace cuzk::r1cs
