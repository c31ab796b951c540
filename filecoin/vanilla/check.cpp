#include "filecoin/vanilla/check.hpp"

#include "filecoin/vanilla/challenges.hpp"
#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/merkle_check.hpp"
#include "filecoin/vanilla/parallel.hpp"
#include "filecoin/vanilla/porep_proof.hpp"
#include "filecoin/vanilla/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

Error fail(const std::string& where, const std::string& what) {
  return make_input_error(where + ": " + what);
}

// What every challenge of the output is checked against.
struct Context {
  const SealProofInfo* info;
  const StackedGraph* graph;
  TreeLayout tree_d;
  TreeLayout tree_cr;  // tree_c and tree_r_last
  Domain comm_d, comm_c, comm_r_last;
};

Status check_column(const Context& ctx, const ColumnProof& p, uint64_t node, const std::string& name) {
  if (p.column.index != node)
    return make_input_error(name + " has index " + std::to_string(p.column.index) + ", expected " +
                            std::to_string(node));
  if (p.column.rows.size() != ctx.info->shape.layers)
    return make_input_error(name + " has " + std::to_string(p.column.rows.size()) + " rows, expected " +
                            std::to_string(ctx.info->shape.layers));
  Result<Domain> h = column_hash(p.column.rows);
  if (!h.ok()) return make_input_error(name + " has a row that is not a canonical field element");
  if (*h != p.inclusion_proof.leaf) return make_input_error(name + " hash is not its inclusion proof's leaf");
  Status s = check_inclusion(ctx.tree_cr, p.inclusion_proof, node, ctx.comm_c, "comm_c");
  if (!s.ok()) return make_input_error(name + " " + s.message());
  return {};
}

// The labels of the challenged node, recomputed from the claimed parent columns, against c_x.
Status check_labels(const Context& ctx, const PorepChallengeProof& p, const Domain& replica_id, uint64_t c) {
  const ReplicaColumnProofs& rcp = p.replica_column_proofs;
  const unsigned layers = ctx.info->shape.layers;
  if (p.labeling_proofs.size() != layers)
    return make_input_error("has " + std::to_string(p.labeling_proofs.size()) +
                            " labeling proofs, expected " + std::to_string(layers));
  for (unsigned layer = 1; layer <= layers; ++layer) {
    std::vector<Domain> ps;
    for (unsigned i = 0; i < kDrgParents; ++i) ps.push_back(rcp.drg_parents[i].column.rows[layer - 1]);
    if (layer > 1)
      for (unsigned i = 0; i < kExpParents; ++i) ps.push_back(rcp.exp_parents[i].column.rows[layer - 2]);
    const std::array<Domain, kLabelParents> expanded = expand_parents(ps);
    const std::string lname = "layer " + std::to_string(layer);
    if (create_label(replica_id, layer, c, expanded) != rcp.c_x.column.rows[layer - 1])
      return make_input_error(lname +
                              " label of the challenged node does not follow from its parent columns");
    const LabelingProof& lp = p.labeling_proofs[layer - 1];
    if (lp.layer_index != layer || lp.node != c)
      return make_input_error("labeling proof " + std::to_string(layer) + " is for layer " +
                              std::to_string(lp.layer_index) + " node " + std::to_string(lp.node));
    if (lp.parents.size() != kLabelParents ||
        !std::equal(expanded.begin(), expanded.end(), lp.parents.begin()))
      return make_input_error("labeling proof " + std::to_string(layer) +
                              " parents are not the parent columns' labels");
  }
  if (p.encoding_proof != p.labeling_proofs.back())
    return make_input_error("encoding proof is not the last layer's labeling proof");
  return {};
}

Status check_challenge(const Context& ctx, const PorepChallengeProof& p, const Domain& replica_id,
                       uint64_t c) {
  if (!p.labeling_proofs.empty() && p.labeling_proofs[0].node != c)
    return make_input_error("challenge is " + std::to_string(p.labeling_proofs[0].node) + ", derived " +
                            std::to_string(c));
  Status s = check_inclusion(ctx.tree_d, p.comm_d_proofs, c, ctx.comm_d, "comm_d");
  if (!s.ok()) return make_input_error("comm_d proof " + s.message());
  s = check_inclusion(ctx.tree_cr, p.comm_r_last_proof, c, ctx.comm_r_last, "comm_r_last");
  if (!s.ok()) return make_input_error("comm_r_last proof " + s.message());

  const ReplicaColumnProofs& rcp = p.replica_column_proofs;
  if (rcp.drg_parents.size() != kDrgParents || rcp.exp_parents.size() != kExpParents)
    return make_input_error("has " + std::to_string(rcp.drg_parents.size()) + " drg and " +
                            std::to_string(rcp.exp_parents.size()) + " exp parent columns, expected 6 and 8");
  CUZK_TRY_STATUS(check_column(ctx, rcp.c_x, c, "c_x column"));
  uint32_t parents[kParents];
  ctx.graph->parents(c, parents);
  for (unsigned i = 0; i < kDrgParents; ++i)
    CUZK_TRY_STATUS(
        check_column(ctx, rcp.drg_parents[i], parents[i], "drg parent " + std::to_string(i) + " column"));
  for (unsigned i = 0; i < kExpParents; ++i)
    CUZK_TRY_STATUS(check_column(ctx, rcp.exp_parents[i], parents[kDrgParents + i],
                                 "exp parent " + std::to_string(i) + " column"));

  CUZK_TRY_STATUS(check_labels(ctx, p, replica_id, c));
  const Fr replica = *domain_to_fr(rcp.c_x.column.rows.back()) + *domain_to_fr(p.comm_d_proofs.leaf);
  if (fr_to_domain(replica) != p.comm_r_last_proof.leaf)
    return make_input_error("replica leaf is not the last label plus the data leaf");
  return {};
}

Status check_envelope(const SealCommitPhase1Output& c1, const SealProofInfo& info,
                      const PorepCheckOptions& opt) {
  if (c1.shape_key != info.shape_key)
    return make_input_error("vanilla_proofs key is " + c1.shape_key + ", expected " + info.shape_key);
  if (!domain_to_fr(c1.comm_d)) return make_input_error("comm_d is not a canonical field element");
  if (!domain_to_fr(c1.comm_r)) return make_input_error("comm_r is not a canonical field element");
  if (!domain_to_fr(c1.replica_id)) return make_input_error("replica_id is not a canonical field element");
  if (opt.prover_id && opt.sector_id &&
      replica_id_of(*opt.prover_id, *opt.sector_id, c1.ticket, c1.comm_d, info.porep_id) != c1.replica_id)
    return make_input_error(
        "replica_id does not follow from prover_id, sector_id, ticket, comm_d and porep_id");
  if (c1.vanilla_proofs.size() != info.partitions)
    return make_input_error("has " + std::to_string(c1.vanilla_proofs.size()) + " partitions, expected " +
                            std::to_string(info.partitions));
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k)
    if (c1.vanilla_proofs[k].size() != info.challenges_per_partition)
      return make_input_error("partition " + std::to_string(k) + " has " +
                              std::to_string(c1.vanilla_proofs[k].size()) + " challenges, expected " +
                              std::to_string(info.challenges_per_partition));
  return {};
}

// Every partition's challenges, or only those of partition `only`.
Status check(const SealCommitPhase1Output& c1, const PorepCheckOptions& options, std::optional<size_t> only) {
  Result<SealProofInfo> info = seal_proof_info(c1.registered_proof);
  if (!info.ok()) return make_input_error("registered_proof: " + info.message());
  CUZK_TRY_STATUS(check_envelope(c1, *info, options));
  const SectorShape& shape = info->shape;
  Result<TreeLayout> tree_cr = poseidon_layout(shape.tree, shape.nodes);
  if (!tree_cr.ok()) return tree_cr.error();
  const StackedGraph graph(shape.nodes, info->porep_id, info->api);

  // comm_c and comm_r_last are the roots the circuit takes from the first proof.
  const PorepChallengeProof& first = c1.vanilla_proofs.at(0).at(0);
  Context ctx{&*info,
              &graph,
              binary_sha_layout(shape.log2_nodes),
              *tree_cr,
              c1.comm_d,
              first.replica_column_proofs.c_x.inclusion_proof.root,
              first.comm_r_last_proof.root};
  const Domain pair[2] = {ctx.comm_c, ctx.comm_r_last};
  Result<Domain> comm_r = poseidon_merkle(pair);
  if (!comm_r.ok()) return make_input_error("comm_c or comm_r_last is not a canonical field element");
  if (*comm_r != c1.comm_r) return make_input_error("comm_r is not Poseidon2(comm_c, comm_r_last)");

  if (only && *only >= info->partitions)
    return make_input_error("partition " + std::to_string(*only) + " of a proof with " +
                            std::to_string(info->partitions) + " partitions");
  for (unsigned k = 0; k < info->partitions; ++k) {
    if (only && k != *only) continue;
    const std::vector<uint64_t> challenges = porep_challenges(*info, c1.replica_id, c1.comm_r, c1.seed, k);
    const std::vector<PorepChallengeProof>& partition = c1.vanilla_proofs[k];
    std::vector<Status> results(challenges.size());
    parallel_for(challenges.size(), 1, [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i)
        results[i] = check_challenge(ctx, partition[i], c1.replica_id, challenges[i]);
    });
    for (size_t i = 0; i < results.size(); ++i)
      if (!results[i].ok())
        return fail("partition " + std::to_string(k) + " challenge " + std::to_string(i),
                    results[i].message());
  }
  return {};
}

}  // namespace

Status check_porep_vanilla(const SealCommitPhase1Output& c1, const PorepCheckOptions& options) {
  return check(c1, options, std::nullopt);
}

Status check_porep_vanilla_partition(const SealCommitPhase1Output& c1, size_t partition,
                                     const PorepCheckOptions& options) {
  return check(c1, options, partition);
}

}  // namespace cuzk::filecoin::vanilla
