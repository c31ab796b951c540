// The journal: accepted jobs, their state, per-partition proofs and results, in SQLite, so that
// they survive a crash or a restart.
//
// A job is written before submit() returns (with a full fsync by default), each partition's proof
// as it is verified, and the job's outcome once. On restart the engine reads every stored job: the
// unfinished ones resume from the partitions still missing, the finished ones stay fetchable until
// their results expire. `completions` counts terminal transitions, so that "no job completes twice"
// can be checked from the file alone.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "engine/job.hpp"

struct sqlite3;

namespace cuzk::engine {

struct StoredPartition {
  Proof proof;
  std::vector<Fr> public_inputs;
};

struct StoredJob {
  JobId id = 0;
  JobRequest request;
  bool volatile_inputs = false;
  JobState state = JobState::queued;
  std::string error;
  int64_t submitted_ms = 0, finished_ms = 0, expires_ms = 0;  // Unix milliseconds; 0: not set
  JobTimings timings;
  uint32_t retries = 0;
  uint32_t completions = 0;
  std::map<uint32_t, StoredPartition> partitions;
};

class Journal {
 public:
  // Opens (creating if needed) the journal at `path`. `sync_full`: fsync every commit (survives a
  // power loss), otherwise only a crash of the process.
  static Result<std::unique_ptr<Journal>> open(const std::string& path, bool sync_full = true);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // A new job, queued; its id is the journal's (ids are never reused).
  Result<JobId> insert_job(const JobRequest& request, int64_t submitted_ms);
  Status save_partition(JobId id, uint32_t index, const Proof& proof, std::span<const Fr> public_inputs);
  Status set_running(JobId id);
  // The job's outcome: state done/failed/cancelled, counted in `completions`.
  Status finish_job(JobId id, JobState state, const std::string& error, const JobTimings& timings,
                    uint32_t retries, int64_t finished_ms, int64_t expires_ms);
  Status set_expiry(JobId id, int64_t expires_ms);
  Status remove_job(JobId id);
  // Removes finished jobs whose results expired before `now_ms`; returns how many.
  Result<size_t> remove_expired(int64_t now_ms);

  Result<std::vector<StoredJob>> load_all();

 private:
  explicit Journal(sqlite3* db) : db_(db) {}
  Status exec(const std::string& sql);

  sqlite3* db_;
  std::mutex mutex_;
};

}  // namespace cuzk::engine
