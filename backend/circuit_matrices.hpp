// The arrays of a compiled circuit (r1cs/compiled/compiled_circuit.hpp) as the backends take them
// for their sparse products (backend/cpu/sparse_rows.hpp, backend/cuda/spmv/).
//
// The backend sits below r1cs/, so it names the arrays, not the type: the caller (groth16/) fills
// this from a checked r1cs::CompiledCircuit, field by field. The layout is the same:
// per side (A, B, C) compressed sparse rows over the circuit's constraints, a term being a wire and
// the index of its coefficient in one table that starts with 1 and −1. Wires are numbered like a
// snarkjs witness: 0 = ONE, 1 .. num_inputs − 1 the other inputs, num_inputs + j = aux j. The rows
// the prover evaluates are the constraints, then one per input (a = x_i, b = c = 0), then zeros up
// to the domain's size.
//
// Nothing here checks the terms (a pass over every term): the arrays must be those of a checked
// CompiledCircuit, whose wires and coefficient indices are all in range. circuit_shape_error checks
// what is cheap (counts and the ends of the offsets).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk {

// Indices of the two coefficients every table starts with (r1cs::kCoeffOne, r1cs::kCoeffMinusOne).
inline constexpr uint32_t kSpmvCoeffOne = 0;
inline constexpr uint32_t kSpmvCoeffMinusOne = 1;

// One side in compressed sparse rows: row r's terms are [row_start[r], row_start[r + 1]).
struct SparseSide {
  std::span<const uint32_t> row_start;  // num_constraints + 1 offsets; empty when the side is absent
  std::span<const uint32_t> wire;       // per term
  std::span<const uint32_t> coeff;      // per term, an index into CircuitMatrices::coeffs
  bool present() const { return !row_start.empty(); }
  size_t nnz() const { return wire.size(); }
};

struct CircuitMatrices {
  uint32_t num_inputs = 1;  // ONE included
  uint32_t num_aux = 0;
  uint64_t num_constraints = 0;
  std::span<const Fr> coeffs;       // Montgomery form; [0] = 1, [1] = −1
  std::array<SparseSide, 3> sides;  // A, B, C (C may be absent: c then stands for a∘b)

  size_t num_wires() const { return size_t(num_inputs) + num_aux; }
  // The rows the prover evaluates: the constraints and one per input.
  size_t num_rows() const { return size_t(num_constraints) + num_inputs; }
  bool has_c() const { return sides[2].present(); }
};

// Empty when the counts agree (every present side has num_constraints + 1 offsets running from 0 to
// its term count, as many coefficient indices as wires; A and B present; a table of at least two
// coefficients; fewer than 2^32 rows), else what is wrong.
inline std::string circuit_shape_error(const CircuitMatrices& m) {
  if (m.num_inputs == 0) return "no inputs (ONE is input 0)";
  if (m.coeffs.size() < 2) return "the coefficient table must start with 1 and -1";
  if (m.num_rows() > UINT32_MAX) return "more than 2^32 - 1 rows";
  if (!m.sides[0].present() || !m.sides[1].present()) return "sides A and B must be present";
  for (size_t s = 0; s < 3; ++s) {
    const SparseSide& side = m.sides[s];
    const std::string name(1, "ABC"[s]);
    if (!side.present()) {
      if (side.nnz() || !side.coeff.empty()) return "side " + name + " has terms but no row offsets";
      continue;
    }
    if (side.row_start.size() != m.num_constraints + 1)
      return "side " + name + " has " + std::to_string(side.row_start.size()) + " row offsets for " +
             std::to_string(m.num_constraints) + " constraints (want one more)";
    if (side.coeff.size() != side.wire.size())
      return "side " + name + " has " + std::to_string(side.wire.size()) + " wires but " +
             std::to_string(side.coeff.size()) + " coefficient indices";
    if (side.row_start.front() != 0 || side.row_start.back() != side.nnz())
      return "side " + name + "'s row offsets do not run from 0 to its " + std::to_string(side.nnz()) +
             " terms";
  }
  return {};
}

}  // namespace cuzk
