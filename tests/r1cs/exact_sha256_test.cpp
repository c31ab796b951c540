// UInt32 additions, MultiEq packing and the SHA-256 circuit as bellperson 0.27 builds them. The
// counts are those bellperson's tests assert (src/gadgets/sha256.rs: test_full_block 25,840,
// test_full_hash 44,874, test_blank_hash 0); the digests are checked against the native SHA-256,
// itself checked against FIPS 180-4 vectors in gadgets_test.cpp.
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "r1cs/gadgets/num.hpp"
#include "r1cs/gadgets/sha256.hpp"
#include "r1cs/gadgets/uint32.hpp"
#include "r1cs/matrices.hpp"
#include "row_check.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

using test::row_is;
using test::side;
const Variable kOne = Variable::one();

// ---------------------------------------------------------------------------------------- uint32

TEST(ExactUInt32, AddmanyWidthsByOperandCount) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  // n operands → result width = bit length of n·(2^32 - 1).
  const std::pair<size_t, size_t> widths[] = {{2, 33}, {3, 34}, {4, 34}, {5, 35}, {7, 35}, {8, 35}, {10, 36}};
  for (const auto& [n, width] : widths) {
    SCOPED_TRACE("operands " + std::to_string(n));
    RecordingSystem cs;
    std::vector<UInt32> ops;
    uint32_t want = 0;
    for (size_t k = 0; k < n; ++k) {
      const auto v = uint32_t(rng());
      want += v;
      ops.push_back(k == 1 ? UInt32::constant(v) : UInt32::alloc(cs, v));
    }
    const size_t rows0 = cs.num_constraints(), aux0 = cs.num_aux();
    UInt32 sum;
    {
      MultiEq eq(cs);
      sum = UInt32::addmany(eq, ops);
    }
    EXPECT_EQ(sum.value(), want);
    EXPECT_EQ(cs.num_aux() - aux0, width);
    EXPECT_EQ(cs.num_constraints() - rows0, width + 1);  // booleanity of each bit, then the MultiEq row
    uint32_t from_bits = 0;
    for (unsigned i = 0; i < 32; ++i) from_bits |= uint32_t(sum.bit(i).value()) << i;
    EXPECT_EQ(from_bits, want);
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(ExactUInt32, AddmanyOfConstantsIsFree) {
  RecordingSystem cs;
  MultiEq eq(cs);
  const UInt32 ops[] = {UInt32::constant(0xffffffff), UInt32::constant(7), UInt32::constant(0x80000000)};
  const UInt32 sum = UInt32::addmany(eq, ops);
  eq.flush();
  EXPECT_TRUE(sum.is_constant());
  EXPECT_EQ(sum.value(), uint32_t(0xffffffffu + 7u + 0x80000000u));
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(cs.num_aux(), 0u);
}

// The single row of x + K: (Σ 2^i x_i + K·ONE)·(ONE) = (Σ_{j<33} 2^j r_j).
TEST(ExactUInt32, AddmanyRow) {
  RecordingSystem cs;
  const UInt32 x = UInt32::alloc(cs, 0x89abcdef);
  const uint32_t k = 0x428a2f98;
  MultiEq eq(cs);
  const UInt32 ops[] = {x, UInt32::constant(k)};
  const UInt32 sum = UInt32::addmany(eq, ops);
  eq.flush();
  ASSERT_EQ(cs.num_constraints(), 32u + 33u + 1u);
  test::Side a, c;
  for (unsigned i = 0; i < 32; ++i) a.emplace_back(x.bit(i).bit().variable(), power_of_two(i));
  a.emplace_back(kOne, Fr::from_u64(k));
  for (unsigned j = 0; j < 33; ++j) c.emplace_back(Variable::aux(32 + j), power_of_two(j));
  EXPECT_TRUE(row_is(cs.matrices(), 65, a, side({{kOne, 1}}), c));
  EXPECT_EQ(sum.value(), uint32_t(0x89abcdefu + k));
  EXPECT_TRUE(cs.is_satisfied());
}

// Seven 33-bit equalities fill 231 bits; the eighth would reach 264 ≥ 254, so it first emits the
// pending row, after its own result bits' rows. A negated operand bit contributes 2^i·ONE - 2^i·v.
TEST(ExactUInt32, MultiEqFlushOrder) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  RecordingSystem cs;
  const UInt32 x = UInt32::alloc(cs, uint32_t(rng()));
  UInt32 y = UInt32::alloc(cs, uint32_t(rng()));
  y = y.xor_with(cs, UInt32::constant(0xffffffff));  // all bits negated, no rows
  const size_t base = cs.num_constraints();
  ASSERT_EQ(base, 64u);
  MultiEq eq(cs);
  for (int k = 0; k < 8; ++k) {
    const UInt32 ops[] = {x, y};
    (void)UInt32::addmany(eq, ops);
  }
  // 8 × 33 booleanity rows, with the flush row after the eighth sum's bits.
  ASSERT_EQ(cs.num_constraints(), base + 8 * 33 + 1);
  eq.flush();
  ASSERT_EQ(cs.num_constraints(), base + 8 * 33 + 2);
  const ConstraintMatrices m = cs.matrices();
  for (size_t r = base; r < base + 8 * 33; ++r) {
    ASSERT_EQ(m.a[r].size(), 2u) << r;  // ONE - b
    ASSERT_TRUE(m.c[r].empty()) << r;
  }
  // Row 1 of the MultiEq packs sums 0..6 at shifts 0, 33, …, 198; row 2 the eighth at shift 0.
  auto expected = [&](const std::vector<unsigned>& sums) {
    test::Side a, c;
    for (size_t s = 0; s < sums.size(); ++s) {
      const unsigned shift = unsigned(33 * s);
      for (unsigned i = 0; i < 32; ++i) {
        a.emplace_back(x.bit(i).bit().variable(), power_of_two(shift + i));
        a.emplace_back(kOne, power_of_two(shift + i));
        a.emplace_back(y.bit(i).bit().variable(), -power_of_two(shift + i));
      }
      for (unsigned j = 0; j < 33; ++j)
        c.emplace_back(Variable::aux(64 + 33 * sums[s] + j), power_of_two(shift + j));
    }
    return std::make_pair(a, c);
  };
  const auto [a1, c1] = expected({0, 1, 2, 3, 4, 5, 6});
  EXPECT_TRUE(row_is(m, base + 8 * 33, a1, side({{kOne, 1}}), c1));
  const auto [a2, c2] = expected({7});
  EXPECT_TRUE(row_is(m, base + 8 * 33 + 1, a2, side({{kOne, 1}}), c2));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(ExactUInt32, MultiEqCapacityBoundary) {
  RecordingSystem cs;
  const Variable v = cs.alloc(Fr::zero());
  {
    MultiEq eq(cs);
    eq.enforce_equal(200, v, v);
    eq.enforce_equal(53, v, v);  // 253 < 254: same row
    EXPECT_EQ(cs.num_constraints(), 0u);
  }
  EXPECT_EQ(cs.num_constraints(), 1u);  // emitted when the MultiEq ends
  {
    MultiEq eq(cs);
    eq.enforce_equal(200, v, v);
    eq.enforce_equal(54, v, v);  // 254 ≥ 254: the first goes out alone
    EXPECT_EQ(cs.num_constraints(), 2u);
  }
  EXPECT_EQ(cs.num_constraints(), 3u);
  // The second row of the second MultiEq holds only the 54-bit equality, at shift 0.
  EXPECT_TRUE(row_is(cs.matrices(), 2, side({{v, 1}}), side({{kOne, 1}}), side({{v, 1}})));
  EXPECT_TRUE(row_is(cs.matrices(), 0, test::Side{{{v, Fr::one() + power_of_two(200)}}}, side({{kOne, 1}}),
                     test::Side{{{v, Fr::one() + power_of_two(200)}}}));
}

TEST(ExactUInt32, RotrShrFromBitsBe) {
  RecordingSystem cs;
  const UInt32 x = UInt32::alloc(cs, 0x12345678);
  EXPECT_EQ(x.rotr(7).value(), std::rotr(0x12345678u, 7));
  EXPECT_EQ(x.rotr(7).bit(0).bit().variable(), x.bit(7).bit().variable());
  EXPECT_EQ(x.rotr(39).value(), x.rotr(7).value());
  const UInt32 s = x.shr(10);
  EXPECT_EQ(s.value(), 0x12345678u >> 10);
  for (unsigned i = 22; i < 32; ++i) EXPECT_TRUE(s.bit(i).is_constant() && !s.bit(i).value());
  const std::array<Boolean, 32> be = x.bits_be();
  EXPECT_EQ(be[0].bit().variable(), x.bit(31).bit().variable());
  const UInt32 back = UInt32::from_bits_be(be);
  EXPECT_EQ(back.value(), 0x12345678u);
  EXPECT_EQ(cs.num_constraints(), 32u);
}

// ---------------------------------------------------------------------------------------- sha256

std::vector<Boolean> alloc_bits(ConstraintSystem& cs, std::mt19937_64& rng, size_t n) {
  std::vector<Boolean> bits;
  for (size_t i = 0; i < n; ++i) bits.push_back(Boolean::alloc(cs, rng() & 1));
  return bits;
}

std::vector<uint8_t> bytes_of(std::span<const Boolean> bits) { return bits_to_bytes(bits); }

TEST(ExactSha256, FullBlockCount) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (bool with_values : {true, false}) {
    RecordingSystem cs(with_values);
    const std::vector<Boolean> block = alloc_bits(cs, rng, 512);
    const auto out =
        sha256_compression_circuit(cs, std::span<const Boolean, 512>(block.data(), 512), sha256_iv_circuit());
    EXPECT_EQ(cs.num_constraints() - 512, 25840u);
    if (!with_values) continue;
    EXPECT_TRUE(cs.is_satisfied());
    const std::vector<uint8_t> bytes = bytes_of(block);
    Sha256State state = kSha256Iv;
    sha256_compress(state, bytes.data());
    for (size_t i = 0; i < 8; ++i) EXPECT_EQ(out[i].value(), state[i]) << i;
  }
}

TEST(ExactSha256, FullHashCount) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  RecordingSystem cs;
  const std::vector<Boolean> message = alloc_bits(cs, rng, 512);
  const std::vector<Boolean> digest = sha256_circuit(cs, message);
  EXPECT_EQ(cs.num_constraints() - 512, 44874u);
  EXPECT_TRUE(cs.is_satisfied());
  const auto want = sha256(bytes_of(message));
  EXPECT_EQ(bytes_of(digest), std::vector<uint8_t>(want.begin(), want.end()));
}

// bellperson's test_blank_hash: the padded empty message as a constant block under the constant IV.
TEST(ExactSha256, ConstantBlockIsFree) {
  RecordingSystem cs;
  std::vector<Boolean> block(512, Boolean::constant(false));
  block[0] = Boolean::constant(true);
  const auto out =
      sha256_compression_circuit(cs, std::span<const Boolean, 512>(block.data(), 512), sha256_iv_circuit());
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(cs.num_aux(), 0u);
  std::vector<Boolean> bits;
  for (const UInt32& w : out) {
    EXPECT_TRUE(w.is_constant());
    const auto be = w.bits_be();
    bits.insert(bits.end(), be.begin(), be.end());
  }
  const auto want = sha256({});  // e3b0c442…
  EXPECT_EQ(bytes_of(bits), std::vector<uint8_t>(want.begin(), want.end()));
  // The same through sha256_circuit of the empty message.
  EXPECT_EQ(bytes_of(sha256_circuit(cs, {})), std::vector<uint8_t>(want.begin(), want.end()));
  EXPECT_EQ(cs.num_constraints(), 0u);
}

TEST(ExactSha256, MatchesNativeOnRandomMessages) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  // One, two and three blocks, around the padding boundaries (55/56 and 119/120 bytes).
  for (size_t len :
       {size_t(3), size_t(31), size_t(55), size_t(56), size_t(64), size_t(119), size_t(120), size_t(130)}) {
    SCOPED_TRACE("length " + std::to_string(len));
    std::vector<uint8_t> msg(len);
    for (auto& byte : msg) byte = uint8_t(rng());
    RecordingSystem cs;
    std::vector<Boolean> bits;
    for (bool b : bytes_to_bits(msg)) {
      // A mix of operand kinds: allocated, negated allocated, constant.
      const unsigned kind = unsigned(rng() % 4);
      bits.push_back(kind == 0   ? Boolean::constant(b)
                     : kind == 1 ? !Boolean::alloc(cs, !b)
                                 : Boolean::alloc(cs, b));
    }
    const std::vector<Boolean> digest = sha256_circuit(cs, bits);
    const auto want = sha256(msg);
    EXPECT_EQ(bytes_of(digest), std::vector<uint8_t>(want.begin(), want.end()));
    ASSERT_TRUE(cs.is_satisfied());
  }
}

}  // namespace
}  // namespace cuzk::r1cs
