// The endomorphism subgroup checks against the definition: P is in the subgroup iff [r]P = 0.
#include <gtest/gtest.h>

#include <array>
#include <type_traits>

#include "curve_test_util.hpp"

namespace cuzk::test {
namespace {

// Cofactors: #E1(Fp) = h1 r, and h2 r = #E2(Fp2) (h2 = (z^8 - 4z^7 + 5z^6 - 4z^4 + 6z^3 - 4z^2 - 4z + 13)/9).
// Multiplying by them maps any curve point into the subgroup.
constexpr std::array<uint64_t, 2> kH1 = {0x8c00aaab0000aaabull, 0x396c8c005555e156ull};
constexpr std::array<uint64_t, 8> kH2 = {0xcf1c38e31c7238e5ull, 0x1616ec6e786f0c70ull, 0x21537e293a6691aeull,
                                         0xa628f1cb4d9e82efull, 0xa68a205b2e5a7ddfull, 0xcd91de4547085abaull,
                                         0x091d50792876a202ull, 0x05d543a95414e7f1ull};

template <class T>
class Subgroup : public ::testing::Test {};
using Curves = ::testing::Types<G1Traits, G2Traits>;
TYPED_TEST_SUITE(Subgroup, Curves);

template <class T>
typename T::Jacobian clear_cofactor(const typename T::Jacobian& p) {
  if constexpr (std::is_same_v<T, G1Traits>)
    return p.mul(kH1.data(), kH1.size());
  else
    return p.mul(kH2.data(), kH2.size());
}

constexpr int kIters = 24;

TYPED_TEST(Subgroup, SubgroupPointsPass) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  EXPECT_TRUE(T::Affine::infinity().in_subgroup());
  EXPECT_TRUE(J::infinity().in_subgroup());
  EXPECT_TRUE(T::Affine::generator().in_subgroup());
  for (int i = 0; i < kIters; ++i) {
    const J p = random_subgroup_point<T>(rng);
    ASSERT_TRUE(order_divides_r(p));
    EXPECT_TRUE(p.in_subgroup());
    EXPECT_TRUE(p.to_affine().in_subgroup());
    EXPECT_TRUE(typename T::Xyzz(p).in_subgroup());
  }
}

TYPED_TEST(Subgroup, AgreesWithOrderOnWholeCurvePoints) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  int outside = 0;
  for (int i = 0; i < kIters; ++i) {
    const auto a = random_curve_point<T>(rng);
    ASSERT_TRUE(a.is_on_curve());
    const J p(a);
    const bool in = order_divides_r(p);
    outside += !in;
    EXPECT_EQ(a.in_subgroup(), in);
    EXPECT_EQ(p.in_subgroup(), in);
    EXPECT_EQ(typename T::Xyzz(p).in_subgroup(), in);

    // A subgroup point plus a non-subgroup point is outside.
    const J s = random_subgroup_point<T>(rng).add(p);
    EXPECT_EQ(s.in_subgroup(), order_divides_r(s));

    // [r]P lies in the cofactor torsion: outside the subgroup unless it is infinity.
    const auto r = order_limbs();
    const J t = p.mul(r.data(), r.size());
    EXPECT_EQ(t.in_subgroup(), t.is_inf());

    // Cofactor clearing lands in the subgroup.
    const J c = clear_cofactor<T>(p);
    EXPECT_TRUE(order_divides_r(c));
    EXPECT_TRUE(c.in_subgroup());
  }
  // A random curve point is in the subgroup with probability 1/h: essentially never.
  EXPECT_GT(outside, kIters / 2);
}

}  // namespace
}  // namespace cuzk::test
