// SnapDeals at 8 MiB (4 partitions, h = 10): a sealed test sector updated with new data, every
// partition's vanilla proof accepted by the checker and refused under another partition's k, and
// one partition synthesized for the prover with every row holding; the same for a virtual 8 MiB
// sector. Slow: sealing 8 MiB and synthesizing 10 M rows take a while on a small machine.
#include <gtest/gtest.h>

#include "filecoin/circuits/update_vanilla.hpp"
#include "filecoin/vanilla/update_check.hpp"
#include "filecoin/vanilla/update_virtual.hpp"
#include "r1cs/proving_assignment.hpp"
#include "update_test_sector.hpp"

namespace cuzk::filecoin {
namespace {

constexpr uint64_t k8MiB = 8 << 20;
constexpr uint64_t kUpdate8MiB = 1;  // StackedDrg8MiBV1

// Synthesizes the partition for the prover: 10,007,508 rows, each a·b = c, the inputs ONE and the
// public inputs.
void expect_proves(const UpdatePartition& p) {
  auto as = r1cs::synthesize_for_proving(p.circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  EXPECT_EQ(as->num_constraints(), 10'007'508u);
  ASSERT_EQ(as->input_assignment.size(), 5u);
  EXPECT_EQ(as->input_assignment[0], Fr::one());
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(as->input_assignment[1 + i], p.public_inputs[i]) << "input " << i;
  std::vector<Fr> scratch;
  const std::vector<Fr>& c = r1cs::c_values(*as, scratch);
  for (size_t j = 0; j < as->num_constraints(); ++j) ASSERT_EQ(as->a[j] * as->b[j], c[j]) << "row " << j;
}

TEST(Update8MiB, SealedSector) {
  const vanilla::TestSector sealed = vanilla::seal_test_sector(6, test::filled(4), 9, test::filled(5),
                                                               test::filled(6), test::pattern_bytes(4096, 1))
                                         .value();
  const vanilla::UpdatedSector u =
      vanilla::update_test_sector(sealed, test::pattern_bytes(vanilla::fr32_unpadded_size(k8MiB), 3), 10)
          .value();
  EXPECT_EQ(u.comm_r_old, sealed.comm_r);
  const std::vector<UpdatePartitionProof> proofs =
      vanilla::update_vanilla_proofs(vanilla::update_view(sealed, u)).value();
  ASSERT_EQ(proofs.size(), 4u);
  for (uint64_t k = 0; k < 4; ++k) {
    const Status s = vanilla::check_update_partition(u.shape, proofs[k], u.public_inputs(k));
    EXPECT_TRUE(s.ok()) << "partition " << k << ": " << s.message();
    EXPECT_FALSE(vanilla::check_update_partition(u.shape, proofs[k], u.public_inputs((k + 1) % 4)).ok()) << k;
  }
  auto part = update_partition_from_vanilla(kUpdate8MiB, proofs[2], u.public_inputs(2));
  ASSERT_TRUE(part.ok()) << part.message();
  EXPECT_EQ(part->public_inputs[0], Fr::from_u64(2 + 32));
  expect_proves(*part);
}

TEST(Update8MiB, VirtualSector) {
  const vanilla::VirtualUpdate v = vanilla::virtual_update(k8MiB, 12, 21).value();
  auto part = update_partition_from_vanilla(kUpdate8MiB, vanilla::update_partition_proof(v.view(), 3).value(),
                                            v.public_inputs(3));
  ASSERT_TRUE(part.ok()) << part.message();
  EXPECT_EQ(part->public_inputs[0], Fr::from_u64(3 + (32 << 2)));  // h = 12 is hs[5], above 2 partition bits
  expect_proves(*part);
}

}  // namespace
}  // namespace cuzk::filecoin
