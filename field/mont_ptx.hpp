// Montgomery arithmetic for CUDA devices: the device half of mont_t (field/mont.hpp), on the same
// bytes read as n = 2N little-endian 32-bit limbs, in PTX carry chains (mad.lo.cc / madc.hi.cc),
// because 32×32-bit multiply-add is the GPU's native integer rate.
//
// Every asm statement is volatile: the carry flag that links one statement of a chain to the next
// is invisible to the compiler, and a non-volatile statement without register inputs
// (`subc.u32 %0, 0, 0`, reading the final borrow) may be hoisted above the chain it ends, which was
// seen on an H200. Volatile keeps their order; ptxas still schedules the rest freely.
//
// Inputs are fully reduced (< p) unless a routine says otherwise. Both moduli of BLS12-381 leave
// the top limb's high bit clear, so CIOS needs no extra carry word ("no-carry" CIOS: the running
// sum stays below 2p < 2^(32n)), and wide values below p·R (R = 2^(32n)) reduce in one REDC.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/hd.hpp"

#if CUZK_DEVICE_CODE

namespace cuzk::field {

template <class P>
struct mont_ptx {
  static constexpr size_t n = 2 * P::N;            // 32-bit limbs
  static constexpr uint32_t m0 = uint32_t(P::M0);  // -p^-1 mod 2^32

  __device__ static constexpr uint32_t mod32(size_t i) { return uint32_t(P::mod(i / 2) >> (32 * (i % 2))); }

  // ------------------------------------------------------------ row-by-row CIOS
  // Row step of CIOS: acc[0..n+1] += x[0..n-1] · y, as two carry chains (the low halves of the
  // products, then the high halves shifted by one limb).
  __device__ static __forceinline__ void mad_row(uint32_t (&acc)[n + 2], const uint32_t* x, uint32_t y) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(x[0]), "r"(y));
#pragma unroll
    for (size_t j = 1; j < n; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(x[j]), "r"(y));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(acc[n]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[n + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(x[0]), "r"(y));
#pragma unroll
    for (size_t j = 1; j < n; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(x[j]), "r"(y));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[n + 1]));
  }

  // The same row with p as x.
  __device__ static __forceinline__ void mad_row_mod(uint32_t (&acc)[n + 2], uint32_t y) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(mod32(0)), "r"(y));
#pragma unroll
    for (size_t j = 1; j < n; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(mod32(j)), "r"(y));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(acc[n]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[n + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(mod32(0)), "r"(y));
#pragma unroll
    for (size_t j = 1; j < n; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(mod32(j)), "r"(y));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[n + 1]));
  }

  // out = acc >= p ? acc - p : acc, for acc < 2p held in the first n limbs.
  template <size_t M>
  __device__ static __forceinline__ void final_sub(uint32_t* out, const uint32_t (&acc)[M]) {
    static_assert(M >= n);
    uint32_t t[n];
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(acc[0]), "r"(mod32(0)));
#pragma unroll
    for (size_t i = 1; i < n; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(acc[i]), "r"(mod32(i)));
    uint32_t borrow;
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
#pragma unroll
    for (size_t i = 0; i < n; ++i) out[i] = borrow ? acc[i] : t[i];
  }

  // Row-by-row CIOS: each row's multiply-adds form one carry chain over the accumulator. The first
  // device multiplication, kept for comparison in the throughput benchmark: ptxas splits every
  // madc into an IMAD plus an IADD3.X for the carry (1296 SASS instructions per Fp mul).
  __device__ static __forceinline__ void mul_rows(uint32_t* out, const uint32_t* x, const uint32_t* y) {
    uint32_t acc[n + 2];
#pragma unroll
    for (size_t j = 0; j < n + 2; ++j) acc[j] = 0;
#pragma unroll
    for (size_t i = 0; i < n; ++i) {
      mad_row(acc, x, y[i]);
      const uint32_t m = acc[0] * m0;
      mad_row_mod(acc, m);  // acc[0] becomes 0
#pragma unroll
      for (size_t j = 0; j < n + 1; ++j) acc[j] = acc[j + 1];
      acc[n + 1] = 0;
    }
    final_sub(out, acc);
  }

  // --------------------------------------------------------------- even/odd CIOS
  // The products x_k · y_i with k even land on limb pairs (k, k+1) that do not overlap, as do those
  // with k odd on (k, k+1) shifted by one; so each row keeps two accumulators, E (even k) and O (odd
  // k, stored one limb down), and each lo/hi pair of one product is adjacent in its chain. ptxas can
  // then issue a pair as one 64-bit IMAD.WIDE with carry, instead of two IMADs plus two IADD3.X.
  // After the reduction E[0] = 0, and the next row's accumulator is (E >> 32) + O: one add chain
  // per row. Bounds (no-carry CIOS): the running value stays < 2p, E fits n + 1 limbs and O fits n.
  __device__ static __forceinline__ void mul_eo(uint32_t* out, const uint32_t* x, const uint32_t* y) {
    static_assert(n % 2 == 0);
    uint32_t E[n + 1], O[n];
#pragma unroll
    for (size_t j = 0; j < n + 1; ++j) E[j] = 0;
#pragma unroll
    for (size_t i = 0; i < n; ++i) {
      const uint32_t bi = y[i];
      // E += x_even · bi
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[0]) : "r"(x[0]), "r"(bi));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[1]) : "r"(x[0]), "r"(bi));
#pragma unroll
      for (size_t k = 2; k < n; k += 2) {
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[k]) : "r"(x[k]), "r"(bi));
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[k + 1]) : "r"(x[k]), "r"(bi));
      }
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(E[n]));
      // O = x_odd · bi: disjoint 64-bit products, no carries.
#pragma unroll
      for (size_t k = 1; k < n; k += 2) {
        asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(O[k - 1]) : "r"(x[k]), "r"(bi));
        asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(O[k]) : "r"(x[k]), "r"(bi));
      }
      const uint32_t m = E[0] * m0;
      // E += p_even · m (E[0] becomes 0), O += p_odd · m.
      reduce_even(E, m);
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(O[0]) : "r"(mod32(1)), "r"(m));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(O[1]) : "r"(mod32(1)), "r"(m));
#pragma unroll
      for (size_t k = 3; k < n; k += 2) {
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(O[k - 1]) : "r"(mod32(k)), "r"(m));
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(O[k]) : "r"(mod32(k)), "r"(m));
      }
      shift_add(E, O);
    }
    final_sub(out, E);
  }

  // One reduction row's even half: E += (p_0, p_2, ...)·m at limbs 0, 2, ... (E[0] becomes 0 for
  // m = E[0]·m0), the carry into E[n].
  __device__ static __forceinline__ void reduce_even(uint32_t (&E)[n + 1], uint32_t m) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[0]) : "r"(mod32(0)), "r"(m));
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[1]) : "r"(mod32(0)), "r"(m));
#pragma unroll
    for (size_t k = 2; k < n; k += 2) {
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(E[k]) : "r"(mod32(k)), "r"(m));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(E[k + 1]) : "r"(mod32(k)), "r"(m));
    }
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(E[n]));
  }

  // The row's end: E = (E >> 32) + O, where O holds the odd products one limb down; below 2^(32n)
  // (the running value is < 2p), so nothing carries past limb n - 1.
  __device__ static __forceinline__ void shift_add(uint32_t (&E)[n + 1], const uint32_t (&O)[n]) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(E[0]) : "r"(E[1]), "r"(O[0]));
#pragma unroll
    for (size_t k = 1; k < n - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(E[k]) : "r"(E[k + 1]), "r"(O[k]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(E[n - 1]) : "r"(E[n]), "r"(O[n - 1]));
    E[n] = 0;
  }

  // -------------------------------------------------------------- wide products
  // acc += x_i · (y_j0, y_j0+2, ...) at limb i + j, one carry chain, each lo/hi pair adjacent (one
  // IMAD.WIDE); the chain's carry lands one limb above its top. Callers keep two arrays, Ev for
  // products that start at an even limb and Od for odd, and run rows in increasing i: a limb above
  // a chain's top then holds at most earlier chains' carries, so the carry cannot overflow it
  // (checked on a model of these instruction sequences over random and all-ones limbs:
  // tools/mont_eo_model.py).
  __device__ static __forceinline__ void product_chain(uint32_t (&acc)[2 * n + 1], const uint32_t* x,
                                                       const uint32_t* y, size_t i, size_t j0) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j0]) : "r"(x[i]), "r"(y[j0]));
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j0 + 1]) : "r"(x[i]), "r"(y[j0]));
    size_t j = j0 + 2;
#pragma unroll
    for (; j < n; j += 2) {
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j]) : "r"(x[i]), "r"(y[j]));
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[i + j + 1]) : "r"(x[i]), "r"(y[j]));
    }
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[i + j]));
  }

  // T = Ev + Od over limbs 0 .. 2n - 1 (the sum is below 2^(64n)).
  __device__ static __forceinline__ void sum_halves(uint32_t (&T)[2 * n], const uint32_t (&Ev)[2 * n + 1],
                                                    const uint32_t (&Od)[2 * n + 1]) {
    T[0] = Ev[0];
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(T[1]) : "r"(Ev[1]), "r"(Od[1]));
#pragma unroll
    for (size_t k = 2; k < 2 * n - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(T[k]) : "r"(Ev[k]), "r"(Od[k]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(T[2 * n - 1]) : "r"(Ev[2 * n - 1]), "r"(Od[2 * n - 1]));
  }

  // Row i of x·y into the even/odd arrays: x_i times the even limbs of y into the array of i's
  // parity, times the odd limbs into the other.
  __device__ static __forceinline__ void product_row(uint32_t (&Ev)[2 * n + 1], uint32_t (&Od)[2 * n + 1],
                                                     const uint32_t* x, const uint32_t* y, size_t i) {
    product_chain(i % 2 == 0 ? Ev : Od, x, y, i, 0);
    product_chain(i % 2 == 0 ? Od : Ev, x, y, i, 1);
  }

  // Σ_k a_k·b_k over K pairs, 2n limbs wide (the sum below 2^(64n)): the rows of all products
  // interleave into one pair of arrays, so a chain's carry still lands on a limb that holds only
  // carries.
  template <size_t K>
  __device__ static __forceinline__ void dot_wide(uint32_t (&T)[2 * n], const uint32_t* const (&a)[K],
                                                  const uint32_t* const (&b)[K]) {
    uint32_t Ev[2 * n + 1], Od[2 * n + 1];
#pragma unroll
    for (size_t k = 0; k < 2 * n + 1; ++k) Ev[k] = Od[k] = 0;
#pragma unroll
    for (size_t i = 0; i < n; ++i)
#pragma unroll
      for (size_t k = 0; k < K; ++k) product_row(Ev, Od, a[k], b[k], i);
    sum_halves(T, Ev, Od);
  }

  // The full 2n-limb product x·y, no reduction.
  __device__ static __forceinline__ void mul_wide(uint32_t (&T)[2 * n], const uint32_t* x,
                                                  const uint32_t* y) {
    const uint32_t* const a[1] = {x};
    const uint32_t* const b[1] = {y};
    dot_wide<1>(T, a, b);
  }

  // out = (a·b + c·d)·R^-1 mod p with one reduction: a·b + c·d < 2p² < p·R.
  __device__ static __forceinline__ void mul_add(uint32_t* out, const uint32_t* a, const uint32_t* b,
                                                 const uint32_t* c, const uint32_t* d) {
    const uint32_t* const x[2] = {a, c};
    const uint32_t* const y[2] = {b, d};
    uint32_t T[2 * n];
    dot_wide<2>(T, x, y);
    redc_wide(out, T);
  }

  // out = T·R^-1 mod p for T < p·R: the low half reduced by mul_eo's rows without the x·b_i
  // products, then the high half added (REDC(lo) + hi == REDC(T): the multipliers depend on the
  // low limbs only); (T + M p) / R < 2p, and one subtraction ends below p.
  __device__ static __forceinline__ void redc_wide(uint32_t* out, const uint32_t (&T)[2 * n]) {
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
    final_sub(out, E);
  }

  // T -= U over 2n limbs (mod 2^(64n); lift_wide restores a negative result's residue).
  __device__ static __forceinline__ void sub_wide(uint32_t (&T)[2 * n], const uint32_t (&U)[2 * n]) {
    asm volatile("sub.cc.u32 %0, %0, %1;" : "+r"(T[0]) : "r"(U[0]));
#pragma unroll
    for (size_t k = 1; k < 2 * n; ++k) asm volatile("subc.cc.u32 %0, %0, %1;" : "+r"(T[k]) : "r"(U[k]));
  }

  // T += U over 2n limbs (mod 2^(64n)).
  __device__ static __forceinline__ void add_wide(uint32_t (&T)[2 * n], const uint32_t (&U)[2 * n]) {
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(T[0]) : "r"(U[0]));
#pragma unroll
    for (size_t k = 1; k < 2 * n; ++k) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(T[k]) : "r"(U[k]));
  }

  // For a wide value in (−p·R, p·R) held mod 2^(64n): adds p·R when it is negative (its top bit
  // set: p·R < 2^(64n − 1)), so that it lies in [0, p·R) with the same residue.
  __device__ static __forceinline__ void lift_wide(uint32_t (&T)[2 * n]) {
    const uint32_t neg = uint32_t(int32_t(T[2 * n - 1]) >> 31);
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(T[n]) : "r"(mod32(0) & neg));
#pragma unroll
    for (size_t k = 1; k < n; ++k)
      asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(T[n + k]) : "r"(mod32(k) & neg));
  }

  // z = x + y as a plain n-limb integer, not reduced: below 2p, which the spare top bits hold.
  __device__ static __forceinline__ void add_raw(uint32_t (&z)[n], const uint32_t* x, const uint32_t* y) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(z[0]) : "r"(x[0]), "r"(y[0]));
#pragma unroll
    for (size_t k = 1; k < n - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(z[k]) : "r"(x[k]), "r"(y[k]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(z[n - 1]) : "r"(x[n - 1]), "r"(y[n - 1]));
  }

  // ------------------------------------------------------------------------ Fp2
  // (a0 + a1 u)(b0 + b1 u) over u² = −1 with two reductions instead of Karatsuba's three: the
  // products stay 2n limbs wide, c0 = a0 b0 − a1 b1 (plus p·R when negative, which REDC maps to
  // the same residue) and c1 = (a0 + a1)(b0 + b1) − a0 b0 − a1 b1 = a0 b1 + a1 b0 < 2p², with the
  // sums unreduced so that this holds over the integers. Both are below p·R (p < R/8), as
  // redc_wide needs.
  __device__ static __forceinline__ void mul_fp2(uint32_t* r0, uint32_t* r1, const uint32_t* a0,
                                                 const uint32_t* a1, const uint32_t* b0, const uint32_t* b1) {
    uint32_t T0[2 * n], T1[2 * n], T2[2 * n];
    wide_of_sums(T2, a0, a1, b0, b1);
    mul_wide(T0, a0, b0);
    sub_wide(T2, T0);
    mul_wide(T1, a1, b1);
    sub_wide(T2, T1);
    sub_wide(T0, T1);
    lift_wide(T0);
    redc_wide(r0, T0);
    redc_wide(r1, T2);
  }

  // (a0 + a1 u)(b0 + b1 u) − (c0 + c1 u)(d0 + d1 u) with two reductions (the two Fp2 products
  // would take four): both Karatsuba products stay wide, c0 = (a0b0 − a1b1) − (c0d0 − c1d1) and
  // c1 = (a0b1 + a1b0) − (c0d1 + c1d0), each in (−2p², 2p²), then lifted into [0, p·R).
  __device__ static __forceinline__ void mul_sub_fp2(uint32_t* r0, uint32_t* r1, const uint32_t* a0,
                                                     const uint32_t* a1, const uint32_t* b0,
                                                     const uint32_t* b1, const uint32_t* c0,
                                                     const uint32_t* c1, const uint32_t* d0,
                                                     const uint32_t* d1) {
    uint32_t X[2 * n], Y[2 * n], U[2 * n];
    wide_of_sums(X, a0, a1, b0, b1);  // X: the c1 part, Y: the c0 part
    mul_wide(Y, a0, b0);
    sub_wide(X, Y);
    mul_wide(U, a1, b1);
    sub_wide(X, U);
    sub_wide(Y, U);
    wide_of_sums(U, c0, c1, d0, d1);
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

  // ------------------------------------------------------------------- squaring
  // Even/odd squaring (separated operand scanning): the cross products x_i x_j (i < j) are made
  // once, row i running x_i times x_{i+1}, x_{i+3}, ... (products that start at odd limbs, into
  // Od) and x_{i+2}, x_{i+4}, ... (even limbs, into Ev); then T = 2(Od + Ev) + Σ x_i² 2^(64i) and
  // redc_wide. For Fp that is 66 + 12 + 144 products where the multiplication takes 288.
  __device__ static __forceinline__ void sqr_eo(uint32_t* out, const uint32_t* x) {
    static_assert(n % 2 == 0);
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
    // Double (the cross sum is below 2^(64n − 1)), then add the squares x_i².
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
    redc_wide(out, T);
  }

 private:
  // T = (a0 + a1)(b0 + b1), the sums unreduced (below 2p each).
  __device__ static __forceinline__ void wide_of_sums(uint32_t (&T)[2 * n], const uint32_t* a0,
                                                      const uint32_t* a1, const uint32_t* b0,
                                                      const uint32_t* b1) {
    uint32_t sa[n], sb[n];
    add_raw(sa, a0, a1);
    add_raw(sb, b0, b1);
    mul_wide(T, sa, sb);
  }
};

}  // namespace cuzk::field

#endif  // CUZK_DEVICE_CODE
