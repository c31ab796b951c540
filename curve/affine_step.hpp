// One step of batch-affine accumulation, acc ← acc + p on affine points, split around the single
// field inversion that a batch of such steps shares by Montgomery's trick. Host and device.
//
// Why: an accumulation in this form costs about 6 multiplications per point (3 for the shared
// inversion's trick, then λ, λ² and λ·(x₁ − x₃)) against the XYZZ mixed addition's 8 and 2
// squarings, if the batch's one inversion can be hidden (docs/MSM-NOTES.md, "Rejected").
// The steps are the incomplete formulas made complete: each pair (acc, p) is classified first, and
// the cases that need no inversion (either side infinity, p = −acc) contribute a denominator of one,
// so the batch's product stays invertible whatever the batch holds.
#pragma once

#include <cstddef>

#include "curve/affine.hpp"
#include "field/hd.hpp"

namespace cuzk::curve {

template <class A>
struct affine_step {
  using F = typename A::field;

  enum class Kind {
    keep,    // p is infinity: acc stays
    take,    // acc is infinity: the sum is p
    add,     // different x: λ = (y_p − y_acc) / (x_p − x_acc)
    dbl,     // p = acc, y ≠ 0: λ = 3x² / 2y (the curves here have a = 0)
    cancel,  // p = −acc: infinity
  };
  CUZK_HD static Kind kind(const A& acc, const A& p) {
    if (p.is_inf()) return Kind::keep;
    if (acc.is_inf()) return Kind::take;
    if (acc.x != p.x) return Kind::add;
    return acc.y == p.y && !acc.y.is_zero() ? Kind::dbl : Kind::cancel;
  }

  // What the step needs inverted: x_p − x_acc, 2·y, or one when it needs no inversion. Never zero.
  CUZK_HD static F denominator(const A& acc, const A& p) {
    switch (kind(acc, p)) {
      case Kind::add:
        return p.x - acc.x;
      case Kind::dbl:
        return acc.y.dbl();
      default:
        return F::one();
    }
  }

  // acc + p, given inv = denominator(acc, p)^-1.
  CUZK_HD static A finish(const A& acc, const A& p, const F& inv) {
    F lambda = F::zero();
    switch (kind(acc, p)) {
      case Kind::keep:
        return acc;
      case Kind::take:
        return p;
      case Kind::cancel:
        return A::infinity();
      case Kind::add:
        lambda = (p.y - acc.y) * inv;
        break;
      case Kind::dbl: {
        const F xx = acc.x.sqr();
        lambda = (xx.dbl() + xx) * inv;
        break;
      }
    }
    const F x3 = lambda.sqr() - acc.x - p.x;
    return A{x3, lambda * (acc.x - x3) - acc.y};
  }
};

// acc[i] ← acc[i] + p[i] for i < n with one inversion: the running products of the denominators
// go to scratch (n elements), their product is inverted once, and the walk back hands each step its
// own inverse. What the on-chip batch does per step, in its plainest form (and the host reference
// the device's batch is checked against).
template <class A>
CUZK_HD void affine_batch_add(A* acc, const A* p, size_t n, typename A::field* scratch) {
  using F = typename A::field;
  using S = affine_step<A>;
  F prod = F::one();
  for (size_t i = 0; i < n; ++i) {
    scratch[i] = prod;
    prod = prod * S::denominator(acc[i], p[i]);
  }
  F inv = prod.inverse();  // of everything so far; no denominator is zero
  for (size_t i = n; i-- > 0;) {
    const F d = S::denominator(acc[i], p[i]);
    const F inv_i = inv * scratch[i];  // (d_0 … d_{i−1}) / (d_0 … d_i) = 1 / d_i
    inv = inv * d;
    acc[i] = S::finish(acc[i], p[i], inv_i);
  }
}

}  // namespace cuzk::curve
