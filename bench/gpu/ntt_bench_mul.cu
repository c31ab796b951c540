// Fr multiplication throughput for the NTT benchmark (its floor is n/2·log n multiplications):
// independent chains x ← x·y, one per thread, many threads per SM.
#include <cuda_runtime.h>

#include "backend/cuda/runtime/runtime.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {
namespace {
__global__ void __launch_bounds__(256) fr_mul_chain_kernel(Fr* state, size_t threads, uint32_t iters) {
  const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t >= threads) return;
  Fr x = state[t];
  const Fr y = state[threads + t];
#pragma unroll 4
  for (uint32_t i = 0; i < iters; ++i) x = x * y;
  state[t] = x;
}
}  // namespace

Status ntt_bench_mul_chain(const Stream& s, Fr* state, size_t threads, uint32_t iters) {
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  fr_mul_chain_kernel<<<unsigned((threads + 255) / 256), 256, 0, s.get()>>>(state, threads, iters);
  return check_launch("fr_mul_chain_kernel");
}
}  // namespace cuzk::cuda
