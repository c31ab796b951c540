// CompiledCircuit::from_parts checks what it is given: every check of compiled_circuit.cpp is
// made to fail once by a corrupted copy of good parts, with a message naming the violation, and
// the good parts pass.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

#include "compiled_test_util.hpp"

namespace cuzk::r1cs {
namespace {

// A small circuit with inputs, aux in every side and a coefficient beyond ±1.
CompiledParts good_parts() {
  CompilingSystem cs;
  const Variable x = cs.alloc_input(Fr::zero());
  const Variable y = cs.alloc(Fr::zero());
  const Variable z = cs.alloc(Fr::zero());
  cs.enforce(x, y, z);
  cs.enforce(LinearCombination(y, Fr::from_u64(7)) + LinearCombination(z, -Fr::one()), x, Variable::one());
  cs.enforce(z, LinearCombination(y) + LinearCombination(x), y);
  for (int i = 0; i < 70; ++i) cs.enforce(cs.alloc(Fr::zero()), cs.alloc(Fr::zero()), z);  // 2 density words
  auto parts = cs.finish_parts();
  EXPECT_TRUE(parts.ok()) << parts.message();
  return std::move(*parts);
}

void expect_refused(const std::function<void(CompiledParts&)>& corrupt, const std::string& what) {
  CompiledParts parts = good_parts();
  corrupt(parts);
  auto cc = CompiledCircuit::from_parts(std::move(parts));
  ASSERT_FALSE(cc.ok()) << "accepted: " << what;
  EXPECT_NE(cc.message().find(what), std::string::npos) << cc.message();
}

TEST(CompiledCircuit, GoodPartsPass) {
  auto cc = CompiledCircuit::from_parts(good_parts());
  ASSERT_TRUE(cc.ok()) << cc.message();
  EXPECT_EQ(cc->num_inputs(), 2u);
  EXPECT_EQ(cc->num_aux(), 142u);
  EXPECT_EQ(cc->num_constraints(), 73u);
  EXPECT_EQ(cc->num_rows(), 75u);
  EXPECT_TRUE(cc->has_c());
  EXPECT_EQ(cc->coeffs().size(), 3u);  // 1, −1, 7
  EXPECT_EQ(cc->side(Side::a).nnz(), 72u + 2u);
  // Bytes: every array, the densities' words included.
  size_t want = 3 * sizeof(Fr) + 3 * 2 * sizeof(uint64_t) + sizeof(uint64_t);
  for (Side s : {Side::a, Side::b, Side::c})
    want += 4 * (cc->side(s).row_start.size() + 2 * cc->side(s).nnz());
  EXPECT_EQ(cc->bytes(), want);
  // A copy shares the arrays.
  const CompiledCircuit copy = *cc;
  EXPECT_EQ(copy.side(Side::b).wire.data(), cc->side(Side::b).wire.data());
}

TEST(CompiledCircuit, EveryCorruptionIsNamed) {
  expect_refused([](CompiledParts& p) { p.num_inputs = 0; }, "no inputs");
  expect_refused([](CompiledParts& p) { p.coeffs.resize(1); }, "must start with 1 and −1");
  expect_refused([](CompiledParts& p) { p.coeffs[0] = Fr::from_u64(2); }, "must start with 1 and −1");
  expect_refused([](CompiledParts& p) { p.coeffs[1] = Fr::one(); }, "must start with 1 and −1");
  expect_refused([](CompiledParts& p) { p.num_constraints = uint64_t(1) << 32; },
                 "more than 2^32 − 1 constraints");
  expect_refused(
      [](CompiledParts& p) {
        p.row_start[2].clear();  // C without offsets but with terms
      },
      "side C has terms but no row offsets");
  expect_refused([](CompiledParts& p) { p.row_start[1].pop_back(); }, "side B has 73 row offsets for 73");
  expect_refused([](CompiledParts& p) { p.coeff[0].pop_back(); }, "coefficient indices");
  expect_refused([](CompiledParts& p) { p.row_start[0][0] = 1; }, "side A's row offsets do not run from 0");
  expect_refused([](CompiledParts& p) { ++p.row_start[0].back(); }, "side A's row offsets do not run from 0");
  expect_refused([](CompiledParts& p) { std::swap(p.row_start[1][1], p.row_start[1][2]); },
                 "side B's row offsets decrease at row");
  expect_refused([](CompiledParts& p) { p.wire[2][3] = p.num_inputs + p.num_aux; }, "reads wire 144 of 144");
  expect_refused([](CompiledParts& p) { p.coeff[1][0] = 3; }, "has coefficient 3 of 3");
  expect_refused([](CompiledParts& p) { p.row_start[0].clear(), p.wire[0].clear(), p.coeff[0].clear(); },
                 "sides A and B must be present");
  expect_refused([](CompiledParts& p) { p.row_start[1].clear(), p.wire[1].clear(), p.coeff[1].clear(); },
                 "sides A and B must be present");
  expect_refused([](CompiledParts& p) { p.a_aux_density.resize(141); }, "the A aux density has 141 bits");
  expect_refused([](CompiledParts& p) { p.b_input_density.push(false); }, "the B input density has 3 bits");
  expect_refused([](CompiledParts& p) { p.b_aux_density.words.push_back(0); },
                 "the B aux density has 142 bits");
  expect_refused([](CompiledParts& p) { p.b_aux_density.words[1] ^= 1; },
                 "the B aux density's count is wrong");
  expect_refused([](CompiledParts& p) { ++p.a_aux_density.popcount; }, "the A aux density's count is wrong");
}

TEST(CompiledCircuit, RandomCorruptionsAreRefusedOrSafeToEvaluate) {
  // Any u32 of the arrays overwritten at random: from_parts refuses the parts or, where they are
  // still well formed (a wire moved within range, say), the product reads only within bounds.
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  size_t refused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    CompiledParts p = good_parts();
    const size_t s = rng() % 3;
    std::vector<uint32_t>* arrays[3] = {&p.row_start[s], &p.wire[s], &p.coeff[s]};
    std::vector<uint32_t>& v = *arrays[rng() % 3];
    const uint32_t value = rng() % 2 ? uint32_t(rng()) : uint32_t(rng() % 200);
    v[rng() % v.size()] = value;
    auto cc = CompiledCircuit::from_parts(std::move(p));
    if (!cc.ok()) {
      ++refused;
      continue;
    }
    std::vector<Fr> inputs(cc->num_inputs(), Fr::one()), aux(cc->num_aux(), Fr::from_u64(3));
    auto eval = evaluate_compiled(*cc, inputs, aux, 2);
    EXPECT_TRUE(eval.ok()) << eval.message();
  }
  EXPECT_GT(refused, 0u);
}

TEST(CompiledCircuit, WithoutCIsValid) {
  CompiledParts p = good_parts();
  p.row_start[2].clear(), p.wire[2].clear(), p.coeff[2].clear();
  auto cc = CompiledCircuit::from_parts(std::move(p));
  ASSERT_TRUE(cc.ok()) << cc.message();
  EXPECT_FALSE(cc->has_c());
}

}  // namespace
}  // namespace cuzk::r1cs
