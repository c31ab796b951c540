// Virtual sectors: commit-phase-1 outputs built without the sector's data pass the checker, for a
// 2 KiB sector and for the full-size 32 GiB shape (8-8-0, Sub proofs); a tampered virtual output
// is refused like a real one. Also the LC tree shapes' proofs (Sub, Top) on small dense and sparse
// trees. The 64 GiB virtual sector is in slow_test.cpp.
#include <gtest/gtest.h>

#include "filecoin/vanilla/check.hpp"
#include "filecoin/vanilla/merkle_check.hpp"
#include "filecoin/vanilla/virtual_sector.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

using test::filled;

TEST(LcTree, SubAndTopProofsVerifyAndATamperedSiblingFails) {
  const struct {
    TreeShape shape;
    uint64_t leaves;
    MerkleProof::Kind kind;
  } cases[] = {{{8, 8, 0}, 8 * 8, MerkleProof::Kind::sub}, {{8, 8, 2}, 16 * 8, MerkleProof::Kind::top}};
  for (const auto& t : cases) {
    const TreeLayout layout = poseidon_layout(t.shape, t.leaves).value();
    std::vector<Domain> leaves(t.leaves);
    for (uint64_t i = 0; i < t.leaves; ++i) leaves[i][0] = uint8_t(i);
    const MerkleTree tree = MerkleTree::dense(layout, leaves).value();
    for (uint64_t i : {uint64_t(0), t.leaves / 2 + 3, t.leaves - 1}) {
      MerkleProof p = tree.proof(i);
      EXPECT_EQ(p.kind, t.kind);
      EXPECT_EQ(p.base.size(), 1u);
      EXPECT_EQ(p.sub.size(), 1u);
      EXPECT_EQ(p.sub[0].hashes.size(), 7u);
      EXPECT_EQ(p.top.size(), t.kind == MerkleProof::Kind::top ? 1u : 0u);
      EXPECT_EQ(path_index(layout, p), i);
      EXPECT_TRUE(check_inclusion(layout, p, i, tree.root(), "comm_c").ok());
      (t.kind == MerkleProof::Kind::top ? p.top[0] : p.sub[0]).hashes[0][0] ^= 1;
      EXPECT_EQ(check_inclusion(layout, p, i, tree.root(), "comm_c").message(), "does not reach comm_c");
    }
    // A sparse tree over the same leaves has the same root and proofs.
    std::map<uint64_t, Domain> some;
    for (uint64_t i = 0; i < t.leaves; ++i)
      if (leaves[i] != Domain{}) some[i] = leaves[i];
    const MerkleTree sparse = MerkleTree::sparse(layout, some, Domain{}).value();
    EXPECT_EQ(sparse.root(), tree.root());
    EXPECT_EQ(sparse.proof(5), tree.proof(5));
  }
}

TEST(VirtualSector, TwoKiBPassesTheChecker) {
  for (uint64_t id : {0, 5}) {
    const SealCommitPhase1Output c1 =
        virtual_commit_phase1(id, filled(1), 9, filled(2), filled(3), 77).value();
    const Status st = check_porep_vanilla(c1, {filled(1), 9});
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_FALSE(virtual_commit_phase1(10, filled(1), 9, filled(2), filled(3), 77).ok());
  EXPECT_FALSE(virtual_commit_phase1(15, filled(1), 9, filled(2), filled(3), 77).ok());
}

TEST(VirtualSector, ThirtyTwoGiBPassesTheCheckerAndRefusesTampering) {
  const SealCommitPhase1Output c1 = virtual_commit_phase1(8, filled(1), 9, filled(2), filled(3), 77).value();
  ASSERT_EQ(c1.vanilla_proofs.size(), 10u);
  ASSERT_EQ(c1.vanilla_proofs[0].size(), 18u);
  const PorepChallengeProof& p = c1.vanilla_proofs[0][0];
  EXPECT_EQ(p.comm_d_proofs.base.size(), 30u);
  EXPECT_EQ(p.comm_r_last_proof.kind, MerkleProof::Kind::sub);
  EXPECT_EQ(p.comm_r_last_proof.base.size(), 9u);
  EXPECT_EQ(p.replica_column_proofs.c_x.column.rows.size(), 11u);
  EXPECT_EQ(p.labeling_proofs.size(), 11u);
  const Status st = check_porep_vanilla(c1, {filled(1), 9});
  EXPECT_TRUE(st.ok()) << st.message();

  SealCommitPhase1Output bad = c1;
  bad.vanilla_proofs[9][17].replica_column_proofs.exp_parents[7].column.rows[10][0] ^= 1;
  EXPECT_EQ(check_porep_vanilla(bad).message(),
            "partition 9 challenge 17: exp parent 7 column hash is not its inclusion proof's leaf");
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
