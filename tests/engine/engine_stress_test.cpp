// Hundreds of mixed-priority jobs from concurrent clients, on two devices of which one injects
// faults: every job completes with verifying proofs, nothing is lost or proved twice.
#include <gtest/gtest.h>

#include <thread>

#include "engine/fault_injection.hpp"
#include "tests/engine/test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace testing;

TEST(EngineStress, HundredsOfMixedJobsFromConcurrentClients) {
  EventLog events;
  auto c = cpu_config(2, 1);
  c.devices.factory = with_faults(c.devices.factory, [](const DeviceDescriptor& d, uint32_t w) {
    FaultPlan p;
    if (d.index == 1) {
      p.allocation_failure = 0.01;
      p.kernel_error = 0.01;
      p.wrong_result = 0.005;
    }
    p.seed = 31 + w;
    return p;
  });
  c.max_attempts = 8;
  c.quarantine_after = 50;
  c.observer = events.observer();
  auto engine = Engine::create(std::move(c));
  ASSERT_TRUE(engine.ok()) << engine.message();

  constexpr int kClients = 4, kJobsPerClient = 50;
  std::vector<std::vector<JobId>> ids(kClients);
  std::vector<std::thread> clients;
  for (int client = 0; client < kClients; ++client) {
    clients.emplace_back([&, client] {
      std::mt19937_64 rng(client);
      for (int i = 0; i < kJobsPerClient; ++i) {
        JobRequest r;
        if (i == 10) {
          r = tiny_job(JobKind::porep_c2);
        } else {
          const JobKind kinds[] = {JobKind::winning_post, JobKind::window_post, JobKind::generic};
          r = tiny_job(kinds[rng() % 3]);
          if (r.kind == JobKind::generic) r.priority = Priority(rng() % 4);
        }
        r.client = "client" + std::to_string(client);
        auto id = (*engine)->submit(r);
        ASSERT_TRUE(id.ok()) << id.message();
        ids[client].push_back(*id);
      }
    });
  }
  for (auto& t : clients) t.join();
  // Each client awaits its own jobs concurrently with the others.
  std::atomic<int> verified{0};
  std::vector<std::thread> waiters;
  for (int client = 0; client < kClients; ++client) {
    waiters.emplace_back([&, client] {
      for (JobId id : ids[client]) {
        auto r = (*engine)->await(id, kLongWait);
        ASSERT_TRUE(r.ok()) << r.message();
        expect_verifies(*r, *tiny_key());
        ++verified;
      }
    });
  }
  for (auto& t : waiters) t.join();
  EXPECT_EQ(verified.load(), kClients * kJobsPerClient);
  for (const auto& client : ids)
    for (JobId id : client) EXPECT_EQ(events.count(EngineEvent::Type::job_done, id), 1u);
  const auto s = (*engine)->status();
  EXPECT_EQ(s.jobs_done, uint64_t(kClients * kJobsPerClient));
  EXPECT_EQ(s.host_reserved, s.buffer_idle_bytes);  // only idle pooled buffers remain
  EXPECT_EQ(s.devices[0].proofs_done + s.devices[1].proofs_done,
            uint64_t(kClients * (kJobsPerClient - 1 + 10)));
}

}  // namespace
}  // namespace cuzk::engine
