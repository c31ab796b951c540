// `cuzk prove`: a Groth16 proof from
//   * bellman .params and a sample circuit (--circuit ...), or a circom circuit (--r1cs + --wtns);
//   * a snarkjs .zkey and .wtns (optionally --r1cs to check the witness before proving).
// Every proof is checked with a pairing before it is written (skip with --no-verify).
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/backend_select.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/stage_progress.hpp"
#include "common/thread_pool.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "io/file.hpp"
#include "io/proof.hpp"
#include "io/r1cs_convert.hpp"
#include "io/snarkjs_json.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "io/snarkjs_zkey.hpp"
#include "io/zkey_assignment.hpp"
#include "r1cs/circuits/synthetic.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::cli {
namespace {

struct ProveArgs {
  r1cs::SampleSpec spec;
  std::string params_path, zkey_path, r1cs_path, wtns_path;
  std::string proof_path, public_path, proof_format;  // format: "" (by key), bellman, snarkjs
  bool trusted_params = false, check_params = false, no_verify = false, quiet = false;
  std::optional<uint64_t> rs_seed;
  unsigned threads = 0;
  std::string backend = "auto";  // auto, cpu, cuda
  int device = 0;
  std::string vram_budget;  // "8G", "512M", bytes; empty: free memory less a margin
};

Status write_text(const std::string& path, const std::string& text) {
  return write_file_bytes(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

Result<groth16::ProvingKey> load_key(const ProveArgs& args, std::optional<SnarkjsZkey>& zkey_out) {
  // Points are always checked to lie on their curve. The subgroup check (tens of µs a point, most
  // of a small proof's time) is opt-in: a key point outside the subgroup cannot make a bad proof
  // pass, because every proof is pairing-checked before it is written.
  const Check check = args.check_params && !args.trusted_params ? Check::full : Check::curve_only;
  if (!args.zkey_path.empty()) {
    auto zkey = read_zkey(args.zkey_path, check);
    if (!zkey) return zkey.error();
    zkey_out = *zkey;
    return proving_key_from_zkey(std::move(*zkey));
  }
  auto params = read_bellman_params(args.params_path, check);
  if (!params) {
    // A snarkjs key given as --params fails deep in its first point; say what it is instead.
    std::ifstream in(args.params_path, std::ios::binary);
    char magic[4] = {};
    if (in.read(magic, 4) && std::string(magic, 4) == "zkey")
      return make_error(args.params_path + " is a snarkjs .zkey, not bellman parameters: give it as --zkey");
    return params.error();
  }
  return proving_key_from_bellman(std::move(*params));
}

// The prover's input: from the zkey's coefficients, from an r1cs + witness, or from a sample.
Result<r1cs::Assignment> load_assignment(const ProveArgs& args, const std::optional<SnarkjsZkey>& zkey,
                                         std::vector<Fr>& public_inputs) {
  Result<r1cs::Assignment> as = make_error("no witness");
  if (!args.wtns_path.empty()) {
    auto wtns = read_wtns(args.wtns_path);
    if (!wtns) return wtns.error();
    std::optional<SnarkjsR1cs> cs;
    if (!args.r1cs_path.empty()) {
      auto parsed = read_r1cs(args.r1cs_path);
      if (!parsed) return parsed.error();
      cs = std::move(*parsed);
    }
    if (zkey) {
      as = assignment_from_zkey(*zkey, wtns->values, cs ? &*cs : nullptr);
    } else {
      if (!cs) return make_error("--wtns with --params needs the circuit's --r1cs");
      auto m = to_constraint_matrices(*cs);
      auto bad = r1cs::first_unsatisfied(m, wtns->values);
      if (!bad) return bad.error();
      if (bad->has_value())
        return make_error("the witness does not satisfy constraint " + std::to_string(**bad) + " of " +
                          args.r1cs_path);
      as = r1cs::evaluate(m, wtns->values, args.threads ? args.threads : 0);
    }
  } else {
    if (zkey) return make_error("--zkey needs a witness (--wtns)");
    auto circuit = r1cs::make_sample_circuit(args.spec);
    if (!circuit) return circuit.error();
    if (const auto* synthetic = dynamic_cast<const r1cs::SyntheticCircuit*>(circuit->get()))
      as = synthetic->synthesize_assignment(args.threads);
    else
      as = r1cs::synthesize_for_proving(**circuit);
  }
  if (!as) return as.error();
  public_inputs.assign(as->input_assignment.begin() + 1, as->input_assignment.end());
  return as;
}

int run_prove(const ProveArgs& args) {
  if (args.params_path.empty() == args.zkey_path.empty())
    return fail("give exactly one of --params and --zkey");
  ThreadPool pool(args.threads);
  std::optional<SnarkjsZkey> zkey;
  Result<groth16::ProvingKey> pk = make_error("");
  {
    Stage stage("load parameters", args.quiet);
    {
      MappedReadProgress reading("load parameters",
                                 args.params_path.empty() ? args.zkey_path : args.params_path, args.quiet);
      pk = load_key(args, zkey);
    }
    if (!pk) return fail(pk.message());
    stage.done();
  }
  std::vector<Fr> inputs;
  Result<r1cs::Assignment> as = make_error("");
  {
    Stage stage("synthesize", args.quiet);
    as = load_assignment(args, zkey, inputs);
    if (!as) return fail(as.message());
    stage.done();
  }
  const size_t constraints = as->a.size();
  auto chosen = make_backend(args.backend, args.device, args.vram_budget, pool);
  if (!chosen) return fail(chosen.message());
  const std::string prove_label = "prove (" + chosen->backend->name() + ")";
  Result<groth16::Proof> proof = make_error("");
  double prove_s = 0;
  {
    Stage stage(prove_label.c_str(), args.quiet);
    const auto rs =
        args.rs_seed ? groth16::ProofRandomness::from_seed(*args.rs_seed) : groth16::ProofRandomness::fresh();
    proof = groth16::create_proof(*pk, *as, rs, *chosen->backend);
    if (!proof) return fail(proof.message());
    prove_s = stage.done();
  }
  if (!args.no_verify) {
    Stage stage("verify", args.quiet);
    auto pvk = groth16::prepare_verifying_key(pk->vk);
    if (!pvk) return fail(pvk.message());
    auto ok = groth16::verify_proof(*pvk, *proof, inputs);
    if (!ok) return fail(ok.message());
    if (!*ok)
      return fail(zkey && args.r1cs_path.empty()
                      ? "the proof does not verify: the witness does not satisfy the circuit (pass --r1cs to "
                        "find the constraint)"
                      : "the proof does not verify (a bug: please report it with the inputs)");
    stage.done();
  }
  const std::string format = !args.proof_format.empty() ? args.proof_format : zkey ? "snarkjs" : "bellman";
  if (format == "snarkjs") {
    if (auto st = write_text(args.proof_path, snarkjs_proof_json(*proof)); !st) return fail(st.message());
  } else {
    const auto bytes = proof_to_bytes(*proof);
    if (auto st = write_file_bytes(args.proof_path, bytes); !st) return fail(st.message());
  }
  if (!args.public_path.empty())
    if (auto st = write_text(args.public_path, snarkjs_public_json(inputs)); !st) return fail(st.message());
  std::printf("prove: %zu constraints, domain 2^%d, %zu public inputs, proved on %s in %.3f s -> %s (%s)\n",
              constraints, __builtin_ctzll(pk->domain_size), inputs.size(), chosen->backend->name().c_str(),
              prove_s, args.proof_path.c_str(), format.c_str());
  return 0;
}

}  // namespace

void register_prove(CLI::App& app, int& status) {
  auto args = std::make_shared<ProveArgs>();
  auto* cmd = app.add_subcommand(
      "prove",
      "Make a Groth16 proof (bellman .params or snarkjs .zkey). Exit 0: proved (and checked); 1: an error");
  add_circuit_options(cmd, args->spec);
  cmd->add_option("--params", args->params_path, "bellman .params file")->check(CLI::ExistingFile);
  cmd->add_option("--zkey", args->zkey_path, "snarkjs .zkey file")->check(CLI::ExistingFile);
  cmd->add_option("--r1cs", args->r1cs_path, "circom .r1cs of the circuit (checks the witness)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--wtns", args->wtns_path, "snarkjs .wtns witness (instead of a sample circuit)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--proof", args->proof_path, "Output proof file")->required();
  cmd->add_option("--public", args->public_path, "Output public inputs (JSON array of decimal strings)");
  cmd->add_option("--proof-format", args->proof_format,
                  "bellman (192 bytes) or snarkjs (proof.json); default: the key's own")
      ->check(CLI::IsMember({"bellman", "snarkjs"}));
  cmd->add_flag(
      "--check-params", args->check_params,
      "Also check that every parameter point is in its subgroup (slow; the proof is pairing-checked anyway)");
  cmd->add_flag("--trusted-params", args->trusted_params,
                "Skip subgroup checks (the default; kept for scripts)");
  cmd->add_flag("--no-verify", args->no_verify,
                "Do not pairing-check the proof before writing it (then use --check-params)");
  cmd->add_option("--rs-seed", args->rs_seed, "Deterministic r and s: for tests only (proofs then leak)");
  cmd->add_option("--threads", args->threads, "CPU threads (0: all)")->capture_default_str();
  cmd->add_option("--backend", args->backend, "cpu, cuda, or auto (cuda when a device is found)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--device", args->device, "CUDA device index")->capture_default_str();
  cmd->add_option("--vram-budget", args->vram_budget,
                  "Device memory the proof may use (e.g. 8G; default: free less 512M)");
  cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
  cmd->callback([args, &status] { status = run_prove(*args); });
}

}  // namespace cuzk::cli
