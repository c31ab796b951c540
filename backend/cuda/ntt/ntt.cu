// Fr NTT kernels (see ntt.hpp for the contract).
//
// Shape: a transform of 2^log_n is a few passes over the buffer (ntt/passes.hpp plans them); each
// pass runs up to pass_log radix-2 stages on a block of 2^pass_log elements in shared memory.
//
// Twiddles. A stage with half-size h = 2^s multiplies by ω_{2h}^(i mod h) = ω_N^((i mod h)·N/2h)
// for the plan's largest size N, an exponent e < N/2 that is a multiple of N/2h. Direct radix-2
// costs the fewest field multiplications (n/2·log n minus the trivial twiddles, which are
// skipped). The twiddles live in two tables (NttTuning::twiddle_log): ω_N^(i·2^d) and ω_N^e for
// e < 2^d. Every stage whose exponents are multiples of 2^d (all but the top d of a 2^N
// transform) reads the first alone; the top d stages multiply an entry of each, one more Fr
// multiplication a butterfly there, where the one table of every twiddle would be N/2 entries
// (2 GiB at 2^27, read at random by the top pass). The inverse reads the same tables:
// ω^-e = −ω^(N/2 − e) for 0 < e < N/2, and the minus sign is absorbed by swapping the operands of
// a subtraction.
//
// Scaling (coset powers, n^-1) is fused into the first pass's loads (forward coset) or the last
// pass's stores (inverse), so it costs multiplications but no extra pass over memory.
#include "backend/cuda/ntt/ntt.hpp"

#include "backend/cuda/ntt/fr_access.cuh"
#include "backend/cuda/ntt/pointwise.hpp"
#include "backend/cuda/runtime/device_cache.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cuzk::cuda {
namespace {

using namespace ntt_detail;

static_assert(sizeof(Fr) == 32, "ntt_shared_bytes counts 32 bytes an element");

// ------------------------------------------------------------------ pass kernel
enum ScaleMode : int { kNoScale = 0, kConstant = 1, kPowers = 2 };

// Multiplies element e (its logical index: the position, or its bit reversal when the data is in
// bit-reversed order at that point) by c (kConstant) or by lo[e mod 2^split]·hi[e >> split]
// (kPowers); then, at the element's position i, by mul[i] and less sub[i] where those are given.
// The vector operands fold the prover's pointwise passes into a transform's first or last pass.
struct ScaleArgs {
  int mode = kNoScale;
  bool reversed = false;
  unsigned split = 0;
  Fr c{};
  const Fr* lo = nullptr;
  const Fr* hi = nullptr;
  const Fr* mul = nullptr;
  const Fr* sub = nullptr;
  __host__ __device__ bool active() const { return mode != kNoScale || mul || sub; }
};

struct PassArgs {
  Fr* data;
  const Fr* tw;     // ω_N^(i·2^tw_d), i < 2^(tw_log − tw_d)
  const Fr* tw_lo;  // ω_N^e, e < 2^tw_d (tw_d > 0)
  unsigned tw_log;  // log2(N/2)
  unsigned tw_d;
  unsigned log_n;  // size of this transform
  unsigned s_lo;   // lowest index bit transformed by this pass
  unsigned k;      // stages in this pass
  unsigned c;      // consecutive low bits per block
  unsigned g;      // index bits above the pass's stages held by one block (independent groups)
  ScaleArgs pre, post;
  ScaleArgs mid;  // ntt_roundtrip_kernel only: between its inverse and its forward stages
  NttTap tap;     // the input as read, before `pre` (NttPlan::to_coset's first pass)
};

__device__ __forceinline__ Fr apply_scale(const ScaleArgs& a, Fr x, uint32_t pos, unsigned log_n) {
  if (a.mode == kConstant) {
    x = x * a.c;
  } else if (a.mode == kPowers) {
    const uint32_t e = a.reversed ? reverse_bits(pos, log_n) : pos;
    x = x * (load_fr_ro(a.lo + (e & ((1u << a.split) - 1))) * load_fr_ro(a.hi + (e >> a.split)));
  }
  if (a.mul) x = x * load_fr_ro(a.mul + pos);
  if (a.sub) x = x - load_fr_ro(a.sub + pos);
  return x;
}

// One radix-2 butterfly of global stage s on (x, y) = elements i, i + 2^s, where j = i mod 2^s.
template <bool DIT, bool INV>
__device__ __forceinline__ void butterfly(const PassArgs& p, Fr& x, Fr& y, uint32_t j, unsigned s) {
  const uint32_t e = j << (p.tw_log - s);  // ω_{2^(s+1)}^j = ω_N^e, e < N/2
  if (e == 0) {
    const Fr sum = x + y;
    y = x - y;
    x = sum;
    return;
  }
  const uint32_t t = INV ? (1u << p.tw_log) - e : e;  // a multiple of 2^(tw_log − s), as e is
  Fr w = load_fr_ro(p.tw + (t >> p.tw_d));
  if (p.tw_log - s < p.tw_d) w = w * load_fr_ro(p.tw_lo + (t & ((1u << p.tw_d) - 1)));
  if constexpr (!DIT) {
    const Fr sum = x + y;
    y = INV ? (y - x) * w : (x - y) * w;  // ω^-e = −w for the inverse
    x = sum;
  } else {
    const Fr u = y * w;
    if constexpr (INV) {  // y·ω^-e = −u
      y = x + u;
      x = x - u;
    } else {
      y = x - u;
      x = x + u;
    }
  }
}

// R stages of a pass, `done` of its k stages already run (DIF runs local stage bits from the top
// down, DIT from the bottom up). Group g of 2^R elements: the block-local indices with R zero bits
// inserted at bit qlo, plus m << qlo for m < 2^R.
template <int R, bool DIT, bool INV>
__device__ __forceinline__ void ntt_step(const PassArgs& p, Fr* sh, uint32_t size, uint32_t low_base,
                                         uint32_t cmask, unsigned done) {
  const unsigned blo = DIT ? done : p.k - done - R;  // lowest local stage bit of the step
  const unsigned qlo = p.c + blo;
  for (uint32_t g = threadIdx.x; g < (size >> R); g += blockDim.x) {
    const uint32_t ib = ((g >> qlo) << (qlo + R)) | (g & ((1u << qlo) - 1));
    Fr v[1 << R];
#pragma unroll
    for (int m = 0; m < (1 << R); ++m) v[m] = load_fr(sh + ib + (uint32_t(m) << qlo));
#pragma unroll
    for (int rr = 0; rr < R; ++rr) {
      const int r = DIT ? rr : R - 1 - rr;
      const unsigned bb = blo + r;  // local stage bit
#pragma unroll
      for (int m = 0; m < (1 << R); ++m) {
        if (m & (1 << r)) continue;
        const uint32_t i0 = ib + (uint32_t(m) << qlo);
        const uint32_t j = low_base + (i0 & cmask) + (((i0 >> p.c) & ((1u << bb) - 1)) << p.s_lo);
        butterfly<DIT, INV>(p, v[m], v[m + (1 << r)], j, p.s_lo + bb);
      }
    }
#pragma unroll
    for (int m = 0; m < (1 << R); ++m) store_fr(sh + ib + (uint32_t(m) << qlo), v[m]);
  }
}

// Where a block's elements live: local index li holds global index base + (li & cmask) +
// ((li >> c) << s_lo). Local bits [c, c + k) are the pass's stage bits and [c + k, c + k + g) the
// next index bits above them, so a pass of few stages (the bottom one) still fills a block.
struct BlockLayout {
  uint32_t size, low_base, base, cmask;
  __device__ explicit BlockLayout(const PassArgs& p) {
    size = 1u << (p.k + p.c + p.g);
    const unsigned low_blocks_log = p.s_lo - p.c;
    const uint32_t low_block = blockIdx.x & ((1u << low_blocks_log) - 1);
    const uint32_t high = blockIdx.x >> low_blocks_log;
    low_base = low_block << p.c;  // index bits below s_lo common to the block
    base = low_base + (high << (p.s_lo + p.k + p.g));
    cmask = (1u << p.c) - 1;
  }
  __device__ uint32_t global(const PassArgs& p, uint32_t li) const {
    return base + (li & cmask) + ((li >> p.c) << p.s_lo);
  }
};

__device__ __forceinline__ void load_block(const PassArgs& p, const BlockLayout& b, Fr* sh) {
  for (uint32_t li = threadIdx.x; li < b.size; li += blockDim.x) {
    const uint32_t gi = b.global(p, li);
    Fr x = load_fr(p.data + gi);
    if (p.tap.out && gi < p.tap.rows)
      store_fr(p.tap.out + gi, p.tap.multiply ? load_fr(p.tap.out + gi) * x : x);
    if (p.pre.active()) x = apply_scale(p.pre, x, gi, p.log_n);
    store_fr(sh + li, x);
  }
  __syncthreads();
}

__device__ __forceinline__ void store_block(const PassArgs& p, const BlockLayout& b, const Fr* sh) {
  for (uint32_t li = threadIdx.x; li < b.size; li += blockDim.x) {
    const uint32_t gi = b.global(p, li);
    Fr x = load_fr(sh + li);
    if (p.post.active()) x = apply_scale(p.post, x, gi, p.log_n);
    store_fr(p.data + gi, x);
  }
}

// One stage per barrier. Steps of 2 or 3 stages in registers (ntt_step<2>, <3>: radix-4/8 per
// thread) were measured no faster on the H200 (2^27: 41.8 and 47.2 ms against 40.9 ms): the
// extra registers cost more occupancy than the saved shared-memory traffic and barriers gain.
template <bool DIT, bool INV>
__device__ __forceinline__ void run_stages(const PassArgs& p, const BlockLayout& b, Fr* sh) {
  for (unsigned done = 0; done < p.k; ++done) {
    ntt_step<1, DIT, INV>(p, sh, b.size, b.low_base, b.cmask, done);
    __syncthreads();
  }
}

template <bool DIT, bool INV>
__global__ void __launch_bounds__(512) ntt_pass_kernel(const PassArgs p) {
  extern __shared__ uint4 smem_raw[];
  Fr* sh = reinterpret_cast<Fr*>(smem_raw);
  const BlockLayout b(p);
  load_block(p, b, sh);
  run_stages<DIT, INV>(p, b, sh);
  store_block(p, b, sh);
}

// The last pass of an inverse transform (DIF, natural → bit-reversed) and the first of a forward
// one (DIT, bit-reversed → natural) over the same index bits, in one visit to the block: the
// elements stay in shared memory between them, with `mid` (a coset's powers) applied there. It
// saves a pass over the buffer and a launch for each vector the prover takes to a coset.
__global__ void __launch_bounds__(512) ntt_roundtrip_kernel(const PassArgs p) {
  extern __shared__ uint4 smem_raw[];
  Fr* sh = reinterpret_cast<Fr*>(smem_raw);
  const BlockLayout b(p);
  load_block(p, b, sh);
  run_stages<false, true>(p, b, sh);
  if (p.mid.active()) {
    for (uint32_t li = threadIdx.x; li < b.size; li += blockDim.x)
      store_fr(sh + li, apply_scale(p.mid, load_fr(sh + li), b.global(p, li), p.log_n));
    __syncthreads();
  }
  run_stages<true, false>(p, b, sh);
  store_block(p, b, sh);
}

// ------------------------------------------------------------------ helper kernels
__global__ void bit_reverse_kernel(Fr* a, uint32_t n, unsigned log_n) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint32_t j = reverse_bits(i, log_n);
    if (i < j) {
      const Fr x = load_fr(a + i), y = load_fr(a + j);
      store_fr(a + i, y);
      store_fr(a + j, x);
    }
  }
}

// Bit reversal by tiles, so that reads and writes both move runs of 2^kTileLog consecutive
// elements (a plain element-by-element swap scatters one 32-byte sector per element and reaches
// about a third of the copy bandwidth). Index i = hi·2^(log_n−b) + mid·2^b + lo with b = kTileLog
// bits each for hi and lo; rev(i) = rev(lo)·2^(log_n−b) + rev(mid)·2^b + rev(hi). So the tile of
// `mid` (all hi, lo) maps onto the tile of rev(mid), transposed and bit-reversed; each block
// swaps one pair of tiles (or transposes one tile in place when mid = rev(mid)).
constexpr unsigned kTileLog = 4;
constexpr unsigned kTile = 1u << kTileLog;
__global__ void __launch_bounds__(kTile* kTile) bit_reverse_tiles_kernel(Fr* a, unsigned log_n) {
  __shared__ uint4 sh_raw[2 * kTile * kTile * 2];
  Fr* ta = reinterpret_cast<Fr*>(sh_raw);
  Fr* tb = ta + kTile * kTile;
  const unsigned mid_bits = log_n - 2 * kTileLog;
  const uint32_t m = blockIdx.x, mr = reverse_bits(m, mid_bits);
  if (m > mr) return;  // the block of the smaller mid does the pair
  const unsigned hi_shift = log_n - kTileLog;
  const uint32_t t = threadIdx.x, hi = t >> kTileLog, lo = t & (kTile - 1);
  Fr* const base_a = a + (m << kTileLog);
  Fr* const base_b = a + (mr << kTileLog);
  store_fr(ta + t, load_fr(base_a + (hi << hi_shift) + lo));
  if (m != mr) store_fr(tb + t, load_fr(base_b + (hi << hi_shift) + lo));
  __syncthreads();
  // Position (hi, lo) of tile rev(m) receives element (rev(lo), rev(hi)) of tile m, and back.
  const uint32_t src = (reverse_bits(lo, kTileLog) << kTileLog) | reverse_bits(hi, kTileLog);
  store_fr(base_b + (hi << hi_shift) + lo, load_fr(ta + src));
  if (m != mr) store_fr(base_a + (hi << hi_shift) + lo, load_fr(tb + src));
}

// out[i] = c·g^i for i < n, in runs of kRun per thread: one exponentiation per run.
constexpr uint32_t kRun = 64;
__global__ void powers_kernel(Fr* out, uint32_t n, Fr c, Fr g) {
  const uint32_t start = (blockIdx.x * blockDim.x + threadIdx.x) * kRun;
  if (start >= n) return;
  Fr p = c * g.pow(start);
  const uint32_t end = start + kRun < n ? start + kRun : n;
  for (uint32_t i = start; i < end; ++i) {
    store_fr(out + i, p);
    p = p * g;
  }
}

// ------------------------------------------------------------------ host helpers
Status launch_powers(const Stream& s, Fr* out, uint32_t n, const Fr& c, const Fr& g) {
  const uint32_t threads = (n + kRun - 1) / kRun;
  constexpr unsigned block = 128;
  powers_kernel<<<(threads + block - 1) / block, block, 0, s.get()>>>(out, n, c, g);
  return check_launch("ntt powers_kernel");
}

// c·g^i for i < n in n elements of device memory. With a cache, a block that still holds exactly
// these powers from an earlier call (its key: n, c and g, byte for byte) is lent back as it is:
// the backend's compute_h makes a plan and coset tables for every proof, and the 2 GiB of
// twiddles at 2^27 cost 2.7 ms to compute.
Result<DeviceBuffer<Fr>> powers_vector(const Stream& s, uint32_t n, const Fr& c, const Fr& g,
                                       DeviceCache* cache) {
  if (!cache) {
    auto v = DeviceBuffer<Fr>::alloc(s.device(), n);
    if (!v) return v.error();
    CUZK_TRY_STATUS(launch_powers(s, v->data(), n, c, g));
    return v;
  }
  std::string key = "powers " + std::to_string(n) + " ";
  key.append(reinterpret_cast<const char*>(&c), sizeof(Fr));
  key.append(reinterpret_cast<const char*>(&g), sizeof(Fr));
  bool kept = false;
  auto v = cache->take_kept<Fr>(n, key, kept);
  if (!v) return v.error();
  if (!kept) {
    CUZK_TRY_STATUS(launch_powers(s, v->data(), n, c, g));
    cache->keep_contents(*v, std::move(key));
  }
  return v;
}

enum class PassKind { dif_forward, dif_inverse, dit_forward, dit_inverse, roundtrip };

// The plan's twiddle tables as the kernels read them.
struct TwiddleArgs {
  const Fr* tw;
  const Fr* lo;
  unsigned log, d;
};

PassArgs pass_args(const TwiddleArgs& tw, Fr* data, unsigned log_n, const NttPass& ps, const ScaleArgs& pre,
                   const ScaleArgs& post, const ScaleArgs& mid, const NttTap& tap = {}) {
  return PassArgs{data, tw.tw, tw.lo, tw.log, tw.d, log_n, ps.s_lo, ps.k, ps.c, ps.g, pre, post, mid, tap};
}

// One pass over data[0, 2^a.log_n) as `kind`, with a.s_lo, a.k, a.c, a.g the pass's.
Status launch_pass(const Stream& s, const PassArgs& a, PassKind kind, unsigned max_threads) {
  const unsigned K = a.k + a.c + a.g;
  const uint32_t elems = 1u << K;
  const uint32_t groups = std::max<uint32_t>(1, elems >> 1);  // butterflies per stage
  const unsigned threads = std::min<uint32_t>(groups, max_threads);
  const unsigned blocks = unsigned((uint64_t(1) << a.log_n) >> K);
  const size_t smem = size_t(elems) * sizeof(Fr);
  switch (kind) {
    case PassKind::dif_forward:
      ntt_pass_kernel<false, false><<<blocks, threads, smem, s.get()>>>(a);
      break;
    case PassKind::dif_inverse:
      ntt_pass_kernel<false, true><<<blocks, threads, smem, s.get()>>>(a);
      break;
    case PassKind::dit_forward:
      ntt_pass_kernel<true, false><<<blocks, threads, smem, s.get()>>>(a);
      break;
    case PassKind::dit_inverse:
      ntt_pass_kernel<true, true><<<blocks, threads, smem, s.get()>>>(a);
      break;
    case PassKind::roundtrip:
      ntt_roundtrip_kernel<<<blocks, threads, smem, s.get()>>>(a);
      break;
  }
  return check_launch(kind == PassKind::roundtrip ? "ntt_roundtrip_kernel" : "ntt_pass_kernel");
}

// data[0] (one element, for which every transform is the identity) ← data[0]·factor·mul[0] − sub[0].
Status pointwise_one(const Stream& s, Fr* data, const Fr& factor, const Fr* mul, const Fr* sub) {
  if (!factor.is_one()) CUZK_TRY_STATUS(scale(s, data, factor, 1));
  if (mul) CUZK_TRY_STATUS(mul_sub_scale(s, data, mul, nullptr, Fr::one(), 1));
  if (sub) CUZK_TRY_STATUS(mul_sub_scale(s, data, nullptr, sub, Fr::one(), 1));
  return Status::Ok();
}

}  // namespace

// ------------------------------------------------------------------ plan
size_t NttPlan::device_bytes_for(unsigned max_log_size, const NttTuning& tuning) {
  if (max_log_size == 0) return sizeof(Fr);
  const unsigned d = ntt_twiddle_split(max_log_size, tuning.twiddle_log);
  return ((size_t(1) << (max_log_size - 1 - d)) + (d ? size_t(1) << d : 0)) * sizeof(Fr);
}

Result<NttPlan> NttPlan::create(const Stream& s, unsigned max_log_size, RootConvention convention,
                                NttTuning tuning, DeviceCache* cache) {
  if (max_log_size > kMaxLogSize)
    return make_error("NttPlan: 2^" + std::to_string(max_log_size) + " exceeds the supported 2^" +
                      std::to_string(kMaxLogSize));
  CUZK_TRY_STATUS(check_ntt_tuning(tuning));
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  // More than 48 KiB of dynamic shared memory must be asked for per kernel. The attribute belongs
  // to the kernel, not to a plan, so it is always raised to the device's limit (never lowered to
  // one plan's need, which would break a plan with larger passes made earlier).
  int smem_limit = 0;
  CUZK_TRY_STATUS(
      check(cudaDeviceGetAttribute(&smem_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, s.device()),
            "cudaDeviceGetAttribute(shared memory)"));
  if (ntt_shared_bytes(tuning.pass_log) > size_t(smem_limit))
    return make_error("NttPlan: pass_log " + std::to_string(tuning.pass_log) + " needs " +
                      std::to_string(ntt_shared_bytes(tuning.pass_log)) +
                      " bytes of shared memory; the device allows " + std::to_string(smem_limit));
  for (const void* k : {(const void*)ntt_pass_kernel<false, false>, (const void*)ntt_pass_kernel<false, true>,
                        (const void*)ntt_pass_kernel<true, false>, (const void*)ntt_pass_kernel<true, true>,
                        (const void*)ntt_roundtrip_kernel})
    CUZK_TRY_STATUS(check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_limit),
                          "cudaFuncSetAttribute(ntt_pass_kernel)"));

  NttPlan plan;
  plan.max_log_size_ = max_log_size;
  plan.convention_ = convention;
  plan.tuning_ = tuning;
  plan.omega_max_ = domain_root(convention, max_log_size);
  const unsigned top = max_log_size ? max_log_size - 1 : 0;
  const unsigned d = ntt_twiddle_split(max_log_size, tuning.twiddle_log);
  auto tw = powers_vector(s, uint32_t(1) << (top - d), Fr::one(), square_n_times(plan.omega_max_, d), cache);
  if (!tw) return tw.error();
  plan.twiddles_ = std::move(*tw);
  if (d) {
    auto lo = powers_vector(s, uint32_t(1) << d, Fr::one(), plan.omega_max_, cache);
    if (!lo) return lo.error();
    plan.twiddles_lo_ = std::move(*lo);
  }
  return Result<NttPlan>(std::move(plan));
}

Fr NttPlan::omega(unsigned log_n) const { return square_n_times(omega_max_, max_log_size_ - log_n); }

Fr NttPlan::default_coset_shift(unsigned log_n) const {
  return cuzk::default_coset_shift(convention_, log_n);
}

Result<NttCosetPowers> NttPlan::coset_powers(const Stream& s, unsigned log_n, const Fr& shift,
                                             DeviceCache* cache, const NttCosetFactors& factors) const {
  if (log_n > max_log_size_) return make_error("NttPlan::coset_powers: size above the plan's");
  if (shift.is_zero()) return make_error("NttPlan::coset_powers: the coset shift must be nonzero");
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  NttCosetPowers cp;
  cp.log_n = log_n;
  cp.split = (log_n + 1) / 2;
  cp.shift = shift;
  const uint32_t nlo = 1u << cp.split, nhi = 1u << (log_n - cp.split);
  const Fr inv_shift = shift.inverse();
  cp.forward_factor = factors.forward.value_or(Fr::one());
  cp.inverse_factor = factors.inverse.value_or(Fr::from_u64(uint64_t(1) << log_n).inverse());
  auto lo = powers_vector(s, nlo, Fr::one(), shift, cache);
  if (!lo) return lo.error();
  auto hi = powers_vector(s, nhi, cp.forward_factor, square_n_times(shift, cp.split), cache);
  if (!hi) return hi.error();
  auto ilo = powers_vector(s, nlo, Fr::one(), inv_shift, cache);
  if (!ilo) return ilo.error();
  auto ihi = powers_vector(s, nhi, cp.inverse_factor, square_n_times(inv_shift, cp.split), cache);
  if (!ihi) return ihi.error();
  cp.lo = std::move(*lo);
  cp.hi = std::move(*hi);
  cp.inv_lo = std::move(*ilo);
  cp.inv_hi = std::move(*ihi);
  return Result<NttCosetPowers>(std::move(cp));
}

Status NttPlan::check_call(const Stream& s, const Fr* data, unsigned log_n) const {
  if (log_n > max_log_size_)
    return make_error("NTT of 2^" + std::to_string(log_n) + " on a plan of 2^" +
                      std::to_string(max_log_size_));
  if (s.device() != device()) return make_error("NTT: the stream's device is not the plan's");
  if (data == nullptr) return make_error("NTT: null data");
  return Status::Ok();
}

Status NttPlan::transform(const Stream& s, Fr* data, unsigned log_n, bool inverse, NttOrder in, NttOrder out,
                          const NttCosetPowers* coset, const Fr& inverse_factor, const Fr* pre_mul,
                          const Fr* post_sub) const {
  CUZK_TRY_STATUS(check_call(s, data, log_n));
  auto guard = DeviceGuard::enter(s.device());
  if (!guard) return guard.error();

  // DIF maps natural → bit-reversed, DIT bit-reversed → natural; a bit reversal before or after
  // covers the other two combinations.
  const bool dit = in == NttOrder::bit_reversed && out == NttOrder::natural;
  const bool rev_before = in == NttOrder::bit_reversed && out == NttOrder::bit_reversed;
  const bool rev_after = in == NttOrder::natural && out == NttOrder::natural;
  if (rev_before) CUZK_TRY_STATUS(bit_reverse(s, data, log_n));

  ScaleArgs pre, post;
  if (coset && !inverse) {
    pre = {kPowers, dit, coset->split, Fr::one(), coset->lo.data(), coset->hi.data()};
  } else if (coset && inverse) {
    post = {kPowers, !dit, coset->split, Fr::one(), coset->inv_lo.data(), coset->inv_hi.data()};
  } else if (inverse && !inverse_factor.is_one()) {
    post = {kConstant, false, 0, inverse_factor, nullptr, nullptr};
  }
  pre.mul = pre_mul;
  post.sub = post_sub;

  if (log_n == 0) {  // one element: the transform is the identity, its scaling is not
    const Fr f = !coset ? (inverse ? inverse_factor : Fr::one())
                        : (inverse ? coset->inverse_factor : coset->forward_factor);
    return pointwise_one(s, data, f, pre_mul, post_sub);
  }
  std::vector<NttPass> passes = plan_ntt_passes(log_n, tuning_);
  if (dit) std::reverse(passes.begin(), passes.end());
  const TwiddleArgs tw{twiddles_.data(), twiddles_lo_.data(), max_log_size_ - 1,
                       ntt_twiddle_split(max_log_size_, tuning_.twiddle_log)};
  const PassKind kind = dit ? (inverse ? PassKind::dit_inverse : PassKind::dit_forward)
                            : (inverse ? PassKind::dif_inverse : PassKind::dif_forward);
  for (size_t i = 0; i < passes.size(); ++i)
    CUZK_TRY_STATUS(launch_pass(s,
                                pass_args(tw, data, log_n, passes[i], i == 0 ? pre : ScaleArgs{},
                                          i + 1 == passes.size() ? post : ScaleArgs{}, {}),
                                kind, tuning_.threads));
  if (rev_after) CUZK_TRY_STATUS(bit_reverse(s, data, log_n));
  return Status::Ok();
}

Status NttPlan::to_coset(const Stream& s, Fr* data, const NttCosetPowers& g, const NttTap& tap) const {
  if (g.lo.device() != device()) return make_error("NTT: coset powers of another device");
  const unsigned log_n = g.log_n;
  CUZK_TRY_STATUS(check_call(s, data, log_n));
  if (tap.out && (tap.rows > (size_t(1) << log_n) || tap.out == data))
    return make_error("NTT: to_coset's tap takes at most 2^log_n rows, into memory of its own");
  auto guard = DeviceGuard::enter(s.device());
  if (!guard) return guard.error();
  if (log_n == 0) {
    if (tap.out && tap.rows)
      CUZK_TRY_STATUS(
          tap.multiply ? mul_sub_scale(s, tap.out, data, nullptr, Fr::one(), 1)
                       : check(cudaMemcpyAsync(tap.out, data, sizeof(Fr), cudaMemcpyDeviceToDevice, s.get()),
                               "cudaMemcpyAsync (tap)"));
    return pointwise_one(s, data, g.forward_factor, nullptr, nullptr);
  }
  // Inverse: DIF passes from the top down; forward: DIT passes from the bottom up. The bottom
  // pass of each is one round trip, with the coset's powers applied between them (the data is
  // bit-reversed there, so the powers are read at the reversed index).
  const std::vector<NttPass> passes = plan_ntt_passes(log_n, tuning_);  // top first
  const size_t last = passes.size() - 1;
  const TwiddleArgs tw{twiddles_.data(), twiddles_lo_.data(), max_log_size_ - 1,
                       ntt_twiddle_split(max_log_size_, tuning_.twiddle_log)};
  const auto run = [&](const NttPass& ps, PassKind kind, const ScaleArgs& mid) {
    const NttTap first = &ps == &passes.front() && kind != PassKind::dit_forward ? tap : NttTap{};
    return launch_pass(s, pass_args(tw, data, log_n, ps, {}, {}, mid, first), kind, tuning_.threads);
  };
  for (size_t i = 0; i < last; ++i) CUZK_TRY_STATUS(run(passes[i], PassKind::dif_inverse, {}));
  const ScaleArgs mid{kPowers, true, g.split, Fr::one(), g.lo.data(), g.hi.data()};
  CUZK_TRY_STATUS(run(passes[last], PassKind::roundtrip, mid));
  for (size_t i = last; i-- > 0;) CUZK_TRY_STATUS(run(passes[i], PassKind::dit_forward, {}));
  return Status::Ok();
}

Status NttPlan::forward(const Stream& s, Fr* data, unsigned log_n, NttOrder in, NttOrder out) const {
  return transform(s, data, log_n, false, in, out, nullptr, Fr::one());
}
Status NttPlan::inverse(const Stream& s, Fr* data, unsigned log_n, NttOrder in, NttOrder out) const {
  return transform(s, data, log_n, true, in, out, nullptr, Fr::from_u64(uint64_t(1) << log_n).inverse());
}
Status NttPlan::inverse_unscaled(const Stream& s, Fr* data, unsigned log_n, NttOrder in, NttOrder out) const {
  return transform(s, data, log_n, true, in, out, nullptr, Fr::one());
}
Status NttPlan::inverse_scaled(const Stream& s, Fr* data, unsigned log_n, const Fr& factor, NttOrder in,
                               NttOrder out) const {
  return transform(s, data, log_n, true, in, out, nullptr, factor);
}
Status NttPlan::coset_forward(const Stream& s, Fr* data, const NttCosetPowers& g, NttOrder in,
                              NttOrder out) const {
  if (g.lo.device() != device()) return make_error("NTT: coset powers of another device");
  return transform(s, data, g.log_n, false, in, out, &g, Fr::one());
}
Status NttPlan::coset_inverse(const Stream& s, Fr* data, const NttCosetPowers& g, NttOrder in,
                              NttOrder out) const {
  if (g.lo.device() != device()) return make_error("NTT: coset powers of another device");
  return transform(s, data, g.log_n, true, in, out, &g, Fr::one());
}
Status NttPlan::coset_inverse_of_product(const Stream& s, Fr* data, const Fr* b, const Fr* sub,
                                         const NttCosetPowers& g, NttOrder in, NttOrder out) const {
  if (g.lo.device() != device()) return make_error("NTT: coset powers of another device");
  // b is read in the first pass and sub in the last, at the data's own positions there: a bit
  // reversal before or after would put them in the other order.
  if (in == out)
    return make_error("NTT: coset_inverse_of_product takes no reversal (in and out orders must differ)");
  return transform(s, data, g.log_n, true, in, out, &g, Fr::one(), b, sub);
}

// ------------------------------------------------------------------ free functions
Status bit_reverse(const Stream& s, Fr* data, unsigned log_n) {
  if (log_n < 2) return Status::Ok();
  if (log_n > 31) return make_error("bit_reverse: size above 2^31");
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  if (log_n >= 2 * kTileLog) {
    bit_reverse_tiles_kernel<<<1u << (log_n - 2 * kTileLog), kTile * kTile, 0, s.get()>>>(data, log_n);
    return check_launch("bit_reverse_tiles_kernel");
  }
  const uint32_t n = uint32_t(uint64_t(1) << log_n);
  constexpr unsigned block = 256;
  bit_reverse_kernel<<<grid_for(n, block), block, 0, s.get()>>>(data, n, log_n);
  return check_launch("bit_reverse_kernel");
}

}  // namespace cuzk::cuda
