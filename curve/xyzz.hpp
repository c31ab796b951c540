// Extended Jacobian "XYZZ" points (X, Y, ZZ, ZZZ) ~ (X/ZZ, Y/ZZZ) with ZZ^3 = ZZZ^2; ZZ = 0 is
// infinity. The bucket accumulators of Pippenger MSMs use them: a mixed addition costs 8M + 2S
// (madd-2008-s), cheaper than Jacobian's 7M + 4S once squarings cost as much as multiplications.
//
// Formulas from the Explicit-Formulas Database, a = 0: add-2008-s, madd-2008-s, dbl-2008-s-1,
// mdbl-2008-s-1. Not complete: equal inputs fall back to doubling, opposite ones give infinity.
#pragma once

#include <cstddef>
#include <cstdint>

#include "curve/affine.hpp"
#include "curve/jacobian.hpp"
#include "field/fields.hpp"
#include "field/hd.hpp"

namespace cuzk::curve {

template <class F, class C>
struct xyzz_t {
  using field = F;
  using params = C;
  using affine = affine_t<F, C>;
  using jacobian = jacobian_t<F, C>;
  F X, Y, ZZ, ZZZ;

  xyzz_t() = default;  // trivial, so arrays of points can live in CUDA shared memory
  CUZK_HD constexpr xyzz_t(const F& x, const F& y, const F& zz, const F& zzz)
      : X(x), Y(y), ZZ(zz), ZZZ(zzz) {}
  CUZK_HD explicit xyzz_t(const affine& a) {
    if (a.is_inf()) {
      *this = infinity();
    } else {
      X = a.x;
      Y = a.y;
      ZZ = ZZZ = F::one();
    }
  }
  // (X, Y, Z) -> (X, Y, Z^2, Z^3): same x = X/Z^2, y = Y/Z^3.
  CUZK_HD explicit xyzz_t(const jacobian& j) {
    const F zz = j.Z.sqr();
    X = j.X;
    Y = j.Y;
    ZZ = zz;
    ZZZ = zz * j.Z;
  }

  CUZK_HD static constexpr xyzz_t infinity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
  CUZK_HD static xyzz_t generator() { return xyzz_t(affine::generator()); }

  CUZK_HD bool is_inf() const { return ZZ.is_zero(); }
  CUZK_HD xyzz_t neg() const { return {X, -Y, ZZ, ZZZ}; }
  CUZK_HD xyzz_t operator-() const { return neg(); }

  CUZK_HD friend bool operator==(const xyzz_t& a, const xyzz_t& b) {
    const bool ai = a.is_inf(), bi = b.is_inf();
    if (ai || bi) return ai && bi;
    return a.X * b.ZZ == b.X * a.ZZ && a.Y * b.ZZZ == b.Y * a.ZZZ;
  }
  CUZK_HD friend bool operator!=(const xyzz_t& a, const xyzz_t& b) { return !(a == b); }

  // Y^2 == X^3 + b ZZ^3 and ZZ^3 == ZZZ^2. Infinity counts as on the curve.
  CUZK_HD bool is_on_curve() const {
    if (is_inf()) return true;
    const F zz3 = ZZ.sqr() * ZZ;
    if (zz3 != ZZZ.sqr()) return false;
    return Y.sqr() == X.sqr() * X + C::b() * zz3;
  }
  CUZK_HD bool in_subgroup() const { return to_jacobian().in_subgroup(); }

  // 1/ZZ = ZZ^2 / ZZZ^2 (because ZZ^3 = ZZZ^2), so one inversion serves both coordinates.
  CUZK_HD affine to_affine() const {
    if (is_inf()) return affine::infinity();
    const F izzz = ZZZ.inverse();
    const F izz = (ZZ * izzz).sqr();
    return {X * izz, Y * izzz};
  }
  // Take Z = ZZZ: x = X ZZ^2 / ZZZ^2 = X / ZZ and y = Y ZZZ^2 / ZZZ^3 = Y / ZZZ, using ZZ^3 = ZZZ^2.
  CUZK_HD jacobian to_jacobian() const {
    if (is_inf()) return jacobian::infinity();
    return {X * ZZ.sqr(), Y * ZZZ.sqr(), ZZZ};
  }

  // dbl-2008-s-1.
  CUZK_HD xyzz_t dbl() const {
    if (is_inf()) return *this;
    const F U = Y.dbl();
    const F V = U.sqr();
    const F W = U * V;
    const F S = X * V;
    const F x2 = X.sqr();
    const F M = x2.dbl() + x2;
    xyzz_t r;
    r.X = M.sqr() - S.dbl();
    r.Y = F::mul_sub(M, S - r.X, W, Y);
    r.ZZ = V * ZZ;  // Y = 0 (2-torsion) gives ZZ = 0: infinity
    r.ZZZ = W * ZZZ;
    return r;
  }

  // add-2008-s.
  CUZK_HD xyzz_t add(const xyzz_t& q) const {
    if (is_inf()) return q;
    if (q.is_inf()) return *this;
    const F u1 = X * q.ZZ;
    const F u2 = q.X * ZZ;
    const F s1 = Y * q.ZZZ;
    const F s2 = q.Y * ZZZ;
    const F P = u2 - u1;
    const F R = s2 - s1;
    if (P.is_zero()) return R.is_zero() ? dbl() : infinity();
    const F pp = P.sqr();
    const F ppp = P * pp;
    const F Q = u1 * pp;
    xyzz_t r;
    r.X = R.sqr() - ppp - Q.dbl();
    r.Y = F::mul_sub(R, Q - r.X, s1, ppp);
    r.ZZ = ZZ * q.ZZ * pp;
    r.ZZZ = ZZZ * q.ZZZ * ppp;
    return r;
  }

  // madd-2008-s (q has ZZ = ZZZ = 1); equal inputs use mdbl-2008-s-1.
  CUZK_HD xyzz_t add_mixed(const affine& q) const {
    if (q.is_inf()) return *this;
    if (is_inf()) return xyzz_t(q);
    const F u2 = q.x * ZZ;
    const F s2 = q.y * ZZZ;
    const F P = u2 - X;
    const F R = s2 - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : infinity();
    const F pp = P.sqr();
    const F ppp = P * pp;
    const F Q = X * pp;
    xyzz_t r;
    r.X = R.sqr() - ppp - Q.dbl();
    r.Y = F::mul_sub(R, Q - r.X, Y, ppp);
    r.ZZ = ZZ * pp;
    r.ZZZ = ZZZ * ppp;
    return r;
  }

  // mdbl-2008-s-1: doubling an affine (not infinity) point.
  CUZK_HD static xyzz_t dbl_affine(const affine& q) {
    const F U = q.y.dbl();
    const F V = U.sqr();
    const F W = U * V;
    const F S = q.x * V;
    const F x2 = q.x.sqr();
    const F M = x2.dbl() + x2;
    xyzz_t r;
    r.X = M.sqr() - S.dbl();
    r.Y = F::mul_sub(M, S - r.X, W, q.y);
    r.ZZ = V;
    r.ZZZ = W;
    return r;
  }

  CUZK_HD friend xyzz_t operator+(const xyzz_t& a, const xyzz_t& b) { return a.add(b); }
  CUZK_HD friend xyzz_t operator-(const xyzz_t& a, const xyzz_t& b) { return a.add(b.neg()); }
  CUZK_HD xyzz_t& operator+=(const xyzz_t& b) { return *this = add(b); }

  CUZK_HD xyzz_t mul(const uint64_t* k, size_t n) const { return xyzz_t(to_jacobian().mul(k, n)); }
  CUZK_HD xyzz_t mul(const Fr& k) const { return xyzz_t(to_jacobian().mul(k)); }
};

}  // namespace cuzk::curve
