// The journal: accepted jobs, their state, per-partition proofs and results, in SQLite, so that
// they survive a crash or a restart.
//
// A job is written before submit() returns (with a full fsync by default), each partition's proof
// as it is verified, and the job's outcome once. On restart the engine reads every stored job: the
// unfinished ones resume from the partitions still missing, the finished ones stay fetchable until
// their results expire. `completions` counts terminal transitions, so that "no job completes twice"
// can be checked from the file alone.
//
// One process owns a journal: open() takes an exclusive lock on "<path>.lock" first and fails,
// naming the owner, while another holds it (two engines on one journal would prove every job
// twice). The file is created 0600 (it names witness paths).
//
// Job ids are drawn at random (53 bits: exact in any JSON reader), never counted: an id from one
// journal or one run never names a job of another, and an id cannot be guessed from another.
//
// A write that fails (a full disk) after the job was accepted is kept in memory, in order, and
// retried by flush() and before every later write; until the backlog is empty healthy() is false
// and pending(id) says which jobs have state the file does not yet hold. The engine takes no new
// job meanwhile and hands out no result the journal does not hold: a result handed out is never
// proved again after a restart.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "engine/file_lock.hpp"
#include "engine/job.hpp"

struct sqlite3;

namespace cuzk::engine {

struct StoredPartition {
  groth16::Proof proof;
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
  // `held`: the lock on "<path>.lock" when the caller took it already (a daemon takes it before
  // anything else); otherwise open() takes it.
  static Result<std::unique_ptr<Journal>> open(const std::string& path, bool sync_full = true,
                                               std::shared_ptr<FileLock> held = nullptr);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // A new job, queued, under a fresh random id. Never kept for a retry: a job the file does not
  // hold is not accepted.
  Result<JobId> insert_job(const JobRequest& request, int64_t submitted_ms);
  Status save_partition(JobId id, uint32_t index, const groth16::Proof& proof,
                        std::span<const Fr> public_inputs);
  Status set_running(JobId id);
  // The job's outcome: state done/failed/cancelled, counted in `completions`.
  Status finish_job(JobId id, JobState state, const std::string& error, const JobTimings& timings,
                    uint32_t retries, int64_t finished_ms, int64_t expires_ms);
  Status set_expiry(JobId id, int64_t expires_ms);
  Status remove_job(JobId id);
  // Removes finished jobs whose results expired before `now_ms`; returns how many.
  Result<size_t> remove_expired(int64_t now_ms);

  // Every stored job, oldest first.
  Result<std::vector<StoredJob>> load_all();

  // The write backlog (see above). flush() writes what it can, in order; OK when nothing is left.
  Status flush();
  bool healthy() const;            // nothing held, and the last write succeeded
  std::string last_error() const;  // of the oldest write still held; "" when healthy
  bool pending(JobId id) const;    // a held write of the job's result (a proof or its outcome)
  size_t backlog() const;

  // Drills and tests: while `fail()` returns true every write fails as on a full disk.
  void set_write_fault(std::function<bool()> fail);

 private:
  explicit Journal(sqlite3* db) : db_(db) {}
  Status exec(const std::string& sql);
  // Runs `op` after the backlog, or holds it behind the backlog when the backlog (or `op`) fails.
  // `result`: the write holds part of the job's result (a proof, the outcome): pending() counts it.
  Status write(JobId id, bool result, std::function<Status()> op);
  Status flush_locked();
  Status injected_fault() const;

  struct Held {
    JobId id;
    bool result;
    std::function<Status()> op;
  };
  sqlite3* db_;
  std::shared_ptr<FileLock> lock_;
  mutable std::mutex mutex_;
  std::deque<Held> backlog_;
  std::string backlog_error_;
  bool unwritable_ = false;  // a write failed that is not held (a job refused): probe before trusting
  std::function<bool()> fault_;
};

// A 53-bit random job id, never 0.
JobId random_job_id();

}  // namespace cuzk::engine
