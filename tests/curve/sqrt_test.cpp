// Square roots in Fp, Fp2, Fr and the lexicographically-largest predicate.
#include <gtest/gtest.h>

#include "curve_test_util.hpp"

namespace cuzk::test {
namespace {

constexpr int kIters = 200;

// (p-1)/2 as a canonical integer.
constexpr uint64_t kHalfP[6] = {0xdcff7fffffffd555ull, 0x0f55ffff58a9ffffull, 0xb39869507b587b12ull,
                                0xb23ba5c279c2895full, 0x258dd3db21a5d66bull, 0x0d0088f51cbff34dull};

TEST(Sqrt, FpSquaresAndNonSquares) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (int i = 0; i < kIters; ++i) {
    const Fp a = random_fp(rng);
    Fp s;
    ASSERT_TRUE(sqrt(a.sqr(), s));
    EXPECT_TRUE(s == a || s == -a);
    // p = 3 mod 4: -1 is not a square, so -a^2 is not either.
    EXPECT_FALSE(sqrt(-a.sqr(), s));
    // A random element: a root exists exactly when Euler's criterion says so.
    const Fp b = random_fp(rng);
    const bool square = b.pow(kHalfP, 6).is_one();
    ASSERT_EQ(sqrt(b, s), square);
    if (square) {
      EXPECT_EQ(s.sqr(), b);
    }
  }
  Fp s;
  ASSERT_TRUE(sqrt(Fp::zero(), s));
  EXPECT_TRUE(s.is_zero());
}

TEST(Sqrt, Fp2SquaresAndNonSquares) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const Fp2 xi{Fp::one(), Fp::one()};  // u + 1: not a square in Fp2 (the tower's non-residue)
  for (int i = 0; i < kIters; ++i) {
    const Fp2 a = random_fp2(rng);
    Fp2 s;
    ASSERT_TRUE(sqrt(a.sqr(), s));
    EXPECT_TRUE(s == a || s == -a);
    EXPECT_FALSE(sqrt(a.sqr() * xi, s));
    // Every element of Fp is a square in Fp2; -c^2 takes the alpha = -1 branch.
    const Fp c = random_fp(rng);
    ASSERT_TRUE(sqrt(Fp2{-c.sqr(), Fp::zero()}, s));
    EXPECT_EQ(s.sqr(), (Fp2{-c.sqr(), Fp::zero()}));
    ASSERT_TRUE(sqrt(Fp2{c, Fp::zero()}, s));
    EXPECT_EQ(s.sqr(), (Fp2{c, Fp::zero()}));
    // Purely imaginary squares.
    ASSERT_TRUE(sqrt(Fp2{Fp::zero(), c}.sqr(), s));
    EXPECT_EQ(s.sqr(), (Fp2{Fp::zero(), c}.sqr()));
  }
  Fp2 s;
  ASSERT_TRUE(sqrt(Fp2::zero(), s));
  EXPECT_TRUE(s.is_zero());
  ASSERT_TRUE(sqrt(-Fp2::one(), s));
  EXPECT_EQ(s.sqr(), -Fp2::one());
}

TEST(Sqrt, FrTonelliShanks) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const Fr seven = Fr::from_u64(7);  // a non-residue
  for (int i = 0; i < kIters; ++i) {
    const Fr a = random_fr(rng);
    Fr s;
    ASSERT_TRUE(sqrt(a.sqr(), s));
    EXPECT_TRUE(s == a || s == -a);
    EXPECT_FALSE(sqrt(a.sqr() * seven, s));
  }
  // Squares of elements of high 2-power order stress the Tonelli-Shanks loop.
  Fr w;
  ASSERT_TRUE(sqrt(-Fr::one(), w));
  for (int k = 0; k < 30; ++k) {
    Fr s;
    ASSERT_TRUE(sqrt(w, s)) << "k = " << k;
    EXPECT_EQ(s.sqr(), w);
    w = s;
  }
  Fr s;
  ASSERT_TRUE(sqrt(Fr::zero(), s));
  EXPECT_TRUE(s.is_zero());
  ASSERT_TRUE(sqrt(Fr::one(), s));
  EXPECT_EQ(s.sqr(), Fr::one());
}

TEST(Sqrt, LexicographicallyLargest) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  EXPECT_FALSE(lexicographically_largest(Fp::zero()));
  EXPECT_FALSE(lexicographically_largest(Fp::one()));
  EXPECT_TRUE(lexicographically_largest(-Fp::one()));
  const Fp half = Fp::from_canonical(kHalfP);
  EXPECT_FALSE(lexicographically_largest(half));             // (p-1)/2
  EXPECT_TRUE(lexicographically_largest(half + Fp::one()));  // (p+1)/2
  for (int i = 0; i < kIters; ++i) {
    const Fp y = random_fp(rng);
    EXPECT_NE(lexicographically_largest(y), lexicographically_largest(-y));
    const Fp2 y2 = random_fp2(rng);
    EXPECT_NE(lexicographically_largest(y2), lexicographically_largest(-y2));
    EXPECT_EQ(lexicographically_largest(y2), lexicographically_largest(y2.c1));
    const Fp2 real{y, Fp::zero()};
    EXPECT_EQ(lexicographically_largest(real), lexicographically_largest(y));
  }
}

}  // namespace
}  // namespace cuzk::test
