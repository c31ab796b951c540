// Field elements in a circuit: a linear combination together with its value. Linear operations
// are free (they only grow the combination); products and decompositions cost constraints.
#pragma once

#include <span>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs {

struct Num {
  LinearCombination lc;
  Fr value = Fr::zero();

  static Num constant(const Fr& c) { return {LinearCombination::constant(c), c}; }
  static Num alloc(ConstraintSystem& cs, const Fr& value) { return {cs.alloc(value), value}; }
  static Num from_variable(Variable v, const Fr& value) { return {v, value}; }

  Num& operator+=(const Num& o) {
    lc.add(o.lc);
    value += o.value;
    return *this;
  }
  Num& operator-=(const Num& o) {
    lc.sub(o.lc);
    value -= o.value;
    return *this;
  }
  Num& operator*=(const Fr& s) {
    lc.scale(s);
    value *= s;
    return *this;
  }
  friend Num operator+(Num a, const Num& b) { return a += b; }
  friend Num operator-(Num a, const Num& b) { return a -= b; }
  friend Num operator*(Num a, const Fr& s) { return a *= s; }
};

// A new variable p = a·b (one constraint).
Num mul(ConstraintSystem& cs, const Num& a, const Num& b);
// A new variable holding the value of x, constrained equal to it (one constraint). Collapses a long
// combination into a single term.
Num materialize(ConstraintSystem& cs, const Num& x);
// A new public input equal to x (one constraint), bellperson's inputize.
Variable inputize(ConstraintSystem& cs, const Num& x);
void enforce_equal(ConstraintSystem& cs, const Num& a, const Num& b);

// Σ 2^i · bits[i], as a linear combination (no constraint). Unique only for at most 254 bits
// (Fr's capacity); longer inputs are the caller's responsibility.
Num pack_bits_le(std::span<const Boolean> bits);
// The 255 bits of x, least significant first, constrained to be the canonical representation
// (as an integer < r), so no second decomposition x + r exists. ~2·255 constraints.
std::vector<Boolean> to_bits_le_strict(ConstraintSystem& cs, const Num& x);

// 2^i as a field element (i < 256).
const Fr& power_of_two(unsigned i);
// Bit i of the canonical integer of x.
bool canonical_bit(const Fr& x, unsigned i);

}  // namespace cuzk::r1cs
