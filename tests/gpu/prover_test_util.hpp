// Shared pieces of the CUDA prover tests (prover_test.cpp, prover_h_stage_test.cpp): sample
// circuits with keys from a fresh setup, proofs on the CPU and the device compared bit for bit,
// the H plans a backend chose, and a fixture with a seeded generator and backends under a budget.
#pragma once

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

namespace cuzk::provertest {

struct Keyed {
  r1cs::SampleSpec spec;
  groth16::ProvingKey pk;
  groth16::PreparedVerifyingKey pvk;
  std::unique_ptr<r1cs::Circuit> circuit;
};

inline Keyed make_keyed(const r1cs::SampleSpec& spec, uint64_t seed) {
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
inline void expect_same_proof(const groth16::ProvingKey& pk, const groth16::PreparedVerifyingKey& pvk,
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
inline std::vector<size_t> budgets_down_to_a_few_mib() {
  std::vector<size_t> budgets{0};
  for (size_t kib = 8192; kib >= 1024; kib -= 128) budgets.push_back(kib << 10);
  return budgets;
}

// The H plans `gpu` has chosen, by kind: "one vector", or the choice up to its first ';'.
inline void add_h_plans(const cuda::CudaBackend& gpu, std::set<std::string>& plans) {
  for (const auto& p : gpu.plan_log())
    if (p.stage.starts_with("h "))
      plans.insert(p.choice.starts_with("one vector") ? "one vector"
                                                      : p.choice.substr(0, p.choice.find(';')));
}

// `left_out` (c left to the prover) proved on `gpu` gives the CPU's proof of `with_c`, bit for bit.
inline void expect_same_proof_as_with_c(const groth16::ProvingKey& pk, const r1cs::Assignment& with_c,
                                        const r1cs::Assignment& left_out, cuda::CudaBackend& gpu,
                                        uint64_t rs_seed) {
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

// A keyed sample circuit of `kind` (message_bytes 200) over 2^log_domain rows.
inline Keyed sample_keyed(const char* kind, unsigned log_domain, std::mt19937_64& rng) {
  r1cs::SampleSpec spec;
  spec.kind = kind;
  spec.message_bytes = 200;
  spec.log_domain = log_domain;
  spec.seed = rng();
  return make_keyed(spec, rng());
}

// A witness-only assignment of k's circuit attached to `compiled` (a, b, c stand for its rows).
inline r1cs::Assignment compiled_witness(const Keyed& k,
                                         const std::shared_ptr<const r1cs::CompiledCircuit>& compiled) {
  r1cs::ProvingAssignment wo = r1cs::ProvingAssignment::witness_only();
  EXPECT_TRUE(k.circuit->synthesize(wo).ok());
  r1cs::Assignment as = wo.finish().value();
  EXPECT_TRUE(r1cs::attach_compiled(as, compiled).ok());
  return as;
}

// A proof of `compiled_as` (witness-only, attached) on `gpu` is the CPU's from `full`, bit for bit.
inline void expect_compiled_proof(const Keyed& k, const r1cs::Assignment& full, r1cs::Assignment compiled_as,
                                  ComputeBackend& gpu, uint64_t seed) {
  const auto rs = groth16::ProofRandomness::from_seed(seed);
  auto want_as = full;
  auto want = groth16::create_proof(k.pk, want_as, rs);
  ASSERT_TRUE(want.ok()) << want.message();
  auto got = groth16::create_proof(k.pk, compiled_as, rs, gpu);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_EQ(proof_to_bytes(*want), proof_to_bytes(*got));
}

}  // namespace cuzk::provertest
