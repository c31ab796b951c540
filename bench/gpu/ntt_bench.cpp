// Fr NTT on the device: median time (CUDA events) of forward, inverse and coset transforms in
// the order combinations the prover uses, at the sizes the goals name; an optional sweep over
// kernel tunings; and the device's Fr multiplication rate, so the NTT can be read against its
// floor (n/2·log n multiplications).
//
//   ntt_bench [--sizes 20,24,26,27] [--reps 9] [--sweep LOG] [--twiddle-log L] [--device 0]
//
// --twiddle-log sets NttTuning::twiddle_log for the table (26: one table of every twiddle at 2^27).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "backend/cuda/ntt/ntt.hpp"
#include "backend/cuda/ntt/pointwise.hpp"
#include "backend/cuda/testing/throughput.hpp"

using namespace cuzk;
using namespace cuzk::cuda;

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "ntt_bench: %s\n", what.c_str());
  return 1;
}

#define TRY(expr)                              \
  do {                                         \
    auto st_ = (expr);                         \
    if (!st_.ok()) return fail(st_.message()); \
  } while (0)

// Fills a host vector with pseudo-random canonical elements (not zeros: zeros run faster).
void fill_random(std::vector<Fr>& v, uint64_t seed) {
  uint64_t x = seed;
  for (auto& e : v) {
    for (auto& w : e.l) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      w = x;
    }
    e.l[3] &= 0x0fffffffffffffffull;  // below r
  }
}

template <class F>
int median_ms(const Stream& s, int reps, F&& body, float* out) {
  auto t = EventTimer::create(s.device());
  if (!t) return fail(t.message());
  std::vector<float> ms;
  for (int r = 0; r < reps + 1; ++r) {  // the first run warms up
    TRY(t->start(s));
    TRY(body());
    TRY(t->stop(s));
    auto e = t->elapsed_ms();
    if (!e) return fail(e.message());
    if (r > 0) ms.push_back(*e);
  }
  std::sort(ms.begin(), ms.end());
  *out = ms[ms.size() / 2];
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> sizes = {20, 24, 26, 27};
  int reps = 9, device = 0;
  unsigned sweep = 0;
  int twiddle_log = -1;  // the tuning's default
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      for (char* p = std::strtok(argv[++i], ","); p; p = std::strtok(nullptr, ","))
        sizes.push_back(unsigned(std::atoi(p)));
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (a == "--sweep" && i + 1 < argc) {
      sweep = unsigned(std::atoi(argv[++i]));
    } else if (a == "--twiddle-log" && i + 1 < argc) {
      twiddle_log = std::atoi(argv[++i]);
    } else if (a == "--device" && i + 1 < argc) {
      device = std::atoi(argv[++i]);
    } else {
      return fail(
          "usage: ntt_bench [--sizes 20,24,26,27] [--reps 9] [--sweep LOG] [--twiddle-log L] [--device 0]");
    }
  }
  std::string why;
  if (device_count(&why) == 0) return fail(why);
  auto info = device_info(device);
  if (!info) return fail(info.message());
  std::printf("device %d: %s, %d SMs, %d MHz\n", device, info->name.c_str(), info->sm_count,
              info->clock_khz / 1000);
  auto s = Stream::create(device);
  if (!s) return fail(s.message());

  // Fr multiplication rate: dependent chains, enough threads to fill every SM many times.
  double mul_rate = 0;
  {
    const size_t threads = size_t(info->sm_count) * 2048;
    const uint32_t iters = 4096;
    auto st = DeviceBuffer<Fr>::alloc(device, 2 * threads);
    if (!st) return fail(st.message());
    std::vector<Fr> h(2 * threads);
    fill_random(h, 7);
    TRY(st->upload(h.data(), h.size(), *s));
    float ms = 0;
    if (median_ms(
            *s, 3, [&] { return field_mul_chain<Fr>(*s, st->data(), threads, iters, ChainOp::mul); }, &ms))
      return 1;
    mul_rate = double(threads) * iters / (ms * 1e-3);
    std::printf("Fr mul chain: %.3f ms, %.3g mul/s\n", ms, mul_rate);
  }

  const unsigned max_log = std::max(*std::max_element(sizes.begin(), sizes.end()), sweep);
  auto buf = DeviceBuffer<Fr>::alloc(device, size_t(1) << max_log);
  if (!buf) return fail(buf.message());
  // Operands of the H stage's fused forms (b, and c to subtract).
  auto opb = DeviceBuffer<Fr>::alloc(device, size_t(1) << max_log);
  if (!opb) return fail(opb.message());
  auto opc = DeviceBuffer<Fr>::alloc(device, size_t(1) << max_log);
  if (!opc) return fail(opc.message());
  {
    std::vector<Fr> h(size_t(1) << max_log);
    fill_random(h, 12345);
    TRY(buf->upload(h.data(), h.size(), *s));
    TRY(opb->upload(h.data(), h.size(), *s));
    TRY(opc->upload(h.data(), h.size(), *s));
  }
  const auto N = NttOrder::natural, R = NttOrder::bit_reversed;

  // The sweep runs first; the table then uses the fastest tuning it found.
  NttTuning best{};
  if (sweep) {
    std::printf("\ntuning sweep at 2^%u, forward N->R (pass_log coalesce threads)\n", sweep);
    float best_ms = 1e30f;
    for (unsigned pl : {10u, 11u, 12u})
      for (unsigned cl : {1u, 2u})
        for (unsigned th : {128u, 256u}) {
          const NttTuning tu{pl, cl, th, twiddle_log >= 0 ? unsigned(twiddle_log) : NttTuning{}.twiddle_log};
          auto plan = NttPlan::create(*s, sweep, RootConvention::bellman, tu);
          if (!plan) {
            std::printf("%u %u %u: %s\n", pl, cl, th, plan.message().c_str());
            continue;
          }
          float ms = 0;
          if (median_ms(
                  *s, 3, [&] { return plan->forward(*s, buf->data(), sweep, N, R); }, &ms))
            return 1;
          std::printf("sweep %2u %u %3u: %9.3f ms\n", pl, cl, th, ms);
          std::fflush(stdout);
          if (ms < best_ms) best_ms = ms, best = tu;
        }
    std::printf("best: pass_log %u coalesce %u threads %u (%.3f ms)\n\n", best.pass_log, best.coalesce_log,
                best.threads, best_ms);
  }

  struct Row {
    unsigned lg;
    std::string what;
    float ms;
  };
  std::vector<Row> rows;

  if (twiddle_log >= 0) best.twiddle_log = unsigned(twiddle_log);
  for (RootConvention conv : {RootConvention::bellman}) {
    auto plan = NttPlan::create(*s, max_log, conv, best);
    if (!plan) return fail(plan.message());
    std::printf("plan 2^%u: %.1f MiB of twiddles\n", max_log, plan->device_bytes() / 1048576.0);
    for (unsigned lg : sizes) {
      auto coset = plan->coset_powers(*s, lg);
      if (!coset) return fail(coset.message());
      Fr* d = buf->data();
      struct Case {
        const char* what;
        std::function<Status()> run;
      };
      const Case cases[] = {
          {"forward N->R", [&] { return plan->forward(*s, d, lg, N, R); }},
          {"forward R->N", [&] { return plan->forward(*s, d, lg, R, N); }},
          {"forward N->N", [&] { return plan->forward(*s, d, lg, N, N); }},
          {"inverse N->R", [&] { return plan->inverse(*s, d, lg, N, R); }},
          {"inverse R->N", [&] { return plan->inverse(*s, d, lg, R, N); }},
          {"inverse N->N", [&] { return plan->inverse(*s, d, lg, N, N); }},
          {"coset fwd R->N", [&] { return plan->coset_forward(*s, d, *coset, R, N); }},
          {"coset fwd N->N", [&] { return plan->coset_forward(*s, d, *coset, N, N); }},
          {"coset inv N->R", [&] { return plan->coset_inverse(*s, d, *coset, N, R); }},
          {"coset inv N->N", [&] { return plan->coset_inverse(*s, d, *coset, N, N); }},
          {"bit_reverse", [&] { return bit_reverse(*s, d, lg); }},
          // The H stage: the two transforms to the coset fused at the bottom pass (against
          // "inverse N->R" + "coset fwd R->N"), and the coset inverse with the product and the
          // subtraction in its passes (against 2 × "a·b−c" + "coset inv N->R").
          {"to_coset N->N", [&] { return plan->to_coset(*s, d, *coset); }},
          {"coset inv of a·b−c",
           [&] { return plan->coset_inverse_of_product(*s, d, opb->data(), opc->data(), *coset, N, R); }},
          {"a·b−c",
           [&] { return mul_sub_scale(*s, d, opb->data(), opc->data(), Fr::one(), size_t(1) << lg); }},
      };
      for (const Case& c : cases) {
        float ms = 0;
        if (median_ms(*s, reps, c.run, &ms)) return 1;
        rows.push_back({lg, c.what, ms});
        std::printf("2^%u %-16s %9.3f ms\n", lg, c.what, ms);
        std::fflush(stdout);
      }
    }
  }

  std::printf("\n| lg | transform | median ms | mul-floor ms |\n|---|---|---|---|\n");
  for (const Row& r : rows) {
    const double muls = double(size_t(1) << r.lg) / 2 * r.lg;
    std::printf("| %u | %s | %.3f | %.2f |\n", r.lg, r.what.c_str(), r.ms, muls / mul_rate * 1e3);
  }
  return 0;
}
