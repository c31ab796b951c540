// The compute interface of the prover: what groth16/ asks of a backend (backend/cpu, backend/cuda).
//
// A Groth16 proof is five MSMs and one H computation (a chain of NTTs and pointwise work). The
// prover builds its requests from a key and an assignment and runs them on a ComputeBackend, so
// the same prover code drives the CPU, a GPU, or a backend that injects faults in tests. Every
// backend must give the same results as the CPU backend, bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "backend/circuit_matrices.hpp"
#include "backend/deferred_witness.hpp"
#include "backend/domain.hpp"
#include "common/result.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fields.hpp"

namespace cuzk {

// How the H-query scalars follow from the a, b, c evaluations (formats.md §3.2, §4.7).
enum class HMode {
  // bellman: a, b, c → coefficients → evaluations on the coset g·ω^j (g = 7);
  // q = (a·b − c)/(g^n − 1) → coefficients. The scalars are q's first n − 1 coefficients.
  divide_by_z_on_coset,
  // snarkjs: a, b, c → coefficients → evaluations on the odd points of the 2n-domain;
  // the scalars are the n values a·b − c there.
  odd_coset,
};

// The prover's a, b, c as the backend's sparse matrix-vector product instead of vectors: the
// circuit's constraint rows times the witness, then one row per input (a = x_i, b = c = 0), the
// rest of the domain zero. A backend that holds the matrices where it computes H never moves
// a, b, c at all, only the witness, which its MSMs read anyway.
struct CompiledRows {
  uint64_t id = 0;  // unique to the matrices in this process (CompiledCircuit::id): device copies key on it
  CircuitMatrices matrices;         // the arrays of a checked compiled circuit
  std::span<const Fr> inputs, aux;  // the witness; inputs[0] = ONE
  size_t num_rows() const { return matrices.num_rows(); }
};

struct HRequest {
  std::span<Fr> a, b, c;  // each 2^log_n evaluations on the domain (zero-padded); a receives the result
  // Set: a, b, c are `rows` times its witness, formed by the backend (ComputeBackend::
  // evaluates_compiled_rows); b and c are then empty and a only receives the result. Rows are not
  // checked on this path (check_rows is 0): a bad witness gives a proof that fails verification.
  const CompiledRows* rows = nullptr;
  // c is empty and stands for a∘b (r1cs::Assignment::c_from_ab): the backend forms it, and there
  // are no rows to check.
  bool c_from_ab = false;
  unsigned log_n = 0;
  RootConvention convention = RootConvention::bellman;
  HMode mode = HMode::divide_by_z_on_coset;
  // Constraint rows to check before any transform: a_j·b_j = c_j for j < check_rows (0: none). A
  // failing row ends the call with cpu::unsatisfied_row_error (a bad-input error naming the first).
  // A device backend checks where it already holds the vectors.
  size_t check_rows = 0;
  // The caller's next call on this backend is an MSM over `a` (the same storage): a device backend
  // may then keep the result where it computed it, for that MSM, instead of copying it into `a`,
  // whose values are then unspecified. At PoRep size this saves a 4 GiB copy each way.
  bool keep_on_device = false;
};

// What every backend's compute_h checks first: the vectors' lengths (c empty when it stands for
// a∘b, which leaves no rows to check) and the rows within a.
inline Status check_h_request(const HRequest& rq) {
  const size_t n = size_t(1) << rq.log_n;
  if (rq.rows != nullptr) {
    if (rq.a.size() != n || !rq.b.empty() || !rq.c.empty() || rq.check_rows != 0)
      return make_error("compute_h: from compiled rows, a receives 2^" + std::to_string(rq.log_n) +
                        " values and b, c and the row check are empty");
    if (rq.rows->num_rows() > n) return make_error("compute_h: the compiled rows do not fit the domain");
    return Status::Ok();
  }
  const size_t c_len = rq.c_from_ab ? 0 : n;
  if (rq.a.size() != n || rq.b.size() != n || rq.c.size() != c_len)
    return make_error("compute_h: a and b must each hold 2^" + std::to_string(rq.log_n) + " values, c " +
                      (rq.c_from_ab ? "none (it stands for a∘b)" : "as many"));
  if (rq.check_rows > (rq.c_from_ab ? 0 : n))
    return make_error(rq.c_from_ab ? "compute_h: no rows to check when c stands for a∘b"
                                   : "compute_h: more rows to check than a holds");
  return Status::Ok();
}

// Σ scalars[i]·bases[i], or with a density bitmap (bellperson semantics): the j-th scalar whose
// bit is set pairs with bases[j]. Scalars are Fr in Montgomery form.
template <class Affine>
struct MsmRequest {
  std::span<const Affine> bases;
  std::span<const Fr> scalars;
  std::span<const uint64_t> density;  // empty: every scalar pairs with its own base
};

// The MSMs of one proof, given together because they share scalar vectors (the aux assignment
// feeds four of them): a backend may move each distinct vector to where it computes only once.
struct MsmBatch {
  std::vector<MsmRequest<G1Affine>> g1;
  std::vector<MsmRequest<G2Affine>> g2;
  // Called at most once, during msm_batch, when the backend will read none of the requests' host
  // scalar vectors again (a GPU backend that copied them to the device calls it while its MSMs
  // still run; one that reads host memory throughout, after the last MSM). The caller may then
  // reuse that memory: the engine gives a partition's buffers to the next synthesis. It runs on
  // the backend's call (and may hold its locks), so it must not call the backend. May be empty.
  std::function<void()> host_scalars_read = {};
};
struct MsmBatchResult {
  std::vector<G1Jacobian> g1;  // in request order
  std::vector<G2Jacobian> g2;
};

// One stage of device work as planned and run (for logs): what, the plan chosen, its peak device
// bytes, the budget left beside it, and its wall time.
struct DeviceStage {
  std::string stage;       // "h 2^27", "msm g1 130191196 bases", ...
  std::string choice;      // "a, b, c resident", "streamed in chunks of 8388608", ...
  size_t bytes = 0;        // peak device bytes of the stage (resident memory excluded)
  size_t budget_left = 0;  // the budget less resident memory, when the stage was planned
  double ms = 0;           // wall time of the stage, copies included (0 until it finishes)
};

class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;
  // "cpu", "cuda:0", ... for logs and errors.
  virtual std::string name() const = 0;
  virtual Status compute_h(const HRequest& request) = 0;
  // Whether compute_h takes HRequest::rows (a, b, c formed from compiled rows and a witness). The
  // prover evaluates the rows on the host for a backend that does not.
  virtual bool evaluates_compiled_rows() const { return false; }
  virtual Result<G1Jacobian> msm(const MsmRequest<G1Affine>& request) = 0;
  virtual Result<G2Jacobian> msm(const MsmRequest<G2Affine>& request) = 0;
  // The device stages planned since the last call (empty for host backends), oldest first.
  virtual std::vector<DeviceStage> take_stage_log() { return {}; }
  // The device memory the backend plans within, and the most it has planned at once (0 for host
  // backends), for reports.
  virtual size_t memory_budget() const { return 0; }
  virtual size_t peak_planned_bytes() const { return 0; }
  // A deferred witness's auxiliaries into `aux` (witness.num_aux() of them, host memory): on the
  // backend's device where it can, else on the host (the default, on every hardware thread).
  // `inputs` are the same assignment's: a device backend may keep the whole witness on the device
  // for its next call (compute_h from compiled rows of these spans), and may let the copy into
  // pinned `aux` finish during that call: aux is complete once the backend's next call other than
  // compute_h starts, a call fails, or the backend is destroyed (the prover's msm_batch follows).
  virtual Status fill_witness(const DeferredWitness& witness, std::span<const Fr> inputs, std::span<Fr> aux) {
    (void)inputs;
    return witness.fill_host(aux, 0);
  }
  // Default: one msm() after another (the host scalars are read until the last).
  virtual Result<MsmBatchResult> msm_batch(const MsmBatch& batch) {
    MsmBatchResult out;
    for (const auto& rq : batch.g1) {
      auto r = msm(rq);
      if (!r) return r.error();
      out.g1.push_back(*r);
    }
    for (const auto& rq : batch.g2) {
      auto r = msm(rq);
      if (!r) return r.error();
      out.g2.push_back(*r);
    }
    if (batch.host_scalars_read) batch.host_scalars_read();
    return out;
  }
};

}  // namespace cuzk
