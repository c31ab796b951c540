// Constraint systems that keep their constraints: for the Groth16 setup (which evaluates the QAP
// at τ), for checking a witness, and for circuits that come from elsewhere (snarkjs .r1cs files,
// converted by io/).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

using SparseRow = std::vector<std::pair<uint32_t, Fr>>;  // (wire, coefficient)

// A circuit as three sparse matrices. Wires are numbered like a snarkjs witness: 0 = ONE,
// 1 .. num_inputs-1 the other public inputs, then the auxiliaries (wire num_inputs + j = aux j).
// The rows are the circuit's constraints only. The num_inputs constraints x_i · 0 = 0 that
// bellperson appends at synthesis (and snarkjs adds in its zkey) are implied after them:
// evaluate() appends them, and a setup must count them in the domain
// (num_constraints() + num_inputs ≤ domain size).
struct ConstraintMatrices {
  uint32_t num_inputs = 1;  // including ONE
  uint32_t num_aux = 0;
  std::vector<SparseRow> a, b, c;  // one row per constraint

  size_t num_constraints() const { return a.size(); }
  size_t num_wires() const { return size_t(num_inputs) + num_aux; }
  // Same number of rows in a, b, c, every wire < num_wires(), num_inputs ≥ 1.
  Status validate() const;
};

// The matrices with the implied input constraints written out as rows (A = x_i, B = C = empty), for a
// setup that walks rows to evaluate the QAP at τ. Not for evaluate(), which appends them itself.
ConstraintMatrices with_input_constraints(ConstraintMatrices m);

// Evaluates the matrices on a full witness (num_wires() values, ONE first) into what
// ProvingAssignment would have produced for the same circuit: a, b, c with the input
// constraints appended, the split assignment, and densities (A on aux, B on inputs and aux) set for
// every wire with a non-zero coefficient. Rows are split across `threads` threads; the result does
// not depend on the thread count.
Result<Assignment> evaluate(const ConstraintMatrices& m, std::span<const Fr> witness, unsigned threads = 1);

// Index of the first constraint that the witness does not satisfy, or nullopt when all hold.
// Errors on a malformed system or a witness of the wrong length.
Result<std::optional<size_t>> first_unsatisfied(const ConstraintMatrices& m, std::span<const Fr> witness);

// A constraint system that records every constraint (and, with values, the witness).
class RecordingSystem final : public ConstraintSystem {
 public:
  // with_values = false records only the shape: the setup path, where no witness exists.
  explicit RecordingSystem(bool with_values = true);

  bool has_values() const override { return with_values_; }
  Variable alloc(const Fr& value) override;
  Variable alloc_input(const Fr& value) override;
  void enforce(const LinearCombination& a, const LinearCombination& b, const LinearCombination& c) override;

  size_t num_inputs() const override { return inputs_.size(); }
  size_t num_aux() const override { return aux_.size(); }
  size_t num_constraints() const override { return (starts_.size() - 1) / 3; }

  // The recorded circuit in wire numbering (see ConstraintMatrices).
  ConstraintMatrices matrices() const;
  // ONE and the inputs, then the auxiliaries (zeros when recorded without values).
  std::vector<Fr> witness() const;
  std::span<const Fr> input_assignment() const { return inputs_; }
  std::span<const Fr> aux_assignment() const { return aux_; }

  // The first constraint the recorded witness violates, or nullopt.
  std::optional<size_t> first_unsatisfied() const;
  bool is_satisfied() const { return !first_unsatisfied().has_value(); }

 private:
  // Side s (0 = a, 1 = b, 2 = c) of constraint k is terms_[starts_[3k+s] .. starts_[3k+s+1]):
  // flat, because a LinearCombination object per side would triple the memory.
  std::span<const Term> side(size_t k, size_t s) const {
    return {terms_.data() + starts_[3 * k + s], size_t(starts_[3 * k + s + 1] - starts_[3 * k + s])};
  }
  bool with_values_;
  std::vector<Fr> inputs_, aux_;
  std::vector<Term> terms_;
  std::vector<uint64_t> starts_{0};
};

}  // namespace cuzk::r1cs
