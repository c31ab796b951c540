// Insertion and selection: upstream's row counts (rust-fil-proofs insertion.rs tests), every index
// position's result, and the exact pick sequences of reference §2.8 row by row.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "filecoin/por/insertion.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::filecoin {
namespace {

using r1cs::AllocatedBit;
using r1cs::Boolean;
using r1cs::Num;
using r1cs::RecordingSystem;
using r1cs::SparseRow;

Fr random_fr(std::mt19937_64& rng) {
  uint64_t v[Fr::N];
  for (auto& x : v) x = rng();
  v[Fr::N - 1] &= (uint64_t(1) << 62) - 1;
  return Fr::from_canonical(v);
}

uint32_t wire(const RecordingSystem& cs, const Num& n) {
  return uint32_t(cs.num_inputs()) + n.lc.terms()[0].var.index;
}

TEST(Insertion, EveryIndexOfEveryArity) {
  std::mt19937_64 rng(std::random_device{}());
  // rust-fil-proofs test_insert: 2 → 2 rows, 4 → 8, 8 → 22, otherwise size·(size − 1).
  const std::pair<size_t, size_t> cases[] = {{2, 2}, {4, 8}, {8, 22}, {16, 240}};
  for (const auto& [size, rows] : cases) {
    for (size_t index = 0; index < size; ++index) {
      SCOPED_TRACE("arity " + std::to_string(size) + " index " + std::to_string(index));
      RecordingSystem cs;
      std::vector<Num> siblings;
      for (size_t i = 0; i + 1 < size; ++i) siblings.push_back(Num::alloc(cs, random_fr(rng)));
      const Num cur = Num::alloc(cs, random_fr(rng));
      std::vector<AllocatedBit> bits;
      for (size_t b = 0; (size_t(1) << b) < size; ++b)
        bits.push_back(AllocatedBit::alloc(cs, (index >> b) & 1));
      const size_t before = cs.num_constraints(), aux_before = cs.num_aux();
      auto out = insert(cs, cur, bits, siblings);
      ASSERT_TRUE(out.ok()) << out.message();
      EXPECT_EQ(cs.num_constraints() - before, rows);
      EXPECT_EQ(cs.num_aux() - aux_before, rows);  // every row allocates its result
      ASSERT_EQ(out->size(), size);
      for (size_t pos = 0; pos < size; ++pos) {
        const Fr want = pos < index    ? siblings[pos].value
                        : pos == index ? cur.value
                                       : siblings[pos - 1].value;
        EXPECT_EQ((*out)[pos].value, want) << "position " << pos;
        EXPECT_EQ((*out)[pos].lc.evaluate(cs.input_assignment(), cs.aux_assignment()), want);
      }
      EXPECT_TRUE(cs.is_satisfied());
    }
  }
}

TEST(Insertion, RejectsMismatchedSizes) {
  RecordingSystem cs;
  std::vector<Num> three(3, Num::alloc(cs, Fr::one()));
  std::vector<AllocatedBit> one_bit = {AllocatedBit::alloc(cs, false)};
  EXPECT_FALSE(insert(cs, three[0], one_bit, three).ok());
  EXPECT_FALSE(insert(cs, three[0], {}, {}).ok());
  std::vector<Boolean> bits = {Boolean(one_bit[0])};
  EXPECT_FALSE(select(cs, three, bits).ok());
}

// The pick sequences of reference §2.8 for arity 4 and 8, transcribed from its text: each entry is
// (condition, if-true, if-false), naming a = cur, b..h the siblings, 0..2 the index bits, N the
// NOR and A the AND of bits 0 and 1, and `.` the previous pick of the same output position.
struct PickSpec {
  char cond, yes, no;
};

void expect_pick_rows(size_t size, const std::vector<std::vector<PickSpec>>& positions) {
  RecordingSystem cs;
  std::mt19937_64 rng(size);
  std::map<char, uint32_t> wires;
  std::vector<Num> siblings;
  for (size_t i = 0; i + 1 < size; ++i) {
    siblings.push_back(Num::alloc(cs, random_fr(rng)));
    wires[char('b' + i)] = wire(cs, siblings.back());
  }
  const Num cur = Num::alloc(cs, random_fr(rng));
  wires['a'] = wire(cs, cur);
  std::vector<AllocatedBit> bits;
  for (size_t b = 0; (size_t(1) << b) < size; ++b) {
    bits.push_back(AllocatedBit::alloc(cs, rng() & 1));
    wires[char('0' + b)] = uint32_t(cs.num_inputs()) + bits.back().variable().index;
  }
  const size_t first = cs.num_constraints();
  const uint32_t first_aux = uint32_t(cs.num_inputs() + cs.num_aux());
  ASSERT_TRUE(insert(cs, cur, bits, siblings).ok());
  const r1cs::ConstraintMatrices m = cs.matrices();
  const Fr one = Fr::one(), minus = -Fr::one();
  size_t row = first;
  uint32_t next_aux = first_aux;
  if (size == 8) {
    // AllocatedBit::nor(b0, b1): (ONE − b0)·(ONE − b1) = (nor); and(b0, b1): (b0)·(b1) = (and).
    EXPECT_EQ(m.a[row], (SparseRow{{0, one}, {wires['0'], minus}}));
    EXPECT_EQ(m.b[row], (SparseRow{{0, one}, {wires['1'], minus}}));
    EXPECT_EQ(m.c[row], (SparseRow{{next_aux, one}}));
    wires['N'] = next_aux++;
    ++row;
    EXPECT_EQ(m.a[row], (SparseRow{{wires['0'], one}}));
    EXPECT_EQ(m.b[row], (SparseRow{{wires['1'], one}}));
    EXPECT_EQ(m.c[row], (SparseRow{{next_aux, one}}));
    wires['A'] = next_aux++;
    ++row;
  }
  for (size_t pos = 0; pos < positions.size(); ++pos) {
    uint32_t prev = 0;
    for (const PickSpec& p : positions[pos]) {
      SCOPED_TRACE("position " + std::to_string(pos) + " row " + std::to_string(row));
      const uint32_t yes = p.yes == '.' ? prev : wires.at(p.yes), no = p.no == '.' ? prev : wires.at(p.no);
      ASSERT_LT(row, m.num_constraints());
      // (no − yes)·(cond) = (no − result), terms ordered by wire.
      SparseRow a = yes < no ? SparseRow{{yes, minus}, {no, one}} : SparseRow{{no, one}, {yes, minus}};
      EXPECT_EQ(m.a[row], a);
      EXPECT_EQ(m.b[row], (SparseRow{{wires.at(p.cond), one}}));
      EXPECT_EQ(m.c[row], (SparseRow{{no, one}, {next_aux, minus}}));
      prev = next_aux++;
      ++row;
    }
  }
  EXPECT_EQ(row, m.num_constraints());
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Insertion, PickSequencesOfArity2And4And8) {
  expect_pick_rows(2, {{{'0', 'b', 'a'}}, {{'0', 'a', 'b'}}});
  expect_pick_rows(4, {{{'0', 'b', 'a'}, {'1', 'b', '.'}},
                       {{'0', 'a', 'b'}, {'1', 'c', '.'}},
                       {{'0', 'd', 'a'}, {'1', '.', 'c'}},
                       {{'0', 'a', 'd'}, {'1', '.', 'd'}}});
  expect_pick_rows(8, {{{'N', 'a', 'b'}, {'2', 'b', '.'}},
                       {{'0', 'a', 'b'}, {'1', 'c', '.'}, {'2', 'c', '.'}},
                       {{'0', 'd', 'a'}, {'1', '.', 'c'}, {'2', 'd', '.'}},
                       {{'A', 'a', 'd'}, {'2', 'e', '.'}},
                       {{'N', 'a', 'f'}, {'2', '.', 'e'}},
                       {{'0', 'a', 'f'}, {'1', 'g', '.'}, {'2', '.', 'f'}},
                       {{'0', 'h', 'a'}, {'1', '.', 'g'}, {'2', '.', 'g'}},
                       {{'A', 'a', 'h'}, {'2', '.', 'h'}}});
}

TEST(Selection, EveryIndexOfEverySize) {
  std::mt19937_64 rng(std::random_device{}());
  for (size_t log = 1; log <= 4; ++log) {
    const size_t size = size_t(1) << log;
    for (size_t index = 0; index < size; ++index) {
      RecordingSystem cs;
      std::vector<Num> from;
      for (size_t i = 0; i < size; ++i) from.push_back(Num::alloc(cs, random_fr(rng)));
      std::vector<Boolean> bits;
      for (size_t b = 0; b < log; ++b) bits.push_back(Boolean::alloc(cs, (index >> b) & 1));
      const size_t before = cs.num_constraints();
      auto got = select(cs, from, bits);
      ASSERT_TRUE(got.ok());
      EXPECT_EQ(cs.num_constraints() - before, size - 1);  // upstream test_select
      EXPECT_EQ(got->value, from[index].value);
      EXPECT_EQ(got->lc.evaluate(cs.input_assignment(), cs.aux_assignment()), from[index].value);
      EXPECT_TRUE(cs.is_satisfied());
    }
  }
}

TEST(Pick, ConstraintCatchesAWrongResult) {
  RecordingSystem cs;
  const Num a = Num::alloc(cs, Fr::from_u64(3)), b = Num::alloc(cs, Fr::from_u64(9));
  const AllocatedBit cond = AllocatedBit::alloc(cs, true);
  const Num c = pick(cs, cond, a, b);
  EXPECT_EQ(c.value, a.value);
  ASSERT_TRUE(cs.is_satisfied());
  std::vector<Fr> w = cs.witness();
  w.back() = b.value;  // claim the other operand
  auto bad = r1cs::first_unsatisfied(cs.matrices(), w);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->value_or(99), cs.num_constraints() - 1);
}

}  // namespace
}  // namespace cuzk::filecoin
