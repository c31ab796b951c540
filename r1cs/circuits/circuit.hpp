// A circuit: something that can lay out its constraints (and, when the system wants values, its
// witness) in any ConstraintSystem.
#pragma once

#include <cstddef>

#include "common/result.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class Circuit {
 public:
  virtual ~Circuit() = default;
  // Errors are for a circuit that cannot be laid out as configured (a path of the wrong length,
  // say), never for a witness that does not satisfy it: that is the constraint system's to find.
  virtual Status synthesize(ConstraintSystem& cs) const = 0;
  // Public inputs, not counting ONE: what a verifier is given.
  virtual size_t num_public_inputs() const = 0;
};

// Synthesizes the circuit for the prover: a ProvingAssignment, finished.
Result<Assignment> synthesize_for_proving(const Circuit& circuit);
// The witness alone: a witness-only ProvingAssignment, finished (r1cs/compiled/ gives the rest).
Result<Assignment> synthesize_witness(const Circuit& circuit);

}  // namespace cuzk::r1cs
