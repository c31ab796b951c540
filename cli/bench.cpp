// `cuzk bench msm|ntt|prove|engine`: timings of the CPU backend and of whole proofs, as a table on stdout
// and, with --json FILE ("-" for stdout), as JSON for docs/BENCHMARKS.md and regression tracking.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend/cpu/msm.hpp"
#include "backend/cpu/ntt.hpp"
#include "cli/backend_select.hpp"
#include "cli/bench_util.hpp"
#include "cli/commands.hpp"
#include "cli/fake_key.hpp"
#include "cli/options.hpp"
#include "cli/random.hpp"
#include "common/thread_pool.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/circuits/synthetic.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchArgs {
  unsigned log_size = 16;
  unsigned repeat = 3;
  unsigned threads = 0;
  std::string curve = "g1";
  std::string json_path;
  r1cs::SampleSpec spec;
  std::string backend = "cpu", vram_budget;
  int device = 0;
  bool fake_key = false, warmup = false, pin_params = true, pin_assignment = false;
  unsigned msm_pass_log = 0;
  double resident_fraction = 0;
};

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The median of `repeat` runs of f (after one warm-up when repeat > 1).
double median_seconds(unsigned repeat, const std::function<void()>& f) {
  if (repeat > 1) f();
  std::vector<double> t;
  for (unsigned i = 0; i < std::max(1u, repeat); ++i) {
    const auto start = Clock::now();
    f();
    t.push_back(seconds_since(start));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void emit(const BenchArgs& args, const nlohmann::json& result) {
  if (args.json_path.empty()) return;
  if (args.json_path == "-") {
    std::cout << result.dump(2) << "\n";
  } else {
    std::ofstream(args.json_path) << result.dump(2) << "\n";
  }
}

nlohmann::json machine() { return {{"threads", std::thread::hardware_concurrency()}}; }

template <class Affine, class Jacobian>
double time_msm(const BenchArgs& args, ThreadPool& pool, size_t n) {
  std::mt19937_64 rng(std::random_device{}());
  const auto points = random_points<Affine, Jacobian>(n, rng, pool);
  std::vector<Fr> scalars(n);
  for (auto& s : scalars) s = random_element<Fr>(rng);
  return median_seconds(args.repeat, [&] { (void)cpu::msm<Affine>(points, scalars, pool); });
}

int bench_msm(const BenchArgs& args) {
  ThreadPool pool(args.threads);
  const size_t n = size_t(1) << args.log_size;
  std::fprintf(stderr, "  preparing %zu random %s points ...\n", n, args.curve.c_str());
  const double s = args.curve == "g2" ? time_msm<G2Affine, G2Jacobian>(args, pool, n)
                                      : time_msm<G1Affine, G1Jacobian>(args, pool, n);
  std::printf("%-6s %-4s %8s %8s %12s %14s\n", "bench", "curve", "points", "threads", "median ms",
              "points/s");
  std::printf("%-6s %-4s %8s %8u %12.2f %14.0f\n", "msm", args.curve.c_str(),
              ("2^" + std::to_string(args.log_size)).c_str(), pool.size(), s * 1e3, double(n) / s);
  emit(args, {{"bench", "msm"},
              {"curve", args.curve},
              {"log_size", args.log_size},
              {"threads", pool.size()},
              {"median_ms", s * 1e3},
              {"repeat", args.repeat},
              {"machine", machine()}});
  return 0;
}

int bench_ntt(const BenchArgs& args) {
  ThreadPool pool(args.threads);
  auto domain = cpu::NttDomain::create(args.log_size, RootConvention::bellman, pool);
  if (!domain) return fail(domain.message());
  std::mt19937_64 rng(std::random_device{}());
  std::vector<Fr> v(domain->size());
  for (auto& x : v) x = random_element<Fr>(rng);
  const double fwd = median_seconds(args.repeat, [&] { (void)domain->forward(v, pool); });
  const double inv = median_seconds(args.repeat, [&] { (void)domain->inverse(v, pool); });
  const double coset = median_seconds(args.repeat, [&] { (void)domain->coset_forward(v, pool); });
  std::printf("%-6s %8s %8s %12s %12s %12s\n", "bench", "size", "threads", "forward ms", "inverse ms",
              "coset ms");
  std::printf("%-6s %8s %8u %12.2f %12.2f %12.2f\n", "ntt", ("2^" + std::to_string(args.log_size)).c_str(),
              pool.size(), fwd * 1e3, inv * 1e3, coset * 1e3);
  emit(args, {{"bench", "ntt"},
              {"log_size", args.log_size},
              {"threads", pool.size()},
              {"forward_ms", fwd * 1e3},
              {"inverse_ms", inv * 1e3},
              {"coset_forward_ms", coset * 1e3},
              {"machine", machine()}});
  return 0;
}

int bench_prove(const BenchArgs& args) {
  ThreadPool pool(args.threads);
  auto circuit = r1cs::make_sample_circuit(args.spec);
  if (!circuit) return fail(circuit.message());
  const auto* synthetic = dynamic_cast<const r1cs::SyntheticCircuit*>(circuit->get());
  const auto synthesize = [&]() {
    return synthetic ? synthetic->synthesize_assignment(args.threads)
                     : r1cs::synthesize_for_proving(**circuit);
  };
  // Each proof's assignment; with --pin-assignment the synthetic circuit writes every proof's into
  // the same pinned storage, as the engine's pooled buffers do.
  r1cs::Assignment as;
  std::vector<std::shared_ptr<void>> as_pins;  // declared after `as`: unpinned before it is freed
  const auto synthesize_next = [&]() -> Status {
    if (synthetic && args.pin_assignment) return synthetic->synthesize_into(as, args.threads);
    auto made = synthesize();
    if (!made) return made.error();
    as = std::move(*made);
    return Status::Ok();
  };
  auto t = Clock::now();
  Result<groth16::ProvingKey> pk = make_error("");
  std::optional<groth16::PreparedVerifyingKey> pvk;
  if (args.fake_key) {
    auto as = synthesize();
    if (!as) return fail(as.message());
    pk = fake_key(*as, pool);
  } else {
    r1cs::RecordingSystem shape(false);
    if (auto st = (*circuit)->synthesize(shape); !st) return fail(st.message());
    pk = groth16::generate_parameters(shape.matrices(), {}, pool);
    if (!pk) return fail(pk.message());
    auto prepared = groth16::prepare_verifying_key(pk->vk);
    if (!prepared) return fail(prepared.message());
    pvk = std::move(*prepared);
  }
  const double setup_s = seconds_since(t);
  auto chosen = make_backend(args.backend, args.device, args.vram_budget, pool, args.msm_pass_log,
                             args.resident_fraction);
  if (!chosen) return fail(chosen.message());
  std::fprintf(stderr, "  key ready in %.1f s (%s); proving on %s\n", setup_s,
               args.fake_key ? "fake" : "setup", chosen->backend->name().c_str());
  t = Clock::now();
  const auto pins = args.pin_params ? pin_key_for(*chosen, *pk) : std::vector<std::shared_ptr<void>>{};
  if (!pins.empty()) std::fprintf(stderr, "  key pinned in host memory in %.1f s\n", seconds_since(t));

  std::vector<double> synth_t, prove_t, verify_t;
  size_t constraints = 0;
  groth16::ProofTimings stages;  // of the last proof
  DeviceReport report;
  for (unsigned i = 0; i < std::max(1u, args.repeat) + (args.warmup ? 1 : 0); ++i) {
    t = Clock::now();
    if (auto st = synthesize_next(); !st) return fail(st.message());
    const double synth = seconds_since(t);
    if (args.pin_assignment && as_pins.empty() && synthetic) {
      t = Clock::now();
      as_pins = pin_assignment_for(*chosen, as);
      if (!as_pins.empty()) std::fprintf(stderr, "  assignment pinned in %.1f s\n", seconds_since(t));
    }
    constraints = as.a.size();
    const std::vector<Fr> inputs(as.input_assignment.begin() + 1, as.input_assignment.end());
    t = Clock::now();
    groth16::ProofTimings tm;
    auto proof =
        groth16::create_proof(*pk, as, groth16::ProofRandomness::fresh(), *chosen->backend, {.timings = &tm});
    if (!proof) return fail(proof.message());
    const double prove = seconds_since(t);
    stages = tm;
    report = take_device_report(*chosen->backend);
    {  // stage times on stderr; the table and JSON stay on stdout
      std::fprintf(stderr, "  proof %u: %.3f s (check %.1f ms, h %.1f ms, msm %.1f ms, assemble %.1f ms)\n",
                   i, prove, tm.check_ms, tm.h_ms, tm.msm_ms, tm.assemble_ms);
      for (const auto& line : report.stages) std::fprintf(stderr, "    %s\n", line.c_str());
    }
    double verify = 0;
    if (pvk) {
      t = Clock::now();
      auto ok = groth16::verify_proof(*pvk, *proof, inputs);
      if (!ok || !*ok) return fail("benchmark proof does not verify");
      verify = seconds_since(t);
    }
    if (args.warmup && i == 0) {
      std::fprintf(stderr, "  warm-up proof: %.3f s\n", prove);
      continue;
    }
    synth_t.push_back(synth);
    prove_t.push_back(prove);
    verify_t.push_back(verify);
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double synth_s = median(synth_t), prove_s = median(prove_t), verify_s = median(verify_t);
  std::printf("%-28s %-8s %12s %10s %10s %10s %10s\n", "circuit", "backend", "constraints", "setup s",
              "synth s", "prove s", "verify ms");
  std::printf("%-28s %-8s %12zu %10.3f %10.3f %10.3f %10.2f\n", args.spec.describe().c_str(),
              chosen->backend->name().c_str(), constraints, setup_s, synth_s, prove_s, verify_s * 1e3);
  emit(args, {{"bench", "prove"},
              {"circuit", args.spec.describe()},
              {"backend", chosen->backend->name()},
              {"constraints", constraints},
              {"domain", pk->domain_size},
              {"threads", pool.size()},
              {"fake_key", args.fake_key},
              {"vram_budget", args.vram_budget},
              {"setup_s", setup_s},
              {"synthesis_s", synth_s},
              {"prove_s", prove_s},
              {"verify_ms", verify_s * 1e3},
              {"last_proof_ms", stage_times_json(stages)},
              {"device_stages", report.stages},
              {"peak_device_bytes", report.peak_bytes},
              {"device_budget", report.budget},
              {"repeat", args.repeat},
              {"machine", machine()}});
  return 0;
}

}  // namespace

void register_bench(CLI::App& app, int& status) {
  auto args = std::make_shared<BenchArgs>();
  auto* bench =
      app.add_subcommand("bench", "Benchmarks: msm, ntt, prove, engine, filecoin (table; --json for JSON)");
  bench->require_subcommand(1);
  const auto common = [&](CLI::App* cmd) {
    cmd->add_option("--repeat", args->repeat, "Timed runs (median reported)")->capture_default_str();
    cmd->add_option("--threads", args->threads, "CPU threads (0: all)")->capture_default_str();
    cmd->add_option("--json", args->json_path, "Write the result as JSON to this file ('-': stdout)");
  };
  auto* msm = bench->add_subcommand("msm", "Multi-scalar multiplication with random points and scalars");
  msm->add_option("--log-size", args->log_size, "log2 of the number of points")
      ->check(CLI::Range(0, 26))
      ->capture_default_str();
  msm->add_option("--curve", args->curve, "g1 or g2")
      ->check(CLI::IsMember({"g1", "g2"}))
      ->capture_default_str();
  common(msm);
  msm->callback([args, &status] { status = bench_msm(*args); });

  auto* ntt = bench->add_subcommand("ntt", "Fr NTT forward, inverse and coset on random values");
  ntt->add_option("--log-size", args->log_size, "log2 of the domain")
      ->check(CLI::Range(1, 28))
      ->capture_default_str();
  common(ntt);
  ntt->callback([args, &status] { status = bench_ntt(*args); });

  auto* prove =
      bench->add_subcommand("prove", "Setup once, then synthesize, prove and verify a sample circuit");
  add_circuit_options(prove, args->spec);
  common(prove);
  prove->add_option("--backend", args->backend, "cpu, cuda or auto")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  prove->add_option("--device", args->device, "CUDA device index")->capture_default_str();
  prove->add_option("--vram-budget", args->vram_budget, "Device memory budget (e.g. 8G)");
  prove->add_flag("--fake-key", args->fake_key,
                  "Random points instead of a setup: timing only, no verification");
  prove->add_flag("--warmup", args->warmup, "One untimed proof first (loads resident bases)");
  prove->add_option("--msm-pass-log", args->msm_pass_log,
                    "Points per pass of resident GPU MSMs, as log2 (0: the backend's default, 24)");
  prove->add_flag("--pin-assignment", args->pin_assignment,
                  "Synthesize every proof into the same pinned a, b, c and aux buffers (synthetic circuit)");
  prove->add_option("--resident-fraction", args->resident_fraction,
                    "Share of the device budget resident bases may hold (0: the backend's default)");
  prove->add_flag("--pin-params,!--no-pin-params", args->pin_params,
                  "Pin the key's points in host memory on a GPU (default on)");
  prove->callback([args, &status] { status = bench_prove(*args); });

  add_bench_engine(bench, status);    // bench_engine.cpp
  add_bench_filecoin(bench, status);  // bench_filecoin.cpp
}

}  // namespace cuzk::cli
