// The H stage of a proof on one device (ComputeBackend::compute_h): a, b, c to the coset, the
// pointwise a·b − c there, back to coefficients (backend/compute.hpp's HMode says which), with the
// constraint rows checked on the way. Its memory is planned before anything is allocated:
//
//   checked:  a, b, c and a fourth vector (a·b for the row check) on the device, so that each
//             transform starts as soon as its vector has crossed, the check beside them;
//   resident: a, b, c on the device (the rows, if any, checked once all three have crossed);
//   pair:     a and b on the device; c takes its transform there first and waits in host memory
//             until a∘b is formed on the coset (the rows checked on the host);
//   lean:     one vector on the device; b and c transformed one at a time through it and streamed
//             back in chunks for the pointwise step (the rows checked on the host).
//
// From compiled rows (HRequest::rows), a, b (and c) are the sparse products of the witness on the
// device, into the resident plan's vectors; where those do not fit but the pair plan does, with
// the witness beside its first vector, b (and c) in turn through that vector to host memory and a
// left in it; else each side in turn through one vector to host memory, then the lean plan; where
// not even the witness and one vector fit, the host's product.
//
// Vectors go first into the MSM work area (MsmResidency::work_area), which no MSM uses while H is
// computed (a backend serves one call at a time, in stream order), so a large work area costs the
// H stage nothing. The result goes back to the caller's a, or stays on the device for the next
// call's MSM over a (HRequest::keep_on_device, WorkerDevice::kept).
#pragma once

#include <cstddef>
#include <optional>

#include "backend/compute.hpp"
#include "backend/cpu/scratch_values.hpp"
#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {

class MsmResidency;
class CompiledResidency;
struct SpmvPlan;

class HStage {
 public:
  HStage(WorkerDevice& device, MsmResidency& msms, CompiledResidency& compiled)
      : dev_(device), msms_(msms), compiled_(compiled) {}

  struct Plan {
    enum class Kind { checked, resident, pair, lean } kind;
    size_t borrowed = 0;            // vectors placed in the MSM work area
    size_t chunk = 0;               // lean: b and c stream through two buffers of this many elements
    StagePlan stage;                // bytes: what the stage allocates beyond the resident memory
    bool keep = false;              // h stays on the device in a, which is allocated (never borrowed)
    bool compact_twiddles = false;  // the NTT's twiddles in two small tables (kCompactTwiddleLog)
  };

  // The NTT's twiddle_log where a plan fits only without the full table (16 MiB at 2^27 instead of
  // 2 GiB, each transform about 8 ms slower): each kind of plan is tried with the full table, then
  // with this, before the next kind.
  static constexpr unsigned kCompactTwiddleLog = 19;
  // Device bytes the stage holds beside its vectors at 2^log_n: the twiddle tables and coset tables.
  static size_t fixed_bytes(unsigned log_n, bool compact_twiddles = false);
  // The least device bytes of the stage from compiled rows with a, b and c resident (three vectors,
  // the compact fixed tables and the witness of `wires` values); a budget below it forms b (and c)
  // on the host's side of the bus (the pair or lean plans).
  static size_t rows_resident_bytes(unsigned log_n, size_t wires);

  // The plan for 2^log_n with the budget left now (checking rows or not; `keep`: h stays on the
  // device), or a clear error when not even the lean plan fits.
  Result<Plan> plan(unsigned log_n, bool check_rows, bool keep = false) const;

  // compute_h: plans (resident bases of other parameter sets give way before a plan fails; h comes
  // back to the host when keeping it does not fit), logs the plan and runs it.
  Status compute(const HRequest& rq);

 private:
  struct Run;       // one call's transforms and vectors (h_stage.cpp)
  struct FromRows;  // the device copy of the matrices and the sparse product's plan
  // compute() for HRequest::rows.
  Status compute_from_rows(const HRequest& rq);
  // The host arrays rows_through_host and rows_to_pair fill beside the caller's a.
  struct HostSides {
    cpu::ScratchValues b, c;  // c only when the rows have C
    Status allocate(size_t n, const CompiledRows& rows);
  };
  // The matrices' device copy (when it fits) and the sparse product's plan in the room the budget
  // leaves beside `beside` bytes of the stage; nothing where the product does not fit there.
  Result<std::optional<FromRows>> rows_beside(const CompiledRows& rows, size_t beside);
  // compute_from_rows where the pair plan fits and, beside its first vector, the witness: the
  // product's b (and c) go to host memory, a stays in that vector, and the pair plan runs on.
  // False when they do not fit, once everything idle has given way.
  Result<bool> rows_to_pair(const HRequest& rq);
  // The rows' a (into rq.a), b (and c) by the device's product, a side at a time through one
  // device vector (the MSM work area when it is large enough) to host memory. False when not even
  // the witness and that vector fit, once everything idle has given way.
  Result<bool> rows_through_host(const HRequest& rq, HostSides& sides);
  // Gives the memory other calls hold (idle resident bases, the compiled circuit of another call)
  // to a stage that does not fit; false when there is nothing left to give.
  bool evict_for_stage();
  // rows: a, b (and c) formed into the resident plan's vectors, or a into the pair plan's first
  // vector and b (and c) into rq's host arrays (the plan's kind says which).
  Status run_planned(const HRequest& rq, const Plan& plan, const FromRows* rows = nullptr);
  // a, b (and c) on the device: uploads overlapped with the transforms, the rows checked as the
  // plan says; leaves the result in `a`.
  Status run_on_device(Run& run);
  // a and b on the device, c's transform through the host (the plan's pair kind).
  Status run_pair(Run& run);
  // One vector on the device, b and c through it and back (the plan's lean kind).
  Status run_lean(Run& run);
  // The result to the caller's a, or (a plan that keeps h: `own` holds it) kept on the device.
  Status deliver(const HRequest& rq, const Fr* a, DeviceBuffer<Fr>* own);

  WorkerDevice& dev_;
  MsmResidency& msms_;
  CompiledResidency& compiled_;
};

}  // namespace cuzk::cuda
