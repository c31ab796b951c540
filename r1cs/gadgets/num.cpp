#include "r1cs/gadgets/num.hpp"

#include <array>

namespace cuzk::r1cs {

namespace {

struct PowerTables {
  std::array<Fr, 256> pos, neg;
  PowerTables() {
    pos[0] = Fr::one();
    for (size_t k = 1; k < pos.size(); ++k) pos[k] = pos[k - 1].dbl();
    for (size_t k = 0; k < pos.size(); ++k) neg[k] = -pos[k];
  }
};

const PowerTables& powers() {
  static const PowerTables tables;
  return tables;
}

}  // namespace

const Fr& power_of_two(unsigned i) { return powers().pos[i]; }
const Fr& neg_power_of_two(unsigned i) { return powers().neg[i]; }

bool canonical_bit(const Fr& x, unsigned i) {
  uint64_t v[Fr::N];
  x.to_canonical(v);
  return (v[i / 64] >> (i % 64)) & 1;
}

AllocatedNum mul(ConstraintSystem& cs, const Num& a, const Num& b) {
  const Fr value = a.value * b.value;
  const Variable p = cs.alloc(value);
  cs.enforce(a.lc, b.lc, p);
  return {p, value};
}

AllocatedNum square(ConstraintSystem& cs, const Num& a) {
  const Fr value = a.value.sqr();
  const Variable s = cs.alloc(value);
  cs.enforce(a.lc, a.lc, s);
  return {s, value};
}

AllocatedNum materialize(ConstraintSystem& cs, const Num& x) {
  const Variable v = cs.alloc(x.value);
  cs.enforce(x.lc, Variable::one(), v);
  return {v, x.value};
}

Variable inputize(ConstraintSystem& cs, const Num& x) {
  const Variable p = cs.alloc_input(x.value);
  cs.enforce(p, Variable::one(), x.lc);
  return p;
}

void enforce_equal(ConstraintSystem& cs, const Num& a, const Num& b) {
  cs.enforce(a.lc - b.lc, Variable::one(), {});
}

Num pack_bits_le(std::span<const Boolean> bits) {
  Num n;
  for (size_t i = 0; i < bits.size(); ++i) {
    bits[i].add_to(n.lc, power_of_two(unsigned(i)), neg_power_of_two(unsigned(i)));
    if (bits[i].value()) n.value += power_of_two(unsigned(i));
  }
  return n;
}

std::vector<Boolean> to_bits_le(ConstraintSystem& cs, const Num& x) {
  const std::vector<AllocatedBit> allocated = field_into_allocated_bits_le(cs, x.value);
  LinearCombination c;
  std::vector<Boolean> bits;
  bits.reserve(allocated.size());
  for (size_t i = 0; i < allocated.size(); ++i) {
    c.add(allocated[i].variable(), power_of_two(unsigned(i)));
    bits.emplace_back(allocated[i]);
  }
  c.sub(x.lc);
  cs.enforce({}, {}, c);
  return bits;
}

}  // namespace cuzk::r1cs
