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
#include "r1cs/compiled/compiled_circuit.hpp"
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

// A circuit's constraints as the setup reads them: its sizes and, for each side (0: A, 1: B, 2: C),
// every term of its constraints (the x_i·0 = 0 input constraints that synthesis appends are
// implied). ConstraintMatrices give one (setup_circuit); so does a compiled circuit
// (r1cs/compiled/), whose 8-byte terms let a 2^27 circuit's setup fit in a host's memory.
struct SetupCircuit {
  using TermFn = std::function<void(size_t row, uint32_t wire, const Fr& coeff)>;
  size_t num_constraints = 0;
  size_t num_inputs = 0;  // ONE included
  size_t num_aux = 0;
  std::function<void(unsigned side, const TermFn& fn)> for_each_term;
  bool has_c = true;  // false: C is not recorded (a compiled circuit without C); no setup from it
  size_t num_wires() const { return num_inputs + num_aux; }
};

// The setup's view of `m` or `c`, which must outlive it. A compiled circuit merges a row's terms of
// one wire and drops those that cancel, which leaves every sum the setup makes unchanged: both views
// of one circuit give the same parameters.
SetupCircuit setup_circuit(const r1cs::ConstraintMatrices& m);
SetupCircuit setup_circuit(const r1cs::CompiledCircuit& c);

// Parameters for the circuit (its constraints, then the x_i·0 = 0 input constraints that synthesis
// appends). Fails on a malformed system (a term's row or wire out of range), a domain above 2^28,
// or an auxiliary wire that no constraint uses (its L point would be the identity, which bellperson
// rejects too).
Result<ProvingKey> generate_parameters(const SetupCircuit& circuit, const SetupOptions& options = {},
                                       ThreadPool& pool = ThreadPool::shared());
Result<ProvingKey> generate_parameters(const r1cs::ConstraintMatrices& m, const SetupOptions& options = {},
                                       ThreadPool& pool = ThreadPool::shared());

}  // namespace cuzk::groth16
