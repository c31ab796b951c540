// Filecoin jobs in the engine, on the sealed 2 KiB test sector of the end-to-end fixture
// ($CUZK_E2E_DIR/sector) with its parameters found by official name ($FIL_PROOFS_PARAMETER_CACHE set
// to $CUZK_E2E_DIR/params):
// a WindowPoSt job proves and verifies against the official-name .vk; its journaled form survives a
// restart; a tampered vanilla proof or a request under the wrong job kind is refused at submit.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "engine/engine.hpp"
#include "engine/fault_injection.hpp"
#include "engine/filecoin_input.hpp"
#include "engine/request_codec.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "tests/engine/test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace testing;
namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Sector {
  fs::path dir;
  nlohmann::json info;
};

Sector sector() {
  const char* e2e = std::getenv("CUZK_E2E_DIR");
  Sector s;
  s.dir = fs::path(e2e ? e2e : "") / "sector";
  // The engine finds parameters by official name in the fixture's folder, as it would in any.
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", (fs::path(e2e ? e2e : "") / "params").c_str(), 1);
  s.info = nlohmann::json::parse(read_all(s.dir / "sector.json"), nullptr, false);
  return s;
}

filecoin::ProofRequest window_request(const Sector& s) {
  filecoin::ProofRequest r;
  r.kind = filecoin::ProofKind::window_post;
  r.proof_id = s.info["window_post"]["proof_id"].get<uint64_t>();
  r.randomness = *filecoin::parse_domain_hex(s.info["post_randomness"].get<std::string>());
  r.vanilla.push_back(read_all(s.dir / s.info["window_post"]["vanilla"].get<std::string>()));
  return r;
}

JobRequest job_of(JobKind kind, filecoin::ProofRequest request) {
  JobRequest j;
  j.kind = kind;
  j.partitions.push_back(FilecoinInput{std::make_shared<FilecoinRequest>(std::move(request)), {}});
  return j;
}

// The proofs of a finished job check against the official-name .vk with the verifier's inputs.
void expect_official_verifies(const JobResult& r, const filecoin::ProofRequest& request) {
  ASSERT_EQ(r.state, JobState::done) << r.error;
  auto prepared = filecoin::PreparedProof::prepare(request, filecoin::PrepareFor::verifying);
  ASSERT_TRUE(prepared.ok()) << prepared.message();
  ASSERT_EQ(r.proofs.size(), prepared->partitions());
  auto vk_path = filecoin::find_parameter_file(prepared->circuit(), filecoin::ParameterExt::vk,
                                               filecoin::parameter_directory());
  ASSERT_TRUE(vk_path.ok()) << vk_path.message();
  auto vk = read_bellman_vk(*vk_path);
  ASSERT_TRUE(vk.ok()) << vk.message();
  auto pvk = groth16::prepare_verifying_key(*vk);
  ASSERT_TRUE(pvk.ok());
  for (size_t k = 0; k < r.proofs.size(); ++k) {
    auto inputs = prepared->public_inputs(k);
    ASSERT_TRUE(inputs.ok()) << inputs.message();
    EXPECT_EQ(*inputs, r.public_inputs[k]);
    auto ok = groth16::verify_proof(*pvk, r.proofs[k], *inputs);
    ASSERT_TRUE(ok.ok()) << ok.message();
    EXPECT_TRUE(*ok) << "partition " << k;
  }
}

EngineConfig filecoin_config() {
  auto c = cpu_config(1, 1);
  c.host_memory_budget = uint64_t(4) << 30;
  c.devices = cpu_devices(1, 1, uint64_t(4) << 30, 0);
  return c;
}

// Through the compiled circuit (the witness alone synthesized; built on first use into a folder
// of the test's, then mapped from it), with the witness left to the device workers (which fill it
// where they prove: here the CPU backend, on the host), and through full synthesis: all verify. A
// compiled job's second proof writes its witness over the first's, in the same pooled set.
TEST(EngineFilecoin, WindowPostProvesAndVerifiesAgainstTheOfficialVk) {
  const Sector s = sector();
  ASSERT_TRUE(s.info.is_object()) << "no sector.json under $CUZK_E2E_DIR";
  const auto dir =
      std::filesystem::temp_directory_path() / ("cuzk-compiled-test-" + std::to_string(::getpid()));
  for (const int round : {0, 1, 3, 2}) {
    SCOPED_TRACE(round == 2   ? "full synthesis"
                 : round == 0 ? "compiled, built"
                 : round == 1 ? "compiled, from its file"
                              : "compiled, the witness filled by the device worker");
    EngineConfig config = filecoin_config();
    config.compiled_circuits = round != 2;
    config.devices.fills_witness_on_device = round == 3;
    config.compiled_dir = dir.string();
    auto engine = Engine::create(std::move(config));
    ASSERT_TRUE(engine.ok()) << engine.message();
    const auto request = window_request(s);
    for (int proof = 0; proof < (round != 2 ? 2 : 1); ++proof) {
      auto id = (*engine)->submit(job_of(JobKind::window_post, request));
      ASSERT_TRUE(id.ok()) << id.message();
      auto r = (*engine)->await(*id, kLongWait);
      ASSERT_TRUE(r.ok()) << r.message();
      EXPECT_EQ(r->priority, Priority::high);
      expect_official_verifies(*r, request);
    }
    if (round != 2) {
      EXPECT_EQ((*engine)->status().buffer_sets_made, 1u) << "the witness's set was not reused";
    }
    if (round == 0) {
      EXPECT_FALSE(std::filesystem::is_empty(dir)) << "the compiled circuit was not kept";
    }
  }
  std::filesystem::remove_all(dir);
}

// Preloading a Filecoin parameter file readies its compiled circuit in the background (its file
// appears in the compiled folder with no job submitted) and its witnesses' buffer sets at once (the
// job after it makes none). Any other name is no Filecoin circuit.
TEST(EngineFilecoin, APreloadReadiesTheCompiledCircuit) {
  const Sector s = sector();
  ASSERT_TRUE(s.info.is_object()) << "no sector.json under $CUZK_E2E_DIR";
  const filecoin::CircuitId id{filecoin::CircuitKind::window_post, 2048};
  auto params =
      filecoin::find_parameter_file(id, filecoin::ParameterExt::params, filecoin::parameter_directory());
  ASSERT_TRUE(params.ok()) << params.message();
  const auto found = circuit_of_parameter_file(params->string());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->kind, id.kind);
  EXPECT_EQ(found->sector_size, id.sector_size);
  EXPECT_FALSE(circuit_of_parameter_file("/tmp/v28-not-a-circuit.params").has_value());
  EXPECT_FALSE(circuit_of_parameter_file("key.params").has_value());

  const auto dir =
      std::filesystem::temp_directory_path() / ("cuzk-prefetch-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    EngineConfig config = filecoin_config();
    config.compiled_dir = dir.string();
    auto engine = Engine::create(std::move(config));
    ASSERT_TRUE(engine.ok()) << engine.message();
    ASSERT_TRUE((*engine)->preload_params(params->string()).ok());
    // Its witnesses' buffer sets are made by the preload, before any job: the job takes one.
    const EngineStatus ready = (*engine)->status();
    EXPECT_GE(ready.buffer_sets_made, 1u);
    EXPECT_EQ(ready.buffer_sets_idle, ready.buffer_sets_made);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while ((!std::filesystem::exists(dir) || std::filesystem::is_empty(dir)) &&
           std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(std::filesystem::exists(dir) && !std::filesystem::is_empty(dir))
        << "the compiled circuit was not made after the preload";
    // A job after it proves as before.
    const auto request = window_request(s);
    auto job = (*engine)->submit(job_of(JobKind::window_post, request));
    ASSERT_TRUE(job.ok()) << job.message();
    auto r = (*engine)->await(*job, kLongWait);
    ASSERT_TRUE(r.ok()) << r.message();
    expect_official_verifies(*r, request);
    EXPECT_EQ((*engine)->status().buffer_sets_made, ready.buffer_sets_made)
        << "the job made a set of its own";
  }
  std::filesystem::remove_all(dir);
}

TEST(EngineFilecoin, TheJournaledRequestKeepsEveryField) {
  const Sector s = sector();
  ASSERT_TRUE(s.info.is_object());
  auto normalized = normalize(job_of(JobKind::window_post, window_request(s)));
  ASSERT_TRUE(normalized.ok()) << normalized.message();
  ASSERT_EQ(normalized->partitions.size(), 1u);
  EXPECT_TRUE(normalized->params.ends_with(".params")) << normalized->params;
  auto decoded = request_from_json(request_to_json(*normalized));
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  EXPECT_EQ(decoded->params, normalized->params);
  ASSERT_EQ(decoded->partitions.size(), 1u);
  const auto& before = std::get<FilecoinInput>(normalized->partitions[0]);
  const auto& after = std::get<FilecoinInput>(decoded->partitions[0]);
  EXPECT_EQ(after.partition, before.partition);
  const auto& a = before.request->request();
  const auto& b = after.request->request();
  EXPECT_EQ(b.kind, a.kind);
  EXPECT_EQ(b.proof_id, a.proof_id);
  EXPECT_EQ(b.vanilla, a.vanilla);
  EXPECT_EQ(b.randomness, a.randomness);
  EXPECT_EQ(b.first_partition, a.first_partition);
  // A malformed journal entry is an error, not a crash.
  EXPECT_FALSE(
      request_from_json(R"({"kind":"window_post","params":"x","partitions":[{"filecoin":{"request":3}}]})")
          .ok());
}

// A request replicated to several entries, none naming a partition (as a PoRep C2 job is first
// given the kind's ten inputs), stands for all of the request's partitions, once each.
TEST(EngineFilecoin, AReplicatedRequestStandsForAllItsPartitions) {
  const Sector s = sector();
  ASSERT_TRUE(s.info.is_object());
  JobRequest j = job_of(JobKind::window_post, window_request(s));
  const auto request = std::get<FilecoinInput>(j.partitions[0]).request;
  j.partitions.assign(7, j.partitions[0]);
  auto normalized = normalize(std::move(j));
  ASSERT_TRUE(normalized.ok()) << normalized.message();
  ASSERT_EQ(normalized->partitions.size(), 1u);
  const auto& p = std::get<FilecoinInput>(normalized->partitions[0]);
  EXPECT_EQ(p.request, request);
  EXPECT_EQ(p.partition, std::optional<uint32_t>(0));
}

TEST(EngineFilecoin, AJobInTheJournalFinishesAfterARestart) {
  const Sector s = sector();
  ASSERT_TRUE(s.info.is_object());
  TempDir dir;
  const auto request = window_request(s);
  JobId id = 0;
  {
    auto c = filecoin_config();
    c.journal_path = dir.file("journal.db");
    c.journal_sync_full = false;
    // The device takes long enough that the engine stops before the proof is made.
    c.devices.factory = with_faults(c.devices.factory, [](const DeviceDescriptor&, uint32_t) {
      FaultPlan p;
      p.delay = std::chrono::milliseconds(3000);
      return p;
    });
    auto engine = Engine::create(c);
    ASSERT_TRUE(engine.ok()) << engine.message();
    auto submitted = (*engine)->submit(job_of(JobKind::window_post, request));
    ASSERT_TRUE(submitted.ok()) << submitted.message();
    id = *submitted;
  }
  auto c = filecoin_config();
  c.journal_path = dir.file("journal.db");
  auto engine = Engine::create(c);
  ASSERT_TRUE(engine.ok()) << engine.message();
  auto r = (*engine)->await(id, kLongWait);
  ASSERT_TRUE(r.ok()) << r.message();
  expect_official_verifies(*r, request);
}

// Requests that cannot be proved are refused at submit, naming what is wrong; a path that does
// not reach its root, which only hashing the path shows, fails the job at synthesis (the witness
// hashes every path; the check at submit does not hash them again), naming the sector and challenge.
TEST(EngineFilecoin, BadRequestsAreRefusedAtSubmit) {
  const Sector s = sector();
  ASSERT_TRUE(s.info.is_object());
  auto engine = Engine::create(filecoin_config());
  ASSERT_TRUE(engine.ok()) << engine.message();
  // Another kind than the request's.
  auto wrong = (*engine)->submit(job_of(JobKind::winning_post, window_request(s)));
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.message().find("window_post"), std::string::npos) << wrong.message();
  // A vanilla proof whose first challenge's leaf is changed (bytes 8 + 32 + 8 + 8 + 4 + 32: the
  // first inclusion proof's leaf, after sector_id, comm_r, the counts and the root).
  auto tampered = window_request(s);
  tampered.vanilla[0][8 + 32 + 8 + 8 + 4 + 32] ^= 1;
  auto bad = (*engine)->submit(job_of(JobKind::window_post, tampered));
  ASSERT_TRUE(bad.ok()) << bad.message();
  auto failed = (*engine)->await(*bad, kLongWait);
  ASSERT_TRUE(failed.ok()) << failed.message();
  EXPECT_EQ(failed->state, JobState::failed);
  EXPECT_NE(failed->error.find("circuit sector 0: challenge 0's path does not reach comm_r_last"),
            std::string::npos)
      << failed->error;
  EXPECT_EQ(failed->proofs.size(), 0u);
  // The root a proof names is read at submit: one other than comm_r_last is refused there (the
  // first inclusion proof's root, after sector_id, comm_r and the counts).
  auto renamed = window_request(s);
  renamed.vanilla[0][8 + 32 + 8 + 8 + 4] ^= 1;
  auto refused = (*engine)->submit(job_of(JobKind::window_post, renamed));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("challenge 0"), std::string::npos) << refused.message();
  // Truncated bytes.
  auto truncated = window_request(s);
  truncated.vanilla[0].resize(100);
  EXPECT_FALSE((*engine)->submit(job_of(JobKind::window_post, truncated)).ok());
}

}  // namespace
}  // namespace cuzk::engine
