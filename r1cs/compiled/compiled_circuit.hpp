// A circuit's constraint matrices recorded once for a fixed shape, so that proving needs only the
// witness from synthesis: a = A·w, b = B·w (and c = C·w) are then a sparse matrix-vector product,
// on the CPU here (evaluate.hpp) or on a device (backend/cuda/spmv). The rows are exactly the rows
// ProvingAssignment evaluates, in its order, so both ways give the same a, b, c, bit for bit.
//
// Layout: each side (A, B, C) is in compressed sparse rows over the circuit's constraints (the
// num_inputs input constraints x_i · 0 = 0 that the prover appends are implied, not stored). A
// term is a wire and the index of its coefficient in one table of the circuit's distinct
// coefficients: real circuits use few distinct constants (1, −1, powers of two, Poseidon's round
// and matrix constants), so a term costs 8 bytes instead of 36. Terms whose merged coefficient is
// zero are dropped (they contribute nothing, and ProvingAssignment sets no density bit for them).
//
// Wires are numbered like a snarkjs witness (r1cs/matrices.hpp): 0 = ONE, 1 .. num_inputs − 1 the
// other inputs, num_inputs + j = aux j.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

// Indices every coefficient table starts with, so that an evaluator can skip the product for the
// two most common coefficients.
inline constexpr uint32_t kCoeffOne = 0;       // coeffs[0] = 1
inline constexpr uint32_t kCoeffMinusOne = 1;  // coeffs[1] = −1

enum class Side : unsigned { a = 0, b = 1, c = 2 };

// One side in compressed sparse rows: row r's terms are [row_start[r], row_start[r + 1]).
struct CompiledSide {
  std::span<const uint32_t> row_start;  // num_constraints + 1 offsets (empty when the side is absent)
  std::span<const uint32_t> wire;       // per term
  std::span<const uint32_t> coeff;      // per term, an index into CompiledCircuit::coeffs()
  size_t nnz() const { return wire.size(); }
  bool present() const { return !row_start.empty(); }
};

// What a compiled circuit is made of, in owned vectors (from the compiler) before it is checked.
struct CompiledParts {
  uint32_t num_inputs = 1;  // ONE included
  uint32_t num_aux = 0;
  uint64_t num_constraints = 0;
  std::vector<Fr> coeffs;  // Montgomery form; [0] = 1, [1] = −1, the rest distinct
  // Per side (Side::a, b, c). C may be left without rows (all three vectors empty): a satisfied
  // circuit's c is a∘b (Assignment::c_from_ab), and dropping C saves a third of the matrices.
  std::array<std::vector<uint32_t>, 3> row_start, wire, coeff;
  // The prover's densities (Assignment's), which depend on the shape alone.
  DensityBitmap a_aux_density, b_input_density, b_aux_density;
};

// A checked, immutable compiled circuit. Its arrays live in owned vectors or in memory that
// `keep_alive` holds (a mapped file, io/compiled_circuit_file.hpp); copies share the storage.
class CompiledCircuit {
 public:
  // Checks the parts: row offsets non-decreasing from 0 to the term count, every wire below
  // num_inputs + num_aux, every coefficient index within the table, coeffs[0] = 1 and coeffs[1] = −1,
  // A and B present, the densities as long as their variables. An error names the first violation.
  static Result<CompiledCircuit> from_parts(CompiledParts parts);

  // The same over arrays that live elsewhere (kept alive by `keep_alive`), e.g. a mapped file.
  struct Views {
    uint32_t num_inputs = 1, num_aux = 0;
    uint64_t num_constraints = 0;
    std::span<const Fr> coeffs;
    std::array<CompiledSide, 3> sides;
    DensityBitmap a_aux_density, b_input_density, b_aux_density;
  };
  static Result<CompiledCircuit> from_views(Views views, std::shared_ptr<const void> keep_alive);

  CompiledCircuit() = default;

  uint32_t num_inputs() const { return v_.num_inputs; }
  uint32_t num_aux() const { return v_.num_aux; }
  size_t num_wires() const { return size_t(v_.num_inputs) + v_.num_aux; }
  size_t num_constraints() const { return v_.num_constraints; }
  // The rows the prover evaluates: the constraints and one per input.
  size_t num_rows() const { return v_.num_constraints + v_.num_inputs; }
  std::span<const Fr> coeffs() const { return v_.coeffs; }
  const CompiledSide& side(Side s) const { return v_.sides[unsigned(s)]; }
  bool has_c() const { return side(Side::c).present(); }
  const DensityBitmap& a_aux_density() const { return v_.a_aux_density; }
  const DensityBitmap& b_input_density() const { return v_.b_input_density; }
  const DensityBitmap& b_aux_density() const { return v_.b_aux_density; }
  // Bytes of the arrays (terms, offsets, coefficients, densities): what it costs resident.
  size_t bytes() const;
  // Unique to these arrays in this process (copies share it): device copies are keyed on it, where
  // an address could be reused by another circuit.
  uint64_t id() const { return id_; }

 private:
  Views v_;
  uint64_t id_ = 0;
  std::shared_ptr<const void> storage_;  // the vectors of from_parts, or the caller's keep_alive
};

}  // namespace cuzk::r1cs
