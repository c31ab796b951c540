#include "engine/steady_rate.hpp"

#include <algorithm>

namespace cuzk::engine {

std::optional<double> steady_seconds_per_proof(std::span<const ProofSpan> proofs, double from, double to) {
  if (!(to > from)) return std::nullopt;
  double work = 0;
  for (const ProofSpan& p : proofs) {
    const double length = p.end - p.start;
    if (!(length > 0)) continue;  // an instant proof has no time to share out
    const double inside = std::min(p.end, to) - std::max(p.start, from);
    if (inside > 0) work += inside / length;
  }
  if (!(work > 0)) return std::nullopt;
  return (to - from) / work;
}

std::optional<SteadyWindow> steady_window(std::span<const ProofSpan> proofs, double first_job_end) {
  if (proofs.empty()) return std::nullopt;
  double last_start = proofs.front().start;
  for (const ProofSpan& p : proofs) last_start = std::max(last_start, p.start);
  if (!(last_start > first_job_end)) return std::nullopt;
  return SteadyWindow{first_job_end, last_start};
}

}  // namespace cuzk::engine
