// Field elements in a circuit. `Num` is a linear combination together with its value (linear
// operations are free: they only grow the combination); `AllocatedNum` is one variable with its
// value, bellpepper-core's AllocatedNum. Products and decompositions cost constraints and are
// built exactly as bellpepper-core 0.2 builds them (reference/filecoin-circuits.md §2.2).
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

// One aux variable and its value.
struct AllocatedNum {
  Variable variable;
  Fr value = Fr::zero();

  // alloc x (no constraint).
  static AllocatedNum alloc(ConstraintSystem& cs, const Fr& value) { return {cs.alloc(value), value}; }
  Num num() const { return Num::from_variable(variable, value); }
  operator Num() const { return num(); }  // NOLINT(google-explicit-constructor)
};

// alloc p; (a)·(b) = (p).
AllocatedNum mul(ConstraintSystem& cs, const Num& a, const Num& b);
// alloc s; (a)·(a) = (s).
AllocatedNum square(ConstraintSystem& cs, const Num& a);
// A new variable holding the value of x, constrained equal to it: alloc v; (x)·(ONE) = (v).
AllocatedNum materialize(ConstraintSystem& cs, const Num& x);
// bellpepper's inputize: input p; (p)·(ONE) = (x). Returns p.
Variable inputize(ConstraintSystem& cs, const Num& x);
// (a - b)·(ONE) = 0.
void enforce_equal(ConstraintSystem& cs, const Num& a, const Num& b);

// Σ 2^i · bits[i] as a Num (no constraint): bellpepper's Num::add_bool_with_coeff over the bits
// in order. Unique only for at most 254 bits (Fr's capacity).
Num pack_bits_le(std::span<const Boolean> bits);

// bellpepper's non-strict AllocatedNum::to_bits_le: the 255 bits of x's canonical integer, bit 0
// first (field_into_allocated_bits_le), then one row with A and B empty and
// C = Σ_{i<255} 2^i·b_i - x. 256 rows and 255 aux. The bits may also spell x + r when that is
// below 2^255; Filecoin's circuits accept this, as upstream does.
std::vector<Boolean> to_bits_le(ConstraintSystem& cs, const Num& x);

// 2^i as a field element (i < 256), and its negation.
const Fr& power_of_two(unsigned i);
const Fr& neg_power_of_two(unsigned i);
// Bit i of the canonical integer of x.
bool canonical_bit(const Fr& x, unsigned i);

}  // namespace cuzk::r1cs
