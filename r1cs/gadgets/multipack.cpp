#include "r1cs/gadgets/multipack.hpp"

#include <algorithm>

namespace cuzk::r1cs {

AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits) {
  const Num packed = pack_bits_le(bits.first(std::min(bits.size(), kFrCapacity)));
  const Variable x = cs.alloc(packed.value);
  cs.enforce(packed.lc, Variable::one(), x);
  return {x, packed.value};
}

std::vector<Variable> pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits) {
  std::vector<Variable> inputs;
  for (size_t off = 0; off < bits.size(); off += kFrCapacity) {
    const Num packed = pack_bits_le(bits.subspan(off, std::min(kFrCapacity, bits.size() - off)));
    const Variable p = cs.alloc_input(packed.value);
    cs.enforce(packed.lc, Variable::one(), p);
    inputs.push_back(p);
  }
  return inputs;
}

namespace {

template <class Bits>
std::vector<Fr> multipacking(const Bits& bits) {
  std::vector<Fr> out;
  for (size_t off = 0; off < bits.size(); off += kFrCapacity) {
    const size_t n = std::min(kFrCapacity, bits.size() - off);
    uint64_t v[Fr::N] = {};
    for (size_t i = 0; i < n; ++i)
      if (bits[off + i]) v[i / 64] |= uint64_t(1) << (i % 64);
    out.push_back(Fr::from_canonical(v));  // < 2^254 < r
  }
  return out;
}

}  // namespace

std::vector<Fr> compute_multipacking(std::span<const bool> bits) { return multipacking(bits); }
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) { return multipacking(bits); }

}  // namespace cuzk::r1cs
