#include "filecoin/vanilla/seal_proof.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

Result<SealProofInfo> info_of(Result<RegisteredProof> proof) {
  if (!proof.ok()) return make_input_error(proof.message());
  const RegisteredProof& p = *proof;
  const std::optional<SectorShape> shape = sector_shape(p.sector_size);
  if (!shape) return make_error(std::string(p.name) + " has a sector size with no shape");
  SealProofInfo info;
  info.id = p.id;
  info.name = p.name;
  info.shape_key = p.shape_key;
  info.shape = *shape;
  info.api = p.api_version;
  info.challenges = p.non_interactive ? ChallengeKind::non_interactive
                    : p.synthetic     ? ChallengeKind::synthetic
                                      : ChallengeKind::interactive;
  info.porep_id = p.porep_id();
  info.partitions = p.non_interactive ? shape->ni_porep_partitions : shape->porep_partitions;
  info.challenges_per_partition = shape->porep_challenges;
  return info;
}

}  // namespace

Result<SealProofInfo> seal_proof_info(uint64_t registered_proof_id) {
  return info_of(seal_proof(registered_proof_id));
}

Result<SealProofInfo> seal_proof_info(std::string_view name) {
  return info_of(registered_proof(ProofFamily::seal, name));
}

}  // namespace cuzk::filecoin::vanilla
