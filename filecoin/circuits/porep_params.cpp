#include "filecoin/circuits/porep_params.hpp"

#include <bit>
#include <string>

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin {

Result<PorepTreeLevels> porep_tree_levels(const PorepParams& params) {
  const TreeShape& t = params.tree;
  const std::string what = "PoRep: " + std::to_string(params.nodes) + " nodes in trees of shape " + t.name();
  if (params.challenge_count == 0 || params.layers == 0)
    return make_error("PoRep: " + std::to_string(params.challenge_count) + " challenges of " +
                      std::to_string(params.layers) + " layers; both must be at least 1");
  auto column = r1cs::poseidon_constants(params.layers);
  if (!column)
    return make_error("PoRep: no column hash for " + std::to_string(params.layers) +
                      " layers: " + column.message());
  if (params.nodes < 2 || !std::has_single_bit(params.nodes))
    return make_error(what + ": the nodes are not a power of two ≥ 2");
  if (t.base_arity < 2 || !std::has_single_bit(t.base_arity))
    return make_error(what + ": the base arity is not a power of two ≥ 2");
  if (t.top_arity && !t.sub_arity) return make_error(what + ": a top level without a sub level");
  const uint64_t trees = t.base_trees();
  if (params.nodes % trees != 0)
    return make_error(what + ": the nodes do not split into " + std::to_string(trees) + " base trees");
  const uint64_t leaves = params.nodes / trees;
  const unsigned bits = unsigned(std::countr_zero(t.base_arity));
  if (!std::has_single_bit(leaves) || std::countr_zero(leaves) % bits != 0 || leaves < t.base_arity)
    return make_error(what + ": " + std::to_string(leaves) + " leaves per base tree are not a power of " +
                      std::to_string(t.base_arity));
  return PorepTreeLevels{size_t(std::countr_zero(params.nodes)), size_t(std::countr_zero(leaves) / bits)};
}

Result<PorepParams> porep_params(uint64_t sector_size) {
  const auto shape = sector_shape(sector_size);
  if (!shape) return make_error("PoRep: no Filecoin sector has " + std::to_string(sector_size) + " bytes");
  PorepParams p;
  p.nodes = shape->nodes;
  p.layers = shape->layers;
  p.challenge_count = shape->porep_challenges;
  p.tree = shape->tree;
  CUZK_TRY_STATUS(porep_tree_levels(p));
  return p;
}

}  // namespace cuzk::filecoin
