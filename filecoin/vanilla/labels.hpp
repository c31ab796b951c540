// SDR labeling (reference/filecoin-circuits.md §3.1.3, §6.2, §6.4; rust-fil-proofs:
// storage-proofs-porep/src/stacked/vanilla/create_label/single.rs, graph.rs, params.rs).
//   label_L(v) = trim(sha256(replica_id ‖ L u32 BE ‖ v u64 BE ‖ 20 zero bytes ‖ P))
// with P empty for v = 0 and otherwise the 37 expanded parent labels: on layer 1 the 6 DRG
// parents (layer 1) six times, then DRG parent 0; on layer L > 1 the 6 DRG parents (layer L) and
// 8 expander parents (layer L − 1) twice, then the first 9 of them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/vanilla/graph.hpp"

namespace cuzk::filecoin::vanilla {

// replica_id = trim(sha256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id)).
Domain replica_id_of(const Domain& prover_id, uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                     const PorepId& porep_id);

// The 37 labels hashed into a label from the layer's parent labels: 6 (layer 1) or 14 in graph
// order (layer > 1).
std::array<Domain, kLabelParents> expand_parents(std::span<const Domain> parent_labels);

// One label from its expanded parents (`expanded` is ignored for node 0).
Domain create_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                    std::span<const Domain, kLabelParents> expanded);

// Every label of every layer, [layer − 1][node]. `parent_table` is graph.parent_table() (nodes ×
// 14); each layer runs node by node, since the DRG parents read the layer being built.
std::vector<std::vector<Domain>> label_layers(const StackedGraph& graph,
                                              const std::vector<uint32_t>& parent_table,
                                              const Domain& replica_id, unsigned layers);

}  // namespace cuzk::filecoin::vanilla
