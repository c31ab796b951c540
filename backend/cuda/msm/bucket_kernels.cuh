// Device kernels of the MSM's bucket steps (backend/cuda/msm/msm.hpp describes the pipeline): the
// sorted digits' bucket offsets and items, the segmented sums into buckets (round 1 over the bases,
// later rounds over partial sums), the reduction's level and subset sums, and the precomputed tables'
// doublings. Templated on the point types so G1 and G2 share them; instantiated by msm_g1.cu and
// msm_g2.cu through pipeline.cuh. The kernels that are not templates are static: each unit keeps
// its own copy.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "backend/cuda/msm/digit_kernels.cuh"

namespace cuzk::cuda::msm_detail {

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
// 168 with 120 bytes spilled and (128, 4) 128 with 400. On the H200 (cuzk_bench_msm) the 2^27 H
// query's accumulation takes 755, 769 and 775 ms at 2, 3 and 4 blocks, a witness vector's 183, 184
// and 187 ms: two blocks per SM without spills beat more warps with them. G2 sits at the 255-register limit
// either way and asks for 1. CUZK_G1_SUM_BLOCKS_PER_SM overrides G1's bound for experiments (a build of its
// own).
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
// ptxas fits it in 255 with 20 spilled, and the 2^26 witness accumulation takes 310 ms against 325
// (two blocks per SM either way: asking for three spills 908 bytes). G1 keeps its accumulator in
// registers: the shared form runs 1–4 % slower at three and four blocks per SM (its madd is bound by
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

// Sum of sums, the level. With 0-based weights WS0(X) = Σ_j j·X_j over a set's n elements, cut
// into T = n/K runs of K: WS0(X) = Σ_t L_t + K·WS0(A), where L_t = Σ_i i·X[tK + i] (running sums
// from the top) and A_t = Σ_i X[tK + i]. So the level is K - 1 pairs of additions per thread and
// leaves a set K times smaller; the subset sums below take Σ L_t and WS0(A), and the host applies
// the factor K (doublings) at the end.
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
// buckets there at about a quarter of the accumulation's rate (the reduction of a c = 19 witness
// MSM took 30 ms for 2.4 M buckets in use; 22.6 ms in shared memory). A block of kLevelSharedBlock threads
// keeps both in the columns of one SharedXyzz area (run at t, sum at t + kLevelSharedBlock).
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

// The subset sums after the level (layout.cuh, subset_plan): per set, Q = bits + 2 sums over its T
// level outputs, sum q < bits of the A_t whose index t has bit q set, sum bits of every A_t, sum
// bits + 1 of every L_t. Block b = (s·Q + q)·groups + g sums members [g·span, (g + 1)·span) of its
// sum: thread i a chain over members i, i + kSubsetBlock, …, then a tree in shared memory.
inline constexpr unsigned kSubsetBlock = 128;

// The sum of every thread's acc, returned to thread 0. Each step the upper half of the live
// threads hands its points to the lower half through shared memory: log2(blockDim) additions deep.
template <class Xyzz>
__device__ Xyzz block_tree_sum(Xyzz acc) {
  __shared__ alignas(16) unsigned char raw[sizeof(Xyzz) * kSubsetBlock / 2];
  Xyzz* half = reinterpret_cast<Xyzz*>(raw);
  for (unsigned h = blockDim.x / 2; h >= 1; h /= 2) {
    if (threadIdx.x >= h && threadIdx.x < 2 * h) half[threadIdx.x - h] = acc;
    __syncthreads();
    if (threadIdx.x < h) acc = p_add(acc, half[threadIdx.x]);
    __syncthreads();
  }
  return acc;
}

template <class Xyzz>
__global__ void __launch_bounds__(kSubsetBlock)
    subset_sums_kernel(const Xyzz* __restrict__ A, const Xyzz* __restrict__ L, uint32_t T, unsigned bits,
                       uint32_t span, uint32_t groups, Xyzz* __restrict__ out) {
  const uint32_t Q = bits + 2;
  const uint32_t g = blockIdx.x % groups, q = blockIdx.x / groups % Q, s = blockIdx.x / groups / Q;
  const Xyzz* x = (q == bits + 1 ? L : A) + size_t(s) * T;
  const uint32_t members = q < bits ? T / 2 : T, end = min((g + 1) * span, members);
  // Member j of bit q's half: j with a 1 inserted at bit q.
  const auto at = [&](uint32_t j) -> const Xyzz& {
    if (q >= bits) return x[j];
    const uint32_t low = j & ((1u << q) - 1);
    return x[((j - low) << 1) | (1u << q) | low];
  };
  uint32_t j = g * span + threadIdx.x;
  Xyzz acc = j < end ? at(j) : Xyzz::infinity();
  for (j += kSubsetBlock; j < end; j += kSubsetBlock) acc = p_add(acc, at(j));
  acc = block_tree_sum(acc);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

// out[k] = Σ in[k·groups .. (k + 1)·groups): the subset sums' block partials, one block a sum of
// a power of two threads from 32 to kSubsetBlock, as few as cover the partials (a shallower tree).
template <class Xyzz>
__global__ void __launch_bounds__(kSubsetBlock)
    partial_sums_kernel(const Xyzz* __restrict__ in, uint32_t groups, Xyzz* __restrict__ out) {
  const Xyzz* x = in + size_t(blockIdx.x) * groups;
  uint32_t j = threadIdx.x;
  Xyzz acc = j < groups ? x[j] : Xyzz::infinity();
  for (j += blockDim.x; j < groups; j += blockDim.x) acc = p_add(acc, x[j]);
  acc = block_tree_sum(acc);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
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

}  // namespace cuzk::cuda::msm_detail
