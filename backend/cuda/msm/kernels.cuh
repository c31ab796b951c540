// Device kernels of the MSM (backend/cuda/msm/msm.hpp describes the pipeline). Templated on the point
// types so G1 and G2 share them; instantiated by msm_g1.cu and msm_g2.cu through msm.cuh. The
// kernels that are not templates are static: each unit keeps its own copy.
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

// Point operations as real calls: each is compiled once per unit instead of being inlined into
// every kernel, which keeps ptxas time (and the 2-core CI build) bounded; passing the points costs
// a few dozen memory operations next to the ~10^4 instructions of one addition.
template <class X>
__device__ __noinline__ X p_add(const X& a, const X& b) {
  return a.add(b);
}
template <class X>
__device__ __noinline__ X p_dbl(const X& a) {
  return a.dbl();
}

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
// stages them in shared memory and writes its range coalesced (uniform 2^27, 13 windows: these
// scattered stores made the digits phase 41 ms).
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

// off[k] = first sorted position whose key is >= k, for k in [0, KZ]. One thread per position in
// [0, E] writes the keys that start at it, at most the last kGapRun of them: a long run of empty
// buckets (the top window's: its digits stay below 2^15, so at c = 20 some 491 k of its 2^19 buckets
// are empty) written by one thread cost about 7 ms per pass. The rest keep the kNoOffset that
// off[] was filled with, and fill_offsets_kernel finds them by binary search.
inline constexpr uint32_t kGapRun = 16;
inline constexpr uint32_t kNoOffset = 0xffffffffu;
static __global__ void bucket_offsets_kernel(const uint32_t* __restrict__ keys, uint32_t E, uint32_t KZ,
                                             uint32_t* __restrict__ off) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > E) return;
  const uint32_t lo = i == 0 ? 0 : keys[i - 1] + 1;
  const uint32_t hi = min(i == E ? KZ : keys[i], KZ);
  if (lo > hi) return;
  for (uint32_t k = max(lo, hi >= kGapRun ? hi - (kGapRun - 1) : 0u); k <= hi; ++k) off[k] = i;
}

// The offsets bucket_offsets_kernel left as kNoOffset: the first position in keys[0, E) whose key
// is >= k (E when none is).
static __global__ void fill_offsets_kernel(const uint32_t* __restrict__ keys, uint32_t E, uint32_t KZ,
                                           uint32_t* __restrict__ off) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k > KZ || off[k] != kNoOffset) return;
  uint32_t lo = 0, hi = E;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (keys[mid] >= k)
      hi = mid;
    else
      lo = mid + 1;
  }
  off[k] = lo;
}

// counts[k] = the items of segment k (n entries between off[k] and off[k + 1]) in a round of runs
// of at most L: ceil(n / L), or none when n < min_len. Round 1 counts every bucket (min_len 1); a
// later round of partial sums takes only the buckets with two or more, since one whose last round
// made one item has its sum in buckets[k] already (min_len 2). counts[KZ] = 0 (the scan then puts
// the total there).
static __global__ void segment_items_kernel(const uint32_t* __restrict__ off, uint32_t KZ, uint32_t L,
                                            uint32_t min_len, uint32_t* __restrict__ counts) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k > KZ) return;
  const uint32_t n = k == KZ ? 0 : off[k + 1] - off[k];
  counts[k] = n < min_len ? 0 : (n + L - 1) / L;
}

// Largest k with a[k] <= q, over a nondecreasing a[0..n) with a[0] <= q.
__device__ __forceinline__ uint32_t segment_of(const uint32_t* a, uint32_t n, uint32_t q) {
  uint32_t lo = 0, hi = n;  // answer in [lo, hi)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (a[mid] <= q)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Sources of points for the segmented sums: sorted (index, sign) entries into the base tables, or
// XYZZ partial sums of a previous round. load() is split from add() so that the kernel can issue
// the next gather before the current addition.
template <class Affine>
struct EntrySource {
  const uint32_t* vals;
  const Affine* bases;
  using Point = Affine;
  // G1 prefetches the next point (196 registers, no spills). A G2 point is 48 registers more, and
  // with it the G2 loop spilled 704 bytes per thread at the 255-register limit, so G2 loads each
  // point when it needs it and relies on the other warps to hide the gather.
  static constexpr bool kPrefetch = sizeof(Affine) <= 96;
  __device__ __forceinline__ Affine load(uint32_t e) const {
    const uint32_t v = vals[e];
    Affine p = bases[v & ~kNegBit];
    if (v & kNegBit) p.y = -p.y;
    return p;
  }
  // The accumulation's hot loop: the mixed addition is inlined (its only use in the unit), so the
  // prefetched point stays in registers instead of being spilled around a call.
  template <class Acc>
  __device__ __forceinline__ void add(Acc& acc, const Affine& p) const {
    acc = acc.add_mixed(p);
  }
};
template <class Xyzz>
struct PartialSource {
  const Xyzz* parts;
  using Point = Xyzz;
  static constexpr bool kPrefetch = true;
  __device__ __forceinline__ Xyzz load(uint32_t e) const { return parts[e]; }
  __device__ __forceinline__ void add(Xyzz& acc, const Xyzz& p) const { acc = p_add(acc, p); }
};

// For the accumulation's schedule: key = length of item q, value = q, for q < the item total. Sorted
// by length (longest first), neighbouring threads of a warp get items of nearly equal length.
static __global__ void item_lengths_kernel(const uint32_t* __restrict__ seg_off,
                                           const uint32_t* __restrict__ item_off, uint32_t KZ, uint32_t cap,
                                           uint32_t* __restrict__ len, uint32_t* __restrict__ ids) {
  const uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= cap || q >= item_off[KZ]) return;
  const uint32_t k = segment_of(item_off, KZ + 1, q);
  const uint32_t j = q - item_off[k], items = item_off[k + 1] - item_off[k];
  const uint64_t n = seg_off[k + 1] - seg_off[k];
  len[q] = uint32_t(n * (j + 1) / items - n * j / items);
  ids[q] = q;
}

// Threads per block of the segmented sums, and the blocks per SM asked of ptxas. For G1 the bound
// matters. With nvcc 13.0, (128, 2) gives the accumulation 196 registers and no spills, (128, 3)
// 168 with 120 bytes spilled and (128, 4) 128 with 400; measured on the H200 (visit 68,
// cuzk_bench_msm, medians of 3, two rounds): the 2^27 H query's accumulation took 755.0, 768.5 and
// 774.5 ms, a witness vector's 182.6, 184.2 and 187.2 ms. So two blocks per SM without spills beat
// more warps with them. G2 sits at the 255-register limit either way and asks for 1.
// CUZK_G1_SUM_BLOCKS_PER_SM overrides G1's bound for experiments (a build of its own).
inline constexpr unsigned kSumBlock = 128;
#ifndef CUZK_G1_SUM_BLOCKS_PER_SM
#define CUZK_G1_SUM_BLOCKS_PER_SM 2
#endif
template <class Xyzz>
inline constexpr unsigned kSumMinBlocks = sizeof(typename Xyzz::field) <= 48 ? CUZK_G1_SUM_BLOCKS_PER_SM : 1;
// The accumulators of a block's threads in shared memory, word-interleaved (word w of thread t at
// w·kSumBlock + t, so a warp's access to one word touches 32 banks). The mixed addition then loads
// each coordinate just before it is used and stores it as soon as it is final (volatile accesses,
// so the compiler neither caches nor hoists them), so the accumulator does not hold registers
// across the addition's products.
template <class F>
struct SharedField {
  static constexpr unsigned kWords = sizeof(F) / 4;
  volatile uint32_t* p;  // word 0 of this thread's element
  __device__ __forceinline__ F load() const {
    uint32_t w[kWords];
#pragma unroll
    for (unsigned i = 0; i < kWords; ++i) w[i] = p[i * kSumBlock];
    F x;
    memcpy(&x, w, sizeof(F));
    return x;
  }
  __device__ __forceinline__ void store(const F& x) const {
    uint32_t w[kWords];
    memcpy(w, &x, sizeof(F));
#pragma unroll
    for (unsigned i = 0; i < kWords; ++i) p[i * kSumBlock] = w[i];
  }
};

template <class Xyzz>
struct SharedXyzz {
  using F = typename Xyzz::field;
  static constexpr unsigned kWords = 4 * SharedField<F>::kWords;  // per thread
  SharedField<F> X, Y, ZZ, ZZZ;
  // `slot`: the accumulator's column among the kSumBlock of block_words (a kernel of fewer threads
  // may keep two a thread).
  __device__ explicit SharedXyzz(uint32_t* block_words, unsigned slot = threadIdx.x) {
    constexpr unsigned w = SharedField<F>::kWords * kSumBlock;
    volatile uint32_t* t = block_words + slot;
    X.p = t;
    Y.p = t + w;
    ZZ.p = t + 2 * w;
    ZZZ.p = t + 3 * w;
  }
  __device__ __forceinline__ Xyzz load() const { return Xyzz(X.load(), Y.load(), ZZ.load(), ZZZ.load()); }
  __device__ __forceinline__ void store(const Xyzz& v) const {
    X.store(v.X);
    Y.store(v.Y);
    ZZ.store(v.ZZ);
    ZZZ.store(v.ZZZ);
  }
  // madd-2008-s as Xyzz::add_mixed, with the coordinates in shared memory.
  template <class Affine>
  __device__ __forceinline__ void add_mixed(const Affine& q) const {
    if (q.is_inf()) return;
    const F zz = ZZ.load();
    if (zz.is_zero()) {
      store(Xyzz(q));
      return;
    }
    const F P = q.x * zz - X.load();
    const F R = q.y * ZZZ.load() - Y.load();
    if (P.is_zero()) {
      store(R.is_zero() ? Xyzz::dbl_affine(q) : Xyzz::infinity());
      return;
    }
    const F pp = P.sqr();
    const F ppp = P * pp;
    ZZ.store(ZZ.load() * pp);
    ZZZ.store(ZZZ.load() * ppp);
    const F Q = X.load() * pp;
    const F x3 = R.sqr() - ppp - Q.dbl();
    X.store(x3);
    Y.store(F::mul_sub(R, Q - x3, Y.load(), ppp));
  }
  // add-2008-s as Xyzz::add, with q's coordinates loaded where they are used: q is another
  // SharedXyzz or a GlobalXyzz, never this one.
  template <class Point>
  __device__ __forceinline__ void add(const Point& q) const {
    const F qzz = q.ZZ.load();
    if (qzz.is_zero()) return;
    const F zz = ZZ.load();
    if (zz.is_zero()) {
      store(Xyzz(q.X.load(), q.Y.load(), qzz, q.ZZZ.load()));
      return;
    }
    const F u1 = X.load() * qzz;
    const F P = q.X.load() * zz - u1;
    const F qzzz = q.ZZZ.load();
    const F s1 = Y.load() * qzzz;
    const F R = q.Y.load() * ZZZ.load() - s1;
    if (P.is_zero()) {
      store(R.is_zero() ? p_dbl(load()) : Xyzz::infinity());
      return;
    }
    const F pp = P.sqr();
    const F ppp = P * pp;
    ZZ.store(ZZ.load() * qzz * pp);
    ZZZ.store(ZZZ.load() * qzzz * ppp);
    const F Q = u1 * pp;
    const F x3 = R.sqr() - ppp - Q.dbl();
    X.store(x3);
    Y.store(F::mul_sub(R, Q - x3, s1, ppp));
  }
};

// A point in global memory with SharedXyzz's coordinate interface (each coordinate read when used).
template <class Xyzz>
struct GlobalXyzz {
  using F = typename Xyzz::field;
  struct Field {
    const F* p;
    __device__ __forceinline__ F load() const { return *p; }
  };
  Field X, Y, ZZ, ZZZ;
  __device__ explicit GlobalXyzz(const Xyzz* q) : X{&q->X}, Y{&q->Y}, ZZ{&q->ZZ}, ZZZ{&q->ZZZ} {}
};

// The item this thread sums in segment_sum_kernel's cut (below): its number q, its segment k, its
// entries [b, e), whether it is the segment's first, and whether it is its only one (its sum is then
// the bucket's, see segment_sum_kernel); false when the thread has none.
struct Item {
  uint32_t q, k, b, e;
  bool first, only;
};
__device__ __forceinline__ bool item_of_thread(const uint32_t* __restrict__ seg_off,
                                               const uint32_t* __restrict__ item_off, uint32_t KZ,
                                               uint32_t cap, const uint32_t* __restrict__ order, Item& it) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= cap || r >= item_off[KZ]) return false;
  const uint32_t q = order ? order[r] : r;
  const uint32_t k = segment_of(item_off, KZ + 1, q);
  const uint32_t j = q - item_off[k], items = item_off[k + 1] - item_off[k];
  const uint32_t s0 = seg_off[k], n = seg_off[k + 1] - s0;
  it = Item{
      q,      k,         s0 + uint32_t(uint64_t(n) * j / items), s0 + uint32_t(uint64_t(n) * (j + 1) / items),
      j == 0, items == 1};
  return true;
}

// Segment k (KZ segments) of length n is cut into its c_k = item_off[k+1] - item_off[k] items of
// nearly equal length (n·j/c_k boundaries, so every item has between L/2 and L points once n > L,
// which keeps the threads of a warp busy for similar times); item q = item_off[k] + j sums one.
// With `order`, thread r takes item order[r] (the length-sorted schedule). With `from_bucket`, the
// first item of segment k starts from buckets[k] instead of infinity: the bucket's sum over earlier
// passes then costs one mixed addition here instead of a full addition later. The sum of a
// segment's only item is the bucket's, so it goes straight to buckets[k] (most buckets have one
// item, and a pass then needs no merge); the others go to out[q] for the next round.
template <class Xyzz, class Source>
__global__ void __launch_bounds__(kSumBlock, kSumMinBlocks<Xyzz>)
    segment_sum_kernel(const uint32_t* __restrict__ seg_off, const uint32_t* __restrict__ item_off,
                       uint32_t KZ, uint32_t cap, const uint32_t* __restrict__ order, Source src,
                       bool from_bucket, Xyzz* buckets, Xyzz* __restrict__ out) {
  Item it;
  if (!item_of_thread(seg_off, item_off, KZ, cap, order, it)) return;
  const uint32_t q = it.q, k = it.k, b = it.b, e = it.e;
  Xyzz acc = from_bucket && it.first ? buckets[k] : Xyzz::infinity();
  if constexpr (Source::kPrefetch) {
    typename Source::Point next = src.load(b);  // items are never empty
    for (uint32_t i = b; i < e; ++i) {
      const typename Source::Point cur = next;
      if (i + 1 < e) next = src.load(i + 1);
      src.add(acc, cur);
    }
  } else {
    for (uint32_t i = b; i < e; ++i) src.add(acc, src.load(i));
  }
  (it.only ? buckets[k] : out[q]) = acc;
}

// segment_sum_kernel over entries, with each thread's accumulator in shared memory (SharedXyzz), for
// G2. Its loop in registers needs more than the 255 a thread may have (248 bytes spilled); here
// ptxas fits it in 255 with 20 spilled, and the 2^26 witness accumulation went from 325 to 310 ms
// (two blocks per SM either way: asking for three spills 908 bytes). G1 keeps its accumulator in
// registers: the shared form ran 1–4 % slower at three and four blocks per SM (its madd is bound by
// issue, not by occupancy).
template <class Xyzz>
inline constexpr bool kSharedAccumulator = sizeof(typename Xyzz::field) > 48;
template <class Xyzz, class Affine>
__global__ void __launch_bounds__(kSumBlock, 2)
    segment_sum_shared_kernel(const uint32_t* __restrict__ seg_off, const uint32_t* __restrict__ item_off,
                              uint32_t KZ, uint32_t cap, const uint32_t* __restrict__ order,
                              EntrySource<Affine> src, bool from_bucket, Xyzz* buckets,
                              Xyzz* __restrict__ out) {
  static_assert(kSharedAccumulator<Xyzz> && !EntrySource<Affine>::kPrefetch, "the G2 accumulation only");
  __shared__ uint32_t words[SharedXyzz<Xyzz>::kWords * kSumBlock];
  Item it;
  if (!item_of_thread(seg_off, item_off, KZ, cap, order, it)) return;
  const uint32_t q = it.q, k = it.k, b = it.b, e = it.e;
  const SharedXyzz<Xyzz> acc(words);
  acc.store(from_bucket && it.first ? buckets[k] : Xyzz::infinity());
  // No prefetch: a G2 point held ahead costs 48 registers (EntrySource::kPrefetch).
  for (uint32_t i = b; i < e; ++i) acc.add_mixed(src.load(i));
  (it.only ? buckets[k] : out[q]) = acc.load();
}

// Every bucket set to infinity, written as 16-byte words: the point's words repeat every
// sizeof(Xyzz)/16, so a warp's store covers 512 contiguous bytes (a thread per point wrote its 192
// or 384 bytes at that stride, 3.9 ms for the 6.8 M buckets of a 2^27 H query).
template <class Xyzz>
__global__ void fill_infinity_kernel(Xyzz* p, size_t n) {
  static_assert(sizeof(Xyzz) % sizeof(uint4) == 0, "whole 16-byte words per point");
  constexpr unsigned P = sizeof(Xyzz) / sizeof(uint4);
  __shared__ uint4 pattern[P];
  if (threadIdx.x == 0) {
    const Xyzz inf = Xyzz::infinity();
    memcpy(pattern, &inf, sizeof(Xyzz));
  }
  __syncthreads();
  uint4* words = reinterpret_cast<uint4*>(p);
  const size_t total = n * P;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total;
       i += size_t(gridDim.x) * blockDim.x)
    words[i] = pattern[i % P];
}

// Sum of sums, one level. With 0-based weights WS0(X) = Σ_j j·X_j over a set's n elements, cut
// into T = n/K runs of K: WS0(X) = Σ_t L_t + K·WS0(A), where L_t = Σ_i i·X[tK + i] (running sums
// from the top) and A_t = Σ_i X[tK + i]. So each level is K - 1 pairs of additions per thread and
// leaves a set K times smaller; the host applies the factors K (doublings) at the end.
template <class Xyzz>
__global__ void level_kernel(const Xyzz* __restrict__ X, uint32_t sets, uint32_t n, uint32_t K,
                             Xyzz* __restrict__ Lout, Xyzz* __restrict__ Aout) {
  const uint32_t T = n / K;
  const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= sets * T) return;
  const uint32_t s = g / T, t = g % T;
  const Xyzz* x = X + size_t(s) * n + size_t(t) * K;
  Xyzz run = Xyzz::infinity(), sum = Xyzz::infinity();
  for (uint32_t i = K - 1; i >= 1; --i) {
    run = p_add(run, x[i]);
    sum = p_add(sum, run);
  }
  Lout[g] = sum;
  Aout[g] = p_add(run, x[0]);
}

// level_kernel with its two accumulators in shared memory, for G2. In registers its run and sum
// (96 registers each) left ptxas a 928-byte stack frame at 255 registers, and the H200 summed G2
// buckets there at about a quarter of the accumulation's rate (visit 83: the reduction of a c = 19
// witness MSM took 30 ms for 2.4 M buckets in use). A block of kLevelSharedBlock threads keeps both
// in the columns of one SharedXyzz area (run at t, sum at t + kLevelSharedBlock).
inline constexpr unsigned kLevelSharedBlock = kSumBlock / 2;
template <class Xyzz>
__global__ void __launch_bounds__(kLevelSharedBlock, 4)
    level_shared_kernel(const Xyzz* __restrict__ X, uint32_t sets, uint32_t n, uint32_t K,
                        Xyzz* __restrict__ Lout, Xyzz* __restrict__ Aout) {
  static_assert(kSharedAccumulator<Xyzz>, "the G2 reduction only");
  __shared__ uint32_t words[SharedXyzz<Xyzz>::kWords * kSumBlock];
  const uint32_t T = n / K;
  const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= sets * T) return;
  const uint32_t s = g / T, t = g % T;
  const Xyzz* x = X + size_t(s) * n + size_t(t) * K;
  const SharedXyzz<Xyzz> run(words, threadIdx.x), sum(words, threadIdx.x + kLevelSharedBlock);
  run.store(Xyzz::infinity());
  sum.store(Xyzz::infinity());
  for (uint32_t i = K - 1; i >= 1; --i) {
    run.add(GlobalXyzz<Xyzz>(x + i));
    sum.add(run);
  }
  Lout[g] = sum.load();
  run.add(GlobalXyzz<Xyzz>(x));
  Aout[g] = run.load();
}

// out[s·T' + u] = Σ in[s·T + uF .. min(s·T + (u+1)F, s·T + T)), T' = ceil(T / F).
template <class Xyzz>
__global__ void fold_kernel(const Xyzz* __restrict__ in, uint32_t sets, uint32_t T, uint32_t F,
                            Xyzz* __restrict__ out) {
  const uint32_t Tn = (T + F - 1) / F;
  const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= sets * Tn) return;
  const uint32_t s = g / Tn, u = g % Tn;
  const uint32_t b = u * F, e = min(b + F, T);
  Xyzz acc = Xyzz::infinity();
  for (uint32_t i = b; i < e; ++i) acc = p_add(acc, in[size_t(s) * T + i]);
  out[g] = acc;
}

// Precomputation: out[i] = 2^c·in[i] in affine form. Each thread takes `kStripe` consecutive points
// and inverts their ZZZ together (Montgomery's trick), keeping the doubled points in `scratch` and
// the running products in out[i].x, as the host's batch_to_affine does.
inline constexpr uint32_t kStripe = 16;
template <class Affine, class Xyzz>
__global__ void shift_bases_kernel(const Affine* __restrict__ in, Affine* __restrict__ out,
                                   Xyzz* __restrict__ scratch, size_t n, unsigned c) {
  using F = typename Affine::field;
  const size_t i0 = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * kStripe;
  if (i0 >= n) return;
  const size_t i1 = i0 + kStripe < n ? i0 + kStripe : n;
  F acc = F::one();
  for (size_t i = i0; i < i1; ++i) {
    Xyzz p(in[i]);
    for (unsigned d = 0; d < c; ++d) p = p_dbl(p);
    scratch[i] = p;
    if (!p.is_inf()) {
      out[i].x = acc;
      acc *= p.ZZZ;
    }
  }
  F inv = acc.inverse();
  for (size_t i = i1; i-- > i0;) {
    const Xyzz p = scratch[i];
    if (p.is_inf()) {
      out[i] = Affine::infinity();
      continue;
    }
    const F izzz = inv * out[i].x;
    inv *= p.ZZZ;
    const F izz = (p.ZZ * izzz).sqr();
    out[i] = Affine{p.X * izz, p.Y * izzz};
  }
}

// word_rank[w] = popcount(density[w]) (an exclusive scan follows).
static __global__ void popcount_kernel(const uint64_t* __restrict__ density, size_t words,
                                       uint32_t* __restrict__ out) {
  const size_t w = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (w < words) out[w] = __popcll(density[w]);
}

}  // namespace cuzk::cuda::msm_detail
