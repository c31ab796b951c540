// The device MSM's window and cost rules, host code only (no CUDA): every rule that decides a
// context's window c and how its digits are laid out for it. One definition serves the kernels'
// layout (msm/layout.cuh) and the backend's choice of windows (msm_residency.cpp), so that the cost
// models price the layout a context will have. Unit-tested on the CPU (tests/backend_cuda).
//
// Terms: a scalar (below 2^255) is cut into W signed windows of c bits; a window's digit d adds the
// base into bucket |d| of its bucket set (2^(c−1) buckets), negated when d < 0. With m tables of
// precomputed multiples, windows w and w + m share a set, so S = ceil(W/m) sets remain. The work
// of an MSM is the nonzero digits (sorted, then added into buckets) plus the buckets (swept by
// every pass, and reduced once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace cuzk::cuda {

// ---------------------------------------------------------------- digit layout
//
// Signed windows of c bits: a scalar below 2^255 needs 256 bits of them (the top digit never
// carries out).
inline constexpr unsigned msm_windows(unsigned c) { return (256 + c - 1) / c; }

// Windows of c − 1 bits at the top (MsmConfig::narrow_windows): W·c − 256 of them, at most W − 1,
// where each window is its own bucket set (m = 1; precomputed tables shift by a uniform 2^c).
inline constexpr unsigned msm_narrow_windows(unsigned c, unsigned m, bool narrow) {
  const unsigned W = msm_windows(c), spare = W * c - 256;
  return m == 1 && narrow ? (spare < W - 1 ? spare : W - 1) : 0;
}

// The buckets that digits can reach: 2^(c−1) a set, half that for a narrow window's set. The keys
// keep the stride 2^(c−1) (the sort and offsets span sets·2^(c−1)); the reduction skips the rest.
// The window model prices them, and a set-group pass's points per item follow them, so that a
// narrow set's buckets, twice as full, are not cut into twice the items.
inline constexpr size_t msm_buckets_in_use(unsigned c, unsigned sets, unsigned narrow) {
  return (size_t(sets) << (c - 1)) - (c >= 2 ? size_t(narrow) << (c - 2) : 0);
}

// Scalars per digit block: the digit kernels place each block's nonzero digits by a scan of the
// per-block counts, so passes cut by digits hold whole blocks.
inline constexpr unsigned kMsmDigitBlock = 128;

// The nonzero digits a pass over device scalars may hold when passes are cut by digits: the work
// buffers of `pass_points` scalars of `windows` digits, less one block's most digits (a pass ends
// at the first block that reaches its share). 0: passes that small are cut by points only.
inline constexpr size_t msm_digits_per_pass(size_t pass_points, unsigned windows) {
  return pass_points >= 2 * kMsmDigitBlock ? (pass_points - kMsmDigitBlock) * windows : 0;
}

// Sets a pass takes when passes go by groups of sets (MsmConfig::set_passes): g sets of every one
// of n points give at most n·m·g digits, which must fit a pass's chunk·W entries. 0 where passes go
// by points: every point fits one pass, there is one set, or more than 32 windows (the count keeps
// a scalar's nonzero windows in one word).
inline constexpr size_t msm_set_group(size_t n, size_t chunk, unsigned W, unsigned m, unsigned sets) {
  if (chunk >= n || sets < 2 || W > 32) return 0;
  const size_t g = chunk * W / (n * m);
  return g < sets ? g : sets;
}

// ---------------------------------------------------------------- a plain MSM's window
//
// A full (XYZZ) addition in mixed additions' time: the reduction's additions against the
// accumulation's.
inline constexpr double msm_add_cost(bool g2) { return g2 ? 1.45 : 1.42; }

// The window c in 1..24 for n points with m tables (0: one per window) and a point type whose full
// addition costs `add_cost` mixed additions: the least n·W mixed additions of accumulation plus
// add_cost·2·2^(c−1) a set for the reduction. Wider windows pay off where precomputation folds
// the sets.
unsigned msm_pick_window(size_t n, unsigned precompute, double add_cost = msm_add_cost(false));

// The windows a context that streams its bases tries for chunks of `chunk` points, widest first:
// the plain model's choice, then narrower ones (fewer buckets, less memory) down to 4.
std::vector<unsigned> streamed_windows(size_t chunk);

// ---------------------------------------------------------------- resident contexts
//
// Points per pass of a resident context: 2^25 unless the options say otherwise, halved down to
// 2^22 while the context would not fit its share of the budget. A pass's work buffers scale with
// it (about 7 GiB for G1 at 2^24, 13 GiB at 2^25) and the bases do not. Passes of 2^25 beat 2^24
// by 14 % on the MSMs of a 2^26 proof on the H200; passes of 2^26 gain 2 % on a 2^27 proof but need
// a work area that two workers sharing the card do not have. Device scalars that are mostly 0 and
// 1 take one pass anyway, as the MSM cuts passes by digits.
inline constexpr size_t kResidentPassPoints = size_t(1) << 25;
inline constexpr size_t kMinResidentPassPoints = size_t(1) << 22;

// What an MSM's scalars look like: the share that are 0 (no digit) and 1 (one digit). Witness
// vectors are mostly these (a PoRep partition's aux values: about 40 % zero, 40 % one), and then far
// fewer than W digits per scalar are sorted and added.
struct ScalarMix {
  double zero = 0, one = 0;
};

// The window of a resident context that runs n points in passes of `pass`, with `precompute`
// tables (0: one per window), for scalars like `mix` on the device. Its cost, in the curve's mixed
// additions: the nonzero digits (sorted, then added), each pass's work per bucket (about 1.5
// additions' time on the H200) and the reduction's (about 5 per bucket in use on G1, 8 on G2, once:
// with `narrow`, MsmConfig::narrow_windows, a narrow window's set uses half its buckets). Passes hold
// `pass` points, or as many digits when that makes fewer (Msm cuts device scalars so), so sparse
// scalars take fewer passes. With `set_passes` (MsmConfig::set_passes), scalars that need several
// passes take them by groups of sets instead: each bucket then costs about 4.5 additions, once, and
// each pass a read of every scalar. For a 2^27 proof at passes of 2^25: uniform scalars (the H
// query) get c = 22 by set groups (c = 20 by passes of points); a PoRep witness (a quarter of the
// digits, one pass) c = 20 for L and A, and c = 19 for the 60 % of the variables in B, on both
// curves, so that B₁ and B₂ share their sorted digits.
//
// `bucket_cost` scales the per-bucket constants: they are one MSM's time alone on the device, where
// the memory-bound passes and the latency-bound reduction levels leave SMs idle; beside another
// worker's kernels those are mostly hidden, and less than 1 weighs the additions more.
struct ResidentWindowQuery {
  size_t n = 0, pass = 0;
  unsigned precompute = 1;
  ScalarMix mix{};
  bool g2 = false;  // G2 points (a costlier reduction per bucket)
  double bucket_cost = 1.0;
  bool set_passes = true;
  bool narrow = true;
};
struct ResidentWindow {
  unsigned c = 16;
  bool by_sets = false;  // passes of set groups (then MsmConfig::set_passes)
  double cost = 0;       // the model's, in mixed additions
};
// Every window from 8 to 22 bits for q, cheapest first (of equal costs the narrower), each by set
// groups where q allows them and they apply.
std::vector<ResidentWindow> resident_windows(const ResidentWindowQuery& q);
ResidentWindow pick_resident_window(const ResidentWindowQuery& q);  // resident_windows(q).front()

// The cheapest plan by the model that `fits` accepts, over passes from q.pass halved down to
// `smallest_pass` and, at each, every window by set groups (where q allows) or by points. A work
// area too large for the share at the model's first choice need not cost a halved pass: at 2^24
// points a WindowPoSt's B₂ (92 M points on G2) takes c = 20 by set groups in 8.5 GB where c = 22
// by groups needs 18.6 and c = 20 by points 14.4, and only halving would leave c = 19 by points at
// 2^22 (14 windows instead of 13, and every bucket summed in 22 passes). Costs compare across pass
// sizes (the model counts the passes), so where the first choice at the largest pass fits, it is
// the answer, as before. `fits(pass, window)`: whether that plan fits. With none that fits, the
// cheapest at the smallest pass, marked `fits = false`.
struct ResidentChoice {
  size_t pass = 0;
  ResidentWindow window;
  bool fits = false;
};
ResidentChoice choose_resident_window(ResidentWindowQuery q, size_t smallest_pass,
                                      const std::function<bool(size_t, const ResidentWindow&)>& fits);

}  // namespace cuzk::cuda
