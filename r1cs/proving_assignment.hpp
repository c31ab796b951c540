// The prover's constraint system, bellperson's ProvingAssignment (reference/formats.md §3.1).
//
// It evaluates every constraint as it is enforced and keeps only the evaluations, the assignment
// and the density bitmaps, never the constraints: a 130 M-constraint circuit then costs
// 3 × 32 B per constraint for a, b, c plus 32 B per variable, about 17 GB, which is what the
// prover needs anyway.
#pragma once

#include <string>

#include "common/result.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class ProvingAssignment final : public ConstraintSystem {
 public:
  // Allocates ONE (input 0 = 1) before anything else, as bellperson's prover does.
  ProvingAssignment();

  // Reserves room for a circuit of this shape (constraints without the input ones), so that
  // the large vectors are allocated once instead of grown by doubling.
  void reserve(size_t constraints, size_t aux, size_t inputs = 1);

  bool has_values() const override { return true; }
  Variable alloc(const Fr& value) override;
  Variable alloc_input(const Fr& value) override;
  void enforce(const LinearCombination& a, const LinearCombination& b, const LinearCombination& c) override;

  size_t num_inputs() const override { return out_.input_assignment.size(); }
  size_t num_aux() const override { return out_.aux_assignment.size(); }
  size_t num_constraints() const override { return out_.a.size(); }

  // Appends one constraint x_i · 0 = 0 per input (ONE included), which makes the A-query of every
  // input independent, and hands the result over. The system is spent afterwards; a second call,
  // or any use after the first, is an error.
  Result<Assignment> finish();

 private:
  Assignment out_;
  bool finished_ = false;
  std::string misuse_;  // first misuse, reported by finish()
};

}  // namespace cuzk::r1cs
