// The circuits of filecoin/circuits behind one interface, by kind: the blank circuit of a shape, and
// a partition's proving circuit from its checked vanilla proofs.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "common/result.hpp"
#include "filecoin/circuits/piece_synthesis.hpp"
#include "filecoin/types/parameter_files.hpp"
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

// A partition's circuit synthesized for the prover on `threads` threads: PoRep and SnapDeals
// partitions with their challenges apart, FallbackPoSt partitions with their sectors in chunks,
// joined in order (bit for bit what r1cs::synthesize_for_proving gives, which any other circuit
// gets).
Result<r1cs::Assignment> synthesize_partition(const r1cs::Circuit& circuit, unsigned threads);

// What synthesize_partition holds at its peak for a partition of this circuit on at most `threads`
// threads (piece_synthesis.hpp): rows, variables and host bytes, known before anything is
// allocated. The large counts (a PoRep or SnapDeals challenge) are made once per process and kept;
// the rest takes milliseconds.
Result<SynthesisFootprint> partition_synthesis_footprint(CircuitId id, unsigned threads);

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
