// What the daemon client commands (submit, await, remote-prove, cancel, status, preload, evict)
// share: how to reach cuzkd, how a job is described on the command line, how a result is printed
// and written.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "cli/client_filecoin.hpp"
#include "common/result.hpp"
#include "engine/job.hpp"
#include "r1cs/circuits/samples.hpp"
#include "server/client/client.hpp"

namespace cuzk::cli {

// Exit statuses beyond options.hpp's: the job failed or was cancelled; the wait ended first.
inline constexpr int kExitJobFailed = 4;
inline constexpr int kExitStillRunning = 5;

// --daemon (or $CUZK_DAEMON), --token-file (or $CUZK_TOKEN_FILE, $CUZK_TOKEN), --tls, --tls-ca,
// --tls-server-name, --rpc-timeout.
struct ConnectArgs {
  std::string address, token_file, tls_ca, tls_server_name;
  bool tls = false;
  double rpc_timeout_s = 60;
};
void add_connect_options(CLI::App* cmd, ConnectArgs& args);
Result<server::Client> connect_daemon(const ConnectArgs& args);

// The job: kind, priority, parameter set, and its partitions from a sample circuit, circom files
// uploaded from here, or circom files on the daemon's host.
struct JobArgs {
  std::string kind = "generic", priority = "default", params;
  r1cs::SampleSpec spec;
  bool sample = false;  // set when --circuit is given
  uint32_t partitions = 1;
  std::string r1cs, daemon_r1cs;
  std::vector<std::string> wtns, daemon_wtns;
  std::optional<uint64_t> rs_seed;
  FilecoinJobArgs filecoin;  // a Filecoin job instead (client_filecoin.hpp)
};
void add_job_options(CLI::App* cmd, JobArgs& args);
Result<::cuzk::v1::JobSpec> make_job_spec(const JobArgs& args);

// --proof, --public, --proof-format, --json
struct OutputArgs {
  std::string proof_path, public_path, proof_format = "bellman";
  bool json = false;
};
void add_output_options(CLI::App* cmd, OutputArgs& args);
// Prints the result (and its timings), writes the outputs; returns the exit status.
int report_result(const ::cuzk::v1::JobResult& result, const OutputArgs& out);

}  // namespace cuzk::cli
