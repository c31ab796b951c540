// `cuzk verify-porep | verify-post | verify-update`: checks Filecoin proof bytes (192 per partition,
// as prove-* and filecoin-ffi write them) against the official-name .vk in the parameter directory,
// with the public inputs a verifier derives from the same inputs the prover had:
//   PoRep: the C1's proof type, comm_d, comm_r, seed, ticket; with --miner-id/--prover-id and
//          --sector-id the replica_id is rederived from them (otherwise the C1's own is taken);
//   PoSt:  the randomness and each vanilla proof's sector id and comm_r;
//   SnapDeals: the three commitments.
// Exit status, as `cuzk verify`: 0 valid; 3 a proof that does not verify (including bytes that are
// not curve points); 1 an input that cannot be read or makes no sense (a malformed C1 or vanilla
// proof, proof bytes of the wrong length, missing parameters).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/filecoin_args.hpp"
#include "cli/filecoin_commands.hpp"
#include "cli/options.hpp"
#include "filecoin/formats/proof_bytes.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "io/proof.hpp"

namespace cuzk::cli {
namespace {

struct VerifyOptions {
  std::string param_dir, proof_in;
};

void add_verify_options(CLI::App* cmd, VerifyOptions& o) {
  add_param_dir_option(cmd, o.param_dir);
  cmd->add_option("--proof-in", o.proof_in, "The proof bytes: 192 per partition, in partition order")
      ->required()
      ->check(CLI::ExistingFile);
}

int verify_request(const filecoin::ProofRequest& request, const VerifyOptions& o) {
  const char* what = filecoin::proof_kind_name(request.kind);
  auto prepared = filecoin::PreparedProof::prepare(request, filecoin::PrepareFor::verifying);
  if (!prepared) return fail(prepared.message());
  const auto dir = filecoin::resolve_parameter_directory(o.param_dir);
  auto vk_path = filecoin::find_parameter_file(prepared->circuit(), filecoin::ParameterExt::vk, dir);
  if (!vk_path) return fail(vk_path.message());
  auto vk = read_bellman_vk(*vk_path);
  if (!vk) return fail(vk.message());
  auto pvk = groth16::prepare_verifying_key(*vk);
  if (!pvk) return fail(pvk.message());

  auto bytes = read_file_bytes(o.proof_in);
  if (!bytes) return fail(bytes.message());
  const size_t n = prepared->partitions();
  auto parts = filecoin::split_partition_proofs(*bytes, n);
  if (!parts) return fail(o.proof_in + ": " + parts.message());
  std::vector<groth16::Proof> proofs;
  std::vector<std::vector<Fr>> inputs;
  for (size_t k = 0; k < n; ++k) {
    auto proof = read_proofs((*parts)[k]);
    if (!proof) {
      std::printf("%s: INVALID (partition %zu: %s)\n", what, k, proof.message().c_str());
      return kExitInvalidProof;
    }
    proofs.push_back((*proof)[0]);
    auto in = prepared->public_inputs(k);
    if (!in) return fail(in.message());
    inputs.push_back(std::move(*in));
  }
  auto ok = n == 1 ? groth16::verify_proof(*pvk, proofs[0], inputs[0])
                   : groth16::verify_proofs_batch(*pvk, proofs, inputs);
  if (!ok) return fail(ok.message());
  const std::string name(prepared->proof_type().name);
  std::printf("%s: %s (%s, %zu partition%s)\n", what, *ok ? "OK" : "INVALID", name.c_str(), n,
              n == 1 ? "" : "s");
  return *ok ? 0 : kExitInvalidProof;
}

using PorepArgs = PorepCommandArgs<VerifyOptions>;
using PostArgs = PostCommandArgs<VerifyOptions>;
using UpdateArgs = UpdateCommandArgs<VerifyOptions>;

}  // namespace

void register_filecoin_verify(CLI::App& app, int& status) {
  {
    auto a = std::make_shared<PorepArgs>();
    auto* cmd = app.add_subcommand(
        "verify-porep",
        "Verify PoRep C2 proof bytes against the official-name .vk, with the public inputs derived from the "
        "C1 (exit 0 valid, 3 invalid, 1 error)");
    cmd->add_option("--c1", a->c1_path, "The commit-phase-1 output the proof was made from (bare or Curio's)")
        ->required()
        ->check(CLI::ExistingFile);
    add_prover_options(cmd, a->prover);
    add_verify_options(cmd, a->o);
    cmd->callback([a, &status] {
      auto r = porep_request(a->c1_path, a->prover);
      status = r ? verify_request(*r, a->o) : fail(r.message());
    });
  }
  {
    auto a = std::make_shared<PostArgs>();
    auto* cmd = app.add_subcommand(
        "verify-post",
        "Verify WindowPoSt/WinningPoSt proof bytes; the sectors' ids and comm_r come from their vanilla "
        "proofs (exit 0 valid, 3 invalid, 1 error)");
    add_post_options(cmd, a->kind, a->proof, a->randomness_hex, a->vanilla, a->partition);
    add_verify_options(cmd, a->o);
    cmd->callback([a, &status] {
      auto r = post_request(a->kind, a->proof, a->randomness_hex, a->vanilla, a->partition);
      status = r ? verify_request(*r, a->o) : fail(r.message());
    });
  }
  {
    auto a = std::make_shared<UpdateArgs>();
    auto* cmd = app.add_subcommand(
        "verify-update",
        "Verify SnapDeals proof bytes against the three commitments (exit 0 valid, 3 invalid, 1 error)");
    add_update_options(cmd, a->proof, a->vanilla, a->comm_r_old, a->comm_d_new, a->comm_r_new);
    add_verify_options(cmd, a->o);
    cmd->callback([a, &status] {
      auto r = update_request(a->proof, a->vanilla, a->comm_r_old, a->comm_d_new, a->comm_r_new);
      status = r ? verify_request(*r, a->o) : fail(r.message());
    });
  }
}

}  // namespace cuzk::cli
