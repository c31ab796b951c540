#include "filecoin/gadgets/bits.hpp"

namespace cuzk::filecoin {

using r1cs::Boolean;

std::vector<Boolean> reverse_bit_numbering(std::span<const Boolean> bits) {
  const size_t padded = (bits.size() + 7) / 8 * 8;
  std::vector<Boolean> out(padded, Boolean::constant(false));
  for (size_t i = 0; i < bits.size(); ++i) out[i / 8 * 8 + 7 - i % 8] = bits[i];
  return out;
}

std::vector<r1cs::AllocatedBit> allocated_num_to_allocated_bits(r1cs::ConstraintSystem& cs,
                                                                const r1cs::AllocatedNum& x) {
  std::vector<r1cs::AllocatedBit> bits = r1cs::field_into_allocated_bits_le(cs, x.value);
  r1cs::LinearCombination lc;
  for (size_t i = 0; i < bits.size(); ++i) lc.add(bits[i].variable(), r1cs::power_of_two(unsigned(i)));
  cs.enforce(lc, r1cs::Variable::one(), x.variable);
  return bits;
}

}  // namespace cuzk::filecoin
