// Affine points (x, y) of a short Weierstrass curve y^2 = x^3 + b, one definition for host and device.
//
// The point at infinity is stored as all-zero coordinates (blst's convention). (0, 0) is not on
// either BLS12-381 curve because b != 0, so the encoding is unambiguous, and a zeroed buffer is a
// valid array of infinities.
//
// C (the curve parameters) provides: CUZK_HD static F b(); static F generator_x(), generator_y();
// and template <class J> static bool in_subgroup(const J&) over Jacobian points.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/fields.hpp"
#include "field/hd.hpp"

namespace cuzk::curve {

template <class F, class C>
struct jacobian_t;

template <class F, class C>
struct affine_t {
  using field = F;
  using params = C;
  F x, y;

  CUZK_HD static constexpr affine_t infinity() { return {F::zero(), F::zero()}; }
  CUZK_HD static affine_t generator() { return {C::generator_x(), C::generator_y()}; }

  CUZK_HD bool is_inf() const { return x.is_zero() && y.is_zero(); }
  CUZK_HD affine_t neg() const { return {x, -y}; }  // -0 = 0, so infinity stays infinity
  CUZK_HD affine_t operator-() const { return neg(); }
  CUZK_HD friend bool operator==(const affine_t& a, const affine_t& b) { return a.x == b.x && a.y == b.y; }
  CUZK_HD friend bool operator!=(const affine_t& a, const affine_t& b) { return !(a == b); }

  // y^2 == x^3 + b. Infinity counts as on the curve.
  CUZK_HD bool is_on_curve() const {
    if (is_inf()) return true;
    return y.sqr() == x.sqr() * x + C::b();
  }
  // Membership in the prime-order subgroup (the curve's fast endomorphism test). Assumes on-curve.
  CUZK_HD bool in_subgroup() const { return C::in_subgroup(jacobian_t<F, C>(*this)); }

  // Scalar multiplication; the result is Jacobian (convert with to_affine()).
  CUZK_HD jacobian_t<F, C> mul(const Fr& scalar) const { return jacobian_t<F, C>(*this).mul(scalar); }
  CUZK_HD jacobian_t<F, C> mul(const uint64_t* limbs, size_t n) const {
    return jacobian_t<F, C>(*this).mul(limbs, n);
  }
};

}  // namespace cuzk::curve
