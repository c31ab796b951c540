// Fp and Fr against GMP: arithmetic on random and edge values, exponentiation, inversion, byte
// encodings (both endians) and the rejection of non-canonical bytes, and the field axioms.
#include <gtest/gtest.h>

#include <vector>

#include "field/binary_gcd.hpp"
#include "gmp_ref.hpp"

namespace cuzk::test {
namespace {

template <class F>
class PrimeField : public ::testing::Test {};
using PrimeFields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(PrimeField, PrimeFields);

constexpr int kRandomPairs = 3000;

// Operands: every pair of edge values, then random pairs.
template <class F>
std::vector<std::pair<mpz_class, mpz_class>> operand_pairs(Rng& rng) {
  const std::vector<mpz_class> edges = edge_values<F>();
  std::vector<std::pair<mpz_class, mpz_class>> out;
  for (const auto& a : edges)
    for (size_t j = 0; j < edges.size(); j += 3) out.emplace_back(a, edges[j]);
  const mpz_class m = modulus<F>();
  for (int i = 0; i < kRandomPairs; ++i) out.emplace_back(rng.below(m), rng.below(m));
  return out;
}

TYPED_TEST(PrimeField, ArithmeticMatchesGmp) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const mpz_class m = modulus<F>();
  for (const auto& [x, y] : operand_pairs<F>(rng)) {
    const F a = from_mpz<F>(x), b = from_mpz<F>(y);
    ASSERT_EQ(to_mpz(a), x) << "round trip of " << x.get_str(16);
    ASSERT_EQ(to_mpz(a + b), mpz_class((x + y) % m)) << x.get_str(16) << " + " << y.get_str(16);
    ASSERT_EQ(to_mpz(a - b), mpz_class(((x - y) % m + m) % m)) << x.get_str(16) << " - " << y.get_str(16);
    ASSERT_EQ(to_mpz(a * b), mpz_class((x * y) % m)) << x.get_str(16) << " * " << y.get_str(16);
    ASSERT_EQ(to_mpz(-a), mpz_class((m - x) % m)) << "-" << x.get_str(16);
    ASSERT_EQ(to_mpz(a.sqr()), mpz_class((x * x) % m)) << x.get_str(16) << "^2";
    ASSERT_EQ(to_mpz(a.dbl()), mpz_class((2 * x) % m)) << "2 * " << x.get_str(16);
    // Fully reduced storage: the raw limbs are below the modulus.
    ASSERT_LT(limbs_to_mpz((a * b).l, F::N), m);
    ASSERT_LT(limbs_to_mpz((a + b).l, F::N), m);
    ASSERT_LT(limbs_to_mpz((a - b).l, F::N), m);
  }
}

TYPED_TEST(PrimeField, PowMatchesGmp) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const mpz_class m = modulus<F>();
  for (int i = 0; i < 40; ++i) {
    const mpz_class x = rng.below(m);
    const size_t n = 1 + rng.u64() % 6;  // exponents of 1..6 limbs, some far above the modulus
    std::vector<uint64_t> e(n);
    for (auto& limb : e) limb = rng.u64();
    mpz_class want;
    const mpz_class ez = limbs_to_mpz(e.data(), n);
    mpz_powm(want.get_mpz_t(), x.get_mpz_t(), ez.get_mpz_t(), m.get_mpz_t());
    ASSERT_EQ(to_mpz(from_mpz<F>(x).pow(e.data(), n)), want) << x.get_str(16) << " ^ " << ez.get_str(16);
  }
  const F a = rng.template fp<F>();
  EXPECT_EQ(a.pow(uint64_t(0)), F::one());
  EXPECT_EQ(a.pow(uint64_t(1)), a);
  EXPECT_EQ(a.pow(uint64_t(5)), a * a * a * a * a);
  EXPECT_EQ(F::zero().pow(uint64_t(0)), F::one());
  EXPECT_EQ(F::zero().pow(uint64_t(3)), F::zero());
}

// Fermat's inverse and the binary GCD's (field/binary_gcd.hpp) against GMP: edge values, values of
// few set bits and their negatives and small values (the shapes that drive a binary GCD longest),
// and many random ones; the binary GCD also on the canonical integers. Zero maps to zero.
TYPED_TEST(PrimeField, InverseMatchesGmp) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const mpz_class m = modulus<F>();
  std::vector<mpz_class> xs = edge_values<F>();
  for (int i = 0; i < 300; ++i) {
    mpz_class sparse = 0;  // 1 to 4 random bits set
    for (int k = 0, bits = 1 + int(rng.u64() % 4); k < bits; ++k)
      sparse |= mpz_class(1) << (rng.u64() % F::BITS);
    sparse %= m;
    xs.push_back(sparse);
    xs.push_back((m - sparse) % m);
    xs.push_back(mpz_class(rng.u64() >> (rng.u64() % 64)));  // small
  }
  for (int i = 0; i < 20000; ++i) xs.push_back(rng.below(m));
  for (const mpz_class& x : xs) {
    if (x == 0) continue;
    mpz_class want;
    ASSERT_NE(mpz_invert(want.get_mpz_t(), x.get_mpz_t(), m.get_mpz_t()), 0);
    const F a = from_mpz<F>(x);
    ASSERT_EQ(to_mpz(a.inverse()), want) << x.get_str(16);
    ASSERT_TRUE((a * a.inverse()).is_one());
    ASSERT_EQ(to_mpz(field::inverse_binary_gcd(a)), want) << x.get_str(16);
    uint64_t y[F::N] = {}, got[F::N];
    size_t count = 0;
    mpz_export(y, &count, -1, sizeof(uint64_t), 0, 0, x.get_mpz_t());
    field::invert_canonical_binary_gcd<F>(y, got);
    ASSERT_EQ(limbs_to_mpz(got, F::N), want) << x.get_str(16);
  }
  EXPECT_TRUE(F::zero().inverse().is_zero());
  EXPECT_TRUE(field::inverse_binary_gcd(F::zero()).is_zero());
}

TYPED_TEST(PrimeField, ConversionsAndPredicates) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = rng.u64();
    ASSERT_EQ(to_mpz(F::from_u64(x)), limbs_to_mpz(&x, 1));
  }
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_FALSE(F::one().is_zero());
  EXPECT_TRUE(F::one().is_one());
  EXPECT_TRUE(F::from_u64(1).is_one());
  EXPECT_FALSE(F::from_u64(2).is_one());
  const F a = rng.template fp<F>();
  EXPECT_TRUE(a == a);
  EXPECT_FALSE(a != a);
  EXPECT_TRUE(a + F::one() != a);

  uint64_t v[F::N];
  for (size_t i = 0; i < F::N; ++i) v[i] = F::params::mod(i);
  EXPECT_FALSE(F::is_canonical(v));  // the modulus itself
  v[0] -= 1;
  EXPECT_TRUE(F::is_canonical(v));  // modulus - 1
  for (auto& limb : v) limb = ~uint64_t(0);
  EXPECT_FALSE(F::is_canonical(v));
}

// Canonical bytes as GMP writes them: big-endian (ZCash) and little-endian (snarkjs).
template <class F>
std::vector<uint8_t> gmp_bytes(const mpz_class& x, bool big_endian) {
  std::vector<uint8_t> out(F::BYTES, 0);
  size_t count = 0;
  std::vector<uint8_t> tmp(F::BYTES + 8, 0);
  mpz_export(tmp.data(), &count, big_endian ? 1 : -1, 1, 0, 0, x.get_mpz_t());
  if (big_endian)
    std::copy(tmp.begin(), tmp.begin() + count, out.end() - count);
  else
    std::copy(tmp.begin(), tmp.begin() + count, out.begin());
  return out;
}

TYPED_TEST(PrimeField, ByteRoundTrips) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const mpz_class m = modulus<F>();
  std::vector<mpz_class> xs = edge_values<F>();
  for (int i = 0; i < 200; ++i) xs.push_back(rng.below(m));
  for (const mpz_class& x : xs) {
    const F a = from_mpz<F>(x);
    for (bool be : {true, false}) {
      std::vector<uint8_t> bytes(F::BYTES);
      if (be)
        a.to_bytes_be(bytes.data());
      else
        a.to_bytes_le(bytes.data());
      ASSERT_EQ(bytes, gmp_bytes<F>(x, be)) << x.get_str(16) << (be ? " BE" : " LE");
      F b = F::zero();
      ASSERT_TRUE(be ? b.from_bytes_be(bytes.data()) : b.from_bytes_le(bytes.data()));
      ASSERT_EQ(b, a);
    }
  }
}

TYPED_TEST(PrimeField, RejectsBytesAtOrAboveModulus) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const mpz_class m = modulus<F>();
  const mpz_class top = (mpz_class(1) << (8 * F::BYTES)) - 1;
  std::vector<mpz_class> bad = {m, m + 1, 2 * m - 1, top, top - 1};
  for (int i = 0; i < 200; ++i) bad.push_back(m + rng.below(top - m + 1));
  const F sentinel = rng.template fp<F>();
  for (const mpz_class& x : bad) {
    for (bool be : {true, false}) {
      const std::vector<uint8_t> bytes = gmp_bytes<F>(x, be);
      F b = sentinel;
      ASSERT_FALSE(be ? b.from_bytes_be(bytes.data()) : b.from_bytes_le(bytes.data()))
          << x.get_str(16) << (be ? " BE" : " LE");
      ASSERT_EQ(b, sentinel) << "a rejected read must leave the value untouched";
    }
  }
}

TYPED_TEST(PrimeField, Axioms) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 500; ++i) {
    const F a = rng.template fp<F>(), b = rng.template fp<F>(), c = rng.template fp<F>();
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
    F d = a;
    d += b;
    d -= c;
    d *= b;
    ASSERT_EQ(d, (a + b - c) * b);
  }
}

}  // namespace
}  // namespace cuzk::test
