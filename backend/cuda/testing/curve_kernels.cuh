// Definitions behind curve_kernels.hpp, shared by the per-group instantiation units (curve_g1.cu,
// curve_g2.cu): one unit per group lets a 2-core build compile them in parallel.
#pragma once

#include <cuda_runtime.h>

#include "backend/cuda/testing/curve_kernels.hpp"

namespace cuzk::cuda {

namespace curve_detail {

enum class Op { add, add_mixed, dbl, to_affine };

template <class P, Op OP, class B, class O>
__global__ void point_op_kernel(const P* __restrict__ a, const B* __restrict__ b, O* __restrict__ out,
                                size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    if constexpr (OP == Op::add) out[i] = a[i].add(b[i]);
    if constexpr (OP == Op::add_mixed) out[i] = a[i].add_mixed(b[i]);
    if constexpr (OP == Op::dbl) out[i] = a[i].dbl();
    if constexpr (OP == Op::to_affine) out[i] = a[i].to_affine();
  }
}

template <class P, Op OP, class B, class O>
Status launch(const Stream& s, const P* a, const B* b, O* out, size_t n, const char* name) {
  if (n == 0) return Status::Ok();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  constexpr int block = 128;
  const size_t want = (n + block - 1) / block;
  const unsigned blocks = unsigned(want < 65536 ? want : 65536);
  point_op_kernel<P, OP, B, O><<<blocks, block, 0, s.get()>>>(a, b, out, n);
  return check_launch(name);
}

}  // namespace curve_detail

template <class P>
Status point_add(const Stream& s, const P* a, const P* b, P* out, size_t n) {
  return curve_detail::launch<P, curve_detail::Op::add>(s, a, b, out, n, "point_add");
}
template <class P>
Status point_add_mixed(const Stream& s, const P* a, const affine_of<P>* b, P* out, size_t n) {
  return curve_detail::launch<P, curve_detail::Op::add_mixed>(s, a, b, out, n, "point_add_mixed");
}
template <class P>
Status point_dbl(const Stream& s, const P* a, P* out, size_t n) {
  return curve_detail::launch<P, curve_detail::Op::dbl>(s, a, static_cast<const P*>(nullptr), out, n,
                                                        "point_dbl");
}
template <class P>
Status point_to_affine(const Stream& s, const P* a, affine_of<P>* out, size_t n) {
  return curve_detail::launch<P, curve_detail::Op::to_affine>(s, a, static_cast<const P*>(nullptr), out, n,
                                                              "point_to_affine");
}

}  // namespace cuzk::cuda

#define CUZK_CUDA_CURVE_INST(P)                                                                             \
  template Status cuzk::cuda::point_add<P>(const Stream&, const P*, const P*, P*, size_t);                  \
  template Status cuzk::cuda::point_add_mixed<P>(const Stream&, const P*, const affine_of<P>*, P*, size_t); \
  template Status cuzk::cuda::point_dbl<P>(const Stream&, const P*, P*, size_t);                            \
  template Status cuzk::cuda::point_to_affine<P>(const Stream&, const P*, affine_of<P>*, size_t);
