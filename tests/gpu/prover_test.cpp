// The Groth16 prover on the CUDA backend: the same proof as the CPU backend, bit for bit, for the
// same key, assignment and (r, s); under tight memory budgets (one-vector H plan, streamed MSMs);
// and a budget too small for any plan is a clear error, not a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <thread>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/msm/msm.hpp"
#include "backend/cuda/runtime/device_bases.hpp"
#include "backend/cuda/spmv/device_circuit.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/proof.hpp"
#include "io/snarkjs_wtns.hpp"
#include "io/snarkjs_zkey.hpp"
#include "io/zkey_assignment.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/compiled/compiler.hpp"
#include "r1cs/compiled/evaluate.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"
#include "tests/gpu/gpu_test_util.hpp"
#include "tests/gpu/prover_test_util.hpp"

namespace cuzk {
namespace {

using provertest::compiled_witness;
using provertest::CudaProver;
using provertest::expect_compiled_proof;
using provertest::expect_same_proof;
using provertest::expect_same_proof_as_with_c;
using provertest::Keyed;
using provertest::make_keyed;
using provertest::sample_keyed;

TEST_F(CudaProver, SameProofAsCpuForEverySampleCircuit) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  auto gpu = backend();
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  std::vector<r1cs::SampleSpec> specs(5);
  specs[0].kind = "merkle", specs[0].merkle_depth = 4;
  specs[1].kind = "merkle", specs[1].merkle_depth = 16;
  specs[2].kind = "sha256", specs[2].message_bytes = 32;
  specs[3].kind = "synthetic", specs[3].log_domain = 10;
  specs[4].kind = "synthetic", specs[4].log_domain = 14;
  for (auto& spec : specs) {
    SCOPED_TRACE(spec.describe());
    spec.seed = rng_();
    Keyed k = make_keyed(spec, rng_());
    auto as = r1cs::synthesize_for_proving(*k.circuit);
    ASSERT_TRUE(as.ok());
    expect_same_proof(k.pk, k.pvk, *as, **gpu, rng_());
    // A second proof reuses the resident bases.
    expect_same_proof(k.pk, k.pvk, *as, **gpu, rng_());
  }
  // With every base resident, the scalar vectors shared by several MSMs crossed PCIe once.
  const auto log = (*gpu)->plan_log();
  EXPECT_TRUE(std::any_of(log.begin(), log.end(), [](const auto& p) { return p.stage == "msm scalars"; }));
}

// With every base resident the device says it is done with a, b, c and aux once their copies
// have landed, while its MSMs still run: a caller that takes the vectors then and overwrites them
// (the engine's next synthesis) still gets the CPU's proof. Also through the lean H plan, where h
// comes back to host memory as the H query's scalars.
TEST_F(CudaProver, InputsConsumedComesOnceTheDeviceHasItsCopies) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = synthetic(16);
  auto as = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(as.ok());
  // 24 MiB forces the one-vector H plan and streamed MSMs (TightBudgetsPickLeanPlansAndStillAgree).
  for (size_t budget : {size_t(0), size_t(24) << 20}) {
    SCOPED_TRACE(budget);
    auto gpu = backend(budget);
    ASSERT_TRUE(gpu.ok()) << gpu.message();
    for (int proof = 0; proof < 2; ++proof) {
      const auto rs = groth16::ProofRandomness::from_seed(rng_());
      auto cpu_as = *as, gpu_as = *as;
      auto want = groth16::create_proof(k.pk, cpu_as, rs);
      ASSERT_TRUE(want.ok()) << want.message();
      int calls = 0;
      std::vector<std::vector<Fr>> taken;
      groth16::ProveOptions options;
      options.inputs_consumed = [&] {
        ++calls;
        for (auto* v : {&gpu_as.a, &gpu_as.b, &gpu_as.c, &gpu_as.aux_assignment}) {
          taken.push_back(std::move(*v));
          std::fill(taken.back().begin(), taken.back().end(), Fr::from_u64(0xbad));
        }
      };
      auto got = groth16::create_proof(k.pk, gpu_as, rs, **gpu, options);
      ASSERT_TRUE(got.ok()) << got.message();
      EXPECT_EQ(calls, 1);
      EXPECT_EQ(proof_to_bytes(*got), proof_to_bytes(*want));
    }
  }
}

TEST_F(CudaProver, SameProofAsCpuFromASnarkjsZkey) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  auto zkey = read_zkey(std::string(CUZK_TEST_DATA_DIR) + "/snarkjs/toy.zkey");
  ASSERT_TRUE(zkey.ok()) << zkey.message();
  auto wtns = read_wtns(std::string(CUZK_TEST_DATA_DIR) + "/snarkjs/toy.wtns");
  ASSERT_TRUE(wtns.ok()) << wtns.message();
  auto as = assignment_from_zkey(*zkey, wtns->values);
  ASSERT_TRUE(as.ok()) << as.message();
  auto pk = proving_key_from_zkey(*zkey);
  ASSERT_TRUE(pk.ok()) << pk.message();
  auto pvk = groth16::prepare_verifying_key(pk->vk);
  ASSERT_TRUE(pvk.ok());
  auto gpu = backend();
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  // A zkey has no C: c is left to the prover (formed on the device), as snarkjs's prover forms it.
  ASSERT_TRUE(as->c_from_ab);
  expect_same_proof(*pk, *pvk, *as, **gpu, rng_());
  // And the proof is the CPU's from c written out.
  auto with_c = *as;
  std::vector<Fr> scratch;
  with_c.c = r1cs::c_values(*as, scratch);
  with_c.c_from_ab = false;
  expect_same_proof_as_with_c(*pk, with_c, *as, **gpu, rng_());
}

TEST_F(CudaProver, TightBudgetsPickLeanPlansAndStillAgree) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = synthetic(16);
  auto as = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(as.ok());
  // 3 vectors of 2^16 are 6 MiB; twiddles 1 MiB. These budgets force the one-vector plan and
  // streamed MSMs in chunks.
  for (size_t budget : {size_t(64) << 20, size_t(24) << 20}) {
    SCOPED_TRACE(budget);
    auto gpu = backend(budget);
    ASSERT_TRUE(gpu.ok()) << gpu.message();
    expect_same_proof(k.pk, k.pvk, *as, **gpu, rng_());
    EXPECT_LE((*gpu)->peak_planned_bytes(), budget);
    for (const auto& p : (*gpu)->plan_log())
      std::printf("  budget %zu MiB: %s: %s, %zu bytes\n", budget >> 20, p.stage.c_str(), p.choice.c_str(),
                  p.bytes);
  }
}

// Nothing may stay resident: every MSM streams its bases, the input parts of a few points (fewer
// than a chunk's floor of 1024) included.
TEST_F(CudaProver, EveryMsmStreamedWhenNoneMayBeResident) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  cuda::CudaBackendOptions o;
  o.device = gputest::test_device();
  o.vram_budget = size_t(256) << 20;
  o.resident_fraction = 0;
  auto gpu = cuda::CudaBackend::create(o);
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  for (unsigned log_domain : {10u, 14u}) {
    SCOPED_TRACE(log_domain);
    Keyed k = synthetic(log_domain);
    auto as = r1cs::synthesize_for_proving(*k.circuit);
    ASSERT_TRUE(as.ok());
    expect_same_proof(k.pk, k.pvk, *as, **gpu, rng_());
    bool streamed = false;
    for (const auto& p : (*gpu)->plan_log()) {
      if (p.stage.rfind("msm ", 0) != 0 || p.stage == "msm scalars") continue;
      EXPECT_EQ(p.choice.find("resident"), std::string::npos) << p.stage << ": " << p.choice;
      streamed = streamed || p.choice.find("streamed") != std::string::npos;
    }
    EXPECT_TRUE(streamed);
  }
}

TEST_F(CudaProver, BudgetTooSmallIsAClearError) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = synthetic(12);
  auto as = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(as.ok());
  auto gpu = backend(size_t(64) << 10);  // 64 KiB
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  auto copy = *as;
  auto proof = groth16::create_proof(k.pk, copy, groth16::ProofRandomness::fresh(), **gpu);
  ASSERT_FALSE(proof.ok());
  EXPECT_NE(proof.message().find("budget"), std::string::npos) << proof.message();
  // The device is left clean: a normal backend proves right after.
  auto fine = backend();
  ASSERT_TRUE(fine.ok());
  expect_same_proof(k.pk, k.pvk, *as, **fine, rng_());
}

TEST_F(CudaProver, ANewKeyAtTheAddressOfAnOldOneIsNotMistakenForIt) {
  // Resident bases are found by address; a freed key's memory is soon reused by the next key. Here
  // a second key of the same shape is copied into the first one's vectors, so every address and
  // count matches the resident contexts: the proof must still be the new key's.
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed first = synthetic(12);
  Keyed second = make_keyed(first.spec, rng_());  // the same circuit, another key
  auto as = r1cs::synthesize_for_proving(*first.circuit);
  ASSERT_TRUE(as.ok());
  auto gpu = backend();
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  expect_same_proof(first.pk, first.pvk, *as, **gpu, rng_());
  const auto overwrite = [](auto& into, const auto& from) {
    ASSERT_EQ(into.size(), from.size());
    std::copy(from.begin(), from.end(), into.begin());
  };
  overwrite(first.pk.h, second.pk.h);
  overwrite(first.pk.l, second.pk.l);
  overwrite(first.pk.a, second.pk.a);
  overwrite(first.pk.b_g1, second.pk.b_g1);
  overwrite(first.pk.b_g2, second.pk.b_g2);
  first.pk.vk = second.pk.vk;
  expect_same_proof(first.pk, second.pvk, *as, **gpu, rng_());
}

// Two workers of the test device (1 GiB each) sharing `store`; empty if one cannot be made.
std::vector<std::unique_ptr<cuda::CudaBackend>> shared_workers(
    const std::shared_ptr<cuda::DeviceBases>& store) {
  std::vector<std::unique_ptr<cuda::CudaBackend>> workers;
  for (int w = 0; w < 2; ++w) {
    cuda::CudaBackendOptions o;
    o.device = gputest::test_device();
    o.vram_budget = size_t(1) << 30;
    o.shared_bases = store;
    auto b = cuda::CudaBackend::create(o);
    EXPECT_TRUE(b.ok()) << b.message();
    if (!b) return {};
    workers.push_back(std::move(*b));
  }
  return workers;
}

// Bytes of a key's base arrays (what a store holds for it).
size_t bases_of(const groth16::ProvingKey& pk) {
  return (pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size()) * sizeof(G1Affine) +
         pk.b_g2.size() * sizeof(G2Affine);
}

// Two workers of one device sharing a DeviceBases store: both prove at the same time, bit for bit
// as the CPU, from one device copy of each base array; and a store too small for the bases makes
// the workers stream what does not fit, not fail.
TEST_F(CudaProver, WorkersOfADeviceShareOneCopyOfTheBases) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = synthetic(13);
  auto as = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(as.ok());
  const size_t key_bases = bases_of(k.pk);
  for (const size_t capacity : {size_t(1) << 30, key_bases / 3}) {
    SCOPED_TRACE(capacity);
    auto store = std::make_shared<cuda::DeviceBases>(gputest::test_device(), capacity);
    auto workers = shared_workers(store);
    ASSERT_EQ(workers.size(), 2u);
    const uint64_t s0 = rng_(), s1 = rng_();
    std::thread other([&] { expect_same_proof(k.pk, k.pvk, *as, *workers[1], s1); });
    expect_same_proof(k.pk, k.pvk, *as, *workers[0], s0);
    other.join();
    expect_same_proof(k.pk, k.pvk, *as, *workers[1], rng_());
    EXPECT_LE(store->bytes(), capacity);
    if (capacity >= key_bases) {
      EXPECT_EQ(store->bytes(), key_bases);  // one copy, for both workers
      EXPECT_EQ(store->uploads(), store->arrays());
      // A worker of its own holds the same work area and the bases too (tables of density-form
      // contexts sized by their bases, not their scalars).
      auto own = backend(size_t(1) << 30);
      ASSERT_TRUE(own.ok()) << own.message();
      expect_same_proof(k.pk, k.pvk, *as, **own, rng_());
      for (auto& w : workers) EXPECT_EQ((*own)->resident_bytes() - w->resident_bytes(), key_bases);
    }
  }
  // A store given to a backend of another device, or with precomputation, is refused.
  cuda::CudaBackendOptions bad;
  bad.device = gputest::test_device();
  bad.shared_bases = std::make_shared<cuda::DeviceBases>(gputest::test_device() + 1, size_t(1) << 20);
  EXPECT_FALSE(cuda::CudaBackend::create(bad).ok());
  bad.shared_bases = std::make_shared<cuda::DeviceBases>(gputest::test_device(), size_t(1) << 20);
  bad.precompute = 2;
  EXPECT_FALSE(cuda::CudaBackend::create(bad).ok());
}

// A store with room for one key at a time: when the workers move to a second key, the first key's bases
// (which no call holds any more) make room for it; when they come back, the contexts they kept are
// rebound to the new upload. Every proof still equal to the CPU's.
TEST_F(CudaProver, SharedBasesOfAnIdleKeyGiveWayToTheNextKey) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k1 = synthetic(12), k2 = synthetic(12);
  auto as1 = r1cs::synthesize_for_proving(*k1.circuit);
  auto as2 = r1cs::synthesize_for_proving(*k2.circuit);
  ASSERT_TRUE(as1.ok() && as2.ok());
  // Room for the larger key alone (two random circuits of one size differ in their densities).
  const size_t room = std::max(bases_of(k1.pk), bases_of(k2.pk));
  ASSERT_LT(room, bases_of(k1.pk) + bases_of(k2.pk));
  auto store = std::make_shared<cuda::DeviceBases>(gputest::test_device(), room);
  auto workers = shared_workers(store);
  ASSERT_EQ(workers.size(), 2u);
  size_t uploads = 0;
  for (const Keyed* k : {&k1, &k2, &k1}) {
    const r1cs::Assignment& as = k == &k2 ? *as2 : *as1;
    for (auto& w : workers) expect_same_proof(k->pk, k->pvk, as, *w, rng_());
    EXPECT_EQ(store->bytes(), bases_of(k->pk));  // this key's bases alone, uploaded once
    EXPECT_EQ(store->uploads(), uploads + store->arrays());
    uploads = store->uploads();
  }
}

// Two workers of one device proving from a compiled circuit (witness-only assignments) share one
// device copy of its matrices in the store, as they share the bases: both prove at the same time,
// bit for bit as the CPU from full synthesis; the store holds the key's bases and the matrices
// once, each uploaded once, and neither worker keeps a copy of its own. A store without room for
// the matrices beside the bases leaves each worker its own copy, and the proofs are the same.
TEST_F(CudaProver, WorkersOfADeviceShareOneCopyOfTheCompiledCircuit) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = sample_keyed("sha256", 13, rng_);
  auto full = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(full.ok()) << full.message();
  auto cc = r1cs::compile(*k.circuit, {.keep_c = false});
  ASSERT_TRUE(cc.ok()) << cc.message();
  const auto compiled = std::make_shared<const r1cs::CompiledCircuit>(std::move(*cc));
  const size_t matrices =
      cuda::DeviceCompiledCircuit::bytes_for(r1cs::compiled_rows(*compiled, {}, {}).matrices);
  const size_t key_bases = bases_of(k.pk);
  const auto prove = [&](cuda::CudaBackend& gpu, uint64_t seed) {
    expect_compiled_proof(k, *full, compiled_witness(k, compiled), gpu, seed);
  };
  for (const size_t capacity : {key_bases + matrices, matrices - 1}) {
    SCOPED_TRACE(capacity);
    auto store = std::make_shared<cuda::DeviceBases>(gputest::test_device(), capacity);
    auto workers = shared_workers(store);
    ASSERT_EQ(workers.size(), 2u);
    const uint64_t s0 = rng_(), s1 = rng_();
    std::thread other([&] { prove(*workers[1], s1); });
    prove(*workers[0], s0);
    other.join();
    for (auto& w : workers) prove(*w, rng_());  // found in the store (or in the worker's own copy)
    EXPECT_LE(store->bytes(), capacity);
    if (capacity == key_bases + matrices) {
      EXPECT_EQ(store->bytes(), key_bases + matrices);  // one copy of each, for both workers
      EXPECT_EQ(store->uploads(), store->arrays());
    }
    for (auto& w : workers) EXPECT_EQ(w->compiled_bytes(), capacity < matrices ? matrices : 0);
  }
  // Room for the bases alone: the matrices, uploaded to the store while it was empty, give way to
  // the bases and never push them out again; each worker then keeps its own copy, and no later
  // proof uploads anything to the store (the two do not take turns).
  auto store = std::make_shared<cuda::DeviceBases>(gputest::test_device(), key_bases);
  auto workers = shared_workers(store);
  ASSERT_EQ(workers.size(), 2u);
  for (int round = 0; round < 2; ++round)
    for (auto& w : workers) prove(*w, rng_());
  const size_t uploads = store->uploads();
  for (auto& w : workers) prove(*w, rng_());
  EXPECT_EQ(store->uploads(), uploads);
  EXPECT_EQ(store->bytes(), key_bases);
  for (auto& w : workers) EXPECT_EQ(w->compiled_bytes(), matrices);
}

TEST_F(CudaProver, PlansA2To27DomainUnder8GiB) {
  CUZK_REQUIRE_GPU();
  auto gpu = backend(size_t(8) << 30);
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  auto plan = (*gpu)->plan_h(27);
  ASSERT_TRUE(plan.ok()) << plan.message();
  EXPECT_LE(plan->bytes, size_t(8) << 30);
  std::printf("  2^27 H under 8 GiB: %s, %zu MiB\n", plan->choice.c_str(), plan->bytes >> 20);
}

}  // namespace
}  // namespace cuzk
