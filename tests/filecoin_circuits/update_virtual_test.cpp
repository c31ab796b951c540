// Virtual SnapDeals sectors: full-size (32 and 64 GiB) partition proofs from sparse trees that the
// native checker accepts (and refuses under another partition's inputs), that make circuits with the public
// inputs a verifier computes, that still fail the checker when tampered, and (2 KiB) whose circuit holds.
#include <gtest/gtest.h>

#include "filecoin/circuits/update_vanilla.hpp"
#include "filecoin/vanilla/update_check.hpp"
#include "filecoin/vanilla/update_virtual.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

constexpr uint64_t kGiB = uint64_t(1) << 30;

TEST(VirtualUpdate, FullSizePartitionsPassTheChecker) {
  for (uint64_t size : {32 * kGiB, 64 * kGiB}) {
    const VirtualUpdate v = virtual_update(size, 10, 7).value();
    EXPECT_EQ(v.shape.partitions, 16u);
    EXPECT_NE(v.comm_r_new, v.comm_r_old);
    std::vector<UpdatePartitionProof> proofs(16);
    for (uint64_t k : {0, 1, 9, 15}) {  // the first, the last and two between
      proofs[k] = update_partition_proof(v.view(), k).value();
      const Status s = check_update_partition(v.shape, proofs[k], v.public_inputs(k));
      EXPECT_TRUE(s.ok()) << size << " partition " << k << ": " << s.message();
      EXPECT_EQ(proofs[k].challenge_proofs.size(), 86u);
      EXPECT_EQ(proofs[k].apex_leafs.size(), 128u);
    }
    EXPECT_FALSE(check_update_partition(v.shape, proofs[9], v.public_inputs(1)).ok());
    // 32 GiB: 8-8-0 (Sub proofs); 64 GiB: 8-8-2 (Top proofs).
    EXPECT_EQ(proofs[0].challenge_proofs[0].proof_r_old.kind,
              size == 32 * kGiB ? MerkleProof::Kind::sub : MerkleProof::Kind::top);
    EXPECT_EQ(proofs[0].challenge_proofs[0].proof_d_new.base.size(), size == 32 * kGiB ? 30u : 31u);
  }
}

TEST(VirtualUpdate, MakesFullSizeCircuitsAndIsStillChecked) {
  const VirtualUpdate v = virtual_update(32 * kGiB, 9, 3).value();
  UpdatePartitionProof p = update_partition_proof(v.view(), 15).value();
  auto part = update_partition_from_vanilla(3, p, v.public_inputs(15));  // StackedDrg32GiBV1
  ASSERT_TRUE(part.ok()) << part.message();
  EXPECT_EQ(part->public_inputs[0], Fr::from_u64(15 + (uint64_t(1) << 2) * 16));  // h = 9 is hs[2]
  EXPECT_EQ(part->public_inputs[3], *domain_to_fr(v.comm_r_new));
  p.challenge_proofs[40].proof_d_new.base[12].hashes[0][0] ^= 1;
  EXPECT_EQ(update_partition_from_vanilla(3, p, v.public_inputs(15)).message(),
            "partition 15 challenge 40: proof_d_new does not reach the apex leaf");
  EXPECT_EQ(virtual_update(32 * kGiB, 9, 3)->comm_r_new, v.comm_r_new);  // a function of the seed
  EXPECT_FALSE(virtual_update(32 * kGiB, 1, 3).ok());
}

TEST(VirtualUpdate, TwoKiBCircuitHolds) {
  const VirtualUpdate v = virtual_update(2048, 1, 11, 8).value();
  auto part =
      update_partition_from_vanilla(0, update_partition_proof(v.view(), 0).value(), v.public_inputs(0));
  ASSERT_TRUE(part.ok()) << part.message();
  r1cs::RecordingSystem rec;
  ASSERT_TRUE(part->circuit.synthesize(rec).ok());
  const auto bad = rec.first_unsatisfied();
  EXPECT_FALSE(bad.has_value()) << "row " << *bad;
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
