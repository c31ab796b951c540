#include <algorithm>
#include <string>

#include "r1cs/circuits/merkle_inclusion.hpp"
#include "r1cs/circuits/sha256_preimage.hpp"
#include "r1cs/gadgets/merkle.hpp"
#include "r1cs/gadgets/multipack.hpp"
#include "r1cs/gadgets/sha256.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::r1cs {

Result<Assignment> synthesize_for_proving(const Circuit& circuit) {
  ProvingAssignment pa;
  CUZK_TRY_STATUS(circuit.synthesize(pa));
  return pa.finish();
}

Result<Assignment> synthesize_witness(const Circuit& circuit) {
  ProvingAssignment pa = ProvingAssignment::witness_only();
  CUZK_TRY_STATUS(circuit.synthesize(pa));
  return pa.finish();
}

Status Sha256Preimage::synthesize(ConstraintSystem& cs) const {
  std::vector<Boolean> bits;
  bits.reserve(message_.size() * 8);
  for (bool b : bytes_to_bits(message_)) bits.push_back(Boolean::alloc(cs, b));
  (void)pack_into_inputs(cs, sha256_circuit(cs, bits));
  return Status::Ok();
}

std::vector<Fr> Sha256Preimage::public_inputs(const std::array<uint8_t, 32>& digest) {
  bool bits[256];
  for (size_t i = 0; i < 256; ++i) bits[i] = (digest[i / 8] >> (7 - i % 8)) & 1;
  return compute_multipacking(bits);
}

Status MerkleInclusion::synthesize(ConstraintSystem& cs) const {
  const size_t d = siblings_.size();
  if (d > 63) return make_error("MerkleInclusion: depth " + std::to_string(d) + " exceeds 63");
  if ((index_ >> d) != 0)
    return make_error("MerkleInclusion: index " + std::to_string(index_) + " outside a tree of depth " +
                      std::to_string(d));
  const PoseidonConstants& p = poseidon_constants_2();
  // The root is the first (and only) public input, allocated before anything else.
  const Variable root = cs.alloc_input(root_);
  const Num leaf = Num::alloc(cs, leaf_);
  std::vector<Num> sibs;
  std::vector<Boolean> bits;
  for (size_t l = 0; l < d; ++l) {
    sibs.push_back(Num::alloc(cs, siblings_[l]));
    bits.push_back(Boolean::alloc(cs, (index_ >> l) & 1));
  }
  auto computed = merkle_root_circuit(cs, p, leaf, sibs, bits);
  if (!computed.ok()) return computed.error();
  cs.enforce(computed->lc, Variable::one(), root);
  return Status::Ok();
}

}  // namespace cuzk::r1cs
