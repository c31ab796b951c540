#include "r1cs/gadgets/multieq.hpp"

#include <algorithm>

#include "r1cs/gadgets/num.hpp"

namespace cuzk::r1cs {

namespace {

constexpr unsigned kCapacity = Fr::BITS - 1;  // 254

// The terms merged per variable, as one linear combination. They are put in variable order first,
// so that every add appends or merges with the last term: sorting 64-bit (variable key, position)
// words is several times faster than sorting the 40-byte terms.
LinearCombination merged(const std::vector<Term>& terms, std::vector<uint64_t>& order) {
  constexpr unsigned kPosBits = 24;
  LinearCombination lc;
  if (terms.size() >= (size_t(1) << kPosBits)) {  // far beyond any row of 254 bits
    std::vector<Term> copy = terms;
    std::sort(copy.begin(), copy.end(),
              [](const Term& x, const Term& y) { return x.var.key() < y.var.key(); });
    for (const Term& t : copy) lc.add(t.var, t.coeff);
    return lc;
  }
  order.clear();
  for (size_t i = 0; i < terms.size(); ++i) order.push_back(terms[i].var.key() << kPosBits | i);
  std::sort(order.begin(), order.end());
  for (uint64_t o : order) {
    const Term& t = terms[o & ((uint64_t(1) << kPosBits) - 1)];
    lc.add(t.var, t.coeff);
  }
  return lc;
}

}  // namespace

unsigned MultiEq::open(unsigned num_bits) {
  if (kCapacity <= bits_used_ + num_bits) flush();
  const unsigned shift = bits_used_;
  bits_used_ += num_bits;
  return shift;
}

void MultiEq::add_lhs(const Boolean& b, unsigned k) {
  if (!keeps_rows_) return;
  switch (b.kind()) {
    case Boolean::Kind::constant:
      if (b.value()) add_lhs(Variable::one(), power_of_two(k));
      return;
    case Boolean::Kind::is:
      add_lhs(b.bit().variable(), power_of_two(k));
      return;
    case Boolean::Kind::negated:
      add_lhs(Variable::one(), power_of_two(k));
      add_lhs(b.bit().variable(), neg_power_of_two(k));
      return;
  }
}

void MultiEq::enforce_equal(unsigned num_bits, const LinearCombination& lhs, const LinearCombination& rhs) {
  const unsigned shift = open(num_bits);
  if (!keeps_rows_) return;
  const Fr& scale = power_of_two(shift);
  for (const Term& t : lhs.terms()) add_lhs(t.var, t.coeff * scale);
  for (const Term& t : rhs.terms()) add_rhs(t.var, t.coeff * scale);
}

void MultiEq::flush() {
  if (bits_used_ == 0) return;
  bits_used_ = 0;
  if (!keeps_rows_) return cs_.count_constraints(1);
  const LinearCombination lhs = merged(lhs_, order_);
  const LinearCombination rhs = merged(rhs_, order_);
  cs_.enforce(lhs, Variable::one(), rhs);
  lhs_.clear();
  rhs_.clear();
}

}  // namespace cuzk::r1cs
