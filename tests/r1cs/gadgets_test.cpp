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

// ---------------------------------------------------------------------------------------- merkle

TEST(Merkle, InclusionInRandomTrees) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const PoseidonConstants& p = poseidon_constants_2();
  for (size_t depth : {size_t(1), size_t(3), size_t(5)}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    std::vector<Fr> leaves(size_t(1) << depth);
    for (auto& l : leaves) l = random_fr(rng);
    auto tree = merkle_tree(p, leaves);
    ASSERT_TRUE(tree.ok());
    const Fr root = tree->back()[0];
    const uint64_t index = rng() % leaves.size();
    const std::vector<Fr> path = merkle_path(*tree, index);
    EXPECT_EQ(*merkle_root(p, leaves[index], path, index), root);

    RecordingSystem cs;
    const Num leaf = Num::alloc(cs, leaves[index]);
    std::vector<Num> sibs;
    std::vector<Boolean> bits;
    for (size_t l = 0; l < depth; ++l) {
      sibs.push_back(Num::alloc(cs, path[l]));
      bits.push_back(Boolean::alloc(cs, (index >> l) & 1));
    }
    const size_t before = cs.num_constraints();
    auto got = merkle_root_circuit(cs, p, leaf, sibs, bits);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->value, root);
    EXPECT_EQ(cs.num_constraints() - before, depth * (1 + 311));  // swap + neptune's arity-2 hash
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
