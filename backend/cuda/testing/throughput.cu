// Fully inlined, -O3: these kernels are also what docs/BENCHMARKS.md's SASS counts are read from.
#include "backend/cuda/testing/throughput.hpp"

#include <cuda_runtime.h>

#include "field/binary_gcd.hpp"

namespace cuzk::cuda {

namespace {

template <class F, ChainOp OP>
__global__ void __launch_bounds__(256) field_mul_chain_kernel(F* state, size_t threads, uint32_t iters) {
  const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t >= threads) return;
  F x = state[t];
  const F y = state[threads + t];
  // Unrolled by 4 so loop control is noise next to the multiplications.
#pragma unroll 4
  for (uint32_t i = 0; i < iters; ++i) {
    if constexpr (OP == ChainOp::sqr)
      x = x.sqr();
    else if constexpr (OP == ChainOp::mul_rows)
      F::mul_mont_rows(x, x, y);
    else if constexpr (OP == ChainOp::inverse)
      x = x.inverse() + y;
    else if constexpr (OP == ChainOp::inverse_binary_gcd)
      x = field::inverse_binary_gcd(x) + y;
    else
      x = x * y;
  }
  state[t] = x;
}

constexpr unsigned kMaddTable = 32;

__global__ void __launch_bounds__(128)
    g1_madd_chain_kernel(G1Xyzz* acc, const G1Affine* points, size_t threads, uint32_t iters) {
  // The points come from shared memory so that the loop measures arithmetic, not global loads.
  __shared__ G1Affine table[kMaddTable];
  if (threadIdx.x < kMaddTable) table[threadIdx.x] = points[threadIdx.x];
  __syncthreads();
  const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t >= threads) return;
  G1Xyzz r = acc[t];
  for (uint32_t i = 0; i < iters; ++i) r = r.add_mixed(table[(t + i) % kMaddTable]);
  acc[t] = r;
}

}  // namespace

template <class F>
Status field_mul_chain(const Stream& s, F* state, size_t threads, uint32_t iters, ChainOp op, int block) {
  if (threads == 0) return Status::Ok();
  if (block <= 0 || block > 256) return make_error("field_mul_chain: block must be in 1..256");
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  const size_t blocks = (threads + block - 1) / block;
  switch (op) {
    case ChainOp::mul:
      field_mul_chain_kernel<F, ChainOp::mul><<<unsigned(blocks), block, 0, s.get()>>>(state, threads, iters);
      break;
    case ChainOp::sqr:
      field_mul_chain_kernel<F, ChainOp::sqr><<<unsigned(blocks), block, 0, s.get()>>>(state, threads, iters);
      break;
    case ChainOp::mul_rows:
      field_mul_chain_kernel<F, ChainOp::mul_rows>
          <<<unsigned(blocks), block, 0, s.get()>>>(state, threads, iters);
      break;
    case ChainOp::inverse:
      field_mul_chain_kernel<F, ChainOp::inverse>
          <<<unsigned(blocks), block, 0, s.get()>>>(state, threads, iters);
      break;
    case ChainOp::inverse_binary_gcd:
      field_mul_chain_kernel<F, ChainOp::inverse_binary_gcd>
          <<<unsigned(blocks), block, 0, s.get()>>>(state, threads, iters);
      break;
  }
  return check_launch("field_mul_chain_kernel");
}

template Status field_mul_chain<Fp>(const Stream&, Fp*, size_t, uint32_t, ChainOp, int);
template Status field_mul_chain<Fr>(const Stream&, Fr*, size_t, uint32_t, ChainOp, int);

Status g1_xyzz_madd_chain(const Stream& s, G1Xyzz* acc, const G1Affine* points, size_t threads,
                          uint32_t iters, int block) {
  if (threads == 0) return Status::Ok();
  if (block < int(kMaddTable) || block > 128)
    return make_error("g1_xyzz_madd_chain: block must be in 32..128");
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  const size_t blocks = (threads + block - 1) / block;
  g1_madd_chain_kernel<<<unsigned(blocks), block, 0, s.get()>>>(acc, points, threads, iters);
  return check_launch("g1_madd_chain_kernel");
}

}  // namespace cuzk::cuda
