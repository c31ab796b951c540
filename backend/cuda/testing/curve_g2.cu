// G2 point kernels (over Fp2): element-wise ops.
// Test kernels only: calls instead of inlined field multiplications keep nvcc time small.
#define CUZK_DEVICE_MUL_NOINLINE 1
#include "backend/cuda/testing/curve_kernels.cuh"

using cuzk::Status;
using cuzk::cuda::affine_of;
using cuzk::cuda::Stream;
CUZK_CUDA_CURVE_INST(cuzk::G2Jacobian)
CUZK_CUDA_CURVE_INST(cuzk::G2Xyzz)
