// The engine on CPU devices: jobs of every kind complete with verifying proofs, in priority order;
// cancellation; the parameter cache; clear errors for bad requests.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <thread>
#include <utility>

#include "engine/fault_injection.hpp"
#include "engine/thread_priority.hpp"
#include "groth16/keys.hpp"
#include "io/bellman.hpp"

#include "tests/engine/test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace testing;

std::unique_ptr<Engine> make_engine(EngineConfig c) {
  auto e = Engine::create(std::move(c));
  EXPECT_TRUE(e.ok()) << e.message();
  return e.ok() ? std::move(*e) : nullptr;
}

// Submits a tiny WinningPoSt, waits for it and checks its proof; its id (0 if it never finished).
JobId prove_winning_post(Engine& engine) {
  auto id = engine.submit(tiny_job(JobKind::winning_post));
  EXPECT_TRUE(id.ok()) << id.message();
  if (!id) return 0;
  auto r = engine.await(*id, kLongWait);
  EXPECT_TRUE(r.ok()) << r.message();
  if (!r) return 0;
  expect_verifies(*r, *tiny_key());
  return *id;
}

TEST(Engine, ProvesAJobOfEveryKind) {
  auto engine = make_engine(cpu_config(1, 2));
  ASSERT_TRUE(engine);
  std::vector<std::pair<JobKind, size_t>> kinds = {{JobKind::generic, 1},
                                                   {JobKind::winning_post, 1},
                                                   {JobKind::window_post, 1},
                                                   {JobKind::porep_c2, 10},
                                                   {JobKind::snap_deals, 16}};
  std::vector<JobId> ids;
  for (auto [kind, n] : kinds) {
    auto id = engine->submit(tiny_job(kind));
    ASSERT_TRUE(id.ok()) << id.message();
    ids.push_back(*id);
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    auto r = engine->await(ids[i], kLongWait);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->partitions, kinds[i].second);
    EXPECT_EQ(r->kind, kinds[i].first);
    expect_verifies(*r, *tiny_key());
    EXPECT_GT(r->timings.synthesis_ms, 0);
    EXPECT_GT(r->timings.gpu_ms, 0);
    EXPECT_GT(r->timings.verify_ms, 0);
    EXPECT_GE(r->timings.total_ms, r->timings.queue_wait_ms);
  }
  const auto s = engine->status();
  EXPECT_EQ(s.jobs_done, 5u);
  EXPECT_EQ(s.devices.at(0).proofs_done, 29u);
  EXPECT_EQ(s.host_reserved, s.buffer_idle_bytes);  // only idle pooled buffers remain
  EXPECT_EQ(s.devices.at(0).busy_workers, 0u);
  EXPECT_NE(status_to_json(s).find("\"proofs_done\":29"), std::string::npos);
  EXPECT_EQ(s.devices.at(0).shared_bases.capacity, 0u);  // CPU devices: no shared store
}

// A device set with a store of shared bases reports it in the status (and its JSON).
TEST(Engine, StatusShowsADevicesSharedBases) {
  auto c = cpu_config(1, 1);
  c.devices.shared_bases = [](uint32_t device) {
    return device == 0 ? SharedBasesStatus{1000, 400, 2, 3} : SharedBasesStatus{};
  };
  auto engine = make_engine(std::move(c));
  const auto s = engine->status();
  ASSERT_EQ(s.devices.size(), 1u);
  EXPECT_EQ(s.devices[0].shared_bases.capacity, 1000u);
  EXPECT_EQ(s.devices[0].shared_bases.bytes, 400u);
  const std::string json = status_to_json(s);
  EXPECT_NE(json.find("\"shared_bases\":{\"arrays\":2,\"bytes\":400,\"capacity\":1000,\"uploads\":3}"),
            std::string::npos)
      << json;
}

TEST(Engine, AlreadySynthesizedPartitions) {
  auto engine = make_engine(cpu_config());
  auto set = make_param_set("tiny", tiny_key());
  auto synthesized = synthesize_partition(SampleInput{tiny_spec()}, **set, 1);
  ASSERT_TRUE(synthesized.ok());
  auto shared = std::make_shared<const r1cs::Assignment>(synthesized->assignment);
  // One more that leaves c to the prover (r1cs::Assignment::c_from_ab): a set of its own shape.
  auto without_c = std::make_shared<r1cs::Assignment>(synthesized->assignment);
  without_c->c.clear();
  without_c->c_from_ab = true;
  JobRequest r;
  r.params = "tiny";
  r.partitions = {SynthesizedInput{shared}, SynthesizedInput{shared}, SynthesizedInput{shared},
                  SynthesizedInput{without_c}};
  auto id = engine->submit(r);
  ASSERT_TRUE(id.ok());
  auto result = engine->await(*id, kLongWait);
  ASSERT_TRUE(result.ok());
  expect_verifies(*result, *tiny_key());
  EXPECT_EQ(result->public_inputs.at(2), synthesized->public_inputs);
}

// Synthetic partitions that leave c to the prover (SampleInput::c_from_ab) prove and verify, beside
// ones that write it, in pooled sets of both shapes.
TEST(Engine, SyntheticPartitionsMayLeaveCToTheProver) {
  auto engine = make_engine(cpu_config());
  JobRequest r;
  r.params = "tiny";
  r.partitions = {SampleInput{tiny_spec(), true}, SampleInput{tiny_spec(), false},
                  SampleInput{tiny_spec(), true}};
  auto id = engine->submit(r);
  ASSERT_TRUE(id.ok());
  auto result = engine->await(*id, kLongWait);
  ASSERT_TRUE(result.ok());
  expect_verifies(*result, *tiny_key());
  EXPECT_EQ(result->proofs.size(), 3u);
}

TEST(Engine, AnUnsatisfiedWitnessFailsItsJobWithoutBlamingTheDevice) {
  auto engine = make_engine(cpu_config(1, 1));
  auto set = make_param_set("tiny", tiny_key());
  auto synthesized = synthesize_partition(SampleInput{tiny_spec()}, **set, 1);
  ASSERT_TRUE(synthesized.ok());
  // The right shape, but one row's c no longer equals a·b: the backend's row check names it.
  auto lie = std::make_shared<r1cs::Assignment>(synthesized->assignment);
  const size_t row = lie->c.size() / 2;
  lie->c[row] = lie->c[row] + Fr::one();
  JobRequest r;
  r.params = "tiny";
  r.partitions = {SynthesizedInput{lie}};
  auto id = engine->submit(r);
  ASSERT_TRUE(id.ok());
  auto result = engine->await(*id, kLongWait);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->state, JobState::failed);
  EXPECT_NE(result->error.find("does not satisfy constraint " + std::to_string(row) + " "), std::string::npos)
      << result->error;
  // Not retried, and not counted against the device.
  const auto status = engine->status();
  EXPECT_EQ(status.devices.at(0).failures, 0u);
  EXPECT_FALSE(status.devices.at(0).quarantined);
  // The engine goes on proving.
  auto good = engine->submit(tiny_job());
  ASSERT_TRUE(good.ok());
  auto done = engine->await(*good, kLongWait);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->state, JobState::done) << done->error;
}

// Runs one tiny job to its end on an engine of `c`, its log captured at info level; returns the log.
std::string log_of_a_tiny_job(EngineConfig c) {
  auto lines = std::make_shared<std::ostringstream>();
  c.logger =
      std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(*lines));
  c.logger->set_level(spdlog::level::info);
  {
    auto engine = make_engine(std::move(c));
    auto id = engine->submit(tiny_job());
    EXPECT_TRUE(id.ok()) << id.message();
    if (!id) return lines->str();
    auto r = engine->await(*id, kLongWait);
    EXPECT_TRUE(r.ok() && r->state == JobState::done) << r.message();
  }
  return lines->str();
}

TEST(Engine, SharesTheHardwareThreadsAmongRunningSyntheses) {
  EXPECT_EQ(engine::auto_synthesis_threads(16, 1), 16u);  // alone: every core
  EXPECT_EQ(engine::auto_synthesis_threads(16, 2), 8u);
  EXPECT_EQ(engine::auto_synthesis_threads(96, 3), 32u);
  EXPECT_EQ(engine::auto_synthesis_threads(17, 2), 8u);  // rounds down
  // Never none: fewer threads than syntheses, or no hardware count (0); no count means this one.
  EXPECT_EQ(engine::auto_synthesis_threads(1, 2), 1u);
  EXPECT_EQ(engine::auto_synthesis_threads(0, 2), 1u);
  EXPECT_EQ(engine::auto_synthesis_threads(8, 0), 8u);
  // A brief synthesis (a WinningPoSt's 370 K rows) is not counted among the running ones; a
  // partition of Filecoin's large circuits is.
  EXPECT_TRUE(engine::is_brief_synthesis(370'590));
  EXPECT_FALSE(engine::is_brief_synthesis(125'279'217));
  EXPECT_FALSE(engine::is_brief_synthesis(uint64_t(1) << 22));
}

// One partition waiting for each device worker and one being made; every synthesis worker busy
// where there are more of those.
TEST(Engine, AutoPartitionsAhead) {
  EXPECT_EQ(engine::auto_partitions_ahead(2, 2), 3u);  // one H200, two workers: the measured default
  EXPECT_EQ(engine::auto_partitions_ahead(1, 1), 2u);
  EXPECT_EQ(engine::auto_partitions_ahead(6, 2), 6u);  // slow synthesis: all of it runs
  EXPECT_EQ(engine::auto_partitions_ahead(2, 8), 9u);  // four GPUs, two workers each
  EXPECT_EQ(engine::auto_partitions_ahead(0, 0), 1u);
}

// The engine's choice, logged with each synthesis: a lone synthesis takes every hardware thread; a
// configured count is taken as it is.
TEST(Engine, ALoneSynthesisTakesEveryHardwareThread) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  for (const unsigned configured : {0u, 3u}) {
    auto c = cpu_config(1, 1);
    c.synthesis_workers = 1;
    c.synthesis_threads = configured;
    const std::string text = log_of_a_tiny_job(std::move(c));
    const auto at = text.find("event=synthesized");
    ASSERT_NE(at, std::string::npos) << text;
    const std::string want = "threads=" + std::to_string(configured ? configured : hw) + " ";
    EXPECT_NE(text.find(want, at), std::string::npos) << want << " missing in: " << text.substr(at, 120);
  }
}

// Synthesis lowers its thread's priority, and the threads a synthesis starts afterwards (synthetic
// circuits, r1cs evaluation, copies: plain std::threads) run at that priority too: the property the
// engine's niced synthesis rests on.
TEST(Engine, ANicedThreadsChildrenInheritItsPriority) {
  int before = 0, after = 0, child = 0;
  Status st = Status::Ok();
  std::thread t([&] {
    before = engine::thread_nice();
    st = engine::lower_thread_priority(3);
    after = engine::thread_nice();
    std::thread c([&] { child = engine::thread_nice(); });
    c.join();
  });
  t.join();
  ASSERT_TRUE(st.ok()) << st.message();
#ifdef __linux__
  EXPECT_EQ(after, std::min(19, before + 3));
  EXPECT_EQ(child, after);
  EXPECT_EQ(engine::thread_nice(), before);  // this thread is untouched
#endif
  EXPECT_TRUE(engine::lower_thread_priority(0).ok());
}

TEST(Engine, BadRequestsAreClearErrors) {
  auto engine = make_engine(cpu_config());
  JobRequest empty;
  empty.params = "tiny";
  auto e1 = engine->submit(empty);
  ASSERT_FALSE(e1.ok());
  EXPECT_NE(e1.message().find("no partitions"), std::string::npos);

  auto unknown = tiny_job();
  unknown.params = "/no/such/file.params";
  auto id = engine->submit(unknown);  // accepted: the file may appear; fails when dispatched
  ASSERT_TRUE(id.ok());
  auto r = engine->await(*id, kLongWait);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state, JobState::failed);
  EXPECT_NE(r->error.find("neither registered nor a readable file"), std::string::npos) << r->error;

  // A witness for another circuit does not fit the key: failed before any device time.
  auto wrong = tiny_job();
  r1cs::SampleSpec merkle;
  merkle.kind = "merkle";
  merkle.merkle_depth = 1;
  wrong.partitions = {SampleInput{merkle}};
  auto id2 = engine->submit(wrong);
  ASSERT_TRUE(id2.ok());
  auto r2 = engine->await(*id2, kLongWait);
  EXPECT_EQ(r2->state, JobState::failed);
  EXPECT_NE(r2->error.find("does not fit parameter set 'tiny'"), std::string::npos) << r2->error;
  EXPECT_EQ(engine->status().devices.at(0).failures, 0u);

  EXPECT_FALSE(engine->await(999999, std::chrono::milliseconds(0)).ok());
  EXPECT_FALSE(engine->cancel(999999).ok());
}

TEST(Engine, PriorityThenAgeOrdersDispatch) {
  EventLog events;
  auto c = cpu_config(1, 1);
  c.synthesis_workers = 1;
  c.express_synthesis_workers = 0;  // one worker: admission order is dispatch order
  c.start_paused = true;
  c.observer = events.observer();
  auto engine = make_engine(std::move(c));
  std::mt19937_64 rng(5);
  std::vector<std::pair<JobId, Priority>> submitted;
  const JobKind kinds[] = {JobKind::generic, JobKind::window_post, JobKind::winning_post, JobKind::porep_c2};
  for (int i = 0; i < 24; ++i) {
    const JobKind kind = kinds[rng() % 4];
    auto req = tiny_job(kind);
    if (kind == JobKind::generic) req.priority = Priority(rng() % 4);
    auto id = engine->submit(req);
    ASSERT_TRUE(id.ok());
    submitted.emplace_back(*id, *normalize(req)->priority);
  }
  engine->resume();
  for (auto [id, p] : submitted) ASSERT_EQ(engine->await(id, kLongWait)->state, JobState::done);
  // The order in which jobs were first admitted: by priority, then by submission.
  std::vector<JobId> admitted;
  for (const auto& e : events.events())
    if (e.type == EngineEvent::Type::admitted &&
        std::find(admitted.begin(), admitted.end(), e.job) == admitted.end())
      admitted.push_back(e.job);
  auto expected = submitted;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& x, const auto& y) { return int(x.second) > int(y.second); });
  ASSERT_EQ(admitted.size(), expected.size());
  for (size_t i = 0; i < admitted.size(); ++i) EXPECT_EQ(admitted[i], expected[i].first) << "position " << i;
}

TEST(Engine, WinningPostIsNotStuckBehindPoRep) {
  EventLog events;
  auto c = cpu_config(1, 1);
  c.synthesis_workers = 1;
  c.host_memory_budget = 3 * tiny_partition_bytes();  // at most 3 partitions in flight
  c.observer = events.observer();
  auto engine = make_engine(std::move(c));
  std::vector<JobId> porep;
  for (int i = 0; i < 3; ++i) porep.push_back(*engine->submit(tiny_job(JobKind::porep_c2)));
  while (events.count(EngineEvent::Type::partition_done) < 2)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const size_t before = events.count(EngineEvent::Type::partition_done);
  const JobId winning = prove_winning_post(*engine);
  ASSERT_NE(winning, 0u);
  // Only PoRep partitions already admitted (at most 3 by memory), and the one the synthesis worker
  // may hold while it waits for memory, can finish before it; 28 were still to go.
  const size_t after = events.count(EngineEvent::Type::partition_done);
  EXPECT_LE(after - before, 3u + 1u + 1u);  // + the WinningPoSt itself
  for (JobId id : porep) EXPECT_EQ(engine->await(id, kLongWait)->state, JobState::done);
}

// The express synthesis worker takes HIGH and CRITICAL partitions only: under a NORMAL load no more
// partitions are synthesized at once than there are ordinary workers, and a WinningPoSt submitted
// into that load completes.
TEST(Engine, ExpressSynthesisWorkersTakeOnlyHighPriorityPartitions) {
  EventLog events;
  auto c = cpu_config(1, 1);
  c.synthesis_workers = 1;
  c.express_synthesis_workers = 1;
  c.observer = events.observer();
  auto engine = make_engine(std::move(c));
  std::vector<JobId> porep;
  for (int i = 0; i < 2; ++i) porep.push_back(*engine->submit(tiny_job(JobKind::porep_c2)));
  while (events.count(EngineEvent::Type::partition_done) < 3)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const JobId winning = prove_winning_post(*engine);
  ASSERT_NE(winning, 0u);
  for (JobId id : porep) EXPECT_EQ(engine->await(id, kLongWait)->state, JobState::done);
  int normal = 0, most_normal = 0, admitted_winning = 0;
  for (const auto& e : events.events()) {
    if (e.job == winning) {
      admitted_winning += e.type == EngineEvent::Type::admitted;
      continue;
    }
    if (e.type == EngineEvent::Type::admitted) most_normal = std::max(most_normal, ++normal);
    if (e.type == EngineEvent::Type::synthesized) --normal;
  }
  EXPECT_EQ(most_normal, 1);
  EXPECT_EQ(admitted_winning, 1);
}

// An express device worker (DeviceDescriptor::express_workers) proves a WinningPoSt while the
// ordinary worker is busy with PoRep partitions (slowed here: every device call sleeps first), and
// never takes a NORMAL partition.
TEST(Engine, AnExpressDeviceWorkerProvesAPoStWhileTheOthersAreBusy) {
  EventLog events;
  auto c = cpu_config(1, 1);
  c.devices = cpu_devices(1, 1, uint64_t(1) << 30, 1, /*express_workers=*/1);
  c.devices.factory = with_faults(c.devices.factory, [](const DeviceDescriptor& d, uint32_t worker) {
    FaultPlan p;
    if (worker < d.workers) p.delay = std::chrono::milliseconds(40);
    return p;
  });
  c.observer = events.observer();
  auto engine = make_engine(std::move(c));
  EXPECT_EQ(engine->status().devices.at(0).express_workers, 1u);
  const JobId porep = *engine->submit(tiny_job(JobKind::porep_c2));
  while (events.count(EngineEvent::Type::proving, porep) == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const JobId winning = prove_winning_post(*engine);
  ASSERT_NE(winning, 0u);
  // Ten slowed PoRep partitions, one at a time: the WinningPoSt did not wait for them.
  EXPECT_LT(events.count(EngineEvent::Type::partition_done, porep), 10u);
  ASSERT_EQ(engine->await(porep, kLongWait)->state, JobState::done);
  for (const auto& e : events.events()) {
    if (e.type == EngineEvent::Type::proving) {
      EXPECT_EQ(e.worker, e.job == winning ? 1 : 0) << "job " << e.job << " partition " << e.partition;
    }
  }
}

// With both idle, the express worker proves the WinningPoSt, not the ordinary one (on a GPU its
// streams go first on the SMs, beside whatever the ordinary worker proves next).
TEST(Engine, AnIdleExpressWorkerTakesThePoStBeforeAnIdleOrdinaryOne) {
  EventLog events;
  auto c = cpu_config(1, 1);
  c.devices = cpu_devices(1, 1, uint64_t(1) << 30, 1, /*express_workers=*/1);
  c.start_paused = true;  // both device workers are waiting when the partition comes
  c.observer = events.observer();
  auto engine = make_engine(std::move(c));
  const JobId winning = *engine->submit(tiny_job(JobKind::winning_post));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  engine->resume();
  auto r = engine->await(winning, kLongWait);
  ASSERT_TRUE(r.ok());
  expect_verifies(*r, *tiny_key());
  size_t proving = 0;
  for (const auto& e : events.events())
    if (e.type == EngineEvent::Type::proving) {
      ++proving;
      EXPECT_EQ(e.worker, 1) << "partition " << e.partition;
    }
  EXPECT_GT(proving, 0u);
}

// An express worker whose backend cannot be made (no room on a small card) leaves the device in
// service: its ordinary workers prove everything.
TEST(Engine, AnExpressWorkerWithoutABackendDoesNotTakeItsDeviceDown) {
  auto c = cpu_config(1, 1);
  c.devices = cpu_devices(1, 1, uint64_t(1) << 30, 1, /*express_workers=*/1);
  c.devices.factory = [inner = c.devices.factory](
                          const DeviceDescriptor& d,
                          uint32_t worker) -> Result<std::unique_ptr<ComputeBackend>> {
    if (worker >= d.workers) return make_error("no room for an express worker");
    return inner(d, worker);
  };
  auto engine = make_engine(std::move(c));
  const JobId porep = *engine->submit(tiny_job(JobKind::porep_c2));
  const JobId winning = *engine->submit(tiny_job(JobKind::winning_post));
  for (JobId id : {porep, winning}) {
    auto r = engine->await(id, kLongWait);
    ASSERT_TRUE(r.ok());
    expect_verifies(*r, *tiny_key());
  }
  const auto s = engine->status();
  EXPECT_FALSE(s.devices.at(0).quarantined);
  EXPECT_EQ(s.devices.at(0).proofs_done, 11u);
}

// A PoSt partition larger than express_max_domain waits for an ordinary worker.
TEST(Engine, ExpressDeviceWorkersLeaveLargePartitionsToTheOthers) {
  EventLog events;
  auto c = cpu_config(1, 1);
  c.devices = cpu_devices(1, 1, uint64_t(1) << 30, 1, /*express_workers=*/1);
  c.devices.devices[0].express_max_domain = 32;  // the tiny circuit's domain is 64
  c.observer = events.observer();
  auto engine = make_engine(std::move(c));
  const JobId winning = prove_winning_post(*engine);
  ASSERT_NE(winning, 0u);
  for (const auto& e : events.events()) {
    if (e.type == EngineEvent::Type::proving) {
      EXPECT_EQ(e.worker, 0);
    }
  }
}

TEST(Engine, CancelsQueuedAndRunningJobs) {
  EventLog events;
  auto c = cpu_config(1, 1);
  c.start_paused = true;
  c.observer = events.observer();
  auto engine = make_engine(std::move(c));
  auto queued = *engine->submit(tiny_job(JobKind::porep_c2));
  auto running = *engine->submit(tiny_job(JobKind::snap_deals));
  auto other = *engine->submit(tiny_job());
  ASSERT_TRUE(engine->cancel(queued).ok());
  auto rq = engine->await(queued, std::chrono::milliseconds(0));
  EXPECT_EQ(rq->state, JobState::cancelled);
  EXPECT_EQ(rq->error, "cancelled by request");
  engine->resume();
  while (events.count(EngineEvent::Type::partition_done, running) < 1)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(engine->cancel(running).ok());
  auto rr = engine->await(running, kLongWait);
  EXPECT_EQ(rr->state, JobState::cancelled);
  EXPECT_LT(rr->partitions_proved, 16u);
  EXPECT_FALSE(engine->cancel(running).ok());  // already cancelled
  EXPECT_EQ(engine->await(other, kLongWait)->state, JobState::done);
  EXPECT_EQ(events.count(EngineEvent::Type::admitted, queued), 0u);
  // Nothing of the cancelled jobs is left holding memory once the engine is idle.
  const auto s = wait_until_idle(*engine);
  EXPECT_EQ(s.host_reserved, s.buffer_idle_bytes);  // only idle pooled buffers remain
  EXPECT_EQ(s.jobs_cancelled, 2u);
}

class ParamFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    for (uint64_t seed : {1, 2}) {
      auto params = to_bellman(*key_for(tiny_spec(), seed));
      ASSERT_TRUE(params.ok()) << params.message();
      paths_.push_back(dir_.file("tiny" + std::to_string(seed) + ".params"));
      ASSERT_TRUE(write_bellman_params(paths_.back(), *params).ok());
    }
  }
  JobRequest job_on(size_t i) {
    auto r = tiny_job();
    r.params = paths_[i];
    return r;
  }
  TempDir dir_;
  std::vector<std::string> paths_;
};

TEST_F(ParamFiles, LoadsOnceAndEvictsOnRequest) {
  auto engine = make_engine(cpu_config());
  auto r1 = engine->await(*engine->submit(job_on(0)), kLongWait);
  expect_verifies(*r1, *key_for(tiny_spec(), 1));
  EXPECT_GT(r1->timings.param_load_ms, 0);
  auto r2 = engine->await(*engine->submit(job_on(0)), kLongWait);
  expect_verifies(*r2, *key_for(tiny_spec(), 1));
  EXPECT_EQ(r2->timings.param_load_ms, 0);  // cached
  auto params = engine->status().params;
  auto loaded =
      std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.name == paths_[0]; });
  ASSERT_NE(loaded, params.end());
  EXPECT_EQ(loaded->leases, 0u);
  EXPECT_EQ(loaded->resident_on, std::vector<uint32_t>{0});
  ASSERT_TRUE(engine->evict_params(paths_[0]).ok());
  EXPECT_FALSE(engine->evict_params(paths_[0]).ok());  // not loaded any more
  EXPECT_FALSE(engine->evict_params("tiny").ok());     // registered in memory
  ASSERT_TRUE(engine->preload_params(paths_[1]).ok());
  auto r3 = engine->await(*engine->submit(job_on(1)), kLongWait);
  expect_verifies(*r3, *key_for(tiny_spec(), 2));
  EXPECT_EQ(r3->timings.param_load_ms, 0);  // preloaded
  EXPECT_FALSE(engine->preload_params(dir_.file("missing.params")).ok());
}

TEST_F(ParamFiles, IdleSetsAreEvictedUnderMemoryPressure) {
  // Room for one parameter set (as the cache estimates it) and a partition, not for both sets.
  const uint64_t file_bytes = std::filesystem::file_size(paths_[0]);
  const uint64_t set_bytes = file_bytes + file_bytes / 8;
  ASSERT_LT(tiny_partition_bytes(), set_bytes);
  auto c = cpu_config();
  c.host_memory_budget = 2 * set_bytes - 1;
  auto engine = make_engine(std::move(c));
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < 2; ++i) {
      auto r = engine->await(*engine->submit(job_on(i)), kLongWait);
      ASSERT_TRUE(r.ok());
      expect_verifies(*r, *key_for(tiny_spec(), i + 1));
      EXPECT_GT(r->timings.param_load_ms, 0);  // the other set had pushed it out
    }
  }
  size_t file_sets = 0;
  for (const auto& p : engine->status().params) file_sets += !p.registered;
  EXPECT_EQ(file_sets, 1u);
}

TEST(Engine, DeviceBudgetIsNeverExceeded) {
  // Two workers on one device whose budget holds one plan at a time.
  std::atomic<uint64_t> peak{0};
  auto c = cpu_config(1, 2);
  auto set = make_param_set("tiny", tiny_key());
  PlanShape shape = (*set)->shape;
  const uint64_t plan = default_plan_bytes(shape);
  c.devices.devices[0].memory_budget = plan + plan / 2;
  c.params_on_device = false;
  auto engine = make_engine(std::move(c));
  std::vector<JobId> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(*engine->submit(tiny_job()));
  for (JobId id : ids) {
    while (engine->await(id, std::chrono::milliseconds(1))->state != JobState::done) {
      const auto s = engine->status();
      peak = std::max<uint64_t>(peak, s.devices[0].memory_reserved);
      EXPECT_LE(s.devices[0].memory_reserved, s.devices[0].memory_budget);
    }
  }
  EXPECT_LE(peak.load(), plan + plan / 2);
}

// A CPU backend that reports one device stage per H computation, as a GPU backend does.
class StageReportingBackend final : public ComputeBackend {
 public:
  explicit StageReportingBackend(std::unique_ptr<ComputeBackend> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return "staged(" + inner_->name() + ")"; }
  Status compute_h(const HRequest& r) override {
    log_.push_back({"h 2^" + std::to_string(r.log_n), "a, b, c resident", 12345, 67890, 1.5});
    return inner_->compute_h(r);
  }
  Result<G1Jacobian> msm(const MsmRequest<G1Affine>& r) override { return inner_->msm(r); }
  Result<G2Jacobian> msm(const MsmRequest<G2Affine>& r) override { return inner_->msm(r); }
  std::vector<DeviceStage> take_stage_log() override { return std::exchange(log_, {}); }

 private:
  std::unique_ptr<ComputeBackend> inner_;
  std::vector<DeviceStage> log_;
};

TEST(Engine, EveryDeviceStageIsLoggedWithItsJobPartitionWorkerAndDevice) {
  auto c = cpu_config(1, 1);
  auto inner = c.devices.factory;
  c.devices.factory = [inner](const DeviceDescriptor& d,
                              uint32_t w) -> Result<std::unique_ptr<ComputeBackend>> {
    auto b = inner(d, w);
    if (!b) return b.error();
    return std::unique_ptr<ComputeBackend>(new StageReportingBackend(std::move(*b)));
  };
  const std::string text = log_of_a_tiny_job(std::move(c));
  const auto at = text.find("event=device_stage");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string line =
      text.substr(text.rfind('\n', at) + 1, text.find('\n', at) - text.rfind('\n', at) - 1);
  for (const char* field : {"job=", "part=0", "device=0", "stage=\"h 2^", "bytes=12345", "budget_left=67890"})
    EXPECT_NE(line.find(field), std::string::npos) << field << " missing in: " << line;
}

}  // namespace
}  // namespace cuzk::engine
