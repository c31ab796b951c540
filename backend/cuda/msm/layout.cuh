// The layout of a device MSM context: the sizes every buffer derives from (Layout), and the work
// buffers carved out of one MsmWorkspace (Work, carve_work). make_layout serves both Msm::plan and
// Msm::create, so a plan's bytes are exactly what a context allocates. The window and cost rules it
// applies are msm/window.hpp's.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>
#include <string>
#include <tuple>

#include "backend/cuda/msm/bucket_kernels.cuh"
#include "backend/cuda/msm/msm.hpp"
#include "backend/cuda/msm/window.hpp"

namespace cuzk::cuda {

namespace msm_detail {

inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
inline unsigned grid_for(size_t n, unsigned block) {
  return unsigned(std::max<size_t>(1, ceil_div(n, block)));
}

// The reduction's level (level_kernel) runs on the device when a set has more than kHostLevel
// buckets (the host sums smaller sets itself); it cuts a set by its run K, at least 16, more while
// that leaves over 2^lg threads: 2^18 on G1, 2^17 on G2. On the H200 (cuzk_bench_msm) a 2^26 G1
// MSM's reduction at c = 22 takes 30.3 ms with 2^18 threads, 34.9 with 2^17, 43.4 with 2^16 and
// 31.5 with 2^19; a 2^24 G2 MSM's at c = 20, 29.1 ms with 2^17 and 31.9 with 2^18 (its level
// runs blocks of 64 threads with the accumulators in shared memory). Runs of 8 or 4 gain nothing
// at 2^24 and lose at 2^20, where the subset sums of a longer T cost more.
inline constexpr uint32_t kHostLevel = 32;
inline uint32_t reduce_run(uint32_t sets, uint32_t n, bool g2) {
  const unsigned lg = g2 ? 17 : 18;
  uint32_t K = 16;
  while (K < n && size_t(sets) * (n / K) > (size_t(1) << lg)) K *= 2;
  return std::min(K, n);
}

// After the level, each set's T = H/K outputs A_t and L_t are summed by subsets, all at once:
// Σ_t t·A_t = Σ_k 2^k·(Σ of the A_t whose index has bit k set), so a set needs log2(T) + 2 sums
// (one per bit, all A_t, all L_t) and no sum depends on another. A block of kSubsetBlock threads
// takes `span` members of one sum: each thread a chain of span / kSubsetBlock, then a tree in
// shared memory; with several blocks a sum, a second kernel sums their partials the same way. The
// depth is a few additions, where further levels of running sums, each folded in chains of 16,
// would be some 180 in a row.
// (kSubsetBlock and the kernels: bucket_kernels.cuh.)
inline constexpr unsigned kMaxSubsetSums = 2 + 19;  // T <= 2^(24 - 1) / 16
// The pinned points a set returns to the host: its subset sums, or its buckets when H <= kHostLevel.
inline constexpr unsigned kHostPointsPerSet = std::max(kHostLevel, kMaxSubsetSums);
struct SubsetPlan {
  unsigned bits = 0;    // log2(T)
  uint32_t sums = 0;    // Q = bits + 2 per set
  uint32_t span = 0;    // members a block sums
  uint32_t groups = 0;  // blocks a sum (the partials the second kernel sums when above 1)
};
inline SubsetPlan subset_plan(uint32_t sets, uint32_t T) {
  SubsetPlan p;
  p.bits = unsigned(std::bit_width(T) - 1);
  p.sums = p.bits + 2;
  // Chains of a few additions, longer while the sums would start more than 2^17 threads.
  uint32_t chain = 1;
  while (chain < T && size_t(sets) * p.sums * T / chain > (size_t(1) << 17)) chain *= 2;
  p.span = kSubsetBlock * chain;
  p.groups = uint32_t(ceil_div(T, p.span));
  return p;
}

// Points per item in the rounds after the first, which sum partial sums of heavy buckets (a
// witness's ones fill one bucket with 40 % of the points: 26 k partials at 2^27). A thread's additions
// are sequential, so short runs keep the depth small: 26 k partials take 4 rounds of 16, where runs
// of L = 512 would take 512 + 51 dependent additions (54 ms of a 320 ms MSM).
inline constexpr uint32_t kPartialRun = 16;

// The longest run of round 1 (points per item), for which the item sort's width is planned.
inline constexpr uint32_t kMaxRun = 512;
// Round 1's run for E entries in KZ buckets (those in use): about twice the mean bucket, which leaves most
// buckets one item (summed straight into the bucket) and splits heavy ones. Items are scheduled longest
// first, so a run can be long without idling the warp.
inline uint32_t run_for(size_t E, size_t KZ) {
  return uint32_t(std::clamp<size_t>(std::bit_ceil(2 * ceil_div(E, KZ)), 32, kMaxRun));
}

// Sizes every buffer derives from; the same arithmetic serves plan() and create().
struct Layout {
  MsmPlan plan;
  DigitShape shape{};
  size_t max_points = 0;
  size_t max_bases = 0;     // rows of a table (DigitShape::stride)
  size_t entries = 0;       // E: (scalar, window) pairs per chunk, the most nonzero digits
  size_t digit_blocks = 0;  // digits_kernel blocks of max_points scalars
  size_t max_passes = 0;    // passes cut by digits (Msm::State::digit_passes), at most
  uint32_t set_group = 0;   // g: sets per pass of every point (MsmConfig::set_passes); 0: none
  uint32_t set_passes = 0;  // G = ceil(sets / g), the passes of set groups (0: none)
  uint32_t KZ = 0;          // buckets of all sets: keys are 0 .. KZ − 1 (zero digits are not sorted)
  int key_bits = 0;         // radix sort width
  uint32_t run = 0;         // L: points per item
  bool run_fixed = false;   // L given by MsmConfig::bucket_run (not chosen per pass)
  size_t cap_a = 0;         // items, first round (and odd rounds)
  size_t cap_b = 0;         // items, even rounds
  uint32_t level0 = 0;      // per-set outputs of the reduction's level (H / K); 0: host only
  size_t words = 0;         // density words
  size_t cub_bytes = 0;     // CUB scratch

  // What places the index buffers in the work area (carve_work takes them before any point) and
  // gives sorted digits their meaning: equal for two contexts, of either curve, when one may sum
  // its bases over the digits the other sorted.
  auto digit_fields() const {
    return std::tie(shape.c, shape.W, shape.m, shape.H, shape.KZ, shape.stride, shape.wide, max_points,
                    max_bases, entries, digit_blocks, max_passes, set_group, set_passes, KZ, key_bits, run,
                    cap_a, cap_b, words, cub_bytes, plan.chunk_points);
  }
};

template <class Affine>
size_t xyzz_bytes() {
  return sizeof(curve::xyzz_t<typename Affine::field, typename Affine::params>);
}

// A context's work buffers: spans of one MsmWorkspace, carved by carve_work.
template <class Affine>
struct Work {
  using Xyzz = curve::xyzz_t<typename Affine::field, typename Affine::params>;
  DeviceSpan<Affine> base_stage[2];
  DeviceSpan<Fr> scalar_stage[2];
  DeviceSpan<uint64_t> density;
  DeviceSpan<uint32_t> word_rank;
  DeviceSpan<uint32_t> block_nnz;    // nonzero digits per digits_kernel block, then their offsets
  DeviceSpan<uint32_t> pass_bounds;  // first block, then first digit, of each pass cut by digits
  DeviceSpan<uint32_t> keys[2], vals[2];
  DeviceSpan<uint8_t> cub_tmp;
  DeviceSpan<uint32_t> off_entries, counts, off_items[2];
  DeviceSpan<Xyzz> part[2];
  DeviceSpan<Xyzz> buckets;
  DeviceSpan<uint32_t> item_len[2], item_ids[2];  // length-sorted schedule of the accumulation
  DeviceSpan<Xyzz> lvl_L, lvl_A, sub_part, sub_sums;
};

inline constexpr size_t kWorkAlign = 256;

// Lays the work buffers of layout L out from `base` (nullptr: sizes only, for plan()) and returns
// the bytes they span. plan() and create() both call it, so MsmPlan::work_bytes is exact.
template <class Affine>
size_t carve_work(const Layout& L, bool streamed, int device, unsigned char* base, Work<Affine>& w);

template <class Affine>
Result<Layout> make_layout(size_t max_points, const MsmConfig& cfg, bool streamed) {
  if (max_points == 0) return make_error("MSM: max_points must be positive");
  if (cfg.window_bits > 24) return make_error("MSM: window_bits above 24");
  if (streamed && cfg.precompute != 1)
    return make_error("MSM: streamed bases cannot be precomputed (precompute must be 1)");
  if (cfg.referenced_bases && (streamed || cfg.precompute != 1))
    return make_error("MSM: referenced bases are neither streamed nor precomputed (precompute must be 1)");
  Layout L;
  const bool fold_all = cfg.precompute == 0;
  const bool g2 = sizeof(typename Affine::field) > 48;
  const unsigned c =
      cfg.window_bits ? cfg.window_bits : msm_pick_window(max_points, cfg.precompute, msm_add_cost(g2));
  const unsigned W = msm_windows(c);
  const unsigned m = fold_all ? W : std::min(cfg.precompute, W);
  const unsigned S = (W + m - 1) / m;
  const size_t C = cfg.chunk_points ? std::min(cfg.chunk_points, max_points) : max_points;
  const uint32_t H = uint32_t(1) << (c - 1);
  const size_t nb = cfg.max_bases ? std::min(cfg.max_bases, max_points) : max_points;
  if (size_t(m) * nb >= (size_t(1) << 31))
    return make_error("MSM: tables × points must stay below 2^31 (lower precompute)");
  if (size_t(C) * W >= (size_t(1) << 32) - 1)
    return make_error("MSM: chunk × windows must stay below 2^32 (set chunk_points)");
  if (size_t(S) * H >= (size_t(1) << 31)) return make_error("MSM: too many buckets");
  L.max_points = max_points;
  L.max_bases = nb;
  L.shape = DigitShape{c, W, m, H, uint32_t(S * H), uint32_t(nb)};
  // W·c − 256 spare bits: as many windows of c − 1 bits (one set each, m = 1), at the top. Their
  // digits fill half of their set's buckets, so the reduction, whose cost is the buckets, shrinks:
  // at c = 22 eight of the twelve windows narrow and the buckets in use fall from 23.1 M to 16.8 M.
  const unsigned narrow = msm_narrow_windows(c, m, cfg.narrow_windows);
  L.shape.wide = W - narrow;
  L.KZ = uint32_t(S * H);
  L.key_bits = std::bit_width(L.KZ);
  L.entries = C * W;
  // Passes of set groups: a set's m windows give each scalar at most m digits there, so g sets of
  // every point fit the entries when n·m·g <= C·W. Only when points do not fit one pass, and W <= 32
  // (the count keeps a scalar's nonzero windows in one word). Every pass then takes at most g sets,
  // so the item buffers hold one group's buckets, not every set's.
  static_assert(kMaxSetGroups >= 32, "msm_set_group allows up to 32 windows, so up to 32 groups");
  if (const size_t g = cfg.set_passes ? msm_set_group(max_points, C, W, m, S) : 0) {
    L.set_group = uint32_t(g);
    L.set_passes = uint32_t(ceil_div(S, g));
  }
  const size_t pass_buckets = L.set_passes ? size_t(L.set_group) * H : L.KZ;
  // A floor for the points per item, which set-group passes raise for their own digits and buckets
  // in use (set_group_pass). Whole passes take it from the buckets in use: a narrow window's digits
  // fill half its set's buckets, so there the mean bucket is twice the mean over every bucket, and
  // a run of twice the latter splits half of them into two items and a round (2^26 uniform scalars
  // at c = 22 on the H200: 418.6 ms with runs of 64 and 6.5 ms of rounds, 411.2 with 128 and none).
  const size_t run_buckets = L.set_passes ? pass_buckets : msm_buckets_in_use(c, S, narrow);
  L.run = cfg.bucket_run ? cfg.bucket_run : run_for(L.entries, run_buckets);
  L.run_fixed = cfg.bucket_run != 0;
  L.cap_a = ceil_div(L.entries, L.run) + pass_buckets + 1;
  L.cap_b = ceil_div(L.cap_a, kPartialRun) + pass_buckets + 1;
  L.level0 = H > kHostLevel ? H / reduce_run(S, H, g2) : 0;
  L.words = ceil_div(max_points, 64);
  // Counts for every block of the largest input: passes cut by digits count all scalars at once.
  L.digit_blocks = ceil_div(max_points, kDigitBlock);
  L.max_passes = msm_digits_per_pass(C, W) ? ceil_div(max_points, C - kDigitBlock) + 1 : 1;
  L.max_passes = std::max<size_t>(L.max_passes, L.set_passes);

  // CUB's scratch for the largest sort, scan and max of this layout (sizes only; runs nothing).
  size_t sort_bytes = 0, scan_bytes = 0, max_bytes = 0;
  cub::DoubleBuffer<uint32_t> kb(nullptr, nullptr), vb(nullptr, nullptr);
  CUZK_TRY_STATUS(
      check(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, kb, vb, uint32_t(L.entries), 0, L.key_bits),
            "cub::DeviceRadixSort::SortPairs (size)"));
  const size_t scan_n =
      std::max<size_t>({L.KZ + 1, L.words, (L.digit_blocks + 1) * std::max<size_t>(1, L.set_passes) + 1});
  CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<uint32_t*>(nullptr),
                                                      static_cast<uint32_t*>(nullptr), uint32_t(scan_n)),
                        "cub::DeviceScan::ExclusiveSum (size)"));
  CUZK_TRY_STATUS(check(cub::DeviceReduce::Max(nullptr, max_bytes, static_cast<uint32_t*>(nullptr),
                                               static_cast<uint32_t*>(nullptr),
                                               uint32_t(std::max<size_t>(L.KZ + 1, L.digit_blocks))),
                        "cub::DeviceReduce::Max (size)"));
  size_t order_bytes = 0;
  CUZK_TRY_STATUS(
      check(cub::DeviceRadixSort::SortPairsDescending(nullptr, order_bytes, kb, vb, uint32_t(L.cap_a), 0,
                                                      std::bit_width(std::max(L.run, kMaxRun))),
            "cub::DeviceRadixSort::SortPairsDescending (size)"));
  L.cub_bytes = std::max({sort_bytes, scan_bytes, max_bytes, order_bytes, size_t(256)});

  MsmPlan& p = L.plan;
  p.window_bits = c;
  p.windows = W;
  p.narrow_windows = narrow;
  p.precompute = m;
  p.sets = S;
  p.bucket_run = L.run;
  p.chunk_points = C;
  p.base_bytes = streamed || cfg.referenced_bases ? 0 : size_t(m) * nb * sizeof(Affine);
  Work<Affine> sizing;
  p.work_bytes = carve_work<Affine>(L, streamed, -1, nullptr, sizing);
  return L;
}

template <class Affine>
size_t carve_work(const Layout& L, bool streamed, int device, unsigned char* base, Work<Affine>& w) {
  size_t off = 0;
  const auto take = [&]<class T>(DeviceSpan<T>& span, size_t n) {
    off = ceil_div(off, kWorkAlign) * kWorkAlign;
    span = DeviceSpan<T>(device, base ? reinterpret_cast<T*>(base + off) : nullptr, n);
    off += n * sizeof(T);
  };
  const size_t C = L.plan.chunk_points, S = L.plan.sets, T = std::max<size_t>(1, S * L.level0);
  for (int b = 0; b < 2; ++b) {
    take(w.scalar_stage[b], C);
    if (streamed) take(w.base_stage[b], C);
    take(w.keys[b], L.entries);
    take(w.vals[b], L.entries);
    take(w.off_items[b], size_t(L.KZ) + 1);
  }
  take(w.density, L.words);
  take(w.word_rank, L.words);
  // Rows of counts (digit_counts_kernel), then one word for the most in a block.
  take(w.block_nnz, (L.digit_blocks + 1) * (1 + L.set_passes) + 2);
  take(w.pass_bounds, 2 * (L.max_passes + 1));
  take(w.cub_tmp, L.cub_bytes);
  take(w.off_entries, size_t(L.KZ) + 1);
  take(w.counts, size_t(L.KZ) + 1);
  for (int b = 0; b < 2; ++b) {
    take(w.item_len[b], L.cap_a);
    take(w.item_ids[b], L.cap_a);
  }
  // Points last: everything above depends on the digit layout only (Layout::digit_fields), so the
  // contexts of both curves with one digit layout place their sorted digits alike (run_sorted_by).
  take(w.part[0], L.cap_a);
  take(w.part[1], L.cap_b);
  take(w.buckets, size_t(L.KZ));
  // Reduction: the level's outputs L and A, the subset sums' block partials and the sums.
  take(w.lvl_L, T);
  take(w.lvl_A, T);
  const SubsetPlan sp = L.level0 ? subset_plan(uint32_t(S), L.level0) : SubsetPlan{};
  take(w.sub_part, std::max<size_t>(1, S * sp.sums * sp.groups));
  take(w.sub_sums, std::max<size_t>(1, S * sp.sums));
  return ceil_div(off, kWorkAlign) * kWorkAlign;
}

}  // namespace msm_detail

}  // namespace cuzk::cuda
