// Native checks of a MerkleProof against the tree it claims to come from: its kind and level
// arities match the layout, every value is a canonical Fr (the circuit allocates each as one),
// and hashing up from the leaf (storage-proofs-core merkle/proof.rs `InclusionPath::root`:
// the current node inserted among the siblings at `index`) reaches the stored root.
#pragma once

#include <string>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"

namespace cuzk::filecoin::vanilla {

// The leaf position the path encodes: Σ index_level · Π arities below (the circuit's packed
// index bits, i.e. the challenge).
uint64_t path_index(const TreeLayout& layout, const MerkleProof& proof);

// The root the path computes from its leaf, or what is wrong with the proof's shape or values.
Result<Domain> computed_root(const TreeLayout& layout, const MerkleProof& proof);

// Shape, values, path index == `index`, computed root == `root`, stored root == `root`. The error
// names the first thing wrong, e.g. "path index is 5, expected 7" or "does not reach comm_c".
Status check_inclusion(const TreeLayout& layout, const MerkleProof& proof, uint64_t index, const Domain& root,
                       const std::string& root_name);

}  // namespace cuzk::filecoin::vanilla
