// PoRep challenges per partition (reference/filecoin-circuits.md §6.6; rust-fil-proofs:
// storage-proofs-porep/src/stacked/vanilla/challenges.rs). Every rule maps a 256-bit
// little-endian number x to the node (x mod (nodes − 1)) + 1, so node 0 is never challenged.
// For partition k and i < n, j = n · k + i:
//   * interactive: x = sha256(replica_id ‖ seed ‖ j u32 LE);
//   * NI-PoRep: x = sha256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j u32 LE);
//   * synthetic: the j-th selection index s = (u32 LE at byte 4j of a ChaCha20 stream keyed by
//     BLAKE2b-256{key "…|Synthetic|1|Selection"}(replica_id ‖ seed)) mod N, N = min(nodes, 2^18),
//     and x = the 32 bytes at byte 32 s of a ChaCha20 stream keyed by
//     BLAKE2b-256{key "…|Synthetic|1|Generation"}(replica_id ‖ comm_r); both nonces "synth-porep\0".
// No upstream test pins any of these to values (reference §7); the NI-PoRep and synthetic rules are
// transcribed from challenges.rs and checked here only for determinism and range.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/vanilla/seal_proof.hpp"

namespace cuzk::filecoin::vanilla {

uint64_t challenge_from_le(std::span<const uint8_t, 32> x, uint64_t nodes);

std::vector<uint64_t> interactive_challenges(uint64_t nodes, const Domain& replica_id, const Domain& seed,
                                             unsigned k, unsigned n);
std::vector<uint64_t> ni_challenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                    unsigned k, unsigned n);
std::vector<uint64_t> synthetic_challenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                           const Domain& seed, unsigned k, unsigned n);

// Partition k's challenges for the proof type's rule (comm_r is used by NI and synthetic, seed by
// interactive and synthetic).
std::vector<uint64_t> porep_challenges(const SealProofInfo& info, const Domain& replica_id,
                                       const Domain& comm_r, const Domain& seed, unsigned k);

}  // namespace cuzk::filecoin::vanilla
