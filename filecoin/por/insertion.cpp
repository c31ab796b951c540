#include "filecoin/por/insertion.hpp"

#include <string>

namespace cuzk::filecoin {

using r1cs::AllocatedBit;
using r1cs::Boolean;
using r1cs::ConstraintSystem;
using r1cs::Num;

namespace {

bool power_of_two_size(size_t size, size_t bits) { return bits < 63 && size == (size_t(1) << bits); }

// insert_4: the positions of A among b, c, d for n = b0 + 2·b1.
std::vector<Num> insert_4(ConstraintSystem& cs, const Num& a, std::span<const AllocatedBit> bits,
                          std::span<const Num> s) {
  const Boolean b0 = bits[0], b1 = bits[1];
  const Num &b = s[0], &c = s[1], &d = s[2];
  const Num p0x = pick(cs, b0, b, a);
  const Num p0 = pick(cs, b1, b, p0x);
  const Num p1x = pick(cs, b0, a, b);
  const Num p1 = pick(cs, b1, c, p1x);
  const Num p2x = pick(cs, b0, d, a);
  const Num p2 = pick(cs, b1, p2x, c);
  const Num p3x = pick(cs, b0, a, d);
  const Num p3 = pick(cs, b1, p3x, d);
  return {p0, p1, p2, p3};
}

// insert_8: the positions of A among b..h for n = b0 + 2·b1 + 4·b2, sharing b0 NOR b1 and b0 AND b1.
std::vector<Num> insert_8(ConstraintSystem& cs, const Num& a, std::span<const AllocatedBit> bits,
                          std::span<const Num> s) {
  const Boolean nor = AllocatedBit::nor_of(cs, bits[0], bits[1]);
  const Boolean both = AllocatedBit::and_of(cs, bits[0], bits[1]);
  const Boolean b0 = bits[0], b1 = bits[1], b2 = bits[2];
  const Num &b = s[0], &c = s[1], &d = s[2], &e = s[3], &f = s[4], &g = s[5], &h = s[6];

  const Num p0_xx0 = pick(cs, nor, a, b);
  const Num p0 = pick(cs, b2, b, p0_xx0);

  const Num p1_x00 = pick(cs, b0, a, b);
  const Num p1_xx0 = pick(cs, b1, c, p1_x00);
  const Num p1 = pick(cs, b2, c, p1_xx0);

  const Num p2_x10 = pick(cs, b0, d, a);
  const Num p2_xx0 = pick(cs, b1, p2_x10, c);
  const Num p2 = pick(cs, b2, d, p2_xx0);

  const Num p3_xx0 = pick(cs, both, a, d);
  const Num p3 = pick(cs, b2, e, p3_xx0);

  const Num p4_xx1 = pick(cs, nor, a, f);
  const Num p4 = pick(cs, b2, p4_xx1, e);

  const Num p5_x01 = pick(cs, b0, a, f);
  const Num p5_xx1 = pick(cs, b1, g, p5_x01);
  const Num p5 = pick(cs, b2, p5_xx1, f);

  const Num p6_x11 = pick(cs, b0, h, a);
  const Num p6_xx1 = pick(cs, b1, p6_x11, g);
  const Num p6 = pick(cs, b2, p6_xx1, g);

  const Num p7_xx1 = pick(cs, both, a, h);
  const Num p7 = pick(cs, b2, p7_xx1, h);
  return {p0, p1, p2, p3, p4, p5, p6, p7};
}

// Any other size: for each position, select among what that position holds for every index.
Result<std::vector<Num>> insert_general(ConstraintSystem& cs, const Num& cur,
                                        std::span<const AllocatedBit> bits, std::span<const Num> siblings) {
  const size_t size = siblings.size() + 1;
  const std::vector<Boolean> conds(bits.begin(), bits.end());
  std::vector<Num> out;
  for (size_t pos = 0; pos < size; ++pos) {
    std::vector<Num> choices;
    for (size_t index = 0; index < size; ++index) {
      if (pos < index) {
        choices.push_back(siblings[pos]);
      } else if (pos == index) {
        choices.push_back(cur);
      } else {
        choices.push_back(siblings[pos - 1]);
      }
    }
    auto chosen = select(cs, choices, conds);
    if (!chosen) return chosen.error();
    out.push_back(std::move(*chosen));
  }
  return out;
}

}  // namespace

Num pick(ConstraintSystem& cs, const Boolean& cond, const Num& a, const Num& b) {
  const Fr value = cond.value() ? a.value : b.value;
  const r1cs::Variable c = cs.alloc(value);
  r1cs::LinearCombination rhs = b.lc;
  rhs.add(c, -Fr::one());
  cs.enforce(b.lc - a.lc, cond.lc(), rhs);
  return Num::from_variable(c, value);
}

Result<std::vector<Num>> insert(ConstraintSystem& cs, const Num& cur, std::span<const AllocatedBit> bits,
                                std::span<const Num> siblings) {
  const size_t size = siblings.size() + 1;
  if (bits.empty() || !power_of_two_size(size, bits.size()))
    return make_error("insert: " + std::to_string(siblings.size()) + " siblings and " +
                      std::to_string(bits.size()) + " index bits (need 2^bits − 1 siblings)");
  switch (size) {
    case 2: {
      const Boolean b0 = bits[0];
      return std::vector<Num>{pick(cs, b0, siblings[0], cur), pick(cs, b0, cur, siblings[0])};
    }
    case 4:
      return insert_4(cs, cur, bits, siblings);
    case 8:
      return insert_8(cs, cur, bits, siblings);
    default:
      return insert_general(cs, cur, bits, siblings);
  }
}

Result<Num> select(ConstraintSystem& cs, std::span<const Num> from, std::span<const Boolean> bits) {
  if (!power_of_two_size(from.size(), bits.size()))
    return make_error("select: " + std::to_string(from.size()) + " candidates for " +
                      std::to_string(bits.size()) + " index bits");
  std::vector<Num> state(from.begin(), from.end());
  for (size_t k = bits.size(); k-- > 0;) {
    const size_t half = state.size() / 2;
    std::vector<Num> next;
    next.reserve(half);
    for (size_t j = 0; j < half; ++j) next.push_back(pick(cs, bits[k], state[half + j], state[j]));
    state = std::move(next);
  }
  return state[0];
}

}  // namespace cuzk::filecoin
