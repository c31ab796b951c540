// From a parsed snarkjs .r1cs to cuzk's constraint matrices (r1cs/matrices.hpp), which the setup and
// the prover take. The wire numbering is already the same: ONE, the public signals (outputs, then
// public inputs), then everything private -- so the public signals become bellman inputs 1..n and
// the rest auxiliaries, which is also how snarkjs's own setup splits them.
#pragma once

#include "io/snarkjs_r1cs.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk {

r1cs::ConstraintMatrices to_constraint_matrices(const SnarkjsR1cs& cs);

}  // namespace cuzk
