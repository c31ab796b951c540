// A commit-phase-1 output from a sealed sector (reference/filecoin-circuits.md §4.2, §6.7;
// rust-fil-proofs: storage-proofs-porep/src/stacked/vanilla/proof.rs `prove_layers_generate`).
// Per challenge c: the tree_d proof of c, the column of c and of its 6 DRG and 8 expander parents
// with their tree_c proofs, the tree_r_last proof of c, one labeling proof per layer (the 37
// expanded parent labels) and the encoding proof (the last labeling proof's data).
// The sector is seen through SectorView, so a fully sealed test sector and a sparse virtual one
// build their proofs the same way.
#pragma once

#include <functional>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/graph.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"

namespace cuzk::filecoin::vanilla {

struct SectorView {
  const SealProofInfo* info = nullptr;
  const StackedGraph* graph = nullptr;
  const MerkleTree* tree_d = nullptr;
  const MerkleTree* tree_c = nullptr;
  const MerkleTree* tree_r_last = nullptr;
  // label(layer, node), layer 1-based; asked only for challenged nodes and their parents.
  std::function<Domain(unsigned layer, uint64_t node)> label;
  Domain replica_id{};
  Domain comm_r{};
  Domain seed{};
  Domain ticket{};
};

// The column hash: Poseidon of a node's labels, layer 1 first (arity = layers).
Result<Domain> column_hash(std::span<const Domain> rows);

PorepChallengeProof prove_challenge(const SectorView& sector, uint64_t challenge);

// Every partition's challenges (challenges.hpp) and their proofs, with the envelope fields.
Result<SealCommitPhase1Output> build_commit_phase1(const SectorView& sector);

}  // namespace cuzk::filecoin::vanilla
