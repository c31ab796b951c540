// The cuzk.v1 request ids on disk (server/curio_journal.hpp): what a restart brings back (the same
// job for the same request_id, ended jobs as they ended, jobs the engine no longer has dropped), one
// owner per file, and the parser fed every truncation and random corruption of a real file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "server/curio_jobs.hpp"
#include "server/curio_journal.hpp"

namespace cuzk::server::curio {
namespace {

using Claim = CurioJobs::Claim;
using T = engine::EngineEvent::Type;

class TempFolder {
 public:
  TempFolder() {
    path_ = std::filesystem::temp_directory_path() /
            ("curio-journal-" + std::to_string(std::random_device{}() % 100000000));
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

engine::EngineEvent event(T type, engine::JobId job) {
  engine::EngineEvent e{};
  e.type = type;
  e.job = job;
  return e;
}

std::unique_ptr<CurioJournal> open_journal(const std::string& path) {
  auto j = CurioJournal::open(path, true);
  EXPECT_TRUE(j.ok()) << j.message();
  return j.ok() ? std::move(*j) : nullptr;
}

void bind(CurioJobs& jobs, const std::string& client, const std::string& id, engine::JobId job,
          const std::string& fingerprint = "fp") {
  engine::JobId existing = 0;
  ASSERT_EQ(jobs.claim(client, id, fingerprint, existing), Claim::claimed);
  ASSERT_TRUE(jobs.bind(client, id, job, engine::JobKind::window_post).ok());
}

TEST(CurioJournal, RequestIdsSurviveARestartForTheJobsTheEngineStillHas) {
  TempFolder dir;
  const auto path = dir.file("journal.db.curio");
  {
    auto journal = open_journal(path);
    CurioJobs jobs(std::chrono::hours(1), journal.get());
    bind(jobs, "curio", "wdpost-1", 101);          // queued at the restart
    bind(jobs, "curio", "porep-2", 102, "porep");  // done
    bind(jobs, "curio", "retried", 103);           // failed, then retried as 104
    bind(jobs, "other", "wdpost-1", 105);          // another client's id space
    bind(jobs, "curio", "expired", 106);           // the engine forgets it
    jobs.on_event(event(T::admitted, 101));
    jobs.on_event(event(T::job_done, 102));
    jobs.on_event(event(T::job_failed, 103));
    engine::JobId existing = 0;
    ASSERT_EQ(jobs.claim("curio", "retried", "fp2", existing), Claim::claimed);
    ASSERT_TRUE(jobs.bind("curio", "retried", 104, engine::JobKind::window_post).ok());
    // A claim that was never bound (its submit failed) is not a job.
    ASSERT_EQ(jobs.claim("curio", "never", "fp", existing), Claim::claimed);
    jobs.release("curio", "never");
  }
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  auto journal = open_journal(path);
  CurioJobs jobs(std::chrono::hours(1), journal.get());
  const std::set<std::pair<engine::JobId, std::string>> engine_has = {
      {101, "curio"}, {102, "curio"}, {103, "curio"}, {104, "curio"}, {105, "other"}};
  // An event of a resumed job may come before the ids are restored.
  jobs.on_event(event(T::proving, 101));
  ASSERT_TRUE(jobs.restore([&](engine::JobId id, const std::string& client) {
                    return engine_has.count({id, client}) > 0;
                  })
                  .ok());
  EXPECT_EQ(jobs.find("curio", "wdpost-1"), std::optional<engine::JobId>(101));
  EXPECT_TRUE(jobs.is_running(101));
  EXPECT_EQ(jobs.find("other", "wdpost-1"), std::optional<engine::JobId>(105));
  EXPECT_EQ(jobs.find("curio", "retried"), std::optional<engine::JobId>(104));
  EXPECT_FALSE(jobs.find("curio", "expired"));
  EXPECT_FALSE(jobs.find("curio", "never"));
  // The same request again names the same job; another request under a live id is a conflict.
  engine::JobId existing = 0;
  EXPECT_EQ(jobs.claim("curio", "porep-2", "porep", existing), Claim::existing);
  EXPECT_EQ(existing, 102u);
  EXPECT_EQ(jobs.claim("curio", "porep-2", "other", existing), Claim::conflict);
  EXPECT_EQ(jobs.claim("curio", "wdpost-1", "fp", existing), Claim::existing);
  EXPECT_EQ(existing, 101u);
  // Queue counts: 101 running, 104 and 105 queued, 102 done.
  const auto queues = jobs.queues();
  ASSERT_TRUE(queues.count(engine::JobKind::window_post));
  EXPECT_EQ(queues.at(engine::JobKind::window_post).in_progress, 1u);
  EXPECT_EQ(queues.at(engine::JobKind::window_post).pending, 2u);
  // Compacted: the expired job's record is gone; what is left parses to the live entries.
  const auto text = read_all(path);
  EXPECT_EQ(text.find("expired"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"job\":103"), std::string::npos) << "the replaced bind is kept: " << text;
  auto records = parse_curio_journal(text, path);
  ASSERT_TRUE(records.ok()) << records.message();
  EXPECT_EQ(records->size(), 5u);  // four binds, one end (102)
}

TEST(CurioJournal, AJobThatEndedWhileItsEndWasNotWrittenIsCorrectedByItsFirstWait) {
  TempFolder dir;
  const auto path = dir.file("j.curio");
  {
    auto journal = open_journal(path);
    CurioJobs jobs(std::chrono::hours(1), journal.get());
    bind(jobs, "c", "failed-unrecorded", 7);
  }
  auto journal = open_journal(path);
  CurioJobs jobs(std::chrono::hours(1), journal.get());
  ASSERT_TRUE(jobs.restore([](engine::JobId, const std::string&) { return true; }).ok());
  engine::JobId existing = 0;
  EXPECT_EQ(jobs.claim("c", "failed-unrecorded", "fp", existing), Claim::existing);
  jobs.on_result(7, engine::JobState::failed);  // what the wait saw
  EXPECT_EQ(jobs.claim("c", "failed-unrecorded", "fp", existing), Claim::claimed) << "the retry is a new job";
}

TEST(CurioJournal, OneOwnerAtATimeAndATornLastLineIsDropped) {
  TempFolder dir;
  const auto path = dir.file("j.curio");
  auto first = open_journal(path);
  auto second = CurioJournal::open(path, true);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.message().find("request-id journal"), std::string::npos) << second.message();
  CurioRecord r;
  r.client = "c";
  r.request_id = "id-1";
  r.job = 9;
  r.fingerprint = "f";
  ASSERT_TRUE(first->append(r, true).ok());
  first.reset();
  // A crash in the middle of the next append.
  auto line = curio_record_line(r);
  ASSERT_TRUE(line.ok());
  std::ofstream(path, std::ios::app) << line->substr(0, line->size() / 2);
  auto reopened = open_journal(path);
  ASSERT_EQ(reopened->records().size(), 1u);
  EXPECT_EQ(reopened->records()[0], r);
  // The torn tail is cut: the next append starts on a line of its own.
  r.job = 10;
  ASSERT_TRUE(reopened->append(r, true).ok());
  auto all = parse_curio_journal(read_all(path), path);
  ASSERT_TRUE(all.ok()) << all.message();
  EXPECT_EQ(all->size(), 2u);
}

TEST(CurioJournal, EveryTruncationAndRandomCorruptionIsAnErrorOrAPrefixNeverACrash) {
  std::string text = CurioJournal::kHeader;
  std::vector<CurioRecord> written;
  for (int i = 0; i < 6; ++i) {
    CurioRecord r;
    r.op = i % 3 == 2 ? CurioRecord::Op::end : CurioRecord::Op::bind;
    r.job = 1000 + uint64_t(i);
    if (r.op == CurioRecord::Op::bind) {
      r.client = "client-" + std::to_string(i);
      r.request_id = "porep-1234-" + std::to_string(i);
      r.kind = engine::JobKind::porep_c2;
      r.fingerprint = "3/5/2048/" + std::to_string(i);
    } else {
      r.proof = i % 2 == 0;
    }
    auto line = curio_record_line(r);
    ASSERT_TRUE(line.ok());
    text += *line;
    written.push_back(r);
  }
  auto whole = parse_curio_journal(text, "j");
  ASSERT_TRUE(whole.ok()) << whole.message();
  EXPECT_EQ(*whole, written);
  for (size_t cut = 0; cut < text.size(); ++cut) {
    size_t torn = 0;
    auto part = parse_curio_journal(std::string_view(text).substr(0, cut), "j", &torn);
    ASSERT_TRUE(part.ok()) << "cut at " << cut << ": " << part.message();
    ASSERT_LE(part->size(), written.size());
    for (size_t i = 0; i < part->size(); ++i) EXPECT_EQ((*part)[i], written[i]) << "cut at " << cut;
  }
  std::mt19937_64 rng(5);
  size_t refused = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string bad = text;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) bad[rng() % bad.size()] = char(rng() & 0xff);
    auto parsed = parse_curio_journal(bad, "j");
    if (!parsed.ok()) {
      ++refused;
      EXPECT_EQ(parsed.message().rfind("j", 0), 0u) << parsed.message();
    }
  }
  EXPECT_GT(refused, 0u);
  EXPECT_FALSE(parse_curio_journal("some other file\n", "j").ok());
  EXPECT_FALSE(parse_curio_journal(text + "{\"op\":\"bind\",\"job\":1}\n", "j").ok());
  EXPECT_FALSE(parse_curio_journal(text + "{\"op\":\"end\",\"job\":-1,\"proof\":true}\n", "j").ok());
}

}  // namespace
}  // namespace cuzk::server::curio
