// The compiler and the CPU product against full synthesis: random circuits (terms that cancel,
// coefficients ±1 and others, values 0, 1 and random, inputs between auxiliaries), compiled
// sequentially, in forked pieces, and from the recorded matrices; the witness-only mode of
// ProvingAssignment; the coefficient table; and everything that must be refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "compiled_test_util.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {
namespace {

using test::expect_same_assignment;
using test::expect_same_compiled;
using test::fresh_seed;
using test::random_fr;

// A coefficient from a small pool (so the table repeats) or a fresh one.
Fr coefficient(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0:
      return Fr::one();
    case 1:
      return -Fr::one();
    case 2:
      return Fr::from_u64(1 + rng() % 5);
    case 3:
      return -Fr::from_u64(2 + rng() % 3);
    default:
      return random_fr(rng);
  }
}

Fr value(std::mt19937_64& rng) {
  const uint64_t k = rng() % 4;
  return k == 0 ? Fr::zero() : k == 1 ? Fr::one() : random_fr(rng);
}

// A piece of a random circuit reading ONE, the prefix's variables (`shared`) and its own.
void synthesize_piece(ConstraintSystem& cs, uint64_t seed, size_t steps,
                      const std::vector<Variable>& shared) {
  std::mt19937_64 rng(seed);
  std::vector<Variable> own;
  auto any = [&]() -> Variable {
    const size_t k = rng() % (1 + shared.size() + own.size());
    if (k == 0) return Variable::one();
    return k <= shared.size() ? shared[k - 1] : own[k - 1 - shared.size()];
  };
  auto side = [&] {
    LinearCombination lc;
    for (size_t t = rng() % 6; t > 0; --t) lc.add(any(), coefficient(rng));
    if (rng() % 6 == 0) {  // a term that cancels: recorded nowhere, no density bit
      const Variable v = any();
      const Fr c = random_fr(rng);
      lc.add(v, c);
      lc.add(v, -c);
    }
    return lc;
  };
  for (size_t i = 0; i < steps; ++i) {
    if (rng() % 2) own.push_back(cs.alloc(value(rng)));
    if (rng() % 6 == 0) own.push_back(cs.alloc_input(value(rng)));
    if (rng() % 4) cs.enforce(side(), side(), side());
  }
}

std::vector<Variable> synthesize_prefix(ConstraintSystem& cs, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Variable> vars;
  for (size_t i = 0; i < n; ++i) {
    vars.push_back(rng() % 4 ? cs.alloc(value(rng)) : cs.alloc_input(value(rng)));
    cs.enforce(vars.back(), Variable::one(), LinearCombination(vars.back(), Fr::from_u64(3)));
  }
  return vars;
}

struct RandomCircuit final : Circuit {
  uint64_t seed;
  size_t prefix;
  std::vector<size_t> pieces;  // steps of each piece

  RandomCircuit(uint64_t s, size_t p, std::vector<size_t> ps) : seed(s), prefix(p), pieces(std::move(ps)) {}
  Status synthesize(ConstraintSystem& cs) const override {
    const std::vector<Variable> shared = synthesize_prefix(cs, prefix, seed);
    for (size_t k = 0; k < pieces.size(); ++k) synthesize_piece(cs, seed + 1 + k, pieces[k], shared);
    return Status::Ok();
  }
  size_t num_public_inputs() const override { return 0; }

  // The prefix in `base`, each piece in its own fork on its own thread, joined in order.
  template <class System>
  System joined(System base) const {
    const std::vector<Variable> shared = synthesize_prefix(base, prefix, seed);
    std::vector<System> forks;
    for (size_t k = 0; k < pieces.size(); ++k) forks.push_back(base.fork());
    std::vector<std::thread> pool;
    for (size_t k = 0; k < pieces.size(); ++k)
      pool.emplace_back([&, k] { synthesize_piece(forks[k], seed + 1 + k, pieces[k], shared); });
    for (std::thread& t : pool) t.join();
    for (System& f : forks) EXPECT_TRUE(base.extend(std::move(f)).ok());
    return base;
  }
};

TEST(Compiler, RandomCircuitsMatchFullSynthesis) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  for (size_t k = 0; k < 4; ++k) {
    const RandomCircuit circuit(seed + 100 * k, 10 + 30 * k, {200, 13, 500});
    for (unsigned threads : {1u, 4u}) test::expect_compiled_path_equal(circuit, threads);
  }
}

TEST(Compiler, WitnessOnlySynthesisCountsAndKeepsTheValues) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  const RandomCircuit circuit(seed, 20, {300});
  ProvingAssignment full;
  ASSERT_TRUE(circuit.synthesize(full).ok());
  ProvingAssignment wo = ProvingAssignment::witness_only();
  EXPECT_TRUE(wo.is_witness_only());
  EXPECT_FALSE(full.is_witness_only());
  ASSERT_TRUE(circuit.synthesize(wo).ok());
  EXPECT_EQ(wo.num_constraints(), full.num_constraints());
  EXPECT_EQ(wo.num_inputs(), full.num_inputs());
  EXPECT_EQ(wo.num_aux(), full.num_aux());
  const Assignment w = wo.finish().value(), f = full.finish().value();
  EXPECT_EQ(w.witness_rows, f.a.size());
  EXPECT_EQ(w.num_constraints(), f.num_constraints());
  EXPECT_TRUE(w.input_assignment == f.input_assignment);
  EXPECT_TRUE(w.aux_assignment == f.aux_assignment);
  EXPECT_TRUE(w.a.empty() && w.b.empty() && w.c.empty());
  EXPECT_EQ(w.b_input_density.bit_len + w.a_aux_density.bit_len + w.b_aux_density.bit_len, 0u);
  EXPECT_FALSE(w.c_from_ab);
  EXPECT_EQ(w.compiled, nullptr);
  EXPECT_FALSE(wo.finish().ok());  // spent
}

TEST(Compiler, ForkedPiecesJoinAsSequential) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  // 70 prefix variables (density words across a boundary), pieces of varied length (one empty).
  const RandomCircuit circuit(seed, 70, {100, 7, 0, 333, 64});
  for (CompileOptions options : {CompileOptions{}, CompileOptions{.keep_c = false}}) {
    SCOPED_TRACE(options.keep_c ? "with C" : "without C");
    auto sequential = compile(circuit, options);
    ASSERT_TRUE(sequential.ok()) << sequential.message();
    auto joined = circuit.joined(CompilingSystem(options)).finish();
    ASSERT_TRUE(joined.ok()) << joined.message();
    expect_same_compiled(*joined, *sequential);
  }
  // Witness-only pieces join too.
  ProvingAssignment whole = ProvingAssignment::witness_only();
  ASSERT_TRUE(circuit.synthesize(whole).ok());
  const Assignment want = whole.finish().value();
  const Assignment got = circuit.joined(ProvingAssignment::witness_only()).finish().value();
  expect_same_assignment(got, want);
}

TEST(Compiler, EqualsTheRecordedMatricesCompiled) {
  // Two independent routes to the same arrays: the CompilingSystem, and the RecordingSystem's
  // matrices (wire numbering, merged coefficients, zero terms dropped) through compile(matrices).
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  const RandomCircuit circuit(seed, 25, {150, 150});
  RecordingSystem rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  const ConstraintMatrices m = rec.matrices();
  auto from_system = compile(circuit);
  auto from_matrices = compile(m);
  ASSERT_TRUE(from_system.ok() && from_matrices.ok()) << from_matrices.message();
  expect_same_compiled(*from_system, *from_matrices);

  // Every term's coefficient is the table entry its index names; the table is 1, −1, then
  // distinct values in order of first appearance (A's terms, then B's, then C's, row by row).
  const CompiledCircuit& cc = *from_system;
  ASSERT_GE(cc.coeffs().size(), 2u);
  EXPECT_EQ(cc.coeffs()[0], Fr::one());
  EXPECT_EQ(cc.coeffs()[1], -Fr::one());
  std::vector<Fr> order = {Fr::one(), -Fr::one()};
  const std::vector<SparseRow>* sides[3] = {&m.a, &m.b, &m.c};
  for (size_t k = 0; k < m.num_constraints(); ++k)
    for (size_t s = 0; s < 3; ++s) {
      const CompiledSide& side = cc.side(Side(s));
      const SparseRow& row = (*sides[s])[k];
      ASSERT_EQ(side.row_start[k + 1] - side.row_start[k], row.size());
      for (size_t t = 0; t < row.size(); ++t) {
        EXPECT_EQ(side.wire[side.row_start[k] + t], row[t].first);
        EXPECT_EQ(cc.coeffs()[side.coeff[side.row_start[k] + t]], row[t].second);
        if (std::find(order.begin(), order.end(), row[t].second) == order.end())
          order.push_back(row[t].second);
      }
    }
  // Sequential first appearance is over constraints, each A, B, C in turn: the compiler's order.
  EXPECT_TRUE(test::same_span<Fr>(cc.coeffs(), order));
}

TEST(Compiler, MatricesEvaluateAsTheMatrixEvaluator) {
  // A circom-like circuit: rows with repeated wires, unsorted wires, zero coefficients.
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  ConstraintMatrices m;
  m.num_inputs = 4;
  m.num_aux = 90;
  std::vector<Fr> w = {Fr::one()};
  for (size_t i = 1; i < m.num_wires(); ++i) w.push_back(value(rng));
  for (size_t k = 0; k < 200; ++k)
    for (auto* side : {&m.a, &m.b, &m.c}) {
      SparseRow row;
      for (size_t t = rng() % 5; t > 0; --t)
        row.emplace_back(uint32_t(rng() % m.num_wires()), coefficient(rng));
      if (rng() % 5 == 0) row.emplace_back(uint32_t(rng() % m.num_wires()), Fr::zero());
      side->push_back(row);
    }
  auto want = evaluate(m, w, 2);
  ASSERT_TRUE(want.ok()) << want.message();
  for (bool keep_c : {true, false}) {
    auto cc = compile(m, {.keep_c = keep_c});
    ASSERT_TRUE(cc.ok()) << cc.message();
    auto as = witness_assignment(std::make_shared<const CompiledCircuit>(std::move(*cc)), w);
    ASSERT_TRUE(as.ok()) << as.message();
    ASSERT_TRUE(materialize(*as, 3).ok());
    if (keep_c) {
      expect_same_assignment(*as, *want);
      continue;
    }
    EXPECT_TRUE(as->c_from_ab);
    EXPECT_TRUE(as->c.empty());
    EXPECT_TRUE(as->a == want->a && as->b == want->b);
    EXPECT_EQ(as->b_aux_density, want->b_aux_density);
  }
}

TEST(Compiler, WithoutCTheProductStandsForC) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  // A satisfied circuit: x_{k+1} = x_k · (x_k + 3), C = ONE·x_{k+1}.
  struct Chain final : Circuit {
    Status synthesize(ConstraintSystem& cs) const override {
      Fr x = Fr::from_u64(5);
      Variable v = cs.alloc_input(x);
      for (int k = 0; k < 50; ++k) {
        const Fr y = x * (x + Fr::from_u64(3));
        const Variable u = cs.alloc(y);
        cs.enforce(v, LinearCombination(v) + LinearCombination::constant(Fr::from_u64(3)), u);
        x = y, v = u;
      }
      return Status::Ok();
    }
    size_t num_public_inputs() const override { return 1; }
  } circuit;
  const Assignment full = synthesize_for_proving(circuit).value();
  auto cc = compile(circuit, {.keep_c = false});
  ASSERT_TRUE(cc.ok()) << cc.message();
  EXPECT_FALSE(cc->has_c());
  auto eval = evaluate_compiled(*cc, full.input_assignment, full.aux_assignment, 2);
  ASSERT_TRUE(eval.ok()) << eval.message();
  EXPECT_TRUE(eval->c_from_ab);
  EXPECT_TRUE(eval->c.empty());
  EXPECT_TRUE(eval->a == full.a && eval->b == full.b);
  for (size_t j = 0; j < full.a.size(); ++j) EXPECT_EQ(eval->a[j] * eval->b[j], full.c[j]) << "row " << j;
  auto with_c = compile(circuit);
  auto eval_c = evaluate_compiled(*with_c, full.input_assignment, full.aux_assignment, 1);
  ASSERT_TRUE(eval_c.ok());
  EXPECT_FALSE(eval_c->c_from_ab);
  EXPECT_TRUE(eval_c->c == full.c);
}

TEST(Compiler, JoinsThatCannotBeRightAreRefused) {
  CompilingSystem a;
  (void)synthesize_prefix(a, 3, 7);
  CompilingSystem longer;
  (void)synthesize_prefix(longer, 40, 7);
  Status s = a.extend(longer.fork());  // a prefix a does not have
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("forked from"), std::string::npos) << s.message();

  CompilingSystem other_options({.keep_c = false});
  s = a.extend(other_options.fork());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("options"), std::string::npos) << s.message();

  CompilingSystem done;
  ASSERT_TRUE(done.finish().ok());
  EXPECT_FALSE(a.extend(std::move(done)).ok());
  CompilingSystem misused;
  ASSERT_TRUE(misused.finish().ok());
  CompilingSystem late = misused.fork();  // a fork of a finished system
  s = a.extend(std::move(late));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("finished"), std::string::npos) << s.message();
  CompilingSystem piece = a.fork();
  ASSERT_TRUE(a.finish().ok());
  EXPECT_FALSE(a.extend(std::move(piece)).ok());
  EXPECT_FALSE(a.finish().ok());  // twice

  // Witness-only and full pieces do not mix.
  ProvingAssignment full;
  s = full.extend(ProvingAssignment::witness_only());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("witness-only"), std::string::npos) << s.message();
  ProvingAssignment wo = ProvingAssignment::witness_only();
  EXPECT_FALSE(wo.extend(ProvingAssignment()).ok());
}

TEST(Compiler, ASideOverItsTermLimitIsRefused) {
  // Row offsets are 32-bit: a side may hold at most max_side_terms terms (2^32 − 1 unless
  // lowered, as here, to test the refusal at a size a test can reach).
  const RandomCircuit circuit(11, 10, {400});
  const CompiledCircuit full = compile(circuit).value();
  const size_t most =
      std::max({full.side(Side::a).nnz(), full.side(Side::b).nnz(), full.side(Side::c).nnz()});
  EXPECT_TRUE(compile(circuit, {.max_side_terms = most}).ok());  // exactly at the limit
  auto over = compile(circuit, {.max_side_terms = most - 1});
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.message().find("row offsets are 32-bit"), std::string::npos) << over.message();

  RecordingSystem rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  EXPECT_TRUE(compile(rec.matrices(), {.max_side_terms = most}).ok());
  over = compile(rec.matrices(), {.max_side_terms = most - 1});
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.message().find("row offsets are 32-bit"), std::string::npos) << over.message();

  // Joining pieces whose sum is over the limit is refused too, each piece being under it.
  CompilingSystem base({.max_side_terms = most + 50});
  (void)synthesize_prefix(base, 10, 11);
  CompilingSystem p1 = base.fork(), p2 = base.fork();
  synthesize_piece(p1, 12, 400, {});
  synthesize_piece(p2, 13, 400, {});
  ASSERT_TRUE(base.extend(std::move(p1)).ok());
  Status s = base.extend(std::move(p2));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("row offsets are 32-bit"), std::string::npos) << s.message();
}

TEST(Compiler, AWitnessOfTheWrongShapeIsRefused) {
  const RandomCircuit circuit(5, 10, {120});
  const auto cc = std::make_shared<const CompiledCircuit>(compile(circuit).value());
  auto witness = [](const Circuit& c) {
    ProvingAssignment wo = ProvingAssignment::witness_only();
    EXPECT_TRUE(c.synthesize(wo).ok());
    return wo.finish().value();
  };
  auto refused = [&](Assignment as, const std::string& what) {
    const Assignment before = as;
    Status s = attach_compiled(as, cc);
    ASSERT_FALSE(s.ok()) << what;
    EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
    EXPECT_EQ(as.compiled, before.compiled);
    EXPECT_TRUE(as.a_aux_density == before.a_aux_density && as.c_from_ab == before.c_from_ab);
  };
  Assignment good = witness(circuit);
  {
    Assignment fewer_aux = good;
    fewer_aux.aux_assignment.pop_back();
    refused(fewer_aux, "aux");
    Assignment more_inputs = good;
    more_inputs.input_assignment.push_back(Fr::one());
    refused(more_inputs, "inputs");
    Assignment more_rows = good;
    ++more_rows.witness_rows;
    refused(more_rows, "rows");
  }
  refused(witness(RandomCircuit(5, 10, {150})), "witness does not fit");  // another circuit
  refused(synthesize_for_proving(circuit).value(), "not witness-only");   // a full assignment
  EXPECT_FALSE(attach_compiled(good, nullptr).ok());
  EXPECT_FALSE(materialize(good, 1).ok());  // nothing attached
  ASSERT_TRUE(attach_compiled(good, cc).ok());
  refused(good, "already attached");

  // The evaluator checks lengths and ONE itself.
  const Assignment full = synthesize_for_proving(circuit).value();
  std::vector<Fr> aux = full.aux_assignment;
  aux.push_back(Fr::zero());
  EXPECT_FALSE(evaluate_compiled(*cc, full.input_assignment, aux, 1).ok());
  std::vector<Fr> inputs = full.input_assignment;
  inputs[0] = Fr::from_u64(2);
  auto bad_one = evaluate_compiled(*cc, inputs, full.aux_assignment, 1);
  ASSERT_FALSE(bad_one.ok());
  EXPECT_NE(bad_one.message().find("ONE"), std::string::npos);
  std::vector<Fr> a(cc->num_rows()), b(cc->num_rows()), c(cc->num_rows() - 1);
  EXPECT_FALSE(evaluate_compiled_into(*cc, full.input_assignment, full.aux_assignment, a, b, c, 1).ok());
  EXPECT_FALSE(witness_assignment(cc, std::vector<Fr>(cc->num_wires() + 1, Fr::one())).ok());
}

TEST(Compiler, MaterializeKeepsTheCallersStorage) {
  const RandomCircuit circuit(9, 10, {200});
  const auto cc = std::make_shared<const CompiledCircuit>(compile(circuit).value());
  ProvingAssignment wo = ProvingAssignment::witness_only();
  ASSERT_TRUE(circuit.synthesize(wo).ok());
  Assignment as = wo.finish().value();
  as.a.reserve(4096);  // a lent buffer, say
  const Fr* storage = as.a.data();
  ASSERT_TRUE(attach_compiled(as, cc).ok());
  ASSERT_TRUE(materialize(as, 2).ok());
  EXPECT_EQ(as.a.data(), storage);
  EXPECT_FALSE(as.witness_only());
  EXPECT_EQ(as.compiled, nullptr);
  EXPECT_FALSE(materialize(as, 2).ok());  // already materialized
}

}  // namespace
}  // namespace cuzk::r1cs
