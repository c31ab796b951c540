// Virtual PoSt sectors: their vanilla proofs pass the same checks a real sector's do, at the test
// size (where the partition circuit is also synthesized and every row holds) and at 32 GiB; the
// challenges are the verifier's; bad requests are refused; a tampered proof is caught.
#include <gtest/gtest.h>

#include "filecoin/circuits/post_challenges.hpp"
#include "filecoin/circuits/post_synthesis.hpp"
#include "filecoin/circuits/post_vanilla.hpp"
#include "filecoin/por/inclusion_path.hpp"
#include "filecoin/vanilla/post_virtual.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

constexpr uint64_t k2KiB = 2048, k32GiB = uint64_t(32) << 30;

Domain randomness(uint8_t fill) {
  Domain d;
  d.fill(fill);
  d[31] &= 0x3f;
  return d;
}

VirtualPostRequest request(PostKind kind, uint64_t sector_size, size_t sectors) {
  VirtualPostRequest r;
  r.type = {kind, sector_size, PostApiVersion::v1_2_0};
  r.sectors = sectors;
  r.first_sector_id = 1000;
  r.randomness = randomness(0x5a);
  r.rng_seed = 7;
  return r;
}

TEST(PostVirtual, WindowTestSizeProves) {
  const VirtualPostRequest r = request(PostKind::window, k2KiB, 2);
  auto proofs = virtual_post_proofs(r);
  ASSERT_TRUE(proofs.ok()) << proofs.message();
  ASSERT_EQ(proofs->size(), 2u);
  auto part = post_partition_from_vanilla(r.type, *proofs, r.randomness);
  ASSERT_TRUE(part.ok()) << part.message();

  // The public inputs are the verifier's, from what it knows (ids, comm_r, randomness).
  const auto params = fallback_post_params(r.type.kind, r.type.sector_size, r.type.api_version).value();
  std::vector<PostPublicSector> pub;
  for (const auto& p : *proofs) pub.push_back({p.sector_id, p.comm_r});
  EXPECT_EQ(part->public_inputs, fallback_post_public_inputs(params, r.randomness, pub).value());

  r1cs::RecordingSystem rec;
  ASSERT_TRUE(part->circuit.synthesize(rec).ok());
  EXPECT_FALSE(rec.first_unsatisfied().has_value());
  for (size_t i = 0; i < part->public_inputs.size(); ++i)
    EXPECT_EQ(rec.input_assignment()[1 + i], part->public_inputs[i]) << "input " << i;
}

TEST(PostVirtual, WindowAndWinning32GiBPassTheChecks) {
  VirtualPostRequest w = request(PostKind::window, k32GiB, 3);
  w.first_sector_index = 0;
  auto window = virtual_post_proofs(w);
  ASSERT_TRUE(window.ok()) << window.message();
  EXPECT_TRUE(check_post_vanilla_proofs(w.type, *window, w.randomness).ok());
  EXPECT_EQ((*window)[2].sector_id, 1002u);
  ASSERT_EQ((*window)[0].sectors.at(0).inclusion_proofs.size(), 10u);
  EXPECT_EQ((*window)[0].sectors[0].inclusion_proofs[0].levels(), 10u);  // 8-8-0: 9 base + 1 sub

  const VirtualPostRequest g = request(PostKind::winning, k32GiB, 1);
  auto winning = virtual_post_proofs(g);
  ASSERT_TRUE(winning.ok()) << winning.message();
  ASSERT_EQ((*winning)[0].sectors.at(0).inclusion_proofs.size(), 66u);
  EXPECT_TRUE(check_post_vanilla_proofs(g.type, *winning, g.randomness).ok());
  // The same request gives the same sectors.
  EXPECT_EQ(virtual_post_proofs(g).value(), *winning);
  // WinningPoSt's registered types are API 1.0.0, whose circuit sector j proves challenge j.
  VirtualPostRequest g1 = g;
  g1.type.api_version = PostApiVersion::v1_0_0;
  auto winning_v1 = virtual_post_proofs(g1);
  ASSERT_TRUE(winning_v1.ok()) << winning_v1.message();
  EXPECT_TRUE(check_post_vanilla_proofs(g1.type, *winning_v1, g1.randomness).ok());
  EXPECT_FALSE(check_post_vanilla_proofs(g.type, *winning_v1, g.randomness).ok());
}

void expect_same_bits(const r1cs::DensityBitmap& x, const r1cs::DensityBitmap& y, const char* what) {
  EXPECT_EQ(x.bit_len, y.bit_len) << what;
  EXPECT_EQ(x.popcount, y.popcount) << what;
  for (size_t i = 0; i < x.bit_len && i < y.bit_len; ++i)
    ASSERT_EQ(x.get(i), y.get(i)) << what << " bit " << i;
}

// The chunked synthesis on several threads gives what sequential synthesis gives, vector for vector.
void expect_parallel_matches(PostKind kind, size_t sectors, unsigned threads) {
  const VirtualPostRequest r = request(kind, k2KiB, sectors);
  auto part = post_partition_from_vanilla(r.type, virtual_post_proofs(r).value(), r.randomness);
  ASSERT_TRUE(part.ok()) << part.message();
  auto seq = r1cs::synthesize_for_proving(part->circuit);
  auto par = synthesize_post_for_proving(part->circuit, threads);
  ASSERT_TRUE(seq.ok() && par.ok()) << (seq.ok() ? par.message() : seq.message());
  EXPECT_EQ(seq->a, par->a);
  EXPECT_EQ(seq->b, par->b);
  EXPECT_EQ(seq->c, par->c);
  EXPECT_EQ(seq->input_assignment, par->input_assignment);
  EXPECT_EQ(seq->aux_assignment, par->aux_assignment);
  expect_same_bits(seq->a_aux_density, par->a_aux_density, "a aux");
  expect_same_bits(seq->b_input_density, par->b_input_density, "b input");
  expect_same_bits(seq->b_aux_density, par->b_aux_density, "b aux");
}

TEST(PostVirtual, ParallelSynthesisMatchesSequential) {
  expect_parallel_matches(PostKind::window, 2, 2);
  expect_parallel_matches(PostKind::window, 1, 2);   // the last sector repeated
  expect_parallel_matches(PostKind::winning, 1, 5);  // 66 circuit sectors: 20 chunks, 4 rounds of 5
  expect_parallel_matches(PostKind::winning, 1, 1);
}

TEST(PostVirtual, ATamperedProofIsCaught) {
  const VirtualPostRequest r = request(PostKind::window, k2KiB, 2);
  auto proofs = virtual_post_proofs(r).value();
  proofs[1].sectors[0].inclusion_proofs[3].leaf[0] ^= 1;
  EXPECT_FALSE(check_post_vanilla_proofs(r.type, proofs, r.randomness).ok());
  // Another randomness challenges other leaves.
  EXPECT_FALSE(check_post_vanilla_proofs(r.type, virtual_post_proofs(r).value(), randomness(0x11)).ok());
}

TEST(PostVirtual, ParallelCheckNamesTheFirstBadSector) {
  // 40 sectors of 32 GiB are checked in ranges on every core; whichever range fails first, the
  // error names the lowest bad sector.
  VirtualPostRequest r = request(PostKind::window, k32GiB, 40);
  const auto good = virtual_post_proofs(r).value();
  EXPECT_TRUE(check_post_vanilla_proofs(r.type, good, r.randomness).ok());
  auto bad = good;
  bad[33].sectors[0].inclusion_proofs[2].leaf[0] ^= 1;
  EXPECT_EQ(check_post_vanilla_proofs(r.type, bad, r.randomness).message(),
            "WindowPoSt: sector 33 (id 1033): challenge 2's path does not reach comm_r_last");
  bad[38].sectors[0].comm_c[0] ^= 1;
  bad[9].sectors[0].inclusion_proofs[7].base[1].hashes[3][0] ^= 1;
  EXPECT_EQ(check_post_vanilla_proofs(r.type, bad, r.randomness).message(),
            "WindowPoSt: sector 9 (id 1009): challenge 7's path does not reach comm_r_last");
}

TEST(PostVirtual, BadRequestsAreRefused) {
  EXPECT_FALSE(virtual_post_proofs(request(PostKind::window, k2KiB, 0)).ok());
  EXPECT_FALSE(virtual_post_proofs(request(PostKind::winning, k2KiB, 2)).ok());
  EXPECT_FALSE(virtual_post_proofs(request(PostKind::window, 4096, 1)).ok());
  VirtualPostRequest r = request(PostKind::window, k2KiB, 1);
  r.randomness.fill(0xff);
  EXPECT_FALSE(virtual_post_proofs(r).ok());
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
