// 32-bit words as 32 Booleans, least significant first, as bellperson's UInt32 builds them
// (reference/filecoin-circuits.md §2.4). Rotations and shifts renumber bits (a shift fills with
// constant false) and cost nothing; xor is Boolean xor bit by bit; addmany adds inside a MultiEq.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "r1cs/gadgets/boolean.hpp"
#include "r1cs/gadgets/multieq.hpp"

namespace cuzk::r1cs {

class UInt32 {
 public:
  UInt32() = default;  // the constant 0
  // 32 constant Booleans.
  static UInt32 constant(uint32_t value);
  // 32 AllocatedBits, bit 0 first.
  static UInt32 alloc(ConstraintSystem& cs, uint32_t value);
  // 32 bits, most significant first (SHA-256's order): bit 31 - i of the word is bits[i].
  static UInt32 from_bits_be(std::span<const Boolean, 32> bits);
  // The bits most significant first (bellperson's into_bits_be).
  std::array<Boolean, 32> bits_be() const;

  uint32_t value() const { return value_; }
  const Boolean& bit(unsigned i) const { return bits_[i]; }  // bit i has weight 2^i
  bool is_constant() const;

  UInt32 rotr(unsigned by) const;
  UInt32 shr(unsigned by) const;
  // Bitwise Boolean xor, bit 0 first.
  UInt32 xor_with(ConstraintSystem& cs, const UInt32& other) const;

  // Bitwise sha256_ch / sha256_maj, bit 0 first.
  static UInt32 sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
  static UInt32 sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);

  // Σ operands mod 2^32, bellperson's addmany (2 to 10 operands). When every bit of every
  // operand is constant, the constant sum, at no cost. Otherwise w result bits, w the bit length
  // of n·(2^32 - 1) (33 for 2 operands, 34 for 3–4, 35 for 5–8), are allocated bit 0 first, and
  // then Σ_k Σ_i 2^i·bit_i(op_k) = Σ_j 2^j·r_j is handed to `eq`, which may emit its pending row
  // at that point (after the result bits' rows). The low 32 result bits are the word.
  static UInt32 addmany(MultiEq& eq, std::span<const UInt32> operands);

 private:
  std::array<Boolean, 32> bits_;
  uint32_t value_ = 0;
};

}  // namespace cuzk::r1cs
