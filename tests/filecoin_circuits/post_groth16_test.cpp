// A Groth16 round trip on the 2 KiB WindowPoSt circuit (about 22 k rows): parameters from the blank
// circuit's recorded rows, a proof from vanilla proofs of trees built here on the CPU backend, and
// verification with the public inputs upstream's verifier computes. The pieces fit: setup shape,
// prover witness and verifier inputs.
#include <gtest/gtest.h>

#include <random>

#include "filecoin/circuits/post_vanilla.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "post_test_sector.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint64_t> leaves(const Domain& r, const test::SmallSector& s) {
  std::vector<uint64_t> out;
  for (uint64_t n = 0; n < 10; ++n) out.push_back(test::leaf_challenge(r, s.id, n, 64));
  return out;
}

TEST(PostGroth16, WindowPoSt2KiBRoundTrip) {
  const uint64_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  std::mt19937_64 rng(seed);
  const PostProofType type{PostKind::window, 2048, PostApiVersion::v1_2_0};

  auto params = fallback_post_params(type.kind, type.sector_size, type.api_version);
  ASSERT_TRUE(params.ok()) << params.message();
  auto blank = FallbackPostCircuit::blank(*params);
  ASSERT_TRUE(blank.ok()) << blank.message();
  r1cs::RecordingSystem shape(false);
  ASSERT_TRUE(blank->synthesize(shape).ok());
  auto pk = groth16::generate_parameters(shape.matrices(), {seed});
  ASSERT_TRUE(pk.ok()) << pk.message();
  auto pvk = groth16::prepare_verifying_key(pk->vk);
  ASSERT_TRUE(pvk.ok()) << pvk.message();

  const Domain r = test::random_randomness(rng);
  const test::SmallSector a(1042, rng), b(7, rng);
  const std::vector<FallbackPostSectorProof> proofs = {a.vanilla(leaves(r, a)), b.vanilla(leaves(r, b))};
  auto part = post_partition_from_vanilla(type, proofs, r);
  ASSERT_TRUE(part.ok()) << part.message();
  auto as = r1cs::synthesize_for_proving(part->circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  auto proof = groth16::create_proof(*pk, *as, groth16::ProofRandomness::from_seed(seed + 1));
  ASSERT_TRUE(proof.ok()) << proof.message();

  auto ok = groth16::verify_proof(*pvk, *proof, part->public_inputs);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(*ok);

  // The verifier's inputs for another randomness, or another comm_r, reject the proof.
  const Domain other = test::random_randomness(rng);
  const PostPublicSector sectors[] = {{a.id, fr_to_domain(a.comm_r)}, {b.id, fr_to_domain(b.comm_r)}};
  auto moved = fallback_post_public_inputs(*params, other, sectors);
  ASSERT_TRUE(moved.ok());
  auto bad = groth16::verify_proof(*pvk, *proof, *moved);
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(*bad);
  std::vector<Fr> swapped = part->public_inputs;
  std::swap(swapped[0], swapped[11]);
  bad = groth16::verify_proof(*pvk, *proof, swapped);
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(*bad);
}

}  // namespace
}  // namespace cuzk::filecoin
