#include "filecoin/vanilla/merkle_check.hpp"

#include <vector>

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

// The proof's levels bottom-up: base, sub, top.
std::vector<const PathElement*> levels_of(const MerkleProof& p) {
  std::vector<const PathElement*> out;
  for (const PathElement& e : p.base) out.push_back(&e);
  for (const PathElement& e : p.sub) out.push_back(&e);
  for (const PathElement& e : p.top) out.push_back(&e);
  return out;
}

}  // namespace

uint64_t path_index(const TreeLayout& layout, const MerkleProof& proof) {
  const std::vector<const PathElement*> levels = levels_of(proof);
  uint64_t index = 0, weight = 1;
  for (size_t i = 0; i < levels.size() && i < layout.arities.size(); ++i) {
    index += levels[i]->index * weight;
    weight *= layout.arities[i];
  }
  return index;
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
  if (!domain_to_fr(proof.leaf)) return make_input_error("leaf is not a canonical field element");
  if (!domain_to_fr(proof.root)) return make_input_error("root is not a canonical field element");
  const std::vector<const PathElement*> levels = levels_of(proof);
  Domain cur = proof.leaf;
  std::vector<Domain> kids;
  for (size_t lvl = 0; lvl < levels.size(); ++lvl) {
    const PathElement& e = *levels[lvl];
    const unsigned a = layout.arities[lvl];
    const std::string where = "path level " + std::to_string(lvl);
    if (e.hashes.size() != a - 1)
      return make_input_error(where + " has " + std::to_string(e.hashes.size()) + " siblings, expected " +
                              std::to_string(a - 1));
    if (e.index >= a) return make_input_error(where + " has index " + std::to_string(e.index) + " ≥ arity");
    for (const Domain& h : e.hashes)
      if (!domain_to_fr(h))
        return make_input_error(where + " has a sibling that is not a canonical field element");
    kids.assign(e.hashes.begin(), e.hashes.end());
    kids.insert(kids.begin() + ptrdiff_t(e.index), cur);
    Result<Domain> h = hash_children(layout.hash, kids);
    if (!h.ok()) return h.error();
    cur = *h;
  }
  return cur;
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
