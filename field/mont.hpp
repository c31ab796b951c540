// A prime field in Montgomery form: one template for the host and for CUDA devices.
//
// Storage is N little-endian 64-bit limbs, always fully reduced (< modulus), so equality is a
// limb compare and the memory image is the one blst and sppark use. The host multiplies with
// 64-bit limbs (CIOS, 128-bit products; mulx/adcx/adox in field/mont_x86_64.hpp); the device
// reinterprets the same bytes as 2N 32-bit limbs and multiplies in PTX carry chains
// (field/mont_ptx.hpp), because 32x32-bit multiply-add is the GPU's native integer rate.
//
// Both moduli of BLS12-381 leave the top limb's high bit clear, which lets CIOS skip the extra
// carry word ("no-carry" CIOS): the running sum stays below 2*modulus < 2^(64N).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "field/hd.hpp"
#include "field/mont_ptx.hpp"
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
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(s[0]), "r"(ptx::mod32(0)));
#pragma unroll
    for (size_t i = 1; i < N32; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(s[i]), "r"(ptx::mod32(i)));
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
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(out[0]) : "r"(d[0]), "r"(ptx::mod32(0) & mask));
#pragma unroll
    for (size_t i = 1; i < N32; ++i)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(out[i]) : "r"(d[i]), "r"(ptx::mod32(i) & mask));
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
  using ptx = mont_ptx<P>;  // field/mont_ptx.hpp: the device arithmetic on 32-bit limbs
  __device__ static __forceinline__ uint32_t* limbs32(mont_t& a) { return reinterpret_cast<uint32_t*>(a.l); }
  __device__ static __forceinline__ const uint32_t* limbs32(const mont_t& a) {
    return reinterpret_cast<const uint32_t*>(a.l);
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
  // Row-by-row CIOS (mont_ptx::mul_rows), kept for comparison in the throughput benchmark.
  __device__ static __forceinline__ void mul_mont_rows(mont_t& r, const mont_t& a, const mont_t& b) {
    ptx::mul_rows(limbs32(r), limbs32(a), limbs32(b));
  }
  // Fp2 = Fp[u]/(u² + 1) products for field/fp2.hpp, with two reductions each (mont_ptx).
  __device__ static __forceinline__ void mul_fp2(mont_t& r0, mont_t& r1, const mont_t& a0, const mont_t& a1,
                                                 const mont_t& b0, const mont_t& b1) {
    ptx::mul_fp2(limbs32(r0), limbs32(r1), limbs32(a0), limbs32(a1), limbs32(b0), limbs32(b1));
  }
  __device__ static __forceinline__ void mul_sub_fp2(mont_t& r0, mont_t& r1, const mont_t& a0,
                                                     const mont_t& a1, const mont_t& b0, const mont_t& b1,
                                                     const mont_t& c0, const mont_t& c1, const mont_t& d0,
                                                     const mont_t& d1) {
    ptx::mul_sub_fp2(limbs32(r0), limbs32(r1), limbs32(a0), limbs32(a1), limbs32(b0), limbs32(b1),
                     limbs32(c0), limbs32(c1), limbs32(d0), limbs32(d1));
  }

 private:
  // r = a·b − c·d with one reduction: a·b + c·(p − d) < 2p² < p·R.
  __device__ static __forceinline__ void mul_sub_mont(mont_t& r, const mont_t& a, const mont_t& b,
                                                      const mont_t& c, const mont_t& d) {
    const mont_t nd = -d;
    ptx::mul_add(limbs32(r), limbs32(a), limbs32(b), limbs32(c), limbs32(nd));
  }
#endif

  // r = a * b * R^-1 mod p.
  CUZK_HD static void mul_mont(mont_t& r, const mont_t& a, const mont_t& b) {
#if CUZK_DEVICE_CODE
    ptx::mul_eo(limbs32(r), limbs32(a), limbs32(b));
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
    ptx::sqr_eo(limbs32(r), limbs32(a));
#else
    mul_mont(r, a, a);
#endif
  }
};

}  // namespace cuzk::field
