// `cuzk prove-porep | prove-post | prove-update`: Filecoin proofs from the files storage providers
// hold, in this process (`cuzk submit` asks a daemon instead). Each command checks the vanilla
// proofs first (a bad input is named before any proving time is spent), finds the parameters by
// their official name in the parameter directory, proves every partition on the backend `cuzk
// prove` would choose (--backend auto: the GPU when one is found), pairing-checks each proof against
// the inputs a verifier computes, and writes the partition proofs concatenated, 192 bytes each, in
// partition order: the bytes filecoin-ffi returns.
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/backend_select.hpp"
#include "cli/filecoin_args.hpp"
#include "cli/filecoin_commands.hpp"
#include "cli/options.hpp"
#include "cli/stage_progress.hpp"
#include "common/thread_pool.hpp"
#include "filecoin/formats/proof_bytes.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "io/proof.hpp"

namespace cuzk::cli {
namespace {

using filecoin::ProofKind;

struct ProveOptions {
  std::string param_dir, proof_out;
  std::string backend = "auto";
  int device = 0;
  std::string vram_budget;
  unsigned threads = 0;
  std::optional<uint64_t> rs_seed;
  bool quiet = false;
};

void add_prove_options(CLI::App* cmd, ProveOptions& o) {
  add_param_dir_option(cmd, o.param_dir);
  cmd->add_option("--proof-out", o.proof_out,
                  "Output: the partition proofs, 192 bytes each, in partition order")
      ->required();
  cmd->add_option("--backend", o.backend, "cpu, cuda, or auto (cuda when a device is found)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--device", o.device, "CUDA device index")->capture_default_str();
  cmd->add_option("--vram-budget", o.vram_budget, "Device memory the proof may use (e.g. 8G)");
  cmd->add_option("--threads", o.threads, "CPU threads (0: all)")->capture_default_str();
  cmd->add_option("--rs-seed", o.rs_seed, "Deterministic r and s: for tests only (proofs then leak)");
  cmd->add_flag("--quiet,-q", o.quiet, "No progress on stderr");
}

// One partition: synthesized, proved, checked with the pairing against the verifier's inputs.
Result<groth16::Proof> prove_partition(const filecoin::PreparedProof& prepared, size_t k,
                                       const groth16::ProvingKey& pk,
                                       const groth16::PreparedVerifyingKey& pvk, ComputeBackend& backend,
                                       const ProveOptions& o) {
  const std::string label = "partition " + std::to_string(k) + ": synthesize";
  Result<r1cs::Assignment> as = make_error("");
  std::vector<Fr> inputs;
  {
    Stage stage(label.c_str(), o.quiet);
    auto part = prepared.partition(k);
    if (!part) return part.error();
    as = filecoin::synthesize_partition(*part->circuit,
                                        o.threads ? o.threads : std::thread::hardware_concurrency());
    if (!as) return as.error();
    const std::vector<Fr> wires(as->input_assignment.begin() + 1, as->input_assignment.end());
    if (wires != part->public_inputs)
      return make_error("partition " + std::to_string(k) +
                        ": the circuit's inputs differ from the verifier's");
    inputs = std::move(part->public_inputs);
    stage.done();
  }
  if (auto st = groth16::check_assignment_shape(pk, *as); !st)
    return make_error("partition " + std::to_string(k) + " does not fit the parameters: " + st.message());
  const std::string prove_label = "partition " + std::to_string(k) + ": prove (" + backend.name() + ")";
  Result<groth16::Proof> proof = make_error("");
  {
    Stage stage(prove_label.c_str(), o.quiet);
    const auto rs =
        o.rs_seed ? groth16::ProofRandomness::from_seed(*o.rs_seed + k) : groth16::ProofRandomness::fresh();
    proof = groth16::create_proof(pk, *as, rs, backend);
    if (!proof) return proof.error();
    stage.done();
  }
  auto ok = groth16::verify_proof(pvk, *proof, inputs);
  if (!ok) return ok.error();
  if (!*ok)
    return make_error("partition " + std::to_string(k) +
                      ": the proof does not verify (a bug: please report it)");
  return proof;
}

int prove_request(const filecoin::ProofRequest& request, const ProveOptions& o) {
  const char* what = filecoin::proof_kind_name(request.kind);
  Result<filecoin::PreparedProof> prepared = make_error("");
  {
    Stage stage("check the vanilla proofs", o.quiet);
    prepared = filecoin::PreparedProof::prepare(request, filecoin::PrepareFor::proving);
    if (!prepared) return fail(prepared.message());
    stage.done();
  }
  const auto dir = filecoin::resolve_parameter_directory(o.param_dir);
  auto path = filecoin::find_parameter_file(prepared->circuit(), filecoin::ParameterExt::params, dir);
  if (!path) return fail(path.message());
  ThreadPool pool(o.threads);
  Result<groth16::ProvingKey> pk = make_error("");
  {
    const char* const load_stage = "load parameters";
    Stage stage(load_stage, o.quiet);
    Result<BellmanParameters> params = make_error("");
    {
      MappedReadProgress reading(load_stage, *path, o.quiet);
      params = read_bellman_params(*path, Check::curve_only);
    }
    if (!params) return fail(params.message());
    pk = proving_key_from_bellman(std::move(*params));
    if (!pk) return fail(pk.message());
    stage.done();
  }
  auto pvk = groth16::prepare_verifying_key(pk->vk);
  if (!pvk) return fail(pvk.message());
  auto chosen = make_backend(o.backend, o.device, o.vram_budget, pool);
  if (!chosen) return fail(chosen.message());

  std::vector<filecoin::PartitionProofBytes> proofs;
  const size_t partitions = prepared->partitions();
  ProgressMeter meter("partitions proved");
  meter.update(0, double(partitions));
  for (size_t k = 0; k < partitions; ++k) {
    auto proof = prove_partition(*prepared, k, *pk, *pvk, *chosen->backend, o);
    if (!proof) return fail(proof.message());
    proofs.push_back(proof_to_bytes(*proof));
    meter.update(double(k + 1), double(partitions));
    if (!o.quiet && partitions > 1) std::fprintf(stderr, "  %s\n", meter.describe().c_str());
  }
  const auto bytes = filecoin::join_partition_proofs(proofs);
  if (auto st = write_whole_file(o.proof_out, std::string(bytes.begin(), bytes.end())); !st)
    return fail(st.message());
  std::printf("%s: %s, %zu partition%s proved on %s and checked -> %s (%zu bytes)\n", what,
              std::string(prepared->proof_type().name).c_str(), proofs.size(), proofs.size() == 1 ? "" : "s",
              chosen->backend->name().c_str(), o.proof_out.c_str(), bytes.size());
  return 0;
}

using PorepArgs = PorepCommandArgs<ProveOptions>;
using PostArgs = PostCommandArgs<ProveOptions>;
using UpdateArgs = UpdateCommandArgs<ProveOptions>;

}  // namespace

void register_filecoin_prove(CLI::App& app, int& status) {
  {
    auto a = std::make_shared<PorepArgs>();
    auto* cmd = app.add_subcommand(
        "prove-porep",
        "PoRep C2: prove every partition of a commit-phase-1 output (after checking it) and write the "
        "partition proofs, 192 bytes each");
    cmd->add_option("--c1", a->c1_path,
                    "The commit-phase-1 output: bare C1 JSON (lotus' Commit1Out) or Curio's wrapper")
        ->required()
        ->check(CLI::ExistingFile);
    add_prover_options(cmd, a->prover);
    add_prove_options(cmd, a->o);
    cmd->callback([a, &status] {
      auto r = porep_request(a->c1_path, a->prover);
      status = r ? prove_request(*r, a->o) : fail(r.message());
    });
  }
  {
    auto a = std::make_shared<PostArgs>();
    auto* cmd = app.add_subcommand(
        "prove-post",
        "WindowPoSt or WinningPoSt from the sectors' vanilla proofs; writes 192 bytes a partition");
    add_post_options(cmd, a->kind, a->proof, a->randomness_hex, a->vanilla, a->partition);
    add_prove_options(cmd, a->o);
    cmd->callback([a, &status] {
      auto r = post_request(a->kind, a->proof, a->randomness_hex, a->vanilla, a->partition);
      status = r ? prove_request(*r, a->o) : fail(r.message());
    });
  }
  {
    auto a = std::make_shared<UpdateArgs>();
    auto* cmd = app.add_subcommand("prove-update",
                                   "SnapDeals: prove every partition of a sector update from its vanilla "
                                   "partition proofs; writes 192 bytes a partition");
    add_update_options(cmd, a->proof, a->vanilla, a->comm_r_old, a->comm_d_new, a->comm_r_new);
    add_prove_options(cmd, a->o);
    cmd->callback([a, &status] {
      auto r = update_request(a->proof, a->vanilla, a->comm_r_old, a->comm_d_new, a->comm_r_new);
      status = r ? prove_request(*r, a->o) : fail(r.message());
    });
  }
}

}  // namespace cuzk::cli
