// The H stage of the CUDA prover (backend/cuda/h_stage.hpp): every plan (checked beside, resident,
// pair, one vector) under budgets that reach it gives the CPU's H and the CPU's proof, in bellman's
// and snarkjs's modes, with c given, c = a∘b and compiled rows; an unsatisfied witness is named
// under every plan; the stage borrows the idle MSM work area, and h kept on the device feeds the
// next MSM only.
#include <gtest/gtest.h>

#include "tests/gpu/prover_test_util.hpp"

namespace cuzk {
namespace {

using provertest::add_h_plans;
using provertest::budgets_down_to_a_few_mib;
using provertest::compiled_witness;
using provertest::CudaProver;
using provertest::expect_compiled_proof;
using provertest::expect_same_proof;
using provertest::expect_same_proof_as_with_c;
using provertest::Keyed;
using provertest::sample_keyed;

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

}  // namespace
}  // namespace cuzk
