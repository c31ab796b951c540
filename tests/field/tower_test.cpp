// The tower Fp2 / Fp6 / Fp12: products against schoolbook references written directly from the
// defining polynomials, the specialised operations (squarings, sparse and non-residue products,
// cyclotomic squaring) against the general ones, inverses and the field axioms.
#include <gtest/gtest.h>

#include <array>

#include "gmp_ref.hpp"

namespace cuzk::test {
namespace {

constexpr int kIters = 300;
const Fp2 kXi{Fp::one(), Fp::one()};  // u + 1

template <class F>
void check_axioms(const F& a, const F& b, const F& c) {
  ASSERT_EQ(a + b, b + a);
  ASSERT_EQ(a * b, b * a);
  ASSERT_EQ((a + b) + c, a + (b + c));
  ASSERT_EQ((a * b) * c, a * (b * c));
  ASSERT_EQ(a * (b + c), a * b + a * c);
  ASSERT_EQ(a + F::zero(), a);
  ASSERT_EQ(a * F::one(), a);
  ASSERT_TRUE((a * F::zero()).is_zero());
  ASSERT_TRUE((a - a).is_zero());
  ASSERT_TRUE((a + -a).is_zero());
  ASSERT_EQ(a - b, a + -b);
  ASSERT_EQ(a.sqr(), a * a);
  ASSERT_TRUE(a.is_zero() || (a * a.inverse()).is_one());
  ASSERT_EQ(a.pow(std::array<uint64_t, 1>{5}.data(), 1), a * a * a * a * a);
  F d = a;
  d += b;
  d -= c;
  d *= b;
  ASSERT_EQ(d, (a + b - c) * b);
}

TEST(Fp2, MatchesGmpSchoolbook) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const mpz_class p = modulus<Fp>();
  auto md = [&](const mpz_class& x) { return mpz_class(((x % p) + p) % p); };
  for (int i = 0; i < kIters; ++i) {
    const Fp2 a = rng.fp2(), b = rng.fp2();
    const mpz_class a0 = to_mpz(a.c0), a1 = to_mpz(a.c1), b0 = to_mpz(b.c0), b1 = to_mpz(b.c1);
    const Fp2 ab = a * b;
    ASSERT_EQ(to_mpz(ab.c0), md(a0 * b0 - a1 * b1));
    ASSERT_EQ(to_mpz(ab.c1), md(a0 * b1 + a1 * b0));
    const Fp2 inv = a.inverse();
    ASSERT_TRUE((a * inv).is_one());
  }
}

TEST(Fp2, Axioms) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const Fp2 u{Fp::zero(), Fp::one()};
  EXPECT_EQ(u.sqr(), -Fp2::one());
  for (int i = 0; i < kIters; ++i) {
    const Fp2 a = rng.fp2(), b = rng.fp2(), c = rng.fp2();
    check_axioms(a, b, c);
    ASSERT_EQ(a.mul_by_nonresidue(), a * kXi);
    ASSERT_EQ(a.conjugate(), (Fp2{a.c0, -a.c1}));
    ASSERT_EQ(a * b.c0, (a * Fp2{b.c0, Fp::zero()}));
    ASSERT_EQ(a.dbl(), a + a);
  }
  EXPECT_TRUE(Fp2::zero().inverse().is_zero());
}

// Fp6 schoolbook: nine Fp2 products, v^3 = xi and v^4 = xi v.
Fp6 fp6_schoolbook(const Fp6& a, const Fp6& b) {
  const Fp2 x[3] = {a.c0, a.c1, a.c2}, y[3] = {b.c0, b.c1, b.c2};
  Fp2 r[5] = {Fp2::zero(), Fp2::zero(), Fp2::zero(), Fp2::zero(), Fp2::zero()};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i + j] += x[i] * y[j];
  return {r[0] + r[3] * kXi, r[1] + r[4] * kXi, r[2]};
}

TEST(Fp6, MatchesSchoolbookAndAxioms) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const Fp6 v{Fp2::zero(), Fp2::one(), Fp2::zero()};
  EXPECT_EQ(v * v * v, (Fp6{kXi, Fp2::zero(), Fp2::zero()}));
  for (int i = 0; i < kIters; ++i) {
    const Fp6 a = rng.fp6(), b = rng.fp6(), c = rng.fp6();
    ASSERT_EQ(a * b, fp6_schoolbook(a, b));
    ASSERT_EQ(a.sqr(), fp6_schoolbook(a, a));
    check_axioms(a, b, c);
    ASSERT_EQ(a.mul_by_nonresidue(), a * v);
    const Fp2 s = rng.fp2(), t = rng.fp2();
    ASSERT_EQ(a.mul_by_01(s, t), (a * Fp6{s, t, Fp2::zero()}));
    ASSERT_EQ(a.mul_by_1(t), (a * Fp6{Fp2::zero(), t, Fp2::zero()}));
    ASSERT_EQ(a * s, (a * Fp6{s, Fp2::zero(), Fp2::zero()}));
    ASSERT_EQ(a.dbl(), a + a);
  }
  // Inverses of sparse values, where a careless adjugate formula would divide by zero.
  for (const Fp6& a : {Fp6{Fp2::zero(), rng.fp2(), Fp2::zero()}, Fp6{Fp2::zero(), Fp2::zero(), rng.fp2()},
                       Fp6{rng.fp2(), Fp2::zero(), Fp2::zero()}}) {
    EXPECT_TRUE((a * a.inverse()).is_one());
  }
  EXPECT_TRUE(Fp6::zero().inverse().is_zero());
}

// Fp12 schoolbook in the w basis (w^6 = xi), independent of the Fp6-over-Fp6 layout:
// coefficient i of w^i is stored at c(i % 2).c(i / 2).
std::array<Fp2, 6> w_coeffs(const Fp12& a) { return {a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2}; }
Fp12 from_w_coeffs(const std::array<Fp2, 6>& r) { return {{r[0], r[2], r[4]}, {r[1], r[3], r[5]}}; }
Fp12 fp12_schoolbook(const Fp12& a, const Fp12& b) {
  const auto x = w_coeffs(a), y = w_coeffs(b);
  std::array<Fp2, 11> r;
  r.fill(Fp2::zero());
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) r[i + j] += x[i] * y[j];
  std::array<Fp2, 6> out;
  for (int i = 0; i < 6; ++i) out[i] = r[i] + (i + 6 < 11 ? r[i + 6] * kXi : Fp2::zero());
  return from_w_coeffs(out);
}

TEST(Fp12, MatchesSchoolbookAndAxioms) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const Fp12 w{Fp6::zero(), Fp6::one()};
  EXPECT_EQ(w.sqr(), (Fp12{{Fp2::zero(), Fp2::one(), Fp2::zero()}, Fp6::zero()}));  // w^2 = v
  for (int i = 0; i < kIters / 3; ++i) {
    const Fp12 a = rng.fp12(), b = rng.fp12(), c = rng.fp12();
    ASSERT_EQ(a * b, fp12_schoolbook(a, b));
    ASSERT_EQ(a.sqr(), fp12_schoolbook(a, a));
    check_axioms(a, b, c);
    ASSERT_EQ(a.conjugate(), (Fp12{a.c0, -a.c1}));
  }
  EXPECT_TRUE(Fp12::zero().inverse().is_zero());
}

TEST(Fp12, SparseLineProduct) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < kIters; ++i) {
    const Fp12 a = rng.fp12();
    const Fp2 l0 = rng.fp2(), l1 = rng.fp2(), l4 = rng.fp2();
    const Fp12 line{{l0, l1, Fp2::zero()}, {Fp2::zero(), l4, Fp2::zero()}};
    ASSERT_EQ(a.mul_by_014(l0, l1, l4), a * line);
  }
}

// An element of the cyclotomic subgroup: f^((p^6 - 1)(p^2 + 1)).
Fp12 to_cyclotomic(const Fp12& f) {
  const Fp12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  return t.frobenius_map(2) * t;
}

TEST(Fp12, CyclotomicSquaring) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 50; ++i) {
    Fp12 g = to_cyclotomic(rng.fp12());
    // In the subgroup the conjugate is the inverse, and g^(p^4 - p^2 + 1) = 1.
    ASSERT_TRUE((g * g.conjugate()).is_one());
    ASSERT_EQ(g.frobenius_map(4) * g, g.frobenius_map(2));
    for (int k = 0; k < 4; ++k) {  // chained, as in an exponentiation
      const Fp12 want = g.sqr();
      ASSERT_EQ(g.cyclotomic_sqr(), want);
      g = want;
    }
  }
  // Off the subgroup the shortcut is wrong, which is why callers must only use it there.
  const Fp12 a = rng.fp12();
  EXPECT_NE(a.cyclotomic_sqr(), a.sqr());
}

}  // namespace
}  // namespace cuzk::test
