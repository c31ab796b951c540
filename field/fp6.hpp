// Fp6 = Fp2[v] / (v^3 - xi), xi = u + 1: the middle of the BLS12-381 tower. One definition for
// host and device.
//
// Multiplication is Karatsuba over the three coefficients (6 Fp2 multiplications), squaring is
// Chung-Hasan SQR2 (2 multiplications and 3 squarings). The sparse products mul_by_01 and
// mul_by_1 exist for the Miller loop, whose line functions have at most two non-zero Fp2
// coefficients in each Fp6 half.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/fp2.hpp"
#include "field/frobenius_constants.hpp"

namespace cuzk {

struct Fp6 {
  Fp2 c0, c1, c2;  // c0 + c1*v + c2*v^2

  CUZK_HD static constexpr Fp6 zero() { return {Fp2::zero(), Fp2::zero(), Fp2::zero()}; }
  CUZK_HD static constexpr Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }

  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  CUZK_HD friend bool operator==(const Fp6& a, const Fp6& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  CUZK_HD friend bool operator!=(const Fp6& a, const Fp6& b) { return !(a == b); }

  CUZK_HD friend Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  CUZK_HD friend Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  CUZK_HD Fp6 operator-() const { return {-c0, -c1, -c2}; }
  CUZK_HD Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Karatsuba: the three diagonal products plus three products of sums.
  CUZK_HD friend Fp6 operator*(const Fp6& a, const Fp6& b) {
    const Fp2 t0 = a.c0 * b.c0;
    const Fp2 t1 = a.c1 * b.c1;
    const Fp2 t2 = a.c2 * b.c2;
    const Fp2 r0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_nonresidue() + t0;
    const Fp2 r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_nonresidue();
    const Fp2 r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1;
    return {r0, r1, r2};
  }
  // Scale by an Fp2 element.
  CUZK_HD friend Fp6 operator*(const Fp6& a, const Fp2& s) { return {a.c0 * s, a.c1 * s, a.c2 * s}; }
  CUZK_HD Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  CUZK_HD Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
  CUZK_HD Fp6& operator*=(const Fp6& b) { return *this = *this * b; }

  // Chung-Hasan SQR2: s2 = (c0 - c1 + c2)^2 recovers the v^2 coefficient from the others.
  CUZK_HD Fp6 sqr() const {
    const Fp2 s0 = c0.sqr();
    const Fp2 s1 = (c0 * c1).dbl();
    const Fp2 s2 = (c0 - c1 + c2).sqr();
    const Fp2 s3 = (c1 * c2).dbl();
    const Fp2 s4 = c2.sqr();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
  }

  // Multiply by v (the non-residue that builds Fp12 over Fp6): v^3 = xi shifts c2 round.
  CUZK_HD Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // Product with b0 + b1*v (5 Fp2 multiplications instead of 6).
  CUZK_HD Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const {
    const Fp2 t0 = c0 * b0;
    const Fp2 t1 = c1 * b1;
    const Fp2 r0 = ((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0;
    const Fp2 r1 = (c0 + c1) * (b0 + b1) - t0 - t1;
    const Fp2 r2 = (c0 + c2) * b0 - t0 + t1;
    return {r0, r1, r2};
  }
  // Product with b1*v.
  CUZK_HD Fp6 mul_by_1(const Fp2& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

  // 1/a through the adjugate: a * (A + B v + C v^2) = F lies in Fp2. Zero maps to zero.
  CUZK_HD Fp6 inverse() const {
    const Fp2 A = c0.sqr() - (c1 * c2).mul_by_nonresidue();
    const Fp2 B = c2.sqr().mul_by_nonresidue() - c0 * c1;
    const Fp2 C = c1.sqr() - c0 * c2;
    const Fp2 F = c0 * A + (c2 * B + c1 * C).mul_by_nonresidue();
    const Fp2 Fi = F.inverse();
    return {A * Fi, B * Fi, C * Fi};
  }

  CUZK_HD Fp6 pow(const uint64_t* e, size_t n) const {
    Fp6 r = one();
    for (size_t i = n; i-- > 0;)
      for (int b = 63; b >= 0; --b) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r *= *this;
      }
    return r;
  }

  // a^(p^k): each Fp2 coefficient is raised (conjugated for odd k) and v^(p^k) = v *
  // xi^((p^k - 1)/3) brings the constants of frobenius_constants.hpp, which cover k = 1, 2, 3;
  // larger k compose those.
  CUZK_HD Fp6 frobenius_map(unsigned k) const {
    k %= 6;
    Fp6 r = *this;
    while (k > 0) {
      const unsigned s = k > 3 ? 3 : k;
      const bool odd = (s & 1) != 0;
      const Fp2 a0 = odd ? r.c0.conjugate() : r.c0;
      const Fp2 a1 = odd ? r.c1.conjugate() : r.c1;
      const Fp2 a2 = odd ? r.c2.conjugate() : r.c2;
      r = {a0, a1 * frobenius::fp6_c1(s), a2 * frobenius::fp6_c2(s)};
      k -= s;
    }
    return r;
  }
};

}  // namespace cuzk
