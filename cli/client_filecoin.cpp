#include "cli/client_filecoin.hpp"

#include "cli/filecoin_args.hpp"
#include "filecoin/types/prover_id.hpp"

namespace cuzk::cli {
namespace {

Status set_domain(const std::string& hex, const char* option, std::string* out) {
  if (hex.empty()) return Status::Ok();
  auto d = filecoin::parse_domain_hex(hex);
  if (!d) return make_input_error(std::string(option) + ": " + d.message());
  out->assign(d->begin(), d->end());
  return Status::Ok();
}

}  // namespace

void add_filecoin_job_options(CLI::App* cmd, FilecoinJobArgs& a) {
  cmd->add_option("--c1", a.c1, "Filecoin PoRep C2 (--kind porep-c2): the C1 output, bare or Curio's wrapper")
      ->check(CLI::ExistingFile);
  cmd->add_option(
         "--vanilla", a.vanilla,
         "Filecoin PoSt (one bincode vanilla proof per sector) or SnapDeals (one per partition) files")
      ->check(CLI::ExistingFile);
  cmd->add_option("--proof-type", a.proof_type, "PoSt / SnapDeals: the registered proof type, name or id");
  cmd->add_option("--randomness", a.randomness, "PoSt: the randomness, 32 bytes of hex");
  cmd->add_option("--miner-id", a.miner_id, "PoRep: the miner's actor id (checked against replica_id)");
  cmd->add_option("--prover-id", a.prover_id, "PoRep: the prover id, 32 bytes of hex");
  cmd->add_option("--sector-id", a.sector_id, "PoRep: the sector number");
  cmd->add_option("--first-partition", a.first_partition, "WindowPoSt: the first partition's index")
      ->capture_default_str();
  cmd->add_option("--comm-r-old", a.comm_r_old, "SnapDeals: comm_r before the update, 32 bytes of hex");
  cmd->add_option("--comm-d-new", a.comm_d_new, "SnapDeals: comm_d of the new data, 32 bytes of hex");
  cmd->add_option("--comm-r-new", a.comm_r_new, "SnapDeals: comm_r after the update, 32 bytes of hex");
}

Status add_filecoin_partition(const FilecoinJobArgs& a, engine::JobKind kind, v1::JobSpec& spec) {
  auto* f = spec.add_partitions()->mutable_filecoin();
  const bool porep = kind == engine::JobKind::porep_c2;
  if (porep != !a.c1.empty() || porep == !a.vanilla.empty())
    return make_input_error("a porep-c2 job takes --c1; PoSt and SnapDeals jobs take --vanilla");
  for (const auto& path : porep ? std::vector<std::string>{a.c1} : a.vanilla) {
    auto bytes = read_whole_file(path);
    if (!bytes) return bytes.error();
    f->add_vanilla(std::move(*bytes));
  }
  if (!a.proof_type.empty()) {
    const auto family = kind == engine::JobKind::snap_deals ? filecoin::ProofFamily::update
                        : porep                             ? filecoin::ProofFamily::seal
                                                            : filecoin::ProofFamily::post;
    auto type = parse_registered_proof(family, a.proof_type);
    if (!type) return make_input_error("--proof-type: " + type.message());
    f->set_proof_id(type->id);
  }
  if (a.miner_id) {
    const auto id = filecoin::prover_id_from_actor_id(*a.miner_id);
    f->set_prover_id(std::string(id.begin(), id.end()));
  }
  CUZK_TRY_STATUS(set_domain(a.prover_id, "--prover-id", f->mutable_prover_id()));
  if (a.sector_id) f->set_sector_id(*a.sector_id);
  f->set_first_partition(a.first_partition);
  CUZK_TRY_STATUS(set_domain(a.randomness, "--randomness", f->mutable_randomness()));
  CUZK_TRY_STATUS(set_domain(a.comm_r_old, "--comm-r-old", f->mutable_comm_r_old()));
  CUZK_TRY_STATUS(set_domain(a.comm_d_new, "--comm-d-new", f->mutable_comm_d_new()));
  CUZK_TRY_STATUS(set_domain(a.comm_r_new, "--comm-r-new", f->mutable_comm_r_new()));
  return Status::Ok();
}

}  // namespace cuzk::cli
