// The real Filecoin circuits in `cuzk bench engine --filecoin ID`: a fake key of the circuit's exact
// shape (random points: proofs do not verify, the engine is told to accept them) and the input each
// job carries, made from virtual sectors (cli/filecoin_partition.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "engine/job.hpp"
#include "groth16/keys.hpp"

namespace cuzk::cli {

struct EngineBenchCircuit {
  std::string name;  // the circuit id, e.g. "porep-32g"
  std::shared_ptr<const groth16::ProvingKey> key;
  size_t constraints = 0;
  double key_s = 0;  // the virtual inputs, one synthesis (the key's shape) and the key
  engine::PartitionInput input;
  // How the engine gets each partition's assignment, for the report.
  std::string synthesis;
  uint64_t held_bytes = 0;  // host memory the input holds outside the engine's budget
};

// `threads` synthesize the partition the key is shaped after.
Result<EngineBenchCircuit> filecoin_engine_circuit(const std::string& id, uint64_t seed, unsigned threads,
                                                   ThreadPool& pool);

// "winning-32g" for "porep-32g" or "wpost-32g": the WinningPoSt circuit of the same sector size
// (the jobs are PoRep C2 or WindowPoSt jobs).
Result<std::string> winning_circuit_for(const std::string& id);

// True for a WindowPoSt circuit id ("wpost-32g").
bool filecoin_window_post(const std::string& id);

}  // namespace cuzk::cli
