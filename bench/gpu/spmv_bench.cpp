// Device a = A·w, b = B·w (and c = C·w) on a PoRep-shaped random compiled circuit: the kernel's
// time (events, median of several runs after a warm-up), its effective bandwidth, and the uploads
// around it (the matrices once, the witness per proof, both from pageable memory through the
// stager), optionally the streamed evaluation from host memory.
//
//   cuzk_bench_spmv [rows ...]        rows of the circuit: 130278869 (default, a 32 GiB PoRep
//                                     partition), 16M (16 000 000), 500K, ...
//                   [--terms t]       mean terms a row on A and B (rows of 1 .. 2t − 1; default 3)
//                   [--long-every k]  every k-th row is long (default 1000; 0: none)
//                   [--long-terms l]  terms of a long row (default 256, multipacking's ~254 bits)
//                   [--uniform]       wires uniform over the witness (default: near the row's own
//                                     position, within --window, as synthesis numbers them)
//                   [--window w]      (default 65536)
//                   [--with-c]        a C side too (default: none, c = a∘b)
//                   [--long-row T] [--block B] [--max-blocks G]   (SpmvConfig)
//                   [--reps r] [--streamed] [--check]
//
// Witness values: 45 % zero, 45 % one, 10 % uniform; coefficients 70 % 1, 20 % −1, 10 % one of 62
// others. Effective bandwidth counts what the kernel must move: offsets and terms (4 + 8 bytes a
// term), one 32-byte witness value a term, and the 32-byte outputs.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/runtime/staging.hpp"
#include "backend/cuda/spmv/spmv.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::cuda;

Fr random_fr(std::mt19937_64& rng) {
  for (;;) {
    Fr x;
    for (size_t i = 0; i < Fr::N; ++i) x.l[i] = rng();
    x.l[Fr::N - 1] &= ~uint64_t(0) >> (64 * Fr::N - Fr::BITS);
    if (Fr::is_canonical(x.l)) return x;
  }
}

template <class Fn>
void parallel_for(size_t n, Fn&& f) {
  const size_t threads = std::max<unsigned>(1, std::thread::hardware_concurrency());
  const size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    const size_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&f, t, b, e] { f(t, b, e); });
  }
  for (auto& th : pool) th.join();
}

bool check_ok(cudaError_t e) { return e == cudaSuccess; }

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Options {
  size_t terms = 3, long_every = 1000, long_terms = 256, window = 65536;
  bool uniform = false, with_c = false, streamed = false, check = false;
  int reps = 5;
  SpmvConfig cfg;
};

// One side's arrays in host memory.
struct HostSide {
  std::vector<uint32_t> row_start, wire, coeff;
};

HostSide make_side(size_t rows, size_t wires, uint32_t inputs, size_t table, const Options& o,
                   uint64_t seed) {
  HostSide h;
  h.row_start.resize(rows + 1);
  // Lengths from a per-row hash, then one prefix sum, then the terms in parallel.
  parallel_for(rows, [&](size_t, size_t b, size_t e) {
    for (size_t r = b; r < e; ++r) {
      const uint64_t x = (r + seed) * 0x9e3779b97f4a7c15ull;
      const bool is_long = o.long_every && r % o.long_every == o.long_every / 2;
      h.row_start[r + 1] = uint32_t(is_long ? o.long_terms : 1 + (x >> 33) % (2 * o.terms - 1));
    }
  });
  h.row_start[0] = 0;
  uint64_t total = 0;
  for (size_t r = 0; r < rows; ++r) {
    total += h.row_start[r + 1];
    h.row_start[r + 1] = uint32_t(std::min<uint64_t>(total, UINT32_MAX));
  }
  if (total > UINT32_MAX) return {};  // more terms than u32 offsets count
  const size_t nnz = total;
  h.wire.resize(nnz);
  h.coeff.resize(nnz);
  const size_t aux = wires - inputs;
  parallel_for(rows, [&](size_t t, size_t b, size_t e) {
    std::mt19937_64 rng(seed * 1000003 + t);
    for (size_t r = b; r < e; ++r) {
      const size_t home = inputs + (aux ? r * aux / rows : 0);
      for (uint32_t k = h.row_start[r]; k < h.row_start[r + 1]; ++k) {
        const uint64_t x = rng();
        size_t w;
        if (o.uniform || aux == 0) {
          w = x % wires;
        } else {
          const size_t lo = home > o.window ? home - o.window : 0;
          w = std::min(wires - 1, lo + x % (2 * o.window + 1));
        }
        h.wire[k] = uint32_t(w);
        const unsigned pick = unsigned((x >> 40) % 10);
        h.coeff[k] = pick < 7 ? 0u : pick < 9 ? 1u : uint32_t(2 + (x >> 48) % (table - 2));
      }
    }
  });
  return h;
}

size_t parse_rows(const std::string& s) {
  const char unit = s.empty() ? 0 : s.back();
  const size_t v = std::strtoull(s.c_str(), nullptr, 10);
  return unit == 'M' || unit == 'm' ? v * 1000000 : unit == 'K' || unit == 'k' ? v * 1000 : v;
}

// Rows [from, to) of one output against the host sum.
size_t count_wrong(const HostSide* h, bool is_a, const CircuitMatrices& m, const std::vector<Fr>& w,
                   const DeviceSpan<Fr>& out, size_t from, size_t to, const Stream& s) {
  std::vector<Fr> got(to - from);
  if (!DeviceSpan<Fr>(out.device(), out.data() + from, to - from).download(got.data(), got.size(), s).ok() ||
      !s.synchronize().ok())
    return to - from;
  size_t wrong = 0;
  for (size_t j = from; j < to; ++j) {
    Fr want = Fr::zero();
    if (j < m.num_constraints) {
      for (uint32_t k = h->row_start[j]; k < h->row_start[j + 1]; ++k)
        want += m.coeffs[h->coeff[k]] * w[h->wire[k]];
    } else if (is_a && j < m.num_rows()) {
      want = w[j - m.num_constraints];
    }
    wrong += got[j - from] != want;
  }
  return wrong;
}

int bench(size_t rows, const Options& o, const Stream& s, const Stream& copy, HostStager& stager) {
  const uint32_t inputs = 256;
  const size_t aux = rows, wires = inputs + aux;
  unsigned log_n = 0;
  while ((size_t(1) << log_n) < rows + inputs) ++log_n;
  const size_t n = size_t(1) << log_n;
  std::printf("rows %zu (2^%u domain), %zu wires, %s wires, %s\n", rows, log_n, wires,
              o.uniform ? "uniform" : "local", o.with_c ? "A, B, C" : "A, B");

  double t0 = now_ms();
  std::mt19937_64 rng(42);
  std::vector<Fr> table = {Fr::one(), -Fr::one()};
  while (table.size() < 64) table.push_back(random_fr(rng));
  const unsigned sides = o.with_c ? 3 : 2;
  std::vector<HostSide> host(sides);
  for (unsigned i = 0; i < sides; ++i) {
    host[i] = make_side(rows, wires, inputs, table.size(), o, 7 + i);
    if (host[i].row_start.empty()) return std::fprintf(stderr, "more than 2^32 - 1 terms a side\n"), 1;
  }
  std::vector<Fr> w(wires);
  parallel_for(wires, [&](size_t t, size_t b, size_t e) {
    std::mt19937_64 r(1234 + t);
    for (size_t i = b; i < e; ++i) {
      const unsigned pick = unsigned(r() % 20);
      w[i] = pick < 9 ? Fr::zero() : pick < 18 ? Fr::one() : random_fr(r);
    }
  });
  w[0] = Fr::one();
  CircuitMatrices m;
  m.num_inputs = inputs;
  m.num_aux = uint32_t(aux);
  m.num_constraints = rows;
  m.coeffs = table;
  size_t nnz = 0;
  for (unsigned i = 0; i < sides; ++i) {
    m.sides[i] = SparseSide{host[i].row_start, host[i].wire, host[i].coeff};
    nnz += host[i].wire.size();
  }
  std::printf("  generated in %.0f ms: %zu terms (%.2f a row a side), matrices %.2f GiB\n", now_ms() - t0,
              nnz, double(nnz) / double(rows * sides),
              double(DeviceCompiledCircuit::bytes_for(m)) / (1 << 30));

  t0 = now_ms();
  auto dc = DeviceCompiledCircuit::upload(m, &stager, s);
  if (!dc) return std::fprintf(stderr, "upload: %s\n", dc.message().c_str()), 1;
  const double up_ms = now_ms() - t0;
  std::printf("  matrices uploaded in %.1f ms (%.1f GB/s)\n", up_ms, double(dc->bytes()) / up_ms / 1e6);

  auto dw = DeviceBuffer<Fr>::alloc(s.device(), wires);
  std::vector<DeviceBuffer<Fr>> outs(sides);
  for (auto& v : outs) {
    auto b = DeviceBuffer<Fr>::alloc(s.device(), n);
    if (!b) return std::fprintf(stderr, "outputs: %s\n", b.message().c_str()), 1;
    v = std::move(*b);
  }
  if (!dw) return std::fprintf(stderr, "witness: %s\n", dw.message().c_str()), 1;
  t0 = now_ms();
  if (auto st =
          upload_witness(std::span(w).first(inputs), std::span(w).subspan(inputs), dw->span(), stager, s);
      !st || !s.synchronize())
    return std::fprintf(stderr, "witness upload failed\n"), 1;
  const double wup_ms = now_ms() - t0;
  std::printf("  witness uploaded in %.1f ms (%.1f GB/s)\n", wup_ms,
              double(wires * sizeof(Fr)) / wup_ms / 1e6);

  const DeviceSpan<Fr> c = o.with_c ? outs[2].span() : DeviceSpan<Fr>();
  auto timer = EventTimer::create(s.device());
  if (!timer) return 1;
  std::vector<float> ms;
  for (int rep = 0; rep <= o.reps; ++rep) {
    if (!timer->start(s)) return 1;
    if (auto st = evaluate_on_device(*dc, dw->data(), outs[0].span(), outs[1].span(), c, s, o.cfg); !st)
      return std::fprintf(stderr, "evaluate: %s\n", st.message().c_str()), 1;
    if (!timer->stop(s)) return 1;
    auto e = timer->elapsed_ms();
    if (!e) return std::fprintf(stderr, "evaluate: %s\n", e.message().c_str()), 1;
    if (rep > 0) ms.push_back(*e);  // the first is a warm-up
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[ms.size() / 2];
  const double bytes = double(sides) * (4.0 * double(rows + 1) + 32.0 * double(n)) + 40.0 * double(nnz);
  std::printf(
      "  resident: %.2f ms median (min %.2f, max %.2f), %.0f GB/s effective (long_row %u, block %u)\n", med,
      ms.front(), ms.back(), bytes / med / 1e6, o.cfg.long_row, o.cfg.block);

  // The first and last 2^20 rows of each side against the host sum (the long rows, the input rows
  // and the padding among them).
  const auto check = [&](const char* what) {
    const size_t span = std::min<size_t>(n, size_t(1) << 20);
    size_t wrong = 0;
    for (unsigned i = 0; i < sides; ++i)
      wrong += count_wrong(&host[i], i == 0, m, w, outs[i].span(), 0, span, s) +
               count_wrong(&host[i], i == 0, m, w, outs[i].span(), n - span, n, s);
    std::printf("  check (%s): %zu wrong values in the first and last %zu rows of each side\n", what, wrong,
                span);
    return wrong == 0;
  };
  if (o.check && !check("resident")) return 1;

  if (o.streamed) {
    auto plan = plan_spmv(m, false, wires * sizeof(Fr) + (size_t(1) << 30));  // chunks within 1 GiB
    if (!plan) return std::fprintf(stderr, "plan: %s\n", plan.message().c_str()), 1;
    t0 = now_ms();
    if (auto st = evaluate_streamed(m, *plan, dw->data(), outs[0].span(), outs[1].span(), c, stager, s, copy,
                                    nullptr, o.cfg);
        !st || !s.synchronize())
      return std::fprintf(stderr, "streamed: %s\n", st.ok() ? "sync" : st.message().c_str()), 1;
    const double st_ms = now_ms() - t0;
    std::printf("  streamed (%s): %.1f ms wall, %.1f GB/s of matrices\n", plan->choice.c_str(), st_ms,
                double(dc->bytes()) / st_ms / 1e6);
    if (o.check) {
      for (auto& v : outs)
        if (!check_ok(cudaMemsetAsync(v.data(), 0xa5, n * sizeof(Fr), s.get()))) return 1;
      if (auto st = evaluate_streamed(m, *plan, dw->data(), outs[0].span(), outs[1].span(), c, stager, s,
                                      copy, nullptr, o.cfg);
          !st || !check("streamed"))
        return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> size_t { return i + 1 < argc ? std::strtoull(argv[++i], nullptr, 10) : 0; };
    if (a == "--terms")
      o.terms = std::max<size_t>(1, next());
    else if (a == "--long-every")
      o.long_every = next();
    else if (a == "--long-terms")
      o.long_terms = next();
    else if (a == "--window")
      o.window = next();
    else if (a == "--uniform")
      o.uniform = true;
    else if (a == "--with-c")
      o.with_c = true;
    else if (a == "--long-row")
      o.cfg.long_row = unsigned(next());
    else if (a == "--block")
      o.cfg.block = unsigned(next());
    else if (a == "--max-blocks")
      o.cfg.max_blocks = unsigned(next());
    else if (a == "--reps")
      o.reps = std::max(1, int(next()));
    else if (a == "--streamed")
      o.streamed = true;
    else if (a == "--check")
      o.check = true;
    else if (!a.empty() && a[0] != '-')
      sizes.push_back(parse_rows(a));
    else
      return std::fprintf(stderr, "unknown option %s\n", a.c_str()), 2;
  }
  if (sizes.empty()) sizes.push_back(130278869);
  auto info = device_info(0);
  if (!info) return std::fprintf(stderr, "no device: %s\n", info.message().c_str()), 1;
  std::printf("%s, %d SMs, %.1f GiB\n", info->name.c_str(), info->sm_count,
              double(info->total_mem) / (1 << 30));
  auto s = Stream::create(0);
  auto copy = Stream::create(0);
  auto stager = HostStager::create(0, StagerOptions{size_t(16) << 20, 4, 8});
  if (!s || !copy || !stager) return std::fprintf(stderr, "stream or stager\n"), 1;
  for (size_t rows : sizes)
    if (int rc = bench(rows, o, *s, *copy, **stager)) return rc;
  return 0;
}
