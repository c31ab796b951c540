// The journal across restarts (in process): an engine stopped mid-run leaves its jobs in the
// journal, and the next engine on the same file finishes every accepted job exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>

#include "engine/fault_injection.hpp"
#include "engine/journal.hpp"
#include "tests/engine/test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace testing;

EngineConfig journaled(const std::string& path, EventLog& events, std::chrono::milliseconds delay) {
  auto c = cpu_config(1, 1);
  c.journal_path = path;
  c.journal_sync_full = false;  // a crash of the process, not of the machine, is what is tested here
  c.observer = events.observer();
  c.devices.factory = with_faults(c.devices.factory, [delay](const DeviceDescriptor&, uint32_t) {
    FaultPlan p;
    p.delay = delay;
    return p;
  });
  return c;
}

TEST(EngineRestart, EveryAcceptedJobCompletesOnceAfterARestart) {
  TempDir dir;
  const auto path = dir.file("journal.db");
  std::vector<JobId> ids;
  std::set<JobId> done_before;
  EventLog first;
  {
    auto engine = Engine::create(journaled(path, first, std::chrono::milliseconds(2)));
    ASSERT_TRUE(engine.ok()) << engine.message();
    for (int i = 0; i < 12; ++i) {
      const JobKind kind = i % 4 == 0   ? JobKind::porep_c2
                           : i % 4 == 1 ? JobKind::winning_post
                                        : JobKind::generic;
      auto id = (*engine)->submit(tiny_job(kind));
      ASSERT_TRUE(id.ok()) << id.message();
      ids.push_back(*id);
    }
    while (first.count(EngineEvent::Type::job_done) < 3)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // The engine goes away with work queued, synthesized and on the device.
  }
  for (const auto& e : first.events())
    if (e.type == EngineEvent::Type::job_done) done_before.insert(e.job);
  ASSERT_LT(done_before.size(), ids.size()) << "the machine was too fast for this test to stop mid-run";

  EventLog second;
  {
    auto engine = Engine::create(journaled(path, second, std::chrono::milliseconds(0)));
    ASSERT_TRUE(engine.ok()) << engine.message();
    for (JobId id : ids) {
      auto r = (*engine)->await(id, kLongWait);
      ASSERT_TRUE(r.ok()) << r.message();
      expect_verifies(*r, *tiny_key());
    }
    // Jobs finished before the restart are not proved again.
    for (JobId id : done_before) EXPECT_EQ(second.count(EngineEvent::Type::partition_done, id), 0u);
    // New jobs get new ids (random: none of the earlier ones).
    auto fresh = (*engine)->submit(tiny_job());
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ(std::find(ids.begin(), ids.end(), *fresh), ids.end());
    expect_verifies(*(*engine)->await(*fresh, kLongWait), *tiny_key());
  }
  for (JobId id : ids)
    EXPECT_EQ(first.count(EngineEvent::Type::job_done, id) + second.count(EngineEvent::Type::job_done, id),
              1u)
        << "job " << id;
  auto journal = Journal::open(path);
  ASSERT_TRUE(journal.ok());
  auto stored = (*journal)->load_all();
  ASSERT_TRUE(stored.ok());
  for (const auto& j : *stored) {
    EXPECT_EQ(j.state, JobState::done) << "job " << j.id;
    EXPECT_EQ(j.completions, 1u) << "job " << j.id;
  }
}

TEST(EngineRestart, InMemoryPartitionsFailClearlyAfterARestart) {
  TempDir dir;
  const auto path = dir.file("journal.db");
  JobId id;
  {
    EventLog events;
    auto c = journaled(path, events, std::chrono::milliseconds(0));
    c.start_paused = true;
    auto engine = Engine::create(std::move(c));
    ASSERT_TRUE(engine.ok());
    auto set = make_param_set("tiny", tiny_key());
    auto s = synthesize_partition(SampleInput{tiny_spec()}, **set, 1);
    JobRequest r;
    r.params = "tiny";
    r.partitions = {SynthesizedInput{std::make_shared<const r1cs::Assignment>(s->assignment)}};
    id = *(*engine)->submit(r);
  }
  EventLog events;
  auto engine = Engine::create(journaled(path, events, std::chrono::milliseconds(0)));
  ASSERT_TRUE(engine.ok());
  auto r = (*engine)->await(id, kLongWait);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state, JobState::failed);
  EXPECT_NE(r->error.find("in memory only"), std::string::npos) << r->error;
}

TEST(EngineRestart, ResultsAreKeptUntilFetchedOrExpired) {
  TempDir dir;
  const auto path = dir.file("journal.db");
  JobId fetched, unfetched;
  {
    EventLog events;
    auto c = journaled(path, events, std::chrono::milliseconds(0));
    c.fetched_result_grace = std::chrono::seconds(0);
    auto engine = Engine::create(std::move(c));
    ASSERT_TRUE(engine.ok());
    fetched = *(*engine)->submit(tiny_job());
    unfetched = *(*engine)->submit(tiny_job());
    expect_verifies(*(*engine)->await(fetched, kLongWait), *tiny_key());
    while (events.count(EngineEvent::Type::job_done, unfetched) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the fetched result's (zero) grace
  EventLog events;
  auto engine = Engine::create(journaled(path, events, std::chrono::milliseconds(0)));
  ASSERT_TRUE(engine.ok());
  EXPECT_FALSE((*engine)->await(fetched, std::chrono::milliseconds(0)).ok());  // fetched, then expired
  auto r = (*engine)->await(unfetched, std::chrono::milliseconds(0));
  ASSERT_TRUE(r.ok()) << r.message();
  expect_verifies(*r, *tiny_key());
  EXPECT_EQ(events.count(EngineEvent::Type::partition_done), 0u);
}

}  // namespace
}  // namespace cuzk::engine
