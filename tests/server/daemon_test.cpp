// cuzkd in process, over a unix socket (and loopback TCP): every RPC, bad requests, tokens, message
// limits, the HTTP endpoints, and several clients at mixed priorities.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "groth16/verifier.hpp"
#include "r1cs/matrices.hpp"
#include "server/client/convert.hpp"
#include "server/daemon.hpp"
#include "server/spool.hpp"
#include "tests/server/test_util.hpp"

namespace cuzk::server {
namespace {

using namespace testing;
using grpc::StatusCode;

class DaemonTest : public ::testing::Test {
 protected:
  void SetUp() override { params_ = write_tiny_params(dir_); }

  void start(DaemonConfig c) {
    ASSERT_TRUE(resolve(c).ok());
    auto log = engine::make_stderr_logger("cuzkd-test");
    log->set_level(spdlog::level::from_str(c.log_level));
    auto d = Daemon::start(std::move(c), log);
    ASSERT_TRUE(d.ok()) << d.message();
    daemon_ = std::move(*d);
  }
  void start() { start(small_config(dir_, params_)); }
  Client client(const std::string& token = "") { return client_for(daemon_->addresses().at(0), token); }

  v1::JobResult prove(const Client& c, const v1::JobSpec& spec, grpc::Status* status = nullptr) {
    v1::ProveRequest req;
    *req.mutable_job() = spec;
    v1::JobResult resp;
    auto ctx = c.context(std::chrono::duration_cast<std::chrono::milliseconds>(kGuard));
    auto st = c.stub->Prove(ctx.get(), req, &resp);
    if (status)
      *status = st;
    else
      EXPECT_TRUE(st.ok()) << describe(st);
    return resp;
  }
  grpc::Status submit(const Client& c, const v1::JobSpec& spec, uint64_t* id = nullptr) {
    v1::SubmitRequest req;
    *req.mutable_job() = spec;
    v1::SubmitResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    auto st = c.stub->Submit(ctx.get(), req, &resp);
    if (id) *id = resp.job_id();
    return st;
  }
  v1::JobResult await(const Client& c, uint64_t id, grpc::Status* status = nullptr) {
    v1::AwaitRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(kGuard).count()));
    v1::JobResult resp;
    auto ctx =
        c.context(std::chrono::duration_cast<std::chrono::milliseconds>(kGuard + std::chrono::seconds(30)));
    auto st = c.stub->Await(ctx.get(), req, &resp);
    if (status)
      *status = st;
    else
      EXPECT_TRUE(st.ok()) << describe(st);
    return resp;
  }

  // Every proof of a finished job checks under the tiny key.
  static void expect_verifies(const v1::JobResult& m) {
    ASSERT_EQ(m.state(), v1::JOB_STATE_DONE) << "job " << m.job_id() << ": " << m.error();
    auto r = result_from_proto(m);
    ASSERT_TRUE(r.ok()) << r.message();
    ASSERT_EQ(r->proofs.size(), r->partitions);
    auto pvk = groth16::prepare_verifying_key(tiny_key()->vk);
    ASSERT_TRUE(pvk.ok());
    for (size_t i = 0; i < r->proofs.size(); ++i) {
      auto ok = groth16::verify_proof(*pvk, r->proofs[i], r->public_inputs[i]);
      ASSERT_TRUE(ok.ok()) << ok.message();
      EXPECT_TRUE(*ok) << "job " << r->id << " partition " << i;
    }
  }

  TempDir dir_;
  std::string params_;
  std::unique_ptr<Daemon> daemon_;
};

TEST_F(DaemonTest, ProvesAndAnswersWithTimingsAndMetrics) {
  start();
  auto c = client();
  auto r = prove(c, tiny_job(params_));
  expect_verifies(r);
  EXPECT_GT(r.timings().total_ms(), 0);
  EXPECT_GT(r.timings().synthesis_ms(), 0);
  EXPECT_GT(r.timings().gpu_ms(), 0);
  EXPECT_GT(r.timings().verify_ms(), 0);
  EXPECT_EQ(r.kind(), v1::JOB_KIND_GENERIC);
  EXPECT_EQ(r.priority(), v1::PRIORITY_NORMAL);

  uint64_t id = 0;
  ASSERT_TRUE(submit(c, tiny_job(params_, v1::JOB_KIND_WINDOW_POST, v1::PRIORITY_DEFAULT, 2), &id).ok());
  auto r2 = await(c, id);
  expect_verifies(r2);
  EXPECT_EQ(r2.priority(), v1::PRIORITY_HIGH);
  EXPECT_EQ(r2.proofs_size(), 2);
  EXPECT_GT(r2.timings().total_ms(), 0);
  // A second await (a client retrying) gets the same result.
  EXPECT_EQ(await(c, id).proofs(0), r2.proofs(0));

  v1::StatusResponse status;
  auto ctx = c.context(std::chrono::seconds(60));
  ASSERT_TRUE(c.stub->Status(ctx.get(), v1::StatusRequest(), &status).ok());
  EXPECT_EQ(status.jobs_done(), 2u);
  EXPECT_FALSE(status.draining());
  EXPECT_NE(status.json().find("devices"), std::string::npos);

  const int port = daemon_->http_port();
  ASSERT_GT(port, 0);
  const auto metrics = http_get(port, "/metrics");
  EXPECT_EQ(metrics.substr(0, 3), "200");
  EXPECT_NE(metrics.find("cuzk_job_stage_seconds_count{stage=\"total\",kind=\"generic\"} 1"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("cuzk_job_stage_seconds_count{stage=\"gpu\",kind=\"window_post\"} 1"),
            std::string::npos);
  EXPECT_NE(metrics.find("cuzk_jobs_finished_total{state=\"done\"} 2"), std::string::npos);
  EXPECT_NE(metrics.find("cuzk_jobs_submitted_total{kind=\"window_post\",priority=\"high\"} 1"),
            std::string::npos);
  EXPECT_NE(metrics.find("cuzk_grpc_requests_total{method=\"Prove\",code=\"OK\"} 1"), std::string::npos);
  EXPECT_NE(metrics.find("cuzk_partitions_proved_total 3"), std::string::npos);
  const auto st = http_get(port, "/status");
  EXPECT_EQ(st.substr(0, 3), "200");
  EXPECT_NE(st.find("\"draining\":false"), std::string::npos) << st;
  EXPECT_EQ(http_get(port, "/healthz"), "200\nok\n");
  EXPECT_EQ(http_get(port, "/nothing").substr(0, 3), "404");
}

TEST_F(DaemonTest, BadRequestsGetClearErrorsAndTheDaemonKeepsServing) {
  auto cfg = small_config(dir_, params_);
  cfg.max_message_bytes = 1 << 20;
  cfg.params_dirs = {dir_.file(""), std::string(CUZK_TEST_DATA) + "/circom/multiplier"};
  start(cfg);
  auto c = client();
  auto expect_code = [](const grpc::Status& st, StatusCode code, const std::string& words) {
    EXPECT_EQ(st.error_code(), code) << describe(st);
    EXPECT_NE(st.error_message().find(words), std::string::npos) << describe(st);
  };

  expect_code(submit(c, tiny_job(dir_.file("missing.params"))), StatusCode::INVALID_ARGUMENT,
              "missing.params");
  expect_code(submit(c, tiny_job("")), StatusCode::INVALID_ARGUMENT, "no parameter set");
  auto no_kind = tiny_job(params_);
  no_kind.set_kind(v1::JOB_KIND_UNSPECIFIED);
  expect_code(submit(c, no_kind), StatusCode::INVALID_ARGUMENT, "job kind");
  auto bad_priority = tiny_job(params_);
  bad_priority.set_priority(v1::Priority(42));
  expect_code(submit(c, bad_priority), StatusCode::INVALID_ARGUMENT, "priority");
  auto no_parts = tiny_job(params_);
  no_parts.clear_partitions();
  expect_code(submit(c, no_parts), StatusCode::INVALID_ARGUMENT, "no partitions");
  auto empty_part = tiny_job(params_);
  empty_part.add_partitions();
  expect_code(submit(c, empty_part), StatusCode::INVALID_ARGUMENT, "partition 1: no input");
  auto bad_sample = tiny_job(params_);
  bad_sample.mutable_partitions(0)->mutable_sample()->set_kind("fibonacci");
  expect_code(submit(c, bad_sample), StatusCode::INVALID_ARGUMENT, "fibonacci");
  auto too_many = tiny_job(params_, v1::JOB_KIND_WINNING_POST, v1::PRIORITY_DEFAULT, 2);
  expect_code(submit(c, too_many), StatusCode::INVALID_ARGUMENT, "partitions");

  // Malformed witnesses: garbage, a truncated real one, a witness of another circuit.
  const std::string zkey = std::string(CUZK_TEST_DATA) + "/circom/multiplier/circuit.zkey";
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const std::string wtns = read(std::string(CUZK_TEST_DATA) + "/circom/multiplier/witness.wtns");
  const std::string r1cs = read(std::string(CUZK_TEST_DATA) + "/circom/multiplier/circuit.r1cs");
  ASSERT_FALSE(wtns.empty());
  for (const std::string& w : {std::string("not a witness"), wtns.substr(0, wtns.size() - 7)}) {
    v1::JobSpec spec;
    spec.set_kind(v1::JOB_KIND_GENERIC);
    spec.set_params(zkey);
    spec.add_partitions()->mutable_circom()->set_wtns(w);
    expect_code(submit(c, spec), StatusCode::INVALID_ARGUMENT, "malformed witness");
  }
  {
    v1::JobSpec spec;
    spec.set_kind(v1::JOB_KIND_GENERIC);
    spec.set_params(zkey);
    spec.set_circom_r1cs("garbage r1cs");
    spec.add_partitions()->mutable_circom()->set_wtns(wtns);
    expect_code(submit(c, spec), StatusCode::INVALID_ARGUMENT, "circom_r1cs");
  }
  // A synthesized partition that does not hold together.
  {
    auto spec = tiny_job(params_);
    auto* s = spec.mutable_partitions(0)->mutable_synthesized();
    s->set_a(std::string(64, '\0'));
    s->set_b(std::string(32, '\0'));
    s->set_c(std::string(64, '\0'));
    s->set_inputs(std::string(32, '\0'));
    expect_code(submit(c, spec), StatusCode::INVALID_ARGUMENT, "differ in length");
    s->set_b(std::string(64, '\xff'));
    expect_code(submit(c, spec), StatusCode::INVALID_ARGUMENT, "not below the field modulus");
  }
  // Over the message limit: refused by gRPC itself, before the daemon reads it.
  {
    v1::JobSpec spec;
    spec.set_kind(v1::JOB_KIND_GENERIC);
    spec.set_params(zkey);
    spec.add_partitions()->mutable_circom()->set_wtns(std::string(2 << 20, 'x'));
    EXPECT_EQ(submit(c, spec).error_code(), StatusCode::RESOURCE_EXHAUSTED);
  }
  grpc::Status st;
  await(c, 987654, &st);
  expect_code(st, StatusCode::NOT_FOUND, "987654");
  await(c, 0, &st);
  EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT);
  {
    v1::CancelRequest req;
    req.set_job_id(987654);
    v1::CancelResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    EXPECT_EQ(c.stub->Cancel(ctx.get(), req, &resp).error_code(), StatusCode::NOT_FOUND);
  }
  {
    v1::ParamsRequest req;
    req.set_name(dir_.file("nope.params"));
    v1::ParamsResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    EXPECT_EQ(c.stub->PreloadParams(ctx.get(), req, &resp).error_code(), StatusCode::INVALID_ARGUMENT);
    auto ctx2 = c.context(std::chrono::seconds(60));
    EXPECT_EQ(c.stub->EvictParams(ctx2.get(), req, &resp).error_code(), StatusCode::FAILED_PRECONDITION);
  }
  // Still serving: a good circom job (witness uploaded) and a sample job prove.
  {
    v1::JobSpec spec;
    spec.set_kind(v1::JOB_KIND_GENERIC);
    spec.set_params(zkey);
    spec.set_circom_r1cs(r1cs);
    spec.add_partitions()->mutable_circom()->set_wtns(wtns);
    auto r = prove(c, spec);
    ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
    ASSERT_EQ(r.public_inputs_size(), 1);
    EXPECT_EQ(r.public_inputs(0).values_size(), 2);  // multiplier: c, a
  }
  expect_verifies(prove(c, tiny_job(params_)));
  // The spool holds nothing of finished or refused jobs.
  size_t spooled = 0;
  for ([[maybe_unused]] const auto& e :
       std::filesystem::directory_iterator(dir_.file("journal.db.spool/") + Spool::kSubfolder))
    ++spooled;
  EXPECT_EQ(spooled, 0u);
  EXPECT_NE(http_get(daemon_->http_port(), "/metrics").find("code=\"INVALID_ARGUMENT\""), std::string::npos);
}

TEST_F(DaemonTest, TokenIsRequiredWhenConfigured) {
  auto cfg = small_config(dir_, params_);
  cfg.token = "correct horse";
  cfg.listen.push_back("127.0.0.1:0");  // TCP on loopback too
  start(cfg);
  ASSERT_EQ(daemon_->addresses().size(), 2u);
  for (const auto& address : daemon_->addresses()) {
    for (const std::string token : {"", "wrong", "correct horsf", "correct horse "}) {
      auto c = client_for(address, token);
      auto st = submit(c, tiny_job(params_));
      EXPECT_EQ(st.error_code(), StatusCode::UNAUTHENTICATED) << address << " token '" << token << "'";
      v1::StatusResponse resp;
      auto ctx = c.context(std::chrono::seconds(60));
      EXPECT_EQ(c.stub->Status(ctx.get(), v1::StatusRequest(), &resp).error_code(),
                StatusCode::UNAUTHENTICATED);
    }
    auto good = client_for(address, "correct horse");
    expect_verifies(prove(good, tiny_job(params_)));
  }
}

TEST_F(DaemonTest, ServesOverTlsWithAToken) {
  // A self-signed certificate for 127.0.0.1, made with the openssl command when there is one.
  const auto cert = dir_.file("cert.pem"), key = dir_.file("key.pem");
  const std::string cmd =
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "
      "/CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "no openssl command to make a test certificate";
  auto cfg = small_config(dir_, params_);
  cfg.listen = {"127.0.0.1:0"};
  cfg.tls_cert = cert;
  cfg.tls_key = key;
  cfg.token = "t";
  start(cfg);
  ClientOptions o;
  o.address = daemon_->addresses().at(0);
  o.tls_ca = cert;
  o.token = "t";
  auto tls = connect(o);
  ASSERT_TRUE(tls.ok());
  expect_verifies(prove(*tls, tiny_job(params_)));
  // A client without TLS does not get through.
  auto plain = client_for(daemon_->addresses().at(0), "t");
  EXPECT_EQ(submit(plain, tiny_job(params_)).error_code(), StatusCode::UNAVAILABLE);
}

TEST_F(DaemonTest, CancelsAQueuedOrRunningJob) {
  auto cfg = small_config(dir_, params_);
  cfg.device_delay_ms = 20;  // 16 partitions, several device calls each: seconds, not milliseconds
  start(cfg);
  auto c = client();
  uint64_t id = 0;
  ASSERT_TRUE(submit(c, tiny_job(params_, v1::JOB_KIND_SNAP_DEALS), &id).ok());
  v1::CancelRequest req;
  req.set_job_id(id);
  v1::CancelResponse resp;
  auto ctx = c.context(std::chrono::seconds(60));
  auto st = c.stub->Cancel(ctx.get(), req, &resp);
  ASSERT_TRUE(st.ok()) << describe(st);
  auto r = await(c, id);
  EXPECT_EQ(r.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_FALSE(r.error().empty());
  auto ctx2 = c.context(std::chrono::seconds(60));
  EXPECT_EQ(c.stub->Cancel(ctx2.get(), req, &resp).error_code(), StatusCode::FAILED_PRECONDITION);
}

TEST_F(DaemonTest, ProvesPartitionsSynthesizedByTheClient) {
  start();
  auto circuit = r1cs::make_sample_circuit(tiny_spec());
  ASSERT_TRUE(circuit.ok());
  auto as = r1cs::synthesize_for_proving(**circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  auto spec = tiny_job(params_);
  spec.clear_partitions();
  assignment_to_proto(*as, spec.add_partitions()->mutable_synthesized());
  assignment_to_proto(*as, spec.add_partitions()->mutable_synthesized());
  // A third without c: the prover forms it.
  auto without_c = *as;
  without_c.c.clear();
  without_c.c_from_ab = true;
  assignment_to_proto(without_c, spec.add_partitions()->mutable_synthesized());
  EXPECT_TRUE(spec.partitions(2).synthesized().c().empty());
  auto r = prove(client(), spec);
  expect_verifies(r);
  EXPECT_EQ(r.proofs_size(), 3);
  // c given and marked as left out: a clear error, the daemon serves on.
  auto both = spec;
  both.mutable_partitions(2)->mutable_synthesized()->set_c(spec.partitions(0).synthesized().c());
  const grpc::Status st = submit(client(), both);
  EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT) << describe(st);
  EXPECT_NE(st.error_message().find("c_from_ab"), std::string::npos) << describe(st);
  expect_verifies(prove(client(), spec));
}

TEST_F(DaemonTest, SeveralClientsAtMixedPriorities) {
  auto cfg = small_config(dir_, params_);
  cfg.devices = {DeviceConfig{0, uint64_t(1) << 30, 2}, DeviceConfig{1, uint64_t(1) << 30, 1}};
  start(cfg);
  const std::pair<v1::JobKind, v1::Priority> mix[] = {
      {v1::JOB_KIND_WINNING_POST, v1::PRIORITY_DEFAULT}, {v1::JOB_KIND_WINDOW_POST, v1::PRIORITY_DEFAULT},
      {v1::JOB_KIND_GENERIC, v1::PRIORITY_LOW},          {v1::JOB_KIND_POREP_C2, v1::PRIORITY_DEFAULT},
      {v1::JOB_KIND_GENERIC, v1::PRIORITY_CRITICAL},
  };
  constexpr int kClients = 4;
  std::vector<std::vector<v1::JobResult>> results(kClients);
  std::vector<std::thread> threads;
  for (int t = 0; t < kClients; ++t) {
    threads.emplace_back([&, t] {
      auto c = client();  // one channel per client
      std::vector<uint64_t> ids;
      for (const auto& [kind, prio] : mix) {
        uint64_t id = 0;
        auto st = submit(c, tiny_job(params_, kind, prio), &id);
        EXPECT_TRUE(st.ok()) << describe(st);
        if (st.ok()) ids.push_back(id);
      }
      // One of each client's jobs through Prove (submit and wait in one call).
      results[t].push_back(prove(c, tiny_job(params_, v1::JOB_KIND_WINNING_POST)));
      for (auto id : ids) results[t].push_back(await(c, id));
    });
  }
  for (auto& t : threads) t.join();
  std::set<uint64_t> ids;
  for (const auto& rs : results) {
    ASSERT_EQ(rs.size(), std::size(mix) + 1);
    for (const auto& r : rs) {
      expect_verifies(r);
      EXPECT_TRUE(ids.insert(r.job_id()).second) << "job " << r.job_id() << " answered twice";
    }
  }
  const auto metrics = http_get(daemon_->http_port(), "/metrics");
  EXPECT_NE(metrics.find("cuzk_jobs_submitted_total{kind=\"winning_post\",priority=\"critical\"} 8"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("cuzk_jobs_finished_total{state=\"done\"} 24"), std::string::npos);
}

TEST_F(DaemonTest, ShutdownDrainsAndRefusesNewJobs) {
  auto cfg = small_config(dir_, params_);
  // Each device call sleeps, so a partition on the device keeps the drain open for a while: the
  // new job below arrives while the daemon drains, not while gRPC itself shuts down (which cancels
  // a call it has not answered, where the daemon's own refusal says UNAVAILABLE).
  cfg.device_delay_ms = 100;
  start(cfg);
  auto c = client();
  std::vector<uint64_t> ids(3);
  for (auto& id : ids)
    ASSERT_TRUE(submit(c, tiny_job(params_, v1::JOB_KIND_WINDOW_POST, v1::PRIORITY_DEFAULT, 3), &id).ok());
  const int port = daemon_->http_port();
  const auto give_up = std::chrono::steady_clock::now() + kGuard;
  const std::regex proving("\"proving\":[1-9]");
  while (!std::regex_search(http_get(port, "/status"), proving) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::thread stopper([&] { daemon_->shutdown(std::chrono::seconds(120)); });
  // Once draining shows, a new job is refused as UNAVAILABLE.
  while (http_get(port, "/healthz").substr(0, 3) == "200" && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(submit(c, tiny_job(params_)).error_code(), StatusCode::UNAVAILABLE);
  stopper.join();
  // After the stop the socket is gone; a fresh daemon on the same journal finishes everything.
  daemon_.reset();
  start(small_config(dir_, params_));
  auto c2 = client();
  for (auto id : ids) expect_verifies(await(c2, id));
}

}  // namespace
}  // namespace cuzk::server
