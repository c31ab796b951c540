// Merkle inclusion in a circuit, as rust-fil-proofs builds it (storage-proofs-core/src/gadgets/
// por.rs; reference/filecoin-circuits.md §2.9): `PoRCircuit::synthesize`, which PoRep and PoSt
// use, and `por_no_challenge_input`, which SnapDeals uses.
//
// A path runs bottom-up: the base tree's levels, then the sub-tree level, then the top level (LC
// trees, filecoin/types TreeShape). Each level names its arity and its node hash, so the same
// gadget serves Poseidon trees and the binary SHA-254 tree_d: a level's hash is any callable from
// the level's children, in order, to the parent.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <variant>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/sector_shape.hpp"
#include "r1cs/gadgets/boolean.hpp"
#include "r1cs/gadgets/num.hpp"
#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin {

// The circuit hash of one tree node from its children in order.
using CircuitNodeHash =
    std::function<Result<r1cs::Num>(r1cs::ConstraintSystem&, std::span<const r1cs::Num> children)>;

// One level of a path: its arity (a power of two, at least 2) and its node hash.
struct PathLevel {
  unsigned arity = 0;
  CircuitNodeHash hash;
};

// neptune's Poseidon with the MerkleTree tag, of the constants' arity (505 rows for arity 8).
CircuitNodeHash poseidon_node_hash(const r1cs::PoseidonConstants& constants);
// The levels of a path through a Poseidon LC tree of `shape` whose base trees are `base_levels`
// levels high (arity 8: 2 KiB sectors 3, 32 GiB 9): base, then sub, then top. An error for an
// arity neptune has no constants for or a shape whose top level has no sub level.
Result<std::vector<PathLevel>> poseidon_path_levels(const TreeShape& shape, size_t base_levels);

// `levels` binary levels of the SHA-254 tree (tree_d), each hashed by the node hash of
// filecoin/gadgets/sha254.hpp (hash_multi_leaf_circuit over two leaves).
std::vector<PathLevel> sha254_path_levels(size_t levels);

// The witness of one level: the arity − 1 siblings in stored order and the position (0 … arity − 1)
// of the node being proved among its children. A shape-only circuit passes zeros.
struct PathLevelValues {
  std::vector<Fr> siblings;
  uint64_t index = 0;
};

// A leaf or root given by value (allocated by the gadget) or as a number already in the circuit.
using ValueOrNum = std::variant<Fr, r1cs::Num>;

// PoRCircuit::synthesize:
//   1. the leaf, allocated when given by value;
//   2. per level bottom-up: log2(arity) index bits (AllocatedBit, least significant first), the
//      arity − 1 siblings allocated in order, insert, the level's hash;
//   3. one public input packing every index bit, least significant first: the leaf's index
//      (the challenge), with (Σ 2^i·bit_i)·(ONE) = (input);
//   4. the root, allocated when given by value, and (computed)·(ONE) = (root); with
//      root_private = false the root is also made a public input (PoRep and PoSt never do).
// Rows: Σ over levels of log2(arity) + insertion + hash, plus 2 (arity-8 Poseidon level: 530).
// `reached`: where given, the value the path computes (the top level's hash) when `cs` has values,
// so a caller can compare it with the root's without hashing the path again.
Status synthesize_por(r1cs::ConstraintSystem& cs, std::span<const PathLevel> levels, const ValueOrNum& leaf,
                      std::span<const PathLevelValues> path, const ValueOrNum& root, bool root_private = true,
                      Fr* reached = nullptr);

// por_no_challenge_input: the same levels over index bits the caller already has (least
// significant first, log2(arity) per level) and siblings it allocated (arity − 1 per level); no
// input. Ends with (computed)·(ONE) = (root).
Status por_no_challenge_input(r1cs::ConstraintSystem& cs, std::span<const PathLevel> levels,
                              std::span<const r1cs::AllocatedBit> challenge_bits, const r1cs::Num& leaf,
                              std::span<const std::vector<r1cs::Num>> siblings, const r1cs::Num& root);

// bellperson's multipack::pack_into_inputs: per chunk of 254 bits, one input p with
// (Σ 2^i·bit_i)·(ONE) = (p). Returns the inputs.
std::vector<r1cs::Variable> pack_into_inputs(r1cs::ConstraintSystem& cs, std::span<const r1cs::Boolean> bits);

}  // namespace cuzk::filecoin
