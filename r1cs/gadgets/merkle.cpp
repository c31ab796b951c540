#include "r1cs/gadgets/merkle.hpp"

#include <string>

namespace cuzk::r1cs {

Result<Fr> merkle_root(const PoseidonConstants& p, const Fr& leaf, std::span<const Fr> siblings,
                       uint64_t index) {
  if (p.arity != 2) return make_error("merkle_root: needs arity-2 Poseidon parameters");
  Fr node = leaf;
  for (size_t level = 0; level < siblings.size(); ++level) {
    const bool right = (index >> level) & 1;
    const Fr pair[2] = {right ? siblings[level] : node, right ? node : siblings[level]};
    node = poseidon_merkle_node(p, pair);
  }
  return node;
}

Result<std::vector<std::vector<Fr>>> merkle_tree(const PoseidonConstants& p, std::span<const Fr> leaves) {
  if (p.arity != 2) return make_error("merkle_tree: needs arity-2 Poseidon parameters");
  if (leaves.empty() || (leaves.size() & (leaves.size() - 1)) != 0)
    return make_error("merkle_tree: " + std::to_string(leaves.size()) + " leaves is not a power of two");
  std::vector<std::vector<Fr>> levels;
  levels.emplace_back(leaves.begin(), leaves.end());
  while (levels.back().size() > 1) {
    const std::vector<Fr>& below = levels.back();
    std::vector<Fr> up(below.size() / 2);
    for (size_t i = 0; i < up.size(); ++i) up[i] = poseidon_merkle_node(p, &below[2 * i]);
    levels.push_back(std::move(up));
  }
  return levels;
}

std::vector<Fr> merkle_path(const std::vector<std::vector<Fr>>& levels, uint64_t index) {
  std::vector<Fr> path;
  for (size_t level = 0; level + 1 < levels.size(); ++level)
    path.push_back(levels[level][(index >> level) ^ 1]);
  return path;
}

Result<Num> merkle_root_circuit(ConstraintSystem& cs, const PoseidonConstants& p, const Num& leaf,
                                std::span<const Num> siblings, std::span<const Boolean> index_bits) {
  if (p.arity != 2) return make_error("merkle_root_circuit: needs arity-2 Poseidon parameters");
  if (siblings.size() != index_bits.size())
    return make_error("merkle_root_circuit: " + std::to_string(siblings.size()) + " siblings but " +
                      std::to_string(index_bits.size()) + " index bits");
  Num node = leaf;
  for (size_t level = 0; level < siblings.size(); ++level) {
    const Boolean& bit = index_bits[level];
    const Num& sib = siblings[level];
    Num pair[2];
    if (bit.is_constant()) {
      pair[0] = bit.value() ? sib : node;
      pair[1] = bit.value() ? node : sib;
    } else {
      // left = node + bit·(sib - node), right = node + sib - left: one constraint.
      const Fr left_value = bit.value() ? sib.value : node.value;
      const Variable left = cs.alloc(left_value);
      LinearCombination rhs(left);
      rhs.sub(node.lc);
      cs.enforce(bit.lc(), sib.lc - node.lc, rhs);
      pair[0] = Num::from_variable(left, left_value);
      pair[1] = node + sib - pair[0];
    }
    auto h = poseidon_hash_circuit(cs, p, pair);
    if (!h.ok()) return h.error();
    node = std::move(h.value());
  }
  return node;
}

}  // namespace cuzk::r1cs
