#include "filecoin/formats/proof_bytes.hpp"

#include <algorithm>
#include <string>

namespace cuzk::filecoin {

std::vector<uint8_t> join_partition_proofs(std::span<const PartitionProofBytes> proofs) {
  std::vector<uint8_t> out;
  out.reserve(proofs.size() * kPartitionProofBytes);
  for (const PartitionProofBytes& p : proofs) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Result<std::vector<PartitionProofBytes>> split_partition_proofs(std::span<const uint8_t> bytes,
                                                                size_t expected_partitions) {
  if (bytes.empty() || bytes.size() % kPartitionProofBytes != 0)
    return make_input_error("proof bytes: length " + std::to_string(bytes.size()) +
                            " is not a positive multiple of 192 (one Groth16 proof per partition)");
  const size_t n = bytes.size() / kPartitionProofBytes;
  if (expected_partitions && n != expected_partitions)
    return make_input_error("proof bytes: " + std::to_string(n) + " partition proofs, expected " +
                            std::to_string(expected_partitions));
  std::vector<PartitionProofBytes> out(n);
  for (size_t i = 0; i < n; ++i)
    std::copy_n(bytes.begin() + ptrdiff_t(i * kPartitionProofBytes), kPartitionProofBytes, out[i].begin());
  return out;
}

}  // namespace cuzk::filecoin
