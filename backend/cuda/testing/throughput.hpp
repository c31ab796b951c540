// Throughput kernels for benchmarks: long dependent chains of one operation per thread, so the
// compiler cannot drop or merge work, with enough threads to fill the GPU. Each writes its final
// value back. Pointers are device pointers; work runs on the stream's device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cuda/runtime/runtime.hpp"
#include "curve/g1.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

// mul: x = x * y (the field's multiplication); sqr: x = x^2; mul_rows: x = x * y by the earlier
// row-by-row CIOS (mont_t::mul_mont_rows), kept to compare against; inverse and
// inverse_binary_gcd: x = x^-1 + y by Fermat's a^(p-2) and by field/binary_gcd.hpp; mul_dfma and
// mul_dfma_lazy (Fp only): x = x * y on the FP64 pipe (field/fp_dfma.hpp), each step reduced below
// p or left below 2p (reduced once at the end), x and y converted before the chain and back after.
// The pairs run two independent chains a = x·y^n and b = y·x^n in one thread and write a·b:
// mul_pair both by Fp's multiplication, mul_dfma_pair both on the FP64 pipe (lazy), mul_mixed_pair
// one of each, so the two pipes work side by side. A pair step counts as two operations.
enum class ChainOp {
  mul,
  sqr,
  mul_rows,
  inverse,
  inverse_binary_gcd,
  mul_dfma,
  mul_dfma_lazy,
  mul_pair,
  mul_dfma_pair,
  mul_mixed_pair
};

// Each of `threads` threads runs `iters` dependent operations from x = state[t], y =
// state[threads + t], and writes x back to state[t]. state holds 2 * threads elements.
// Counted operations: threads * iters.
template <class F>
Status field_mul_chain(const Stream& s, F* state, size_t threads, uint32_t iters, ChainOp op,
                       int block = 256);
extern template Status field_mul_chain<Fp>(const Stream&, Fp*, size_t, uint32_t, ChainOp, int);
extern template Status field_mul_chain<Fr>(const Stream&, Fr*, size_t, uint32_t, ChainOp, int);

// Each of `threads` threads adds `iters` affine points to acc[t] (XYZZ, madd-2008-s), cycling
// through the first 32 of `points` (held in shared memory), and writes acc[t] back.
// Counted operations: threads * iters.
Status g1_xyzz_madd_chain(const Stream& s, G1Xyzz* acc, const G1Affine* points, size_t threads,
                          uint32_t iters, int block = 128);

// The two ways to sum gathered points, measured side by side (docs/MSM-NOTES.md, "Batch-affine").
// Both read points[idx[...]], as the MSM's accumulation reads its bases through the sorted digits.
//
// XYZZ: each of `threads` threads sums points[idx[k·threads + t]] for k < per_thread into one XYZZ
// point (mixed additions) and writes it to sums[t]. Counted operations: threads · per_thread.
Status g1_xyzz_gather_sums(const Stream& s, G1Xyzz* sums, const G1Affine* points, const uint32_t* idx,
                           size_t threads, uint32_t per_thread);

// Affine: out[p] = points[idx[2p]] + points[idx[2p + 1]] for p < pairs, all of them sharing one
// inversion: Montgomery's trick over each thread's `per_thread` sums (4, 8 or 16), product trees
// over each block's threads and over the blocks, one binary-GCD inversion, in three kernels whose
// running products go through `scratch` (g1_affine_pair_scratch elements). Counted operations: pairs.
size_t g1_affine_pair_scratch(size_t pairs, unsigned per_thread);
Status g1_affine_pair_sums(const Stream& s, G1Affine* out, const G1Affine* points, const uint32_t* idx,
                           size_t pairs, unsigned per_thread, Fp* scratch);

}  // namespace cuzk::cuda
