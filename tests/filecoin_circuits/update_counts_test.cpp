// The EmptySectorUpdate circuit's size, counted with CountingSystem against what upstream asserts
// (storage-proofs-update tests/circuit.rs: 1, 2, 4 and 8 KiB; gadgets.rs: gen_challenge_bits and
// apex_por) and the 8 MiB count derived in reference/filecoin-circuits.md §3.3. The larger sizes
// (16 and 32 KiB, 512 MiB, 32 and 64 GiB) are in update_counts_slow_test.cpp.
#include <gtest/gtest.h>

#include "filecoin/circuits/update_circuit.hpp"
#include "filecoin/circuits/update_gadgets.hpp"
#include "filecoin/vanilla/update_challenges.hpp"
#include "r1cs/counting_system.hpp"
#include "r1cs/matrices.hpp"
#include "update_counts.hpp"
#include "update_test_sector.hpp"

namespace cuzk::filecoin {
namespace {

using test::count_update;

TEST(UpdateCounts, UpstreamSmallSizes) {
  // tests/circuit.rs test_empty_sector_update_circuit_{1,2,4,8}kib.
  EXPECT_EQ(count_update(test::upstream_shape(1 << 5)).constraints, 1'248'389u);
  EXPECT_EQ(count_update(test::upstream_shape(1 << 7)).constraints, 2'165'109u);
  EXPECT_EQ(count_update(test::upstream_shape(1 << 8)).constraints, 2'620'359u);
}

TEST(UpdateCounts, TwoKiB) {
  const r1cs::ShapeCounts n = count_update(vanilla::update_shape(2048).value());
  EXPECT_EQ(n.constraints, 1'705'039u);
  EXPECT_EQ(n.inputs, 5u);  // ONE and the 4 public inputs
  EXPECT_EQ(n.rows(), 1'705'044u);
}

TEST(UpdateCounts, EightMiB) {
  const r1cs::ShapeCounts n = count_update(vanilla::update_shape(8 << 20).value());
  EXPECT_EQ(n.constraints, 10'007'503u);
  EXPECT_EQ(n.inputs, 5u);
}

TEST(UpdateGadgets, GenChallengeBitsRowsAndBits) {
  // gadgets.rs test_gen_challenge_bits_gadget: rows per size, and the bits (with the partition
  // bits on top) spell the vanilla challenges.
  const size_t expected[11] = {568, 568, 568, 568, 568, 568, 568, 568, 4544, 5680, 5680};
  std::mt19937_64 rng(11);
  for (size_t n = 0; n < 11; ++n) {
    const vanilla::UpdateShape s = test::upstream_shape(test::kUpstreamNodes[n]);
    const Fr comm_r_new = domain_to_fr(test::random_domain(rng)).value();
    for (uint64_t k : {uint64_t(0), uint64_t(s.partitions - 1)}) {
      r1cs::RecordingSystem cs;
      const auto comm = r1cs::AllocatedNum::alloc(cs, comm_r_new);
      const auto partition = r1cs::AllocatedNum::alloc(cs, Fr::from_u64(k));
      auto bits = gen_challenge_bits(cs, comm, partition, s.challenges, s.random_bits());
      ASSERT_TRUE(bits.ok()) << bits.message();
      EXPECT_EQ(cs.num_constraints(), expected[n]) << s.nodes;
      EXPECT_TRUE(cs.is_satisfied()) << s.nodes;
      const std::vector<uint64_t> want = vanilla::update_challenges(s, comm_r_new, k);
      ASSERT_EQ(bits->size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        uint64_t c = k << s.random_bits();
        for (size_t b = 0; b < (*bits)[i].size(); ++b) c |= uint64_t((*bits)[i][b].value()) << b;
        EXPECT_EQ(c, want[i]) << s.nodes << " nodes, challenge " << i;
      }
    }
  }
}

TEST(UpdateGadgets, ApexPorSmallSizes) {
  // gadgets.rs test_apex_por_gadget_small_sector_sizes: 1–8 KiB, one partition of 8 apex leaves:
  // 7 node hashes and the root equality.
  for (uint64_t nodes : {1 << 5, 1 << 6, 1 << 7, 1 << 8}) {
    const vanilla::UpdateShape s = test::upstream_shape(nodes);
    EXPECT_EQ(test::count_apex_por(s.partitions, s.apex_leaves), 317'654u) << nodes;
  }
}

TEST(UpdateCounts, BlankShapesThatCannotBe) {
  vanilla::UpdateShape s = vanilla::update_shape(2048).value();
  s.tree = {8, 8, 0};  // 8 base trees of 8 leaves: one arity-8 level each, then the sub level
  EXPECT_TRUE(UpdateCircuit::blank(s).ok());
  s.tree = {8, 8, 2};  // 16 base trees of 4 leaves
  EXPECT_FALSE(UpdateCircuit::blank(s).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
