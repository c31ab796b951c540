#include "filecoin/vanilla/labels.hpp"

#include "filecoin/gadgets/create_label.hpp"

namespace cuzk::filecoin::vanilla {

Domain replica_id_of(const Domain& prover_id, uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                     const PorepId& porep_id) {
  uint8_t sector_be[8];
  for (int b = 0; b < 8; ++b) sector_be[b] = uint8_t(sector_id >> (56 - 8 * b));
  return sha254({prover_id, sector_be, ticket, comm_d, porep_id});
}

std::array<Domain, kLabelParents> expand_parents(std::span<const Domain> parent_labels) {
  std::array<Domain, kLabelParents> out;
  const size_t n = parent_labels.size();
  for (size_t i = 0; i < kLabelParents; ++i) out[i] = parent_labels[i % n];
  return out;
}

Domain create_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                    std::span<const Domain, kLabelParents> expanded) {
  return node == 0 ? label_hash(replica_id, layer, node, {}) : label_hash(replica_id, layer, node, expanded);
}

std::vector<std::vector<Domain>> label_layers(const StackedGraph& graph,
                                              const std::vector<uint32_t>& parent_table,
                                              const Domain& replica_id, unsigned layers) {
  const uint64_t nodes = graph.nodes();
  std::vector<std::vector<Domain>> labels(layers, std::vector<Domain>(nodes));
  std::array<Domain, kLabelParents> expanded;
  for (unsigned layer = 1; layer <= layers; ++layer) {
    std::vector<Domain>& cur = labels[layer - 1];
    const std::vector<Domain>* prev = layer > 1 ? &labels[layer - 2] : nullptr;
    const unsigned used = prev ? kParents : kDrgParents;
    cur[0] = label_hash(replica_id, layer, 0, {});
    for (uint64_t v = 1; v < nodes; ++v) {
      const uint32_t* ps = parent_table.data() + v * kParents;
      for (unsigned i = 0; i < kLabelParents; ++i) {
        const unsigned slot = i % used;
        expanded[i] = slot < kDrgParents ? cur[ps[slot]] : (*prev)[ps[slot]];
      }
      cur[v] = label_hash(replica_id, layer, v, expanded);
    }
  }
  return labels;
}

}  // namespace cuzk::filecoin::vanilla
