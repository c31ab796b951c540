// A SnapDeals partition circuit from what a storage provider hands over: the partition's vanilla
// proof (storage-proofs-update `PartitionProof`, reference/filecoin-circuits.md §4.5), the
// registered update type (or sector size), partition k, h and the three commitments
// (rust-fil-proofs: storage-proofs-update/src/compound.rs `circuit`, `generate_public_inputs`;
// filecoin-proofs: api/update.rs).
//
// Everything the circuit would reject is checked first (vanilla/update_check.hpp), so an
// inconsistent proof is named ("partition 0 challenge 4: proof_d_new does not reach the apex
// leaf") instead of costing a proof that fails verification.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/update_circuit.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/update_shape.hpp"

namespace cuzk::filecoin {

// A partition ready to prove: its circuit and the public inputs a verifier computes for it (without
// ONE), which the circuit's input variables equal when every check passed.
struct UpdatePartition {
  UpdateCircuit circuit;
  std::vector<Fr> public_inputs;
};

// generate_public_inputs: [k | h_select << partition_bits, comm_r_old, comm_d_new, comm_r_new].
// Errors: k not a partition, h not allowed, a commitment that is not a field element.
Result<std::vector<Fr>> update_public_inputs(const vanilla::UpdateShape& shape,
                                             const vanilla::UpdatePublicInputs& inputs);

// The circuit's witness read off the proof (PrivateInputs::new): root_r_old and root_r_new are
// challenge 0's proof_r_old and proof_r_new roots. Errors only for values that are not field
// elements or a proof with no challenges; consistency is check_update_partition's business.
Result<UpdateWitness> update_witness(const vanilla::UpdateShape& shape, const UpdatePartitionProof& proof,
                                     const vanilla::UpdatePublicInputs& inputs);

// check_update_partition, then the circuit and its public inputs.
Result<UpdatePartition> update_partition_from_vanilla(const vanilla::UpdateShape& shape,
                                                      const UpdatePartitionProof& proof,
                                                      const vanilla::UpdatePublicInputs& inputs);
// The same for a registered update proof type (0–4: StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1).
Result<UpdatePartition> update_partition_from_vanilla(uint64_t registered_update_proof,
                                                      const UpdatePartitionProof& proof,
                                                      const vanilla::UpdatePublicInputs& inputs);

}  // namespace cuzk::filecoin
