// Compiled circuits for the tests of their file and cache: random constraint matrices, compiled by a
// plain reference here (one coefficient table, terms of a row merged by wire, zero terms dropped,
// densities as evaluate() sets them), and an independent evaluation to check a compiled circuit
// against r1cs::evaluate.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <map>
#include <vector>

#include "r1cs/compiled/compiled_circuit.hpp"
#include "r1cs/matrices.hpp"
#include "tests/io/io_test_util.hpp"

namespace cuzk::test {

// Random matrices whose coefficients come from a small pool (as in real circuits). A row names each
// wire once, as a recorded circuit's merged linear combinations do.
inline r1cs::ConstraintMatrices random_matrices(Rng& rng, uint32_t inputs, uint32_t aux, size_t constraints) {
  r1cs::ConstraintMatrices m;
  m.num_inputs = inputs;
  m.num_aux = aux;
  std::vector<Fr> pool = {Fr::one(), -Fr::one(), Fr::one() + Fr::one()};
  for (int i = 0; i < 5; ++i) pool.push_back(random_fr(rng));
  const size_t wires = m.num_wires();
  for (auto* side : {&m.a, &m.b, &m.c}) {
    side->resize(constraints);
    for (auto& row : *side) {
      std::map<uint32_t, Fr> terms;
      for (size_t t = rng.below(5); t-- > 0;)
        terms[uint32_t(rng.below(wires))] = pool[rng.below(pool.size())];
      row.assign(terms.begin(), terms.end());
    }
  }
  return m;
}

// The reference compilation of `m` (C dropped when keep_c is false).
inline r1cs::CompiledParts compile_reference(const r1cs::ConstraintMatrices& m, bool keep_c = true) {
  r1cs::CompiledParts p;
  p.num_inputs = m.num_inputs;
  p.num_aux = m.num_aux;
  p.num_constraints = m.num_constraints();
  p.coeffs = {Fr::one(), -Fr::one()};
  std::map<std::array<uint8_t, 32>, uint32_t> index;
  auto coeff_index = [&](const Fr& c) {
    std::array<uint8_t, 32> k;
    std::memcpy(k.data(), &c, 32);
    if (c == Fr::one()) return r1cs::kCoeffOne;
    if (c == -Fr::one()) return r1cs::kCoeffMinusOne;
    auto [it, fresh] = index.emplace(k, uint32_t(p.coeffs.size()));
    if (fresh) p.coeffs.push_back(c);
    return it->second;
  };
  p.a_aux_density.resize(m.num_aux);
  p.b_input_density.resize(m.num_inputs);
  p.b_aux_density.resize(m.num_aux);
  const std::vector<r1cs::SparseRow>* sides[3] = {&m.a, &m.b, &m.c};
  for (size_t s = 0; s < (keep_c ? 3u : 2u); ++s) {
    p.row_start[s].push_back(0);
    for (const auto& row : *sides[s]) {
      std::map<uint32_t, Fr> merged;
      for (const auto& [w, c] : row) {
        auto [it, fresh] = merged.emplace(w, c);
        if (!fresh) it->second = it->second + c;
      }
      for (const auto& [w, c] : merged) {
        if (c == Fr::zero()) continue;
        p.wire[s].push_back(w);
        p.coeff[s].push_back(coeff_index(c));
        if (s == 0 && w >= m.num_inputs) p.a_aux_density.set(w - m.num_inputs);
        if (s == 1 && w < m.num_inputs) p.b_input_density.set(w);
        if (s == 1 && w >= m.num_inputs) p.b_aux_density.set(w - m.num_inputs);
      }
      p.row_start[s].push_back(uint32_t(p.wire[s].size()));
    }
  }
  return p;
}

// side · witness over the circuit's constraints, read straight from the compiled arrays.
inline std::vector<Fr> evaluate_side(const r1cs::CompiledCircuit& c, r1cs::Side s,
                                     std::span<const Fr> witness) {
  const r1cs::CompiledSide& side = c.side(s);
  std::vector<Fr> out(c.num_constraints(), Fr::zero());
  for (size_t r = 0; r < c.num_constraints(); ++r)
    for (uint32_t k = side.row_start[r]; k < side.row_start[r + 1]; ++k)
      out[r] = out[r] + c.coeffs()[side.coeff[k]] * witness[side.wire[k]];
  return out;
}

// Checks `c` against evaluate(m, witness) on a random witness: a, b (and c where kept) on every
// constraint row, and the three densities.
inline void expect_same_circuit(const r1cs::CompiledCircuit& c, const r1cs::ConstraintMatrices& m, Rng& rng) {
  ASSERT_EQ(c.num_inputs(), m.num_inputs);
  ASSERT_EQ(c.num_aux(), m.num_aux);
  ASSERT_EQ(c.num_constraints(), m.num_constraints());
  std::vector<Fr> w(m.num_wires());
  for (auto& x : w) x = random_fr(rng);
  w[0] = Fr::one();
  auto ref = r1cs::evaluate(m, w);
  ASSERT_TRUE(ref.ok()) << ref.message();
  const size_t n = m.num_constraints();
  auto first = [n](const std::vector<Fr>& v) { return std::vector<Fr>(v.begin(), v.begin() + n); };
  EXPECT_TRUE(evaluate_side(c, r1cs::Side::a, w) == first(ref->a));
  EXPECT_TRUE(evaluate_side(c, r1cs::Side::b, w) == first(ref->b));
  if (c.has_c()) {
    EXPECT_TRUE(evaluate_side(c, r1cs::Side::c, w) == first(ref->c));
  }
  EXPECT_TRUE(c.a_aux_density() == ref->a_aux_density);
  EXPECT_TRUE(c.b_input_density() == ref->b_input_density);
  EXPECT_TRUE(c.b_aux_density() == ref->b_aux_density);
}

}  // namespace cuzk::test
