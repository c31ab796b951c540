// A virtual SnapDeals sector (reference/filecoin-circuits.md §6.9): partition proofs for any sector
// size, 32 and 64 GiB included, that pass check_update_partition without the sector's data. The
// circuit checks only Merkle paths, comm_r = Poseidon2(comm_c, root) and the encoding of the
// challenged nodes, so every tree can be sparse:
//   * the old replica is a default value everywhere except at `marked` random nodes with random
//     values; comm_c is random;
//   * the new data is zero (committed capacity) except at `marked` random nodes with random
//     fr32-safe values; tree_d_new's other subtrees are zero-subtree hashes;
//   * the new replica is encoded from both exactly as encode_update does (the default nodes
//     stay the old default, their data being zero), so comm_r_new, and with it the challenges,
//     follow from the sparse trees.
// The challenged nodes are then almost always default ones; that changes values, never the
// circuit's rows.
#pragma once

#include <cstdint>

#include "common/result.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"
#include "filecoin/vanilla/update.hpp"

namespace cuzk::filecoin::vanilla {

struct VirtualUpdate {
  UpdateShape shape;
  unsigned h = 0;
  MerkleTree tree_r_old, tree_d_new, tree_r_new;  // sparse
  Domain comm_c{}, comm_r_old{}, comm_d_new{}, comm_r_new{};

  UpdateView view() const;
  UpdatePublicInputs public_inputs(uint64_t k) const { return {k, h, comm_r_old, comm_d_new, comm_r_new}; }
};

// A virtual sector of `sector_size` bytes (a Filecoin size), h allowed for it, drawn from
// `rng_seed`, with `marked` non-default nodes in the old replica and in the new data each.
Result<VirtualUpdate> virtual_update(uint64_t sector_size, unsigned h, uint64_t rng_seed,
                                     unsigned marked = 64);

}  // namespace cuzk::filecoin::vanilla
