// G2 instantiation of the device MSM (its own unit so the two compile in parallel).
#include "backend/cuda/msm/pipeline.cuh"

namespace cuzk::cuda {

template class Msm<G2Affine>;
template bool Msm<G2Affine>::can_run_sorted_by(const Msm<G1Affine>&) const;
template bool Msm<G2Affine>::can_run_sorted_by(const Msm<G2Affine>&) const;
template Result<Msm<G2Affine>::Jacobian> Msm<G2Affine>::run_sorted_by(const Msm<G1Affine>&, const Stream&);
template Result<Msm<G2Affine>::Jacobian> Msm<G2Affine>::run_sorted_by(const Msm<G2Affine>&, const Stream&);

}  // namespace cuzk::cuda
