// The parameters of one FallbackPoSt circuit (rust-fil-proofs: storage-proofs-post/src/fallback/
// vanilla.rs `PublicParams`; filecoin-proofs/src/parameters.rs `window_post_setup_params`,
// `winning_post_setup_params`; reference/filecoin-circuits.md §3.2, §4.6).
//
// A circuit proves `sector_count` circuit sectors of `challenge_count` challenges each:
//   * WindowPoSt: the partition's sectors (2349 at 32 GiB, 2300 at 64 GiB, 2 for the test sizes),
//     10 challenges each;
//   * WinningPoSt: 66 circuit sectors of one challenge, all cut from one real sector's 66
//     inclusion proofs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/result.hpp"
#include "filecoin/types/proof_types.hpp"
#include "filecoin/types/sector_shape.hpp"

namespace cuzk::filecoin {

enum class PostKind { winning, window };

// The proofs API version of a registered PoSt type (filecoin/types/proof_types.hpp): ids 0–9 are
// 1.0.0, the WindowPoSt ids 10–14 are 1.2.0. 1.1.0 derives challenges as 1.0.0 does.
using PostApiVersion = ApiVersion;

std::string_view to_string(PostKind kind);  // "WinningPoSt", "WindowPoSt"

struct FallbackPostParams {
  uint64_t sector_size = 0;    // bytes: 32-byte nodes, the leaves of the tree
  TreeShape tree;              // the Poseidon LC tree comm_r_last is the root of
  size_t challenge_count = 0;  // per circuit sector
  size_t sector_count = 0;     // circuit sectors per partition
  PostApiVersion api_version = PostApiVersion::v1_2_0;

  uint64_t nodes() const { return sector_size / 32; }
  // Public inputs without ONE: per circuit sector comm_r and one leaf index per challenge.
  size_t num_public_inputs() const { return sector_count * (1 + challenge_count); }
};

// The height of each base tree: `nodes / base_trees` leaves must be a power of the base arity
// (2 KiB: 64 leaves, 2 levels; 32 GiB: 8 trees of 2^27 leaves, 9 levels). An error names a sector
// size the shape cannot hold, or zero counts.
Result<size_t> post_base_levels(const FallbackPostParams& params);

// The registered shape of a PoSt proof of this kind, sector size and API version; an error for a
// sector size no Filecoin proof uses.
Result<FallbackPostParams> fallback_post_params(PostKind kind, uint64_t sector_size,
                                                PostApiVersion api_version);

}  // namespace cuzk::filecoin
