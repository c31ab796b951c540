// Merkle inclusion proofs out of circuit (rust-fil-proofs: storage-proofs-core/src/merkle/proof.rs):
// the root a vanilla proof's path leads to, checked before a circuit is built on it, and the
// path's values in the form the PoR gadget takes. Levels are numbered from 0 at the leaf upwards:
// the base tree's levels, then the sub-tree level, then the top level.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "filecoin/por/por_circuit.hpp"
#include "filecoin/types/sector_shape.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin {

// The native hash of one tree node from its children in order.
using NativeNodeHash = std::function<Fr(std::span<const Fr> children)>;

// neptune's Poseidon with the MerkleTree tag, of the children's count as arity (zero for an arity
// neptune has no constants for; check_poseidon_inclusion checks the arities first).
NativeNodeHash poseidon_native_node_hash();

// The arities of `proof`'s levels, bottom-up, for a tree of `shape`: every base level has the base
// arity, then one sub level and one top level where the shape has them. An error (starting with
// `what`) when the proof's kind or its sub/top paths do not fit the shape, or when `base_levels`
// is given and the base path has another length.
Result<std::vector<unsigned>> path_arities(const MerkleProof& proof, const TreeShape& shape,
                                           std::string_view what,
                                           std::optional<size_t> base_levels = std::nullopt);

// The root that proof.leaf and the path lead to: at each level the running node goes in at the
// level's index among the siblings, and `hash` makes the parent. Errors name the level: a sibling
// count that does not fit the arity, "level 3 index 9 out of range for arity 8", a domain that is
// not a field element.
Result<Fr> recompute_root(const MerkleProof& proof, std::span<const unsigned> arities,
                          const NativeNodeHash& hash, std::string_view what);

// recompute_root for a Poseidon LC tree of `shape`, compared with proof.root ("path does not reach
// the root" otherwise). `what` names the proof in errors, e.g. "comm_r_last proof".
Status check_poseidon_inclusion(const MerkleProof& proof, const TreeShape& shape, std::string_view what,
                                std::optional<size_t> base_levels = std::nullopt);

// The leaf index the path names: Σ index_l · Π_{k<l} arity_k (the challenge, for the PoR input).
uint64_t path_index(const MerkleProof& proof, std::span<const unsigned> arities);

// The path as the PoR gadget's witness: siblings as field elements and each level's index.
Result<std::vector<PathLevelValues>> circuit_path(const MerkleProof& proof, std::string_view what);

}  // namespace cuzk::filecoin
