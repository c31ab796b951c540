// Square roots in Fp, Fp2 and Fr, and the "lexicographically largest" sign of the ZCash encoding.
//
// Each sqrt returns false (leaving `out` unspecified) when `a` is not a square, and otherwise one of
// the two roots; callers choose the sign they need (see lexicographically_largest).
#pragma once

#include <cstdint>

#include "field/fields.hpp"
#include "field/fp2.hpp"
#include "field/hd.hpp"

namespace cuzk::field {

// p = 3 mod 4: a^((p+1)/4) is a root whenever one exists; squaring it back tells which case we are in.
CUZK_HD bool sqrt(const Fp& a, Fp& out) {
  constexpr uint64_t e[6] = {0xee7fbfffffffeaabull, 0x07aaffffac54ffffull, 0xd9cc34a83dac3d89ull,
                             0xd91dd2e13ce144afull, 0x92c6e9ed90d2eb35ull, 0x0680447a8e5ff9a6ull};  // (p+1)/4
  const Fp x = a.pow(e, 6);
  if (x.sqr() != a) return false;
  out = x;
  return true;
}

// Adj and Rodriguez-Henriquez, "Square root computation over even extension fields" (2012),
// Algorithm 9, for Fp2 with p = 3 mod 4. alpha = a^((p-1)/2); its norm alpha^(p+1) is a's quadratic
// character in Fp2 (-1 for non-squares). One exponentiation by (p-3)/4 and, unless alpha = -1, one
// by (p-1)/2.
CUZK_HD bool sqrt(const Fp2& a, Fp2& out) {
  constexpr uint64_t e34[6] = {0xee7fbfffffffeaaaull, 0x07aaffffac54ffffull,
                               0xd9cc34a83dac3d89ull, 0xd91dd2e13ce144afull,
                               0x92c6e9ed90d2eb35ull, 0x0680447a8e5ff9a6ull};  // (p-3)/4
  constexpr uint64_t e12[6] = {0xdcff7fffffffd555ull, 0x0f55ffff58a9ffffull,
                               0xb39869507b587b12ull, 0xb23ba5c279c2895full,
                               0x258dd3db21a5d66bull, 0x0d0088f51cbff34dull};  // (p-1)/2
  const Fp2 a1 = a.pow(e34, 6);
  const Fp2 x0 = a1 * a;
  const Fp2 alpha = a1 * x0;
  const Fp2 minus_one = -Fp2::one();
  if (alpha.frobenius() * alpha == minus_one) return false;
  Fp2 x;
  if (alpha == minus_one) {
    x = Fp2{-x0.c1, x0.c0};  // u * x0, since u^2 = -1
  } else {
    x = (alpha + Fp2::one()).pow(e12, 6) * x0;
  }
  // The character test above is exact; the check guards against a wrong constant, cheaply.
  if (x.sqr() != a) return false;
  out = x;
  return true;
}

// Tonelli-Shanks for Fr: r - 1 = 2^32 t, with 7^t (7 is a non-residue) generating the 2^32-torsion.
CUZK_HD bool sqrt(const Fr& a, Fr& out) {
  if (a.is_zero()) {
    out = Fr::zero();
    return true;
  }
  constexpr uint64_t t_minus1_half[4] = {0x7fff2dff7fffffffull, 0x04d0ec02a9ded201ull, 0x94cebea4199cec04ull,
                                         0x0000000039f6d3a9ull};  // (t-1)/2
  // 7^t in Montgomery form (blstrs ROOT_OF_UNITY).
  Fr z = Fr{{0xb9b58d8c5f0e466aull, 0x5b1b4c801819d7ecull, 0x0af53ae352a31e64ull, 0x5bf3adda19e9b27bull}};
  const Fr w = a.pow(t_minus1_half, 4);  // a^((t-1)/2)
  Fr x = w * a;                          // a^((t+1)/2)
  Fr b = x * w;                          // a^t
  unsigned m = FrParams::S;
  while (!b.is_one()) {
    // Least i with b^(2^i) = 1; i = m means a is not a square.
    unsigned i = 0;
    Fr b2 = b;
    while (!b2.is_one()) {
      b2 = b2.sqr();
      if (++i == m) return false;
    }
    Fr c = z;
    for (unsigned j = 0; j + 1 < m - i; ++j) c = c.sqr();  // z^(2^(m-i-1))
    z = c.sqr();
    x *= c;
    b *= z;
    m = i;
  }
  out = x;
  return true;
}

// y > (p-1)/2 on the canonical value: the ZCash "sort" flag.
CUZK_HD bool lexicographically_largest(const Fp& y) {
  constexpr uint64_t half[6] = {0xdcff7fffffffd555ull, 0x0f55ffff58a9ffffull, 0xb39869507b587b12ull,
                                0xb23ba5c279c2895full, 0x258dd3db21a5d66bull, 0x0d0088f51cbff34dull};
  uint64_t v[6];
  y.to_canonical(v);
  for (int i = 5; i >= 0; --i)
    if (v[i] != half[i]) return v[i] > half[i];
  return false;
}

// c1 decides unless it is zero, then c0 (zkcrypto/bls12_381 fp2.rs convention).
CUZK_HD bool lexicographically_largest(const Fp2& y) {
  if (!y.c1.is_zero()) return lexicographically_largest(y.c1);
  return lexicographically_largest(y.c0);
}

}  // namespace cuzk::field

namespace cuzk {
using field::lexicographically_largest;
using field::sqrt;
}  // namespace cuzk
