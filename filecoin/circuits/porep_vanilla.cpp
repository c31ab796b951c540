#include "filecoin/circuits/porep_vanilla.hpp"

#include <string>

#include "filecoin/por/inclusion_path.hpp"
#include "filecoin/vanilla/challenges.hpp"
#include "filecoin/vanilla/graph.hpp"
#include "filecoin/vanilla/seal_proof.hpp"

namespace cuzk::filecoin {

namespace {

Result<vanilla::SealProofInfo> proof_info(const SealCommitPhase1Output& c1) {
  auto info = vanilla::seal_proof_info(c1.registered_proof);
  if (!info) return make_input_error("PoRep: registered_proof " + info.message());
  return info;
}

Result<Fr> field_element(const Domain& d, const char* name) {
  auto x = domain_to_fr(d);
  if (!x) return make_input_error(std::string("PoRep: ") + name + " is not a field element");
  return *x;
}

Result<std::vector<PathLevelValues>> path_of(const MerkleProof& proof, const std::string& what) {
  auto path = circuit_path(proof, what);
  if (!path) return make_input_error(path.message());
  return path;
}

Result<PorepColumnWitness> column_of(const ColumnProof& p, const std::string& what) {
  PorepColumnWitness c;
  for (const Domain& row : p.column.rows) {
    auto x = domain_to_fr(row);
    if (!x) return make_input_error(what + " has a row that is not a field element");
    c.rows.push_back(*x);
  }
  auto path = path_of(p.inclusion_proof, what + " path");
  if (!path) return path.error();
  c.path = std::move(*path);
  return c;
}

// params.rs `From<VanillaProof>`: the parts of one challenge's vanilla proof the circuit reads.
Result<PorepChallengeWitness> challenge_witness(const PorepChallengeProof& p, const std::string& at) {
  PorepChallengeWitness w;
  if (p.labeling_proofs.empty()) return make_input_error(at + "no labeling proofs");
  w.challenge = p.labeling_proofs[0].node;
  auto leaf = domain_to_fr(p.comm_d_proofs.leaf);
  if (!leaf) return make_input_error(at + "the data leaf is not a field element");
  w.data_leaf = *leaf;
  auto d = path_of(p.comm_d_proofs, at + "comm_d path");
  if (!d) return d.error();
  w.comm_d_path = std::move(*d);
  const ReplicaColumnProofs& rcp = p.replica_column_proofs;
  for (size_t i = 0; i < rcp.drg_parents.size(); ++i) {
    auto c = column_of(rcp.drg_parents[i], at + "drg parent " + std::to_string(i) + " column");
    if (!c) return c.error();
    w.drg_parents.push_back(std::move(*c));
  }
  for (size_t i = 0; i < rcp.exp_parents.size(); ++i) {
    auto c = column_of(rcp.exp_parents[i], at + "exp parent " + std::to_string(i) + " column");
    if (!c) return c.error();
    w.exp_parents.push_back(std::move(*c));
  }
  auto r = path_of(p.comm_r_last_proof, at + "comm_r_last path");
  if (!r) return r.error();
  w.comm_r_last_path = std::move(*r);
  auto c = path_of(rcp.c_x.inclusion_proof, at + "c_x path");
  if (!c) return c.error();
  w.comm_c_path = std::move(*c);
  return w;
}

}  // namespace

Result<PorepParams> porep_params_of(const SealCommitPhase1Output& c1) {
  auto info = proof_info(c1);
  if (!info) return info.error();
  if (c1.shape_key != info->shape_key)
    return make_input_error("PoRep: vanilla_proofs key is " + c1.shape_key + ", " + info->name + " uses " +
                            info->shape_key);
  if (c1.vanilla_proofs.size() != info->partitions)
    return make_input_error("PoRep: " + std::to_string(c1.vanilla_proofs.size()) + " partitions, " +
                            info->name + " has " + std::to_string(info->partitions));
  auto params = porep_params(info->shape.sector_size);
  if (!params) return params.error();
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k)
    if (c1.vanilla_proofs[k].size() != params->challenge_count)
      return make_input_error("PoRep: partition " + std::to_string(k) + " has " +
                              std::to_string(c1.vanilla_proofs[k].size()) + " challenges, " + info->name +
                              " has " + std::to_string(params->challenge_count));
  return params;
}

Result<std::vector<Fr>> porep_public_inputs(const SealCommitPhase1Output& c1, size_t partition_index) {
  auto info = proof_info(c1);
  if (!info) return info.error();
  if (partition_index >= info->partitions)
    return make_input_error("PoRep: partition " + std::to_string(partition_index) + " of " + info->name +
                            ", which has " + std::to_string(info->partitions));
  std::vector<Fr> inputs;
  for (auto [d, name] :
       {std::pair{&c1.replica_id, "replica_id"}, {&c1.comm_d, "comm_d"}, {&c1.comm_r, "comm_r"}}) {
    auto x = field_element(*d, name);
    if (!x) return x.error();
    inputs.push_back(*x);
  }
  const vanilla::StackedGraph graph(info->shape.nodes, info->porep_id, info->api);
  for (uint64_t c :
       vanilla::porep_challenges(*info, c1.replica_id, c1.comm_r, c1.seed, unsigned(partition_index))) {
    inputs.push_back(Fr::from_u64(c));
    uint32_t parents[vanilla::kParents];
    graph.parents(c, parents);
    for (uint32_t p : parents) inputs.push_back(Fr::from_u64(p));
    for (int i = 0; i < 3; ++i) inputs.push_back(Fr::from_u64(c));
  }
  return inputs;
}

Result<PorepPartition> porep_partition_from_c1(const SealCommitPhase1Output& c1, size_t partition_index,
                                               const vanilla::PorepCheckOptions& options) {
  auto params = porep_params_of(c1);
  if (!params) return params.error();
  if (partition_index >= c1.vanilla_proofs.size())
    return make_input_error("PoRep: partition " + std::to_string(partition_index) + " of a proof with " +
                            std::to_string(c1.vanilla_proofs.size()));
  Status checked = vanilla::check_porep_vanilla_partition(c1, partition_index, options);
  if (!checked) return make_input_error("PoRep: " + checked.message());

  const std::vector<PorepChallengeProof>& proofs = c1.vanilla_proofs[partition_index];
  PorepWitness w;
  // check_porep_vanilla has checked every commitment and that all paths reach the first proof's roots.
  w.replica_id = *domain_to_fr(c1.replica_id);
  w.comm_d = *domain_to_fr(c1.comm_d);
  w.comm_r = *domain_to_fr(c1.comm_r);
  w.comm_r_last = *domain_to_fr(proofs[0].comm_r_last_proof.root);
  w.comm_c = *domain_to_fr(proofs[0].replica_column_proofs.c_x.inclusion_proof.root);
  for (size_t i = 0; i < proofs.size(); ++i) {
    auto cw = challenge_witness(proofs[i], "PoRep: partition " + std::to_string(partition_index) +
                                               " challenge " + std::to_string(i) + ": ");
    if (!cw) return cw.error();
    w.challenges.push_back(std::move(*cw));
  }
  auto inputs = porep_public_inputs(c1, partition_index);
  if (!inputs) return inputs.error();
  auto circuit = PorepCircuit::create(*params, std::move(w));
  if (!circuit) return circuit.error();
  return PorepPartition{std::move(*circuit), std::move(*inputs)};
}

}  // namespace cuzk::filecoin
