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

UInt32 UInt32::from_bits_be(std::span<const Boolean, 32> bits) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) {
    w.bits_[i] = bits[31 - i];
    w.value_ |= uint32_t(bits[31 - i].value()) << i;
  }
  return w;
}

std::array<Boolean, 32> UInt32::bits_be() const {
  std::array<Boolean, 32> out;
  for (unsigned i = 0; i < 32; ++i) out[i] = bits_[31 - i];
  return out;
}

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
  by %= 32;  // as bellperson
  UInt32 w;  // constant false fill
  for (unsigned i = 0; i + by < 32; ++i) w.bits_[i] = bits_[i + by];
  w.value_ = value_ >> by;
  return w;
}

UInt32 UInt32::xor_with(ConstraintSystem& cs, const UInt32& other) const {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = xor_bits(cs, bits_[i], other.bits_[i]);
  w.value_ = value_ ^ other.value_;
  return w;
}

UInt32 UInt32::sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = r1cs::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
  w.value_ = (a.value_ & b.value_) ^ (~a.value_ & c.value_);
  return w;
}

UInt32 UInt32::sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 w;
  for (unsigned i = 0; i < 32; ++i) w.bits_[i] = r1cs::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
  w.value_ = (a.value_ & b.value_) ^ (a.value_ & c.value_) ^ (b.value_ & c.value_);
  return w;
}

UInt32 UInt32::addmany(MultiEq& eq, std::span<const UInt32> operands) {
  uint64_t sum = 0;
  bool all_constant = true;
  for (const UInt32& op : operands) {
    sum += op.value_;
    all_constant = all_constant && op.is_constant();
  }
  if (all_constant) return constant(uint32_t(sum));

  const unsigned width = unsigned(std::bit_width(uint64_t(operands.size()) * 0xffffffffull));
  ConstraintSystem& cs = eq.cs();
  std::array<Variable, 64> result;
  for (unsigned j = 0; j < width; ++j) result[j] = AllocatedBit::alloc(cs, (sum >> j) & 1).variable();

  const unsigned shift = eq.open(width);
  if (eq.keeps_rows()) {
    for (const UInt32& op : operands)
      for (unsigned i = 0; i < 32; ++i) eq.add_lhs(op.bits_[i], shift + i);
    for (unsigned j = 0; j < width; ++j) eq.add_rhs(result[j], power_of_two(shift + j));
  }

  UInt32 w;
  for (unsigned j = 0; j < 32; ++j) w.bits_[j] = AllocatedBit::from_constrained(result[j], (sum >> j) & 1);
  w.value_ = uint32_t(sum);
  return w;
}

}  // namespace cuzk::r1cs
