// The circuits of filecoin/circuits behind one interface, by kind: the blank circuit of a shape, and
// a partition's proving circuit from its checked vanilla proofs.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "r1cs/circuits/circuit.hpp"

namespace cuzk::filecoin {

// StackedDRG PoRep of a sector size.
Result<std::unique_ptr<r1cs::Circuit>> porep_blank_circuit(uint64_t sector_size);
// Partition k of a C1 that check_porep_vanilla accepted; `public_inputs` receives the circuit's.
Result<std::unique_ptr<r1cs::Circuit>> porep_partition_circuit(const SealCommitPhase1Output& c1, size_t k,
                                                               std::vector<Fr>& public_inputs);

// The verifier's inputs of PoRep partition k (only the C1's envelope is read), with `replica_id`
// in place of the C1's: the one a verifier derives from the prover id and sector id.
Result<std::vector<Fr>> porep_public_inputs(const SealCommitPhase1Output& c1, const Domain& replica_id,
                                            size_t partition);

// A partition's circuit synthesized for the prover: a PoRep partition on `threads` threads (its
// challenges apart, joined in order), the others as r1cs::synthesize_for_proving does.
Result<r1cs::Assignment> synthesize_partition(const r1cs::Circuit& circuit, unsigned threads);

// EmptySectorUpdate (SnapDeals) of a sector size.
Result<std::unique_ptr<r1cs::Circuit>> update_blank_circuit(uint64_t sector_size);
// Partition k of a SnapDeals proof; `public_inputs` receives the circuit's.
Result<std::unique_ptr<r1cs::Circuit>> update_partition_circuit(
    uint64_t update_proof_id, const UpdatePartitionProof& proof, size_t k, const Domain& comm_r_old,
    const Domain& comm_d_new, const Domain& comm_r_new, std::vector<Fr>& public_inputs);
// Partition k's public inputs as the SnapDeals verifier computes them.
Result<std::vector<Fr>> update_public_inputs(uint64_t update_proof_id, size_t k, const Domain& comm_r_old,
                                             const Domain& comm_d_new, const Domain& comm_r_new);

}  // namespace cuzk::filecoin
