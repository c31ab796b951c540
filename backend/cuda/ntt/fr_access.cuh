// Element access for the Fr kernels of ntt/ (the transforms and the pointwise kernels): 16-byte
// loads and stores and index bit reversal on the device, and the grid of a grid-stride loop.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "field/fields.hpp"

namespace cuzk::cuda::ntt_detail {

// 16-byte loads and stores (Fr is 32 bytes, 8-byte aligned as a type, but every buffer here is
// at least 32-byte aligned): half the memory instructions of the default 8-byte accesses.
// The element whose two 16-byte halves are a and b.
__device__ __forceinline__ Fr fr_of_halves(const uint4& a, const uint4& b) {
  Fr r;
  r.l[0] = uint64_t(a.y) << 32 | a.x;
  r.l[1] = uint64_t(a.w) << 32 | a.z;
  r.l[2] = uint64_t(b.y) << 32 | b.x;
  r.l[3] = uint64_t(b.w) << 32 | b.z;
  return r;
}
__device__ __forceinline__ Fr load_fr(const Fr* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  return fr_of_halves(q[0], q[1]);
}
// Through the read-only cache (data no kernel writes while this one runs).
__device__ __forceinline__ Fr load_fr_ro(const Fr* __restrict__ p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  return fr_of_halves(__ldg(q), __ldg(q + 1));
}
__device__ __forceinline__ void store_fr(Fr* p, const Fr& x) {
  uint4* q = reinterpret_cast<uint4*>(p);
  q[0] = make_uint4(uint32_t(x.l[0]), uint32_t(x.l[0] >> 32), uint32_t(x.l[1]), uint32_t(x.l[1] >> 32));
  q[1] = make_uint4(uint32_t(x.l[2]), uint32_t(x.l[2] >> 32), uint32_t(x.l[3]), uint32_t(x.l[3] >> 32));
}

__device__ __forceinline__ uint32_t reverse_bits(uint32_t x, unsigned bits) {
  return bits == 0 ? 0 : __brev(x) >> (32 - bits);
}

// Blocks for a grid-stride loop over n elements, at most 65536.
inline unsigned grid_for(size_t n, unsigned block) {
  const size_t b = (n + block - 1) / block;
  return unsigned(b < 65536 ? b : 65536);
}

}  // namespace cuzk::cuda::ntt_detail
