// Element-wise field arithmetic on the device, for the GPU tests and benchmarks. Pointers are
// device pointers; work is queued on the stream and runs on the stream's device. Instantiated for
// cuzk::Fp and cuzk::Fr in field_kernels.cu.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cuda/runtime/runtime.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

enum class FieldOp {
  add,
  sub,
  mul,
  sqr,
  neg,
  dbl,
  inverse,
  inverse_binary_gcd,
  mul_sub,
  mul_dfma,
  mul_dfma_lazy
};
const char* to_string(FieldOp op);

// out[i] = op(a[i], b[i]) for i < n; unary ops ignore b (which may be null). Both inverses (Fermat's,
// and field/binary_gcd.hpp's) map 0 to 0.
// mul_sub: a·b − (a + b)·(b − a) through F::mul_sub (the point formulas' one-reduction form).
// mul_dfma (Fp only): a·b through field/fp_dfma.hpp; mul_dfma_lazy: a·b·b through two of its
// multiplications without the final subtraction, then one with it (by Montgomery's one).
template <class F>
Status field_op(const Stream& s, FieldOp op, const F* a, const F* b, F* out, size_t n);

extern template Status field_op<Fp>(const Stream&, FieldOp, const Fp*, const Fp*, Fp*, size_t);
extern template Status field_op<Fr>(const Stream&, FieldOp, const Fr*, const Fr*, Fr*, size_t);

// a_i ← a_i·c·g^i (a coset shift by powers, as the transforms fold it into their first pass), one
// exponentiation per run of 64 elements.
Status scale_by_powers(const Stream& s, Fr* a, const Fr& c, const Fr& g, size_t n);

}  // namespace cuzk::cuda
