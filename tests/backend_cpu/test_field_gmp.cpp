// The host field arithmetic (x86-64 asm and intrinsics paths in field/mont.hpp) against GMP, on
// random and edge-case operands, for both the 6-limb Fp and the 4-limb Fr.
#include <gmp.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/backend_cpu/test_util.hpp"

namespace cuzk {
namespace {

template <class F>
struct Gmp {
  mpz_t p, r_inv, t;  // modulus, 2^(-64N) mod p, scratch
  Gmp() {
    mpz_inits(p, r_inv, t, nullptr);
    uint64_t m[F::N];
    for (size_t i = 0; i < F::N; ++i) m[i] = F::params::mod(i);
    mpz_import(p, F::N, -1, 8, 0, 0, m);
    mpz_set_ui(t, 1);
    mpz_mul_2exp(t, t, 64 * F::N);
    mpz_invert(r_inv, t, p);
  }
  ~Gmp() { mpz_clears(p, r_inv, t, nullptr); }
  void raw(mpz_t out, const F& x) { mpz_import(out, F::N, -1, 8, 0, 0, x.l); }
  // The raw limbs of a Montgomery product: a·b·R^-1 mod p on the stored integers.
  void mont_mul(mpz_t out, const F& a, const F& b) {
    mpz_t x, y;
    mpz_inits(x, y, nullptr);
    raw(x, a);
    raw(y, b);
    mpz_mul(out, x, y);
    mpz_mul(out, out, r_inv);
    mpz_mod(out, out, p);
    mpz_clears(x, y, nullptr);
  }
  F from(const mpz_t v) {
    F f{};
    size_t count = 0;
    mpz_export(f.l, &count, -1, 8, 0, 0, v);
    return f;
  }
};

template <class F>
std::vector<F> edge_values() {
  std::vector<F> v = {F::zero(), F::one(), -F::one(), -F::one() - F::one(), F::from_u64(2)};
  F big{};
  for (size_t i = 0; i < F::N; ++i) big.l[i] = F::params::mod(i);
  big.l[0] -= 1;  // raw p − 1: the largest stored value
  v.push_back(big);
  big.l[0] = 0;  // raw p − p_0 − ...: top limbs of p, low limb zero
  v.push_back(big);
  F one_raw{};
  one_raw.l[0] = 1;
  v.push_back(one_raw);
  return v;
}

template <class F>
void check_against_gmp() {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  Gmp<F> g;
  std::vector<F> values = edge_values<F>();
  for (int i = 0; i < 2000; ++i) values.push_back(test::random_field<F>(rng));
  mpz_t x, y, e;
  mpz_inits(x, y, e, nullptr);
  for (size_t i = 0; i < values.size(); ++i) {
    const F& a = values[i];
    for (size_t j : {i, (i * 7 + 3) % values.size(), size_t(rng() % values.size())}) {
      const F& b = values[j];
      g.mont_mul(e, a, b);
      ASSERT_EQ(a * b, g.from(e)) << i << " " << j;
      g.raw(x, a);
      g.raw(y, b);
      mpz_add(e, x, y);
      mpz_mod(e, e, g.p);
      ASSERT_EQ(a + b, g.from(e)) << i << " " << j;
      mpz_sub(e, x, y);
      mpz_mod(e, e, g.p);
      ASSERT_EQ(a - b, g.from(e)) << i << " " << j;
    }
    g.mont_mul(e, a, a);
    ASSERT_EQ(a.sqr(), g.from(e)) << i;
    g.raw(x, a);
    mpz_neg(e, x);
    mpz_mod(e, e, g.p);
    ASSERT_EQ(-a, g.from(e)) << i;
    // In-place use: the asm writes its output last, so aliasing an input is allowed.
    F c = a;
    c *= values[(i + 1) % values.size()];
    ASSERT_EQ(c, a * values[(i + 1) % values.size()]);
  }
  mpz_clears(x, y, e, nullptr);
}

TEST(FieldGmp, Fp) { check_against_gmp<Fp>(); }
TEST(FieldGmp, Fr) { check_against_gmp<Fr>(); }

}  // namespace
}  // namespace cuzk
