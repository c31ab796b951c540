// Frobenius maps of the tower: the constants of field/frobenius_constants.hpp recomputed as
// powers of xi, and every map checked against x^(p^k) computed by square-and-multiply.
#include <gtest/gtest.h>

#include <vector>

#include "gmp_ref.hpp"

namespace cuzk::test {
namespace {

const Fp2 kXi{Fp::one(), Fp::one()};

mpz_class p_pow(unsigned k) {
  mpz_class r;
  mpz_pow_ui(r.get_mpz_t(), modulus<Fp>().get_mpz_t(), k);
  return r;
}

template <class F>
F pow_mpz(const F& a, const mpz_class& e) {
  const std::vector<uint64_t> limbs = mpz_to_limbs(e);
  return a.pow(limbs.data(), limbs.size());
}

// x^(p^k) by k exponentiations to the power p.
template <class F>
F pow_p(F a, unsigned k) {
  for (unsigned i = 0; i < k; ++i) a = pow_mpz(a, modulus<Fp>());
  return a;
}

TEST(Frobenius, ConstantsArePowersOfXi) {
  EXPECT_EQ(frobenius::fp6_c1(0), Fp2::one());
  EXPECT_EQ(frobenius::fp6_c2(0), Fp2::one());
  EXPECT_EQ(frobenius::fp12_c1(0), Fp2::one());
  for (unsigned k = 1; k <= 3; ++k) {
    SCOPED_TRACE(k);
    const mpz_class pk1 = p_pow(k) - 1;
    ASSERT_EQ(mpz_class(pk1 % 6), 0);
    EXPECT_EQ(frobenius::fp6_c1(k), pow_mpz(kXi, mpz_class(pk1 / 3)));
    EXPECT_EQ(frobenius::fp6_c2(k), pow_mpz(kXi, mpz_class(2 * pk1 / 3)));
    EXPECT_EQ(frobenius::fp12_c1(k), pow_mpz(kXi, mpz_class(pk1 / 6)));
  }
}

TEST(Frobenius, Fp2IsPowerP) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 10; ++i) {
    const Fp2 a = rng.fp2();
    ASSERT_EQ(a.frobenius(), pow_p(a, 1));
  }
}

TEST(Frobenius, Fp6IsPowerP) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 4; ++i) {
    const Fp6 a = rng.fp6();
    EXPECT_EQ(a.frobenius_map(0), a);
    for (unsigned k = 1; k <= 3; ++k) ASSERT_EQ(a.frobenius_map(k), pow_p(a, k)) << "k = " << k;
    Fp6 iter = a;
    for (unsigned k = 1; k <= 7; ++k) {
      iter = iter.frobenius_map(1);
      ASSERT_EQ(a.frobenius_map(k), iter) << "k = " << k;
    }
    ASSERT_EQ(a.frobenius_map(6), a);
  }
}

TEST(Frobenius, Fp12IsPowerP) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 3; ++i) {
    const Fp12 a = rng.fp12();
    Fp12 want = a;
    for (unsigned k = 1; k <= 3; ++k) {
      want = pow_p(want, 1);
      ASSERT_EQ(a.frobenius_map(k), want) << "k = " << k;
    }
  }
}

TEST(Frobenius, Fp12Composition) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const Fp12 a = rng.fp12();
  Fp12 iter = a;
  for (unsigned k = 1; k <= 13; ++k) {
    iter = iter.frobenius_map(1);
    ASSERT_EQ(a.frobenius_map(k), iter) << "k = " << k;
  }
  EXPECT_EQ(a.frobenius_map(12), a);
  EXPECT_EQ(a.frobenius_map(6), a.conjugate());
  // A homomorphism: (ab)^p = a^p b^p.
  const Fp12 b = rng.fp12();
  EXPECT_EQ((a * b).frobenius_map(1), a.frobenius_map(1) * b.frobenius_map(1));
}

}  // namespace
}  // namespace cuzk::test
