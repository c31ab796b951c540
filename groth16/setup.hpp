// Groth16 parameter generation, bellperson-compatible: generator-7 domain, H query τ^i·Z(τ)/δ,
// a/b queries compacted by density. The toxic waste (τ, α, β, γ, δ) comes from a cryptographic
// RNG unless a seed is given (tests), and never leaves this file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "groth16/keys.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::groth16 {

// s_i·G for many scalars s_i and a generator G, in affine (a GPU supplies one; the setup's
// queries are nothing else). Must give the host's results: affine coordinates are unique.
template <class Affine>
using GeneratorMulMany = std::function<Status(std::span<const Fr> scalars, std::span<Affine> out)>;

struct SetupOptions {
  SetupOptions() = default;
  SetupOptions(std::optional<uint64_t> toxic_seed) : seed(toxic_seed) {}  // NOLINT: `{seed}` reads well

  std::optional<uint64_t> seed;  // deterministic toxic waste, for tests only
  // The large queries (h, l, a, b) through these when given; empty: host tables on the pool.
  GeneratorMulMany<G1Affine> g1_mul_many;
  GeneratorMulMany<G2Affine> g2_mul_many;
};

// Parameters for the circuit of `m` (its constraints, then the x_i·0 = 0 input constraints that
// synthesis appends). Fails on a malformed system, a domain above 2^28, or an auxiliary wire that
// no constraint uses (its L point would be the identity, which bellperson rejects too).
Result<ProvingKey> generate_parameters(const r1cs::ConstraintMatrices& m, const SetupOptions& options = {},
                                       ThreadPool& pool = ThreadPool::shared());

}  // namespace cuzk::groth16
