// Msm<Affine>'s state behind backend/cuda/msm/msm.hpp: the context's buffers, streams and events,
// its creation, its bases and its public calls. The run's steps are msm/pipeline.cuh's. Included by
// msm_g1.cu and msm_g2.cu, one instantiation each, so a 2-core build compiles them in parallel.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "backend/cuda/msm/layout.cuh"
#include "backend/cuda/msm/msm.hpp"
#include "backend/cuda/runtime/staging.hpp"

namespace cuzk::cuda {

template <class Affine>
struct Msm<Affine>::State : msm_detail::Work<Affine> {
  using F = typename Affine::field;
  using Xyzz = curve::xyzz_t<F, typename Affine::params>;
  using W = msm_detail::Work<Affine>;
  using W::base_stage, W::scalar_stage, W::density, W::word_rank, W::block_nnz, W::pass_bounds, W::keys,
      W::vals, W::cub_tmp, W::off_entries, W::counts, W::off_items, W::part, W::buckets, W::item_len,
      W::item_ids, W::lvl_L, W::lvl_A, W::sub_part, W::sub_sums;

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
  Xyzz* host_sets = nullptr;  // pinned: each set's subset sums, or its buckets where the host sums them
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
  CUZK_TRY_STATUS(check(cudaMallocHost(&st->host_sets, lay.plan.sets * msm_detail::kHostPointsPerSet *
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
      CUZK_TRY_STATUS(
          detail::copy_async(st.tables.data(), bases, n * sizeof(Affine),
                             where == Memory::host ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice, s));
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
