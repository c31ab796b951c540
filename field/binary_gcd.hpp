// Modular inversion by binary GCD with approximated operands (Pornin, "Optimized Binary GCD for
// Modular Inversion", IACR ePrint 2020/972, algorithm 2): one template for the host and for CUDA
// devices, beside mont_t's Fermat inverse.
//
// Why: Fermat's a^(p-2), square-and-multiply over p − 2, costs 384 squarings and 229
// multiplications in Fp. Batch-affine accumulation in an MSM inverts once per batch step, and is
// only worth having if that inversion is a small fraction of the batch's work (docs/MSM-NOTES.md,
// "Rejected"). Here each outer step does 31 binary-GCD steps on 64-bit
// approximations of a and b, then applies them to the full numbers at once: four products by
// 32-bit factors per step, 25 outer steps by the paper's bound for a 381-bit modulus (27 here).
//
// The algorithm keeps a ≡ u·y and b ≡ v·y (mod p), starting from a = y, b = p, u = 1, v = 0, and
// ends with a = 0, b = gcd(y, p) = 1, so v = y^-1. Each outer step divides a and b by 2^31 exactly;
// u and v are divided by 2^31 modulo p the Montgomery way (adding the multiple of p that clears the
// low 31 bits), so no correction factor is left at the end. Once a = 0 further steps leave b and v
// as they are, which lets the step count carry a margin over the paper's bound.
//
// Not constant-time: its branches depend on the value (the MSM's points are public).
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/hd.hpp"

namespace cuzk::field {

namespace binary_gcd_detail {

// 64 × 64 → 128-bit product.
CUZK_HD void mul_wide(uint64_t a, uint64_t b, uint64_t& lo, uint64_t& hi) {
#if CUZK_DEVICE_CODE
  lo = a * b;
  hi = __umul64hi(a, b);
#else
  const unsigned __int128 p = (unsigned __int128)a * b;
  lo = uint64_t(p);
  hi = uint64_t(p >> 64);
#endif
}

CUZK_HD unsigned leading_zeros(uint64_t x) {
#if CUZK_DEVICE_CODE
  return unsigned(__clzll((long long)x));
#else
  return x ? unsigned(__builtin_clzll(x)) : 64u;
#endif
}

// Signed integers of W 64-bit limbs, two's complement, little-endian.
template <size_t W>
struct Signed {
  uint64_t l[W];

  CUZK_HD bool negative() const { return int64_t(l[W - 1]) < 0; }
  CUZK_HD void negate() {
    uint64_t carry = 1;
    for (size_t i = 0; i < W; ++i) {
      const uint64_t x = ~l[i] + carry;
      carry = (carry && x == 0) ? 1 : 0;
      l[i] = x;
    }
  }
  // this += x
  CUZK_HD void add(const Signed& x) {
    uint64_t carry = 0;
    for (size_t i = 0; i < W; ++i) {
      const uint64_t s = l[i] + x.l[i];
      const uint64_t c1 = s < l[i];
      l[i] = s + carry;
      carry = c1 | (l[i] < s);
    }
  }
  // Arithmetic shift right by s (0 < s < 64).
  CUZK_HD void shift_right(unsigned s) {
    for (size_t i = 0; i + 1 < W; ++i) l[i] = (l[i] >> s) | (l[i + 1] << (64 - s));
    l[W - 1] = uint64_t(int64_t(l[W - 1]) >> s);
  }
};

// x · f for x unsigned of N limbs and |f| < 2^63, as a signed integer of N + 1 limbs.
template <size_t N>
CUZK_HD Signed<N + 1> mul_signed(const uint64_t (&x)[N], int64_t f) {
  Signed<N + 1> r;
  const uint64_t m = f < 0 ? uint64_t(-f) : uint64_t(f);
  uint64_t carry = 0;
  for (size_t i = 0; i < N; ++i) {
    uint64_t lo, hi;
    mul_wide(x[i], m, lo, hi);
    lo += carry;
    hi += lo < carry;
    r.l[i] = lo;
    carry = hi;
  }
  r.l[N] = carry;
  if (f < 0) r.negate();
  return r;
}

// x·f + y·g, for |f| + |g| ≤ 2^31 and x, y < 2^(64N − 1): no overflow in N + 1 limbs.
template <size_t N>
CUZK_HD Signed<N + 1> combine(const uint64_t (&x)[N], int64_t f, const uint64_t (&y)[N], int64_t g) {
  Signed<N + 1> r = mul_signed(x, f);
  r.add(mul_signed(y, g));
  return r;
}

template <size_t N>
CUZK_HD bool is_zero(const uint64_t (&x)[N]) {
  uint64_t acc = 0;
  for (size_t i = 0; i < N; ++i) acc |= x[i];
  return acc == 0;
}

// x's low K bits, and above them its bits [n − K − 2, n): 2K + 2 = 64 bits for K = 31. The two limbs
// are picked by masks, not by a run-time index: on a device an indexed array lives in local memory.
template <unsigned K, size_t N>
CUZK_HD uint64_t approximation(const uint64_t (&x)[N], unsigned n) {
  const unsigned shift = n - (K + 2);
  const size_t limb = shift / 64, bit = shift % 64;
  uint64_t low_limb = 0, high_limb = 0;
  for (size_t i = 0; i < N; ++i) {  // (a plain `if (i == limb)` was turned back into x[limb])
    low_limb |= x[i] & (uint64_t(0) - uint64_t(i == limb));
    high_limb |= x[i] & (uint64_t(0) - uint64_t(i == limb + 1));
  }
  uint64_t w = low_limb >> bit;
  if (bit) w |= high_limb << (64 - bit);
  const uint64_t top = w & ((uint64_t(1) << (K + 2)) - 1);
  return (x[0] & ((uint64_t(1) << K) - 1)) | (top << K);
}

// (x·f + z·g) / 2^31 mod p, in [0, p), for x, z < p and |f| + |g| ≤ 2^31. A function, not a lambda:
// nvcc inlines it, where a lambda's array arguments went to local memory.
template <class P, size_t N>
CUZK_HD void combine_mod(const uint64_t (&x)[N], int64_t f, const uint64_t (&z)[N], int64_t g,
                         uint64_t (&r)[N]) {
  constexpr unsigned K = 31;
  constexpr uint64_t kLow = (uint64_t(1) << K) - 1;
  Signed<N + 1> t = combine(x, f, z, g);
  // t + q·p ≡ 0 mod 2^31 for q = t·(−p^-1) mod 2^31 (Montgomery's −p^-1 mod 2^64, cut): then
  // (t + q·p) / 2^31 is exact and lies in (−p, 2p).
  const uint64_t q = (t.l[0] * (P::M0 & kLow)) & kLow;
  uint64_t pl[N];
  for (size_t i = 0; i < N; ++i) pl[i] = P::mod(i);
  t.add(mul_signed(pl, int64_t(q)));
  t.shift_right(K);
  // Into [0, p): add p when negative, subtract it when at least p.
  uint64_t s[N], borrow = 0;
  const bool neg = t.negative();
  for (size_t i = 0; i < N; ++i) {
    const uint64_t m = P::mod(i);
    if (neg) {  // t + p
      const uint64_t x1 = t.l[i] + m;
      const uint64_t c1 = x1 < m;
      s[i] = x1 + borrow;
      borrow = c1 | (s[i] < x1);
    } else {  // t − p
      const uint64_t d = t.l[i] - m;
      const uint64_t b1 = t.l[i] < m;
      s[i] = d - borrow;
      borrow = b1 | (d < borrow);
    }
  }
  // neg: t + p is the answer. Otherwise t − p when it did not borrow (t ≥ p), else t.
  const bool keep_t = !neg && borrow;
  for (size_t i = 0; i < N; ++i) r[i] = keep_t ? t.l[i] : s[i];
}

}  // namespace binary_gcd_detail

// y^-1 mod p for the field F's modulus p, y given as N canonical 64-bit limbs (y < p); 0 for 0.
template <class F>
CUZK_HD void invert_canonical_binary_gcd(const uint64_t (&y)[F::N], uint64_t (&out)[F::N]) {
  using namespace binary_gcd_detail;
  constexpr size_t N = F::N;
  using P = typename F::params;
  constexpr unsigned K = 31;  // binary-GCD steps per outer step
  // The paper's bound is 2·len(p) − 1 steps; two outer steps of margin cost little and cover it.
  constexpr unsigned kOuter = (2 * P::BITS - 1 + K - 1) / K + 2;

  uint64_t a[N], b[N], u[N], v[N];
  for (size_t i = 0; i < N; ++i) {
    a[i] = y[i];
    b[i] = P::mod(i);
    u[i] = 0;
    v[i] = 0;
  }
  u[0] = 1;

  // Past the bound only while a is not yet 0 (never seen; the cap keeps the loop finite).
  for (unsigned outer = 0; outer < kOuter || (!is_zero(a) && outer < 4 * kOuter); ++outer) {
    // 64-bit approximations: the low 31 bits exactly, above them the top 33 bits of the longer of
    // a and b (both exact while they fit in 64 bits).
    uint64_t top = 0;
    size_t top_limb = 0;
    for (size_t i = 0; i < N; ++i)  // no early exit: the loop unrolls and a, b stay in registers
      if ((a[i] | b[i]) != 0) {
        top = a[i] | b[i];
        top_limb = i;
      }
    const unsigned len = unsigned(64 * top_limb + 64 - leading_zeros(top));
    const unsigned n = len > 64 ? len : 64;
    uint64_t xa = approximation<K>(a, n), xb = approximation<K>(b, n);
    int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    for (unsigned j = 0; j < K; ++j) {
      if (xa & 1) {
        if (xa < xb) {
          const uint64_t t = xa;
          xa = xb;
          xb = t;
          int64_t s = f0;
          f0 = f1;
          f1 = s;
          s = g0;
          g0 = g1;
          g1 = s;
        }
        xa -= xb;
        f0 -= f1;
        g0 -= g1;
      }
      xa >>= 1;
      f1 *= 2;
      g1 *= 2;
    }
    // Apply the 31 steps to the full numbers; a and b stay non-negative (a sign flips the factors).
    Signed<N + 1> na = combine(a, f0, b, g0), nb = combine(a, f1, b, g1);
    na.shift_right(K);
    nb.shift_right(K);
    if (na.negative()) {
      na.negate();
      f0 = -f0;
      g0 = -g0;
    }
    if (nb.negative()) {
      nb.negate();
      f1 = -f1;
      g1 = -g1;
    }
    uint64_t nu[N], nv[N];
    combine_mod<P>(u, f0, v, g0, nu);
    combine_mod<P>(u, f1, v, g1, nv);
    for (size_t i = 0; i < N; ++i) {
      a[i] = na.l[i];
      b[i] = nb.l[i];
      u[i] = nu[i];
      v[i] = nv[i];
    }
  }
  for (size_t i = 0; i < N; ++i) out[i] = v[i];
}

// The inverse of a Montgomery-form element (x = y·R holds the integer yR): binary GCD gives
// (yR)^-1, and one Montgomery product by R^3 brings it to y^-1·R. Zero maps to zero.
template <class F>
CUZK_HD F inverse_binary_gcd(const F& x) {
  constexpr size_t N = F::N;
  uint64_t in[N], inv[N];
  for (size_t i = 0; i < N; ++i) in[i] = x.l[i];
  invert_canonical_binary_gcd<F>(in, inv);
  F r, rr;
  for (size_t i = 0; i < N; ++i) {
    r.l[i] = inv[i];
    rr.l[i] = F::params::rr(i);  // R^2 as limbs: the element R
  }
  return r * (rr * rr);  // (yR)^-1 · R^3 · R^-1 = y^-1·R
}

}  // namespace cuzk::field
