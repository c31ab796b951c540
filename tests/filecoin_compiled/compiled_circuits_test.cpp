// Every Filecoin circuit at the 2 KiB test size through the compiled path: the blank circuit of its
// id compiled in parallel pieces (equal to compiling it sequentially), a real partition's witness
// synthesized without constraints (in parallel pieces for PoRep and PoSt), attached and evaluated
// on the CPU, against full synthesis: a, b, c, both assignments and the densities, bit for bit.
// WindowPoSt's proofs from both assignments with one key and one randomness are the same bytes and
// verify; a witness is refused by another circuit's compiled form.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "../filecoin_circuits/post_test_sector.hpp"
#include "../filecoin_circuits/update_test_sector.hpp"
#include "../r1cs_compiled/compiled_test_util.hpp"
#include "filecoin/circuits/porep_synthesis.hpp"
#include "filecoin/circuits/porep_vanilla.hpp"
#include "filecoin/circuits/post_synthesis.hpp"
#include "filecoin/circuits/post_vanilla.hpp"
#include "filecoin/circuits/post_witness.hpp"
#include "filecoin/circuits/update_vanilla.hpp"
#include "filecoin/proofs/blank_circuit.hpp"
#include "filecoin/proofs/compiled_circuits.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/proof.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::filecoin {
namespace {

constexpr unsigned kThreads = 3;  // more pieces than the machine's cores, on purpose
constexpr uint64_t k2KiB = 2048;

using CompiledPtr = std::shared_ptr<const r1cs::CompiledCircuit>;

// The blank circuit of `id` compiled in parallel pieces, checked against sequential compilation.
CompiledPtr compiled_blank(CircuitId id) {
  auto parallel = compile_blank_circuit(id, kThreads);
  EXPECT_TRUE(parallel.ok()) << parallel.message();
  auto blank = blank_circuit(id);
  EXPECT_TRUE(blank.ok()) << blank.message();
  auto sequential = r1cs::compile(**blank);
  EXPECT_TRUE(sequential.ok()) << sequential.message();
  r1cs::test::expect_same_compiled(*parallel, *sequential);
  return std::make_shared<const r1cs::CompiledCircuit>(std::move(*parallel));
}

// The partition's witness (parallel where the circuit splits) through `compiled`, against `full`.
r1cs::Assignment expect_compiled_equals_full(const r1cs::Circuit& circuit, const CompiledPtr& compiled,
                                             const r1cs::Assignment& full) {
  auto witness = synthesize_partition_witness(circuit, kThreads);
  EXPECT_TRUE(witness.ok()) << witness.message();
  EXPECT_EQ(witness->witness_rows, full.a.size());
  r1cs::Assignment as = r1cs::test::materialized(std::move(*witness), compiled, kThreads);
  r1cs::test::expect_same_assignment(as, full);
  return as;
}

// -------------------------------------------------------------------------------------- PoRep

Domain filled(uint8_t v) {
  Domain d;
  d.fill(v);
  return d;
}

const PorepPartition& porep_2kib() {
  static const PorepPartition p = [] {
    std::vector<uint8_t> raw(2032);
    for (size_t i = 0; i < raw.size(); ++i) raw[i] = uint8_t(i * 53 + 1);
    // Registered proof 5: StackedDrg2KiBV1_1.
    const vanilla::TestSector s =
        vanilla::seal_test_sector(5, filled(3), 12, filled(4), filled(5), raw).value();
    const SealCommitPhase1Output c1 = vanilla::commit_phase1(s).value();
    return porep_partition_from_c1(c1, 0, vanilla::PorepCheckOptions{filled(3), 12}).value();
  }();
  return p;
}

TEST(CompiledFilecoin, PorepPartitionEqualsFullSynthesis) {
  const CompiledPtr cc = compiled_blank({CircuitKind::porep, k2KiB});
  const PorepCircuit& circuit = porep_2kib().circuit;
  r1cs::ProvingAssignment full;  // sequential, as bellperson synthesizes
  ASSERT_TRUE(circuit.synthesize(full).ok());
  const r1cs::Assignment want = full.finish().value();
  (void)expect_compiled_equals_full(circuit, cc, want);
  // The witness of the sequential witness-only system is the parallel one's.
  auto sequential = r1cs::synthesize_witness(circuit);
  ASSERT_TRUE(sequential.ok());
  EXPECT_TRUE(sequential->aux_assignment == want.aux_assignment);
  EXPECT_EQ(sequential->witness_rows, want.a.size());
}

// -------------------------------------------------------------------------------------- PoSt

PostPartition window_2kib(std::mt19937_64& rng) {
  const PostProofType type{PostKind::window, k2KiB, PostApiVersion::v1_2_0};
  const Domain r = test::random_randomness(rng);
  const test::SmallSector a(1042, rng), b(7, rng);
  auto leaves = [&](const test::SmallSector& s) {
    std::vector<uint64_t> out;
    for (uint64_t n = 0; n < 10; ++n) out.push_back(test::leaf_challenge(r, s.id, n, 64));
    return out;
  };
  const std::vector<FallbackPostSectorProof> proofs = {a.vanilla(leaves(a)), b.vanilla(leaves(b))};
  return post_partition_from_vanilla(type, proofs, r).value();
}

PostPartition winning_2kib(std::mt19937_64& rng) {
  const PostProofType type{PostKind::winning, k2KiB, PostApiVersion::v1_0_0};
  const Domain r = test::random_randomness(rng);
  const test::SmallSector a(31337, rng);
  std::vector<uint64_t> leaves;
  for (uint64_t j = 0; j < 66; ++j) leaves.push_back(test::leaf_challenge(r, a.id, j, 64));
  const std::vector<FallbackPostSectorProof> proofs = {a.vanilla(leaves)};
  return post_partition_from_vanilla(type, proofs, r).value();
}

TEST(CompiledFilecoin, WindowPostEqualsFullSynthesisAndProvesTheSame) {
  const uint64_t seed = r1cs::test::fresh_seed();
  SCOPED_TRACE(r1cs::test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const CompiledPtr cc = compiled_blank({CircuitKind::window_post, k2KiB});
  const PostPartition part = window_2kib(rng);
  const r1cs::Assignment full = r1cs::synthesize_for_proving(part.circuit).value();
  const r1cs::Assignment compiled = expect_compiled_equals_full(part.circuit, cc, full);

  // One key (from the blank circuit's recorded rows), one randomness: the same proof, valid.
  r1cs::RecordingSystem shape(false);
  ASSERT_TRUE(FallbackPostCircuit::blank(part.circuit.params())->synthesize(shape).ok());
  auto pk = groth16::generate_parameters(shape.matrices(), {seed});
  ASSERT_TRUE(pk.ok()) << pk.message();
  const auto rs = groth16::ProofRandomness::from_seed(seed + 1);
  r1cs::Assignment x = full, y = compiled;
  auto px = groth16::create_proof(*pk, x, rs);
  auto py = groth16::create_proof(*pk, y, rs);
  ASSERT_TRUE(px.ok() && py.ok()) << px.message() << py.message();
  EXPECT_EQ(proof_to_bytes(*px), proof_to_bytes(*py));

  // The witness left to the backend (here the CPU's, which fills it on the host): the same proof.
  auto deferred = post_witness_deferred(part.circuit);
  ASSERT_TRUE(deferred.ok()) << deferred.message();
  ASSERT_TRUE(r1cs::attach_compiled(*deferred, cc).ok());
  auto pz = groth16::create_proof(*pk, *deferred, rs);
  ASSERT_TRUE(pz.ok()) << pz.message();
  EXPECT_EQ(proof_to_bytes(*px), proof_to_bytes(*pz));
  EXPECT_EQ(deferred->deferred, nullptr);  // filled, then dropped
  auto pvk = groth16::prepare_verifying_key(pk->vk);
  ASSERT_TRUE(pvk.ok());
  auto ok = groth16::verify_proof(*pvk, *py, part.public_inputs);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(*ok);
}

TEST(CompiledFilecoin, WinningPostEqualsFullSynthesis) {
  const uint64_t seed = r1cs::test::fresh_seed();
  SCOPED_TRACE(r1cs::test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const CompiledPtr cc = compiled_blank({CircuitKind::winning_post, k2KiB});
  const PostPartition part = winning_2kib(rng);
  const r1cs::Assignment full = r1cs::synthesize_for_proving(part.circuit).value();
  (void)expect_compiled_equals_full(part.circuit, cc, full);
  // Compiling the proving instance in pieces gives the blank circuit's arrays.
  auto real = compile_post(part.circuit, kThreads);
  ASSERT_TRUE(real.ok()) << real.message();
  r1cs::test::expect_same_compiled(*real, *cc);
}

// -------------------------------------------------------------------------------------- SnapDeals

TEST(CompiledFilecoin, SnapDealsEqualsFullSynthesis) {
  const CompiledPtr cc = compiled_blank({CircuitKind::update, k2KiB});
  const test::Updated2KiB& u = test::updated_2kib();
  // Registered update proof 0: StackedDrg2KiBV1.
  const UpdatePartition part =
      update_partition_from_vanilla(0, u.proofs[0], u.updated.public_inputs(0)).value();
  const r1cs::Assignment full = r1cs::synthesize_for_proving(part.circuit).value();
  (void)expect_compiled_equals_full(part.circuit, cc, full);
}

// -------------------------------------------------------------------------------------- refusals

TEST(CompiledFilecoin, AnotherCircuitsWitnessIsRefused) {
  std::mt19937_64 rng(5);
  const PostPartition window = window_2kib(rng);
  auto witness = synthesize_partition_witness(window.circuit, kThreads);
  ASSERT_TRUE(witness.ok()) << witness.message();
  auto winning = compile_blank_circuit({CircuitKind::winning_post, k2KiB}, kThreads);
  ASSERT_TRUE(winning.ok()) << winning.message();
  r1cs::Assignment as = *witness;
  const Status s =
      r1cs::attach_compiled(as, std::make_shared<const r1cs::CompiledCircuit>(std::move(*winning)));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("witness does not fit the compiled circuit"), std::string::npos) << s.message();
  EXPECT_EQ(as.compiled, nullptr);
  // A kind cuzk does not build is an error, not a crash.
  EXPECT_FALSE(compile_blank_circuit({CircuitKind::update_poseidon, k2KiB}, kThreads).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
