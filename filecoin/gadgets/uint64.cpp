#include "filecoin/gadgets/uint64.hpp"

#include "r1cs/gadgets/multipack.hpp"

namespace cuzk::filecoin {

using r1cs::Boolean;

UInt64 UInt64::constant(uint64_t value) {
  UInt64 w;
  for (unsigned i = 0; i < 64; ++i) w.bits_[i] = Boolean::constant((value >> i) & 1);
  w.value_ = value;
  return w;
}

UInt64 UInt64::alloc(r1cs::ConstraintSystem& cs, uint64_t value) {
  UInt64 w;
  for (unsigned i = 0; i < 64; ++i) w.bits_[i] = Boolean::alloc(cs, (value >> i) & 1);
  w.value_ = value;
  return w;
}

std::array<Boolean, 64> UInt64::bits_be() const {
  std::array<Boolean, 64> out;
  for (unsigned i = 0; i < 64; ++i) out[i] = bits_[63 - i];
  return out;
}

r1cs::Variable UInt64::pack_into_input(r1cs::ConstraintSystem& cs) const {
  return r1cs::pack_into_inputs(cs, bits_).front();  // 64 bits: one chunk
}

}  // namespace cuzk::filecoin
