// Gadgets against their native twins, on fresh random inputs; every circuit is also checked for
// satisfaction, and a tampered witness must fail.
#include <gtest/gtest.h>

#include "r1cs/gadgets/merkle.hpp"
#include "r1cs/gadgets/poseidon.hpp"
#include "r1cs/gadgets/sha256.hpp"
#include "r1cs/matrices.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

using test::fresh_seed;
using test::random_fr;

Fr from_limbs(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3) {
  const uint64_t v[4] = {l0, l1, l2, l3};
  return Fr::from_canonical(v);
}

// ------------------------------------------------------------------------------------- booleans

TEST(Boolean, OperationsMatchTruthTables) {
  for (int mask = 0; mask < 8; ++mask) {
    const bool x = mask & 1, y = mask & 2, z = mask & 4;
    RecordingSystem cs;
    const Boolean a = Boolean::alloc(cs, x), b = Boolean::alloc(cs, y), c = Boolean::alloc(cs, z);
    // Every operand kind: allocated, negated, constant.
    const Boolean kinds_b[] = {b, !b, Boolean::constant(y)};
    const Boolean kinds_c[] = {c, !c, Boolean::constant(z)};
    for (int kb = 0; kb < 3; ++kb) {
      for (int kc = 0; kc < 3; ++kc) {
        const Boolean& bb = kinds_b[kb];
        const Boolean& cc = kinds_c[kc];
        const bool vb = bb.value(), vc = cc.value();
        EXPECT_EQ(xor_bits(cs, bb, cc).value(), vb != vc);
        EXPECT_EQ(and_bits(cs, bb, cc).value(), vb && vc);
        EXPECT_EQ(or_bits(cs, bb, cc).value(), vb || vc);
        EXPECT_EQ(sha256_ch(cs, a, bb, cc).value(), x ? vb : vc);
        EXPECT_EQ(sha256_ch(cs, bb, a, cc).value(), vb ? x : vc);
        EXPECT_EQ(sha256_maj(cs, a, bb, cc).value(), (x + vb + vc) >= 2);
        EXPECT_EQ(sha256_maj(cs, bb, cc, a).value(), (x + vb + vc) >= 2);
      }
    }
    EXPECT_TRUE(cs.is_satisfied()) << "mask " << mask;
  }
}

TEST(Boolean, NonBooleanValueFails) {
  RecordingSystem cs;
  const AllocatedBit bit = AllocatedBit::alloc(cs, true);
  (void)bit;
  ASSERT_TRUE(cs.is_satisfied());
  ConstraintMatrices m = cs.matrices();
  std::vector<Fr> w = cs.witness();
  w[1] = Fr::from_u64(2);
  auto r = first_unsatisfied(m, w);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ(**r, 0u);
}

TEST(Num, BitDecomposition) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const Fr r_minus_1 = -Fr::one();
  for (const Fr& x : {random_fr(rng), Fr::zero(), r_minus_1, Fr::from_u64(rng())}) {
    RecordingSystem cs;
    const Num n = Num::alloc(cs, x);
    const std::vector<Boolean> bits = to_bits_le(cs, n);
    ASSERT_EQ(bits.size(), 255u);
    for (unsigned i = 0; i < 255; ++i) ASSERT_EQ(bits[i].value(), canonical_bit(x, i)) << i;
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_constraints(), 256u);
    EXPECT_EQ(cs.num_aux(), 256u);
    // A wrong bit breaks the unpacking row (the last one).
    std::vector<Fr> w = cs.witness();
    const size_t bit = 2 + size_t(rng() % 255);
    w[bit] = w[bit].is_zero() ? Fr::one() : Fr::zero();
    auto r = first_unsatisfied(cs.matrices(), w);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->has_value());
    EXPECT_EQ(**r, 255u);
  }
}

// ---------------------------------------------------------------------------------------- sha256

TEST(Sha256, NativeKnownVectors) {
  const uint8_t abc[] = {'a', 'b', 'c'};
  const std::array<uint8_t, 32> want_abc = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                            0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                            0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  EXPECT_EQ(sha256(abc), want_abc);
  const std::array<uint8_t, 32> want_empty = {
      0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
      0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};
  EXPECT_EQ(sha256({}), want_empty);
}

std::vector<uint8_t> sha256_in_circuit(ConstraintSystem& cs, std::span<const uint8_t> message) {
  std::vector<Boolean> bits;
  for (bool b : bytes_to_bits(message)) bits.push_back(Boolean::alloc(cs, b));
  return bits_to_bytes(sha256_circuit(cs, bits));
}

TEST(Sha256, CircuitAbc) {
  RecordingSystem cs;
  const uint8_t abc[] = {'a', 'b', 'c'};
  const std::vector<uint8_t> got = sha256_in_circuit(cs, abc);
  const auto want = sha256(abc);
  EXPECT_EQ(got, std::vector<uint8_t>(want.begin(), want.end()));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Sha256, CircuitMatchesNativeOnRandomMessages) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  // Lengths around the padding boundaries: 55/56 bytes switch between one and two blocks.
  for (size_t len : {size_t(0), size_t(1), size_t(55), size_t(56), size_t(64), size_t(100)}) {
    SCOPED_TRACE("length " + std::to_string(len));
    std::vector<uint8_t> msg(len);
    for (auto& byte : msg) byte = uint8_t(rng());
    RecordingSystem cs;
    const std::vector<uint8_t> got = sha256_in_circuit(cs, msg);
    const auto want = sha256(msg);
    EXPECT_EQ(got, std::vector<uint8_t>(want.begin(), want.end()));
    ASSERT_TRUE(cs.is_satisfied());
    if (len == 100) {
      // Flip one message bit in the witness: the circuit must notice.
      std::vector<Fr> w = cs.witness();
      const size_t bit = size_t(rng() % (8 * len));
      w[cs.num_inputs() + bit] = w[cs.num_inputs() + bit].is_zero() ? Fr::one() : Fr::zero();
      auto r = first_unsatisfied(cs.matrices(), w);
      ASSERT_TRUE(r.ok());
      EXPECT_TRUE(r->has_value());
    }
  }
}

// -------------------------------------------------------------------------------------- poseidon

TEST(Poseidon, NeptuneParameterShape) {
  const PoseidonParams& p = poseidon_arity2();
  EXPECT_EQ(p.width, 3u);
  EXPECT_EQ(p.full_rounds, 8u);
  EXPECT_EQ(p.partial_rounds, 55u);
  EXPECT_EQ(p.round_constants.size(), 63u * 3);
  EXPECT_EQ(p.merkle_tag, Fr::from_u64(3));
  // Cauchy entry (0,0) = 1/3.
  EXPECT_EQ(p.m(0, 0) * Fr::from_u64(3), Fr::one());
  EXPECT_FALSE(PoseidonParams::neptune(3).ok());
}

// neptune's test vectors (poseidon.rs, hash_values, Strength::Standard, MerkleTree hash type):
// hash of (0, 1, ..., arity-1), as canonical little-endian limbs.
TEST(Poseidon, NeptuneKnownVectors) {
  struct Vector {
    size_t arity;
    uint64_t limbs[4];
  };
  const Vector vectors[] = {
      {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
      {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
      {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
  };
  for (const Vector& v : vectors) {
    SCOPED_TRACE("arity " + std::to_string(v.arity));
    auto p = PoseidonParams::neptune(v.arity);
    ASSERT_TRUE(p.ok()) << p.message();
    std::vector<Fr> preimage;
    for (size_t i = 0; i < v.arity; ++i) preimage.push_back(Fr::from_u64(i));
    auto h = poseidon_hash(*p, preimage);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(*h, from_limbs(v.limbs[0], v.limbs[1], v.limbs[2], v.limbs[3]));
  }
}

TEST(Poseidon, CircuitMatchesNative) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (size_t arity : {size_t(2), size_t(4)}) {
    auto p = PoseidonParams::neptune(arity);
    ASSERT_TRUE(p.ok());
    std::vector<Fr> xs;
    std::vector<Num> nums;
    RecordingSystem cs;
    for (size_t i = 0; i < arity; ++i) {
      xs.push_back(random_fr(rng));
      nums.push_back(Num::alloc(cs, xs.back()));
    }
    auto got = poseidon_hash_circuit(cs, *p, nums);
    ASSERT_TRUE(got.ok());
    auto want = poseidon_hash(*p, xs);
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(got->value, *want);
    EXPECT_EQ(got->lc.evaluate(cs.input_assignment(), cs.aux_assignment()), *want);
    EXPECT_EQ(cs.num_constraints(), 3 * (8 * (arity + 1) + p->partial_rounds));
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_FALSE(poseidon_hash_circuit(cs, *p, std::span(nums).subspan(1)).ok());
  }
}

// ---------------------------------------------------------------------------------------- merkle

TEST(Merkle, InclusionInRandomTrees) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const PoseidonParams& p = poseidon_arity2();
  for (size_t depth : {size_t(1), size_t(3), size_t(5)}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    std::vector<Fr> leaves(size_t(1) << depth);
    for (auto& l : leaves) l = random_fr(rng);
    auto tree = merkle_tree(p, leaves);
    ASSERT_TRUE(tree.ok());
    const Fr root = tree->back()[0];
    const uint64_t index = rng() % leaves.size();
    const std::vector<Fr> path = merkle_path(*tree, index);
    EXPECT_EQ(merkle_root(p, leaves[index], path, index), root);

    RecordingSystem cs;
    const Num leaf = Num::alloc(cs, leaves[index]);
    std::vector<Num> sibs;
    std::vector<Boolean> bits;
    for (size_t l = 0; l < depth; ++l) {
      sibs.push_back(Num::alloc(cs, path[l]));
      bits.push_back(Boolean::alloc(cs, (index >> l) & 1));
    }
    auto got = merkle_root_circuit(cs, p, leaf, sibs, bits);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->value, root);
    enforce_equal(cs, *got, Num::constant(root));
    EXPECT_TRUE(cs.is_satisfied());

    // The wrong index (other bits, same path) gives another root: the equality must fail.
    RecordingSystem bad;
    const Num leaf2 = Num::alloc(bad, leaves[index]);
    std::vector<Num> sibs2;
    std::vector<Boolean> bits2;
    for (size_t l = 0; l < depth; ++l) {
      sibs2.push_back(Num::alloc(bad, path[l]));
      bits2.push_back(Boolean::alloc(bad, ((index ^ 1) >> l) & 1));
    }
    auto wrong = merkle_root_circuit(bad, p, leaf2, sibs2, bits2);
    ASSERT_TRUE(wrong.ok());
    EXPECT_NE(wrong->value, root);
    enforce_equal(bad, *wrong, Num::constant(root));
    ASSERT_TRUE(bad.first_unsatisfied().has_value());
    EXPECT_EQ(*bad.first_unsatisfied(), bad.num_constraints() - 1);
  }
}

}  // namespace
}  // namespace cuzk::r1cs
