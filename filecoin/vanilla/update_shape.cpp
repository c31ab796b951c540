#include "filecoin/vanilla/update_shape.hpp"

#include <bit>
#include <string>

#include "filecoin/vanilla/merkle_tree.hpp"

namespace cuzk::filecoin::vanilla {

Result<uint64_t> UpdateShape::h_select(unsigned h) const {
  for (unsigned i = 0; i < hs.size(); ++i)
    if (hs[i] == h) return uint64_t(1) << i;
  return make_input_error("h = " + std::to_string(h) + " is not allowed for a sector of " +
                          std::to_string(sector_size()) + " bytes");
}

Result<uint64_t> UpdateShape::k_and_h_select(uint64_t k, unsigned h) const {
  if (k >= partitions)
    return make_input_error("partition " + std::to_string(k) + " of a sector with " +
                            std::to_string(partitions) + " partitions");
  auto select = h_select(h);
  if (!select) return select.error();
  return k | (*select << partition_bits);
}

Result<UpdateShape> update_shape_for_nodes(uint64_t nodes, const TreeShape& tree) {
  if (!std::has_single_bit(nodes) || nodes < (uint64_t(1) << 5) || nodes > (uint64_t(1) << 31))
    return make_error("SnapDeals: no sector has " + std::to_string(nodes) + " nodes");
  UpdateShape s;
  s.nodes = nodes;
  s.challenge_bits = unsigned(std::countr_zero(nodes));
  const unsigned b = s.challenge_bits;
  s.partitions = b <= 8 ? 1 : b <= 10 ? 2 : b <= 19 ? 4 : 16;
  s.challenges = b <= 19 ? 10 : 86;
  s.apex_leaves = b <= 8 ? 8 : 128;
  s.partition_bits = unsigned(std::countr_zero(s.partitions));
  s.apex_bits = unsigned(std::countr_zero(s.apex_leaves));
  for (unsigned i = 0; i < 6; ++i) s.hs[i] = b <= 10 ? 1 : 7 + i;
  s.tree = tree;
  auto layout = poseidon_layout(tree, nodes);
  if (!layout) return make_error("SnapDeals: " + layout.message());
  return s;
}

Result<UpdateShape> update_shape(uint64_t sector_size) {
  const auto shape = sector_shape(sector_size);
  if (!shape)
    return make_input_error("SnapDeals: no Filecoin sector has " + std::to_string(sector_size) + " bytes");
  return update_shape_for_nodes(shape->nodes, shape->tree);
}

}  // namespace cuzk::filecoin::vanilla
