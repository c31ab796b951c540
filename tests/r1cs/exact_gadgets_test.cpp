// The gadgets row for row as bellpepper-core 0.2 and bellperson 0.27 build them. Every expected
// row below is written out from upstream's source (crates/bellpepper-core/src/gadgets/boolean.rs,
// num.rs; bellperson src/gadgets/{multieq,multipack,uint32,sha256}.rs), and the SHA-256 counts
// are those bellperson's own tests assert.
#include <gtest/gtest.h>

#include <random>

#include "r1cs/gadgets/multipack.hpp"
#include "r1cs/gadgets/sha256.hpp"
#include "r1cs/matrices.hpp"
#include "row_check.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

using test::row_is;
using test::side;
using K = Boolean::Kind;
const Variable kOne = Variable::one();

// ------------------------------------------------------------------------------------- booleans

TEST(ExactBoolean, AllocRow) {
  RecordingSystem cs;
  const AllocatedBit a = AllocatedBit::alloc(cs, true);
  const auto m = cs.matrices();
  EXPECT_TRUE(row_is(m, 0, side({{kOne, 1}, {a.variable(), -1}}), side({{a.variable(), 1}}), {}));
}

TEST(ExactBoolean, XorArms) {
  RecordingSystem cs;
  const AllocatedBit a = AllocatedBit::alloc(cs, true), b = AllocatedBit::alloc(cs, false);
  const Variable A = a.variable(), B = b.variable();
  const Boolean ia(a), ib(b);
  // Not ⊕ Is: the Is operand's bit is "a" in (2a)·(b) = (a + b - c); the result is negated.
  const Boolean r0 = xor_bits(cs, !ia, ib);
  // Is ⊕ Not.
  const Boolean r1 = xor_bits(cs, ia, !ib);
  // Not ⊕ Not and Is ⊕ Is: Is(xor) in argument order.
  const Boolean r2 = xor_bits(cs, !ib, !ia);
  const Boolean r3 = xor_bits(cs, ib, ia);
  EXPECT_EQ(r0.kind(), K::negated);
  EXPECT_EQ(r1.kind(), K::negated);
  EXPECT_EQ(r2.kind(), K::is);
  EXPECT_EQ(r3.kind(), K::is);
  EXPECT_EQ(r0.value(), false);  // ¬1 ⊕ 0
  EXPECT_EQ(r1.value(), false);  // 1 ⊕ ¬0
  EXPECT_EQ(r2.value(), true);
  EXPECT_EQ(r3.value(), true);
  // Constants fold: no rows.
  const Boolean f0 = xor_bits(cs, Boolean::constant(false), !ia);
  const Boolean f1 = xor_bits(cs, ia, Boolean::constant(true));
  const Boolean f2 = xor_bits(cs, Boolean::constant(true), Boolean::constant(false));
  EXPECT_EQ(f0.kind(), K::negated);
  EXPECT_EQ(f0.bit().variable(), A);
  EXPECT_EQ(f1.kind(), K::negated);
  EXPECT_EQ(f1.bit().variable(), A);
  EXPECT_TRUE(f2.is_constant() && f2.value());

  ASSERT_EQ(cs.num_constraints(), 6u);
  EXPECT_EQ(cs.num_aux(), 6u);
  const auto m = cs.matrices();
  const Variable R0 = r0.bit().variable(), R1 = r1.bit().variable();
  const Variable R2 = r2.bit().variable(), R3 = r3.bit().variable();
  EXPECT_TRUE(row_is(m, 2, side({{B, 2}}), side({{A, 1}}), side({{A, 1}, {B, 1}, {R0, -1}})));
  EXPECT_TRUE(row_is(m, 3, side({{A, 2}}), side({{B, 1}}), side({{A, 1}, {B, 1}, {R1, -1}})));
  EXPECT_TRUE(row_is(m, 4, side({{B, 2}}), side({{A, 1}}), side({{A, 1}, {B, 1}, {R2, -1}})));
  EXPECT_TRUE(row_is(m, 5, side({{B, 2}}), side({{A, 1}}), side({{A, 1}, {B, 1}, {R3, -1}})));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(ExactBoolean, AndArms) {
  RecordingSystem cs;
  const AllocatedBit a = AllocatedBit::alloc(cs, true), b = AllocatedBit::alloc(cs, false);
  const Variable A = a.variable(), B = b.variable();
  const Boolean ia(a), ib(b);
  const Boolean r0 = and_bits(cs, !ia, ib);   // and_not(b, a)
  const Boolean r1 = and_bits(cs, ia, !ib);   // and_not(a, b)
  const Boolean r2 = and_bits(cs, !ia, !ib);  // nor(a, b)
  const Boolean r3 = and_bits(cs, ib, ia);    // and(b, a)
  EXPECT_TRUE(and_bits(cs, Boolean::constant(false), ia).is_constant());
  EXPECT_EQ(and_bits(cs, !ib, Boolean::constant(true)).kind(), K::negated);
  for (const Boolean& r : {r0, r1, r2, r3}) EXPECT_EQ(r.kind(), K::is);
  EXPECT_EQ(r0.value(), false);
  EXPECT_EQ(r1.value(), true);
  EXPECT_EQ(r2.value(), false);
  EXPECT_EQ(r3.value(), false);
  ASSERT_EQ(cs.num_constraints(), 6u);
  const auto m = cs.matrices();
  EXPECT_TRUE(row_is(m, 2, side({{B, 1}}), side({{kOne, 1}, {A, -1}}), side({{r0.bit().variable(), 1}})));
  EXPECT_TRUE(row_is(m, 3, side({{A, 1}}), side({{kOne, 1}, {B, -1}}), side({{r1.bit().variable(), 1}})));
  EXPECT_TRUE(
      row_is(m, 4, side({{kOne, 1}, {A, -1}}), side({{kOne, 1}, {B, -1}}), side({{r2.bit().variable(), 1}})));
  EXPECT_TRUE(row_is(m, 5, side({{B, 1}}), side({{A, 1}}), side({{r3.bit().variable(), 1}})));
  EXPECT_TRUE(cs.is_satisfied());
}

struct Three {
  RecordingSystem cs;
  AllocatedBit a, b, c;
  Three(bool x, bool y, bool z)
      : a(AllocatedBit::alloc(cs, x)), b(AllocatedBit::alloc(cs, y)), c(AllocatedBit::alloc(cs, z)) {}
};

TEST(ExactBoolean, Sha256ChArms) {
  const Boolean F = Boolean::constant(false), T = Boolean::constant(true);
  for (int mask = 0; mask < 8; ++mask) {
    SCOPED_TRACE("mask " + std::to_string(mask));
    Three t(mask & 1, mask & 2, mask & 4);
    const Variable A = t.a.variable(), B = t.b.variable(), C = t.c.variable();
    const Boolean a(t.a), b(t.b), c(t.c);
    auto ch = [](bool x, bool y, bool z) { return (x && y) != (!x && z); };
    size_t row = 3;
    // 2: a = false → c.
    Boolean r = sha256_ch(t.cs, F, b, c);
    EXPECT_EQ(r.bit().variable(), C);
    // 3: b = false → and(¬a, c) = and_not(c, a).
    r = sha256_ch(t.cs, a, F, c);
    EXPECT_EQ(r.value(), ch(a.value(), false, c.value()));
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{C, 1}}), side({{kOne, 1}, {A, -1}}),
                       side({{r.bit().variable(), 1}})));
    // 4: c = false → and(a, b).
    r = sha256_ch(t.cs, a, b, F);
    EXPECT_TRUE(
        row_is(t.cs.matrices(), row++, side({{A, 1}}), side({{B, 1}}), side({{r.bit().variable(), 1}})));
    // 5: c = true → ¬and(a, ¬b) = ¬and_not(a, b).
    r = sha256_ch(t.cs, a, b, T);
    EXPECT_EQ(r.kind(), K::negated);
    EXPECT_EQ(r.value(), ch(a.value(), b.value(), true));
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{A, 1}}), side({{kOne, 1}, {B, -1}}),
                       side({{r.bit().variable(), 1}})));
    // 6: b = true → ¬and(¬a, ¬c) = ¬nor(a, c).
    r = sha256_ch(t.cs, a, T, c);
    EXPECT_EQ(r.kind(), K::negated);
    EXPECT_EQ(r.value(), ch(a.value(), true, c.value()));
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{kOne, 1}, {A, -1}}), side({{kOne, 1}, {C, -1}}),
                       side({{r.bit().variable(), 1}})));
    // 7 with a = true: not folded; alloc ch; (b - c)·(ONE) = (ch - c).
    r = sha256_ch(t.cs, T, b, c);
    EXPECT_EQ(r.kind(), K::is);
    EXPECT_EQ(r.value(), b.value());
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{B, 1}, {C, -1}}), side({{kOne, 1}}),
                       side({{r.bit().variable(), 1}, {C, -1}})));
    // 7, all allocated with a negation: (¬b - c)·(a) = (ch - c).
    r = sha256_ch(t.cs, a, !b, c);
    EXPECT_EQ(r.value(), ch(a.value(), !b.value(), c.value()));
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{kOne, 1}, {B, -1}, {C, -1}}), side({{A, 1}}),
                       side({{r.bit().variable(), 1}, {C, -1}})));
    // Constant cases that cost nothing.
    EXPECT_TRUE(sha256_ch(t.cs, T, F, c).is_constant());
    EXPECT_TRUE(sha256_ch(t.cs, T, T, F).is_constant());
    EXPECT_EQ(sha256_ch(t.cs, a, T, F).bit().variable(), A);
    EXPECT_EQ(t.cs.num_constraints(), row);
    EXPECT_EQ(t.cs.num_aux(), row);
    EXPECT_TRUE(t.cs.is_satisfied());
  }
}

TEST(ExactBoolean, Sha256MajArms) {
  const Boolean F = Boolean::constant(false), T = Boolean::constant(true);
  for (int mask = 0; mask < 8; ++mask) {
    SCOPED_TRACE("mask " + std::to_string(mask));
    Three t(mask & 1, mask & 2, mask & 4);
    const Variable A = t.a.variable(), B = t.b.variable(), C = t.c.variable();
    const Boolean a(t.a), b(t.b), c(t.c);
    auto maj = [](bool x, bool y, bool z) { return int(x) + int(y) + int(z) >= 2; };
    size_t row = 3;
    Boolean r = sha256_maj(t.cs, F, b, c);  // and(b, c)
    EXPECT_TRUE(
        row_is(t.cs.matrices(), row++, side({{B, 1}}), side({{C, 1}}), side({{r.bit().variable(), 1}})));
    r = sha256_maj(t.cs, a, F, c);  // and(a, c)
    EXPECT_TRUE(
        row_is(t.cs.matrices(), row++, side({{A, 1}}), side({{C, 1}}), side({{r.bit().variable(), 1}})));
    r = sha256_maj(t.cs, a, b, F);  // and(a, b)
    EXPECT_TRUE(
        row_is(t.cs.matrices(), row++, side({{A, 1}}), side({{B, 1}}), side({{r.bit().variable(), 1}})));
    r = sha256_maj(t.cs, a, b, T);  // ¬nor(a, b)
    EXPECT_EQ(r.kind(), K::negated);
    EXPECT_EQ(r.value(), maj(a.value(), b.value(), true));
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{kOne, 1}, {A, -1}}), side({{kOne, 1}, {B, -1}}),
                       side({{r.bit().variable(), 1}})));
    r = sha256_maj(t.cs, a, T, c);  // ¬nor(a, c)
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{kOne, 1}, {A, -1}}), side({{kOne, 1}, {C, -1}}),
                       side({{r.bit().variable(), 1}})));
    r = sha256_maj(t.cs, T, b, c);  // ¬nor(b, c)
    EXPECT_EQ(r.value(), maj(true, b.value(), c.value()));
    EXPECT_TRUE(row_is(t.cs.matrices(), row++, side({{kOne, 1}, {B, -1}}), side({{kOne, 1}, {C, -1}}),
                       side({{r.bit().variable(), 1}})));
    // All allocated: maj is allocated first, then bc = and(b, c) with its row, then the maj row.
    const size_t aux_before = t.cs.num_aux();
    r = sha256_maj(t.cs, a, b, c);
    EXPECT_EQ(r.value(), maj(a.value(), b.value(), c.value()));
    const Variable M = Variable::aux(uint32_t(aux_before)), BC = Variable::aux(uint32_t(aux_before + 1));
    EXPECT_EQ(r.bit().variable(), M);
    const auto m = t.cs.matrices();
    EXPECT_TRUE(row_is(m, row++, side({{B, 1}}), side({{C, 1}}), side({{BC, 1}})));
    EXPECT_TRUE(
        row_is(m, row++, side({{BC, 2}, {B, -1}, {C, -1}}), side({{A, 1}}), side({{BC, 1}, {M, -1}})));
    // With a negated operand: bc = and(¬b, c) = and_not(c, b).
    const size_t aux2 = t.cs.num_aux();
    r = sha256_maj(t.cs, a, !b, c);
    EXPECT_EQ(r.value(), maj(a.value(), !b.value(), c.value()));
    const Variable M2 = Variable::aux(uint32_t(aux2)), BC2 = Variable::aux(uint32_t(aux2 + 1));
    const auto m2 = t.cs.matrices();
    EXPECT_TRUE(row_is(m2, row++, side({{C, 1}}), side({{kOne, 1}, {B, -1}}), side({{BC2, 1}})));
    EXPECT_TRUE(row_is(m2, row++, side({{BC2, 2}, {kOne, -1}, {B, 1}, {C, -1}}), side({{A, 1}}),
                       side({{BC2, 1}, {M2, -1}})));
    EXPECT_TRUE(sha256_maj(t.cs, T, F, F).is_constant());
    EXPECT_EQ(t.cs.num_constraints(), row);
    EXPECT_TRUE(t.cs.is_satisfied());
  }
}

TEST(ExactBoolean, EnforceEqualForms) {
  RecordingSystem cs;
  const AllocatedBit a = AllocatedBit::alloc(cs, true), b = AllocatedBit::alloc(cs, true);
  const Variable A = a.variable(), B = b.variable();
  enforce_equal(cs, a, b);
  enforce_equal(cs, Boolean::constant(true), a);
  enforce_equal(cs, !Boolean(a), Boolean::constant(false));
  enforce_equal(cs, Boolean::constant(true), Boolean::constant(true));  // nothing
  const auto m = cs.matrices();
  ASSERT_EQ(m.num_constraints(), 5u);
  EXPECT_TRUE(row_is(m, 2, {}, {}, side({{A, 1}, {B, -1}})));
  EXPECT_TRUE(row_is(m, 3, {}, {}, side({{kOne, 1}, {A, -1}})));
  EXPECT_TRUE(row_is(m, 4, {}, {}, side({{kOne, 1}, {A, -1}})));
  EXPECT_TRUE(cs.is_satisfied());
  enforce_equal(cs, Boolean::constant(true), Boolean::constant(false));
  EXPECT_FALSE(cs.is_satisfied());
}

// ---------------------------------------------------------------------------------- nums, packing

TEST(ExactNum, ToBitsLeRow) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (const Fr& x : {test::random_fr(rng), Fr::zero(), -Fr::one()}) {
    RecordingSystem cs;
    const AllocatedNum n = AllocatedNum::alloc(cs, x);
    const std::vector<Boolean> bits = to_bits_le(cs, n);
    ASSERT_EQ(bits.size(), 255u);
    ASSERT_EQ(cs.num_constraints(), 256u);
    ASSERT_EQ(cs.num_aux(), 256u);
    test::Side c;
    for (unsigned i = 0; i < 255; ++i) {
      EXPECT_EQ(bits[i].kind(), K::is);
      EXPECT_EQ(bits[i].bit().variable(), Variable::aux(1 + i));  // bit 0 first
      EXPECT_EQ(bits[i].value(), canonical_bit(x, i));
      c.emplace_back(Variable::aux(1 + i), power_of_two(i));
    }
    c.emplace_back(n.variable, -Fr::one());
    EXPECT_TRUE(row_is(cs.matrices(), 255, {}, {}, c));
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(ExactNum, InputizeRow) {
  RecordingSystem cs;
  const AllocatedNum x = AllocatedNum::alloc(cs, Fr::from_u64(77));
  const Variable p = inputize(cs, x);
  EXPECT_EQ(p, Variable::input(1));
  EXPECT_TRUE(row_is(cs.matrices(), 0, side({{p, 1}}), side({{kOne, 1}}), side({{x.variable, 1}})));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(ExactMultipack, PackBitsTakesAtMost254) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  RecordingSystem cs;
  std::vector<Boolean> bits;
  std::vector<bool> values;
  for (int i = 0; i < 256; ++i) {
    values.push_back(rng() & 1);
    bits.push_back(i % 3 == 0 ? !Boolean::alloc(cs, !values.back()) : Boolean::alloc(cs, values.back()));
  }
  bits[5] = Boolean::constant(true);
  values[5] = true;
  const AllocatedNum x = pack_bits(cs, bits);
  test::Side a;
  for (unsigned i = 0; i < 254; ++i) {
    if (bits[i].is_constant()) {
      a.emplace_back(kOne, power_of_two(i));
    } else if (bits[i].kind() == K::is) {
      a.emplace_back(bits[i].bit().variable(), power_of_two(i));
    } else {
      a.emplace_back(kOne, power_of_two(i));
      a.emplace_back(bits[i].bit().variable(), -power_of_two(i));
    }
  }
  EXPECT_TRUE(row_is(cs.matrices(), 256, a, side({{kOne, 1}}), side({{x.variable, 1}})));
  EXPECT_EQ(x.value, compute_multipacking(std::vector<bool>(values.begin(), values.begin() + 254)).at(0));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(ExactMultipack, PackIntoInputsChunks) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  RecordingSystem cs;
  std::vector<Boolean> bits;
  std::unique_ptr<bool[]> values(new bool[300]);
  for (int i = 0; i < 300; ++i) {
    values[i] = rng() & 1;
    bits.push_back(Boolean::alloc(cs, values[i]));
  }
  const std::vector<Variable> inputs = pack_into_inputs(cs, bits);
  ASSERT_EQ(inputs.size(), 2u);
  const std::vector<Fr> want = compute_multipacking(std::span<const bool>(values.get(), 300));
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(cs.input_assignment()[1], want[0]);
  EXPECT_EQ(cs.input_assignment()[2], want[1]);
  // Chunk 1 holds bits 254..299 with weights 2^0..2^45.
  test::Side a;
  for (unsigned i = 254; i < 300; ++i) a.emplace_back(bits[i].bit().variable(), power_of_two(i - 254));
  EXPECT_TRUE(row_is(cs.matrices(), 301, a, side({{kOne, 1}}), side({{inputs[1], 1}})));
  EXPECT_TRUE(cs.is_satisfied());
  // An integer with the top bits of the chunk set: 2^253 + 1.
  std::vector<bool> top(254, false);
  top[0] = top[253] = true;
  EXPECT_EQ(compute_multipacking(top).at(0), power_of_two(253) + Fr::one());
}

}  // namespace
}  // namespace cuzk::r1cs
