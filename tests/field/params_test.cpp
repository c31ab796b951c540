// Every constant of field/params_bls12_381.hpp recomputed from first principles with GMP: the
// moduli from the curve parameter x, the Montgomery constants from the moduli.
#include <gtest/gtest.h>

#include "gmp_ref.hpp"

namespace cuzk::test {
namespace {

// BLS12-381 is the BLS12 curve of x = -0xd201000000010000: r = x^4 - x^2 + 1 and
// p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x.
const mpz_class kX = -mpz_class("0xd201000000010000");
const mpz_class kR = kX * kX * kX * kX - kX * kX + 1;
const mpz_class kP = (kX - 1) * (kX - 1) * kR / 3 + kX;

template <class F>
void check_montgomery_constants(const mpz_class& m, size_t bits) {
  const size_t N = F::N;
  EXPECT_EQ(modulus<F>(), m);
  EXPECT_EQ(mpz_sizeinbase(m.get_mpz_t(), 2), bits);
  EXPECT_EQ(F::BITS, bits);
  EXPECT_EQ(F::BYTES, 8 * N);
  EXPECT_NE(mpz_probab_prime_p(m.get_mpz_t(), 40), 0);

  // The host CIOS skips the final carry word, which needs the modulus's top limb below
  // 2^63 - 1 (the "no-carry" condition of Montgomery multiplication).
  EXPECT_LT(F::params::mod(N - 1), (uint64_t(1) << 63) - 1);

  const mpz_class two64 = mpz_class(1) << 64;
  mpz_class inv;
  ASSERT_NE(mpz_invert(inv.get_mpz_t(), m.get_mpz_t(), two64.get_mpz_t()), 0);
  const mpz_class m0 = two64 - inv;  // -m^-1 mod 2^64
  EXPECT_EQ(limbs_to_mpz(&F::params::M0, 1), m0);

  const mpz_class R = (mpz_class(1) << (64 * N)) % m;
  const mpz_class RR = (R * R) % m;
  uint64_t one[F::N], rr[F::N];
  for (size_t i = 0; i < N; ++i) {
    one[i] = F::params::one(i);
    rr[i] = F::params::rr(i);
  }
  EXPECT_EQ(limbs_to_mpz(one, N), R);
  EXPECT_EQ(limbs_to_mpz(rr, N), RR);
  EXPECT_EQ(limbs_to_mpz(F::one().l, N), R);
  EXPECT_EQ(to_mpz(F::one()), 1);
  EXPECT_EQ(limbs_to_mpz(F::modulus_limbs().l, N), m);
}

TEST(FieldParams, BaseFieldFromCurveParameter) {
  EXPECT_EQ(kP,
            mpz_class("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9fe"
                      "ffffffffaaab"));
  check_montgomery_constants<Fp>(kP, 381);
  // p = 3 mod 4 (square roots by one exponentiation) and u^2 = -1 is a non-residue, so Fp2 is a field.
  EXPECT_EQ(mpz_class(kP % 4), 3);
  // The embedding degree is 12: r divides p^4 - p^2 + 1.
  EXPECT_EQ(mpz_class((kP * kP * kP * kP - kP * kP + 1) % kR), 0);
}

TEST(FieldParams, ScalarFieldFromCurveParameter) {
  EXPECT_EQ(kR, mpz_class("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"));
  check_montgomery_constants<Fr>(kR, 255);
  // Two-adicity: r - 1 = 2^S t with t odd.
  const mpz_class t = (kR - 1) >> Fr::params::S;
  EXPECT_EQ(mpz_class(t << Fr::params::S), kR - 1);
  EXPECT_EQ(mpz_class(t % 2), 1);
}

}  // namespace
}  // namespace cuzk::test
