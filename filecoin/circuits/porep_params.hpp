// The parameters of one StackedDRG PoRep partition circuit (rust-fil-proofs: storage-proofs-porep/
// src/stacked/vanilla/params.rs `PublicParams`, filecoin-proofs/src/parameters.rs
// `setup_params`; reference/filecoin-circuits.md §3.1.1).
//
// A partition proves `challenge_count` challenged nodes of a sector of `nodes` 32-byte nodes
// labelled in `layers` layers: per challenge its tree_d opening (binary SHA-254, log2(nodes)
// levels), its 6 DRG and 8 expander parents' columns in tree_c, its labels, its replica node in
// tree_r_last and its own column in tree_c. tree_c and tree_r_last are Poseidon LC trees of
// `tree`'s shape; a column is hashed with Poseidon of arity `layers` (2 or 11 in Filecoin).
// Every registered seal type of one sector size (V1, V1_1, synthetic, NI-PoRep) shares it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/result.hpp"
#include "filecoin/types/sector_shape.hpp"

namespace cuzk::filecoin {

inline constexpr size_t kPorepDrgParents = 6;  // BASE_DEGREE
inline constexpr size_t kPorepExpParents = 8;  // EXP_DEGREE
// Public inputs per challenge: the tree_d path, 14 parent column paths, the UInt64 challenge, the
// tree_r_last path and the challenged column's path.
inline constexpr size_t kPorepInputsPerChallenge = 18;

struct PorepParams {
  uint64_t nodes = 0;          // the sector's 32-byte nodes, a power of two
  size_t layers = 0;           // SDR layers; also the column hash's arity
  size_t challenge_count = 0;  // challenged nodes per partition
  TreeShape tree;              // tree_c and tree_r_last

  uint64_t sector_size() const { return nodes * 32; }
  // replica_id, comm_d, comm_r, then 18 per challenge (not counting ONE).
  size_t num_public_inputs() const { return 3 + kPorepInputsPerChallenge * challenge_count; }
  friend bool operator==(const PorepParams&, const PorepParams&) = default;
};

// The levels of the paths the circuit opens: tree_d's (binary, bottom-up) and the base trees' of
// tree_c and tree_r_last (the sub and top levels come on top of these).
struct PorepTreeLevels {
  size_t tree_d = 0;
  size_t tree_cr_base = 0;
};

// The levels, and an error that names what does not fit: zero counts, nodes not a power of two
// or not split evenly into base trees of a power of the base arity, a column arity Poseidon has
// no constants for, a top level without a sub level.
Result<PorepTreeLevels> porep_tree_levels(const PorepParams& params);

// The partition circuit of a sector size (every registered seal type of that size); an error for a
// size no Filecoin proof uses.
Result<PorepParams> porep_params(uint64_t sector_size);

}  // namespace cuzk::filecoin
