// The circuits: satisfied with honest witnesses, unsatisfied with wrong ones, and the synthetic
// generator's shape, densities and fast path.
#include <gtest/gtest.h>

#include <cmath>

#include "r1cs/circuits/merkle_inclusion.hpp"
#include "r1cs/circuits/sha256_preimage.hpp"
#include "r1cs/circuits/synthetic.hpp"
#include "r1cs/gadgets/merkle.hpp"
#include "r1cs/gadgets/sha256.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

using test::fresh_seed;
using test::random_fr;

void expect_same(const Assignment& x, const Assignment& y) {
  EXPECT_EQ(x.a, y.a);
  EXPECT_EQ(x.b, y.b);
  EXPECT_EQ(x.c, y.c);
  EXPECT_EQ(x.input_assignment, y.input_assignment);
  EXPECT_EQ(x.aux_assignment, y.aux_assignment);
  EXPECT_EQ(x.a_aux_density, y.a_aux_density);
  EXPECT_EQ(x.b_input_density, y.b_input_density);
  EXPECT_EQ(x.b_aux_density, y.b_aux_density);
}

// ProvingAssignment and the recorded matrices evaluated on the recorded witness must agree.
void expect_proving_matches_matrices(const Circuit& circuit) {
  RecordingSystem rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  auto from_matrices = evaluate(rec.matrices(), rec.witness(), 2);
  ASSERT_TRUE(from_matrices.ok()) << from_matrices.message();
  auto proving = synthesize_for_proving(circuit);
  ASSERT_TRUE(proving.ok()) << proving.message();
  expect_same(*proving, *from_matrices);
}

TEST(Sha256Preimage, SatisfiedAndBoundToTheDigest) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> msg(size_t(rng() % 80));
  for (auto& b : msg) b = uint8_t(rng());
  const Sha256Preimage circuit(msg);
  RecordingSystem rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  EXPECT_TRUE(rec.is_satisfied());
  ASSERT_EQ(rec.num_inputs(), 1 + circuit.num_public_inputs());
  const std::vector<Fr> want = Sha256Preimage::public_inputs(sha256(msg));
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(rec.input_assignment()[1], want[0]);
  EXPECT_EQ(rec.input_assignment()[2], want[1]);

  // Claiming another digest (a verifier's public input) must break the circuit.
  std::vector<Fr> w = rec.witness();
  w[1] += Fr::one();
  auto r = first_unsatisfied(rec.matrices(), w);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->has_value());
  expect_proving_matches_matrices(circuit);
}

TEST(MerkleInclusion, RandomTreesAndWrongPaths) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const PoseidonConstants& p = poseidon_constants_2();
  for (size_t depth : {size_t(2), size_t(4), size_t(6)}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    std::vector<Fr> leaves(size_t(1) << depth);
    for (auto& l : leaves) l = random_fr(rng);
    auto tree = merkle_tree(p, leaves);
    ASSERT_TRUE(tree.ok());
    const Fr root = tree->back()[0];
    const uint64_t index = rng() % leaves.size();
    const std::vector<Fr> path = merkle_path(*tree, index);

    const MerkleInclusion good(root, leaves[index], path, index);
    RecordingSystem rec;
    ASSERT_TRUE(good.synthesize(rec).ok());
    EXPECT_TRUE(rec.is_satisfied());
    EXPECT_EQ(rec.num_inputs(), 2u);
    // Per level an index bit, the swap and neptune's 311-row arity-2 hash; then the root equality.
    EXPECT_EQ(rec.num_constraints(), depth * (1 + 1 + 311) + 1);
    EXPECT_EQ(rec.input_assignment()[1], root);
    expect_proving_matches_matrices(good);

    // A wrong sibling, a wrong leaf or the wrong index: unsatisfied, at the final equality.
    std::vector<Fr> bad_path = path;
    bad_path[rng() % depth] += Fr::one();
    const MerkleInclusion bad[] = {MerkleInclusion(root, leaves[index], bad_path, index),
                                   MerkleInclusion(root, leaves[index] + Fr::one(), path, index),
                                   MerkleInclusion(root, leaves[index], path, index ^ 1)};
    for (const MerkleInclusion& b : bad) {
      RecordingSystem r;
      ASSERT_TRUE(b.synthesize(r).ok());
      ASSERT_TRUE(r.first_unsatisfied().has_value());
      EXPECT_EQ(*r.first_unsatisfied(), r.num_constraints() - 1);
    }

    // The shape alone has the same constraint count as the real thing.
    RecordingSystem shape(false);
    ASSERT_TRUE(MerkleInclusion::shape(depth).synthesize(shape).ok());
    EXPECT_EQ(shape.num_constraints(), rec.num_constraints());
    EXPECT_EQ(shape.num_aux(), rec.num_aux());
  }
  RecordingSystem out_of_tree;
  EXPECT_FALSE(MerkleInclusion(Fr::zero(), Fr::zero(), std::vector<Fr>(3), 8).synthesize(out_of_tree).ok());
}

TEST(Synthetic, SatisfiedWithRequestedShape) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  SyntheticParams params;
  params.num_constraints = 20000 + rng() % 1000;
  params.num_public_inputs = 7;
  params.a_density = 0.8;
  params.b_density = 0.6;
  params.zero_fraction = 0.4;
  params.one_fraction = 0.4;
  params.seed = rng();
  auto circuit = SyntheticCircuit::create(params);
  ASSERT_TRUE(circuit.ok()) << circuit.message();

  RecordingSystem rec;
  ASSERT_TRUE(circuit->synthesize(rec).ok());
  EXPECT_EQ(rec.num_constraints(), params.num_constraints);
  EXPECT_EQ(rec.num_aux(), params.num_constraints);
  EXPECT_EQ(rec.num_inputs(), 8u);
  EXPECT_TRUE(rec.is_satisfied());

  auto pa = synthesize_for_proving(*circuit);
  ASSERT_TRUE(pa.ok());
  const double n = double(params.num_constraints);
  // Binomial draws: allow five standard deviations.
  auto near = [&](double count, double p) {
    const double tol = 5 * std::sqrt(n * p * (1 - p)) + 1;
    EXPECT_NEAR(count, n * p, tol) << "fraction " << p;
  };
  near(double(pa->a_aux_density.popcount), params.a_density);
  near(double(pa->b_aux_density.popcount), params.b_density);
  size_t zeros = 0, ones = 0;
  for (const Fr& v : pa->aux_assignment) {
    zeros += v.is_zero();
    ones += v.is_one();
  }
  near(double(zeros), params.zero_fraction);
  near(double(ones), params.one_fraction);  // a uniform value is 1 with probability 2^-254
  EXPECT_TRUE(pa->b_input_density.get(0));  // ONE stands in B where z_j is not drawn
  for (size_t i = 1; i < 8; ++i) EXPECT_FALSE(pa->b_input_density.get(i));
  EXPECT_EQ(pa->num_constraints(), params.num_constraints + 8);

  // The fast path equals ProvingAssignment, whatever the thread count; so do the matrices.
  for (unsigned threads : {1u, 3u, 8u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    auto fast = circuit->synthesize_assignment(threads);
    ASSERT_TRUE(fast.ok());
    expect_same(*fast, *pa);
  }
  // Into vectors that already hold something (an engine's pooled buffers hold the last partition):
  // longer ones and shorter ones, filled with a value the circuit never makes, come out the same.
  for (size_t stale : {size_t(0), pa->a.size() / 2, pa->a.size() * 2}) {
    SCOPED_TRACE("stale size " + std::to_string(stale));
    Assignment into;
    Fr junk = Fr::one();
    junk += Fr::one();
    junk = -junk;
    for (auto* v : {&into.a, &into.b, &into.c, &into.aux_assignment}) v->assign(stale, junk);
    into.input_assignment.assign(3, junk);
    const Fr* storage = into.a.data();
    ASSERT_TRUE(circuit->synthesize_into(into, 3).ok());
    expect_same(into, *pa);
    if (stale >= pa->a.size()) {
      EXPECT_EQ(into.a.data(), storage);  // written in place
    }
  }
  // With c left to the prover: the same but c, which is empty (its storage kept) and is a∘b.
  for (unsigned threads : {1u, 3u}) {
    Assignment into = *pa;
    ASSERT_TRUE(circuit->synthesize_into(into, threads, /*c_from_ab=*/true).ok());
    EXPECT_TRUE(into.c_from_ab);
    EXPECT_TRUE(into.c.empty());
    std::vector<Fr> scratch;
    EXPECT_EQ(c_values(into, scratch), pa->c);
    into.c = pa->c;
    into.c_from_ab = false;
    expect_same(into, *pa);
    ASSERT_TRUE(circuit->synthesize_into(into, threads).ok());  // and back to writing c
    EXPECT_FALSE(into.c_from_ab);
    expect_same(into, *pa);
  }
  auto from_matrices = evaluate(rec.matrices(), rec.witness(), 2);
  ASSERT_TRUE(from_matrices.ok());
  expect_same(*from_matrices, *pa);

  // Every aux variable appears somewhere, so L of the setup has no point at infinity.
  const ConstraintMatrices m = rec.matrices();
  std::vector<char> seen(m.num_wires(), 0);
  for (const auto* mat : {&m.a, &m.b, &m.c})
    for (const SparseRow& row : *mat)
      for (const auto& [wire, coeff] : row) seen[wire] = 1;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), ptrdiff_t(m.num_wires()));
}

TEST(Synthetic, BenchmarkShapeAndEdgeParameters) {
  const SyntheticParams p = SyntheticParams::benchmark_shape(27, 1);
  EXPECT_EQ(p.num_constraints, uint64_t(0.97 * 134217728.0));
  EXPECT_EQ(p.num_public_inputs + 1, 20u);
  EXPECT_TRUE(p.validate().ok());

  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  // Full densities and all-ones / all-zero values are legal corners.
  for (double zero : {0.0, 1.0}) {
    SyntheticParams q = SyntheticParams::benchmark_shape(10, seed);
    q.b_density = 1.0;
    q.zero_fraction = zero;
    q.one_fraction = 1.0 - zero;
    auto c = SyntheticCircuit::create(q);
    ASSERT_TRUE(c.ok());
    auto s = c->synthesize_assignment(2);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->a_aux_density.popcount, q.num_constraints);
    EXPECT_EQ(s->b_aux_density.popcount, q.num_constraints);
    EXPECT_FALSE(s->b_input_density.get(0));
    for (const Fr& v : s->aux_assignment) ASSERT_EQ(v.is_zero(), zero == 1.0);
    RecordingSystem rec;
    ASSERT_TRUE(c->synthesize(rec).ok());
    EXPECT_TRUE(rec.is_satisfied());
  }

  SyntheticParams bad = SyntheticParams::benchmark_shape(10, 0);
  bad.zero_fraction = 0.7;
  EXPECT_FALSE(SyntheticCircuit::create(bad).ok());
  bad = SyntheticParams::benchmark_shape(10, 0);
  bad.num_constraints = 3;
  EXPECT_FALSE(SyntheticCircuit::create(bad).ok());
  bad = SyntheticParams::benchmark_shape(10, 0);
  bad.b_density = -0.1;
  EXPECT_FALSE(SyntheticCircuit::create(bad).ok());
}

}  // namespace
}  // namespace cuzk::r1cs
