// The steady rate of a stream of proofs, from when each proof started and ended.
//
// Job ends are a poor clock for a stream whose device workers prove at different speeds (a lead
// worker beside one that fills in, engine/README.md): a job ends with its slowest partition, so
// the intervals between job ends swing with where each job's last partitions land, and a window
// between two job ends holds parts of other jobs' work. Here each proof counts for the share of its
// own time that falls inside the window, as if its work were spread evenly over it, so a proof that
// straddles an edge counts in part on each side.
#pragma once

#include <optional>
#include <span>

namespace cuzk::engine {

struct ProofSpan {
  double start = 0, end = 0;  // seconds on any one clock
};

// Seconds per proof over [from, to): the window's length over the proofs' work inside it. None when
// the window is empty or no proof overlaps it.
std::optional<double> steady_seconds_per_proof(std::span<const ProofSpan> proofs, double from, double to);

// The window a stream of jobs is steady in: from the first job's end (the pipeline is full by then)
// to the last proof's start (after it, the device workers drain one by one). None when there is
// no such window (the last proof started before the first job ended).
struct SteadyWindow {
  double from = 0, to = 0;
};
std::optional<SteadyWindow> steady_window(std::span<const ProofSpan> proofs, double first_job_end);

}  // namespace cuzk::engine
