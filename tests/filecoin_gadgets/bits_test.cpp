// Bit-order helpers and UInt64 against upstream's definitions (storage-proofs-core util.rs and
// gadgets/uint64.rs, storage-proofs-update gadgets.rs).
#include <gtest/gtest.h>

#include "filecoin/gadgets/uint64.hpp"
#include "helpers.hpp"
#include "r1cs/gadgets/multipack.hpp"
#include "tests/r1cs/row_check.hpp"

namespace cuzk::filecoin {
namespace {

using r1cs::AllocatedNum;
using r1cs::Boolean;
using r1cs::RecordingSystem;
using r1cs::Variable;

// upstream test_reverse_bit_numbering: the reversed to_bits_le bits are the bits of the value's 32
// little-endian bytes, most significant bit of each byte first.
TEST(ReverseBitNumbering, FieldElementGivesItsLittleEndianBytes) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (const Fr& x : test::edge_values(rng)) {
    RecordingSystem cs;
    const AllocatedNum n = AllocatedNum::alloc(cs, x);
    const std::vector<Boolean> bits = test::porep_bits(cs, n);
    ASSERT_EQ(bits.size(), 256u);
    const Domain bytes = fr_to_domain(x);
    for (size_t i = 0; i < 256; ++i)
      ASSERT_EQ(bits[i].value(), bool((bytes[i / 8] >> (7 - i % 8)) & 1)) << "bit " << i;
    // Bit 255 of the value (the top bit of byte 31) is the padding constant.
    for (size_t i = 0; i < 256; ++i) EXPECT_EQ(bits[i].is_constant(), i == 248) << i;
    EXPECT_EQ(cs.num_constraints(), 256u);
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(ReverseBitNumbering, PadsPartialBytes) {
  RecordingSystem cs;
  const Boolean a = Boolean::alloc(cs, true), b = Boolean::alloc(cs, false), c = Boolean::alloc(cs, true);
  const Boolean in[] = {a, b, c, a, b, c, a, b, c, a};  // 10 bits → 16
  const std::vector<Boolean> out = reverse_bit_numbering(in);
  ASSERT_EQ(out.size(), 16u);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(out[i].bit().variable(), in[7 - i].bit().variable());
  // Second byte: in[8], in[9], then six constant falses, reversed.
  EXPECT_EQ(out[15].bit().variable(), in[8].bit().variable());
  EXPECT_EQ(out[14].bit().variable(), in[9].bit().variable());
  for (size_t i = 8; i < 14; ++i) EXPECT_TRUE(out[i].is_constant() && !out[i].value());
  EXPECT_TRUE(reverse_bit_numbering({}).empty());
}

TEST(AllocatedNumToAllocatedBits, RowForm) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (const Fr& x : test::edge_values(rng)) {
    RecordingSystem cs;
    const AllocatedNum n = AllocatedNum::alloc(cs, x);
    const std::vector<r1cs::AllocatedBit> bits = allocated_num_to_allocated_bits(cs, n);
    ASSERT_EQ(bits.size(), 255u);
    ASSERT_EQ(cs.num_constraints(), 256u);
    r1cs::test::Side a;
    for (unsigned i = 0; i < 255; ++i) {
      EXPECT_EQ(bits[i].value(), r1cs::canonical_bit(x, i));
      a.emplace_back(bits[i].variable(), r1cs::power_of_two(i));
    }
    EXPECT_TRUE(r1cs::test::row_is(cs.matrices(), 255, a, r1cs::test::side({{Variable::one(), 1}}),
                                   r1cs::test::side({{n.variable, 1}})));
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(UInt64, AllocBitsAndInput) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (uint64_t v : {uint64_t(0), ~uint64_t(0), uint64_t(1) << 63, uint64_t(rng())}) {
    RecordingSystem cs;
    const UInt64 w = UInt64::alloc(cs, v);
    EXPECT_EQ(cs.num_constraints(), 64u);
    EXPECT_EQ(cs.num_aux(), 64u);
    for (unsigned i = 0; i < 64; ++i) {
      EXPECT_EQ(w.bit(i).bit().variable(), Variable::aux(i));  // bit 0 first
      EXPECT_EQ(w.bit(i).value(), bool((v >> i) & 1));
      EXPECT_EQ(w.bits_be()[i].bit().variable(), Variable::aux(63 - i));
    }
    const Variable p = w.pack_into_input(cs);
    EXPECT_EQ(p, Variable::input(1));
    ASSERT_EQ(cs.num_inputs(), 2u);
    uint64_t limbs[4] = {v, 0, 0, 0};
    EXPECT_EQ(cs.input_assignment()[1], Fr::from_canonical(limbs));
    r1cs::test::Side a;
    for (unsigned i = 0; i < 64; ++i) a.emplace_back(Variable::aux(i), r1cs::power_of_two(i));
    EXPECT_TRUE(r1cs::test::row_is(cs.matrices(), 64, a, r1cs::test::side({{Variable::one(), 1}}),
                                   r1cs::test::side({{p, 1}})));
    EXPECT_TRUE(cs.is_satisfied());
  }
  const UInt64 k = UInt64::constant(22);
  EXPECT_EQ(k.value(), 22u);
  for (unsigned i = 0; i < 64; ++i)
    EXPECT_TRUE(k.bit(i).is_constant() && k.bit(i).value() == bool((uint64_t(22) >> i) & 1));
}

}  // namespace
}  // namespace cuzk::filecoin
