// The StackedDRG PoRep circuit's shape, counted with the shape-only CountingSystem: the constraint
// and input counts rust-fil-proofs' own test asserts (storage-proofs-porep/tests/
// stacked_circuit.rs) and the per-size table of reference/filecoin-circuits.md §3.1.5, whose
// 32 GiB row is Curio's measurement of the real circuit (130,278,869 rows, 328 inputs,
// 130,169,893 aux).
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "filecoin/circuits/porep_circuit.hpp"
#include "filecoin/circuits/porep_synthesis.hpp"
#include "r1cs/counting_system.hpp"

namespace cuzk::filecoin {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

r1cs::ShapeCounts count(const PorepParams& params) {
  auto circuit = PorepCircuit::blank(params);
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  if (!circuit) return {};
  r1cs::CountingSystem cs;
  const Status s = circuit->synthesize(cs);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cs.num_inputs(), 1 + circuit->num_public_inputs());
  return {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
}

r1cs::ShapeCounts count_on_all_cores(const PorepParams& params) {
  auto circuit = PorepCircuit::blank(params);
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  if (!circuit) return {};
  auto n = count_porep(*circuit, std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_TRUE(n.ok()) << n.message();
  return n ? *n : r1cs::ShapeCounts{};
}

PorepParams params_of(uint64_t sector_size) {
  auto p = porep_params(sector_size);
  EXPECT_TRUE(p.ok()) << p.message();
  return p ? *p : PorepParams{};
}

// stacked_circuit.rs `test_stacked_porep_circuit`: 2 layers, 1 challenge, nodes = 8 × the number
// of base trees, tree_c and tree_r_last of the test's shape (base arity 2 included).
TEST(PorepCounts, UpstreamCircuitTests) {
  struct Case {
    TreeShape tree;
    size_t constraints;
  };
  const Case cases[] = {
      {{2, 0, 0}, 1'206'212},  // test_stacked_porep_circuit_poseidon_base_2
      {{8, 0, 0}, 1'199'620},  // test_stacked_input_circuit_poseidon_base_8
      {{8, 4, 0}, 1'296'576},  // test_stacked_input_circuit_poseidon_sub_8_4
      {{8, 4, 2}, 1'346'982},  // test_stacked_input_circuit_poseidon_top_8_4_2
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.tree.name());
    const PorepParams p{8 * c.tree.base_trees(), 2, 1, c.tree};
    const r1cs::ShapeCounts n = count(p);
    EXPECT_EQ(n.inputs, 22u);
    EXPECT_EQ(n.constraints, c.constraints);
  }
}

// §3.1.5: constraints, inputs (ONE included), aux. 2 KiB counted in one system and with the
// challenges counted apart (count_porep); the others with count_porep.
TEST(PorepCounts, TestSizes) {
  struct Case {
    uint64_t size;
    size_t constraints, aux;
  };
  const Case cases[] = {
      {2 * kKiB, 2'687'921, 2'685'673},
      {8 * kMiB, 3'844'929, 3'842'449},
      {512 * kMiB, 4'423'433, 4'420'837},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.size);
    const r1cs::ShapeCounts n = count_on_all_cores(params_of(c.size));
    EXPECT_EQ(n.constraints, c.constraints);
    EXPECT_EQ(n.inputs, 40u);
    EXPECT_EQ(n.rows(), c.constraints + 40);
    EXPECT_EQ(n.aux, c.aux);
  }
  const r1cs::ShapeCounts whole = count(params_of(2 * kKiB));
  EXPECT_EQ(whole.constraints, 2'687'921u);
  EXPECT_EQ(whole.inputs, 40u);
  EXPECT_EQ(whole.aux, 2'685'673u);
}

// A production partition with one challenge: the top part (571 rows and aux) and one challenge
// (§3.1.5's 32 GiB breakdown: 7,237,665 rows). A challenge's rows and variables do not depend on
// its values or its place, so the whole partition is the top part and 18 of these; the slow test
// (porep_slow_test) counts all 18 and the 64 GiB partition.
TEST(PorepCounts, ThirtyTwoGiBTopAndOneChallenge) {
  PorepParams p = params_of(32 * kGiB);
  EXPECT_EQ(p.challenge_count, 18u);
  p.challenge_count = 1;
  const r1cs::ShapeCounts n = count(p);
  EXPECT_EQ(n.constraints, 571u + 30 * 45'382 + 2 + 14 * (598 + 5'302) + 65 + (6 + 10 * 14) * 256 +
                               11 * 522'269 + 1 + 5'302 + 598 + 5'302);
  EXPECT_EQ(n.constraints, 571u + 7'237'665);
  EXPECT_EQ(n.inputs, 22u);
  // (130,169,893 − 571) / 18 aux per challenge.
  EXPECT_EQ(n.aux, 571u + 7'231'629);
}

TEST(PorepCounts, ShapesThatCannotBe) {
  EXPECT_FALSE(porep_params(4 * kKiB).ok());
  PorepParams p{64, 2, 1, {8, 0, 0}};
  p.layers = 3;  // no Poseidon column hash of arity 3
  EXPECT_FALSE(PorepCircuit::blank(p).ok());
  p.layers = 2;
  p.nodes = 96;
  auto c = PorepCircuit::blank(p);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.message(), "PoRep: 96 nodes in trees of shape 8-0-0: the nodes are not a power of two ≥ 2");
  p.nodes = 64;
  p.tree = {8, 0, 2};
  EXPECT_FALSE(PorepCircuit::blank(p).ok());
  p.tree = {8, 0, 0};
  p.challenge_count = 0;
  EXPECT_FALSE(PorepCircuit::blank(p).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
