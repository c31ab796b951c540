// The native check of a commit-phase-1 output: everything the PoRep circuit depends on,
// recomputed (reference/filecoin-circuits.md §3.1.2, §6), so an inconsistent output is refused
// with a message naming the first thing wrong, e.g.
//   "partition 0 challenge 1: drg parent 3 column does not reach comm_c".
// Checked: the proof type and its shape key; partition and challenge counts; every domain the
// circuit reads is a canonical Fr; comm_r = Poseidon2(comm_c, comm_r_last) with comm_c and
// comm_r_last the roots the proofs carry; the challenges equal the ones derived for the proof
// type; every Merkle path (tree_d, tree_r_last, 15 columns in tree_c) has the tree's shape, opens
// the right leaf index and reaches its root; the parent columns are those of the graph's parents;
// each layer's label of the challenged node recomputes from the claimed parent columns; the
// replica leaf is label + data; and the labeling and encoding proofs carry the expanded parents.
// Optionally replica_id is rederived from prover_id and sector_id.
#pragma once

#include <cstddef>
#include <optional>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin::vanilla {

struct PorepCheckOptions {
  // Both given: replica_id must equal trim(sha256(prover_id ‖ sector_id ‖ ticket ‖ comm_d ‖ porep_id)).
  std::optional<Domain> prover_id;
  std::optional<uint64_t> sector_id;
};

Status check_porep_vanilla(const SealCommitPhase1Output& c1, const PorepCheckOptions& options = {});

// The same checks with only partition `partition`'s challenges (the envelope and comm_r are
// checked whole), for a prover about to prove that partition.
Status check_porep_vanilla_partition(const SealCommitPhase1Output& c1, size_t partition,
                                     const PorepCheckOptions& options = {});

}  // namespace cuzk::filecoin::vanilla
