#include "filecoin/vanilla/labels.hpp"

#include <cstring>

namespace cuzk::filecoin::vanilla {

namespace {

// replica_id ‖ layer ‖ node ‖ zeros: the 64-byte first block of every label preimage.
void write_prefix(uint8_t out[64], const Domain& replica_id, uint32_t layer, uint64_t node) {
  std::memcpy(out, replica_id.data(), 32);
  for (int b = 0; b < 4; ++b) out[32 + b] = uint8_t(layer >> (24 - 8 * b));
  for (int b = 0; b < 8; ++b) out[36 + b] = uint8_t(node >> (56 - 8 * b));
  std::memset(out + 44, 0, 20);
}

}  // namespace

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
  uint8_t prefix[64];
  write_prefix(prefix, replica_id, layer, node);
  if (node == 0) return sha254({prefix});
  return sha254({prefix, {expanded.data()->data(), kLabelParents * 32}});
}

std::vector<std::vector<Domain>> label_layers(const StackedGraph& graph,
                                              const std::vector<uint32_t>& parent_table,
                                              const Domain& replica_id, unsigned layers) {
  const uint64_t nodes = graph.nodes();
  std::vector<std::vector<Domain>> labels(layers, std::vector<Domain>(nodes));
  // The preimage: one 64-byte prefix block and 37 parents, rewritten in place per node.
  std::vector<uint8_t> buf(64 + 32 * kLabelParents);
  for (unsigned layer = 1; layer <= layers; ++layer) {
    std::vector<Domain>& cur = labels[layer - 1];
    const std::vector<Domain>* prev = layer > 1 ? &labels[layer - 2] : nullptr;
    const unsigned used = prev ? kParents : kDrgParents;
    for (uint64_t v = 0; v < nodes; ++v) {
      write_prefix(buf.data(), replica_id, layer, v);
      if (v == 0) {
        cur[v] = sha254({std::span<const uint8_t>(buf.data(), 64)});
        continue;
      }
      const uint32_t* ps = parent_table.data() + v * kParents;
      for (unsigned i = 0; i < kLabelParents; ++i) {
        const unsigned slot = i % used;
        const Domain& src = slot < kDrgParents ? cur[ps[slot]] : (*prev)[ps[slot]];
        std::memcpy(buf.data() + 64 + 32 * i, src.data(), 32);
      }
      cur[v] = sha254({buf});
    }
  }
  return labels;
}

}  // namespace cuzk::filecoin::vanilla
