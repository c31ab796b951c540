// A PoRep partition circuit from what a storage provider hands over: the commit-phase-1 output
// (filecoin-proofs-api `SealCommitPhase1Output`, reference/filecoin-circuits.md §4.2) and the
// partition to prove (rust-fil-proofs: storage-proofs-porep/src/stacked/circuit/proof.rs
// `StackedCompound::circuit`, `generate_public_inputs`; params.rs `From<VanillaProof>`).
//
// Everything the circuit would reject is checked first (filecoin/vanilla's check_porep_vanilla:
// the registered proof and its shape key, partition and challenge counts, comm_r =
// Poseidon2(comm_c, comm_r_last), the challenges derived for the proof type, every path's shape,
// leaf index and root, the parent columns and the labels recomputed from them, the replica leaf),
// so a bad output is refused with a message naming what is wrong instead of costing a proof that
// fails verification.
#pragma once

#include <cstddef>
#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/porep_circuit.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/check.hpp"

namespace cuzk::filecoin {

// A partition ready to prove: its circuit and the public inputs a verifier computes for it
// (without ONE), which the circuit's input variables equal when the checks passed.
struct PorepPartition {
  PorepCircuit circuit;
  std::vector<Fr> public_inputs;
};

// The circuit parameters of the output's registered proof: its sector size's shape, after
// checking that the output's shape key, partition count and per-partition challenge counts
// belong to that proof type.
Result<PorepParams> porep_params_of(const SealCommitPhase1Output& c1);

// generate_public_inputs for partition `partition_index`, from what a verifier knows (the
// registered proof, replica_id, comm_d, comm_r, seed): [replica_id, comm_d, comm_r], then per
// challenge c of the partition [c, its 6 DRG parents, its 8 expander parents, c, c, c]. Errors:
// an unknown proof type, a partition out of range, a commitment that is not a field element.
Result<std::vector<Fr>> porep_public_inputs(const SealCommitPhase1Output& c1, size_t partition_index);

// check_porep_vanilla for the partition (with `options`' prover and sector ids when given), then
// the circuit and its public inputs. Errors name the partition, the challenge and what is wrong,
// e.g. "partition 0 challenge 1: comm_d proof does not reach comm_d".
Result<PorepPartition> porep_partition_from_c1(const SealCommitPhase1Output& c1, size_t partition_index,
                                               const vanilla::PorepCheckOptions& options = {});

}  // namespace cuzk::filecoin
