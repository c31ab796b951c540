// `cuzk bench filecoin --witness-only`: one partition synthesized the compiled way and the full
// way, side by side: the blank circuit of its id compiled (in parallel pieces where the circuit
// splits), the witness synthesized without constraints, a·b·c evaluated on the CPU from the
// compiled rows, and full synthesis for comparison (the two checked equal, bit for bit). Reports the
// times, the compiled circuit's size (terms per side, distinct coefficients, bytes) and the peak
// host memory of each phase. No key, no proof.
#pragma once

#include <string>

#include "cli/filecoin_partition.hpp"

namespace cuzk::cli {

struct CompiledBenchOptions {
  unsigned threads = 1;
  bool full_synthesis = true;  // also synthesize the full way, time it and compare
  std::string json_path;
};

// An exit status; the table on stdout, the JSON to options.json_path.
int bench_filecoin_compiled(const BenchPartition& part, const CompiledBenchOptions& options);

}  // namespace cuzk::cli
