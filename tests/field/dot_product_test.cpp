// field/dot_product.hpp against GMP: Σ aₖ·bₖ mod p for every length up to kMaxDotTerms, on random
// operands, on the largest ones (every aₖ = bₖ = p − 1: the sum's bound), on edge values, and with
// strides, for Fp and Fr.
#include <gtest/gtest.h>

#include <vector>

#include "field/dot_product.hpp"
#include "gmp_ref.hpp"

namespace cuzk::test {
namespace {

template <class F>
class DotProduct : public ::testing::Test {};
using DotFields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(DotProduct, DotFields);

template <class F>
mpz_class reference(const std::vector<F>& a, size_t as, const std::vector<F>& b, size_t bs, size_t n) {
  mpz_class sum = 0;
  for (size_t k = 0; k < n; ++k) sum += to_mpz(a[k * as]) * to_mpz(b[k * bs]);
  return sum % modulus<F>();
}

TYPED_TEST(DotProduct, MatchesGmpOnRandomOperandsOfEveryLength) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int round = 0; round < 200; ++round)
    for (size_t n = 1; n <= field::kMaxDotTerms; ++n) {
      std::vector<F> a(n), b(n);
      for (size_t k = 0; k < n; ++k) a[k] = rng.fp<F>(), b[k] = rng.fp<F>();
      const F got = field::dot_product(a.data(), 1, b.data(), 1, n);
      ASSERT_EQ(to_mpz(got), reference(a, 1, b, 1, n)) << "n = " << n;
    }
}

// p − 1 everywhere makes the sum n·(p − 1)², the largest before reduction; edge values in every
// combination of positions.
TYPED_TEST(DotProduct, MatchesGmpAtTheBoundAndOnEdgeValues) {
  using F = TypeParam;
  const mpz_class m = modulus<F>();
  for (size_t n = 1; n <= field::kMaxDotTerms; ++n) {
    const std::vector<F> top(n, from_mpz<F>(m - 1));
    ASSERT_EQ(to_mpz(field::dot_product(top.data(), 1, top.data(), 1, n)), reference(top, 1, top, 1, n));
  }
  std::vector<F> edges;
  for (const mpz_class& e : edge_values<F>()) edges.push_back(from_mpz<F>(e));
  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int round = 0; round < 2000; ++round) {
    const size_t n = 1 + rng.u64() % field::kMaxDotTerms;
    std::vector<F> a(n), b(n);
    for (size_t k = 0; k < n; ++k)
      a[k] = edges[rng.u64() % edges.size()], b[k] = edges[rng.u64() % edges.size()];
    ASSERT_EQ(to_mpz(field::dot_product(a.data(), 1, b.data(), 1, n)), reference(a, 1, b, 1, n));
  }
}

// A row times a column of a matrix stored by rows (Poseidon's MDS product): b strided.
TYPED_TEST(DotProduct, StridesPickTheirElements) {
  using F = TypeParam;
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const size_t t = 9;
  std::vector<F> s(t), m(t * t);
  for (auto& x : s) x = rng.fp<F>();
  for (auto& x : m) x = rng.fp<F>();
  for (size_t j = 0; j < t; ++j) {
    const F got = field::dot_product(s.data(), 1, m.data() + j, t, t);
    F want = F::zero();
    for (size_t i = 0; i < t; ++i) want += s[i] * m[i * t + j];
    EXPECT_EQ(got, want) << j;
  }
}

}  // namespace
}  // namespace cuzk::test
