// The prover's input for a snarkjs key: a and b evaluated from the key's own coefficient section,
// c left to the prover as a∘b (r1cs::Assignment::c_from_ab), as snarkjs computes it
// (groth16_prove.js), and the witness split into inputs and aux.
//
// Since c is derived, a witness that breaks a constraint still yields "valid-looking" vectors: pass
// the circuit's .r1cs to catch that before proving (r1cs_check), or verify the proof afterwards.
#pragma once

#include <span>

#include "common/result.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_zkey.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk {

Result<r1cs::Assignment> assignment_from_zkey(const SnarkjsZkey& zkey, std::span<const Fr> witness,
                                              const SnarkjsR1cs* r1cs_check = nullptr);

}  // namespace cuzk
