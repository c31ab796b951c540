// What a client asks the engine for (a JobRequest) and what it gets back (a JobResult).
//
// A job is one or more partitions proved under one parameter set. Its kind fixes its priority and
// partition count the way Filecoin uses them; the partitions say what to synthesize, because the
// engine proves circuits it can describe (sample circuits, circom r1cs + witness files, or
// assignments synthesized by the caller) rather than Filecoin's own circuits.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/result.hpp"
#include "engine/filecoin_input.hpp"
#include "groth16/proof.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::engine {

using JobId = uint64_t;  // 0 is never a job

// Higher runs first; within one priority, the older job first.
enum class Priority : uint8_t { low = 0, normal = 1, high = 2, critical = 3 };

enum class JobKind : uint8_t {
  porep_c2,      // 10 partitions, NORMAL
  snap_deals,    // 16 partitions, NORMAL
  window_post,   // any number of partitions, HIGH
  winning_post,  // 1 partition, CRITICAL: must finish within the epoch
  generic,       // any number of partitions, NORMAL
};

enum class JobState : uint8_t { queued, running, done, failed, cancelled };

const char* to_string(Priority p);
const char* to_string(JobKind k);
const char* to_string(JobState s);
Result<Priority> parse_priority(const std::string& text);
Result<JobKind> parse_job_kind(const std::string& text);
Result<JobState> parse_job_state(const std::string& text);
bool is_terminal(JobState s);

Priority default_priority(JobKind kind);
// The partition count a kind requires; nullopt where any count is accepted.
std::optional<size_t> required_partitions(JobKind kind);

// A partition to synthesize from a sample circuit (its seed picks the witness).
struct SampleInput {
  r1cs::SampleSpec spec;
  // Synthetic circuits only: leave c to the prover (r1cs::Assignment::c_from_ab), which forms it
  // on the device. Off by default: on the H200 job it makes synthesis faster and the job slower
  // (the two workers' heavy MSMs then overlap less well); kept for comparisons.
  bool c_from_ab = false;
};
// A circom circuit and its witness, as snarkjs files. With a .zkey parameter set the zkey's own
// coefficients give a and b (the r1cs is then only checked against the witness).
struct CircomInput {
  std::string r1cs_path, wtns_path;
};
// A partition the caller has already synthesized. Kept in memory only: such a job does not survive
// a restart of the engine (it fails then with an error that says so).
struct SynthesizedInput {
  std::shared_ptr<const r1cs::Assignment> assignment;
};
// A Filecoin proof (engine/filecoin_input.hpp): PoRep C2, PoSt or SnapDeals from the caller's bytes.
using PartitionInput = std::variant<SampleInput, CircomInput, SynthesizedInput, FilecoinInput>;

struct JobRequest {
  JobKind kind = JobKind::generic;
  std::optional<Priority> priority;  // default: by kind
  // The parameter set: a name registered with the engine (EngineConfig::keys, register_params),
  // or a path to a bellman .params or snarkjs .zkey file.
  std::string params;
  // One input per partition. For PoRep C2 and SnapDeals a single input is replicated to the
  // kind's partition count.
  std::vector<PartitionInput> partitions;
  std::optional<uint64_t> randomness_seed;  // deterministic (r, s) per partition: tests only
  std::string client;                       // who submitted it, for logs (as the client says)
  // The authenticated client that owns the job (the daemon's token name); only it may await or
  // cancel the job. "": no authentication.
  std::string owner;
};

// Checks a request and returns it in its canonical form: priority filled in, partitions expanded
// to the kind's count.
Result<JobRequest> normalize(JobRequest request);

// Durations of the stages, in milliseconds. Stage times are summed over the job's partitions
// (several partitions may be in one stage at once, so they can add up to more than `total`).
struct JobTimings {
  double queue_wait_ms = 0;  // submit -> first partition admitted
  double param_load_ms = 0;  // loading parameter sets not already cached
  double synthesis_ms = 0;
  double gpu_ms = 0;  // the proving stage on a device, all attempts
  double verify_ms = 0;
  double total_ms = 0;  // submit -> finished

  // The stages by the names logs, metrics and JSON give them, in that order.
  std::array<std::pair<const char*, double>, 6> named() const {
    return {{{"queue_wait", queue_wait_ms},
             {"param_load", param_load_ms},
             {"synthesis", synthesis_ms},
             {"gpu", gpu_ms},
             {"verify", verify_ms},
             {"total", total_ms}}};
  }
};

struct JobResult {
  JobId id = 0;
  JobKind kind = JobKind::generic;
  Priority priority = Priority::normal;
  JobState state = JobState::queued;           // queued or running: the wait timed out
  std::vector<groth16::Proof> proofs;          // in partition order, each pairing-checked; when done
  std::vector<std::vector<Fr>> public_inputs;  // per partition, without ONE; when done
  std::string error;                           // when failed or cancelled
  JobTimings timings;
  uint32_t partitions = 0, partitions_proved = 0;
  uint32_t retries = 0;  // partition attempts that failed and were retried
};

}  // namespace cuzk::engine
