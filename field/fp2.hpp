// Fp2 = Fp[u] / (u^2 + 1): the field G2 lives over. One definition for host and device.
#pragma once

#include "field/fields.hpp"

namespace cuzk::field {

template <class F>
struct fp2_t {
  using base = F;
  F c0, c1;  // c0 + c1*u

  CUZK_HD static constexpr fp2_t zero() { return {F::zero(), F::zero()}; }
  CUZK_HD static constexpr fp2_t one() { return {F::one(), F::zero()}; }

  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HD friend bool operator==(const fp2_t& a, const fp2_t& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HD friend bool operator!=(const fp2_t& a, const fp2_t& b) { return !(a == b); }

  CUZK_HD friend fp2_t operator+(const fp2_t& a, const fp2_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD friend fp2_t operator-(const fp2_t& a, const fp2_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD fp2_t operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3 base multiplications; on the device with the products kept wide and 2 reductions
  // (CUZK_DEVICE_PLAIN_FP2_MUL keeps 3, a benchmark's baseline).
  CUZK_HD friend fp2_t operator*(const fp2_t& a, const fp2_t& b) {
#if CUZK_DEVICE_CODE && !defined(CUZK_DEVICE_PLAIN_FP2_MUL)
    fp2_t r;
#if defined(CUZK_DEVICE_MUL_NOINLINE)
    F::mul_fp2_call(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1);
#else
    F::mul_fp2(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1);
#endif
    return r;
#else
    const F t0 = a.c0 * b.c0;
    const F t1 = a.c1 * b.c1;
    const F t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
#endif
  }
  // Scale by a base-field element.
  CUZK_HD friend fp2_t operator*(const fp2_t& a, const F& s) { return {a.c0 * s, a.c1 * s}; }
  CUZK_HD fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
  CUZK_HD fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }
  CUZK_HD fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }

  // (a + bu)^2 = (a+b)(a-b) + 2ab u: 2 base multiplications.
  CUZK_HD fp2_t sqr() const {
    const F t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t + t};
  }
  CUZK_HD fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
  // a·b − c·d (the point formulas' Y); on the device with two reductions where the two products
  // would take four (CUZK_DEVICE_PLAIN_MUL_SUB keeps four).
  CUZK_HD static fp2_t mul_sub(const fp2_t& a, const fp2_t& b, const fp2_t& c, const fp2_t& d) {
#if CUZK_DEVICE_CODE && !defined(CUZK_DEVICE_PLAIN_MUL_SUB) && !defined(CUZK_DEVICE_PLAIN_FP2_MUL)
    fp2_t r;
#if defined(CUZK_DEVICE_MUL_NOINLINE)
    F::mul_sub_fp2_call(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1, c.c0, c.c1, d.c0, d.c1);
#else
    F::mul_sub_fp2(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1, c.c0, c.c1, d.c0, d.c1);
#endif
    return r;
#else
    return a * b - c * d;
#endif
  }
  CUZK_HD fp2_t conjugate() const { return {c0, -c1}; }
  // Multiply by the non-residue (u + 1) that builds Fp6 over Fp2.
  CUZK_HD fp2_t mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  // 1/(a + bu) = (a - bu) / (a^2 + b^2). Zero maps to zero.
  CUZK_HD fp2_t inverse() const {
    const F t = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * t, -(c1 * t)};
  }
  CUZK_HD fp2_t pow(const uint64_t* e, size_t n) const {
    fp2_t r = one();
    for (size_t i = n; i-- > 0;)
      for (int b = 63; b >= 0; --b) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r *= *this;
      }
    return r;
  }
  // The p-power Frobenius on Fp2 is conjugation.
  CUZK_HD fp2_t frobenius() const { return conjugate(); }
};

}  // namespace cuzk::field

namespace cuzk {
using Fp2 = field::fp2_t<Fp>;
}  // namespace cuzk
