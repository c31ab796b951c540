#include "r1cs/gadgets/num.hpp"

#include <array>

namespace cuzk::r1cs {

const Fr& power_of_two(unsigned i) {
  static const std::array<Fr, 256> table = [] {
    std::array<Fr, 256> t{};
    t[0] = Fr::one();
    for (size_t k = 1; k < t.size(); ++k) t[k] = t[k - 1].dbl();
    return t;
  }();
  return table[i];
}

bool canonical_bit(const Fr& x, unsigned i) {
  uint64_t v[Fr::N];
  x.to_canonical(v);
  return (v[i / 64] >> (i % 64)) & 1;
}

Num mul(ConstraintSystem& cs, const Num& a, const Num& b) {
  const Fr value = a.value * b.value;
  const Variable p = cs.alloc(value);
  cs.enforce(a.lc, b.lc, p);
  return {p, value};
}

Num materialize(ConstraintSystem& cs, const Num& x) {
  const Variable v = cs.alloc(x.value);
  cs.enforce(x.lc, Variable::one(), v);
  return {v, x.value};
}

Variable inputize(ConstraintSystem& cs, const Num& x) {
  const Variable v = cs.alloc_input(x.value);
  cs.enforce(x.lc, Variable::one(), v);
  return v;
}

void enforce_equal(ConstraintSystem& cs, const Num& a, const Num& b) {
  cs.enforce(a.lc - b.lc, Variable::one(), {});
}

Num pack_bits_le(std::span<const Boolean> bits) {
  Num n;
  for (size_t i = 0; i < bits.size(); ++i) {
    n.lc.add(bits[i].lc(power_of_two(unsigned(i))));
    if (bits[i].value()) n.value += power_of_two(unsigned(i));
  }
  return n;
}

std::vector<Boolean> to_bits_le_strict(ConstraintSystem& cs, const Num& x) {
  constexpr unsigned kBits = Fr::BITS;  // 255
  uint64_t v[Fr::N];
  x.value.to_canonical(v);
  std::vector<Boolean> bits;
  bits.reserve(kBits);
  for (unsigned i = 0; i < kBits; ++i) bits.push_back(Boolean::alloc(cs, (v[i / 64] >> (i % 64)) & 1));
  cs.enforce(pack_bits_le(bits).lc, Variable::one(), x.lc);

  // The bits, read as an integer, must be ≤ r - 1. Walk from the top keeping `equal`, "the bits so
  // far equal those of r - 1": where r - 1 has a 1, equal &= bit; where it has a 0, a set bit
  // while still equal would exceed r - 1, so enforce equal·bit = 0.
  uint64_t m[Fr::N];
  for (size_t i = 0; i < Fr::N; ++i) m[i] = Fr::params::mod(i);
  m[0] -= 1;  // r is odd
  Boolean equal = Boolean::constant(true);
  for (unsigned i = kBits; i-- > 0;) {
    if ((m[i / 64] >> (i % 64)) & 1) {
      equal = and_bits(cs, equal, bits[i]);
    } else {
      cs.enforce(equal.lc(), bits[i].lc(), {});
    }
  }
  return bits;
}

}  // namespace cuzk::r1cs
