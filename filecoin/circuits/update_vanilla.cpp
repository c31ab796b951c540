#include "filecoin/circuits/update_vanilla.hpp"

#include <string>

#include "filecoin/por/inclusion_path.hpp"
#include "filecoin/types/proof_types.hpp"
#include "filecoin/vanilla/update_check.hpp"

namespace cuzk::filecoin {

namespace {

Result<Fr> field(const Domain& d, const std::string& what) {
  auto x = domain_to_fr(d);
  if (!x) return make_input_error("SnapDeals: " + what + " is not a field element");
  return *x;
}

// The siblings of every level of a proof, bottom-up.
Result<std::vector<std::vector<Fr>>> siblings_of(const MerkleProof& proof, const std::string& what) {
  auto path = circuit_path(proof, what);
  if (!path) return make_input_error(path.message());
  std::vector<std::vector<Fr>> out;
  for (PathLevelValues& level : *path) out.push_back(std::move(level.siblings));
  return out;
}

Result<UpdateChallengeWitness> challenge_witness(const UpdateChallengeProof& p, const std::string& at) {
  UpdateChallengeWitness c;
  auto r_old = field(p.proof_r_old.leaf, at + "proof_r_old's leaf");
  auto d_new = field(p.proof_d_new.leaf, at + "proof_d_new's leaf");
  auto r_new = field(p.proof_r_new.leaf, at + "proof_r_new's leaf");
  for (const auto* x : {&r_old, &d_new, &r_new})
    if (!*x) return x->error();
  c.leaf_r_old = *r_old;
  c.leaf_d_new = *d_new;
  c.leaf_r_new = *r_new;
  auto path_r_old = siblings_of(p.proof_r_old, at + "proof_r_old");
  if (!path_r_old) return path_r_old.error();
  auto path_d_new = siblings_of(p.proof_d_new, at + "proof_d_new");
  if (!path_d_new) return path_d_new.error();
  auto path_r_new = siblings_of(p.proof_r_new, at + "proof_r_new");
  if (!path_r_new) return path_r_new.error();
  c.path_r_old = std::move(*path_r_old);
  for (const std::vector<Fr>& level : *path_d_new) {
    if (level.size() != 1) return make_input_error(at + "proof_d_new is not a binary path");
    c.path_d_new.push_back(level[0]);
  }
  c.path_r_new = std::move(*path_r_new);
  return c;
}

}  // namespace

Result<std::vector<Fr>> update_public_inputs(const vanilla::UpdateShape& shape,
                                             const vanilla::UpdatePublicInputs& inputs) {
  auto packed = shape.k_and_h_select(inputs.k, inputs.h);
  if (!packed) return packed.error();
  std::vector<Fr> out{Fr::from_u64(*packed)};
  for (const auto& [d, name] :
       {std::pair{&inputs.comm_r_old, "comm_r_old"}, std::pair{&inputs.comm_d_new, "comm_d_new"},
        std::pair{&inputs.comm_r_new, "comm_r_new"}}) {
    auto x = field(*d, name);
    if (!x) return x.error();
    out.push_back(*x);
  }
  return out;
}

Result<UpdateWitness> update_witness(const vanilla::UpdateShape& shape, const UpdatePartitionProof& proof,
                                     const vanilla::UpdatePublicInputs& inputs) {
  auto pub = update_public_inputs(shape, inputs);
  if (!pub) return pub.error();
  if (proof.challenge_proofs.empty())
    return make_input_error("SnapDeals: a partition proof without challenges");
  UpdateWitness w;
  w.k_and_h_select = (*pub)[0];
  w.comm_r_old = (*pub)[1];
  w.comm_d_new = (*pub)[2];
  w.comm_r_new = (*pub)[3];
  auto comm_c = field(proof.comm_c, "comm_c");
  if (!comm_c) return comm_c.error();
  w.comm_c = *comm_c;
  auto root_r_old = field(proof.challenge_proofs[0].proof_r_old.root, "challenge 0's proof_r_old root");
  if (!root_r_old) return root_r_old.error();
  auto root_r_new = field(proof.challenge_proofs[0].proof_r_new.root, "challenge 0's proof_r_new root");
  if (!root_r_new) return root_r_new.error();
  w.root_r_old = *root_r_old;
  w.root_r_new = *root_r_new;
  for (size_t j = 0; j < proof.apex_leafs.size(); ++j) {
    auto leaf = field(proof.apex_leafs[j], "apex leaf " + std::to_string(j));
    if (!leaf) return leaf.error();
    w.apex_leaves.push_back(*leaf);
  }
  for (size_t i = 0; i < proof.challenge_proofs.size(); ++i) {
    auto c = challenge_witness(proof.challenge_proofs[i], "challenge " + std::to_string(i) + ": ");
    if (!c) return c.error();
    w.challenges.push_back(std::move(*c));
  }
  return w;
}

Result<UpdatePartition> update_partition_from_vanilla(const vanilla::UpdateShape& shape,
                                                      const UpdatePartitionProof& proof,
                                                      const vanilla::UpdatePublicInputs& inputs) {
  CUZK_TRY_STATUS(vanilla::check_update_partition(shape, proof, inputs));
  auto witness = update_witness(shape, proof, inputs);
  if (!witness) return witness.error();
  std::vector<Fr> public_inputs = {witness->k_and_h_select, witness->comm_r_old, witness->comm_d_new,
                                   witness->comm_r_new};
  auto circuit = UpdateCircuit::create(shape, std::move(*witness));
  if (!circuit) return circuit.error();
  return UpdatePartition{std::move(*circuit), std::move(public_inputs)};
}

Result<UpdatePartition> update_partition_from_vanilla(uint64_t registered_update_proof,
                                                      const UpdatePartitionProof& proof,
                                                      const vanilla::UpdatePublicInputs& inputs) {
  auto type = update_proof(registered_update_proof);
  if (!type) return make_input_error(type.message());
  auto shape = vanilla::update_shape(type->sector_size);
  if (!shape) return shape.error();
  return update_partition_from_vanilla(*shape, proof, inputs);
}

}  // namespace cuzk::filecoin
