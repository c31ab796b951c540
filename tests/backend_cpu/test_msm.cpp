// MSM for G1 and G2 against the naive sum of scalar multiplications: many sizes, zero/one/r−1
// scalars, infinity and repeated bases, density bitmaps, forced windows and thread counts.
#include <gtest/gtest.h>

#include <vector>

#include "backend/cpu/msm.hpp"
#include "tests/backend_cpu/test_util.hpp"

namespace cuzk::cpu {
namespace {

using test::fresh_seed;
using test::random_field;

template <class A>
using Jac = curve::jacobian_t<typename A::field, typename A::params>;

// n points by a random walk over a few random multiples of the generator: cheap to make and
// with no structure an MSM bug could hide behind.
template <class A>
std::vector<A> random_points(size_t n, std::mt19937_64& rng) {
  std::vector<Jac<A>> steps;
  for (int i = 0; i < 8; ++i) steps.push_back(A::generator().mul(random_field<Fr>(rng)));
  std::vector<Jac<A>> walk(n);
  Jac<A> p = A::generator().mul(random_field<Fr>(rng));
  for (size_t i = 0; i < n; ++i) {
    walk[i] = p;
    p = p.add(steps[rng() % steps.size()]);
  }
  std::vector<A> out(n);
  curve::batch_to_affine(walk.data(), out.data(), n);
  return out;
}

// Random scalars with a share of the special values 0, 1, 2 and r − 1.
std::vector<Fr> random_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& x : s) {
    switch (rng() % 8) {
      case 0:
        x = Fr::zero();
        break;
      case 1:
      case 2:
        x = Fr::one();
        break;
      case 3:
        x = -Fr::one();
        break;
      case 4:
        x = Fr::from_u64(rng() % 5);
        break;
      default:
        x = random_field<Fr>(rng);
    }
  }
  return s;
}

template <class A>
Jac<A> naive(const std::vector<A>& bases, const std::vector<Fr>& scalars) {
  Jac<A> acc = Jac<A>::infinity();
  for (size_t i = 0; i < scalars.size(); ++i) acc = acc.add(bases[i].mul(scalars[i]));
  return acc;
}

template <class A>
void check_sizes(const std::vector<size_t>& sizes) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  for (size_t n : sizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<A> bases = random_points<A>(n, rng);
    std::vector<Fr> scalars = random_scalars(n, rng);
    if (n > 4) {
      bases[1] = A::infinity();
      bases[3] = bases[2];        // repeated base
      bases[4] = bases[2].neg();  // and its negation
      scalars[2] = scalars[3] = scalars[4] = Fr::one();
    }
    const Jac<A> expect = naive(bases, scalars);
    auto got = msm<A>(bases, scalars, pool);
    ASSERT_TRUE(got.ok()) << got.message();
    EXPECT_TRUE(*got == expect);
    MsmOptions no_split;
    no_split.split_binary = false;
    got = msm<A>(bases, scalars, pool, no_split);
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(*got == expect);
    // Windows large enough for affine buckets, with and without them.
    for (bool affine : {true, false}) {
      MsmOptions wide;
      wide.window_bits = 11;
      wide.batch_affine = affine;
      got = msm<A>(bases, scalars, pool, wide);
      ASSERT_TRUE(got.ok());
      EXPECT_TRUE(*got == expect) << "affine " << affine;
    }
  }
}

TEST(Msm, G1MatchesNaive) { check_sizes<G1Affine>({0, 1, 2, 3, 17, 100, 1000, 4096 + 5}); }
TEST(Msm, G2MatchesNaive) { check_sizes<G2Affine>({1, 2, 3, 17, 100, 1000}); }

template <class A>
void check_special_inputs() {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const size_t n = 300;
  const std::vector<A> bases = random_points<A>(n, rng);

  std::vector<Fr> zeros(n, Fr::zero());
  auto got = msm<A>(bases, zeros, pool);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->is_inf());

  std::vector<Fr> ones(n, Fr::one());
  got = msm<A>(bases, ones, pool);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(*got == naive(bases, ones));

  std::vector<Fr> minus_one(n, -Fr::one());
  got = msm<A>(bases, minus_one, pool);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(*got == naive(bases, minus_one));

  // All bases equal: every bucket addition is a doubling or a cancellation.
  const std::vector<A> same(n, bases[0]);
  const std::vector<Fr> scalars = random_scalars(n, rng);
  got = msm<A>(same, scalars, pool);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(*got == naive(same, scalars));
  // Affine buckets: equal points meet in a bucket (doublings and cancellations on the side).
  MsmOptions wide;
  wide.window_bits = 10;
  const std::vector<Fr> few_values = [&] {
    std::vector<Fr> v(n);
    for (auto& x : v) x = rng() % 2 ? Fr::from_u64(5) : -Fr::from_u64(5);
    return v;
  }();
  got = msm<A>(same, few_values, pool, wide);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(*got == naive(same, few_values));
  got = msm<A>(same, scalars, pool, wide);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(*got == naive(same, scalars));
  got = msm<A>(same, ones, pool);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(*got == naive(same, ones));

  // P and −P alternating under scalar 1 cancel in pairs.
  std::vector<A> pm(n);
  for (size_t i = 0; i < n; ++i) pm[i] = i % 2 ? bases[i / 2].neg() : bases[i / 2];
  got = msm<A>(pm, ones, pool);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->is_inf());

  const std::vector<A> infinities(n, A::infinity());
  got = msm<A>(infinities, scalars, pool);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->is_inf());
}

TEST(Msm, G1SpecialInputs) { check_special_inputs<G1Affine>(); }
TEST(Msm, G2SpecialInputs) { check_special_inputs<G2Affine>(); }

template <class A>
void check_density(const std::vector<size_t>& sizes) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (size_t n : sizes) {
    for (int fill = 0; fill < 3; ++fill) {  // sparse, half, full
      SCOPED_TRACE("n=" + std::to_string(n) + " fill=" + std::to_string(fill));
      std::vector<uint64_t> density((n + 63) / 64 + 1, 0);
      // Bits past n are set on purpose: they must be ignored.
      for (auto& w : density) w = fill == 2 ? ~uint64_t(0) : fill == 1 ? rng() : rng() & rng() & rng();
      const std::vector<Fr> scalars = random_scalars(n, rng);
      std::vector<Fr> present_scalars;
      for (size_t i = 0; i < n; ++i)
        if ((density[i / 64] >> (i % 64)) & 1) present_scalars.push_back(scalars[i]);
      const std::vector<A> bases = random_points<A>(present_scalars.size(), rng);
      auto got = msm<A>(bases, scalars, density, pool);
      ASSERT_TRUE(got.ok()) << got.message();
      EXPECT_TRUE(*got == naive(bases, present_scalars));
      // One base too many or too few is an error, not a wrong answer.
      std::vector<A> longer = bases;
      longer.push_back(A::generator());
      EXPECT_FALSE((msm<A>(longer, scalars, density, pool).ok()));
    }
  }
}

TEST(Msm, G1Density) { check_density<G1Affine>({1, 3, 64, 65, 1000, 4096 + 5}); }
TEST(Msm, G2Density) { check_density<G2Affine>({1, 65, 500}); }

TEST(Msm, SizeErrors) {
  std::vector<G1Affine> bases(3, G1Affine::generator());
  std::vector<Fr> scalars(4, Fr::one());
  EXPECT_FALSE((msm<G1Affine>(bases, scalars).ok()));
  std::vector<uint64_t> short_density;
  EXPECT_FALSE((msm<G1Affine>(bases, scalars, short_density).ok()));
}

TEST(Msm, EveryWindowAndThreadCountAgree) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const size_t n = 200;
  const std::vector<G1Affine> bases = random_points<G1Affine>(n, rng);
  const std::vector<Fr> scalars = random_scalars(n, rng);
  const G1Jacobian expect = naive(bases, scalars);
  ThreadPool one(1), five(5);
  for (unsigned c = 1; c <= 13; ++c) {
    SCOPED_TRACE("c=" + std::to_string(c));
    MsmOptions options;
    options.window_bits = c;
    for (bool affine : {true, false}) {
      options.batch_affine = affine;
      auto got = msm<G1Affine>(bases, scalars, c % 2 ? one : five, options);
      ASSERT_TRUE(got.ok());
      EXPECT_TRUE(*got == expect) << "affine " << affine;
    }
  }
}

TEST(Msm, SumPoints) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (size_t n : {0, 1, 31, 32, 33, 1000, 10000}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<G1Affine> pts = random_points<G1Affine>(n, rng);
    for (size_t i = 0; i + 7 < n; i += 7) pts[i + 1] = pts[i];  // doublings inside the rounds
    G1Jacobian expect = G1Jacobian::infinity();
    for (const auto& p : pts) expect = expect.add_mixed(p);
    EXPECT_TRUE(sum_points<G1Affine>(pts, pool) == expect);
  }
}

}  // namespace
}  // namespace cuzk::cpu
