// Batch fixed-base multiplication on the device (the setup's queries) against the host tables:
// identical affine points for random and edge-case scalars, over several chunks; and a whole setup
// with the device hooks gives the host's key, bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "backend/cuda/fixed_base/fixed_base.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/setup.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/matrices.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace cuzk {
namespace {

// Random scalars with the edge cases up front: 0, 1, −1, 2^k, and a run of equal values.
std::vector<Fr> scalars_for(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> k(n);
  for (auto& x : k) x = gputest::random_field<Fr>(rng);
  const Fr minus_one = Fr::zero() - Fr::one();
  std::vector<Fr> edge = {Fr::zero(),
                          Fr::one(),
                          minus_one,
                          Fr::from_u64(2),
                          Fr::from_u64(255),
                          Fr::from_u64(256),
                          Fr::from_u64(uint64_t(1) << 63)};
  for (size_t i = 0; i < edge.size() && i < n; ++i) k[i] = edge[i];
  for (size_t i = edge.size(); i < std::min<size_t>(n, edge.size() + 5); ++i) k[i] = k[edge.size()];
  return k;
}

template <class Affine, class Jacobian>
void expect_host_results(size_t n, size_t chunk, std::mt19937_64& rng) {
  SCOPED_TRACE("n " + std::to_string(n) + " chunk " + std::to_string(chunk));
  const auto k = scalars_for(n, rng);
  const groth16::FixedBaseTable<Affine, Jacobian> host(Affine::generator());
  std::vector<Affine> want(n), got(n);
  host.mul_many(k, want, ThreadPool::shared());
  auto dev = cuda::FixedBaseMul<Affine>::create(gputest::test_device(), Affine::generator(), chunk);
  ASSERT_TRUE(dev.ok()) << dev.message();
  auto st = dev->mul_many(k, got);
  ASSERT_TRUE(st.ok()) << st.message();
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i] && bad++ < 3) ADD_FAILURE() << "point " << i << " differs";
  EXPECT_EQ(bad, 0u);
}

TEST(FixedBaseMul, G1MatchesTheHostTables) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  expect_host_results<G1Affine, G1Jacobian>(1, 1024, rng);
  expect_host_results<G1Affine, G1Jacobian>(3 * 4096 + 17, 4096, rng);  // several chunks, a partial one
  expect_host_results<G1Affine, G1Jacobian>((size_t(1) << 18) + 5, size_t(1) << 22, rng);
}

TEST(FixedBaseMul, G2MatchesTheHostTables) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  expect_host_results<G2Affine, G2Jacobian>(1, 1024, rng);
  expect_host_results<G2Affine, G2Jacobian>(2 * 4096 + 3, 4096, rng);
  expect_host_results<G2Affine, G2Jacobian>((size_t(1) << 16) + 9, size_t(1) << 22, rng);
}

TEST(FixedBaseMul, BadArgumentsAreErrors) {
  CUZK_REQUIRE_GPU();
  EXPECT_FALSE(cuda::FixedBaseMul<G1Affine>::create(gputest::test_device(), G1Affine::infinity()).ok());
  EXPECT_FALSE(cuda::FixedBaseMul<G1Affine>::create(gputest::test_device(), G1Affine::generator(), 0).ok());
  auto dev = cuda::FixedBaseMul<G1Affine>::create(gputest::test_device(), G1Affine::generator(), 1024);
  ASSERT_TRUE(dev.ok());
  std::vector<Fr> k(10, Fr::one());
  std::vector<G1Affine> out(9);
  EXPECT_FALSE(dev->mul_many(k, out).ok());
}

TEST(FixedBaseMul, SetupOnTheDeviceGivesTheHostsKey) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(gputest::test_seed());
  r1cs::SampleSpec spec;
  spec.kind = "synthetic";
  spec.log_domain = 12;
  spec.seed = rng();
  auto circuit = r1cs::make_sample_circuit(spec);
  ASSERT_TRUE(circuit.ok()) << circuit.message();
  r1cs::RecordingSystem shape(false);
  ASSERT_TRUE((*circuit)->synthesize(shape).ok());
  groth16::SetupOptions host_opts;
  host_opts.seed = rng();
  auto want = groth16::generate_parameters(shape.matrices(), host_opts);
  ASSERT_TRUE(want.ok()) << want.message();
  auto g1 = cuda::FixedBaseMul<G1Affine>::create(gputest::test_device(), G1Affine::generator(), 1000);
  auto g2 = cuda::FixedBaseMul<G2Affine>::create(gputest::test_device(), G2Affine::generator(), 1000);
  ASSERT_TRUE(g1.ok() && g2.ok());
  groth16::SetupOptions dev_opts = host_opts;
  dev_opts.g1_mul_many = [&](std::span<const Fr> k, std::span<G1Affine> out) { return g1->mul_many(k, out); };
  dev_opts.g2_mul_many = [&](std::span<const Fr> k, std::span<G2Affine> out) { return g2->mul_many(k, out); };
  auto got = groth16::generate_parameters(shape.matrices(), dev_opts);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(got->vk.ic == want->vk.ic);
  EXPECT_TRUE(got->h == want->h);
  EXPECT_TRUE(got->l == want->l);
  EXPECT_TRUE(got->a == want->a);
  EXPECT_TRUE(got->b_g1 == want->b_g1);
  EXPECT_TRUE(got->b_g2 == want->b_g2);
}

}  // namespace
}  // namespace cuzk
