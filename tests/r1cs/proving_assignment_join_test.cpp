// Pieces of a circuit synthesized in separate ProvingAssignments and joined with extend() give
// exactly what synthesizing them in order in one system gives: the a, b, c evaluations, both
// assignments and the three density bitmaps (bellperson's `test_proving_assignment_extend`,
// extended with constraints and with pieces that read a shared prefix, as PoRep's challenges read
// its top part). Joins that cannot be right are refused.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "r1cs/proving_assignment.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

// A piece of a random circuit: variables, inputs and constraints whose sides mix ONE, the
// prefix's variables (`shared`) and the piece's own, with some coefficients that cancel (a term
// present with a zero coefficient sets no density bit).
struct Piece {
  uint64_t seed;
  size_t steps;
};

void synthesize_piece(ConstraintSystem& cs, const Piece& piece, const std::vector<Variable>& shared) {
  std::mt19937_64 rng(piece.seed);
  std::vector<Variable> own;
  auto any = [&]() -> Variable {
    const size_t k = rng() % (1 + shared.size() + own.size());
    if (k == 0) return Variable::one();
    return k <= shared.size() ? shared[k - 1] : own[k - 1 - shared.size()];
  };
  auto side = [&] {
    LinearCombination lc;
    for (size_t t = rng() % 4; t > 0; --t) lc.add(any(), test::random_fr(rng));
    if (rng() % 8 == 0) {  // a term that cancels
      const Variable v = any();
      lc.add(v, Fr::one());
      lc.add(v, -Fr::one());
    }
    return lc;
  };
  for (size_t i = 0; i < piece.steps; ++i) {
    if (rng() % 2) own.push_back(cs.alloc(test::random_fr(rng)));
    if (rng() % 5 == 0) own.push_back(cs.alloc_input(test::random_fr(rng)));
    if (rng() % 3) cs.enforce(side(), side(), side());
  }
}

std::vector<Variable> synthesize_prefix(ConstraintSystem& cs, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Variable> vars;
  for (size_t i = 0; i < n; ++i) {
    vars.push_back(rng() % 4 ? cs.alloc(test::random_fr(rng)) : cs.alloc_input(test::random_fr(rng)));
    cs.enforce(vars.back(), Variable::one(), vars.back());
  }
  return vars;
}

void expect_same(const Assignment& x, const Assignment& y) {
  EXPECT_TRUE(x.a == y.a);
  EXPECT_TRUE(x.b == y.b);
  EXPECT_TRUE(x.c == y.c);
  EXPECT_TRUE(x.input_assignment == y.input_assignment);
  EXPECT_TRUE(x.aux_assignment == y.aux_assignment);
  EXPECT_EQ(x.a_aux_density, y.a_aux_density);
  EXPECT_EQ(x.b_input_density, y.b_input_density);
  EXPECT_EQ(x.b_aux_density, y.b_aux_density);
}

TEST(ProvingAssignmentJoin, FreshPiecesJoinAsBellpersonExtends) {
  // Pieces that see only ONE, each in a fresh system (bellperson's form).
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  for (size_t pieces : {1, 2, 5}) {
    std::vector<Piece> ps;
    for (size_t k = 0; k < pieces; ++k) ps.push_back({seed + k, 40 + 30 * k});
    ProvingAssignment whole;
    for (const Piece& p : ps) synthesize_piece(whole, p, {});
    ProvingAssignment joined;
    for (const Piece& p : ps) {
      ProvingAssignment part;
      synthesize_piece(part, p, {});
      ASSERT_TRUE(joined.extend(std::move(part)).ok());
    }
    expect_same(joined.finish().value(), whole.finish().value());
  }
}

TEST(ProvingAssignmentJoin, ForksOfAPrefixJoinAsSequentialSynthesis) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  // 70 prefix variables: density words that the pieces' bits must be OR-ed into, across a word
  // boundary; pieces of varied length so that the appended bits start at every offset.
  const std::vector<Piece> ps = {
      {seed + 1, 100}, {seed + 2, 7}, {seed + 3, 0}, {seed + 4, 333}, {seed + 5, 64}};
  ProvingAssignment whole;
  const std::vector<Variable> shared = synthesize_prefix(whole, 70, seed);
  for (const Piece& p : ps) synthesize_piece(whole, p, shared);

  ProvingAssignment joined;
  const std::vector<Variable> same = synthesize_prefix(joined, 70, seed);
  std::vector<ProvingAssignment> forks;
  for (const Piece& p : ps) {
    forks.push_back(joined.fork());
    synthesize_piece(forks.back(), p, same);
  }
  for (ProvingAssignment& f : forks) ASSERT_TRUE(joined.extend(std::move(f)).ok());
  expect_same(joined.finish().value(), whole.finish().value());
}

TEST(ProvingAssignmentJoin, LargePiecesAndReservedRoomJoinTheSame) {
  // A piece of 2^18 rows takes the side-by-side copy; room reserved and prefaulted beforehand
  // changes nothing.
  auto big = [](ConstraintSystem& cs, const std::vector<Variable>& shared) {
    Variable last = cs.alloc(Fr::from_u64(3));
    for (size_t i = 0; i < (size_t(1) << 18); ++i) {
      if (i % 3 == 0) last = cs.alloc(Fr::from_u64(i));
      cs.enforce(last, shared[i % shared.size()], Variable::one());
    }
  };
  ProvingAssignment whole;
  const std::vector<Variable> shared = synthesize_prefix(whole, 5, 1);
  big(whole, shared);
  big(whole, shared);
  ProvingAssignment joined;
  (void)synthesize_prefix(joined, 5, 1);
  joined.reserve(1 << 19, 1 << 18);
  joined.prefault();
  for (int k = 0; k < 2; ++k) {
    ProvingAssignment f = joined.fork();
    big(f, shared);  // the fork's first variables are the prefix's, with the same indices
    ASSERT_TRUE(joined.extend(std::move(f)).ok());
  }
  expect_same(joined.finish().value(), whole.finish().value());
}

TEST(ProvingAssignmentJoin, JoinsThatCannotBeRightAreRefused) {
  ProvingAssignment a;
  (void)synthesize_prefix(a, 3, 7);
  ProvingAssignment other;
  (void)synthesize_prefix(other, 3, 8);  // the same shape, other values
  Status s = a.extend(other.fork());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("forked from"), std::string::npos) << s.message();

  ProvingAssignment longer;
  (void)synthesize_prefix(longer, 4, 7);
  EXPECT_FALSE(a.extend(longer.fork()).ok());  // a prefix a does not have

  ProvingAssignment done;
  ASSERT_TRUE(done.finish().ok());
  EXPECT_FALSE(a.extend(std::move(done)).ok());
  ProvingAssignment piece = a.fork();
  ASSERT_TRUE(a.finish().ok());
  EXPECT_FALSE(a.extend(std::move(piece)).ok());
}

}  // namespace
}  // namespace cuzk::r1cs
