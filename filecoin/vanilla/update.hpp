// SnapDeals: new data encoded into a sealed sector, and the vanilla proof of each partition
// (reference/filecoin-circuits.md §3.3, §4.5, §6.8; rust-fil-proofs: storage-proofs-update/src/
// vanilla.rs `encode_into`, `prove_inner`).
//
// Encoding: tree_d_new is the binary SHA-254 tree over the new data's padded nodes and comm_d_new
// its root; φ = H(comm_d_new, comm_r_old) with comm_r_old = Poseidon2(comm_c, comm_r_last_old);
// node v of the new replica is old_replica(v) + data_new(v)·ρ(v >> (log2(nodes) − h)), in Fr;
// tree_r_new has TreeR's shape over it, and comm_r_new = Poseidon2(comm_c, root of tree_r_new).
// comm_c stays the sealed sector's.
//
// A partition proof: comm_c, the partition's apex leaves (tree_d_new's row at height apex_height,
// the slice [k·apex_leaves, (k+1)·apex_leaves)), and per challenge the proofs of the challenged
// node in tree_r_old, tree_d_new and tree_r_new.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "filecoin/vanilla/update_shape.hpp"

namespace cuzk::filecoin::vanilla {

struct UpdatedSector {
  UpdateShape shape;
  unsigned h = 0;
  Domain comm_c{};
  Domain comm_r_last_old{};
  Domain comm_r_old{};

  MerkleTree tree_d_new;  // leaves: the new data's padded nodes
  Domain comm_d_new{};
  Fr phi = Fr::zero();
  MerkleTree tree_r_new;  // leaves: the new replica
  Domain comm_r_last_new{};
  Domain comm_r_new{};

  const Domain& data(uint64_t node) const { return tree_d_new.leaf(node); }
  const Domain& replica(uint64_t node) const { return tree_r_new.leaf(node); }
  // The verifier's inputs of partition k.
  UpdatePublicInputs public_inputs(uint64_t k) const { return {k, h, comm_r_old, comm_d_new, comm_r_new}; }
};

// Encodes `data_new` (shape.nodes padded nodes, each a field element) into the replica whose tree
// is `tree_r_old`. Errors: an h the shape does not allow, a data or replica node that is not a
// field element, a count or tree that does not fit the shape.
Result<UpdatedSector> encode_update(const UpdateShape& shape, const MerkleTree& tree_r_old,
                                    const Domain& comm_c, std::vector<Domain> data_new, unsigned h);

// encode_update of a sealed test sector, with `raw` new data fr32-padded (at most
// fr32_unpadded_size(sector size) bytes, zero-extended).
Result<UpdatedSector> update_test_sector(const TestSector& sealed, std::span<const uint8_t> raw, unsigned h);

// What proving reads: the three trees (sparse or dense), comm_c and comm_r_new.
struct UpdateView {
  const UpdateShape* shape = nullptr;
  const MerkleTree* tree_r_old = nullptr;
  const MerkleTree* tree_d_new = nullptr;
  const MerkleTree* tree_r_new = nullptr;
  Domain comm_c{};
  Domain comm_r_new{};
};

UpdateView update_view(const TestSector& sealed, const UpdatedSector& updated);

// Partition k's apex leaves, read off tree_d_new.
Result<std::vector<Domain>> update_apex_leaves(const UpdateShape& shape, const MerkleTree& tree_d_new,
                                               uint64_t k);

// prove_inner: partition k's proof (k < partitions).
Result<UpdatePartitionProof> update_partition_proof(const UpdateView& view, uint64_t k);
// Every partition's proof, in order.
Result<std::vector<UpdatePartitionProof>> update_vanilla_proofs(const UpdateView& view);

}  // namespace cuzk::filecoin::vanilla
