// Device kernels of the MSM's first step (backend/cuda/msm/msm.hpp describes the pipeline): scalars
// to signed c-bit digits, counted per block and written as (bucket key, base index) pairs, and the
// bounds of passes cut by digits. Instantiated by msm_g1.cu and msm_g2.cu through pipeline.cuh; the
// kernels that are not templates are static, so each unit keeps its own copy.
#pragma once

#include <cuda_runtime.h>

#include <cub/block/block_scan.cuh>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "backend/cuda/msm/msm.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda::msm_detail {

// Top bit of a sorted value: the digit was negative, so the base is subtracted.
inline constexpr uint32_t kNegBit = 0x80000000u;

// v >> pos (pos < 256) as a 256-bit little-endian integer. The limb shift is a select per limb
// over the four possible sources: indexing v by a runtime limb (pos / 64) would put it on the
// stack, a local-memory load for every window of every scalar in the digit kernels.
__device__ __forceinline__ void shift_right_256(const uint64_t (&v)[4], unsigned pos, uint64_t (&r)[4]) {
  const unsigned q = pos / 64, sh = pos % 64;
#pragma unroll
  for (unsigned i = 0; i < 4; ++i) {
    uint64_t lo = 0, hi = 0;
#pragma unroll
    for (unsigned j = i; j < 4; ++j) {
      if (j == i + q) lo = v[j];
      if (j == i + q + 1) hi = v[j];
    }
    r[i] = sh == 0 ? lo : (lo >> sh) | (hi << (64 - sh));
  }
}

// Shape of the digit decomposition, passed by value to the kernels.
struct DigitShape {
  unsigned c;       // window bits
  unsigned W;       // windows, W·c >= 256 so the last signed digit never carries out
  unsigned m;       // tables of precomputed bases: window w reads table w % m, set w / m
  uint32_t H;       // buckets per set, 2^(c-1): digit magnitudes 1..H
  uint32_t KZ;      // buckets of all sets, sets·H: one past the largest key
  uint32_t stride;  // bases per table
  // Windows [0, wide) have c bits, the rest c − 1 (their digits then use the lower half of their
  // set's H buckets): where W·c exceeds 256, make_layout narrows as many windows as it can, at the
  // top, so the top window is full and fewer buckets are summed and reduced. Only with m = 1
  // (precomputed tables shift by a uniform 2^c).
  unsigned wide = ~0u;
  // The sets a pass takes, keys counted from set_lo's first bucket: a pass over every point for a
  // group of sets (Msm::State::set_group_passes). The recoding then starts at the group's first
  // window w0 = set_lo·m, with the carry into it read off the bits below w0 (carry_bound).
  uint32_t set_lo = 0, set_hi = 0xffffffffu;
  uint64_t carry_bound[4] = {0, 0, 0, 0};
};

// Window w's width and its first bit (DigitShape::wide). Host and device.
__host__ __device__ inline unsigned window_width(const DigitShape& sh, unsigned w) {
  return w < sh.wide ? sh.c : sh.c - 1;
}
__host__ __device__ inline unsigned window_start(const DigitShape& sh, unsigned w) {
  return w <= sh.wide ? w * sh.c : sh.wide * sh.c + (w - sh.wide) * (sh.c - 1);
}

// The signed recoding (for_each_digit) carries into window w exactly when the scalar's low bits
// below w (window_start) exceed the number whose bits s_j + c_j − 1 (j < w, window j of c_j bits from
// bit s_j) are set: the digits below w lie in [−H_j + 1, H_j] (H_j = 2^(c_j − 1)), so their sum is at
// most that bound without a carry and above it with one. Host and device (the host fills
// DigitShape::carry_bound).
__host__ __device__ inline void carry_bound_of(const DigitShape& sh, unsigned w, uint64_t (&t)[4]) {
  t[0] = t[1] = t[2] = t[3] = 0;
  for (unsigned j = 0; j < w; ++j) {
    const unsigned bit = window_start(sh, j) + window_width(sh, j) - 1;
    if (bit >= 256) break;
    t[bit / 64] |= uint64_t(1) << (bit % 64);
  }
}

// Whether v's low `bits` bits, as an integer, exceed t.
__device__ __forceinline__ bool low_bits_above(const uint64_t (&v)[4], unsigned bits,
                                               const uint64_t (&t)[4]) {
  bool above = false, decided = false;
#pragma unroll
  for (int i = 3; i >= 0; --i) {
    const unsigned lo = 64 * unsigned(i);
    uint64_t x = bits <= lo ? 0 : v[i];
    if (bits > lo && bits < lo + 64) x &= (uint64_t(1) << (bits - lo)) - 1;
    if (!decided && x != t[i]) {
      above = x > t[i];
      decided = true;
    }
  }
  return above;
}

// Set groups of a count (digit_counts_kernel) are at most this many, so W <= 32 windows' nonzero
// flags fit one word.
inline constexpr unsigned kMaxSetGroups = 32;

// The windows of sets [lo, hi) as a mask of window bits (W <= 32).
__device__ __forceinline__ uint32_t windows_of_sets(const DigitShape& sh, uint32_t lo, uint32_t hi) {
  const uint32_t w0 = min(lo * sh.m, sh.W), w1 = min(hi * sh.m, sh.W);
  const uint32_t bits = w1 - w0;
  return (bits >= 32 ? 0xffffffffu : (uint32_t(1) << bits) - 1) << w0;
}

// Threads per block of the digit kernels: each block writes its scalars' nonzero digits to one
// contiguous range, found by a scan of the per-block counts.
inline constexpr unsigned kDigitBlock = kMsmDigitBlock;

// Scalar i of a chunk as a canonical 256-bit integer (zero for a variable absent from the density
// bitmap) and the index of its base: rank(i) - base_first (density) or first + i - base_first.
__device__ __forceinline__ void load_scalar(const Fr* __restrict__ scalars, uint32_t i, size_t first,
                                            bool montgomery, const uint64_t* __restrict__ density,
                                            const uint32_t* __restrict__ word_rank, size_t base_first,
                                            uint64_t (&v)[4], size_t& idx) {
  const size_t gi = first + i;
  bool present = true;
  idx = gi;
  if (density) {
    const uint64_t word = density[gi / 64];
    const unsigned bit = gi % 64;
    present = (word >> bit) & 1;
    idx = word_rank[gi / 64] + __popcll(word & ((uint64_t(1) << bit) - 1));
  }
  idx -= base_first;
  const Fr s = scalars[i];
  if (montgomery) {
    s.to_canonical(v);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = s.l[j];
  }
  if (!present) v[0] = v[1] = v[2] = v[3] = 0;
}

// Calls emit(w, magnitude, negative) for every nonzero signed digit d_w of v (v = Σ d_w 2^(s_w),
// window w of c_w bits from bit s_w, |d_w| <= 2^(c_w - 1)) whose set w / m is in [set_lo, set_hi),
// in window order.
template <class Emit>
__device__ __forceinline__ void for_each_digit(const uint64_t (&v)[4], const DigitShape& sh, Emit&& emit) {
  unsigned w = 0, end = sh.W;
  uint32_t carry = 0;
  if (sh.set_lo != 0 || sh.set_hi < sh.W) {
    w = min(sh.set_lo * sh.m, sh.W);
    end = min(sh.set_hi * sh.m, sh.W);
  }
  // r: the bits of v not yet recoded, shifted down to bit 0 as each window is taken.
  uint64_t r[4] = {v[0], v[1], v[2], v[3]};
  if (w != 0) {
    const unsigned pos = window_start(sh, w);
    carry = low_bits_above(v, pos, sh.carry_bound);
    shift_right_256(v, pos, r);
  }
  for (; w < end; ++w) {
    const unsigned bits = window_width(sh, w);  // 1 <= bits <= 32
    const uint32_t half = uint32_t(1) << (bits - 1);
    const uint32_t raw = (uint32_t(r[0]) & (2 * half - 1)) + carry;
    r[0] = (r[0] >> bits) | (r[1] << (64 - bits));
    r[1] = (r[1] >> bits) | (r[2] << (64 - bits));
    r[2] = (r[2] >> bits) | (r[3] << (64 - bits));
    r[3] >>= bits;
    // raw in [0, 2^bits]; above half it becomes raw - 2^bits (negative) and carries one.
    carry = raw > half;
    const uint32_t mag = carry ? (uint32_t(2) * half - raw) : raw;
    if (mag != 0) emit(w, mag, carry != 0);
    // Nothing left and no carry: every later digit is zero (a witness's 0s and 1s stop here).
    if (!carry && (r[0] | r[1] | r[2] | r[3]) == 0) break;
  }
}

// Nonzero digits of each block's scalars, in rows of gridDim.x + 1 entries whose last is 0 (an
// exclusive scan of a row leaves its total there). Row 0 counts every digit. With `groups` G > 0
// (W <= 32), rows 1..G count those of each group of `per_group` consecutive sets, and one more 0
// follows row G, so one exclusive scan over rows 1..G gives every group's block offsets, each
// group's first digit at the start of its row and the grand total after the last row: one read of
// the scalars counts for every pass of Msm::State::set_group_passes.
static __global__ void __launch_bounds__(kDigitBlock)
    digit_counts_kernel(const Fr* __restrict__ scalars, uint32_t n, size_t first, bool montgomery,
                        const uint64_t* __restrict__ density, const uint32_t* __restrict__ word_rank,
                        DigitShape sh, uint32_t groups, uint32_t per_group,
                        uint32_t* __restrict__ block_nnz) {
  __shared__ uint32_t sums[kMaxSetGroups + 1];
  if (threadIdx.x <= groups) sums[threadIdx.x] = 0;
  __syncthreads();
  const uint32_t i = blockIdx.x * kDigitBlock + threadIdx.x;
  uint32_t nnz = 0, nonzero = 0;  // nonzero: a bit per window with a digit (groups > 0 only)
  if (i < n) {
    uint64_t v[4];
    size_t idx;
    load_scalar(scalars, i, first, montgomery, density, word_rank, 0, v, idx);
    for_each_digit(v, sh, [&](unsigned w, uint32_t, bool) {
      ++nnz;
      if (groups) nonzero |= uint32_t(1) << w;
    });
  }
  for (uint32_t r = 0; r <= groups; ++r) {
    const uint32_t mine =
        r == 0 ? nnz : __popc(nonzero & windows_of_sets(sh, (r - 1) * per_group, r * per_group));
    const uint32_t warp = __reduce_add_sync(0xffffffffu, mine);
    if (threadIdx.x % 32 == 0 && warp) atomicAdd(&sums[r], warp);
  }
  __syncthreads();
  const size_t row = size_t(gridDim.x) + 1;
  if (threadIdx.x <= groups) {
    block_nnz[threadIdx.x * row + blockIdx.x] = sums[threadIdx.x];
    if (blockIdx.x == 0) block_nnz[threadIdx.x * row + gridDim.x] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && groups) block_nnz[(groups + 1) * row] = 0;
}

// A digits_kernel block stages up to kPerThread entries a thread in shared memory: 32 for every
// window (W <= 32, i.e. c >= 8, always fits), fewer for a set group's windows, whose smaller stage
// lets more blocks share an SM (32 KB a block at 32).

// One thread per scalar: its nonzero digits as (key, value) entries from block_off[block] - off0 +
// the thread's rank in its block, so zero digits (and absent variables) take no place in the sort:
// a 0/1 witness value has at most one. Key: the bucket, (w / m − set_lo)·H + |d| - 1; value: the base's
// index in table w % m, with the sign in the top bit. A thread's digits are consecutive entries, so
// written straight from the thread a warp's stores would hit 32 sectors W entries apart; the block
// stages them in shared memory and writes its range coalesced (uniform 2^27, 13 windows: 14 ms
// against 41 ms with the scattered stores).
template <unsigned kPerThread>
__global__ void __launch_bounds__(kDigitBlock)
    digits_kernel(const Fr* __restrict__ scalars, uint32_t n, size_t first, bool montgomery,
                  const uint64_t* __restrict__ density, const uint32_t* __restrict__ word_rank,
                  size_t base_first, DigitShape sh, const uint32_t* __restrict__ block_off, uint32_t off0,
                  uint32_t* __restrict__ keys, uint32_t* __restrict__ vals) {
  using Scan = cub::BlockScan<uint32_t, kDigitBlock>;
  __shared__ typename Scan::TempStorage tmp;
  constexpr unsigned kDigitStage = kDigitBlock * kPerThread;
  __shared__ uint32_t stage_keys[kDigitStage], stage_vals[kDigitStage];
  const uint32_t i = blockIdx.x * kDigitBlock + threadIdx.x;
  uint64_t v[4] = {0, 0, 0, 0};
  size_t idx = 0;
  uint32_t nnz = 0;
  if (i < n) {
    load_scalar(scalars, i, first, montgomery, density, word_rank, base_first, v, idx);
    for_each_digit(v, sh, [&](unsigned, uint32_t, bool) { ++nnz; });
  }
  uint32_t o, total;
  Scan(tmp).ExclusiveSum(nnz, o, total);
  const uint32_t out0 = block_off[blockIdx.x] - off0;
  const bool staged = total <= kDigitStage;  // the same for the whole block
  uint32_t* kd = staged ? stage_keys : keys + out0;
  uint32_t* vd = staged ? stage_vals : vals + out0;
  for_each_digit(v, sh, [&](unsigned w, uint32_t mag, bool neg) {
    const unsigned set = sh.m == 1 ? w : w / sh.m;  // one table: no division
    kd[o] = (set - sh.set_lo) * sh.H + (mag - 1);
    vd[o] = uint32_t((w - set * sh.m) * size_t(sh.stride) + idx) | (neg ? kNegBit : 0u);
    ++o;
  });
  if (!staged) return;
  __syncthreads();
  for (uint32_t k = threadIdx.x; k < total; k += kDigitBlock) {
    keys[out0 + k] = stage_keys[k];
    vals[out0 + k] = stage_vals[k];
  }
}

// The digits_kernel whose stage holds `per_thread` entries a thread (the most a thread has, or the
// most a block has over kDigitBlock): the smallest of 4, 8, 16 and 32. A smaller stage lets more
// blocks share an SM: a witness vector (mostly 0 and 1, a few digits a thread) stages 8 KB a block
// instead of 32, and the kernel waits on memory with four times the blocks. A block whose digits
// exceed its stage writes them straight (right, only slower).
using DigitsKernel = decltype(&digits_kernel<32>);
inline DigitsKernel digits_kernel_for(uint32_t per_thread) {
  if (per_thread <= 4) return digits_kernel<4>;
  if (per_thread <= 8) return digits_kernel<8>;
  if (per_thread <= 16) return digits_kernel<16>;
  return digits_kernel<32>;
}

// Pass bounds over device scalars, from block_off, the exclusive scan of every block's nonzero
// digits (blocks + 1 entries, the total last). With stride, pass j starts at block j·stride (passes
// of as many points). Without, pass j starts at the first block whose offset reaches j·target, so a
// pass holds fewer than target + one block's digits (passes of as many digits). first_block[j] and
// first_digit[j] for j <= passes (the last: blocks and the total).
static __global__ void pass_bounds_kernel(const uint32_t* __restrict__ block_off, uint32_t blocks,
                                          uint32_t stride, uint32_t target, uint32_t passes,
                                          uint32_t* __restrict__ first_block,
                                          uint32_t* __restrict__ first_digit) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > passes) return;
  uint32_t b = blocks;
  if (j < passes && stride) {
    b = uint32_t(min(uint64_t(j) * stride, uint64_t(blocks)));
  } else if (j < passes) {
    const uint64_t want = uint64_t(j) * target;
    uint32_t lo = 0, hi = blocks;  // first b in [0, blocks] with block_off[b] >= want
    while (lo < hi) {
      const uint32_t mid = (lo + hi) / 2;
      if (block_off[mid] >= want)
        hi = mid;
      else
        lo = mid + 1;
    }
    b = lo;
  }
  first_block[j] = b;
  first_digit[j] = block_off[b];
}

// word_rank[w] = popcount(density[w]) (an exclusive scan follows).
static __global__ void popcount_kernel(const uint64_t* __restrict__ density, size_t words,
                                       uint32_t* __restrict__ out) {
  const size_t w = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (w < words) out[w] = __popcll(density[w]);
}

}  // namespace cuzk::cuda::msm_detail
