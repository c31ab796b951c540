#include "backend/cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <new>
#include <optional>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "backend/cpu/row_check.hpp"
#include "backend/cuda/runtime/device_bases.hpp"
#include "backend/cuda/msm/msm.hpp"
#include "backend/cuda/ntt/ntt.hpp"
#include "backend/cuda/runtime/runtime.hpp"
#include "backend/cuda/runtime/staging.hpp"

namespace cuzk::cuda {
namespace {

std::string mib(size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

size_t popcount_prefix(std::span<const uint64_t> words, size_t bits) {
  size_t count = 0;
  for (size_t w = 0; w < (bits + 63) / 64 && w < words.size(); ++w) {
    uint64_t x = words[w];
    if (w == bits / 64) x &= (uint64_t(1) << (bits % 64)) - 1;
    count += size_t(std::popcount(x));
  }
  return count;
}

// A fingerprint of a base array: its bytes at 64 places, first and last included. Resident
// contexts are found by address and count, and a freed key's address is soon reused by the next
// one; the fingerprint tells them apart.
template <class Affine>
uint64_t fingerprint(std::span<const Affine> bases) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  const size_t n = bases.size(), samples = std::min<size_t>(n, 64);
  for (size_t k = 0; k < samples; ++k) {
    const size_t i = samples == 1 ? 0 : k * (n - 1) / (samples - 1);
    const auto* b = reinterpret_cast<const unsigned char*>(&bases[i]);
    for (size_t j = 0; j < sizeof(Affine); ++j) h = (h ^ b[j]) * 0x100000001b3ull;
  }
  return h;
}

// The mix of a request's scalars (pick_resident_window), from about 4096 evenly spaced samples;
// absent variables of a density-form request count as zero. `on_device`: the scalars' device copy
// (kept by compute_h; the host vector's values are then unspecified), sampled with one strided
// copy on `stream`.
template <class Affine>
Result<ScalarMix> sample_mix(const MsmRequest<Affine>& rq, const Fr* on_device, const Stream& stream) {
  const size_t n = rq.scalars.size(), samples = std::min<size_t>(n, 4096);
  if (samples == 0) return ScalarMix{};
  const size_t stride = n / samples;
  std::vector<Fr> copied;
  if (on_device) {
    copied.resize(samples);
    CUZK_TRY_STATUS(check(cudaMemcpy2DAsync(copied.data(), sizeof(Fr), on_device, stride * sizeof(Fr),
                                            sizeof(Fr), samples, cudaMemcpyDeviceToHost, stream.get()),
                          "cudaMemcpy2DAsync (scalar samples)"));
    CUZK_TRY_STATUS(stream.synchronize());
  }
  const Fr one = Fr::one();
  size_t zeros = 0, ones = 0;
  for (size_t k = 0; k < samples; ++k) {
    const size_t i = k * stride;
    const bool present = rq.density.empty() || ((rq.density[i / 64] >> (i % 64)) & 1);
    const Fr& x = on_device ? copied[k] : rq.scalars[i];
    if (!present || x == Fr::zero())
      ++zeros;
    else if (x == one)
      ++ones;
  }
  return ScalarMix{double(zeros) / double(samples), double(ones) / double(samples)};
}

// An MSM context that keeps its bases on the device between calls.
template <class Affine>
struct ResidentMsm {
  Msm<Affine> ctx;
  size_t bytes;  // its bases in this backend's budget (the work area is shared: Impl::shared_work)
  uint64_t fingerprint;
  uint64_t last_used;  // the call that last used it (Impl::calls)
  // With a DeviceBases store: the device copy the context is bound to. The context holds no handle
  // between calls (Impl::call_holds holds them during one), so the store may evict the bases of an
  // idle context for another key; the next call then rebinds it, or streams.
  const void* bound = nullptr;
};

template <class Affine>
using ResidentMap = std::map<std::pair<const void*, size_t>, ResidentMsm<Affine>>;

}  // namespace

// The window model's constants, in mixed additions' time. For passes of set groups, from the 2^27
// H query alone on the H200 (cuzk_bench_msm, docs/BENCHMARKS.md "Sixteenth session"): from c = 20 to
// 22, 134 M fewer digits saved 58 ms (0.43 ns each) and 18.4 M more buckets cost 33 ms (1.8 ns
// each, mostly the reduction); a pass's digits kernel took 4.7 ms over 2^27 scalars. For passes of
// points, from witness scalars in one pass, c = 16 to 20 (visits 83 and 84, "Eighteenth session"):
// the reduction costs about 4.8 additions per bucket in use on G1 and 7.8 on G2 (whose full
// additions run at a lower occupancy than its accumulation), and a pass's own work per bucket
// (offsets, schedule) hardly shows; 1.5 a pass stands for each pass's start and end of every
// bucket's sum.
constexpr double kGroupBucket = 4.5;     // per bucket in use, once
constexpr double kGroupPassRead = 0.08;  // per scalar and pass
constexpr double kPassBucket = 1.5;      // per bucket and pass of points (every set's stride)
constexpr double kReduceBucketG1 = 5.0;  // per bucket in use, once
constexpr double kReduceBucketG2 = 8.0;

ResidentWindow pick_resident_window(const ResidentWindowQuery& q) {
  const size_t n = q.n, pass = q.pass;
  const double dense = std::max(0.0, 1.0 - q.mix.zero - q.mix.one);
  const double point_passes = std::ceil(double(n) / double(pass));
  const double reduce_bucket = q.g2 ? kReduceBucketG2 : kReduceBucketG1;
  ResidentWindow best{16, false};
  double best_cost = -1;
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
    if (best_cost < 0 || cost < best_cost) best = {c, groups}, best_cost = cost;
  }
  return best;
}

struct CudaBackend::Impl {
  CudaBackendOptions options;
  size_t budget = 0;
  // The stages' buffers, kept for the next stage (device_cache.hpp: each cudaFree waits for the
  // whole device). It holds at most the budget less the resident memory, and outlives every buffer
  // it lends (declared before them).
  DeviceCache cache;
  Stream stream;
  Stream copy_stream;                  // uploads that overlap kernels on `stream`
  cudaEvent_t uploaded = nullptr;      // the last such upload, for `stream` to wait on
  std::unique_ptr<HostStager> stager;  // every copy from or to the caller's host memory
  mutable std::mutex mutex;            // a backend serves one call at a time (one per worker)
  ResidentMap<G1Affine> g1;
  ResidentMap<G2Affine> g2;
  // The work area of every resident context: they run one at a time, so one area, as large as the
  // largest context needs, serves them all. It counts once in `resident`, and goes with the last
  // context.
  std::shared_ptr<MsmWorkspace> shared_work;
  size_t resident = 0, peak = 0;
  uint64_t calls = 0;  // public calls so far; the current one protects the contexts it uses
  // Shared bases the current call uses (DeviceBases handles), released when it returns.
  std::vector<std::shared_ptr<const void>> call_holds;
  std::vector<StagePlan> log;
  // One event per distinct scalar vector of an MSM batch (made on first use, kept for the next).
  std::vector<cudaEvent_t> vector_ready;
  // H kept on the device by compute_h (HRequest::keep_on_device) for the MSM over the caller's `a`
  // (kept_host, as many values as kept_h). It lives until the end of the next call: an MSM over
  // that storage reads it, and nothing else can mistake it for another vector. Outside `resident`
  // (the resident share's cap is for bases and the work area), inside what available() leaves.
  std::optional<DeviceBuffer<Fr>> kept_h;
  const Fr* kept_host = nullptr;
  uint64_t kept_call = 0;

  Impl(const CudaBackendOptions& o, size_t b, Stream s, Stream cs, cudaEvent_t ev,
       std::unique_ptr<HostStager> st)
      : options(o),
        budget(b),
        cache(o.device, [this] { return budget > resident ? budget - resident : 0; }),
        stream(std::move(s)),
        copy_stream(std::move(cs)),
        uploaded(ev),
        stager(std::move(st)) {}
  ~Impl() {
    auto g = DeviceGuard::enter(options.device);
    (void)cudaStreamSynchronize(copy_stream.get());
    (void)cudaEventDestroy(uploaded);
    for (cudaEvent_t e : vector_ready) (void)cudaEventDestroy(e);
  }

  Result<cudaEvent_t> ready_event(size_t k) {
    while (vector_ready.size() <= k) {
      cudaEvent_t e = nullptr;
      CUZK_TRY_STATUS(check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate"));
      vector_ready.push_back(e);
    }
    return vector_ready[k];
  }

  // One public call: one at a time per backend, counted (the contexts it uses are the most recent),
  // on this backend's device; the shared bases it held may be evicted once it returns.
  template <class Call>
  auto serve(Call&& call) -> decltype(call()) {
    std::lock_guard lock(mutex);
    ++calls;
    auto guard = DeviceGuard::enter(options.device);
    if (!guard) return guard.error();
    const DeviceCacheStats before = cache.stats();
    auto out = call();
    call_holds.clear();
    if (kept_h && kept_call != calls) drop_kept_h();
    log_device_blocks(before);
    return out;
  }

  // A stage-log line for the device blocks the call allocated or freed, if any: the operator's
  // record of every cudaMalloc and cudaFree (a proof like the last one has neither).
  void log_device_blocks(const DeviceCacheStats& before) {
    const DeviceCacheStats now = cache.stats();
    if (now.made == before.made && now.freed == before.freed) return;
    log.push_back(
        {"device blocks",
         std::to_string(now.made - before.made) + " allocated (" + mib(now.made_bytes - before.made_bytes) +
             "), " + std::to_string(now.freed - before.freed) + " freed (" +
             mib(now.freed_bytes - before.freed_bytes) + "), " + std::to_string(now.reused - before.reused) +
             " reused; the cache holds " + mib(now.lent_bytes) + " lent and " + mib(now.idle_bytes) + " idle",
         now.made_bytes - before.made_bytes});
    log.back().budget_left = available();
  }

  void drop_kept_h() {
    if (!kept_h) return;
    kept_h.reset();
    kept_host = nullptr;
  }
  // The device copy of a request's scalars kept by the last compute_h, or nullptr.
  template <class Affine>
  const Fr* kept_scalars(const MsmRequest<Affine>& rq) const {
    const bool same = kept_h && rq.scalars.data() == kept_host && rq.scalars.size() <= kept_h->size();
    return same ? kept_h->data() : nullptr;
  }

  size_t kept_bytes() const { return kept_h ? kept_h->size() * sizeof(Fr) : 0; }
  size_t available() const {
    const size_t held = resident + kept_bytes();
    return budget > held ? budget - held : 0;
  }
  void record(const StagePlan& p) {
    log.push_back(p);
    log.back().budget_left = available();
    peak = std::max(peak, resident + kept_bytes() + p.bytes);
  }
  // Stamps the last recorded stage with its wall time.
  void finish(std::chrono::steady_clock::time_point t0) {
    if (!log.empty())
      log.back().ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  Status up(void* dst, const void* src, size_t bytes) { return stager->to_device(dst, src, bytes, stream); }
  Status down(void* dst, const void* src, size_t bytes) { return stager->to_host(dst, src, bytes, stream); }
  // An upload on the copy stream that the compute stream waits for: kernels already queued on the
  // compute stream run while the host fills the staging slots.
  Status up_overlapped(void* dst, const void* src, size_t bytes) {
    CUZK_TRY_STATUS(stager->to_device(dst, src, bytes, copy_stream));
    CUZK_TRY_STATUS(check(cudaEventRecord(uploaded, copy_stream.get()), "cudaEventRecord"));
    return check(cudaStreamWaitEvent(stream.get(), uploaded, 0), "cudaStreamWaitEvent");
  }

  // The H stage's plan: where its vectors of 2^log_n live and how the rows are checked. Vectors
  // go first into the MSM work area, which no MSM uses while H is computed (this backend serves
  // one call at a time, in stream order), so a large work area (passes of 2^25 points) costs the H
  // stage nothing.
  static constexpr const char* kHChecked = "a, b, c resident, rows checked beside";
  static constexpr const char* kHResident = "a, b, c resident";
  struct HPlan {
    enum class Kind { checked, resident, lean } kind;
    size_t borrowed = 0;  // vectors placed in the MSM work area
    size_t chunk = 0;     // lean: b and c stream through two buffers of this many elements
    StagePlan stage;      // bytes: what the stage allocates beyond the resident memory
    bool keep = false;    // h stays on the device in a, which is allocated (never borrowed)
  };

  // With `keep`, a (the result) is allocated, never borrowed: the MSMs that read it next use the
  // work area.
  Result<HPlan> plan_h(unsigned log_n, bool check_rows, bool keep = false) const {
    const size_t n = size_t(1) << log_n;
    const size_t vec = n * sizeof(Fr);
    const size_t fixed = NttPlan::device_bytes_for(log_n) + 4 * (size_t(2) << ((log_n + 1) / 2)) * sizeof(Fr);
    const size_t avail = available();
    const size_t in_work_area = shared_work ? shared_work->bytes() / vec : 0;
    const std::string name = "h 2^" + std::to_string(log_n);
    const auto plan = [&](HPlan::Kind kind, size_t vectors, const std::string& choice,
                          size_t chunk = 0) -> std::optional<HPlan> {
      const size_t borrowed = std::min(vectors - (keep ? 1 : 0), in_work_area);
      const size_t bytes = (vectors - borrowed) * vec + fixed + 2 * chunk * sizeof(Fr);
      if (bytes > avail) return std::nullopt;
      const std::string where = (borrowed ? "; " + std::to_string(borrowed) + " of " +
                                                std::to_string(vectors) + " vectors in the MSM work area"
                                          : "") +
                                (keep ? "; h kept on the device" : "");
      return HPlan{kind, borrowed, chunk, StagePlan{name, choice + where, bytes}, keep};
    };
    // A fourth vector keeps a·b for the row check, so each transform still starts as soon as its
    // vector has crossed instead of after all three have.
    if (check_rows)
      if (auto p = plan(HPlan::Kind::checked, 4, kHChecked)) return *p;
    if (auto p = plan(HPlan::Kind::resident, 3, kHResident)) return *p;
    // One vector on the device; b and c transformed one at a time through it, then streamed back
    // in chunks for the pointwise step.
    for (size_t chunk = std::min<size_t>(n, size_t(1) << 22); chunk >= (size_t(1) << 12); chunk /= 2)
      if (auto p = plan(HPlan::Kind::lean, 1,
                        "one vector + b, c streamed in chunks of " + std::to_string(chunk), chunk))
        return *p;
    return make_error("device " + std::to_string(options.device) + ": the H stage of 2^" +
                      std::to_string(log_n) + " needs at least " + mib(vec + fixed + 2 * 4096 * sizeof(Fr)) +
                      " but the budget leaves " + mib(avail) + " (budget " + mib(budget) + ", resident " +
                      mib(resident) + ")");
  }

  Status compute_h(const HRequest& rq) {
    const unsigned log_n = rq.log_n;
    CUZK_TRY_STATUS(check_h_request(rq));
    drop_kept_h();
    auto plan = plan_h(log_n, rq.check_rows > 0, rq.keep_on_device);
    // Resident bases of other parameter sets (not used by this call) give way before a stage fails.
    while (!plan && evict_one_idle()) plan = plan_h(log_n, rq.check_rows > 0, rq.keep_on_device);
    if (!plan && rq.keep_on_device) plan = plan_h(log_n, rq.check_rows > 0);  // then h comes back
    if (!plan) return plan.error();
    record(plan->stage);
    const auto t0 = std::chrono::steady_clock::now();
    CUZK_TRY_STATUS(compute_h_planned(rq, *plan));
    finish(t0);
    return Status::Ok();
  }

  // The row check's verdict: the least failing row, left on the device by first_unsatisfied and
  // read once the stage's result has come back (to_host synchronizes), so that the check never
  // stalls the queue. A failing row is a bad-input error (cpu::unsatisfied_row_error), the same as
  // the host check's.
  struct RowVerdict {
    DeviceBuffer<unsigned long long> first;
    size_t rows = 0;
    // Queues the check a_j·b_j = c_j for j < rows on `s` (`first` is allocated before the stage
    // queues anything: cudaMalloc may wait for the device); a null b stands for ones (a then holds
    // the products).
    Status queue(const Stream& s, const Fr* a, const Fr* b, const Fr* c) {
      return first_unsatisfied(s, a, b, c, rows, first.data());
    }
    Status read(const Stream& s) const {
      if (rows == 0) return Status::Ok();
      unsigned long long row = 0;
      CUZK_TRY_STATUS(first.download(&row, 1, s));
      CUZK_TRY_STATUS(s.synchronize());
      return row < rows ? cpu::unsatisfied_row_error(size_t(row)) : Status::Ok();
    }
  };

  Status compute_h_planned(const HRequest& rq, const HPlan& plan) {
    const unsigned log_n = rq.log_n;
    const size_t n = size_t(1) << log_n;
    const bool lean = plan.kind == HPlan::Kind::lean;
    const Stream& s = stream;

    auto ntt = NttPlan::create(s, log_n, rq.convention, {}, &cache);
    if (!ntt) return ntt.error();
    // The inverse transforms skip their n^-1, a multiplication per element each (2^27 at a time):
    // before a coset forward it is folded into the forward coset table, and the coset inverse and
    // c's inverse (bellman's H) leave it to z. Bellman divides by Z(g·ω^j) = g^n − 1 on the coset
    // (times n^-1 here); z is folded into the inverse coset table and c's inverse. snarkjs does
    // not divide, and has no coset inverse.
    const Fr n_inv = Fr::from_u64(uint64_t(n)).inverse();
    const Fr shift = ntt->default_coset_shift(log_n);
    const Fr z = rq.mode == HMode::divide_by_z_on_coset
                     ? (shift.pow(uint64_t(n)) - Fr::one()).inverse() * n_inv
                     : Fr::one();
    auto coset = ntt->coset_powers(s, log_n, shift, &cache, NttCosetFactors{n_inv, z});
    if (!coset) return coset.error();
    // Domain evaluations → coefficients (bit-reversed, times n) → coset evaluations (natural).
    const auto to_coset = [&](Fr* d, const NttTap& tap = {}) { return ntt->to_coset(s, d, *coset, tap); };

    // Every buffer is taken before anything is queued (a new block's cudaMalloc may wait for the
    // device) and given back to the cache at the end: the first plan.borrowed vectors are slices of
    // the MSM work area, the others blocks of the cache. Copies into either go on the copy stream,
    // after the compute stream's earlier work (the last call's MSMs may still read the block).
    std::vector<DeviceBuffer<Fr>> owned;
    size_t borrowed = 0;
    // A plan that keeps h allocates a (the first vector) and borrows the others.
    const bool keep = plan.keep;
    const auto vector = [&]() -> Result<Fr*> {
      const bool own = keep && owned.empty() && borrowed == 0;
      if (!own && borrowed < plan.borrowed)
        return reinterpret_cast<Fr*>(shared_work->data()) + n * borrowed++;
      auto buf = cache.take<Fr>(n);
      if (!buf) return buf.error();
      owned.push_back(std::move(*buf));
      return owned.back().data();
    };
    if (plan.borrowed) shared_work->touch();  // the sorted digits an MSM left there are overwritten
    CUZK_TRY_STATUS(check(cudaEventRecord(uploaded, stream.get()), "cudaEventRecord"));
    CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy_stream.get(), uploaded, 0), "cudaStreamWaitEvent"));
    auto a = vector();
    if (!a) return a.error();
    RowVerdict verdict;
    if (rq.check_rows && !lean) {
      auto first = cache.take<unsigned long long>(1);
      if (!first) return first.error();
      verdict = RowVerdict{std::move(*first), rq.check_rows};
    }
    if (!lean) {
      auto b = vector();
      if (!b) return b.error();
      auto c = vector();
      if (!c) return c.error();
      // Each vector's upload (host threads + DMA on the copy stream) overlaps the transforms of
      // the one before it. The row check is a few ms of device work instead of a pass over 12 GB
      // on the host's cores: beside the transforms when a fourth vector fits (a copied, then times
      // b, by the first pass of each one's transform; then against c), else before them, once all
      // three have crossed.
      if (rq.check_rows && plan.kind == HPlan::Kind::checked) {
        auto ab = vector();
        if (!ab) return ab.error();
        CUZK_TRY_STATUS(up_overlapped(*a, rq.a.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(to_coset(*a, NttTap{*ab, rq.check_rows, false}));
        CUZK_TRY_STATUS(up_overlapped(*b, rq.b.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(to_coset(*b, NttTap{*ab, rq.check_rows, true}));
        CUZK_TRY_STATUS(up_overlapped(*c, rq.c.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(verdict.queue(s, *ab, nullptr, *c));
      } else if (rq.check_rows) {
        CUZK_TRY_STATUS(up_overlapped(*a, rq.a.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(up_overlapped(*b, rq.b.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(up_overlapped(*c, rq.c.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(verdict.queue(s, *a, *b, *c));
        CUZK_TRY_STATUS(to_coset(*a));
        CUZK_TRY_STATUS(to_coset(*b));
      } else if (rq.c_from_ab) {
        // c = a∘b formed here: a copied by its transform's first pass, times b by b's, instead
        // of 4 GiB crossing the bus.
        CUZK_TRY_STATUS(up_overlapped(*a, rq.a.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(to_coset(*a, NttTap{*c, n, false}));
        CUZK_TRY_STATUS(up_overlapped(*b, rq.b.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(to_coset(*b, NttTap{*c, n, true}));
      } else {
        CUZK_TRY_STATUS(up_overlapped(*a, rq.a.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(to_coset(*a));
        CUZK_TRY_STATUS(up_overlapped(*b, rq.b.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(to_coset(*b));
        CUZK_TRY_STATUS(up_overlapped(*c, rq.c.data(), n * sizeof(Fr)));
      }
      if (rq.mode == HMode::divide_by_z_on_coset) {
        // Six transforms instead of seven. The coset inverse is linear and undoes the coset
        // forward, so icoset(A∘B − C on the coset) = icoset(A∘B) − iNTT(c): c needs only its
        // inverse, never the coset. c's goes first (times z), so that the coset inverse reads
        // b in its first pass and subtracts c in its last: both bit-reversed (no permutation
        // pass), and one reversal puts h in natural order.
        CUZK_TRY_STATUS(ntt->inverse_scaled(s, *c, log_n, z, NttOrder::natural, NttOrder::bit_reversed));
        CUZK_TRY_STATUS(
            ntt->coset_inverse_of_product(s, *a, *b, *c, *coset, NttOrder::natural, NttOrder::bit_reversed));
        CUZK_TRY_STATUS(bit_reverse(s, *a, log_n));
        CUZK_TRY_STATUS(verdict.read(s));  // a bad witness leaves the caller's a as it was
        return deliver_h(rq, *a, keep ? &owned.front() : nullptr);
      }
      CUZK_TRY_STATUS(to_coset(*c));
      CUZK_TRY_STATUS(mul_sub_scale(s, *a, *b, *c, z, n));
    } else {
      // b and c through the one device vector, back to host memory as coset evaluations. Without
      // room for all three on the device, the rows are checked on the host, and c = a∘b (when the
      // caller left it out) is formed there: this plan keeps a vector per side on the host.
      std::vector<Fr> formed_c;
      auto c = cpu::host_c_values(rq, formed_c);
      if (!c) return c.error();
      const std::span<Fr> host_c = *c;
      CUZK_TRY_STATUS(cpu::check_rows(rq.a.data(), rq.b.data(), host_c.data(), rq.check_rows));
      for (std::span<Fr> v : {rq.b, host_c}) {
        CUZK_TRY_STATUS(up(*a, v.data(), n * sizeof(Fr)));
        CUZK_TRY_STATUS(to_coset(*a));
        CUZK_TRY_STATUS(down(v.data(), *a, n * sizeof(Fr)));
      }
      CUZK_TRY_STATUS(up(*a, rq.a.data(), n * sizeof(Fr)));
      CUZK_TRY_STATUS(to_coset(*a));
      const size_t chunk = plan.chunk;
      auto sb = cache.take<Fr>(chunk);
      if (!sb) return sb.error();
      auto sc = cache.take<Fr>(chunk);
      if (!sc) return sc.error();
      for (size_t off = 0; off < n; off += chunk) {
        const size_t len = std::min(chunk, n - off);
        CUZK_TRY_STATUS(up(sb->data(), rq.b.data() + off, len * sizeof(Fr)));
        CUZK_TRY_STATUS(up(sc->data(), host_c.data() + off, len * sizeof(Fr)));
        // z waits in the coset inverse's table (bellman); snarkjs's is 1.
        CUZK_TRY_STATUS(mul_sub_scale(s, *a + off, sb->data(), sc->data(), Fr::one(), len));
      }
    }
    if (rq.mode == HMode::divide_by_z_on_coset)
      CUZK_TRY_STATUS(ntt->coset_inverse(s, *a, *coset, NttOrder::natural, NttOrder::natural));
    CUZK_TRY_STATUS(verdict.read(s));
    return deliver_h(rq, *a, keep ? &owned.front() : nullptr);
  }

  // The result to the caller's a, or (a plan that keeps h: `own` is the buffer holding it) kept
  // on the device for the next call's MSM over a.
  Status deliver_h(const HRequest& rq, const Fr* a, DeviceBuffer<Fr>* own) {
    if (!own) return down(rq.a.data(), a, rq.a.size() * sizeof(Fr));
    kept_h.emplace(std::move(*own));
    kept_host = rq.a.data();
    kept_call = calls;
    return Status::Ok();
  }

  template <class Affine>
  ResidentMap<Affine>& resident_map();

  // Frees the least recently used resident context not used by the current call; false if none.
  bool evict_one_idle() {
    uint64_t oldest = calls;
    int group = -1;
    for (const auto& [k, r] : g1)
      if (r.last_used < oldest) oldest = r.last_used, group = 1;
    for (const auto& [k, r] : g2)
      if (r.last_used < oldest) oldest = r.last_used, group = 2;
    const auto drop = [&](auto& map) {
      for (auto it = map.begin(); it != map.end(); ++it)
        if (it->second.last_used == oldest) {
          resident -= it->second.bytes;
          map.erase(it);
          return;
        }
    };
    if (group == 1) drop(g1);
    if (group == 2) drop(g2);
    if (g1.empty() && g2.empty()) release_shared_work();
    return group > 0;
  }

  void release_shared_work() {
    if (!shared_work) return;
    resident -= shared_work->bytes();
    shared_work.reset();
  }

  // A request's shape, checked: n scalars, nb bases, the stage's name.
  template <class Affine>
  struct Shape {
    size_t n = 0, nb = 0, max_points = 0;
    bool dense = true;
    std::string stage;
  };
  template <class Affine>
  Result<Shape<Affine>> shape_of(const MsmRequest<Affine>& rq) const {
    Shape<Affine> sh;
    sh.n = rq.scalars.size();
    sh.nb = rq.bases.size();
    sh.dense = rq.density.empty();
    if (sh.dense && sh.nb != sh.n)
      return make_error("msm: " + std::to_string(sh.nb) + " bases for " + std::to_string(sh.n) + " scalars");
    if (!sh.dense) {
      if (rq.density.size() < (sh.n + 63) / 64)
        return make_error("msm: density bitmap shorter than the scalars");
      const size_t present = popcount_prefix(rq.density, sh.n);
      if (present != sh.nb)
        return make_error("msm: density marks " + std::to_string(present) + " scalars but there are " +
                          std::to_string(sh.nb) + " bases");
    }
    sh.max_points = std::max(sh.n, sh.nb);
    const char* group = sizeof(Affine) == sizeof(G1Affine) ? "g1" : "g2";
    sh.stage = std::string("msm ") + group + " " + std::to_string(sh.nb) + " bases";
    return sh;
  }

  // The device copy of a request's bases in the shared store (uploaded if absent), held until the
  // end of the current call; a null handle when the store has no room beside the bases in use.
  template <class Affine>
  Result<std::shared_ptr<const DeviceBuffer<Affine>>> shared_bases_for(const MsmRequest<Affine>& rq,
                                                                       uint64_t print) {
    auto got = options.shared_bases->get(rq.bases, print, stager.get(), stream);
    if (got && *got) call_holds.push_back(*got);
    return got;
  }

  // The resident context of these bases, made if the resident share of the budget allows; nullptr
  // when it does not (the caller streams). A context made here samples the scalars for its window
  // from `device_scalars` when given (the caller may have reused its host copy: msm_batch).
  template <class Affine>
  Result<Msm<Affine>*> resident_context(const MsmRequest<Affine>& rq, const Shape<Affine>& sh,
                                        const Fr* device_scalars = nullptr) {
    auto& map = resident_map<Affine>();
    const auto key = std::make_pair(static_cast<const void*>(rq.bases.data()), sh.nb);
    const uint64_t print = fingerprint(rq.bases);
    if (auto it = map.find(key); it != map.end()) {
      if (it->second.fingerprint == print) {
        it->second.last_used = calls;
        if (!options.shared_bases) return &it->second.ctx;
        auto got = shared_bases_for(rq, print);
        if (!got) return got.error();
        if (!*got) {  // the store is full of bases other calls are using: stream this time
          resident -= it->second.bytes;
          map.erase(it);
          return static_cast<Msm<Affine>*>(nullptr);
        }
        if ((*got)->data() != it->second.bound) {  // evicted and uploaded again since the last call
          CUZK_TRY_STATUS(it->second.ctx.set_bases((*got)->data(), sh.nb, Memory::device, stream));
          it->second.bound = (*got)->data();
        }
        return &it->second.ctx;
      }
      resident -= it->second.bytes;  // another array now lives at that address
      map.erase(it);
    }
    // Bases stay; the work buffers (digits, sort, buckets) grow with the points per pass, so a
    // resident context works in passes of at most `pass` points, in the work area all resident
    // contexts share: the resident memory is then mostly bases, and every base array of a 2^27
    // proof fits on a large card. (Passes of 2^25 beat 2^24 by 14 % on the MSMs of a 2^26 proof
    // on the H200. Passes of 2^26 gain 2 % on a 2^27 proof but need a work area that two workers
    // sharing the card do not have; device scalars that are mostly 0 and 1 take one pass anyway,
    // as the MSM cuts passes by digits.)
    MsmConfig cfg;
    cfg.precompute = options.precompute;
    // With a DeviceBases store the bases live there, outside this backend's budget, which then
    // holds only the work area.
    const bool shared_bases = options.shared_bases != nullptr;
    cfg.referenced_bases = shared_bases;
    cfg.narrow_windows = options.msm_narrow_windows;
    cfg.max_bases = sh.nb;  // density form: tables for the present variables only
    const double cap = options.resident_fraction * double(budget);
    const size_t own_work = shared_work ? shared_work->bytes() : 0;
    auto mix = sample_mix(rq, device_scalars ? device_scalars : kept_scalars(rq), stream);
    if (!mix) return mix.error();
    // Passes of the configured size (2^25 by default), halved down to 2^22 while the context would
    // not fit the resident share: smaller passes are slower, streamed bases far slower.
    size_t pass = options.resident_pass_points ? options.resident_pass_points : size_t(1) << 25;
    Result<MsmPlan> rp = make_error("no plan");
    for (;;) {
      cfg.chunk_points = sh.max_points > pass ? pass : 0;
      // The window suits the points per pass (every pass sorts into and merges all buckets, unless
      // passes take groups of sets) and the scalars: the first request's stand for the later ones
      // (the same circuit, other witnesses). Set groups may pick a wider window, whose buckets need
      // more room; when that does not fit, passes of points at this size come before smaller ones.
      bool fits = false;
      for (bool allowed : {options.msm_set_passes, false}) {
        const ResidentWindow pick = pick_resident_window({.n = sh.max_points,
                                                          .pass = pass,
                                                          .precompute = cfg.precompute,
                                                          .mix = *mix,
                                                          .g2 = sizeof(typename Affine::field) > 48,
                                                          .bucket_cost = options.window_bucket_cost,
                                                          .set_passes = allowed,
                                                          .narrow = cfg.narrow_windows});
        const bool groups = pick.by_sets;
        cfg.window_bits = pick.c;
        cfg.set_passes = groups;
        rp = Msm<Affine>::plan(sh.max_points, cfg, false);
        if (!rp) return rp.error();
        fits = double(resident - own_work + rp->base_bytes + std::max(rp->work_bytes, own_work)) <= cap;
        if (fits || !groups) break;
      }
      if (fits || pass <= (size_t(1) << 22)) break;
      pass /= 2;
    }
    // Its bases, and the growth of the shared work area if it needs a larger one (the old area is
    // held until every context has moved, so the peak counts both).
    const auto needed = [&] {
      const size_t have = shared_work ? shared_work->bytes() : 0;
      return rp->base_bytes + (rp->work_bytes > have ? rp->work_bytes : 0);
    };
    // Contexts this call has not used (other parameter sets) give way, least recently used first.
    while (double(resident + needed()) > cap && evict_one_idle()) {
    }
    if (double(resident + needed()) > cap) return static_cast<Msm<Affine>*>(nullptr);
    std::shared_ptr<const DeviceBuffer<Affine>> on_device;
    if (shared_bases) {
      auto got = shared_bases_for(rq, print);
      if (!got) return got.error();
      if (!*got) return static_cast<Msm<Affine>*>(nullptr);  // the store is full: stream
      on_device = std::move(*got);
    }
    record({sh.stage,
            std::string(shared_bases ? "made resident (bases shared by the device's workers)"
                                     : "made resident") +
                "; window " + std::to_string(cfg.window_bits) +
                (cfg.chunk_points ? ", passes of " + std::to_string(cfg.chunk_points) + " points" +
                                        (cfg.set_passes ? " by set groups" : "")
                                  : ", one pass"),
            needed()});
    const auto t0 = std::chrono::steady_clock::now();
    cache.trim(needed());
    if (!shared_work || shared_work->bytes() < rp->work_bytes) {
      auto grown = MsmWorkspace::create(options.device, rp->work_bytes);
      if (!grown) return grown.error();
      for (auto& [k, r] : g1) CUZK_TRY_STATUS(r.ctx.use_workspace(*grown));
      for (auto& [k, r] : g2) CUZK_TRY_STATUS(r.ctx.use_workspace(*grown));
      release_shared_work();
      shared_work = std::move(*grown);
      resident += shared_work->bytes();
    }
    auto made = Msm<Affine>::create(options.device, sh.max_points, cfg, false, shared_work);
    if (!made) return made.error();
    made->set_stager(stager.get());
    if (on_device)
      CUZK_TRY_STATUS(made->set_bases(on_device->data(), sh.nb, Memory::device, stream));
    else
      CUZK_TRY_STATUS(made->set_bases(rq.bases.data(), sh.nb, Memory::host, stream));
    auto it =
        map.emplace(key, ResidentMsm<Affine>{std::move(*made), rp->base_bytes, print, calls, on_device.get()})
            .first;
    resident += rp->base_bytes;
    finish(t0);
    return &it->second.ctx;
  }

  // The largest chunk, then the widest window, whose streamed plan fits in `avail`.
  template <class Affine>
  void search_streamed(const Shape<Affine>& sh, size_t avail, std::optional<MsmConfig>& chosen,
                       size_t& bytes) {
    for (size_t chunk = sh.max_points; !chosen && chunk >= 1024; chunk = chunk > 1024 ? chunk / 2 : 0) {
      const unsigned widest = msm_pick_window(chunk, 1);
      for (unsigned c = widest; !chosen && c >= 4; c = c > 6 ? c - 2 : c - 1) {
        MsmConfig cfg;
        cfg.chunk_points = chunk < sh.max_points ? chunk : 0;
        cfg.window_bits = c;
        auto p = Msm<Affine>::plan(sh.max_points, cfg, true);
        if (!p) continue;  // a shape the kernels do not take (e.g. chunk × windows ≥ 2^32): smaller
        if (p->total_bytes() <= avail) {
          chosen = cfg;
          bytes = p->total_bytes();
        }
      }
      if (chunk < 1024 * 2) break;
    }
  }

  // A context that streams the bases from the host, sized to the budget left: buckets scale with
  // the window (2^(c-1) per window) and staging with the chunk, so the largest chunk is tried
  // first and, for each, windows from the cost model's choice down to narrow ones.
  template <class Affine>
  Result<Msm<Affine>> streamed_context(const MsmRequest<Affine>& rq, const Shape<Affine>& sh) {
    std::optional<MsmConfig> chosen;
    size_t bytes = 0, avail = 0;
    // Resident bases of other parameter sets give way while the best plan is small chunks or none.
    do {
      chosen.reset();
      avail = available();
      search_streamed(sh, avail, chosen, bytes);
    } while ((!chosen || (chosen->chunk_points && chosen->chunk_points < (size_t(1) << 22))) &&
             evict_one_idle());
    if (!chosen)
      return make_error("device " + std::to_string(options.device) + ": " + sh.stage +
                        " does not fit in the budget left (" + mib(avail) + " of " + mib(budget) + ")");
    record(
        {sh.stage,
         chosen->chunk_points ? "streamed in chunks of " + std::to_string(chosen->chunk_points) : "streamed",
         bytes});
    cache.trim(bytes);
    auto made = Msm<Affine>::create(options.device, sh.max_points, *chosen, true);
    if (!made) return made.error();
    made->set_stager(stager.get());
    CUZK_TRY_STATUS(made->set_bases(rq.bases.data(), sh.nb, Memory::host, stream));
    return std::move(*made);
  }

  // Runs one request on a context; `scalars` is the request's own host vector, or a copy of it
  // already on the device.
  template <class Affine>
  Result<curve::jacobian_t<typename Affine::field, typename Affine::params>> run_on(
      Msm<Affine>& ctx, const MsmRequest<Affine>& rq, const Shape<Affine>& sh, const Fr* scalars,
      Memory where) {
    const auto t0 = std::chrono::steady_clock::now();
    auto out = sh.dense ? ctx.run(scalars, sh.n, where, ScalarForm::montgomery, stream)
                        : ctx.run(scalars, sh.n, rq.density.data(), where, ScalarForm::montgomery, stream);
    finish(t0);
    return out;
  }

  template <class Affine>
  Result<curve::jacobian_t<typename Affine::field, typename Affine::params>> msm(
      const MsmRequest<Affine>& rq, const Fr* device_scalars = nullptr) {
    using Jacobian = curve::jacobian_t<typename Affine::field, typename Affine::params>;
    auto sh = shape_of(rq);
    if (!sh) return sh.error();
    if (sh->n == 0 || sh->nb == 0) return Jacobian::infinity();
    if (!device_scalars) device_scalars = kept_scalars(rq);
    const Fr* scalars = device_scalars ? device_scalars : rq.scalars.data();
    const Memory where = device_scalars ? Memory::device : Memory::host;
    auto ctx = resident_context(rq, *sh, device_scalars);
    if (!ctx) return ctx.error();
    if (*ctx) {
      record({sh->stage, "resident (reused)", 0});
      return run_on(**ctx, rq, *sh, scalars, where);
    }
    auto streamed = streamed_context(rq, *sh);
    if (!streamed) return streamed.error();
    return run_on(*streamed, rq, *sh, scalars, where);
  }

  // Whether `b`'s MSM can take `a`'s sorted digits (b of either curve): the same scalars, and the
  // same variables present in both (every one, or one density bitmap over as many bases: shape_of
  // has checked that the bases count the present ones, so the digits name the same base ranks).
  template <class A, class B>
  static bool same_digits(const MsmRequest<A>& a, const MsmRequest<B>& b) {
    if (a.scalars.data() != b.scalars.data() || a.scalars.size() != b.scalars.size() || a.scalars.empty())
      return false;
    const auto all_present = [](const auto& r) {
      return r.density.empty() || r.bases.size() == r.scalars.size();
    };
    if (all_present(a) && all_present(b)) return true;
    return a.density.data() == b.density.data() && a.density.size() == b.density.size() &&
           a.bases.size() == b.bases.size();
  }

  // `rq` over the digits the MSM of `source` (same_digits, run just before on this backend) sorted,
  // when both contexts are resident with the same digit layout; nothing when they are not.
  template <class Affine, class SourceAffine>
  Result<std::optional<curve::jacobian_t<typename Affine::field, typename Affine::params>>> msm_sorted_by(
      const MsmRequest<Affine>& rq, const MsmRequest<SourceAffine>& source) {
    using Out = std::optional<curve::jacobian_t<typename Affine::field, typename Affine::params>>;
    auto sh = shape_of(rq), src_sh = shape_of(source);
    if (!sh) return sh.error();
    if (!src_sh) return src_sh.error();
    auto& map = resident_map<SourceAffine>();
    const auto src = map.find(std::make_pair(static_cast<const void*>(source.bases.data()), src_sh->nb));
    if (src == map.end()) return Out{};
    auto ctx = resident_context(rq, *sh);
    if (!ctx) return ctx.error();
    if (!*ctx || !(*ctx)->can_run_sorted_by(src->second.ctx)) return Out{};
    record({sh->stage, "resident (reused), digits sorted by the MSM before", 0});
    const auto t0 = std::chrono::steady_clock::now();
    auto r = (*ctx)->run_sorted_by(src->second.ctx, stream);
    finish(t0);
    if (!r) return r.error();
    return Out{*r};
  }

  // The MSMs of one proof. When every base array is resident and the distinct scalar vectors fit
  // beside them, each vector crosses PCIe once (the aux assignment feeds four MSMs); otherwise the
  // requests run one by one, each streaming what it needs.
  Result<MsmBatchResult> msm_batch(const MsmBatch& batch) {
    bool all_resident = true;
    std::map<std::pair<const Fr*, size_t>, const Fr*> distinct;
    const auto prepare = [&](const auto& rq) -> Status {
      auto sh = shape_of(rq);
      if (!sh) return sh.error();
      if (sh->n == 0 || sh->nb == 0) return Status::Ok();
      auto ctx = resident_context(rq, *sh);
      if (!ctx) return ctx.error();
      all_resident = all_resident && *ctx != nullptr;
      if (!kept_scalars(rq)) distinct.emplace(std::make_pair(rq.scalars.data(), sh->n), nullptr);
      return Status::Ok();
    };
    for (const auto& rq : batch.g1) CUZK_TRY_STATUS(prepare(rq));
    for (const auto& rq : batch.g2) CUZK_TRY_STATUS(prepare(rq));
    // Sharing is only worth it when some vector is used more than once.
    size_t shared_n = 0;
    for (const auto& [key, ptr] : distinct) shared_n += key.second;
    const size_t requests = batch.g1.size() + batch.g2.size();
    std::optional<DeviceBuffer<Fr>> shared;
    std::map<std::pair<const Fr*, size_t>, cudaEvent_t> ready;  // each vector's upload, on copy_stream
    // Copies still queued when this returns early must not outlive the buffer they write.
    struct DrainCopies {
      const Stream& s;
      ~DrainCopies() { (void)cudaStreamSynchronize(s.get()); }
    } drain{copy_stream};
    if (all_resident && distinct.size() < requests && shared_n * sizeof(Fr) <= available()) {
      record(
          {"msm scalars", std::to_string(distinct.size()) + " vectors uploaded once", shared_n * sizeof(Fr)});
      const auto t0 = std::chrono::steady_clock::now();
      auto buf = cache.take<Fr>(shared_n);
      if (!buf) return buf.error();
      // The vectors cross on the copy stream in the order the requests first use them (the H
      // query's first), and each MSM waits for its own vector only: from pinned memory (the
      // engine's pooled sets) the H query starts while the wires still cross PCIe. The copies
      // come after the compute stream's earlier work.
      CUZK_TRY_STATUS(check(cudaEventRecord(uploaded, stream.get()), "cudaEventRecord"));
      CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy_stream.get(), uploaded, 0), "cudaStreamWaitEvent"));
      size_t off = 0;
      const auto upload = [&](const auto& rq) -> Status {
        const auto key = std::make_pair(rq.scalars.data(), rq.scalars.size());
        auto it = distinct.find(key);
        if (it == distinct.end() || it->second) return Status::Ok();  // empty, or already queued
        auto ev = ready_event(ready.size());
        if (!ev) return ev.error();
        CUZK_TRY_STATUS(
            stager->to_device(buf->data() + off, key.first, key.second * sizeof(Fr), copy_stream));
        CUZK_TRY_STATUS(check(cudaEventRecord(*ev, copy_stream.get()), "cudaEventRecord"));
        it->second = buf->data() + off;
        ready.emplace(key, *ev);
        off += key.second;
        return Status::Ok();
      };
      for (const auto& rq : batch.g1) CUZK_TRY_STATUS(upload(rq));
      for (const auto& rq : batch.g2) CUZK_TRY_STATUS(upload(rq));
      shared.emplace(std::move(*buf));
      finish(t0);
    }
    // The request's vector on the device (nullptr: none), with the compute stream waiting for it.
    const auto device_copy = [&](const auto& rq) -> Result<const Fr*> {
      if (const Fr* kept = kept_scalars(rq)) return kept;
      if (!shared) return static_cast<const Fr*>(nullptr);
      const auto key = std::make_pair(rq.scalars.data(), rq.scalars.size());
      auto it = distinct.find(key);
      if (it == distinct.end()) return static_cast<const Fr*>(nullptr);
      CUZK_TRY_STATUS(check(cudaStreamWaitEvent(stream.get(), ready.at(key), 0), "cudaStreamWaitEvent"));
      return it->second;
    };
    // The caller may reuse its host scalars once their copies have landed (each MSM then reads its
    // device copy, so after the first one they are surely done), or, without the shared copies,
    // once the last MSM has streamed what it needs.
    bool host_read_done = false;
    const auto host_scalars_read = [&]() -> Status {
      if (host_read_done || !batch.host_scalars_read) return Status::Ok();
      for (const auto& [key, ev] : ready)
        CUZK_TRY_STATUS(check(cudaEventSynchronize(ev), "cudaEventSynchronize"));
      host_read_done = true;
      batch.host_scalars_read();
      return Status::Ok();
    };
    MsmBatchResult out;
    out.g1.resize(batch.g1.size());
    out.g2.resize(batch.g2.size());
    std::vector<char> done1(batch.g1.size(), 0), done2(batch.g2.size(), 0);
    // The first of requests[from ..) over the digits `rq` sorted (L and A's auxiliary part when every
    // variable is in A; B's G1 and G2 queries, which share scalars and density) runs right after it,
    // on those digits, when the two contexts' digit layouts match. False: there is none.
    const auto run_paired = [&](const auto& rq, const auto& requests, std::vector<char>& done, auto& results,
                                size_t from) -> Result<bool> {
      for (size_t j = from; j < requests.size(); ++j) {
        if (done[j] || !same_digits(rq, requests[j])) continue;
        auto paired = msm_sorted_by(requests[j], rq);
        if (!paired) return paired.error();
        if (paired->has_value()) {
          results[j] = **paired;
          done[j] = 1;
        }
        return true;
      }
      return false;
    };
    // Each request not yet done, then its pair: among the later G1 requests first, then the G2 ones.
    const auto run_all = [&](const auto& requests, std::vector<char>& done, auto& results,
                             bool g1) -> Status {
      for (size_t i = 0; i < requests.size(); ++i) {
        if (done[i]) continue;
        const auto& rq = requests[i];
        auto on_device = device_copy(rq);
        if (!on_device) return on_device.error();
        auto r = msm(rq, *on_device);
        if (!r) return r.error();
        results[i] = *r;
        if (shared) CUZK_TRY_STATUS(host_scalars_read());
        auto in_g1 = run_paired(rq, batch.g1, done1, out.g1, g1 ? i + 1 : batch.g1.size());
        if (!in_g1) return in_g1.error();
        if (*in_g1) continue;
        auto in_g2 = run_paired(rq, batch.g2, done2, out.g2, g1 ? 0 : i + 1);
        if (!in_g2) return in_g2.error();
      }
      return Status::Ok();
    };
    CUZK_TRY_STATUS(run_all(batch.g1, done1, out.g1, true));
    CUZK_TRY_STATUS(run_all(batch.g2, done2, out.g2, false));
    CUZK_TRY_STATUS(host_scalars_read());
    return out;
  }
};

template <>
ResidentMap<G1Affine>& CudaBackend::Impl::resident_map<G1Affine>() {
  return g1;
}
template <>
ResidentMap<G2Affine>& CudaBackend::Impl::resident_map<G2Affine>() {
  return g2;
}

Result<std::unique_ptr<CudaBackend>> CudaBackend::create(const CudaBackendOptions& options) {
  std::string why;
  const int count = device_count(&why);
  if (options.device < 0 || options.device >= count)
    return make_error("cuda: no device " + std::to_string(options.device) + " (" + std::to_string(count) +
                      " found" + (why.empty() ? "" : ": " + why) + ")");
  auto guard = DeviceGuard::enter(options.device);
  if (!guard) return guard.error();
  size_t free_bytes = 0, total_bytes = 0;
  CUZK_TRY_STATUS(check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
  size_t budget = options.vram_budget;
  if (budget == 0) budget = free_bytes > options.margin ? free_bytes - options.margin : 0;
  if (budget > free_bytes)
    return make_error("cuda: device " + std::to_string(options.device) + " has " + mib(free_bytes) +
                      " free, less than the budget of " + mib(budget));
  if (options.shared_bases && options.shared_bases->device() != options.device)
    return make_error("cuda: the shared bases of device " + std::to_string(options.shared_bases->device()) +
                      " given to a backend of device " + std::to_string(options.device));
  if (options.shared_bases && options.precompute != 1)
    return make_error("cuda: shared bases are not precomputed (precompute must be 1)");
  auto stream = Stream::create(options.device, options.priority);
  if (!stream) return stream.error();
  StagerOptions so;
  so.threads = options.staging_threads ? options.staging_threads
                                       : std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u);
  auto stager = HostStager::create(options.device, so);
  if (!stager) return stager.error();
  auto copy_stream = Stream::create(options.device, options.priority);
  if (!copy_stream) return copy_stream.error();
  cudaEvent_t uploaded = nullptr;
  CUZK_TRY_STATUS(check(cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming), "cudaEventCreate"));
  auto impl = std::make_unique<Impl>(options, budget, std::move(*stream), std::move(*copy_stream), uploaded,
                                     std::move(*stager));
  auto backend = std::unique_ptr<CudaBackend>(new CudaBackend(std::move(impl)));
  backend->budget_ = budget;
  return backend;
}

CudaBackend::CudaBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CudaBackend::~CudaBackend() = default;

std::string CudaBackend::name() const { return "cuda:" + std::to_string(impl_->options.device); }

Status CudaBackend::compute_h(const HRequest& rq) {
  return impl_->serve([&] { return impl_->compute_h(rq); });
}

Result<G1Jacobian> CudaBackend::msm(const MsmRequest<G1Affine>& rq) {
  return impl_->serve([&] { return impl_->msm(rq); });
}

Result<G2Jacobian> CudaBackend::msm(const MsmRequest<G2Affine>& rq) {
  return impl_->serve([&] { return impl_->msm(rq); });
}

Result<MsmBatchResult> CudaBackend::msm_batch(const MsmBatch& batch) {
  return impl_->serve([&] { return impl_->msm_batch(batch); });
}

Result<StagePlan> CudaBackend::plan_h(unsigned log_n, bool check_rows) const {
  std::lock_guard lock(impl_->mutex);
  auto plan = impl_->plan_h(log_n, check_rows);
  if (!plan) return plan.error();
  return plan->stage;
}

size_t CudaBackend::resident_bytes() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->resident;
}

size_t CudaBackend::peak_planned_bytes() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->peak;
}

std::vector<StagePlan> CudaBackend::plan_log() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->log;
}

std::vector<DeviceStage> CudaBackend::take_stage_log() {
  std::lock_guard lock(impl_->mutex);
  return std::exchange(impl_->log, {});
}

void CudaBackend::clear_log() {
  std::lock_guard lock(impl_->mutex);
  impl_->log.clear();
}

void CudaBackend::release_resident() {
  std::lock_guard lock(impl_->mutex);
  impl_->g1.clear();
  impl_->g2.clear();
  impl_->shared_work.reset();
  impl_->resident = 0;
  impl_->drop_kept_h();
  impl_->cache.release_idle();
  if (impl_->options.shared_bases) impl_->options.shared_bases->release_unused();
}

DeviceCacheStats CudaBackend::device_cache_stats() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->cache.stats();
}

}  // namespace cuzk::cuda
