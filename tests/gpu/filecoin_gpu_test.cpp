// Filecoin's proofs on the GPU give the CPU's bytes. A 2 KiB test sector is sealed and updated;
// its PoRep C1, WindowPoSt, WinningPoSt and SnapDeals vanilla proofs are prepared as a provider's
// request is; every partition is synthesized (on every core, as the engine does) and proved with
// the CPU backend and with the CUDA backend under the same r and s, and on the CUDA backend once
// more from the witness alone through the compiled circuit. The proof bytes must be equal and the
// proofs must verify against the inputs a verifier computes.
//
// Parameters by official name from $CUZK_FILECOIN_PARAMS, else from the end-to-end fixture's
// folder (tests/filecoin_e2e: made by `cuzk setup --filecoin` there) when it holds them, else made
// here from the blank circuit with the device's fixed-base multiplication, and passed through the
// bellman form the prover loads. Without a GPU every test skips with the reason.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/fixed_base/fixed_base.hpp"
#include "filecoin/circuits/post_witness.hpp"
#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "filecoin/proofs/blank_circuit.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"
#include "filecoin/proofs/compiled_circuits.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "filecoin/proofs/proof_request.hpp"
#include "filecoin/types/prover_id.hpp"
#include "filecoin/vanilla/post_proof.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "filecoin/vanilla/update.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "io/proof.hpp"
#include "r1cs/compiled/evaluate.hpp"
#include "r1cs/matrices.hpp"
#include "tests/filecoin_vanilla/sealed_2kib.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace cuzk {
namespace {

namespace fs = std::filesystem;
using filecoin::Domain;
namespace vanilla = filecoin::vanilla;

using filecoin::test::as_string;
using filecoin::test::field_domain;
using filecoin::test::pattern_bytes;
using filecoin::test::sealed_2kib;  // StackedDrg2KiBV1_1, miner f01000, sector 42, updated at h = 1

filecoin::ProofRequest porep_request() {
  filecoin::ProofRequest r;
  r.kind = filecoin::ProofKind::seal;
  r.vanilla = {filecoin::write_c1_json(vanilla::commit_phase1(sealed_2kib().sealed).value())};
  r.prover_id = filecoin::prover_id_from_actor_id(1000);
  r.sector_id = 42;
  return r;
}

filecoin::ProofRequest post_request(filecoin::ProofKind kind, uint64_t proof_id) {
  const auto type = filecoin::post_proof(proof_id).value();
  filecoin::ProofRequest r;
  r.kind = kind;
  r.proof_id = type.id;
  r.randomness = field_domain(9);
  r.vanilla = {as_string(filecoin::write_post_vanilla_proof(
      vanilla::post_vanilla_proof(sealed_2kib().sealed, type, r.randomness).value()))};
  return r;
}

filecoin::ProofRequest update_request() {
  const auto& s = sealed_2kib();
  const auto proofs = vanilla::update_vanilla_proofs(vanilla::update_view(s.sealed, s.updated)).value();
  filecoin::ProofRequest r;
  r.kind = filecoin::ProofKind::update;
  r.proof_id = 0;  // StackedDrg2KiBV1
  for (const auto& p : proofs) r.vanilla.push_back(as_string(filecoin::write_update_vanilla_proof(p)));
  r.comm_r_old = s.updated.comm_r_old;
  r.comm_d_new = s.updated.comm_d_new;
  r.comm_r_new = s.updated.comm_r_new;
  return r;
}

// The folders that may hold the circuit's parameters under their official names.
std::vector<fs::path> parameter_folders() {
  std::vector<fs::path> out;
  if (const char* e = std::getenv("CUZK_FILECOIN_PARAMS")) out.emplace_back(e);
#ifdef CUZK_E2E_PARAMS
  out.emplace_back(CUZK_E2E_PARAMS);
#endif
  return out;
}

// Test parameters made here (seed 1): the blank circuit's rows, the generator multiples on the
// device.
Result<groth16::ProvingKey> make_parameters(filecoin::CircuitId id) {
  auto circuit = filecoin::blank_circuit(id);
  if (!circuit) return circuit.error();
  r1cs::RecordingSystem shape(false);
  CUZK_TRY_STATUS((*circuit)->synthesize(shape));
  groth16::SetupOptions options(1);
  auto g1 = cuda::FixedBaseMul<G1Affine>::create(gputest::test_device(), G1Affine::generator());
  if (!g1) return g1.error();
  auto g2 = cuda::FixedBaseMul<G2Affine>::create(gputest::test_device(), G2Affine::generator());
  if (!g2) return g2.error();
  auto m1 = std::make_shared<cuda::FixedBaseMul<G1Affine>>(std::move(*g1));
  auto m2 = std::make_shared<cuda::FixedBaseMul<G2Affine>>(std::move(*g2));
  options.g1_mul_many = [m1](std::span<const Fr> k, std::span<G1Affine> out) { return m1->mul_many(k, out); };
  options.g2_mul_many = [m2](std::span<const Fr> k, std::span<G2Affine> out) { return m2->mul_many(k, out); };
  auto pk = groth16::generate_parameters(shape.matrices(), options);
  if (!pk) return pk.error();
  auto bellman = to_bellman(*pk);
  if (!bellman) return bellman.error();
  return proving_key_from_bellman(std::move(*bellman));
}

Result<groth16::ProvingKey> parameters(filecoin::CircuitId id) {
  for (const fs::path& dir : parameter_folders()) {
    auto path = filecoin::find_parameter_file(id, filecoin::ParameterExt::params, dir);
    if (!path) continue;
    auto params = read_bellman_params(*path, Check::curve_only);
    if (!params) return make_error(path->string() + ": " + params.message());
    std::cout << "parameters: " << path->string() << "\n";
    return proving_key_from_bellman(std::move(*params));
  }
  std::cout << "parameters: made here (no parameter file found)\n";
  return make_parameters(id);
}

// Every partition of `request` proved on the CPU and on the GPU: the same bytes, both verified.
// The GPU proves it twice: from the full synthesis, and from the witness alone against the proof
// type's compiled circuit (a and b formed on the device), written over the previous partition's
// witness storage as the engine's pooled sets have it.
// The backend's last calls filled a deferred witness on the device, not on the host.
void expect_witness_on_device(const cuda::CudaBackend& gpu) {
  bool seen = false;
  for (const auto& stage : gpu.plan_log())
    if (stage.stage.rfind("witness ", 0) == 0) {
      seen = true;
      EXPECT_NE(stage.choice.find("computed on the device"), std::string::npos) << stage.choice;
    }
  EXPECT_TRUE(seen) << "no witness stage in the backend's log";
}

void expect_gpu_proves_as_cpu(const filecoin::ProofRequest& request) {
  auto prepared = filecoin::PreparedProof::prepare(request);
  ASSERT_TRUE(prepared.ok()) << prepared.message();
  auto verifier = filecoin::PreparedProof::prepare(request, filecoin::PrepareFor::verifying);
  ASSERT_TRUE(verifier.ok()) << verifier.message();
  auto pk = parameters(prepared->circuit());
  ASSERT_TRUE(pk.ok()) << pk.message();
  auto pvk = groth16::prepare_verifying_key(pk->vk);
  ASSERT_TRUE(pvk.ok()) << pvk.message();
  cuda::CudaBackendOptions options;
  options.device = gputest::test_device();
  auto gpu = cuda::CudaBackend::create(options);
  ASSERT_TRUE(gpu.ok()) << gpu.message();

  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  auto compiled = filecoin::compile_blank_circuit(prepared->circuit(), threads, {.keep_c = false});
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  const auto circuit = std::make_shared<const r1cs::CompiledCircuit>(std::move(*compiled));
  std::vector<Fr> storage;
  for (size_t k = 0; k < prepared->partitions(); ++k) {
    SCOPED_TRACE("partition " + std::to_string(k));
    auto part = prepared->partition(k);
    ASSERT_TRUE(part.ok()) << part.message();
    auto as = filecoin::synthesize_partition(*part->circuit, threads);
    ASSERT_TRUE(as.ok()) << as.message();
    auto inputs = verifier->public_inputs(k);
    ASSERT_TRUE(inputs.ok()) << inputs.message();
    ASSERT_EQ(std::vector<Fr>(as->input_assignment.begin() + 1, as->input_assignment.end()), *inputs);
    CUZK_ASSERT_OK(groth16::check_assignment_shape(*pk, *as));

    const auto rs = groth16::ProofRandomness::from_seed(11 + k);
    auto as_cpu = *as;
    auto cpu = groth16::create_proof(*pk, as_cpu, rs);
    ASSERT_TRUE(cpu.ok()) << cpu.message();
    auto dev = groth16::create_proof(*pk, *as, rs, **gpu);
    ASSERT_TRUE(dev.ok()) << dev.message();
    EXPECT_EQ(proof_to_bytes(*cpu), proof_to_bytes(*dev)) << "the CPU and GPU proofs differ";

    auto witness = filecoin::synthesize_partition_witness(*part->circuit, threads, std::move(storage));
    ASSERT_TRUE(witness.ok()) << witness.message();
    CUZK_ASSERT_OK(r1cs::attach_compiled(*witness, circuit));
    auto from_witness = groth16::create_proof(*pk, *witness, rs, **gpu);
    ASSERT_TRUE(from_witness.ok()) << from_witness.message();
    EXPECT_EQ(proof_to_bytes(*cpu), proof_to_bytes(*from_witness)) << "the compiled path's proof differs";
    storage = std::move(witness->aux_assignment);

    // PoSt: the witness computed on the device from the paths (filecoin/circuits/post_witness.hpp).
    if (const auto* post = dynamic_cast<const filecoin::FallbackPostCircuit*>(part->circuit.get())) {
      auto deferred = filecoin::post_witness_deferred(*post);
      ASSERT_TRUE(deferred.ok()) << deferred.message();
      CUZK_ASSERT_OK(r1cs::attach_compiled(*deferred, circuit));
      (*gpu)->clear_log();
      auto from_device = groth16::create_proof(*pk, *deferred, rs, **gpu);
      ASSERT_TRUE(from_device.ok()) << from_device.message();
      EXPECT_EQ(proof_to_bytes(*cpu), proof_to_bytes(*from_device)) << "the device witness's proof differs";
      expect_witness_on_device(**gpu);
    }
    for (const auto* proof : {&*cpu, &*dev}) {
      auto ok = groth16::verify_proof(*pvk, *proof, *inputs);
      ASSERT_TRUE(ok.ok()) << ok.message();
      EXPECT_TRUE(*ok);
    }
  }
}

TEST(FilecoinGpu, Porep2KiBIsTheCpusProof) {
  CUZK_REQUIRE_GPU();
  expect_gpu_proves_as_cpu(porep_request());
}

TEST(FilecoinGpu, WindowPost2KiBIsTheCpusProof) {
  CUZK_REQUIRE_GPU();
  expect_gpu_proves_as_cpu(post_request(filecoin::ProofKind::window_post, 10));  // StackedDrgWindow2KiBV1_2
}

TEST(FilecoinGpu, WinningPost2KiBIsTheCpusProof) {
  CUZK_REQUIRE_GPU();
  expect_gpu_proves_as_cpu(post_request(filecoin::ProofKind::winning_post, 0));  // StackedDrgWinning2KiBV1
}

TEST(FilecoinGpu, SnapDeals2KiBIsTheCpusProof) {
  CUZK_REQUIRE_GPU();
  expect_gpu_proves_as_cpu(update_request());
}

// A 32 GiB WindowPoSt partition's witness (2349 sectors, 127 M variables) from random paths: the
// device's values are the host's, every one; a path that misses its root is named as the host
// names it.
TEST(FilecoinGpu, WindowPost32GiBWitnessOnTheDeviceIsTheHosts) {
  CUZK_REQUIRE_GPU();
  auto params = filecoin::fallback_post_params(filecoin::PostKind::window, uint64_t(32) << 30,
                                               filecoin::PostApiVersion::v1_2_0);
  ASSERT_TRUE(params.ok()) << params.message();
  std::mt19937_64 rng(gputest::test_seed());
  const auto random = [&rng] {
    uint64_t v[Fr::N];
    for (auto& x : v) x = rng();
    v[Fr::N - 1] &= (uint64_t(1) << 62) - 1;
    return Fr::from_canonical(v);
  };
  auto blank = filecoin::FallbackPostCircuit::blank(*params);
  ASSERT_TRUE(blank.ok()) << blank.message();
  // 97 distinct sectors (the rest repeat the last), random leaves, siblings and positions.
  std::vector<filecoin::PostCircuitSector> sectors;
  for (int i = 0; i < 97; ++i) {
    filecoin::PostCircuitSector s = blank->sector(0);
    s.comm_r = random(), s.comm_c = random(), s.comm_r_last = random();
    for (auto& leaf : s.leaves) leaf = random();
    for (auto& path : s.paths)
      for (auto& level : path) {
        level.index = unsigned(rng() % 8);
        for (auto& sibling : level.siblings) sibling = random();
      }
    sectors.push_back(std::move(s));
  }
  auto circuit = filecoin::FallbackPostCircuit::create(*params, sectors);
  ASSERT_TRUE(circuit.ok()) << circuit.message();
  auto w = filecoin::PostWitness::create(*circuit);
  ASSERT_TRUE(w.ok()) << w.message();
  std::vector<Fr> host((*w)->num_aux()), device((*w)->num_aux(), Fr::one());
  CUZK_ASSERT_OK((*w)->fill_host(host, 0));

  cuda::CudaBackendOptions options;
  options.device = gputest::test_device();
  auto gpu = cuda::CudaBackend::create(options);
  ASSERT_TRUE(gpu.ok()) << gpu.message();
  CUZK_ASSERT_OK((*gpu)->fill_witness(**w, (*w)->inputs(), device));
  expect_witness_on_device(**gpu);
  const auto expect_equal = [&host](const std::vector<Fr>& device) {
    size_t first = host.size();
    for (size_t i = 0; i < host.size() && first == host.size(); ++i)
      if (host[i] != device[i]) first = i;
    EXPECT_EQ(first, host.size()) << "first differing variable " << first << " of " << host.size();
  };
  expect_equal(device);

  // Into pinned memory the copy crosses beside the backend's next call (as the H stage's); the
  // next other call (here an MSM) starts only once it has landed.
  std::vector<Fr> pinned((*w)->num_aux(), Fr::one());
  {
    auto pin = cuda::PinnedRange::pin(pinned.data(), pinned.size() * sizeof(Fr));
    ASSERT_TRUE(pin.ok()) << pin.message();
    CUZK_ASSERT_OK((*gpu)->fill_witness(**w, (*w)->inputs(), pinned));
    const G1Affine g = G1Affine::generator();
    const Fr one = Fr::one();
    auto msm =
        (*gpu)->msm(MsmRequest<G1Affine>{std::span<const G1Affine>(&g, 1), std::span<const Fr>(&one, 1), {}});
    ASSERT_TRUE(msm.ok()) << msm.message();
  }
  expect_equal(pinned);

  // Random paths miss their roots: with the check, the first one is named.
  circuit->set_check_roots(true);
  auto checked = filecoin::PostWitness::create(*circuit);
  ASSERT_TRUE(checked.ok()) << checked.message();
  const Status on_host = (*checked)->fill_host(host, 0);
  const Status on_device = (*gpu)->fill_witness(**checked, (*checked)->inputs(), device);
  ASSERT_FALSE(on_host.ok());
  ASSERT_FALSE(on_device.ok());
  EXPECT_TRUE(on_device.error().bad_input);
  EXPECT_EQ(on_device.message(), on_host.message());
  EXPECT_EQ(on_device.message(), "circuit sector 0: challenge 0's path does not reach comm_r_last");
}

}  // namespace
}  // namespace cuzk
