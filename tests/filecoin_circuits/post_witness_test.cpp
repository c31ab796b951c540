// The FallbackPoSt witness blocks (post_witness_blocks.hpp, PostWitness) against witness-only
// synthesis through the gadgets: the same inputs, auxiliaries and row count, variable for variable,
// for every arity the blocks cover (2, 4, 8 at base, sub and top levels), fresh random paths, a
// partition with fewer sectors than the circuit (the last repeated), and the root check's verdict,
// which must name the same sector and challenge with the same words.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "../r1cs_compiled/compiled_test_util.hpp"
#include "filecoin/circuits/post_synthesis.hpp"
#include "filecoin/circuits/post_witness.hpp"
#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin {
namespace {

using r1cs::test::random_fr;

struct Shape {
  const char* name;
  TreeShape tree;
  uint64_t nodes;  // leaves of the whole tree
};

// Sector sizes whose base trees are a power of the base arity: 2 KiB (8-0-0 over 64 leaves), the
// 32 and 64 GiB shapes in miniature, and the other arities.
const Shape kShapes[] = {
    {"8-0-0", {8, 0, 0}, 64}, {"8-8-0", {8, 8, 0}, 512}, {"8-8-2", {8, 8, 2}, 1024},
    {"2-0-0", {2, 0, 0}, 16}, {"4-2-0", {4, 2, 0}, 128}, {"8-4-2", {8, 4, 2}, 512},
};

FallbackPostParams params_of(const Shape& s, size_t sectors, size_t challenges) {
  FallbackPostParams p;
  p.sector_size = s.nodes * 32;
  p.tree = s.tree;
  p.challenge_count = challenges;
  p.sector_count = sectors;
  return p;
}

std::vector<unsigned> arities_of(const FallbackPostParams& p) {
  std::vector<unsigned> a(post_base_levels(p).value(), p.tree.base_arity);
  if (p.tree.sub_arity) a.push_back(p.tree.sub_arity);
  if (p.tree.top_arity) a.push_back(p.tree.top_arity);
  return a;
}

// A sector of random values; with `valid`, each path hashes to comm_r_last (the node computed with
// the native hash, cur inserted at its index), else comm_r_last is random.
PostCircuitSector random_sector(const FallbackPostParams& p, std::mt19937_64& rng, bool valid) {
  const auto arities = arities_of(p);
  PostCircuitSector s;
  s.comm_c = random_fr(rng);
  s.comm_r_last = random_fr(rng);
  for (size_t c = 0; c < p.challenge_count; ++c) {
    s.leaves.push_back(random_fr(rng));
    std::vector<PathLevelValues> path;
    Fr cur = s.leaves.back();
    for (unsigned a : arities) {
      PathLevelValues level;
      level.index = unsigned(rng() % a);
      for (unsigned i = 0; i + 1 < a; ++i) level.siblings.push_back(random_fr(rng));
      std::vector<Fr> children(level.siblings.begin(), level.siblings.end());
      children.insert(children.begin() + level.index, cur);
      cur = r1cs::poseidon_merkle_node(*r1cs::poseidon_constants(a).value(), children.data());
      path.push_back(std::move(level));
    }
    s.paths.push_back(std::move(path));
    if (valid) s.comm_r_last = cur;  // every challenge's path reaches the last one's root
  }
  if (valid) {  // the paths again, now that the root is fixed: each must reach it
    for (size_t c = 0; c + 1 < p.challenge_count; ++c)
      s.paths[c] = s.paths.back(), s.leaves[c] = s.leaves.back();
  }
  const Fr pair[2] = {s.comm_c, s.comm_r_last};
  s.comm_r = r1cs::poseidon_merkle_node(r1cs::poseidon_constants_2(), pair);
  return s;
}

// The deferred assignment filled on the host equals witness-only synthesis.
void expect_same_witness(const FallbackPostCircuit& circuit) {
  auto reference = synthesize_post_witness(circuit, 2);
  ASSERT_TRUE(reference.ok()) << reference.message();
  auto deferred = post_witness_deferred(circuit);
  ASSERT_TRUE(deferred.ok()) << deferred.message();
  ASSERT_NE(deferred->deferred, nullptr);
  EXPECT_EQ(deferred->witness_rows, reference->witness_rows);
  EXPECT_EQ(deferred->input_assignment, reference->input_assignment);
  ASSERT_EQ(deferred->aux_assignment.size(), reference->aux_assignment.size());
  for (unsigned threads : {1u, 3u}) {
    std::vector<Fr> aux(deferred->deferred->num_aux(), Fr::one());
    const Status s = deferred->deferred->fill_host(aux, threads);
    ASSERT_TRUE(s.ok()) << s.message();
    size_t first = aux.size();
    for (size_t i = 0; i < aux.size() && first == aux.size(); ++i)
      if (aux[i] != reference->aux_assignment[i]) first = i;
    EXPECT_EQ(first, aux.size()) << "first differing aux variable " << first << " of " << aux.size();
  }
}

TEST(PostWitnessBlocks, EqualWitnessOnlySynthesisForEveryShape) {
  const uint64_t seed = r1cs::test::fresh_seed();
  SCOPED_TRACE(r1cs::test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(shape.name);
    const FallbackPostParams p = params_of(shape, 3, 2);
    std::vector<PostCircuitSector> sectors;
    for (size_t i = 0; i < p.sector_count; ++i) sectors.push_back(random_sector(p, rng, i % 2 == 0));
    auto circuit = FallbackPostCircuit::create(p, std::move(sectors));
    ASSERT_TRUE(circuit.ok()) << circuit.message();
    expect_same_witness(*circuit);
  }
}

TEST(PostWitnessBlocks, TooFewSectorsRepeatTheLast) {
  std::mt19937_64 rng(r1cs::test::fresh_seed());
  const FallbackPostParams p = params_of(kShapes[0], 4, 3);
  std::vector<PostCircuitSector> sectors = {random_sector(p, rng, true)};
  auto circuit = FallbackPostCircuit::create(p, std::move(sectors));
  ASSERT_TRUE(circuit.ok()) << circuit.message();
  expect_same_witness(*circuit);
}

TEST(PostWitnessBlocks, TheRealShapesCountAsTheGadgets) {
  // 32 GiB WindowPoSt: 2349 sectors of 10 challenges; the blocks' counts are the circuit's.
  auto p = fallback_post_params(PostKind::window, uint64_t(32) << 30, PostApiVersion::v1_2_0);
  ASSERT_TRUE(p.ok()) << p.message();
  auto blank = FallbackPostCircuit::blank(*p);
  ASSERT_TRUE(blank.ok()) << blank.message();
  auto w = PostWitness::create(*blank);
  ASSERT_TRUE(w.ok()) << w.message();
  EXPECT_EQ((*w)->num_aux(), size_t(126902376));
  EXPECT_EQ((*w)->inputs().size(), 1 + p->num_public_inputs());
  EXPECT_EQ((*w)->geometry().challenge_vars, uint64_t(5371));
  EXPECT_EQ((*w)->geometry().header_vars, uint64_t(314));
}

TEST(PostWitnessBlocks, RootCheckFailsWhereSynthesisDoes) {
  std::mt19937_64 rng(r1cs::test::fresh_seed());
  const FallbackPostParams p = params_of(kShapes[1], 3, 4);
  std::vector<PostCircuitSector> sectors;
  for (size_t i = 0; i < p.sector_count; ++i) sectors.push_back(random_sector(p, rng, true));
  sectors[1].paths[2][1].siblings[3] = random_fr(rng);  // challenge 2 of sector 1 misses its root
  sectors[2].leaves[0] = random_fr(rng);                // and challenge 0 of sector 2
  auto circuit = FallbackPostCircuit::create(p, sectors);
  ASSERT_TRUE(circuit.ok()) << circuit.message();
  circuit->set_check_roots(true);
  auto reference = synthesize_post_witness(*circuit, 1);
  ASSERT_FALSE(reference.ok());
  auto deferred = post_witness_deferred(*circuit);
  ASSERT_TRUE(deferred.ok()) << deferred.message();
  std::vector<Fr> aux(deferred->deferred->num_aux());
  const Status s = deferred->deferred->fill_host(aux, 3);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.error().bad_input);
  EXPECT_EQ(s.message(), reference.message());
  EXPECT_EQ(s.message(), "circuit sector 1: challenge 2's path does not reach comm_r_last");

  // Without the check the same data gives the witness synthesis gives.
  circuit->set_check_roots(false);
  expect_same_witness(*circuit);
}

TEST(PostWitnessBlocks, RefusesWrongStorageAndShapes) {
  std::mt19937_64 rng(r1cs::test::fresh_seed());
  const FallbackPostParams p = params_of(kShapes[0], 1, 1);
  auto circuit = FallbackPostCircuit::create(p, {random_sector(p, rng, true)});
  ASSERT_TRUE(circuit.ok()) << circuit.message();
  auto w = PostWitness::create(*circuit);
  ASSERT_TRUE(w.ok()) << w.message();
  std::vector<Fr> short_aux((*w)->num_aux() - 1);
  EXPECT_FALSE((*w)->fill_host(short_aux, 1).ok());

  FallbackPostParams odd = params_of(kShapes[0], 1, 1);
  odd.tree = {16, 0, 0};
  odd.sector_size = 256 * 32;
  auto blank = FallbackPostCircuit::blank(odd);
  if (blank.ok()) {
    auto refused = PostWitness::create(*blank);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("arity 16"), std::string::npos) << refused.message();
  }
}

}  // namespace
}  // namespace cuzk::filecoin
