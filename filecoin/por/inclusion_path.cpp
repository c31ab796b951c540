#include "filecoin/por/inclusion_path.hpp"

#include <string>

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin {

namespace {

std::string prefix(std::string_view what) { return std::string(what) + ": "; }

// Every level of the proof bottom-up.
std::vector<const PathElement*> levels_of(const MerkleProof& proof) {
  std::vector<const PathElement*> out;
  for (const InclusionPath* part : {&proof.base, &proof.sub, &proof.top})
    for (const PathElement& e : *part) out.push_back(&e);
  return out;
}

}  // namespace

NativeNodeHash poseidon_native_node_hash() {
  return [](std::span<const Fr> children) {
    auto c = r1cs::poseidon_constants(children.size());
    return c ? r1cs::poseidon_merkle_node(**c, children.data()) : Fr::zero();
  };
}

Result<std::vector<unsigned>> path_arities(const MerkleProof& proof, const TreeShape& shape,
                                           std::string_view what, std::optional<size_t> base_levels) {
  const MerkleProof::Kind want = shape.top_arity   ? MerkleProof::Kind::top
                                 : shape.sub_arity ? MerkleProof::Kind::sub
                                                   : MerkleProof::Kind::single;
  if (proof.kind != want)
    return make_input_error(prefix(what) + "a proof of kind " + std::to_string(unsigned(proof.kind)) +
                            " for a tree of shape " + shape.name());
  const size_t subs = shape.sub_arity ? 1 : 0, tops = shape.top_arity ? 1 : 0;
  if (proof.sub.size() != subs || proof.top.size() != tops)
    return make_input_error(prefix(what) + std::to_string(proof.sub.size()) + " sub and " +
                            std::to_string(proof.top.size()) + " top levels for a tree of shape " +
                            shape.name());
  if (base_levels && proof.base.size() != *base_levels)
    return make_input_error(prefix(what) + std::to_string(proof.base.size()) + " base levels, the tree has " +
                            std::to_string(*base_levels));
  std::vector<unsigned> arities(proof.base.size(), shape.base_arity);
  if (subs) arities.push_back(shape.sub_arity);
  if (tops) arities.push_back(shape.top_arity);
  return arities;
}

Result<Fr> recompute_root(const MerkleProof& proof, std::span<const unsigned> arities,
                          const NativeNodeHash& hash, std::string_view what) {
  const std::vector<const PathElement*> levels = levels_of(proof);
  if (levels.size() != arities.size())
    return make_input_error(prefix(what) + std::to_string(levels.size()) + " levels for a tree of " +
                            std::to_string(arities.size()));
  auto node = domain_to_fr(proof.leaf);
  if (!node) return make_input_error(prefix(what) + "the leaf is not a field element");
  Fr cur = *node;
  std::vector<Fr> children;
  for (size_t l = 0; l < levels.size(); ++l) {
    const PathElement& e = *levels[l];
    const unsigned arity = arities[l];
    const std::string at = prefix(what) + "level " + std::to_string(l);
    if (e.hashes.size() + 1 != arity)
      return make_input_error(at + " has " + std::to_string(e.hashes.size()) + " siblings for arity " +
                              std::to_string(arity));
    if (e.index >= arity)
      return make_input_error(at + " index " + std::to_string(e.index) + " out of range for arity " +
                              std::to_string(arity));
    children.clear();
    for (size_t k = 0; k < e.hashes.size(); ++k) {
      if (k == e.index) children.push_back(cur);
      auto s = domain_to_fr(e.hashes[k]);
      if (!s) return make_input_error(at + " sibling " + std::to_string(k) + " is not a field element");
      children.push_back(*s);
    }
    if (e.index == e.hashes.size()) children.push_back(cur);
    cur = hash(children);
  }
  return cur;
}

Status check_poseidon_inclusion(const MerkleProof& proof, const TreeShape& shape, std::string_view what,
                                std::optional<size_t> base_levels) {
  auto arities = path_arities(proof, shape, what, base_levels);
  if (!arities) return arities.error();
  for (unsigned a : *arities)
    if (!r1cs::poseidon_constants(a).ok())
      return make_input_error(prefix(what) + "no Poseidon constants for arity " + std::to_string(a));
  auto root = recompute_root(proof, *arities, poseidon_native_node_hash(), what);
  if (!root) return root.error();
  auto want = domain_to_fr(proof.root);
  if (!want) return make_input_error(prefix(what) + "the root is not a field element");
  if (*root != *want) return make_input_error(prefix(what) + "path does not reach the root");
  return Status::Ok();
}

uint64_t path_index(const MerkleProof& proof, std::span<const unsigned> arities) {
  const std::vector<const PathElement*> levels = levels_of(proof);
  uint64_t index = 0, scale = 1;
  for (size_t l = 0; l < levels.size() && l < arities.size(); ++l) {
    index += levels[l]->index * scale;
    scale *= arities[l];
  }
  return index;
}

Result<std::vector<PathLevelValues>> circuit_path(const MerkleProof& proof, std::string_view what) {
  std::vector<PathLevelValues> out;
  const std::vector<const PathElement*> levels = levels_of(proof);
  for (size_t l = 0; l < levels.size(); ++l) {
    PathLevelValues v;
    v.index = levels[l]->index;
    for (size_t k = 0; k < levels[l]->hashes.size(); ++k) {
      auto s = domain_to_fr(levels[l]->hashes[k]);
      if (!s)
        return make_input_error(prefix(what) + "level " + std::to_string(l) + " sibling " +
                                std::to_string(k) + " is not a field element");
      v.siblings.push_back(*s);
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace cuzk::filecoin
