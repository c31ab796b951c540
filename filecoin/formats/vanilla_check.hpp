// Checks that parsed vanilla proofs fit the circuit they are meant for, before synthesis: the
// counts and Merkle-path shapes of the sector size, the values upstream refuses, and that every
// 32-byte value that becomes an Fr is one (< r). Errors name the field as the parsers do.
//
// Field elements. Upstream refuses, with an error, a comm_r ≥ r (filecoin-proofs: api/seal.rs
// `as_safe_commitment(&comm_r, "comm_r")`), all-zero comm_r, comm_d and seed, and empty partitions
// (`seal_commit_phase2_circuit_proofs`); the PoSt randomness likewise (`as_safe_commitment`). Every
// other domain that the circuits read — comm_d, replica_id, each root, leaf, sibling, column row
// and label, comm_c, comm_r_last, apex leaves — upstream converts with `Fr::from_repr(..).expect()`
// (filecoin-hashers: `From<Domain> for Fr`) and so would panic on a value ≥ r; here each is an
// error. The seed and ticket are hashed as bytes and may be any 32 bytes.
#pragma once

#include <string>

#include "common/result.hpp"
#include "filecoin/types/proof_types.hpp"
#include "filecoin/types/sector_shape.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin {

// A Merkle proof of a TreeR / TreeC of this shape: Single, Sub or Top by the tree, 7 siblings per
// base level, one sub and one top level where the tree has them, every index below its arity.
Status check_tree_r_proof(const MerkleProof& proof, const SectorShape& shape, const std::string& path);
// A proof in the binary TreeD: Single, log2(nodes) levels of one sibling, each index 0 or 1.
Status check_tree_d_proof(const MerkleProof& proof, const SectorShape& shape, const std::string& path);

// The whole C1 output against its registered proof type: shape key, partition and challenge
// counts (NI-PoRep types have more partitions), columns of `layers` rows, 6 DRG and 8 expander
// parents, `layers` labeling proofs of 37 parents, and the field-element rules above.
Status check_c1(const SealCommitPhase1Output& c1);

// One sector's PoSt vanilla proof for a PoSt type: one sector, 10 challenges (WindowPoSt) or 66
// (WinningPoSt), TreeR-shaped inclusion proofs, and the field-element rules.
Status check_post_vanilla_proof(const FallbackPostSectorProof& proof, const RegisteredProof& post_type);

// One SnapDeals partition's vanilla proof for an update type: the apex-leaf and challenge counts
// of the size, TreeR-shaped old and new proofs, a TreeD proof, and the field-element rules.
Status check_update_vanilla_proof(const UpdatePartitionProof& proof, const RegisteredProof& update_type);

}  // namespace cuzk::filecoin
