// The SnapDeals side of circuit_bridge.hpp.
#include "filecoin/proofs/circuit_bridge.hpp"

namespace cuzk::filecoin {

namespace {
Error missing() { return make_error("the EmptySectorUpdate (SnapDeals) circuit is not part of this build"); }
}  // namespace

Result<std::unique_ptr<r1cs::Circuit>> update_blank_circuit(uint64_t) { return missing(); }

Result<std::unique_ptr<r1cs::Circuit>> update_partition_circuit(uint64_t, const UpdatePartitionProof&, size_t,
                                                                const Domain&, const Domain&, const Domain&,
                                                                std::vector<Fr>&) {
  return missing();
}

Result<std::vector<Fr>> update_public_inputs(uint64_t, size_t, const Domain&, const Domain&, const Domain&) {
  return missing();
}

}  // namespace cuzk::filecoin
