// G1 instantiation of the device MSM.
#include "backend/cuda/msm/pipeline.cuh"

namespace cuzk::cuda {

template class Msm<G1Affine>;
template bool Msm<G1Affine>::can_run_sorted_by(const Msm<G1Affine>&) const;
template bool Msm<G1Affine>::can_run_sorted_by(const Msm<G2Affine>&) const;
template Result<Msm<G1Affine>::Jacobian> Msm<G1Affine>::run_sorted_by(const Msm<G1Affine>&, const Stream&);
template Result<Msm<G1Affine>::Jacobian> Msm<G1Affine>::run_sorted_by(const Msm<G2Affine>&, const Stream&);

}  // namespace cuzk::cuda
