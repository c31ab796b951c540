// 64-bit words as 64 Booleans, least significant first: storage-proofs-core's UInt64
// (reference/filecoin-circuits.md §2.4). The PoRep circuit allocates its challenge this way,
// exposes it as one public input and feeds its bits, most significant first, to the label hash.
#pragma once

#include <array>
#include <cstdint>

#include "r1cs/gadgets/boolean.hpp"

namespace cuzk::filecoin {

class UInt64 {
 public:
  UInt64() = default;  // the constant 0
  static UInt64 constant(uint64_t value);
  // 64 AllocatedBits, bit 0 first: 64 rows, 64 aux.
  static UInt64 alloc(r1cs::ConstraintSystem& cs, uint64_t value);

  uint64_t value() const { return value_; }
  const r1cs::Boolean& bit(unsigned i) const { return bits_[i]; }  // weight 2^i
  const std::array<r1cs::Boolean, 64>& bits_le() const { return bits_; }
  std::array<r1cs::Boolean, 64> bits_be() const;

  // pack_into_inputs over the 64 little-endian bits: input p; (Σ 2^i·bit_i)·(ONE) = (p), p = the
  // value. Returns p.
  r1cs::Variable pack_into_input(r1cs::ConstraintSystem& cs) const;

 private:
  std::array<r1cs::Boolean, 64> bits_;
  uint64_t value_ = 0;
};

}  // namespace cuzk::filecoin
