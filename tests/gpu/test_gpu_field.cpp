// Fp and Fr arithmetic in kernels agrees with the host, element for element, on 2^20 random
// inputs (2^14 for inversion) with the edge values 0, 1, -1, raw 1 and raw p-1 in every pairing.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "backend/cuda/testing/field_kernels.hpp"
#include "field/fields.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace {

using cuzk::cuda::FieldOp;
using namespace cuzk::gputest;

template <class F>
std::vector<F> edge_values() {
  F raw1 = F::zero(), pm1 = F::modulus_limbs();
  raw1.l[0] = 1;
  pm1.l[0] -= 1;  // the moduli are odd: no borrow
  return {F::zero(), F::one(), -F::one(), raw1, pm1, F::one() + F::one()};
}

template <class F>
F host_op(FieldOp op, const F& a, const F& b) {
  switch (op) {
    case FieldOp::add:
      return a + b;
    case FieldOp::sub:
      return a - b;
    case FieldOp::mul:
      return a * b;
    case FieldOp::sqr:
      return a.sqr();
    case FieldOp::neg:
      return -a;
    case FieldOp::dbl:
      return a.dbl();
    case FieldOp::inverse:
    case FieldOp::inverse_binary_gcd:
      return a.inverse();
    case FieldOp::mul_sub:
      return a * b - (a + b) * (b - a);
    case FieldOp::mul_dfma:
      return a * b;
    case FieldOp::mul_dfma_lazy:
      return a * b * b;
  }
  return F::zero();
}

template <class F>
class GpuField : public ::testing::Test {};
using Fields = ::testing::Types<cuzk::Fp, cuzk::Fr>;
TYPED_TEST_SUITE(GpuField, Fields);

template <class F>
void check_op(FieldOp op, size_t n) {
  const uint64_t seed = test_seed() ^ (uint64_t(op) << 32) ^ F::BITS;
  std::mt19937_64 rng(seed);
  std::vector<F> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = random_field<F>(rng);
    b[i] = random_field<F>(rng);
  }
  // Every pairing of edge values, at the front (and b = a in the next block for x op x).
  const auto e = edge_values<F>();
  size_t k = 0;
  for (const F& x : e)
    for (const F& y : e) {
      if (k >= n) break;
      a[k] = x;
      b[k] = y;
      ++k;
    }
  for (size_t i = k; i < std::min(n, k + 64); ++i) b[i] = a[i];

  auto stream = cuzk::cuda::Stream::create(test_device());
  CUZK_ASSERT_OK(stream);
  auto da = to_device(a, *stream);
  CUZK_ASSERT_OK(da);
  auto db = to_device(b, *stream);
  CUZK_ASSERT_OK(db);
  auto dout = cuzk::cuda::DeviceBuffer<F>::alloc(test_device(), n);
  CUZK_ASSERT_OK(dout);
  CUZK_ASSERT_OK(cuzk::cuda::field_op<F>(*stream, op, da->data(), db->data(), dout->data(), n));
  std::vector<F> got(n);
  CUZK_ASSERT_OK(dout->download(got.data(), n, *stream));
  CUZK_ASSERT_OK(stream->synchronize());

  std::vector<F> want(n);
  parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) want[i] = host_op(op, a[i], b[i]);
  });
  size_t total = 0;
  const auto bad = mismatches(got, want, &total);
  EXPECT_EQ(total, 0u) << to_string(op) << " (" << F::BITS << "-bit field): " << total << " of " << n
                       << " elements differ, first at index " << (bad.empty() ? 0 : bad[0]) << "; seed 0x"
                       << std::hex << test_seed();
}

constexpr size_t kN = size_t(1) << 20;

TYPED_TEST(GpuField, Mul) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::mul, kN);
}
TYPED_TEST(GpuField, Sqr) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::sqr, kN);
}
TYPED_TEST(GpuField, MulSub) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::mul_sub, kN);
}

TYPED_TEST(GpuField, Add) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::add, kN);
}
TYPED_TEST(GpuField, Sub) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::sub, kN);
}
TYPED_TEST(GpuField, Neg) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::neg, kN);
}
TYPED_TEST(GpuField, Dbl) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::dbl, kN);
}
TYPED_TEST(GpuField, Inverse) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::inverse, size_t(1) << 14);
}
// The binary GCD (field/binary_gcd.hpp) on the device gives Fermat's inverse on the host.
TYPED_TEST(GpuField, InverseBinaryGcd) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::inverse_binary_gcd, size_t(1) << 16);
}

// Fp multiplied on the FP64 pipe (field/fp_dfma.hpp) equals Fp's multiplication, reduced and lazy.
TEST(GpuFpDfma, MulEqualsFpMul) {
  CUZK_REQUIRE_GPU();
  check_op<cuzk::Fp>(FieldOp::mul_dfma, kN);
  check_op<cuzk::Fp>(FieldOp::mul_dfma_lazy, kN);
}

// A size that is not a multiple of the block, and one that needs the grid-stride loop.
TYPED_TEST(GpuField, OddSizes) {
  CUZK_REQUIRE_GPU();
  check_op<TypeParam>(FieldOp::mul, 1);
  check_op<TypeParam>(FieldOp::mul, 100003);
}

TEST(GpuRuntime, ErrorsAreValues) {
  CUZK_REQUIRE_GPU();
  // An absurd allocation fails with the runtime's message instead of aborting.
  auto b = cuzk::cuda::DeviceBuffer<uint8_t>::alloc(test_device(), size_t(1) << 62);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.message().find("cudaMalloc"), std::string::npos) << b.message();
  // A device index that does not exist is an error too.
  auto s = cuzk::cuda::Stream::create(1 << 20);
  ASSERT_FALSE(s.ok());
  EXPECT_FALSE(s.message().empty());
  // The runtime still works afterwards.
  auto ok = cuzk::cuda::DeviceBuffer<uint8_t>::alloc(test_device(), 1024);
  EXPECT_TRUE(ok.ok()) << ok.message();
}

}  // namespace
