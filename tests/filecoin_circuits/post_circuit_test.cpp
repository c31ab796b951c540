// The FallbackPoSt circuit on real 2 KiB instances: built from vanilla proofs of trees made here,
// synthesized with values it satisfies every row with the public inputs in upstream's order; a
// blank synthesis lays out the same rows; every pre-proving check names what it finds wrong.
// Challenge derivation is checked against Curio's golden 32 GiB WindowPoSt vanilla proof.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "filecoin/circuits/post_synthesis.hpp"
#include "filecoin/circuits/post_vanilla.hpp"
#include "post_test_sector.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {
namespace {

using test::SmallSector;

constexpr uint64_t k2KiB = 2048, kNodes2KiB = 64;

std::mt19937_64 seeded_rng() {
  const uint64_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  return std::mt19937_64(seed);
}

// The leaves the verifier challenges in one WindowPoSt sector (§3.2's challenge_index rule).
std::vector<uint64_t> window_leaves(const Domain& randomness, const SmallSector& s, uint64_t sector_index,
                                    PostApiVersion v) {
  std::vector<uint64_t> out;
  for (uint64_t n = 0; n < 10; ++n) {
    const uint64_t index = v == PostApiVersion::v1_2_0 ? n : sector_index * 10 + n;
    out.push_back(test::leaf_challenge(randomness, s.id, index, kNodes2KiB));
  }
  return out;
}

// Synthesizes the partition with values: every row holds, and the input variables are ONE and the
// public inputs. The prover's system (ProvingAssignment) gets the same assignment and satisfies
// its rows too.
void expect_proves(const PostPartition& part) {
  r1cs::RecordingSystem rec;
  const Status s = part.circuit.synthesize(rec);
  ASSERT_TRUE(s.ok()) << s.message();
  const auto bad = rec.first_unsatisfied();
  EXPECT_FALSE(bad.has_value()) << "row " << *bad;
  ASSERT_EQ(rec.num_inputs(), 1 + part.public_inputs.size());
  EXPECT_EQ(part.public_inputs.size(), part.circuit.num_public_inputs());
  EXPECT_EQ(rec.input_assignment()[0], Fr::one());
  for (size_t i = 0; i < part.public_inputs.size(); ++i)
    EXPECT_EQ(rec.input_assignment()[1 + i], part.public_inputs[i]) << "input " << i;

  auto as = r1cs::synthesize_for_proving(part.circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  EXPECT_EQ(as->num_constraints(), rec.num_constraints() + rec.num_inputs());
  EXPECT_TRUE(std::equal(as->input_assignment.begin(), as->input_assignment.end(),
                         rec.input_assignment().begin(), rec.input_assignment().end()));
  EXPECT_TRUE(std::equal(as->aux_assignment.begin(), as->aux_assignment.end(), rec.aux_assignment().begin(),
                         rec.aux_assignment().end()));
  std::vector<Fr> scratch;
  const std::vector<Fr>& c = r1cs::c_values(*as, scratch);
  for (size_t j = 0; j < as->num_constraints(); ++j) ASSERT_EQ(as->a[j] * as->b[j], c[j]) << "row " << j;
}

// The recorded rows of a real synthesis and a blank one are the same matrices.
void expect_blank_rows_match(const PostPartition& part) {
  r1cs::RecordingSystem real;
  ASSERT_TRUE(part.circuit.synthesize(real).ok());
  auto blank = FallbackPostCircuit::blank(part.circuit.params());
  ASSERT_TRUE(blank.ok()) << blank.message();
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

PostProofType window_2k(PostApiVersion v = PostApiVersion::v1_2_0) { return {PostKind::window, k2KiB, v}; }
PostProofType winning_2k() { return {PostKind::winning, k2KiB, PostApiVersion::v1_0_0}; }

TEST(PostChallenges, CurioGoldenWindowPoSt) {
  // curio: lib/proof/testgolden/post.vproof with postpub.json: StackedDrgWindow32GiBV1 (API 1.0.0),
  // sector 1, zero randomness; the leaf indices its ten inclusion paths prove.
  const uint64_t golden[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                               6202012,   1055504637, 389535735, 1000069704, 600088878};
  auto params = fallback_post_params(PostKind::window, uint64_t(32) << 30, PostApiVersion::v1_0_0);
  ASSERT_TRUE(params.ok()) << params.message();
  const auto leaves = post_sector_challenges(*params, Domain{}, 1, 0);
  ASSERT_EQ(leaves.size(), 10u);
  for (size_t n = 0; n < 10; ++n) EXPECT_EQ(leaves[n], golden[n]) << "challenge " << n;
}

TEST(PostChallenges, IndexRulePerApiVersion) {
  // utils.rs get_challenge_index: sector_index · challenge_count + n before 1.2.0, n from 1.2.0.
  EXPECT_EQ(post_challenge_index(PostApiVersion::v1_0_0, 3, 10, 7), 37u);
  EXPECT_EQ(post_challenge_index(PostApiVersion::v1_1_0, 3, 10, 7), 37u);
  EXPECT_EQ(post_challenge_index(PostApiVersion::v1_2_0, 3, 10, 7), 7u);
  std::mt19937_64 rng = seeded_rng();
  const Domain r = test::random_randomness(rng);
  for (uint64_t i : {0u, 5u, 65u})
    EXPECT_EQ(post_leaf_challenge(r, 1042, i, kNodes2KiB), test::leaf_challenge(r, 1042, i, kNodes2KiB));
}

TEST(PostChallenges, PublicInputsInUpstreamOrder) {
  std::mt19937_64 rng = seeded_rng();
  const Domain r = test::random_randomness(rng);
  const SmallSector a(1042, rng);
  for (PostApiVersion v : {PostApiVersion::v1_0_0, PostApiVersion::v1_2_0}) {
    auto params = fallback_post_params(PostKind::window, k2KiB, v);
    ASSERT_TRUE(params.ok());
    // One sector in partition 3 of a 2-sector partition size: its block, then the block again.
    const PostPublicSector sectors[] = {{a.id, fr_to_domain(a.comm_r)}};
    auto inputs = fallback_post_public_inputs(*params, r, sectors, 3);
    ASSERT_TRUE(inputs.ok()) << inputs.message();
    ASSERT_EQ(inputs->size(), 22u);
    const auto leaves = window_leaves(r, a, 6, v);
    for (size_t block = 0; block < 2; ++block) {
      EXPECT_EQ((*inputs)[block * 11], a.comm_r);
      for (size_t n = 0; n < 10; ++n) EXPECT_EQ((*inputs)[block * 11 + 1 + n], Fr::from_u64(leaves[n]));
    }
  }
  // The randomness must be a field element.
  auto params = fallback_post_params(PostKind::window, k2KiB, PostApiVersion::v1_2_0);
  Domain bad = r;
  bad[31] = 0xff;
  const PostPublicSector one[] = {{a.id, fr_to_domain(a.comm_r)}};
  auto inputs = fallback_post_public_inputs(*params, bad, one);
  ASSERT_FALSE(inputs.ok());
  EXPECT_EQ(inputs.message(),
            "FallbackPoSt: the randomness is not a field element (≥ r); its top two bits must be clear");
  const PostPublicSector three[] = {one[0], one[0], one[0]};
  EXPECT_FALSE(fallback_post_public_inputs(*params, r, three).ok());
}

TEST(WindowPoSt2KiB, TwoSectorsProve) {
  std::mt19937_64 rng = seeded_rng();
  const Domain r = test::random_randomness(rng);
  const SmallSector a(1042, rng), b(7, rng);
  for (PostApiVersion v : {PostApiVersion::v1_2_0, PostApiVersion::v1_0_0}) {
    const size_t partition = v == PostApiVersion::v1_0_0 ? 2 : 0;
    const std::vector<FallbackPostSectorProof> proofs = {
        a.vanilla(window_leaves(r, a, 2 * partition + 0, v)),
        b.vanilla(window_leaves(r, b, 2 * partition + 1, v)),
    };
    auto part = post_partition_from_vanilla(window_2k(v), proofs, r, partition);
    ASSERT_TRUE(part.ok()) << part.message();
    EXPECT_EQ(part->public_inputs[0], a.comm_r);
    EXPECT_EQ(part->public_inputs[11], b.comm_r);
    expect_proves(*part);
    expect_blank_rows_match(*part);
  }
}

TEST(WindowPoSt2KiB, TooFewSectorsRepeatTheLast) {
  std::mt19937_64 rng = seeded_rng();
  const Domain r = test::random_randomness(rng);
  const SmallSector a(99, rng);
  const std::vector<FallbackPostSectorProof> proofs = {
      a.vanilla(window_leaves(r, a, 0, PostApiVersion::v1_2_0))};
  auto part = post_partition_from_vanilla(window_2k(), proofs, r);
  ASSERT_TRUE(part.ok()) << part.message();
  ASSERT_EQ(part->public_inputs.size(), 22u);
  EXPECT_TRUE(std::equal(part->public_inputs.begin(), part->public_inputs.begin() + 11,
                         part->public_inputs.begin() + 11));
  expect_proves(*part);
}

TEST(WinningPoSt2KiB, SixtySixChallengesOfOneSector) {
  std::mt19937_64 rng = seeded_rng();
  const Domain r = test::random_randomness(rng);
  const SmallSector a(31337, rng);
  // Challenge j of the one sector (API 1.0.0: sector index 0, challenge_count 66, n = j).
  std::vector<uint64_t> leaves;
  for (uint64_t j = 0; j < 66; ++j) leaves.push_back(test::leaf_challenge(r, a.id, j, kNodes2KiB));
  const std::vector<FallbackPostSectorProof> proofs = {a.vanilla(leaves)};
  auto part = post_partition_from_vanilla(winning_2k(), proofs, r);
  ASSERT_TRUE(part.ok()) << part.message();
  ASSERT_EQ(part->public_inputs.size(), 132u);
  for (size_t j = 0; j < 66; ++j) {
    EXPECT_EQ(part->public_inputs[2 * j], a.comm_r);
    EXPECT_EQ(part->public_inputs[2 * j + 1], Fr::from_u64(leaves[j])) << "circuit sector " << j;
  }
  expect_proves(*part);
  expect_blank_rows_match(*part);
}

// Each check of post_partition_from_vanilla, failed on purpose.
class PostChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    rng = seeded_rng();
    r = test::random_randomness(rng);
    proofs = {a.vanilla(window_leaves(r, a, 0, PostApiVersion::v1_2_0)),
              b.vanilla(window_leaves(r, b, 1, PostApiVersion::v1_2_0))};
    ASSERT_TRUE(check_post_vanilla_proofs(window_2k(), proofs, r).ok());
  }
  std::string error() const {
    auto part = post_partition_from_vanilla(window_2k(), proofs, r);
    EXPECT_FALSE(part.ok());
    if (part.ok()) return "";
    EXPECT_TRUE(part.error().bad_input);
    return part.message();
  }
  MerkleProof& inclusion(size_t sector, size_t challenge) {
    return proofs[sector].sectors[0].inclusion_proofs[challenge];
  }
  // The check that leaves the paths' hashes to the synthesis passes; then the witness, on two
  // threads, and the full synthesis both fail with the same bad-input error, which is returned.
  std::string synthesis_error() const {
    const Status checked = check_post_vanilla_proofs(window_2k(), proofs, r, 0, PathCheck::in_synthesis);
    EXPECT_TRUE(checked.ok()) << checked.message();
    auto part = post_partition_of_checked(window_2k(), proofs, r, 0, PathCheck::in_synthesis);
    EXPECT_TRUE(part.ok()) << part.message();
    if (!part.ok()) return "";
    EXPECT_TRUE(part->circuit.checks_roots());
    auto witness = synthesize_post_witness(part->circuit, 2);
    auto full = r1cs::synthesize_for_proving(part->circuit);
    EXPECT_FALSE(witness.ok());
    EXPECT_FALSE(full.ok());
    if (witness.ok() || full.ok()) return "";
    EXPECT_TRUE(witness.error().bad_input);
    EXPECT_EQ(witness.message(), full.message());
    return witness.message();
  }

  std::mt19937_64 rng{1};
  SmallSector a{1, rng}, b{1042, rng};
  Domain r{};
  std::vector<FallbackPostSectorProof> proofs;
};

TEST_F(PostChecks, SiblingChanged) {
  inclusion(1, 7).base[1].hashes[3] = fr_to_domain(test::random_fr(rng));
  EXPECT_EQ(error(), "WindowPoSt: sector 1 (id 1042): challenge 7's path does not reach comm_r_last");
}

TEST_F(PostChecks, LeafChanged) {
  inclusion(0, 2).leaf = fr_to_domain(test::random_fr(rng));
  EXPECT_EQ(error(), "WindowPoSt: sector 0 (id 1): challenge 2's path does not reach comm_r_last");
}

// A request that is proved leaves its paths' hashes to the witness, which hashes them anyway: the
// same bad paths fail there, in the circuit sector and challenge they are in.
TEST_F(PostChecks, PathsHashedInSynthesisFailThere) {
  const MerkleProof kept = inclusion(1, 7);
  inclusion(1, 7).base[1].hashes[3] = fr_to_domain(test::random_fr(rng));
  EXPECT_EQ(synthesis_error(), "circuit sector 1: challenge 7's path does not reach comm_r_last");
  inclusion(1, 7) = kept;
  inclusion(0, 2).leaf = fr_to_domain(test::random_fr(rng));
  EXPECT_EQ(synthesis_error(), "circuit sector 0: challenge 2's path does not reach comm_r_last");
}

// Good proofs checked that way give the partition the hashing check gives, and its witness.
TEST_F(PostChecks, PathsHashedInSynthesisAcceptGoodProofs) {
  ASSERT_TRUE(check_post_vanilla_proofs(window_2k(), proofs, r, 0, PathCheck::in_synthesis).ok());
  auto deferred = post_partition_of_checked(window_2k(), proofs, r, 0, PathCheck::in_synthesis);
  auto hashed = post_partition_from_vanilla(window_2k(), proofs, r);
  ASSERT_TRUE(deferred.ok()) << deferred.message();
  ASSERT_TRUE(hashed.ok()) << hashed.message();
  EXPECT_FALSE(hashed->circuit.checks_roots());
  EXPECT_EQ(deferred->public_inputs, hashed->public_inputs);
  auto a = synthesize_post_witness(deferred->circuit, 2);
  auto b = synthesize_post_witness(hashed->circuit, 2);
  ASSERT_TRUE(a.ok()) << a.message();
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_TRUE(a->aux_assignment == b->aux_assignment);
  EXPECT_TRUE(a->input_assignment == b->input_assignment);
  expect_proves(*deferred);
}

TEST_F(PostChecks, NamedRootIsNotCommRLast) {
  inclusion(0, 0).root = fr_to_domain(test::random_fr(rng));
  EXPECT_EQ(error(), "WindowPoSt: sector 0 (id 1): challenge 0's proof names a root other than comm_r_last");
}

TEST_F(PostChecks, CommCDoesNotHashToCommR) {
  proofs[1].sectors[0].comm_c = fr_to_domain(test::random_fr(rng));
  EXPECT_EQ(error(), "WindowPoSt: sector 1 (id 1042): comm_r is not Poseidon(comm_c, comm_r_last)");
}

TEST_F(PostChecks, WrongLeafProved) {
  // A valid path, to a leaf the verifier does not challenge.
  const uint64_t want = window_leaves(r, b, 1, PostApiVersion::v1_2_0)[3];
  const uint64_t other = (want + 1) % kNodes2KiB;
  inclusion(1, 3) = b.proof(other);
  EXPECT_EQ(error(), "WindowPoSt: sector 1 (id 1042): challenge 3 proves leaf " + std::to_string(other) +
                         ", the challenge is leaf " + std::to_string(want));
}

TEST_F(PostChecks, ChallengesOfAnotherSectorPosition) {
  // API 1.0.0 challenges depend on the sector's position: sector 0's are those of 1.2.0, sector 1's
  // are not.
  auto s = check_post_vanilla_proofs(window_2k(PostApiVersion::v1_0_0), proofs, r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("WindowPoSt: sector 1 (id 1042): challenge ", 0), 0u) << s.message();
}

TEST_F(PostChecks, ShapesAndCounts) {
  proofs[0].sectors[0].inclusion_proofs.pop_back();
  EXPECT_EQ(error(), "WindowPoSt: sector 0 (id 1): 9 inclusion proofs, 10 expected (one per challenge)");
  proofs[0] = a.vanilla(window_leaves(r, a, 0, PostApiVersion::v1_2_0));
  inclusion(1, 4).base.pop_back();
  EXPECT_EQ(error(), "WindowPoSt: sector 1 (id 1042): challenge 4: 1 base levels, the tree has 2");
  proofs[1] = b.vanilla(window_leaves(r, b, 1, PostApiVersion::v1_2_0));
  proofs[1].sectors.push_back(proofs[1].sectors[0]);
  EXPECT_EQ(error(), "WindowPoSt: sector 1 (id 1042): 2 sector proofs, one expected");
  proofs.pop_back();
  proofs.push_back(proofs[0]);
  proofs.push_back(proofs[0]);
  EXPECT_EQ(error(), "WindowPoSt: 3 sector proofs for a partition of 1 to 2");
  proofs.clear();
  EXPECT_EQ(error(), "WindowPoSt: 0 sector proofs for a partition of 1 to 2");
}

TEST_F(PostChecks, ValuesThatAreNotFieldElements) {
  proofs[0].comm_r[31] = 0xff;
  EXPECT_EQ(error(), "WindowPoSt: sector 0 (id 1): comm_r is not a field element");
  proofs[0] = a.vanilla(window_leaves(r, a, 0, PostApiVersion::v1_2_0));
  r[31] |= 0xc0;
  EXPECT_EQ(error(),
            "FallbackPoSt: the randomness is not a field element (≥ r); its top two bits must be clear");
}

TEST_F(PostChecks, WinningTakesOneSectorOf66) {
  auto s = check_post_vanilla_proofs(winning_2k(), proofs, r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "WinningPoSt: 2 sector proofs for partition 0; it proves one sector in partition 0");
  s = check_post_vanilla_proofs(winning_2k(), std::span(proofs).first(1), r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "WinningPoSt: sector 0 (id 1): 10 inclusion proofs, 66 expected (one per challenge)");
}

// The circuit itself rejects what the checks catch: a witness with a wrong comm_r fails a row.
TEST(PostCircuit, WrongWitnessFailsARow) {
  std::mt19937_64 rng = seeded_rng();
  const Domain r = test::random_randomness(rng);
  const SmallSector a(5, rng);
  const std::vector<FallbackPostSectorProof> proofs = {
      a.vanilla(window_leaves(r, a, 0, PostApiVersion::v1_2_0))};
  auto part = post_partition_from_vanilla(window_2k(), proofs, r);
  ASSERT_TRUE(part.ok()) << part.message();
  for (int what = 0; what < 3; ++what) {
    PostCircuitSector s = part->circuit.sector(0);
    if (what == 0) s.comm_r += Fr::one();
    if (what == 1) s.leaves[4] += Fr::one();
    if (what == 2) s.paths[9][1].index = (s.paths[9][1].index + 1) % 8;
    auto c = FallbackPostCircuit::create(part->circuit.params(), {s});
    ASSERT_TRUE(c.ok()) << c.message();
    r1cs::RecordingSystem rec;
    ASSERT_TRUE(c->synthesize(rec).ok());
    EXPECT_FALSE(rec.is_satisfied()) << "tamper " << what;
  }
  // Sector data that does not fit the shape is refused before synthesis.
  PostCircuitSector s = part->circuit.sector(0);
  s.paths[2].pop_back();
  auto c = FallbackPostCircuit::create(part->circuit.params(), {s});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.message(), "FallbackPoSt: circuit sector 0: challenge 2: a path of 1 levels for a tree of 2");
}

}  // namespace
}  // namespace cuzk::filecoin
