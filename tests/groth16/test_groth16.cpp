// Groth16 on the CPU: setup, prove, verify, and every way a proof must fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "backend/cpu/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "io/proof.hpp"
#include "r1cs/compiled/compiler.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::groth16 {
namespace {

using r1cs::ConstraintSystem;
using r1cs::LinearCombination;
using r1cs::Variable;
using Synth = std::function<void(ConstraintSystem&)>;

Fr random_fr(std::mt19937_64& rng) {
  uint64_t v[Fr::N] = {rng(), rng(), rng(), rng() & 0x0fffffffffffffffull};
  return Fr::from_canonical(v);
}

// y = x^3 + x + 5 with public y, plus `extra` chained squarings to grow the circuit.
Synth cubic_circuit(Fr x, size_t extra) {
  return [x, extra](ConstraintSystem& cs) {
    const Fr x2 = x.sqr(), x3 = x2 * x, y = x3 + x + Fr::from_u64(5);
    const Variable vy = cs.alloc_input(y);
    const Variable vx = cs.alloc(x);
    const Variable vx2 = cs.alloc(x2);
    const Variable vx3 = cs.alloc(x3);
    cs.enforce(vx, vx, vx2);
    cs.enforce(vx2, vx, vx3);
    cs.enforce(LinearCombination(vx3) + LinearCombination(vx) + LinearCombination::constant(Fr::from_u64(5)),
               Variable::one(), vy);
    Fr t = x;
    Variable vt = vx;
    for (size_t i = 0; i < extra; ++i) {
      const Fr t2 = t.sqr();
      const Variable vt2 = cs.alloc(t2);
      cs.enforce(vt, vt, vt2);
      t = t2;
      vt = vt2;
    }
  };
}

struct Fixture {
  ProvingKey pk;
  PreparedVerifyingKey pvk;
};

Fixture make_key(const Synth& synth, uint64_t seed) {
  r1cs::RecordingSystem shape(false);
  synth(shape);
  auto pk = generate_parameters(shape.matrices(), {seed});
  EXPECT_TRUE(pk.ok()) << pk.message();
  auto pvk = prepare_verifying_key(pk->vk);
  EXPECT_TRUE(pvk.ok()) << pvk.message();
  return {std::move(*pk), std::move(*pvk)};
}

r1cs::Assignment synthesize(const Synth& synth) {
  r1cs::ProvingAssignment pa;
  synth(pa);
  auto as = pa.finish();
  EXPECT_TRUE(as.ok()) << as.message();
  return std::move(*as);
}

std::vector<Fr> public_inputs(const r1cs::Assignment& as) {
  return {as.input_assignment.begin() + 1, as.input_assignment.end()};
}

class Groth16Test : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = std::random_device{}();
    rng_.seed(seed_);
  }
  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

TEST_F(Groth16Test, ProvesAndVerifiesAtSeveralSizes) {
  SCOPED_TRACE(seed_);
  for (size_t extra : {0, 1, 5, 60, 300}) {
    SCOPED_TRACE(extra);
    const Fr x = random_fr(rng_);
    const Synth synth = cubic_circuit(x, extra);
    Fixture f = make_key(synth, rng_());
    auto as = synthesize(synth);
    const auto inputs = public_inputs(as);
    auto proof = create_proof(f.pk, as, ProofRandomness::from_seed(rng_()));
    ASSERT_TRUE(proof.ok()) << proof.message();
    auto ok = verify_proof(f.pvk, *proof, inputs);
    ASSERT_TRUE(ok.ok()) << ok.message();
    EXPECT_TRUE(*ok);
  }
}

TEST_F(Groth16Test, SameRandomnessGivesSameProofAndFreshRandomnessDiffers) {
  SCOPED_TRACE(seed_);
  const Synth synth = cubic_circuit(random_fr(rng_), 10);
  Fixture f = make_key(synth, rng_());
  const uint64_t rs_seed = rng_();
  auto as1 = synthesize(synth), as2 = synthesize(synth), as3 = synthesize(synth);
  auto p1 = create_proof(f.pk, as1, ProofRandomness::from_seed(rs_seed));
  auto p2 = create_proof(f.pk, as2, ProofRandomness::from_seed(rs_seed));
  auto p3 = create_proof(f.pk, as3, ProofRandomness::fresh());
  ASSERT_TRUE(p1.ok() && p2.ok() && p3.ok());
  EXPECT_EQ(proof_to_bytes(*p1), proof_to_bytes(*p2));
  EXPECT_NE(proof_to_bytes(*p1), proof_to_bytes(*p3));
  auto ok = verify_proof(f.pvk, *p3, public_inputs(as3));
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);
}

// The prover keeps the a, b, c storage where the caller put it (an engine pools and pins those
// buffers): padded within capacity, H left in a, nothing reallocated, and the same buffers prove
// again after the next synthesis writes into them.
TEST_F(Groth16Test, ThePadAndHStayInTheCallersStorage) {
  SCOPED_TRACE(seed_);
  const Synth synth = cubic_circuit(random_fr(rng_), 20);
  Fixture f = make_key(synth, rng_());
  auto as = synthesize(synth);
  for (auto* v : {&as.a, &as.b, &as.c}) v->reserve(f.pk.domain_size);
  const Fr *a = as.a.data(), *b = as.b.data(), *c = as.c.data();
  for (int round = 0; round < 2; ++round) {
    auto proof = create_proof(f.pk, as, ProofRandomness::from_seed(rng_()));
    ASSERT_TRUE(proof.ok()) << proof.message();
    EXPECT_EQ(as.a.data(), a);
    EXPECT_EQ(as.b.data(), b);
    EXPECT_EQ(as.c.data(), c);
    EXPECT_EQ(as.a.size(), f.pk.h.size());  // the H scalars
    EXPECT_GE(as.b.capacity(), f.pk.domain_size);
    auto ok = verify_proof(f.pvk, *proof, public_inputs(as));
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok);
    // The next partition: synthesized into the same buffers.
    const auto next = synthesize(synth);
    as.a.assign(next.a.begin(), next.a.end());
    as.b.assign(next.b.begin(), next.b.end());
    as.c.assign(next.c.begin(), next.c.end());
  }
}

TEST_F(Groth16Test, TamperedProofOrInputIsRejected) {
  SCOPED_TRACE(seed_);
  const Synth synth = cubic_circuit(random_fr(rng_), 3);
  Fixture f = make_key(synth, rng_());
  auto as = synthesize(synth);
  auto inputs = public_inputs(as);
  auto proof = create_proof(f.pk, as, ProofRandomness::fresh());
  ASSERT_TRUE(proof.ok());

  auto wrong_inputs = inputs;
  wrong_inputs[0] += Fr::one();
  auto r = verify_proof(f.pvk, *proof, wrong_inputs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);

  Proof p = *proof;  // swap A for another valid G1 point
  p.a = G1Jacobian(p.a).dbl().to_affine();
  r = verify_proof(f.pvk, p, inputs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);

  p = *proof;
  p.c = p.c.neg();
  r = verify_proof(f.pvk, p, inputs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);

  p = *proof;
  p.b = G2Jacobian(p.b).dbl().to_affine();
  r = verify_proof(f.pvk, p, inputs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);

  // Wrong number of inputs is an error, not a "false".
  std::vector<Fr> too_many = inputs;
  too_many.push_back(Fr::one());
  EXPECT_FALSE(verify_proof(f.pvk, *proof, too_many).ok());

  // A proof from another key does not verify under this one.
  Fixture g = make_key(synth, rng_());
  r = verify_proof(g.pvk, *proof, inputs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
}

TEST_F(Groth16Test, UnsatisfiedWitnessIsReportedBeforeProving) {
  SCOPED_TRACE(seed_);
  const Fr x = random_fr(rng_);
  Fixture f = make_key(cubic_circuit(x, 4), rng_());
  // Same shape, but the prover lies about x^3.
  const Synth liar = [x](ConstraintSystem& cs) {
    const Fr x2 = x.sqr(), x3 = x2 * x + Fr::one(), y = x3 + x + Fr::from_u64(5);
    const Variable vy = cs.alloc_input(y);
    const Variable vx = cs.alloc(x);
    const Variable vx2 = cs.alloc(x2);
    const Variable vx3 = cs.alloc(x3);
    cs.enforce(vx, vx, vx2);
    cs.enforce(vx2, vx, vx3);
    cs.enforce(LinearCombination(vx3) + LinearCombination(vx) + LinearCombination::constant(Fr::from_u64(5)),
               Variable::one(), vy);
    Fr t = x;
    Variable vt = vx;
    for (int i = 0; i < 4; ++i) {
      const Variable vt2 = cs.alloc(t.sqr());
      cs.enforce(vt, vt, vt2);
      t = t.sqr();
      vt = vt2;
    }
  };
  auto as = synthesize(liar);
  auto copy = as;
  auto proof = create_proof(f.pk, as, ProofRandomness::fresh());
  ASSERT_FALSE(proof.ok());
  EXPECT_NE(proof.message().find("constraint 1"), std::string::npos) << proof.message();
  EXPECT_TRUE(proof.error().bad_input);  // the witness's fault: no retry elsewhere can help
  // A caller that says it checked the rows is taken at its word: the proof is made, and only the
  // pairing check catches the lie.
  cpu::CpuBackend backend(ThreadPool::shared());
  auto unchecked = create_proof(f.pk, copy, ProofRandomness::fresh(), backend, {.rows_checked = true});
  ASSERT_TRUE(unchecked.ok()) << unchecked.message();
  auto ok = verify_proof(f.pvk, *unchecked, public_inputs(copy));
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(*ok);
}

// The same assignment with c left out (r1cs::Assignment::c_from_ab).
r1cs::Assignment without_c(r1cs::Assignment as) {
  as.c.clear();
  as.c_from_ab = true;
  return as;
}

// c left to the prover (formed as a∘b) gives the proof that the synthesized c gives, bit for bit.
TEST_F(Groth16Test, CLeftToTheProverGivesTheSameProof) {
  SCOPED_TRACE(seed_);
  for (size_t extra : {0, 1, 5, 60, 300}) {
    SCOPED_TRACE(extra);
    const Synth synth = cubic_circuit(random_fr(rng_), extra);
    Fixture f = make_key(synth, rng_());
    auto with_c = synthesize(synth);
    auto left_out = without_c(with_c);
    const auto inputs = public_inputs(with_c);
    const auto rs = ProofRandomness::from_seed(rng_());
    auto want = create_proof(f.pk, with_c, rs);
    auto got = create_proof(f.pk, left_out, rs);
    ASSERT_TRUE(want.ok() && got.ok()) << got.message();
    EXPECT_EQ(proof_to_bytes(*got), proof_to_bytes(*want));
    auto ok = verify_proof(f.pvk, *got, inputs);
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok);
    EXPECT_TRUE(left_out.c.empty());  // the prover formed c in scratch of its own
  }
}

// ProveOptions::inputs_consumed comes once, after the last read of a, b, c and aux: a caller that
// takes the vectors away then and overwrites their storage (the engine's next synthesis) still
// gets the proof it would have got without the call.
TEST_F(Groth16Test, InputsConsumedComesOnceAfterTheLastRead) {
  SCOPED_TRACE(seed_);
  cpu::CpuBackend backend(ThreadPool::shared());
  for (size_t extra : {0, 5, 300}) {
    SCOPED_TRACE(extra);
    const Synth synth = cubic_circuit(random_fr(rng_), extra);
    Fixture f = make_key(synth, rng_());
    auto reference = synthesize(synth);
    auto as = reference;
    const auto rs = ProofRandomness::from_seed(rng_());
    auto want = create_proof(f.pk, reference, rs, backend);
    ASSERT_TRUE(want.ok()) << want.message();
    int calls = 0;
    std::vector<std::vector<Fr>> taken;
    ProveOptions options;
    options.inputs_consumed = [&] {
      ++calls;
      for (auto* v : {&as.a, &as.b, &as.c, &as.aux_assignment}) {
        taken.push_back(std::move(*v));
        std::fill(taken.back().begin(), taken.back().end(), Fr::from_u64(0xbad));
      }
    };
    auto got = create_proof(f.pk, as, rs, backend, options);
    ASSERT_TRUE(got.ok()) << got.message();
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(proof_to_bytes(*got), proof_to_bytes(*want));
    EXPECT_TRUE(as.a.empty() && as.aux_assignment.empty());
  }
}

// Both H modes (bellman's division on the coset, snarkjs's odd coset) on the CPU backend: c = a∘b
// formed by the backend equals c given, at every size from 2 to 2^10, and the rows are not checked.
TEST_F(Groth16Test, TheBackendFormsCAsAB) {
  SCOPED_TRACE(seed_);
  cpu::CpuBackend backend(ThreadPool::shared());
  for (HMode mode : {HMode::divide_by_z_on_coset, HMode::odd_coset})
    for (unsigned log_n = 1; log_n <= 10; ++log_n) {
      SCOPED_TRACE(log_n);
      const size_t n = size_t(1) << log_n;
      std::vector<Fr> a(n), b(n), c(n);
      for (size_t j = 0; j < n; ++j) a[j] = random_fr(rng_), b[j] = j % 3 ? random_fr(rng_) : Fr::one();
      for (size_t j = 0; j < n; ++j) c[j] = a[j] * b[j];
      auto a2 = a, b2 = b;
      HRequest given;
      given.a = a, given.b = b, given.c = c, given.log_n = log_n, given.mode = mode, given.check_rows = n;
      ASSERT_TRUE(backend.compute_h(given).ok());
      HRequest formed;
      formed.a = a2, formed.b = b2, formed.c_from_ab = true, formed.log_n = log_n, formed.mode = mode;
      ASSERT_TRUE(backend.compute_h(formed).ok());
      EXPECT_EQ(a2, a);
      // c given with the flag, or rows to check without c: refused.
      formed.c = c;
      EXPECT_FALSE(backend.compute_h(formed).ok());
      formed.c = {};
      formed.check_rows = 1;
      EXPECT_FALSE(backend.compute_h(formed).ok());
    }
}

// c left out: nothing to check the rows against, so a witness that does not satisfy the circuit
// gives a proof that the pairing check rejects (the engine checks every proof); an assignment that
// says c is left out but brings one is refused.
TEST_F(Groth16Test, CLeftOutOfAnUnsatisfiedWitnessGivesAProofThatFails) {
  SCOPED_TRACE(seed_);
  const Synth synth = cubic_circuit(random_fr(rng_), 6);
  Fixture f = make_key(synth, rng_());
  auto as = synthesize(synth);
  const auto inputs = public_inputs(as);
  as.aux_assignment[1] += Fr::one();  // x², whose rows no longer hold
  auto left_out = without_c(as);
  auto proof = create_proof(f.pk, left_out, ProofRandomness::fresh());
  ASSERT_TRUE(proof.ok()) << proof.message();
  auto ok = verify_proof(f.pvk, *proof, inputs);
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(*ok);

  auto both = synthesize(synth);
  both.c_from_ab = true;
  auto refused = create_proof(f.pk, both, ProofRandomness::fresh());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("formed from a·b"), std::string::npos) << refused.message();
  auto neither = synthesize(synth);
  neither.c.clear();
  refused = create_proof(f.pk, neither, ProofRandomness::fresh());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("c's length"), std::string::npos) << refused.message();
}

TEST_F(Groth16Test, AssignmentOfAnotherShapeIsRejected) {
  SCOPED_TRACE(seed_);
  Fixture f = make_key(cubic_circuit(random_fr(rng_), 4), rng_());
  auto as = synthesize(cubic_circuit(random_fr(rng_), 5));
  auto proof = create_proof(f.pk, as, ProofRandomness::fresh());
  ASSERT_FALSE(proof.ok());
  EXPECT_NE(proof.message().find("assignment"), std::string::npos) << proof.message();
}

TEST_F(Groth16Test, BatchVerifierAcceptsValidSetsAndCatchesOneBadProof) {
  SCOPED_TRACE(seed_);
  const Synth shape = cubic_circuit(Fr::one(), 6);
  Fixture f = make_key(shape, rng_());
  std::vector<Proof> proofs;
  std::vector<std::vector<Fr>> inputs;
  for (int i = 0; i < 5; ++i) {
    auto as = synthesize(cubic_circuit(random_fr(rng_), 6));
    inputs.push_back(public_inputs(as));
    auto p = create_proof(f.pk, as, ProofRandomness::fresh());
    ASSERT_TRUE(p.ok()) << p.message();
    proofs.push_back(*p);
  }
  auto ok = verify_proofs_batch(f.pvk, proofs, inputs);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(*ok);
  for (size_t bad = 0; bad < proofs.size(); bad += 2) {
    auto tampered = inputs;
    tampered[bad][0] += Fr::one();
    auto r = verify_proofs_batch(f.pvk, proofs, tampered);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(*r) << "bad proof " << bad;
  }
}

TEST_F(Groth16Test, KeySurvivesBellmanParamsRoundTrip) {
  SCOPED_TRACE(seed_);
  const Synth synth = cubic_circuit(random_fr(rng_), 7);
  Fixture f = make_key(synth, rng_());
  auto bp = to_bellman(f.pk);
  ASSERT_TRUE(bp.ok());
  auto bytes = serialize_bellman_params(*bp);
  auto parsed = parse_bellman_params(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  auto pk2 = proving_key_from_bellman(std::move(*parsed));
  ASSERT_TRUE(pk2.ok()) << pk2.message();
  auto as = synthesize(synth);
  const auto inputs = public_inputs(as);
  auto proof = create_proof(*pk2, as, ProofRandomness::fresh());
  ASSERT_TRUE(proof.ok()) << proof.message();
  auto ok = verify_proof(f.pvk, *proof, inputs);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);
}

// The setup from a compiled circuit (8-byte terms: what makes a 2^27 setup fit the host) gives the
// parameters of its matrices, byte for byte, though the compiled form merges a row's terms of one
// wire and drops those that cancel; one compiled without C is refused.
TEST_F(Groth16Test, TheCompiledCircuitGivesTheParametersOfItsMatrices) {
  SCOPED_TRACE(seed_);
  const Fr x = random_fr(rng_);
  const Synth cubic = cubic_circuit(x, 9);
  // Repeated and cancelling terms: (x + x + 3·w − 3·w)·(x) = 2·x², and a sum that cancels to zero.
  const Synth merged = [x](ConstraintSystem& cs) {
    const Variable vx = cs.alloc(x);
    const Variable vw = cs.alloc(x + Fr::one());
    const Variable vy = cs.alloc_input(x.sqr() + x.sqr());
    cs.enforce(LinearCombination(vx) + LinearCombination(vx) + LinearCombination(vw, Fr::from_u64(3)) -
                   LinearCombination(vw, Fr::from_u64(3)),
               vx, vy);
    cs.enforce(LinearCombination(vw) - LinearCombination(vx), Variable::one(), Variable::one());
  };
  for (const Synth* synth : {&cubic, &merged}) {
    r1cs::RecordingSystem shape(false);
    (*synth)(shape);
    const r1cs::ConstraintMatrices m = shape.matrices();
    auto compiled = r1cs::compile(m);
    ASSERT_TRUE(compiled.ok()) << compiled.message();
    const uint64_t seed = rng_();
    auto from_matrices = generate_parameters(m, {seed});
    auto from_compiled = generate_parameters(setup_circuit(*compiled), {seed});
    ASSERT_TRUE(from_matrices.ok()) << from_matrices.message();
    ASSERT_TRUE(from_compiled.ok()) << from_compiled.message();
    auto a = to_bellman(*from_matrices), b = to_bellman(*from_compiled);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(serialize_bellman_params(*a), serialize_bellman_params(*b));

    auto without_c = r1cs::compile(m, r1cs::CompileOptions{.keep_c = false});
    ASSERT_TRUE(without_c.ok()) << without_c.message();
    auto refused = generate_parameters(setup_circuit(*without_c), {seed});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("C is not recorded"), std::string::npos) << refused.message();
  }
}

}  // namespace
}  // namespace cuzk::groth16
