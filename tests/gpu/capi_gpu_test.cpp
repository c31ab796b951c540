// libcuzk with backend "cuda": an engine on the GPU under test proves a circom job (toy snarkjs
// fixtures) through the C ABI, the proof pairing-checked by the engine. Skips without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "cuzk.h"
#include "tests/gpu/gpu_test_util.hpp"

namespace {

const std::string kToy = std::string(CUZK_TEST_DATA) + "/snarkjs/";

TEST(GpuCApi, ProvesOnTheGpu) {
  CUZK_REQUIRE_GPU();
  if (cuzk::gputest::test_device() != 0) GTEST_SKIP() << "the C ABI numbers GPUs from 0";
  cuzk_engine_config c;
  cuzk_engine_config_init(&c);
  c.backend = "cuda";
  c.num_devices = 1;
  c.workers_per_device = 2;
  c.device_memory_budget = uint64_t(4) << 30;
  c.log_level = "off";
  cuzk_error err;
  cuzk_engine* e = nullptr;
  ASSERT_EQ(cuzk_engine_create(&c, &e, &err), CUZK_OK) << err.message;
  const std::string zkey = kToy + "toy.zkey", r1cs = kToy + "toy.r1cs", wtns = kToy + "toy.wtns";
  const char* w[] = {wtns.c_str(), wtns.c_str(), wtns.c_str()};
  cuzk_job_id id = 0;
  ASSERT_EQ(cuzk_submit_circom(e, CUZK_KIND_GENERIC, CUZK_PRIORITY_DEFAULT, zkey.c_str(), r1cs.c_str(), w, 3,
                               &id, &err),
            CUZK_OK)
      << err.message;
  cuzk_result* r = nullptr;
  ASSERT_EQ(cuzk_await(e, id, 120000, &r, &err), CUZK_OK) << err.message;
  EXPECT_EQ(cuzk_result_state(r), CUZK_STATE_DONE) << cuzk_result_error(r);
  EXPECT_EQ(cuzk_result_num_proofs(r), 3u);
  cuzk_result_free(r);
  cuzk_engine_destroy(e);
}

}  // namespace
