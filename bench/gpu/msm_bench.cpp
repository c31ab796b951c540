// Device MSM throughput: random scalars and points already on the device, host wall clock around
// the whole run() (digits, sort, buckets, reduction, the host's final doublings; as sppark's numbers
// in reference/measured-h200.md were taken), median of several runs after a warm-up.
//
//   cuzk_bench_msm [g1|g2] [lg_n ...] [--precompute m] [--window c] [--run L] [--reps r] [--check]
//                  [--profile]   (phase times of the last run, from events)
//                  [--witness]   (scalars like a PoRep witness: 40 % zero, 40 % one, 20 % uniform)
//                  [--chunk lg]  (points per pass: 2^lg, as a resident context in a proof uses)
//                  [--set-passes]  (passes by groups of bucket sets: MsmConfig::set_passes)
//                  [--uniform-windows]  (no narrow top windows: MsmConfig::narrow_windows off)
//
// Points: 2^16 distinct random points [t0 + jδ]G spread by a random index over n slots (each slot
// its own memory, so the gathers cost what distinct points cost). --check compares against the
// discrete-log identity Σ s_i·[k_i]G = [Σ s_i·k_i]G.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/msm/msm.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::cuda;

template <class F>
F random_field(std::mt19937_64& rng) {
  for (;;) {
    F x;
    for (size_t i = 0; i < F::N; ++i) x.l[i] = rng();
    const size_t top = F::BITS - 64 * (F::N - 1);
    if (top < 64) x.l[F::N - 1] &= (uint64_t(1) << top) - 1;
    if (F::is_canonical(x.l)) return x;
  }
}

template <class Fn>
void parallel_for(size_t n, Fn&& f) {
  const size_t threads = std::max<unsigned>(1, std::thread::hardware_concurrency());
  const size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    const size_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&f, b, e] { f(b, e); });
  }
  for (auto& th : pool) th.join();
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Options {
  MsmConfig cfg;
  int reps = 5;
  bool check = false;
  bool witness = false;
};

template <class A>
int bench(const char* name, unsigned lg, const Options& o, const Stream& s) {
  using J = curve::jacobian_t<typename A::field, typename A::params>;
  const size_t n = size_t(1) << lg;
  std::mt19937_64 rng(0x5eed + lg);
  // Table of 2^16 points with known logs.
  const size_t T = size_t(1) << 16;
  const Fr t0 = random_field<Fr>(rng), delta = random_field<Fr>(rng);
  std::vector<J> jac(T);
  std::vector<Fr> logs(T);
  J p = A::generator().mul(t0);
  const J step = A::generator().mul(delta);
  Fr k = t0;
  for (size_t j = 0; j < T; ++j, p = p.add(step), k += delta) {
    jac[j] = p;
    logs[j] = k;
  }
  std::vector<A> table(T);
  curve::batch_to_affine(jac.data(), table.data(), T);
  std::vector<A> bases(n);
  std::vector<Fr> scalars(n);
  std::mutex mu;
  Fr want_log = Fr::zero();
  parallel_for(n, [&](size_t b, size_t e) {
    std::mt19937_64 r(b * 0x9e3779b97f4a7c15ull + lg);
    Fr acc = Fr::zero();
    for (size_t i = b; i < e; ++i) {
      const size_t j = r() & (T - 1);
      bases[i] = table[j];
      const uint64_t kind = o.witness ? r() % 5 : 4;  // 0, 1: zero; 2, 3: one; 4: uniform
      scalars[i] = kind < 2 ? Fr::zero() : kind < 4 ? Fr::one() : random_field<Fr>(r);
      if (o.check) acc += scalars[i] * logs[j];
    }
    std::lock_guard<std::mutex> lock(mu);
    want_log += acc;
  });

  auto plan = Msm<A>::plan(n, o.cfg);
  if (!plan) return std::fprintf(stderr, "plan: %s\n", plan.message().c_str()), 1;
  auto dsc = DeviceBuffer<Fr>::alloc(s.device(), n);
  auto dbases = DeviceBuffer<A>::alloc(s.device(), n);
  if (!dsc || !dbases) return std::fprintf(stderr, "alloc inputs failed\n"), 1;
  if (!dsc->upload(scalars.data(), n, s).ok() || !dbases->upload(bases.data(), n, s).ok() ||
      !s.synchronize().ok())
    return std::fprintf(stderr, "upload failed\n"), 1;
  std::vector<A>().swap(bases);
  auto ctx = Msm<A>::create(s.device(), n, o.cfg);
  if (!ctx) return std::fprintf(stderr, "create: %s\n", ctx.message().c_str()), 1;
  double t = now_ms();
  if (auto st = ctx->set_bases(dbases->data(), n, Memory::device, s); !st)
    return std::fprintf(stderr, "set_bases: %s\n", st.message().c_str()), 1;
  const double pre_ms = now_ms() - t;
  if (ctx->plan().precompute > 1) *dbases = DeviceBuffer<A>();  // the tables hold a copy
  std::vector<double> times;
  bool ok = true;
  for (int r = 0; r <= o.reps; ++r) {
    t = now_ms();
    auto res = ctx->run(dsc->data(), n, Memory::device, ScalarForm::montgomery, s);
    const double ms = now_ms() - t;
    if (!res) return std::fprintf(stderr, "run: %s\n", res.message().c_str()), 1;
    if (r > 0) times.push_back(ms);
    if (r == 0 && o.check) ok = *res == A::generator().mul(want_log);
  }
  std::sort(times.begin(), times.end());
  const double med = times[times.size() / 2];
  const MsmPlan& pl = ctx->plan();
  std::printf(
      "%-3s 2^%-2u c=%-2u W=%-2u (%-2u narrow) m=%-2u sets=%-2u L=%-3u  median %9.2f ms  min %9.2f  %7.1f "
      "Mpts/s  "
      "precompute %8.1f ms  mem %6.2f GiB%s\n",
      name, lg, pl.window_bits, pl.windows, pl.narrow_windows, pl.precompute, pl.sets, pl.bucket_run, med,
      times.front(), double(n) / med / 1e3, pre_ms, double(pl.total_bytes()) / double(1ull << 30),
      o.check ? (ok ? "  check OK" : "  CHECK FAILED") : "");
  if (o.cfg.profile) {
    const MsmTimings& t = ctx->last_timings();
    std::printf(
        "    phases (last run, device ms, %u passes): digits %.2f  sort %.2f  offsets %.2f  schedule %.2f  "
        "accumulate %.2f  rounds %.2f  reduce %.2f  host finish %.2f\n",
        t.passes, t.digits_ms, t.sort_ms, t.offsets_ms, t.schedule_ms, t.accumulate_ms, t.rounds_ms,
        t.reduce_ms, t.finish_ms);
  }
  std::fflush(stdout);
  return ok ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool g2 = false;
  std::vector<unsigned> sizes;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> unsigned { return i + 1 < argc ? unsigned(std::atoi(argv[++i])) : 0u; };
    if (a == "g1")
      g2 = false;
    else if (a == "g2")
      g2 = true;
    else if (a == "--precompute")
      o.cfg.precompute = next();
    else if (a == "--window")
      o.cfg.window_bits = next();
    else if (a == "--run")
      o.cfg.bucket_run = next();
    else if (a == "--reps")
      o.reps = int(next());
    else if (a == "--check")
      o.check = true;
    else if (a == "--profile")
      o.cfg.profile = true;
    else if (a == "--chunk")
      o.cfg.chunk_points = size_t(1) << next();
    else if (a == "--witness")
      o.witness = true;
    else if (a == "--set-passes")
      o.cfg.set_passes = true;
    else if (a == "--uniform-windows")
      o.cfg.narrow_windows = false;
    else
      sizes.push_back(unsigned(std::atoi(a.c_str())));
  }
  if (sizes.empty()) sizes = {20, 22, 24};
  const char* dev = std::getenv("CUZK_BENCH_DEVICE");
  const int device = dev ? std::atoi(dev) : 0;
  auto s = Stream::create(device);
  if (!s) return std::fprintf(stderr, "stream: %s\n", s.message().c_str()), 1;
  int rc = 0;
  for (unsigned lg : sizes) rc |= g2 ? bench<G2Affine>("G2", lg, o, *s) : bench<G1Affine>("G1", lg, o, *s);
  return rc;
}
