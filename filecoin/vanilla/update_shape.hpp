// The shape of an EmptySectorUpdate (SnapDeals) proof for one sector size: storage-proofs-update's
// PublicParams with the h values and TreeR's shape (reference/filecoin-circuits.md §3.3;
// rust-fil-proofs: storage-proofs-update/src/constants.rs, vanilla.rs `PublicParams`).
//
// By sector nodes n (32-byte nodes, a power of two):
//   * partitions: 1 up to 2^8 nodes, 2 up to 2^10, 4 up to 2^19, else 16;
//   * challenges per partition: 10 up to 2^19 nodes, else 86;
//   * apex leaves per partition: 8 up to 2^8 nodes, else 128;
//   * hs: [1; 6] up to 2^10 nodes, else [7, 8, 9, 10, 11, 12]; the default h is hs[3].
// A challenge is log2(n) bits: log2(n) − partition_bits random bits, then k's bits on top. Apex
// leaves sit in tree_d at height log2(n) − partition_bits − apex_bits (leaves are height 0): the
// partition's slice of that row, whose binary tree gives the node at height log2(n) −
// partition_bits, which the top partition_bits levels of tree_d lead to comm_d.
#pragma once

#include <array>
#include <cstdint>

#include "common/result.hpp"
#include "filecoin/types/domain.hpp"
#include "filecoin/types/sector_shape.hpp"

namespace cuzk::filecoin::vanilla {

struct UpdateShape {
  uint64_t nodes = 0;
  unsigned challenge_bits = 0;  // log2(nodes)
  unsigned challenges = 0;      // per partition
  unsigned partitions = 0;
  unsigned partition_bits = 0;
  unsigned apex_leaves = 0;  // per partition
  unsigned apex_bits = 0;
  std::array<unsigned, 6> hs{};
  TreeShape tree;  // TreeR (old and new)

  uint64_t sector_size() const { return nodes * 32; }
  unsigned h_default() const { return hs[3]; }
  // Random bits per challenge: challenge_bits − partition_bits.
  unsigned random_bits() const { return challenge_bits - partition_bits; }
  // tree_d levels from a leaf to its apex leaf.
  unsigned apex_height() const { return challenge_bits - partition_bits - apex_bits; }
  // Fr::CAPACITY div random_bits challenges come from one digest; digests() of them per partition.
  unsigned challenges_per_digest() const { return 254 / random_bits(); }
  unsigned digests() const { return (challenges + challenges_per_digest() - 1) / challenges_per_digest(); }
  // 1 << (first position of h in hs); an error for an h this size does not allow.
  Result<uint64_t> h_select(unsigned h) const;
  // The circuit's first public input, k | h_select << partition_bits.
  Result<uint64_t> k_and_h_select(uint64_t k, unsigned h) const;
};

// What a verifier knows of one partition (vanilla.rs `PublicInputs`).
struct UpdatePublicInputs {
  uint64_t k = 0;  // the partition
  unsigned h = 0;  // one of the shape's hs
  Domain comm_r_old{};
  Domain comm_d_new{};
  Domain comm_r_new{};
};

// constants.rs for any power-of-two node count 2^5 … 2^31 (upstream's allowed sizes include the
// test sizes 1, 4, 8, 16 and 32 KiB and 16 MiB), with `tree` as TreeR. An error for another node
// count or a tree that does not cover the nodes with 8-ary base trees.
Result<UpdateShape> update_shape_for_nodes(uint64_t nodes, const TreeShape& tree);

// The shape of a Filecoin sector size (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB) with its TreeR
// shape from sector_shape().
Result<UpdateShape> update_shape(uint64_t sector_size);

}  // namespace cuzk::filecoin::vanilla
