// SnapDeals' vanilla side: the shape table against the reference and SectorShape, upstream's
// challenge vectors, the encoding of a sealed 2 KiB sector checked against its definition (φ and
// ρ through the reference Poseidon permutation, not the optimized one the library uses), apex
// leaves against tree_d rows hashed here, and the native checker: it accepts every partition of
// honest updates and names each kind of tampering.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "filecoin/vanilla/hashes.hpp"
#include "filecoin/vanilla/poseidon.hpp"
#include "filecoin/vanilla/update_challenges.hpp"
#include "filecoin/vanilla/update_check.hpp"
#include "r1cs/gadgets/poseidon.hpp"
#include "update_test_sector.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

using test::updated_2kib;

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

std::mt19937_64 seeded_rng() {
  const uint64_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  return std::mt19937_64(seed);
}

// H_Custom(1)(a, b) from the definition: state [2^40, a, b] through the reference permutation.
Fr custom_hash(const Fr& a, const Fr& b) {
  Fr state[3] = {Fr::from_u64(uint64_t(1) << 40), a, b};
  r1cs::poseidon_permute_reference(r1cs::poseidon_constants_2(), state);
  return state[1];
}

Fr fr(const Domain& d) { return domain_to_fr(d).value(); }

TEST(UpdateShape, MatchesTheReferenceTableAndSectorShape) {
  struct Row {
    uint64_t size;
    unsigned partitions, challenges, apex, h, h_select;
  };
  // reference §3.3's table.
  const Row rows[] = {{2 * kKiB, 1, 10, 8, 1, 1},
                      {8 * kMiB, 4, 10, 128, 10, 8},
                      {512 * kMiB, 16, 86, 128, 10, 8},
                      {32 * kGiB, 16, 86, 128, 10, 8},
                      {64 * kGiB, 16, 86, 128, 10, 8}};
  for (const Row& r : rows) {
    const UpdateShape s = update_shape(r.size).value();
    const SectorShape sector = sector_shape(r.size).value();
    EXPECT_EQ(s.nodes, r.size / 32);
    EXPECT_EQ(s.partitions, r.partitions);
    EXPECT_EQ(s.challenges, r.challenges);
    EXPECT_EQ(s.apex_leaves, r.apex);
    EXPECT_EQ(s.h_default(), r.h);
    EXPECT_EQ(s.h_select(r.h).value(), r.h_select);
    EXPECT_EQ(s.tree, sector.tree);
  }
  // §3.3: 32 GiB partition k gives k + 128, 8 MiB k + 32, 2 KiB 1.
  EXPECT_EQ(update_shape(32 * kGiB)->k_and_h_select(5, 10).value(), 133u);
  EXPECT_EQ(update_shape(8 * kMiB)->k_and_h_select(3, 10).value(), 35u);
  EXPECT_EQ(update_shape(2 * kKiB)->k_and_h_select(0, 1).value(), 1u);
  EXPECT_EQ(update_shape(32 * kGiB)->k_and_h_select(0, 7).value(), 16u);
  EXPECT_EQ(update_shape(32 * kGiB)->k_and_h_select(16, 10).message(),
            "partition 16 of a sector with 16 partitions");
  EXPECT_EQ(update_shape(2 * kKiB)->k_and_h_select(0, 10).message(),
            "h = 10 is not allowed for a sector of 2048 bytes");
  EXPECT_FALSE(update_shape(4 * kKiB).ok());
  EXPECT_FALSE(update_shape_for_nodes(48, {8, 0, 0}).ok());
  EXPECT_FALSE(update_shape_for_nodes(uint64_t(1) << 32, {8, 8, 2}).ok());
  EXPECT_FALSE(update_shape_for_nodes(1 << 7, {8, 0, 0}).ok());  // 128 leaves are no 8-ary tree
}

TEST(UpdateChallenges, UpstreamVectors) {
  // storage-proofs-update challenges.rs test_challenges_against_hardcoded: comm_r_new is the first
  // random Fr of XorShiftRng(TEST_SEED).
  test::XorShiftRng rng(test::kTestSeed);
  const Fr comm_r_new = test::blstrs_random(rng);
  struct Vector {
    uint64_t nodes, k;
    uint64_t first[5];
  };
  const Vector vectors[] = {
      {1 << 5, 0, {21, 7, 3, 31, 0}},
      {1 << 6, 0, {53, 51, 56, 3, 0}},
      {1 << 7, 0, {117, 25, 62, 0, 72}},
      {1 << 8, 0, {245, 140, 15, 128, 28}},
      {1 << 9, 0, {245, 140, 15, 128, 28}},
      {1 << 9, 1, {286, 308, 493, 510, 508}},
      {1 << 10, 0, {245, 454, 3, 400, 193}},
      {1 << 10, 1, {542, 666, 955, 927, 911}},
      {1 << 18, 0, {36085, 32783, 44060, 10950, 3731}},
      {1 << 18, 1, {78878, 130797, 112892, 93994, 78379}},
      {1 << 19, 0, {101621, 16391, 109319, 25944, 41193}},
      {1 << 19, 1, {209950, 163702, 175679, 224741, 197410}},
      {1 << 24, 0, {1019125, 116736, 706220, 59698, 799498}},
      {1 << 24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {1 << 24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {1 << 24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {uint64_t(1) << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {uint64_t(1) << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {uint64_t(1) << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {uint64_t(1) << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {uint64_t(1) << 31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {uint64_t(1) << 31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {uint64_t(1) << 31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {uint64_t(1) << 31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const Vector& v : vectors) {
    const std::vector<uint64_t> c = update_challenges(test::upstream_shape(v.nodes), comm_r_new, v.k);
    for (size_t i = 0; i < 5; ++i)
      EXPECT_EQ(c[i], v.first[i]) << v.nodes << " nodes, k " << v.k << ", i " << i;
  }
}

TEST(UpdateChallenges, EachPartitionsChallengesLieInIt) {
  std::mt19937_64 rng = seeded_rng();
  for (uint64_t nodes : test::kUpstreamNodes) {
    const UpdateShape s = test::upstream_shape(nodes);
    const Fr comm_r_new = fr(test::random_domain(rng));
    for (uint64_t k = 0; k < s.partitions; ++k) {
      const std::vector<uint64_t> c = update_challenges(s, comm_r_new, k);
      ASSERT_EQ(c.size(), s.challenges);
      for (uint64_t x : c) EXPECT_EQ(x >> s.random_bits(), k) << nodes;
    }
  }
}

TEST(UpdateEncoding, FollowsItsDefinition) {
  const test::Updated2KiB& u = updated_2kib();
  const UpdatedSector& n = u.updated;
  const std::vector<Domain> data = fr32_pad(test::pattern_bytes(2032, 99), 64);
  EXPECT_EQ(n.comm_c, u.sealed.comm_c);
  EXPECT_EQ(n.comm_r_old, u.sealed.comm_r);
  EXPECT_EQ(n.comm_r_last_old, u.sealed.comm_r_last);
  EXPECT_EQ(n.comm_d_new, n.tree_d_new.root());
  EXPECT_NE(n.comm_d_new, u.sealed.comm_d);
  const Fr phi = custom_hash(fr(n.comm_d_new), fr(n.comm_r_old));
  EXPECT_EQ(n.phi, phi);
  for (uint64_t v = 0; v < 64; ++v) {
    ASSERT_EQ(n.data(v), data[v]);
    // h = 1: ρ depends on the node's top bit.
    const Fr rho = custom_hash(phi, Fr::from_u64(v >> 5));
    ASSERT_EQ(fr(n.replica(v)), fr(u.sealed.replica(v)) + fr(data[v]) * rho) << "node " << v;
  }
  const Domain pair[2] = {n.comm_c, n.tree_r_new.root()};
  EXPECT_EQ(n.comm_r_new, poseidon_merkle(pair).value());
  EXPECT_EQ(n.comm_r_last_new, n.tree_r_new.root());

  // Zero new data leaves the replica as it was.
  const UpdatedSector zero = update_test_sector(u.sealed, {}, 1).value();
  EXPECT_EQ(zero.comm_d_new, zero_commitment(6));
  EXPECT_EQ(zero.comm_r_new, u.sealed.comm_r);
  EXPECT_EQ(update_test_sector(u.sealed, {}, 10).message(),
            "h = 10 is not allowed for a sector of 2048 bytes");
  EXPECT_FALSE(update_test_sector(u.sealed, test::pattern_bytes(2033, 1), 1).ok());
}

TEST(UpdateEncoding, ApexLeavesAreTreeDRows) {
  // 2 KiB: one partition, 8 apex leaves at height 3 (groups of 8 leaves).
  const test::Updated2KiB& u = updated_2kib();
  const std::vector<Domain> apex = update_apex_leaves(u.updated.shape, u.updated.tree_d_new, 0).value();
  ASSERT_EQ(apex.size(), 8u);
  for (uint64_t j = 0; j < 8; ++j) {
    Domain row[8];
    for (uint64_t i = 0; i < 8; ++i) row[i] = u.updated.data(8 * j + i);
    for (unsigned width = 8; width > 1; width /= 2)
      for (unsigned i = 0; i < width / 2; ++i) row[i] = sha254_node(row[2 * i], row[2 * i + 1]);
    EXPECT_EQ(apex[j], row[0]) << "apex leaf " << j;
  }
  EXPECT_FALSE(update_apex_leaves(u.updated.shape, u.updated.tree_d_new, 1).ok());

  // Upstream's 16 KiB test size: 2 partitions of 128 apex leaves at height 1.
  std::mt19937_64 rng = seeded_rng();
  const test::RandomUpdate r = test::random_update(test::upstream_shape(512), 1, rng);
  for (uint64_t k = 0; k < 2; ++k) {
    const std::vector<Domain> a = update_apex_leaves(r.shape, r.updated.tree_d_new, k).value();
    ASSERT_EQ(a.size(), 128u);
    for (uint64_t j : {0, 77, 127}) {
      const uint64_t first = 2 * (128 * k + j);
      EXPECT_EQ(a[j], sha254_node(r.updated.data(first), r.updated.data(first + 1))) << k << " " << j;
    }
    EXPECT_EQ(r.proofs[k].apex_leafs, a);
  }
}

TEST(UpdateCheck, AcceptsHonestPartitions) {
  const test::Updated2KiB& u = updated_2kib();
  ASSERT_EQ(u.proofs.size(), 1u);
  const Status s = check_update_partition(u.updated.shape, u.proofs[0], u.updated.public_inputs(0));
  EXPECT_TRUE(s.ok()) << s.message();
  const std::vector<uint64_t> c = update_challenges(u.updated.shape, fr(u.updated.comm_r_new), 0);
  for (size_t i = 0; i < c.size(); ++i) {
    EXPECT_EQ(u.proofs[0].challenge_proofs[i].proof_d_new.leaf, u.updated.data(c[i]));
    EXPECT_EQ(u.proofs[0].challenge_proofs[i].proof_r_new.leaf, u.updated.replica(c[i]));
  }
  std::mt19937_64 rng = seeded_rng();
  for (uint64_t nodes : {512u, 1024u}) {  // 8-8-0 and 8-8-2 trees, 2 partitions each
    const test::RandomUpdate r = test::random_update(test::upstream_shape(nodes), 1, rng);
    for (uint64_t k = 0; k < r.shape.partitions; ++k) {
      const Status sk = check_update_partition(r.shape, r.proofs[k], r.updated.public_inputs(k));
      EXPECT_TRUE(sk.ok()) << nodes << " partition " << k << ": " << sk.message();
    }
  }
}

// The checker's verdict on a copy of the 2 KiB proof after `tamper`.
std::string verdict(const std::function<void(UpdatePartitionProof&, UpdatePublicInputs&)>& tamper) {
  const test::Updated2KiB& u = updated_2kib();
  UpdatePartitionProof p = u.proofs[0];
  UpdatePublicInputs in = u.updated.public_inputs(0);
  tamper(p, in);
  return check_update_partition(u.updated.shape, p, in).message();
}

TEST(UpdateCheck, NamesEachTampering) {
  EXPECT_EQ(verdict([](auto&, auto& in) { in.comm_r_new[0] ^= 1; }),
            "partition 0: comm_r_new is not Poseidon(comm_c, root_r_new), root_r_new being challenge 0's "
            "proof_r_new "
            "root");
  EXPECT_EQ(verdict([](auto&, auto& in) { in.comm_r_old[0] ^= 1; }),
            "partition 0: comm_r_old is not Poseidon(comm_c, root_r_old), root_r_old being challenge 0's "
            "proof_r_old "
            "root");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.challenge_proofs[4].proof_r_old.base[1].hashes[2][0] ^= 1; }),
            "partition 0 challenge 4: proof_r_old does not reach root_r_old");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.challenge_proofs[4].proof_d_new.base[0].hashes[0][0] ^= 1; }),
            "partition 0 challenge 4: proof_d_new does not reach the apex leaf");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.challenge_proofs[4].proof_d_new.base[4].hashes[0][0] ^= 1; }),
            "partition 0 challenge 4: proof_d_new does not reach comm_d_new");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.challenge_proofs[7].proof_r_new.leaf[0] ^= 1; }),
            "partition 0 challenge 7: proof_r_new's leaf is not leaf_r_old + leaf_d_new·rho");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.apex_leafs[3][0] ^= 1; }),
            "partition 0: the apex leaves and the partition path do not reach comm_d_new");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.challenge_proofs.pop_back(); }),
            "partition 0: 9 challenge proofs, expected 10");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.apex_leafs.pop_back(); }),
            "partition 0: 7 apex leaves, expected 8");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.challenge_proofs[2].proof_d_new.base[3].hashes[0][31] = 0xff; }),
            "partition 0 challenge 2: proof_d_new path: level 3 sibling 0 is not a field element");
  EXPECT_EQ(verdict([](auto& p, auto&) { p.challenge_proofs[2].proof_r_old.base.pop_back(); }),
            "partition 0 challenge 2: proof_r_old has 1/0/0 base/sub/top levels, expected 2/0/0");
  EXPECT_EQ(verdict([](auto&, auto& in) { in.k = 1; }), "partition 1 of a sector with 1 partitions");
  EXPECT_EQ(verdict([](auto&, auto& in) { in.h = 2; }), "h = 2 is not allowed for a sector of 2048 bytes");
  const std::string swapped =
      verdict([](auto& p, auto&) { std::swap(p.challenge_proofs[0], p.challenge_proofs[1]); });
  EXPECT_NE(swapped.find("partition 0 challenge 0: proof_r_old opens leaf "), std::string::npos) << swapped;
}

TEST(UpdateCheck, RefusesAnotherPartitionsProof) {
  std::mt19937_64 rng = seeded_rng();
  const test::RandomUpdate r = test::random_update(test::upstream_shape(512), 1, rng);
  const Status s = check_update_partition(r.shape, r.proofs[1], r.updated.public_inputs(0));
  EXPECT_EQ(s.message(), "partition 0: the apex leaves and the partition path do not reach comm_d_new");
  // Partition 0's apex leaves under partition 1's challenges: the challenges no longer match.
  UpdatePartitionProof mixed = r.proofs[1];
  mixed.apex_leafs = r.proofs[0].apex_leafs;
  EXPECT_FALSE(check_update_partition(r.shape, mixed, r.updated.public_inputs(1)).ok());
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
