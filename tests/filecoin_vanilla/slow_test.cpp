// The long runs of the vanilla side (label `slow`): an 8 MiB test sector sealed end to end, its
// commit-phase-1 output checked, and a virtual 64 GiB sector (8-8-2, Top proofs) checked.
#include <gtest/gtest.h>

#include "filecoin/vanilla/check.hpp"
#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "filecoin/vanilla/virtual_sector.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

using test::filled;

TEST(Seal, EightMiBSectorPassesTheChecker) {
  std::vector<uint8_t> raw(1 << 20);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = uint8_t(i * 7 + (i >> 9));
  const TestSector s = seal_test_sector(6, filled(1), 1000, filled(2), filled(3), raw).value();
  const SealCommitPhase1Output c1 = commit_phase1(s).value();
  EXPECT_EQ(c1.registered_proof, "StackedDrg8MiBV1_1");
  const PorepChallengeProof& p = c1.vanilla_proofs[0][1];
  EXPECT_EQ(p.comm_d_proofs.base.size(), 18u);
  EXPECT_EQ(p.comm_r_last_proof.base.size(), 6u);
  const Status st = check_porep_vanilla(c1, {filled(1), 1000});
  EXPECT_TRUE(st.ok()) << st.message();
  SealCommitPhase1Output bad = c1;
  bad.vanilla_proofs[0][1].replica_column_proofs.drg_parents[3].inclusion_proof.base[4].hashes[5][0] ^= 1;
  EXPECT_EQ(check_porep_vanilla(bad).message(),
            "partition 0 challenge 1: drg parent 3 column does not reach comm_c");
}

TEST(VirtualSector, SixtyFourGiBPassesTheChecker) {
  const SealCommitPhase1Output c1 = virtual_commit_phase1(4, filled(4), 1, filled(5), filled(6), 1).value();
  EXPECT_EQ(c1.registered_proof, "StackedDrg64GiBV1");
  EXPECT_EQ(c1.vanilla_proofs[3][2].replica_column_proofs.drg_parents[1].inclusion_proof.kind,
            MerkleProof::Kind::top);
  const Status st = check_porep_vanilla(c1);
  EXPECT_TRUE(st.ok()) << st.message();
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
