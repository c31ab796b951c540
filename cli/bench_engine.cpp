// `cuzk bench engine`: the proving engine driven the way a storage provider drives it. PoRep C2
// jobs (10 partitions each, or --partitions-per-job P generic jobs) are all submitted at once and
// queue by priority; WinningPoSt jobs (1 partition, critical) arrive one at a time while they run.
// Keys are fake (random points of the synthetic PoRep shape), so the engine is told to accept
// proofs that fail their pairing check (the check still runs and is timed). Reports throughput,
// per-device counters from the engine's events, WinningPoSt latencies and the jobs' stage timings.
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli/backend_select.hpp"
#include "cli/bench_engine_filecoin.hpp"
#include "cli/bench_util.hpp"
#include "cli/commands.hpp"
#include "cli/fake_key.hpp"
#include "cli/host_memory.hpp"
#include "cli/options.hpp"
#include "common/thread_pool.hpp"
#include "engine/devices.hpp"
#include "engine/engine.hpp"
#include "engine/steady_rate.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/circuits/synthetic.hpp"
#if CUZK_HAVE_CUDA
#include "engine/cuda_devices.hpp"
#endif

namespace cuzk::cli {
namespace {

using Clock = std::chrono::steady_clock;
using engine::EngineEvent;
using engine::JobId;

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
  bool verbose = false;
  std::string json_path;
};

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// What the engine's observer saw. Events arrive on engine threads.
struct Observed {
  struct DeviceCounters {
    uint64_t porep = 0, winning = 0;    // partitions proved
    double porep_s = 0, winning_s = 0;  // summed `proving` -> `partition_done`
    std::map<int, uint64_t> per_worker;
  };
  // One device worker: its proofs of either kind, and the time it waited between them (from one
  // proof's end to its next proof's start: what the pipeline left it idle).
  struct WorkerCounters {
    uint64_t proofs = 0;
    std::vector<std::pair<Clock::time_point, Clock::time_point>> porep;  // each PoRep proof's start, end
    double idle_s = 0;
    std::optional<Clock::time_point> last_done;
  };
  struct Attempt {
    int device = -1, worker = -1;
    Clock::time_point start;
  };

  std::mutex mu;
  std::condition_variable cv;
  std::map<std::pair<JobId, int>, Attempt> proving;
  std::map<int, DeviceCounters> devices;
  std::map<std::pair<int, int>, WorkerCounters> workers;  // by (device, worker)
  uint64_t porep_partitions = 0, winning_partitions = 0;
  uint64_t porep_closed = 0, winning_closed = 0;
  uint64_t retries = 0, failures = 0;
  std::vector<std::string> retry_details, failure_details;
  std::map<JobId, Clock::time_point> porep_finished;

  static bool is_winning(const EngineEvent& e) { return e.priority == engine::Priority::critical; }

  void on_event(const EngineEvent& e) {
    const auto now = Clock::now();
    std::lock_guard lock(mu);
    switch (e.type) {
      case EngineEvent::Type::proving: {
        proving[{e.job, e.partition}] = {e.device, e.worker, now};
        auto& w = workers[{e.device, e.worker}];
        if (w.last_done) w.idle_s += seconds_between(*w.last_done, now);
        break;
      }
      case EngineEvent::Type::partition_done: {
        auto it = proving.find({e.job, e.partition});
        if (it != proving.end()) {
          auto& d = devices[it->second.device];
          const double s = seconds_between(it->second.start, now);
          auto& w = workers[{it->second.device, it->second.worker}];
          ++w.proofs;
          w.last_done = now;
          if (!is_winning(e)) w.porep.emplace_back(it->second.start, now);
          if (is_winning(e)) {
            ++d.winning;
            d.winning_s += s;
          } else {
            ++d.porep;
            d.porep_s += s;
            ++d.per_worker[it->second.worker];
          }
          proving.erase(it);
        }
        ++(is_winning(e) ? winning_partitions : porep_partitions);
        break;
      }
      case EngineEvent::Type::partition_retry:
        if (auto it = proving.find({e.job, e.partition}); it != proving.end())
          workers[{it->second.device, it->second.worker}].last_done = now;
        proving.erase({e.job, e.partition});
        ++retries;
        retry_details.push_back("job " + std::to_string(e.job) + " partition " + std::to_string(e.partition) +
                                " device " + std::to_string(e.device) + ": " + e.detail);
        break;
      case EngineEvent::Type::job_failed:
      case EngineEvent::Type::job_cancelled:
        ++failures;
        failure_details.push_back("job " + std::to_string(e.job) + " " + engine::to_string(e.type) + ": " +
                                  e.detail);
        [[fallthrough]];
      case EngineEvent::Type::job_done:
        if (is_winning(e)) {
          ++winning_closed;
        } else {
          ++porep_closed;
          porep_finished[e.job] = now;
        }
        break;
      case EngineEvent::Type::device_quarantined:
        failure_details.push_back("device " + std::to_string(e.device) + " quarantined: " + e.detail);
        break;
      default:
        break;
    }
    cv.notify_all();
  }
};

struct KeyInfo {
  std::shared_ptr<const groth16::ProvingKey> key;
  size_t constraints = 0;
  double seconds = 0;
};

uint64_t key_host_bytes(const groth16::ProvingKey& k) {
  return (k.h.size() + k.l.size() + k.a.size() + k.b_g1.size() + k.vk.ic.size()) * sizeof(G1Affine) +
         k.b_g2.size() * sizeof(G2Affine);
}

r1cs::SampleSpec synthetic_spec(unsigned log_domain, uint64_t seed) {
  r1cs::SampleSpec s;
  s.kind = "synthetic";
  s.log_domain = log_domain;
  s.seed = seed;
  return s;
}

// A fake key of the synthetic circuit `spec` (its shape depends on the seed: every partition
// proved under it uses the same spec).
Result<KeyInfo> make_key(const r1cs::SampleSpec& spec, unsigned threads, ThreadPool& pool) {
  const auto start = Clock::now();
  auto circuit = r1cs::make_sample_circuit(spec);
  if (!circuit) return circuit.error();
  const auto* synthetic = dynamic_cast<const r1cs::SyntheticCircuit*>(circuit->get());
  if (!synthetic) return make_error("not a synthetic circuit");
  auto as = synthetic->synthesize_assignment(threads);
  if (!as) return as.error();
  KeyInfo info;
  info.constraints = as->a.size();
  info.key = std::make_shared<const groth16::ProvingKey>(fake_key(*as, pool));
  info.seconds = seconds_between(start, Clock::now());
  return info;
}

struct DeviceChoice {
  std::string backend;  // "cpu" or "cuda"
  engine::DeviceSet set;
};

Result<DeviceChoice> choose_devices(const EngineBenchArgs& args, uint64_t vram_budget) {
#if CUZK_HAVE_CUDA
  if (args.backend != "cpu") {
    engine::CudaDeviceOptions o;
    for (uint32_t i = 0; i < args.gpus; ++i) o.indices.push_back(i);
    o.vram_budget = vram_budget;
    o.workers = args.workers_per_gpu;
    o.shared_bases_fraction = args.shared_bases_fraction;
    o.express_workers = args.express_workers_per_gpu;
    o.blocking_sync = args.blocking_sync;
    o.resident_fraction = args.resident_fraction;
    o.resident_pass_points = args.msm_pass_log ? size_t(1) << args.msm_pass_log : 0;
    o.window_bucket_cost = args.msm_bucket_cost;
    o.msm_set_passes = !args.msm_point_passes;
    o.msm_narrow_windows = !args.msm_uniform_windows;
    o.lead_worker = args.lead_worker;
    auto set = engine::cuda_devices(o);
    if (set) return DeviceChoice{"cuda", std::move(*set)};
    if (args.backend == "cuda") return set.error();
    std::fprintf(stderr, "  no CUDA device (%s): benchmarking the CPU backend\n", set.message().c_str());
  }
#else
  if (args.backend == "cuda")
    return make_error(
        "this build of cuzk has no CUDA backend (built without nvcc or with -DCUZK_WITH_CUDA=OFF)");
#endif
  const uint32_t count = std::max(1u, args.gpus);
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = std::max(1u, hw / (count * args.workers_per_gpu));
  // Logical devices have no memory of their own: without a budget, one that never binds.
  const uint64_t budget = vram_budget ? vram_budget : uint64_t(1) << 40;
  return DeviceChoice{
      "cpu", engine::cpu_devices(count, args.workers_per_gpu, budget, threads, args.express_workers_per_gpu)};
}

// Waits for a job to finish, however long it takes.
Result<engine::JobResult> await_finished(engine::Engine& e, JobId id) {
  for (;;) {
    auto r = e.await(id, std::chrono::minutes(10));
    if (!r || engine::is_terminal(r->state)) return r;
  }
}

// Seconds with three decimals, for a summary line.
std::string fmt_s(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

int bench_engine(const EngineBenchArgs& args) {
  if (args.jobs == 0) return fail("--jobs must be at least 1");
  if (args.workers_per_gpu == 0) return fail("--workers-per-gpu must be at least 1");
  if (args.synthesis_workers == 0) return fail("--synthesis-workers must be at least 1");
  auto vram_budget = parse_bytes(args.vram_budget);
  if (!vram_budget) return fail("--vram-budget: " + vram_budget.message());
  auto host_budget = parse_bytes(args.host_budget);
  if (!host_budget) return fail("--host-budget: " + host_budget.message());

  if (!args.json_path.empty() && args.json_path != "-" && !std::ofstream(args.json_path))
    return fail("cannot write " + args.json_path);

  auto devices = choose_devices(args, *vram_budget);
  if (!devices) return fail(devices.message());
  const std::string backend = devices->backend;
  const std::vector<engine::DeviceDescriptor> descs = devices->set.devices;
  // 0 leaves each synthesis's threads to the engine; the keys are made with every thread.
  const unsigned synthesis_threads = args.synthesis_threads;
  const unsigned key_threads = synthesis_threads
                                   ? synthesis_threads
                                   : engine::auto_synthesis_threads(std::thread::hardware_concurrency(), 1);

  const auto porep_spec = synthetic_spec(args.log_domain, args.seed);
  const auto winning_spec = synthetic_spec(args.winning_log_domain, args.seed + 1);
  Result<KeyInfo> porep_key = make_error(""), winning_key = make_error("");
  // --filecoin: the real PoRep (or other) circuit and the real WinningPoSt circuit of its size.
  std::optional<EngineBenchCircuit> filecoin_porep, filecoin_winning;
  if (!args.filecoin.empty()) {
    ThreadPool pool(0);
    auto winning_id = winning_circuit_for(args.filecoin);
    if (!winning_id) return fail(winning_id.message());
    std::fprintf(stderr,
                 "  %s and %s: virtual sectors, one synthesis each and fake keys of their shape ...\n",
                 args.filecoin.c_str(), winning_id->c_str());
    auto p = filecoin_engine_circuit(args.filecoin, args.seed, key_threads, pool);
    if (!p) return fail(p.message());
    auto w = filecoin_engine_circuit(*winning_id, args.seed + 1, key_threads, pool);
    if (!w) return fail(w.message());
    porep_key = KeyInfo{p->key, p->constraints, p->key_s};
    winning_key = KeyInfo{w->key, w->constraints, w->key_s};
    filecoin_porep = std::move(*p), filecoin_winning = std::move(*w);
  } else {
    ThreadPool pool(0);
    std::fprintf(stderr, "  making fake keys (2^%u, 2^%u) ...\n", args.log_domain, args.winning_log_domain);
    // About 94 bytes of key per domain row (12.6 GB measured at 2^27), made on the CPU.
    if (backend == "cpu" && args.log_domain >= 24)
      std::fprintf(
          stderr,
          "  note: the 2^%u key takes about %.1f GiB of host memory and minutes to make, and the cpu "
          "backend proves it slowly; --log-domain 16 measures the engine's plumbing in seconds\n",
          args.log_domain, 94.0 * std::ldexp(1.0, int(args.log_domain)) / double(uint64_t(1) << 30));
    porep_key = make_key(porep_spec, key_threads, pool);
    if (!porep_key) return fail("porep key: " + porep_key.message());
    winning_key = make_key(winning_spec, key_threads, pool);
    if (!winning_key) return fail("winning key: " + winning_key.message());
  }
  // The keys, and the inputs the jobs share, stay outside the engine's host budget.
  const uint64_t key_bytes = key_host_bytes(*porep_key->key) + key_host_bytes(*winning_key->key) +
                             (filecoin_porep ? filecoin_porep->held_bytes + filecoin_winning->held_bytes : 0);
  std::fprintf(
      stderr,
      "  keys ready in %.1f s (%s in memory with the jobs' inputs, outside the engine's host budget)\n",
      porep_key->seconds + winning_key->seconds, gib(key_bytes).c_str());
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    // The engine's own default (3/4 of RAM) assumes the keys are inside its budget; here they are
    // not, so by default the budget is what the keys leave, less a tenth.
    const uint64_t ram = uint64_t(pages) * uint64_t(page_size);
    const uint64_t left = ram > key_bytes ? (ram - key_bytes) / 10 * 9 : 0;
    if (!*host_budget) {
      *host_budget = std::min(ram / 4 * 3, left);
      std::fprintf(stderr, "  engine host budget %s (RAM %s less the keys)\n", gib(*host_budget).c_str(),
                   gib(ram).c_str());
    } else if (key_bytes + *host_budget > ram) {
      std::fprintf(stderr,
                   "  warning: the keys (%s) and the engine's host budget (%s) exceed the RAM (%s); "
                   "consider --host-budget %lluG\n",
                   gib(key_bytes).c_str(), gib(*host_budget).c_str(), gib(ram).c_str(),
                   (unsigned long long)(left >> 30));
    }
  }

  const bool porep_kind = args.partitions_per_job == 0;
  const unsigned partitions_per_job = porep_kind ? 10 : args.partitions_per_job;
  const uint64_t total_partitions = uint64_t(args.jobs) * partitions_per_job;

  auto observed = std::make_shared<Observed>();
  engine::EngineConfig config;
  config.devices = std::move(devices->set);
  config.host_memory_budget = *host_budget;
  config.synthesis_workers = args.synthesis_workers;
  config.synthesis_threads = synthesis_threads;
  config.synthesis_nice = args.synthesis_nice;
  config.max_partitions_ahead = args.partitions_ahead;
  config.release_inputs_early = args.release_inputs_early;
  config.express_synthesis_workers = args.express_synthesis_workers;
  config.keys["porep"] = porep_key->key;
  config.keys["winning"] = winning_key->key;
  config.ignore_verify_for_benchmarks = true;  // fake keys: proofs cannot verify
  config.logger = engine::make_stderr_logger("cuzk-bench");
  config.logger->set_level(args.verbose ? spdlog::level::info : spdlog::level::warn);
  config.observer = [observed](const EngineEvent& e) { observed->on_event(e); };
  auto created = engine::Engine::create(std::move(config));
  if (!created) return fail("engine: " + created.message());
  engine::Engine& eng = **created;

  std::fprintf(stderr, "  %u %s job(s) of %u partitions on %zu %s device(s) x %u worker(s); %u WinningPoSt\n",
               args.jobs, porep_kind ? "PoRep C2" : "generic", partitions_per_job, descs.size(),
               backend.c_str(), args.workers_per_gpu, args.winning);

  // With --presynthesized, one partition of each circuit is synthesized now and every job carries
  // it as an already-synthesized input (the engine copies it per partition): the run then measures
  // the devices rather than the host's synthesis.
  engine::PartitionInput porep_input =
      filecoin_porep ? filecoin_porep->input : engine::SampleInput{porep_spec, args.c_from_ab};
  engine::PartitionInput winning_input =
      filecoin_winning ? filecoin_winning->input : engine::SampleInput{winning_spec, args.c_from_ab};
  if (args.presynthesized) {
    const auto ts = Clock::now();
    auto p = eng.synthesize("porep", porep_input);
    if (!p) return fail("synthesize: " + p.message());
    auto w = eng.synthesize("winning", winning_input);
    if (!w) return fail("synthesize: " + w.message());
    porep_input =
        engine::SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(p->assignment))};
    winning_input =
        engine::SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(w->assignment))};
    std::fprintf(stderr, "  partitions synthesized in advance in %.1f s\n",
                 seconds_between(ts, Clock::now()));
  }

  // All PoRep jobs at once.
  const auto t0 = Clock::now();
  std::vector<JobId> porep_ids;
  for (unsigned j = 0; j < args.jobs; ++j) {
    engine::JobRequest r;
    r.kind = porep_kind ? engine::JobKind::porep_c2 : engine::JobKind::generic;
    r.params = "porep";
    r.partitions.assign(porep_kind ? 1 : partitions_per_job, porep_input);
    r.client = "bench";
    auto id = eng.submit(std::move(r));
    if (!id) return fail("submit: " + id.message());
    porep_ids.push_back(*id);
  }

  // WinningPoSt: the first once a PoRep partition is done, each next after the previous.
  std::vector<double> winning_ms;
  if (args.winning > 0) {
    std::unique_lock lock(observed->mu);
    observed->cv.wait(lock,
                      [&] { return observed->porep_partitions > 0 || observed->porep_closed >= args.jobs; });
  }
  for (unsigned w = 0; w < args.winning; ++w) {
    engine::JobRequest r;
    r.kind = engine::JobKind::winning_post;
    r.params = "winning";
    r.partitions = {winning_input};
    r.client = "bench";
    auto id = eng.submit(std::move(r));
    if (!id) return fail("submit WinningPoSt: " + id.message());
    auto result = await_finished(eng, *id);
    if (!result) return fail("await WinningPoSt: " + result.message());
    if (result->state == engine::JobState::done) winning_ms.push_back(result->timings.total_ms);
  }

  engine::JobTimings porep_timings;
  uint32_t porep_done = 0, porep_partitions_proved = 0;
  for (JobId id : porep_ids) {
    auto result = await_finished(eng, id);
    if (!result) return fail("await: " + result.message());
    if (result->state == engine::JobState::done) ++porep_done;
    porep_partitions_proved += result->partitions_proved;
    const auto& t = result->timings;
    porep_timings.queue_wait_ms += t.queue_wait_ms;
    porep_timings.param_load_ms += t.param_load_ms;
    porep_timings.synthesis_ms += t.synthesis_ms;
    porep_timings.gpu_ms += t.gpu_ms;
    porep_timings.verify_ms += t.verify_ms;
    porep_timings.total_ms += t.total_ms;
  }
  const auto t_awaited = Clock::now();
  const engine::EngineStatus status = eng.status();

  // A job's waiters wake before its last events reach the observer (partition_done, then the
  // job's own): wait for those, so that the counters are complete.
  std::unique_lock lock(observed->mu);
  observed->cv.wait_for(lock, std::chrono::seconds(30), [&] {
    return observed->porep_closed >= args.jobs && observed->winning_closed >= args.winning;
  });
  std::vector<Clock::time_point> finished;
  for (JobId id : porep_ids)
    finished.push_back(observed->porep_finished.count(id) ? observed->porep_finished[id] : t_awaited);
  std::sort(finished.begin(), finished.end());
  const double wall_s = seconds_between(t0, finished.back());
  const double per_job_s = wall_s / args.jobs;
  const double steady_s =
      args.jobs >= 2 ? seconds_between(finished.front(), finished.back()) / (args.jobs - 1) : 0;
  // The same without the last interval: the last job ends with nothing queued behind it, so its
  // last proofs have the device to themselves and run faster than in a stream that goes on.
  const double loaded_s =
      args.jobs >= 3 ? seconds_between(finished.front(), finished[finished.size() - 2]) / (args.jobs - 2) : 0;
  const double partitions_per_min = wall_s > 0 ? double(porep_partitions_proved) * 60 / wall_s : 0;
  // The steady rate (engine/steady_rate.hpp): each proof counted for its share of time between the
  // first job's end and the last proof's start. Unlike job ends, it does not swing with which
  // worker proved a job's last partitions.
  std::vector<engine::ProofSpan> spans;
  for (const auto& [key, w] : observed->workers)
    for (const auto& [start, end] : w.porep)
      spans.push_back({seconds_between(t0, start), seconds_between(t0, end)});
  // 0: no steady window (fewer than two jobs, or every proof had started by the first job's end).
  double steady_rate = 0, steady_window_s = 0;
  if (args.jobs >= 2)
    if (const auto w = engine::steady_window(spans, seconds_between(t0, finished.front())))
      if (const auto r = engine::steady_seconds_per_proof(spans, w->from, w->to)) {
        steady_rate = *r;
        steady_window_s = w->to - w->from;
      }

  // ---------------------------------------------------------------- report
  std::string device_list;
  std::vector<uint32_t> device_indices;
  for (const auto& d : descs) {
    device_list += (device_list.empty() ? "" : ",") + std::to_string(d.index);
    device_indices.push_back(d.index);
  }
  const auto domain_log = [](const groth16::ProvingKey& k) {
    unsigned l = 0;
    while ((uint64_t(1) << l) < k.domain_size) ++l;
    return l;
  };
  std::printf("%-16s %s\n", "backend", backend.c_str());
  std::printf("%-16s %s (%u worker(s) each, budget %s each)\n", "devices", device_list.c_str(),
              args.workers_per_gpu, descs.empty() ? "-" : gib(descs[0].memory_budget).c_str());
  const std::string porep_circuit =
      filecoin_porep ? filecoin_porep->name : "synthetic 2^" + std::to_string(args.log_domain);
  const std::string winning_circuit =
      filecoin_winning ? filecoin_winning->name : "synthetic 2^" + std::to_string(args.winning_log_domain);
  std::printf("%-16s %s: %zu constraints, domain 2^%u\n", "porep circuit", porep_circuit.c_str(),
              porep_key->constraints, domain_log(*porep_key->key));
  if (filecoin_porep) std::printf("%-16s %s\n", "partitions", filecoin_porep->synthesis.c_str());
  std::printf("%-16s %s\n", "peak host RSS", gib(peak_rss_bytes()).c_str());
  std::printf("%-16s %u x %u partitions (%s), %u proved\n", "jobs", args.jobs, partitions_per_job,
              porep_kind ? "porep_c2" : "generic", porep_partitions_proved);
  std::printf("%-16s %.3f s\n", "wall", wall_s);
  std::printf("%-16s %.2f partitions/min\n", "throughput", partitions_per_min);
  std::printf("%-16s %.3f s", "s per job", per_job_s);
  if (args.jobs >= 2) std::printf(" (steady state: %.3f s", steady_s);
  if (args.jobs >= 3) std::printf("; each with a job behind it: %.3f s", loaded_s);
  if (args.jobs >= 2) std::printf(")");
  std::printf("\n");
  if (steady_rate > 0)
    std::printf("%-16s %.3f s a partition, %.3f s per job (over %.1f s from the first job's end)\n",
                "steady rate", steady_rate, steady_rate * partitions_per_job, steady_window_s);
  std::printf("%-16s queue %.1f s, params %.1f s, synthesis %.1f s, gpu %.1f s, verify %.1f s (summed)\n",
              "porep stages", porep_timings.queue_wait_ms / 1e3, porep_timings.param_load_ms / 1e3,
              porep_timings.synthesis_ms / 1e3, porep_timings.gpu_ms / 1e3, porep_timings.verify_ms / 1e3);
  std::printf("%-16s %llu made, %llu idle (%.1f GiB)\n", "buffer sets",
              (unsigned long long)status.buffer_sets_made, (unsigned long long)status.buffer_sets_idle,
              double(status.buffer_idle_bytes) / double(1ull << 30));
  std::printf("%-16s %llu\n", "retries", (unsigned long long)observed->retries);
  for (const auto& r : observed->retry_details) std::printf("  retry: %s\n", r.c_str());
  std::printf("%-16s %llu\n", "failures", (unsigned long long)observed->failures);
  for (const auto& f : observed->failure_details) std::printf("  failure: %s\n", f.c_str());
  if (args.winning > 0) {
    std::printf("%-16s %s, %zu of %u done; ms:", "winningpost", winning_circuit.c_str(), winning_ms.size(),
                args.winning);
    for (double ms : winning_ms) std::printf(" %.1f", ms);
    if (!winning_ms.empty())
      std::printf(" (min %.1f, median %.1f, max %.1f)",
                  *std::min_element(winning_ms.begin(), winning_ms.end()), median_of(winning_ms),
                  *std::max_element(winning_ms.begin(), winning_ms.end()));
    std::printf("\n");
  }
  std::printf("\n%-8s %10s %14s %8s %10s  %s\n", "device", "partitions", "mean prove s", "winning", "busy s",
              "per worker");
  nlohmann::json per_device = nlohmann::json::array();
  uint64_t counted = 0;
  for (const auto& d : descs) {
    const auto& c = observed->devices[int(d.index)];
    counted += c.porep;
    double busy_s = 0;
    engine::SharedBasesStatus shared;
    for (const auto& s : status.devices)
      if (s.index == d.index) busy_s = s.busy_seconds, shared = s.shared_bases;
    const double mean_s = c.porep ? c.porep_s / double(c.porep) : 0;
    std::string workers;
    nlohmann::json per_worker = nlohmann::json::object();
    for (const auto& [w, n] : c.per_worker) {
      workers += (workers.empty() ? "" : " ") + std::to_string(w) + ":" + std::to_string(n);
      per_worker[std::to_string(w)] = n;
    }
    std::printf("%-8u %10llu %14.3f %8llu %10.2f  %s\n", d.index, (unsigned long long)c.porep, mean_s,
                (unsigned long long)c.winning, busy_s, workers.c_str());
    nlohmann::json worker_detail = nlohmann::json::array();
    for (const auto& [key, w] : observed->workers) {
      if (key.first != int(d.index)) continue;
      std::vector<double> porep_s;
      for (const auto& [start, end] : w.porep) porep_s.push_back(seconds_between(start, end));
      const double median = porep_s.empty() ? 0.0 : median_of(porep_s);
      const std::string porep =
          porep_s.empty() ? "no PoRep" : std::to_string(porep_s.size()) + " PoRep, median " + fmt_s(median);
      std::printf("         worker %d: %llu proofs (%s), idle between proofs %.2f s\n", key.second,
                  (unsigned long long)w.proofs, porep.c_str(), w.idle_s);
      worker_detail.push_back({{"worker", key.second},
                               {"proofs", w.proofs},
                               {"porep_proofs", porep_s.size()},
                               {"porep_median_s", median},
                               {"idle_s", w.idle_s}});
    }
    per_device.push_back({{"device", d.index},
                          {"memory_budget", d.memory_budget},
                          {"workers", d.workers},
                          {"partitions", c.porep},
                          {"mean_proving_s", mean_s},
                          {"partitions_per_worker", per_worker},
                          {"winning_partitions", c.winning},
                          {"winning_mean_proving_s", c.winning ? c.winning_s / double(c.winning) : 0.0},
                          {"busy_s", busy_s},
                          {"workers_detail", worker_detail},
                          {"shared_bases",
                           {{"capacity", shared.capacity},
                            {"bytes", shared.bytes},
                            {"arrays", shared.arrays},
                            {"uploads", shared.uploads}}}});
    if (shared.capacity)
      std::printf("         shared bases: %s of %s held, %llu arrays, %llu uploads\n",
                  gib(shared.bytes).c_str(), gib(shared.capacity).c_str(), (unsigned long long)shared.arrays,
                  (unsigned long long)shared.uploads);
  }

  nlohmann::json winning = {{"jobs", args.winning},
                            {"circuit", winning_circuit},
                            {"log_domain", args.winning_log_domain},
                            {"constraints", winning_key->constraints},
                            {"domain", winning_key->key->domain_size},
                            {"latencies_ms", winning_ms}};
  if (!winning_ms.empty()) {
    winning["min_ms"] = *std::min_element(winning_ms.begin(), winning_ms.end());
    winning["median_ms"] = median_of(winning_ms);
    winning["max_ms"] = *std::max_element(winning_ms.begin(), winning_ms.end());
  }
  nlohmann::json result = {
      {"bench", "engine"},
      {"backend", backend},
      {"devices", descs.size()},
      {"device_indices", device_indices},
      {"workers_per_device", args.workers_per_gpu},
      {"vram_budget", *vram_budget},
      {"host_budget", *host_budget},
      {"synthesis_workers", args.synthesis_workers},
      {"synthesis_threads", synthesis_threads},
      {"synthesis_nice", args.synthesis_nice},
      {"partitions_ahead", args.partitions_ahead},
      {"release_inputs_early", args.release_inputs_early},
      {"express_synthesis_workers", args.express_synthesis_workers},
      {"express_workers_per_device", args.express_workers_per_gpu},
      {"blocking_sync", args.blocking_sync},
      {"shared_bases_fraction", args.shared_bases_fraction},
      {"resident_fraction", args.resident_fraction},
      {"msm_pass_log", args.msm_pass_log},
      {"msm_bucket_cost", args.msm_bucket_cost},
      {"msm_point_passes", args.msm_point_passes},
      {"msm_uniform_windows", args.msm_uniform_windows},
      {"lead_worker", args.lead_worker},
      {"presynthesized", args.presynthesized},
      {"c_from_ab", args.c_from_ab},
      {"log_domain", args.log_domain},
      {"circuit", porep_circuit},
      {"filecoin_synthesis",
       filecoin_porep ? nlohmann::json(filecoin_porep->synthesis) : nlohmann::json(nullptr)},
      {"fake_keys", true},
      {"peak_rss_bytes", peak_rss_bytes()},
      {"constraints", porep_key->constraints},
      {"domain", porep_key->key->domain_size},
      {"key_host_bytes", key_bytes},
      {"job_kind", porep_kind ? "porep_c2" : "generic"},
      {"jobs", args.jobs},
      {"jobs_done", porep_done},
      {"partitions_per_job", partitions_per_job},
      {"partitions", total_partitions},
      {"partitions_proved", porep_partitions_proved},
      {"partitions_counted_by_device", counted},
      {"wall_s", wall_s},
      {"partitions_per_minute", partitions_per_min},
      {"seconds_per_job", per_job_s},
      {"steady_seconds_per_job", args.jobs >= 2 ? nlohmann::json(steady_s) : nlohmann::json(nullptr)},
      {"loaded_seconds_per_job", args.jobs >= 3 ? nlohmann::json(loaded_s) : nlohmann::json(nullptr)},
      {"steady_seconds_per_partition",
       steady_rate > 0 ? nlohmann::json(steady_rate) : nlohmann::json(nullptr)},
      {"steady_rate_seconds_per_job",
       steady_rate > 0 ? nlohmann::json(steady_rate * partitions_per_job) : nlohmann::json(nullptr)},
      {"per_device", per_device},
      {"buffer_sets",
       {{"made", status.buffer_sets_made},
        {"idle", status.buffer_sets_idle},
        {"idle_bytes", status.buffer_idle_bytes}}},
      {"retries", observed->retries},
      {"retry_details", observed->retry_details},
      {"failures", observed->failures},
      {"failure_details", observed->failure_details},
      {"winning_post", winning},
      {"key_setup_s", porep_key->seconds + winning_key->seconds},
      {"machine", {{"threads", std::thread::hardware_concurrency()}}}};
  for (const auto& [stage, ms] : porep_timings.named()) result["porep_timings_ms"][stage] = ms;
  if (int rc = write_json(args.json_path, result); rc != 0) return rc;
  if (observed->failures > 0 || porep_done != args.jobs || winning_ms.size() != args.winning)
    return fail(std::to_string(observed->failures) + " job(s) failed (see the failures above)");
  return 0;
}

}  // namespace

void add_bench_engine(CLI::App* bench, int& status) {
  auto args = std::make_shared<EngineBenchArgs>();
  auto* cmd = bench->add_subcommand(
      "engine",
      "The proving engine under a storage provider's load: PoRep C2 jobs and WinningPoSt (fake keys)");
  cmd->add_option("--backend", args->backend, "cpu, cuda or auto (cuda when a device is found)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--gpus", args->gpus, "Devices 0..N-1 (0: all; cpu: logical devices, 0 means 1)")
      ->capture_default_str();
  cmd->add_option("--workers-per-gpu", args->workers_per_gpu, "Workers per device")->capture_default_str();
  cmd->add_option("--vram-budget", args->vram_budget,
                  "Memory budget per device (e.g. 16G; cuda default: free less 1G)");
  cmd->add_option("--log-domain", args->log_domain,
                  "PoRep partitions: synthetic shape of 2^K (constraints 0.97*2^K)")
      ->check(CLI::Range(6, 28))
      ->capture_default_str();
  cmd->add_option("--filecoin", args->filecoin,
                  "Real circuits from virtual sectors instead of synthetic ones: this one (e.g. porep-32g) "
                  "for the jobs and WinningPoSt of its sector size (fake keys of their shapes)");
  cmd->add_option("--jobs", args->jobs, "PoRep C2 jobs, submitted at once")->capture_default_str();
  cmd->add_option("--partitions-per-job", args->partitions_per_job,
                  "Generic jobs of P partitions instead of PoRep C2 (10); 0: PoRep C2")
      ->capture_default_str();
  cmd->add_option("--winning", args->winning, "WinningPoSt jobs, one at a time while the PoRep jobs run")
      ->capture_default_str();
  cmd->add_option("--winning-log-domain", args->winning_log_domain, "WinningPoSt partition: synthetic 2^K2")
      ->check(CLI::Range(6, 28))
      ->capture_default_str();
  cmd->add_option("--synthesis-workers", args->synthesis_workers, "Partitions synthesized at once")
      ->capture_default_str();
  cmd->add_option(
         "--synthesis-threads", args->synthesis_threads,
         "Threads per synthesis (0: the hardware threads, shared by the syntheses running at its start)")
      ->capture_default_str();
  cmd->add_option(
         "--synthesis-nice", args->synthesis_nice,
         "Nice increment of the synthesis threads (0: none), so they yield cores to the device workers")
      ->check(CLI::Range(0, 19))
      ->capture_default_str();
  cmd->add_option("--partitions-ahead", args->partitions_ahead,
                  "Partitions synthesized ahead of the devices (0: synthesis + device workers)")
      ->capture_default_str();
  cmd->add_flag("--release-inputs-early", args->release_inputs_early,
                "Hand each partition's buffer set back once the prover has read it, not when its proof ends");
  cmd->add_option(
         "--shared-bases-fraction", args->shared_bases_fraction,
         "cuda, several workers per GPU: share of its budget for one shared copy of the resident bases "
         "(0: each worker keeps its own)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--resident-fraction", args->resident_fraction,
                  "cuda, shared bases: share of a worker's budget its MSM work area may take")
      ->check(CLI::Range(0.1, 1.0))
      ->capture_default_str();
  cmd->add_option("--msm-pass-log", args->msm_pass_log,
                  "cuda: points per pass of resident MSMs, 2^K (0: the backend's default, 2^25)")
      ->check(CLI::Range(0, 30))
      ->capture_default_str();
  cmd->add_option("--msm-bucket-cost", args->msm_bucket_cost,
                  "cuda: weight of the MSM window model's per-bucket costs (below 1: wider windows, fewer "
                  "additions)")
      ->check(CLI::Range(0.01, 100.0))
      ->capture_default_str();
  cmd->add_flag("--msm-point-passes", args->msm_point_passes,
                "cuda: resident MSMs in passes of points (every bucket each pass), not of set groups");
  cmd->add_flag("--msm-uniform-windows", args->msm_uniform_windows,
                "cuda: every MSM window c bits wide (by default the top ones narrow to c − 1 bits where "
                "W·c exceeds 256)");
  cmd->add_flag("--lead-worker", args->lead_worker,
                "cuda: each device's first worker runs its streams at raised priority and the others fill "
                "the SMs it leaves");
  cmd->add_option(
         "--express-workers-per-gpu", args->express_workers_per_gpu,
         "Device workers per device for HIGH and CRITICAL partitions of at most 2^24 (the WinningPoSt jobs)")
      ->capture_default_str();
  cmd->add_option("--express-synthesis-workers", args->express_synthesis_workers,
                  "Synthesis workers kept for HIGH and CRITICAL partitions (the WinningPoSt jobs)")
      ->capture_default_str();
  cmd->add_option("--host-budget", args->host_budget,
                  "Engine host memory budget (e.g. 64G; default: 3/4 of RAM, at most 9/10 of what the fake "
                  "keys leave)");
  cmd->add_option("--seed", args->seed, "Seed of the synthetic circuits")->capture_default_str();
  cmd->add_flag("--blocking-sync", args->blocking_sync,
                "cuda: host threads waiting for a device sleep instead of spinning (frees their cores)");
  cmd->add_flag("--presynthesized", args->presynthesized,
                "Synthesize one partition per circuit before the clock starts and submit it as already "
                "synthesized (measures the devices, not the host's synthesis)");
  cmd->add_flag("--c-from-ab", args->c_from_ab,
                "Synthesis leaves c to the prover, which forms it as a∘b on the device (4 GiB less per "
                "2^27 partition to write and upload; measured slower in the job, kept to compare)");
  cmd->add_flag("--verbose", args->verbose, "The engine's info logs on stderr");
  cmd->add_option("--json", args->json_path, "Write the result as JSON to this file ('-': stdout)");
  cmd->callback([args, &status] {
    try {
      status = bench_engine(*args);
    } catch (const std::exception& e) {
      status = fail(std::string("bench engine: ") + e.what());
    }
  });
}

}  // namespace cuzk::cli
