// Groth16 proofs (groth16/proof.hpp) in bellperson's byte format (reference/formats.md §2.5):
// A (G1 compressed, 48 B) || B (G2 compressed, 96 B) || C (G1 compressed, 48 B) = 192 bytes; several
// proofs are simply concatenated. Reading checks curve and subgroup membership and rejects points
// at infinity, as bellperson's Proof::read_many does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "groth16/proof.hpp"

namespace cuzk {

inline constexpr size_t PROOF_BYTES = 192;

std::array<uint8_t, PROOF_BYTES> proof_to_bytes(const groth16::Proof& proof);
// Exactly 192 bytes.
Result<groth16::Proof> proof_from_bytes(std::span<const uint8_t> bytes);

// Exactly 192 * n bytes, n >= 1. Errors name the proof and the point ("proof 3: B: ...").
Result<std::vector<groth16::Proof>> read_proofs(std::span<const uint8_t> bytes);
std::vector<uint8_t> write_proofs(std::span<const groth16::Proof> proofs);

}  // namespace cuzk
