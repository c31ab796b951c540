// `cuzk setup`: Groth16 parameters for a sample circuit or a circom .r1cs, written as bellman
// .params (and .vk), the files bellperson and Filecoin's tools read.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/filecoin_commands.hpp"
#include "cli/options.hpp"
#include "cli/setup_progress.hpp"
#include "common/thread_pool.hpp"
#include "engine/device_set.hpp"
#include "groth16/setup.hpp"
#include "io/bellman.hpp"
#include "io/r1cs_convert.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::cli {
namespace {

struct SetupArgs {
  r1cs::SampleSpec spec;
  std::string r1cs_path, params_path, vk_path;
  std::optional<uint64_t> toxic_seed;
  unsigned threads = 0;
  bool quiet = false;
  std::string backend = "auto";
  int device = 0;
  FilecoinSetupArgs filecoin;  // --filecoin <circuit id>: filecoin_setup.cpp
};

int run_setup(const SetupArgs& args) {
  if (!args.filecoin.circuit.empty()) {
    FilecoinSetupArgs f = args.filecoin;
    f.toxic_seed = args.toxic_seed;
    f.threads = args.threads;
    f.quiet = args.quiet;
    f.backend = args.backend;
    f.device = args.device;
    return run_filecoin_setup(f);
  }
  if (args.params_path.empty()) return fail("--params is required (or --filecoin <circuit id>)");
  ThreadPool pool(args.threads);
  r1cs::ConstraintMatrices matrices;
  std::string what;
  {
    Stage stage("shape of the circuit", args.quiet);
    if (!args.r1cs_path.empty()) {
      auto cs = read_r1cs(args.r1cs_path);
      if (!cs) return fail(cs.message());
      matrices = to_constraint_matrices(*cs);
      what = args.r1cs_path;
    } else {
      auto circuit = r1cs::make_sample_circuit(args.spec);
      if (!circuit) return fail(circuit.message());
      r1cs::RecordingSystem shape(false);
      if (auto st = (*circuit)->synthesize(shape); !st) return fail(st.message());
      matrices = shape.matrices();
      what = args.spec.describe();
    }
    stage.done();
  }
  groth16::SetupOptions options;
  options.seed = args.toxic_seed;
  auto on = engine::attach_setup_device(args.backend, args.device, options);
  if (!on) return fail(on.message());
  if (!args.quiet) std::fprintf(stderr, "  generator multiples on %s\n", on->c_str());
  if (auto st = matrices.validate(); !st) return fail(st.message());
  Result<groth16::ProvingKey> pk =
      generate_parameters_shown(groth16::setup_circuit(matrices), options, pool, args.quiet);
  if (!pk) return fail(pk.message());
  {
    Stage stage("write", args.quiet);
    auto params = to_bellman(*pk);
    if (!params) return fail(params.message());
    if (auto st = write_bellman_params(args.params_path, *params); !st) return fail(st.message());
    if (!args.vk_path.empty())
      if (auto st = write_bellman_vk(args.vk_path, pk->vk); !st) return fail(st.message());
    stage.done();
  }
  std::printf("setup: %s, %zu constraints, %zu public inputs, %zu aux, domain 2^%d -> %s%s%s\n", what.c_str(),
              matrices.num_constraints(), size_t(matrices.num_inputs - 1), size_t(matrices.num_aux),
              __builtin_ctzll(pk->domain_size), args.params_path.c_str(), args.vk_path.empty() ? "" : ", ",
              args.vk_path.c_str());
  if (args.toxic_seed)
    std::printf("setup: WARNING: --toxic-seed makes the parameters insecure (tests only)\n");
  return 0;
}

}  // namespace

void register_setup(CLI::App& app, int& status) {
  auto args = std::make_shared<SetupArgs>();
  auto* cmd = app.add_subcommand(
      "setup",
      "Generate Groth16 parameters (bellman .params/.vk) for a circuit. Exit 0: written; 1: an error");
  add_circuit_options(cmd, args->spec);
  cmd->add_option("--r1cs", args->r1cs_path, "A circom .r1cs file instead of a sample circuit")
      ->check(CLI::ExistingFile);
  cmd->add_option("--params", args->params_path, "Output .params file");
  cmd->add_option("--filecoin", args->filecoin.circuit,
                  "A Filecoin circuit instead (porep-2k, wpost-2k, winning-2k, snap-2k, …, porep-32g): TEST "
                  "parameters, written under the official v28-… names into --param-dir");
  cmd->add_option("--param-dir", args->filecoin.param_dir,
                  "--filecoin: the parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE, else "
                  "/var/tmp/filecoin-proof-parameters/)");
  cmd->add_flag("--force", args->filecoin.force, "--filecoin: replace existing parameter files");
  cmd->add_option("--vk", args->vk_path, "Output .vk file (the verifying key alone)");
  cmd->add_option("--toxic-seed", args->toxic_seed, "Deterministic toxic waste: INSECURE, for tests");
  cmd->add_option("--threads", args->threads, "CPU threads (0: all)")->capture_default_str();
  cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
  cmd->add_option("--backend", args->backend, "Where the generator multiples are computed: cpu, cuda or auto")
      ->capture_default_str();
  cmd->add_option("--device", args->device, "CUDA device index")->capture_default_str();
  cmd->callback([args, &status] { status = run_setup(*args); });
}

}  // namespace cuzk::cli
