// Fp12 = Fp6[w] / (w^2 - v): the target field of the BLS12-381 pairing. One definition for host
// and device.
//
// As a vector over Fp2 an element is sum_i a_i w^i (i = 0..5) with w^6 = xi; the storage is
// c0 = (a0, a2, a4) and c1 = (a1, a3, a5), the layout of blst, zkcrypto and noble.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/fp6.hpp"

namespace cuzk {

struct Fp12 {
  Fp6 c0, c1;  // c0 + c1*w

  CUZK_HD static constexpr Fp12 zero() { return {Fp6::zero(), Fp6::zero()}; }
  CUZK_HD static constexpr Fp12 one() { return {Fp6::one(), Fp6::zero()}; }

  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HD friend bool operator==(const Fp12& a, const Fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HD friend bool operator!=(const Fp12& a, const Fp12& b) { return !(a == b); }

  CUZK_HD friend Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD friend Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD Fp12 operator-() const { return {-c0, -c1}; }

  // Karatsuba: 3 Fp6 multiplications.
  CUZK_HD friend Fp12 operator*(const Fp12& a, const Fp12& b) {
    const Fp6 t0 = a.c0 * b.c0;
    const Fp6 t1 = a.c1 * b.c1;
    return {t1.mul_by_nonresidue() + t0, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  CUZK_HD Fp12& operator+=(const Fp12& b) { return *this = *this + b; }
  CUZK_HD Fp12& operator-=(const Fp12& b) { return *this = *this - b; }
  CUZK_HD Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  // Complex squaring: (c0 + c1 w)^2 = (c0 + c1)(c0 + v c1) - t - v t + 2t w with t = c0 c1.
  CUZK_HD Fp12 sqr() const {
    const Fp6 t = c0 * c1;
    const Fp6 s = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
    return {s - t - t.mul_by_nonresidue(), t.dbl()};
  }

  // x^(p^6): the non-trivial automorphism over Fp6 maps w to -w. On the cyclotomic subgroup
  // (where every pairing value lives after the easy part of the final exponentiation) it is the
  // inverse.
  CUZK_HD Fp12 conjugate() const { return {c0, -c1}; }

  // (c0 - c1 w) / (c0^2 - v c1^2). Zero maps to zero.
  CUZK_HD Fp12 inverse() const {
    const Fp6 n = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
    return {c0 * n, -(c1 * n)};
  }

  CUZK_HD Fp12 pow(const uint64_t* e, size_t n) const {
    Fp12 r = one();
    for (size_t i = n; i-- > 0;)
      for (int b = 63; b >= 0; --b) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r *= *this;
      }
    return r;
  }

  // x^(p^k) for any k: maps for k = 1, 2, 3 from frobenius_constants.hpp, composed beyond.
  CUZK_HD Fp12 frobenius_map(unsigned k) const {
    k %= 12;
    Fp12 r = *this;
    while (k > 0) {
      const unsigned s = k > 3 ? 3 : k;
      const Fp6 a0 = r.c0.frobenius_map(s);
      const Fp6 a1 = r.c1.frobenius_map(s) * frobenius::fp12_c1(s);
      r = {a0, a1};
      k -= s;
    }
    return r;
  }

  // Sparse product with a line value l0 + l1 w^2 + l4 w^3, i.e. c0 = (l0, l1, 0), c1 = (0, l4, 0):
  // the shape of every Miller-loop line on the M-type twist (13 Fp2 multiplications, not 18).
  CUZK_HD Fp12 mul_by_014(const Fp2& l0, const Fp2& l1, const Fp2& l4) const {
    const Fp6 t0 = c0.mul_by_01(l0, l1);
    const Fp6 t1 = c1.mul_by_1(l4);
    const Fp6 s = (c0 + c1).mul_by_01(l0, l1 + l4);
    return {t1.mul_by_nonresidue() + t0, s - t0 - t1};
  }

  // Granger-Scott squaring for elements of the cyclotomic subgroup (x^(p^4 - p^2 + 1) = 1).
  // Fp12 is seen as Fp4^3 with Fp4 = Fp2[s]/(s^2 - xi), s = w^3; the three Fp4 coordinates
  // are (a0, a3), (a1, a4), (a2, a5) in powers of w. On the subgroup the square needs only the
  // squares of those three Fp4 values: 6 Fp2 multiplications instead of 12 for sqr().
  CUZK_HD Fp12 cyclotomic_sqr() const {
    const Fp2& a0 = c0.c0;
    const Fp2& a2 = c0.c1;
    const Fp2& a4 = c0.c2;
    const Fp2& a1 = c1.c0;
    const Fp2& a3 = c1.c1;
    const Fp2& a5 = c1.c2;
    const Fp4 A = fp4_sqr(a0, a3);
    const Fp4 B = fp4_sqr(a1, a4);
    const Fp4 C = fp4_sqr(a2, a5);
    // Each new coefficient is 3t - 2a or 3t + 2a (Granger and Scott, PKC 2010, section 3.2).
    const Fp2 r0 = three_minus_two(A.x, a0);
    const Fp2 r3 = three_plus_two(A.y, a3);
    const Fp2 r1 = three_plus_two(C.y.mul_by_nonresidue(), a1);
    const Fp2 r4 = three_minus_two(C.x, a4);
    const Fp2 r2 = three_minus_two(B.x, a2);
    const Fp2 r5 = three_plus_two(B.y, a5);
    return {{r0, r2, r4}, {r1, r3, r5}};
  }

 private:
  struct Fp4 {
    Fp2 x, y;  // x + y s
  };
  // (x + y s)^2 = (x^2 + xi y^2) + 2xy s, with x^2 + xi y^2 = (x + y)(x + xi y) - xy - xi xy.
  CUZK_HD static Fp4 fp4_sqr(const Fp2& x, const Fp2& y) {
    const Fp2 xy = x * y;
    return {(x + y) * (x + y.mul_by_nonresidue()) - xy - xy.mul_by_nonresidue(), xy.dbl()};
  }
  CUZK_HD static Fp2 three_minus_two(const Fp2& t, const Fp2& a) { return (t - a).dbl() + t; }
  CUZK_HD static Fp2 three_plus_two(const Fp2& t, const Fp2& a) { return (t + a).dbl() + t; }
};

}  // namespace cuzk
