// The engine's internals, shared by engine.cpp (the API, the journal, resume) and workers.cpp (the
// synthesis and device workers). Not part of the public API.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/compiled_cache.hpp"
#include "engine/engine.hpp"
#include "engine/journal.hpp"
#include "engine/memory_budget.hpp"
#include "engine/param_cache.hpp"
#include "engine/partition_buffers.hpp"
#include "engine/synthesis.hpp"

namespace cuzk::engine {

int64_t unix_ms_now();

struct JobRecord {
  JobId id = 0;
  uint64_t seq = 0;    // submission order (ids are random): the age that orders queues and waiters
  JobRequest request;  // normalized
  Priority priority = Priority::normal;
  JobState state = JobState::queued;
  std::atomic<bool> closed{false};  // terminal: read without the engine lock by abandon predicates
  std::vector<std::optional<groth16::Proof>> proofs;
  std::vector<std::vector<Fr>> public_inputs;
  uint32_t proved = 0, retries = 0;
  bool admitted = false;
  std::string error;
  JobTimings timings;
  int64_t submitted_ms = 0, expires_ms = 0;
  bool fetched = false;
  // The terminal state has gone to the journal (written, or held in its backlog): only then is the
  // result handed out, and only then may a fetch shorten its expiry without the close overwriting it.
  bool recorded = false;

  WaitKey wait_key() const { return {uint8_t(priority), seq}; }
};

// One partition of one job on its way through the pipeline.
struct WorkItem {
  std::shared_ptr<JobRecord> job;
  uint32_t partition = 0;
  uint32_t attempt = 0;
  std::set<uint32_t> failed_on;  // devices whose stage failed for it
  // From admission to the proof check:
  MemoryBudget::Reservation host;
  ParamCache::Lease params;
  std::optional<SynthesizedPartition> synthesized;
};
using WorkPtr = std::unique_ptr<WorkItem>;

// Queue order: priority (highest first), submission (oldest first), partition.
using QueueKey = std::tuple<int, uint64_t, uint32_t>;
inline QueueKey queue_key(const WorkItem& w) { return {-int(w.job->priority), w.job->seq, w.partition}; }

struct DeviceState {
  DeviceDescriptor desc;
  std::unique_ptr<MemoryBudget> budget;
  uint32_t busy = 0;
  uint32_t express_waiting = 0;  // express workers waiting for a partition
  uint64_t proofs_done = 0, failures = 0;
  uint32_t consecutive_failures = 0;
  bool quarantined = false;
  std::string last_error;
  double busy_seconds = 0;
};

struct Engine::Impl {
  explicit Impl(EngineConfig c);
  ~Impl();

  // engine.cpp
  Status start();
  Status resume_from_journal();
  Result<JobId> submit(JobRequest request);
  Result<JobResult> await(JobId id, std::chrono::milliseconds timeout);
  Status cancel(JobId id);
  Status check_owner(JobId id, const std::string& owner) const;
  EngineStatus status();
  void sweep_expired();
  JobResult result_of(const JobRecord& job) const;  // mu_ held
  void emit(EngineEvent ev) const;                  // never with mu_ held

  // workers.cpp
  void synthesis_worker(unsigned n, bool express);
  // `worker` ≥ dev.desc.workers: an express worker (DeviceDescriptor::express_workers).
  void device_worker(DeviceState& dev, uint32_t worker);
  bool synthesize(WorkPtr item, unsigned n);  // true: queued for a device (synthesizing_ moved on)
  bool may_synthesize_locked() const;         // mu_ held: EngineConfig::max_partitions_ahead
  void prove(WorkPtr item, DeviceState& dev, uint32_t worker, ComputeBackend& backend);
  void stage_failed(WorkPtr item, DeviceState& dev, const std::string& error, bool device_fault);
  void partition_done(WorkPtr item, const groth16::Proof& proof);
  // Terminal transitions. Return the items of the job taken out of the queues (drop them without
  // mu_ held). mu_ held.
  std::vector<WorkPtr> close_job_locked(JobRecord& job, JobState state, const std::string& error);
  // Outside mu_: journal, waiters, observer.
  void after_close(const std::shared_ptr<JobRecord>& job);
  void fail_job(const std::shared_ptr<JobRecord>& job, const std::string& error);
  size_t healthy_devices_locked() const;
  void fail_all_without_devices_locked(std::vector<std::shared_ptr<JobRecord>>& closed,
                                       std::vector<WorkPtr>& drop);
  void wake_budgets();
  // A journal write failed (held in its backlog): intake stops, and results are held, until it is
  // written.
  void journal_failed(JobId id, const Status& st);
  // Retries the journal's backlog now and then while it holds writes (its own thread).
  void journal_flusher();
  bool journal_pending(JobId id) const { return journal && journal_failing_ && journal->pending(id); }
  bool abandoned(const JobRecord& job) const { return stopping_.load() || job.closed.load(); }

  // The threads of one synthesis, counted among the running ones while it lives unless it is
  // brief (is_brief_synthesis): the configured number, or auto_synthesis_threads over those
  // running at its start, itself included.
  struct SynthesisThreads {
    std::atomic<unsigned>* running;  // null: not counted
    unsigned count;
    SynthesisThreads(std::atomic<unsigned>* r, unsigned c) : running(r), count(c) {}
    SynthesisThreads(const SynthesisThreads&) = delete;
    SynthesisThreads& operator=(const SynthesisThreads&) = delete;
    ~SynthesisThreads() {
      if (running) running->fetch_sub(1);
    }
  };
  // The most threads one synthesis may get (one running alone), which its admission estimate
  // assumes: a partition's synthesis peak does not decrease as threads are added.
  unsigned max_synthesis_threads() const {
    return config.synthesis_threads ? config.synthesis_threads : hardware_threads;
  }
  SynthesisThreads synthesis_threads(uint64_t rows = UINT64_MAX) {
    const bool brief = is_brief_synthesis(rows);
    const unsigned now = brief ? syntheses_running_.load() + 1 : syntheses_running_.fetch_add(1) + 1;
    return {brief ? nullptr : &syntheses_running_, config.synthesis_threads
                                                       ? config.synthesis_threads
                                                       : auto_synthesis_threads(hardware_threads, now)};
  }

  EngineConfig config;
  Logger log;
  std::unique_ptr<Journal> journal;
  std::unique_ptr<MemoryBudget> host;
  std::vector<std::unique_ptr<DeviceState>> devices;
  std::unique_ptr<ParamCache> params;
  std::unique_ptr<PartitionBufferPool> buffers;  // after params: its idle sets go first under pressure
  std::unique_ptr<CompiledCache> compiled;       // null when config.compiled_circuits is off

  mutable std::mutex mu_;
  std::condition_variable work_cv_;  // queues changed, pause/resume, quarantine lifted, stopping
  std::condition_variable done_cv_;  // a job reached a terminal state
  std::map<JobId, std::shared_ptr<JobRecord>> jobs_;
  std::map<QueueKey, WorkPtr> synth_queue_, device_queue_;
  uint32_t synthesizing_ = 0, proving_ = 0;
  size_t partitions_ahead = 0;  // EngineConfig::max_partitions_ahead resolved
  uint64_t jobs_done_ = 0, jobs_failed_ = 0, jobs_cancelled_ = 0;
  bool paused_ = false;
  uint64_t next_seq_ = 1;                     // JobRecord::seq; mu_ held
  std::atomic<bool> journal_failing_{false};  // the journal holds writes it could not make
  std::atomic<bool> stopping_{false};
  std::atomic<unsigned> syntheses_running_{0};
  const unsigned hardware_threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
