// Fully inlined, -O3: these kernels are also what docs/BENCHMARKS.md's SASS counts are read from.
#include "backend/cuda/testing/throughput.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "curve/affine_step.hpp"
#include "field/binary_gcd.hpp"
#include "field/fp_dfma.hpp"

namespace cuzk::cuda {

namespace {

template <class F, ChainOp OP>
__global__ void __launch_bounds__(256) field_mul_chain_kernel(F* state, size_t threads, uint32_t iters) {
  const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t >= threads) return;
  if constexpr (OP == ChainOp::mul_dfma || OP == ChainOp::mul_dfma_lazy) {
    static_assert(std::is_same_v<F, Fp>, "the FP64 multiplication is Fp's only");
    using field::FpDfma;
    FpDfma x = FpDfma::from(state[t]);
    const FpDfma y = FpDfma::from(state[threads + t]);
#pragma unroll 4
    for (uint32_t i = 0; i < iters; ++i)
      x = OP == ChainOp::mul_dfma ? FpDfma::mul(x, y) : FpDfma::mul_lazy(x, y);
    if constexpr (OP == ChainOp::mul_dfma_lazy) x = FpDfma::mul(x, FpDfma::from(Fp::one()));
    state[t] = x.to_fp();
    return;
  }
  if constexpr (OP == ChainOp::mul_pair || OP == ChainOp::mul_dfma_pair || OP == ChainOp::mul_mixed_pair) {
    static_assert(std::is_same_v<F, Fp>, "the FP64 multiplication is Fp's only");
    using field::FpDfma;
    // Two independent chains, a = x·y^n and b = y·x^n, each in the form the op names.
    const Fp x = state[t], y = state[threads + t];
    const FpDfma xd = FpDfma::from(x), yd = FpDfma::from(y);
    Fp a = x, b = y;
    FpDfma ad = xd, bd = yd;
#pragma unroll 2
    for (uint32_t i = 0; i < iters; ++i) {
      if constexpr (OP == ChainOp::mul_pair) {
        a = a * y;
        b = b * x;
      } else if constexpr (OP == ChainOp::mul_dfma_pair) {
        ad = FpDfma::mul_lazy(ad, yd);
        bd = FpDfma::mul_lazy(bd, xd);
      } else {
        a = a * y;
        bd = FpDfma::mul_lazy(bd, xd);
      }
    }
    const FpDfma one = FpDfma::from(Fp::one());
    if constexpr (OP == ChainOp::mul_dfma_pair) a = FpDfma::mul(ad, one).to_fp();
    if constexpr (OP != ChainOp::mul_pair) b = FpDfma::mul(bd, one).to_fp();
    state[t] = a * b;
    return;
  }
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

__global__ void __launch_bounds__(128)
    g1_xyzz_gather_kernel(G1Xyzz* sums, const G1Affine* points, const uint32_t* idx, size_t threads,
                          uint32_t per_thread) {
  const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t >= threads) return;
  G1Xyzz r = G1Xyzz::infinity();
  for (uint32_t k = 0; k < per_thread; ++k) r = r.add_mixed(points[idx[k * threads + t]]);
  sums[t] = r;
}

constexpr unsigned kPairBlock = 128;    // threads of the pair kernels' blocks
constexpr unsigned kInvertBlock = 256;  // threads of the one block that inverts the block products

// Product trees in shared memory over a block's T values at the leaves tree[T..2T−1] (node v =
// nodes 2v · 2v+1). tree_up fills the inner nodes (the root, tree[1], is the product of all);
// tree_down, once the root holds that product's inverse, turns every node into its own inverse
// (a left child's is its parent's inverse times its sibling's product).
template <unsigned T>
__device__ __forceinline__ void tree_up(Fp* tree, unsigned t) {
  for (unsigned half = T / 2; half >= 1; half /= 2) {
    __syncthreads();
    if (t < half) tree[half + t] = tree[2 * (half + t)] * tree[2 * (half + t) + 1];
  }
  __syncthreads();
}
template <unsigned T>
__device__ __forceinline__ void tree_down(Fp* tree, unsigned t) {
  for (unsigned half = 1; half < T; half *= 2) {
    __syncthreads();
    if (t < half) {
      const unsigned v = half + t;
      const Fp inv = tree[v], left = tree[2 * v], right = tree[2 * v + 1];
      tree[2 * v] = inv * right;
      tree[2 * v + 1] = inv * left;
    }
  }
  __syncthreads();
}

// Sum p of block b is its thread's k-th, p = (b·K + k)·T + t, so a warp's loads and stores are
// consecutive. The forward walk stores each sum's running product of its thread's earlier
// denominators, and each thread's product and each block's.
template <int K>
__global__ void __launch_bounds__(kPairBlock)
    pairs_forward_kernel(Fp* before, Fp* thread_prod, Fp* block_prod, const G1Affine* points,
                         const uint32_t* idx, size_t pairs) {
  using S = curve::affine_step<G1Affine>;
  constexpr unsigned T = kPairBlock;
  __shared__ Fp tree[2 * T];
  const unsigned t = threadIdx.x;
  const size_t first = size_t(blockIdx.x) * T * K + t;
  Fp prod = Fp::one();
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const size_t p = first + size_t(k) * T;
    if (p >= pairs) break;
    before[p] = prod;
    prod = prod * S::denominator(points[idx[2 * p]], points[idx[2 * p + 1]]);
  }
  thread_prod[size_t(blockIdx.x) * T + t] = prod;
  tree[T + t] = prod;
  tree_up<T>(tree, t);
  if (t == 0) block_prod[blockIdx.x] = tree[1];
}

// v[i] ← v[i]⁻¹ for i < n in one block: each thread's run of values by Montgomery's trick (the
// running products in pre), the runs' products through the tree, one inversion at its root.
__global__ void __launch_bounds__(kInvertBlock) invert_all_kernel(Fp* v, Fp* pre, size_t n) {
  constexpr unsigned T = kInvertBlock;
  __shared__ Fp tree[2 * T];
  const unsigned t = threadIdx.x;
  const size_t per = (n + T - 1) / T, lo = std::min(n, t * per), hi = std::min(n, lo + per);
  Fp prod = Fp::one();
  for (size_t i = lo; i < hi; ++i) {
    pre[i] = prod;
    prod = prod * v[i];
  }
  tree[T + t] = prod;
  tree_up<T>(tree, t);
  if (t == 0) tree[1] = field::inverse_binary_gcd(tree[1]);
  tree_down<T>(tree, t);
  Fp inv = tree[T + t];
  for (size_t i = hi; i-- > lo;) {
    const Fp vi = v[i];
    v[i] = inv * pre[i];
    inv = inv * vi;
  }
}

// The block's tree again from its threads' products, the root's inverse from invert_all, and each
// thread's walk back: sum p's inverse is the thread's running inverse times before[p].
template <int K>
__global__ void __launch_bounds__(kPairBlock)
    pairs_finish_kernel(G1Affine* out, const Fp* before, const Fp* thread_prod, const Fp* block_inv,
                        const G1Affine* points, const uint32_t* idx, size_t pairs) {
  using S = curve::affine_step<G1Affine>;
  constexpr unsigned T = kPairBlock;
  __shared__ Fp tree[2 * T];
  const unsigned t = threadIdx.x;
  tree[T + t] = thread_prod[size_t(blockIdx.x) * T + t];
  tree_up<T>(tree, t);
  if (t == 0) tree[1] = block_inv[blockIdx.x];
  tree_down<T>(tree, t);
  Fp inv = tree[T + t];
  const size_t first = size_t(blockIdx.x) * T * K + t;
#pragma unroll
  for (int k = K - 1; k >= 0; --k) {
    const size_t p = first + size_t(k) * T;
    if (p >= pairs) continue;
    const G1Affine a = points[idx[2 * p]], b = points[idx[2 * p + 1]];
    const Fp own = inv * before[p];
    inv = inv * S::denominator(a, b);
    out[p] = S::finish(a, b, own);
  }
}

template <int K>
Status launch_pairs(const Stream& s, G1Affine* out, const G1Affine* points, const uint32_t* idx, size_t pairs,
                    Fp* scratch) {
  const size_t blocks = (pairs + kPairBlock * K - 1) / (kPairBlock * K);
  Fp* before = scratch;
  Fp* thread_prod = before + pairs;
  Fp* block_prod = thread_prod + blocks * kPairBlock;
  Fp* pre = block_prod + blocks;
  pairs_forward_kernel<K>
      <<<unsigned(blocks), kPairBlock, 0, s.get()>>>(before, thread_prod, block_prod, points, idx, pairs);
  CUZK_TRY_STATUS(check_launch("pairs_forward_kernel"));
  invert_all_kernel<<<1, kInvertBlock, 0, s.get()>>>(block_prod, pre, blocks);
  CUZK_TRY_STATUS(check_launch("invert_all_kernel"));
  pairs_finish_kernel<K><<<unsigned(blocks), kPairBlock, 0, s.get()>>>(out, before, thread_prod, block_prod,
                                                                       points, idx, pairs);
  return check_launch("pairs_finish_kernel");
}

}  // namespace

Status g1_xyzz_gather_sums(const Stream& s, G1Xyzz* sums, const G1Affine* points, const uint32_t* idx,
                           size_t threads, uint32_t per_thread) {
  if (threads == 0) return Status::Ok();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  g1_xyzz_gather_kernel<<<unsigned((threads + 127) / 128), 128, 0, s.get()>>>(sums, points, idx, threads,
                                                                              per_thread);
  return check_launch("g1_xyzz_gather_kernel");
}

size_t g1_affine_pair_scratch(size_t pairs, unsigned per_thread) {
  const size_t blocks = (pairs + kPairBlock * per_thread - 1) / (kPairBlock * per_thread);
  return pairs + blocks * kPairBlock + 2 * blocks;
}

Status g1_affine_pair_sums(const Stream& s, G1Affine* out, const G1Affine* points, const uint32_t* idx,
                           size_t pairs, unsigned per_thread, Fp* scratch) {
  if (pairs == 0) return Status::Ok();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  switch (per_thread) {
    case 4:
      return launch_pairs<4>(s, out, points, idx, pairs, scratch);
    case 8:
      return launch_pairs<8>(s, out, points, idx, pairs, scratch);
    case 16:
      return launch_pairs<16>(s, out, points, idx, pairs, scratch);
    default:
      return make_error("g1_affine_pair_sums: per_thread must be 4, 8 or 16");
  }
}

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
    case ChainOp::mul_dfma:
    case ChainOp::mul_dfma_lazy:
    case ChainOp::mul_pair:
    case ChainOp::mul_dfma_pair:
    case ChainOp::mul_mixed_pair:
      if constexpr (!std::is_same_v<F, Fp>) {
        return make_error("field_mul_chain: the FP64 multiplication is Fp's only");
      } else {
        const unsigned b = unsigned(blocks);
        if (op == ChainOp::mul_dfma)
          field_mul_chain_kernel<F, ChainOp::mul_dfma><<<b, block, 0, s.get()>>>(state, threads, iters);
        else if (op == ChainOp::mul_dfma_lazy)
          field_mul_chain_kernel<F, ChainOp::mul_dfma_lazy><<<b, block, 0, s.get()>>>(state, threads, iters);
        else if (op == ChainOp::mul_pair)
          field_mul_chain_kernel<F, ChainOp::mul_pair><<<b, block, 0, s.get()>>>(state, threads, iters);
        else if (op == ChainOp::mul_dfma_pair)
          field_mul_chain_kernel<F, ChainOp::mul_dfma_pair><<<b, block, 0, s.get()>>>(state, threads, iters);
        else
          field_mul_chain_kernel<F, ChainOp::mul_mixed_pair><<<b, block, 0, s.get()>>>(state, threads, iters);
      }
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
