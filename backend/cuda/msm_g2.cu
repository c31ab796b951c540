// G2 instantiation of the device MSM (its own unit so the two compile in parallel).
#include "backend/cuda/msm.cuh"

namespace cuzk::cuda {

template class Msm<G2Affine>;

}  // namespace cuzk::cuda
