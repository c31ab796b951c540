// Compiling a circuit: a constraint system that records every constraint into a CompiledCircuit's
// parts (compiled_circuit.hpp) instead of evaluating it, and the same for circuits that come as
// matrices (circom .r1cs through io/r1cs_convert).
//
// A compiled circuit's rows are exactly the rows ProvingAssignment evaluates, and its densities are
// the ones ProvingAssignment sets (A on aux, B on inputs and aux, for every term whose merged
// coefficient is non-zero): they depend on the shape alone, so the compiler records them without
// values. Terms with a zero merged coefficient are dropped. The coefficient table holds 1 and −1
// first, then every other coefficient in the order it first appears.
//
// Like ProvingAssignment, pieces of a circuit compile on several threads and join in order: each
// piece compiles in a fork of the prefix it reads (fork()), and extend() appends it, renumbering
// the variables the piece allocated after the prefix and mapping its coefficient table into the
// joined one. Joining the forks of one prefix in order gives exactly what compiling the pieces in
// order after the prefix gives, array for array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "r1cs/circuits/circuit.hpp"
#include "r1cs/compiled/compiled_circuit.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

// The compiler's output format and row order: part of every key a compiled circuit is kept under
// (engine/compiled_cache.hpp), so that a file written by a compiler that orders rows differently is
// never mapped. Bump it with any change to what the compiler emits.
inline constexpr unsigned kCompilerVersion = 1;

struct CompileOptions {
  // Record C. Without it the circuit has no C rows and its c is a∘b (Assignment::c_from_ab).
  bool keep_c = true;
  // The most terms one side may have: its row offsets are 32-bit. Lower only to test the refusal.
  uint64_t max_side_terms = UINT32_MAX;

  friend bool operator==(const CompileOptions&, const CompileOptions&) = default;
};

// The circuit's distinct coefficients and their indices: 1 and −1 first, then in order of first
// appearance. An open-addressing hash map from the value to its index.
class CoefficientTable {
 public:
  CoefficientTable();
  // The index of c, appending it when it is new.
  uint32_t intern(const Fr& c) {
    if (c == one_) return kCoeffOne;
    if (c == minus_one_) return kCoeffMinusOne;
    return intern_other(c);
  }
  const std::vector<Fr>& values() const { return values_; }
  size_t size() const { return values_.size(); }

 private:
  uint32_t intern_other(const Fr& c);
  void grow();
  static uint64_t hash(const Fr& c);

  Fr one_, minus_one_;
  std::vector<Fr> values_;
  std::vector<uint32_t> slots_;  // index + 1, 0 when empty; a power of two long
};

class CompilingSystem final : public ConstraintSystem {
 public:
  // Allocates ONE (input 0) before anything else, as the prover's system does.
  explicit CompilingSystem(CompileOptions options = {});

  bool has_values() const override { return false; }
  Variable alloc(const Fr& value) override;
  Variable alloc_input(const Fr& value) override;
  void enforce(const LinearCombination& a, const LinearCombination& b, const LinearCombination& c) override;
  void count_constraints(size_t n) override {
    constraints_ += n;
    misuse("count_constraints on the compiler, which keeps every row");
  }

  size_t num_inputs() const override { return inputs_; }
  size_t num_aux() const override { return aux_; }
  size_t num_constraints() const override { return constraints_; }
  // Terms recorded so far on a side, and distinct coefficients so far.
  size_t nnz(Side s) const { return sides_[unsigned(s)].wire.size(); }
  size_t num_coeffs() const { return coeffs_.size(); }

  // Reserves room for this many constraints and variables (the rows and densities; the terms
  // grow as they come).
  void reserve(size_t constraints, size_t aux, size_t inputs = 1);
  // Reserves room for the terms of `copies` pieces like `piece` (pieces of one shape, such as
  // PoRep's challenges), so that joining them does not regrow the sides.
  void reserve_terms(const CompilingSystem& piece, size_t copies);

  // A system for a piece of the circuit after the present state: it may read every variable
  // allocated so far (the prefix) and its own, and starts with no constraints and a fresh
  // coefficient table.
  CompilingSystem fork() const;
  // Appends `piece`, a fork of a system whose variables were this system's first ones: its
  // constraints, with the variables it allocated after its prefix renumbered to follow this
  // system's and its coefficients mapped into this system's table; density bits it set on prefix
  // variables are OR-ed in. An error, and nothing changed, when the piece does not fit (prefix
  // larger than this system, options differ, either system finished or misused, a side over
  // max_side_terms).
  Status extend(CompilingSystem&& piece);

  // The recorded circuit, as parts (unchecked) or checked. The system is spent afterwards.
  Result<CompiledParts> finish_parts();
  Result<CompiledCircuit> finish();

 private:
  struct SideTerms {
    std::vector<uint32_t> row_start{0};
    std::vector<uint32_t> wire;  // aux j as j, input i as kInputWire | i, until finish_parts()
    std::vector<uint32_t> coeff;
  };
  static constexpr uint32_t kInputWire = uint32_t(1) << 31;

  void record(SideTerms& side, const LinearCombination& lc, DensityBitmap* input_density,
              DensityBitmap* aux_density);
  void misuse(std::string what) {
    if (error_.empty()) error_ = std::move(what);
  }

  CompileOptions options_;
  size_t inputs_ = 0, aux_ = 0, constraints_ = 0;
  size_t prefix_inputs_ = 1, prefix_aux_ = 0;  // the variables the system was forked with
  SideTerms sides_[3];
  CoefficientTable coeffs_;
  DensityBitmap a_aux_density_, b_input_density_, b_aux_density_;
  bool finished_ = false;
  std::string error_;  // the first misuse or overflow, reported by finish() and extend()
};

// The circuit compiled on the calling thread.
Result<CompiledCircuit> compile(const Circuit& circuit, CompileOptions options = {});

// A circuit given as matrices (wires already numbered as a compiled circuit numbers them), with
// the densities evaluate(m, witness) sets: every term with a non-zero coefficient counts, and
// terms are kept as the rows list them (zero coefficients dropped).
Result<CompiledCircuit> compile(const ConstraintMatrices& m, CompileOptions options = {});

}  // namespace cuzk::r1cs
