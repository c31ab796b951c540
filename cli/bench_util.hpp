// Small helpers the `cuzk bench` subcommands share: a median, "12.3 GiB", a proof's stage times and
// writing the JSON result.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "groth16/prover.hpp"

namespace cuzk::cli {

// The median (the mean of the middle two for an even count); 0 for none.
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

inline std::string gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
  return buf;
}

// A proof's stage times as JSON, in milliseconds.
inline nlohmann::json stage_times_json(const groth16::ProofTimings& t) {
  return {{"check", t.check_ms},
          {"h", t.h_ms},
          {"msm", t.msm_ms},
          {"assemble", t.assemble_ms},
          {"total", t.total_ms}};
}

// The result to `path` ("-": stdout; "": nowhere); an exit status.
inline int write_json(const std::string& path, const nlohmann::json& j) {
  if (path.empty()) return 0;
  if (path == "-") {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) return fail("cannot write " + path);
  return 0;
}

}  // namespace cuzk::cli
