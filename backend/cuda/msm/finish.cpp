// The host's end of a device MSM (finish.hpp).
#include "backend/cuda/msm/finish.hpp"

#include <algorithm>
#include <vector>

namespace cuzk::cuda {

template <class Xyzz>
typename Xyzz::jacobian finish_sets(const Xyzz* points, const SetFinish& f) {
  const size_t S = f.start.size();
  // The points at each exponent, summed as they are placed.
  unsigned top = 0;
  for (unsigned s : f.start) top = std::max(top, s);
  std::vector<Xyzz> at(size_t(top) + 1 + f.log2_run + f.bits, Xyzz::infinity());
  for (size_t j = 0; j < S; ++j) {
    const Xyzz* x = points + j * f.per_set;
    const unsigned e = f.start[j];
    if (f.device_level) {
      for (unsigned k = 0; k < f.bits; ++k) at[e + f.log2_run + k] = at[e + f.log2_run + k].add(x[k]);
      at[e] = at[e].add(x[f.bits]).add(x[f.bits + 1]);
    } else {
      // Σ (i + 1)·x_i by running sums from the top.
      Xyzz run = Xyzz::infinity(), ws = Xyzz::infinity();
      for (uint32_t i = f.per_set; i-- > 0;) {
        run = run.add(x[i]);
        ws = ws.add(run);
      }
      at[e] = at[e].add(ws);
    }
  }
  Xyzz acc = Xyzz::infinity();
  for (size_t e = at.size(); e-- > 0;) {
    if (!acc.is_inf()) acc = acc.dbl();
    acc = acc.add(at[e]);
  }
  return acc.to_jacobian();
}

template G1Jacobian finish_sets<G1Xyzz>(const G1Xyzz*, const SetFinish&);
template G2Jacobian finish_sets<G2Xyzz>(const G2Xyzz*, const SetFinish&);

}  // namespace cuzk::cuda
