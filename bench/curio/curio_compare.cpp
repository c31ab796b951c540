// cuzk-curio-compare: the time from submit to proof of one PoRep C2 job through Curio's cuzk.v1 API
// and through the daemon's own API, on the same daemon, alternating, and their ratio.
//
//   cuzk-curio-compare --daemon unix:///run/cuzk/cuzkd.sock --sector DIR [--rounds N] [--warmup N]
//                      [--json FILE]
//
// DIR is what `cuzk seal-test-sector --curio` (or `--virtual --curio`) wrote: c1.curio.json, Curio's
// wrapper around the commit-phase-1 output, and sector.json (proof type, miner and sector ids). Each
// round submits that job once through each API (SubmitProof + AwaitProof; Submit + Await), in the
// order A B, then B A in the next round, so that a drift of the machine (warm-up, heat) falls on
// both alike. Untimed warm-up jobs (one by default, through the native API) come first: a daemon's
// first job of a proof type also compiles its circuit, fills its buffer pools and uploads the
// parameters to the device, which would otherwise fall on whichever API goes first. The clock
// runs from the submit call to the proof's arrival: reading the file, the
// connection and the parsing of this program are outside it.
//
// The cuzk.v1 side uses only proving.proto's generated message classes (the build's copy in package
// curio.cuzk.v1, as the daemon compiles it: server/CMakeLists.txt says why) and calls the methods
// by their wire paths, /cuzk.v1.ProvingEngine/<Method>, as protoc's stub does; nothing of cuzk's
// client code. The native side is the `cuzk` client library (server/client.hpp).
//
// A daemon with fake parameters (cuzkd-bench) reports each result FAILED, "NOT VALID ...", with its
// proofs attached: counted here as the end of the job when the proof bytes are all there.
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/client_unary_call.h>
#include <grpcpp/impl/rpc_method.h>
#include <CLI/CLI.hpp>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "curio/cuzk_v1_proving.pb.h"
#include "server/client/client.hpp"

namespace {

namespace pb = ::curio::cuzk::v1;
namespace v1 = ::cuzk::v1;
using Clock = std::chrono::steady_clock;

constexpr size_t kProofBytes = 192;
constexpr const char* kNotValidPrefix = "NOT VALID: a benchmark daemon";

int fail(const std::string& message) {
  std::fprintf(stderr, "cuzk-curio-compare: %s\n", message.c_str());
  return 1;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += char(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

// One unary call of cuzk.v1.ProvingEngine by its wire path.
template <class Req, class Resp>
grpc::Status curio_call(grpc::Channel* channel, const char* method, grpc::ClientContext* ctx, const Req& req,
                        Resp* resp) {
  const grpc::internal::RpcMethod rpc(method, grpc::internal::RpcMethod::NORMAL_RPC);
  return grpc::internal::BlockingUnaryCall<Req, Resp, grpc::protobuf::MessageLite,
                                           grpc::protobuf::MessageLite>(channel, rpc, ctx, req, resp);
}

struct Job {
  std::string wrapper;  // c1.curio.json
  uint64_t proof_id = 0, sector_size = 0, miner_id = 0, sector_id = 0;
  std::string prover_id;  // 32 bytes
  std::string params;     // the daemon's name of the parameter set (native API)
  size_t partitions = 10;
};

std::unique_ptr<grpc::ClientContext> context_for(const cuzk::server::Client& c) {
  return c.context(std::chrono::hours(2));
}

// Results a benchmark daemon reported NOT VALID (fake parameters).
int not_valid = 0;

// Submit → proof through cuzk.v1, in seconds; an error message on failure.
std::string run_curio(const cuzk::server::Client& c, const Job& job, const std::string& request_id,
                      double& seconds) {
  pb::SubmitProofRequest req;
  req.set_request_id(request_id);
  req.set_proof_kind(pb::POREP_SEAL_COMMIT);
  req.set_sector_size(job.sector_size);
  req.set_registered_proof(job.proof_id);
  req.set_vanilla_proof(job.wrapper);
  req.set_sector_number(job.sector_id);
  req.set_miner_id(job.miner_id);
  const auto start = Clock::now();
  pb::SubmitProofResponse submitted;
  auto ctx = context_for(c);
  auto st = curio_call(c.channel.get(), "/cuzk.v1.ProvingEngine/SubmitProof", ctx.get(), req, &submitted);
  if (!st.ok()) return "SubmitProof: " + cuzk::server::describe(st);
  pb::AwaitProofRequest await;
  await.set_job_id(submitted.job_id());
  pb::AwaitProofResponse r;
  ctx = context_for(c);
  st = curio_call(c.channel.get(), "/cuzk.v1.ProvingEngine/AwaitProof", ctx.get(), await, &r);
  seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!st.ok()) return "AwaitProof: " + cuzk::server::describe(st);
  const bool benchmark =
      r.status() == pb::AwaitProofResponse::FAILED && r.error_message().rfind(kNotValidPrefix, 0) == 0;
  if (r.status() != pb::AwaitProofResponse::COMPLETED && !benchmark)
    return "AwaitProof: status " + std::to_string(int(r.status())) + ": " + r.error_message();
  not_valid += benchmark;
  if (r.proof().size() != job.partitions * kProofBytes)
    return "AwaitProof: " + std::to_string(r.proof().size()) + " proof bytes, " +
           std::to_string(job.partitions * kProofBytes) + " expected";
  return "";
}

// Submit → proof through the daemon's own API, in seconds.
std::string run_native(const cuzk::server::Client& c, const Job& job, double& seconds) {
  v1::SubmitRequest req;
  auto* spec = req.mutable_job();
  spec->set_kind(v1::JOB_KIND_POREP_C2);
  spec->set_params(job.params);
  auto* f = spec->add_partitions()->mutable_filecoin();
  f->add_vanilla(job.wrapper);
  f->set_proof_id(job.proof_id);
  f->set_prover_id(job.prover_id);
  f->set_sector_id(job.sector_id);
  const auto start = Clock::now();
  v1::SubmitResponse submitted;
  auto ctx = context_for(c);
  auto st = c.stub->Submit(ctx.get(), req, &submitted);
  if (!st.ok()) return "Submit: " + cuzk::server::describe(st);
  v1::JobResult r;
  for (;;) {
    v1::AwaitRequest await;
    await.set_job_id(submitted.job_id());
    await.set_timeout_ms(600'000);
    ctx = context_for(c);
    st = c.stub->Await(ctx.get(), await, &r);
    if (!st.ok()) return "Await: " + cuzk::server::describe(st);
    if (r.state() != v1::JOB_STATE_QUEUED && r.state() != v1::JOB_STATE_RUNNING) break;
  }
  seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const bool benchmark = r.state() == v1::JOB_STATE_FAILED && r.error().rfind(kNotValidPrefix, 0) == 0;
  if (r.state() != v1::JOB_STATE_DONE && !benchmark)
    return "Await: state " + std::to_string(int(r.state())) + ": " + r.error();
  not_valid += benchmark;
  if (size_t(r.proofs_size()) != job.partitions)
    return "Await: " + std::to_string(r.proofs_size()) + " proofs, " + std::to_string(job.partitions) +
           " expected";
  return "";
}

// The parameter set the daemon holds in memory (cuzkd-bench's fake key), when it holds exactly one.
std::string registered_set(const cuzk::server::Client& c) {
  v1::StatusResponse s;
  auto ctx = context_for(c);
  if (!c.stub->Status(ctx.get(), v1::StatusRequest(), &s).ok()) return "";
  const auto j = nlohmann::json::parse(s.json(), nullptr, false);
  if (j.is_discarded() || !j.contains("params")) return "";
  std::vector<std::string> names;
  for (const auto& p : j["params"])
    if (p.value("registered", false)) names.push_back(p.value("name", ""));
  return names.size() == 1 ? names[0] : "";
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Submit-to-proof time of one PoRep C2 job through cuzk.v1 and through cuzkd's own API",
               "cuzk-curio-compare"};
  cuzk::server::ClientOptions o;
  std::string sector_dir, token_file, json_out, params;
  unsigned rounds = 2, warmup = 1;
  size_t partitions = 10;
  app.add_option("--daemon", o.address, "The daemon's address (unix:///path or host:port)")->required();
  app.add_option("--sector", sector_dir, "The folder of c1.curio.json and sector.json")->required();
  app.add_option("--rounds", rounds, "Rounds of one job through each API")->capture_default_str();
  app.add_option("--warmup", warmup, "Untimed jobs through the native API before the rounds")
      ->capture_default_str();
  app.add_option("--partitions", partitions, "Partitions of the proof type (10 for 32 GiB, 1 for 2 KiB)")
      ->capture_default_str();
  app.add_option("--params", params,
                 "Native API: the parameter set's name; default: the one the daemon holds in memory, "
                 "else the official file the daemon finds");
  app.add_option("--token-file", token_file, "A file holding the bearer token");
  app.add_option("--json", json_out, "Also write the figures as JSON here");
  CLI11_PARSE(app, argc, argv);
  if (rounds == 0) return fail("--rounds must be at least 1");
  o.max_message_bytes = uint64_t(512) << 20;
  if (!token_file.empty()) {
    o.token = read_file(token_file);
    while (!o.token.empty() && (o.token.back() == '\n' || o.token.back() == ' ')) o.token.pop_back();
  }

  Job job;
  job.partitions = partitions;
  job.wrapper = read_file(sector_dir + "/c1.curio.json");
  if (job.wrapper.empty()) return fail("no " + sector_dir + "/c1.curio.json");
  const auto info = nlohmann::json::parse(read_file(sector_dir + "/sector.json"), nullptr, false);
  if (info.is_discarded()) return fail(sector_dir + "/sector.json is not JSON");
  try {
    job.proof_id = info.at("proof_id").get<uint64_t>();
    job.sector_size = info.at("sector_size").get<uint64_t>();
    job.miner_id = info.at("miner_id").get<uint64_t>();
    job.sector_id = info.at("sector_id").get<uint64_t>();
    job.prover_id = from_hex(info.at("prover_id").get<std::string>());
  } catch (const std::exception& e) {
    return fail(sector_dir + "/sector.json: " + e.what());
  }
  auto client = cuzk::server::connect(o);
  if (!client) return fail(client.message());
  job.params = params.empty() ? registered_set(*client) : params;
  std::printf("job: PoRep C2, proof type %llu, sector size %llu, %zu partitions, C1 wrapper %zu bytes%s\n",
              static_cast<unsigned long long>(job.proof_id), static_cast<unsigned long long>(job.sector_size),
              job.partitions, job.wrapper.size(),
              job.params.empty() ? "" : (", params " + job.params).c_str());

  for (unsigned w = 0; w < warmup; ++w) {
    double s = 0;
    if (const std::string error = run_native(*client, job, s); !error.empty())
      return fail("warm-up (native): " + error);
    std::printf("warm-up %u: native  submit -> proof %8.3f s (untimed)\n", w + 1, s);
    std::fflush(stdout);
  }
  const int warmup_not_valid = not_valid;
  std::vector<double> curio, native;
  for (unsigned round = 0; round < rounds; ++round) {
    for (int side = 0; side < 2; ++side) {
      const bool curio_now = (round % 2 == 0) == (side == 0);
      double s = 0;
      const std::string request_id = "bench-" + std::to_string(::getpid()) + "-" + std::to_string(round);
      const std::string error =
          curio_now ? run_curio(*client, job, request_id, s) : run_native(*client, job, s);
      if (!error.empty()) return fail(std::string(curio_now ? "cuzk.v1: " : "native: ") + error);
      (curio_now ? curio : native).push_back(s);
      std::printf("round %u: %-8s submit -> proof %8.3f s\n", round + 1, curio_now ? "cuzk.v1" : "native", s);
      std::fflush(stdout);
    }
  }
  const double ratio_mean = mean(curio) / mean(native), ratio_median = median(curio) / median(native);
  std::printf("cuzk.v1: mean %.3f s, median %.3f s over %zu jobs\n", mean(curio), median(curio),
              curio.size());
  std::printf("native:  mean %.3f s, median %.3f s over %zu jobs\n", mean(native), median(native),
              native.size());
  std::printf("ratio cuzk.v1 / native: %.4f (means), %.4f (medians); within 5%%: %s\n", ratio_mean,
              ratio_median, std::abs(ratio_mean - 1) <= 0.05 ? "yes" : "no");
  not_valid -= warmup_not_valid;
  if (not_valid > 0)
    std::printf(
        "note: the daemon reported %d of %zu results NOT VALID (a benchmark daemon's fake parameters)\n",
        not_valid, curio.size() + native.size());
  if (!json_out.empty()) {
    nlohmann::json j = {{"bench", "curio-compare"},
                        {"proof_id", job.proof_id},
                        {"sector_size", job.sector_size},
                        {"partitions", job.partitions},
                        {"warmup_jobs", warmup},
                        {"curio_s", curio},
                        {"native_s", native},
                        {"ratio_mean", ratio_mean},
                        {"ratio_median", ratio_median},
                        {"reported_not_valid", not_valid}};
    std::ofstream(json_out) << j.dump(2) << "\n";
  }
  return 0;
}
