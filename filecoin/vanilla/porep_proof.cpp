#include "filecoin/vanilla/porep_proof.hpp"

#include "filecoin/vanilla/challenges.hpp"
#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/parallel.hpp"
#include "filecoin/vanilla/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

Result<Domain> column_hash(std::span<const Domain> rows) { return poseidon_merkle(rows); }

namespace {

ColumnProof column_proof(const SectorView& s, uint64_t node) {
  ColumnProof p;
  p.column.index = uint32_t(node);
  for (unsigned layer = 1; layer <= s.info->shape.layers; ++layer)
    p.column.rows.push_back(s.label(layer, node));
  p.inclusion_proof = s.tree_c->proof(node);
  return p;
}

}  // namespace

PorepChallengeProof prove_challenge(const SectorView& s, uint64_t c) {
  PorepChallengeProof proof;
  proof.comm_d_proofs = s.tree_d->proof(c);
  proof.comm_r_last_proof = s.tree_r_last->proof(c);
  uint32_t parents[kParents];
  s.graph->parents(c, parents);
  ReplicaColumnProofs& rcp = proof.replica_column_proofs;
  rcp.c_x = column_proof(s, c);
  for (unsigned i = 0; i < kDrgParents; ++i) rcp.drg_parents.push_back(column_proof(s, parents[i]));
  for (unsigned i = kDrgParents; i < kParents; ++i) rcp.exp_parents.push_back(column_proof(s, parents[i]));

  const unsigned layers = s.info->shape.layers;
  for (unsigned layer = 1; layer <= layers; ++layer) {
    // Layer 1 hashes the DRG parents of layer 1; later layers add the expander parents' labels
    // of the layer below.
    std::vector<Domain> ps;
    for (unsigned i = 0; i < kDrgParents; ++i) ps.push_back(rcp.drg_parents[i].column.rows[layer - 1]);
    if (layer > 1)
      for (unsigned i = 0; i < kExpParents; ++i) ps.push_back(rcp.exp_parents[i].column.rows[layer - 2]);
    const std::array<Domain, kLabelParents> expanded = expand_parents(ps);
    LabelingProof lp;
    lp.parents.assign(expanded.begin(), expanded.end());
    lp.layer_index = layer;
    lp.node = c;
    proof.labeling_proofs.push_back(std::move(lp));
  }
  proof.encoding_proof = proof.labeling_proofs.back();
  return proof;
}

Result<SealCommitPhase1Output> build_commit_phase1(const SectorView& s) {
  SealCommitPhase1Output out;
  out.registered_proof = s.info->name;
  out.shape_key = s.info->shape_key;
  out.comm_r = s.comm_r;
  out.comm_d = s.tree_d->root();
  out.replica_id = s.replica_id;
  out.seed = s.seed;
  out.ticket = s.ticket;
  for (unsigned k = 0; k < s.info->partitions; ++k) {
    const std::vector<uint64_t> challenges = porep_challenges(*s.info, s.replica_id, s.comm_r, s.seed, k);
    std::vector<PorepChallengeProof> partition(challenges.size());
    parallel_for(challenges.size(), 1, [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) partition[i] = prove_challenge(s, challenges[i]);
    });
    out.vanilla_proofs.push_back(std::move(partition));
  }
  return out;
}

}  // namespace cuzk::filecoin::vanilla
