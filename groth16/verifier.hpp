// Groth16 verification (bellperson's verify_proof and verify_proofs_batch, formats.md §3.4).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "field/fp12.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"

namespace cuzk::groth16 {

// The verifying key with what every verification needs computed once: e(α₁, β₂), −γ₂, −δ₂.
struct PreparedVerifyingKey {
  VerifyingKey vk;
  Fp12 alpha_beta;
  G2Affine neg_gamma_g2, neg_delta_g2;
};

// Fails on a key with an identity δ or γ, or points off the curve or outside the subgroup.
Result<PreparedVerifyingKey> prepare_verifying_key(const VerifyingKey& vk);

// Checks e(A, B) = e(α₁, β₂)·e(Σ x_i·IC_i, γ₂)·e(C, δ₂). `inputs` are the public inputs without
// the leading ONE. Returns false for a proof that does not verify, and an error for inputs that
// cannot be checked (wrong count, points off the curve or outside the subgroup).
Result<bool> verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> inputs);

// Verifies many proofs under one key with one final exponentiation (a random linear combination
// with 128-bit weights, Zcash protocol spec B.2): true iff all verify, except with probability
// 2^-128. `seed` makes the weights deterministic (tests only).
Result<bool> verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                                 std::span<const std::vector<Fr>> inputs, std::optional<uint64_t> seed = {});

}  // namespace cuzk::groth16
