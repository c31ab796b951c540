#include "filecoin/gadgets/sha254.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "filecoin/gadgets/bits.hpp"
#include "r1cs/gadgets/multipack.hpp"
#include "r1cs/gadgets/sha256.hpp"

namespace cuzk::filecoin {

using r1cs::Boolean;

Domain sha254(std::span<const uint8_t> data) { return trim_to_fr32(r1cs::sha256(data)); }

Domain sha254(std::initializer_list<std::span<const uint8_t>> parts) {
  return trim_to_fr32(r1cs::sha256(parts));
}

Domain sha254_node(const Domain& left, const Domain& right) { return sha254({left, right}); }

r1cs::AllocatedNum sha254_circuit(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits) {
  const std::vector<Boolean> digest = r1cs::sha256_circuit(cs, bits);
  const std::vector<Boolean> le = reverse_bit_numbering(digest);
  return r1cs::pack_bits(cs, std::span<const Boolean>(le).first(r1cs::kFrCapacity));
}

namespace {

void append_reversed(std::vector<Boolean>& out, std::span<const Boolean> bits) {
  const std::vector<Boolean> r = reverse_bit_numbering(bits);
  out.insert(out.end(), r.begin(), r.end());
}

}  // namespace

r1cs::AllocatedNum sha254_node_circuit(r1cs::ConstraintSystem& cs, const r1cs::Num& a, const r1cs::Num& b) {
  const std::vector<Boolean> a_bits = r1cs::to_bits_le(cs, a);
  const std::vector<Boolean> b_bits = r1cs::to_bits_le(cs, b);
  return sha254_leaf_bits_circuit(cs, a_bits, b_bits);
}

r1cs::AllocatedNum sha254_multi_leaf_circuit(r1cs::ConstraintSystem& cs, std::span<const r1cs::Num> leaves) {
  std::vector<Boolean> preimage;
  preimage.reserve(leaves.size() * 256);
  for (const r1cs::Num& leaf : leaves) append_reversed(preimage, r1cs::to_bits_le(cs, leaf));
  return sha254_circuit(cs, preimage);
}

r1cs::AllocatedNum sha254_leaf_bits_circuit(r1cs::ConstraintSystem& cs, std::span<const Boolean> left,
                                            std::span<const Boolean> right) {
  std::vector<Boolean> preimage;
  preimage.reserve(left.size() + right.size() + 16);
  append_reversed(preimage, left);
  append_reversed(preimage, right);
  return sha254_circuit(cs, preimage);
}

}  // namespace cuzk::filecoin
