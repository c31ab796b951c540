// A FallbackPoSt partition circuit from what a storage provider hands over: one vanilla proof per
// sector (filecoin-proofs `FallbackPoStSectorProof`, reference/filecoin-circuits.md §4.4), the
// randomness, the registered PoSt type and, for WindowPoSt, the partition index (filecoin-proofs:
// api/window_post.rs `generate_single_window_post_with_vanilla`, api/winning_post.rs
// `generate_winning_post_with_vanilla`, api/post_util.rs `single_partition_vanilla_proofs`).
//
// Everything the circuit would reject is checked here first, so a bad sector is named instead of
// costing a proof that fails verification: each inclusion proof's path reaches comm_r_last,
// comm_r = Poseidon(comm_c, comm_r_last), and the leaf each path proves is the challenge the
// verifier derives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/post_challenges.hpp"
#include "filecoin/circuits/post_circuit.hpp"
#include "filecoin/circuits/post_params.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin {

// What the registered PoSt type fixes (rust-filecoin-proofs-api: src/registry.rs).
struct PostProofType {
  PostKind kind = PostKind::window;
  uint64_t sector_size = 0;
  PostApiVersion api_version = PostApiVersion::v1_2_0;
};

// A partition ready to prove: its circuit and the public inputs a verifier computes for it (without
// ONE), which the circuit's input variables equal when every check passed.
struct PostPartition {
  FallbackPostCircuit circuit;
  std::vector<Fr> public_inputs;
};

// Where an inclusion proof's path is hashed up to its root: by the check itself, or by the
// partition's synthesis (FallbackPostCircuit::set_check_roots), whose witness hashes every path
// anyway. The second is for requests that are proved: their check then reads every field, shape,
// challenge and named root, and leaves the Poseidon hashing (some 8 core-seconds of a 2349-sector
// partition) to the synthesis, which fails on a path that does not reach its root, naming the
// circuit sector and the challenge.
enum class PathCheck { hashed, in_synthesis };

// WindowPoSt: `proofs` are the partition's sectors in order (1 … sectors per partition), one
// vanilla proof each with one sector proof of 10 inclusion proofs; `partition_index` is the
// partition's place in the deadline. WinningPoSt: exactly one vanilla proof whose one sector proof
// holds 66 inclusion proofs, partition 0. Sectors are checked on every core. Errors (bad input)
// name the first bad sector by position and id
// and the challenge, e.g. "WindowPoSt: sector 3 (id 1042): challenge 7's path does not reach
// comm_r_last".
Status check_post_vanilla_proofs(const PostProofType& type, std::span<const FallbackPostSectorProof> proofs,
                                 const Domain& randomness, size_t partition_index = 0,
                                 PathCheck paths = PathCheck::hashed);

// check_post_vanilla_proofs, then the circuit and its public inputs.
Result<PostPartition> post_partition_from_vanilla(const PostProofType& type,
                                                  std::span<const FallbackPostSectorProof> proofs,
                                                  const Domain& randomness, size_t partition_index = 0);

// The circuit and its public inputs of proofs that check_post_vanilla_proofs has accepted with the
// same type, randomness and partition (the circuit's witness trusts every domain the check read):
// a request prepared for proving checks its sectors once, at its submit, not again per partition
// (a 2349-sector partition's check is some 8 core-seconds of Poseidon). `paths`: as the check ran.
Result<PostPartition> post_partition_of_checked(const PostProofType& type,
                                                std::span<const FallbackPostSectorProof> proofs,
                                                const Domain& randomness, size_t partition_index = 0,
                                                PathCheck paths = PathCheck::hashed);

}  // namespace cuzk::filecoin
