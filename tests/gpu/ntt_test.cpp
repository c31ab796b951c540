// The device NTT against the CPU NTT (backend/cpu, the reference), element for element on fresh
// random inputs: every size from 2^1 to 2^24, both root conventions, forward, inverse and the
// coset variants, in all four combinations of input and output order; round trips; the
// pointwise kernels; odd tunings that move the pass boundaries. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu/ntt.hpp"
#include "backend/cuda/ntt/ntt.hpp"
#include "backend/cuda/ntt/pointwise.hpp"
#include "backend/cuda/runtime/device_cache.hpp"
#include "backend/cuda/testing/field_kernels.hpp"

namespace cuzk::cuda {
namespace {

using cpu::NttDomain;

uint64_t fresh_seed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) | rd();
}

// Uniform field elements: a canonical integer below r is the Montgomery form of exactly one
// element, so rejection sampling on raw limbs is uniform and needs no multiplication.
std::vector<Fr> random_vector(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) {
    for (;;) {
      uint64_t l[Fr::N];
      for (auto& w : l) w = rng();
      l[Fr::N - 1] &= ~uint64_t(0) >> (64 * Fr::N - Fr::BITS);
      if (!Fr::is_canonical(l)) continue;
      for (size_t i = 0; i < Fr::N; ++i) x.l[i] = l[i];
      break;
    }
  }
  return v;
}

uint64_t reverse_bits(uint64_t x, unsigned bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  return __builtin_bswap64(x) >> (64 - bits);
}

std::vector<Fr> bit_reversed(const std::vector<Fr>& v, unsigned log_n) {
  std::vector<Fr> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[reverse_bits(i, log_n)] = v[i];
  return r;
}

const char* name(RootConvention c) { return c == RootConvention::bellman ? "bellman" : "snarkjs"; }
const char* name(NttOrder o) { return o == NttOrder::natural ? "N" : "R"; }

// Index of the first difference, or -1.
long first_mismatch(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return long(i);
  return -1;
}

class Gpu : public ::testing::Test {
 public:
  void SetUp() override {
    std::string why;
    if (device_count(&why) == 0) GTEST_SKIP() << why;
    auto s = Stream::create(0);
    ASSERT_TRUE(s.ok()) << s.message();
    stream_.emplace(std::move(*s));
    seed_ = fresh_seed();
    rng_.seed(seed_);
    std::printf("seed %llu\n", (unsigned long long)seed_);
  }
  const Stream& stream() const { return *stream_; }

  // Runs op on the device over `input` given in natural order, handing it over in order `in`
  // and reading it back in order `out`; returns the result in natural order.
  template <class Op>
  std::vector<Fr> on_device(const std::vector<Fr>& input, unsigned log_n, NttOrder in, NttOrder out, Op op) {
    const std::vector<Fr> host = in == NttOrder::natural ? input : bit_reversed(input, log_n);
    auto buf = DeviceBuffer<Fr>::alloc(0, host.size());
    EXPECT_TRUE(buf.ok()) << buf.message();
    if (!buf) return {};
    EXPECT_TRUE(buf->upload(host.data(), host.size(), stream()).ok());
    const Status st = op(buf->data());
    EXPECT_TRUE(st.ok()) << st.message();
    std::vector<Fr> got(host.size());
    EXPECT_TRUE(buf->download(got.data(), got.size(), stream()).ok());
    const Status sy = stream().synchronize();
    EXPECT_TRUE(sy.ok()) << sy.message();
    return out == NttOrder::natural ? got : bit_reversed(got, log_n);
  }

  std::optional<Stream> stream_;
  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

constexpr NttOrder kOrders[2] = {NttOrder::natural, NttOrder::bit_reversed};

// All four transforms at one size against the CPU, on one plan; order combinations: all four
// when `all_orders`, else one picked by the size.
void check_against_cpu(Gpu& t, const NttPlan& plan, unsigned log_n, bool all_orders, std::mt19937_64& rng,
                       const Stream& s) {
  const RootConvention conv = plan.convention();
  auto dom = NttDomain::create(log_n, conv);
  ASSERT_TRUE(dom.ok()) << dom.message();
  ASSERT_EQ(plan.omega(log_n), dom->omega());
  ASSERT_EQ(plan.default_coset_shift(log_n), dom->coset_shift());
  auto coset = plan.coset_powers(s, log_n);
  ASSERT_TRUE(coset.ok()) << coset.message();
  ASSERT_EQ(coset->device_bytes(), NttCosetPowers::device_bytes_for(log_n));

  for (int op = 0; op < 4; ++op) {
    const std::vector<Fr> x = random_vector(size_t(1) << log_n, rng);
    std::vector<Fr> want = x;
    switch (op) {
      case 0:
        ASSERT_TRUE(dom->forward(want).ok());
        break;
      case 1:
        ASSERT_TRUE(dom->inverse(want).ok());
        break;
      case 2:
        ASSERT_TRUE(dom->coset_forward(want).ok());
        break;
      case 3:
        ASSERT_TRUE(dom->coset_inverse(want).ok());
        break;
    }
    static const char* kOps[] = {"forward", "inverse", "coset_forward", "coset_inverse"};
    for (int combo = 0; combo < 4; ++combo) {
      if (!all_orders && combo != int((log_n + op) % 4)) continue;
      const NttOrder in = kOrders[combo & 1], out = kOrders[combo >> 1];
      const std::vector<Fr> got = t.on_device(x, log_n, in, out, [&](Fr* d) {
        switch (op) {
          case 0:
            return plan.forward(s, d, log_n, in, out);
          case 1:
            return plan.inverse(s, d, log_n, in, out);
          case 2:
            return plan.coset_forward(s, d, *coset, in, out);
          default:
            return plan.coset_inverse(s, d, *coset, in, out);
        }
      });
      const long bad = first_mismatch(got, want);
      EXPECT_EQ(bad, -1) << name(conv) << " " << kOps[op] << " 2^" << log_n << " " << name(in) << "->"
                         << name(out) << " plan 2^" << plan.max_log_size() << " first mismatch at " << bad;
    }
  }
}

TEST_F(Gpu, NttMatchesCpuAllSizesBothConventions) {
  for (RootConvention conv : {RootConvention::bellman, RootConvention::snarkjs}) {
    auto plan = NttPlan::create(stream(), 24, conv);
    ASSERT_TRUE(plan.ok()) << plan.message();
    for (unsigned log_n = 1; log_n <= 24; ++log_n) {
      SCOPED_TRACE(std::string(name(conv)) + " 2^" + std::to_string(log_n));
      check_against_cpu(*this, *plan, log_n, log_n <= 16 || log_n == 24, rng_, stream());
      // A plan whose table is exactly the transform's size (the inverse reads its last entries).
      if (log_n <= 14 && log_n % 3 == 1) {
        auto exact = NttPlan::create(stream(), log_n, conv);
        ASSERT_TRUE(exact.ok()) << exact.message();
        check_against_cpu(*this, *exact, log_n, true, rng_, stream());
      }
      if (HasFatalFailure()) return;
    }
  }
}

// Other tunings move the pass boundaries, the coalesced runs and the stages that take their
// twiddles from two tables (twiddle_log below 19 at a plan of 2^20: every stage with 0, the top
// 14 with 5); the result must not change.
TEST_F(Gpu, NttTuningsAgree) {
  const NttTuning tunings[] = {{8, 0, 32},    {8, 3, 64},      {10, 4, 128},     {12, 2, 512},
                               {6, 2, 32},    {9, 1, 64},      {11, 2, 128},     {11, 1, 256},
                               {8, 0, 32, 0}, {10, 2, 128, 5}, {11, 1, 256, 12}, {12, 2, 512, 18}};
  for (const NttTuning& tu : tunings) {
    auto plan = NttPlan::create(stream(), 20, RootConvention::bellman, tu);
    ASSERT_TRUE(plan.ok()) << plan.message();
    for (unsigned log_n : {3u, 7u, 9u, 12u, 13u, 17u, 20u}) {
      SCOPED_TRACE("tuning " + std::to_string(tu.pass_log) + "/" + std::to_string(tu.coalesce_log) + "/" +
                   std::to_string(tu.threads) + "/" + std::to_string(tu.twiddle_log) + " 2^" +
                   std::to_string(log_n));
      check_against_cpu(*this, *plan, log_n, false, rng_, stream());
    }
  }
}

// The prover's chain with no permutation: iNTT N→R, coset NTT R→N, coset iNTT N→R, NTT R→N
// brings the input back; and each transform undoes its inverse at a size beyond the CPU checks.
TEST_F(Gpu, NttRoundTrips) {
  for (RootConvention conv : {RootConvention::bellman, RootConvention::snarkjs}) {
    for (unsigned log_n : {5u, 18u, 25u}) {
      // 2^25 with the H stage's compact twiddles (the top 5 stages from two tables).
      auto plan =
          NttPlan::create(stream(), log_n, conv, log_n == 25 ? NttTuning{10, 2, 128, 19} : NttTuning{});
      ASSERT_TRUE(plan.ok()) << plan.message();
      auto coset = plan->coset_powers(stream(), log_n);
      ASSERT_TRUE(coset.ok()) << coset.message();
      const std::vector<Fr> x = random_vector(size_t(1) << log_n, rng_);
      const std::vector<Fr> got =
          on_device(x, log_n, NttOrder::natural, NttOrder::natural, [&](Fr* d) -> Status {
            const auto N = NttOrder::natural, R = NttOrder::bit_reversed;
            CUZK_TRY_STATUS(plan->inverse(stream(), d, log_n, N, R));
            CUZK_TRY_STATUS(plan->coset_forward(stream(), d, *coset, R, N));
            CUZK_TRY_STATUS(plan->coset_inverse(stream(), d, *coset, N, R));
            CUZK_TRY_STATUS(plan->forward(stream(), d, log_n, R, N));
            CUZK_TRY_STATUS(plan->forward(stream(), d, log_n, N, N));
            CUZK_TRY_STATUS(plan->inverse(stream(), d, log_n, N, N));
            CUZK_TRY_STATUS(plan->coset_forward(stream(), d, *coset, N, N));
            return plan->coset_inverse(stream(), d, *coset, N, N);
          });
      EXPECT_EQ(first_mismatch(got, x), -1) << name(conv) << " 2^" << log_n;
    }
  }
}

// The unscaled inverse is n times the inverse, and the coset tables' factors scale the coset
// transforms (forward: f·g^i; inverse: h·g^-i in place of n^-1·g^-i), in every order; the prover's
// chain with n^-1 moved from the inverse into the forward table gives the plain chain's result.
TEST_F(Gpu, FactorsFoldIntoTheCosetTablesAndTheUnscaledInverse) {
  for (RootConvention conv : {RootConvention::bellman, RootConvention::snarkjs}) {
    auto plan = NttPlan::create(stream(), 18, conv);
    ASSERT_TRUE(plan.ok()) << plan.message();
    for (unsigned log_n : {1u, 6u, 13u, 18u}) {
      SCOPED_TRACE(std::string(name(conv)) + " 2^" + std::to_string(log_n));
      auto dom = NttDomain::create(log_n, conv);
      ASSERT_TRUE(dom.ok()) << dom.message();
      const size_t n = size_t(1) << log_n;
      const Fr n_fr = Fr::from_u64(n), f = random_vector(1, rng_)[0], h = random_vector(1, rng_)[0];
      auto plain = plan->coset_powers(stream(), log_n);
      auto scaled = plan->coset_powers(stream(), log_n, plan->default_coset_shift(log_n), nullptr,
                                       NttCosetFactors{f, h});
      ASSERT_TRUE(plain.ok() && scaled.ok());
      EXPECT_EQ(scaled->forward_factor, f);
      EXPECT_EQ(scaled->inverse_factor, h);
      EXPECT_EQ(plain->inverse_factor, n_fr.inverse());
      const auto times = [](std::vector<Fr> v, const Fr& k) {
        for (auto& e : v) e = e * k;
        return v;
      };
      const std::vector<Fr> x = random_vector(n, rng_);
      std::vector<Fr> inv = x, cf = x, ci = x, chain = x;
      ASSERT_TRUE(dom->inverse(inv).ok());
      ASSERT_TRUE(dom->coset_forward(cf).ok());
      ASSERT_TRUE(dom->coset_inverse(ci).ok());
      ASSERT_TRUE(dom->inverse(chain).ok());
      ASSERT_TRUE(dom->coset_forward(chain).ok());
      for (int combo = 0; combo < 4; ++combo) {
        const NttOrder in = kOrders[combo & 1], out = kOrders[combo >> 1];
        SCOPED_TRACE(std::string(name(in)) + "->" + name(out));
        EXPECT_EQ(first_mismatch(
                      on_device(x, log_n, in, out,
                                [&](Fr* d) { return plan->inverse_unscaled(stream(), d, log_n, in, out); }),
                      times(inv, n_fr)),
                  -1);
        EXPECT_EQ(first_mismatch(
                      on_device(x, log_n, in, out,
                                [&](Fr* d) { return plan->coset_forward(stream(), d, *scaled, in, out); }),
                      times(cf, f)),
                  -1);
        EXPECT_EQ(first_mismatch(
                      on_device(x, log_n, in, out,
                                [&](Fr* d) { return plan->coset_inverse(stream(), d, *scaled, in, out); }),
                      times(ci, h * n_fr)),
                  -1);
      }
      auto folded = plan->coset_powers(stream(), log_n, plan->default_coset_shift(log_n), nullptr,
                                       NttCosetFactors{n_fr.inverse(), Fr::one()});
      ASSERT_TRUE(folded.ok());
      const auto N = NttOrder::natural, R = NttOrder::bit_reversed;
      EXPECT_EQ(first_mismatch(on_device(x, log_n, N, N,
                                         [&](Fr* d) -> Status {
                                           CUZK_TRY_STATUS(plan->inverse_unscaled(stream(), d, log_n, N, R));
                                           return plan->coset_forward(stream(), d, *folded, R, N);
                                         }),
                               chain),
                -1);
    }
  }
}

// The H stage's fused forms against the transforms they replace, on the CPU: to_coset (the
// unscaled inverse and the coset forward, the two bottom passes one kernel) and
// coset_inverse_of_product (b multiplied in the first pass, sub taken off in the last), with
// factors in the coset tables, in both orders, at sizes of one pass, of several and of one
// element, and under tunings that move the passes (the bottom pass's extra index bits included).
TEST_F(Gpu, FusedCosetTransformsMatchTheirChains) {
  const NttTuning tunings[] = {{}, {8, 3, 64}, {6, 2, 32}, {12, 2, 512}, {10, 2, 128, 4}, {6, 2, 32, 11}};
  const auto N = NttOrder::natural, R = NttOrder::bit_reversed;
  for (RootConvention conv : {RootConvention::bellman, RootConvention::snarkjs}) {
    for (const NttTuning& tu : tunings) {
      auto plan = NttPlan::create(stream(), 20, conv, tu);
      ASSERT_TRUE(plan.ok()) << plan.message();
      for (unsigned log_n : {0u, 1u, 5u, 6u, 7u, 10u, 11u, 13u, 17u, 20u}) {
        SCOPED_TRACE(std::string(name(conv)) + " tuning " + std::to_string(tu.pass_log) + "/" +
                     std::to_string(tu.coalesce_log) + "/" + std::to_string(tu.twiddle_log) + " 2^" +
                     std::to_string(log_n));
        const size_t n = size_t(1) << log_n;
        const Fr n_fr = Fr::from_u64(n), f = random_vector(1, rng_)[0], h = random_vector(1, rng_)[0];
        auto coset = plan->coset_powers(stream(), log_n, plan->default_coset_shift(log_n), nullptr,
                                        NttCosetFactors{f, h});
        ASSERT_TRUE(coset.ok()) << coset.message();
        const std::vector<Fr> x = random_vector(n, rng_), b = random_vector(n, rng_),
                              sub = random_vector(n, rng_);
        // The references: n·f·coset_forward(inverse(x)) and n·h·coset_inverse(x∘b) − sub.
        // Without b (null: ones), n·h·coset_inverse(x) − sub.
        std::vector<Fr> want_coset = x, want_product(n), want_no_b = x;
        for (size_t i = 0; i < n; ++i) want_product[i] = x[i] * b[i];
        if (log_n > 0) {
          auto dom = NttDomain::create(log_n, conv);
          ASSERT_TRUE(dom.ok()) << dom.message();
          ASSERT_TRUE(dom->inverse(want_coset).ok());
          ASSERT_TRUE(dom->coset_forward(want_coset).ok());
          ASSERT_TRUE(dom->coset_inverse(want_product).ok());
          ASSERT_TRUE(dom->coset_inverse(want_no_b).ok());
        }
        for (size_t i = 0; i < n; ++i) {
          want_coset[i] = want_coset[i] * (n_fr * f);
          want_product[i] = want_product[i] * (n_fr * h) - sub[i];
          want_no_b[i] = want_no_b[i] * (n_fr * h) - sub[i];
        }
        EXPECT_EQ(first_mismatch(
                      on_device(x, log_n, N, N, [&](Fr* d) { return plan->to_coset(stream(), d, *coset); }),
                      want_coset),
                  -1)
            << "to_coset";
        {
          // With a tap: the same transform, the input copied into the tap's rows, then a second
          // input's transform multiplies it in; the rows past the tap's are left as they were.
          const size_t rows = n > 2 ? n - 2 : n;
          const std::vector<Fr> fill = random_vector(n, rng_);
          auto dt = DeviceBuffer<Fr>::alloc(0, n);
          ASSERT_TRUE(dt.ok());
          ASSERT_TRUE(dt->upload(fill.data(), n, stream()).ok());
          EXPECT_EQ(
              first_mismatch(
                  on_device(x, log_n, N, N,
                            [&](Fr* d) {
                              return plan->to_coset(stream(), d, *coset, NttTap{dt->data(), rows, false});
                            }),
                  want_coset),
              -1)
              << "to_coset with a tap";
          std::vector<Fr> tapped(n);
          ASSERT_TRUE(dt->download(tapped.data(), n, stream()).ok());
          ASSERT_TRUE(stream().synchronize().ok());
          for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(tapped[i], i < rows ? x[i] : fill[i]) << "copied, row " << i;
          (void)on_device(b, log_n, N, N, [&](Fr* d) {
            return plan->to_coset(stream(), d, *coset, NttTap{dt->data(), rows, true});
          });
          ASSERT_TRUE(dt->download(tapped.data(), n, stream()).ok());
          ASSERT_TRUE(stream().synchronize().ok());
          for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(tapped[i], i < rows ? x[i] * b[i] : fill[i]) << "multiplied, row " << i;
          // A tap into the data itself, or over more rows than the data has: refused.
          auto other = DeviceBuffer<Fr>::alloc(0, n);
          ASSERT_TRUE(other.ok());
          EXPECT_FALSE(plan->to_coset(stream(), dt->data(), *coset, NttTap{dt->data(), rows, false}).ok());
          EXPECT_FALSE(
              plan->to_coset(stream(), other->data(), *coset, NttTap{dt->data(), n + 1, false}).ok());
        }
        for (const auto& [in, out] : {std::pair{N, R}, std::pair{R, N}}) {
          // b in the input's order, sub in the output's.
          const std::vector<Fr> b_in = in == N ? b : bit_reversed(b, log_n);
          const std::vector<Fr> sub_out = out == N ? sub : bit_reversed(sub, log_n);
          auto db = DeviceBuffer<Fr>::alloc(0, n);
          auto ds = DeviceBuffer<Fr>::alloc(0, n);
          ASSERT_TRUE(db.ok() && ds.ok());
          ASSERT_TRUE(db->upload(b_in.data(), n, stream()).ok());
          ASSERT_TRUE(ds->upload(sub_out.data(), n, stream()).ok());
          const auto got = on_device(x, log_n, in, out, [&](Fr* d) {
            return plan->coset_inverse_of_product(stream(), d, db->data(), ds->data(), *coset, in, out);
          });
          EXPECT_EQ(first_mismatch(got, want_product), -1)
              << "coset_inverse_of_product " << name(in) << "->" << name(out);
          const auto no_b = on_device(x, log_n, in, out, [&](Fr* d) {
            return plan->coset_inverse_of_product(stream(), d, nullptr, ds->data(), *coset, in, out);
          });
          EXPECT_EQ(first_mismatch(no_b, want_no_b), -1) << "coset_inverse_of_product, no b";
          if (log_n == 0) continue;
          // Without sub, the same less nothing.
          std::vector<Fr> want_nosub = want_product;
          for (size_t i = 0; i < n; ++i) want_nosub[i] = want_nosub[i] + sub[i];
          const auto nosub = on_device(x, log_n, in, out, [&](Fr* d) {
            return plan->coset_inverse_of_product(stream(), d, db->data(), nullptr, *coset, in, out);
          });
          EXPECT_EQ(first_mismatch(nosub, want_nosub), -1) << "coset_inverse_of_product, no sub";
        }
        if (HasFatalFailure()) return;
      }
    }
  }
  // A reversal would put b or sub in the wrong order: refused.
  auto plan = NttPlan::create(stream(), 8, RootConvention::bellman);
  ASSERT_TRUE(plan.ok());
  auto coset = plan->coset_powers(stream(), 8);
  ASSERT_TRUE(coset.ok());
  auto d = DeviceBuffer<Fr>::alloc(0, 256);
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(plan->coset_inverse_of_product(stream(), d->data(), d->data(), nullptr, *coset, N, N).ok());
  EXPECT_FALSE(plan->coset_inverse_of_product(stream(), d->data(), d->data(), nullptr, *coset, R, R).ok());
}

TEST_F(Gpu, PointwiseKernelsMatchCpu) {
  const size_t n = 100003;  // not a power of two, not a multiple of a block
  const std::vector<Fr> a = random_vector(n, rng_), b = random_vector(n, rng_), c = random_vector(n, rng_);
  const Fr z = random_vector(1, rng_)[0], g = random_vector(1, rng_)[0];
  auto db = DeviceBuffer<Fr>::alloc(0, n);
  auto dc = DeviceBuffer<Fr>::alloc(0, n);
  ASSERT_TRUE(db.ok() && dc.ok());
  ASSERT_TRUE(db->upload(b.data(), n, stream()).ok());
  ASSERT_TRUE(dc->upload(c.data(), n, stream()).ok());
  // Every form: with and without b (null: ones), with and without c (null: zeros), z or one.
  for (const Fr& zz : {z, Fr::one()})
    for (const bool has_b : {true, false})
      for (const bool has_c : {true, false}) {
        std::vector<Fr> want(n);
        for (size_t i = 0; i < n; ++i)
          want[i] = ((has_b ? a[i] * b[i] : a[i]) - (has_c ? c[i] : Fr::zero())) * zz;
        const auto got = on_device(a, 0, NttOrder::natural, NttOrder::natural, [&](Fr* d) {
          return mul_sub_scale(stream(), d, has_b ? db->data() : nullptr, has_c ? dc->data() : nullptr, zz,
                               n);
        });
        EXPECT_EQ(first_mismatch(got, want), -1)
            << "mul_sub_scale, b " << has_b << ", c " << has_c << ", z one " << zz.is_one();
      }
  {
    std::vector<Fr> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = a[i] * z;
    const auto got = on_device(a, 0, NttOrder::natural, NttOrder::natural,
                               [&](Fr* d) { return scale(stream(), d, z, n); });
    EXPECT_EQ(first_mismatch(got, want), -1) << "scale";
  }
  {
    std::vector<Fr> want = a;
    cpu::scale_by_powers(want, z, g);
    const auto got = on_device(a, 0, NttOrder::natural, NttOrder::natural,
                               [&](Fr* d) { return scale_by_powers(stream(), d, z, g, n); });
    EXPECT_EQ(first_mismatch(got, want), -1) << "scale_by_powers";
  }
}

TEST_F(Gpu, RowCheckFindsTheFirstUnsatisfiedRow) {
  const size_t n = 100003;
  const std::vector<Fr> a = random_vector(n, rng_), b = random_vector(n, rng_);
  std::vector<Fr> c(n);
  for (size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
  auto da = DeviceBuffer<Fr>::alloc(0, n);
  auto db = DeviceBuffer<Fr>::alloc(0, n);
  auto dab = DeviceBuffer<Fr>::alloc(0, n);
  auto dc = DeviceBuffer<Fr>::alloc(0, n);
  auto first = DeviceBuffer<unsigned long long>::alloc(0, 1);
  ASSERT_TRUE(da.ok() && db.ok() && dab.ok() && dc.ok() && first.ok());
  ASSERT_TRUE(da->upload(a.data(), n, stream()).ok());
  ASSERT_TRUE(db->upload(b.data(), n, stream()).ok());
  ASSERT_TRUE(dab->upload(c.data(), n, stream()).ok());  // the products, for the form without b
  const auto run = [&](const std::vector<Fr>& cc, size_t rows, bool products) {
    EXPECT_TRUE(dc->upload(cc.data(), n, stream()).ok());
    const Status st =
        products ? first_unsatisfied(stream(), dab->data(), nullptr, dc->data(), rows, first->data())
                 : first_unsatisfied(stream(), da->data(), db->data(), dc->data(), rows, first->data());
    EXPECT_TRUE(st.ok());
    unsigned long long got = 0;
    EXPECT_TRUE(first->download(&got, 1, stream()).ok());
    EXPECT_TRUE(stream().synchronize().ok());
    return size_t(got);
  };
  for (bool products : {false, true}) {
    SCOPED_TRACE(products ? "a holds the products" : "a times b");
    EXPECT_EQ(run(c, n, products), n);  // satisfied: rows
    EXPECT_EQ(run(c, 0, products), 0u);
    // Bad rows planted at the ends and in the middle, several at once: the least is reported.
    for (const std::vector<size_t>& bad :
         {std::vector<size_t>{0}, {n - 1}, {77777, 5, 99999}, {50000, 50001}}) {
      std::vector<Fr> cc = c;
      for (size_t j : bad) cc[j] = cc[j] + Fr::one();
      const size_t least = *std::min_element(bad.begin(), bad.end());
      EXPECT_EQ(run(cc, n, products), least);
      EXPECT_EQ(run(cc, least, products), least);  // rows past `rows` are not checked
    }
  }
}

TEST_F(Gpu, NttRejectsBadArguments) {
  auto plan = NttPlan::create(stream(), 10, RootConvention::bellman);
  ASSERT_TRUE(plan.ok()) << plan.message();
  EXPECT_EQ(plan->device_bytes(), size_t(512) * sizeof(Fr));
  // The default tuning holds one table; twiddle_log 19 splits it above 2^20: 2^19 entries and
  // 2^(N−20) beside them.
  EXPECT_EQ(NttPlan::device_bytes_for(27), (size_t(1) << 26) * sizeof(Fr));
  EXPECT_EQ(NttPlan::device_bytes_for(27, NttTuning{10, 2, 128, 19}),
            ((size_t(1) << 19) + (size_t(1) << 7)) * sizeof(Fr));
  auto buf = DeviceBuffer<Fr>::alloc(0, 2048);
  ASSERT_TRUE(buf.ok());
  EXPECT_FALSE(plan->forward(stream(), buf->data(), 11).ok());
  EXPECT_FALSE(plan->forward(stream(), nullptr, 4).ok());
  EXPECT_FALSE(plan->coset_powers(stream(), 11).ok());
  EXPECT_FALSE(plan->coset_powers(stream(), 4, Fr::zero()).ok());
  EXPECT_FALSE(NttPlan::create(stream(), 29, RootConvention::bellman).ok());
  EXPECT_FALSE(NttPlan::create(stream(), 10, RootConvention::bellman, {13, 2, 256}).ok());
  EXPECT_FALSE(NttPlan::create(stream(), 10, RootConvention::bellman, {10, 2, 100}).ok());
}

// Plans and coset tables made from a DeviceCache take back the tables an earlier plan left there
// (the backend makes both for every proof), checked against the CPU each time: a second plan of
// one convention takes all five tables back; the other convention's tables differ, so it takes
// none (it may take their blocks and fill them); after a plain user has had every idle block and
// overwritten it, the next plan computes its tables again.
TEST_F(Gpu, PlansFromACacheReuseTheirTablesAndMatchCpu) {
  constexpr unsigned log_n = 14;
  DeviceCache cache(0, [] { return SIZE_MAX; });
  const RootConvention order[] = {RootConvention::bellman, RootConvention::bellman, RootConvention::snarkjs,
                                  RootConvention::snarkjs, RootConvention::snarkjs};
  const uint64_t kept_by_round[] = {0, 5, 0, 0, 5};
  for (int round = 0; round < 5; ++round) {
    const RootConvention conv = order[round];
    if (round == 3) {
      // Every idle block to a plain user, which scribbles over it.
      std::vector<DeviceBuffer<Fr>> scribbled;
      for (size_t n : {size_t(1) << (log_n - 1), size_t(1) << ((log_n + 1) / 2), size_t(1) << (log_n / 2)})
        for (int k = 0; k < 8; ++k) {
          auto b = cache.take<Fr>(n);
          ASSERT_TRUE(b.ok()) << b.message();
          ASSERT_EQ(cudaMemsetAsync(b->data(), 0x5a, n * sizeof(Fr), stream().get()), cudaSuccess);
          scribbled.push_back(std::move(*b));
        }
    }
    const uint64_t kept = cache.stats().kept;
    {
      auto plan = NttPlan::create(stream(), log_n, conv, {}, &cache);
      ASSERT_TRUE(plan.ok()) << plan.message();
      auto coset = plan->coset_powers(stream(), log_n, &cache);
      ASSERT_TRUE(coset.ok()) << coset.message();
      auto dom = NttDomain::create(log_n, conv);
      ASSERT_TRUE(dom.ok()) << dom.message();
      const std::vector<Fr> x = random_vector(size_t(1) << log_n, rng_);
      std::vector<Fr> want = x;
      ASSERT_TRUE(dom->coset_forward(want).ok());
      const std::vector<Fr> got = on_device(x, log_n, NttOrder::natural, NttOrder::natural,
                                            [&](Fr* d) { return plan->coset_forward(stream(), d, *coset); });
      EXPECT_EQ(first_mismatch(got, want), -1) << name(conv) << " round " << round;
    }
    EXPECT_EQ(cache.stats().kept - kept, kept_by_round[round]) << "round " << round;
  }
}

}  // namespace
}  // namespace cuzk::cuda
