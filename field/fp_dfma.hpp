// Fp in eight 48-bit limbs held in doubles, multiplied on the FP64 pipe (device only).
//
// Why: the field code of mont.hpp keeps Hopper's IMAD pipe full (a multiplication is 588 IMAD,
// 95 % of that pipe's ceiling), while the FP64 pipe, as wide (64 fused multiply-adds per clock per
// SM on the H200), does nothing. This representation puts the limb products there instead.
//
// The value: x = Σ l[j]·2^(48j), 0 ≤ l[j] < 2^48, each limb an integer held exactly in a double,
// in Montgomery form with R = 2^384: the same R as Fp's, so converting to and from Fp only re-cuts
// the bits (48 × 8 = 64 × 6 = 384) and multiplies nothing.
//
// One limb product a·b < 2^96 comes out of two roundings-toward-zero (Emmart, Zheng and Weems,
// "Faster modular exponentiation using double precision floating point arithmetic on the GPU",
// ARITH 2018):
//   h = fma_rz(a, b, 2^100)         = 2^100 + H·2^48,  H = ⌊ab / 2^48⌋ (the ulp at 2^100 is 2^48)
//   l = fma_rz(a, b, (2^100 + 2^52) − h) = 2^52 + L,   L = ab − H·2^48 (exact: it fits the ulp of 1)
// so the bit patterns of h and l are the integers EH + H and EL + L, with EH and EL the exponent
// fields of 2^100 and 2^52, both multiples of 2^52. Columns are summed as 64-bit integers; each
// column starts at minus the exponent fields it will receive, so its low 48 bits are right at every
// step and the whole column is right once its last term is in.
//
// Multiplication is word-by-word Montgomery in base 2^48: the 64 products of a·b, then for each
// limb i: m = (t_i · −p⁻¹) mod 2^48 (on the integer pipe, idle here) and t += m·p·2^(48i), 64 more
// products. Inputs below 2p give an output below 2p (4p < 2^384); mul reduces it below p.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/fields.hpp"

#if defined(__CUDACC__)

namespace cuzk::field {

struct FpDfma {
  static constexpr int L = 8;   // limbs
  static constexpr int W = 48;  // bits a limb
  static constexpr uint64_t kMask = (uint64_t(1) << W) - 1;
  // Exponent fields of 2^100 and 2^52: the bits of h and l above their 52-bit mantissas.
  static constexpr uint64_t kEH = uint64_t(1023 + 100) << 52;
  static constexpr uint64_t kEL = uint64_t(1023 + 52) << 52;

  double l[L];

  // Bits [48j, 48j + 48) of p, and −p⁻¹ mod 2^48.
  __host__ __device__ static constexpr uint64_t mod48(int j) {
    const int bit = W * j, i = bit / 64, s = bit % 64;
    uint64_t w = FpParams::mod(size_t(i)) >> s;
    if (s + W > 64) w |= FpParams::mod(size_t(i + 1)) << (64 - s);
    return w & kMask;
  }
  static constexpr uint64_t kM0 = FpParams::M0 & kMask;

  // ----------------------------------------------------------- conversions
  // A 48-bit integer as a double: its bits under 2^52's exponent are 2^52 + v, then one exact add.
  __device__ static __forceinline__ double to_double(uint64_t v) {
    return __dsub_rn(__longlong_as_double(static_cast<long long>(kEL | v)), 0x1p52);
  }
  __device__ static __forceinline__ uint64_t to_bits48(double d) {
    return static_cast<uint64_t>(__double_as_longlong(__dadd_rn(d, 0x1p52))) & kMask;
  }

  __device__ static __forceinline__ FpDfma from(const Fp& x) {
    FpDfma r;
#pragma unroll
    for (int j = 0; j < L; ++j) r.l[j] = to_double(cut48(x.l, j));
    return r;
  }
  // The Fp with the same Montgomery value (this must be below p: see reduce()).
  __device__ __forceinline__ Fp to_fp() const {
    uint64_t v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) v[j] = to_bits48(l[j]);
    Fp r;
#pragma unroll
    for (int i = 0; i < 6; ++i) {
      // Limb i starts in v[j] at bit s (0, 16 or 32), so v[j] and v[j + 1] cover its 64 bits.
      const int bit = 64 * i, j = bit / W, s = bit % W;
      r.l[i] = (v[j] >> s) | (v[j + 1] << (W - s));
    }
    return r;
  }

  // --------------------------------------------------------- multiplication
  // a·b·2^-384 mod p, below p for inputs below 2p.
  __device__ static __forceinline__ FpDfma mul(const FpDfma& a, const FpDfma& b) {
    uint64_t r[L];
    mont_product(r, a, b);
    subtract_p_if_above(r);
    return from_limbs(r);
  }
  // The same below 2p, without the final subtraction (inputs below 2p).
  __device__ static __forceinline__ FpDfma mul_lazy(const FpDfma& a, const FpDfma& b) {
    uint64_t r[L];
    mont_product(r, a, b);
    return from_limbs(r);
  }

 private:
  static constexpr double kC1 = 0x1p100;
  static constexpr double kC2 = 0x1p100 + 0x1p52;

  __host__ __device__ static constexpr uint64_t cut48(const uint64_t* v, int j) {
    const int bit = W * j, i = bit / 64, s = bit % 64;
    uint64_t w = v[i] >> s;
    if (s + W > 64) w |= v[i + 1] << (64 - s);
    return w & kMask;
  }

  // How many h and l terms column c receives in a whole multiplication: the 64 products of a·b put
  // l in column i+k and h in i+k+1; step i of the reduction puts l in i..i+7 and h in i+1..i+8.
  // Each pair (i, k) with i + k = c counts twice: once in a·b, once in m_i·p_k.
  __host__ __device__ static constexpr uint64_t pairs_summing_to(int c) {
    return c < 0 || c > 2 * L - 2 ? 0 : c < L ? uint64_t(c + 1) : uint64_t(2 * L - 1 - c);
  }
  __host__ __device__ static constexpr uint64_t column_bias(int c) {
    return 2 * pairs_summing_to(c) * kEL + 2 * pairs_summing_to(c - 1) * kEH;
  }

  __device__ static __forceinline__ void add_product(uint64_t (&t)[2 * L], int c, double x, double y) {
    const double h = __fma_rz(x, y, kC1);
    const double lo = __fma_rz(x, y, __dsub_rn(kC2, h));
    t[c] += static_cast<uint64_t>(__double_as_longlong(lo));
    t[c + 1] += static_cast<uint64_t>(__double_as_longlong(h));
  }

  // r = a·b·2^-384 (mod p), below 2p, in 48-bit integer limbs.
  __device__ static __forceinline__ void mont_product(uint64_t (&r)[L], const FpDfma& a, const FpDfma& b) {
    uint64_t t[2 * L];
#pragma unroll
    for (int c = 0; c < 2 * L; ++c) t[c] = uint64_t(0) - column_bias(c);
#pragma unroll
    for (int i = 0; i < L; ++i)
#pragma unroll
      for (int k = 0; k < L; ++k) add_product(t, i + k, a.l[i], b.l[k]);
#pragma unroll
    for (int i = 0; i < L; ++i) {
      if (i > 0) t[i] += t[i - 1] >> W;  // column i−1 is complete and ≡ 0 mod 2^48
      const uint64_t m = ((t[i] & kMask) * kM0) & kMask;
      const double md = to_double(m);
#pragma unroll
      for (int k = 0; k < L; ++k) add_product(t, i + k, md, double(mod48(k)));
    }
    uint64_t carry = t[L - 1] >> W;
#pragma unroll
    for (int j = 0; j < L; ++j) {
      const uint64_t v = t[L + j] + carry;
      r[j] = v & kMask;
      carry = v >> W;
    }
  }

  __device__ static __forceinline__ void subtract_p_if_above(uint64_t (&r)[L]) {
    uint64_t s[L];
    int64_t borrow = 0;
#pragma unroll
    for (int j = 0; j < L; ++j) {
      const int64_t d = int64_t(r[j]) - int64_t(mod48(j)) - borrow;
      s[j] = uint64_t(d) & kMask;
      borrow = int64_t(uint64_t(d) >> 63);
    }
    if (borrow == 0) {
#pragma unroll
      for (int j = 0; j < L; ++j) r[j] = s[j];
    }
  }

  __device__ static __forceinline__ FpDfma from_limbs(const uint64_t (&r)[L]) {
    FpDfma x;
#pragma unroll
    for (int j = 0; j < L; ++j) x.l[j] = to_double(r[j]);
    return x;
  }
};

}  // namespace cuzk::field

#endif  // __CUDACC__
