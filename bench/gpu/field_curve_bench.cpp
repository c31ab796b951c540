// cuzk_bench_gpu_field: throughput of Fp mul/sqr, Fr mul/sqr, G1 XYZZ mixed addition, Fp/Fr
// inversion (Fermat's and the binary GCD's) and sums of gathered points (XYZZ and batch-affine) on
// one GPU; and the latency of a multiplication and of
// an inversion when one warp alone runs its chain (what a batch that waits for one inversion pays).
//
//   cuzk_bench_gpu_field [--device D] [--reps R] [--json FILE]
//
// Each thread runs a long dependent chain of one operation (so nothing can be elided or merged)
// and there are several waves of resident threads (so the chip is full). Timed with CUDA events
// after a warm-up, R repeats, median reported. Before timing, one thread's chain is recomputed on
// the host and compared, so a fast wrong kernel cannot pass. The ceiling column is the IMAD-bound
// rate: SMs x 64 IMAD/clk x clock / (IMAD per operation, counted in docs/BENCHMARKS.md).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/cuda/runtime/runtime.hpp"
#include "backend/cuda/testing/throughput.hpp"
#include "curve/affine_step.hpp"
#include "curve/g1.hpp"

namespace {

using namespace cuzk;

struct Row {
  std::string name;
  double ops, median_ms, min_ms, ops_per_s, imad_per_op, ceiling_ops_per_s;
};

template <class F>
F random_field(std::mt19937_64& rng) {
  for (;;) {
    F x;
    for (auto& v : x.l) v = rng();
    x.l[F::N - 1] &= ~uint64_t(0) >> (64 * F::N - F::BITS);
    if (F::is_canonical(x.l)) return x;
  }
}

int fail(const std::string& what) {
  std::fprintf(stderr, "cuzk_bench_gpu_field: %s\n", what.c_str());
  return 1;
}

#define BENCH_TRY(expr)                                    \
  do {                                                     \
    const auto& st_ = (expr);                              \
    if (!st_.ok()) return cuzk::make_error(st_.message()); \
  } while (0)

// Times `launch` (one full run): warm-up twice, then reps runs; returns sorted times in ms.
template <class L>
Result<std::vector<double>> time_runs(const cuda::Stream& s, int reps, L&& launch) {
  auto timer = cuda::EventTimer::create(s.device());
  if (!timer) return timer.error();
  for (int i = 0; i < 2; ++i) BENCH_TRY(launch());
  BENCH_TRY(s.synchronize());
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    BENCH_TRY(timer->start(s));
    BENCH_TRY(launch());
    BENCH_TRY(timer->stop(s));
    auto ms = timer->elapsed_ms();
    if (!ms) return ms.error();
    t.push_back(*ms);
  }
  std::sort(t.begin(), t.end());
  return t;
}

// The host's value of one chain step (throughput.hpp's ChainOp).
template <class F>
F chain_step(cuda::ChainOp op, const F& x, const F& y) {
  switch (op) {
    case cuda::ChainOp::sqr:
      return x.sqr();
    case cuda::ChainOp::inverse:
    case cuda::ChainOp::inverse_binary_gcd:
      return x.inverse() + y;
    default:
      return x * y;
  }
}

bool is_pair(cuda::ChainOp op) {
  return op == cuda::ChainOp::mul_pair || op == cuda::ChainOp::mul_dfma_pair ||
         op == cuda::ChainOp::mul_mixed_pair;
}

// `threads_per_sm` × SMs threads each run `iters` steps. The defaults suit a multiplication (48
// registers or fewer: 2048 resident threads per SM, 4 waves of them); an inversion is hundreds of
// multiplications, so its rows run far fewer.
template <class F>
Result<Row> bench_field(const char* name, const cuda::Stream& s, const cuda::DeviceInfo& info,
                        cuda::ChainOp op, double imad, int reps, std::mt19937_64& rng,
                        size_t threads_per_sm = 2048 * 4, uint32_t iters = 1024) {
  const size_t threads = size_t(info.sm_count) * threads_per_sm;
  std::vector<F> host(2 * threads);
  for (auto& x : host) x = random_field<F>(rng);
  auto buf = cuda::DeviceBuffer<F>::alloc(s.device(), host.size());
  if (!buf) return buf.error();
  BENCH_TRY(buf->upload(host.data(), host.size(), s));
  // Check one chain (the last thread) against the host before timing.
  BENCH_TRY(cuda::field_mul_chain<F>(s, buf->data(), threads, iters, op));
  F got;
  BENCH_TRY(cuda::detail::copy_async(&got, buf->data() + threads - 1, sizeof(F), cudaMemcpyDeviceToHost, s));
  BENCH_TRY(s.synchronize());
  F want = host[threads - 1];
  const F y = host[2 * threads - 1];
  if (is_pair(op)) {  // a = x·y^n, b = y·x^n: the kernel writes a·b
    F a = want, b = y;
    for (uint32_t i = 0; i < iters; ++i) {
      a = a * y;
      b = b * want;
    }
    want = a * b;
  } else {
    for (uint32_t i = 0; i < iters; ++i) want = chain_step(op, want, y);
  }
  if (!(got == want)) return make_error(std::string(name) + ": device chain differs from the host");

  auto t = time_runs(s, reps, [&] { return cuda::field_mul_chain<F>(s, buf->data(), threads, iters, op); });
  if (!t) return t.error();
  Row r;
  r.name = name;
  r.ops = double(threads) * iters * (is_pair(op) ? 2 : 1);
  r.median_ms = (*t)[t->size() / 2];
  r.min_ms = t->front();
  r.ops_per_s = r.ops / (r.median_ms * 1e-3);
  r.imad_per_op = imad;
  r.ceiling_ops_per_s = double(info.sm_count) * 64 * info.clock_khz * 1e3 / imad;
  return r;
}

// One warp alone on the device runs `iters` dependent steps: the median time per step, in ns and
// in SM cycles at the device's clock, is the step's latency (nothing else can issue beside it).
struct Latency {
  std::string name;
  double ns, cycles;
};
template <class F>
Result<Latency> bench_latency(const char* name, const cuda::Stream& s, const cuda::DeviceInfo& info,
                              cuda::ChainOp op, uint32_t iters, int reps, std::mt19937_64& rng) {
  constexpr size_t kWarp = 32;
  std::vector<F> host(2 * kWarp);
  for (auto& x : host) x = random_field<F>(rng);
  auto buf = cuda::DeviceBuffer<F>::alloc(s.device(), host.size());
  if (!buf) return buf.error();
  BENCH_TRY(buf->upload(host.data(), host.size(), s));
  auto t =
      time_runs(s, reps, [&] { return cuda::field_mul_chain<F>(s, buf->data(), kWarp, iters, op, kWarp); });
  if (!t) return t.error();
  const double ns = (*t)[t->size() / 2] * 1e6 / iters;
  return Latency{name, ns, ns * info.clock_khz * 1e-6};
}

Result<Row> bench_madd(const cuda::Stream& s, const cuda::DeviceInfo& info, int reps, std::mt19937_64& rng) {
  // ~162 registers: 384 resident threads per SM (3 blocks of 128); 8 waves.
  const size_t threads = size_t(info.sm_count) * 384 * 8;
  const uint32_t iters = 256;
  std::vector<G1Affine> pts(32);
  for (auto& p : pts) p = G1Affine::generator().mul(random_field<Fr>(rng)).to_affine();
  std::vector<G1Xyzz> acc(threads);
  {
    // Distinct random starting points: a short walk from a random multiple.
    G1Xyzz a(G1Affine::generator().mul(random_field<Fr>(rng)));
    for (size_t i = 0; i < threads; ++i) {
      a = a.add_mixed(pts[i % 31]);
      acc[i] = a;
    }
  }
  auto dpts = cuda::DeviceBuffer<G1Affine>::alloc(s.device(), pts.size());
  if (!dpts) return dpts.error();
  auto dacc = cuda::DeviceBuffer<G1Xyzz>::alloc(s.device(), threads);
  if (!dacc) return dacc.error();
  BENCH_TRY(dpts->upload(pts.data(), pts.size(), s));
  BENCH_TRY(dacc->upload(acc.data(), acc.size(), s));
  BENCH_TRY(cuda::g1_xyzz_madd_chain(s, dacc->data(), dpts->data(), threads, iters));
  G1Xyzz got;
  const size_t t0 = threads - 1;
  BENCH_TRY(cuda::detail::copy_async(&got, dacc->data() + t0, sizeof(G1Xyzz), cudaMemcpyDeviceToHost, s));
  BENCH_TRY(s.synchronize());
  G1Xyzz want = acc[t0];
  for (uint32_t i = 0; i < iters; ++i) want = want.add_mixed(pts[(t0 + i) % 32]);
  if (std::memcmp(&got, &want, sizeof(G1Xyzz)) != 0)
    return make_error("g1 madd: device chain differs from the host");

  auto t = time_runs(s, reps,
                     [&] { return cuda::g1_xyzz_madd_chain(s, dacc->data(), dpts->data(), threads, iters); });
  if (!t) return t.error();
  Row r;
  r.name = "g1_xyzz_add_mixed";
  r.ops = double(threads) * iters;
  r.median_ms = (*t)[t->size() / 2];
  r.min_ms = t->front();
  r.ops_per_s = r.ops / (r.median_ms * 1e-3);
  r.imad_per_op = 10 * 588;  // madd-2008-s: 8M + 2S, squarings run as multiplications
  r.ceiling_ops_per_s = double(info.sm_count) * 64 * info.clock_khz * 1e3 / r.imad_per_op;
  return r;
}

// Sums of gathered points, XYZZ against batch-affine pairs (throughput.hpp): the affine form needs
// about 6 multiplications a sum to the mixed addition's 10, if its shared inversion and extra
// traffic can be hidden. The points are random (x, y) pairs, not curve points: the formulas and
// their cost are the same, and 2^22 of them (400 MB) make the gather miss the L2 as an MSM's does.
Result<std::vector<Row>> bench_gathered(const cuda::Stream& s, const cuda::DeviceInfo& info, int reps,
                                        std::mt19937_64& rng) {
  using S = curve::affine_step<G1Affine>;
  const size_t npoints = size_t(1) << 22, pairs = size_t(1) << 24;
  std::vector<G1Affine> pts(npoints);
  for (auto& p : pts) p = G1Affine{random_field<Fp>(rng), random_field<Fp>(rng)};
  std::vector<uint32_t> idx(2 * pairs);
  for (auto& i : idx) i = uint32_t(rng() % npoints);
  auto dpts = cuda::DeviceBuffer<G1Affine>::alloc(s.device(), npoints);
  if (!dpts) return dpts.error();
  auto didx = cuda::DeviceBuffer<uint32_t>::alloc(s.device(), idx.size());
  if (!didx) return didx.error();
  auto dout = cuda::DeviceBuffer<G1Affine>::alloc(s.device(), pairs);
  if (!dout) return dout.error();
  BENCH_TRY(dpts->upload(pts.data(), pts.size(), s));
  BENCH_TRY(didx->upload(idx.data(), idx.size(), s));
  const auto row = [&](std::string name, double ops, const std::vector<double>& t, double imad) {
    Row r{std::move(name), ops, t[t.size() / 2], t.front(), 0, imad, 0};
    r.ops_per_s = ops / (r.median_ms * 1e-3);
    r.ceiling_ops_per_s = double(info.sm_count) * 64 * info.clock_khz * 1e3 / imad;
    return r;
  };
  std::vector<Row> rows;
  {  // XYZZ: the MSM accumulation's form, a thread summing its run of points
    const size_t threads = size_t(info.sm_count) * 256 * 8;
    const uint32_t per_thread = 64;
    auto dsums = cuda::DeviceBuffer<G1Xyzz>::alloc(s.device(), threads);
    if (!dsums) return dsums.error();
    BENCH_TRY(cuda::g1_xyzz_gather_sums(s, dsums->data(), dpts->data(), didx->data(), threads, per_thread));
    G1Xyzz got, want = G1Xyzz::infinity();
    const size_t t0 = threads - 1;
    BENCH_TRY(cuda::detail::copy_async(&got, dsums->data() + t0, sizeof got, cudaMemcpyDeviceToHost, s));
    BENCH_TRY(s.synchronize());
    for (uint32_t k = 0; k < per_thread; ++k) want = want.add_mixed(pts[idx[k * threads + t0]]);
    if (std::memcmp(&got, &want, sizeof got) != 0)
      return make_error("g1 xyzz gather: device differs from host");
    auto t = time_runs(s, reps, [&] {
      return cuda::g1_xyzz_gather_sums(s, dsums->data(), dpts->data(), didx->data(), threads, per_thread);
    });
    if (!t) return t.error();
    rows.push_back(row("g1_xyzz_gathered", double(threads) * per_thread, *t, 10 * 588));
  }
  for (unsigned k : {4u, 8u, 16u}) {  // affine pairs; IMAD/op counts the ideal 6 multiplications
    auto scratch = cuda::DeviceBuffer<Fp>::alloc(s.device(), cuda::g1_affine_pair_scratch(pairs, k));
    if (!scratch) return scratch.error();
    const auto run = [&] {
      return cuda::g1_affine_pair_sums(s, dout->data(), dpts->data(), didx->data(), pairs, k,
                                       scratch->data());
    };
    BENCH_TRY(run());
    for (size_t p : {size_t(0), size_t(12345), pairs / 2 + 77, pairs - 1}) {
      G1Affine got;
      BENCH_TRY(cuda::detail::copy_async(&got, dout->data() + p, sizeof got, cudaMemcpyDeviceToHost, s));
      BENCH_TRY(s.synchronize());
      const G1Affine &a = pts[idx[2 * p]], &b = pts[idx[2 * p + 1]];
      const G1Affine want = S::finish(a, b, S::denominator(a, b).inverse());
      if (std::memcmp(&got, &want, sizeof got) != 0)
        return make_error("g1 affine pairs: device differs from host at " + std::to_string(p));
    }
    auto t = time_runs(s, reps, run);
    if (!t) return t.error();
    rows.push_back(row("g1_affine_pairs_" + std::to_string(k), double(pairs), *t, 6 * 588));
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  int device = 0, reps = 9;
  const char* json = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      device = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else
      return fail(std::string("unknown argument ") + argv[i]);
  }
  std::string why;
  if (cuda::device_count(&why) <= device) return fail(why.empty() ? "no such device" : why);
  auto info = cuda::device_info(device);
  if (!info) return fail(info.message());
  auto s = cuda::Stream::create(device);
  if (!s) return fail(s.message());
  std::printf("device %d: %s, %d SMs, %d MHz (max), driver %d, runtime %d\n", device, info->name.c_str(),
              info->sm_count, info->clock_khz / 1000, info->driver_version, info->runtime_version);

  std::mt19937_64 rng(42);
  std::vector<Row> rows;
  // IMAD per op (32-bit limbs): mul 2n^2 + n(2n+1); the device squaring is a multiplication.
  for (auto r :
       {bench_field<Fp>("fp_mul", *s, *info, cuda::ChainOp::mul, 588, reps, rng),
        bench_field<Fp>("fp_mul_rows", *s, *info, cuda::ChainOp::mul_rows, 588, reps, rng),
        bench_field<Fp>("fp_sqr", *s, *info, cuda::ChainOp::sqr, 588, reps, rng),
        // On the FP64 pipe (field/fp_dfma.hpp); "of ceil" against the IMAD form's bound.
        bench_field<Fp>("fp_mul_dfma", *s, *info, cuda::ChainOp::mul_dfma, 588, reps, rng),
        bench_field<Fp>("fp_mul_dfma_lazy", *s, *info, cuda::ChainOp::mul_dfma_lazy, 588, reps, rng),
        // Two independent chains a thread: both IMAD, both FP64, one of each.
        bench_field<Fp>("fp_mul_pair", *s, *info, cuda::ChainOp::mul_pair, 588, reps, rng),
        bench_field<Fp>("fp_mul_dfma_pair", *s, *info, cuda::ChainOp::mul_dfma_pair, 588, reps, rng),
        bench_field<Fp>("fp_mul_mixed_pair", *s, *info, cuda::ChainOp::mul_mixed_pair, 588, reps, rng),
        bench_field<Fr>("fr_mul", *s, *info, cuda::ChainOp::mul, 264, reps, rng),
        bench_field<Fr>("fr_mul_rows", *s, *info, cuda::ChainOp::mul_rows, 264, reps, rng),
        bench_field<Fr>("fr_sqr", *s, *info, cuda::ChainOp::sqr, 264, reps, rng),
        bench_madd(*s, *info, reps, rng),
        // Inversions, x = x^-1 + y. IMAD/op is Fermat's (p−2: 384 squarings and 229
        // multiplications in Fp, 256 and 164 in Fr) for both forms, so the binary GCD's
        // "of ceil" reads as its speed against Fermat's IMAD bound.
        bench_field<Fp>("fp_inverse_fermat", *s, *info, cuda::ChainOp::inverse, 613 * 588, reps, rng, 2048,
                        4),
        bench_field<Fp>("fp_inverse_bgcd", *s, *info, cuda::ChainOp::inverse_binary_gcd, 613 * 588, reps, rng,
                        2048, 4),
        bench_field<Fr>("fr_inverse_fermat", *s, *info, cuda::ChainOp::inverse, 420 * 264, reps, rng, 2048,
                        4),
        bench_field<Fr>("fr_inverse_bgcd", *s, *info, cuda::ChainOp::inverse_binary_gcd, 420 * 264, reps, rng,
                        2048, 4)}) {
    if (!r) return fail(r.message());
    rows.push_back(*r);
  }
  {
    auto gathered = bench_gathered(*s, *info, reps, rng);
    if (!gathered) return fail(gathered.message());
    rows.insert(rows.end(), gathered->begin(), gathered->end());
  }
  std::vector<Latency> latencies;
  for (auto l :
       {bench_latency<Fp>("fp_mul", *s, *info, cuda::ChainOp::mul, 1 << 16, reps, rng),
        bench_latency<Fp>("fp_inverse_bgcd", *s, *info, cuda::ChainOp::inverse_binary_gcd, 1024, reps, rng),
        bench_latency<Fp>("fp_inverse_fermat", *s, *info, cuda::ChainOp::inverse, 256, reps, rng)}) {
    if (!l) return fail(l.message());
    latencies.push_back(*l);
  }
  std::printf("%-20s %14s %10s %10s %14s %9s %14s %7s\n", "op", "ops", "median_ms", "min_ms", "ops/s",
              "IMAD/op", "ceiling ops/s", "of ceil");
  for (const auto& r : rows)
    std::printf("%-20s %14.4g %10.3f %10.3f %14.4g %9.0f %14.4g %6.1f%%\n", r.name.c_str(), r.ops,
                r.median_ms, r.min_ms, r.ops_per_s, r.imad_per_op, r.ceiling_ops_per_s,
                100 * r.ops_per_s / r.ceiling_ops_per_s);
  std::printf("\nlatency, one warp alone:\n%-20s %12s %12s\n", "op", "ns/op", "cycles/op");
  for (const auto& l : latencies) std::printf("%-20s %12.1f %12.0f\n", l.name.c_str(), l.ns, l.cycles);
  if (json) {
    FILE* f = std::fopen(json, "w");
    if (!f) return fail(std::string("cannot write ") + json);
    std::fprintf(f,
                 "{\"device\": \"%s\", \"sm_count\": %d, \"clock_mhz\": %d, \"driver\": %d, \"results\": [\n",
                 info->name.c_str(), info->sm_count, info->clock_khz / 1000, info->driver_version);
    for (size_t i = 0; i < rows.size(); ++i)
      std::fprintf(
          f,
          "  {\"op\": \"%s\", \"ops\": %.0f, \"median_ms\": %.4f, \"min_ms\": %.4f, \"ops_per_s\": %.6g, "
          "\"imad_per_op\": %.0f, \"ceiling_ops_per_s\": %.6g}%s\n",
          rows[i].name.c_str(), rows[i].ops, rows[i].median_ms, rows[i].min_ms, rows[i].ops_per_s,
          rows[i].imad_per_op, rows[i].ceiling_ops_per_s, i + 1 < rows.size() ? "," : "");
    std::fprintf(f, "], \"latency_one_warp\": [\n");
    for (size_t i = 0; i < latencies.size(); ++i)
      std::fprintf(f, "  {\"op\": \"%s\", \"ns\": %.2f, \"cycles\": %.0f}%s\n", latencies[i].name.c_str(),
                   latencies[i].ns, latencies[i].cycles, i + 1 < latencies.size() ? "," : "");
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  return 0;
}
