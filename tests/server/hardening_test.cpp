// cuzkd in process against a hostile-but-fair client: one daemon per journal, socket and port; job
// ids that never repeat and results bound to the job and client that asked; synthesis admitted
// against the host budget from the request's shape; server files confined; the spool sweeping only
// its own files; a journal that cannot be written stopping intake and holding results.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "groth16/verifier.hpp"
#include "io/snarkjs_wtns.hpp"
#include "server/client/convert.hpp"
#include "server/daemon.hpp"
#include "server/public_status.hpp"
#include "server/service.hpp"
#include "server/spool.hpp"
#include "tests/server/test_util.hpp"

namespace cuzk::server {
namespace {

using namespace testing;
using grpc::StatusCode;

// Peak resident memory of this process (VmHWM), in bytes.
uint64_t peak_rss() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

r1cs::SampleSpec merkle_spec(uint64_t seed) {
  r1cs::SampleSpec s;
  s.kind = "merkle";
  s.merkle_depth = 2;
  s.seed = seed;
  return s;
}

// Parameters for merkle depth 2 (its shape does not depend on the seed): every seed is a different
// statement (root and leaf), so a proof handed to the wrong job does not verify for it.
std::shared_ptr<const groth16::ProvingKey> merkle_key() {
  static std::shared_ptr<const groth16::ProvingKey> key = [] {
    auto circuit = r1cs::make_sample_circuit(merkle_spec(1));
    EXPECT_TRUE(circuit.ok());
    r1cs::RecordingSystem shape(false);
    EXPECT_TRUE((*circuit)->synthesize(shape).ok());
    ThreadPool pool(1);
    auto pk = groth16::generate_parameters(shape.matrices(), {1}, pool);
    EXPECT_TRUE(pk.ok()) << pk.message();
    return std::make_shared<const groth16::ProvingKey>(std::move(*pk));
  }();
  return key;
}

std::vector<Fr> public_inputs_of(const r1cs::SampleSpec& spec) {
  auto circuit = r1cs::make_sample_circuit(spec);
  EXPECT_TRUE(circuit.ok());
  auto as = r1cs::synthesize_for_proving(**circuit);
  EXPECT_TRUE(as.ok());
  return {as->input_assignment.begin() + 1, as->input_assignment.end()};
}

class HardeningTest : public ::testing::Test {
 protected:
  void SetUp() override { params_ = write_tiny_params(dir_); }

  Result<std::unique_ptr<Daemon>> launch(DaemonConfig c) {
    CUZK_TRY_STATUS(resolve(c));
    auto log = engine::make_stderr_logger("cuzkd-test");
    log->set_level(spdlog::level::from_str(c.log_level));
    return Daemon::start(std::move(c), log);
  }
  void start(DaemonConfig c) {
    auto d = launch(std::move(c));
    ASSERT_TRUE(d.ok()) << d.message();
    daemon_ = std::move(*d);
  }
  Client client(const std::string& token = "") { return client_for(daemon_->addresses().at(0), token); }

  static grpc::Status submit(const Client& c, const v1::JobSpec& spec, uint64_t* id = nullptr) {
    v1::SubmitRequest req;
    *req.mutable_job() = spec;
    v1::SubmitResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    auto st = c.stub->Submit(ctx.get(), req, &resp);
    if (id) *id = resp.job_id();
    return st;
  }
  static grpc::Status await(
      const Client& c, uint64_t id, v1::JobResult& out,
      std::chrono::milliseconds wait = std::chrono::duration_cast<std::chrono::milliseconds>(kGuard)) {
    v1::AwaitRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(uint64_t(wait.count()));
    auto ctx = c.context(wait + std::chrono::seconds(30));
    return c.stub->Await(ctx.get(), req, &out);
  }
  static grpc::Status cancel(const Client& c, uint64_t id) {
    v1::CancelRequest req;
    req.set_job_id(id);
    v1::CancelResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    return c.stub->Cancel(ctx.get(), req, &resp);
  }
  v1::StatusResponse status(const Client& c) {
    v1::StatusResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    EXPECT_TRUE(c.stub->Status(ctx.get(), v1::StatusRequest(), &resp).ok());
    return resp;
  }

  TempDir dir_;
  std::string params_;
  std::unique_ptr<Daemon> daemon_;
};

// ------------------------------------------------------------------ 1. one daemon per journal, socket, port

TEST_F(HardeningTest, ASecondDaemonOnTheSameJournalSocketOrPortIsRefused) {
  auto first = small_config(dir_, params_);
  first.listen.push_back("127.0.0.1:0");
  start(first);
  const std::string socket = dir_.file("d.sock");
  const std::string tcp = daemon_->addresses().at(1);

  auto expect_refused = [&](DaemonConfig c, const std::string& words) {
    auto second = launch(std::move(c));
    ASSERT_FALSE(second.ok()) << "a second daemon started beside the first";
    EXPECT_NE(second.message().find(words), std::string::npos) << second.message();
  };
  // The same configuration: the journal's lock names the owner.
  auto same = small_config(dir_, params_);
  expect_refused(same, "pid " + std::to_string(::getpid()));
  // Its own journal, the same socket.
  auto socket_only = small_config(dir_, params_);
  socket_only.journal = dir_.file("other.db");
  expect_refused(socket_only, "the socket " + socket);
  // Its own journal and socket, the same TCP port (no SO_REUSEPORT sharing).
  auto port_only = small_config(dir_, params_);
  port_only.journal = dir_.file("third.db");
  port_only.listen = {"unix://" + dir_.file("e.sock"), tcp};
  port_only.http_listen = "";
  auto refused = launch(port_only);
  EXPECT_FALSE(refused.ok()) << "two daemons on one TCP port";

  // The first still owns its socket and serves on both addresses.
  struct stat st {};
  ASSERT_EQ(::lstat(socket.c_str(), &st), 0) << "the refused daemon removed the first one's socket";
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  for (const auto& address : daemon_->addresses()) {
    auto c = client_for(address);
    uint64_t id = 0;
    ASSERT_TRUE(submit(c, tiny_job(params_), &id).ok());
    v1::JobResult r;
    ASSERT_TRUE(await(c, id, r).ok());
    EXPECT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  }
  // The journal is private to its owner.
  ASSERT_EQ(::stat(dir_.file("journal.db").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// ------------------------------------------------------------------ ids and results bound to their job

TEST_F(HardeningTest, HundredAwaitsUnderConcurrentClientsEachReturnTheirOwnProof) {
  const auto merkle = dir_.file("merkle.params");
  {
    auto params = to_bellman(*merkle_key());
    ASSERT_TRUE(params.ok());
    ASSERT_TRUE(write_bellman_params(merkle, *params).ok());
  }
  auto cfg = small_config(dir_, merkle);
  cfg.devices = {DeviceConfig{0, uint64_t(1) << 30, 2}};
  start(cfg);
  auto pvk = groth16::prepare_verifying_key(merkle_key()->vk);
  ASSERT_TRUE(pvk.ok());
  constexpr int kClients = 4, kJobsEach = 25;
  std::vector<std::map<uint64_t, uint64_t>> seeds(kClients);  // id -> seed
  std::vector<std::thread> threads;
  std::atomic<int> verified{0};
  for (int t = 0; t < kClients; ++t)
    threads.emplace_back([&, t] {
      auto c = client();
      for (int j = 0; j < kJobsEach; ++j) {
        const uint64_t seed = 1000 + uint64_t(t) * kJobsEach + uint64_t(j);
        v1::JobSpec spec;
        spec.set_kind(v1::JOB_KIND_GENERIC);
        spec.set_params(merkle);
        auto* s = spec.add_partitions()->mutable_sample();
        s->set_kind("merkle");
        s->set_merkle_depth(2);
        s->set_seed(seed);
        uint64_t id = 0;
        auto st = submit(c, spec, &id);
        EXPECT_TRUE(st.ok()) << describe(st);
        seeds[size_t(t)][id] = seed;
      }
      for (const auto& [id, seed] : seeds[size_t(t)]) {
        v1::JobResult m;
        auto st = await(c, id, m);
        ASSERT_TRUE(st.ok()) << describe(st);
        ASSERT_EQ(m.job_id(), id);
        ASSERT_EQ(m.state(), v1::JOB_STATE_DONE) << m.error();
        auto r = result_from_proto(m);
        ASSERT_TRUE(r.ok()) << r.message();
        ASSERT_EQ(r->proofs.size(), 1u);
        const auto expected = public_inputs_of(merkle_spec(seed));
        EXPECT_EQ(r->public_inputs.at(0), expected)
            << "job " << id << " answered with another job's statement";
        auto ok = groth16::verify_proof(*pvk, r->proofs[0], expected);
        ASSERT_TRUE(ok.ok());
        EXPECT_TRUE(*ok) << "job " << id << ": the proof is not of its own statement";
        verified += *ok ? 1 : 0;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(verified.load(), kClients * kJobsEach);
  std::set<uint64_t> ids;
  for (const auto& m : seeds)
    for (const auto& [id, seed] : m) EXPECT_TRUE(ids.insert(id).second) << "id " << id << " handed out twice";
  // Ids are not a counter: a restarted daemon (or another one) cannot hand out the same ones.
  EXPECT_GT(*ids.rbegin(), uint64_t(1) << 32);
}

TEST_F(HardeningTest, OnlyTheSubmittingClientMayAwaitOrCancelItsJob) {
  std::ofstream(dir_.file("clients")) << "# name token\nalice tok-a\nbob tok-b\n";
  ::chmod(dir_.file("clients").c_str(), 0600);
  auto cfg = small_config(dir_, params_);
  cfg.clients_file = dir_.file("clients");
  cfg.device_delay_ms = 20;
  start(cfg);
  auto alice = client("tok-a");
  auto bob = client("bob tok-b");  // not a token
  uint64_t id = 0;
  ASSERT_TRUE(submit(alice, tiny_job(params_, v1::JOB_KIND_WINDOW_POST, v1::PRIORITY_DEFAULT, 3), &id).ok());
  EXPECT_EQ(submit(bob, tiny_job(params_)).error_code(), StatusCode::UNAUTHENTICATED);
  auto real_bob = client("tok-b");
  v1::JobResult r;
  EXPECT_EQ(await(real_bob, id, r).error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(cancel(real_bob, id).error_code(), StatusCode::NOT_FOUND);
  // RFC 6750: the scheme is case-insensitive.
  auto lower = client_for(daemon_->addresses().at(0));
  {
    v1::AwaitRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(kGuard).count()));
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "bearer tok-a");
    ctx.set_deadline(std::chrono::system_clock::now() + kGuard + std::chrono::seconds(30));
    auto st = lower.stub->Await(&ctx, req, &r);
    ASSERT_TRUE(st.ok()) << describe(st);
    EXPECT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  }
  // A client name that would forge a log line is refused.
  auto forged = tiny_job(params_);
  forged.set_client("x\n[info] event=job_done");
  const auto st = submit(alice, forged);
  EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT) << describe(st);
  EXPECT_NE(st.error_message().find("printable"), std::string::npos) << describe(st);
}

// ------------------------------------------------------------------ 2. memory admitted from the request's
// shape

TEST_F(HardeningTest, SynthesisOverTheHostBudgetIsRefusedBeforeAnythingIsAllocated) {
  start(small_config(dir_, params_));  // a host budget of 1 GiB
  auto c = client();
  const uint64_t before = peak_rss();
  auto over = [&](const std::function<void(v1::SampleCircuit*)>& set) {
    auto spec = tiny_job(params_);
    set(spec.mutable_partitions(0)->mutable_sample());
    const auto st = submit(c, spec);
    EXPECT_EQ(st.error_code(), StatusCode::RESOURCE_EXHAUSTED) << describe(st);
    EXPECT_NE(st.error_message().find("host budget"), std::string::npos) << describe(st);
  };
  over([](v1::SampleCircuit* s) { s->set_log_domain(25); });  // 2^25 rows: about 4 GiB
  over([](v1::SampleCircuit* s) {
    s->set_kind("sha256");
    s->set_message_bytes(1 << 20);
  });
  // Under the budget but far beyond the parameter set's domain: the job fails before synthesis.
  auto spec = tiny_job(params_);
  spec.mutable_partitions(0)->mutable_sample()->set_log_domain(21);
  uint64_t id = 0;
  ASSERT_TRUE(submit(c, spec, &id).ok());
  v1::JobResult r;
  ASSERT_TRUE(await(c, id, r).ok());
  EXPECT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(r.error().find("domain"), std::string::npos) << r.error();
  EXPECT_LT(peak_rss() - before, uint64_t(64) << 20) << "the refused requests were allocated";
  EXPECT_EQ(status(c).jobs_failed(), 1u);
}

// ------------------------------------------------------------------ 4. server files confined

TEST_F(HardeningTest, FilesOutsideTheConfiguredFoldersAndSpecialFilesAreRefusedWithoutAHang) {
  std::filesystem::create_directories(dir_.file("inputs"));
  const std::string fifo = dir_.file("inputs/w.wtns"), params_fifo = dir_.file("p.params");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo(params_fifo.c_str(), 0600), 0);
  auto cfg = small_config(dir_, params_);
  cfg.input_dirs = {dir_.file("inputs")};
  start(cfg);
  auto c = client();
  // What a readable /etc/shadow starts with must never come back.
  std::string secret_head;
  {
    std::ifstream in("/etc/shadow");
    char buf[5] = {};
    if (in.read(buf, 4)) secret_head = buf;
  }
  auto expect_refused = [&](const v1::JobSpec& spec, const std::string& words) {
    const auto st = submit(c, spec);  // bounded by the call's deadline: a hang fails here
    EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT) << describe(st);
    EXPECT_NE(st.error_message().find(words), std::string::npos) << describe(st);
    EXPECT_EQ(st.error_message().find("magic"), std::string::npos) << describe(st);
    if (!secret_head.empty()) {
      EXPECT_EQ(st.error_message().find(secret_head), std::string::npos) << describe(st);
    }
  };
  for (const std::string& outside : {std::string("/etc/shadow"), std::string("/etc/passwd"), params_fifo}) {
    // The FIFO is in the parameter folder (that of the preloaded set), outside the input folder.
    expect_refused(tiny_job(outside),
                   outside == params_fifo ? "not a regular file" : "not one of the daemon's parameter files");
    auto files = tiny_job(params_);
    files.mutable_partitions(0)->mutable_circom_files()->set_wtns_path(outside);
    expect_refused(files, "not one of the daemon's input files");
  }
  auto in_fifo = tiny_job(params_);
  in_fifo.mutable_partitions(0)->mutable_circom_files()->set_wtns_path(fifo);
  expect_refused(in_fifo, "not a regular file");
  // Every reader of the project: a FIFO is an error at once, not a wait for a writer.
  auto read = read_wtns(fifo);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("not a regular file"), std::string::npos) << read.message();
  // The daemon still proves.
  uint64_t id = 0;
  ASSERT_TRUE(submit(c, tiny_job(params_), &id).ok());
  v1::JobResult r;
  ASSERT_TRUE(await(c, id, r).ok());
  EXPECT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  // /status (unauthenticated HTTP) names no file of the host.
  const auto http = http_get(daemon_->http_port(), "/status");
  EXPECT_EQ(http.substr(0, 3), "200");
  EXPECT_EQ(http.find(dir_.file("")), std::string::npos) << http;
}

// ------------------------------------------------------------------ 5. the spool sweeps its own files only

TEST_F(HardeningTest, TheSpoolSweepLeavesFilesItDidNotWrite) {
  const auto parent = dir_.file("spool");
  std::filesystem::create_directories(parent);
  ::chmod(parent.c_str(), 0755);
  std::ofstream(dir_.file("spool/foreign.txt")) << "not the daemon's";
  auto spool = Spool::open(parent, engine::make_stderr_logger("spool-test"));
  ASSERT_TRUE(spool.ok()) << spool.message();
  const auto own = (*spool)->dir();
  EXPECT_EQ(std::filesystem::path(own).parent_path(), std::filesystem::path(parent));
  std::ofstream(own + "/notes.wtns") << "foreign, inside";
  std::ofstream(own + "/upload-0123456789abcdef-1.wtns") << "left by a crashed run";
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(48);
  for (const auto& f :
       {dir_.file("spool/foreign.txt"), own + "/notes.wtns", own + "/upload-0123456789abcdef-1.wtns"})
    std::filesystem::last_write_time(f, old);
  EXPECT_EQ((*spool)->sweep(std::chrono::hours(24)), 1u);
  EXPECT_TRUE(std::filesystem::exists(dir_.file("spool/foreign.txt")));
  EXPECT_TRUE(std::filesystem::exists(own + "/notes.wtns"));
  EXPECT_FALSE(std::filesystem::exists(own + "/upload-0123456789abcdef-1.wtns"));
  struct stat st {};
  ASSERT_EQ(::stat(parent.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u) << "the configured folder's mode was changed";
  ASSERT_EQ(::stat(own.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_TRUE(Spool::is_upload_name("upload-0123456789abcdef-12.r1cs"));
  for (const char* name : {"upload-0123456789abcdef-.wtns", "upload-0123456789abcdeg-1.wtns", "x.wtns",
                           "upload-0123456789abcdef-1.txt"})
    EXPECT_FALSE(Spool::is_upload_name(name)) << name;
}

// ------------------------------------------------------------------ 7. a journal that cannot be written

TEST_F(HardeningTest, AJournalThatCannotBeWrittenTurnsUnhealthyAndNoJobIsProvedTwice) {
  const auto fault = dir_.file("disk-full");
  auto cfg = small_config(dir_, params_);
  cfg.journal_write_fault_file = fault;
  cfg.device_delay_ms = 100;
  start(cfg);
  auto c = client();
  const int port = daemon_->http_port();
  uint64_t first = 0;
  ASSERT_TRUE(submit(c, tiny_job(params_), &first).ok());
  v1::JobResult r;
  ASSERT_TRUE(await(c, first, r).ok());
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE);
  // Accepted while the disk has room, finishing while it is full.
  std::vector<uint64_t> ids(2);
  for (auto& id : ids)
    ASSERT_TRUE(submit(c, tiny_job(params_, v1::JOB_KIND_WINDOW_POST, v1::PRIORITY_DEFAULT, 2), &id).ok());
  std::ofstream(fault) << "";
  const auto give_up = std::chrono::steady_clock::now() + kGuard;
  while (status(c).jobs_done() < 3 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(status(c).jobs_done(), 3u);
  const auto health = http_get(port, "/healthz");
  EXPECT_EQ(health.substr(0, 3), "503") << health;
  EXPECT_NE(health.find("journal"), std::string::npos) << health;
  // Proved, but not handed out while the journal does not hold it; no new work either.
  for (auto id : ids) {
    ASSERT_TRUE(await(c, id, r, std::chrono::milliseconds(300)).ok());
    EXPECT_NE(r.state(), v1::JOB_STATE_DONE) << "job " << id << " handed out before it was journaled";
    EXPECT_EQ(r.proofs_size(), 0);
  }
  const auto refused = submit(c, tiny_job(params_));
  EXPECT_EQ(refused.error_code(), StatusCode::UNAVAILABLE) << describe(refused);
  // Room again: the held writes land, results go out, the daemon is healthy.
  std::filesystem::remove(fault);
  for (auto id : ids) {
    ASSERT_TRUE(await(c, id, r).ok());
    EXPECT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  }
  EXPECT_EQ(http_get(port, "/healthz"), "200\nok\n");
  daemon_.reset();
  // Restarted: nothing to prove again, each job completed once in the file.
  start(small_config(dir_, params_));
  auto c2 = client();
  const auto s = status(c2);
  EXPECT_EQ(s.running_jobs() + s.queued_low() + s.queued_normal() + s.queued_high() + s.queued_critical(),
            0u);
  for (auto id : ids) {
    ASSERT_TRUE(await(c2, id, r).ok());
    EXPECT_EQ(r.state(), v1::JOB_STATE_DONE);
  }
  EXPECT_EQ(status(c2).jobs_done(), 0u) << "a job was proved again after the restart";
}

// ------------------------------------------------------------------ 8. /status reveals nothing of the host

TEST(PublicStatus, ErrorTextsAndFilePathsAreReducedToAGenericForm) {
  engine::EngineStatus s;
  s.journal_error = "cannot write /var/lib/cuzk/secret-journal.db: No space left on device";
  s.journal_backlog = 2;
  s.devices.resize(2);
  s.devices[0].last_error = "cannot open /home/alice/keys/v28.params: wrtns magic \"root\"";
  s.devices[0].quarantined = s.devices[1].quarantined = true;
  s.params.push_back({});
  s.params[0].name = "/home/alice/params/v28-stacked.params";
  const auto json = public_status_json(s, true);
  for (const char* secret : {"/var/lib", "secret-journal", "/home/alice", "keys", "root", "No space"})
    EXPECT_EQ(json.find(secret), std::string::npos) << secret << " in " << json;
  EXPECT_NE(json.find("\"v28-stacked.params\""), std::string::npos) << json;
  EXPECT_NE(json.find(kPublicDeviceError), std::string::npos) << json;
  EXPECT_NE(json.find(kPublicJournalError), std::string::npos) << json;
  EXPECT_NE(json.find("\"draining\":true"), std::string::npos) << json;
  // A device without an error keeps its empty text (the generic one would be a false alarm).
  EXPECT_EQ(public_status(s).devices[1].last_error, "");
  const auto health = public_health(s, false);
  ASSERT_FALSE(health.ok());
  EXPECT_EQ(health.message().find("/var/lib"), std::string::npos) << health.message();
  EXPECT_NE(health.message().find("journal"), std::string::npos) << health.message();
  EXPECT_NE(health.message().find("2 writes held"), std::string::npos) << health.message();
  s.journal_error.clear();
  EXPECT_FALSE(public_health(s, false).ok()) << "no device in service is unhealthy";
  s.devices[1].quarantined = false;
  EXPECT_TRUE(public_health(s, false).ok());
  EXPECT_FALSE(public_health(s, true).ok()) << "draining is unhealthy";
}

TEST_F(HardeningTest, TheHttpStatusKeepsErrorDetailForTheAuthenticatedStatusOnly) {
  const auto fault = dir_.file("disk-full");
  auto cfg = small_config(dir_, params_);
  cfg.journal_write_fault_file = fault;
  cfg.device_delay_ms = 200;  // the fault is in place before the job ends
  start(cfg);
  auto c = client();
  uint64_t id = 0;
  ASSERT_TRUE(submit(c, tiny_job(params_), &id).ok());
  std::ofstream(fault) << "";  // the job's end cannot be journaled: the journal has an error
  const auto give_up = std::chrono::steady_clock::now() + kGuard;
  while (status(c).json().find("injected write fault") == std::string::npos &&
         std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(status(c).json().find("injected write fault"), std::string::npos) << status(c).json();
  const auto http = http_get(daemon_->http_port(), "/status");
  EXPECT_EQ(http.substr(0, 3), "200") << http;
  EXPECT_EQ(http.find("injected"), std::string::npos) << http;
  EXPECT_EQ(http.find(dir_.file("")), std::string::npos) << http;
  EXPECT_NE(http.find(kPublicJournalError), std::string::npos) << http;
  const auto health = http_get(daemon_->http_port(), "/healthz");
  EXPECT_EQ(health.substr(0, 3), "503") << health;
  EXPECT_EQ(health.find("injected"), std::string::npos) << health;
  std::filesystem::remove(fault);
  v1::JobResult r;
  ASSERT_TRUE(await(c, id, r).ok());
  EXPECT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
}

// ------------------------------------------------------------------ benchmark daemons' fake keys

// A key whose proofs never verify (its verifying key's α moved): what a fake key is to the engine.
std::shared_ptr<const groth16::ProvingKey> broken_key() {
  auto key = std::make_shared<groth16::ProvingKey>(*tiny_key());
  key->vk.alpha_g1 = G1Jacobian(key->vk.alpha_g1).add(G1Jacobian(G1Affine::generator())).to_affine();
  return key;
}

TEST_F(HardeningTest, AFakeKeyIsSetOnlyFromCodeAndItsProofsAreNeverReportedValid) {
  // Neither the file nor --set reaches the benchmark settings.
  for (const char* text :
       {"[testing]\nbenchmark_unverified_proofs = true\n", "[engine]\nbenchmark_unverified_proofs = true\n",
        "[engine]\nignore_verify = true\n"}) {
    DaemonConfig c;
    EXPECT_FALSE(load_config_text(text, "test.toml", c).ok()) << text;
    EXPECT_FALSE(c.benchmark_unverified_proofs);
  }
  // A daemon holding a fake key without the benchmark setting: its proofs fail their check.
  auto cfg = small_config(dir_, params_);
  cfg.preload.clear();
  cfg.max_attempts = 1;
  cfg.quarantine_after = 100;
  cfg.benchmark_keys["fake"] = broken_key();
  start(cfg);
  auto c = client();
  uint64_t id = 0;
  ASSERT_TRUE(submit(c, tiny_job("fake"), &id).ok());
  v1::JobResult r;
  ASSERT_TRUE(await(c, id, r).ok());
  EXPECT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(r.proofs_size(), 0);
  daemon_.reset();
  // With it (cuzkd-bench): proved, timed, and reported FAILED, NOT VALID, the proofs attached.
  cfg.benchmark_unverified_proofs = true;
  start(cfg);
  auto c2 = client();
  ASSERT_TRUE(submit(c2, tiny_job("fake", v1::JOB_KIND_WINDOW_POST, v1::PRIORITY_DEFAULT, 2), &id).ok());
  ASSERT_TRUE(await(c2, id, r).ok());
  EXPECT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(r.error(), std::string(kBenchmarkProofsNotValid));
  EXPECT_EQ(r.proofs_size(), 2);
  // The same again through Prove: nothing a client reads says valid.
  v1::ProveRequest prove;
  *prove.mutable_job() = tiny_job("fake");
  auto ctx = c2.context(std::chrono::seconds(120));
  ASSERT_TRUE(c2.stub->Prove(ctx.get(), prove, &r).ok());
  EXPECT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(r.error().rfind("NOT VALID", 0), 0u) << r.error();
}

}  // namespace
}  // namespace cuzk::server
