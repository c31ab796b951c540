// PoSt vanilla proofs of a sealed sector (reference/filecoin-circuits.md §3.2, §4.4; rust-fil-proofs:
// storage-proofs-post/src/fallback/vanilla.rs `prove_all_partitions`, filecoin-proofs:
// api/post_util.rs `generate_single_vanilla_proof`): for each leaf the verifier challenges, the
// inclusion proof of that leaf in tree_r_last, with comm_c and comm_r_last beside them.
//   * WindowPoSt: one sector proof of 10 inclusion proofs, at the challenges of the sector's position
//     among the deadline's sectors;
//   * WinningPoSt: one sector proof of 66 inclusion proofs, the challenges of circuit sectors 0 … 65.
// Kept apart from cuzk_filecoin_vanilla (library cuzk_filecoin_vanilla_post): it reads the
// challenge rule from filecoin/circuits, which may itself use the vanilla side.
#pragma once

#include <cstdint>

#include "common/result.hpp"
#include "filecoin/circuits/post_vanilla.hpp"
#include "filecoin/types/proof_types.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"
#include "filecoin/vanilla/seal.hpp"

namespace cuzk::filecoin::vanilla {

// The kind, sector size and API version of a registered PoSt type; an error for a seal or update type.
Result<PostProofType> post_proof_type(const RegisteredProof& post_type);

// A sector as a PoSt prover holds it: its id, comm_r and the two trees behind it.
struct PostSector {
  uint64_t sector_id = 0;
  Domain comm_r{};
  Domain comm_c{};
  const MerkleTree* tree_r_last = nullptr;
};

// The bytes `generate_single_vanilla_proof` returns, as a struct. `sector_index`: the sector's
// position among every sector of the WindowPoSt proof (API 1.0.0 and 1.1.0 derive challenges from
// it); 0 for WinningPoSt. An error when the tree does not have the sector size's shape or the
// randomness is not a field element.
Result<FallbackPostSectorProof> post_vanilla_proof(const PostSector& sector, const RegisteredProof& post_type,
                                                   const Domain& randomness, uint64_t sector_index = 0);

// The same for a sealed test sector.
Result<FallbackPostSectorProof> post_vanilla_proof(const TestSector& sector, const RegisteredProof& post_type,
                                                   const Domain& randomness, uint64_t sector_index = 0);

}  // namespace cuzk::filecoin::vanilla
