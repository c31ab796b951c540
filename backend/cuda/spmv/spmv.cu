#include <cuda_runtime.h>

#include <algorithm>

#include "backend/cuda/ntt/fr_access.cuh"
#include "backend/cuda/spmv/kernels.hpp"

namespace cuzk::cuda::spmv_detail {
namespace {

using ntt_detail::load_fr_ro;
using ntt_detail::store_fr;

constexpr unsigned kFullMask = 0xffffffffu;

// acc += coeffs[ci]·w[wi], without the product where a factor is 0, 1 or −1 (most terms: the
// coefficients of Boolean constraints and sums of bits, the witness's bits).
__device__ __forceinline__ void add_term(Fr& acc, uint32_t ci, uint32_t wi, const Fr* __restrict__ coeffs,
                                         const Fr* __restrict__ w) {
  const Fr x = load_fr_ro(w + wi);
  if (x.is_zero()) return;
  if (ci == kSpmvCoeffOne) {
    acc += x;
  } else if (ci == kSpmvCoeffMinusOne) {
    acc -= x;
  } else if (x == Fr::one()) {
    acc += load_fr_ro(coeffs + ci);
  } else {
    acc += load_fr_ro(coeffs + ci) * x;
  }
}

__device__ __forceinline__ Fr shfl_xor(const Fr& x, int lanes) {
  Fr r;
#pragma unroll
  for (size_t i = 0; i < Fr::N; ++i) r.l[i] = __shfl_xor_sync(kFullMask, (unsigned long long)x.l[i], lanes);
  return r;
}

// A warp takes 32 consecutive rows (a grid-stride loop by whole warps, so that every lane of a warp
// runs every iteration and the shuffles see all 32). A lane sums its row when it has at most
// long_row terms; the warp then sums the long rows one by one, each lane a stride of the terms,
// and the owner lane keeps the total.
__global__ void __launch_bounds__(256)
    sum_rows_kernel(RowRun run, const Fr* __restrict__ coeffs, const Fr* __restrict__ w, Fr* __restrict__ out,
                    unsigned long_row) {
  const unsigned lane = threadIdx.x & 31;
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const size_t warps = (size_t(gridDim.x) * blockDim.x) >> 5;
  const uint32_t* __restrict__ wire = run.wire;
  const uint32_t* __restrict__ coeff = run.coeff;
  for (size_t first = warp * 32; first < run.rows; first += warps * 32) {
    const size_t r = first + lane;
    const bool live = r < run.rows;
    uint32_t begin = 0, end = 0;
    if (live) {
      begin = __ldg(run.row_start + r) - run.term_base;
      end = __ldg(run.row_start + r + 1) - run.term_base;
    }
    const bool is_long = end - begin > long_row;
    Fr acc = Fr::zero();
    if (!is_long)
      for (uint32_t k = begin; k < end; ++k) add_term(acc, __ldg(coeff + k), __ldg(wire + k), coeffs, w);
    for (unsigned todo = __ballot_sync(kFullMask, is_long); todo != 0; todo &= todo - 1) {
      const int owner = __ffs(todo) - 1;
      const uint32_t b = __shfl_sync(kFullMask, begin, owner), e = __shfl_sync(kFullMask, end, owner);
      Fr part = Fr::zero();
      for (uint32_t k = b + lane; k < e; k += 32)
        add_term(part, __ldg(coeff + k), __ldg(wire + k), coeffs, w);
#pragma unroll
      for (int lanes = 16; lanes > 0; lanes >>= 1) part += shfl_xor(part, lanes);
      if (int(lane) == owner) acc = part;
    }
    if (live) store_fr(out + r, acc);
  }
}

}  // namespace

Status sum_rows(const Stream& s, const RowRun& run, const Fr* coeffs, const Fr* w, Fr* out,
                const SpmvConfig& config) {
  if (run.rows == 0) return Status::Ok();
  if (config.block == 0 || config.block % 32 != 0 || config.block > 256)
    return make_error("spmv: the block must be a multiple of 32 threads, at most 256");
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  const size_t cap = config.max_blocks ? config.max_blocks : size_t(1) << 20;
  const unsigned grid = unsigned(std::min((run.rows + config.block - 1) / config.block, cap));
  sum_rows_kernel<<<grid, config.block, 0, s.get()>>>(run, coeffs, w, out, config.long_row);
  return check_launch("sum_rows_kernel");
}

}  // namespace cuzk::cuda::spmv_detail
