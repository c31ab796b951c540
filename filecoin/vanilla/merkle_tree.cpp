#include "filecoin/vanilla/merkle_tree.hpp"

#include <set>

#include "filecoin/vanilla/hashes.hpp"
#include "filecoin/vanilla/parallel.hpp"
#include "filecoin/vanilla/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

TreeLayout binary_sha_layout(unsigned log2_leaves) {
  TreeLayout l;
  l.hash = NodeHash::sha254;
  l.leaves = uint64_t(1) << log2_leaves;
  l.arities.assign(log2_leaves, 2);
  l.base_levels = log2_leaves;
  return l;
}

Result<TreeLayout> poseidon_layout(const TreeShape& shape, uint64_t leaves) {
  TreeLayout l;
  l.hash = NodeHash::poseidon;
  l.leaves = leaves;
  const uint64_t trees = shape.base_trees();
  if (shape.base_arity != 8 || leaves == 0 || leaves % trees)
    return make_error("tree shape " + shape.name() + " does not fit " + std::to_string(leaves) + " leaves");
  uint64_t per_tree = leaves / trees;
  while (per_tree > 1) {
    if (per_tree % 8)
      return make_error("base trees of shape " + shape.name() + " are not 8-ary over " +
                        std::to_string(leaves) + " leaves");
    per_tree /= 8;
    l.arities.push_back(8);
    ++l.base_levels;
  }
  if (shape.sub_arity) {
    l.arities.push_back(shape.sub_arity);
    l.sub_levels = 1;
  }
  if (shape.top_arity) {
    l.arities.push_back(shape.top_arity);
    l.top_levels = 1;
  }
  return l;
}

Result<Domain> hash_children(NodeHash hash, std::span<const Domain> children) {
  if (hash == NodeHash::sha254) {
    if (children.size() != 2) return make_error("a SHA-254 node has 2 children");
    return sha254_node(children[0], children[1]);
  }
  return poseidon_merkle(children);
}

Result<MerkleTree> MerkleTree::dense(const TreeLayout& layout, std::vector<Domain> leaves) {
  if (leaves.size() != layout.leaves)
    return make_error("a tree of " + std::to_string(layout.leaves) + " leaves was given " +
                      std::to_string(leaves.size()));
  MerkleTree t;
  t.layout_ = layout;
  t.dense_.push_back(std::move(leaves));
  for (unsigned a : layout.arities) {
    const std::vector<Domain>& below = t.dense_.back();
    std::vector<Domain> level(below.size() / a);
    bool failed = false;
    parallel_for(level.size(), 64, [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) {
        Result<Domain> h = hash_children(layout.hash, std::span<const Domain>(below.data() + i * a, a));
        if (!h.ok()) {
          failed = true;
          return;
        }
        level[i] = *h;
      }
    });
    if (failed) return make_error("a tree node's children are not canonical field elements");
    t.dense_.push_back(std::move(level));
  }
  return t;
}

Result<MerkleTree> MerkleTree::sparse(const TreeLayout& layout, const std::map<uint64_t, Domain>& leaves,
                                      const Domain& default_leaf) {
  MerkleTree t;
  t.layout_ = layout;
  t.sparse_ = true;
  t.defaults_.push_back(default_leaf);
  for (unsigned a : layout.arities) {
    std::vector<Domain> kids(a, t.defaults_.back());
    Result<Domain> h = hash_children(layout.hash, kids);
    if (!h.ok()) return h.error();
    t.defaults_.push_back(*h);
  }
  t.sparse_nodes_.resize(layout.arities.size() + 1);
  for (const auto& [i, v] : leaves) {
    if (i >= layout.leaves) return make_error("sparse leaf " + std::to_string(i) + " is outside the tree");
    t.sparse_nodes_[0][i] = v;
  }
  for (unsigned lvl = 0; lvl < layout.arities.size(); ++lvl) {
    const unsigned a = layout.arities[lvl];
    std::set<uint64_t> touched;
    for (const auto& kv : t.sparse_nodes_[lvl]) touched.insert(kv.first / a);
    const std::vector<uint64_t> parents(touched.begin(), touched.end());
    std::vector<Domain> hashes(parents.size());
    bool failed = false;
    parallel_for(parents.size(), 8, [&](uint64_t b, uint64_t e) {
      std::vector<Domain> kids(a);
      for (uint64_t i = b; i < e; ++i) {
        for (unsigned j = 0; j < a; ++j) kids[j] = t.node(lvl, parents[i] * a + j);
        Result<Domain> h = hash_children(layout.hash, kids);
        if (!h.ok()) {
          failed = true;
          return;
        }
        hashes[i] = *h;
      }
    });
    if (failed) return make_error("a sparse tree node's children are not canonical field elements");
    for (size_t i = 0; i < parents.size(); ++i) t.sparse_nodes_[lvl + 1][parents[i]] = hashes[i];
  }
  return t;
}

const Domain& MerkleTree::node(unsigned level, uint64_t i) const {
  if (!sparse_) return dense_[level][i];
  const auto& m = sparse_nodes_[level];
  auto it = m.find(i);
  return it == m.end() ? defaults_[level] : it->second;
}

MerkleProof MerkleTree::proof(uint64_t i) const {
  MerkleProof p;
  p.kind = layout_.kind();
  p.leaf = leaf(i);
  p.root = root();
  uint64_t idx = i;
  for (unsigned lvl = 0; lvl < layout_.arities.size(); ++lvl) {
    const unsigned a = layout_.arities[lvl];
    PathElement e;
    e.index = idx % a;
    const uint64_t first = idx - e.index;
    for (unsigned j = 0; j < a; ++j)
      if (j != e.index) e.hashes.push_back(node(lvl, first + j));
    InclusionPath& dst = lvl < layout_.base_levels                        ? p.base
                         : lvl < layout_.base_levels + layout_.sub_levels ? p.sub
                                                                          : p.top;
    dst.push_back(std::move(e));
    idx /= a;
  }
  return p;
}

Domain zero_commitment(unsigned log2_leaves) {
  Domain h{};
  for (unsigned i = 0; i < log2_leaves; ++i) h = sha254_node(h, h);
  return h;
}

}  // namespace cuzk::filecoin::vanilla
