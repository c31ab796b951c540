#include "r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs {

namespace {

// Constants in Montgomery form, made once: a conversion costs a field multiplication, and these
// sit on the hot path of SHA-256.
const Fr kTwo = Fr::one().dbl();
const Fr kMinusOne = -Fr::one();

Fr bit_value(bool b) { return b ? Fr::one() : Fr::zero(); }

LinearCombination one_minus(Variable v) {
  LinearCombination lc(Variable::one());
  lc.add(v, kMinusOne);
  return lc;
}

bool is_false(const Boolean& x) { return x.is_constant() && !x.value(); }
bool is_true(const Boolean& x) { return x.is_constant() && x.value(); }

}  // namespace

// A bit's row, or only its count where the system keeps no rows (a witness): building the linear
// combinations is most of what a witness of bits costs.
#define CUZK_ENFORCE_ROW(cs, a, b, c) \
  do {                                \
    if ((cs).keeps_rows()) {          \
      (cs).enforce(a, b, c);          \
    } else {                          \
      (cs).count_constraints(1);      \
    }                                 \
  } while (false)

AllocatedBit AllocatedBit::alloc(ConstraintSystem& cs, bool value) {
  const Variable v = cs.alloc(bit_value(value));
  CUZK_ENFORCE_ROW(cs, one_minus(v), v, {});
  return AllocatedBit(v, value);
}

AllocatedBit AllocatedBit::xor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = a.value_ != b.value_;
  const Variable c = cs.alloc(bit_value(value));
  if (!cs.keeps_rows()) {
    cs.count_constraints(1);
    return AllocatedBit(c, value);
  }
  LinearCombination rhs(a.var_);
  rhs.add(b.var_, Fr::one()).add(c, kMinusOne);
  cs.enforce(LinearCombination(a.var_, kTwo), b.var_, rhs);
  return AllocatedBit(c, value);
}

AllocatedBit AllocatedBit::and_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = a.value_ && b.value_;
  const Variable c = cs.alloc(bit_value(value));
  CUZK_ENFORCE_ROW(cs, a.var_, b.var_, c);
  return AllocatedBit(c, value);
}

AllocatedBit AllocatedBit::and_not_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = a.value_ && !b.value_;
  const Variable c = cs.alloc(bit_value(value));
  CUZK_ENFORCE_ROW(cs, a.var_, one_minus(b.var_), c);
  return AllocatedBit(c, value);
}

AllocatedBit AllocatedBit::nor_of(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool value = !a.value_ && !b.value_;
  const Variable c = cs.alloc(bit_value(value));
  CUZK_ENFORCE_ROW(cs, one_minus(a.var_), one_minus(b.var_), c);
  return AllocatedBit(c, value);
}

std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs, const Fr& value) {
  uint64_t v[Fr::N];
  value.to_canonical(v);
  std::vector<AllocatedBit> bits;
  bits.reserve(Fr::BITS);
  for (unsigned i = 0; i < Fr::BITS; ++i)
    bits.push_back(AllocatedBit::alloc(cs, (v[i / 64] >> (i % 64)) & 1));
  return bits;
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
  LinearCombination out;
  add_to(out, coeff, -coeff);
  return out;
}

void Boolean::add_to(LinearCombination& lc, const Fr& coeff, const Fr& neg_coeff) const {
  switch (kind_) {
    case Kind::constant:
      if (value_) lc.add(Variable::one(), coeff);
      return;
    case Kind::is:
      lc.add(var_, coeff);
      return;
    case Kind::negated:
      lc.add(Variable::one(), coeff);
      lc.add(var_, neg_coeff);
      return;
  }
}

Boolean xor_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (is_false(a)) return b;
  if (is_false(b)) return a;
  if (is_true(a)) return !b;
  if (is_true(b)) return !a;
  using K = Boolean::Kind;
  if (a.kind() == b.kind()) return AllocatedBit::xor_of(cs, a.bit(), b.bit());
  // Is ⊕ Not = ¬(Is ⊕ its bit), the Is operand first.
  const Boolean& is = a.kind() == K::is ? a : b;
  const Boolean& negated = a.kind() == K::is ? b : a;
  return !Boolean(AllocatedBit::xor_of(cs, is.bit(), negated.bit()));
}

Boolean and_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (is_false(a) || is_false(b)) return Boolean::constant(false);
  if (is_true(a)) return b;
  if (is_true(b)) return a;
  using K = Boolean::Kind;
  if (a.kind() == K::is && b.kind() == K::is) return AllocatedBit::and_of(cs, a.bit(), b.bit());
  if (a.kind() == K::negated && b.kind() == K::negated) return AllocatedBit::nor_of(cs, a.bit(), b.bit());
  const Boolean& is = a.kind() == K::is ? a : b;
  const Boolean& negated = a.kind() == K::is ? b : a;
  return AllocatedBit::and_not_of(cs, is.bit(), negated.bit());
}

Boolean or_bits(ConstraintSystem& cs, const Boolean& a, const Boolean& b) { return !and_bits(cs, !a, !b); }

Boolean sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool value = (a.value() && b.value()) != (!a.value() && c.value());
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(value);
  if (is_false(a)) return c;
  if (is_false(b)) return and_bits(cs, !a, c);
  if (is_false(c)) return and_bits(cs, a, b);
  if (is_true(c)) return !and_bits(cs, a, !b);
  if (is_true(b)) return !and_bits(cs, !a, !c);
  // Also a = true: alloc ch; (b - c)·(a) = (ch - c). ch is b or c, so boolean without its own row.
  const Variable ch = cs.alloc(bit_value(value));
  if (!cs.keeps_rows()) {
    cs.count_constraints(1);
    return AllocatedBit::from_constrained(ch, value);
  }
  LinearCombination lhs = b.lc();
  lhs.sub(c.lc());
  LinearCombination rhs(ch);
  rhs.sub(c.lc());
  cs.enforce(lhs, a.lc(), rhs);
  return AllocatedBit::from_constrained(ch, value);
}

Boolean sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool value = (int(a.value()) + int(b.value()) + int(c.value())) >= 2;
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(value);
  if (is_false(a)) return and_bits(cs, b, c);
  if (is_false(b)) return and_bits(cs, a, c);
  if (is_false(c)) return and_bits(cs, a, b);
  if (is_true(c)) return !and_bits(cs, !a, !b);
  if (is_true(b)) return !and_bits(cs, !a, !c);
  if (is_true(a)) return !and_bits(cs, !b, !c);
  // alloc maj first, then bc = b ∧ c (its own variable and row), then
  // (2·bc - b - c)·(a) = (bc - maj).
  const Variable maj = cs.alloc(bit_value(value));
  const Boolean bc = and_bits(cs, b, c);
  if (!cs.keeps_rows()) {
    cs.count_constraints(1);
    return AllocatedBit::from_constrained(maj, value);
  }
  LinearCombination lhs = bc.lc(kTwo);
  lhs.sub(b.lc());
  lhs.sub(c.lc());
  LinearCombination rhs = bc.lc();
  rhs.add(maj, kMinusOne);
  cs.enforce(lhs, a.lc(), rhs);
  return AllocatedBit::from_constrained(maj, value);
}

void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant() && b.is_constant()) {
    if (a.value() != b.value()) cs.enforce({}, {}, Variable::one());
    return;
  }
  LinearCombination c;
  if (is_true(a) || is_true(b)) {
    c.add(Variable::one(), Fr::one());
    c.sub((is_true(a) ? b : a).lc());
  } else if (is_false(a) || is_false(b)) {
    c = (is_false(a) ? b : a).lc();
  } else {
    c = a.lc();
    c.sub(b.lc());
  }
  cs.enforce({}, {}, c);
}

#undef CUZK_ENFORCE_ROW

}  // namespace cuzk::r1cs
