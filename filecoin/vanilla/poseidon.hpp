// The one place the vanilla side calls Poseidon: neptune's Merkle-tree hash (domain tag
// 2^arity − 1) of `arity` field elements, for arities 2, 8 and 11 (tree_c/tree_r_last nodes,
// comm_r, column hashes). The parameters of each arity are derived once per process.
#pragma once

#include <span>

#include "common/result.hpp"
#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin::vanilla {

// Poseidon of inputs.size() elements (an arity neptune supports); an error otherwise.
Result<Fr> poseidon_merkle(std::span<const Fr> inputs);

// The same over domains; an error when a domain is not a canonical Fr.
Result<Domain> poseidon_merkle(std::span<const Domain> inputs);

}  // namespace cuzk::filecoin::vanilla
