// `cuzk verify`: checks Groth16 proofs.
//   bellman: --vk (or --params) + --proof (192·n bytes: several proofs are batch-verified) + --public
//            (a JSON array of decimal strings, or an array of such arrays, one per proof);
//   snarkjs: --vk-json verification_key.json + --proof proof.json + --public public.json.
// Exit status 0: valid; 3: does not verify; 1: the inputs could not be read.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "io/file.hpp"
#include "io/proof.hpp"
#include "io/snarkjs_json.hpp"

namespace cuzk::cli {
namespace {

struct VerifyArgs {
  std::string vk_path, params_path, vk_json_path, proof_path, public_path;
};

Result<std::string> read_text(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return bytes.error();
  return std::string(bytes->begin(), bytes->end());
}

// One array of decimal strings, or an array of them (one per proof).
Result<std::vector<std::vector<Fr>>> parse_public_sets(const std::string& text) {
  auto flat = parse_snarkjs_public_json(text);
  if (flat) return std::vector<std::vector<Fr>>{std::move(*flat)};
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_array() || doc.empty() || !doc[0].is_array()) return flat.error();
  std::vector<std::vector<Fr>> sets;
  for (const auto& set : doc) {
    auto one = parse_snarkjs_public_json(set.dump());
    if (!one) return one.error();
    sets.push_back(std::move(*one));
  }
  return sets;
}

// Where a JSON text stops being JSON: "line L, column C: <parser's words>", or "" when it parses.
std::string json_syntax_error(const std::string& text) {
  try {
    const auto parsed = nlohmann::json::parse(text);
    (void)parsed;
    return "";
  } catch (const nlohmann::json::parse_error& e) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    if (const auto colon = what.rfind(": "); colon != std::string::npos) what = what.substr(colon + 2);
    return "not valid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) + ": " +
           what;
  }
}

// A file that is not JSON, or JSON of another shape, is an input error (exit 1), not an invalid proof.
Status check_json_file(const std::string& path, const std::string& text, const char* needs_key) {
  if (auto syntax = json_syntax_error(text); !syntax.empty()) return make_error(path + ": " + syntax);
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (needs_key && (!doc.is_object() || !doc.contains(needs_key)))
    return make_error(path + ": not a snarkjs proof (a JSON object with pi_a, pi_b, pi_c)");
  return {};
}

// A proof file that was read but does not hold valid proof points (off the curve, outside the
// subgroup, infinity, wrong length) is an invalid proof, not an input error: exit 3, like any proof
// that fails the pairing check.
int invalid(const std::string& why) {
  std::printf("verify: INVALID (%s)\n", why.c_str());
  return kExitInvalidProof;
}

int run_verify(const VerifyArgs& args) {
  const int keys = !args.vk_path.empty() + !args.params_path.empty() + !args.vk_json_path.empty();
  if (keys != 1) return fail("give exactly one of --vk, --params and --vk-json");
  auto public_text = read_text(args.public_path);
  if (!public_text) return fail(public_text.message());
  if (auto st = check_json_file(args.public_path, *public_text, nullptr); !st) return fail(st.message());
  auto public_sets = parse_public_sets(*public_text);
  if (!public_sets) return fail(args.public_path + ": " + public_sets.message());

  Result<groth16::VerifyingKey> vk = make_error("");
  std::vector<groth16::Proof> proofs;
  if (!args.vk_json_path.empty()) {
    auto text = read_text(args.vk_json_path);
    if (!text) return fail(text.message());
    if (auto st = check_json_file(args.vk_json_path, *text, nullptr); !st) return fail(st.message());
    vk = parse_snarkjs_vk_json(*text);
    auto proof_text = read_text(args.proof_path);
    if (!proof_text) return fail(proof_text.message());
    if (auto st = check_json_file(args.proof_path, *proof_text, "pi_a"); !st) return fail(st.message());
    auto proof = parse_snarkjs_proof_json(*proof_text);
    if (!proof) return invalid(args.proof_path + ": " + proof.message());
    proofs.push_back(*proof);
  } else {
    vk = read_bellman_vk(args.vk_path.empty() ? args.params_path : args.vk_path);
    auto bytes = read_file_bytes(args.proof_path);
    if (!bytes) return fail(bytes.message());
    if (bytes->empty() || bytes->size() % 192 != 0)
      return fail(args.proof_path + ": " + std::to_string(bytes->size()) +
                  " bytes is not a whole number of 192-byte bellman proofs (a snarkjs JSON proof goes with "
                  "--vk-json)");
    auto parsed = read_proofs(*bytes);
    if (!parsed) return invalid(args.proof_path + ": " + parsed.message());
    proofs = std::move(*parsed);
  }
  if (!vk) return fail(vk.message());
  if (public_sets->size() != proofs.size())
    return fail(std::to_string(proofs.size()) + " proofs but " + std::to_string(public_sets->size()) +
                " sets of public inputs");
  auto pvk = groth16::prepare_verifying_key(*vk);
  if (!pvk) return fail(pvk.message());
  auto ok = proofs.size() == 1 ? groth16::verify_proof(*pvk, proofs[0], (*public_sets)[0])
                               : groth16::verify_proofs_batch(*pvk, proofs, *public_sets);
  if (!ok) return fail(ok.message());
  if (!*ok) {
    std::printf("verify: INVALID (%zu proof%s)\n", proofs.size(), proofs.size() == 1 ? "" : "s");
    return kExitInvalidProof;
  }
  std::printf("verify: OK (%zu proof%s)\n", proofs.size(), proofs.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace

void register_verify(CLI::App& app, int& status) {
  auto args = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand("verify", "Verify Groth16 proofs (exit 0 valid, 3 invalid, 1 error)");
  cmd->add_option("--vk", args->vk_path, "bellman .vk file")->check(CLI::ExistingFile);
  cmd->add_option("--params", args->params_path, "bellman .params file (its verifying key)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--vk-json", args->vk_json_path, "snarkjs verification_key.json")->check(CLI::ExistingFile);
  cmd->add_option("--proof", args->proof_path, "Proof: 192·n bytes (bellman) or proof.json (snarkjs)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--public", args->public_path, "Public inputs JSON")->required()->check(CLI::ExistingFile);
  cmd->callback([args, &status] { status = run_verify(*args); });
}

}  // namespace cuzk::cli
