#include "filecoin/vanilla/seal_proof.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

constexpr const char* kSizeNames[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
constexpr const char* kSuffixes[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                                      "V1_2_Feat_NonInteractivePoRep"};

}  // namespace

PorepId porep_id_of(uint64_t registered_proof_id) {
  PorepId id{};
  for (int i = 0; i < 8; ++i) id[i] = uint8_t(registered_proof_id >> (8 * i));
  return id;  // the nonce (bytes 8…15) is 0 for every registered type
}

Result<SealProofInfo> seal_proof_info(uint64_t registered_proof_id) {
  if (registered_proof_id >= 20)
    return make_input_error("registered seal proof " + std::to_string(registered_proof_id) +
                            " does not exist");
  const unsigned family = unsigned(registered_proof_id / 5), size = unsigned(registered_proof_id % 5);
  SealProofInfo info;
  info.id = registered_proof_id;
  // Built by append: GCC 12 misreports some std::string operator+ chains (-Wrestrict).
  info.shape_key.append("StackedDrg").append(kSizeNames[size]);
  info.name = info.shape_key;
  info.name.append(kSuffixes[family]);
  info.shape_key.append("V1");
  info.shape = sector_shapes()[size];
  info.api = family == 0 ? ApiVersion::v1_0 : family == 1 ? ApiVersion::v1_1 : ApiVersion::v1_2;
  info.challenges = family == 2   ? ChallengeKind::synthetic
                    : family == 3 ? ChallengeKind::non_interactive
                                  : ChallengeKind::interactive;
  info.porep_id = porep_id_of(registered_proof_id);
  info.partitions = family == 3 ? info.shape.ni_porep_partitions : info.shape.porep_partitions;
  info.challenges_per_partition = info.shape.porep_challenges;
  return info;
}

Result<SealProofInfo> seal_proof_info(std::string_view name) {
  for (uint64_t id = 0; id < 20; ++id) {
    Result<SealProofInfo> info = seal_proof_info(id);
    if (info.ok() && info->name == name) return info;
  }
  std::string message(name);
  message.append(" is not a registered seal proof");
  return make_input_error(message);
}

}  // namespace cuzk::filecoin::vanilla
