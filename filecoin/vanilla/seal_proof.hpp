// Registered seal proof types (reference/filecoin-circuits.md §4.6; rust-filecoin-proofs-api:
// src/registry.rs): ids 0–4 StackedDrg{size}V1 (API 1.0), 5–9 …V1_1 (1.1),
// 10–14 …V1_1_Feat_SyntheticPoRep (1.2), 15–19 …V1_2_Feat_NonInteractivePoRep (1.2), for the sizes
// 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB in that order.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "filecoin/types/domain.hpp"
#include "filecoin/types/sector_shape.hpp"

namespace cuzk::filecoin::vanilla {

enum class ApiVersion { v1_0, v1_1, v1_2 };
enum class ChallengeKind { interactive, synthetic, non_interactive };

using PorepId = std::array<uint8_t, 32>;

struct SealProofInfo {
  uint64_t id = 0;
  std::string name;       // "StackedDrg2KiBV1_1"
  std::string shape_key;  // "StackedDrg2KiBV1", the C1 vanilla_proofs key
  SectorShape shape;
  ApiVersion api = ApiVersion::v1_1;
  ChallengeKind challenges = ChallengeKind::interactive;
  PorepId porep_id{};
  unsigned partitions = 0;                // NI-PoRep: shape.ni_porep_partitions
  unsigned challenges_per_partition = 0;  // shape.porep_challenges
};

// porep_id = id as u64 LE ‖ nonce 0 as u64 LE ‖ 16 zero bytes.
PorepId porep_id_of(uint64_t registered_proof_id);

Result<SealProofInfo> seal_proof_info(uint64_t registered_proof_id);
Result<SealProofInfo> seal_proof_info(std::string_view name);

}  // namespace cuzk::filecoin::vanilla
