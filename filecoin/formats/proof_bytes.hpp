// The Groth16 output of a multi-partition proof: 192 bytes per partition (A ‖ B ‖ C, compressed),
// concatenated in partition order (reference/filecoin-circuits.md §1.5, §4.8; rust-fil-proofs:
// filecoin-proofs/src/api/util.rs `proofs_to_bytes`).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"

namespace cuzk::filecoin {

inline constexpr size_t kPartitionProofBytes = 192;  // SINGLE_PARTITION_PROOF_LEN
using PartitionProofBytes = std::array<uint8_t, kPartitionProofBytes>;

std::vector<uint8_t> join_partition_proofs(std::span<const PartitionProofBytes> proofs);
// Splits into 192-byte proofs; an error when the length is not a positive multiple of 192, or
// when `expected_partitions` is non-zero and differs from the count.
Result<std::vector<PartitionProofBytes>> split_partition_proofs(std::span<const uint8_t> bytes,
                                                                size_t expected_partitions = 0);

}  // namespace cuzk::filecoin
