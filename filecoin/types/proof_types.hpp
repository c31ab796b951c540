// Filecoin's registered proof types (reference/filecoin-circuits.md §4.6; rust-filecoin-proofs-api:
// src/registry.rs): the seal types 0–19, the PoSt types 0–14 and the update types 0–4, numbered as
// Go's `abi` numbers them (which equal the proofs API's ids), with the facts a prover needs from
// each. Names are the Rust enum variants that serde writes into commit-phase-1 JSON.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace cuzk::filecoin {

// The three id spaces; an id means nothing without its family.
enum class ProofFamily { seal, post, update };

// What the proof proves, which picks its circuit.
enum class ProofKind { seal, winning_post, window_post, update };

enum class ApiVersion { v1_0_0, v1_1_0, v1_2_0 };

std::string_view to_string(ProofFamily family);  // "seal", "post", "update"
std::string_view to_string(ProofKind kind);      // "seal", "winning", "window", "update"
std::string_view to_string(ApiVersion version);  // "1.0.0", "1.1.0", "1.2.0"

struct RegisteredProof {
  ProofFamily family = ProofFamily::seal;
  uint64_t id = 0;        // the abi / proofs-api number within the family
  std::string_view name;  // the Rust variant, e.g. "StackedDrg32GiBV1_1", "StackedDrgWindow32GiBV1_2"
  // The Go `abi` constant's suffix where it differs from `name`: the V1_2 WindowPoSt types are
  // "StackedDrgWindow…V1_1" in Go and the NI-PoRep types "…V1_2_Feat_NiPoRep". Empty otherwise.
  std::string_view go_name;
  ProofKind kind = ProofKind::seal;
  uint64_t sector_size = 0;
  ApiVersion api_version = ApiVersion::v1_0_0;
  bool synthetic = false;        // SyntheticPoRep seal types
  bool non_interactive = false;  // NI-PoRep seal types

  // The `vanilla_proofs` key of a seal type's C1 JSON ("StackedDrg32GiBV1"); empty for the other
  // families.
  std::string_view shape_key;

  // porep_id: id as u64 LE ‖ nonce 0 as u64 LE ‖ 16 zero bytes. Seal and update types have one
  // (registry.rs `porep_id`); for PoSt types it is all zeros and unused.
  std::array<uint8_t, 32> porep_id() const;

  friend bool operator==(const RegisteredProof&, const RegisteredProof&) = default;
};

// Every registered type of a family, in id order (20 seal, 15 PoSt, 5 update).
std::span<const RegisteredProof> registered_proofs(ProofFamily family);

Result<RegisteredProof> seal_proof(uint64_t id);
Result<RegisteredProof> post_proof(uint64_t id);
Result<RegisteredProof> update_proof(uint64_t id);
Result<RegisteredProof> registered_proof(ProofFamily family, uint64_t id);

// By Rust name or Go name within a family ("StackedDrg32GiBV1" is a seal type and an update type).
Result<RegisteredProof> registered_proof(ProofFamily family, std::string_view name);

// The C1 `vanilla_proofs` key of a sector size ("StackedDrg2KiBV1" …); an error for other sizes.
Result<std::string_view> c1_shape_key(uint64_t sector_size);

}  // namespace cuzk::filecoin
