// Jacobian points (X, Y, Z) ~ (X/Z^2, Y/Z^3) on y^2 = x^3 + b (a = 0); Z = 0 is infinity.
//
// Formulas from the Explicit-Formulas Database, chosen for a = 0: add-2007-bl (11M + 5S),
// madd-2007-bl (7M + 4S), dbl-2009-l (2M + 5S). They are not complete, so add/add_mixed branch
// on infinity and on equal inputs (where the chord formula degenerates) and fall back to dbl.
#pragma once

#include <cstddef>
#include <cstdint>

#include "curve/affine.hpp"
#include "field/fields.hpp"
#include "field/hd.hpp"

namespace cuzk::curve {

template <class F, class C>
struct jacobian_t {
  using field = F;
  using params = C;
  using affine = affine_t<F, C>;
  F X, Y, Z;

  jacobian_t() = default;  // trivial, so arrays of points can live in CUDA shared memory
  CUZK_HD constexpr jacobian_t(const F& x, const F& y, const F& z) : X(x), Y(y), Z(z) {}
  CUZK_HD explicit jacobian_t(const affine& a) : X(a.x), Y(a.y), Z(a.is_inf() ? F::zero() : F::one()) {}

  CUZK_HD static constexpr jacobian_t infinity() { return {F::one(), F::one(), F::zero()}; }
  CUZK_HD static jacobian_t generator() { return jacobian_t(affine::generator()); }

  CUZK_HD bool is_inf() const { return Z.is_zero(); }
  CUZK_HD jacobian_t neg() const { return {X, -Y, Z}; }
  CUZK_HD jacobian_t operator-() const { return neg(); }

  // Projective equality: X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3.
  CUZK_HD friend bool operator==(const jacobian_t& a, const jacobian_t& b) {
    const bool ai = a.is_inf(), bi = b.is_inf();
    if (ai || bi) return ai && bi;
    const F z1z1 = a.Z.sqr(), z2z2 = b.Z.sqr();
    if (a.X * z2z2 != b.X * z1z1) return false;
    return a.Y * z2z2 * b.Z == b.Y * z1z1 * a.Z;
  }
  CUZK_HD friend bool operator!=(const jacobian_t& a, const jacobian_t& b) { return !(a == b); }

  // Y^2 == X^3 + b Z^6. Infinity counts as on the curve.
  CUZK_HD bool is_on_curve() const {
    if (is_inf()) return true;
    const F z2 = Z.sqr();
    const F z6 = z2.sqr() * z2;
    return Y.sqr() == X.sqr() * X + C::b() * z6;
  }
  CUZK_HD bool in_subgroup() const { return C::in_subgroup(*this); }

  CUZK_HD affine to_affine() const {
    if (is_inf()) return affine::infinity();
    const F zi = Z.inverse();
    const F zi2 = zi.sqr();
    return {X * zi2, Y * zi2 * zi};
  }

  // dbl-2009-l.
  CUZK_HD jacobian_t dbl() const {
    const F A = X.sqr();
    const F B = Y.sqr();
    const F Cc = B.sqr();
    const F D = ((X + B).sqr() - A - Cc).dbl();
    const F E = A.dbl() + A;
    const F Fs = E.sqr();
    jacobian_t r;
    r.X = Fs - D.dbl();
    r.Y = E * (D - r.X) - Cc.dbl().dbl().dbl();
    r.Z = (Y * Z).dbl();  // Y = 0 (2-torsion) or Z = 0 gives infinity, as it should
    return r;
  }

  // add-2007-bl.
  CUZK_HD jacobian_t add(const jacobian_t& q) const {
    if (is_inf()) return q;
    if (q.is_inf()) return *this;
    const F z1z1 = Z.sqr();
    const F z2z2 = q.Z.sqr();
    const F u1 = X * z2z2;
    const F u2 = q.X * z1z1;
    const F s1 = Y * q.Z * z2z2;
    const F s2 = q.Y * Z * z1z1;
    const F h = u2 - u1;
    const F rr = (s2 - s1).dbl();
    if (h.is_zero()) return rr.is_zero() ? dbl() : infinity();
    const F i = h.dbl().sqr();
    const F j = h * i;
    const F v = u1 * i;
    jacobian_t r;
    r.X = rr.sqr() - j - v.dbl();
    r.Y = rr * (v - r.X) - (s1 * j).dbl();
    r.Z = ((Z + q.Z).sqr() - z1z1 - z2z2) * h;
    return r;
  }

  // madd-2007-bl: q has Z = 1.
  CUZK_HD jacobian_t add_mixed(const affine& q) const {
    if (q.is_inf()) return *this;
    if (is_inf()) return jacobian_t(q);
    const F z1z1 = Z.sqr();
    const F u2 = q.x * z1z1;
    const F s2 = q.y * Z * z1z1;
    const F h = u2 - X;
    const F rr = (s2 - Y).dbl();
    if (h.is_zero()) return rr.is_zero() ? dbl() : infinity();
    const F hh = h.sqr();
    const F i = hh.dbl().dbl();
    const F j = h * i;
    const F v = X * i;
    jacobian_t r;
    r.X = rr.sqr() - j - v.dbl();
    r.Y = rr * (v - r.X) - (Y * j).dbl();
    r.Z = (Z + h).sqr() - z1z1 - hh;
    return r;
  }

  CUZK_HD friend jacobian_t operator+(const jacobian_t& a, const jacobian_t& b) { return a.add(b); }
  CUZK_HD friend jacobian_t operator-(const jacobian_t& a, const jacobian_t& b) { return a.add(b.neg()); }
  CUZK_HD jacobian_t& operator+=(const jacobian_t& b) { return *this = add(b); }

  // [k]P for k given as n little-endian 64-bit limbs (any size: [r]P is expressible). Left-to-right
  // double-and-add; not constant time, which the prover does not need (scalars are not secrets
  // held against a timing observer on the proving host).
  CUZK_HD jacobian_t mul(const uint64_t* k, size_t n) const {
    jacobian_t acc = infinity();
    for (size_t i = n; i-- > 0;)
      for (int b = 63; b >= 0; --b) {
        acc = acc.dbl();
        if ((k[i] >> b) & 1) acc = acc.add(*this);
      }
    return acc;
  }
  CUZK_HD jacobian_t mul(const Fr& k) const {
    uint64_t v[Fr::N];
    k.to_canonical(v);
    return mul(v, Fr::N);
  }
};

}  // namespace cuzk::curve
