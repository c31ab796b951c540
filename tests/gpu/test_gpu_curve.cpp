// G1 and G2 point arithmetic (Jacobian and XYZZ: add, mixed add, double, to affine) in kernels
// agrees with the host bit for bit on 2^20 random point pairs (2^14 for to_affine), with
// infinity on either or both sides, P == Q (also in another projective representation) and
// P == -Q planted every 64 elements.
#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

#include "backend/cuda/testing/curve_kernels.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace {

using namespace cuzk::gputest;

template <class P>
struct Traits {
  using F = typename P::field;
  using J = cuzk::curve::jacobian_t<F, typename P::params>;
  using A = typename P::affine;
  static constexpr bool is_xyzz = std::is_same_v<P, cuzk::curve::xyzz_t<F, typename P::params>>;
};

template <class F>
F random_elem(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<F, cuzk::Fp>)
    return random_field<cuzk::Fp>(rng);
  else
    return F{random_field<cuzk::Fp>(rng), random_field<cuzk::Fp>(rng)};
}

// The same point in another projective representation: coordinates scaled by l^2, l^3 (and l).
template <class P>
P rescale(const P& p, const typename P::field& l) {
  const auto l2 = l.sqr(), l3 = l2 * l;
  if constexpr (Traits<P>::is_xyzz)
    return P(p.X * l2, p.Y * l3, p.ZZ * l2, p.ZZZ * l3);
  else
    return P(p.X * l2, p.Y * l3, p.Z * l);
}

// n random points of the subgroup: per chunk, a random multiple of the generator, then a walk
// that adds one of 16 random multiples at each step (much faster than n scalar multiplications).
template <class P>
std::vector<P> random_points(size_t n, uint64_t seed) {
  using J = typename Traits<P>::J;
  std::vector<P> out(n);
  std::mt19937_64 rng(seed);
  std::vector<J> steps(16);
  for (auto& s : steps) {
    const uint64_t k = rng() | 1;
    s = J::generator().mul(&k, 1);
  }
  parallel_for(n, [&](size_t lo, size_t hi) {
    std::mt19937_64 r(seed ^ (lo * 0x9e3779b97f4a7c15ull));
    const uint64_t k = r() | 1;
    J acc = J::generator().mul(&k, 1);
    for (size_t i = lo; i < hi; ++i) {
      acc = acc.add(steps[r() & 15]);
      P p;
      if constexpr (Traits<P>::is_xyzz)
        p = P(acc);
      else
        p = acc;
      out[i] = rescale(p, random_elem<typename P::field>(r));
    }
  });
  return out;
}

template <class P>
class GpuCurve : public ::testing::Test {};
using Points = ::testing::Types<cuzk::G1Jacobian, cuzk::G1Xyzz, cuzk::G2Jacobian, cuzk::G2Xyzz>;
TYPED_TEST_SUITE(GpuCurve, Points);

constexpr size_t kN = size_t(1) << 20;

template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  size_t total = 0;
  const auto bad = mismatches(got, want, &total);
  EXPECT_EQ(total, 0u) << what << ": " << total << " of " << want.size() << " differ, first at index "
                       << (bad.empty() ? 0 : bad[0]) << " (index mod 64 = " << (bad.empty() ? 0 : bad[0] % 64)
                       << "); seed 0x" << std::hex << test_seed();
}

TYPED_TEST(GpuCurve, Add) {
  CUZK_REQUIRE_GPU();
  using P = TypeParam;
  auto a = random_points<P>(kN, test_seed() ^ 1);
  auto b = random_points<P>(kN, test_seed() ^ 2);
  std::mt19937_64 rng(test_seed() ^ 3);
  for (size_t i = 0; i < kN; i += 64) {
    a[i + 1] = P::infinity();
    b[i + 2] = P::infinity();
    a[i + 3] = b[i + 3] = P::infinity();
    b[i + 4] = rescale(a[i + 4], random_elem<typename P::field>(rng));        // P == Q
    b[i + 5] = rescale(a[i + 5].neg(), random_elem<typename P::field>(rng));  // P == -Q
    b[i + 6] = a[i + 6];                                                      // same bits
  }
  auto s = cuzk::cuda::Stream::create(test_device());
  CUZK_ASSERT_OK(s);
  auto da = to_device(a, *s);
  CUZK_ASSERT_OK(da);
  auto db = to_device(b, *s);
  CUZK_ASSERT_OK(db);
  auto dout = cuzk::cuda::DeviceBuffer<P>::alloc(test_device(), kN);
  CUZK_ASSERT_OK(dout);
  CUZK_ASSERT_OK(cuzk::cuda::point_add<P>(*s, da->data(), db->data(), dout->data(), kN));
  std::vector<P> got(kN), want(kN);
  CUZK_ASSERT_OK(dout->download(got.data(), kN, *s));
  CUZK_ASSERT_OK(s->synchronize());
  parallel_for(kN, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) want[i] = a[i].add(b[i]);
  });
  expect_same(got, want, "add");
  // The planted cases really hit the special paths.
  EXPECT_TRUE(want[5].is_inf());
  EXPECT_TRUE(want[3].is_inf());
  EXPECT_TRUE(want[4] == a[4].dbl());
}

TYPED_TEST(GpuCurve, AddMixed) {
  CUZK_REQUIRE_GPU();
  using P = TypeParam;
  using A = typename Traits<P>::A;
  auto a = random_points<P>(kN, test_seed() ^ 4);
  const auto bp = random_points<P>(kN, test_seed() ^ 5);
  std::vector<A> b(kN);
  parallel_for(kN, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
      const size_t m = i % 64;
      // P == Q and P == -Q need the affine form of a[i]; the rest take fresh points (one inversion
      // each is too slow for 2^20 on the host, so only every 16th is a fresh affine point; the
      // others reuse a neighbour's, which is as random a partner for a[i]).
      if (m == 4)
        b[i] = a[i].to_affine();
      else if (m == 5)
        b[i] = a[i].to_affine().neg();
      else if (m == 2 || m == 3)
        b[i] = A::infinity();
      else if (i % 16 == 0 || i == lo)
        b[i] = bp[i].to_affine();
      else
        b[i] = b[i - 1];
    }
  });
  for (size_t i = 0; i < kN; i += 64) a[i + 1] = a[i + 3] = P::infinity();
  auto s = cuzk::cuda::Stream::create(test_device());
  CUZK_ASSERT_OK(s);
  auto da = to_device(a, *s);
  CUZK_ASSERT_OK(da);
  auto db = to_device(b, *s);
  CUZK_ASSERT_OK(db);
  auto dout = cuzk::cuda::DeviceBuffer<P>::alloc(test_device(), kN);
  CUZK_ASSERT_OK(dout);
  CUZK_ASSERT_OK(cuzk::cuda::point_add_mixed<P>(*s, da->data(), db->data(), dout->data(), kN));
  std::vector<P> got(kN), want(kN);
  CUZK_ASSERT_OK(dout->download(got.data(), kN, *s));
  CUZK_ASSERT_OK(s->synchronize());
  parallel_for(kN, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) want[i] = a[i].add_mixed(b[i]);
  });
  expect_same(got, want, "add_mixed");
  EXPECT_TRUE(want[5].is_inf());
  EXPECT_TRUE(want[3].is_inf());
  EXPECT_TRUE(want[4] == a[4].dbl());
}

TYPED_TEST(GpuCurve, Dbl) {
  CUZK_REQUIRE_GPU();
  using P = TypeParam;
  auto a = random_points<P>(kN, test_seed() ^ 6);
  for (size_t i = 0; i < kN; i += 64) a[i + 1] = P::infinity();
  auto s = cuzk::cuda::Stream::create(test_device());
  CUZK_ASSERT_OK(s);
  auto da = to_device(a, *s);
  CUZK_ASSERT_OK(da);
  auto dout = cuzk::cuda::DeviceBuffer<P>::alloc(test_device(), kN);
  CUZK_ASSERT_OK(dout);
  CUZK_ASSERT_OK(cuzk::cuda::point_dbl<P>(*s, da->data(), dout->data(), kN));
  std::vector<P> got(kN), want(kN);
  CUZK_ASSERT_OK(dout->download(got.data(), kN, *s));
  CUZK_ASSERT_OK(s->synchronize());
  parallel_for(kN, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) want[i] = a[i].dbl();
  });
  expect_same(got, want, "dbl");
}

TYPED_TEST(GpuCurve, ToAffine) {
  CUZK_REQUIRE_GPU();
  using P = TypeParam;
  using A = typename Traits<P>::A;
  const size_t n = size_t(1) << 14;
  auto a = random_points<P>(n, test_seed() ^ 7);
  for (size_t i = 0; i < n; i += 64) a[i + 1] = P::infinity();
  auto s = cuzk::cuda::Stream::create(test_device());
  CUZK_ASSERT_OK(s);
  auto da = to_device(a, *s);
  CUZK_ASSERT_OK(da);
  auto dout = cuzk::cuda::DeviceBuffer<A>::alloc(test_device(), n);
  CUZK_ASSERT_OK(dout);
  CUZK_ASSERT_OK(cuzk::cuda::point_to_affine<P>(*s, da->data(), dout->data(), n));
  std::vector<A> got(n), want(n);
  CUZK_ASSERT_OK(dout->download(got.data(), n, *s));
  CUZK_ASSERT_OK(s->synchronize());
  parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) want[i] = a[i].to_affine();
  });
  expect_same(got, want, "to_affine");
  EXPECT_TRUE(want[1].is_inf());
  EXPECT_TRUE(want[0].is_on_curve());
}

}  // namespace
