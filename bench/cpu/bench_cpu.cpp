// cuzk_bench_cpu: timings of the host field, curve and CPU backend.
//
//   cuzk_bench_cpu [--json] [--threads N] [--reps R] [--quick] [--compare]
//
// Field and curve operations run on one core (ns per operation); NTT and MSM use a pool of
// --threads threads (default: all hardware threads). Each measurement is repeated --reps times and
// the best and the median are reported, because shared machines are noisy. --quick skips 2^20;
// --compare also times the 2^20 MSM with XYZZ buckets only (2^16 always shows both).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend/cpu/msm.hpp"
#include "backend/cpu/ntt.hpp"
#include "curve/g1.hpp"

namespace {

using namespace cuzk;
using Clock = std::chrono::steady_clock;

struct Row {
  std::string name;
  double best, median;
  std::string unit;
};

template <class F>
std::vector<double> repeat(int reps, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t;
}

Row summarize(const std::string& name, std::vector<double> t, double scale, const std::string& unit) {
  return {name, t.front() * scale, t[t.size() / 2] * scale, unit};
}

template <class F>
F random_field(std::mt19937_64& rng) {
  for (;;) {
    uint64_t v[F::N];
    for (auto& x : v) x = rng();
    v[F::N - 1] &= ~uint64_t(0) >> (64 * F::N - F::BITS);
    if (F::is_canonical(v)) return F::from_canonical(v);
  }
}

volatile uint64_t sink;

// A chain of dependent multiplications: latency per operation, as in a long formula.
template <class F>
Row bench_mul(const char* name, int reps, std::mt19937_64& rng) {
  const F b = random_field<F>(rng);
  const long n = 2'000'000;
  auto t = repeat(reps, [&] {
    F a = b;
    for (long i = 0; i < n; ++i) a = a * b;
    sink = a.l[0];
  });
  return summarize(name, t, 1e9 / double(n), "ns");
}

template <class F>
Row bench_sqr(const char* name, int reps, std::mt19937_64& rng) {
  const F b = random_field<F>(rng);
  const long n = 2'000'000;
  auto t = repeat(reps, [&] {
    F a = b;
    for (long i = 0; i < n; ++i) a = a.sqr();
    sink = a.l[0];
  });
  return summarize(name, t, 1e9 / double(n), "ns");
}

std::vector<G1Affine> random_g1(size_t n, std::mt19937_64& rng, ThreadPool& pool) {
  // A random walk split over the threads, then one batch conversion per slice.
  std::vector<G1Affine> out(n);
  std::vector<G1Jacobian> steps;
  for (int i = 0; i < 16; ++i) steps.push_back(G1Affine::generator().mul(random_field<Fr>(rng)));
  const uint64_t seed = rng();
  pool.for_ranges(n, 1 << 14, [&](size_t begin, size_t end) {
    std::mt19937_64 r(seed ^ begin);
    std::vector<G1Jacobian> walk(end - begin);
    G1Jacobian p = steps[begin % 16].add(steps[(begin / 16) % 16]).dbl();
    for (auto& w : walk) {
      w = p;
      p = p.add(steps[r() % 16]);
    }
    curve::batch_to_affine(walk.data(), out.data() + begin, walk.size());
  });
  return out;
}

void print(const std::vector<Row>& rows, bool json, unsigned threads) {
  if (!json) {
    std::printf("%-34s %14s %14s\n", "benchmark", "best", "median");
    for (const auto& r : rows)
      std::printf("%-34s %11.3f %-2s %11.3f %-2s\n", r.name.c_str(), r.best, r.unit.c_str(), r.median,
                  r.unit.c_str());
    return;
  }
  std::printf("{\n  \"threads\": %u,\n  \"hardware_threads\": %u,\n  \"results\": [\n", threads,
              std::thread::hardware_concurrency());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    std::printf("    {\"name\": \"%s\", \"best\": %.6g, \"median\": %.6g, \"unit\": \"%s\"}%s\n",
                r.name.c_str(), r.best, r.median, r.unit.c_str(), i + 1 < rows.size() ? "," : "");
  }
  std::printf("  ]\n}\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false, compare = false;
  unsigned threads = 0;
  int reps = 5;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json")) {
      json = true;
    } else if (!std::strcmp(argv[i], "--compare")) {
      compare = true;
    } else if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = unsigned(std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--json] [--threads N] [--reps R] [--quick] [--compare]\n", argv[0]);
      return 2;
    }
  }
  ThreadPool pool(threads);
  std::mt19937_64 rng(std::random_device{}());
  std::vector<Row> rows;

  rows.push_back(bench_mul<Fp>("fp_mul", reps, rng));
  rows.push_back(bench_sqr<Fp>("fp_sqr", reps, rng));
  rows.push_back(bench_mul<Fr>("fr_mul", reps, rng));
  {
    std::vector<G1Affine> pts = random_g1(4096, rng, pool);
    const long rounds = 100;
    auto t = repeat(reps, [&] {
      G1Xyzz acc = G1Xyzz::generator();
      for (long r = 0; r < rounds; ++r)
        for (const auto& p : pts) acc = acc.add_mixed(p);
      sink = acc.X.l[0];
    });
    rows.push_back(summarize("g1_xyzz_add_mixed", t, 1e9 / double(rounds * pts.size()), "ns"));
  }

  for (unsigned k : {16u, 20u}) {
    if (quick && k > 16) continue;
    auto domain = cpu::NttDomain::create(k, RootConvention::bellman, pool);
    if (!domain.ok()) return 1;
    std::vector<Fr> v(domain->size());
    for (auto& x : v) x = random_field<Fr>(rng);
    auto t = repeat(reps, [&] { (void)domain->forward(v, pool); });
    rows.push_back(summarize("ntt_2^" + std::to_string(k), t, 1e3, "ms"));
    t = repeat(reps, [&] { (void)domain->coset_inverse(v, pool); });
    rows.push_back(summarize("coset_intt_2^" + std::to_string(k), t, 1e3, "ms"));
  }

  for (unsigned k : {16u, 20u}) {
    if (quick && k > 16) continue;
    const size_t n = size_t(1) << k;
    const std::vector<G1Affine> bases = random_g1(n, rng, pool);
    std::vector<Fr> scalars(n);
    for (auto& x : scalars) x = random_field<Fr>(rng);
    auto t = repeat(k >= 20 ? std::min(reps, 3) : reps, [&] {
      auto r = cpu::msm<G1Affine>(bases, scalars, pool);
      sink = r.ok() ? r->X.l[0] : 0;
    });
    rows.push_back(summarize("msm_g1_2^" + std::to_string(k), t, 1e3, "ms"));
    if (k == 16 || compare) {
      // The same MSM with XYZZ buckets only, to show what the batch-affine buckets buy.
      cpu::MsmOptions xyzz;
      xyzz.batch_affine = false;
      t = repeat(k >= 20 ? std::min(reps, 3) : reps, [&] {
        auto r = cpu::msm<G1Affine>(bases, scalars, pool, xyzz);
        sink = r.ok() ? r->X.l[0] : 0;
      });
      rows.push_back(summarize("msm_g1_2^" + std::to_string(k) + "_xyzz_buckets", t, 1e3, "ms"));
    }
    if (k == 16) {
      // The 0/1 fast path: every scalar 1, i.e. a plain sum of the bases.
      std::vector<Fr> ones(n, Fr::one());
      t = repeat(reps, [&] {
        auto r = cpu::msm<G1Affine>(bases, ones, pool);
        sink = r.ok() ? r->X.l[0] : 0;
      });
      rows.push_back(summarize("msm_g1_ones_2^16", t, 1e3, "ms"));
    }
  }
  print(rows, json, pool.size());
  return 0;
}
