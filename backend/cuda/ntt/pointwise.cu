#include "backend/cuda/ntt/pointwise.hpp"

#include <cuda_runtime.h>

#include "backend/cuda/ntt/fr_access.cuh"

namespace cuzk::cuda {
namespace {

using namespace ntt_detail;

// HasB false: b stands for ones; HasC false: c stands for zeros.
template <bool HasB, bool HasC>
__global__ void mul_sub_scale_kernel(Fr* a, const Fr* __restrict__ b, const Fr* __restrict__ c, Fr z,
                                     bool scaled, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    Fr r = load_fr(a + i);
    if constexpr (HasB) r = r * load_fr_ro(b + i);
    if constexpr (HasC) r = r - load_fr_ro(c + i);
    if (scaled) r = r * z;
    store_fr(a + i, r);
  }
}

template <bool HasB>
__global__ void first_unsatisfied_kernel(const Fr* __restrict__ a, const Fr* __restrict__ b,
                                         const Fr* __restrict__ c, size_t rows, unsigned long long* first) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < rows;
       i += size_t(gridDim.x) * blockDim.x) {
    Fr ab = load_fr_ro(a + i);
    if constexpr (HasB) ab = ab * load_fr_ro(b + i);
    if (ab != load_fr_ro(c + i)) atomicMin(first, (unsigned long long)i);
  }
}

__global__ void scale_kernel(Fr* a, Fr c, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    store_fr(a + i, load_fr(a + i) * c);
}

}  // namespace

Status mul_sub_scale(const Stream& s, Fr* a, const Fr* b, const Fr* c, const Fr& z, size_t n) {
  if (n == 0) return Status::Ok();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  constexpr unsigned block = 256;
  const unsigned grid = grid_for(n, block);
  const bool scaled = !z.is_one();
  if (b && c)
    mul_sub_scale_kernel<true, true><<<grid, block, 0, s.get()>>>(a, b, c, z, scaled, n);
  else if (b)
    mul_sub_scale_kernel<true, false><<<grid, block, 0, s.get()>>>(a, b, c, z, scaled, n);
  else if (c)
    mul_sub_scale_kernel<false, true><<<grid, block, 0, s.get()>>>(a, b, c, z, scaled, n);
  else
    mul_sub_scale_kernel<false, false><<<grid, block, 0, s.get()>>>(a, b, c, z, scaled, n);
  return check_launch("mul_sub_scale_kernel");
}

Status first_unsatisfied(const Stream& s, const Fr* a, const Fr* b, const Fr* c, size_t rows,
                         unsigned long long* first) {
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  const unsigned long long none = rows;
  CUZK_TRY_STATUS(check(cudaMemcpyAsync(first, &none, sizeof(none), cudaMemcpyHostToDevice, s.get()),
                        "cudaMemcpyAsync (row check)"));
  if (rows == 0) return Status::Ok();
  constexpr unsigned block = 256;
  if (b)
    first_unsatisfied_kernel<true><<<grid_for(rows, block), block, 0, s.get()>>>(a, b, c, rows, first);
  else
    first_unsatisfied_kernel<false><<<grid_for(rows, block), block, 0, s.get()>>>(a, b, c, rows, first);
  return check_launch("first_unsatisfied_kernel");
}

Status scale(const Stream& s, Fr* a, const Fr& c, size_t n) {
  if (n == 0 || c.is_one()) return Status::Ok();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  constexpr unsigned block = 256;
  scale_kernel<<<grid_for(n, block), block, 0, s.get()>>>(a, c, n);
  return check_launch("scale_kernel");
}

}  // namespace cuzk::cuda
