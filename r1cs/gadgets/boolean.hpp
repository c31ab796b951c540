// Booleans in a constraint system: allocated bits (with the booleanity constraint (1 - b)·b = 0),
// their negations, and constants, which cost nothing. Every operation on two allocated bits
// costs one constraint and folds constants and negations away where it can.
#pragma once

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class AllocatedBit {
 public:
  // A new aux variable with value 0/1 and the constraint (1 - b)·b = 0.
  static AllocatedBit alloc(ConstraintSystem& cs, bool value);
  // A new bit with the value and the constraints of a op b (one constraint each).
  static AllocatedBit xor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  static AllocatedBit and_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  static AllocatedBit and_not_of(ConstraintSystem& cs, const AllocatedBit& a,
                                 const AllocatedBit& b);  // a ∧ ¬b
  static AllocatedBit nor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);  // ¬a ∧ ¬b

  // Wraps a variable that the caller's own constraints already force to 0 or 1 (no booleanity
  // constraint is added).
  static AllocatedBit from_constrained(Variable v, bool value) { return AllocatedBit(v, value); }

  Variable variable() const { return var_; }
  bool value() const { return value_; }

 private:
  AllocatedBit(Variable v, bool value) : var_(v), value_(value) {}
  Variable var_;
  bool value_;
};

class Boolean {
 public:
  Boolean() = default;  // the constant false
  static Boolean constant(bool value) { return Boolean(Kind::constant, Variable::one(), value); }
  Boolean(const AllocatedBit& bit)  // NOLINT(google-explicit-constructor)
      : Boolean(Kind::is, bit.variable(), bit.value()) {}
  static Boolean alloc(ConstraintSystem& cs, bool value) { return AllocatedBit::alloc(cs, value); }

  bool value() const { return value_; }
  bool is_constant() const { return kind_ == Kind::constant; }
  Boolean operator!() const;

  // coeff · (this as 0/1), as a linear combination (ONE carries the constant part).
  LinearCombination lc(const Fr& coeff) const;
  LinearCombination lc() const { return lc(Fr::one()); }

 private:
  enum class Kind { constant, is, negated };
  Boolean(Kind kind, Variable var, bool value) : kind_(kind), var_(var), value_(value) {}
  // The allocated bit under a non-constant Boolean (negations look through to it).
  AllocatedBit bit() const {
    return AllocatedBit::from_constrained(var_, kind_ == Kind::negated ? !value_ : value_);
  }
  friend Boolean xor_bits(ConstraintSystem&, const Boolean&, const Boolean&);
  friend Boolean and_bits(ConstraintSystem&, const Boolean&, const Boolean&);

  Kind kind_ = Kind::constant;
  Variable var_;  // unused for constants
  bool value_ = false;
};

Boolean xor_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
Boolean and_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
Boolean or_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
// SHA-256's choose (a ? b : c) and majority, one and two constraints.
Boolean ch_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
Boolean maj_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
// a = b, as one constraint (none when both are constants, which must then agree in value: a
// constant mismatch is enforced as 1·1 = 0, an unsatisfiable constraint, not hidden).
void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

}  // namespace cuzk::r1cs
