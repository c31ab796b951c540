// cuzkd as a process: kill -9 in the middle of a run and a restart on the same journal (every
// accepted job completes, none twice), SIGTERM (drain, exit 0, the rest resumes), a configuration
// error, and the `cuzk` client commands against it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <thread>

#include "engine/journal.hpp"
#include "groth16/verifier.hpp"
#include "server/client/convert.hpp"
#include "tests/server/test_util.hpp"

namespace cuzk::server {
namespace {

using namespace testing;

// A child process with its output in a file; killed (SIGKILL) if the test leaves it running.
class Process {
 public:
  Process(const std::string& exe, const std::vector<std::string>& args, const std::string& log) {
    std::vector<std::string> all{exe};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    pid_ = ::fork();
    if (pid_ == 0) {  // only async-signal-safe calls until exec
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::execv(exe.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(fd);
  }
  ~Process() {
    if (running()) kill(SIGKILL);
    if (pid_ > 0 && !reaped_) wait();
  }
  bool running() {
    if (pid_ <= 0 || reaped_) return false;
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      reaped_ = true;
      status_ = st;
      return false;
    }
    return true;
  }
  void kill(int sig) { ::kill(pid_, sig); }
  pid_t pid() const { return pid_; }
  // Waits for the exit (bounded by the guard: then SIGKILL); the exit status, -signal, or -1000.
  int wait() {
    const auto give_up = std::chrono::steady_clock::now() + kGuard;
    while (running()) {
      if (std::chrono::steady_clock::now() > give_up) {
        kill(SIGKILL);
        ::waitpid(pid_, &status_, 0);
        reaped_ = true;
        return -1000;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return WIFEXITED(status_) ? WEXITSTATUS(status_) : -WTERMSIG(status_);
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
};

// Peak resident memory of a process (VmHWM), in bytes; 0 when it cannot be read.
uint64_t peak_rss(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    params_ = write_tiny_params(dir_);
    socket_ = "unix://" + dir_.file("d.sock");
    journal_ = dir_.file("journal.db");
  }
  std::vector<std::string> args(uint32_t delay_ms) const {
    return {"--listen",
            socket_,
            "--journal",
            journal_,
            "--http-listen",
            "",
            "--preload",
            params_,
            "--device",
            "0:1G:1",
            "--host-memory-budget",
            "1G",
            "--testing-device-delay-ms",
            std::to_string(delay_ms),
            "--log-level",
            "info"};
  }
  std::unique_ptr<Process> start(uint32_t delay_ms, std::vector<std::string> extra = {}) {
    auto a = args(delay_ms);
    a.insert(a.end(), extra.begin(), extra.end());
    auto p = std::make_unique<Process>(CUZKD_PATH, a, dir_.file("cuzkd.log"));
    // Ready once Status answers (the socket exists and the engine resumed its journal).
    auto c = client_for(socket_, token_);
    const auto give_up = std::chrono::steady_clock::now() + kGuard;
    for (;;) {
      v1::StatusResponse resp;
      auto ctx = c.context(std::chrono::seconds(5));
      if (c.stub->Status(ctx.get(), v1::StatusRequest(), &resp).ok()) break;
      if (!p->running() || std::chrono::steady_clock::now() > give_up) {
        ADD_FAILURE() << "cuzkd did not start:\n" << read_file(dir_.file("cuzkd.log"));
        return p;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return p;
  }
  uint64_t submit(const v1::JobSpec& spec) {
    auto c = client_for(socket_, token_);
    v1::SubmitRequest req;
    *req.mutable_job() = spec;
    v1::SubmitResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    auto st = c.stub->Submit(ctx.get(), req, &resp);
    EXPECT_TRUE(st.ok()) << describe(st);
    return resp.job_id();
  }
  uint64_t jobs_done() {
    auto c = client_for(socket_, token_);
    v1::StatusResponse resp;
    auto ctx = c.context(std::chrono::seconds(60));
    EXPECT_TRUE(c.stub->Status(ctx.get(), v1::StatusRequest(), &resp).ok());
    return resp.jobs_done();
  }
  void expect_done_and_verifies(uint64_t id) {
    auto c = client_for(socket_, token_);
    v1::AwaitRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(kGuard).count()));
    v1::JobResult m;
    auto ctx =
        c.context(std::chrono::duration_cast<std::chrono::milliseconds>(kGuard + std::chrono::seconds(30)));
    auto st = c.stub->Await(ctx.get(), req, &m);
    ASSERT_TRUE(st.ok()) << "job " << id << ": " << describe(st);
    ASSERT_EQ(m.state(), v1::JOB_STATE_DONE) << "job " << id << ": " << m.error();
    auto r = result_from_proto(m);
    ASSERT_TRUE(r.ok()) << r.message();
    auto pvk = groth16::prepare_verifying_key(tiny_key()->vk);
    ASSERT_TRUE(pvk.ok());
    ASSERT_EQ(r->proofs.size(), r->partitions);
    for (size_t i = 0; i < r->proofs.size(); ++i)
      EXPECT_TRUE(*groth16::verify_proof(*pvk, r->proofs[i], r->public_inputs[i]));
  }
  // Read from the journal file itself: each job finished exactly once.
  void expect_each_completed_once(const std::vector<uint64_t>& ids) {
    auto journal = engine::Journal::open(journal_, false);
    ASSERT_TRUE(journal.ok()) << journal.message();
    auto stored = (*journal)->load_all();
    ASSERT_TRUE(stored.ok()) << stored.message();
    std::map<uint64_t, uint32_t> completions;
    for (const auto& j : *stored) completions[j.id] = j.completions;
    for (auto id : ids) {
      ASSERT_TRUE(completions.count(id)) << "job " << id << " is not in the journal";
      EXPECT_EQ(completions[id], 1u) << "job " << id;
    }
  }
  std::vector<v1::JobSpec> mixed_jobs() const {
    std::vector<v1::JobSpec> jobs;
    for (int i = 0; i < 10; ++i) {
      const auto kind = i % 5 == 0   ? v1::JOB_KIND_WINNING_POST
                        : i % 5 == 1 ? v1::JOB_KIND_WINDOW_POST
                                     : v1::JOB_KIND_GENERIC;
      jobs.push_back(tiny_job(params_, kind, i % 3 == 2 ? v1::PRIORITY_LOW : v1::PRIORITY_DEFAULT,
                              kind == v1::JOB_KIND_WINDOW_POST ? 3 : 1));
    }
    return jobs;
  }

  TempDir dir_;
  std::string params_, socket_, journal_, token_;
};

TEST_F(ProcessTest, KillNineMidRunThenRestartCompletesEveryJobOnce) {
  std::vector<uint64_t> ids;
  {
    auto daemon = start(40);
    ASSERT_TRUE(daemon->running());
    for (const auto& spec : mixed_jobs()) ids.push_back(submit(spec));
    const auto give_up = std::chrono::steady_clock::now() + kGuard;
    while (jobs_done() < 2 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const auto done = jobs_done();
    daemon->kill(SIGKILL);
    EXPECT_EQ(daemon->wait(), -SIGKILL);
    ASSERT_LT(done, ids.size()) << "the machine was too fast for this test to stop mid-run";
  }
  {
    auto daemon = start(0);
    for (auto id : ids) expect_done_and_verifies(id);
    daemon->kill(SIGTERM);
    EXPECT_EQ(daemon->wait(), 0) << read_file(dir_.file("cuzkd.log"));
  }
  expect_each_completed_once(ids);
}

TEST_F(ProcessTest, SigtermDrainsExitsCleanlyAndTheRestResumes) {
  std::vector<uint64_t> ids;
  {
    auto daemon = start(40);
    for (const auto& spec : mixed_jobs()) ids.push_back(submit(spec));
    daemon->kill(SIGTERM);
    EXPECT_EQ(daemon->wait(), 0) << read_file(dir_.file("cuzkd.log"));
  }
  const auto log = read_file(dir_.file("cuzkd.log"));
  EXPECT_NE(log.find("event=draining"), std::string::npos) << log;
  EXPECT_NE(log.find("event=stopped"), std::string::npos) << log;
  {
    auto daemon = start(0);
    for (auto id : ids) expect_done_and_verifies(id);
    daemon->kill(SIGTERM);
    EXPECT_EQ(daemon->wait(), 0);
  }
  expect_each_completed_once(ids);
}

TEST_F(ProcessTest, AWrongConfigurationStopsTheStartWithAMessage) {
  std::ofstream(dir_.file("bad.toml")) << "[daemon]\nlisten_address = \"x\"\n";
  Process p(CUZKD_PATH, {"--config", dir_.file("bad.toml")}, dir_.file("bad.log"));
  EXPECT_EQ(p.wait(), 1);
  EXPECT_NE(read_file(dir_.file("bad.log")).find("daemon.listen_address"), std::string::npos);
  Process q(CUZKD_PATH, {"--listen", socket_, "--preload", dir_.file("missing.params"), "--http-listen", ""},
            dir_.file("bad2.log"));
  EXPECT_EQ(q.wait(), 1);
  EXPECT_NE(read_file(dir_.file("bad2.log")).find("missing.params"), std::string::npos);
}

// Runs `cuzk ARGS` (bounded by `timeout`), returns its exit status and puts its stdout in `out`.
int run_cuzk(const std::string& args, std::string& out, const std::string& env = "") {
  const std::string cmd = env + " timeout 120 " + std::string(CUZK_PATH) + " " + args + " 2>&1";
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) return -1;
  out.clear();
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof(buf), f)) > 0;) out.append(buf, n);
  const int st = ::pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST_F(ProcessTest, ClientCommandsTalkToTheDaemon) {
  token_ = "tok-123";
  std::ofstream(dir_.file("token")) << token_ << "\n";
  auto daemon = start(0, {"--token-file", dir_.file("token")});
  const std::string env = "CUZK_DAEMON=" + socket_ + " CUZK_TOKEN_FILE=" + dir_.file("token");
  const std::string job = "--params " + params_ + " --circuit synthetic --log-domain 6 --seed 7";
  std::string out;

  ASSERT_EQ(run_cuzk("submit " + job + " --kind window-post --partitions 2", out, env), 0) << out;
  const uint64_t id = std::stoull(out);
  ASSERT_EQ(run_cuzk("await " + std::to_string(id) + " --proof " + dir_.file("p.bin") + " --public " +
                         dir_.file("pub.json"),
                     out, env),
            0)
      << out;
  EXPECT_NE(out.find("done"), std::string::npos) << out;
  EXPECT_NE(out.find("timings ms: queue_wait"), std::string::npos) << out;
  EXPECT_EQ(read_file(dir_.file("p.bin")).size(), 2 * 192u);

  ASSERT_EQ(run_cuzk("remote-prove " + job + " --json --proof-format snarkjs --proof " + dir_.file("p.json"),
                     out, env),
            0)
      << out;
  EXPECT_NE(out.find("\"state\":\"done\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"gpu\":"), std::string::npos) << out;
  EXPECT_NE(read_file(dir_.file("p.json")).find("pi_a"), std::string::npos);

  EXPECT_EQ(run_cuzk("status", out, env), 0) << out;
  EXPECT_NE(out.find("2 done"), std::string::npos) << out;
  EXPECT_EQ(run_cuzk("preload " + params_, out, env), 0) << out;
  EXPECT_EQ(run_cuzk("cancel 999999", out, env), 1) << out;
  EXPECT_NE(out.find("NOT_FOUND"), std::string::npos) << out;
  // Without the token: refused, clearly.
  EXPECT_EQ(run_cuzk("status", out, "CUZK_DAEMON=" + socket_), 1) << out;
  EXPECT_NE(out.find("UNAUTHENTICATED"), std::string::npos) << out;
  daemon->kill(SIGTERM);
  EXPECT_EQ(daemon->wait(), 0);
}

}  // namespace
}  // namespace cuzk::server

namespace cuzk::server {
namespace {

// 3. A large request without the token is refused from its metadata, before gRPC reads its body:
// the daemon's peak memory grows by far less than the request (here 300 MB, under a 512 MB limit).
TEST_F(ProcessTest, ALargeUnauthenticatedRequestIsRefusedBeforeItsBodyIsRead) {
  token_ = "tok-rss";
  std::ofstream(dir_.file("token")) << token_ << "\n";
  ::chmod(dir_.file("token").c_str(), 0600);
  auto daemon = start(0, {"--token-file", dir_.file("token"), "--max-message-bytes", "536870912"});
  ASSERT_TRUE(daemon->running());
  const uint64_t before = peak_rss(daemon->pid());
  ASSERT_GT(before, 0u);
  v1::SubmitRequest req;
  req.mutable_job()->set_kind(v1::JOB_KIND_GENERIC);
  req.mutable_job()->set_params(params_);
  req.mutable_job()->add_partitions()->mutable_circom()->set_wtns(std::string(300u << 20, 'w'));
  for (const std::string token : {"", "wrong"}) {
    auto c = client_for(socket_, token, uint64_t(512) << 20);
    v1::SubmitResponse resp;
    auto ctx = c.context(std::chrono::seconds(120));
    const auto st = c.stub->Submit(ctx.get(), req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAUTHENTICATED) << describe(st);
  }
  const uint64_t after = peak_rss(daemon->pid());
  EXPECT_LT(after - before, uint64_t(64) << 20) << "peak RSS " << before << " -> " << after;
  EXPECT_GT(jobs_done() + 1, 0u);  // still serving with the token
  daemon->kill(SIGTERM);
  EXPECT_EQ(daemon->wait(), 0);
}

TEST_F(ProcessTest, ErrorsOfTheCommandLineNeitherEchoSecretsNorHideTheCause) {
  // An unknown flag: named, its value not repeated.
  Process p(CUZKD_PATH, {"--tokn", "s3cr3t-value", "--listen", socket_}, dir_.file("flag.log"));
  EXPECT_NE(p.wait(), 0);
  const auto log = read_file(dir_.file("flag.log"));
  EXPECT_NE(log.find("--tokn"), std::string::npos) << log;
  EXPECT_EQ(log.find("s3cr3t-value"), std::string::npos) << log;
  // A socket in a folder that does not exist: said so.
  Process q(CUZKD_PATH, {"--listen", "unix://" + dir_.file("no/such/dir/d.sock"), "--http-listen", ""},
            dir_.file("dir.log"));
  EXPECT_EQ(q.wait(), 1);
  EXPECT_NE(read_file(dir_.file("dir.log")).find("does not exist"), std::string::npos)
      << read_file(dir_.file("dir.log"));
}

// A waiting `cuzk await` outlives a restart of the daemon (kill -9): it asks again until the job,
// resumed from the journal, is done.
TEST_F(ProcessTest, AwaitWaitsAcrossADaemonRestart) {
  uint64_t id = 0;
  std::unique_ptr<Process> waiter;
  {
    auto daemon = start(500);  // seconds per partition: the job is unfinished at the kill
    id = submit(tiny_job(params_, v1::JOB_KIND_WINDOW_POST, v1::PRIORITY_DEFAULT, 3));
    waiter = std::make_unique<Process>(
        CUZK_PATH, std::vector<std::string>{"await", std::to_string(id), "--daemon", socket_},
        dir_.file("await.log"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    daemon->kill(SIGKILL);
    EXPECT_EQ(daemon->wait(), -SIGKILL);
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  auto daemon = start(0);
  EXPECT_EQ(waiter->wait(), 0) << read_file(dir_.file("await.log"));
  const auto out = read_file(dir_.file("await.log"));
  EXPECT_NE(out.find("unavailable"), std::string::npos) << out;
  EXPECT_NE(out.find("done"), std::string::npos) << out;
  daemon->kill(SIGTERM);
  EXPECT_EQ(daemon->wait(), 0);
}

// 6. An output path that is a device or a link is written through, never replaced.
TEST_F(ProcessTest, OutputsWriteThroughSpecialFilesAndLinksInsteadOfReplacingThem) {
  auto daemon = start(0);
  const std::string env = "CUZK_DAEMON=" + socket_;
  const std::string job = "--params " + params_ + " --circuit synthetic --log-domain 6 --seed 7";
  std::string out;
  ASSERT_EQ(run_cuzk("submit " + job, out, env), 0) << out;
  const std::string id = std::to_string(std::stoull(out));
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  ASSERT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_NE(run_cuzk("await " + id + " --proof /dev/full", out, env), 0) << out;
  EXPECT_NE(out.find("/dev/full"), std::string::npos) << out;
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/full was replaced";
  EXPECT_EQ(run_cuzk("await " + id + " --proof /dev/null", out, env), 0) << out;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null was replaced";
  // A link stays a link; its target gets the proof.
  std::ofstream(dir_.file("target.bin")) << "old";
  ASSERT_EQ(::symlink(dir_.file("target.bin").c_str(), dir_.file("link.bin").c_str()), 0);
  EXPECT_EQ(run_cuzk("await " + id + " --proof " + dir_.file("link.bin"), out, env), 0) << out;
  ASSERT_EQ(::lstat(dir_.file("link.bin").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(read_file(dir_.file("target.bin")).size(), 192u);
  daemon->kill(SIGTERM);
  EXPECT_EQ(daemon->wait(), 0);
}

// Long local steps show their progress: on a terminal, or in a log with CUZK_PROGRESS=1.
TEST_F(ProcessTest, SetupShowsTheProgressOfItsParametersWhenAsked) {
  const std::string args =
      "setup --circuit synthetic --log-domain 12 --toxic-seed 1 --backend cpu --params " +
      dir_.file("progress.params");
  std::string out;
  ASSERT_EQ(run_cuzk(args, out, "CUZK_PROGRESS=1"), 0) << out;
  EXPECT_NE(out.find("\n    100%"), std::string::npos) << out;
  ASSERT_EQ(run_cuzk(args, out, "CUZK_PROGRESS=0"), 0) << out;
  EXPECT_EQ(out.find("%"), std::string::npos) << "progress in a log nobody asked it for: " << out;
}

}  // namespace
}  // namespace cuzk::server
