// bellperson's MultiEq: several equalities lhs_k = rhs_k, each known to fit in w_k bits, packed
// into one row (Σ 2^{s_k}·lhs_k)·(ONE) = (Σ 2^{s_k}·rhs_k), where s_k is the sum of the widths
// before k. A row holds equalities while their widths stay below Fr's capacity of 254 bits; the
// equality that would reach it first emits the pending row (reference/filecoin-circuits.md §2.4).
//
// The pending sides are kept as plain term lists and merged only when the row is emitted: the
// sums of SHA-256 put about 900 terms on a row, in no particular variable order.
#pragma once

#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs {

class MultiEq {
 public:
  explicit MultiEq(ConstraintSystem& cs) : cs_(cs), keeps_rows_(cs.keeps_rows()) {}
  // Emits the pending row, as bellperson does when its MultiEq is dropped.
  ~MultiEq() { flush(); }
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;

  ConstraintSystem& cs() { return cs_; }
  // False for a system that only counts rows (a witness): the terms are then not gathered, and
  // callers may skip computing them; a pending row is still counted.
  bool keeps_rows() const { return keeps_rows_; }

  // Opens an equality of `num_bits` bits (< 254): emits the pending row first when
  // bits_used + num_bits ≥ 254. Returns the shift s of this equality; its terms are then added
  // with add_lhs/add_rhs, already scaled by 2^s.
  unsigned open(unsigned num_bits);
  void add_lhs(Variable v, const Fr& coeff) {
    if (keeps_rows_) lhs_.push_back({v, coeff});
  }
  void add_rhs(Variable v, const Fr& coeff) {
    if (keeps_rows_) rhs_.push_back({v, coeff});
  }
  // b · 2^k on the left side.
  void add_lhs(const Boolean& b, unsigned k);

  // bellperson's enforce_equal(num_bits, lhs, rhs): open, then both sides scaled by 2^s.
  void enforce_equal(unsigned num_bits, const LinearCombination& lhs, const LinearCombination& rhs);
  // Emits the pending row, if any equality is pending.
  void flush();

 private:
  ConstraintSystem& cs_;
  const bool keeps_rows_;
  unsigned bits_used_ = 0;
  std::vector<Term> lhs_, rhs_;
  std::vector<uint64_t> order_;  // scratch of flush()
};

}  // namespace cuzk::r1cs
