// The prover id of PoRep and PoSt: the payload of the miner's ID address, which is the unsigned
// LEB128 varint of the actor id, left-aligned in 32 zero bytes (reference/filecoin-circuits.md
// §4.3; filecoin-ffi: proofs.go `toProverID`; curio: extern/cuzk/cuzk-core/src/prover.rs
// `make_prover_id`).
#pragma once

#include <array>
#include <cstdint>

namespace cuzk::filecoin {

using ProverId = std::array<uint8_t, 32>;

// At most 10 varint bytes for a u64, so every actor id fits.
ProverId prover_id_from_actor_id(uint64_t actor_id);

}  // namespace cuzk::filecoin
