// Affine additions that share one inversion (Montgomery's trick), one definition for host and device.
//
// acc + p in affine coordinates costs one inversion, 2M + 1S; a batch of such sums inverts the
// product of their denominators once and recovers each inverse with 3M more (the running product
// forward, two multiplications backward). affine_sum_kind says what a sum needs and which
// denominator to put in the batch; affine_sum_finish completes it from that denominator's inverse.
// The cases are complete: infinity on either side, p = acc (doubling), p = −acc (infinity). The
// batch-affine accumulation of the device MSM (backend/cuda/msm_kernels.cuh) runs one such batch per
// step.
#pragma once

#include <cstdint>

#include "curve/affine.hpp"
#include "field/hd.hpp"

namespace cuzk::curve {

enum class AffineSum : uint8_t {
  keep,  // p is infinity: the sum is acc
  take,  // acc is infinity: the sum is p
  add,   // x differs: λ = (p.y − acc.y) / (p.x − acc.x)
  dbl,   // p = acc with y ≠ 0: λ = 3x² / 2y (the curves have a = 0)
  zero,  // p = −acc (or a point of order 2 doubled): infinity
};

CUZK_HD constexpr bool needs_inverse(AffineSum k) { return k == AffineSum::add || k == AffineSum::dbl; }

// The case of acc + p and the denominator to invert (one where none is needed, so that a running
// product may take it unconditionally).
template <class F, class C>
CUZK_HD AffineSum affine_sum_kind(const affine_t<F, C>& acc, const affine_t<F, C>& p, F& den) {
  den = F::one();
  if (p.is_inf()) return AffineSum::keep;
  if (acc.is_inf()) return AffineSum::take;
  const F dx = p.x - acc.x;
  if (!dx.is_zero()) {
    den = dx;
    return AffineSum::add;
  }
  if (p.y == acc.y && !acc.y.is_zero()) {
    den = acc.y.dbl();
    return AffineSum::dbl;
  }
  return AffineSum::zero;
}

// acc + p from inv = 1/den of affine_sum_kind (read only when needs_inverse(kind)).
template <class F, class C>
CUZK_HD affine_t<F, C> affine_sum_finish(AffineSum kind, const affine_t<F, C>& acc, const affine_t<F, C>& p,
                                         const F& inv) {
  switch (kind) {
    case AffineSum::keep:
      return acc;
    case AffineSum::take:
      return p;
    case AffineSum::zero:
      return affine_t<F, C>::infinity();
    default:
      break;
  }
  F lambda;
  if (kind == AffineSum::add) {
    lambda = (p.y - acc.y) * inv;
  } else {
    const F xx = acc.x.sqr();
    lambda = (xx.dbl() + xx) * inv;
  }
  const F x3 = lambda.sqr() - acc.x - p.x;  // p.x = acc.x when doubling
  return {x3, lambda * (acc.x - x3) - acc.y};
}

// acc[i] += p[i] for i < n with one inversion; scratch holds n field elements. The host form of
// the device's step (tests, small batches).
template <class F, class C>
void affine_sum_batch(affine_t<F, C>* acc, const affine_t<F, C>* p, F* scratch, size_t n) {
  F prod = F::one();
  for (size_t i = 0; i < n; ++i) {
    F den;
    if (!needs_inverse(affine_sum_kind(acc[i], p[i], den))) continue;
    scratch[i] = prod;
    prod *= den;
  }
  F inv = prod.inverse();
  for (size_t i = n; i-- > 0;) {
    F den;
    const AffineSum kind = affine_sum_kind(acc[i], p[i], den);
    F di = F::one();
    if (needs_inverse(kind)) {
      di = inv * scratch[i];
      inv *= den;
    }
    acc[i] = affine_sum_finish(kind, acc[i], p[i], di);
  }
}

}  // namespace cuzk::curve
