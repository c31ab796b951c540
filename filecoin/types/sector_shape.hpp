// The shape of each sector size's circuits (reference/filecoin-circuits.md §3.1.1, §3.2, §3.3;
// rust-fil-proofs: filecoin-proofs/src/constants.rs, parameters.rs). Every proof type of one size (V1, V1_1,
// synthetic, NI) shares its PoRep circuit.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace cuzk::filecoin {

// An LC tree over 32-byte nodes: `base_arity`-ary base trees, optionally `sub_arity` of them under
// one node and `top_arity` of those under the root. 0 means the level is absent ("8-0-0").
struct TreeShape {
  unsigned base_arity = 8;
  unsigned sub_arity = 0;
  unsigned top_arity = 0;

  // How many base trees the sector's nodes are split into.
  unsigned base_trees() const { return (sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1); }
  // "8-8-0" as in parameter file names.
  std::string name() const;
  friend bool operator==(const TreeShape&, const TreeShape&) = default;
};

struct SectorShape {
  uint64_t sector_size = 0;  // bytes
  uint64_t nodes = 0;        // 32-byte nodes, sector_size / 32
  unsigned log2_nodes = 0;
  TreeShape tree;  // tree_c, tree_r_last (PoRep, PoSt, SnapDeals TreeR)

  // StackedDRG PoRep.
  unsigned layers = 0;
  unsigned column_arity = 0;         // Poseidon arity of the column hash (= layers)
  unsigned porep_partitions = 0;     // interactive and synthetic
  unsigned porep_challenges = 0;     // per partition
  unsigned ni_porep_partitions = 0;  // NI-PoRep: same circuit, more partitions

  // FallbackPoSt.
  unsigned window_post_sectors = 0;      // circuit sectors per WindowPoSt partition
  unsigned window_post_challenges = 10;  // per sector
  unsigned winning_post_sectors = 66;    // one real sector's 66 challenges, one each
  unsigned winning_post_challenges = 1;

  // EmptySectorUpdate (SnapDeals): its shape follows from `nodes` by one rule,
  // filecoin/vanilla/update_shape.hpp.
};

// The five sizes: 2 KiB, 8 MiB, 512 MiB, 32 GiB and 64 GiB.
std::span<const SectorShape> sector_shapes();
// The shape of a sector size in bytes; nullopt when no Filecoin proof uses that size.
std::optional<SectorShape> sector_shape(uint64_t sector_size);

}  // namespace cuzk::filecoin
