// Element-wise point arithmetic on the device, for tests (the kernels call the field
// multiplication instead of inlining it: correct, compiled fast, not fast). Pointers are device pointers;
// work runs on the stream's device. P is one of G1Jacobian, G1Xyzz, G2Jacobian, G2Xyzz (instantiated in
// curve_g1.cu and curve_g2.cu).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cuda/runtime/runtime.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"

namespace cuzk::cuda {

template <class P>
using affine_of = typename P::affine;

// out[i] = a[i] + b[i]
template <class P>
Status point_add(const Stream& s, const P* a, const P* b, P* out, size_t n);
// out[i] = a[i] + b[i] with b affine
template <class P>
Status point_add_mixed(const Stream& s, const P* a, const affine_of<P>* b, P* out, size_t n);
// out[i] = 2 a[i]
template <class P>
Status point_dbl(const Stream& s, const P* a, P* out, size_t n);
// out[i] = affine(a[i]) (one inversion per element: for tests, not for speed)
template <class P>
Status point_to_affine(const Stream& s, const P* a, affine_of<P>* out, size_t n);

#define CUZK_CUDA_CURVE_EXTERN(P)                                                                      \
  extern template Status point_add<P>(const Stream&, const P*, const P*, P*, size_t);                  \
  extern template Status point_add_mixed<P>(const Stream&, const P*, const affine_of<P>*, P*, size_t); \
  extern template Status point_dbl<P>(const Stream&, const P*, P*, size_t);                            \
  extern template Status point_to_affine<P>(const Stream&, const P*, affine_of<P>*, size_t);
CUZK_CUDA_CURVE_EXTERN(G1Jacobian)
CUZK_CUDA_CURVE_EXTERN(G1Xyzz)
CUZK_CUDA_CURVE_EXTERN(G2Jacobian)
CUZK_CUDA_CURVE_EXTERN(G2Xyzz)
#undef CUZK_CUDA_CURVE_EXTERN

}  // namespace cuzk::cuda
