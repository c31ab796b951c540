// SASS probe: one operation per kernel, nothing else, so `cuobjdump --dump-sass` of this file
// counts the instructions of exactly one field multiplication, squaring or point addition.
// tools/gpu-visit.sh compiles it on the GPU machine (where cuobjdump lives) and tabulates.
#include "curve/g1.hpp"
#include "field/fields.hpp"
#include "field/fp_dfma.hpp"

using namespace cuzk;

extern "C" __global__ void fp_mul(const Fp* a, const Fp* b, Fp* o) {
  o[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x];
}
extern "C" __global__ void fp_sqr(const Fp* a, Fp* o) { o[threadIdx.x] = a[threadIdx.x].sqr(); }
extern "C" __global__ void fr_mul(const Fr* a, const Fr* b, Fr* o) {
  o[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x];
}
extern "C" __global__ void fr_sqr(const Fr* a, Fr* o) { o[threadIdx.x] = a[threadIdx.x].sqr(); }
extern "C" __global__ void fp_mul_rows(const Fp* a, const Fp* b, Fp* o) {
  Fp::mul_mont_rows(o[threadIdx.x], a[threadIdx.x], b[threadIdx.x]);
}
extern "C" __global__ void fp_add(const Fp* a, const Fp* b, Fp* o) {
  o[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}
extern "C" __global__ void g1_xyzz_madd(const G1Xyzz* a, const G1Affine* b, G1Xyzz* o) {
  o[threadIdx.x] = a[threadIdx.x].add_mixed(b[threadIdx.x]);
}
extern "C" __global__ void fp_mul_dfma(const Fp* a, const Fp* b, Fp* o) {
  using field::FpDfma;
  o[threadIdx.x] = FpDfma::mul(FpDfma::from(a[threadIdx.x]), FpDfma::from(b[threadIdx.x])).to_fp();
}
