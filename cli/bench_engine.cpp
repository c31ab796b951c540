// `cuzk bench engine`: the proving engine driven the way a storage provider drives it. PoRep C2
// jobs (10 partitions each, or --partitions-per-job P generic jobs) are all submitted at once and
// queue by priority; with `--filecoin wpost-*` the jobs are WindowPoSt jobs from the sectors'
// vanilla proofs, one at a time, each timed from submit to proof; WinningPoSt jobs (1 partition,
// critical) arrive one at a time while they run.
// Keys are fake (random points of the synthetic PoRep shape), so the engine is told to accept
// proofs that fail their pairing check (the check still runs and is timed). Reports throughput,
// per-device counters from the engine's events, WinningPoSt latencies and the jobs' stage timings.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli/backend_select.hpp"
#include "cli/bench_engine.hpp"
#include "cli/bench_engine_filecoin.hpp"
#include "cli/bench_util.hpp"
#include "cli/commands.hpp"
#include "cli/fake_key.hpp"
#include "cli/options.hpp"
#include "common/thread_pool.hpp"
#include "engine/device_set.hpp"
#include "engine/devices.hpp"
#include "engine/engine.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/circuits/synthetic.hpp"

namespace cuzk::cli {
namespace {

using Clock = BenchClock;
using engine::EngineEvent;
using engine::JobId;

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

Result<engine::ChosenDevices> choose_devices(const EngineBenchArgs& args, uint64_t vram_budget) {
  engine::DeviceSetOptions o;
  o.backend = args.backend;
  for (uint32_t i = 0; i < args.gpus; ++i) o.cuda.indices.push_back(i);
  o.cuda.vram_budget = vram_budget;
  o.cuda.workers = args.workers_per_gpu;
  o.cuda.shared_bases_fraction = args.shared_bases_fraction;
  o.cuda.express_workers = args.express_workers_per_gpu;
  o.cuda.blocking_sync = args.blocking_sync;
  o.cuda.resident_fraction = args.resident_fraction;
  o.cuda.resident_pass_points = args.msm_pass_log ? size_t(1) << args.msm_pass_log : 0;
  o.cuda.window_bucket_cost = args.msm_bucket_cost;
  o.cuda.msm_set_passes = !args.msm_point_passes;
  o.cuda.msm_narrow_windows = !args.msm_uniform_windows;
  o.cuda.lead_worker = args.lead_worker;
  // CPU logical devices have no memory of their own: without a budget, one that never binds.
  const uint32_t count = std::max(1u, args.gpus);
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  o.cpu.threads_per_worker = std::max(1u, hw / (count * args.workers_per_gpu));
  o.cpu.devices =
      engine::logical_devices(count, args.workers_per_gpu, vram_budget ? vram_budget : uint64_t(1) << 40,
                              args.express_workers_per_gpu);
  auto chosen = engine::make_device_set(o);
  if (chosen && !chosen->fallback_reason.empty())
    std::fprintf(stderr, "  no CUDA device (%s): benchmarking the CPU backend\n",
                 chosen->fallback_reason.c_str());
  return chosen;
}

// Waits for a job to finish, however long it takes.
Result<engine::JobResult> await_finished(engine::Engine& e, JobId id) {
  for (;;) {
    auto r = e.await(id, std::chrono::minutes(10));
    if (!r || engine::is_terminal(r->state)) return r;
  }
}

// The keys of both circuits: fake keys of the synthetic shapes, or with --filecoin of the real
// circuits (whose inputs the jobs then carry).
struct BenchKeys {
  KeyInfo porep, winning;
  std::optional<EngineBenchCircuit> filecoin_porep, filecoin_winning;
  // The keys and the inputs the jobs share: outside the engine's host budget.
  uint64_t held_bytes() const {
    return key_host_bytes(*porep.key) + key_host_bytes(*winning.key) +
           (filecoin_porep ? filecoin_porep->held_bytes + filecoin_winning->held_bytes : 0);
  }
};

// With --presynthesized the bench holds one synthesized partition of each circuit, outside the
// engine's budget: its witness and, unless the compiled path forms them on the device, a, b and c.
uint64_t presynthesized_bytes(const EngineBenchArgs& args, const KeyInfo& k) {
  if (!args.presynthesized) return 0;
  const uint64_t witness = (k.key->l.size() + k.key->vk.ic.size()) * sizeof(Fr);
  const bool compiled = !args.filecoin.empty() && !args.full_synthesis;
  return witness + (compiled ? 0 : 3 * uint64_t(k.constraints) * sizeof(Fr));
}

Result<BenchKeys> make_keys(const EngineBenchArgs& args, const std::string& backend, unsigned key_threads) {
  ThreadPool pool(0);
  BenchKeys keys;
  if (!args.filecoin.empty()) {
    auto winning_id = winning_circuit_for(args.filecoin);
    if (!winning_id) return winning_id.error();
    std::fprintf(stderr,
                 "  %s and %s: virtual sectors, one synthesis each and fake keys of their shape ...\n",
                 args.filecoin.c_str(), winning_id->c_str());
    auto p = filecoin_engine_circuit(args.filecoin, args.seed, key_threads, pool);
    if (!p) return p.error();
    auto w = filecoin_engine_circuit(*winning_id, args.seed + 1, key_threads, pool);
    if (!w) return w.error();
    keys.porep = KeyInfo{p->key, p->constraints, p->key_s};
    keys.winning = KeyInfo{w->key, w->constraints, w->key_s};
    keys.filecoin_porep = std::move(*p), keys.filecoin_winning = std::move(*w);
    return keys;
  }
  std::fprintf(stderr, "  making fake keys (2^%u, 2^%u) ...\n", args.log_domain, args.winning_log_domain);
  // About 94 bytes of key per domain row (12.6 GB measured at 2^27), made on the CPU.
  if (backend == "cpu" && args.log_domain >= 24)
    std::fprintf(stderr,
                 "  note: the 2^%u key takes about %.1f GiB of host memory and minutes to make, and the cpu "
                 "backend proves it slowly; --log-domain 16 measures the engine's plumbing in seconds\n",
                 args.log_domain, 94.0 * std::ldexp(1.0, int(args.log_domain)) / double(uint64_t(1) << 30));
  auto porep = make_key(synthetic_spec(args.log_domain, args.seed), key_threads, pool);
  if (!porep) return make_error("porep key: " + porep.message());
  auto winning = make_key(synthetic_spec(args.winning_log_domain, args.seed + 1), key_threads, pool);
  if (!winning) return make_error("winning key: " + winning.message());
  keys.porep = std::move(*porep), keys.winning = std::move(*winning);
  return keys;
}

// The engine's own default host budget (3/4 of RAM) assumes the keys are inside it; here they are
// not, so by default the budget is what the keys leave, less a tenth. A budget given that does not
// fit beside the keys is only warned about.
void settle_host_budget(uint64_t key_bytes, uint64_t& host_budget) {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return;
  const uint64_t ram = uint64_t(pages) * uint64_t(page_size);
  const uint64_t left = ram > key_bytes ? (ram - key_bytes) / 10 * 9 : 0;
  if (!host_budget) {
    host_budget = std::min(ram / 4 * 3, left);
    std::fprintf(stderr, "  engine host budget %s (RAM %s less the keys)\n", gib(host_budget).c_str(),
                 gib(ram).c_str());
  } else if (key_bytes + host_budget > ram) {
    std::fprintf(stderr,
                 "  warning: the keys (%s) and the engine's host budget (%s) exceed the RAM (%s); "
                 "consider --host-budget %lluG\n",
                 gib(key_bytes).c_str(), gib(host_budget).c_str(), gib(ram).c_str(),
                 (unsigned long long)(left >> 30));
  }
}

Result<std::unique_ptr<engine::Engine>> start_engine(const EngineBenchArgs& args, engine::DeviceSet devices,
                                                     const EngineBenchRun& run, const BenchKeys& keys,
                                                     std::shared_ptr<EngineObserver> observed) {
  engine::EngineConfig config;
  config.devices = std::move(devices);
  config.host_memory_budget = run.host_budget;
  config.synthesis_workers = args.synthesis_workers;
  config.synthesis_threads = run.synthesis_threads;
  config.synthesis_nice = args.synthesis_nice;
  config.max_partitions_ahead = args.partitions_ahead;
  config.release_inputs_early = args.release_inputs_early;
  config.express_synthesis_workers = args.express_synthesis_workers;
  config.keys["porep"] = keys.porep.key;
  config.keys["winning"] = keys.winning.key;
  config.ignore_verify_for_benchmarks = true;  // fake keys: proofs cannot verify
  config.compiled_circuits = !args.full_synthesis;
  config.device_witness = !args.host_witness;
  config.compiled_dir = args.compiled_dir;
  config.logger = engine::make_stderr_logger("cuzk-bench");
  config.logger->set_level(args.verbose ? spdlog::level::info : spdlog::level::warn);
  config.observer = [observed](const EngineEvent& e) { observed->on_event(e); };
  auto created = engine::Engine::create(std::move(config));
  if (!created) return make_error("engine: " + created.message());
  return std::move(*created);
}

// What each job's partitions carry. With --presynthesized, one partition of each circuit is
// synthesized now and every job carries it as an already-synthesized input (the engine copies it
// per partition): the run then measures the devices rather than the host's synthesis.
struct JobInputs {
  engine::PartitionInput porep, winning;
};

Result<JobInputs> job_inputs(const EngineBenchArgs& args, const BenchKeys& keys, engine::Engine& eng) {
  JobInputs in{
      keys.filecoin_porep ? keys.filecoin_porep->input
                          : engine::SampleInput{synthetic_spec(args.log_domain, args.seed), args.c_from_ab},
      keys.filecoin_winning
          ? keys.filecoin_winning->input
          : engine::SampleInput{synthetic_spec(args.winning_log_domain, args.seed + 1), args.c_from_ab}};
  if (!args.presynthesized) return in;
  const auto ts = Clock::now();
  // A Filecoin request stands for all its partitions: the first one is synthesized and copied.
  if (auto* f = std::get_if<engine::FilecoinInput>(&in.porep)) f->partition = 0;
  if (auto* f = std::get_if<engine::FilecoinInput>(&in.winning)) f->partition = 0;
  auto p = eng.synthesize("porep", in.porep);
  if (!p) return make_error("synthesize: " + p.message());
  auto w = eng.synthesize("winning", in.winning);
  if (!w) return make_error("synthesize: " + w.message());
  in.porep = engine::SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(p->assignment))};
  in.winning = engine::SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(w->assignment))};
  std::fprintf(stderr, "  partitions synthesized in advance in %.1f s\n", seconds_between(ts, Clock::now()));
  return in;
}

// The pooled buffer sets the run's partitions take, made before the clock as a daemon makes them
// when it preloads its parameters (engine.hpp, prepare_buffer_sets): pinned while proofs run, they
// would stall them.
Status prepare_buffer_sets(engine::Engine& eng, const JobInputs& in, const EngineBenchArgs& args) {
  const auto t0 = Clock::now();
  auto porep = eng.prepare_buffer_sets("porep", in.porep);
  if (!porep) return make_error("buffer sets: " + porep.message());
  size_t winning = 0;
  if (args.winning > 0) {
    auto w = eng.prepare_buffer_sets("winning", in.winning, 2);
    if (!w) return make_error("buffer sets: " + w.message());
    winning = *w;
  }
  std::fprintf(stderr, "  buffer sets made in %.1f s: %zu for the main stream, %zu for WinningPoSt\n",
               seconds_between(t0, Clock::now()), *porep, winning);
  return Status::Ok();
}

// What one job carries: the bench's input, and for a Filecoin request a fresh copy of it, so that
// every job's vanilla proofs are parsed and checked at its submit, as a provider's new request's are
// (the engine prepares a request once and keeps the result with it).
engine::PartitionInput fresh_input(const engine::PartitionInput& in) {
  const auto* f = std::get_if<engine::FilecoinInput>(&in);
  if (!f || !f->request) return in;
  return engine::FilecoinInput{std::make_shared<const engine::FilecoinRequest>(f->request->request()),
                               f->partition};
}

// Awaits a job of the main stream (PoRep, generic or WindowPoSt) and adds its result to the run's
// counters; `submitted`: when its submit was called (one_at_a_time: its latency is from there).
Status await_job(engine::Engine& eng, JobId id, EngineBenchRun& run, Clock::time_point submitted) {
  auto result = await_finished(eng, id);
  if (!result) return make_error("await: " + result.message());
  if (result->state == engine::JobState::done) ++run.porep_done;
  run.porep_partitions_proved += result->partitions_proved;
  const auto& t = result->timings;
  run.porep_timings.queue_wait_ms += t.queue_wait_ms;
  run.porep_timings.param_load_ms += t.param_load_ms;
  run.porep_timings.synthesis_ms += t.synthesis_ms;
  run.porep_timings.gpu_ms += t.gpu_ms;
  run.porep_timings.verify_ms += t.verify_ms;
  run.porep_timings.total_ms += t.total_ms;
  if (run.one_at_a_time && result->state == engine::JobState::done)
    run.job_ms.push_back(1e3 * seconds_between(submitted, Clock::now()));
  return Status::Ok();
}

Result<JobId> submit_job(engine::Engine& eng, const JobInputs& in, const EngineBenchRun& run) {
  engine::JobRequest r;
  r.kind = run.job_kind;
  r.params = "porep";
  r.partitions.assign(run.job_kind == engine::JobKind::generic ? run.partitions_per_job : 1,
                      fresh_input(in.porep));
  r.client = "bench";
  auto id = eng.submit(std::move(r));
  if (!id) return make_error("submit: " + id.message());
  return *id;
}

// The main stream: every job submitted at once and awaited in order, or (one_at_a_time) each
// submitted when the one before has its result.
Status run_main_stream(const EngineBenchArgs& args, engine::Engine& eng, const JobInputs& in,
                       EngineBenchRun& run) {
  for (unsigned j = 0; j < args.jobs; ++j) {
    const auto submitted = Clock::now();
    auto id = submit_job(eng, in, run);
    if (!id) return id.error();
    run.porep_ids.push_back(*id);
    if (run.one_at_a_time)
      if (auto st = await_job(eng, *id, run, submitted); !st) return st;
  }
  if (!run.one_at_a_time)
    for (JobId id : run.porep_ids)
      if (auto st = await_job(eng, id, run, run.start); !st) return st;
  return Status::Ok();
}

// The main stream (on a thread of its own), and beside it the WinningPoSt jobs one at a time (the
// first once a partition of the stream is done, each next after the previous); awaits them all.
Status run_jobs(const EngineBenchArgs& args, engine::Engine& eng, const JobInputs& in,
                EngineObserver& observed, EngineBenchRun& run) {
  run.start = Clock::now();
  Status main_status = Status::Ok();
  bool main_over = false;  // under observed.mu: the stream ended (also early, on an error)
  std::thread main_stream([&] {
    main_status = run_main_stream(args, eng, in, run);
    std::lock_guard lock(observed.mu);
    main_over = true;
    observed.cv.notify_all();
  });
  Status winning_status = Status::Ok();
  if (args.winning > 0) {
    std::unique_lock lock(observed.mu);
    observed.cv.wait(lock, [&] {
      return observed.porep_partitions > 0 || observed.porep_closed >= args.jobs || main_over;
    });
  }
  for (unsigned w = 0; w < args.winning && winning_status; ++w) {
    engine::JobRequest r;
    r.kind = engine::JobKind::winning_post;
    r.params = "winning";
    r.partitions = {fresh_input(in.winning)};
    r.client = "bench";
    const auto submitted = Clock::now();
    auto id = eng.submit(std::move(r));
    if (!id) {
      winning_status = make_error("submit WinningPoSt: " + id.message());
      break;
    }
    auto result = await_finished(eng, *id);
    if (!result) {
      winning_status = make_error("await WinningPoSt: " + result.message());
      break;
    }
    if (result->state == engine::JobState::done) {
      run.winning_ms.push_back(1e3 * seconds_between(submitted, Clock::now()));
      run.winning_timings.push_back(result->timings);
    }
  }
  main_stream.join();
  run.awaited = Clock::now();
  run.status = eng.status();
  if (!main_status) return main_status;
  return winning_status;
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
  EngineBenchRun run;
  run.backend = devices->backend;
  run.devices = devices->set.devices;
  run.vram_budget = *vram_budget;
  // 0 leaves each synthesis's threads to the engine; the keys are made with every thread.
  run.synthesis_threads = args.synthesis_threads;
  const unsigned key_threads = run.synthesis_threads
                                   ? run.synthesis_threads
                                   : engine::auto_synthesis_threads(std::thread::hardware_concurrency(), 1);
  auto keys = make_keys(args, run.backend, key_threads);
  if (!keys) return fail(keys.message());
  run.key_bytes = keys->held_bytes() + presynthesized_bytes(args, keys->porep) +
                  presynthesized_bytes(args, keys->winning);
  run.key_s = keys->porep.seconds + keys->winning.seconds;
  std::fprintf(
      stderr,
      "  keys ready in %.1f s (%s in memory with the jobs' inputs, outside the engine's host budget)\n",
      run.key_s, gib(run.key_bytes).c_str());
  run.host_budget = *host_budget;
  settle_host_budget(run.key_bytes, run.host_budget);
  run.porep = {
      keys->filecoin_porep ? keys->filecoin_porep->name : "synthetic 2^" + std::to_string(args.log_domain),
      keys->porep.constraints, keys->porep.key->domain_size};
  run.winning = {keys->filecoin_winning ? keys->filecoin_winning->name
                                        : "synthetic 2^" + std::to_string(args.winning_log_domain),
                 keys->winning.constraints, keys->winning.key->domain_size};
  if (keys->filecoin_porep) run.filecoin_synthesis = keys->filecoin_porep->synthesis;
  run.job_kind = args.partitions_per_job ? engine::JobKind::generic : engine::JobKind::porep_c2;
  if (keys->filecoin_porep && filecoin_window_post(keys->filecoin_porep->name)) {
    if (args.partitions_per_job)
      return fail("--partitions-per-job: a WindowPoSt job is its vanilla proofs' one partition");
    run.job_kind = engine::JobKind::window_post;
    run.one_at_a_time = true;
  }
  run.partitions_per_job = run.job_kind == engine::JobKind::porep_c2      ? 10
                           : run.job_kind == engine::JobKind::window_post ? 1
                                                                          : args.partitions_per_job;

  auto observed = std::make_shared<EngineObserver>();
  auto eng = start_engine(args, std::move(devices->set), run, *keys, observed);
  if (!eng) return fail(eng.message());
  std::fprintf(stderr, "  %u %s job(s) of %u partitions on %zu %s device(s) x %u worker(s); %u WinningPoSt\n",
               args.jobs, engine::to_string(run.job_kind), run.partitions_per_job, run.devices.size(),
               run.backend.c_str(), args.workers_per_gpu, args.winning);
  auto inputs = job_inputs(args, *keys, **eng);
  if (!inputs) return fail(inputs.message());
  if (auto st = prepare_buffer_sets(**eng, *inputs, args); !st) return fail(st.message());
  if (auto st = run_jobs(args, **eng, *inputs, *observed, run); !st) return fail(st.message());
  return report_engine_bench(args, run, *observed);
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
                  "Real circuits from virtual sectors instead of synthetic ones: this one for the jobs "
                  "(porep-32g: PoRep C2 jobs from the C1; wpost-32g: WindowPoSt jobs from the vanilla "
                  "proofs, one at a time) and WinningPoSt of its sector size (fake keys of their shapes)");
  cmd->add_option("--jobs", args->jobs, "PoRep C2 jobs submitted at once (WindowPoSt: one at a time)")
      ->capture_default_str();
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
                  "Partitions synthesized ahead of the devices (0: the engine's default)")
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
  cmd->add_flag("--full-synthesis", args->full_synthesis,
                "Filecoin partitions fully synthesized on the host, instead of their witness against the "
                "compiled circuit (a, b, c then formed on the device)");
  cmd->add_flag("--host-witness", args->host_witness,
                "PoSt witnesses synthesized on the host, instead of computed on the proving device from "
                "the paths (EngineConfig::device_witness off)");
  cmd->add_option("--compiled-dir", args->compiled_dir,
                  "Folder of the compiled circuits (default: cuzk-compiled in the parameter directory)");
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
