// A Groth16 key of a Filecoin circuit made here, from its blank circuit's recorded rows: test
// parameters (proofs made with them verify against them only, never on chain). `cuzk setup
// --filecoin` writes it as the official file names; cuzkd-bench --test-key holds it in memory, where
// the 47 GB file of a 32 GiB PoRep need not be written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "groth16/keys.hpp"

namespace cuzk::cli {

struct TestKeyOptions {
  std::optional<uint64_t> toxic_seed;  // unset: fresh randomness
  std::string backend = "auto";        // where the generator multiples are made: cpu, cuda or auto
  int device = 0;
  bool quiet = false;  // no stages and progress on stderr
};

// Errors: an id with no blank circuit, a backend that cannot be attached, a failed setup.
Result<groth16::ProvingKey> make_filecoin_test_key(const filecoin::CircuitId& id,
                                                   const TestKeyOptions& options, ThreadPool& pool);

}  // namespace cuzk::cli
