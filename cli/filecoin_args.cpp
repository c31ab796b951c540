#include "cli/filecoin_args.hpp"

#include <charconv>
#include <span>

#include "filecoin/types/prover_id.hpp"
#include "io/file.hpp"

namespace cuzk::cli {

using filecoin::ProofKind;

Result<filecoin::RegisteredProof> parse_registered_proof(filecoin::ProofFamily family,
                                                         const std::string& text) {
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec == std::errc() && end == text.data() + text.size()) return filecoin::registered_proof(family, id);
  return filecoin::registered_proof(family, std::string_view(text));
}

Result<std::string> read_whole_file(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return bytes.error();
  return std::string(bytes->begin(), bytes->end());
}

Status write_whole_file(const std::string& path, const std::string& bytes) {
  return write_file_bytes(path, std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

void add_prover_options(CLI::App* cmd, ProverArgs& args) {
  auto* miner = cmd->add_option("--miner-id", args.miner_id,
                                "The miner's actor id (f0N): the prover id is its ID address payload");
  cmd->add_option("--prover-id", args.prover_id_hex, "The prover id itself, 32 bytes of hex")
      ->excludes(miner);
  cmd->add_option(
      "--sector-id", args.sector_id,
      "The sector number (Curio's wrapper carries it; with the prover id it rederives replica_id)");
}

Status apply_prover_args(const ProverArgs& args, filecoin::ProofRequest& request) {
  if (args.miner_id) request.prover_id = filecoin::prover_id_from_actor_id(*args.miner_id);
  if (!args.prover_id_hex.empty()) {
    auto id = filecoin::parse_domain_hex(args.prover_id_hex);
    if (!id) return make_input_error("--prover-id: " + id.message());
    request.prover_id = *id;
  }
  request.sector_id = args.sector_id;
  return Status::Ok();
}

void add_param_dir_option(CLI::App* cmd, std::string& dir) {
  cmd->add_option("--param-dir", dir,
                  "Parameter directory, files by their official v28-… names (default: "
                  "$FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters/)");
}

namespace {

Result<std::vector<std::string>> read_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    auto bytes = read_whole_file(p);
    if (!bytes) return bytes.error();
    out.push_back(std::move(*bytes));
  }
  return out;
}

}  // namespace

Result<filecoin::ProofRequest> porep_request(const std::string& c1_path, const ProverArgs& prover) {
  filecoin::ProofRequest r;
  r.kind = ProofKind::seal;
  auto c1 = read_whole_file(c1_path);
  if (!c1) return c1.error();
  r.vanilla.push_back(std::move(*c1));
  CUZK_TRY_STATUS(apply_prover_args(prover, r));
  return r;
}

Result<filecoin::ProofRequest> post_request(const std::string& kind, const std::string& proof,
                                            const std::string& randomness_hex,
                                            const std::vector<std::string>& vanilla, uint64_t partition) {
  filecoin::ProofRequest r;
  r.kind = kind == "winning" ? ProofKind::winning_post : ProofKind::window_post;
  auto type = parse_registered_proof(filecoin::ProofFamily::post, proof);
  if (!type) return make_input_error("--proof: " + type.message());
  r.proof_id = type->id;
  auto randomness = filecoin::parse_domain_hex(randomness_hex);
  if (!randomness) return make_input_error("--randomness: " + randomness.message());
  r.randomness = filecoin::trim_to_fr32(*randomness);  // filecoin-proofs-api clears the top two bits
  auto blobs = read_files(vanilla);
  if (!blobs) return blobs.error();
  r.vanilla = std::move(*blobs);
  r.first_partition = partition;
  return r;
}

Result<filecoin::ProofRequest> update_request(const std::string& proof,
                                              const std::vector<std::string>& vanilla,
                                              const std::string& comm_r_old, const std::string& comm_d_new,
                                              const std::string& comm_r_new) {
  filecoin::ProofRequest r;
  r.kind = ProofKind::update;
  auto type = parse_registered_proof(filecoin::ProofFamily::update, proof);
  if (!type) return make_input_error("--proof: " + type.message());
  r.proof_id = type->id;
  const std::pair<const std::string*, filecoin::Domain*> comms[] = {
      {&comm_r_old, &r.comm_r_old}, {&comm_d_new, &r.comm_d_new}, {&comm_r_new, &r.comm_r_new}};
  for (const auto& [hex, out] : comms) {
    auto d = filecoin::parse_domain_hex(*hex);
    if (!d) return make_input_error("commitment: " + d.message());
    *out = *d;
  }
  auto blobs = read_files(vanilla);
  if (!blobs) return blobs.error();
  r.vanilla = std::move(*blobs);
  return r;
}

void add_post_options(CLI::App* cmd, std::string& kind, std::string& proof, std::string& randomness,
                      std::vector<std::string>& vanilla, uint64_t& partition) {
  cmd->add_option("--kind", kind, "window or winning")
      ->required()
      ->check(CLI::IsMember({"window", "winning"}));
  cmd->add_option("--proof", proof,
                  "Registered PoSt proof: name (StackedDrgWindow2KiBV1_2, StackedDrgWinning2KiBV1) or id")
      ->required();
  cmd->add_option("--randomness", randomness,
                  "The challenge randomness, 32 bytes of hex (top two bits cleared)")
      ->required();
  cmd->add_option("--vanilla", vanilla,
                  "Vanilla proof files (bincode FallbackPoStSectorProof), one per sector in deadline order; "
                  "WinningPoSt: one of 66 inclusion proofs")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--partition", partition, "WindowPoSt: the (first) partition's index in the deadline")
      ->capture_default_str();
}

void add_update_options(CLI::App* cmd, std::string& proof, std::vector<std::string>& vanilla,
                        std::string& r_old, std::string& d_new, std::string& r_new) {
  cmd->add_option("--proof", proof, "Registered update proof: name (StackedDrg2KiBV1) or id")->required();
  cmd->add_option("--vanilla", vanilla,
                  "Vanilla partition proofs (bincode PartitionProof), one per partition")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--comm-r-old", r_old, "comm_r of the sector before the update, 32 bytes of hex")
      ->required();
  cmd->add_option("--comm-d-new", d_new, "comm_d of the new data, 32 bytes of hex")->required();
  cmd->add_option("--comm-r-new", r_new, "comm_r after the update, 32 bytes of hex")->required();
}

}  // namespace cuzk::cli
