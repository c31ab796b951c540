// A prime field in Montgomery form: one template for the host and for CUDA devices.
//
// Storage is N little-endian 64-bit limbs, always fully reduced (< modulus), so equality is a
// limb compare and the memory image is the one blst and sppark use. The host multiplies with
// 64-bit limbs (CIOS, 128-bit products); the device reinterprets the same bytes as 2N 32-bit
// limbs and multiplies with PTX carry chains (mad.lo.cc / madc.hi.cc), because 32x32-bit
// multiply-add is the GPU's native integer rate.
//
// Every device asm statement is volatile: the carry flag that links one statement of a chain to
// the next is invisible to the compiler, and a non-volatile statement without register inputs
// (`subc.u32 %0, 0, 0`, reading the final borrow) may be hoisted above the chain it ends, which
// was seen on an H200. Volatile keeps their order; ptxas still schedules the rest freely.
//
// Both moduli of BLS12-381 leave the top limb's high bit clear, which lets CIOS skip the extra
// carry word ("no-carry" CIOS): the running sum stays below 2*modulus < 2^(64N).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "field/hd.hpp"
#include "field/mont_x86_64.hpp"

namespace cuzk::field {

template <class P>
class mont_t {
 public:
  using params = P;
  static constexpr size_t N = P::N;        // 64-bit limbs
  static constexpr size_t N32 = 2 * P::N;  // 32-bit limbs (device view)
  static constexpr size_t BYTES = 8 * P::N;
  static constexpr size_t BITS = P::BITS;

  uint64_t l[N];

  // ---------------------------------------------------------------- constants
  CUZK_HD static constexpr mont_t zero() {
    mont_t r{};
    return r;
  }
  CUZK_HD static constexpr mont_t one() {
    mont_t r{};
    for (size_t i = 0; i < N; ++i) r.l[i] = P::one(i);
    return r;
  }
  CUZK_HD static constexpr mont_t modulus_limbs() {  // raw p, not a field element
    mont_t r{};
    for (size_t i = 0; i < N; ++i) r.l[i] = P::mod(i);
    return r;
  }

  // ----------------------------------------------------------- conversions
  // From a canonical integer (< modulus, little-endian 64-bit limbs) into Montgomery form.
  CUZK_HD static mont_t from_canonical(const uint64_t (&v)[N]) {
    mont_t a, rr;
    for (size_t i = 0; i < N; ++i) {
      a.l[i] = v[i];
      rr.l[i] = P::rr(i);
    }
    return a * rr;
  }
  CUZK_HD static mont_t from_u64(uint64_t x) {
    uint64_t v[N] = {};
    v[0] = x;
    // x may exceed a tiny modulus in theory; both moduli here are far larger than 2^64.
    return from_canonical(v);
  }
  // Back to the canonical integer: multiply by 1 (a Montgomery reduction).
  CUZK_HD void to_canonical(uint64_t (&out)[N]) const {
    mont_t one_raw{};
    one_raw.l[0] = 1;
    mont_t r = *this * one_raw;
    for (size_t i = 0; i < N; ++i) out[i] = r.l[i];
  }
  // True when v < modulus.
  CUZK_HD static bool is_canonical(const uint64_t (&v)[N]) {
    for (size_t i = N; i-- > 0;) {
      if (v[i] != P::mod(i)) return v[i] < P::mod(i);
    }
    return false;  // equal to the modulus
  }

  // Canonical bytes. Big-endian is the ZCash/IETF encoding; little-endian is snarkjs's.
  // The readers return false (and leave *this untouched) on a value >= modulus.
  void to_bytes_be(uint8_t* out) const {
    uint64_t v[N];
    to_canonical(v);
    for (size_t i = 0; i < N; ++i)
      for (size_t b = 0; b < 8; ++b) out[BYTES - 1 - (8 * i + b)] = uint8_t(v[i] >> (8 * b));
  }
  void to_bytes_le(uint8_t* out) const {
    uint64_t v[N];
    to_canonical(v);
    for (size_t i = 0; i < N; ++i)
      for (size_t b = 0; b < 8; ++b) out[8 * i + b] = uint8_t(v[i] >> (8 * b));
  }
  bool from_bytes_be(const uint8_t* in) {
    uint64_t v[N] = {};
    for (size_t i = 0; i < N; ++i)
      for (size_t b = 0; b < 8; ++b) v[i] |= uint64_t(in[BYTES - 1 - (8 * i + b)]) << (8 * b);
    if (!is_canonical(v)) return false;
    *this = from_canonical(v);
    return true;
  }
  bool from_bytes_le(const uint8_t* in) {
    uint64_t v[N] = {};
    for (size_t i = 0; i < N; ++i)
      for (size_t b = 0; b < 8; ++b) v[i] |= uint64_t(in[8 * i + b]) << (8 * b);
    if (!is_canonical(v)) return false;
    *this = from_canonical(v);
    return true;
  }

  // ------------------------------------------------------------ predicates
  CUZK_HD bool is_zero() const {
    uint64_t acc = 0;
    for (size_t i = 0; i < N; ++i) acc |= l[i];
    return acc == 0;
  }
  CUZK_HD bool is_one() const { return *this == one(); }
  CUZK_HD friend bool operator==(const mont_t& a, const mont_t& b) {
    uint64_t acc = 0;
    for (size_t i = 0; i < N; ++i) acc |= a.l[i] ^ b.l[i];
    return acc == 0;
  }
  CUZK_HD friend bool operator!=(const mont_t& a, const mont_t& b) { return !(a == b); }

  // ------------------------------------------------------------ arithmetic
  CUZK_HD friend mont_t operator+(const mont_t& a, const mont_t& b) {
    mont_t r;
    add_mod(r, a, b);
    return r;
  }
  CUZK_HD friend mont_t operator-(const mont_t& a, const mont_t& b) {
    mont_t r;
    sub_mod(r, a, b);
    return r;
  }
  CUZK_HD mont_t operator-() const {
    mont_t r;
    sub_mod(r, zero(), *this);
    return r;
  }
  CUZK_HD friend mont_t operator*(const mont_t& a, const mont_t& b) {
    mont_t r;
#if CUZK_DEVICE_CODE && defined(CUZK_DEVICE_MUL_NOINLINE)
    mul_mont_call(r, a, b);
#else
    mul_mont(r, a, b);
#endif
    return r;
  }
  CUZK_HD mont_t& operator+=(const mont_t& b) { return *this = *this + b; }
  CUZK_HD mont_t& operator-=(const mont_t& b) { return *this = *this - b; }
  CUZK_HD mont_t& operator*=(const mont_t& b) { return *this = *this * b; }
  CUZK_HD mont_t sqr() const {
    mont_t r;
#if CUZK_DEVICE_CODE && defined(CUZK_DEVICE_MUL_NOINLINE)
    sqr_mont_call(r, *this);
#else
    sqr_mont(r, *this);
#endif
    return r;
  }
  CUZK_HD mont_t dbl() const { return *this + *this; }
  // a·b − c·d; on the device with one reduction instead of two (the products stay wide).
  // CUZK_DEVICE_PLAIN_MUL_SUB keeps the two reductions (a benchmark's baseline).
  CUZK_HD static mont_t mul_sub(const mont_t& a, const mont_t& b, const mont_t& c, const mont_t& d) {
#if CUZK_DEVICE_CODE && !defined(CUZK_DEVICE_PLAIN_MUL_SUB)
    mont_t r;
#if defined(CUZK_DEVICE_MUL_NOINLINE)
    mul_sub_call(r, a, b, c, d);
#else
    mul_sub_mont(r, a, b, c, d);
#endif
    return r;
#else
    return a * b - c * d;
#endif
  }

  // a^e for an exponent of `n` little-endian 64-bit limbs, left-to-right square-and-multiply.
  CUZK_HD mont_t pow(const uint64_t* e, size_t n) const {
    mont_t r = one();
    for (size_t i = n; i-- > 0;)
      for (int b = 63; b >= 0; --b) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r *= *this;
      }
    return r;
  }
  CUZK_HD mont_t pow(uint64_t e) const { return pow(&e, 1); }

  // a^(p-2): Fermat inverse. Zero maps to zero; callers that care check is_zero() first.
  CUZK_HD mont_t inverse() const {
    uint64_t e[N];
    uint64_t borrow = 2;
    for (size_t i = 0; i < N; ++i) {
      uint64_t m = P::mod(i);
      e[i] = m - borrow;
      borrow = m < borrow ? 1 : 0;
    }
    return pow(e, N);
  }

 private:
  // ---------------------------------------------------------- limb kernels
  // r = a + b mod p, inputs fully reduced.
  CUZK_HD static void add_mod(mont_t& r, const mont_t& a, const mont_t& b) {
#if CUZK_DEVICE_CODE
    const uint32_t* x = reinterpret_cast<const uint32_t*>(a.l);
    const uint32_t* y = reinterpret_cast<const uint32_t*>(b.l);
    uint32_t s[N32], t[N32];
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(x[0]), "r"(y[0]));
#pragma unroll
    for (size_t i = 1; i < N32; ++i)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s[i]) : "r"(x[i]), "r"(y[i]));
    // s < 2p < 2^(32*N32): no carry out. Now t = s - p; keep s if that borrows.
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(s[0]), "r"(mod32(0)));
#pragma unroll
    for (size_t i = 1; i < N32; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(s[i]), "r"(mod32(i)));
    uint32_t borrow;
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    uint32_t* out = reinterpret_cast<uint32_t*>(r.l);
#pragma unroll
    for (size_t i = 0; i < N32; ++i) out[i] = borrow ? s[i] : t[i];
#elif CUZK_FIELD_X86_64_ASM
    // add/adc and sub/sbb chains through the carry intrinsics, then cmov: GCC turns the
    // __int128 loop below into a much slower sequence (measured 3-4x).
    uint64_t s[N], t[N];
    unsigned char carry = 0, borrow = 0;
    for (size_t i = 0; i < N; ++i) carry = _addcarry_u64(carry, a.l[i], b.l[i], as_ull(s[i]));
    for (size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, s[i], P::mod(i), as_ull(t[i]));
    // Select with masks: the borrow is a coin flip, and GCC compiles a ?: here into a branch.
    const uint64_t keep_s = 0 - uint64_t(borrow);
    for (size_t i = 0; i < N; ++i) r.l[i] = (s[i] & keep_s) | (t[i] & ~keep_s);
#else
    uint64_t s[N], t[N];
    unsigned __int128 c = 0;
    for (size_t i = 0; i < N; ++i) {
      c += (unsigned __int128)a.l[i] + b.l[i];
      s[i] = uint64_t(c);
      c >>= 64;
    }
    select_reduced(r, s, t);
#endif
  }

  // r = a - b mod p.
  CUZK_HD static void sub_mod(mont_t& r, const mont_t& a, const mont_t& b) {
#if CUZK_DEVICE_CODE
    const uint32_t* x = reinterpret_cast<const uint32_t*>(a.l);
    const uint32_t* y = reinterpret_cast<const uint32_t*>(b.l);
    uint32_t d[N32];
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d[0]) : "r"(x[0]), "r"(y[0]));
#pragma unroll
    for (size_t i = 1; i < N32; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d[i]) : "r"(x[i]), "r"(y[i]));
    uint32_t mask;
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(mask));  // 0xffffffff on borrow
    uint32_t* out = reinterpret_cast<uint32_t*>(r.l);
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(out[0]) : "r"(d[0]), "r"(mod32(0) & mask));
#pragma unroll
    for (size_t i = 1; i < N32; ++i)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(out[i]) : "r"(d[i]), "r"(mod32(i) & mask));
#elif CUZK_FIELD_X86_64_ASM
    uint64_t d[N];
    unsigned char borrow = 0, carry = 0;
    for (size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, a.l[i], b.l[i], as_ull(d[i]));
    const uint64_t mask = 0 - uint64_t(borrow);  // add p back on a borrow, without a branch
    for (size_t i = 0; i < N; ++i) carry = _addcarry_u64(carry, d[i], P::mod(i) & mask, as_ull(r.l[i]));
#else
    uint64_t d[N];
    uint64_t borrow = 0;
    for (size_t i = 0; i < N; ++i) {
      unsigned __int128 t = (unsigned __int128)a.l[i] - b.l[i] - borrow;
      d[i] = uint64_t(t);
      borrow = uint64_t(t >> 64) & 1;
    }
    const uint64_t mask = 0 - borrow;
    unsigned __int128 c = 0;
    for (size_t i = 0; i < N; ++i) {
      c += (unsigned __int128)d[i] + (P::mod(i) & mask);
      r.l[i] = uint64_t(c);
      c >>= 64;
    }
#endif
  }

#if CUZK_FIELD_X86_64_ASM
  // The carry intrinsics take unsigned long long*, which is uint64_t's twin on LP64 Linux.
  static unsigned long long* as_ull(uint64_t& x) {
    static_assert(sizeof(unsigned long long) == sizeof(uint64_t));
    return reinterpret_cast<unsigned long long*>(&x);
  }
#endif
#if !CUZK_DEVICE_CODE
  // r = s >= p ? s - p : s, with s < 2p. t is scratch.
  static inline void select_reduced(mont_t& r, const uint64_t (&s)[N], uint64_t (&t)[N]) {
    uint64_t borrow = 0;
    for (size_t i = 0; i < N; ++i) {
      unsigned __int128 d = (unsigned __int128)s[i] - P::mod(i) - borrow;
      t[i] = uint64_t(d);
      borrow = uint64_t(d >> 64) & 1;
    }
    const uint64_t keep = 0 - borrow;  // all ones when s < p
    for (size_t i = 0; i < N; ++i) r.l[i] = (s[i] & keep) | (t[i] & ~keep);
  }
#endif

#if CUZK_DEVICE_CODE
  __device__ static constexpr uint32_t mod32(size_t i) { return uint32_t(P::mod(i / 2) >> (32 * (i % 2))); }
  // Row step of CIOS on 32-bit limbs: acc[0..N32+1] += x[0..N32-1] * y, as two carry chains
  // (the low halves of the products, then the high halves shifted by one limb).
  __device__ static __forceinline__ void mad_row(uint32_t (&acc)[N32 + 2], const uint32_t* x, uint32_t y) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(x[0]), "r"(y));
#pragma unroll
    for (size_t j = 1; j < N32; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(x[j]), "r"(y));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(acc[N32]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[N32 + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(x[0]), "r"(y));
#pragma unroll
    for (size_t j = 1; j < N32; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(x[j]), "r"(y));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[N32 + 1]));
  }
  // r = acc >= p ? acc - p : acc, for acc < 2p held in the first N32 limbs.
  template <size_t M>
  __device__ static __forceinline__ void final_sub(mont_t& r, const uint32_t (&acc)[M]) {
    static_assert(M >= N32);
    uint32_t t[N32];
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(acc[0]), "r"(mod32(0)));
#pragma unroll
    for (size_t i = 1; i < N32; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(acc[i]), "r"(mod32(i)));
    uint32_t borrow;
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    uint32_t* out = reinterpret_cast<uint32_t*>(r.l);
#pragma unroll
    for (size_t i = 0; i < N32; ++i) out[i] = borrow ? acc[i] : t[i];
  }
  __device__ static __forceinline__ void mad_row_mod(uint32_t (&acc)[N32 + 2], uint32_t y) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(mod32(0)), "r"(y));
#pragma unroll
    for (size_t j = 1; j < N32; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(mod32(j)), "r"(y));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(acc[N32]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[N32 + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(mod32(0)), "r"(y));
#pragma unroll
    for (size_t j = 1; j < N32; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(mod32(j)), "r"(y));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[N32 + 1]));
  }
#endif

#if CUZK_DEVICE_CODE && defined(CUZK_DEVICE_MUL_NOINLINE)
  // A translation unit that defines CUZK_DEVICE_MUL_NOINLINE gets its device multiplications as
  // calls instead of inlined copies: slower kernels, but a G2 formula then compiles in seconds
  // rather than minutes. Meant for correctness-test kernels only, never for fast paths.
 public:
  __device__ __noinline__ static void mul_mont_call(mont_t& r, const mont_t& a, const mont_t& b) {
    mul_mont(r, a, b);
  }
  __device__ __noinline__ static void sqr_mont_call(mont_t& r, const mont_t& a) { sqr_mont(r, a); }
  __device__ __noinline__ static void mul_sub_call(mont_t& r, const mont_t& a, const mont_t& b,
                                                   const mont_t& c, const mont_t& d) {
    mul_sub_mont(r, a, b, c, d);
  }
  __device__ __noinline__ static void mul_sub_fp2_call(mont_t& r0, mont_t& r1, const mont_t& a0,
                                                       const mont_t& a1, const mont_t& b0, const mont_t& b1,
                                                       const mont_t& c0, const mont_t& c1, const mont_t& d0,
                                                       const mont_t& d1) {
    mul_sub_fp2(r0, r1, a0, a1, b0, b1, c0, c1, d0, d1);
  }
  __device__ __noinline__ static void mul_fp2_call(mont_t& r0, mont_t& r1, const mont_t& a0, const mont_t& a1,
                                                   const mont_t& b0, const mont_t& b1) {
    mul_fp2(r0, r1, a0, a1, b0, b1);
  }
#endif

#if CUZK_DEVICE_CODE
 public:
  // Row-by-row CIOS: each row's multiply-adds form one carry chain over the accumulator. The
  // first device multiplication; kept for comparison in the throughput benchmark. ptxas splits
  // every madc into an IMAD plus an IADD3.X for the carry (1296 SASS instructions per Fp mul).
  __device__ static __forceinline__ void mul_mont_rows(mont_t& r, const mont_t& a, const mont_t& b) {
    const uint32_t* x = reinterpret_cast<const uint32_t*>(a.l);
    const uint32_t* y = reinterpret_cast<const uint32_t*>(b.l);
    constexpr uint32_t m0 = uint32_t(P::M0);  // -p^-1 mod 2^32
    uint32_t acc[N32 + 2];
#pragma unroll
    for (size_t j = 0; j < N32 + 2; ++j) acc[j] = 0;
#pragma unroll
    for (size_t i = 0; i < N32; ++i) {
      mad_row(acc, x, y[i]);
      const uint32_t m = acc[0] * m0;
      mad_row_mod(acc, m);  // acc[0] becomes 0
#pragma unroll
      for (size_t j = 0; j < N32 + 1; ++j) acc[j] = acc[j + 1];
      acc[N32 + 1] = 0;
    }
    final_sub(r, acc);
  }

 private:
  // Even/odd CIOS. The products x_k * y_i with k even land on limb pairs (k, k+1) that do not
  // overlap, as do those with k odd on (k, k+1) shifted by one; so each row keeps two accumulators,
  // E (even k) and O (odd k, stored one limb down), and each lo/hi pair of one product is adjacent
  // in its chain. ptxas can then issue a pair as one 64-bit IMAD.WIDE with carry, instead of two
  // IMADs plus two IADD3.X. After the reduction E[0] = 0, and the next row's accumulator is
  // (E >> 32) + O: one add chain per row. Bounds (no-carry CIOS): the running value stays < 2p,
  // E fits N32 + 1 limbs and O fits N32, so no further carry words are needed.
  __device__ static __forceinline__ void mul_mont_eo(mont_t& r, const mont_t& a, const mont_t& b) {
    static_assert(N32 % 2 == 0);
    const uint32_t* x = reinterpret_cast<const uint32_t*>(a.l);
    const uint32_t* y = reinterpret_cast<const uint32_t*>(b.l);
    constexpr uint32_t m0 = uint32_t(P::M0);
    uint32_t E[N32 + 1], O[N32];
#pragma unroll
    for (size_t j = 0; j < N32 + 1; ++j) E[j] = 0;
#pragma unroll
    for (size_t i = 0; i < N32; ++i) {
      const uint32_t bi = y[i];
      // E += x_even * bi
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[0]) : "r"(x[0]), "r"(bi));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[1]) : "r"(x[0]), "r"(bi));
#pragma unroll
      for (size_t k = 2; k < N32; k += 2) {
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[k]) : "r"(x[k]), "r"(bi));
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[k + 1]) : "r"(x[k]), "r"(bi));
      }
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(E[N32]));
      // O = x_odd * bi: disjoint 64-bit products, no carries.
#pragma unroll
      for (size_t k = 1; k < N32; k += 2) {
        asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(O[k - 1]) : "r"(x[k]), "r"(bi));
        asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(O[k]) : "r"(x[k]), "r"(bi));
      }
      const uint32_t m = E[0] * m0;
      // E += p_even * m (E[0] becomes 0), O += p_odd * m.
      reduce_even(E, m);
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(O[0]) : "r"(mod32(1)), "r"(m));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(O[1]) : "r"(mod32(1)), "r"(m));
#pragma unroll
      for (size_t k = 3; k < N32; k += 2) {
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(O[k - 1]) : "r"(mod32(k)), "r"(m));
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(O[k]) : "r"(mod32(k)), "r"(m));
      }
      // E = (E >> 32) + O; the result is < 2p < 2^(32 N32), so nothing carries past limb N32-1.
      shift_add(E, O);
    }
    final_sub(r, E);
  }

  // One reduction row's even half: E += (p_0, p_2, ...)·m at limbs 0, 2, ... (E[0] becomes 0 for
  // m = E[0]·m0), the carry into E[N32].
  __device__ static __forceinline__ void reduce_even(uint32_t (&E)[N32 + 1], uint32_t m) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[0]) : "r"(mod32(0)), "r"(m));
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[1]) : "r"(mod32(0)), "r"(m));
#pragma unroll
    for (size_t k = 2; k < N32; k += 2) {
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[k]) : "r"(mod32(k)), "r"(m));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[k + 1]) : "r"(mod32(k)), "r"(m));
    }
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(E[N32]));
  }

  // The row's end: E = (E >> 32) + O, where O holds the odd products one limb down; below
  // 2^(32 N32), so nothing carries past limb N32 - 1.
  __device__ static __forceinline__ void shift_add(uint32_t (&E)[N32 + 1], const uint32_t (&O)[N32]) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(E[0]) : "r"(E[1]), "r"(O[0]));
#pragma unroll
    for (size_t k = 1; k < N32 - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(E[k]) : "r"(E[k + 1]), "r"(O[k]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(E[N32 - 1]) : "r"(E[N32]), "r"(O[N32 - 1]));
    E[N32] = 0;
  }

  // acc += x_i · (y_j0, y_j0+2, ...) at limb i + j, one carry chain, each lo/hi pair adjacent (one
  // IMAD.WIDE); the chain's carry lands one limb above its top. Callers keep two arrays, Ev for
  // products that start at an even limb and Od for odd, and run rows in increasing i: a limb above
  // a chain's top then holds at most earlier chains' carries, so the carry cannot overflow it
  // (checked on a model of these instruction sequences over random and all-ones limbs:
  // tools/mont_eo_model.py).
  __device__ static __forceinline__ void product_chain(uint32_t (&acc)[2 * N32 + 1], const uint32_t* x,
                                                       const uint32_t* y, size_t i, size_t j0) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j0]) : "r"(x[i]), "r"(y[j0]));
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j0 + 1]) : "r"(x[i]), "r"(y[j0]));
    size_t j = j0 + 2;
#pragma unroll
    for (; j < N32; j += 2) {
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j]) : "r"(x[i]), "r"(y[j]));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j + 1]) : "r"(x[i]), "r"(y[j]));
    }
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[i + j]));
  }

  // T = Ev + Od over limbs 0 .. 2 N32 - 1 (the sum is below 2^(64 N32)).
  __device__ static __forceinline__ void sum_halves(uint32_t (&T)[2 * N32], const uint32_t (&Ev)[2 * N32 + 1],
                                                    const uint32_t (&Od)[2 * N32 + 1]) {
    T[0] = Ev[0];
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(T[1]) : "r"(Ev[1]), "r"(Od[1]));
#pragma unroll
    for (size_t k = 2; k < 2 * N32 - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(T[k]) : "r"(Ev[k]), "r"(Od[k]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(T[2 * N32 - 1]) : "r"(Ev[2 * N32 - 1]), "r"(Od[2 * N32 - 1]));
  }

  // Row i of x·y into the even/odd arrays: x_i times the even limbs of y into the array of i's
  // parity, times the odd limbs into the other.
  __device__ static __forceinline__ void product_row(uint32_t (&Ev)[2 * N32 + 1], uint32_t (&Od)[2 * N32 + 1],
                                                     const uint32_t* x, const uint32_t* y, size_t i) {
    product_chain(i % 2 == 0 ? Ev : Od, x, y, i, 0);
    product_chain(i % 2 == 0 ? Od : Ev, x, y, i, 1);
  }

 public:
  // Σ_k a_k·b_k over K pairs, 2 N32 limbs wide (the sum below 2^(64 N32)): the rows of all products
  // interleave into one pair of arrays, so a chain's carry still lands on a limb that holds only
  // carries.
  template <size_t K>
  __device__ static __forceinline__ void dot_wide(uint32_t (&T)[2 * N32], const mont_t* const (&a)[K],
                                                  const mont_t* const (&b)[K]) {
    uint32_t Ev[2 * N32 + 1], Od[2 * N32 + 1];
#pragma unroll
    for (size_t k = 0; k < 2 * N32 + 1; ++k) Ev[k] = Od[k] = 0;
#pragma unroll
    for (size_t i = 0; i < N32; ++i)
#pragma unroll
      for (size_t k = 0; k < K; ++k)
        product_row(Ev, Od, reinterpret_cast<const uint32_t*>(a[k]->l),
                    reinterpret_cast<const uint32_t*>(b[k]->l), i);
    sum_halves(T, Ev, Od);
  }

  // The full 2 N32-limb product a·b, no reduction.
  __device__ static __forceinline__ void mul_wide(uint32_t (&T)[2 * N32], const mont_t& a, const mont_t& b) {
    const mont_t* const x[1] = {&a};
    const mont_t* const y[1] = {&b};
    dot_wide<1>(T, x, y);
  }

  // a·b + c·d, 2 N32 limbs wide.
  __device__ static __forceinline__ void mul_add_wide(uint32_t (&T)[2 * N32], const mont_t& a,
                                                      const mont_t& b, const mont_t& c, const mont_t& d) {
    const mont_t* const x[2] = {&a, &c};
    const mont_t* const y[2] = {&b, &d};
    dot_wide<2>(T, x, y);
  }

  // r = a·b − c·d with one reduction: a·b + c·(p − d) < 2p² < p·R, then redc_wide.
  __device__ static __forceinline__ void mul_sub_mont(mont_t& r, const mont_t& a, const mont_t& b,
                                                      const mont_t& c, const mont_t& d) {
    uint32_t T[2 * N32];
    mul_add_wide(T, a, b, c, -d);
    redc_wide(r, T);
  }

  // r = T·R^-1 mod p for T < p·R: the low half reduced by mul_mont_eo's rows without the x·b_i
  // products, then the high half added (REDC(lo) + hi == REDC(T): the multipliers depend on the
  // low limbs only); (T + M p) / R < 2p, and one subtraction ends below p.
  __device__ static __forceinline__ void redc_wide(mont_t& r, const uint32_t (&T)[2 * N32]) {
    constexpr size_t n = N32;
    constexpr uint32_t m0 = uint32_t(P::M0);
    uint32_t E[n + 1], O[n];
#pragma unroll
    for (size_t k = 0; k < n; ++k) E[k] = T[k];
    E[n] = 0;
#pragma unroll
    for (size_t i = 0; i < n; ++i) {
      const uint32_t m = E[0] * m0;
      reduce_even(E, m);
#pragma unroll
      for (size_t k = 1; k < n; k += 2) {
        asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(O[k - 1]) : "r"(mod32(k)), "r"(m));
        asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(O[k]) : "r"(mod32(k)), "r"(m));
      }
      shift_add(E, O);
    }
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(E[0]) : "r"(T[n]));
#pragma unroll
    for (size_t k = 1; k < n - 1; ++k) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(E[k]) : "r"(T[n + k]));
    asm volatile("addc.u32 %0, %0, %1;" : "+r"(E[n - 1]) : "r"(T[2 * n - 1]));
    final_sub(r, E);
  }

  // T -= U over 2 N32 limbs (mod 2^(64 N32); lift_wide restores a negative result's residue).
  __device__ static __forceinline__ void sub_wide(uint32_t (&T)[2 * N32], const uint32_t (&U)[2 * N32]) {
    asm volatile("sub.cc.u32 %0, %0, %1;" : "+r"(T[0]) : "r"(U[0]));
#pragma unroll
    for (size_t k = 1; k < 2 * N32; ++k) asm volatile("subc.cc.u32 %0, %0, %1;" : "+r"(T[k]) : "r"(U[k]));
  }

  // a + b as a plain N32-limb integer, not reduced: below 2p, which the spare top bits hold.
  __device__ static __forceinline__ mont_t add_raw(const mont_t& a, const mont_t& b) {
    mont_t r;
    const uint32_t* x = reinterpret_cast<const uint32_t*>(a.l);
    const uint32_t* y = reinterpret_cast<const uint32_t*>(b.l);
    uint32_t* z = reinterpret_cast<uint32_t*>(r.l);
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(z[0]) : "r"(x[0]), "r"(y[0]));
#pragma unroll
    for (size_t k = 1; k < N32 - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(z[k]) : "r"(x[k]), "r"(y[k]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(z[N32 - 1]) : "r"(x[N32 - 1]), "r"(y[N32 - 1]));
    return r;
  }

  // (a0 + a1 u)(b0 + b1 u) over u^2 = -1 with two reductions instead of Karatsuba's three: the
  // products stay 2 N32 limbs wide, c0 = a0 b0 - a1 b1 (plus p·R when negative, which REDC maps to
  // the same residue) and c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 = a0 b1 + a1 b0 < 2p^2, with
  // the sums unreduced so that this holds over the integers. Both are below p·R (p < R/8), as
  // redc_wide needs.
  __device__ static __forceinline__ void mul_fp2(mont_t& r0, mont_t& r1, const mont_t& a0, const mont_t& a1,
                                                 const mont_t& b0, const mont_t& b1) {
    uint32_t T0[2 * N32], T1[2 * N32], T2[2 * N32];
    mul_wide(T2, add_raw(a0, a1), add_raw(b0, b1));
    mul_wide(T0, a0, b0);
    sub_wide(T2, T0);
    mul_wide(T1, a1, b1);
    sub_wide(T2, T1);
    sub_wide(T0, T1);
    lift_wide(T0);
    redc_wide(r0, T0);
    redc_wide(r1, T2);
  }

  // T += U over 2 N32 limbs (mod 2^(64 N32)).
  __device__ static __forceinline__ void add_wide(uint32_t (&T)[2 * N32], const uint32_t (&U)[2 * N32]) {
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(T[0]) : "r"(U[0]));
#pragma unroll
    for (size_t k = 1; k < 2 * N32; ++k) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(T[k]) : "r"(U[k]));
  }

  // For a wide value in (−p·R, p·R) held mod 2^(64 N32): adds p·R when it is negative (its top bit
  // set: p·R < 2^(64 N32 − 1)), so that it lies in [0, p·R) with the same residue.
  __device__ static __forceinline__ void lift_wide(uint32_t (&T)[2 * N32]) {
    const uint32_t neg = uint32_t(int32_t(T[2 * N32 - 1]) >> 31);
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(T[N32]) : "r"(mod32(0) & neg));
#pragma unroll
    for (size_t k = 1; k < N32; ++k)
      asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(T[N32 + k]) : "r"(mod32(k) & neg));
  }

  // (a0 + a1 u)(b0 + b1 u) − (c0 + c1 u)(d0 + d1 u) with two reductions (the two Fp2 products
  // would take four): both Karatsuba products stay wide, c0 = (a0b0 − a1b1) − (c0d0 − c1d1) and
  // c1 = (a0b1 + a1b0) − (c0d1 + c1d0), each in (−2p², 2p²), then lifted into [0, p·R).
  __device__ static __forceinline__ void mul_sub_fp2(mont_t& r0, mont_t& r1, const mont_t& a0,
                                                     const mont_t& a1, const mont_t& b0, const mont_t& b1,
                                                     const mont_t& c0, const mont_t& c1, const mont_t& d0,
                                                     const mont_t& d1) {
    uint32_t X[2 * N32], Y[2 * N32], U[2 * N32];
    mul_wide(X, add_raw(a0, a1), add_raw(b0, b1));  // X: the c1 part, Y: the c0 part
    mul_wide(Y, a0, b0);
    sub_wide(X, Y);
    mul_wide(U, a1, b1);
    sub_wide(X, U);
    sub_wide(Y, U);
    mul_wide(U, add_raw(c0, c1), add_raw(d0, d1));
    sub_wide(X, U);
    mul_wide(U, c0, d0);
    add_wide(X, U);
    sub_wide(Y, U);
    mul_wide(U, c1, d1);
    add_wide(X, U);
    add_wide(Y, U);
    lift_wide(Y);
    lift_wide(X);
    redc_wide(r0, Y);
    redc_wide(r1, X);
  }

 private:
  // Even/odd squaring (separated operand scanning): the cross products x_i x_j (i < j) are made
  // once, row i running x_i times x_{i+1}, x_{i+3}, ... (products that start at odd limbs, into
  // Od) and x_{i+2}, x_{i+4}, ... (even limbs, into Ev); then T = 2(Od + Ev) + Σ x_i² 2^(64i) and
  // redc_wide. For Fp that is 66 + 12 + 144 products where the multiplication takes 288.
  __device__ static __forceinline__ void sqr_mont_eo(mont_t& r, const mont_t& a) {
    static_assert(N32 % 2 == 0);
    constexpr size_t n = N32;
    const uint32_t* x = reinterpret_cast<const uint32_t*>(a.l);
    uint32_t Od[2 * n + 1], Ev[2 * n + 1];  // indexed by limb position
#pragma unroll
    for (size_t k = 0; k < 2 * n + 1; ++k) Od[k] = Ev[k] = 0;
#pragma unroll
    for (size_t i = 0; i + 1 < n; ++i) {
      product_chain(Od, x, x, i, i + 1);
      if (i + 2 < n) product_chain(Ev, x, x, i, i + 2);
    }
    uint32_t T[2 * n];
    sum_halves(T, Ev, Od);
    // Double (the cross sum is below 2^(64 N32 − 1)), then add the squares x_i².
    asm volatile("add.cc.u32 %0, %0, %0;" : "+r"(T[1]));
#pragma unroll
    for (size_t k = 2; k < 2 * n; ++k) asm volatile("addc.cc.u32 %0, %0, %0;" : "+r"(T[k]));
    asm volatile("mad.lo.cc.u32 %0, %1, %1, %0;" : "+r"(T[0]) : "r"(x[0]));
    asm volatile("madc.hi.cc.u32 %0, %1, %1, %0;" : "+r"(T[1]) : "r"(x[0]));
#pragma unroll
    for (size_t i = 1; i < n; ++i) {
      asm volatile("madc.lo.cc.u32 %0, %1, %1, %0;" : "+r"(T[2 * i]) : "r"(x[i]));
      asm volatile("madc.hi.cc.u32 %0, %1, %1, %0;" : "+r"(T[2 * i + 1]) : "r"(x[i]));
    }
    redc_wide(r, T);
  }

#endif

  // r = a * b * R^-1 mod p.
  CUZK_HD static void mul_mont(mont_t& r, const mont_t& a, const mont_t& b) {
#if CUZK_DEVICE_CODE
    mul_mont_eo(r, a, b);
#elif CUZK_FIELD_X86_64_ASM
    if constexpr (N == 4 || N == 6) {
      // mulx/adcx/adox CIOS (field/mont_x86_64.hpp), about twice the speed of the code below.
      static_assert((P::mod(N - 1) >> 63) == 0, "the asm relies on a spare top bit");
      if constexpr (N == 4)
        x86_64::mul_mont_4(r.l, a.l, b.l, mod_m0_table.data());
      else
        x86_64::mul_mont_6(r.l, a.l, b.l, mod_m0_table.data());
    } else {
      mul_mont_portable(r, a, b);
    }
#else
    mul_mont_portable(r, a, b);
#endif
  }

#if !CUZK_DEVICE_CODE
  // p_0..p_{N-1}, then -p^-1 mod 2^64: the constant operand of the x86-64 asm.
  static constexpr std::array<uint64_t, N + 1> mod_m0_table = [] {
    std::array<uint64_t, N + 1> t{};
    for (size_t i = 0; i < N; ++i) t[i] = P::mod(i);
    t[N] = P::M0;
    return t;
  }();
  // No-carry CIOS with 128-bit products, for hosts without BMI2/ADX.
  static void mul_mont_portable(mont_t& r, const mont_t& a, const mont_t& b) {
    // No-carry CIOS (both BLS12-381 moduli have a spare top bit).
    uint64_t t[N] = {};
    for (size_t i = 0; i < N; ++i) {
      unsigned __int128 A = (unsigned __int128)a.l[0] * b.l[i] + t[0];
      const uint64_t m = uint64_t(A) * P::M0;
      unsigned __int128 C = (unsigned __int128)m * P::mod(0) + uint64_t(A);
      A >>= 64;
      C >>= 64;
      for (size_t j = 1; j < N; ++j) {
        A += (unsigned __int128)a.l[j] * b.l[i] + t[j];
        C += (unsigned __int128)m * P::mod(j) + uint64_t(A);
        t[j - 1] = uint64_t(C);
        A >>= 64;
        C >>= 64;
      }
      t[N - 1] = uint64_t(C) + uint64_t(A);
    }
    uint64_t s[N];
    select_reduced(r, t, s);
  }
#endif

  // r = a^2 * R^-1 mod p.
  CUZK_HD static void sqr_mont(mont_t& r, const mont_t& a) {
#if CUZK_DEVICE_CODE
    // The even/odd squaring: 33.1 G/s for Fp on an H200 against the multiplication's 27.2. (A
    // squaring with row carry chains had lost, 20.4 G/s: ptxas split each madc into an IMAD and an
    // IADD3.X.)
    sqr_mont_eo(r, a);
#else
    mul_mont(r, a, a);
#endif
  }
};

}  // namespace cuzk::field
