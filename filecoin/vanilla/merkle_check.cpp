#include "filecoin/vanilla/merkle_check.hpp"

#include "filecoin/gadgets/sha254.hpp"
#include "filecoin/por/inclusion_path.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

const char* kind_name(MerkleProof::Kind k) {
  switch (k) {
    case MerkleProof::Kind::single:
      return "Single";
    case MerkleProof::Kind::sub:
      return "Sub";
    case MerkleProof::Kind::top:
      return "Top";
  }
  return "?";
}

// The binary tree_d node over field elements (their canonical little-endian bytes).
Fr sha254_node_of(std::span<const Fr> children) {
  const Domain h = sha254_node(fr_to_domain(children[0]), fr_to_domain(children[1]));
  return domain_to_fr(h).value_or(Fr::zero());  // trimmed: always < r
}

}  // namespace

uint64_t path_index(const TreeLayout& layout, const MerkleProof& proof) {
  return filecoin::path_index(proof, layout.arities);
}

Result<Domain> computed_root(const TreeLayout& layout, const MerkleProof& proof) {
  if (proof.kind != layout.kind())
    return make_input_error(std::string("is a ") + kind_name(proof.kind) + " proof, expected " +
                            kind_name(layout.kind()));
  if (proof.base.size() != layout.base_levels || proof.sub.size() != layout.sub_levels ||
      proof.top.size() != layout.top_levels)
    return make_input_error("has " + std::to_string(proof.base.size()) + "/" +
                            std::to_string(proof.sub.size()) + "/" + std::to_string(proof.top.size()) +
                            " base/sub/top levels, expected " + std::to_string(layout.base_levels) + "/" +
                            std::to_string(layout.sub_levels) + "/" + std::to_string(layout.top_levels));
  if (!domain_to_fr(proof.root)) return make_input_error("root is not a canonical field element");
  const NativeNodeHash hash =
      layout.hash == NodeHash::poseidon ? poseidon_native_node_hash() : NativeNodeHash(sha254_node_of);
  Result<Fr> root = recompute_root(proof, layout.arities, hash, "path");
  if (!root.ok()) return root.error();
  return fr_to_domain(*root);
}

Status check_inclusion(const TreeLayout& layout, const MerkleProof& proof, uint64_t index, const Domain& root,
                       const std::string& root_name) {
  Result<Domain> r = computed_root(layout, proof);
  if (!r.ok()) return r.error();
  const uint64_t at = path_index(layout, proof);
  if (at != index)
    return make_input_error("path index is " + std::to_string(at) + ", expected " + std::to_string(index));
  if (*r != root) return make_input_error("does not reach " + root_name);
  if (proof.root != root) return make_input_error("stores a root other than " + root_name);
  return {};
}

}  // namespace cuzk::filecoin::vanilla
