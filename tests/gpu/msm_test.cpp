// Device MSM (backend/cuda/msm/msm.hpp) for G1 and G2:
//  * against the CPU backend's MSM on fresh random points and scalars, sizes 1 .. 2^16 (powers of
//    two and not), with special scalars (0, 1, r − 1, small) mixed in;
//  * against a discrete-log identity at 2^18 .. 2^22: bases P_i = [k_i]G with known k_i (drawn
//    from a random arithmetic progression, indexed by a random hash of i), so that
//    Σ s_i·P_i = [Σ s_i·k_i]G is checked exactly with one scalar multiplication on the host;
//  * edge cases: all-zero, all-one and mixed 0/1 scalars, infinity bases, one repeated base,
//    P and −P, density bitmaps, canonical vs Montgomery scalars, host vs device scalars, chunked
//    runs with host staging, bases streamed from host memory, every precomputation mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "backend/cpu/msm.hpp"
#include "backend/cuda/msm/msm.hpp"
#include "tests/gpu/gpu_test_util.hpp"
#include "tests/gpu/msm_test_util.hpp"

namespace cuzk::cuda {
namespace {

using gputest::random_field;
using gputest::test_device;
using msmtest::Case;
using msmtest::device_msm;
using msmtest::expect_matches_cpu;
using msmtest::Jac;
using msmtest::progression;
using msmtest::random_scalars;
using msmtest::witness_scalars;

template <class A>
void random_sizes(const std::vector<size_t>& sizes) {
  const uint64_t seed = gputest::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<Fr> logs;
  for (size_t n : sizes) {
    std::vector<A> bases = progression<A>(n, rng, &logs);
    std::shuffle(bases.begin(), bases.end(), rng);
    const std::vector<Fr> scalars = random_scalars(n, rng);
    Case c;
    expect_matches_cpu(bases, scalars, c, "n=" + std::to_string(n) + " default");
    c.cfg.precompute = 0;  // every window folded into one bucket set
    c.scalars_at = Memory::device;
    c.bases_at = Memory::device;
    expect_matches_cpu(bases, scalars, c, "n=" + std::to_string(n) + " precomputed, device inputs");
  }
}

TEST(GpuMsm, G1MatchesCpu) {
  CUZK_REQUIRE_GPU();
  random_sizes<G1Affine>({1, 2, 3, 7, 64, 100, 1000, 4096, 4097, 65536 + 37});
}
TEST(GpuMsm, G2MatchesCpu) {
  CUZK_REQUIRE_GPU();
  random_sizes<G2Affine>({1, 2, 5, 100, 1023, 8192 + 11});
}

// Every window, precomputation and item size on one input, with narrow top windows (where W·c
// exceeds 256: c = 5, 11, 13, 19 and 22 with m = 1) and without.
TEST(GpuMsm, ConfigurationsAgree) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  SCOPED_TRACE("seed " + std::to_string(gputest::test_seed()));
  std::vector<Fr> logs;
  const size_t n = 3000;
  const auto bases = progression<G1Affine>(n, rng, &logs);
  const auto scalars = random_scalars(n, rng);
  for (unsigned c : {1u, 2u, 5u, 8u, 11u, 13u, 16u, 19u, 22u}) {
    for (unsigned m : {1u, 3u, 0u}) {
      for (bool narrow : {true, false}) {
        Case k;
        k.cfg.window_bits = c;
        k.cfg.precompute = m;
        k.cfg.bucket_run = 1 + (c * 7 + m) % 40;
        k.cfg.narrow_windows = narrow;
        expect_matches_cpu(bases, scalars, k,
                           "c=" + std::to_string(c) + " m=" + std::to_string(m) + (narrow ? "" : " uniform"));
      }
    }
  }
}

// Scalars in canonical form, chunked runs (host staging through two buffers), streamed bases.
TEST(GpuMsm, ChunksFormsAndStreaming) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  SCOPED_TRACE("seed " + std::to_string(gputest::test_seed()));
  std::vector<Fr> logs;
  const size_t n = 10007;
  const auto bases = progression<G1Affine>(n, rng, &logs);
  const auto scalars = random_scalars(n, rng);
  Case c;
  c.form = ScalarForm::canonical;
  expect_matches_cpu(bases, scalars, c, "canonical host");
  c.scalars_at = Memory::device;
  expect_matches_cpu(bases, scalars, c, "canonical device");
  c = Case{};
  c.cfg.chunk_points = 1000;
  expect_matches_cpu(bases, scalars, c, "11 chunks, host scalars");
  c.cfg.precompute = 0;
  c.scalars_at = Memory::device;
  expect_matches_cpu(bases, scalars, c, "11 chunks, device scalars, precomputed");
  c = Case{};
  c.cfg.chunk_points = 4096;
  c.streamed = true;
  expect_matches_cpu(bases, scalars, c, "streamed bases, 3 chunks");
  const auto g2 = progression<G2Affine>(3001, rng, &logs);
  const auto s2 = random_scalars(3001, rng);
  expect_matches_cpu(g2, s2, c, "G2 streamed bases");

  // A witness's mix (40 % zero, 40 % one, 20 % random) over chunks: the bucket of the ones has items
  // in every chunk and goes through rounds of partial sums, while the others finish in round 1, or
  // (with items of at most 2 or 3 points) after one, two or three rounds, starting from the bucket's
  // sum over earlier chunks.
  std::vector<Fr> mix(n);
  for (auto& x : mix) {
    const uint64_t r = rng() % 5;
    x = r < 2 ? Fr::zero() : r < 4 ? Fr::one() : random_field<Fr>(rng);
  }
  for (uint32_t run : {0u, 2u, 3u}) {
    c = Case{};
    c.cfg.chunk_points = 1000;
    c.cfg.bucket_run = run;
    c.scalars_at = Memory::device;
    expect_matches_cpu(bases, mix, c, "witness mix, 11 chunks, items of " + std::to_string(run));
  }
  c.cfg.precompute = 0;
  expect_matches_cpu(bases, mix, c, "witness mix, 11 chunks, items of 3, precomputed");
  std::vector<Fr> mix2(mix.begin(), mix.begin() + 3001);
  c = Case{};
  c.cfg.chunk_points = 1000;
  c.cfg.bucket_run = 2;
  expect_matches_cpu(g2, mix2, c, "G2 witness mix, 4 chunks, items of 2");
}

template <class A>
void special_inputs() {
  std::mt19937_64 rng(gputest::test_seed());
  SCOPED_TRACE("seed " + std::to_string(gputest::test_seed()));
  std::vector<Fr> logs;
  const size_t n = 5000;
  const auto bases = progression<A>(n, rng, &logs);
  const auto random = random_scalars(n, rng);
  for (unsigned m : {1u, 0u}) {
    Case c;
    c.cfg.precompute = m;
    const std::string tag = m ? " (no precompute)" : " (precomputed)";
    expect_matches_cpu(bases, std::vector<Fr>(n, Fr::zero()), c, "all zero" + tag);
    expect_matches_cpu(bases, std::vector<Fr>(n, Fr::one()), c, "all one" + tag);
    expect_matches_cpu(bases, std::vector<Fr>(n, -Fr::one()), c, "all r-1" + tag);
    std::vector<Fr> binary(n);
    for (auto& x : binary) x = rng() % 2 ? Fr::one() : Fr::zero();
    expect_matches_cpu(bases, binary, c, "0/1" + tag);
    expect_matches_cpu(std::vector<A>(n, bases[7]), random, c, "one repeated base" + tag);
    const Fr same = random_field<Fr>(rng);
    expect_matches_cpu(bases, std::vector<Fr>(n, same), c, "one repeated scalar" + tag);
    std::vector<A> holes = bases;
    for (size_t i = 0; i < n; i += 3) holes[i] = A::infinity();
    expect_matches_cpu(holes, random, c, "infinity bases" + tag);
    expect_matches_cpu(std::vector<A>(n, A::infinity()), random, c, "all infinity" + tag);
    std::vector<A> pm = bases;
    for (size_t i = 1; i < n; i += 2) pm[i] = pm[i - 1].neg();
    std::vector<Fr> ones(n, Fr::one());
    expect_matches_cpu(pm, ones, c, "P and -P" + tag);
  }
}
TEST(GpuMsm, G1SpecialInputs) {
  CUZK_REQUIRE_GPU();
  special_inputs<G1Affine>();
}
TEST(GpuMsm, G2SpecialInputs) {
  CUZK_REQUIRE_GPU();
  special_inputs<G2Affine>();
}

// `tables_by_bases`: the context's tables hold the present count (MsmConfig::max_bases), not n.
template <class A>
void density_case(size_t n, Case c, std::mt19937_64& rng, bool tables_by_bases = false) {
  SCOPED_TRACE("n=" + std::to_string(n) + (tables_by_bases ? ", tables by bases" : ""));
  std::vector<uint64_t> density((n + 63) / 64);
  for (auto& w : density) w = rng() & rng();               // about a quarter present, like B's density
  if (n % 64) density.back() |= ~uint64_t(0) << (n % 64);  // bits past the end are ignored
  size_t present = 0;
  for (size_t i = 0; i < n; ++i) present += (density[i / 64] >> (i % 64)) & 1;
  if (tables_by_bases) c.cfg.max_bases = std::max<size_t>(present, 1);
  std::vector<Fr> logs;
  const auto bases = progression<A>(present, rng, &logs);
  const auto scalars = random_scalars(n, rng);
  auto want = cpu::msm<A>(bases, scalars, density);
  ASSERT_TRUE(want.ok()) << want.message();
  auto got = device_msm(bases, scalars, c, density.data());
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got == *want);
  // The number of bases must be the present count.
  auto more = bases;
  more.push_back(A::generator());
  EXPECT_FALSE(device_msm(more, scalars, c, density.data()).ok());
}
TEST(GpuMsm, Density) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  SCOPED_TRACE("seed " + std::to_string(gputest::test_seed()));
  Case c;
  for (size_t n : {1, 65, 1000, 20000 + 3}) density_case<G1Affine>(n, c, rng);
  c.cfg.chunk_points = 3000;
  c.streamed = true;
  density_case<G1Affine>(20000 + 3, c, rng);
  c = Case{};
  c.cfg.precompute = 0;
  c.cfg.chunk_points = 5000;
  density_case<G1Affine>(20000 + 3, c, rng);
  density_case<G2Affine>(3000, Case{}, rng);
  // Tables sized by the present variables, with and without precomputed multiples.
  for (unsigned m : {1u, 2u, 0u}) {
    c = Case{};
    c.cfg.precompute = m;
    c.cfg.chunk_points = 7000;
    density_case<G1Affine>(20000 + 3, c, rng, true);
  }
  density_case<G2Affine>(3000, Case{}, rng, true);
}

// Device scalars over several passes: counted once, then cut by points (uniform scalars) or by
// digits (a witness's 0s and 1s: 3 passes where points would take 10), for G1, G2 and the density
// form; all zero (no digits at all) and all one (one bucket) too.
template <class A>
void device_passes(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> logs;
  const auto bases = progression<A>(n, rng, &logs);
  const std::vector<Fr> witness = witness_scalars(n, rng);
  for (unsigned c : {8u, 13u}) {
    Case k;
    k.cfg.window_bits = c;
    k.cfg.chunk_points = 2048;
    k.scalars_at = Memory::device;
    const std::string tag = " c=" + std::to_string(c);
    expect_matches_cpu(bases, witness, k, "witness" + tag);
    k.bases_at = Memory::device;
    expect_matches_cpu(bases, random_scalars(n, rng), k, "uniform, device bases" + tag);
    expect_matches_cpu(bases, std::vector<Fr>(n, Fr::one()), k, "all one" + tag);
    expect_matches_cpu(bases, std::vector<Fr>(n, Fr::zero()), k, "all zero" + tag);
  }
}
TEST(GpuMsm, PassesOverDeviceScalars) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  SCOPED_TRACE("seed " + std::to_string(gputest::test_seed()));
  device_passes<G1Affine>(20000 + 3, rng);
  device_passes<G2Affine>(6000 + 1, rng);
  Case c;
  c.cfg.chunk_points = 3000;
  c.scalars_at = Memory::device;
  density_case<G1Affine>(20000 + 3, c, rng);
  density_case<G2Affine>(9000 + 5, c, rng, true);
}

// Passes of set groups (MsmConfig::set_passes): each pass takes every point's digits (of a chunk,
// for host scalars) in a group of bucket sets. Against the CPU, with the pass count the layout
// predicts (so the groups did run), and with passes of points: uniform device scalars with sets of
// one window and of two (precomputed tables), scalars at the carry bounds, a witness's mix, host
// scalars, streamed bases, and the density form.
template <class A>
void set_group_passes(size_t n, size_t chunk, std::mt19937_64& rng) {
  SCOPED_TRACE("n=" + std::to_string(n) + " chunk=" + std::to_string(chunk));
  std::vector<Fr> logs;
  const auto bases = progression<A>(n, rng, &logs);
  auto uniform = random_scalars(n, rng);
  // A pass's first window w starts from the carry out of the windows below it, which the kernel reads
  // off the low bits below w: set at the bound where it flips (the top bit of each window j < w), one
  // below and one above, at random places. Windows of c bits, and of c bits then c − 1 (the narrow top
  // windows of m = 1: W·c − 256 of them, at most W − 1).
  for (unsigned c : {8u, 13u}) {
    const unsigned W = (256 + c - 1) / c;
    for (unsigned narrow : {0u, std::min(W * c - 256, W - 1)}) {
      uint64_t t[4] = {0, 0, 0, 0};
      unsigned top = 0;  // one past window j's top bit
      for (unsigned j = 0; j + 1 < W; ++j) {
        top += j < W - narrow ? c : c - 1;
        if (top > 250) break;
        t[(top - 1) / 64] |= uint64_t(1) << ((top - 1) % 64);
        for (int d : {-1, 0, 1}) {
          uint64_t v[4] = {t[0] + uint64_t(int64_t(d)), t[1], t[2], t[3]};
          uniform[rng() % n] = Fr::from_canonical(v);
        }
      }
    }
  }
  auto want = cpu::msm<A>(bases, uniform);
  ASSERT_TRUE(want.ok()) << want.message();
  for (unsigned c : {8u, 13u}) {
    // One table with narrow top windows and without (every window c bits), then two tables.
    const std::pair<unsigned, bool> shapes[] = {{1u, true}, {1u, false}, {2u, true}};
    for (const auto& [m, narrow] : shapes) {
      const std::string tag =
          "c=" + std::to_string(c) + " m=" + std::to_string(m) + (narrow ? "" : " uniform");
      SCOPED_TRACE(tag);
      Case k;
      k.cfg.window_bits = c;
      k.cfg.precompute = m;
      k.cfg.narrow_windows = narrow;
      k.cfg.chunk_points = chunk;
      k.cfg.profile = true;
      k.cfg.set_passes = true;
      k.scalars_at = Memory::device;
      k.bases_at = Memory::device;
      const size_t W = (256 + c - 1) / c, S = (W + m - 1) / m;
      const size_t g = std::min(S, chunk * W / (n * m));
      ASSERT_GE(g, 1u);
      unsigned passes = 0;
      auto got = device_msm(bases, uniform, k, nullptr, &passes);
      ASSERT_TRUE(got.ok()) << got.message();
      EXPECT_TRUE(*got == *want);
      EXPECT_EQ(passes, (S + g - 1) / g);
      k.cfg.set_passes = false;
      got = device_msm(bases, uniform, k, nullptr, &passes);
      ASSERT_TRUE(got.ok()) << got.message();
      EXPECT_TRUE(*got == *want) << "passes of points";
      EXPECT_GT(passes, 1u);
    }
  }
  Case k;
  k.cfg.window_bits = 13;
  k.cfg.chunk_points = chunk;
  k.cfg.profile = true;
  k.cfg.set_passes = true;
  k.scalars_at = Memory::device;
  const size_t g13 = chunk * 20 / n, groups = (20 + g13 - 1) / g13, chunks = (n + chunk - 1) / chunk;
  unsigned passes = 0;
  // A witness (mostly 0 and 1) takes the set groups too.
  const auto witness = witness_scalars(n, rng);
  auto want_w = cpu::msm<A>(bases, witness);
  ASSERT_TRUE(want_w.ok()) << want_w.message();
  auto got = device_msm(bases, witness, k, nullptr, &passes);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got == *want_w) << "witness";
  EXPECT_EQ(passes, groups) << "witness";
  // Host scalars, then bases streamed too: each chunk of points in set groups.
  k.scalars_at = Memory::host;
  got = device_msm(bases, uniform, k, nullptr, &passes);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got == *want) << "host scalars";
  EXPECT_EQ(passes, chunks * groups) << "host scalars";
  k.streamed = true;
  got = device_msm(bases, uniform, k, nullptr, &passes);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got == *want) << "streamed bases";
  EXPECT_EQ(passes, chunks * groups) << "streamed bases";
  k.streamed = false;
  k.scalars_at = Memory::device;
  // The density form: a quarter of the variables present, one set a pass (g = 1 at this chunk).
  std::vector<uint64_t> density((n + 63) / 64);
  for (auto& w : density) w = rng() & rng();
  size_t present = 0;
  for (size_t i = 0; i < n; ++i) present += (density[i / 64] >> (i % 64)) & 1;
  const std::vector<A> some(bases.begin(), bases.begin() + std::ptrdiff_t(present));
  auto want_d = cpu::msm<A>(some, uniform, density);
  ASSERT_TRUE(want_d.ok()) << want_d.message();
  k.cfg.chunk_points = (n + 19) / 20;  // entries for one set of every point: chunk·W >= n
  got = device_msm(some, uniform, k, density.data(), &passes);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got == *want_d) << "density";
  EXPECT_EQ(passes, 20u) << "density";
}
TEST(GpuMsm, SetGroupPasses) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  SCOPED_TRACE("seed " + std::to_string(gputest::test_seed()));
  set_group_passes<G1Affine>(20000 + 3, 4096, rng);
  set_group_passes<G2Affine>(6000 + 1, 1024, rng);
}

TEST(GpuMsm, Errors) {
  CUZK_REQUIRE_GPU();
  auto s = Stream::create(test_device());
  CUZK_ASSERT_OK(s);
  auto ctx = Msm<G1Affine>::create(test_device(), 100);
  CUZK_ASSERT_OK(ctx);
  std::vector<Fr> sc(10, Fr::one());
  EXPECT_FALSE(ctx->run(sc.data(), sc.size(), Memory::host, ScalarForm::montgomery, *s).ok());  // no bases
  std::vector<G1Affine> b(50, G1Affine::generator());
  CUZK_ASSERT_OK(ctx->set_bases(b.data(), b.size(), Memory::host, *s));
  std::vector<Fr> more(51, Fr::one());
  EXPECT_FALSE(ctx->run(more.data(), more.size(), Memory::host, ScalarForm::montgomery, *s).ok());
  std::vector<G1Affine> too_many(101, G1Affine::generator());
  EXPECT_FALSE(ctx->set_bases(too_many.data(), too_many.size(), Memory::host, *s).ok());
  auto none = ctx->run(sc.data(), 0, Memory::host, ScalarForm::montgomery, *s);
  CUZK_ASSERT_OK(none);
  EXPECT_TRUE(none->is_inf());
  MsmConfig bad;
  bad.window_bits = 30;
  EXPECT_FALSE((Msm<G1Affine>::plan(100, bad).ok()));
  auto plan = Msm<G1Affine>::plan(size_t(1) << 20);
  CUZK_ASSERT_OK(plan);
  EXPECT_GT(plan->total_bytes(), (size_t(1) << 20) * sizeof(G1Affine));
}

// Large sizes: Σ s_i·[k_i]G == [Σ s_i·k_i]G with P_i drawn from a table of 2^16 known multiples
// by a random index, so a wrong base index or sign shows w.h.p. Runs the precomputed and plain modes.
template <class A>
void discrete_log_check(size_t n) {
  SCOPED_TRACE("n=" + std::to_string(n));
  std::mt19937_64 rng(gputest::test_seed() + n);
  std::vector<Fr> logs;
  const auto table = progression<A>(size_t(1) << 16, rng, &logs);
  std::vector<A> bases(n);
  std::vector<Fr> scalars(n);
  std::mutex mu;
  Fr k = Fr::zero();
  const uint64_t salt = rng();
  gputest::parallel_for(n, [&](size_t b, size_t e) {
    std::mt19937_64 r(salt ^ (b * 0x9e3779b97f4a7c15ull));
    Fr acc = Fr::zero();
    for (size_t i = b; i < e; ++i) {
      const size_t j = r() & 0xffff;
      bases[i] = table[j];
      scalars[i] = i % 11 == 0 ? Fr::from_u64(i % 3) : random_field<Fr>(r);
      acc += scalars[i] * logs[j];
    }
    std::lock_guard<std::mutex> lock(mu);
    k += acc;
  });
  const Jac<A> want = A::generator().mul(k);
  for (unsigned m : {0u, 1u}) {
    Case c;
    c.cfg.precompute = m;
    c.scalars_at = Memory::device;
    c.bases_at = Memory::device;
    auto got = device_msm(bases, scalars, c);
    ASSERT_TRUE(got.ok()) << got.message();
    EXPECT_TRUE(*got == want) << "precompute " << m;
  }
}
TEST(GpuMsm, G1LargeSizes) {
  CUZK_REQUIRE_GPU();
  for (size_t n : {(size_t(1) << 18) + 3, size_t(1) << 20, (size_t(1) << 22)})
    discrete_log_check<G1Affine>(n);
}
TEST(GpuMsm, G2LargeSizes) {
  CUZK_REQUIRE_GPU();
  for (size_t n : {(size_t(1) << 18) - 1, size_t(1) << 20}) discrete_log_check<G2Affine>(n);
}

}  // namespace
}  // namespace cuzk::cuda
