// The PoR gadgets over small Poseidon LC trees built here with the native hash: per-level row
// counts (reference §2.9), whole 8-0-0, 8-8-0 and 8-8-2 paths satisfied with the challenge as the
// input, a wrong sibling caught by the root row, and the out-of-circuit check naming bad levels.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "filecoin/por/inclusion_path.hpp"
#include "filecoin/por/por_circuit.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::filecoin {
namespace {

using r1cs::AllocatedBit;
using r1cs::Num;
using r1cs::RecordingSystem;

Fr random_fr(std::mt19937_64& rng) {
  uint64_t v[Fr::N];
  for (auto& x : v) x = rng();
  v[Fr::N - 1] &= (uint64_t(1) << 62) - 1;
  return Fr::from_canonical(v);
}

Fr node_hash(std::span<const Fr> children) {
  return *r1cs::poseidon_hash(**r1cs::poseidon_constants(children.size()), children);
}

// An LC tree: base trees of arity 8 and `base_levels` levels, under one sub level and one top level
// where the shape has them. Every level is kept, so paths can be read off.
struct LcTree {
  TreeShape shape;
  size_t base_levels = 0;
  std::vector<std::vector<std::vector<Fr>>> base;  // [tree][level][node], level 0 = leaves
  std::vector<Fr> subs;                            // sub-tree roots (one per top child)
  Fr root;

  LcTree(TreeShape s, size_t levels, std::mt19937_64& rng) : shape(s), base_levels(levels) {
    const size_t leaves = size_t(1) << (3 * levels);
    for (unsigned t = 0; t < shape.base_trees(); ++t) {
      std::vector<std::vector<Fr>> tree(1);
      for (size_t i = 0; i < leaves; ++i) tree[0].push_back(random_fr(rng));
      while (tree.back().size() > 1) {
        const std::vector<Fr>& below = tree.back();
        std::vector<Fr> up;
        for (size_t i = 0; i < below.size(); i += 8) up.push_back(node_hash(std::span(below).subspan(i, 8)));
        tree.push_back(std::move(up));
      }
      base.push_back(std::move(tree));
    }
    if (!shape.sub_arity) {
      root = base[0].back()[0];
      return;
    }
    for (size_t g = 0; g < base.size(); g += shape.sub_arity) {
      std::vector<Fr> kids;
      for (size_t k = 0; k < shape.sub_arity; ++k) kids.push_back(base[g + k].back()[0]);
      subs.push_back(node_hash(kids));
    }
    root = shape.top_arity ? node_hash(subs) : subs[0];
  }

  size_t leaves() const { return base.size() << (3 * base_levels); }

  static PathElement element(std::span<const Fr> group, size_t index) {
    PathElement e;
    e.index = index;
    for (size_t k = 0; k < group.size(); ++k)
      if (k != index) e.hashes.push_back(fr_to_domain(group[k]));
    return e;
  }

  MerkleProof proof(uint64_t challenge) const {
    MerkleProof p;
    p.kind = shape.top_arity   ? MerkleProof::Kind::top
             : shape.sub_arity ? MerkleProof::Kind::sub
                               : MerkleProof::Kind::single;
    const size_t per_tree = size_t(1) << (3 * base_levels);
    const size_t t = challenge / per_tree;
    size_t pos = challenge % per_tree;
    p.leaf = fr_to_domain(base[t][0][pos]);
    p.root = fr_to_domain(root);
    for (size_t l = 0; l < base_levels; ++l, pos /= 8)
      p.base.push_back(element(std::span(base[t][l]).subspan(pos - pos % 8, 8), pos % 8));
    if (shape.sub_arity) {
      const size_t group = t / shape.sub_arity;
      std::vector<Fr> kids;
      for (size_t k = 0; k < shape.sub_arity; ++k)
        kids.push_back(base[group * shape.sub_arity + k].back()[0]);
      p.sub.push_back(element(kids, t % shape.sub_arity));
      if (shape.top_arity) p.top.push_back(element(subs, group));
    }
    return p;
  }
};

// Rows and aux variables of one Poseidon level: index bits, insertion and the hash (reference §2.9),
// with the siblings as aux variables without rows.
size_t level_rows(unsigned arity) { return arity == 8 ? 530 : arity == 2 ? 314 : 0; }
size_t level_aux(unsigned arity) { return arity == 8 ? 3 + 7 + 22 + 505 : arity == 2 ? 1 + 1 + 2 + 311 : 0; }

TEST(PoR, RowsPerLevel) {
  for (unsigned arity : {8u, 2u}) {
    SCOPED_TRACE("arity " + std::to_string(arity));
    const std::vector<PathLevel> levels = {{arity, poseidon_node_hash(**r1cs::poseidon_constants(arity))}};
    const std::vector<PathLevelValues> path = {{std::vector<Fr>(arity - 1, Fr::one()), arity - 1}};
    std::vector<Fr> kids(arity, Fr::one());
    const Fr root = node_hash(kids);
    RecordingSystem cs;
    ASSERT_TRUE(synthesize_por(cs, levels, Fr::one(), path, root).ok());
    EXPECT_EQ(cs.num_constraints(), level_rows(arity) + 2);  // + packing and root equality
    EXPECT_EQ(cs.num_aux(), 1 + level_aux(arity) + 1);       // leaf, the level, root
    EXPECT_EQ(cs.num_inputs(), 2u);
    EXPECT_EQ(cs.input_assignment()[1], Fr::from_u64(arity - 1));
    EXPECT_TRUE(cs.is_satisfied());
  }
}

struct ShapeCase {
  TreeShape shape;
  size_t base_levels;
};

TEST(PoR, WholePathsOfLcTrees) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const ShapeCase& sc : {ShapeCase{{8, 0, 0}, 2}, ShapeCase{{8, 8, 0}, 2}, ShapeCase{{8, 8, 2}, 1}}) {
    SCOPED_TRACE("shape " + sc.shape.name());
    const LcTree tree(sc.shape, sc.base_levels, rng);
    auto levels = poseidon_path_levels(sc.shape, sc.base_levels);
    ASSERT_TRUE(levels.ok()) << levels.message();
    size_t rows = 2, aux = 2;
    for (const PathLevel& l : *levels) {
      rows += level_rows(l.arity);
      aux += level_aux(l.arity);
    }
    for (int trial = 0; trial < 2; ++trial) {
      const uint64_t challenge = rng() % tree.leaves();
      SCOPED_TRACE("challenge " + std::to_string(challenge));
      const MerkleProof proof = tree.proof(challenge);
      ASSERT_TRUE(check_poseidon_inclusion(proof, sc.shape, "test proof", sc.base_levels).ok());
      auto arities = path_arities(proof, sc.shape, "test proof");
      ASSERT_TRUE(arities.ok());
      EXPECT_EQ(path_index(proof, *arities), challenge);
      auto path = circuit_path(proof, "test proof");
      ASSERT_TRUE(path.ok());

      RecordingSystem cs;
      const Fr leaf = *domain_to_fr(proof.leaf);
      ASSERT_TRUE(synthesize_por(cs, *levels, leaf, *path, tree.root).ok());
      EXPECT_EQ(cs.num_constraints(), rows);
      EXPECT_EQ(cs.num_aux(), aux);
      ASSERT_EQ(cs.num_inputs(), 2u);
      EXPECT_EQ(cs.input_assignment()[1], Fr::from_u64(challenge));
      EXPECT_TRUE(cs.is_satisfied());

      // The same circuit without values has the same rows (the setup's view).
      RecordingSystem shape(false);
      std::vector<PathLevelValues> blank = *path;
      for (PathLevelValues& v : blank) {
        for (Fr& s : v.siblings) s = Fr::zero();
        v.index = 0;
      }
      ASSERT_TRUE(synthesize_por(shape, *levels, Fr::zero(), blank, Fr::zero()).ok());
      EXPECT_EQ(shape.num_constraints(), rows);
      EXPECT_EQ(shape.num_aux(), aux);

      // A wrong sibling anywhere: every row holds but the root equality, the last one.
      std::vector<PathLevelValues> wrong = *path;
      PathLevelValues& level = wrong[rng() % wrong.size()];
      level.siblings[rng() % level.siblings.size()] += Fr::one();
      RecordingSystem bad;
      ASSERT_TRUE(synthesize_por(bad, *levels, leaf, wrong, tree.root).ok());
      ASSERT_TRUE(bad.first_unsatisfied().has_value());
      EXPECT_EQ(*bad.first_unsatisfied(), bad.num_constraints() - 1);
    }
  }
}

TEST(PoR, SharedLeafAndPublicRoot) {
  std::mt19937_64 rng(7);
  const LcTree tree({8, 8, 0}, 1, rng);
  const MerkleProof proof = tree.proof(13);
  auto levels = poseidon_path_levels(tree.shape, 1);
  auto path = circuit_path(proof, "p");
  ASSERT_TRUE(levels.ok() && path.ok());
  RecordingSystem cs;
  const Num leaf = Num::alloc(cs, *domain_to_fr(proof.leaf));  // e.g. a PoRep label already in the circuit
  const size_t aux_before = cs.num_aux();
  ASSERT_TRUE(synthesize_por(cs, *levels, leaf, *path, tree.root, /*root_private=*/false).ok());
  EXPECT_EQ(cs.num_aux() - aux_before, 2 * level_aux(8) + 1);  // no leaf allocation
  ASSERT_EQ(cs.num_inputs(), 3u);
  EXPECT_EQ(cs.input_assignment()[1], Fr::from_u64(13));
  EXPECT_EQ(cs.input_assignment()[2], tree.root);
  EXPECT_EQ(cs.num_constraints(), 2 * level_rows(8) + 3);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(PoR, NoChallengeInput) {
  std::mt19937_64 rng(11);
  const LcTree tree({8, 8, 2}, 1, rng);
  const uint64_t challenge = 77;
  const MerkleProof proof = tree.proof(challenge);
  auto levels = poseidon_path_levels(tree.shape, 1);
  auto path = circuit_path(proof, "p");
  ASSERT_TRUE(levels.ok() && path.ok());
  for (const bool good_root : {true, false}) {
    RecordingSystem cs;
    std::vector<AllocatedBit> bits;
    for (unsigned b = 0; b < 3 + 3 + 1; ++b) bits.push_back(AllocatedBit::alloc(cs, (challenge >> b) & 1));
    const Num leaf = Num::alloc(cs, *domain_to_fr(proof.leaf));
    std::vector<std::vector<Num>> siblings;
    for (const PathLevelValues& v : *path) {
      siblings.emplace_back();
      for (const Fr& s : v.siblings) siblings.back().push_back(Num::alloc(cs, s));
    }
    const Num root = Num::alloc(cs, good_root ? tree.root : tree.root + Fr::one());
    const size_t before = cs.num_constraints();
    ASSERT_TRUE(por_no_challenge_input(cs, *levels, bits, leaf, siblings, root).ok());
    EXPECT_EQ(cs.num_constraints() - before, 2 * (22 + 505) + (2 + 311) + 1);
    EXPECT_EQ(cs.num_inputs(), 1u);
    EXPECT_EQ(cs.is_satisfied(), good_root);
    EXPECT_FALSE(por_no_challenge_input(cs, *levels, std::span(bits).first(6), leaf, siblings, root).ok());
  }
}

TEST(PoR, RejectsMalformedPaths) {
  auto levels = poseidon_path_levels({8, 0, 0}, 2);
  ASSERT_TRUE(levels.ok());
  RecordingSystem cs;
  std::vector<PathLevelValues> path(2, {std::vector<Fr>(7), 0});
  EXPECT_FALSE(synthesize_por(cs, *levels, Fr::zero(), std::span(path).first(1), Fr::zero()).ok());
  path[1].index = 8;
  EXPECT_FALSE(synthesize_por(cs, *levels, Fr::zero(), path, Fr::zero()).ok());
  path[1].index = 0;
  path[0].siblings.pop_back();
  EXPECT_FALSE(synthesize_por(cs, *levels, Fr::zero(), path, Fr::zero()).ok());
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_FALSE(poseidon_path_levels({8, 0, 2}, 2).ok());
  EXPECT_FALSE(poseidon_path_levels({3, 0, 0}, 2).ok());
}

TEST(InclusionPath, NamesTheFailingLevel) {
  std::mt19937_64 rng(3);
  const LcTree tree({8, 8, 2}, 2, rng);
  const MerkleProof good = tree.proof(1000);
  ASSERT_TRUE(check_poseidon_inclusion(good, tree.shape, "comm_r_last proof").ok());

  MerkleProof p = good;
  p.sub[0].index = 9;  // level 2 (after two base levels)
  EXPECT_EQ(check_poseidon_inclusion(p, tree.shape, "comm_r_last proof").message(),
            "comm_r_last proof: level 2 index 9 out of range for arity 8");
  p = good;
  p.top[0].index = 2;
  EXPECT_EQ(check_poseidon_inclusion(p, tree.shape, "comm_r_last proof").message(),
            "comm_r_last proof: level 3 index 2 out of range for arity 2");
  p = good;
  p.base[1].hashes[4][0] ^= 1;
  EXPECT_EQ(check_poseidon_inclusion(p, tree.shape, "comm_r_last proof").message(),
            "comm_r_last proof: path does not reach the root");
  p = good;
  p.base[0].index = (p.base[0].index + 1) % 8;  // the leaf at the wrong position
  EXPECT_EQ(check_poseidon_inclusion(p, tree.shape, "comm_r_last proof").message(),
            "comm_r_last proof: path does not reach the root");
  p = good;
  p.base[1].hashes.pop_back();
  EXPECT_EQ(check_poseidon_inclusion(p, tree.shape, "comm_r_last proof").message(),
            "comm_r_last proof: level 1 has 6 siblings for arity 8");
  p = good;
  p.base[0].hashes[0].fill(0xff);
  EXPECT_EQ(check_poseidon_inclusion(p, tree.shape, "comm_r_last proof").message(),
            "comm_r_last proof: level 0 sibling 0 is not a field element");
  p = good;
  p.leaf.fill(0xff);
  EXPECT_FALSE(check_poseidon_inclusion(p, tree.shape, "x").ok());
  p = good;
  p.root.fill(0xff);
  EXPECT_FALSE(check_poseidon_inclusion(p, tree.shape, "x").ok());
  // Shape mismatches: the kind, a missing top level, a base path of the wrong length.
  p = good;
  p.kind = MerkleProof::Kind::sub;
  EXPECT_FALSE(check_poseidon_inclusion(p, tree.shape, "x").ok());
  EXPECT_FALSE(check_poseidon_inclusion(good, {8, 8, 0}, "x").ok());
  EXPECT_FALSE(check_poseidon_inclusion(good, tree.shape, "x", 3).ok());
  EXPECT_TRUE(check_poseidon_inclusion(good, tree.shape, "x", 2).ok());
  p = good;
  p.top.clear();
  EXPECT_FALSE(check_poseidon_inclusion(p, tree.shape, "x").ok());
}

}  // namespace
}  // namespace cuzk::filecoin
