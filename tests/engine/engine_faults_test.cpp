// The engine against failing devices (the fault-injecting backend): allocation failures, kernel
// errors, wrong results and slowness are retried on another device; a device that keeps failing
// is quarantined; when none is left, jobs fail with an error that says why. The engine never dies.
#include <gtest/gtest.h>

#include <thread>

#include "engine/fault_injection.hpp"
#include "tests/engine/test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace testing;

EngineConfig faulty_config(uint32_t devices, std::function<FaultPlan(const DeviceDescriptor&, uint32_t)> plan,
                           std::shared_ptr<FaultCounters> counters = nullptr) {
  auto c = cpu_config(devices, 1);
  c.devices.factory = with_faults(c.devices.factory, std::move(plan), std::move(counters));
  return c;
}

std::vector<JobResult> run_jobs(Engine& engine, const std::vector<JobRequest>& jobs) {
  std::vector<JobId> ids;
  for (const auto& j : jobs) {
    auto id = engine.submit(j);
    EXPECT_TRUE(id.ok()) << id.message();
    ids.push_back(*id);
  }
  std::vector<JobResult> out;
  for (JobId id : ids) out.push_back(*engine.await(id, kLongWait));
  return out;
}

TEST(EngineFaults, RandomFaultsAreRetriedAndEveryJobCompletes) {
  auto counters = std::make_shared<FaultCounters>();
  auto c = faulty_config(
      2,
      [](const DeviceDescriptor& d, uint32_t w) {
        FaultPlan p;
        p.allocation_failure = 0.02;
        p.kernel_error = 0.02;
        p.wrong_result = 0.01;
        p.seed = 100 + d.index * 10 + w;
        return p;
      },
      counters);
  c.max_attempts = 10;
  c.quarantine_after = 1000;  // this test is about retries
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok()) << engine.message();
  std::vector<JobRequest> jobs(4, tiny_job(JobKind::porep_c2));
  for (int i = 0; i < 10; ++i) jobs.push_back(tiny_job(JobKind::winning_post));
  uint32_t retries = 0;
  for (const auto& r : run_jobs(**engine, jobs)) {
    expect_verifies(r, *tiny_key());
    retries += r.retries;
  }
  const uint64_t faults = counters->allocation_failures + counters->kernel_errors + counters->wrong_results;
  EXPECT_GT(faults, 0u);
  EXPECT_GE(retries, 1u);
  uint64_t failures = 0;
  for (const auto& d : (*engine)->status().devices) failures += d.failures;
  EXPECT_EQ(failures, retries);  // every failure is one retry (none reached the limit)
}

TEST(EngineFaults, ScheduledAllocationAndKernelFailuresAreRetried) {
  auto c = faulty_config(1, [](const DeviceDescriptor&, uint32_t) {
    FaultPlan p;
    p.failing_calls = {0, 9, 21};  // a proof makes 6 calls: at least 30 calls, 3 of them failing
    return p;
  });
  c.quarantine_after = 5;
  c.max_attempts = 4;  // one partition may meet all three failures
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok());
  for (const auto& r : run_jobs(**engine, std::vector<JobRequest>(5, tiny_job())))
    expect_verifies(r, *tiny_key());
  const auto s = (*engine)->status();
  EXPECT_FALSE(s.devices[0].quarantined);
  EXPECT_EQ(s.devices[0].failures, 3u);
}

// Device 1 always returns garbage, which only the pairing check catches; device 0 is sound.
FaultPlan wrong_on_device_1(const DeviceDescriptor& d, uint32_t) {
  FaultPlan p;
  if (d.index == 1) p.wrong_result = 1.0;
  return p;
}

// Eight tiny jobs on an engine of `c`, its events in `events`: every one must end with verifying
// proofs. Returns the engine's status after them.
EngineStatus run_eight_verified(EngineConfig c, EventLog& events) {
  c.observer = events.observer();
  auto engine = Engine::create(std::move(c));
  EXPECT_TRUE(engine.ok()) << engine.message();
  if (!engine) return {};
  for (const auto& r : run_jobs(**engine, std::vector<JobRequest>(8, tiny_job())))
    expect_verifies(r, *tiny_key());
  return (*engine)->status();
}

TEST(EngineFaults, WrongResultsAreCaughtByThePairingCheck) {
  auto c = faulty_config(2, wrong_on_device_1);
  c.quarantine_after = 2;
  EventLog events;
  const auto s = run_eight_verified(std::move(c), events);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_FALSE(s.devices[0].quarantined);
  // Device 1 may have been lucky enough to get no work; if it did, it failed and was put aside.
  if (s.devices[1].failures >= 2) {
    EXPECT_TRUE(s.devices[1].quarantined);
    EXPECT_NE(s.devices[1].last_error.find("pairing check"), std::string::npos) << s.devices[1].last_error;
    EXPECT_EQ(events.count(EngineEvent::Type::device_quarantined), 1u);
  }
  EXPECT_EQ(s.devices[1].proofs_done, 0u);
}

// With sets handed back as soon as the prover has read them (EngineConfig::release_inputs_early), a
// proof that then fails its pairing check has no vectors left to retry with: the partition is
// synthesized again, and every job still completes with verifying proofs and no reservation held.
TEST(EngineFaults, APartitionWhoseSetWentBackEarlyIsSynthesizedAgainForItsRetry) {
  auto c = faulty_config(2, wrong_on_device_1);
  c.quarantine_after = 100;  // device 1 keeps failing proofs after their sets went back
  c.max_attempts = 20;
  c.release_inputs_early = true;
  EventLog events;
  const auto s = run_eight_verified(std::move(c), events);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[1].proofs_done, 0u);
  EXPECT_EQ(s.devices[1].failures, events.count(EngineEvent::Type::partition_retry));
  EXPECT_EQ(s.host_reserved, s.buffer_idle_bytes);  // only idle pooled sets remain
}

TEST(EngineFaults, AFailingDeviceIsQuarantinedAndTheOtherTakesOver) {
  auto c = faulty_config(2, [](const DeviceDescriptor& d, uint32_t) {
    FaultPlan p;
    if (d.index == 0) p.kernel_error = 1.0;
    return p;
  });
  c.quarantine_after = 2;
  c.max_attempts = 3;
  c.start_paused = true;  // both devices see the queue at once
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok());
  std::vector<JobId> ids;
  for (int i = 0; i < 12; ++i) ids.push_back(*(*engine)->submit(tiny_job()));
  (*engine)->resume();
  for (JobId id : ids) expect_verifies(*(*engine)->await(id, kLongWait), *tiny_key());
  const auto s = (*engine)->status();
  EXPECT_EQ(s.devices[1].proofs_done, 12u);
  EXPECT_FALSE(s.devices[1].quarantined);
  if (s.devices[0].failures >= 2) {
    EXPECT_TRUE(s.devices[0].quarantined);
  }
  // An operator returns it to service.
  ASSERT_TRUE((*engine)->release_device(0).ok());
  EXPECT_FALSE((*engine)->status().devices[0].quarantined);
  EXPECT_FALSE((*engine)->release_device(7).ok());
}

TEST(EngineFaults, WithEveryDeviceBrokenJobsFailClearlyAndTheEngineLives) {
  auto c = faulty_config(2, [](const DeviceDescriptor&, uint32_t) {
    FaultPlan p;
    p.allocation_failure = 1.0;
    return p;
  });
  c.quarantine_after = 2;
  c.max_attempts = 10;
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok());
  // The first job meets two devices in service. Once both are quarantined (which the first job's
  // retries may already do), a later submit is refused with the reason; one accepted before that
  // fails with it. Either way every job ends clearly.
  std::vector<JobId> accepted;
  for (int i = 0; i < 3; ++i) {
    auto id = (*engine)->submit(tiny_job(JobKind::porep_c2));
    if (i == 0) {
      ASSERT_TRUE(id.ok()) << id.message();
    }
    if (id.ok()) {
      accepted.push_back(*id);
    } else {
      EXPECT_NE(id.message().find("quarantined"), std::string::npos) << id.message();
    }
  }
  for (JobId id : accepted) {
    auto r = (*engine)->await(id, kLongWait);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->state, JobState::failed);
    EXPECT_TRUE(r->error.find("quarantined") != std::string::npos ||
                r->error.find("failed") != std::string::npos)
        << r->error;
    EXPECT_NE(r->error.find("out of memory"), std::string::npos) << r->error;
  }
  const auto s = wait_until_idle(**engine);
  EXPECT_TRUE(s.devices[0].quarantined);
  EXPECT_TRUE(s.devices[1].quarantined);
  EXPECT_EQ(s.host_reserved, s.buffer_idle_bytes);  // only idle pooled buffers remain
  auto refused = (*engine)->submit(tiny_job());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("quarantined"), std::string::npos);
}

TEST(EngineFaults, BackendCreationFailureQuarantinesTheDevice) {
  auto c = cpu_config(2, 1);
  auto inner = c.devices.factory;
  c.devices.factory = [inner](const DeviceDescriptor& d,
                              uint32_t w) -> Result<std::unique_ptr<ComputeBackend>> {
    if (d.index == 0) return make_error("no such device (injected)");
    return inner(d, w);
  };
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok());
  for (const auto& r : run_jobs(**engine, std::vector<JobRequest>(3, tiny_job())))
    expect_verifies(r, *tiny_key());
  const auto s = (*engine)->status();
  EXPECT_TRUE(s.devices[0].quarantined);
  EXPECT_NE(s.devices[0].last_error.find("no such device"), std::string::npos);
}

TEST(EngineFaults, APlanTooLargeForOneDeviceRunsOnAnother) {
  auto c = cpu_config(2, 1);
  c.devices.devices[0].memory_budget = 1024;  // smaller than any plan
  c.quarantine_after = 1;                     // it must not count as the device's fault
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok());
  for (const auto& r : run_jobs(**engine, std::vector<JobRequest>(6, tiny_job())))
    expect_verifies(r, *tiny_key());
  const auto s = (*engine)->status();
  EXPECT_FALSE(s.devices[0].quarantined);
  EXPECT_EQ(s.devices[0].proofs_done, 0u);
  EXPECT_EQ(s.devices[1].proofs_done, 6u);
}

TEST(EngineFaults, ASlowDeviceDelaysButLosesNothing) {
  auto c = faulty_config(2, [](const DeviceDescriptor& d, uint32_t) {
    FaultPlan p;
    if (d.index == 1) p.delay = std::chrono::milliseconds(15);
    return p;
  });
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok());
  std::vector<JobRequest> jobs(2, tiny_job(JobKind::porep_c2));
  jobs.push_back(tiny_job(JobKind::winning_post));
  for (const auto& r : run_jobs(**engine, jobs)) expect_verifies(r, *tiny_key());
  uint64_t done = 0;
  for (const auto& d : (*engine)->status().devices) done += d.proofs_done;
  EXPECT_EQ(done, 21u);
}

}  // namespace
}  // namespace cuzk::engine
