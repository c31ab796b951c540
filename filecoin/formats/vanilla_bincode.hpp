// The vanilla proofs that PoSt and SnapDeals callers hand over as bytes: bincode of
// filecoin-proofs' FallbackPoStSectorProof (reference/filecoin-circuits.md §4.4; what
// `generate_single_vanilla_proof` returns) and of storage-proofs-update's PartitionProof (§4.5; one
// per SnapDeals partition). Parsing checks only the encoding; whether the proof fits a sector size
// is shape_check.hpp's business.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin {

Result<FallbackPostSectorProof> parse_post_vanilla_proof(std::span<const uint8_t> bytes);
std::vector<uint8_t> write_post_vanilla_proof(const FallbackPostSectorProof& proof);

Result<UpdatePartitionProof> parse_update_vanilla_proof(std::span<const uint8_t> bytes);
std::vector<uint8_t> write_update_vanilla_proof(const UpdatePartitionProof& proof);

}  // namespace cuzk::filecoin
