#include "backend/cuda/ntt/passes.hpp"

#include <algorithm>

namespace cuzk::cuda {

Status check_ntt_tuning(const NttTuning& tuning) {
  if (tuning.pass_log < 2 || tuning.pass_log > 12 || tuning.coalesce_log + 2 > tuning.pass_log ||
      tuning.threads < 32 || tuning.threads > 512 || (tuning.threads & (tuning.threads - 1)) != 0 ||
      tuning.twiddle_log > 28)
    return make_error(
        "NttPlan: tuning out of range (pass_log 2..12, coalesce_log <= pass_log - 2, threads a "
        "power of two in 32..512, twiddle_log <= 28)");
  return Status::Ok();
}

std::vector<NttPass> plan_ntt_passes(unsigned log_n, const NttTuning& tuning) {
  // The bottom pass (bits from 0) holds up to pass_log stages, every other pass pass_log − c,
  // balanced so that no pass is much shorter.
  const unsigned kmax = tuning.pass_log, c = tuning.coalesce_log;
  std::vector<unsigned> ks;  // stages per pass, top pass first
  if (log_n <= kmax) {
    ks.push_back(log_n);
  } else {
    const unsigned upper = (log_n - kmax + (kmax - c) - 1) / (kmax - c);
    unsigned rem = log_n;
    for (unsigned i = 0; i < upper; ++i) {
      const unsigned left = upper + 1 - i;
      const unsigned want = (rem + left - 1) / left;
      const unsigned k = want < kmax - c ? want : kmax - c;
      ks.push_back(k);
      rem -= k;
    }
    ks.push_back(rem);
  }
  std::vector<NttPass> passes;  // top first
  unsigned top = log_n, widest = 0;
  for (unsigned k : ks) {
    const unsigned s_lo = top - k;
    passes.push_back({s_lo, k, s_lo >= c ? c : s_lo, 0});
    widest = std::max(widest, k + passes.back().c);
    top = s_lo;
  }
  // A pass narrower than the widest (the bottom one: 6 stages and no coalesced bits at 2^27, 64
  // elements) takes the index bits above its stages into its blocks up to the widest's size, so
  // that its blocks are as large as the others'. No 2^27 transform is faster or slower for it on
  // the H200 (the one-warp blocks were not what held that pass back); it keeps every pass's blocks
  // alike.
  for (NttPass& ps : passes) ps.g = std::min(log_n - ps.s_lo - ps.k, widest - std::min(widest, ps.k + ps.c));
  return passes;
}

}  // namespace cuzk::cuda
