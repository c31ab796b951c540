// The PoRep circuit on a real 2 KiB sector (sealed by filecoin/vanilla, its commit-phase-1 output
// built there): the partition synthesized with values satisfies every row and its input variables
// are ONE and the public inputs a verifier derives; the blank circuit (what the setup sees)
// records the same matrices; synthesizing the challenges in parallel and joining them gives the
// sequential assignment bit for bit; and a tampered output is refused before any synthesis, with
// a message that names what is wrong.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "filecoin/circuits/porep_synthesis.hpp"
#include "filecoin/circuits/porep_vanilla.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {
namespace {

Domain filled(uint8_t v) {
  Domain d;
  d.fill(v);
  return d;
}

const SealCommitPhase1Output& c1_2kib() {
  static const SealCommitPhase1Output c1 = [] {
    std::vector<uint8_t> raw(2032);
    for (size_t i = 0; i < raw.size(); ++i) raw[i] = uint8_t(i * 29 + 3);
    // Registered proof 5: StackedDrg2KiBV1_1.
    const vanilla::TestSector s =
        vanilla::seal_test_sector(5, filled(7), 31, filled(8), filled(9), raw).value();
    return vanilla::commit_phase1(s).value();
  }();
  return c1;
}

const PorepPartition& partition_2kib() {
  static const PorepPartition p =
      porep_partition_from_c1(c1_2kib(), 0, vanilla::PorepCheckOptions{filled(7), 31}).value();
  return p;
}

// The public inputs read off the commit-phase-1 output as the prover built it (the challenged
// node and the indices of the parent columns it opened), for comparison with the verifier's
// derivation and the circuit's input variables.
std::vector<Fr> inputs_from_c1(const SealCommitPhase1Output& c1) {
  std::vector<Fr> out = {*domain_to_fr(c1.replica_id), *domain_to_fr(c1.comm_d), *domain_to_fr(c1.comm_r)};
  for (const PorepChallengeProof& p : c1.vanilla_proofs[0]) {
    const Fr c = Fr::from_u64(p.labeling_proofs[0].node);
    out.push_back(c);
    for (const ColumnProof& col : p.replica_column_proofs.drg_parents)
      out.push_back(Fr::from_u64(col.column.index));
    for (const ColumnProof& col : p.replica_column_proofs.exp_parents)
      out.push_back(Fr::from_u64(col.column.index));
    out.insert(out.end(), {c, c, c});
  }
  return out;
}

// The partition synthesized for the prover, sequentially as bellperson does.
const r1cs::Assignment& sequential_2kib() {
  static const r1cs::Assignment as = [] {
    r1cs::ProvingAssignment pa;
    EXPECT_TRUE(partition_2kib().circuit.synthesize(pa).ok());
    return pa.finish().value();
  }();
  return as;
}

TEST(PorepCircuit, RealSectorSatisfiesEveryRowAndInputsArePublic) {
  const PorepPartition& part = partition_2kib();
  EXPECT_EQ(part.public_inputs, inputs_from_c1(c1_2kib()));
  const r1cs::Assignment& as = sequential_2kib();
  // §3.1.5: 2,687,921 rows and 40 input rows; 2,685,673 aux.
  EXPECT_EQ(as.num_constraints(), 2'687'961u);
  EXPECT_EQ(as.aux_assignment.size(), 2'685'673u);
  // Satisfied: every row's evaluations multiply out (the input rows x·0 = 0 too).
  size_t bad = 0;
  for (size_t j = 0; j < as.a.size(); ++j) bad += as.a[j] * as.b[j] != as.c[j];
  EXPECT_EQ(bad, 0u);
  std::vector<Fr> expected = {Fr::one()};
  expected.insert(expected.end(), part.public_inputs.begin(), part.public_inputs.end());
  EXPECT_TRUE(as.input_assignment == expected);
}

TEST(PorepCircuit, BlankAndRealRecordTheSameMatrices) {
  // The blank circuit, as the parameter setup synthesizes it, has the rows and columns of the
  // real partition. Compared a challenge at a time after the top part (a challenge reads only
  // the top part's variables and its own, so the partition's matrices are these pieces in order,
  // each challenge's columns shifted past the ones before), which halves the memory the recorded
  // matrices take.
  const PorepCircuit& circuit = partition_2kib().circuit;
  auto blank = PorepCircuit::blank(porep_params(2048).value());
  ASSERT_TRUE(blank.ok()) << blank.message();
  for (size_t i = 0; i < circuit.challenge_count(); ++i) {
    SCOPED_TRACE("challenge " + std::to_string(i));
    r1cs::RecordingSystem real, shape(/*with_values=*/false);
    ASSERT_TRUE(circuit.synthesize_challenge(real, circuit.synthesize_top(real).value(), i).ok());
    ASSERT_TRUE(blank->synthesize_challenge(shape, blank->synthesize_top(shape).value(), i).ok());
    const r1cs::ConstraintMatrices r = real.matrices(), setup = shape.matrices();
    EXPECT_EQ(setup.num_inputs, 1u + 3 + 18);
    EXPECT_EQ(setup.num_inputs, r.num_inputs);
    EXPECT_EQ(setup.num_aux, r.num_aux);
    EXPECT_EQ(setup.num_constraints(), 571u + (2'687'921 - 571) / 2);
    EXPECT_TRUE(setup.a == r.a && setup.b == r.b && setup.c == r.c);
  }
}

TEST(PorepCircuit, ParallelSynthesisIsSequentialBitForBit) {
  const r1cs::Assignment& seq = sequential_2kib();
  auto par = synthesize_porep_for_proving(partition_2kib().circuit, 3);
  ASSERT_TRUE(par.ok()) << par.message();
  EXPECT_TRUE(par->a == seq.a);
  EXPECT_TRUE(par->b == seq.b);
  EXPECT_TRUE(par->c == seq.c);
  EXPECT_TRUE(par->input_assignment == seq.input_assignment);
  EXPECT_TRUE(par->aux_assignment == seq.aux_assignment);
  EXPECT_EQ(par->a_aux_density, seq.a_aux_density);
  EXPECT_EQ(par->b_input_density, seq.b_input_density);
  EXPECT_EQ(par->b_aux_density, seq.b_aux_density);
}

TEST(PorepCircuit, TamperedOutputsAreRefusedBeforeProving) {
  struct Tamper {
    const char* what;
    std::function<void(SealCommitPhase1Output&)> edit;
    std::string message;
  };
  const std::string at = "PoRep: partition 0 challenge 1: ";
  const std::vector<Tamper> cases = {
      {"a tree_d sibling", [](auto& c1) { c1.vanilla_proofs[0][1].comm_d_proofs.base[3].hashes[0][4] ^= 1; },
       at + "comm_d proof does not reach comm_d"},
      {"a tree_c sibling",
       [](auto& c1) {
         c1.vanilla_proofs[0][1].replica_column_proofs.exp_parents[6].inclusion_proof.base[1].hashes[2][0] ^=
             1;
       },
       at + "exp parent 6 column does not reach comm_c"},
      {"a label parent", [](auto& c1) { c1.vanilla_proofs[0][1].labeling_proofs[1].parents[20][3] ^= 1; },
       at + "labeling proof 2 parents are not the parent columns' labels"},
      {"a parent column's label",
       [](auto& c1) { c1.vanilla_proofs[0][1].replica_column_proofs.drg_parents[2].column.rows[0][0] ^= 1; },
       at + "drg parent 2 column hash is not its inclusion proof's leaf"},
      {"comm_r", [](auto& c1) { c1.comm_r[0] ^= 1; }, "PoRep: comm_r is not Poseidon2(comm_c, comm_r_last)"},
      {"the seed", [](auto& c1) { c1.seed[0] ^= 1; }, "PoRep: partition 0 challenge 0: challenge is "},
      {"the registered proof", [](auto& c1) { c1.registered_proof = "StackedDrg8MiBV1_1"; },
       "PoRep: vanilla_proofs key is StackedDrg2KiBV1, StackedDrg8MiBV1_1 uses StackedDrg8MiBV1"},
      {"the challenge count", [](auto& c1) { c1.vanilla_proofs[0].pop_back(); },
       "PoRep: partition 0 has 1 challenges, StackedDrg2KiBV1_1 has 2"},
  };
  for (const Tamper& t : cases) {
    SealCommitPhase1Output c1 = c1_2kib();
    t.edit(c1);
    auto p = porep_partition_from_c1(c1, 0);
    ASSERT_FALSE(p.ok()) << t.what;
    EXPECT_EQ(p.message().substr(0, t.message.size()), t.message) << t.what;
  }
  auto p = porep_partition_from_c1(c1_2kib(), 1);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.message(), "PoRep: partition 1 of a proof with 1");
  // replica_id is checked against the prover and sector ids when they are given.
  p = porep_partition_from_c1(c1_2kib(), 0, vanilla::PorepCheckOptions{filled(7), 32});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.message(),
            "PoRep: replica_id does not follow from prover_id, sector_id, ticket, comm_d and porep_id");
}

TEST(PorepCircuit, WitnessesThatDoNotFitAreRefused) {
  const PorepParams params = porep_params(2048).value();
  PorepWitness w = partition_2kib().circuit.witness();
  w.challenges[1].exp_parents[3].rows.pop_back();
  auto c = PorepCircuit::create(params, w);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.message(), "PoRep: challenge 1: exp parent 3 has 1 rows for 2 layers");
  w = partition_2kib().circuit.witness();
  w.challenges[0].comm_d_path.pop_back();
  EXPECT_EQ(PorepCircuit::create(params, w).message(),
            "PoRep: challenge 0: comm_d path has 5 levels, the tree 6");
  w = partition_2kib().circuit.witness();
  w.challenges.pop_back();
  EXPECT_FALSE(PorepCircuit::create(params, w).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
