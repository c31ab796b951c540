// The names of Filecoin's parameter files (reference/filecoin-circuits.md §4.7; rust-fil-proofs:
// storage-proofs-core/src/parameter_cache.rs `cache_identifier`, and each public-params type's
// `identifier()`): `v28-<prefix>-<hex(sha256(identifier))>.<ext>`. The identifier is a string that
// describes the circuit's shape; neither the porep_id nor the API version is in it, so every
// registered type of one kind and size shares one file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "filecoin/types/proof_types.hpp"

namespace cuzk::filecoin {

// One Groth16 circuit per kind and sector size. `update_poseidon` is storage-proofs-update's
// Poseidon variant: parameters.json lists its 32/64 GiB files, though filecoin-ffi never uses it.
enum class CircuitKind { porep, winning_post, window_post, update, update_poseidon };

std::string_view to_string(CircuitKind kind);  // "porep", "winning", "window", "update", "update-poseidon"

// The circuit a registered proof is proved with.
CircuitKind circuit_kind(ProofKind kind);

enum class ParameterExt { params, vk, meta };

// The version baked into every file name (parameter_cache.rs VERSION).
inline constexpr unsigned kParameterVersion = 28;

// The public-parameters identifier exactly as upstream formats it, e.g.
// "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 10, sector_count: 2}".
Result<std::string> circuit_identifier(CircuitKind kind, uint64_t sector_size);
// The cache prefix, e.g. "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0".
Result<std::string> circuit_cache_prefix(CircuitKind kind, uint64_t sector_size);
// "<prefix>-<64 hex digits>", the part between "v28-" and the extension.
Result<std::string> circuit_cache_id(CircuitKind kind, uint64_t sector_size);
// "v28-<cache id>.params" (or .vk, .meta).
Result<std::string> parameter_file_name(CircuitKind kind, uint64_t sector_size,
                                        ParameterExt ext = ParameterExt::params);
Result<std::string> parameter_file_name(const RegisteredProof& proof,
                                        ParameterExt ext = ParameterExt::params);

// The directory holding the files: $FIL_PROOFS_PARAMETER_CACHE when set and not empty, else
// /var/tmp/filecoin-proof-parameters/ (storage-proofs-core/src/settings.rs).
std::filesystem::path parameter_directory();

// Curio's SRS circuit ids (curio: extern/cuzk/cuzk-core/src/srs_manager.rs `CircuitId`): "porep-32g",
// "porep-64g", "wpost-32g", "winning-32g", "snap-32g", "snap-64g". The same scheme names the test sizes
// here ("porep-2k", "wpost-8m", "snap-512m", …); Curio itself knows only the six.
struct CircuitId {
  CircuitKind kind = CircuitKind::porep;
  uint64_t sector_size = 0;
  friend bool operator==(const CircuitId&, const CircuitId&) = default;
};

// The six ids Curio defines.
std::span<const std::string_view> curio_circuit_ids();
Result<CircuitId> parse_circuit_id(std::string_view id);
// Only for porep, winning_post, window_post and update at the five sizes.
Result<std::string> circuit_id_string(CircuitId id);

}  // namespace cuzk::filecoin
