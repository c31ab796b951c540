#include "filecoin/vanilla/seal.hpp"

#include "filecoin/vanilla/fr32.hpp"
#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/parallel.hpp"
#include "filecoin/vanilla/porep_proof.hpp"
#include "filecoin/vanilla/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

// Column hashes of every node, in parallel.
Result<std::vector<Domain>> column_hashes(const std::vector<std::vector<Domain>>& labels, uint64_t nodes) {
  std::vector<Domain> out(nodes);
  bool failed = false;
  parallel_for(nodes, 256, [&](uint64_t b, uint64_t e) {
    std::vector<Domain> rows(labels.size());
    for (uint64_t v = b; v < e; ++v) {
      for (size_t l = 0; l < labels.size(); ++l) rows[l] = labels[l][v];
      Result<Domain> h = column_hash(rows);
      if (!h.ok()) {
        failed = true;
        return;
      }
      out[v] = *h;
    }
  });
  if (failed) return make_error("a column hash failed");
  return out;
}

// label_last(v) + data(v) in Fr, for every node.
std::vector<Domain> encode(const std::vector<Domain>& last_layer, const MerkleTree& tree_d) {
  std::vector<Domain> out(last_layer.size());
  parallel_for(out.size(), 4096, [&](uint64_t b, uint64_t e) {
    for (uint64_t v = b; v < e; ++v)
      out[v] = fr_to_domain(*domain_to_fr(last_layer[v]) + *domain_to_fr(tree_d.leaf(v)));
  });
  return out;
}

}  // namespace

Result<TestSector> seal_test_sector(uint64_t registered_proof_id, const Domain& prover_id, uint64_t sector_id,
                                    const Domain& ticket, const Domain& seed, std::span<const uint8_t> raw) {
  Result<SealProofInfo> info = seal_proof_info(registered_proof_id);
  if (!info.ok()) return info.error();
  TestSector s;
  s.info = *info;
  s.prover_id = prover_id;
  s.sector_id = sector_id;
  s.ticket = ticket;
  s.seed = seed;
  const SectorShape& shape = s.info.shape;
  if (raw.size() > fr32_unpadded_size(shape.sector_size))
    return make_input_error(std::to_string(raw.size()) + " bytes of data do not fit a " + s.info.name +
                            " sector (at most " + std::to_string(fr32_unpadded_size(shape.sector_size)) +
                            ")");

  Result<MerkleTree> tree_d =
      MerkleTree::dense(binary_sha_layout(shape.log2_nodes), fr32_pad(raw, shape.nodes));
  if (!tree_d.ok()) return tree_d.error();
  s.tree_d = std::move(*tree_d);
  s.comm_d = s.tree_d.root();
  s.replica_id = replica_id_of(prover_id, sector_id, ticket, s.comm_d, s.info.porep_id);

  const StackedGraph graph(shape.nodes, s.info.porep_id, s.info.api);
  s.labels = label_layers(graph, graph.parent_table(), s.replica_id, shape.layers);

  Result<TreeLayout> layout = poseidon_layout(shape.tree, shape.nodes);
  if (!layout.ok()) return layout.error();
  Result<std::vector<Domain>> columns = column_hashes(s.labels, shape.nodes);
  if (!columns.ok()) return columns.error();
  Result<MerkleTree> tree_c = MerkleTree::dense(*layout, std::move(*columns));
  if (!tree_c.ok()) return tree_c.error();
  s.tree_c = std::move(*tree_c);
  Result<MerkleTree> tree_r = MerkleTree::dense(*layout, encode(s.labels.back(), s.tree_d));
  if (!tree_r.ok()) return tree_r.error();
  s.tree_r_last = std::move(*tree_r);

  s.comm_c = s.tree_c.root();
  s.comm_r_last = s.tree_r_last.root();
  const Domain pair[2] = {s.comm_c, s.comm_r_last};
  Result<Domain> comm_r = poseidon_merkle(pair);
  if (!comm_r.ok()) return comm_r.error();
  s.comm_r = *comm_r;
  return s;
}

Result<SealCommitPhase1Output> commit_phase1(const TestSector& s) {
  const StackedGraph graph(s.info.shape.nodes, s.info.porep_id, s.info.api);
  SectorView view;
  view.info = &s.info;
  view.graph = &graph;
  view.tree_d = &s.tree_d;
  view.tree_c = &s.tree_c;
  view.tree_r_last = &s.tree_r_last;
  view.label = [&s](unsigned layer, uint64_t node) { return s.labels[layer - 1][node]; };
  view.replica_id = s.replica_id;
  view.comm_r = s.comm_r;
  view.seed = s.seed;
  view.ticket = s.ticket;
  return build_commit_phase1(view);
}

}  // namespace cuzk::filecoin::vanilla
