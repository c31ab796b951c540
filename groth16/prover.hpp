// The Groth16 prover on the CPU backend (formats.md §3.2): H by NTTs, five MSMs, assembly.
//
// This is the reference every other backend is checked against: for the same key, assignment and
// (r, s) every backend must produce the same proof, bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "backend/compute.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "r1cs/compiled/compiled_circuit.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::groth16 {

// The prover's randomness: r and s. Fresh from the OS's CSPRNG by default.
struct ProofRandomness {
  Fr r, s;
  static ProofRandomness fresh();
  static ProofRandomness from_seed(uint64_t seed);  // tests and reproducible benchmarks
};

// The scalars of the H query: coefficients of (A·B − C)/Z (bellman keys, m − 1 of them) or the
// values of A·B − C on the odd points of the 2m-domain (snarkjs keys, m of them), computed in
// place: a, b and c are the NTT buffers (padded to the domain within their capacity) and the
// scalars are left in assignment.a. b and c keep their storage but not their contents, so a caller
// that pooled the three buffers (pinned ones, say) gets them back.
// `check_rows` and `keep_on_device` as in HRequest: with the latter, the caller's next call on
// `backend` must be the MSM over assignment.a, whose values are then unspecified on the host.
// A witness-only assignment attached to its compiled circuit (r1cs/compiled/evaluate.hpp) gives
// a, b, c as compiled rows: formed by the backend where it can (evaluates_compiled_rows; the rows
// are not checked there), else on the host first.
// A deferred witness's auxiliaries (Assignment::deferred) filled by `backend`, the program then
// dropped; nothing to do for an assignment without one. compute_h_in_place starts with it.
Status fill_deferred_witness(r1cs::Assignment& assignment, ComputeBackend& backend);

Status compute_h_in_place(const ProvingKey& pk, r1cs::Assignment& assignment, ComputeBackend& backend,
                          size_t check_rows = 0, bool keep_on_device = false);

// Checks that the assignment fits the key: its counts and densities. (a·b = c on every row is the
// backend's check, HRequest::check_rows, or cpu::check_rows on the host.)
Status check_assignment_shape(const ProvingKey& pk, const r1cs::Assignment& assignment);

// Wall time of the prover's stages, milliseconds.
struct ProofTimings {
  double check_ms = 0;     // counts and densities
  double h_ms = 0;         // the H scalars (NTTs, copies), and the backend's a·b = c row check
  double msm_ms = 0;       // the five MSMs
  double assemble_ms = 0;  // A, B, C from the MSM results
  double total_ms = 0;
};

struct ProveOptions {
  ProofTimings* timings = nullptr;  // receives the stage times when given
  // The caller has already checked a·b = c on every row (cpu::check_rows): the prover skips the
  // backend's pass over the rows, which would only repeat it.
  bool rows_checked = false;
  // Called at most once, while the MSMs may still run, when the prover and its backend will read
  // none of the assignment's a, b, c and aux_assignment again (their storage may then be reused;
  // the vectors themselves may be moved out of the assignment). The input assignment and the
  // densities are still read. May be empty.
  std::function<void()> inputs_consumed = {};
};

// A proof for the assignment, computed on `backend`. Spends the contents of assignment.a/b/c (see
// compute_h_in_place) and keeps their storage. Unless options.rows_checked, the backend checks
// a·b = c before it transforms the vectors (HRequest::check_rows).
Result<Proof> create_proof(const ProvingKey& pk, r1cs::Assignment& assignment, const ProofRandomness& rs,
                           ComputeBackend& backend, const ProveOptions& options = {});
// The same on the CPU backend over `pool`.
Result<Proof> create_proof(const ProvingKey& pk, r1cs::Assignment& assignment, const ProofRandomness& rs,
                           ThreadPool& pool = ThreadPool::shared());

}  // namespace cuzk::groth16
