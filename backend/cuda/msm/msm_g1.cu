// G1 instantiation of the device MSM, and the window cost model shared with G2.
#include <cmath>

#include "backend/cuda/msm/msm.cuh"

namespace cuzk::cuda {

unsigned msm_pick_window(size_t n, unsigned precompute, double add_cost) {
  // Mixed additions: n per window while accumulating; the reduction's 2·2^(c-1) full additions per
  // bucket set. Windows folded by precomputation share a set, so large c pays off there.
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= 24; ++c) {
    const unsigned W = (256 + c - 1) / c;
    const unsigned m = precompute == 0 ? W : std::min(precompute, W);
    const unsigned S = (W + m - 1) / m;
    const double cost = double(n) * W + add_cost * double(S) * std::ldexp(1.0, int(c));
    if (c == 1 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

template class Msm<G1Affine>;
template bool Msm<G1Affine>::can_run_sorted_by(const Msm<G1Affine>&) const;
template bool Msm<G1Affine>::can_run_sorted_by(const Msm<G2Affine>&) const;
template Result<Msm<G1Affine>::Jacobian> Msm<G1Affine>::run_sorted_by(const Msm<G1Affine>&, const Stream&);
template Result<Msm<G1Affine>::Jacobian> Msm<G1Affine>::run_sorted_by(const Msm<G2Affine>&, const Stream&);

}  // namespace cuzk::cuda
