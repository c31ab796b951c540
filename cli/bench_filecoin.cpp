// `cuzk bench filecoin --circuit ID`: one partition of a real Filecoin circuit (PoRep, WindowPoSt,
// WinningPoSt, SnapDeals at any sector size), from virtual vanilla inputs (cli/filecoin_partition.hpp),
// synthesized and proved on a backend. The key is of the circuit's exact shape but made of random
// points (cli/fake_key.hpp): a real setup at 2^27 is out of reach, so the proofs time the prover
// faithfully and do not verify. Reports the counts, synthesis and proving times, and the peak host
// (VmHWM, per phase) and device (the backend's plan) memory.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/backend_select.hpp"
#include "cli/bench_filecoin_compiled.hpp"
#include "cli/bench_util.hpp"
#include "cli/commands.hpp"
#include "cli/fake_key.hpp"
#include "cli/filecoin_partition.hpp"
#include "cli/host_memory.hpp"
#include "cli/options.hpp"
#include "common/thread_pool.hpp"
#include "filecoin/proofs/compiled_circuits.hpp"
#include "groth16/prover.hpp"

namespace cuzk::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct FilecoinBenchArgs {
  std::string circuit = "porep-2k";
  std::string backend = "cpu", vram_budget;
  int device = 0;
  unsigned threads = 0, repeat = 3;
  uint64_t seed = 1;
  bool warmup = true, pin_params = true, pin_assignment = true;
  bool synthesis_only = false;
  bool witness_only = false, full_synthesis = true;  // the compiled path (bench_filecoin_compiled.hpp)
  std::string json_path;
};

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

unsigned log2_ceil(uint64_t n) {
  unsigned l = 0;
  while ((uint64_t(1) << l) < n) ++l;
  return l;
}

// The vectors a proof spends (a, b, c), kept aside so that every proof starts from the synthesized
// values without synthesizing again.
struct SpentVectors {
  std::vector<Fr> a, b, c;

  static SpentVectors of(const r1cs::Assignment& as) { return {as.a, as.b, as.c}; }
  void restore(r1cs::Assignment& as, ThreadPool& pool) const {
    const auto copy = [&](const std::vector<Fr>& from, std::vector<Fr>& to) {
      to.resize(from.size());  // the same size: the storage (and its pins) stays
      pool.for_ranges(from.size(), 1 << 20, [&](size_t b, size_t e) {
        std::copy(from.begin() + ptrdiff_t(b), from.begin() + ptrdiff_t(e), to.begin() + ptrdiff_t(b));
      });
    };
    copy(a, as.a), copy(b, as.b), copy(c, as.c);
  }
};

// One phase's peak resident memory: the peak is reset at the start (where the kernel allows it).
struct PhasePeak {
  bool reset = reset_peak_rss();
  uint64_t bytes() const { return peak_rss_bytes(); }
};

// The synthesis's figures, for the reports.
struct SynthesisFigures {
  double seconds = 0;
  unsigned threads = 0;
  size_t constraints = 0, inputs = 0, aux = 0;
  unsigned log_domain = 0;
};

// --synthesis-only: the table line and the JSON of the synthesis alone.
int report_synthesis_only(const FilecoinBenchArgs& args, const BenchPartition& part,
                          const SynthesisFigures& f, unsigned threads) {
  std::printf("%-12s %12s %8s %10s %8s %10s %8s %10s\n", "circuit", "constraints", "inputs", "aux", "domain",
              "synth s", "threads", "peak RSS");
  std::printf("%-12s %12zu %8zu %10zu %8s %10.3f %8u %10s\n", part.name.c_str(), f.constraints, f.inputs,
              f.aux, ("2^" + std::to_string(f.log_domain)).c_str(), f.seconds, f.threads,
              gib(peak_rss_bytes()).c_str());
  return write_json(args.json_path, {{"bench", "filecoin"},
                                     {"circuit", part.name},
                                     {"vanilla", part.vanilla},
                                     {"synthesis_only", true},
                                     {"threads", threads},
                                     {"constraints", f.constraints},
                                     {"inputs", f.inputs},
                                     {"aux", f.aux},
                                     {"log_domain", f.log_domain},
                                     {"vanilla_s", part.vanilla_s},
                                     {"check_s", part.check_s},
                                     {"synthesis_s", f.seconds},
                                     {"synthesis_threads", f.threads},
                                     {"peak_rss_bytes", peak_rss_bytes()},
                                     {"machine", {{"threads", std::thread::hardware_concurrency()}}}});
}

// --synthesis-only --witness-only: the witness alone (no compiled circuit, no a, b, c), --repeat
// times. The first run writes fresh memory; each later one reuses the previous witness's storage,
// as the engine's pooled buffers do, and their median is the figure a synthesis worker spends on a
// partition.
int bench_witness_only(const FilecoinBenchArgs& args, const BenchPartition& part, unsigned threads) {
  std::vector<double> reused;
  double fresh = 0;
  size_t inputs = 0, aux = 0;
  std::vector<Fr> storage;
  for (unsigned i = 0; i < args.repeat; ++i) {
    const auto t = Clock::now();
    auto w = filecoin::synthesize_partition_witness(*part.circuit, threads, std::move(storage));
    if (!w) return fail("witness-only synthesis: " + w.message());
    const double s = seconds_since(t);
    (i == 0 ? fresh : reused.emplace_back()) = s;
    inputs = w->input_assignment.size(), aux = w->aux_assignment.size();
    std::fprintf(stderr, "  witness %u (%s memory): %.3f s (%zu inputs, %zu aux)\n", i,
                 i == 0 ? "fresh" : "reused", s, inputs, aux);
    storage = std::move(w->aux_assignment);
  }
  std::sort(reused.begin(), reused.end());
  const double median = reused.empty() ? fresh : reused[reused.size() / 2];
  std::printf("%-12s %8s %10s %10s %10s %8s %10s\n", "circuit", "inputs", "aux", "fresh s", "reused s",
              "threads", "peak RSS");
  std::printf("%-12s %8zu %10zu %10.3f %10.3f %8u %10s\n", part.name.c_str(), inputs, aux, fresh, median,
              threads, gib(peak_rss_bytes()).c_str());
  return write_json(args.json_path, {{"bench", "filecoin"},
                                     {"circuit", part.name},
                                     {"vanilla", part.vanilla},
                                     {"witness_only", true},
                                     {"threads", threads},
                                     {"inputs", inputs},
                                     {"aux", aux},
                                     {"witness_fresh_s", fresh},
                                     {"witness_reused_s", reused},
                                     {"witness_s", median},
                                     {"peak_rss_bytes", peak_rss_bytes()}});
}

// The timed proofs: their wall times, the last one's stages and device report, the device's peak.
struct ProofRuns {
  std::vector<double> seconds;
  groth16::ProofTimings stages;
  DeviceReport report;
  size_t peak_device = 0;
};

// A warm-up proof (it loads the resident bases on a GPU) unless --no-warmup, then --repeat timed
// ones, each from the assignment as synthesized.
Result<ProofRuns> time_proofs(const FilecoinBenchArgs& args, const groth16::ProvingKey& pk,
                              r1cs::Assignment& as, ComputeBackend& backend, ThreadPool& pool) {
  const unsigned runs = args.repeat + (args.warmup ? 1 : 0);
  const SpentVectors pristine = runs > 1 ? SpentVectors::of(as) : SpentVectors{};
  ProofRuns out;
  for (unsigned i = 0; i < runs; ++i) {
    if (i > 0) pristine.restore(as, pool);
    groth16::ProofTimings tm;
    const auto t = Clock::now();
    auto proof = groth16::create_proof(pk, as, groth16::ProofRandomness::fresh(), backend, {.timings = &tm});
    if (!proof) return make_error("prove: " + proof.message());
    const double s = seconds_since(t);
    out.report = take_device_report(backend);
    out.peak_device = std::max(out.peak_device, out.report.peak_bytes);
    const bool warm = args.warmup && i == 0;
    std::fprintf(stderr, "  %s %u: %.3f s (check %.1f ms, h %.1f ms, msm %.1f ms, assemble %.1f ms)\n",
                 warm ? "warm-up proof" : "proof", i, s, tm.check_ms, tm.h_ms, tm.msm_ms, tm.assemble_ms);
    for (const auto& line : out.report.stages) std::fprintf(stderr, "    %s\n", line.c_str());
    if (warm) continue;
    out.seconds.push_back(s);
    out.stages = tm;
  }
  return out;
}

int bench_filecoin(const FilecoinBenchArgs& args) {
  auto id = filecoin::parse_circuit_id(args.circuit);
  if (!id) return fail(id.message());
  if (args.repeat == 0) return fail("--repeat must be at least 1");
  ThreadPool pool(args.threads);
  const unsigned threads = unsigned(pool.size());
  // The backend first, so that a missing device fails before minutes of synthesis.
  const bool no_proof = args.synthesis_only || args.witness_only;
  auto chosen = no_proof ? Result<SelectedBackend>(make_error("none"))
                         : make_backend(args.backend, args.device, args.vram_budget, pool);
  if (!no_proof && !chosen) return fail(chosen.message());
  std::fprintf(stderr, "  %s: virtual vanilla inputs ...\n", args.circuit.c_str());
  auto part = make_bench_partition(*id, args.seed);
  if (!part) return fail(part.message());
  std::fprintf(stderr, "  %s made in %.2f s; checked and circuit built in %.2f s\n", part->vanilla.c_str(),
               part->vanilla_s, part->check_s);
  if (args.witness_only && args.synthesis_only) return bench_witness_only(args, *part, threads);
  if (args.witness_only)
    return bench_filecoin_compiled(*part, {threads, args.full_synthesis, args.json_path});

  // Synthesis with values, timed.
  PhasePeak synth_peak;
  auto t = Clock::now();
  auto as = part->synthesize(threads);
  if (!as) return fail("synthesis: " + as.message());
  const double synth_s = seconds_since(t);
  const uint64_t synth_rss = synth_peak.bytes();
  const size_t inputs = as->input_assignment.size(), aux = as->aux_assignment.size();
  const size_t rows = as->a.size(), circuit_rows = rows - inputs;
  const unsigned log_domain = log2_ceil(rows);
  std::fprintf(stderr,
               "  synthesized in %.3f s on %u thread(s)%s: %zu constraints (+%zu input rows), %zu inputs, "
               "%zu aux, domain 2^%u; peak RSS %s\n",
               synth_s, part->parallel ? threads : 1u,
               part->parallel ? "" : " (the circuit synthesizes on one)", circuit_rows, inputs, inputs, aux,
               log_domain, gib(synth_rss).c_str());

  if (args.synthesis_only) {
    const unsigned synth_threads = part->parallel ? threads : 1u;
    return report_synthesis_only(args, *part, {synth_s, synth_threads, circuit_rows, inputs, aux, log_domain},
                                 threads);
  }

  // The key: random points of the circuit's shape, made once (not timed with the proofs).
  PhasePeak key_peak;
  t = Clock::now();
  const groth16::ProvingKey pk = fake_key(*as, pool);
  const double key_s = seconds_since(t);
  std::fprintf(stderr, "  fake key (random points, the circuit's exact shape) made in %.1f s\n", key_s);

  t = Clock::now();
  const auto key_pins = args.pin_params ? pin_key_for(*chosen, pk) : std::vector<std::shared_ptr<void>>{};
  const auto as_pins =
      args.pin_assignment ? pin_assignment_for(*chosen, *as) : std::vector<std::shared_ptr<void>>{};
  const double pin_s = seconds_since(t);
  if (!key_pins.empty() || !as_pins.empty())
    std::fprintf(stderr, "  key and assignment pinned in %.1f s\n", pin_s);
  const uint64_t key_rss = key_peak.bytes();

  PhasePeak prove_peak;
  auto runs_done = time_proofs(args, pk, *as, *chosen->backend, pool);
  if (!runs_done) return fail(runs_done.message());
  const auto& [prove_t, stages, report, peak_device] = *runs_done;
  const double prove_s = median_of(prove_t);
  const uint64_t prove_rss = prove_peak.bytes();
  const uint64_t peak_rss = std::max({synth_rss, key_rss, prove_rss});

  std::printf("%-12s %-8s %12s %8s %10s %8s %10s %10s %10s %10s\n", "circuit", "backend", "constraints",
              "inputs", "aux", "domain", "synth s", "prove s", "key s", "peak RSS");
  std::printf("%-12s %-8s %12zu %8zu %10zu %8s %10.3f %10.3f %10.1f %10s\n", part->name.c_str(),
              chosen->backend->name().c_str(), circuit_rows, inputs, aux,
              ("2^" + std::to_string(log_domain)).c_str(), synth_s, prove_s, key_s, gib(peak_rss).c_str());
  std::printf(
      "note: the key is random points of the circuit's shape: the proofs time the prover and do not "
      "verify\n");
  if (peak_device) std::printf("peak device memory (planned): %s\n", gib(peak_device).c_str());

  return write_json(
      args.json_path,
      {{"bench", "filecoin"},
       {"circuit", part->name},
       {"vanilla", part->vanilla},
       {"partitions_per_proof", part->partitions},
       {"backend", chosen->backend->name()},
       {"threads", threads},
       {"constraints", circuit_rows},
       {"rows_with_inputs", rows},
       {"inputs", inputs},
       {"aux", aux},
       {"log_domain", log_domain},
       {"vanilla_s", part->vanilla_s},
       {"check_s", part->check_s},
       {"synthesis_s", synth_s},
       {"synthesis_threads", part->parallel ? threads : 1u},
       {"parallel_synthesis", part->parallel},
       {"fake_key", true},
       {"proofs_verify", false},
       {"note", "key of random points in the circuit's exact shape: timing only, the proofs do not verify"},
       {"key_s", key_s},
       {"pin_s", pin_s},
       {"prove_s", prove_s},
       {"prove_runs_s", prove_t},
       {"repeat", args.repeat},
       {"warmup", args.warmup},
       {"last_proof_ms", stage_times_json(stages)},
       {"device_stages", report.stages},
       {"peak_device_bytes", peak_device},
       {"device_budget", report.budget},
       {"peak_rss_bytes", peak_rss},
       {"peak_rss_phase_bytes", {{"synthesis", synth_rss}, {"key", key_rss}, {"prove", prove_rss}}},
       {"peak_rss_per_phase", synth_peak.reset},
       {"machine", {{"threads", std::thread::hardware_concurrency()}}}});
}

}  // namespace

void add_bench_filecoin(CLI::App* bench, int& status) {
  auto args = std::make_shared<FilecoinBenchArgs>();
  auto* cmd = bench->add_subcommand(
      "filecoin",
      "One partition of a real Filecoin circuit from virtual sectors: synthesis and proof (fake key)");
  cmd->add_option("--circuit", args->circuit,
                  "porep|wpost|winning|snap - 2k|8m|512m|32g|64g (Curio's ids, e.g. porep-32g)")
      ->capture_default_str();
  cmd->add_option("--backend", args->backend, "cpu, cuda or auto")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--device", args->device, "CUDA device index")->capture_default_str();
  cmd->add_option("--vram-budget", args->vram_budget, "Device memory budget (e.g. 8G)");
  cmd->add_option("--threads", args->threads, "CPU threads (0: all)")->capture_default_str();
  cmd->add_option("--repeat", args->repeat, "Timed proofs (median reported)")->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the virtual sectors")->capture_default_str();
  cmd->add_flag("--warmup,!--no-warmup", args->warmup, "One untimed proof first (loads resident bases)");
  cmd->add_flag("--pin-params,!--no-pin-params", args->pin_params, "Pin the key in host memory on a GPU");
  cmd->add_flag("--pin-assignment,!--no-pin-assignment", args->pin_assignment,
                "Pin the partition's a, b, c and aux in host memory on a GPU");
  cmd->add_flag(
      "--synthesis-only", args->synthesis_only,
      "Stop after synthesis: no key, no proof (with --witness-only: the witness alone, --repeat times)");
  cmd->add_flag(
      "--witness-only", args->witness_only,
      "The compiled path instead of a proof: compile the blank circuit, synthesize the witness alone, "
      "evaluate a, b, c on the CPU; timed, sized and compared with full synthesis");
  cmd->add_flag("--full-synthesis,!--no-full-synthesis", args->full_synthesis,
                "With --witness-only: also synthesize the full way, time it and check the two agree");
  cmd->add_option("--json", args->json_path, "Write the result as JSON to this file ('-': stdout)");
  cmd->callback([args, &status] { status = bench_filecoin(*args); });
}

}  // namespace cuzk::cli
