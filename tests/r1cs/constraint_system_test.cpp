// bellperson synthesis semantics (reference/formats.md §3.1) on hand-made circuits, the recording
// system and the evaluation of matrices.
#include <gtest/gtest.h>

#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

using test::fresh_seed;
using test::random_fr;

// inputs: ONE, x; aux: y, z = x·y.
//   0: x · y = z
//   1: (y + k·ONE) · ONE = z + (y + k - z)·ONE
//   2: (z - z) · x = 0           (z cancels: no A-density bit for z)
struct Tiny {
  Fr x, y, z, k;
  Variable vx, vy, vz;
  void synthesize(ConstraintSystem& cs) {
    vx = cs.alloc_input(x);
    vy = cs.alloc(y);
    vz = cs.alloc(z);
    cs.enforce(vx, vy, vz);
    LinearCombination a1(vy);
    a1.add(Variable::one(), k);
    LinearCombination c1(vz);
    c1.add(Variable::one(), y + k - z);
    cs.enforce(a1, Variable::one(), c1);
    LinearCombination a2(vz);
    a2.add(vz, -Fr::one());
    cs.enforce(a2, vx, {});
  }
};

TEST(ProvingAssignment, TinyCircuitMatchesBellperson) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  Tiny t;
  t.x = random_fr(rng);
  t.y = random_fr(rng);
  t.z = t.x * t.y;
  t.k = random_fr(rng);

  ProvingAssignment pa;
  t.synthesize(pa);
  EXPECT_EQ(pa.num_inputs(), 2u);
  EXPECT_EQ(pa.num_aux(), 2u);
  EXPECT_EQ(pa.num_constraints(), 3u);
  auto r = pa.finish();
  ASSERT_TRUE(r.ok()) << r.message();
  const Assignment& s = *r;

  const Fr zero = Fr::zero(), one = Fr::one();
  // Three circuit constraints, then x_i · 0 = 0 for ONE and x.
  const std::vector<Fr> a = {t.x, t.y + t.k, zero, one, t.x};
  const std::vector<Fr> b = {t.y, one, t.x, zero, zero};
  const std::vector<Fr> c = {t.z, t.y + t.k, zero, zero, zero};
  EXPECT_EQ(s.a, a);
  EXPECT_EQ(s.b, b);
  EXPECT_EQ(s.c, c);
  EXPECT_EQ(s.input_assignment, (std::vector<Fr>{one, t.x}));
  EXPECT_EQ(s.aux_assignment, (std::vector<Fr>{t.y, t.z}));

  EXPECT_EQ(s.a_aux_density.bit_len, 2u);
  EXPECT_TRUE(s.a_aux_density.get(0));   // y in A of constraint 1
  EXPECT_FALSE(s.a_aux_density.get(1));  // z only with a cancelled coefficient
  EXPECT_EQ(s.a_aux_density.popcount, 1u);
  EXPECT_EQ(s.b_input_density.bit_len, 2u);
  EXPECT_TRUE(s.b_input_density.get(0));  // ONE in B of constraint 1
  EXPECT_TRUE(s.b_input_density.get(1));  // x in B of constraint 2
  EXPECT_EQ(s.b_input_density.popcount, 2u);
  EXPECT_EQ(s.b_aux_density.bit_len, 2u);
  EXPECT_TRUE(s.b_aux_density.get(0));
  EXPECT_FALSE(s.b_aux_density.get(1));
  EXPECT_EQ(s.b_aux_density.popcount, 1u);
  ASSERT_EQ(s.a_aux_density.words.size(), 1u);
  EXPECT_EQ(s.a_aux_density.words[0], 1u);
}

TEST(ProvingAssignment, FinishTwiceIsAnError) {
  ProvingAssignment pa;
  pa.alloc(Fr::one());
  ASSERT_TRUE(pa.finish().ok());
  EXPECT_FALSE(pa.finish().ok());
}

TEST(LinearCombination, MergesAndSortsTerms) {
  LinearCombination lc;
  lc.add(Variable::aux(5), Fr::one());
  lc.add(Variable::input(1), Fr::from_u64(2));
  lc.add(Variable::aux(2), Fr::from_u64(3));
  lc.add(Variable::aux(5), Fr::from_u64(4));
  lc.add(Variable::one(), Fr::from_u64(5));
  lc.add(Variable::aux(9), Fr::from_u64(6));
  ASSERT_EQ(lc.size(), 5u);
  const auto t = lc.terms();
  EXPECT_EQ(t[0].var, Variable::one());
  EXPECT_EQ(t[1].var, Variable::input(1));
  EXPECT_EQ(t[2].var, Variable::aux(2));
  EXPECT_EQ(t[3].var, Variable::aux(5));
  EXPECT_EQ(t[3].coeff, Fr::from_u64(5));
  EXPECT_EQ(t[4].var, Variable::aux(9));
  const std::vector<Fr> in = {Fr::one(), Fr::from_u64(10)};
  std::vector<Fr> aux(10, Fr::zero());
  aux[2] = Fr::from_u64(100);
  aux[5] = Fr::from_u64(1000);
  aux[9] = Fr::from_u64(7);
  // 5 + 2·10 + 3·100 + 5·1000 + 6·7
  EXPECT_EQ(lc.evaluate(in, aux), Fr::from_u64(5 + 20 + 300 + 5000 + 42));
}

TEST(RecordingSystem, DetectsWrongWitnessAndMatchesProvingAssignment) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  Tiny t;
  t.x = random_fr(rng);
  t.y = random_fr(rng);
  t.z = t.x * t.y;
  t.k = random_fr(rng);

  RecordingSystem rec;
  t.synthesize(rec);
  EXPECT_TRUE(rec.is_satisfied());
  const ConstraintMatrices m = rec.matrices();
  ASSERT_TRUE(m.validate().ok());
  EXPECT_EQ(m.num_inputs, 2u);
  EXPECT_EQ(m.num_aux, 2u);
  EXPECT_TRUE(m.a[2].empty());  // the cancelled term is dropped
  std::vector<Fr> w = rec.witness();

  ProvingAssignment pa;
  t.synthesize(pa);
  auto expected = pa.finish();
  ASSERT_TRUE(expected.ok());
  for (unsigned threads : {1u, 3u}) {
    auto got = evaluate(m, w, threads);
    ASSERT_TRUE(got.ok()) << got.message();
    EXPECT_EQ(got->a, expected->a);
    EXPECT_EQ(got->b, expected->b);
    EXPECT_EQ(got->c, expected->c);
    EXPECT_EQ(got->a_aux_density, expected->a_aux_density);
    EXPECT_EQ(got->b_input_density, expected->b_input_density);
    EXPECT_EQ(got->b_aux_density, expected->b_aux_density);
  }

  // Written-out input constraints evaluate to the tail that evaluate() appends.
  const ConstraintMatrices full = with_input_constraints(m);
  ASSERT_EQ(full.num_constraints(), m.num_constraints() + m.num_inputs);
  for (size_t k = 0; k < full.num_constraints(); ++k) {
    Fr a = Fr::zero();
    for (const auto& [wire, coeff] : full.a[k]) a += w[wire] * coeff;
    EXPECT_EQ(a, expected->a[k]) << k;
  }

  // z wrong: constraint 0 fails first. y wrong (z consistent with it): constraint 1 fails.
  auto ok = first_unsatisfied(m, w);
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok->has_value());
  w[3] += Fr::one();
  auto bad = first_unsatisfied(m, w);
  ASSERT_TRUE(bad.ok());
  ASSERT_TRUE(bad->has_value());
  EXPECT_EQ(**bad, 0u);

  // A different y with a consistent z satisfies constraint 0 but not constraint 1, whose constant
  // was fixed from the honest y.
  const Fr y2 = t.y + Fr::one();
  w[2] = y2;
  w[3] = t.x * y2;
  auto bad1 = first_unsatisfied(m, w);
  ASSERT_TRUE(bad1.ok());
  ASSERT_TRUE(bad1->has_value());
  EXPECT_EQ(**bad1, 1u);
}

TEST(ConstraintMatrices, RejectsMalformedInput) {
  ConstraintMatrices m;
  m.num_inputs = 1;
  m.num_aux = 1;
  m.a.push_back({{0, Fr::one()}});
  m.b.push_back({{2, Fr::one()}});  // wire 2 does not exist
  m.c.push_back({});
  EXPECT_FALSE(m.validate().ok());
  m.b[0] = {{1, Fr::one()}};
  EXPECT_TRUE(m.validate().ok());
  const std::vector<Fr> short_w = {Fr::one()};
  EXPECT_FALSE(evaluate(m, short_w).ok());
  const std::vector<Fr> bad_one = {Fr::zero(), Fr::one()};
  EXPECT_FALSE(evaluate(m, bad_one).ok());
  m.c.clear();
  EXPECT_FALSE(m.validate().ok());
}

}  // namespace
}  // namespace cuzk::r1cs
