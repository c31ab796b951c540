// Merkle trees of the vanilla side, dense (every node stored) or sparse (only the nodes above
// given leaves stored, every other node the hash of an all-default subtree of its height):
//   * tree_d: binary over SHA-254 (node = trim(sha256(left ‖ right)));
//   * tree_c, tree_r_last: storage-proofs-core's LC trees over Poseidon, shapes 8-0-0, 8-8-0 and
//     8-8-2 (reference/filecoin-circuits.md §2.9, §6.5). The base trees cover consecutive leaf
//     ranges, so their levels are the arity-8 levels over all leaves until one node per base
//     tree is left; then come the sub level and the top level.
// Inclusion proofs come out as MerkleProof (filecoin/types/vanilla_proofs.hpp): levels bottom-up,
// siblings in stored order, index = the position among the arity children.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <unordered_map>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/sector_shape.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin::vanilla {

enum class NodeHash { sha254, poseidon };

// Arity of every level bottom-up, and how many belong to base/sub/top (which MerkleProof kind).
struct TreeLayout {
  NodeHash hash = NodeHash::poseidon;
  uint64_t leaves = 0;
  std::vector<unsigned> arities;
  unsigned base_levels = 0;
  unsigned sub_levels = 0;  // 0 or 1
  unsigned top_levels = 0;  // 0 or 1

  MerkleProof::Kind kind() const {
    return top_levels   ? MerkleProof::Kind::top
           : sub_levels ? MerkleProof::Kind::sub
                        : MerkleProof::Kind::single;
  }
};

// tree_d over 2^log2_leaves leaves.
TreeLayout binary_sha_layout(unsigned log2_leaves);
// An LC tree of `shape` over `leaves` leaves; an error when the base trees are not full 8-ary.
Result<TreeLayout> poseidon_layout(const TreeShape& shape, uint64_t leaves);

// The parent of `children` (as many as the level's arity).
Result<Domain> hash_children(NodeHash hash, std::span<const Domain> children);

class MerkleTree {
 public:
  MerkleTree() = default;
  // Every level, built in parallel.
  static Result<MerkleTree> dense(const TreeLayout& layout, std::vector<Domain> leaves);
  // Only the paths of `leaves` (index → value); every other leaf is `default_leaf`.
  static Result<MerkleTree> sparse(const TreeLayout& layout, const std::map<uint64_t, Domain>& leaves,
                                   const Domain& default_leaf);

  const TreeLayout& layout() const { return layout_; }
  const Domain& root() const { return node(unsigned(layout_.arities.size()), 0); }
  const Domain& leaf(uint64_t i) const { return node(0, i); }
  // The proof of leaf i (i < leaves).
  MerkleProof proof(uint64_t i) const;

 private:
  const Domain& node(unsigned level, uint64_t i) const;

  TreeLayout layout_;
  bool sparse_ = false;
  std::vector<std::vector<Domain>> dense_;                          // [level][index]
  std::vector<std::unordered_map<uint64_t, Domain>> sparse_nodes_;  // [level] index → value
  std::vector<Domain> defaults_;                                    // [level]
};

// Zero-piece commitment: the tree_d root of 2^log2_leaves zero nodes (go-commp-utils zerocomm
// entry k is log2_leaves = k + 2).
Domain zero_commitment(unsigned log2_leaves);

}  // namespace cuzk::filecoin::vanilla
