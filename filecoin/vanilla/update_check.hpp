// The native check of one SnapDeals partition proof: everything the EmptySectorUpdate circuit
// depends on, recomputed (reference/filecoin-circuits.md §3.3; rust-fil-proofs:
// storage-proofs-update/src/vanilla.rs `verify`, circuit.rs), so that an inconsistent proof is
// refused with a message naming the first thing wrong, e.g.
//   "partition 0 challenge 4: proof_d_new does not reach the apex leaf".
// In the circuit's order:
//   * k < partitions and h allowed; the commitments, comm_c, the apex leaves and every node of
//     every proof are canonical field elements; the apex-leaf and challenge counts; each proof's
//     shape (TreeR's kind and levels, a binary tree_d path of log2(nodes) levels);
//   * comm_r_old = Poseidon2(comm_c, root_r_old) and comm_r_new = Poseidon2(comm_c, root_r_new),
//     the roots being challenge 0's proof_r_old and proof_r_new roots (the circuit's witnesses);
//   * the apex leaves' binary tree, then challenge 0's top partition_bits tree_d siblings at k's
//     bits, reach comm_d_new;
//   * per challenge c (derived from comm_r_new and k): the same partition path as challenge 0;
//     each proof opens leaf c; proof_r_old reaches root_r_old; leaf_r_new = leaf_r_old +
//     leaf_d_new·ρ(c's top h bits); proof_r_new reaches root_r_new; proof_d_new's lower
//     apex_height levels reach the apex leaf c selects, and its whole path reaches comm_d_new.
#pragma once

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/update_shape.hpp"

namespace cuzk::filecoin::vanilla {

Status check_update_partition(const UpdateShape& shape, const UpdatePartitionProof& proof,
                              const UpdatePublicInputs& inputs);

}  // namespace cuzk::filecoin::vanilla
