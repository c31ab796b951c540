// FallbackPoSt challenges and public inputs (rust-fil-proofs: storage-proofs-post/src/fallback/
// vanilla.rs `generate_leaf_challenge_inner`, utils.rs `get_challenge_index`, compound.rs
// `generate_public_inputs`; reference/filecoin-circuits.md §3.2).
//
// Challenge n of the sector at position `sector_index` (counted over every partition) is the leaf
//   u64_le(sha256(randomness ‖ sector_id as u64 LE ‖ challenge_index as u64 LE)[0..8]) mod nodes,
// with challenge_index = sector_index · challenge_count + n under API 1.0.0 and 1.1.0, and n alone
// under 1.2.0. WinningPoSt's circuit has 66 circuit sectors of one challenge, so under 1.0.0 its
// circuit sector i proves challenge i of the one real sector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/post_params.hpp"
#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin {

// get_challenge_index.
uint64_t post_challenge_index(PostApiVersion version, uint64_t sector_index, uint64_t challenge_count,
                              uint64_t n);

// generate_leaf_challenge: the challenged leaf (< nodes, which must be non-zero).
uint64_t post_leaf_challenge(const Domain& randomness, uint64_t sector_id, uint64_t challenge_index,
                             uint64_t nodes);

// The leaves challenged in the sector at position `sector_index` among all sectors of the proof.
std::vector<uint64_t> post_sector_challenges(const FallbackPostParams& params, const Domain& randomness,
                                             uint64_t sector_id, uint64_t sector_index);

// What a verifier knows of a sector.
struct PostPublicSector {
  uint64_t id = 0;
  Domain comm_r{};
};

// The randomness must be a field element (filecoin-proofs `as_safe_commitment`); callers clear its
// top two bits.
Status check_post_randomness(const Domain& randomness);

// generate_public_inputs for partition `partition_index`, given that partition's sectors (at most
// params.sector_count; a WindowPoSt deadline's sector list cut into chunks of sector_count): per
// sector [comm_r, leaf_0 … leaf_{c−1}], and the last sector's block repeated until there are
// params.sector_count blocks. WinningPoSt lists its one sector sector_count times (winning_post.rs
// `verify_winning_post`). Errors: a randomness or comm_r that is not a field element, no sectors
// or too many.
Result<std::vector<Fr>> fallback_post_public_inputs(const FallbackPostParams& params,
                                                    const Domain& randomness,
                                                    std::span<const PostPublicSector> sectors,
                                                    size_t partition_index = 0);

}  // namespace cuzk::filecoin
