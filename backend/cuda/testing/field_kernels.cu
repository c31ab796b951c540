#include "backend/cuda/testing/field_kernels.hpp"

#include <cuda_runtime.h>

#include <type_traits>

#include "field/binary_gcd.hpp"
#include "field/fp_dfma.hpp"

namespace cuzk::cuda {

const char* to_string(FieldOp op) {
  switch (op) {
    case FieldOp::add:
      return "add";
    case FieldOp::sub:
      return "sub";
    case FieldOp::mul:
      return "mul";
    case FieldOp::sqr:
      return "sqr";
    case FieldOp::neg:
      return "neg";
    case FieldOp::dbl:
      return "dbl";
    case FieldOp::inverse:
      return "inverse";
    case FieldOp::inverse_binary_gcd:
      return "inverse_binary_gcd";
    case FieldOp::mul_sub:
      return "mul_sub";
    case FieldOp::mul_dfma:
      return "mul_dfma";
    case FieldOp::mul_dfma_lazy:
      return "mul_dfma_lazy";
  }
  return "?";
}

namespace {

// One kernel per op (a template parameter, not a run-time switch), so that each kernel holds
// only the arithmetic it runs and the registers are sized for that alone.
template <class F, FieldOp OP>
__global__ void field_op_kernel(const F* __restrict__ a, const F* __restrict__ b, F* __restrict__ out,
                                size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const F x = a[i];
    F r;
    if constexpr (OP == FieldOp::add) r = x + b[i];
    if constexpr (OP == FieldOp::sub) r = x - b[i];
    if constexpr (OP == FieldOp::mul) r = x * b[i];
    if constexpr (OP == FieldOp::sqr) r = x.sqr();
    if constexpr (OP == FieldOp::neg) r = -x;
    if constexpr (OP == FieldOp::dbl) r = x.dbl();
    if constexpr (OP == FieldOp::inverse) r = x.inverse();
    if constexpr (OP == FieldOp::inverse_binary_gcd) r = field::inverse_binary_gcd(x);
    if constexpr (OP == FieldOp::mul_sub) r = F::mul_sub(x, b[i], x + b[i], b[i] - x);
    if constexpr (std::is_same_v<F, Fp> && OP == FieldOp::mul_dfma)
      r = field::FpDfma::mul(field::FpDfma::from(x), field::FpDfma::from(b[i])).to_fp();
    if constexpr (std::is_same_v<F, Fp> && OP == FieldOp::mul_dfma_lazy) {
      using field::FpDfma;
      const FpDfma y = FpDfma::from(b[i]);
      const FpDfma t = FpDfma::mul_lazy(FpDfma::mul_lazy(FpDfma::from(x), y), y);
      r = FpDfma::mul(t, FpDfma::from(Fp::one())).to_fp();
    }
    out[i] = r;
  }
}

// Elements per thread of scale_by_powers_kernel: one exponentiation per run.
constexpr uint32_t kRun = 64;

__global__ void scale_by_powers_kernel(Fr* a, size_t n, Fr c, Fr g) {
  const size_t start = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * kRun;
  if (start >= n) return;
  Fr p = c * g.pow(start);
  const size_t end = start + kRun < n ? start + kRun : n;
  for (size_t i = start; i < end; ++i) {
    a[i] = a[i] * p;
    p = p * g;
  }
}

template <class F, FieldOp OP>
Status launch_op(const Stream& s, const F* a, const F* b, F* out, size_t n) {
  if (n == 0) return Status::Ok();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  constexpr int block = 256;
  // A grid-stride loop over at most 64K blocks: enough to fill any current GPU many times.
  const size_t blocks = (n + block - 1) / block < 65536 ? (n + block - 1) / block : 65536;
  field_op_kernel<F, OP><<<unsigned(blocks), block, 0, s.get()>>>(a, b, out, n);
  return check_launch("field_op_kernel");
}

}  // namespace

template <class F>
Status field_op(const Stream& s, FieldOp op, const F* a, const F* b, F* out, size_t n) {
  switch (op) {
    case FieldOp::add:
      return launch_op<F, FieldOp::add>(s, a, b, out, n);
    case FieldOp::sub:
      return launch_op<F, FieldOp::sub>(s, a, b, out, n);
    case FieldOp::mul:
      return launch_op<F, FieldOp::mul>(s, a, b, out, n);
    case FieldOp::sqr:
      return launch_op<F, FieldOp::sqr>(s, a, b, out, n);
    case FieldOp::neg:
      return launch_op<F, FieldOp::neg>(s, a, b, out, n);
    case FieldOp::dbl:
      return launch_op<F, FieldOp::dbl>(s, a, b, out, n);
    case FieldOp::inverse:
      return launch_op<F, FieldOp::inverse>(s, a, b, out, n);
    case FieldOp::inverse_binary_gcd:
      return launch_op<F, FieldOp::inverse_binary_gcd>(s, a, b, out, n);
    case FieldOp::mul_sub:
      return launch_op<F, FieldOp::mul_sub>(s, a, b, out, n);
    case FieldOp::mul_dfma:
    case FieldOp::mul_dfma_lazy:
      if constexpr (!std::is_same_v<F, Fp>) {
        return make_error("field_op: the FP64 multiplication is Fp's only");
      } else {
        return op == FieldOp::mul_dfma ? launch_op<F, FieldOp::mul_dfma>(s, a, b, out, n)
                                       : launch_op<F, FieldOp::mul_dfma_lazy>(s, a, b, out, n);
      }
  }
  return make_error("field_op: unknown op");
}

template Status field_op<Fp>(const Stream&, FieldOp, const Fp*, const Fp*, Fp*, size_t);
template Status field_op<Fr>(const Stream&, FieldOp, const Fr*, const Fr*, Fr*, size_t);

Status scale_by_powers(const Stream& s, Fr* a, const Fr& c, const Fr& gen, size_t n) {
  if (n == 0) return Status::Ok();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  constexpr unsigned block = 128;
  const size_t threads = (n + kRun - 1) / kRun;
  scale_by_powers_kernel<<<unsigned((threads + block - 1) / block), block, 0, s.get()>>>(a, n, c, gen);
  return check_launch("scale_by_powers_kernel");
}

}  // namespace cuzk::cuda
