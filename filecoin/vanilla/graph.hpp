// The StackedDRG graph (reference/filecoin-circuits.md §6.3; rust-fil-proofs:
// storage-proofs-core/src/drgraph.rs, crypto/feistel.rs; storage-proofs-porep/src/stacked/
// vanilla/graph.rs): 6 DRG parents drawn with ChaCha8 from a porep-id seed (bucket sampling), and
// 8 expander parents from a 3-round Feistel permutation keyed by the porep id. A node's parents
// in graph order are [drg_0 … drg_5, exp_0 … exp_7].
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "filecoin/vanilla/hashes.hpp"
#include "filecoin/vanilla/seal_proof.hpp"

namespace cuzk::filecoin::vanilla {

inline constexpr unsigned kDrgParents = 6;     // BASE_DEGREE
inline constexpr unsigned kExpParents = 8;     // EXP_DEGREE
inline constexpr unsigned kParents = 14;       // DEGREE
inline constexpr unsigned kLabelParents = 37;  // TOTAL_PARENTS

class StackedGraph {
 public:
  StackedGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api);

  uint64_t nodes() const { return nodes_; }
  ApiVersion api() const { return api_; }
  const std::array<uint8_t, 28>& drg_seed() const { return drg_seed_; }
  const std::array<uint64_t, 4>& feistel_keys() const { return feistel_keys_; }

  // Nodes 0 and 1 have all DRG parents 0. Otherwise slot 0 (API ≥ 1.1) or slot 5 (API 1.0) is
  // v − 1 and the other five are bucket-sampled.
  void drg_parents(uint64_t v, uint32_t out[kDrgParents]) const;
  void exp_parents(uint64_t v, uint32_t out[kExpParents]) const;
  void parents(uint64_t v, uint32_t out[kParents]) const;

  // parents(v) for every node, v-major (nodes × 14), computed in parallel: the content of
  // rust-fil-proofs' parent cache file.
  std::vector<uint32_t> parent_table() const;

 private:
  uint64_t feistel_encode(uint64_t index) const;

  uint64_t nodes_;
  ApiVersion api_;
  std::array<uint8_t, 28> drg_seed_{};
  std::array<uint64_t, 4> feistel_keys_{};
  unsigned half_bits_ = 0;  // the Feistel halves: smallest l ≥ 1 with 4^l ≥ 8 · nodes
};

// SHA-256 (lowercase hex) of the parent table as little-endian u32s: parent_cache.json's digest.
std::string parent_cache_digest(const std::vector<uint32_t>& table);

// The parent cache file's stem, "v28-sdr-parent-<hex>", which names its parent_cache.json entry:
// sha256("poseidon_hasher" ‖ graph identifier ‖ feistel keys as u64 LE ‖ nodes as u32 LE).
std::string parent_cache_name(const StackedGraph& graph);

}  // namespace cuzk::filecoin::vanilla
