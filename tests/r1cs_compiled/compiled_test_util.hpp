// Shared helpers of the compiled-circuit tests: the two ways to a prover's assignment (full
// synthesis, and witness-only synthesis + a compiled circuit + the CPU product) compared field
// for field, and two compiled circuits compared array for array.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "r1cs/circuits/circuit.hpp"
#include "r1cs/compiled/compiler.hpp"
#include "r1cs/compiled/evaluate.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::r1cs::test {

inline uint64_t fresh_seed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) ^ rd();
}

// Uniform enough for tests: 254 random bits are always < r.
inline Fr random_fr(std::mt19937_64& rng) {
  uint64_t v[Fr::N];
  for (auto& x : v) x = rng();
  v[Fr::N - 1] &= (uint64_t(1) << 62) - 1;
  return Fr::from_canonical(v);
}

inline std::string seed_trace(uint64_t seed) { return "seed = " + std::to_string(seed); }

inline void expect_same_assignment(const Assignment& x, const Assignment& y) {
  EXPECT_EQ(x.a.size(), y.a.size());
  EXPECT_TRUE(x.a == y.a);
  EXPECT_TRUE(x.b == y.b);
  EXPECT_EQ(x.c_from_ab, y.c_from_ab);
  EXPECT_TRUE(x.c == y.c);
  EXPECT_TRUE(x.input_assignment == y.input_assignment);
  EXPECT_TRUE(x.aux_assignment == y.aux_assignment);
  EXPECT_EQ(x.a_aux_density, y.a_aux_density);
  EXPECT_EQ(x.b_input_density, y.b_input_density);
  EXPECT_EQ(x.b_aux_density, y.b_aux_density);
  EXPECT_EQ(x.witness_rows, y.witness_rows);
  EXPECT_EQ(x.compiled, y.compiled);
}

template <class T>
bool same_span(std::span<const T> x, std::span<const T> y) {
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
}

inline void expect_same_compiled(const CompiledCircuit& x, const CompiledCircuit& y) {
  EXPECT_EQ(x.num_inputs(), y.num_inputs());
  EXPECT_EQ(x.num_aux(), y.num_aux());
  EXPECT_EQ(x.num_constraints(), y.num_constraints());
  EXPECT_TRUE(same_span(x.coeffs(), y.coeffs()));
  for (Side s : {Side::a, Side::b, Side::c}) {
    SCOPED_TRACE("side " + std::to_string(unsigned(s)));
    EXPECT_TRUE(same_span(x.side(s).row_start, y.side(s).row_start));
    EXPECT_TRUE(same_span(x.side(s).wire, y.side(s).wire));
    EXPECT_TRUE(same_span(x.side(s).coeff, y.side(s).coeff));
  }
  EXPECT_EQ(x.a_aux_density(), y.a_aux_density());
  EXPECT_EQ(x.b_input_density(), y.b_input_density());
  EXPECT_EQ(x.b_aux_density(), y.b_aux_density());
}

// Witness-only `witness`, checked, attached to `compiled` and materialized on `threads` threads.
inline Assignment materialized(Assignment witness, std::shared_ptr<const CompiledCircuit> compiled,
                               unsigned threads) {
  EXPECT_TRUE(witness.witness_only());
  EXPECT_TRUE(witness.a.empty() && witness.b.empty() && witness.c.empty());
  EXPECT_EQ(witness.a_aux_density.bit_len + witness.b_input_density.bit_len + witness.b_aux_density.bit_len,
            0u);
  Status s = attach_compiled(witness, std::move(compiled));
  EXPECT_TRUE(s.ok()) << s.message();
  s = materialize(witness, threads);
  EXPECT_TRUE(s.ok()) << s.message();
  return witness;
}

// Full synthesis of `circuit` against witness-only synthesis + compile + attach + materialize.
inline void expect_compiled_path_equal(const Circuit& circuit, unsigned threads = 3) {
  ProvingAssignment full;
  ASSERT_TRUE(circuit.synthesize(full).ok());
  auto want = full.finish();
  ASSERT_TRUE(want.ok()) << want.message();
  ProvingAssignment wo = ProvingAssignment::witness_only();
  ASSERT_TRUE(circuit.synthesize(wo).ok());
  auto witness = wo.finish();
  ASSERT_TRUE(witness.ok()) << witness.message();
  EXPECT_EQ(witness->witness_rows, want->a.size());
  auto compiled = compile(circuit);
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  const auto shared = std::make_shared<const CompiledCircuit>(std::move(*compiled));
  expect_same_assignment(materialized(std::move(*witness), shared, threads), *want);
}

}  // namespace cuzk::r1cs::test
