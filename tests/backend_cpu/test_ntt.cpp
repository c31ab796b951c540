// NTT over Fr: against a naive O(n^2) DFT at small sizes, round trips and spot checks at larger
// ones, both root conventions and the coset variants.
#include <gtest/gtest.h>

#include <vector>

#include "backend/cpu/ntt.hpp"
#include "tests/backend_cpu/test_util.hpp"

namespace cuzk::cpu {
namespace {

using test::fresh_seed;
using test::from_hex;
using test::random_field;

const RootConvention kConventions[] = {RootConvention::bellman, RootConvention::snarkjs};

const char* name(RootConvention c) { return c == RootConvention::bellman ? "bellman" : "snarkjs"; }

std::vector<Fr> random_vector(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = random_field<Fr>(rng);
  return v;
}

// p(x) = Σ c_i x^i by Horner.
Fr evaluate(const std::vector<Fr>& c, const Fr& x) {
  Fr acc = Fr::zero();
  for (size_t i = c.size(); i-- > 0;) acc = acc * x + c[i];
  return acc;
}

// Evaluations of the polynomial with coefficients c at shift·ω^j, j < n.
std::vector<Fr> naive_dft(const std::vector<Fr>& c, const Fr& omega, const Fr& shift) {
  std::vector<Fr> out(c.size());
  Fr x = shift;
  for (size_t j = 0; j < c.size(); ++j) {
    out[j] = evaluate(c, x);
    x *= omega;
  }
  return out;
}

Fr pow2(Fr x, unsigned k) {
  for (unsigned i = 0; i < k; ++i) x = x.sqr();
  return x;
}

TEST(Ntt, RootsOfUnityMatchTheReferenceConstants) {
  EXPECT_EQ(root_of_unity_2_32(RootConvention::bellman),
            from_hex<Fr>("16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"));
  EXPECT_EQ(root_of_unity_2_32(RootConvention::snarkjs),
            from_hex<Fr>("0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"));
  // 5^t = (7^t)^K with K = 0xe25f4955 (formats.md §1).
  EXPECT_EQ(root_of_unity_2_32(RootConvention::bellman).pow(0xe25f4955u),
            root_of_unity_2_32(RootConvention::snarkjs));
  for (RootConvention conv : kConventions) {
    SCOPED_TRACE(name(conv));
    const Fr root = root_of_unity_2_32(conv);
    // Order exactly 2^32: ω^(2^32) = 1 and ω^(2^31) = −1; so every ω_n = ω^(2^(32-k)) has order n.
    EXPECT_EQ(pow2(root, 32), Fr::one());
    EXPECT_EQ(pow2(root, 31), -Fr::one());
  }
}

TEST(Ntt, DomainConstants) {
  for (RootConvention conv : kConventions) {
    for (unsigned k = 0; k <= 16; ++k) {
      SCOPED_TRACE(std::string(name(conv)) + " k=" + std::to_string(k));
      auto d = NttDomain::create(k, conv);
      ASSERT_TRUE(d.ok()) << d.message();
      EXPECT_EQ(d->size(), size_t(1) << k);
      EXPECT_EQ(pow2(d->omega(), k), Fr::one());
      if (k > 0) {
        EXPECT_EQ(pow2(d->omega(), k - 1), -Fr::one());
      }
      EXPECT_EQ(d->omega() * d->omega_inv(), Fr::one());
      EXPECT_EQ(d->size_inv() * Fr::from_u64(d->size()), Fr::one());
      if (conv == RootConvention::bellman) {
        EXPECT_EQ(d->coset_shift(), Fr::from_u64(7));
      } else {
        // ω_{2n}: squares to ω_n, and shift^n = −1 (the odd points of the 2n-domain).
        EXPECT_EQ(d->coset_shift().sqr(), d->omega());
        EXPECT_EQ(pow2(d->coset_shift(), k), -Fr::one());
      }
    }
  }
}

TEST(Ntt, RejectsBadSizes) {
  EXPECT_FALSE(NttDomain::create(29, RootConvention::bellman).ok());
  auto d = NttDomain::create(4, RootConvention::bellman);
  ASSERT_TRUE(d.ok());
  std::vector<Fr> v(15);
  EXPECT_FALSE(d->forward(v).ok());
  EXPECT_FALSE(d->inverse(v).ok());
  EXPECT_FALSE(d->coset_forward(v).ok());
  EXPECT_FALSE(d->coset_inverse(v).ok());
}

TEST(Ntt, MatchesNaiveDft) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  for (RootConvention conv : kConventions) {
    for (unsigned k = 0; k <= 8; ++k) {
      SCOPED_TRACE(std::string(name(conv)) + " k=" + std::to_string(k));
      auto d = NttDomain::create(k, conv, pool);
      ASSERT_TRUE(d.ok());
      const std::vector<Fr> coeffs = random_vector(d->size(), rng);
      const Fr random_shift = random_field<Fr>(rng);

      std::vector<Fr> v = coeffs;
      ASSERT_TRUE(d->forward(v, pool).ok());
      EXPECT_EQ(v, naive_dft(coeffs, d->omega(), Fr::one()));

      // inverse: evaluations at ω^j back to coefficients.
      std::vector<Fr> evals = naive_dft(coeffs, d->omega(), Fr::one());
      ASSERT_TRUE(d->inverse(evals, pool).ok());
      EXPECT_EQ(evals, coeffs);

      for (const Fr& shift : {d->coset_shift(), random_shift}) {
        v = coeffs;
        ASSERT_TRUE(d->coset_forward(v, shift, pool).ok());
        EXPECT_EQ(v, naive_dft(coeffs, d->omega(), shift));
        evals = naive_dft(coeffs, d->omega(), shift);
        ASSERT_TRUE(d->coset_inverse(evals, shift, pool).ok());
        EXPECT_EQ(evals, coeffs);
      }
      // The default-shift overloads use coset_shift().
      v = coeffs;
      ASSERT_TRUE(d->coset_forward(v, pool).ok());
      EXPECT_EQ(v, naive_dft(coeffs, d->omega(), d->coset_shift()));
      ASSERT_TRUE(d->coset_inverse(v, pool).ok());
      EXPECT_EQ(v, coeffs);
    }
  }
}

TEST(Ntt, RoundTripsAndSpotChecks) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (RootConvention conv : kConventions) {
    for (unsigned k = 1; k <= 18; ++k) {
      SCOPED_TRACE(std::string(name(conv)) + " k=" + std::to_string(k));
      auto d = NttDomain::create(k, conv, pool);
      ASSERT_TRUE(d.ok());
      const std::vector<Fr> coeffs = random_vector(d->size(), rng);

      std::vector<Fr> v = coeffs;
      ASSERT_TRUE(d->forward(v, pool).ok());
      for (int t = 0; t < 3; ++t) {  // a few evaluations checked by Horner
        const size_t j = rng() % d->size();
        EXPECT_EQ(v[j], evaluate(coeffs, d->omega().pow(j))) << "j=" << j;
      }
      ASSERT_TRUE(d->inverse(v, pool).ok());
      EXPECT_EQ(v, coeffs);

      v = coeffs;
      ASSERT_TRUE(d->coset_forward(v, pool).ok());
      const size_t j = rng() % d->size();
      EXPECT_EQ(v[j], evaluate(coeffs, d->coset_shift() * d->omega().pow(j))) << "j=" << j;
      ASSERT_TRUE(d->coset_inverse(v, pool).ok());
      EXPECT_EQ(v, coeffs);
    }
  }
}

TEST(Ntt, ThreadCountDoesNotChangeTheResult) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool one(1), four(4);
  auto d = NttDomain::create(15, RootConvention::bellman, four);
  ASSERT_TRUE(d.ok());
  const std::vector<Fr> coeffs = random_vector(d->size(), rng);
  std::vector<Fr> a = coeffs, b = coeffs;
  ASSERT_TRUE(d->coset_forward(a, one).ok());
  ASSERT_TRUE(d->coset_forward(b, four).ok());
  EXPECT_EQ(a, b);
}

// The H-polynomial step of bellman's prover (formats.md §3.2): for p = a·b − c with a, b, c of
// degree < n and p divisible by Z = X^n − 1, dividing the coset evaluations by Z(gω^j) = g^n − 1
// and interpolating back gives the quotient h, whose top coefficient is zero.
TEST(Ntt, BellmanQuotientOnTheCoset) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const unsigned k = 6;
  auto d = NttDomain::create(k, RootConvention::bellman);
  ASSERT_TRUE(d.ok());
  const size_t n = d->size();
  // Evaluations with a_j·b_j = c_j on the domain.
  std::vector<Fr> a = random_vector(n, rng), b = random_vector(n, rng), c(n);
  for (size_t j = 0; j < n; ++j) c[j] = a[j] * b[j];
  for (auto* v : {&a, &b, &c}) {
    ASSERT_TRUE(d->inverse(*v).ok());
    ASSERT_TRUE(d->coset_forward(*v).ok());
  }
  const Fr z_inv = (d->coset_shift().pow(n) - Fr::one()).inverse();
  for (size_t j = 0; j < n; ++j) a[j] = (a[j] * b[j] - c[j]) * z_inv;
  ASSERT_TRUE(d->coset_inverse(a).ok());
  // deg(a·b − c) ≤ 2n − 2, so deg h ≤ n − 2; a wrong shift or root would leave this nonzero.
  EXPECT_TRUE(a[n - 1].is_zero());
}

}  // namespace
}  // namespace cuzk::cpu
