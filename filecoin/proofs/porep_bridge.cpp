// The PoRep side of circuit_bridge.hpp.
#include "filecoin/proofs/circuit_bridge.hpp"

namespace cuzk::filecoin {

Result<std::unique_ptr<r1cs::Circuit>> porep_blank_circuit(uint64_t) {
  return make_error("the StackedDRG PoRep circuit is not part of this build");
}

Result<std::unique_ptr<r1cs::Circuit>> porep_partition_circuit(const SealCommitPhase1Output&, size_t,
                                                               std::vector<Fr>&) {
  return make_error("the StackedDRG PoRep circuit is not part of this build");
}

}  // namespace cuzk::filecoin
