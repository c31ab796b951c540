#include "r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs {

namespace {
Fr bit_value(bool b) { return b ? Fr::one() : Fr::zero(); }
LinearCombination one_minus(Variable v) {
  LinearCombination lc(Variable::one());
  lc.add(v, -Fr::one());
  return lc;
}
}  // namespace

AllocatedBit AllocatedBit::alloc(ConstraintSystem& cs, bool value) {
  const Variable v = cs.alloc(bit_value(value));
  cs.enforce(one_minus(v), v, {});  // (1 - b)·b = 0
  return AllocatedBit(v, value);
}

AllocatedBit AllocatedBit::xor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = a.value_ != b.value_;
  const Variable c = cs.alloc(bit_value(value));
  // (2a)·b = a + b - c: c = a + b - 2ab.
  LinearCombination rhs(a.var_);
  rhs.add(b.var_, Fr::one()).add(c, -Fr::one());
  cs.enforce(LinearCombination(a.var_, Fr::from_u64(2)), b.var_, rhs);
  return AllocatedBit(c, value);
}

AllocatedBit AllocatedBit::and_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = a.value_ && b.value_;
  const Variable c = cs.alloc(bit_value(value));
  cs.enforce(a.var_, b.var_, c);
  return AllocatedBit(c, value);
}

AllocatedBit AllocatedBit::and_not_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = a.value_ && !b.value_;
  const Variable c = cs.alloc(bit_value(value));
  cs.enforce(a.var_, one_minus(b.var_), c);
  return AllocatedBit(c, value);
}

AllocatedBit AllocatedBit::nor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = !a.value_ && !b.value_;
  const Variable c = cs.alloc(bit_value(value));
  cs.enforce(one_minus(a.var_), one_minus(b.var_), c);
  return AllocatedBit(c, value);
}

Boolean Boolean::operator!() const {
  switch (kind_) {
    case Kind::constant:
      return constant(!value_);
    case Kind::is:
      return Boolean(Kind::negated, var_, !value_);
    case Kind::negated:
      break;
  }
  return Boolean(Kind::is, var_, !value_);
}

LinearCombination Boolean::lc(const Fr& coeff) const {
  switch (kind_) {
    case Kind::constant:
      return value_ ? LinearCombination::constant(coeff) : LinearCombination{};
    case Kind::is:
      return LinearCombination(var_, coeff);
    case Kind::negated:
      break;
  }
  LinearCombination lc(Variable::one(), coeff);
  return lc.add(var_, -coeff);
}

Boolean xor_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant()) return a.value() ? !b : b;
  if (b.is_constant()) return b.value() ? !a : a;
  // ¬x ⊕ y = ¬(x ⊕ y) and ¬x ⊕ ¬y = x ⊕ y: one constraint on the underlying bits in every case.
  const Boolean r = AllocatedBit::xor_of(cs, a.bit(), b.bit());
  const bool flip = (a.kind_ == Boolean::Kind::negated) != (b.kind_ == Boolean::Kind::negated);
  return flip ? !r : r;
}

Boolean and_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant()) return a.value() ? b : Boolean::constant(false);
  if (b.is_constant()) return b.value() ? a : Boolean::constant(false);
  const bool na = a.kind_ == Boolean::Kind::negated, nb = b.kind_ == Boolean::Kind::negated;
  if (!na && !nb) return AllocatedBit::and_of(cs, a.bit(), b.bit());
  if (!na && nb) return AllocatedBit::and_not_of(cs, a.bit(), b.bit());
  if (na && !nb) return AllocatedBit::and_not_of(cs, b.bit(), a.bit());
  return AllocatedBit::nor_of(cs, a.bit(), b.bit());
}

Boolean or_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b) { return !and_bits(cs, !a, !b); }

Boolean ch_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  if (a.is_constant()) return a.value() ? b : c;
  if (b.is_constant() && c.is_constant()) {
    if (b.value() == c.value()) return b;
    return b.value() ? a : !a;
  }
  const bool value = a.value() ? b.value() : c.value();
  // ch = c + a·(b - c), which is b or c, so ch is boolean without its own constraint.
  const Variable ch = cs.alloc(bit_value(value));
  LinearCombination rhs(ch);
  rhs.sub(c.lc());
  cs.enforce(a.lc(), b.lc() - c.lc(), rhs);
  return AllocatedBit::from_constrained(ch, value);
}

Boolean maj_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  // A constant decides the majority between the other two: 1 → or, 0 → and.
  if (a.is_constant()) return a.value() ? or_bits(cs, b, c) : and_bits(cs, b, c);
  if (b.is_constant()) return maj_bits(cs, b, a, c);
  if (c.is_constant()) return maj_bits(cs, c, a, b);
  const Boolean bc = and_bits(cs, b, c);
  const bool value = (a.value() + b.value() + c.value()) >= 2;
  // maj = bc + a·(b + c - 2bc): b ⊕ c decides when a counts.
  const Variable maj = cs.alloc(bit_value(value));
  LinearCombination rhs(maj);
  rhs.sub(bc.lc());
  LinearCombination rhs_b = b.lc() + c.lc();
  rhs_b.sub(bc.lc(Fr::from_u64(2)));
  cs.enforce(a.lc(), rhs_b, rhs);
  return AllocatedBit::from_constrained(maj, value);
}

void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant() && b.is_constant()) {
    if (a.value() != b.value()) cs.enforce(Variable::one(), Variable::one(), {});
    return;
  }
  cs.enforce(a.lc() - b.lc(), Variable::one(), {});
}

}  // namespace cuzk::r1cs
