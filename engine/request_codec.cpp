#include "engine/request_codec.hpp"

#include <nlohmann/json.hpp>

#include "engine/filecoin_codec.hpp"

namespace cuzk::engine {

using nlohmann::json;

std::string request_to_json(const JobRequest& r) {
  json j;
  j["kind"] = to_string(r.kind);
  if (r.priority) j["priority"] = to_string(*r.priority);
  j["params"] = r.params;
  if (r.randomness_seed) j["randomness_seed"] = *r.randomness_seed;
  if (!r.client.empty()) j["client"] = r.client;
  if (!r.owner.empty()) j["owner"] = r.owner;
  json parts = json::array();
  FilecoinJsonWriter filecoin;
  for (const auto& p : r.partitions) {
    json e;
    if (const auto* s = std::get_if<SampleInput>(&p)) {
      e["sample"] = {{"kind", s->spec.kind},
                     {"merkle_depth", s->spec.merkle_depth},
                     {"message_bytes", s->spec.message_bytes},
                     {"log_domain", s->spec.log_domain},
                     {"seed", s->spec.seed}};
      if (s->c_from_ab) e["sample"]["c_from_ab"] = true;
    } else if (const auto* c = std::get_if<CircomInput>(&p)) {
      e["circom"] = {{"r1cs", c->r1cs_path}, {"wtns", c->wtns_path}};
    } else if (const auto* f = std::get_if<FilecoinInput>(&p)) {
      e["filecoin"] = filecoin.add(*f);
    } else {
      e["synthesized"] = true;
    }
    parts.push_back(std::move(e));
  }
  j["partitions"] = std::move(parts);
  if (!filecoin.empty()) j["filecoin_requests"] = filecoin.requests();
  return j.dump();
}

Result<JobRequest> request_from_json(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return make_error("a job request is not a JSON object");
  try {
    JobRequest r;
    auto kind = parse_job_kind(j.at("kind").get<std::string>());
    if (!kind) return kind.error();
    r.kind = *kind;
    if (j.contains("priority")) {
      auto p = parse_priority(j.at("priority").get<std::string>());
      if (!p) return p.error();
      r.priority = *p;
    }
    r.params = j.at("params").get<std::string>();
    if (j.contains("randomness_seed")) r.randomness_seed = j.at("randomness_seed").get<uint64_t>();
    if (j.contains("client")) r.client = j.at("client").get<std::string>();
    if (j.contains("owner")) r.owner = j.at("owner").get<std::string>();
    auto filecoin = FilecoinJsonReader::from(j.value("filecoin_requests", json::array()));
    if (!filecoin) return filecoin.error();
    for (const auto& e : j.at("partitions")) {
      if (e.contains("filecoin")) {
        auto in = filecoin->input(e.at("filecoin"));
        if (!in) return in.error();
        r.partitions.emplace_back(std::move(*in));
      } else if (e.contains("sample")) {
        const auto& s = e.at("sample");
        SampleInput in;
        in.spec.kind = s.at("kind").get<std::string>();
        in.spec.merkle_depth = s.at("merkle_depth").get<size_t>();
        in.spec.message_bytes = s.at("message_bytes").get<size_t>();
        in.spec.log_domain = s.at("log_domain").get<unsigned>();
        in.spec.seed = s.at("seed").get<uint64_t>();
        in.c_from_ab = s.value("c_from_ab", false);
        r.partitions.emplace_back(std::move(in));
      } else if (e.contains("circom")) {
        const auto& c = e.at("circom");
        r.partitions.emplace_back(
            CircomInput{c.at("r1cs").get<std::string>(), c.at("wtns").get<std::string>()});
      } else {
        r.partitions.emplace_back(SynthesizedInput{});
      }
    }
    return r;
  } catch (const json::exception& e) {
    return make_error(std::string("a job request is malformed: ") + e.what());
  }
}

bool has_volatile_inputs(const JobRequest& r) {
  for (const auto& p : r.partitions)
    if (std::holds_alternative<SynthesizedInput>(p)) return true;
  return false;
}

std::string timings_to_json(const JobTimings& t) {
  return json{{"queue_wait_ms", t.queue_wait_ms}, {"param_load_ms", t.param_load_ms},
              {"synthesis_ms", t.synthesis_ms},   {"gpu_ms", t.gpu_ms},
              {"verify_ms", t.verify_ms},         {"total_ms", t.total_ms}}
      .dump();
}

JobTimings timings_from_json(const std::string& text) {
  JobTimings t;
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return t;
  t.queue_wait_ms = j.value("queue_wait_ms", 0.0);
  t.param_load_ms = j.value("param_load_ms", 0.0);
  t.synthesis_ms = j.value("synthesis_ms", 0.0);
  t.gpu_ms = j.value("gpu_ms", 0.0);
  t.verify_ms = j.value("verify_ms", 0.0);
  t.total_ms = j.value("total_ms", 0.0);
  return t;
}

}  // namespace cuzk::engine
