// The compiled path on the sample circuits (Poseidon Merkle inclusion, SHA-256 preimage, the
// synthetic benchmark circuit) and on circom circuits (.r1cs + .wtns from tests/data): equal to full
// synthesis (or, for circom, the matrix evaluator the prover uses), and Groth16 proofs made from
// either assignment with the same randomness are the same bytes and verify.
#include <gtest/gtest.h>

#include <string>

#include "backend/cpu/cpu_backend.hpp"
#include "compiled_test_util.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/proof.hpp"
#include "io/r1cs_convert.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/compiled/evaluate.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {
namespace {

const std::string kData = CUZK_TEST_DATA;

std::unique_ptr<Circuit> sample(const std::string& kind) {
  SampleSpec spec;
  spec.kind = kind;
  spec.merkle_depth = 4;
  spec.message_bytes = 70;
  spec.log_domain = 11;
  spec.seed = test::fresh_seed();
  auto c = make_sample_circuit(spec);
  EXPECT_TRUE(c.ok()) << c.message();
  return std::move(*c);
}

// Proofs from both assignments with one key and one randomness: the same bytes, and valid.
void expect_same_proofs(const ConstraintMatrices& m, const Assignment& full, const Assignment& compiled) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  auto pk = groth16::generate_parameters(m, {seed});
  ASSERT_TRUE(pk.ok()) << pk.message();
  const auto rs = groth16::ProofRandomness::from_seed(seed + 1);
  Assignment x = full, y = compiled;  // the prover spends a, b, c
  auto px = groth16::create_proof(*pk, x, rs);
  auto py = groth16::create_proof(*pk, y, rs);
  ASSERT_TRUE(px.ok() && py.ok()) << px.message() << py.message();
  EXPECT_EQ(proof_to_bytes(*px), proof_to_bytes(*py));
  auto pvk = groth16::prepare_verifying_key(pk->vk);
  ASSERT_TRUE(pvk.ok());
  const std::vector<Fr> inputs(full.input_assignment.begin() + 1, full.input_assignment.end());
  auto ok = groth16::verify_proof(*pvk, *py, inputs);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(*ok);
}

TEST(CompiledSamples, EqualFullSynthesis) {
  for (const char* kind : {"merkle", "sha256", "synthetic"}) {
    SCOPED_TRACE(kind);
    const auto circuit = sample(kind);
    test::expect_compiled_path_equal(*circuit, 2);
  }
}

TEST(CompiledSamples, ProofsEqualFullSynthesisProofs) {
  const auto circuit = sample("merkle");
  RecordingSystem shape(false);
  ASSERT_TRUE(circuit->synthesize(shape).ok());
  const Assignment full = synthesize_for_proving(*circuit).value();
  ProvingAssignment wo = ProvingAssignment::witness_only();
  ASSERT_TRUE(circuit->synthesize(wo).ok());
  const auto cc = std::make_shared<const CompiledCircuit>(compile(*circuit).value());
  const Assignment compiled = test::materialized(wo.finish().value(), cc, 2);
  expect_same_proofs(shape.matrices(), full, compiled);

  // Without C the prover forms c = a∘b itself, and the proof is still the same.
  const auto no_c = std::make_shared<const CompiledCircuit>(compile(*circuit, {.keep_c = false}).value());
  ProvingAssignment wo2 = ProvingAssignment::witness_only();
  ASSERT_TRUE(circuit->synthesize(wo2).ok());
  const Assignment from_ab = test::materialized(wo2.finish().value(), no_c, 2);
  EXPECT_TRUE(from_ab.c_from_ab);
  expect_same_proofs(shape.matrices(), full, from_ab);
}

// A CPU backend that does not take compiled rows: the prover then forms a, b, c on the host.
class RowlessBackend final : public ComputeBackend {
 public:
  std::string name() const override { return "cpu without rows"; }
  Status compute_h(const HRequest& rq) override {
    if (rq.rows) return make_error("rows given to a backend that does not take them");
    return cpu_.compute_h(rq);
  }
  Result<G1Jacobian> msm(const MsmRequest<G1Affine>& rq) override { return cpu_.msm(rq); }
  Result<G2Jacobian> msm(const MsmRequest<G2Affine>& rq) override { return cpu_.msm(rq); }

 private:
  cpu::CpuBackend cpu_;
};

// The prover takes an attached witness-only assignment as it is (no materialize): the backend's
// sparse product, or the host's for a backend without one, gives the same proof as full synthesis,
// with C kept and with c = a∘b.
TEST(CompiledSamples, TheProverTakesTheWitnessAndTheCompiledRows) {
  const auto circuit = sample("sha256");
  RecordingSystem shape(false);
  ASSERT_TRUE(circuit->synthesize(shape).ok());
  const ConstraintMatrices m = shape.matrices();
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  auto pk = groth16::generate_parameters(m, {seed});
  ASSERT_TRUE(pk.ok()) << pk.message();
  const auto rs = groth16::ProofRandomness::from_seed(seed + 1);
  Assignment full = synthesize_for_proving(*circuit).value();
  auto want = groth16::create_proof(*pk, full, rs);
  ASSERT_TRUE(want.ok()) << want.message();
  for (const bool keep_c : {true, false}) {
    const auto cc = std::make_shared<const CompiledCircuit>(compile(*circuit, {.keep_c = keep_c}).value());
    cpu::CpuBackend with_rows;
    RowlessBackend rowless;
    for (ComputeBackend* backend : std::initializer_list<ComputeBackend*>{&with_rows, &rowless}) {
      SCOPED_TRACE(backend->name() + (keep_c ? ", with C" : ", without C"));
      ProvingAssignment wo = ProvingAssignment::witness_only();
      ASSERT_TRUE(circuit->synthesize(wo).ok());
      Assignment as = wo.finish().value();
      ASSERT_TRUE(attach_compiled(as, cc).ok());
      auto got = groth16::create_proof(*pk, as, rs, *backend);
      ASSERT_TRUE(got.ok()) << got.message();
      EXPECT_EQ(proof_to_bytes(*got), proof_to_bytes(*want));
    }
  }
  // Unattached, the witness alone cannot be proved: a clear error, not a proof.
  ProvingAssignment wo = ProvingAssignment::witness_only();
  ASSERT_TRUE(circuit->synthesize(wo).ok());
  Assignment bare = wo.finish().value();
  auto refused = groth16::create_proof(*pk, bare, rs);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("compiled circuit"), std::string::npos) << refused.message();
}

struct CircomFixture {
  ConstraintMatrices m;
  std::vector<Fr> witness;
};

CircomFixture circom(const std::string& r1cs, const std::string& wtns) {
  auto cs = read_r1cs(r1cs);
  EXPECT_TRUE(cs.ok()) << cs.message();
  auto w = read_wtns(wtns);
  EXPECT_TRUE(w.ok()) << w.message();
  return {to_constraint_matrices(*cs), w->values};
}

TEST(CompiledCircom, EqualsTheMatrixEvaluatorAndProvesTheSame) {
  const std::pair<std::string, std::string> fixtures[] = {
      {kData + "/circom/bits/circuit.r1cs", kData + "/circom/bits/witness.wtns"},
      {kData + "/circom/multiplier/circuit.r1cs", kData + "/circom/multiplier/witness.wtns"},
      {kData + "/snarkjs/toy.r1cs", kData + "/snarkjs/toy.wtns"}};
  for (const auto& [r1cs, wtns] : fixtures) {
    SCOPED_TRACE(r1cs);
    const CircomFixture f = circom(r1cs, wtns);
    ASSERT_FALSE(f.witness.empty());
    auto want = evaluate(f.m, f.witness, 2);
    ASSERT_TRUE(want.ok()) << want.message();
    auto cc = compile(f.m);
    ASSERT_TRUE(cc.ok()) << cc.message();
    auto as = witness_assignment(std::make_shared<const CompiledCircuit>(std::move(*cc)), f.witness);
    ASSERT_TRUE(as.ok()) << as.message();
    ASSERT_TRUE(materialize(*as, 2).ok());
    test::expect_same_assignment(*as, *want);
    expect_same_proofs(f.m, *want, *as);
  }
}

TEST(CompiledCircom, AWitnessOfAnotherCircuitIsRefused) {
  const CircomFixture bits = circom(kData + "/circom/bits/circuit.r1cs", kData + "/circom/bits/witness.wtns");
  const CircomFixture mul =
      circom(kData + "/circom/multiplier/circuit.r1cs", kData + "/circom/multiplier/witness.wtns");
  const auto cc = std::make_shared<const CompiledCircuit>(compile(bits.m).value());
  auto as = witness_assignment(cc, mul.witness);
  ASSERT_FALSE(as.ok());
  EXPECT_NE(as.message().find("wires"), std::string::npos) << as.message();
}

}  // namespace
}  // namespace cuzk::r1cs
