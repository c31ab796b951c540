#include "r1cs/gadgets/uint32.hpp"

#include <bit>

#include "r1cs/gadgets/num.hpp"

namespace cuzk::r1cs {

UInt32 UInt32::constant(uint32_t value) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = Boolean::constant((value >> i) & 1);
  w.value_ = value;
  return w;
}

UInt32 UInt32::alloc(ConstraintSystem& cs, uint32_t value) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = Boolean::alloc(cs, (value >> i) & 1);
  w.value_ = value;
  return w;
}

UInt32 UInt32::from_bits_be(std::span<const Boolean> bits) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) {
    w.bits_[i] = bits[31 - i];
    w.value_ |= uint32_t(bits[31 - i].value()) << i;
  }
  return w;
}

std::vector<Boolean> UInt32::bits_be() const { return {bits_.rbegin(), bits_.rend()}; }

bool UInt32::is_constant() const {
  for (const Boolean& b : bits_)
    if (!b.is_constant()) return false;
  return true;
}

UInt32 UInt32::rotr(unsigned by) const {
  by %= 32;
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = bits_[(i + by) % 32];
  w.value_ = std::rotr(value_, int(by));
  return w;
}

UInt32 UInt32::shr(unsigned by) const {
  UInt32 w;  // all constant zeros
  for (unsigned i = 0; i + by < 32; ++i) w.bits_[i] = bits_[i + by];
  w.value_ = by >= 32 ? 0 : value_ >> by;
  return w;
}

UInt32 xor_words(ConstraintSystem& cs, const UInt32& a, const UInt32& b) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = xor_bits(cs, a.bits_[i], b.bits_[i]);
  w.value_ = a.value_ ^ b.value_;
  return w;
}

UInt32 ch_words(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = ch_bits(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
  w.value_ = (a.value_ & b.value_) ^ (~a.value_ & c.value_);
  return w;
}

UInt32 maj_words(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = maj_bits(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
  w.value_ = (a.value_ & b.value_) ^ (a.value_ & c.value_) ^ (b.value_ & c.value_);
  return w;
}

UInt32 add_words(ConstraintSystem& cs, std::span<const UInt32> operands) {
  uint64_t sum = 0, max_sum = 0;
  bool all_constant = true;
  for (const UInt32& op : operands) {
    sum += op.value_;
    max_sum += 0xffffffffull;
    all_constant = all_constant && op.is_constant();
  }
  if (all_constant) return UInt32::constant(uint32_t(sum));

  // Σ operands (as field elements; no wrap, the sum stays far below r) = Σ 2^j r_j over enough
  // result bits to hold the largest possible sum; the low 32 are the word.
  LinearCombination lhs;
  for (const UInt32& op : operands)
    for (unsigned i = 0; i < 32; ++i) lhs.add(op.bits_[i].lc(power_of_two(i)));
  const unsigned result_bits = unsigned(std::bit_width(max_sum));
  LinearCombination rhs;
  UInt32 w;
  for (unsigned j = 0; j < result_bits; ++j) {
    const AllocatedBit r = AllocatedBit::alloc(cs, (sum >> j) & 1);
    rhs.add(r.variable(), power_of_two(j));
    if (j < 32) w.bits_[j] = r;
  }
  cs.enforce(lhs, Variable::one(), rhs);
  w.value_ = uint32_t(sum);
  return w;
}

}  // namespace cuzk::r1cs
