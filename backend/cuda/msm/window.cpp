#include "backend/cuda/msm/window.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace cuzk::cuda {

unsigned msm_pick_window(size_t n, unsigned precompute, double add_cost) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= 24; ++c) {
    const unsigned W = msm_windows(c);
    const unsigned m = precompute == 0 ? W : std::min(precompute, W);
    const unsigned S = (W + m - 1) / m;
    const double cost = double(n) * W + add_cost * double(S) * std::ldexp(1.0, int(c));
    if (c == 1 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

std::vector<unsigned> streamed_windows(size_t chunk) {
  std::vector<unsigned> out;
  // A few points pick a window below the kernels' floor of 4 (c = 3 for 20 points): they take 4.
  for (unsigned c = std::max(msm_pick_window(chunk, 1), 4u); c >= 4; c = c > 6 ? c - 2 : c - 1)
    out.push_back(c);
  return out;
}

namespace {

// The window model's constants, in mixed additions' time, from MSMs alone on the H200
// (docs/MSM-NOTES.md, "The resident window model"). Passes of set groups, from the 2^27 H query:
// from c = 20 to 22, 134 M fewer digits saved 58 ms (0.43 ns each) and 18.4 M more buckets cost 33
// ms (1.8 ns each, mostly the reduction); a pass's digits kernel takes 4.7 ms over 2^27 scalars.
// Passes of points, from witness scalars in one pass, c = 16 to 20: the reduction costs about 4.8
// additions per bucket in use on G1 and 7.8 on G2 (whose full additions run at a lower occupancy
// than its accumulation), and a pass's own work per bucket (offsets, schedule) hardly shows; 1.5 a
// pass stands for each pass's start and end of every bucket's sum.
constexpr double kGroupBucket = 4.5;     // per bucket in use, once
constexpr double kGroupPassRead = 0.08;  // per scalar and pass
constexpr double kPassBucket = 1.5;      // per bucket and pass of points (every set's stride)
constexpr double kReduceBucketG1 = 5.0;  // per bucket in use, once
constexpr double kReduceBucketG2 = 8.0;

}  // namespace

std::vector<ResidentWindow> resident_windows(const ResidentWindowQuery& q) {
  const size_t n = q.n, pass = q.pass;
  const double dense = std::max(0.0, 1.0 - q.mix.zero - q.mix.one);
  const double point_passes = std::ceil(double(n) / double(pass));
  const double reduce_bucket = q.g2 ? kReduceBucketG2 : kReduceBucketG1;
  std::vector<ResidentWindow> out;
  for (unsigned c = 8; c <= 22; ++c) {
    const unsigned W = msm_windows(c), m = std::min(q.precompute == 0 ? W : q.precompute, W);
    const unsigned S = (W + m - 1) / m;
    const double buckets = double(S) * std::ldexp(1.0, int(c) - 1);
    const double in_use = double(msm_buckets_in_use(c, S, msm_narrow_windows(c, m, q.narrow)));
    const double digits = (q.mix.one + dense * W) * double(n);
    const size_t per_pass = msm_digits_per_pass(pass, W);  // 0: cut by points only
    const double passes =
        per_pass ? std::min(point_passes, std::max(1.0, std::ceil(digits / double(per_pass)))) : point_passes;
    // Passes of set groups (MsmConfig::set_passes, as make_layout decides them): each bucket is
    // summed in one pass, and each pass reads every scalar. Scalars whose digits fit one pass
    // take passes of points.
    const size_t g = msm_set_group(n, pass, W, m, S);
    const bool groups = q.set_passes && per_pass && passes > 1 && g >= 1;
    const double cost =
        groups ? digits + kGroupPassRead * double((S + g - 1) / g) * double(n) +
                     q.bucket_cost * kGroupBucket * in_use
               : digits + q.bucket_cost * (passes * kPassBucket * buckets + reduce_bucket * in_use);
    out.push_back({c, groups, cost});
  }
  // Stable: of equal costs the narrower window first.
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.cost < b.cost; });
  return out;
}

ResidentWindow pick_resident_window(const ResidentWindowQuery& q) { return resident_windows(q).front(); }

ResidentChoice choose_resident_window(ResidentWindowQuery q, size_t smallest_pass,
                                      const std::function<bool(size_t, const ResidentWindow&)>& fits) {
  std::optional<ResidentChoice> best;
  ResidentChoice last;
  for (size_t pass = q.pass;; pass /= 2) {
    std::vector<ResidentWindow> tries;
    for (bool allowed : {q.set_passes, false}) {
      ResidentWindowQuery at = q;
      at.pass = pass;
      at.set_passes = allowed;
      const auto ws = resident_windows(at);
      tries.insert(tries.end(), ws.begin(), ws.end());
      if (!allowed) break;
    }
    std::stable_sort(tries.begin(), tries.end(),
                     [](const auto& a, const auto& b) { return a.cost < b.cost; });
    last = {pass, tries.front(), false};
    for (const ResidentWindow& w : tries) {
      if (best && w.cost >= best->window.cost) break;  // cheapest first: none left that beats it
      if (fits(pass, w)) {
        best = ResidentChoice{pass, w, true};
        break;
      }
    }
    if (pass <= smallest_pass || pass < 2) break;
  }
  return best ? *best : last;
}

}  // namespace cuzk::cuda
