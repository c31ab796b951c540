#include "filecoin/vanilla/virtual_sector.hpp"

#include <map>
#include <set>

#include "filecoin/vanilla/challenges.hpp"
#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/parallel.hpp"
#include "filecoin/vanilla/porep_proof.hpp"
#include "filecoin/vanilla/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

std::array<uint8_t, 8> le64(uint64_t x) {
  std::array<uint8_t, 8> b;
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(x >> (8 * i));
  return b;
}

// A canonical pseudo-random label for (node, layer), a function of rng_seed only.
Domain random_label(uint64_t rng_seed, uint64_t node, unsigned layer) {
  return sha254({as_bytes("cuzk virtual sector label"), le64(rng_seed), le64(node), le64(layer)});
}

using Columns = std::map<uint64_t, std::vector<Domain>>;

// Columns of every challenged node and its parents: random for the parents that are not
// challenged, computed for the challenged nodes.
Columns build_columns(const StackedGraph& graph, const std::set<uint64_t>& challenged,
                      const Domain& replica_id, unsigned layers, uint64_t rng_seed) {
  Columns cols;
  std::map<uint64_t, std::array<uint32_t, kParents>> parents;
  for (uint64_t c : challenged) graph.parents(c, parents[c].data());
  for (const auto& [c, ps] : parents)
    for (uint32_t p : ps)
      if (!challenged.count(p) && !cols.count(p)) {
        std::vector<Domain>& rows = cols[p];
        for (unsigned l = 1; l <= layers; ++l) rows.push_back(random_label(rng_seed, p, l));
      }
  for (uint64_t c : challenged) cols[c].resize(layers);
  for (unsigned layer = 1; layer <= layers; ++layer)
    for (uint64_t c : challenged) {  // ascending: a challenged DRG parent is done earlier in the pass
      const std::array<uint32_t, kParents>& ps = parents[c];
      std::vector<Domain> labels;
      for (unsigned i = 0; i < kDrgParents; ++i) labels.push_back(cols[ps[i]][layer - 1]);
      if (layer > 1)
        for (unsigned i = kDrgParents; i < kParents; ++i) labels.push_back(cols[ps[i]][layer - 2]);
      cols[c][layer - 1] = create_label(replica_id, layer, c, expand_parents(labels));
    }
  return cols;
}

Result<std::map<uint64_t, Domain>> column_leaves(const Columns& cols) {
  std::vector<std::pair<uint64_t, const std::vector<Domain>*>> items;
  for (const auto& [v, rows] : cols) items.emplace_back(v, &rows);
  std::vector<Domain> hashes(items.size());
  bool failed = false;
  parallel_for(items.size(), 8, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      Result<Domain> h = column_hash(*items[i].second);
      if (!h.ok()) {
        failed = true;
        return;
      }
      hashes[i] = *h;
    }
  });
  if (failed) return make_error("a virtual column hash failed");
  std::map<uint64_t, Domain> leaves;
  for (size_t i = 0; i < items.size(); ++i) leaves[items[i].first] = hashes[i];
  return leaves;
}

}  // namespace

Result<SealCommitPhase1Output> virtual_commit_phase1(uint64_t registered_proof_id, const Domain& prover_id,
                                                     uint64_t sector_id, const Domain& ticket,
                                                     const Domain& seed, uint64_t rng_seed) {
  Result<SealProofInfo> info = seal_proof_info(registered_proof_id);
  if (!info.ok()) return info.error();
  if (info->challenges != ChallengeKind::interactive)
    return make_input_error(info->name +
                            ": virtual sectors take interactive challenges only (NI-PoRep and "
                            "synthetic challenges depend on comm_r)");
  const SectorShape& shape = info->shape;
  Result<TreeLayout> layout = poseidon_layout(shape.tree, shape.nodes);
  if (!layout.ok()) return layout.error();

  const Domain zero{};
  Result<MerkleTree> tree_d = MerkleTree::sparse(binary_sha_layout(shape.log2_nodes), {}, zero);
  if (!tree_d.ok()) return tree_d.error();
  const Domain replica_id = replica_id_of(prover_id, sector_id, ticket, tree_d->root(), info->porep_id);

  std::set<uint64_t> challenged;
  for (unsigned k = 0; k < info->partitions; ++k)
    for (uint64_t c :
         interactive_challenges(shape.nodes, replica_id, seed, k, info->challenges_per_partition))
      challenged.insert(c);
  const StackedGraph graph(shape.nodes, info->porep_id, info->api);
  const Columns cols = build_columns(graph, challenged, replica_id, shape.layers, rng_seed);

  Result<std::map<uint64_t, Domain>> c_leaves = column_leaves(cols);
  if (!c_leaves.ok()) return c_leaves.error();
  Result<MerkleTree> tree_c = MerkleTree::sparse(*layout, *c_leaves, zero);
  if (!tree_c.ok()) return tree_c.error();
  std::map<uint64_t, Domain> r_leaves;
  for (uint64_t c : challenged) r_leaves[c] = cols.at(c).back();  // label + zero data
  Result<MerkleTree> tree_r = MerkleTree::sparse(*layout, r_leaves, zero);
  if (!tree_r.ok()) return tree_r.error();

  const Domain pair[2] = {tree_c->root(), tree_r->root()};
  Result<Domain> comm_r = poseidon_merkle(pair);
  if (!comm_r.ok()) return comm_r.error();

  SectorView view;
  view.info = &*info;
  view.graph = &graph;
  view.tree_d = &*tree_d;
  view.tree_c = &*tree_c;
  view.tree_r_last = &*tree_r;
  view.label = [&cols](unsigned layer, uint64_t node) { return cols.at(node)[layer - 1]; };
  view.replica_id = replica_id;
  view.comm_r = *comm_r;
  view.seed = seed;
  view.ticket = ticket;
  return build_commit_phase1(view);
}

Domain random_domain(std::mt19937_64& rng) {
  Domain d;
  for (size_t i = 0; i < d.size(); i += 8) {
    const uint64_t x = rng();
    for (size_t j = 0; j < 8; ++j) d[i + j] = uint8_t(x >> (8 * j));
  }
  d[31] &= 0x3f;
  return d;
}

}  // namespace cuzk::filecoin::vanilla
