// Msm<Affine> behind backend/cuda/msm/msm.hpp: planning, buffers and the launch sequence. Included by
// msm_g1.cu and msm_g2.cu, one instantiation each, so a 2-core build compiles them in parallel.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>
#include <future>
#include <string>
#include <tuple>
#include <vector>

#include "backend/cuda/msm/msm.hpp"
#include "backend/cuda/msm/kernels.cuh"
#include "backend/cuda/runtime/staging.hpp"

namespace cuzk::cuda {

namespace msm_detail {

inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
inline unsigned grid_for(size_t n, unsigned block) {
  return unsigned(std::max<size_t>(1, ceil_div(n, block)));
}

// The reduction's levels (level_kernel) run on the device while a set has more than kHostLevel
// elements; each level cuts a set by its run K, at least 16, more while that leaves over 2^17 threads.
inline constexpr uint32_t kHostLevel = 32;
inline constexpr unsigned kMaxLevels = 8;
inline uint32_t reduce_run(uint32_t sets, uint32_t n) {
  uint32_t K = 16;
  while (K < n && size_t(sets) * (n / K) > (size_t(1) << 17)) K *= 2;
  return std::min(K, n);
}

// Points per item in the rounds after the first, which sum partial sums of heavy buckets (a
// witness's ones fill one bucket with 40 % of the points: 26 k partials at 2^27). A thread's additions
// are sequential, so short runs keep the depth small: 26 k partials take 4 rounds of 16, where runs
// of L = 512 took 512 + 51 dependent additions (54 ms of a 320 ms MSM).
inline constexpr uint32_t kPartialRun = 16;

// The longest run of round 1 (points per item), for which the item sort's width is planned.
inline constexpr uint32_t kMaxRun = 512;
// Round 1's run for E entries in KZ buckets: about twice the mean bucket, which leaves most buckets
// one item (summed straight into the bucket) and splits heavy ones. Items are scheduled longest
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
  uint32_t level0 = 0;      // per-set outputs of the reduction's first level (H / K0); 0: host only
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
  DeviceSpan<Xyzz> lvl_L, lvl_A[2], fold_tmp[2], lvl_sums;
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
  const double add_cost = sizeof(typename Affine::field) > 48 ? 1.45 : 1.42;
  const unsigned c =
      cfg.window_bits ? cfg.window_bits : msm_pick_window(max_points, cfg.precompute, add_cost);
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
  // in use (set_group_pass).
  L.run = cfg.bucket_run ? cfg.bucket_run : run_for(L.entries, pass_buckets);
  L.run_fixed = cfg.bucket_run != 0;
  L.cap_a = ceil_div(L.entries, L.run) + pass_buckets + 1;
  L.cap_b = ceil_div(L.cap_a, kPartialRun) + pass_buckets + 1;
  L.level0 = H > kHostLevel ? H / reduce_run(S, H) : 0;
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
  // Reduction: level outputs L and A (A ping-pongs between levels), fold scratch, one sum per level.
  take(w.lvl_L, T);
  for (int b = 0; b < 2; ++b) {
    take(w.lvl_A[b], T);
    take(w.fold_tmp[b], std::max<size_t>(1, S * ceil_div(L.level0, 16)));
  }
  take(w.lvl_sums, S * kMaxLevels);
  return ceil_div(off, kWorkAlign) * kWorkAlign;
}

}  // namespace msm_detail

template <class Affine>
struct Msm<Affine>::State : msm_detail::Work<Affine> {
  using F = typename Affine::field;
  using Xyzz = curve::xyzz_t<F, typename Affine::params>;
  using W = msm_detail::Work<Affine>;
  using W::base_stage, W::scalar_stage, W::density, W::word_rank, W::block_nnz, W::pass_bounds, W::keys,
      W::vals, W::cub_tmp, W::off_entries, W::counts, W::off_items, W::part, W::buckets, W::item_len,
      W::item_ids, W::lvl_L, W::lvl_A, W::fold_tmp, W::lvl_sums;

  int device = -1;
  msm_detail::Layout L;
  bool streamed = false;
  bool referenced = false;  // bases held elsewhere on the device (MsmConfig::referenced_bases)

  Stream copy;                   // the context's own stream for host-to-device staging
  HostStager* stager = nullptr;  // pinned path for host inputs (set_stager), else the driver's
  cudaEvent_t copied[2] = {nullptr, nullptr}, consumed[2] = {nullptr, nullptr};

  DeviceBuffer<Affine> tables;         // m tables of max_bases bases (resident, owned)
  const Affine* bases_dev = nullptr;   // what the kernels read: tables, or the caller's device bases
  const Affine* bases_host = nullptr;  // streamed bases
  size_t nbases = 0;
  bool have_bases = false;

  std::shared_ptr<MsmWorkspace> workspace;  // the work buffers (msm_detail::Work) live in it

  // Carves the work buffers out of `ws` (of this device, large enough).
  Status bind(std::shared_ptr<MsmWorkspace> ws) {
    if (!ws) return make_error("MSM: no workspace");
    if (ws->device() != device) return make_error("MSM: a workspace of another device");
    if (ws->bytes() < L.plan.work_bytes)
      return make_error("MSM: workspace of " + std::to_string(ws->bytes()) +
                        " bytes for a context that needs " + std::to_string(L.plan.work_bytes));
    msm_detail::carve_work<Affine>(L, streamed, device, ws->data(), *this);
    workspace = std::move(ws);
    whole_pass();
    return Status::Ok();
  }

  // The buckets one pass sorts into and sums: every set, or a group of sets (set_group_passes).
  struct PassView {
    uint32_t KZ = 0;          // the pass's buckets: its keys are 0 .. KZ − 1
    int key_bits = 0;         // the sort's width
    uint32_t run = 0;         // round 1's points per item
    Xyzz* buckets = nullptr;  // bucket 0 of the pass
  };
  PassView pass;
  void whole_pass() { pass = PassView{L.KZ, L.key_bits, L.run, buckets.data()}; }
  // The pass of sets [lo, hi) over E digits: their buckets, the sort's width, a run for the mean of
  // the buckets in use.
  void set_group_pass(uint32_t lo, uint32_t hi, size_t E) {
    const uint32_t KZ = (hi - lo) * L.shape.H;
    // Narrow windows (one set each) are the sets from shape.wide up: the range's top ones.
    const uint32_t first_narrow = std::clamp<uint32_t>(L.shape.wide, lo, hi);
    const size_t in_use = msm_buckets_in_use(L.shape.c, hi - lo, hi - first_narrow);
    pass = PassView{KZ, int(std::bit_width(KZ)),
                    L.run_fixed ? L.run : std::max(L.run, msm_detail::run_for(E, in_use)),
                    buckets.data() + size_t(lo) * L.shape.H};
  }
  Xyzz* host_sets = nullptr;  // pinned: level sums (kMaxLevels per set), then the last level's elements
  // Pinned: [0] most items in a bucket, [1] item total, [2] digits, [3] items of a later round,
  // [4] most digits in a digits_kernel block (count_digits without set groups).
  uint32_t* host_max = nullptr;
  uint32_t* host_passes = nullptr;  // pinned: pass_bounds

  // Phase timing (MsmConfig::profile): events at the phase boundaries of each chunk, summed.
  bool profile = false;
  cudaEvent_t ev[9] = {};
  MsmTimings timings;
  Status mark(int i, const Stream& s) {
    return profile ? check(cudaEventRecord(ev[i], s.get()), "cudaEventRecord") : Status::Ok();
  }
  float between(int a, int b) const {
    float ms = 0;
    return cudaEventElapsedTime(&ms, ev[a], ev[b]) == cudaSuccess ? ms : 0.f;
  }

  explicit State(Stream s) : copy(std::move(s)) {}
  ~State() {
    auto g = DeviceGuard::enter(device);
    for (int b = 0; b < 2; ++b) {
      if (copied[b]) (void)cudaEventDestroy(copied[b]);
      if (consumed[b]) (void)cudaEventDestroy(consumed[b]);
    }
    for (cudaEvent_t e : ev)
      if (e) (void)cudaEventDestroy(e);
    if (host_sets) (void)cudaFreeHost(host_sets);
    if (host_max) (void)cudaFreeHost(host_max);
    if (host_passes) (void)cudaFreeHost(host_passes);
  }

  // What the last run left in the workspace for run_sorted_by: its pass's sorted digits (values),
  // the length-sorted schedule of its items, their count and the most items of one bucket; `stamp`
  // is the workspace's use count when the run ended.
  struct Sorted {
    uint64_t stamp = 0;
    uint32_t passes = 0, items = 0, most = 0;
    const uint32_t* vals = nullptr;
    const uint32_t* ids = nullptr;
  };
  Sorted sorted;

  Status clear_buckets(const Stream& s);
  Status item_offsets(const Stream& s);
  Status accumulate(const Stream& s, uint32_t items, const uint32_t* ids, const uint32_t* vals,
                    const Affine* bases);
  Status sort_and_sum(const Stream& s, uint32_t E, int stage);
  Status rounds(const Stream& s, uint32_t most);
  template <class SourceAffine>
  Result<typename Msm<Affine>::Jacobian> run_sorted(const typename Msm<SourceAffine>::State& source,
                                                    const Stream& s);
  Result<unsigned> count_digits(const Fr* sc, size_t len, size_t i0, bool mont, const uint64_t* dens,
                                const Stream& s, uint32_t groups = 0);
  Status set_group_passes(const Fr* sc, size_t len, size_t i0, size_t base_first, int stage, bool mont,
                          const uint64_t* dens, unsigned blocks, const Stream& s);
  Status digit_passes(const Fr* scalars, size_t n, bool mont, const uint64_t* dens, const Stream& s);
  Status reduce(const Stream& s, typename Msm<Affine>::Jacobian* out);
  Result<typename Msm<Affine>::Jacobian> run(const Fr* scalars, size_t n, const uint64_t* density_host,
                                             Memory where, ScalarForm form, const Stream& s);
};

template <class Affine>
Result<MsmPlan> Msm<Affine>::plan(size_t max_points, const MsmConfig& config, bool streamed_bases) {
  auto L = msm_detail::make_layout<Affine>(max_points, config, streamed_bases);
  if (!L) return L.error();
  return L->plan;
}

template <class Affine>
Result<Msm<Affine>> Msm<Affine>::create(int device, size_t max_points, const MsmConfig& config,
                                        bool streamed_bases, std::shared_ptr<MsmWorkspace> workspace) {
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  auto L = msm_detail::make_layout<Affine>(max_points, config, streamed_bases);
  if (!L) return L.error();
  auto cs = Stream::create(device);
  if (!cs) return cs.error();
  auto st = std::make_unique<State>(std::move(*cs));
  st->device = device;
  st->L = *L;
  st->streamed = streamed_bases;
  const auto& lay = st->L;
  for (int b = 0; b < 2; ++b) {
    CUZK_TRY_STATUS(
        check(cudaEventCreateWithFlags(&st->copied[b], cudaEventDisableTiming), "cudaEventCreate"));
    CUZK_TRY_STATUS(
        check(cudaEventCreateWithFlags(&st->consumed[b], cudaEventDisableTiming), "cudaEventCreate"));
  }
  CUZK_TRY_STATUS(
      check(cudaMallocHost(&st->host_sets, lay.plan.sets * (msm_detail::kMaxLevels + msm_detail::kHostLevel) *
                                               sizeof(typename State::Xyzz)),
            "cudaMallocHost"));
  CUZK_TRY_STATUS(check(cudaMallocHost(&st->host_max, 5 * sizeof(uint32_t)), "cudaMallocHost"));
  CUZK_TRY_STATUS(
      check(cudaMallocHost(&st->host_passes, 2 * (lay.max_passes + 1) * sizeof(uint32_t)), "cudaMallocHost"));
  st->profile = config.profile;
  if (st->profile)
    for (cudaEvent_t& e : st->ev) CUZK_TRY_STATUS(check(cudaEventCreate(&e), "cudaEventCreate"));

  // The context's own allocations: the bases' tables, and the work area unless one is shared.
  st->referenced = config.referenced_bases;
  if (!streamed_bases && !config.referenced_bases) {
    auto t = DeviceBuffer<Affine>::alloc(device, size_t(lay.plan.precompute) * lay.max_bases);
    if (!t) return t.error();
    st->tables = std::move(*t);
  }
  if (!workspace) {
    auto ws = MsmWorkspace::create(device, lay.plan.work_bytes);
    if (!ws) return ws.error();
    workspace = std::move(*ws);
  }
  CUZK_TRY_STATUS(st->bind(std::move(workspace)));
  return Msm(std::move(st));
}

template <class Affine>
Status Msm<Affine>::use_workspace(std::shared_ptr<MsmWorkspace> workspace) {
  return st_->bind(std::move(workspace));
}

template <class Affine>
Msm<Affine>::Msm(std::unique_ptr<State> st) : st_(std::move(st)) {}
template <class Affine>
Msm<Affine>::Msm(Msm&&) noexcept = default;
template <class Affine>
Msm<Affine>& Msm<Affine>::operator=(Msm&&) noexcept = default;
template <class Affine>
Msm<Affine>::~Msm() = default;
template <class Affine>
const MsmPlan& Msm<Affine>::plan() const {
  return st_->L.plan;
}
template <class Affine>
int Msm<Affine>::device() const {
  return st_->device;
}
template <class Affine>
const MsmTimings& Msm<Affine>::last_timings() const {
  return st_->timings;
}

template <class Affine>
void Msm<Affine>::set_stager(HostStager* stager) {
  st_->stager = stager;
}

template <class Affine>
Status Msm<Affine>::set_bases(const Affine* bases, size_t n, Memory where, const Stream& s) {
  State& st = *st_;
  if (s.device() != st.device) return make_error("MSM: stream of another device");
  if (n > st.L.max_bases) return make_error("MSM: more bases than the context was created for");
  if (n > 0 && !bases) return make_error("MSM: null bases");
  auto g = DeviceGuard::enter(st.device);
  if (!g) return g.error();
  st.have_bases = false;
  st.nbases = n;
  if (st.referenced) {
    if (where != Memory::device) return make_error("MSM: a referenced-bases context takes device bases");
    st.bases_dev = bases;
    st.have_bases = true;
    return Status::Ok();
  }
  if (st.streamed) {
    if (where != Memory::host) return make_error("MSM: a streamed-bases context takes host bases");
    st.bases_host = bases;
    st.have_bases = true;
    return Status::Ok();
  }
  const unsigned m = st.L.plan.precompute;
  if (where == Memory::device && m == 1) {
    st.bases_dev = bases;  // referenced, not copied
  } else {
    if (where == Memory::host && st.stager)
      CUZK_TRY_STATUS(st.stager->to_device(st.tables.data(), bases, n * sizeof(Affine), s));
    else
      CUZK_TRY_STATUS(check(
          cudaMemcpyAsync(st.tables.data(), bases, n * sizeof(Affine),
                          where == Memory::host ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice, s.get()),
          "cudaMemcpyAsync (bases)"));
    st.bases_dev = st.tables.data();
  }
  // The kernels index table j at j·max_bases (DigitShape::stride), so table j starts there.
  Affine* t = st.tables.data();
  const size_t stride = st.L.max_bases;
  const size_t chunk = st.part[0].size();  // doubled points wait in the partial-sum buffer
  for (unsigned j = 1; j < m; ++j) {
    for (size_t i0 = 0; i0 < n; i0 += chunk) {
      const size_t len = std::min(chunk, n - i0);
      const size_t threads = msm_detail::ceil_div(len, msm_detail::kStripe);
      msm_detail::shift_bases_kernel<Affine, typename State::Xyzz>
          <<<msm_detail::grid_for(threads, 64), 64, 0, s.get()>>>(
              t + (j - 1) * stride + i0, t + j * stride + i0, st.part[0].data(), len, st.L.shape.c);
      CUZK_TRY_STATUS(check_launch("msm shift_bases_kernel"));
    }
  }
  CUZK_TRY_STATUS(s.synchronize());
  st.have_bases = true;
  return Status::Ok();
}

// Every bucket of the layout set to infinity.
template <class Affine>
Status Msm<Affine>::State::clear_buckets(const Stream& s) {
  using namespace msm_detail;
  fill_infinity_kernel<Xyzz>
      <<<grid_for(size_t(L.KZ) * (sizeof(Xyzz) / 16), 256), 256, 0, s.get()>>>(buckets.data(), L.KZ);
  return check_launch("msm fill_infinity_kernel");
}

// Round 1's items from the bucket offsets: counts[k] = the items of bucket k (runs of at most
// L.run entries), off_items[0] = their exclusive sum (item numbers; the total at KZ).
template <class Affine>
Status Msm<Affine>::State::item_offsets(const Stream& s) {
  using namespace msm_detail;
  const uint32_t KZ = pass.KZ;
  segment_items_kernel<<<grid_for(size_t(KZ) + 1, 256), 256, 0, s.get()>>>(off_entries.data(), KZ, pass.run,
                                                                           1, counts.data());
  CUZK_TRY_STATUS(check_launch("msm segment_items_kernel"));
  size_t tmp = cub_tmp.size();
  return check(
      cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, counts.data(), off_items[0].data(), KZ + 1, s.get()),
      "cub::DeviceScan::ExclusiveSum");
}

// Round 1 of step 3: the `items` of the length-sorted schedule `ids` sum the bases that the sorted
// entries `vals` name (bucket offsets in off_entries, item offsets in off_items[0]) into part[0],
// a bucket's first item starting from the bucket.
template <class Affine>
Status Msm<Affine>::State::accumulate(const Stream& s, uint32_t items, const uint32_t* ids,
                                      const uint32_t* vals, const Affine* bases) {
  using namespace msm_detail;
  constexpr unsigned B = kSumBlock;
  if constexpr (kSharedAccumulator<Xyzz>) {
    // 48 KiB of shared memory per block, two blocks per SM: the carveout must leave room for them
    // (a function attribute of the current device, so set on every call).
    CUZK_TRY_STATUS(check(
        cudaFuncSetAttribute(segment_sum_shared_kernel<Xyzz, Affine>,
                             cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared),
        "cudaFuncSetAttribute (shared-memory carveout)"));
    segment_sum_shared_kernel<Xyzz, Affine><<<grid_for(items, B), B, 0, s.get()>>>(
        off_entries.data(), off_items[0].data(), pass.KZ, items, ids, EntrySource<Affine>{vals, bases}, true,
        pass.buckets, part[0].data());
  } else {
    segment_sum_kernel<Xyzz><<<grid_for(items, B), B, 0, s.get()>>>(
        off_entries.data(), off_items[0].data(), pass.KZ, items, ids, EntrySource<Affine>{vals, bases}, true,
        pass.buckets, part[0].data());
  }
  return check_launch("msm segment_sum_kernel (entries)");
}

// Steps 2 and 3 for one chunk whose E nonzero digits are in keys[0]/vals[0]: sort, bucket offsets,
// item rounds into the buckets. Records consumed[stage] once the bases are no longer read.
template <class Affine>
Status Msm<Affine>::State::sort_and_sum(const Stream& s, uint32_t E, int stage) {
  using namespace msm_detail;
  const uint32_t KZ = pass.KZ, Lr = pass.run;
  CUZK_TRY_STATUS(mark(1, s));
  cub::DoubleBuffer<uint32_t> kb(keys[0].data(), keys[1].data()), vb(vals[0].data(), vals[1].data());
  size_t tmp = cub_tmp.size();
  CUZK_TRY_STATUS(
      check(cub::DeviceRadixSort::SortPairs(cub_tmp.data(), tmp, kb, vb, E, 0, pass.key_bits, s.get()),
            "cub::DeviceRadixSort::SortPairs"));
  CUZK_TRY_STATUS(mark(2, s));
  CUZK_TRY_STATUS(
      check(cudaMemsetAsync(off_entries.data(), 0xff, (size_t(KZ) + 1) * sizeof(uint32_t), s.get()),
            "cudaMemsetAsync (offsets)"));
  bucket_offsets_kernel<<<grid_for(size_t(E) + 1, 256), 256, 0, s.get()>>>(kb.Current(), E, KZ,
                                                                           off_entries.data());
  CUZK_TRY_STATUS(check_launch("msm bucket_offsets_kernel"));
  fill_offsets_kernel<<<grid_for(size_t(KZ) + 1, 256), 256, 0, s.get()>>>(kb.Current(), E, KZ,
                                                                          off_entries.data());
  CUZK_TRY_STATUS(check_launch("msm fill_offsets_kernel"));
  CUZK_TRY_STATUS(mark(6, s));

  // Round 1: entries -> part[0], items numbered by off_items[0].
  CUZK_TRY_STATUS(item_offsets(s));
  tmp = cub_tmp.size();
  CUZK_TRY_STATUS(
      check(cub::DeviceReduce::Max(cub_tmp.data(), tmp, counts.data(), off_items[1].data(), KZ + 1, s.get()),
            "cub::DeviceReduce::Max"));
  CUZK_TRY_STATUS(
      check(cudaMemcpyAsync(host_max, off_items[1].data(), sizeof(uint32_t), cudaMemcpyDeviceToHost, s.get()),
            "cudaMemcpyAsync (max items)"));
  CUZK_TRY_STATUS(check(cudaMemcpyAsync(host_max + 1, off_items[0].data() + KZ, sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, s.get()),
                        "cudaMemcpyAsync (item total)"));
  // The schedule: items sorted by length, longest first (the sort needs the item total on the host).
  item_lengths_kernel<<<grid_for(L.cap_a, 256), 256, 0, s.get()>>>(
      off_entries.data(), off_items[0].data(), KZ, uint32_t(L.cap_a), item_len[0].data(), item_ids[0].data());
  CUZK_TRY_STATUS(check_launch("msm item_lengths_kernel"));
  CUZK_TRY_STATUS(s.synchronize());
  const uint32_t items = host_max[1];
  cub::DoubleBuffer<uint32_t> lb(item_len[0].data(), item_len[1].data()),
      ib(item_ids[0].data(), item_ids[1].data());
  tmp = cub_tmp.size();
  CUZK_TRY_STATUS(check(cub::DeviceRadixSort::SortPairsDescending(cub_tmp.data(), tmp, lb, ib, items, 0,
                                                                  std::bit_width(Lr), s.get()),
                        "cub::DeviceRadixSort::SortPairsDescending (items)"));
  ++sorted.passes;
  sorted.items = items;
  sorted.most = *host_max;
  sorted.vals = vb.Current();
  sorted.ids = ib.Current();
  const Affine* bases = streamed ? base_stage[stage].data() : bases_dev;
  CUZK_TRY_STATUS(mark(3, s));
  CUZK_TRY_STATUS(accumulate(s, items, ib.Current(), vb.Current(), bases));
  CUZK_TRY_STATUS(check(cudaEventRecord(consumed[stage], s.get()), "cudaEventRecord"));
  CUZK_TRY_STATUS(mark(4, s));
  CUZK_TRY_STATUS(s.synchronize());
  if (profile) {
    timings.digits_ms += between(0, 1);
    timings.sort_ms += between(1, 2);
    timings.offsets_ms += between(2, 6);
    timings.schedule_ms += between(6, 3);
    timings.accumulate_ms += between(3, 4);
    ++timings.passes;
  }

  return rounds(s, *host_max);
}

// Further rounds while some bucket still has more than one item (heavy buckets: 0/1 scalars,
// repeated scalars), each summing runs of kPartialRun partial sums of the buckets that have two or
// more, so the largest item count shrinks by kPartialRun a round. A bucket's sum goes to buckets[k]
// from the round that leaves it one item (round 1 for most), so no merge pass follows. Round 1's
// partial sums are in part[0], numbered by off_items[0]; `most` is its largest item count.
template <class Affine>
Status Msm<Affine>::State::rounds(const Stream& s, uint32_t most) {
  using namespace msm_detail;
  const uint32_t KZ = pass.KZ;
  constexpr unsigned B = kSumBlock;
  CUZK_TRY_STATUS(mark(7, s));
  int cur = 0;
  while (most > 1) {
    segment_items_kernel<<<grid_for(size_t(KZ) + 1, 256), 256, 0, s.get()>>>(off_items[cur].data(), KZ,
                                                                             kPartialRun, 2, counts.data());
    CUZK_TRY_STATUS(check_launch("msm segment_items_kernel"));
    size_t tmp = cub_tmp.size();
    CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, counts.data(),
                                                        off_items[1 - cur].data(), KZ + 1, s.get()),
                          "cub::DeviceScan::ExclusiveSum"));
    // The round's item total sizes its grid: only the heavy buckets take part, a few threads where
    // a grid for the buffer's capacity would start millions that find nothing to do.
    CUZK_TRY_STATUS(check(cudaMemcpyAsync(host_max + 3, off_items[1 - cur].data() + KZ, sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, s.get()),
                          "cudaMemcpyAsync (round items)"));
    CUZK_TRY_STATUS(s.synchronize());
    const uint32_t items = host_max[3];
    if (items > part[1 - cur].size()) return make_error("MSM: a round has more items than its buffer");
    if (items)
      segment_sum_kernel<Xyzz><<<grid_for(items, B), B, 0, s.get()>>>(
          off_items[cur].data(), off_items[1 - cur].data(), KZ, items, nullptr,
          PartialSource<Xyzz>{part[cur].data()}, false, pass.buckets, part[1 - cur].data());
    CUZK_TRY_STATUS(check_launch("msm segment_sum_kernel (partials)"));
    cur = 1 - cur;
    most = (most + kPartialRun - 1) / kPartialRun;
  }
  if (profile) {
    CUZK_TRY_STATUS(mark(5, s));
    CUZK_TRY_STATUS(s.synchronize());
    timings.rounds_ms += between(7, 5);
  }
  return Status::Ok();
}

// Step 4: per set, WS(B) = Σ_j (j + 1)·B_j = WS0(B) + Σ B. The device runs levels (level_kernel)
// while a set has more than kHostLevel elements, folding each level's L outputs to one sum; the host
// finishes: WS0 = S_0 + K_0·(S_1 + K_1·(… + K_last·WS0(last level))), then Σ_s 2^(c·m·s)·R_s.
template <class Affine>
Status Msm<Affine>::State::reduce(const Stream& s, typename Msm<Affine>::Jacobian* out) {
  using namespace msm_detail;
  const uint32_t S = L.plan.sets;
  constexpr unsigned B = 128, Fold = 16;
  CUZK_TRY_STATUS(mark(0, s));
  uint32_t n = L.shape.H;
  const Xyzz* X = buckets.data();
  uint32_t runs[kMaxLevels];
  unsigned levels = 0;
  while (n > kHostLevel) {
    if (levels == kMaxLevels) return make_error("MSM: reduction needs more levels than planned");
    const uint32_t K = reduce_run(S, n), T = n / K;
    Xyzz* A = lvl_A[levels % 2].data();
    if constexpr (kSharedAccumulator<Xyzz>) {
      constexpr unsigned BS = kLevelSharedBlock;
      level_shared_kernel<Xyzz><<<grid_for(size_t(S) * T, BS), BS, 0, s.get()>>>(X, S, n, K, lvl_L.data(), A);
    } else {
      level_kernel<Xyzz><<<grid_for(size_t(S) * T, B), B, 0, s.get()>>>(X, S, n, K, lvl_L.data(), A);
    }
    CUZK_TRY_STATUS(check_launch("msm level_kernel"));
    // Fold the L outputs of each set to one point, the last fold writing into lvl_sums.
    Xyzz* dst = lvl_sums.data() + size_t(levels) * S;
    const Xyzz* cur = lvl_L.data();
    uint32_t t = T;
    int scratch = 0;
    if (t == 1) {
      CUZK_TRY_STATUS(check(cudaMemcpyAsync(dst, cur, S * sizeof(Xyzz), cudaMemcpyDeviceToDevice, s.get()),
                            "cudaMemcpyAsync (level sum)"));
    }
    while (t > 1) {
      const uint32_t tn = (t + Fold - 1) / Fold;
      Xyzz* o = tn == 1 ? dst : fold_tmp[scratch].data();
      fold_kernel<Xyzz><<<grid_for(size_t(S) * tn, B), B, 0, s.get()>>>(cur, S, t, Fold, o);
      CUZK_TRY_STATUS(check_launch("msm fold_kernel"));
      cur = o;
      scratch ^= 1;
      t = tn;
    }
    runs[levels++] = K;
    X = A;
    n = T;
  }
  Xyzz* sums = host_sets;
  Xyzz* last = host_sets + size_t(S) * kMaxLevels;
  if (levels)
    CUZK_TRY_STATUS(check(cudaMemcpyAsync(sums, lvl_sums.data(), size_t(levels) * S * sizeof(Xyzz),
                                          cudaMemcpyDeviceToHost, s.get()),
                          "cudaMemcpyAsync (level sums)"));
  CUZK_TRY_STATUS(
      check(cudaMemcpyAsync(last, X, size_t(S) * n * sizeof(Xyzz), cudaMemcpyDeviceToHost, s.get()),
            "cudaMemcpyAsync (last level)"));
  CUZK_TRY_STATUS(mark(1, s));
  CUZK_TRY_STATUS(s.synchronize());
  if (profile) timings.reduce_ms += between(0, 1);
  Xyzz acc = Xyzz::infinity();
  for (uint32_t j = S; j-- > 0;) {
    // WS0 and Σ of the last level by running sums from the top.
    const Xyzz* x = last + size_t(j) * n;
    Xyzz run = Xyzz::infinity(), ws = Xyzz::infinity();
    for (uint32_t i = n; i-- > 1;) {
      run = run.add(x[i]);
      ws = ws.add(run);
    }
    const Xyzz total = run.add(x[0]);
    for (unsigned l = levels; l-- > 0;) {
      for (uint32_t k = runs[l]; k > 1; k /= 2) ws = ws.dbl();  // K is a power of two
      ws = ws.add(sums[size_t(l) * S + j]);
    }
    const Xyzz set = ws.add(total);
    // Set j + 1 starts window_start((j + 1)·m) − window_start(j·m) bits above set j.
    if (j + 1 < S) {
      const unsigned shift =
          window_start(L.shape, (j + 1) * L.shape.m) - window_start(L.shape, j * L.shape.m);
      for (unsigned d = 0; d < shift; ++d) acc = acc.dbl();
    }
    acc = acc.add(set);
  }
  *out = acc.to_jacobian();
  return Status::Ok();
}

template <class Affine>
Result<typename Msm<Affine>::Jacobian> Msm<Affine>::State::run(const Fr* scalars, size_t n,
                                                               const uint64_t* density_host, Memory where,
                                                               ScalarForm form, const Stream& s) {
  using namespace msm_detail;
  using J = typename Msm<Affine>::Jacobian;
  if (s.device() != device) return make_error("MSM: stream of another device");
  if (!have_bases) return make_error("MSM: set_bases first");
  if (n > L.max_points) return make_error("MSM: more scalars than the context was created for");
  if (n > 0 && !scalars) return make_error("MSM: null scalars");
  // First base of each chunk: rank of its first scalar (host popcounts; only the density form needs it).
  const size_t C = L.plan.chunk_points;
  const size_t chunks = ceil_div(n, C);
  std::vector<size_t> first_base(chunks + 1, 0);
  if (density_host) {
    // rank(i) = present variables below i, from per-word prefix counts.
    const size_t words = ceil_div(n, 64);
    std::vector<size_t> prefix(words + 1, 0);
    for (size_t w = 0; w < words; ++w) {
      uint64_t word = density_host[w];
      if (w + 1 == words && n % 64) word &= (uint64_t(1) << (n % 64)) - 1;
      prefix[w + 1] = prefix[w] + size_t(std::popcount(word));
    }
    for (size_t k = 0; k <= chunks; ++k) {
      const size_t i = std::min(k * C, n);
      const uint64_t below = i % 64 ? density_host[i / 64] & ((uint64_t(1) << (i % 64)) - 1) : 0;
      first_base[k] = prefix[i / 64] + size_t(std::popcount(below));
    }
    if (first_base[chunks] != nbases)
      return make_error("MSM: density has " + std::to_string(first_base[chunks]) + " present variables for " +
                        std::to_string(nbases) + " bases");
  } else {
    if (n > nbases) return make_error("MSM: more scalars than bases");
    for (size_t k = 0; k <= chunks; ++k) first_base[k] = std::min(k * C, n);
  }
  timings = MsmTimings{};
  if (n == 0) return J::infinity();
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  workspace->touch();
  sorted = Sorted{};
  whole_pass();

  if (density_host) {
    const size_t words = ceil_div(n, 64);
    CUZK_TRY_STATUS(density.upload(density_host, words, s));
    popcount_kernel<<<grid_for(words, 256), 256, 0, s.get()>>>(density.data(), words, word_rank.data());
    CUZK_TRY_STATUS(check_launch("msm popcount_kernel"));
    size_t tmp = cub_tmp.size();
    CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, word_rank.data(),
                                                        word_rank.data(), uint32_t(words), s.get()),
                          "cub::DeviceScan::ExclusiveSum (density)"));
  }
  CUZK_TRY_STATUS(clear_buckets(s));

  const bool stage_scalars = where == Memory::host;
  const bool staging = stage_scalars || streamed;
  // Chunk k's inputs go to stage k % 2 on the copy stream, after the compute stream is done with
  // chunk k - 2's (consumed[]); the compute stream waits for them (copied[]).
  const auto upload = [&](void* dst, const void* src, size_t bytes) -> Status {
    return stager ? stager->to_device(dst, src, bytes, copy)
                  : detail::copy_async(dst, src, bytes, cudaMemcpyHostToDevice, copy);
  };
  auto issue_copy = [&](size_t k) -> Status {
    auto dg = DeviceGuard::enter(device);
    if (!dg) return dg.error();
    const int b = int(k % 2);
    const size_t i0 = k * C, len = std::min(C, n - i0);
    if (k >= 2)
      CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy.get(), consumed[b], 0), "cudaStreamWaitEvent"));
    if (stage_scalars) CUZK_TRY_STATUS(upload(scalar_stage[b].data(), scalars + i0, len * sizeof(Fr)));
    if (streamed) {
      const size_t b0 = first_base[k], nb = first_base[k + 1] - first_base[k];
      if (nb) CUZK_TRY_STATUS(upload(base_stage[b].data(), bases_host + b0, nb * sizeof(Affine)));
    }
    return check(cudaEventRecord(copied[b], copy.get()), "cudaEventRecord");
  };
  if (staging) {
    // Earlier work of the caller on s (and of the last run) comes before the first copy.
    CUZK_TRY_STATUS(check(cudaEventRecord(consumed[1], s.get()), "cudaEventRecord"));
    CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy.get(), consumed[1], 0), "cudaStreamWaitEvent"));
    CUZK_TRY_STATUS(issue_copy(0));
  }
  const bool mont = form == ScalarForm::montgomery;
  const uint64_t* dens = density_host ? density.data() : nullptr;
  // Scalars already on the device and bases that stay: the digits of every scalar are counted at
  // once, and passes may be cut by digits (digit_passes), so a witness vector (mostly 0 and 1)
  // takes one pass where it took n / C.
  const bool counted_once = !staging && chunks > 1 && msm_digits_per_pass(C, L.shape.W) &&
                            size_t(n) * L.shape.W < (size_t(1) << 32) - 1;
  if (counted_once) {
    CUZK_TRY_STATUS(digit_passes(scalars, n, mont, dens, s));
    J out;
    CUZK_TRY_STATUS(reduce(s, &out));
    sorted.stamp = workspace->uses();
    return out;
  }
  // With a stager the host does the copying, so chunk k + 1's copy runs on its own host thread
  // while this one drives chunk k (declared last: on an early return it is joined first).
  std::future<Status> next_copy;
  for (size_t k = 0; k < chunks; ++k) {
    const int b = int(k % 2);
    const size_t i0 = k * C, len = std::min(C, n - i0);
    if (next_copy.valid()) CUZK_TRY_STATUS(next_copy.get());  // chunk k's copy
    if (staging && k + 1 < chunks) {
      if (stager)
        next_copy = std::async(std::launch::async, issue_copy, k + 1);
      else
        CUZK_TRY_STATUS(issue_copy(k + 1));  // queued; the driver overlaps it for pinned memory
    }
    if (staging) CUZK_TRY_STATUS(check(cudaStreamWaitEvent(s.get(), copied[b], 0), "cudaStreamWaitEvent"));
    const Fr* sc = stage_scalars ? scalar_stage[b].data() : scalars + i0;
    CUZK_TRY_STATUS(mark(0, s));
    // Only nonzero digits are sorted: count them per block, scan, then write each block's at its
    // offset. Witness vectors are mostly 0 and 1 (one digit, or none, instead of W).
    auto counted = count_digits(sc, len, i0, mont, dens, s, L.set_passes);
    if (!counted) return counted.error();
    const unsigned blocks = *counted;
    if (L.set_passes) {
      CUZK_TRY_STATUS(set_group_passes(sc, len, i0, streamed ? first_base[k] : 0, b, mont, dens, blocks, s));
      continue;
    }
    CUZK_TRY_STATUS(s.synchronize());  // the stage's size and the sort need the counts on the host
    digits_kernel_for(ceil_div(host_max[4], kDigitBlock))<<<blocks, kDigitBlock, 0, s.get()>>>(
        sc, uint32_t(len), i0, mont, dens, word_rank.data(), streamed ? first_base[k] : 0, L.shape,
        block_nnz.data(), 0, keys[0].data(), vals[0].data());
    CUZK_TRY_STATUS(check_launch("msm digits_kernel"));
    CUZK_TRY_STATUS(sort_and_sum(s, host_max[2], b));
  }
  J out;
  CUZK_TRY_STATUS(reduce(s, &out));
  sorted.stamp = workspace->uses();
  return out;
}

// run_sorted_by: round 1 over the source's sorted digits with this context's bases (the bucket
// offsets are still in off_entries; the item offsets, which later rounds overwrite, are counted
// again from them), then the rounds and the reduction as in a run.
template <class Affine>
template <class SourceAffine>
Result<typename Msm<Affine>::Jacobian> Msm<Affine>::State::run_sorted(
    const typename Msm<SourceAffine>::State& source, const Stream& s) {
  using namespace msm_detail;
  using J = typename Msm<Affine>::Jacobian;
  if (s.device() != device) return make_error("MSM: stream of another device");
  if (!have_bases) return make_error("MSM: set_bases first");
  const auto src = source.sorted;
  auto g = DeviceGuard::enter(device);
  if (!g) return g.error();
  timings = MsmTimings{};
  workspace->touch();
  sorted = Sorted{};
  whole_pass();
  CUZK_TRY_STATUS(clear_buckets(s));
  CUZK_TRY_STATUS(item_offsets(s));
  CUZK_TRY_STATUS(mark(3, s));
  CUZK_TRY_STATUS(accumulate(s, src.items, src.ids, src.vals, bases_dev));
  CUZK_TRY_STATUS(mark(4, s));
  if (profile) {
    CUZK_TRY_STATUS(s.synchronize());
    timings.accumulate_ms += between(3, 4);
    ++timings.passes;
  }
  CUZK_TRY_STATUS(rounds(s, src.most));
  J out;
  CUZK_TRY_STATUS(reduce(s, &out));
  return out;
}

// Nonzero digits of each kDigitBlock scalars of sc[0, len) (scalar i0 of the input first); returns
// the blocks. Without `groups`, scanned into offsets in block_nnz (the total last, also copied to
// host_max[2]; the most in one block to host_max[4]). With `groups`, the counts of the layout's set
// groups follow row 0, unscanned (digit_counts_kernel), for set_group_passes.
template <class Affine>
Result<unsigned> Msm<Affine>::State::count_digits(const Fr* sc, size_t len, size_t i0, bool mont,
                                                  const uint64_t* dens, const Stream& s, uint32_t groups) {
  using namespace msm_detail;
  const unsigned blocks = grid_for(len, kDigitBlock);
  digit_counts_kernel<<<blocks, kDigitBlock, 0, s.get()>>>(
      sc, uint32_t(len), i0, mont, dens, word_rank.data(), L.shape, groups, L.set_group, block_nnz.data());
  CUZK_TRY_STATUS(check_launch("msm digit_counts_kernel"));
  // With set groups, set_group_passes scans the groups' rows; row 0 (every digit) is not read.
  if (groups) return blocks;
  // The block with the most digits sizes digits_kernel's stage (digits_kernel_for).
  size_t tmp = cub_tmp.size();
  uint32_t* most = block_nnz.data() + block_nnz.size() - 1;
  CUZK_TRY_STATUS(check(cub::DeviceReduce::Max(cub_tmp.data(), tmp, block_nnz.data(), most, blocks, s.get()),
                        "cub::DeviceReduce::Max (digits a block)"));
  CUZK_TRY_STATUS(
      check(cudaMemcpyAsync(host_max + 4, most, sizeof(uint32_t), cudaMemcpyDeviceToHost, s.get()),
            "cudaMemcpyAsync (digits a block)"));
  tmp = cub_tmp.size();
  CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, block_nnz.data(), block_nnz.data(),
                                                      blocks + 1, s.get()),
                        "cub::DeviceScan::ExclusiveSum (digits)"));
  CUZK_TRY_STATUS(check(cudaMemcpyAsync(host_max + 2, block_nnz.data() + blocks, sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, s.get()),
                        "cudaMemcpyAsync (digit total)"));
  return blocks;
}

// Steps 1-3 over device scalars and bases that stay: every scalar's nonzero digits are counted
// once, then the input is cut into passes of as many points (C) or, when that makes fewer passes, of
// as many digits: pass j takes the blocks whose digits start from j·T on, T = entries - one block's
// most digits, so each pass fits the work buffers. A witness (mostly 0 and 1, a quarter of the
// digits of uniform scalars) then takes one pass where it took n / C, sorting into and merging all
// buckets once.
template <class Affine>
Status Msm<Affine>::State::digit_passes(const Fr* scalars, size_t n, bool mont, const uint64_t* dens,
                                        const Stream& s) {
  using namespace msm_detail;
  CUZK_TRY_STATUS(mark(0, s));
  auto counted = count_digits(scalars, n, 0, mont, dens, s, L.set_passes);
  if (!counted) return counted.error();
  const unsigned blocks = *counted;
  if (L.set_passes) return set_group_passes(scalars, n, 0, 0, 0, mont, dens, blocks, s);
  CUZK_TRY_STATUS(s.synchronize());
  const size_t total = host_max[2];
  const uint32_t per_thread = uint32_t(ceil_div(host_max[4], kDigitBlock));
  const size_t target = msm_digits_per_pass(L.plan.chunk_points, L.shape.W);
  const size_t stride = L.plan.chunk_points / kDigitBlock;  // blocks per pass of C points
  const size_t by_points = ceil_div(blocks, stride), by_digits = std::max<size_t>(1, ceil_div(total, target));
  const bool digits = by_digits < by_points;
  const uint32_t passes = uint32_t(digits ? by_digits : by_points);
  if (passes > L.max_passes)
    return make_error("MSM: " + std::to_string(passes) + " passes for a layout of " +
                      std::to_string(L.max_passes));
  uint32_t* first_block = pass_bounds.data();
  uint32_t* first_digit = pass_bounds.data() + passes + 1;
  pass_bounds_kernel<<<grid_for(passes + 1, 64), 64, 0, s.get()>>>(
      block_nnz.data(), blocks, digits ? 0 : uint32_t(stride), uint32_t(target), passes, first_block,
      first_digit);
  CUZK_TRY_STATUS(check_launch("msm pass_bounds_kernel"));
  CUZK_TRY_STATUS(pass_bounds.download(host_passes, 2 * (size_t(passes) + 1), s));
  CUZK_TRY_STATUS(s.synchronize());
  const uint32_t* hb = host_passes;
  const uint32_t* hd = host_passes + passes + 1;
  for (uint32_t j = 0; j < passes; ++j) {
    const uint32_t E = hd[j + 1] - hd[j];
    if (E == 0) continue;
    if (E > L.entries) return make_error("MSM: a pass of " + std::to_string(E) + " digits overflows");
    const size_t i0 = size_t(hb[j]) * kDigitBlock, i1 = std::min(n, size_t(hb[j + 1]) * kDigitBlock);
    if (j > 0) CUZK_TRY_STATUS(mark(0, s));
    digits_kernel_for(per_thread)<<<hb[j + 1] - hb[j], kDigitBlock, 0, s.get()>>>(
        scalars + i0, uint32_t(i1 - i0), i0, mont, dens, word_rank.data(), 0, L.shape,
        block_nnz.data() + hb[j], hd[j], keys[0].data(), vals[0].data());
    CUZK_TRY_STATUS(check_launch("msm digits_kernel"));
    CUZK_TRY_STATUS(sort_and_sum(s, E, 0));
  }
  return Status::Ok();
}

// Passes of set groups over sc[0, len) (scalar i0 of the input first; its bases from base_first in
// stage `stage` when streamed): pass r takes these scalars' digits in sets [r·g, (r + 1)·g), at most
// len·m·g <= entries, sorted into and summed over that group's buckets only. count_digits counted
// every group's digits (its `groups` rows); one scan over the rows places each block's digits in
// its pass, and each pass reads the scalars again.
template <class Affine>
Status Msm<Affine>::State::set_group_passes(const Fr* sc, size_t len, size_t i0, size_t base_first, int stage,
                                            bool mont, const uint64_t* dens, unsigned blocks,
                                            const Stream& s) {
  using namespace msm_detail;
  const uint32_t G = L.set_passes, g = L.set_group, S = L.plan.sets;
  const size_t row = size_t(blocks) + 1;
  uint32_t* rows = block_nnz.data() + row;  // row r + 1 of digit_counts_kernel: group r
  size_t tmp = cub_tmp.size();
  CUZK_TRY_STATUS(check(cub::DeviceScan::ExclusiveSum(cub_tmp.data(), tmp, rows, rows, G * row + 1, s.get()),
                        "cub::DeviceScan::ExclusiveSum (set groups)"));
  // Group r's first digit opens its row; the last row's end is the grand total.
  CUZK_TRY_STATUS(check(cudaMemcpy2DAsync(host_passes, sizeof(uint32_t), rows, row * sizeof(uint32_t),
                                          sizeof(uint32_t), G + 1, cudaMemcpyDeviceToHost, s.get()),
                        "cudaMemcpy2DAsync (set group offsets)"));
  CUZK_TRY_STATUS(s.synchronize());
  const uint32_t* first = host_passes;
  for (uint32_t r = 0; r < G; ++r) {
    const uint32_t E = first[r + 1] - first[r];
    if (E == 0) continue;
    if (E > L.entries) return make_error("MSM: a pass of " + std::to_string(E) + " digits overflows");
    const uint32_t lo = r * g, hi = std::min(S, lo + g);
    DigitShape sh = L.shape;
    sh.set_lo = lo;
    sh.set_hi = hi;
    carry_bound_of(sh, std::min(lo * sh.m, sh.W), sh.carry_bound);
    set_group_pass(lo, hi, E);
    if (r > 0) CUZK_TRY_STATUS(mark(0, s));
    // A thread has at most g·m digits here.
    digits_kernel_for(g * sh.m)<<<blocks, kDigitBlock, 0, s.get()>>>(
        sc, uint32_t(len), i0, mont, dens, word_rank.data(), base_first, sh, rows + r * row, first[r],
        keys[0].data(), vals[0].data());
    CUZK_TRY_STATUS(check_launch("msm digits_kernel (set group)"));
    CUZK_TRY_STATUS(sort_and_sum(s, E, stage));
  }
  whole_pass();
  return Status::Ok();
}

template <class Affine>
Result<typename Msm<Affine>::Jacobian> Msm<Affine>::run(const Fr* scalars, size_t n, Memory where,
                                                        ScalarForm form, const Stream& s) {
  return st_->run(scalars, n, nullptr, where, form, s);
}

template <class Affine>
template <class SourceAffine>
bool Msm<Affine>::can_run_sorted_by(const Msm<SourceAffine>& source) const {
  const State& a = *st_;
  const auto& b = *source.st_;
  if (static_cast<const void*>(&a) == static_cast<const void*>(&b) || !a.workspace ||
      a.workspace != b.workspace || a.streamed || b.streamed || !a.have_bases)
    return false;
  if (b.sorted.passes != 1 || b.sorted.stamp != a.workspace->uses()) return false;
  // The same digit layout encodes digits alike and carves the index buffers at the same places.
  return a.L.digit_fields() == b.L.digit_fields() && a.off_entries.data() == b.off_entries.data();
}

template <class Affine>
template <class SourceAffine>
Result<typename Msm<Affine>::Jacobian> Msm<Affine>::run_sorted_by(const Msm<SourceAffine>& source,
                                                                  const Stream& s) {
  if (!can_run_sorted_by(source))
    return make_error("MSM: the source context holds no sorted digits for this one");
  return st_->template run_sorted<SourceAffine>(*source.st_, s);
}

template <class Affine>
Result<typename Msm<Affine>::Jacobian> Msm<Affine>::run(const Fr* scalars, size_t n, const uint64_t* density,
                                                        Memory where, ScalarForm form, const Stream& s) {
  if (!density) return make_error("MSM: null density");
  return st_->run(scalars, n, density, where, form, s);
}

}  // namespace cuzk::cuda
