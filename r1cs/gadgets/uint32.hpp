// 32-bit words as 32 Booleans (least significant first), for SHA-256. Rotations and shifts are
// free (they renumber bits, shifting in constant zeros); xor costs one constraint per non-constant
// bit; addition of n words costs one constraint plus one booleanity constraint per result bit.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs {

class UInt32 {
 public:
  UInt32() = default;  // the constant 0
  static UInt32 constant(uint32_t value);
  static UInt32 alloc(ConstraintSystem& cs, uint32_t value);
  // 32 bits, most significant first (SHA-256's byte order on the wire).
  static UInt32 from_bits_be(std::span<const Boolean> bits);
  std::vector<Boolean> bits_be() const;

  uint32_t value() const { return value_; }
  const Boolean& bit(unsigned i) const { return bits_[i]; }  // bit i has weight 2^i
  bool is_constant() const;

  UInt32 rotr(unsigned by) const;
  UInt32 shr(unsigned by) const;

 private:
  friend UInt32 xor_words(ConstraintSystem&, const UInt32&, const UInt32&);
  friend UInt32 add_words(ConstraintSystem&, std::span<const UInt32>);
  friend UInt32 ch_words(ConstraintSystem&, const UInt32&, const UInt32&, const UInt32&);
  friend UInt32 maj_words(ConstraintSystem&, const UInt32&, const UInt32&, const UInt32&);

  std::array<Boolean, 32> bits_;
  uint32_t value_ = 0;
};

UInt32 xor_words(ConstraintSystem& cs, const UInt32& a, const UInt32& b);
// Σ operands mod 2^32.
UInt32 add_words(ConstraintSystem& cs, std::span<const UInt32> operands);
// Bitwise SHA-256 choose and majority.
UInt32 ch_words(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
UInt32 maj_words(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);

}  // namespace cuzk::r1cs
