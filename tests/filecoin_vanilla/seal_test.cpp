// A sealed 2 KiB test sector: its trees' proofs verify and a tampered sibling fails, its
// commitments follow their definitions (comm_d of zero data is the zero-piece commitment,
// comm_r = Poseidon2(comm_c, comm_r_last)), its commit-phase-1 output passes the checker for
// every proof type, and each kind of tampering is refused with a message that names it.
#include <gtest/gtest.h>

#include <functional>

#include "filecoin/vanilla/challenges.hpp"
#include "filecoin/vanilla/check.hpp"
#include "filecoin/vanilla/fr32.hpp"
#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/merkle_check.hpp"
#include "filecoin/vanilla/porep_proof.hpp"
#include "filecoin/vanilla/poseidon.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

using test::filled;

std::vector<uint8_t> sample_data(size_t n) {
  std::vector<uint8_t> raw(n);
  for (size_t i = 0; i < n; ++i) raw[i] = uint8_t(i * 131 + 7);
  return raw;
}

const TestSector& sealed_2kib() {
  static const TestSector s =
      seal_test_sector(5, filled(1), 42, filled(2), filled(3), sample_data(2032)).value();
  return s;
}

const SealCommitPhase1Output& c1_2kib() {
  static const SealCommitPhase1Output c1 = commit_phase1(sealed_2kib()).value();
  return c1;
}

TEST(Seal, CommitmentsFollowTheirDefinitions) {
  const TestSector& s = sealed_2kib();
  EXPECT_EQ(s.comm_d, s.tree_d.root());
  EXPECT_EQ(s.replica_id, replica_id_of(filled(1), 42, filled(2), s.comm_d, s.info.porep_id));
  for (uint64_t v : {0, 1, 63})
    EXPECT_EQ(*domain_to_fr(s.replica(v)), *domain_to_fr(s.labels[1][v]) + *domain_to_fr(s.data(v)));
  // Zero data: comm_d is the zero-piece commitment of 64 leaves.
  const TestSector cc = seal_test_sector(5, filled(1), 42, filled(2), filled(3), {}).value();
  EXPECT_EQ(cc.comm_d, zero_commitment(6));
  EXPECT_NE(cc.comm_r, s.comm_r);
  EXPECT_FALSE(seal_test_sector(5, filled(1), 42, filled(2), filled(3), sample_data(2033)).ok());
  EXPECT_FALSE(seal_test_sector(20, filled(1), 42, filled(2), filled(3), {}).ok());
}

TEST(Seal, TreeProofsVerifyAndATamperedSiblingFails) {
  const TestSector& s = sealed_2kib();
  const TreeLayout tree_d = binary_sha_layout(6);
  const TreeLayout tree_c = poseidon_layout(s.info.shape.tree, 64).value();
  for (uint64_t v : {0, 9, 63}) {
    MerkleProof pd = s.tree_d.proof(v);
    EXPECT_EQ(pd.base.size(), 6u);
    EXPECT_TRUE(check_inclusion(tree_d, pd, v, s.comm_d, "comm_d").ok());
    MerkleProof pc = s.tree_c.proof(v);
    EXPECT_EQ(pc.kind, MerkleProof::Kind::single);
    EXPECT_EQ(pc.base.size(), 2u);
    EXPECT_EQ(pc.base[0].index, v % 8);
    EXPECT_TRUE(check_inclusion(tree_c, pc, v, s.comm_c, "comm_c").ok());
    EXPECT_EQ(check_inclusion(tree_c, pc, v ^ 1, s.comm_c, "comm_c").message(),
              "path index is " + std::to_string(v) + ", expected " + std::to_string(v ^ 1));
    pd.base[3].hashes[0][0] ^= 1;
    EXPECT_EQ(check_inclusion(tree_d, pd, v, s.comm_d, "comm_d").message(), "does not reach comm_d");
    pc.base[1].hashes[6][0] ^= 1;
    EXPECT_EQ(check_inclusion(tree_c, pc, v, s.comm_c, "comm_c").message(), "does not reach comm_c");
  }
}

TEST(CommitPhase1, ShapeOfTheOutput) {
  const SealCommitPhase1Output& c1 = c1_2kib();
  EXPECT_EQ(c1.registered_proof, "StackedDrg2KiBV1_1");
  EXPECT_EQ(c1.shape_key, "StackedDrg2KiBV1");
  ASSERT_EQ(c1.vanilla_proofs.size(), 1u);
  ASSERT_EQ(c1.vanilla_proofs[0].size(), 2u);
  const PorepChallengeProof& p = c1.vanilla_proofs[0][0];
  EXPECT_EQ(p.labeling_proofs.size(), 2u);
  EXPECT_EQ(p.labeling_proofs[1].parents.size(), 37u);
  EXPECT_EQ(p.replica_column_proofs.drg_parents.size(), 6u);
  EXPECT_EQ(p.replica_column_proofs.exp_parents.size(), 8u);
  EXPECT_EQ(p.labeling_proofs[0].node, interactive_challenges(64, c1.replica_id, c1.seed, 0, 2)[0]);
}

TEST(CommitPhase1, PassesTheCheckerForEveryProofType) {
  for (uint64_t id : {0, 5, 10, 15}) {
    const TestSector s = seal_test_sector(id, filled(4), 7, filled(5), filled(6), sample_data(1000)).value();
    const SealCommitPhase1Output c1 = commit_phase1(s).value();
    EXPECT_EQ(c1.vanilla_proofs.size(), id == 15 ? 13u : 1u);
    const Status st = check_porep_vanilla(c1, {filled(4), 7});
    EXPECT_TRUE(st.ok()) << id << ": " << st.message();
  }
}

struct Tamper {
  const char* what;
  std::function<void(SealCommitPhase1Output&)> edit;
  std::string message;
};

TEST(CheckPorepVanilla, NamesEachKindOfTampering) {
  ASSERT_TRUE(check_porep_vanilla(c1_2kib()).ok()) << check_porep_vanilla(c1_2kib()).message();
  const std::string at = "partition 0 challenge 1: ";
  const uint64_t c = c1_2kib().vanilla_proofs[0][1].labeling_proofs[0].node;
  auto ch = [](SealCommitPhase1Output& c) -> PorepChallengeProof& { return c.vanilla_proofs[0][1]; };
  const Tamper cases[] = {
      {"drg sibling",
       [&](auto& c) { ch(c).replica_column_proofs.drg_parents[3].inclusion_proof.base[0].hashes[2][0] ^= 1; },
       at + "drg parent 3 column does not reach comm_c"},
      {"exp row", [&](auto& c) { ch(c).replica_column_proofs.exp_parents[5].column.rows[0][0] ^= 1; },
       at + "exp parent 5 column hash is not its inclusion proof's leaf"},
      {"c_x index", [&](auto& c) { ch(c).replica_column_proofs.c_x.column.index ^= 1; },
       at + "c_x column has index " + std::to_string(c ^ 1) + ", expected " + std::to_string(c)},
      {"comm_d sibling", [&](auto& c) { ch(c).comm_d_proofs.base[5].hashes[0][1] ^= 1; },
       at + "comm_d proof does not reach comm_d"},
      {"comm_r_last leaf", [&](auto& c) { ch(c).comm_r_last_proof.leaf[0] ^= 1; },
       at + "comm_r_last proof does not reach comm_r_last"},
      {"challenge", [&](auto& c) { ch(c).labeling_proofs[0].node += 1; },
       at + "challenge is " + std::to_string(c + 1) + ", derived " + std::to_string(c)},
      {"labeling parents", [&](auto& c) { ch(c).labeling_proofs[1].parents[20][0] ^= 1; },
       at + "labeling proof 2 parents are not the parent columns' labels"},
      {"encoding proof", [&](auto& c) { ch(c).encoding_proof.layer_index = 1; },
       at + "encoding proof is not the last layer's labeling proof"},
      {"seed", [&](auto& c) { c.seed[0] ^= 1; }, ""},
      {"comm_r", [&](auto& c) { c.comm_r[0] ^= 1; }, "comm_r is not Poseidon2(comm_c, comm_r_last)"},
      {"replica_id", [&](auto& c) { c.replica_id[0] ^= 1; }, ""},
      {"partitions", [&](auto& c) { c.vanilla_proofs.push_back(c.vanilla_proofs[0]); },
       "has 2 partitions, expected 1"},
      {"proof type", [&](auto& c) { c.registered_proof = "StackedDrg2KiBV9"; },
       "registered_proof: unknown registered seal proof \"StackedDrg2KiBV9\""},
      {"shape key", [&](auto& c) { c.shape_key = "StackedDrg8MiBV1"; },
       "vanilla_proofs key is StackedDrg8MiBV1, expected StackedDrg2KiBV1"},
  };
  for (const Tamper& t : cases) {
    SealCommitPhase1Output c1 = c1_2kib();
    t.edit(c1);
    const Status st = check_porep_vanilla(c1);
    ASSERT_FALSE(st.ok()) << t.what;
    if (!t.message.empty()) {
      EXPECT_EQ(st.message(), t.message) << t.what;
    }
  }
}

// Every vector of a challenge proof cut short, and values made non-canonical: refused, never a
// crash (the checker runs before synthesis on whatever a caller hands it).
TEST(CheckPorepVanilla, RefusesTruncatedAndNonCanonicalParts) {
  using Edit = std::function<void(PorepChallengeProof&)>;
  const Domain big = filled(0xff);  // ≥ r
  const Edit edits[] = {
      [](auto& p) { p.comm_d_proofs.base.pop_back(); },
      [](auto& p) { p.comm_d_proofs.base[0].hashes.clear(); },
      [](auto& p) { p.comm_d_proofs.base[0].index = 2; },
      [](auto& p) { p.comm_r_last_proof.base[1].hashes.pop_back(); },
      [](auto& p) { p.comm_r_last_proof.kind = MerkleProof::Kind::sub; },
      [](auto& p) { p.replica_column_proofs.c_x.column.rows.pop_back(); },
      [](auto& p) { p.replica_column_proofs.drg_parents.pop_back(); },
      [](auto& p) { p.replica_column_proofs.exp_parents.clear(); },
      [](auto& p) { p.replica_column_proofs.exp_parents[7].column.rows.clear(); },
      [](auto& p) { p.replica_column_proofs.exp_parents[2].inclusion_proof.base.clear(); },
      [](auto& p) { p.labeling_proofs.pop_back(); },
      [](auto& p) { p.labeling_proofs.clear(); },
      [](auto& p) { p.labeling_proofs[1].parents.pop_back(); },
      [&](auto& p) { p.comm_d_proofs.leaf = big; },
      [&](auto& p) { p.comm_r_last_proof.base[0].hashes[3] = big; },
      [&](auto& p) { p.replica_column_proofs.drg_parents[0].column.rows[1] = big; },
      [&](auto& p) { p.replica_column_proofs.c_x.inclusion_proof.root = big; },
  };
  for (size_t i = 0; i < std::size(edits); ++i)
    for (size_t j : {0, 1}) {
      SealCommitPhase1Output c1 = c1_2kib();
      edits[i](c1.vanilla_proofs[0][j]);
      EXPECT_FALSE(check_porep_vanilla(c1).ok()) << "edit " << i << " of challenge " << j;
    }
  SealCommitPhase1Output c1 = c1_2kib();
  c1.vanilla_proofs[0].pop_back();
  EXPECT_EQ(check_porep_vanilla(c1).message(), "partition 0 has 1 challenges, expected 2");
  c1.vanilla_proofs.clear();
  EXPECT_EQ(check_porep_vanilla(c1).message(), "has 0 partitions, expected 1");
  c1 = c1_2kib();
  c1.comm_d = big;
  EXPECT_EQ(check_porep_vanilla(c1).message(), "comm_d is not a canonical field element");
}

// A changed seed or replica_id derives other challenges: the first challenge is refused for it.
TEST(CheckPorepVanilla, ChallengesMustBeTheDerivedOnes) {
  SealCommitPhase1Output c1 = c1_2kib();
  c1.seed[0] ^= 1;
  EXPECT_EQ(check_porep_vanilla(c1).message().rfind("partition 0 challenge 0: challenge is ", 0), 0u)
      << check_porep_vanilla(c1).message();
  // A replica_id that does not follow from the prover and sector.
  EXPECT_EQ(check_porep_vanilla(c1_2kib(), {filled(1), 43}).message(),
            "replica_id does not follow from prover_id, sector_id, ticket, comm_d and porep_id");
  EXPECT_TRUE(check_porep_vanilla(c1_2kib(), {filled(1), 42}).ok());
}

// A label that does not follow from the parent columns, with columns and paths all consistent:
// re-seal with a changed layer-2 label and rebuild the trees from it.
TEST(CheckPorepVanilla, NamesALabelThatDoesNotFollow) {
  TestSector s = sealed_2kib();
  const SealCommitPhase1Output& c1 = c1_2kib();
  const uint64_t c = c1.vanilla_proofs[0][0].labeling_proofs[0].node;
  s.labels[0][c][0] ^= 1;  // layer 1 of the challenged node only
  // Rebuild tree_c over the changed column so every path stays consistent.
  std::vector<Domain> leaves(64);
  for (uint64_t v = 0; v < 64; ++v) {
    const Domain rows[2] = {s.labels[0][v], s.labels[1][v]};
    leaves[v] = column_hash(rows).value();
  }
  s.tree_c = MerkleTree::dense(s.tree_c.layout(), leaves).value();
  s.comm_c = s.tree_c.root();
  const Domain pair[2] = {s.comm_c, s.comm_r_last};
  s.comm_r = poseidon_merkle(pair).value();
  const SealCommitPhase1Output bad = commit_phase1(s).value();
  // comm_r changed, so interactive challenges stay (they depend on replica_id and seed only).
  const Status st = check_porep_vanilla(bad);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("layer 1 label of the challenged node does not follow from its parent columns"),
            std::string::npos)
      << st.message();
}

TEST(Challenges, DeterministicAndInRange) {
  const Domain rid = filled(9), comm_r = filled(8), seed = filled(7);
  for (uint64_t nodes : {64ull, 1ull << 18, 1ull << 30, 1ull << 31}) {
    for (unsigned k : {0u, 3u, 9u}) {
      const auto a = interactive_challenges(nodes, rid, seed, k, 18);
      EXPECT_EQ(a, interactive_challenges(nodes, rid, seed, k, 18));
      const auto b = ni_challenges(nodes, rid, comm_r, k, 18);
      EXPECT_EQ(b, ni_challenges(nodes, rid, comm_r, k, 18));
      const auto s = synthetic_challenges(nodes, rid, comm_r, seed, k, 18);
      EXPECT_EQ(s, synthetic_challenges(nodes, rid, comm_r, seed, k, 18));
      for (const auto* v : {&a, &b, &s})
        for (uint64_t x : *v) {
          EXPECT_GE(x, 1u);
          EXPECT_LT(x, nodes);
        }
      EXPECT_NE(a, interactive_challenges(nodes, rid, filled(6), k, 18));
    }
    // Partition k's challenges continue partition 0's numbering: j = n·k + i.
    const auto two = interactive_challenges(nodes, rid, seed, 0, 4);
    const auto second = interactive_challenges(nodes, rid, seed, 1, 2);
    EXPECT_EQ(second[0], two[2]);
    EXPECT_EQ(second[1], two[3]);
    const auto syn_two = synthetic_challenges(nodes, rid, comm_r, seed, 0, 4);
    EXPECT_EQ(synthetic_challenges(nodes, rid, comm_r, seed, 1, 2)[1], syn_two[3]);
  }
  // (x mod (nodes − 1)) + 1 on a number independent of the hashes: 2^255 mod 63 = 2^(255 mod 6) = 8.
  std::array<uint8_t, 32> x{};
  x[31] = 0x80;
  EXPECT_EQ(challenge_from_le(x, 64), 9u);
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
