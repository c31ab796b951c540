// Booleans in a constraint system, exactly as bellpepper-core 0.2 builds them (the gadgets
// bellperson 0.27 re-exports and Filecoin's parameter files were generated with): allocated bits
// with the booleanity constraint (1 - b)·b = 0, their negations, and constants, which cost nothing.
// Every operation tries bellpepper's cases in bellpepper's order, because which case fires decides
// whether a row is emitted, which variable comes first, and the row's linear combinations
// (reference/filecoin-circuits.md §2.1).
//
// A Boolean's linear combination with coefficient k: Is(v) → k·v, Not(v) → k·ONE - k·v,
// Constant(true) → k·ONE, Constant(false) → nothing.
#pragma once

#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class AllocatedBit {
 public:
  // alloc b; (ONE - b)·(b) = 0.
  static AllocatedBit alloc(ConstraintSystem& cs, bool value);
  // alloc c; (2a)·(b) = (a + b - c).
  static AllocatedBit xor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  // alloc c; (a)·(b) = (c).
  static AllocatedBit and_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  // a ∧ ¬b: alloc c; (a)·(ONE - b) = (c).
  static AllocatedBit and_not_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  // ¬a ∧ ¬b: alloc c; (ONE - a)·(ONE - b) = (c).
  static AllocatedBit nor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);

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

// The 255 low bits of the canonical integer of `value` (Fr::BITS), bit 0 first, each allocated
// with its booleanity constraint: bellpepper's field_into_allocated_bits_le.
std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs, const Fr& value);

class Boolean {
 public:
  enum class Kind : uint8_t { constant, is, negated };  // Constant, Is, Not

  Boolean() = default;  // the constant false
  static Boolean constant(bool value) { return Boolean(Kind::constant, Variable::one(), value); }
  Boolean(const AllocatedBit& bit)  // NOLINT(google-explicit-constructor)
      : Boolean(Kind::is, bit.variable(), bit.value()) {}
  static Boolean alloc(ConstraintSystem& cs, bool value) { return AllocatedBit::alloc(cs, value); }

  Kind kind() const { return kind_; }
  bool value() const { return value_; }
  bool is_constant() const { return kind_ == Kind::constant; }
  // The allocated bit under an Is or Not Boolean (a Not looks through to its bit). Only for those.
  AllocatedBit bit() const {
    return AllocatedBit::from_constrained(var_, kind_ == Kind::negated ? !value_ : value_);
  }
  Boolean operator!() const;

  // coeff · (this as 0/1), as a linear combination.
  LinearCombination lc(const Fr& coeff) const;
  LinearCombination lc() const { return lc(Fr::one()); }
  // Adds coeff · (this as 0/1) to `lc`; neg_coeff must be -coeff (saves a negation per bit on the
  // hot path of SHA-256's additions).
  void add_to(LinearCombination& lc, const Fr& coeff, const Fr& neg_coeff) const;

 private:
  Boolean(Kind kind, Variable var, bool value) : kind_(kind), value_(value), var_(var) {}

  Kind kind_ = Kind::constant;
  bool value_ = false;
  Variable var_;  // unused for constants
};

// bellpepper's Boolean::xor: a constant false gives the other operand, a constant true its
// negation; Is ⊕ Not is ¬xor(is, not's bit) with the Is operand's bit first whatever the argument
// order; Is ⊕ Is and Not ⊕ Not are Is(xor) of the two bits in argument order.
Boolean xor_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
// bellpepper's Boolean::and: constant false → false, constant true → the other; Is ∧ Not →
// and_not(is, not); Not ∧ Not → nor; Is ∧ Is → and.
Boolean and_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
// ¬(¬a ∧ ¬b). Not a bellpepper gadget; no Filecoin circuit uses it.
Boolean or_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
// SHA-256's choose, (a ∧ b) ⊕ (¬a ∧ c), and majority, bellpepper's Boolean::sha256_ch and
// sha256_maj with their case order (reference §2.1).
Boolean sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
Boolean sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
// a = b as bellpepper's Boolean::enforce_equal: one row with A and B empty and C = a - b (ONE - x
// against a constant true, x against a constant false); nothing when both are constants. Two
// constants that differ cannot be satisfied: that is recorded as the row 0·0 = ONE.
void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

}  // namespace cuzk::r1cs
