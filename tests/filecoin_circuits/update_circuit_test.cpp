// The EmptySectorUpdate circuit on a real 2 KiB update: built from the partition's vanilla proof
// (after a bincode round trip, as callers hand it over), synthesized with values it satisfies
// every row with the inputs ONE and the public inputs in upstream's order, the prover's system
// agrees, and a blank synthesis lays out the same rows. Synthesis on several threads (the
// challenges apart, joined in order) gives the sequential system bit for bit, within the
// footprint it announces. Tampered proofs are refused before
// proving with a message; a tampered witness that skips the checks leaves a row unsatisfied.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "filecoin/circuits/update_synthesis.hpp"
#include "filecoin/circuits/update_vanilla.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"
#include "update_test_sector.hpp"

namespace cuzk::filecoin {
namespace {

using test::updated_2kib;

constexpr uint64_t kUpdate2KiB = 0;  // StackedDrg2KiBV1

const UpdatePartition& partition_2kib() {
  static const UpdatePartition p = [] {
    const test::Updated2KiB& u = updated_2kib();
    const std::vector<uint8_t> bytes = write_update_vanilla_proof(u.proofs[0]);
    const UpdatePartitionProof parsed = parse_update_vanilla_proof(bytes).value();
    return update_partition_from_vanilla(kUpdate2KiB, parsed, u.updated.public_inputs(0)).value();
  }();
  return p;
}

Fr fr(const Domain& d) { return domain_to_fr(d).value(); }

TEST(UpdateCircuit, PublicInputsInUpstreamOrder) {
  const test::Updated2KiB& u = updated_2kib();
  const UpdatePartition& p = partition_2kib();
  ASSERT_EQ(p.public_inputs.size(), 4u);
  EXPECT_EQ(p.public_inputs[0], Fr::one());  // k = 0 | h_select 1 << 0
  EXPECT_EQ(p.public_inputs[1], fr(u.sealed.comm_r));
  EXPECT_EQ(p.public_inputs[2], fr(u.updated.comm_d_new));
  EXPECT_EQ(p.public_inputs[3], fr(u.updated.comm_r_new));
  EXPECT_EQ(p.circuit.public_inputs(), p.public_inputs);
  EXPECT_EQ(p.circuit.num_public_inputs(), 4u);
  EXPECT_EQ(update_public_inputs(p.circuit.shape(), u.updated.public_inputs(0)).value(), p.public_inputs);
}

TEST(UpdateCircuit, RealPartitionSatisfiesEveryRow) {
  const UpdatePartition& p = partition_2kib();
  r1cs::RecordingSystem rec;
  const Status s = p.circuit.synthesize(rec);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(rec.num_constraints(), 1'705'039u);
  const auto bad = rec.first_unsatisfied();
  EXPECT_FALSE(bad.has_value()) << "row " << *bad;
  ASSERT_EQ(rec.num_inputs(), 5u);
  EXPECT_EQ(rec.input_assignment()[0], Fr::one());
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(rec.input_assignment()[1 + i], p.public_inputs[i]) << "input " << i;

  // The prover's system gets the same assignment and satisfies its rows, the input rows included.
  auto as = r1cs::synthesize_for_proving(p.circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  EXPECT_EQ(as->num_constraints(), 1'705'044u);
  EXPECT_TRUE(std::equal(as->input_assignment.begin(), as->input_assignment.end(),
                         rec.input_assignment().begin(), rec.input_assignment().end()));
  EXPECT_TRUE(std::equal(as->aux_assignment.begin(), as->aux_assignment.end(), rec.aux_assignment().begin(),
                         rec.aux_assignment().end()));
  std::vector<Fr> scratch;
  const std::vector<Fr>& c = r1cs::c_values(*as, scratch);
  for (size_t j = 0; j < as->num_constraints(); ++j) ASSERT_EQ(as->a[j] * as->b[j], c[j]) << "row " << j;
}

const r1cs::Assignment& sequential_2kib() {
  static const r1cs::Assignment as = r1cs::synthesize_for_proving(partition_2kib().circuit).value();
  return as;
}

void expect_same_bits(const r1cs::DensityBitmap& x, const r1cs::DensityBitmap& y, const char* what) {
  ASSERT_EQ(x.bit_len, y.bit_len) << what;
  EXPECT_EQ(x.popcount, y.popcount) << what;
  for (size_t i = 0; i < x.bit_len; ++i) ASSERT_EQ(x.get(i), y.get(i)) << what << " bit " << i;
}

TEST(UpdateCircuit, ParallelSynthesisIsSequentialBitForBit) {
  const r1cs::Assignment& seq = sequential_2kib();
  // 10 challenges: 3 threads run 3 workers with at most 6 pieces alive; 16 threads one a challenge;
  // 1 thread one worker.
  for (unsigned threads : {3u, 16u, 1u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    auto par = synthesize_update_for_proving(partition_2kib().circuit, threads);
    ASSERT_TRUE(par.ok()) << par.message();
    EXPECT_TRUE(par->a == seq.a);
    EXPECT_TRUE(par->b == seq.b);
    EXPECT_TRUE(par->c == seq.c);
    EXPECT_EQ(par->c_from_ab, seq.c_from_ab);
    EXPECT_TRUE(par->input_assignment == seq.input_assignment);
    EXPECT_TRUE(par->aux_assignment == seq.aux_assignment);
    expect_same_bits(par->a_aux_density, seq.a_aux_density, "a aux");
    expect_same_bits(par->b_input_density, seq.b_input_density, "b input");
    expect_same_bits(par->b_aux_density, seq.b_aux_density, "b aux");
  }
}

TEST(UpdateCircuit, FootprintCountsTheSynthesizedSystem) {
  const r1cs::Assignment& seq = sequential_2kib();
  for (unsigned threads : {1u, 3u, 16u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    auto f = update_synthesis_footprint(partition_2kib().circuit.shape(), threads);
    ASSERT_TRUE(f.ok()) << f.message();
    EXPECT_EQ(f->whole.rows(), 1'705'044u);  // upstream's 1,705,039 (update_circuit.hpp) + 5 input rows
    EXPECT_EQ(f->whole.rows(), seq.num_constraints());
    EXPECT_EQ(f->whole.inputs, seq.input_assignment.size());
    EXPECT_EQ(f->whole.aux, seq.aux_assignment.size());
    EXPECT_EQ(f->pieces_alive, std::min<size_t>(10, threads < 5 ? 2 * threads : 10));
    // The pieces are the challenges: ten of them after the top part make the whole.
    EXPECT_EQ(f->prefix.constraints + 10 * f->piece.constraints, f->whole.constraints);
    // At least the joined system's vectors at the domain size, and each live piece's.
    const uint64_t joined = 32 * (3 * (uint64_t(1) << 21) + seq.aux_assignment.size());
    EXPECT_GE(f->peak_bytes(), joined + f->pieces_alive * 32 * 3 * f->piece.constraints);
  }
}

TEST(UpdateCircuit, BlankAndRealRowsAreTheSame) {
  const UpdatePartition& p = partition_2kib();
  r1cs::RecordingSystem real;
  ASSERT_TRUE(p.circuit.synthesize(real).ok());
  auto blank = UpdateCircuit::blank(p.circuit.shape());
  ASSERT_TRUE(blank.ok()) << blank.message();
  EXPECT_TRUE(blank->is_blank());
  r1cs::RecordingSystem shape(false);
  ASSERT_TRUE(blank->synthesize(shape).ok());
  const r1cs::ConstraintMatrices a = real.matrices(), b = shape.matrices();
  EXPECT_EQ(a.num_inputs, b.num_inputs);
  EXPECT_EQ(a.num_aux, b.num_aux);
  ASSERT_EQ(a.num_constraints(), b.num_constraints());
  EXPECT_TRUE(a.a == b.a);
  EXPECT_TRUE(a.b == b.b);
  EXPECT_TRUE(a.c == b.c);
}

TEST(UpdateCircuit, ConstrainsWhatTheCheckerChecks) {
  // A witness with one tree_d sibling changed, built without the vanilla check: the circuit lays
  // out but its rows do not hold.
  UpdateWitness w = partition_2kib().circuit.witness();
  w.challenges[3].path_d_new[1] += Fr::one();
  auto c = UpdateCircuit::create(partition_2kib().circuit.shape(), std::move(w));
  ASSERT_TRUE(c.ok()) << c.message();
  r1cs::RecordingSystem rec;
  ASSERT_TRUE(c->synthesize(rec).ok());
  EXPECT_TRUE(rec.first_unsatisfied().has_value());
}

// update_partition_from_vanilla's verdict on the 2 KiB proof after `tamper`.
std::string refusal(const std::function<void(UpdatePartitionProof&, vanilla::UpdatePublicInputs&)>& tamper) {
  const test::Updated2KiB& u = updated_2kib();
  UpdatePartitionProof p = u.proofs[0];
  vanilla::UpdatePublicInputs in = u.updated.public_inputs(0);
  tamper(p, in);
  auto r = update_partition_from_vanilla(kUpdate2KiB, p, in);
  return r.ok() ? "accepted" : r.message();
}

TEST(UpdateCircuit, TamperedProofsAreRefusedBeforeProving) {
  EXPECT_EQ(refusal([](auto&, auto& in) { in.comm_r_new[5] ^= 4; }),
            "partition 0: comm_r_new is not Poseidon(comm_c, root_r_new), root_r_new being challenge 0's "
            "proof_r_new "
            "root");
  EXPECT_EQ(refusal([](auto& p, auto&) { p.challenge_proofs[6].proof_r_new.base[0].hashes[5][2] ^= 1; }),
            "partition 0 challenge 6: proof_r_new does not reach root_r_new");
  EXPECT_EQ(refusal([](auto& p, auto&) { p.challenge_proofs[4].proof_d_new.base[2].hashes[0][9] ^= 1; }),
            "partition 0 challenge 4: proof_d_new does not reach the apex leaf");
  EXPECT_EQ(refusal([](auto& p, auto&) { p.apex_leafs[6][0] ^= 1; }),
            "partition 0: the apex leaves and the partition path do not reach comm_d_new");
  EXPECT_EQ(refusal([](auto&, auto& in) { in.k = 1; }), "partition 1 of a sector with 1 partitions");
  EXPECT_EQ(refusal([](auto&, auto&) {}), "accepted");
  const test::Updated2KiB& u = updated_2kib();
  EXPECT_FALSE(update_partition_from_vanilla(5, u.proofs[0], u.updated.public_inputs(0)).ok());  // no type 5
  EXPECT_FALSE(update_partition_from_vanilla(1, u.proofs[0], u.updated.public_inputs(0)).ok());  // 8 MiB
}

TEST(UpdateCircuit, AnotherPartitionsProofIsRefused) {
  // Upstream's 16 KiB test size has two partitions; partition 1's proof is not partition 0's.
  std::mt19937_64 rng(5);
  const test::RandomUpdate r = test::random_update(test::upstream_shape(512), 1, rng);
  for (uint64_t k = 0; k < 2; ++k) {
    auto ok = update_partition_from_vanilla(r.shape, r.proofs[k], r.updated.public_inputs(k));
    ASSERT_TRUE(ok.ok()) << ok.message();
    EXPECT_EQ(ok->public_inputs[0], Fr::from_u64(k | 2));  // h_select 1 above one partition bit
  }
  EXPECT_EQ(update_partition_from_vanilla(r.shape, r.proofs[1], r.updated.public_inputs(0)).message(),
            "partition 0: the apex leaves and the partition path do not reach comm_d_new");
}

TEST(UpdateCircuit, CreateRefusesWhatUpstreamAsserts) {
  const UpdateCircuit& good = partition_2kib().circuit;
  auto refuse = [&](const std::function<void(UpdateWitness&)>& f) {
    UpdateWitness w = good.witness();
    f(w);
    auto c = UpdateCircuit::create(good.shape(), std::move(w));
    return c.ok() ? std::string("accepted") : c.message();
  };
  EXPECT_EQ(refuse([](UpdateWitness& w) { w.k_and_h_select = Fr::from_u64(3); }),
            "SnapDeals circuit: h_select 3 does not have exactly one of 6 bits set");
  EXPECT_EQ(refuse([](UpdateWitness& w) { w.k_and_h_select = Fr::from_u64(64); }),
            "SnapDeals circuit: h_select 64 does not have exactly one of 6 bits set");
  EXPECT_EQ(refuse([](UpdateWitness& w) { w.apex_leaves.pop_back(); }),
            "SnapDeals circuit: 7 apex leaves and 10 challenges, expected 8 and 10");
  EXPECT_EQ(refuse([](UpdateWitness& w) { w.challenges[2].path_r_old[1].pop_back(); }),
            "SnapDeals circuit: challenge 2: path_r_old level 1 has 6 siblings for arity 8");
  EXPECT_EQ(refuse([](UpdateWitness& w) { w.challenges[2].path_d_new.pop_back(); }),
            "SnapDeals circuit: challenge 2: path_d_new has 5 levels, tree_d has 6");
  EXPECT_EQ(refuse([](UpdateWitness&) {}), "accepted");
}

}  // namespace
}  // namespace cuzk::filecoin
