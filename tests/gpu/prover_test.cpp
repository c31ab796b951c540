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

namespace cuzk {
namespace {

struct Keyed {
  r1cs::SampleSpec spec;
  groth16::ProvingKey pk;
  groth16::PreparedVerifyingKey pvk;
  std::unique_ptr<r1cs::Circuit> circuit;
};

Keyed make_keyed(const r1cs::SampleSpec& spec, uint64_t seed) {
  auto circuit = r1cs::make_sample_circuit(spec);
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  r1cs::RecordingSystem shape(false);
  EXPECT_TRUE((*circuit)->synthesize(shape).ok());
  auto pk = groth16::generate_parameters(shape.matrices(), {seed});
  EXPECT_TRUE(pk.ok()) << pk.message();
  auto pvk = groth16::prepare_verifying_key(pk->vk);
  EXPECT_TRUE(pvk.ok());
  return {spec, std::move(*pk), std::move(*pvk), std::move(*circuit)};
}

// Proves on the CPU and on `gpu` with the same randomness; both must be identical and verify.
void expect_same_proof(const groth16::ProvingKey& pk, const groth16::PreparedVerifyingKey& pvk,
                       const r1cs::Assignment& as, cuda::CudaBackend& gpu, uint64_t rs_seed) {
  const std::vector<Fr> inputs(as.input_assignment.begin() + 1, as.input_assignment.end());
  auto as_cpu = as, as_gpu = as;
  const auto rs = groth16::ProofRandomness::from_seed(rs_seed);
  auto cpu = groth16::create_proof(pk, as_cpu, rs);
  ASSERT_TRUE(cpu.ok()) << cpu.message();
  auto dev = groth16::create_proof(pk, as_gpu, rs, gpu);
  ASSERT_TRUE(dev.ok()) << dev.message();
  EXPECT_EQ(proof_to_bytes(*cpu), proof_to_bytes(*dev));
  auto ok = groth16::verify_proof(pvk, *dev, inputs);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(*ok);
}

// The whole device, then budgets from 8 MiB down to 1 MiB: at 2^14 they reach every H plan.
std::vector<size_t> budgets_down_to_a_few_mib() {
  std::vector<size_t> budgets{0};
  for (size_t kib = 8192; kib >= 1024; kib -= 128) budgets.push_back(kib << 10);
  return budgets;
}

// The H plans `gpu` has chosen, by kind: "one vector", or the choice up to its first ';'.
void add_h_plans(const cuda::CudaBackend& gpu, std::set<std::string>& plans) {
  for (const auto& p : gpu.plan_log())
    if (p.stage.starts_with("h "))
      plans.insert(p.choice.starts_with("one vector") ? "one vector"
                                                      : p.choice.substr(0, p.choice.find(';')));
}

// `left_out` (c left to the prover) proved on `gpu` gives the CPU's proof of `with_c`, bit for bit.
void expect_same_proof_as_with_c(const groth16::ProvingKey& pk, const r1cs::Assignment& with_c,
                                 const r1cs::Assignment& left_out, cuda::CudaBackend& gpu, uint64_t rs_seed) {
  ASSERT_TRUE(left_out.c_from_ab && !with_c.c_from_ab);
  const auto rs = groth16::ProofRandomness::from_seed(rs_seed);
  auto cpu_as = with_c, gpu_as = left_out;
  auto want = groth16::create_proof(pk, cpu_as, rs);
  ASSERT_TRUE(want.ok()) << want.message();
  auto got = groth16::create_proof(pk, gpu_as, rs, gpu);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_EQ(proof_to_bytes(*got), proof_to_bytes(*want));
}

class CudaProver : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = gputest::test_seed();
    rng_.seed(seed_);
  }
  Result<std::unique_ptr<cuda::CudaBackend>> backend(size_t budget = 0) {
    cuda::CudaBackendOptions o;
    o.device = gputest::test_device();
    o.vram_budget = budget;
    return cuda::CudaBackend::create(o);
  }
  // A synthetic circuit of 2^log_domain constraints (fresh seed) with a key from a fresh setup.
  Keyed synthetic(unsigned log_domain) {
    r1cs::SampleSpec spec;
    spec.kind = "synthetic";
    spec.log_domain = log_domain;
    spec.seed = rng_();
    return make_keyed(spec, rng_());
  }
  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

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

// A keyed sample circuit of `kind` (message_bytes 200) over 2^log_domain rows.
Keyed sample_keyed(const char* kind, unsigned log_domain, std::mt19937_64& rng) {
  r1cs::SampleSpec spec;
  spec.kind = kind;
  spec.message_bytes = 200;
  spec.log_domain = log_domain;
  spec.seed = rng();
  return make_keyed(spec, rng());
}

// A witness-only assignment of k's circuit attached to `compiled` (a, b, c stand for its rows).
r1cs::Assignment compiled_witness(const Keyed& k,
                                  const std::shared_ptr<const r1cs::CompiledCircuit>& compiled) {
  r1cs::ProvingAssignment wo = r1cs::ProvingAssignment::witness_only();
  EXPECT_TRUE(k.circuit->synthesize(wo).ok());
  r1cs::Assignment as = wo.finish().value();
  EXPECT_TRUE(r1cs::attach_compiled(as, compiled).ok());
  return as;
}

// A proof of `compiled_as` (witness-only, attached) on `gpu` is the CPU's from `full`, bit for bit.
void expect_compiled_proof(const Keyed& k, const r1cs::Assignment& full, r1cs::Assignment compiled_as,
                           ComputeBackend& gpu, uint64_t seed) {
  const auto rs = groth16::ProofRandomness::from_seed(seed);
  auto want_as = full;
  auto want = groth16::create_proof(k.pk, want_as, rs);
  ASSERT_TRUE(want.ok()) << want.message();
  auto got = groth16::create_proof(k.pk, compiled_as, rs, gpu);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_EQ(proof_to_bytes(*want), proof_to_bytes(*got));
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

TEST_F(CudaProver, AnUnsatisfiedWitnessIsNamedAndTheDeviceProvesAfter) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = synthetic(14);
  auto as = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(as.ok());
  const size_t row = rng_() % as->c.size();
  auto bad = *as;
  bad.c[row] = bad.c[row] + Fr::one();
  // Every H plan checks the rows its own way (beside the transforms, before them, on the host);
  // budgets from the whole device down to a few MiB reach all three.
  std::set<std::string> plans;
  for (size_t budget : budgets_down_to_a_few_mib()) {
    SCOPED_TRACE(budget);
    auto gpu = backend(budget);
    ASSERT_TRUE(gpu.ok()) << gpu.message();
    auto copy = bad;
    auto proof = groth16::create_proof(k.pk, copy, groth16::ProofRandomness::fresh(), **gpu);
    ASSERT_FALSE(proof.ok());
    if (proof.message().find("budget") != std::string::npos) continue;  // too small for any plan
    EXPECT_NE(proof.message().find("constraint " + std::to_string(row) + " "), std::string::npos)
        << proof.message();
    EXPECT_TRUE(proof.error().bad_input) << proof.message();
    // The prover pads a to the domain; what the caller gave is left as it was.
    ASSERT_GE(copy.a.size(), bad.a.size());
    EXPECT_TRUE(std::equal(bad.a.begin(), bad.a.end(), copy.a.begin())) << "a bad witness changed a";
    add_h_plans(**gpu, plans);
    if (budget == 0) expect_same_proof(k.pk, k.pvk, *as, **gpu, rng_());  // the device proves after
  }
  for (const auto& p : plans) std::printf("  row check under the H plan: %s\n", p.c_str());
  EXPECT_EQ(plans.size(), 4u);  // checked beside, resident, pair and one vector (on the host)
}

// H straight from the backend, in both modes (bellman's division by Z on the coset, snarkjs's odd
// coset), with c given and c standing for a∘b, from random vectors (not a satisfied witness), under
// budgets that reach every plan: the CPU's H, element for element.
TEST_F(CudaProver, EveryHPlanGivesTheCpusHInBothModes) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  constexpr unsigned log_n = 14;
  const size_t n = size_t(1) << log_n;
  const auto random = [&] {
    std::vector<Fr> v(n);
    for (auto& x : v) x = gputest::random_field<Fr>(rng_);
    return v;
  };
  for (const auto& [mode, conv] : {std::pair{HMode::divide_by_z_on_coset, RootConvention::bellman},
                                   std::pair{HMode::odd_coset, RootConvention::snarkjs}}) {
    for (const bool c_from_ab : {false, true}) {
      SCOPED_TRACE(std::string(conv == RootConvention::bellman ? "bellman" : "snarkjs") +
                   (c_from_ab ? ", c = a∘b" : ", c given"));
      const std::vector<Fr> a = random(), b = random(), c = c_from_ab ? std::vector<Fr>{} : random();
      const auto request = [&](std::vector<Fr>& va, std::vector<Fr>& vb, std::vector<Fr>& vc) {
        HRequest rq;
        rq.a = va;
        rq.b = vb;
        rq.c = vc;
        rq.c_from_ab = c_from_ab;
        rq.log_n = log_n;
        rq.convention = conv;
        rq.mode = mode;
        return rq;
      };
      std::vector<Fr> wa = a, wb = b, wc = c;
      cpu::CpuBackend host;
      ASSERT_TRUE(host.compute_h(request(wa, wb, wc)).ok());
      std::set<std::string> plans;
      for (size_t budget : budgets_down_to_a_few_mib()) {
        SCOPED_TRACE(budget);
        auto gpu = backend(budget);
        ASSERT_TRUE(gpu.ok()) << gpu.message();
        std::vector<Fr> ga = a, gb = b, gc = c;
        const Status h = (*gpu)->compute_h(request(ga, gb, gc));
        if (!h.ok() && h.message().find("budget") != std::string::npos) continue;  // too small for any plan
        ASSERT_TRUE(h.ok()) << h.message();
        EXPECT_EQ(ga, wa);
        add_h_plans(**gpu, plans);
      }
      for (const auto& p : plans) std::printf("  H under the plan: %s\n", p.c_str());
      EXPECT_TRUE(plans.count("a, b, c resident"));
      EXPECT_TRUE(plans.count("a, b resident, c's transform through the host"));
      EXPECT_TRUE(plans.count("one vector"));
    }
  }
}

// c left to the prover (r1cs::Assignment::c_from_ab) under every H plan: three vectors or two on
// the device, where c is formed from a and b by the first transform's tap, and one vector, where
// the host forms it. H is the CPU's
// from the assignment with c under budgets from the whole device down to a few MiB, and so is the
// proof, bit for bit. (SameProofAsCpuFromASnarkjsZkey covers the other H mode.)
TEST_F(CudaProver, CLeftToTheProverGivesTheSameProofUnderEveryHPlan) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = synthetic(14);
  const Result<r1cs::Assignment> as = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  r1cs::Assignment left_out = *as;
  left_out.c.clear();
  left_out.c_from_ab = true;
  cpu::CpuBackend host;
  auto h_want = *as;
  ASSERT_TRUE(groth16::compute_h_in_place(k.pk, h_want, host).ok());
  std::set<std::string> plans;
  for (size_t budget : budgets_down_to_a_few_mib()) {
    SCOPED_TRACE(budget);
    auto gpu = backend(budget);
    ASSERT_TRUE(gpu.ok()) << gpu.message();
    auto copy = left_out;
    const Status h = groth16::compute_h_in_place(k.pk, copy, **gpu);
    if (!h.ok() && h.message().find("budget") != std::string::npos) continue;  // too small for any plan
    ASSERT_TRUE(h.ok()) << h.message();
    EXPECT_EQ(copy.a, h_want.a);
    add_h_plans(**gpu, plans);
  }
  for (const auto& p : plans) std::printf("  c formed under the H plan: %s\n", p.c_str());
  EXPECT_TRUE(plans.count("a, b, c resident"));
  EXPECT_TRUE(plans.count("a, b resident, c's transform through the host"));
  EXPECT_TRUE(plans.count("one vector"));

  auto gpu = backend();
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  expect_same_proof_as_with_c(k.pk, *as, left_out, **gpu, rng_());
}

// A witness-only assignment attached to its compiled circuit (with C and without): the device
// forms a, b, c from the witness (matrices resident, or streamed under tight budgets; into the
// stage's vectors, a into the pair plan's first vector and the others through it to the host, or
// a side at a time through one vector to the host; or on the host where not even that fits) and
// the proof is the CPU's from full synthesis, bit for bit;
// h is the same under every plan.
TEST_F(CudaProver, CompiledRowsGiveTheSameProofUnderEveryPlan) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  for (const char* kind : {"sha256", "synthetic"}) {
    SCOPED_TRACE(kind);
    Keyed k = sample_keyed(kind, 14, rng_);
    auto full = r1cs::synthesize_for_proving(*k.circuit);
    ASSERT_TRUE(full.ok()) << full.message();
    cpu::CpuBackend host;
    auto h_want = *full;
    ASSERT_TRUE(groth16::compute_h_in_place(k.pk, h_want, host).ok());
    for (const bool keep_c : {true, false}) {
      SCOPED_TRACE(keep_c ? "with C" : "without C");
      auto cc = r1cs::compile(*k.circuit, {.keep_c = keep_c});
      ASSERT_TRUE(cc.ok()) << cc.message();
      const auto compiled = std::make_shared<const r1cs::CompiledCircuit>(std::move(*cc));
      const auto witness = [&] { return compiled_witness(k, compiled); };
      std::set<std::string> plans;
      // The sha256 sample's witness and matrices are larger than the synthetic one's: budgets
      // above a few MiB too, so that both reach every plan.
      std::vector<size_t> budgets = budgets_down_to_a_few_mib();
      for (size_t mib = 64; mib > 8; mib -= 2) budgets.push_back(mib << 20);
      for (size_t budget : budgets) {
        SCOPED_TRACE(budget);
        auto gpu = backend(budget);
        ASSERT_TRUE(gpu.ok()) << gpu.message();
        r1cs::Assignment as = witness();
        const Status h = groth16::compute_h_in_place(k.pk, as, **gpu);
        if (!h.ok() && h.message().find("budget") != std::string::npos) continue;
        ASSERT_TRUE(h.ok()) << h.message();
        EXPECT_EQ(as.a, h_want.a);
        for (const auto& p : (*gpu)->plan_log())
          if (p.stage.starts_with("h ")) plans.insert(p.choice.substr(p.choice.rfind(';') + 1));
      }
      for (const auto& p : plans) std::printf("  compiled rows under the plan:%s\n", p.c_str());
      // Budgets with room for one vector beside the witness take the device's product a side at a
      // time to the host (then the lean plan), not the host's product.
      EXPECT_TRUE(plans.count(" each side through one vector to the host"));
      // Room for two vectors, and the witness beside one, keeps a on the device (the pair plan).
      EXPECT_TRUE(plans.count(keep_c ? " a formed in the first vector, b, c through it to the host"
                                     : " a formed in the first vector, b through it to the host"));
      auto gpu = backend();
      ASSERT_TRUE(gpu.ok()) << gpu.message();
      for (int round = 0; round < 2; ++round)  // the second proof finds the matrices resident
        expect_compiled_proof(k, *full, witness(), **gpu, rng_());
    }
  }
}

TEST_F(CudaProver, TheHStageBorrowsTheIdleMsmWorkArea) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  Keyed k = synthetic(14);
  auto as = r1cs::synthesize_for_proving(*k.circuit);
  ASSERT_TRUE(as.ok());
  auto gpu = backend();
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  // The first proof makes the resident MSM contexts and their work area; H of the next proofs puts
  // its vectors there. Every proof still matches the CPU's. From the second on, every buffer a
  // stage takes (twiddles, coset powers, kept h, the row check's verdict, the MSMs' scalars) is a
  // block the last proof gave back: nothing is allocated or freed (cudaFree would wait for the
  // whole device).
  std::vector<cuda::DeviceCacheStats> after;
  std::vector<size_t> log_size;
  for (int proof = 0; proof < 3; ++proof) {
    expect_same_proof(k.pk, k.pvk, *as, **gpu, rng_());
    after.push_back((*gpu)->device_cache_stats());
    log_size.push_back((*gpu)->plan_log().size());
    EXPECT_EQ(after.back().lent_bytes, 0u);
  }
  EXPECT_GT(after[0].made, 0u);
  EXPECT_EQ(after[2].made, after[1].made);
  EXPECT_EQ(after[2].freed, after[1].freed);
  EXPECT_GE(after[2].reused - after[1].reused, 7u);
  // The stage log names every allocation and free: the first proof's, none in the third.
  const auto blocks_logged = [&](size_t from, size_t to) {
    const auto log = (*gpu)->plan_log();
    return std::count_if(log.begin() + std::ptrdiff_t(from), log.begin() + std::ptrdiff_t(to),
                         [](const auto& p) { return p.stage == "device blocks"; });
  };
  EXPECT_GE(blocks_logged(0, log_size[0]), 1);
  EXPECT_EQ(blocks_logged(log_size[1], log_size[2]), 0);
  (*gpu)->release_resident();
  EXPECT_EQ((*gpu)->device_cache_stats().idle_bytes, 0u);
  size_t borrowing = 0, h_stages = 0;
  for (const auto& p : (*gpu)->plan_log())
    if (p.stage.starts_with("h ")) {
      ++h_stages;
      if (p.choice.find("in the MSM work area") != std::string::npos) ++borrowing;
      std::printf("  %s: %s, %zu bytes\n", p.stage.c_str(), p.choice.c_str(), p.bytes);
    }
  EXPECT_EQ(h_stages, 3u);
  EXPECT_EQ(borrowing, 2u);
}

// compute_h with keep_on_device leaves h on the device for the next call's MSM over the caller's
// `a`, whatever the host vector holds; one call later the copy is gone and `a` is read again.
TEST_F(CudaProver, HKeptOnTheDeviceFeedsTheNextMsmOnly) {
  CUZK_REQUIRE_GPU();
  SCOPED_TRACE(seed_);
  for (unsigned log_domain : {10u, 13u}) {
    SCOPED_TRACE("2^" + std::to_string(log_domain));
    Keyed k = synthetic(log_domain);
    auto as = r1cs::synthesize_for_proving(*k.circuit);
    ASSERT_TRUE(as.ok());
    auto gpu = backend();
    ASSERT_TRUE(gpu.ok()) << gpu.message();
    cpu::CpuBackend host;
    auto as_cpu = *as, as_gpu = *as;
    ASSERT_TRUE(groth16::compute_h_in_place(k.pk, as_cpu, host).ok());
    const G1Jacobian want = *host.msm({k.pk.h, as_cpu.a, {}});

    for (int proof = 0; proof < 2; ++proof) {  // the first makes the resident context
      as_gpu = *as;
      auto h = groth16::compute_h_in_place(k.pk, as_gpu, **gpu, as_gpu.a.size(), true);
      ASSERT_TRUE(h.ok()) << h.message();
      ASSERT_EQ(as_gpu.a.size(), as_cpu.a.size());
      for (auto& x : as_gpu.a) x = gputest::random_field<Fr>(rng_);  // the host's values must not matter
      auto got = (*gpu)->msm({k.pk.h, as_gpu.a, {}});
      ASSERT_TRUE(got.ok()) << got.message();
      EXPECT_EQ(got->to_affine(), want.to_affine());
      // The next call reads the host vector: the kept copy served one call.
      auto again = (*gpu)->msm({k.pk.h, as_gpu.a, {}});
      ASSERT_TRUE(again.ok()) << again.message();
      EXPECT_EQ(again->to_affine(), host.msm({k.pk.h, as_gpu.a, {}})->to_affine());
    }
    // A call in between (here another MSM) ends the kept copy too.
    as_gpu = *as;
    ASSERT_TRUE(groth16::compute_h_in_place(k.pk, as_gpu, **gpu, 0, true).ok());
    ASSERT_TRUE((*gpu)->msm({k.pk.l, as_gpu.aux_assignment, {}}).ok());
    for (auto& x : as_gpu.a) x = gputest::random_field<Fr>(rng_);
    auto later = (*gpu)->msm({k.pk.h, as_gpu.a, {}});
    ASSERT_TRUE(later.ok()) << later.message();
    EXPECT_EQ(later->to_affine(), host.msm({k.pk.h, as_gpu.a, {}})->to_affine());
    size_t kept = 0;
    for (const auto& p : (*gpu)->plan_log())
      if (p.stage.starts_with("h ") && p.choice.find("h kept on the device") != std::string::npos) ++kept;
    EXPECT_EQ(kept, 3u);
  }
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
