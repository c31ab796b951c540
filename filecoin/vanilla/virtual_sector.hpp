// A virtual sector (reference/filecoin-circuits.md §6.9): a commit-phase-1 output for any sector
// size, 32 and 64 GiB included, that is internally consistent without the sector's data. The
// circuit checks the challenged node's labels against the *claimed* parent columns, those
// columns' and the challenged column's places in tree_c, and the encoding against tree_d and
// tree_r_last; it never checks that a parent's own labels follow from its parents. So:
//   * the data is all zero (a committed-capacity sector): tree_d is the zero tree, comm_d the
//     zero-piece commitment, and every tree_d proof is made of zero-subtree hashes;
//   * the columns of parents that are not challenged are pseudo-random canonical values drawn
//     from `rng_seed`; the challenged nodes' labels are computed from their parents' columns,
//     layer by layer (DRG parents of the same layer are lower nodes, expander parents read the
//     layer below, so every label is computable even when challenged nodes are each other's
//     parents);
//   * tree_c and tree_r_last are sparse: the leaves above hold the column hashes and the replica
//     (= last label, the data being zero), every other node is the hash of an all-zero subtree.
// Interactive proof types only (V1, V1_1): NI-PoRep and synthetic challenges depend on comm_r,
// which depends on the challenged columns.
#pragma once

#include <random>

#include <cstdint>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin::vanilla {

Result<SealCommitPhase1Output> virtual_commit_phase1(uint64_t registered_proof_id, const Domain& prover_id,
                                                     uint64_t sector_id, const Domain& ticket,
                                                     const Domain& seed, uint64_t rng_seed);

// 32 random bytes with the top two bits cleared: a field element, as fr32 data is (the values of
// virtual sectors' untouched nodes and columns).
Domain random_domain(std::mt19937_64& rng);

}  // namespace cuzk::filecoin::vanilla
