// Inclusion in a binary Merkle tree hashed with Poseidon (arity 2, neptune parameters, node =
// H(left, right) with the Merkle domain tag). The path runs from the leaf up: sibling i and bit i
// of the leaf's index at level i, where bit 1 means the running node is the right child.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::r1cs {

// The root above `leaf` at `index` given its siblings, bottom up; arity-2 constants only.
Result<Fr> merkle_root(const PoseidonConstants& p, const Fr& leaf, std::span<const Fr> siblings,
                       uint64_t index);

// All levels of a full tree over `leaves` (a power of two): levels[0] = leaves, levels.back() = {root}.
Result<std::vector<std::vector<Fr>>> merkle_tree(const PoseidonConstants& p, std::span<const Fr> leaves);
// The siblings of leaf `index`, bottom up.
std::vector<Fr> merkle_path(const std::vector<std::vector<Fr>>& levels, uint64_t index);

// The root computed in the circuit: per level one constraint for the conditional swap, plus one
// Poseidon hash (312 constraints a level). Needs as many index bits as siblings, and arity-2 parameters.
Result<Num> merkle_root_circuit(ConstraintSystem& cs, const PoseidonConstants& p, const Num& leaf,
                                std::span<const Num> siblings, std::span<const Boolean> index_bits);

}  // namespace cuzk::r1cs
