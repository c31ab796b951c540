#include "filecoin/vanilla/post_proof.hpp"

#include <string>

#include "filecoin/circuits/post_challenges.hpp"

namespace cuzk::filecoin::vanilla {

Result<PostProofType> post_proof_type(const RegisteredProof& post_type) {
  if (post_type.family != ProofFamily::post)
    return make_input_error(std::string(post_type.name) + " is not a PoSt proof type");
  PostProofType t;
  t.kind = post_type.kind == ProofKind::winning_post ? PostKind::winning : PostKind::window;
  t.sector_size = post_type.sector_size;
  t.api_version = post_type.api_version;
  return t;
}

Result<FallbackPostSectorProof> post_vanilla_proof(const PostSector& sector, const RegisteredProof& post_type,
                                                   const Domain& randomness, uint64_t sector_index) {
  auto type = post_proof_type(post_type);
  if (!type) return type.error();
  auto params = fallback_post_params(type->kind, type->sector_size, type->api_version);
  if (!params) return params.error();
  CUZK_TRY_STATUS(check_post_randomness(randomness));
  if (!sector.tree_r_last || sector.tree_r_last->layout().leaves != params->nodes())
    return make_input_error(std::string(post_type.name) + ": the sector's tree_r_last does not have " +
                            std::to_string(params->nodes()) + " leaves");

  // WindowPoSt: the sector's own challenges; WinningPoSt: those of each circuit sector in turn, all
  // cut from the one sector.
  std::vector<uint64_t> leaves;
  if (type->kind == PostKind::window) {
    leaves = post_sector_challenges(*params, randomness, sector.sector_id, sector_index);
  } else {
    for (uint64_t j = 0; j < params->sector_count; ++j) {
      const auto block = post_sector_challenges(*params, randomness, sector.sector_id, j);
      leaves.insert(leaves.end(), block.begin(), block.end());
    }
  }
  FallbackPostSectorProof out;
  out.sector_id = sector.sector_id;
  out.comm_r = sector.comm_r;
  PostSectorProof proof;
  proof.comm_c = sector.comm_c;
  proof.comm_r_last = sector.tree_r_last->root();
  for (uint64_t leaf : leaves) proof.inclusion_proofs.push_back(sector.tree_r_last->proof(leaf));
  out.sectors.push_back(std::move(proof));
  return out;
}

Result<FallbackPostSectorProof> post_vanilla_proof(const TestSector& sector, const RegisteredProof& post_type,
                                                   const Domain& randomness, uint64_t sector_index) {
  if (post_type.sector_size != sector.info.shape.sector_size)
    return make_input_error(std::string(post_type.name) + " is for " + std::to_string(post_type.sector_size) +
                            "-byte sectors, the sector has " + std::to_string(sector.info.shape.sector_size));
  const PostSector s{sector.sector_id, sector.comm_r, sector.comm_c, &sector.tree_r_last};
  return post_vanilla_proof(s, post_type, randomness, sector_index);
}

}  // namespace cuzk::filecoin::vanilla
