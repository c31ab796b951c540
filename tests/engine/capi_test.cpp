// libcuzk's C ABI: every misuse is an error code with a message, never a crash.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuzk.h"

namespace {

const std::string kToy = std::string(CUZK_TEST_DATA) + "/snarkjs/";

struct EngineHandle {
  cuzk_engine* e = nullptr;
  ~EngineHandle() { cuzk_engine_destroy(e); }
};

cuzk_engine_config quiet_config() {
  cuzk_engine_config c;
  cuzk_engine_config_init(&c);
  c.threads_per_worker = 1;
  c.log_level = "off";
  return c;
}

TEST(CApi, CreateRejectsBadConfigs) {
  cuzk_error err;
  cuzk_engine* e = nullptr;
  EXPECT_EQ(cuzk_engine_create(nullptr, &e, &err), CUZK_ERR_INVALID_ARGUMENT);
  auto c = quiet_config();
  c.shared_bases_fraction = 1.5;
  EXPECT_EQ(cuzk_engine_create(&c, &e, &err), CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("shared_bases_fraction"), std::string::npos) << err.message;
  c.shared_bases_fraction = 0.6;
  c.synthesis_nice = 20;
  EXPECT_EQ(cuzk_engine_create(&c, &e, &err), CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("synthesis_nice"), std::string::npos) << err.message;
  c.synthesis_nice = 10;
  c.backend = "tpu";
  EXPECT_EQ(cuzk_engine_create(&c, &e, &err), CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("not built"), std::string::npos) << err.message;
  c.backend = "cuda";
  c.num_devices = 0;  // every GPU found
  c.device_memory_budget = 0;
  const cuzk_code code = cuzk_engine_create(&c, &e, &err);
#if CUZK_TEST_CUDA_BUILD
  // A GPU makes an engine; without one, the error says so.
  if (code == CUZK_OK) {
    cuzk_engine_destroy(e);
    e = nullptr;
  } else {
    EXPECT_EQ(code, CUZK_ERR_FAILED);
    EXPECT_NE(std::string(err.message).find("cuda:"), std::string::npos) << err.message;
  }
#else
  EXPECT_EQ(code, CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("not built"), std::string::npos) << err.message;
#endif
  c = quiet_config();
  c.num_devices = 0;
  EXPECT_EQ(cuzk_engine_create(&c, &e, &err), CUZK_ERR_INVALID_ARGUMENT);
  c = quiet_config();
  c.journal_path = "/nonexistent-dir/x/journal.db";
  EXPECT_EQ(cuzk_engine_create(&c, &e, &err), CUZK_ERR_FAILED);
  EXPECT_EQ(e, nullptr);
  EXPECT_EQ(cuzk_engine_create(&c, &e, nullptr), CUZK_ERR_FAILED);  // err may be NULL
  cuzk_engine_destroy(nullptr);
}

// The toy circuit synthesized through the engine, submitted back as an already-synthesized
// partition (with c, or with c NULL: left to the prover), proved and pairing-checked.
void prove_toy_synthesis(cuzk_engine* e, bool without_c) {
  const std::string zkey = kToy + "toy.zkey", r1cs = kToy + "toy.r1cs", wtns = kToy + "toy.wtns";
  cuzk_error err;
  cuzk_synthesis* synthesis = nullptr;
  cuzk_partition view{};
  ASSERT_EQ(cuzk_synthesize_circom(e, zkey.c_str(), r1cs.c_str(), wtns.c_str(), &synthesis, &view, &err),
            CUZK_OK)
      << err.message;
  ASSERT_NE(view.c, nullptr);  // the view always carries c, formed when synthesis left it out
  if (without_c) view.c = nullptr;
  cuzk_job_id id = 0;
  ASSERT_EQ(
      cuzk_submit_synthesized(e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, zkey.c_str(), &view, 1, &id, &err),
      CUZK_OK)
      << err.message;
  cuzk_synthesis_free(synthesis);
  cuzk_result* r = nullptr;
  ASSERT_EQ(cuzk_await(e, id, -1, &r, &err), CUZK_OK) << err.message;
  EXPECT_EQ(cuzk_result_state(r), CUZK_STATE_DONE) << cuzk_result_error(r);
  cuzk_result_free(r);
}

// The pool's settings reach the engine: a partition given already synthesized is copied into a
// pooled buffer set, which stays idle after the job by default and is freed with idle_buffer_sets 0.
TEST(CApi, BufferPoolSettings) {
  for (int32_t idle : {-1, 0}) {
    SCOPED_TRACE(idle);
    EngineHandle h;
    cuzk_error err;
    auto c = quiet_config();
    EXPECT_EQ(c.idle_buffer_sets, -1);
    EXPECT_EQ(c.max_partitions_ahead, 0u);
    EXPECT_EQ(c.express_synthesis_workers, 1u);
    EXPECT_EQ(c.shared_bases_fraction, 0.6);
    EXPECT_EQ(c.synthesis_nice, 10u);
    c.idle_buffer_sets = idle;
    c.max_partitions_ahead = 1;
    ASSERT_EQ(cuzk_engine_create(&c, &h.e, &err), CUZK_OK) << err.message;
    prove_toy_synthesis(h.e, false);
    // The set goes back when the device worker drops the partition, just after the job's end.
    std::string status;
    for (int tries = 0; tries < 2000; ++tries) {
      char* json = nullptr;
      ASSERT_EQ(cuzk_status_json(h.e, &json, &err), CUZK_OK);
      status = json;
      cuzk_string_free(json);
      if (status.find(idle == 0 ? "\"idle\":0" : "\"idle\":1") != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_NE(status.find("\"made\":1"), std::string::npos) << status;
    EXPECT_NE(status.find(idle == 0 ? "\"idle\":0" : "\"idle\":1"), std::string::npos) << status;
  }
}

// A partition given without c (c NULL) is proved with c formed as a∘b, and its proof verifies.
TEST(CApi, APartitionWithoutCIsProved) {
  EngineHandle h;
  cuzk_error err;
  auto c = quiet_config();
  ASSERT_EQ(cuzk_engine_create(&c, &h.e, &err), CUZK_OK) << err.message;
  prove_toy_synthesis(h.e, true);
}

TEST(CApi, ProvesAndReportsErrors) {
  EngineHandle h;
  cuzk_error err;
  auto c = quiet_config();
  ASSERT_EQ(cuzk_engine_create(&c, &h.e, &err), CUZK_OK) << err.message;
  const std::string zkey = kToy + "toy.zkey", r1cs = kToy + "toy.r1cs", wtns = kToy + "toy.wtns";
  const char* w = wtns.c_str();
  cuzk_job_id id = 0;
  ASSERT_EQ(cuzk_submit_circom(h.e, CUZK_KIND_WINDOW_POST, CUZK_PRIORITY_DEFAULT, zkey.c_str(), r1cs.c_str(),
                               &w, 1, &id, &err),
            CUZK_OK)
      << err.message;
  cuzk_result* r = nullptr;
  ASSERT_EQ(cuzk_await(h.e, id, -1, &r, &err), CUZK_OK) << err.message;
  EXPECT_EQ(cuzk_result_state(r), CUZK_STATE_DONE) << cuzk_result_error(r);
  EXPECT_EQ(cuzk_result_num_proofs(r), 1u);
  uint8_t proof[CUZK_PROOF_BYTES];
  EXPECT_EQ(cuzk_result_proof(r, 0, proof), CUZK_OK);
  EXPECT_EQ(cuzk_result_proof(r, 1, proof), CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(cuzk_result_num_public_inputs(r, 0), 3u);
  uint8_t input[CUZK_SCALAR_BYTES];
  EXPECT_EQ(cuzk_result_public_input(r, 0, 3, input), CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(cuzk_result_public_input(r, 0, 2, input), CUZK_OK);
  EXPECT_GT(cuzk_result_timings(r).total_ms, 0);
  cuzk_result_free(r);

  // Misuse.
  EXPECT_EQ(cuzk_submit_circom(h.e, cuzk_job_kind(9), CUZK_PRIORITY_DEFAULT, zkey.c_str(), nullptr, &w, 1,
                               &id, &err),
            CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(
      cuzk_submit_circom(h.e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, nullptr, nullptr, &w, 1, &id, &err),
      CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(cuzk_submit_circom(h.e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, zkey.c_str(), nullptr, nullptr,
                               1, &id, &err),
            CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(cuzk_submit_circom(h.e, CUZK_KIND_WINNING_POST, CUZK_PRIORITY_DEFAULT, zkey.c_str(), nullptr,
                               nullptr, 0, &id, &err),
            CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(cuzk_await(h.e, 123456789, 0, &r, &err), CUZK_ERR_NOT_FOUND);
  EXPECT_EQ(cuzk_cancel(h.e, 123456789, &err), CUZK_ERR_NOT_FOUND);
  EXPECT_EQ(cuzk_evict_params(h.e, "never-loaded", &err), CUZK_ERR_FAILED);
  EXPECT_EQ(cuzk_preload_params(h.e, "/no/such.params", &err), CUZK_ERR_FAILED);

  // A raw partition with a scalar above the modulus.
  std::vector<uint8_t> bad(CUZK_SCALAR_BYTES, 0xff), one(CUZK_SCALAR_BYTES, 0);
  one[0] = 1;
  cuzk_partition p{};
  p.a = bad.data();
  p.b = bad.data();
  p.c = bad.data();
  p.num_constraints = 1;
  p.inputs = one.data();
  p.num_inputs = 1;
  EXPECT_EQ(
      cuzk_submit_synthesized(h.e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, zkey.c_str(), &p, 1, &id, &err),
      CUZK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("modulus"), std::string::npos) << err.message;

  // Large vectors are decoded on several threads: the error still names the first bad scalar.
  {
    const size_t n = (size_t(1) << 18) + 3;
    std::vector<uint8_t> many(n * CUZK_SCALAR_BYTES, 0);
    for (size_t i = 0; i < n; ++i) many[i * CUZK_SCALAR_BYTES] = uint8_t(i);
    for (size_t i : {size_t(200000), size_t(70001)})
      std::fill_n(many.begin() + i * CUZK_SCALAR_BYTES, 32, 0xff);
    cuzk_partition big{};
    big.a = big.b = big.c = many.data();
    big.num_constraints = n;
    big.inputs = one.data();
    big.num_inputs = 1;
    EXPECT_EQ(cuzk_submit_synthesized(h.e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, zkey.c_str(), &big, 1,
                                      &id, &err),
              CUZK_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(err.message).find("a[70001] is not below"), std::string::npos) << err.message;
  }

  // A raw partition that does not fit the key fails at synthesis with a clear error.
  p.a = one.data();
  p.b = one.data();
  p.c = one.data();
  ASSERT_EQ(
      cuzk_submit_synthesized(h.e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, zkey.c_str(), &p, 1, &id, &err),
      CUZK_OK);
  ASSERT_EQ(cuzk_await(h.e, id, -1, &r, &err), CUZK_OK);
  EXPECT_EQ(cuzk_result_state(r), CUZK_STATE_FAILED);
  EXPECT_NE(std::string(cuzk_result_error(r)).find("does not fit"), std::string::npos)
      << cuzk_result_error(r);
  cuzk_result_free(r);

  char* status = nullptr;
  ASSERT_EQ(cuzk_status_json(h.e, &status, &err), CUZK_OK);
  EXPECT_NE(std::string(status).find("\"jobs\""), std::string::npos);
  EXPECT_NE(std::string(status).find("\"partition_buffers\""), std::string::npos);
  EXPECT_NE(std::string(status).find("\"express_workers\":1"), std::string::npos) << status;
  cuzk_string_free(status);
}

}  // namespace
