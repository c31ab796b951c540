// Options shared by several commands: which sample circuit, how many threads, stage timing.
#pragma once

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <string>

#include "r1cs/circuits/samples.hpp"

namespace cuzk::cli {

// --circuit KIND --depth D --message-bytes N --log-domain K --seed S
inline void add_circuit_options(CLI::App* cmd, r1cs::SampleSpec& spec) {
  cmd->add_option("--circuit", spec.kind, "Sample circuit: merkle, sha256 or synthetic")
      ->check(CLI::IsMember(r1cs::sample_kinds()))
      ->capture_default_str();
  cmd->add_option("--depth", spec.merkle_depth, "merkle: tree depth")->capture_default_str();
  cmd->add_option("--message-bytes", spec.message_bytes, "sha256: preimage length")->capture_default_str();
  cmd->add_option("--log-domain", spec.log_domain, "synthetic: log2 of the domain (constraints ≈ 0.97·2^k)")
      ->capture_default_str();
  cmd->add_option("--seed", spec.seed, "Seed of the sample witness (synthetic: of the circuit too)")
      ->capture_default_str();
}

// Prints "name ... 1.234 s" to stderr around a stage of long work, so a user sees progress.
class Stage {
 public:
  Stage(const char* name, bool quiet) : name_(name), quiet_(quiet), start_(std::chrono::steady_clock::now()) {
    if (!quiet_) std::fprintf(stderr, "  %-28s ...", name_), std::fflush(stderr);
  }
  // Seconds since the stage began; prints them the first time.
  double done() {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (!quiet_ && !printed_) std::fprintf(stderr, " %.3f s\n", s);
    printed_ = true;
    return s;
  }
  ~Stage() {
    if (!printed_ && !quiet_) std::fprintf(stderr, " failed\n");
  }

 private:
  const char* name_;
  bool quiet_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_;
};

// Exit statuses of the commands: 0 success, 1 error (bad input, I/O), 3 a proof that does not verify.
inline constexpr int kExitError = 1;
inline constexpr int kExitInvalidProof = 3;

inline int fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return kExitError;
}

}  // namespace cuzk::cli
