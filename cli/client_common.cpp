#include "cli/client_common.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/options.hpp"
#include "io/file.hpp"
#include "io/proof.hpp"
#include "io/snarkjs_json.hpp"
#include "server/client/convert.hpp"

namespace cuzk::cli {
namespace {

Result<std::string> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Status write_text(const std::string& path, const std::string& text) {
  return write_file_bytes(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::string dashes(std::string s) {
  for (auto& ch : s) ch = ch == '_' ? '-' : ch;
  return s;
}

}  // namespace

void add_connect_options(CLI::App* cmd, ConnectArgs& a) {
  const char* env = std::getenv("CUZK_DAEMON");
  a.address = env && *env ? env : "unix:///run/cuzk/cuzkd.sock";
  if (const char* f = std::getenv("CUZK_TOKEN_FILE")) a.token_file = f;
  cmd->add_option("--daemon,-d", a.address, "cuzkd address: unix:///path or host:port (env CUZK_DAEMON)")
      ->capture_default_str();
  cmd->add_option(
      "--token-file", a.token_file,
      "File with the daemon's bearer token (env CUZK_TOKEN_FILE; or the token in env CUZK_TOKEN)");
  cmd->add_flag("--tls", a.tls, "Connect over TLS (system roots unless --tls-ca)");
  cmd->add_option("--tls-ca", a.tls_ca, "PEM file of the CA of the daemon's certificate (implies --tls)");
  cmd->add_option("--tls-server-name", a.tls_server_name, "Name to check in the daemon's certificate");
  cmd->add_option("--rpc-timeout", a.rpc_timeout_s, "Seconds a call may take, waits excepted")
      ->capture_default_str();
}

Result<server::Client> connect_daemon(const ConnectArgs& a) {
  server::ClientOptions o;
  o.address = a.address;
  o.tls = a.tls;
  o.tls_ca = a.tls_ca;
  o.tls_server_name = a.tls_server_name;
  // A token on the command line would show in `ps`; it comes from a file or the environment.
  if (!a.token_file.empty()) {
    auto t = read_all(a.token_file);
    if (!t) return t.error();
    o.token = *t;
    while (!o.token.empty() && std::isspace(static_cast<unsigned char>(o.token.back()))) o.token.pop_back();
  } else if (const char* t = std::getenv("CUZK_TOKEN")) {
    o.token = t;
  }
  return server::connect(o);
}

void add_job_options(CLI::App* cmd, JobArgs& a) {
  cmd->add_option("--kind", a.kind, "porep-c2, snap-deals, window-post, winning-post or generic")
      ->capture_default_str();
  cmd->add_option("--priority", a.priority, "default (the kind's), low, normal, high or critical")
      ->capture_default_str();
  cmd->add_option("--params", a.params,
                  "Parameter set: a name the daemon knows, or a .params/.zkey path on the daemon's host "
                  "(Filecoin jobs: default the official file in the daemon's parameter directory)");
  add_circuit_options(cmd, a.spec);
  cmd->get_option("--circuit")->each([&a](const std::string&) { a.sample = true; });
  cmd->add_option("--partitions", a.partitions,
                  "Sample circuit: partitions (witness seeds --seed, --seed+1, ...; synthetic: all --seed)")
      ->capture_default_str();
  cmd->add_option("--r1cs", a.r1cs, "circom .r1cs here, uploaded with the witnesses")
      ->check(CLI::ExistingFile);
  cmd->add_option("--wtns", a.wtns, "snarkjs .wtns here, uploaded: one partition each (repeatable)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--daemon-r1cs", a.daemon_r1cs, "circom .r1cs path on the daemon's host");
  cmd->add_option("--daemon-wtns", a.daemon_wtns,
                  ".wtns path on the daemon's host: one partition each (repeatable)");
  cmd->add_option("--rs-seed", a.rs_seed, "Deterministic r and s: for tests only (proofs then leak)");
  add_filecoin_job_options(cmd, a.filecoin);
}

Result<v1::JobSpec> make_job_spec(const JobArgs& a) {
  v1::JobSpec spec;
  std::string kind_name = a.kind;
  for (auto& ch : kind_name) ch = ch == '-' ? '_' : ch;
  auto kind = engine::parse_job_kind(kind_name);
  if (!kind) return kind.error();
  spec.set_kind(server::kind_to_proto(*kind));
  if (a.priority != "default") {
    auto p = engine::parse_priority(a.priority);
    if (!p) return p.error();
    spec.set_priority(server::priority_to_proto(*p));
  }
  spec.set_params(a.params);
  if (a.rs_seed) spec.set_randomness_seed(*a.rs_seed);
  spec.set_client("cuzk-cli");
  const int sources =
      int(!a.wtns.empty()) + int(!a.daemon_wtns.empty()) + int(a.sample) + int(a.filecoin.given());
  if (sources != 1)
    return make_error("give exactly one of --circuit, --wtns, --daemon-wtns and --c1/--vanilla");
  if (a.filecoin.given()) {
    CUZK_TRY_STATUS(add_filecoin_partition(a.filecoin, *kind, spec));
    return spec;
  }
  if (a.params.empty()) return make_error("--params is required");
  if (a.sample) {
    for (uint32_t i = 0; i < a.partitions; ++i) {
      auto* s = spec.add_partitions()->mutable_sample();
      s->set_kind(a.spec.kind);
      s->set_merkle_depth(a.spec.merkle_depth);
      s->set_message_bytes(a.spec.message_bytes);
      s->set_log_domain(a.spec.log_domain);
      // A synthetic circuit's shape follows its seed, so its partitions share one; the other
      // samples take a witness per partition.
      s->set_seed(a.spec.kind == "synthetic" ? a.spec.seed : a.spec.seed + i);
    }
  }
  if (!a.wtns.empty()) {
    if (!a.r1cs.empty()) {
      auto r = read_all(a.r1cs);
      if (!r) return r.error();
      spec.set_circom_r1cs(std::move(*r));
    }
    for (const auto& w : a.wtns) {
      auto bytes = read_all(w);
      if (!bytes) return bytes.error();
      spec.add_partitions()->mutable_circom()->set_wtns(std::move(*bytes));
    }
  }
  for (const auto& w : a.daemon_wtns) {
    auto* f = spec.add_partitions()->mutable_circom_files();
    f->set_r1cs_path(a.daemon_r1cs);
    f->set_wtns_path(w);
  }
  return spec;
}

void add_output_options(CLI::App* cmd, OutputArgs& o) {
  cmd->add_option("--proof", o.proof_path,
                  "Write the proofs: bellman (192 bytes each, concatenated) or snarkjs JSON");
  cmd->add_option("--public", o.public_path,
                  "Write the public inputs (JSON; an array per partition when several)");
  cmd->add_option("--proof-format", o.proof_format, "bellman or snarkjs (one partition)")
      ->check(CLI::IsMember({"bellman", "snarkjs"}))
      ->capture_default_str();
  cmd->add_flag("--json", o.json, "Print the result as JSON (id, state, timings, error) on stdout");
}

int report_result(const v1::JobResult& m, const OutputArgs& o) {
  auto r = server::result_from_proto(m);
  if (!r) return fail("the daemon's answer is malformed: " + r.message());
  const auto& t = r->timings;
  if (o.json) {
    nlohmann::json j{{"id", r->id},
                     {"kind", engine::to_string(r->kind)},
                     {"priority", engine::to_string(r->priority)},
                     {"state", engine::to_string(r->state)},
                     {"partitions", r->partitions},
                     {"partitions_proved", r->partitions_proved},
                     {"retries", r->retries}};
    for (const auto& [stage, ms] : t.named()) j["timings_ms"][stage] = ms;
    if (!r->error.empty()) j["error"] = r->error;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("job %llu %s: %s, %u/%u partitions, %u retries\n", static_cast<unsigned long long>(r->id),
                engine::to_string(r->state), dashes(engine::to_string(r->kind)).c_str(), r->partitions_proved,
                r->partitions, r->retries);
    std::printf(
        "  timings ms: queue_wait %.1f, param_load %.1f, synthesis %.1f, gpu %.1f, verify %.1f, total %.1f\n",
        t.queue_wait_ms, t.param_load_ms, t.synthesis_ms, t.gpu_ms, t.verify_ms, t.total_ms);
    if (!r->error.empty()) std::printf("  error: %s\n", r->error.c_str());
  }
  if (r->state == engine::JobState::failed || r->state == engine::JobState::cancelled) return kExitJobFailed;
  if (!engine::is_terminal(r->state)) return kExitStillRunning;

  if (!o.proof_path.empty()) {
    Status st;
    if (o.proof_format == "snarkjs") {
      if (r->proofs.size() != 1) return fail("--proof-format snarkjs takes a job of one partition");
      st = write_text(o.proof_path, snarkjs_proof_json(r->proofs[0]));
    } else {
      const auto bytes = write_proofs(r->proofs);
      st = write_file_bytes(o.proof_path, bytes);
    }
    if (!st) return fail(st.message());
  }
  if (!o.public_path.empty()) {
    std::string text;
    if (r->public_inputs.size() == 1) {
      text = snarkjs_public_json(r->public_inputs[0]);
    } else {
      text = "[";
      for (size_t i = 0; i < r->public_inputs.size(); ++i)
        text += (i ? "," : "") + snarkjs_public_json(r->public_inputs[i]);
      text += "]\n";
    }
    if (auto st = write_text(o.public_path, text); !st) return fail(st.message());
  }
  return 0;
}

}  // namespace cuzk::cli
