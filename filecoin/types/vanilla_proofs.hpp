// Vanilla proofs as rust-fil-proofs builds and serializes them (reference/filecoin-circuits.md
// §4.2–4.5): the per-challenge PoRep proof of a commit-phase-1 output, PoSt sector proofs and
// SnapDeals partition proofs. Plain data: parsing lives in formats/, checking and use in the
// circuits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin {

// One level of an inclusion path: the arity − 1 siblings in stored order and the position
// (0 … arity − 1) of the node being proved among its arity children.
struct PathElement {
  std::vector<Domain> hashes;
  uint64_t index = 0;
  friend bool operator==(const PathElement&, const PathElement&) = default;
};

// Levels listed bottom-up.
using InclusionPath = std::vector<PathElement>;

// storage-proofs-core's MerkleProof: `Single` for binary trees and 8-0-0 trees, `Sub` for 8-8-0,
// `Top` for 8-8-2. sub/top are empty for the kinds that do not have them.
struct MerkleProof {
  enum class Kind : uint32_t { single = 0, sub = 1, top = 2 };
  Kind kind = Kind::single;
  Domain root{};
  Domain leaf{};
  InclusionPath base;  // `path` of a Single proof
  InclusionPath sub;
  InclusionPath top;

  // Every level bottom-up: base, then sub, then top.
  size_t levels() const { return base.size() + sub.size() + top.size(); }
  friend bool operator==(const MerkleProof&, const MerkleProof&) = default;
};

struct Column {
  uint32_t index = 0;
  std::vector<Domain> rows;  // layer 1 first
  friend bool operator==(const Column&, const Column&) = default;
};

struct ColumnProof {
  Column column;
  MerkleProof inclusion_proof;
  friend bool operator==(const ColumnProof&, const ColumnProof&) = default;
};

struct LabelingProof {
  std::vector<Domain> parents;  // 37 labels, expanded (reference §3.1.2)
  uint32_t layer_index = 0;
  uint64_t node = 0;
  friend bool operator==(const LabelingProof&, const LabelingProof&) = default;
};

struct ReplicaColumnProofs {
  ColumnProof c_x;
  std::vector<ColumnProof> drg_parents;  // 6
  std::vector<ColumnProof> exp_parents;  // 8
  friend bool operator==(const ReplicaColumnProofs&, const ReplicaColumnProofs&) = default;
};

// One challenge of a StackedDRG partition (storage-proofs-porep: vanilla/params.rs `Proof`).
struct PorepChallengeProof {
  MerkleProof comm_d_proofs;
  MerkleProof comm_r_last_proof;
  ReplicaColumnProofs replica_column_proofs;
  std::vector<LabelingProof> labeling_proofs;  // one per layer
  LabelingProof encoding_proof;
  friend bool operator==(const PorepChallengeProof&, const PorepChallengeProof&) = default;
};

// filecoin-proofs-api's SealCommitPhase1Output.
struct SealCommitPhase1Output {
  std::string registered_proof;  // e.g. "StackedDrg32GiBV1_1"
  std::string shape_key;         // the vanilla_proofs key, e.g. "StackedDrg32GiBV1"
  std::vector<std::vector<PorepChallengeProof>> vanilla_proofs;  // [partition][challenge]
  Domain comm_r{};
  Domain comm_d{};
  Domain replica_id{};
  Domain seed{};
  Domain ticket{};
  friend bool operator==(const SealCommitPhase1Output&, const SealCommitPhase1Output&) = default;
};

// FallbackPoSt: the inclusion proofs of one sector's challenges, with the two roots of comm_r.
struct PostSectorProof {
  std::vector<MerkleProof> inclusion_proofs;
  Domain comm_c{};
  Domain comm_r_last{};
  friend bool operator==(const PostSectorProof&, const PostSectorProof&) = default;
};

// filecoin-proofs' FallbackPoStSectorProof, the bytes `generate_single_vanilla_proof` returns.
struct FallbackPostSectorProof {
  uint64_t sector_id = 0;
  Domain comm_r{};
  std::vector<PostSectorProof> sectors;  // vanilla_proof.sectors
  friend bool operator==(const FallbackPostSectorProof&, const FallbackPostSectorProof&) = default;
};

struct UpdateChallengeProof {
  MerkleProof proof_r_old;  // TreeR
  MerkleProof proof_d_new;  // binary TreeD, Single
  MerkleProof proof_r_new;  // TreeR
  friend bool operator==(const UpdateChallengeProof&, const UpdateChallengeProof&) = default;
};

// storage-proofs-update's PartitionProof: one per SnapDeals partition.
struct UpdatePartitionProof {
  Domain comm_c{};
  std::vector<Domain> apex_leafs;
  std::vector<UpdateChallengeProof> challenge_proofs;
  friend bool operator==(const UpdatePartitionProof&, const UpdatePartitionProof&) = default;
};

}  // namespace cuzk::filecoin
