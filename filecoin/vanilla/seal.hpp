// Sealing a test sector end to end (reference/filecoin-circuits.md §6): fr32-pad the data,
// tree_d and comm_d, replica_id, the SDR labels of every layer, tree_c over the column hashes,
// the replica (last layer + data in Fr), tree_r_last, comm_r = Poseidon2(comm_c, comm_r_last);
// then commit phase 1 for the registered proof's challenge rule. Everything stays in memory:
// meant for 2 KiB and 8 MiB sectors (512 MiB works, slowly, in a few GiB).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/graph.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"

namespace cuzk::filecoin::vanilla {

struct TestSector {
  SealProofInfo info;
  Domain prover_id{};
  uint64_t sector_id = 0;
  Domain ticket{};
  Domain seed{};

  Domain replica_id{};
  Domain comm_d{};
  Domain comm_c{};
  Domain comm_r_last{};
  Domain comm_r{};

  std::vector<std::vector<Domain>> labels;  // [layer − 1][node]
  MerkleTree tree_d;                        // leaves: the padded data
  MerkleTree tree_c;                        // leaves: the column hashes
  MerkleTree tree_r_last;                   // leaves: the replica

  const Domain& data(uint64_t node) const { return tree_d.leaf(node); }
  const Domain& replica(uint64_t node) const { return tree_r_last.leaf(node); }
};

// `raw` is unpadded data of at most fr32_unpadded_size(sector size) bytes, zero-extended (empty
// input seals a committed-capacity sector). An error for an unknown proof id or oversized data.
Result<TestSector> seal_test_sector(uint64_t registered_proof_id, const Domain& prover_id, uint64_t sector_id,
                                    const Domain& ticket, const Domain& seed, std::span<const uint8_t> raw);

// The sector's SealCommitPhase1Output: every partition of the proof type, its challenges from
// replica_id, seed and comm_r.
Result<SealCommitPhase1Output> commit_phase1(const TestSector& sector);

}  // namespace cuzk::filecoin::vanilla
