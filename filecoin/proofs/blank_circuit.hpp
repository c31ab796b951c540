// The blank circuit of each Filecoin circuit id: its shape with no witness, what parameter setup
// records (every instance of one circuit has the same rows and columns, so parameters made from
// the blank circuit prove every instance).
#pragma once

#include <memory>

#include "common/result.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "r1cs/circuits/circuit.hpp"

namespace cuzk::filecoin {

// An error for a circuit kind whose circuit cuzk does not build (the Poseidon SnapDeals variant).
Result<std::unique_ptr<r1cs::Circuit>> blank_circuit(CircuitId id);

}  // namespace cuzk::filecoin
