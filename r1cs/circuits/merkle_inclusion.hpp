// Membership of a leaf in a binary Poseidon Merkle tree of depth d (r1cs/gadgets/merkle.hpp).
// Public: the root. Private: the leaf, its d siblings and the d bits of its index.
#pragma once

#include <cstdint>
#include <vector>

#include "r1cs/circuits/circuit.hpp"

namespace cuzk::r1cs {

class MerkleInclusion final : public Circuit {
 public:
  // The claim "leaf sits at `index` under `root`": a wrong path leaves the circuit unsatisfied.
  MerkleInclusion(Fr root, Fr leaf, std::vector<Fr> siblings, uint64_t index)
      : root_(root), leaf_(leaf), siblings_(std::move(siblings)), index_(index) {}
  // Shape only, for setup: zeros everywhere, index 0.
  static MerkleInclusion shape(size_t depth) {
    return MerkleInclusion(Fr::zero(), Fr::zero(), std::vector<Fr>(depth), 0);
  }

  Status synthesize(ConstraintSystem& cs) const override;
  size_t num_public_inputs() const override { return 1; }
  size_t depth() const { return siblings_.size(); }

 private:
  Fr root_;
  Fr leaf_;
  std::vector<Fr> siblings_;
  uint64_t index_;
};

}  // namespace cuzk::r1cs
