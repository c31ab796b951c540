// The cuzk.v1 service's parts without a daemon: request ids (idempotency, conflicts, retries after a
// failure, two claims at once), queue counts from engine events, and the conversion of requests
// (each malformed field its own status; the vanilla bytes moved, not copied) and of results.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "engine/filecoin_input.hpp"
#include "io/proof.hpp"
#include "server/curio_convert.hpp"
#include "server/curio_jobs.hpp"

namespace cuzk::server::curio {
namespace {

using Claim = CurioJobs::Claim;
using grpc::StatusCode;
using T = engine::EngineEvent::Type;

engine::EngineEvent event(T type, engine::JobId job, int device = -1) {
  engine::EngineEvent e{};
  e.type = type;
  e.job = job;
  e.device = device;
  return e;
}

TEST(CurioJobs, ARequestIdNamesOneJobUntilItFails) {
  CurioJobs jobs(std::chrono::hours(1));
  engine::JobId existing = 0;
  ASSERT_EQ(jobs.claim("a", "porep-1-2", "fp", existing), Claim::claimed);
  ASSERT_TRUE(jobs.bind("a", "porep-1-2", 41, engine::JobKind::porep_c2).ok());
  EXPECT_EQ(jobs.claim("a", "porep-1-2", "fp", existing), Claim::existing);
  EXPECT_EQ(existing, 41u);
  EXPECT_EQ(jobs.claim("a", "porep-1-2", "other", existing), Claim::conflict);
  // Another client's id space is its own.
  EXPECT_EQ(jobs.claim("b", "porep-1-2", "other", existing), Claim::claimed);
  jobs.release("b", "porep-1-2");
  EXPECT_FALSE(jobs.find("b", "porep-1-2"));
  // Done: still the same job. Failed: the id is free for the retry, even with other inputs.
  jobs.on_event(event(T::job_done, 41));
  EXPECT_EQ(jobs.claim("a", "porep-1-2", "fp", existing), Claim::existing);
  ASSERT_EQ(jobs.claim("a", "wdpost", "fp", existing), Claim::claimed);
  ASSERT_TRUE(jobs.bind("a", "wdpost", 42, engine::JobKind::window_post).ok());
  jobs.on_event(event(T::job_failed, 42));
  EXPECT_EQ(jobs.claim("a", "wdpost", "new", existing), Claim::claimed);
  ASSERT_TRUE(jobs.bind("a", "wdpost", 43, engine::JobKind::window_post).ok());
  EXPECT_EQ(jobs.find("a", "wdpost"), std::optional<engine::JobId>(43));
}

TEST(CurioJobs, ASecondClaimWaitsForTheFirstSubmit) {
  CurioJobs jobs(std::chrono::hours(1));
  engine::JobId existing = 0;
  ASSERT_EQ(jobs.claim("a", "id", "fp", existing), Claim::claimed);
  std::atomic<int> second{-1};
  engine::JobId seen = 0;
  std::thread t([&] { second = int(jobs.claim("a", "id", "fp", seen)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(second.load(), -1);  // still waiting (an early answer would be a second job)
  ASSERT_TRUE(jobs.bind("a", "id", 7, engine::JobKind::winning_post).ok());
  t.join();
  EXPECT_EQ(second.load(), int(Claim::existing));
  EXPECT_EQ(seen, 7u);
}

TEST(CurioJobs, QueuesAndDevicesFollowEvents) {
  CurioJobs jobs(std::chrono::hours(1));
  engine::JobId unused = 0;
  ASSERT_EQ(jobs.claim("", "w", "fp", unused), Claim::claimed);
  ASSERT_TRUE(jobs.bind("", "w", 1, engine::JobKind::window_post).ok());
  // Admitted before its submit returned: the state is kept for the bind.
  jobs.on_event(event(T::admitted, 2));
  ASSERT_EQ(jobs.claim("", "p", "fp", unused), Claim::claimed);
  ASSERT_TRUE(jobs.bind("", "p", 2, engine::JobKind::porep_c2).ok());
  auto q = jobs.queues();
  EXPECT_EQ(q[engine::JobKind::window_post].pending, 1u);
  EXPECT_EQ(q[engine::JobKind::porep_c2].in_progress, 1u);
  EXPECT_TRUE(jobs.is_running(2));
  EXPECT_FALSE(jobs.is_running(1));
  jobs.on_event(event(T::proving, 2, 0));
  auto on = jobs.on_device(0);
  ASSERT_TRUE(on);
  EXPECT_EQ(on->first, "p");
  jobs.on_event(event(T::partition_done, 2, 0));
  EXPECT_FALSE(jobs.on_device(0));
  jobs.on_event(event(T::job_done, 2));
  q = jobs.queues();
  EXPECT_EQ(q[engine::JobKind::porep_c2].in_progress, 0u);
}

pb::SubmitProofRequest window_request() {
  pb::SubmitProofRequest r;
  r.set_request_id("wdpost-1000-0");
  r.set_proof_kind(pb::WINDOW_POST_PARTITION);
  r.set_sector_size(2048);
  r.set_registered_proof(10);  // Go's StackedDrgWindow2KiBV1_1, the proofs API's V1_2
  r.add_vanilla_proofs("vanilla bytes");
  r.set_randomness(std::string(32, '\xff'));
  return r;
}

grpc::Status convert(pb::SubmitProofRequest r, Converted& out) {
  return job_from_submit(r, "/nonexistent-params", out);
}

TEST(CurioConvert, EachMalformedFieldIsItsOwnStatus) {
  Converted c;
  auto r = window_request();
  r.set_proof_kind(pb::ProofKind(9));
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::UNIMPLEMENTED);
  r.set_proof_kind(pb::PROOF_KIND_UNSPECIFIED);
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);
  r = window_request();
  r.set_sector_size(uint64_t(32) << 30);
  auto st = convert(r, c);
  EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("sector_size"), std::string::npos) << st.error_message();
  r = window_request();
  r.set_registered_proof(0);  // a WinningPoSt type
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);
  r.set_registered_proof(99);
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);
  r = window_request();
  r.set_randomness(std::string(31, '\0'));
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);
  r = window_request();
  r.clear_vanilla_proofs();
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);
  r = window_request();
  r.set_priority(pb::Priority(7));
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);
  r = window_request();
  r.set_request_id(std::string("a\nb"));
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);
  r.set_request_id(std::string(257, 'x'));
  EXPECT_EQ(convert(r, c).error_code(), StatusCode::INVALID_ARGUMENT);

  pb::SubmitProofRequest porep;
  porep.set_proof_kind(pb::POREP_SEAL_COMMIT);
  porep.set_registered_proof(5);                                            // StackedDrg2KiBV1_1
  EXPECT_EQ(convert(porep, c).error_code(), StatusCode::INVALID_ARGUMENT);  // no C1
  porep.set_vanilla_proof("{}");
  porep.add_vanilla_proofs("x");
  EXPECT_EQ(convert(porep, c).error_code(), StatusCode::INVALID_ARGUMENT);  // the wrong field too
  porep.clear_vanilla_proofs();
  porep.set_registered_proof(18);  // an NI-PoRep type
  EXPECT_EQ(convert(porep, c).error_code(), StatusCode::UNIMPLEMENTED);

  pb::SubmitProofRequest snap;
  snap.set_proof_kind(pb::SNAP_DEALS_UPDATE);
  snap.set_registered_proof(0);
  snap.add_vanilla_proofs("x");
  snap.set_comm_r_old(std::string(32, '\1'));
  snap.set_comm_r_new(std::string(32, '\2'));
  snap.set_comm_d_new(std::string(40, '\3'));  // a CID, not the raw digest
  st = convert(snap, c);
  EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("comm_d_new"), std::string::npos) << st.error_message();
}

TEST(CurioConvert, AGoodRequestBecomesAFilecoinJob) {
  auto r = window_request();
  Converted c;
  ASSERT_TRUE(job_from_submit(r, "/nonexistent-params", c).ok());
  EXPECT_TRUE(r.vanilla_proofs(0).empty());  // moved into the job
  EXPECT_EQ(c.job.kind, engine::JobKind::window_post);
  EXPECT_EQ(c.job.priority, engine::Priority::high);  // the kind's own
  EXPECT_EQ(std::filesystem::path(c.job.params).parent_path(), "/nonexistent-params");
  EXPECT_NE(c.params_error.find("does not exist"), std::string::npos) << c.params_error;
  ASSERT_EQ(c.job.partitions.size(), 1u);
  const auto& input = std::get<engine::FilecoinInput>(c.job.partitions[0]);
  const auto& req = input.request->request();
  EXPECT_EQ(req.vanilla, std::vector<std::string>{"vanilla bytes"});
  EXPECT_EQ(req.randomness[31], 0x3f);  // top two bits cleared, the rest kept
  EXPECT_EQ(req.randomness[0], 0xff);
  // The fingerprint follows what must agree on a repeated request id.
  Converted again, other;
  ASSERT_TRUE(job_from_submit(*std::make_unique<pb::SubmitProofRequest>(window_request()), "/p", again).ok());
  auto changed = window_request();
  changed.set_partition_index(1);
  ASSERT_TRUE(job_from_submit(changed, "/p", other).ok());
  EXPECT_EQ(c.fingerprint, again.fingerprint);
  EXPECT_NE(c.fingerprint, other.fingerprint);
}

TEST(CurioConvert, PrioritiesMapOneToOne) {
  engine::Priority p{};
  ASSERT_TRUE(priority_from_proto(pb::LOW, engine::JobKind::winning_post, p).ok());
  EXPECT_EQ(p, engine::Priority::low);
  ASSERT_TRUE(priority_from_proto(pb::CRITICAL, engine::JobKind::porep_c2, p).ok());
  EXPECT_EQ(p, engine::Priority::critical);
  ASSERT_TRUE(priority_from_proto(pb::PRIORITY_UNSPECIFIED, engine::JobKind::winning_post, p).ok());
  EXPECT_EQ(p, engine::Priority::critical);
}

TEST(CurioConvert, ResultsCarryTheConcatenatedProofs) {
  engine::JobResult r;
  r.state = engine::JobState::done;
  r.proofs.resize(3);
  r.timings.total_ms = 12.6;
  pb::AwaitProofResponse out;
  result_to_proto(r, "job", &out);
  EXPECT_EQ(out.status(), pb::AwaitProofResponse::COMPLETED);
  const auto expected = write_proofs(r.proofs);
  EXPECT_EQ(out.proof(), std::string(expected.begin(), expected.end()));
  EXPECT_EQ(out.proof().size(), 3 * PROOF_BYTES);
  EXPECT_EQ(out.total_ms(), 13u);
  EXPECT_EQ(out.job_id(), "job");

  r.state = engine::JobState::failed;
  r.error = "partition 0: no";
  out.Clear();
  result_to_proto(r, "job", &out);
  EXPECT_EQ(out.status(), pb::AwaitProofResponse::FAILED);
  EXPECT_EQ(out.error_message(), "partition 0: no");
  EXPECT_TRUE(out.proof().empty());
  r.state = engine::JobState::running;
  out.Clear();
  result_to_proto(r, "job", &out);
  EXPECT_EQ(out.status(), pb::AwaitProofResponse::TIMEOUT);
}

}  // namespace
}  // namespace cuzk::server::curio
