// `cuzk bench engine` (bench_engine.cpp) and its report (bench_engine_report.cpp): the command's
// arguments, what the engine's events showed (EngineObserver) and what the run measured.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/devices.hpp"
#include "engine/engine.hpp"

namespace cuzk::cli {

using BenchClock = std::chrono::steady_clock;

inline double seconds_between(BenchClock::time_point a, BenchClock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

struct EngineBenchArgs {
  std::string backend = "auto";
  uint32_t gpus = 0;
  uint32_t workers_per_gpu = 1;
  std::string vram_budget, host_budget;
  unsigned log_domain = 27;
  std::string filecoin;  // a Filecoin circuit id (porep-32g): real circuits from virtual sectors
  unsigned jobs = 1;
  unsigned partitions_per_job = 0;  // 0: PoRep C2 jobs (10 partitions)
  unsigned winning = 0;
  unsigned winning_log_domain = 20;
  unsigned synthesis_workers = 2;
  unsigned synthesis_threads = 0;  // 0: the engine's choice (engine::auto_synthesis_threads)
  int synthesis_nice = engine::EngineConfig{}.synthesis_nice;
  unsigned partitions_ahead = 0;
  bool release_inputs_early = false;
  unsigned express_synthesis_workers = 1;
  uint32_t express_workers_per_gpu = 1;
  bool blocking_sync = false;  // cuda: waiting host threads sleep (engine::CudaDeviceOptions::blocking_sync)
  double shared_bases_fraction = 0.6;
  double resident_fraction = 0.6;    // cuda, shared bases: a worker's share its MSM work area may take
  unsigned msm_pass_log = 0;         // cuda: points per pass of resident MSMs, 2^K (0: the backend's)
  double msm_bucket_cost = 1.0;      // cuda: the window model's per-bucket weight
  bool msm_point_passes = false;     // cuda: resident MSMs in passes of points, not of set groups
  bool msm_uniform_windows = false;  // cuda: no narrow top windows (MsmConfig::narrow_windows)
  bool lead_worker = false;          // cuda: each device's first worker at raised stream priority
  uint64_t seed = 1;
  bool presynthesized = false;  // partitions synthesized once, before the clock: isolates the devices
  bool c_from_ab = false;       // the synthetic partitions leave c to the prover (SampleInput::c_from_ab)
  bool host_witness = false;    // PoSt witnesses on the host (EngineConfig::device_witness off)
  bool full_synthesis = false;  // Filecoin partitions fully synthesized (EngineConfig::compiled_circuits off)
  std::string compiled_dir;     // EngineConfig::compiled_dir
  bool verbose = false;
  std::string json_path;
};

// What the engine's observer saw. Events arrive on engine threads.
struct EngineObserver {
  struct DeviceCounters {
    uint64_t porep = 0, winning = 0;    // partitions proved
    double porep_s = 0, winning_s = 0;  // summed `proving` -> `partition_done`
    std::map<int, uint64_t> per_worker;
  };
  // One device worker: its proofs of either kind, and the time it waited between them (from one
  // proof's end to its next proof's start: what the pipeline left it idle).
  struct WorkerCounters {
    uint64_t proofs = 0;
    std::vector<std::pair<BenchClock::time_point, BenchClock::time_point>>
        porep;  // each PoRep proof's start, end
    double idle_s = 0;
    std::optional<BenchClock::time_point> last_done;
  };
  struct Attempt {
    int device = -1, worker = -1;
    BenchClock::time_point start;
  };

  std::mutex mu;
  std::condition_variable cv;
  std::map<std::pair<engine::JobId, int>, Attempt> proving;
  std::map<int, DeviceCounters> devices;
  std::map<std::pair<int, int>, WorkerCounters> workers;  // by (device, worker)
  uint64_t porep_partitions = 0, winning_partitions = 0;
  uint64_t porep_closed = 0, winning_closed = 0;
  uint64_t retries = 0, failures = 0;
  std::vector<std::string> retry_details, failure_details;
  std::map<engine::JobId, BenchClock::time_point> porep_finished;

  static bool is_winning(const engine::EngineEvent& e) { return e.priority == engine::Priority::critical; }
  void on_event(const engine::EngineEvent& e);
};

// What a run measured, beside what the observer saw.
struct EngineBenchRun {
  std::string backend;  // "cpu" or "cuda"
  std::vector<engine::DeviceDescriptor> devices;
  uint64_t vram_budget = 0, host_budget = 0;
  unsigned synthesis_threads = 0;
  struct Circuit {
    std::string name;
    size_t constraints = 0;
    uint64_t domain = 0;
  };
  Circuit porep, winning;
  std::optional<std::string> filecoin_synthesis;  // --filecoin: how each partition is synthesized
  uint64_t key_bytes = 0;                         // keys and shared inputs, outside the host budget
  double key_s = 0;
  // PoRep C2 jobs, all submitted at once; generic ones (--partitions-per-job); or, for a WindowPoSt
  // circuit, WindowPoSt jobs of one partition each, submitted one at a time so that each job's
  // time is its submit-to-proof latency (job_ms).
  engine::JobKind job_kind = engine::JobKind::porep_c2;
  bool one_at_a_time = false;
  unsigned partitions_per_job = 0;
  BenchClock::time_point start, awaited;  // the first submit; every PoRep job awaited
  std::vector<engine::JobId> porep_ids;
  uint32_t porep_done = 0, porep_partitions_proved = 0;
  engine::JobTimings porep_timings;  // summed over the PoRep jobs
  // Wall time from the call to submit (the request's parsing and checks included) to the awaited
  // result: each job's when one_at_a_time, and each WinningPoSt's.
  std::vector<double> job_ms;
  std::vector<double> winning_ms;
  std::vector<engine::JobTimings> winning_timings;  // each WinningPoSt's stages, as the engine timed them
  engine::EngineStatus status;                      // once every PoRep job is awaited
};

// Waits (a while) for the last jobs' events to reach `observed`, prints the table, writes the JSON
// (args.json_path) and returns the command's exit status: non-zero when a job failed.
int report_engine_bench(const EngineBenchArgs& args, const EngineBenchRun& run, EngineObserver& observed);

}  // namespace cuzk::cli
