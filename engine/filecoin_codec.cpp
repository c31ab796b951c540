#include "engine/filecoin_codec.hpp"

#include <span>

#include "filecoin/formats/base64.hpp"

namespace cuzk::engine {
namespace {

using filecoin::domain_hex;
using nlohmann::json;

json request_json(const FilecoinRequest& fr) {
  const filecoin::ProofRequest& r = fr.request();
  json j;
  j["kind"] = std::string(filecoin::to_string(r.kind));
  if (r.proof_id) j["proof_id"] = *r.proof_id;
  if (!fr.vanilla_paths().empty()) {
    j["vanilla_paths"] = fr.vanilla_paths();
  } else {
    json blobs = json::array();
    for (const auto& v : r.vanilla)
      blobs.push_back(
          filecoin::base64_encode(std::span(reinterpret_cast<const uint8_t*>(v.data()), v.size())));
    j["vanilla"] = std::move(blobs);
  }
  j["randomness"] = domain_hex(r.randomness);
  if (r.prover_id) j["prover_id"] = domain_hex(*r.prover_id);
  if (r.sector_id) j["sector_id"] = *r.sector_id;
  j["first_partition"] = r.first_partition;
  j["comm_r_old"] = domain_hex(r.comm_r_old);
  j["comm_d_new"] = domain_hex(r.comm_d_new);
  j["comm_r_new"] = domain_hex(r.comm_r_new);
  return j;
}

Result<filecoin::Domain> domain_at(const json& j, const char* key) {
  auto d = filecoin::parse_domain_hex(j.at(key).get<std::string>());
  if (!d) return make_error(std::string(key) + ": " + d.message());
  return *d;
}

Result<std::shared_ptr<const FilecoinRequest>> request_from(const json& j) {
  filecoin::ProofRequest r;
  const std::string kind = j.at("kind").get<std::string>();
  bool known = false;
  for (auto k : {filecoin::ProofKind::seal, filecoin::ProofKind::winning_post,
                 filecoin::ProofKind::window_post, filecoin::ProofKind::update})
    if (filecoin::to_string(k) == kind) r.kind = k, known = true;
  if (!known) return make_error("unknown Filecoin proof kind \"" + kind + "\"");
  if (j.contains("proof_id")) r.proof_id = j.at("proof_id").get<uint64_t>();
  std::vector<std::string> paths;
  if (j.contains("vanilla_paths")) {
    paths = j.at("vanilla_paths").get<std::vector<std::string>>();
  } else {
    for (const auto& blob : j.at("vanilla")) {
      auto bytes = filecoin::base64_decode(blob.get<std::string>());
      if (!bytes) return make_error("vanilla: " + bytes.message());
      r.vanilla.emplace_back(bytes->begin(), bytes->end());
    }
  }
  const std::pair<const char*, filecoin::Domain*> domains[] = {{"randomness", &r.randomness},
                                                               {"comm_r_old", &r.comm_r_old},
                                                               {"comm_d_new", &r.comm_d_new},
                                                               {"comm_r_new", &r.comm_r_new}};
  for (const auto& [key, out] : domains) {
    auto d = domain_at(j, key);
    if (!d) return d.error();
    *out = *d;
  }
  if (j.contains("prover_id")) {
    auto d = domain_at(j, "prover_id");
    if (!d) return d.error();
    r.prover_id = *d;
  }
  if (j.contains("sector_id")) r.sector_id = j.at("sector_id").get<uint64_t>();
  r.first_partition = j.at("first_partition").get<uint64_t>();
  return std::shared_ptr<const FilecoinRequest>(
      std::make_shared<FilecoinRequest>(std::move(r), std::move(paths)));
}

}  // namespace

json FilecoinJsonWriter::add(const FilecoinInput& input) {
  json e;
  if (!input.request) return json{{"request", -1}};
  auto [it, added] = index_.emplace(input.request.get(), requests_.size());
  if (added) requests_.push_back(request_json(*input.request));
  e["request"] = it->second;
  if (input.partition) e["partition"] = *input.partition;
  return e;
}

Result<FilecoinJsonReader> FilecoinJsonReader::from(const json& requests) {
  FilecoinJsonReader reader;
  if (!requests.is_array()) return make_error("filecoin_requests is not an array");
  for (const auto& j : requests) {
    auto r = request_from(j);
    if (!r) return make_error("a journaled Filecoin request: " + r.message());
    reader.requests_.push_back(std::move(*r));
  }
  return reader;
}

Result<FilecoinInput> FilecoinJsonReader::input(const json& entry) const {
  const int64_t i = entry.at("request").get<int64_t>();
  if (i < 0 || size_t(i) >= requests_.size())
    return make_error("a Filecoin partition refers to request " + std::to_string(i) + " of " +
                      std::to_string(requests_.size()));
  FilecoinInput in{requests_[size_t(i)], std::nullopt};
  if (entry.contains("partition")) in.partition = entry.at("partition").get<uint32_t>();
  return in;
}

}  // namespace cuzk::engine
