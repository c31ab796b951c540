#include "filecoin/vanilla/update_check.hpp"

#include <array>
#include <string>
#include <vector>

#include "filecoin/vanilla/hashes.hpp"
#include "filecoin/vanilla/merkle_check.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"
#include "filecoin/vanilla/poseidon.hpp"
#include "filecoin/vanilla/update_challenges.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

constexpr const char* kProofNames[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};

struct Checker {
  Checker(const UpdateShape& s, const UpdatePartitionProof& p, const UpdatePublicInputs& i)
      : shape(s), proof(p), in(i), at("partition " + std::to_string(i.k) + ": ") {}

  const UpdateShape& shape;
  const UpdatePartitionProof& proof;
  const UpdatePublicInputs& in;
  std::string at;  // "partition k: "
  TreeLayout layout_r, layout_d;
  Fr comm_r_old = Fr::zero(), comm_d_new = Fr::zero(), comm_r_new = Fr::zero();
  Fr root_r_old = Fr::zero(), root_r_new = Fr::zero();
  Fr phi = Fr::zero();
  std::vector<std::array<Domain, 3>> roots;  // the root each challenge's proofs compute

  const MerkleProof& merkle(size_t i, int which) const {
    const UpdateChallengeProof& c = proof.challenge_proofs[i];
    return which == 0 ? c.proof_r_old : which == 1 ? c.proof_d_new : c.proof_r_new;
  }
  std::string challenge(size_t i) const {
    return at.substr(0, at.size() - 2) + " challenge " + std::to_string(i) + ": ";
  }

  Result<Fr> field(const Domain& d, const std::string& name) const {
    auto x = domain_to_fr(d);
    if (!x) return make_input_error(at + name + " is not a field element");
    return *x;
  }

  Status public_values();
  Status shapes();
  Status commitments();
  Status apex();
  Status challenge_proof(size_t i, uint64_t c);
};

Status Checker::public_values() {
  CUZK_TRY_STATUS(shape.k_and_h_select(in.k, in.h));
  auto r_old = field(in.comm_r_old, "comm_r_old");
  if (!r_old) return r_old.error();
  auto d_new = field(in.comm_d_new, "comm_d_new");
  if (!d_new) return d_new.error();
  auto r_new = field(in.comm_r_new, "comm_r_new");
  if (!r_new) return r_new.error();
  CUZK_TRY_STATUS(field(proof.comm_c, "comm_c"));
  comm_r_old = *r_old;
  comm_d_new = *d_new;
  comm_r_new = *r_new;
  phi = update_phi(comm_d_new, comm_r_old);
  auto layout = poseidon_layout(shape.tree, shape.nodes);
  if (!layout) return layout.error();
  layout_r = *layout;
  layout_d = binary_sha_layout(shape.challenge_bits);
  return Status::Ok();
}

// Counts, canonical values and path shapes; the root each path computes.
Status Checker::shapes() {
  if (proof.apex_leafs.size() != shape.apex_leaves)
    return make_input_error(at + std::to_string(proof.apex_leafs.size()) + " apex leaves, expected " +
                            std::to_string(shape.apex_leaves));
  for (size_t j = 0; j < proof.apex_leafs.size(); ++j)
    CUZK_TRY_STATUS(field(proof.apex_leafs[j], "apex leaf " + std::to_string(j)));
  if (proof.challenge_proofs.size() != shape.challenges)
    return make_input_error(at + std::to_string(proof.challenge_proofs.size()) +
                            " challenge proofs, expected " + std::to_string(shape.challenges));
  roots.resize(shape.challenges);
  for (size_t i = 0; i < shape.challenges; ++i)
    for (int which = 0; which < 3; ++which) {
      auto root = computed_root(which == 1 ? layout_d : layout_r, merkle(i, which));
      if (!root) return make_input_error(challenge(i) + kProofNames[which] + " " + root.message());
      roots[i][size_t(which)] = *root;
    }
  return Status::Ok();
}

Status Checker::commitments() {
  const Domain comm_c = proof.comm_c;
  root_r_old = *domain_to_fr(proof.challenge_proofs[0].proof_r_old.root);
  root_r_new = *domain_to_fr(proof.challenge_proofs[0].proof_r_new.root);
  const Domain old_pair[2] = {comm_c, fr_to_domain(root_r_old)};
  if (*domain_to_fr(poseidon_merkle(old_pair).value()) != comm_r_old)
    return make_input_error(at +
                            "comm_r_old is not Poseidon(comm_c, root_r_old), root_r_old being challenge 0's "
                            "proof_r_old root");
  const Domain new_pair[2] = {comm_c, fr_to_domain(root_r_new)};
  if (*domain_to_fr(poseidon_merkle(new_pair).value()) != comm_r_new)
    return make_input_error(at +
                            "comm_r_new is not Poseidon(comm_c, root_r_new), root_r_new being challenge 0's "
                            "proof_r_new root");
  return Status::Ok();
}

// The apex tree over the leaves, then challenge 0's partition path at k's bits, reach comm_d_new.
Status Checker::apex() {
  std::vector<Domain> row = proof.apex_leafs;
  while (row.size() > 1) {
    std::vector<Domain> up(row.size() / 2);
    for (size_t j = 0; j < up.size(); ++j) up[j] = sha254_node(row[2 * j], row[2 * j + 1]);
    row = std::move(up);
  }
  Domain cur = row[0];
  const InclusionPath& path = proof.challenge_proofs[0].proof_d_new.base;
  for (unsigned l = 0; l < shape.partition_bits; ++l) {
    const Domain& sibling = path[shape.random_bits() + l].hashes[0];
    cur = (in.k >> l) & 1 ? sha254_node(sibling, cur) : sha254_node(cur, sibling);
  }
  if (*domain_to_fr(cur) != comm_d_new)
    return make_input_error(at + "the apex leaves and the partition path do not reach comm_d_new");
  return Status::Ok();
}

Status Checker::challenge_proof(size_t i, uint64_t c) {
  const std::string ch = challenge(i);
  const UpdateChallengeProof& cp = proof.challenge_proofs[i];
  for (unsigned l = shape.random_bits(); l < shape.challenge_bits; ++l)
    if (cp.proof_d_new.base[l].hashes != proof.challenge_proofs[0].proof_d_new.base[l].hashes)
      return make_input_error(ch + "proof_d_new's partition path differs from challenge 0's");
  for (int which = 0; which < 3; ++which) {
    const uint64_t opened = path_index(which == 1 ? layout_d : layout_r, merkle(i, which));
    if (opened != c)
      return make_input_error(ch + kProofNames[which] + " opens leaf " + std::to_string(opened) +
                              ", the challenge is leaf " + std::to_string(c));
  }
  if (*domain_to_fr(roots[i][0]) != root_r_old)
    return make_input_error(ch + "proof_r_old does not reach root_r_old");
  if (*domain_to_fr(cp.proof_r_old.root) != root_r_old)
    return make_input_error(ch + "proof_r_old stores a root other than root_r_old");

  const Fr rho = update_rho(phi, update_high_bits(shape, c, in.h));
  if (*domain_to_fr(cp.proof_r_new.leaf) !=
      *domain_to_fr(cp.proof_r_old.leaf) + *domain_to_fr(cp.proof_d_new.leaf) * rho)
    return make_input_error(ch + "proof_r_new's leaf is not leaf_r_old + leaf_d_new·rho");
  if (*domain_to_fr(roots[i][2]) != root_r_new)
    return make_input_error(ch + "proof_r_new does not reach root_r_new");
  if (*domain_to_fr(cp.proof_r_new.root) != root_r_new)
    return make_input_error(ch + "proof_r_new stores a root other than root_r_new");

  Domain cur = cp.proof_d_new.leaf;
  for (unsigned l = 0; l < shape.apex_height(); ++l) {
    const Domain& sibling = cp.proof_d_new.base[l].hashes[0];
    cur = (c >> l) & 1 ? sha254_node(sibling, cur) : sha254_node(cur, sibling);
  }
  if (cur != proof.apex_leafs[(c >> shape.apex_height()) & (shape.apex_leaves - 1)])
    return make_input_error(ch + "proof_d_new does not reach the apex leaf");
  if (*domain_to_fr(roots[i][1]) != comm_d_new)
    return make_input_error(ch + "proof_d_new does not reach comm_d_new");
  if (*domain_to_fr(cp.proof_d_new.root) != comm_d_new)
    return make_input_error(ch + "proof_d_new stores a root other than comm_d_new");
  return Status::Ok();
}

}  // namespace

Status check_update_partition(const UpdateShape& shape, const UpdatePartitionProof& proof,
                              const UpdatePublicInputs& inputs) {
  Checker ck(shape, proof, inputs);
  CUZK_TRY_STATUS(ck.public_values());
  CUZK_TRY_STATUS(ck.shapes());
  CUZK_TRY_STATUS(ck.commitments());
  CUZK_TRY_STATUS(ck.apex());
  const std::vector<uint64_t> challenges = update_challenges(shape, ck.comm_r_new, inputs.k);
  for (size_t i = 0; i < challenges.size(); ++i) CUZK_TRY_STATUS(ck.challenge_proof(i, challenges[i]));
  return Status::Ok();
}

}  // namespace cuzk::filecoin::vanilla
