// The proving engine: jobs in, verified proofs out.
//
//   submit ──► journal ──► synthesis queue (priority, then age) ──► [host-RAM reservation]
//          ──► synthesis workers (CPU) ──► device queue ──► device workers, pinned to a device
//          ──► [VRAM reservation for the plan] ──► prove ──► release ──► pairing check ──► result
//
// A partition holds its host reservation from admission until its proof is checked, so the number
// of partitions in flight follows from memory; synthesis of the next partitions overlaps proving
// of the current ones. A device stage that fails (an error, or a proof that does not verify) is
// retried, boundedly, on another device and a smaller plan; a device that keeps failing is
// quarantined. Everything a client may ask is here; the daemon wraps exactly this.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "engine/devices.hpp"
#include "engine/file_lock.hpp"
#include "engine/job.hpp"
#include "engine/log.hpp"
#include "engine/status.hpp"
#include "engine/synthesis.hpp"
#include "groth16/keys.hpp"

namespace cuzk::engine {

// What happened, for observers (metrics, tests). Delivered on engine threads, never with an engine
// lock held; an observer must be thread-safe and quick.
struct EngineEvent {
  enum class Type {
    submitted,
    admitted,         // a partition got its host reservation and goes to synthesis
    synthesized,      // ... and waits for a device
    proving,          // ... a device worker took it
    partition_done,   // ... its proof verified
    partition_retry,  // ... its device stage failed and it goes round again
    job_done,
    job_failed,
    job_cancelled,
    device_quarantined,
  };
  Type type;
  JobId job = 0;
  int partition = -1;
  int device = -1;
  int worker = -1;
  Priority priority = Priority::normal;
  std::string detail;  // the error, for failures
};
const char* to_string(EngineEvent::Type t);

// Threads per synthesis when the configuration leaves it to the engine: the host's hardware threads
// shared by the `running` syntheses (this one included) at its start, at least one. Buffer sets
// and the host budget usually let one PoRep partition be synthesized at a time while the device
// workers prove, and that one then takes every core. On the 2^27 job (one H200, 16 cores) fixed
// counts of 8 and 16 threads do no better, within the run-to-run spread. Synthesis runs niced
// (EngineConfig::synthesis_nice), so the device workers' host steps still get cores when they need
// them.
unsigned auto_synthesis_threads(unsigned hardware_threads, unsigned running);

// A synthesis of fewer rows than 2^22 (a WinningPoSt's 370 K rows: 12–150 ms on 16 cores) is not
// counted among the running ones that share the threads: it takes its share and leaves, while a
// large synthesis that starts beside it would keep half the cores for its whole run (a WindowPoSt
// witness took 2.9 s on 8 threads beside a 12 ms WinningPoSt, against 1.7 s on 16).
bool is_brief_synthesis(uint64_t rows);

// Partitions synthesized ahead of the devices when the configuration leaves it to the engine: one
// waiting for each device worker and one more being made, or every synthesis worker busy where
// there are more of those. The devices are the bound, so each partition beyond that holds a buffer
// set (8.5 GB for a 32 GiB PoRep partition) and gains nothing: on the 32 GiB PoRep job (one H200,
// two device and two synthesis workers) 3 ahead runs at 13.74 s a job and 92.9 GiB of host memory
// against 13.73 s and 100.8 GiB with 4; 2 ahead leaves a WinningPoSt waiting for a device worker.
unsigned auto_partitions_ahead(unsigned synthesis_workers, unsigned device_workers);

struct EngineConfig {
  // SQLite journal; empty: none (queued jobs are lost on restart).
  std::string journal_path;
  bool journal_sync_full = true;  // fsync each commit (survives power loss, not only crashes)
  // The journal's lock when the caller took it already (Journal::open); otherwise the engine does.
  std::shared_ptr<FileLock> journal_lock;

  uint64_t host_memory_budget = 0;  // bytes for partitions and parameter sets; 0: 3/4 of physical RAM
  unsigned synthesis_workers = 2;   // partitions synthesized at once (memory permitting)
  // Threads each synthesis may use; 0: auto_synthesis_threads, from the syntheses running at its start.
  unsigned synthesis_threads = 0;
  // Nice increment of the ordinary synthesis workers' threads (and those they start), 0..19: they
  // yield cores to the device workers' host steps. 0: same priority. Express synthesis is not niced.
  int synthesis_nice = 10;
  // More synthesis workers that take only HIGH and CRITICAL partitions (WindowPoSt, WinningPoSt), so
  // a PoSt never waits for PoRep partitions' synthesis to end: the ordinary workers are all busy
  // for seconds at a time under a PoRep load. Idle otherwise.
  unsigned express_synthesis_workers = 1;
  // Sets of a, b, c and aux buffers of one shape kept for reuse when no partition holds them (pinned
  // when the devices can pin; engine/partition_buffers.hpp). -1: as many as can be in flight;
  // 0: none kept. Idle sets count against the host budget and are dropped first under pressure.
  int idle_buffer_sets = -1;
  // Partitions synthesized (or being synthesized) ahead of the devices: a synthesis worker starts
  // the next partition only while fewer wait for a device, unless it outranks all of them. The
  // devices are the bottleneck, so running further ahead only holds memory (and pins buffers).
  // 0: auto_partitions_ahead.
  unsigned max_partitions_ahead = 0;
  // Hand a partition's pooled buffer set back as soon as its prover has read it for the last time
  // (on a GPU: the H stage done and the witness copied, seconds before the MSMs end) instead of at
  // the end of its proof, so the next synthesis need not wait for the proof. Off by default: on the
  // H200 with two workers it keeps the workers from waiting but leaves the steady rate where it is
  // (the device, not the host, is the bound), and when the two workers' proofs fall into step their
  // H stages meet. It is what a host with slow synthesis would need.
  bool release_inputs_early = false;

  DeviceSet devices;  // devices, their workers' backend factory and the memory planner

  unsigned max_attempts = 3;      // device-stage attempts per partition before the job fails
  unsigned quarantine_after = 3;  // consecutive failures that take a device out of service
  // Filecoin partitions synthesize only their witness; their a, b, c come from the circuit compiled
  // once per proof type (r1cs/compiled, kept by engine/compiled_cache.hpp in `compiled_dir`, empty:
  // "cuzk-compiled" in the parameter directory), formed on the device where the backend can
  // (ComputeBackend::evaluates_compiled_rows). Off: full synthesis on the host.
  bool compiled_circuits = true;
  std::string compiled_dir;
  // With compiled circuits, a FallbackPoSt partition's witness is computed by its prover's device
  // (filecoin/circuits/post_witness.hpp; about 1.5 s of 16 cores for a 32 GiB WindowPoSt, tens of
  // milliseconds on an H200) where the devices can (DeviceSet::fills_witness_on_device); the
  // synthesis worker then only reads the partition's paths. Off: the host synthesizes it.
  bool device_witness = true;

  bool params_on_device = true;  // keep parameter sets resident on devices whose budget allows
  bool trusted_params = false;   // skip subgroup checks when loading parameter files
  // For benchmarks with fake keys only (`cuzk bench engine`), whose proofs cannot verify: the
  // pairing check of each proof still runs (its time counts as in production), but a proof that
  // fails it is accepted. Never settable from cuzkd's configuration; keep it off everywhere else.
  bool ignore_verify_for_benchmarks = false;

  // In-memory parameter sets, by name (available before journaled jobs resume).
  std::map<std::string, std::shared_ptr<const groth16::ProvingKey>> keys;

  std::chrono::seconds result_ttl{24 * 3600};     // unfetched results are kept this long
  std::chrono::seconds fetched_result_grace{60};  // and fetched ones this long (a client may retry)

  bool start_paused = false;  // accept and journal jobs, but dispatch nothing until resume()

  // Drills and tests: while it returns true, every journal write fails as on a full disk.
  std::function<bool()> journal_write_fault;

  Logger logger;  // default: stderr
  std::function<void(const EngineEvent&)> observer;
};

class Engine {
 public:
  // Starts the workers and resumes the journal's unfinished jobs. Fails on a bad configuration
  // (no devices, no factory, a journal that cannot be opened, a key that does not check).
  static Result<std::unique_ptr<Engine>> create(EngineConfig config);
  // Stops the workers; partitions in flight are abandoned (they resume from the journal).
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Validates, journals and queues the job. Errors: a malformed request, an unknown parameter
  // set that is not a file, the journal failing.
  Result<JobId> submit(JobRequest request);
  // Waits up to `timeout` for the job to finish. A timed-out wait returns the job still queued or
  // running. A finished job's result is kept for `fetched_result_grace` after the first fetch.
  Result<JobResult> await(JobId id, std::chrono::milliseconds timeout);
  // Cancels a queued or running job: its waiters wake at once; partitions in flight are dropped
  // at their next stage. Cancelling a finished job is an error.
  Status cancel(JobId id);
  // OK when job `id` exists and belongs to `owner` (JobRequest::owner); otherwise the same error
  // as for a job that does not exist, so that no client learns of another's jobs.
  Status check_owner(JobId id, const std::string& owner) const;

  EngineStatus status() const;

  // Synthesizes one partition under a parameter set on the calling thread, without queueing it:
  // for callers that synthesize in one place and prove in another (submit the result as a
  // SynthesizedInput), and to check an input before submitting it.
  Result<SynthesizedPartition> synthesize(const std::string& params, const PartitionInput& input);

  Status register_params(const std::string& name, std::shared_ptr<const groth16::ProvingKey> key);
  // Loads a parameter file before any job needs it; for a Filecoin file with compiled circuits on,
  // also readies its compiled circuit (in the background) and its partitions' buffer sets.
  Status preload_params(const std::string& name);
  // Makes pooled buffer sets for partitions like `like` under parameter set `params` now, while no
  // proof runs (pinning a set stalls every CUDA call of the process for seconds: a WinningPoSt
  // beside the first PoRep job took 4-6 s while sets were pinned): up to `count`, 0 for as many as
  // the pool keeps idle, as far as the host budget gives without waiting. Returns the idle sets of
  // that shape (0 where such partitions take no pooled set).
  Result<size_t> prepare_buffer_sets(const std::string& params, const PartitionInput& like, size_t count = 0);
  Status evict_params(const std::string& name);

  // Holds dispatch of new partitions (submissions are still accepted), and lets it go.
  void pause();
  void resume();
  // Returns a quarantined device to service.
  Status release_device(uint32_t index);

 private:
  struct Impl;
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::engine
