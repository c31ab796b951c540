#include "server/filecoin_request.hpp"

#include <cstring>
#include <string>

namespace cuzk::server {
namespace {

// 32 bytes, or nothing when `optional` and empty.
Result<std::optional<filecoin::Domain>> domain_of(const std::string& bytes, const char* name, bool optional) {
  if (bytes.empty() && optional) return std::optional<filecoin::Domain>{};
  if (bytes.size() != 32)
    return make_error(std::string(name) + " has " + std::to_string(bytes.size()) + " bytes, 32 expected");
  filecoin::Domain d;
  std::memcpy(d.data(), bytes.data(), d.size());
  return std::optional<filecoin::Domain>(d);
}

}  // namespace

Result<engine::FilecoinInput> filecoin_from_proto(const v1::FilecoinRequest& p, engine::JobKind kind,
                                                  Spool::Upload& upload) {
  filecoin::ProofRequest r;
  switch (kind) {
    case engine::JobKind::porep_c2:
      r.kind = filecoin::ProofKind::seal;
      break;
    case engine::JobKind::window_post:
      r.kind = filecoin::ProofKind::window_post;
      break;
    case engine::JobKind::winning_post:
      r.kind = filecoin::ProofKind::winning_post;
      break;
    case engine::JobKind::snap_deals:
      r.kind = filecoin::ProofKind::update;
      break;
    default:
      return make_error("a Filecoin request is a PoRep C2, WindowPoSt, WinningPoSt or SnapDeals job");
  }
  if (p.has_proof_id()) r.proof_id = p.proof_id();
  if (p.has_sector_id()) r.sector_id = p.sector_id();
  r.first_partition = p.first_partition();
  // Every 32-byte value is optional here; the request's kind decides which it needs, and preparing
  // it at submit says which is missing.
  const std::pair<const std::string*, filecoin::Domain*> fields[] = {{&p.randomness(), &r.randomness},
                                                                     {&p.comm_r_old(), &r.comm_r_old},
                                                                     {&p.comm_d_new(), &r.comm_d_new},
                                                                     {&p.comm_r_new(), &r.comm_r_new}};
  const char* names[] = {"randomness", "comm_r_old", "comm_d_new", "comm_r_new"};
  for (size_t i = 0; i < 4; ++i) {
    auto d = domain_of(*fields[i].first, names[i], true);
    if (!d) return d.error();
    if (*d) *fields[i].second = i == 0 ? filecoin::trim_to_fr32(**d) : **d;  // as filecoin-proofs-api
  }
  auto prover = domain_of(p.prover_id(), "prover_id", true);
  if (!prover) return prover.error();
  r.prover_id = *prover;
  if (p.vanilla_size() == 0) return make_error("no vanilla proofs (vanilla)");
  std::vector<std::string> paths;
  for (const auto& blob : p.vanilla()) {
    auto path = upload.store(blob, ".vanilla");
    if (!path) return path.error();
    paths.push_back(*path);
  }
  return engine::FilecoinInput{std::make_shared<engine::FilecoinRequest>(std::move(r), std::move(paths)), {}};
}

}  // namespace cuzk::server
