// `cuzk seal-test-sector`: a sealed test sector's files, the inputs of the Filecoin proving
// commands. A real sector (2 KiB, 8 MiB; 512 MiB works slowly) is sealed in memory from the given or
// seeded random data, and the directory receives:
//   c1.json                      the commit-phase-1 output, as lotus stores it (bare C1 JSON);
//   c1.curio.json                with --curio: Curio's wrapper around it (SectorNum, Phase1Out, SectorSize);
//   window-<sector>.vproof       the sector's WindowPoSt vanilla proof (bincode FallbackPoStSectorProof)
//                                for the size's WindowPoSt V1_2 type at --post-randomness;
//   winning-<sector>.vproof      its WinningPoSt vanilla proof (66 inclusion proofs);
//   update-<sector>-<k>.vproof   SnapDeals: the sector updated with new (seeded random) data, one
//                                vanilla proof per partition k (bincode PartitionProof);
//   sector.json                  what was sealed: proof types, ids, ticket, seed, commitments, randomness.
// --virtual makes a virtual sector's c1.json instead (any size, 32 and 64 GiB included): consistent
// without the sector's data, and with no trees for PoSt proofs.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <system_error>

#include "cli/filecoin_args.hpp"
#include "cli/filecoin_commands.hpp"
#include "cli/options.hpp"
#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/curio_c1.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "filecoin/types/prover_id.hpp"
#include "filecoin/vanilla/fr32.hpp"
#include "filecoin/vanilla/post_proof.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "filecoin/vanilla/update.hpp"
#include "filecoin/vanilla/virtual_sector.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;
using filecoin::Domain;

struct SealArgs {
  std::string proof = "StackedDrg2KiBV1_1";
  std::string out;
  uint64_t miner_id = 1000;
  uint64_t sector_id = 1;
  std::string ticket_hex, seed_hex, randomness_hex, data_path;
  uint64_t rng_seed = 1;
  bool curio = false, virtual_sector = false, quiet = false;
};

Domain random_domain(std::mt19937_64& rng) {
  Domain d;
  for (auto& b : d) b = uint8_t(rng());
  return d;
}

Result<Domain> domain_or_random(const std::string& hex, std::mt19937_64& rng, const char* option) {
  const Domain drawn = random_domain(rng);  // drawn either way, so each value depends only on --rng-seed
  if (hex.empty()) return drawn;
  auto d = filecoin::parse_domain_hex(hex);
  if (!d) return make_input_error(std::string(option) + ": " + d.message());
  return *d;
}

// The PoSt types of a sector size that a sealed sector's vanilla proofs are made for: WindowPoSt
// V1_2 (API 1.2.0, what the network uses) and WinningPoSt V1.
Result<filecoin::RegisteredProof> post_type_for(filecoin::ProofKind kind, uint64_t sector_size) {
  for (const auto& p : filecoin::registered_proofs(filecoin::ProofFamily::post))
    if (p.kind == kind && p.sector_size == sector_size &&
        (kind == filecoin::ProofKind::winning_post || p.api_version == filecoin::ApiVersion::v1_2_0))
      return p;
  return make_error("no PoSt type for sector size " + std::to_string(sector_size));
}

Status write_post_proofs(const filecoin::vanilla::TestSector& sector, const Domain& randomness,
                         const fs::path& dir, nlohmann::json& summary) {
  for (auto kind : {filecoin::ProofKind::window_post, filecoin::ProofKind::winning_post}) {
    auto type = post_type_for(kind, sector.info.shape.sector_size);
    if (!type) return type.error();
    auto proof = filecoin::vanilla::post_vanilla_proof(sector, *type, randomness);
    if (!proof) return proof.error();
    const bool window = kind == filecoin::ProofKind::window_post;
    const fs::path path =
        dir / ((window ? "window-" : "winning-") + std::to_string(sector.sector_id) + ".vproof");
    const auto bytes = filecoin::write_post_vanilla_proof(*proof);
    CUZK_TRY_STATUS(write_whole_file(path.string(), std::string(bytes.begin(), bytes.end())));
    summary[window ? "window_post" : "winning_post"] = {{"proof_type", std::string(type->name)},
                                                        {"proof_id", type->id},
                                                        {"vanilla", path.filename().string()}};
  }
  return Status::Ok();
}

// The sector updated with `raw` new data at the size's default h, and its SnapDeals vanilla proofs.
Status write_update_proofs(const filecoin::vanilla::TestSector& sector, std::span<const uint8_t> raw,
                           const fs::path& dir, nlohmann::json& summary) {
  auto shape = filecoin::vanilla::update_shape(sector.info.shape.sector_size);
  if (!shape) return shape.error();
  auto updated = filecoin::vanilla::update_test_sector(sector, raw, shape->h_default());
  if (!updated) return updated.error();
  auto proofs = filecoin::vanilla::update_vanilla_proofs(filecoin::vanilla::update_view(sector, *updated));
  if (!proofs) return proofs.error();
  auto type = filecoin::registered_proof(filecoin::ProofFamily::update, sector.info.shape_key);
  if (!type) return type.error();
  nlohmann::json files = nlohmann::json::array();
  for (size_t k = 0; k < proofs->size(); ++k) {
    const std::string name =
        "update-" + std::to_string(sector.sector_id) + "-" + std::to_string(k) + ".vproof";
    const auto bytes = filecoin::write_update_vanilla_proof((*proofs)[k]);
    CUZK_TRY_STATUS(write_whole_file((dir / name).string(), std::string(bytes.begin(), bytes.end())));
    files.push_back(name);
  }
  summary["update"] = {{"proof_type", std::string(type->name)},
                       {"proof_id", type->id},
                       {"comm_r_old", filecoin::domain_hex(updated->comm_r_old)},
                       {"comm_d_new", filecoin::domain_hex(updated->comm_d_new)},
                       {"comm_r_new", filecoin::domain_hex(updated->comm_r_new)},
                       {"vanilla", files}};
  return Status::Ok();
}

int run_seal(const SealArgs& args) {
  auto type = parse_registered_proof(filecoin::ProofFamily::seal, args.proof);
  if (!type) return fail("--proof: " + type.message());
  const fs::path dir(args.out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail("cannot create " + dir.string() + ": " + ec.message());

  std::mt19937_64 rng(args.rng_seed);
  auto ticket = domain_or_random(args.ticket_hex, rng, "--ticket");
  if (!ticket) return fail(ticket.message());
  auto seed = domain_or_random(args.seed_hex, rng, "--seed");
  if (!seed) return fail(seed.message());
  auto randomness = domain_or_random(args.randomness_hex, rng, "--post-randomness");
  if (!randomness) return fail(randomness.message());
  *randomness = filecoin::trim_to_fr32(*randomness);  // as filecoin-proofs-api clears its top bits
  const Domain prover_id = filecoin::prover_id_from_actor_id(args.miner_id);

  nlohmann::json summary = {{"registered_proof", std::string(type->name)},
                            {"proof_id", type->id},
                            {"sector_size", type->sector_size},
                            {"miner_id", args.miner_id},
                            {"prover_id", filecoin::domain_hex(prover_id)},
                            {"sector_id", args.sector_id},
                            {"ticket", filecoin::domain_hex(*ticket)},
                            {"seed", filecoin::domain_hex(*seed)},
                            {"virtual", args.virtual_sector}};
  Result<filecoin::SealCommitPhase1Output> c1 = make_error("");
  if (args.virtual_sector) {
    Stage stage("virtual commit phase 1", args.quiet);
    c1 = filecoin::vanilla::virtual_commit_phase1(type->id, prover_id, args.sector_id, *ticket, *seed,
                                                  args.rng_seed);
    if (!c1) return fail(c1.message());
    stage.done();
  } else {
    std::string data;
    if (!args.data_path.empty()) {
      auto read = read_whole_file(args.data_path);
      if (!read) return fail(read.message());
      data = std::move(*read);
    } else {
      data.resize(filecoin::vanilla::fr32_unpadded_size(type->sector_size));
      for (auto& b : data) b = char(rng());
    }
    Result<filecoin::vanilla::TestSector> sector = make_error("");
    {
      Stage stage("seal (labels, trees)", args.quiet);
      sector = filecoin::vanilla::seal_test_sector(
          type->id, prover_id, args.sector_id, *ticket, *seed,
          std::span(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
      if (!sector) return fail(sector.message());
      stage.done();
    }
    {
      Stage stage("commit phase 1", args.quiet);
      c1 = filecoin::vanilla::commit_phase1(*sector);
      if (!c1) return fail(c1.message());
      stage.done();
    }
    summary["post_randomness"] = filecoin::domain_hex(*randomness);
    if (auto st = write_post_proofs(*sector, *randomness, dir, summary); !st) return fail(st.message());
    std::string new_data(data.size(), '\0');
    for (auto& b : new_data) b = char(rng());
    const auto new_bytes = std::span(reinterpret_cast<const uint8_t*>(new_data.data()), new_data.size());
    if (auto st = write_update_proofs(*sector, new_bytes, dir, summary); !st)
      return fail("SnapDeals: " + st.message());
  }
  summary["comm_r"] = filecoin::domain_hex(c1->comm_r);
  summary["comm_d"] = filecoin::domain_hex(c1->comm_d);
  summary["replica_id"] = filecoin::domain_hex(c1->replica_id);

  const std::string c1_json = filecoin::write_c1_json(*c1);
  if (auto st = write_whole_file((dir / "c1.json").string(), c1_json); !st) return fail(st.message());
  if (args.curio) {
    const std::string wrapped =
        filecoin::write_curio_c1_wrapper({args.sector_id, type->sector_size, c1_json});
    if (auto st = write_whole_file((dir / "c1.curio.json").string(), wrapped); !st) return fail(st.message());
  }
  if (auto st = write_whole_file((dir / "sector.json").string(), summary.dump(2) + "\n"); !st)
    return fail(st.message());
  std::printf("seal-test-sector: %s, miner f0%llu, sector %llu%s: comm_r %s -> %s\n",
              std::string(type->name).c_str(), static_cast<unsigned long long>(args.miner_id),
              static_cast<unsigned long long>(args.sector_id), args.virtual_sector ? " (virtual)" : "",
              filecoin::domain_hex(c1->comm_r).c_str(), dir.string().c_str());
  return 0;
}

}  // namespace

void register_filecoin_seal(CLI::App& app, int& status) {
  auto args = std::make_shared<SealArgs>();
  auto* cmd = app.add_subcommand(
      "seal-test-sector",
      "Seal a test sector and write its commit-phase-1 output (c1.json; --curio: c1.curio.json, Curio's "
      "wrapper), its WindowPoSt and WinningPoSt vanilla proofs (window-<sector>.vproof, "
      "winning-<sector>.vproof: bincode, as generate_single_vanilla_proof returns them), the SnapDeals "
      "vanilla proofs of the sector updated with new random data (update-<sector>-<k>.vproof, one per "
      "partition) and sector.json "
      "(what was sealed). Data, ticket, seed and PoSt randomness are drawn from --rng-seed unless given");
  cmd->add_option("--proof", args->proof, "Registered seal proof: name (StackedDrg2KiBV1_1) or id (5)")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Output directory")->required();
  cmd->add_option("--miner-id", args->miner_id, "Miner actor id (the prover id is f0<N>'s payload)")
      ->capture_default_str();
  cmd->add_option("--sector-id", args->sector_id, "Sector number")->capture_default_str();
  cmd->add_option("--ticket", args->ticket_hex, "Ticket, 32 bytes of hex");
  cmd->add_option("--seed", args->seed_hex, "Interactive seed, 32 bytes of hex");
  cmd->add_option("--post-randomness", args->randomness_hex,
                  "Randomness of the PoSt vanilla proofs, 32 bytes of hex (top two bits cleared)");
  cmd->add_option("--data", args->data_path, "The sector's unpadded data (at most size·127/128 bytes)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--rng-seed", args->rng_seed, "Seed of the random data and values")->capture_default_str();
  cmd->add_flag("--curio", args->curio, "Also write c1.curio.json, Curio's wrapper around the C1 output");
  cmd->add_flag("--virtual", args->virtual_sector,
                "A virtual sector's C1 (any size, 32/64 GiB included; V1 and V1_1 types): no data, no PoSt "
                "proofs");
  cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
  cmd->callback([args, &status] { status = run_seal(*args); });
}

}  // namespace cuzk::cli
