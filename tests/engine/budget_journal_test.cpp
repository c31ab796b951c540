// MemoryBudget (priority-ordered reservations) and the journal (what survives a restart).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>

#include "engine/journal.hpp"
#include "engine/memory_budget.hpp"
#include "engine/request_codec.hpp"
#include "io/proof.hpp"
#include "tests/engine/test_util.hpp"

namespace cuzk::engine {
namespace {

using testing::TempDir;
using testing::test_logger;

TEST(MemoryBudget, ReservesAndReleases) {
  MemoryBudget b("host", 100, test_logger());
  auto r1 = b.acquire(60, {}, "t", {});
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(b.reserved(), 60u);
  EXPECT_FALSE(b.try_acquire(50, "t").has_value());
  {
    auto r2 = b.try_acquire(40, "t");
    ASSERT_TRUE(r2.has_value());
    EXPECT_EQ(b.reserved(), 100u);
  }
  EXPECT_EQ(b.reserved(), 60u);
  r1->release();
  EXPECT_EQ(b.reserved(), 0u);
  EXPECT_EQ(b.reservations(), 0u);
}

TEST(MemoryBudget, MoreThanTheWholeBudgetIsAnError) {
  MemoryBudget b("device0", 100, test_logger());
  auto r = b.acquire(101, {}, "job=1", {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("whole budget"), std::string::npos) << r.message();
}

TEST(MemoryBudget, WaitersAreServedInPriorityOrder) {
  MemoryBudget b("host", 10, test_logger());
  auto hold = b.acquire(10, {}, "hold", {});
  ASSERT_TRUE(hold.ok());
  std::mutex m;
  std::vector<int> order;
  std::vector<std::thread> threads;
  // Low (old) first, then critical (new): the critical one must be served first.
  const WaitKey keys[] = {{0, 1}, {1, 2}, {3, 9}, {1, 3}};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      auto r = b.acquire(10, keys[i], "w" + std::to_string(i), {});
      ASSERT_TRUE(r.ok());
      std::lock_guard lock(m);
      order.push_back(i);
    });
    while (b.waiters() < size_t(i + 1)) std::this_thread::yield();  // all waiting before the release
  }
  hold->release();
  for (auto& t : threads) t.join();
  EXPECT_EQ(order, (std::vector<int>{2, 1, 3, 0}));
}

TEST(MemoryBudget, AbandonWakesAWaiter) {
  MemoryBudget b("host", 10, test_logger());
  auto hold = b.acquire(10, {}, "hold", {});
  std::atomic<bool> give_up{false};
  std::thread t([&] {
    auto r = b.acquire(5, {}, "w", [&] { return give_up.load(); });
    EXPECT_FALSE(r.ok());
  });
  while (b.waiters() == 0) std::this_thread::yield();
  give_up = true;
  b.wake_all();
  t.join();
  EXPECT_EQ(b.waiters(), 0u);
}

TEST(MemoryBudget, RelieveIsAskedBeforeWaiting) {
  MemoryBudget b("host", 10, test_logger());
  std::optional<MemoryBudget::Reservation> cached = b.try_acquire(8, "cache");
  auto r = b.acquire(5, {}, "w", {}, [&](uint64_t short_by) {
    EXPECT_EQ(short_by, 3u);
    cached.reset();
    return uint64_t(0);
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(b.reserved(), 5u);
}

TEST(MemoryBudget, RelieveMayCoverPartOfTheRequest) {
  MemoryBudget b("host", 10, test_logger());
  // A pooled set's own reservation (3) and someone else's (6): 1 left, 4 asked, 3 short. The
  // waiter takes over the set, which covers those 3, so the 1 left is enough.
  std::optional<MemoryBudget::Reservation> set = b.try_acquire(3, "set");
  ASSERT_TRUE(set.has_value());
  auto hold = b.acquire(6, {}, "hold", {});
  ASSERT_TRUE(hold.ok());
  int asked = 0;
  auto r = b.acquire(4, {}, "w", {}, [&](uint64_t short_by) -> uint64_t {
    ++asked;
    EXPECT_EQ(short_by, 3u);
    return set->bytes();
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(r->bytes(), 1u);
  EXPECT_EQ(b.reserved(), 10u);
}

TEST(RequestCodec, RoundTrips) {
  JobRequest r;
  r.kind = JobKind::snap_deals;
  r.priority = Priority::high;
  r.params = "/p/x.params";
  r.randomness_seed = 42;
  r.client = "c1";
  r1cs::SampleSpec s;
  s.kind = "merkle";
  s.merkle_depth = 3;
  s.seed = 9;
  r.partitions.push_back(SampleInput{s});
  r.partitions.push_back(CircomInput{"a.r1cs", "a.wtns"});
  r.partitions.push_back(SynthesizedInput{std::make_shared<r1cs::Assignment>()});
  s.kind = "synthetic";
  r.partitions.push_back(SampleInput{s, /*c_from_ab=*/true});
  auto back = request_from_json(request_to_json(r));
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->kind, r.kind);
  EXPECT_EQ(back->priority, r.priority);
  EXPECT_EQ(back->params, r.params);
  EXPECT_EQ(back->randomness_seed, r.randomness_seed);
  EXPECT_EQ(back->client, "c1");
  ASSERT_EQ(back->partitions.size(), 4u);
  EXPECT_EQ(std::get<SampleInput>(back->partitions[0]).spec.merkle_depth, 3u);
  EXPECT_FALSE(std::get<SampleInput>(back->partitions[0]).c_from_ab);
  EXPECT_TRUE(std::get<SampleInput>(back->partitions[3]).c_from_ab);
  EXPECT_EQ(std::get<SampleInput>(back->partitions[3]).spec.kind, "synthetic");
  EXPECT_EQ(std::get<SampleInput>(back->partitions[0]).spec.seed, 9u);
  EXPECT_EQ(std::get<CircomInput>(back->partitions[1]).wtns_path, "a.wtns");
  EXPECT_FALSE(std::get<SynthesizedInput>(back->partitions[2]).assignment);  // not stored
  EXPECT_TRUE(has_volatile_inputs(r));
  EXPECT_FALSE(request_from_json("{").ok());
  EXPECT_FALSE(request_from_json(R"({"kind":"nope","params":"x","partitions":[]})").ok());
}

TEST(Normalize, KindsSetPriorityAndPartitions) {
  auto r = normalize(testing::tiny_job(JobKind::porep_c2));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->partitions.size(), 10u);
  EXPECT_EQ(*r->priority, Priority::normal);
  EXPECT_EQ(normalize(testing::tiny_job(JobKind::snap_deals))->partitions.size(), 16u);
  EXPECT_EQ(*normalize(testing::tiny_job(JobKind::winning_post))->priority, Priority::critical);
  EXPECT_EQ(*normalize(testing::tiny_job(JobKind::window_post))->priority, Priority::high);
  auto two = testing::tiny_job(JobKind::winning_post);
  two.partitions.push_back(two.partitions[0]);
  EXPECT_FALSE(normalize(two).ok());
  auto none = testing::tiny_job();
  none.partitions.clear();
  EXPECT_FALSE(normalize(none).ok());
  auto noparams = testing::tiny_job();
  noparams.params.clear();
  EXPECT_FALSE(normalize(noparams).ok());
}

TEST(Journal, StoresJobsPartitionsAndOutcomes) {
  TempDir dir;
  const auto path = dir.file("journal.db");
  JobId a, b;
  groth16::Proof proof{G1Affine::generator(), G2Affine::generator(), G1Affine::generator()};
  {
    auto j = Journal::open(path);
    ASSERT_TRUE(j.ok()) << j.message();
    auto ia = (*j)->insert_job(testing::tiny_job(), 1000);
    auto ib = (*j)->insert_job(testing::tiny_job(JobKind::winning_post), 2000);
    ASSERT_TRUE(ia.ok() && ib.ok());
    a = *ia;
    b = *ib;
    EXPECT_NE(a, b);
    ASSERT_TRUE((*j)->save_partition(a, 0, proof, std::vector<Fr>{Fr::from_u64(5)}).ok());
    JobTimings t;
    t.total_ms = 12.5;
    ASSERT_TRUE((*j)->finish_job(b, JobState::failed, "boom", t, 2, 3000, 4000).ok());
  }
  auto j = Journal::open(path);
  ASSERT_TRUE(j.ok());
  auto jobs = (*j)->load_all();
  ASSERT_TRUE(jobs.ok()) << jobs.message();
  ASSERT_EQ(jobs->size(), 2u);  // oldest first
  const StoredJob& ja = (*jobs)[0];
  EXPECT_EQ(ja.id, a);
  EXPECT_EQ(ja.state, JobState::queued);
  ASSERT_EQ(ja.partitions.size(), 1u);
  EXPECT_EQ(ja.partitions.at(0).public_inputs, std::vector<Fr>{Fr::from_u64(5)});
  EXPECT_EQ(proof_to_bytes(ja.partitions.at(0).proof), proof_to_bytes(proof));
  const StoredJob& jb = (*jobs)[1];
  EXPECT_EQ(jb.state, JobState::failed);
  EXPECT_EQ(jb.error, "boom");
  EXPECT_EQ(jb.retries, 2u);
  EXPECT_EQ(jb.completions, 1u);
  EXPECT_DOUBLE_EQ(jb.timings.total_ms, 12.5);
  // Expiry removes finished jobs only, and their partitions with them.
  auto removed = (*j)->remove_expired(5000);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 1u);
  EXPECT_EQ((*j)->load_all()->size(), 1u);
}

TEST(Journal, UnwritablePathIsAnError) {
  auto j = Journal::open("/nonexistent-dir/for/sure/journal.db");
  EXPECT_FALSE(j.ok());
}

}  // namespace
}  // namespace cuzk::engine

namespace cuzk::engine {
namespace {

using testing::kLongWait;
using testing::TempDir;

TEST(Journal, OneOwnerAtATimePrivateFileRandomIds) {
  TempDir dir;
  const auto path = dir.file("journal.db");
  auto first = Journal::open(path);
  ASSERT_TRUE(first.ok()) << first.message();
  auto second = Journal::open(path);
  ASSERT_FALSE(second.ok()) << "two owners of one journal";
  EXPECT_NE(second.message().find("in use by another process (pid " + std::to_string(::getpid())),
            std::string::npos)
      << second.message();
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::set<JobId> ids;
  for (int i = 0; i < 50; ++i) {
    auto id = (*first)->insert_job(testing::tiny_job(), 1000 + i);
    ASSERT_TRUE(id.ok()) << id.message();
    EXPECT_TRUE(ids.insert(*id).second);
    EXPECT_LT(*id, uint64_t(1) << 53);
  }
  // Random, not counted: far apart, in no order.
  EXPECT_GT(*ids.rbegin() - *ids.begin(), uint64_t(1) << 40);
  // Loaded oldest first whatever the ids.
  auto loaded = (*first)->load_all();
  ASSERT_TRUE(loaded.ok());
  for (size_t i = 1; i < loaded->size(); ++i)
    EXPECT_LT((*loaded)[i - 1].submitted_ms, (*loaded)[i].submitted_ms);
  first->reset();
  EXPECT_TRUE(Journal::open(path).ok()) << "the lock outlived its owner";
}

TEST(Journal, WritesThatFailAreHeldInOrderAndMadeLater) {
  TempDir dir;
  auto j = Journal::open(dir.file("journal.db"));
  ASSERT_TRUE(j.ok());
  auto id = (*j)->insert_job(testing::tiny_job(), 1000);
  ASSERT_TRUE(id.ok());
  std::atomic<bool> full{true};
  (*j)->set_write_fault([&] { return full.load(); });
  groth16::Proof proof{G1Affine::generator(), G2Affine::generator(), G1Affine::generator()};
  EXPECT_FALSE((*j)->save_partition(*id, 0, proof, std::vector<Fr>{Fr::from_u64(7)}).ok());
  EXPECT_FALSE((*j)->finish_job(*id, JobState::done, "", JobTimings{}, 0, 2000, 3000).ok());
  EXPECT_FALSE((*j)->healthy());
  EXPECT_TRUE((*j)->pending(*id));
  EXPECT_EQ((*j)->backlog(), 2u);
  EXPECT_NE((*j)->last_error().find("full"), std::string::npos);
  EXPECT_FALSE((*j)->insert_job(testing::tiny_job(), 1500).ok()) << "a job accepted behind a backlog";
  EXPECT_FALSE((*j)->flush().ok());
  full = false;
  ASSERT_TRUE((*j)->flush().ok());
  EXPECT_TRUE((*j)->healthy());
  EXPECT_FALSE((*j)->pending(*id));
  auto jobs = (*j)->load_all();
  ASSERT_TRUE(jobs.ok());
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].state, JobState::done);
  EXPECT_EQ((*jobs)[0].completions, 1u);
  EXPECT_EQ((*jobs)[0].partitions.size(), 1u);
}

TEST(EngineIds, IdsOfEnginesWithoutAJournalNeverMeet) {
  std::set<JobId> seen;
  for (int run = 0; run < 2; ++run) {
    auto engine = Engine::create(testing::cpu_config());
    ASSERT_TRUE(engine.ok()) << engine.message();
    for (int i = 0; i < 5; ++i) {
      auto id = (*engine)->submit(testing::tiny_job());
      ASSERT_TRUE(id.ok()) << id.message();
      EXPECT_TRUE(seen.insert(*id).second) << "id " << *id << " given twice (run " << run << ")";
    }
    for (auto id : seen) {
      auto r = (*engine)->await(id, kLongWait);  // an id of the other run is unknown here
      if (r.ok()) {
        EXPECT_EQ(r->id, id);
      }
    }
  }
}

TEST(EngineAdmission, APartitionOverTheHostBudgetIsRefusedAtSubmit) {
  auto config = testing::cpu_config();
  config.host_memory_budget = uint64_t(256) << 20;
  auto engine = Engine::create(std::move(config));
  ASSERT_TRUE(engine.ok());
  auto job = testing::tiny_job();
  auto spec = testing::tiny_spec();
  spec.log_domain = 24;  // about 2 GiB of rows
  job.partitions = {SampleInput{spec}};
  auto id = (*engine)->submit(job);
  ASSERT_FALSE(id.ok());
  EXPECT_NE(id.message().find("host budget"), std::string::npos) << id.message();
  EXPECT_EQ((*engine)->status().queued_jobs[size_t(Priority::normal)], 0u);
}

}  // namespace
}  // namespace cuzk::engine
