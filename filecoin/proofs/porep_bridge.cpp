// The PoRep side of circuit_bridge.hpp: filecoin/circuits/porep_*.
#include "filecoin/circuits/porep_vanilla.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"

namespace cuzk::filecoin {

Result<std::unique_ptr<r1cs::Circuit>> porep_blank_circuit(uint64_t sector_size) {
  auto params = porep_params(sector_size);
  if (!params) return params.error();
  auto circuit = PorepCircuit::blank(*params);
  if (!circuit) return circuit.error();
  return std::unique_ptr<r1cs::Circuit>(std::make_unique<PorepCircuit>(std::move(*circuit)));
}

Result<std::unique_ptr<r1cs::Circuit>> porep_partition_circuit(const SealCommitPhase1Output& c1, size_t k,
                                                               std::vector<Fr>& public_inputs) {
  auto part = porep_partition_from_c1(c1, k);
  if (!part) return part.error();
  public_inputs = std::move(part->public_inputs);
  return std::unique_ptr<r1cs::Circuit>(std::make_unique<PorepCircuit>(std::move(part->circuit)));
}

Result<std::vector<Fr>> porep_public_inputs(const SealCommitPhase1Output& c1, const Domain& replica_id,
                                            size_t partition) {
  // The verifier's inputs read only the envelope: a copy without the vanilla proofs suffices.
  SealCommitPhase1Output envelope;
  envelope.registered_proof = c1.registered_proof;
  envelope.shape_key = c1.shape_key;
  envelope.comm_r = c1.comm_r;
  envelope.comm_d = c1.comm_d;
  envelope.replica_id = replica_id;
  envelope.seed = c1.seed;
  envelope.ticket = c1.ticket;
  return porep_public_inputs(envelope, partition);
}

}  // namespace cuzk::filecoin
