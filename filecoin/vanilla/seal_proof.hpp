// A registered seal proof type as the vanilla side uses it: the registry's entry
// (filecoin/types/proof_types.hpp) with its sector shape, challenge rule and partitioning.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "filecoin/types/domain.hpp"
#include "filecoin/types/proof_types.hpp"
#include "filecoin/types/sector_shape.hpp"

namespace cuzk::filecoin::vanilla {

enum class ChallengeKind { interactive, synthetic, non_interactive };

using PorepId = std::array<uint8_t, 32>;

struct SealProofInfo {
  uint64_t id = 0;
  std::string name;       // "StackedDrg2KiBV1_1"
  std::string shape_key;  // "StackedDrg2KiBV1", the C1 vanilla_proofs key
  SectorShape shape;
  ApiVersion api = ApiVersion::v1_1_0;
  ChallengeKind challenges = ChallengeKind::interactive;
  PorepId porep_id{};
  unsigned partitions = 0;                // NI-PoRep: shape.ni_porep_partitions
  unsigned challenges_per_partition = 0;  // shape.porep_challenges
};

Result<SealProofInfo> seal_proof_info(uint64_t registered_proof_id);
Result<SealProofInfo> seal_proof_info(std::string_view name);

}  // namespace cuzk::filecoin::vanilla
