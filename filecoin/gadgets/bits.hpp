// Bit-order helpers of Filecoin's circuits (rust-fil-proofs: storage-proofs-core/src/util.rs,
// storage-proofs-update/src/gadgets.rs; reference/filecoin-circuits.md §0).
#pragma once

#include <span>
#include <vector>

#include "r1cs/gadgets/num.hpp"

namespace cuzk::filecoin {

// Pads `bits` with constant false up to a multiple of 8, then reverses the bits inside every byte,
// keeping the byte order. On a field element's 255 little-endian bits (to_bits_le) this gives the
// SHA-256 input bits of its 32 little-endian bytes: 256 bits, bit 248 the constant.
std::vector<r1cs::Boolean> reverse_bit_numbering(std::span<const r1cs::Boolean> bits);

// SnapDeals' allocated_num_to_allocated_bits: the 255 bits of x, bit 0 first
// (field_into_allocated_bits_le), then (Σ 2^i·b_i)·(ONE) = (x). 256 rows, 255 aux. Differs from
// to_bits_le only in the form of its last row.
std::vector<r1cs::AllocatedBit> allocated_num_to_allocated_bits(r1cs::ConstraintSystem& cs,
                                                                const r1cs::AllocatedNum& x);

}  // namespace cuzk::filecoin
