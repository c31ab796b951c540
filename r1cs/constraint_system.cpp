#include "r1cs/constraint_system.hpp"

#include <bit>

namespace cuzk::r1cs {

const std::vector<Fr>& c_values(const Assignment& as, std::vector<Fr>& scratch) {
  if (!as.c_from_ab) return as.c;
  scratch.resize(as.a.size());
  for (size_t j = 0; j < as.a.size(); ++j) scratch[j] = as.a[j] * as.b[j];
  return scratch;
}

LinearCombination& LinearCombination::add(Variable v, const Fr& coeff) {
  Term* data = big_.empty() ? small_.data() : big_.data();
  const uint64_t k = v.key();
  size_t pos = size_;
  // Gadgets mostly add variables in increasing order, so appending is the common case.
  if (size_ > 0 && data[size_ - 1].var.key() >= k) {
    size_t lo = 0, hi = size_;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (data[mid].var.key() < k) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    pos = lo;
    if (data[pos].var.key() == k) {
      data[pos].coeff += coeff;
      return *this;
    }
  }
  const Term t{v, coeff};
  if (big_.empty() && size_ < kInline) {
    for (size_t i = size_; i > pos; --i) small_[i] = small_[i - 1];
    small_[pos] = t;
  } else {
    if (big_.empty()) {
      big_.reserve(4 * kInline);
      big_.assign(small_.begin(), small_.begin() + size_);
    }
    big_.insert(big_.begin() + ptrdiff_t(pos), t);
  }
  ++size_;
  return *this;
}

LinearCombination& LinearCombination::add(const LinearCombination& other, const Fr& scale) {
  for (const Term& t : other.terms()) add(t.var, t.coeff * scale);
  return *this;
}

LinearCombination& LinearCombination::add(const LinearCombination& other) {
  if (size_ == 0) return *this = other;
  for (const Term& t : other.terms()) add(t.var, t.coeff);
  return *this;
}

LinearCombination& LinearCombination::sub(const LinearCombination& other) {
  for (const Term& t : other.terms()) add(t.var, -t.coeff);
  return *this;
}

LinearCombination& LinearCombination::scale(const Fr& s) {
  Term* data = big_.empty() ? small_.data() : big_.data();
  for (size_t i = 0; i < size_; ++i) data[i].coeff *= s;
  return *this;
}

Fr LinearCombination::evaluate(std::span<const Fr> inputs, std::span<const Fr> aux) const {
  Fr acc = Fr::zero();
  for (const Term& t : terms()) {
    if (t.coeff.is_zero()) continue;
    Fr v = t.var.is_input() ? inputs[t.var.index] : aux[t.var.index];
    if (!t.coeff.is_one()) v *= t.coeff;
    acc += v;
  }
  return acc;
}

void DensityBitmap::push(bool bit) {
  if (bit_len % 64 == 0) words.push_back(0);
  if (bit) {
    words.back() |= uint64_t(1) << (bit_len % 64);
    ++popcount;
  }
  ++bit_len;
}

void DensityBitmap::resize(size_t bits) {
  if (bits < bit_len) {
    words.resize((bits + 63) / 64);
    if (bits % 64 != 0) words.back() &= (uint64_t(1) << (bits % 64)) - 1;
    bit_len = bits;
    recount();
    return;
  }
  words.resize((bits + 63) / 64, 0);
  bit_len = bits;
}

void DensityBitmap::recount() {
  size_t n = 0;
  for (uint64_t w : words) n += size_t(std::popcount(w));
  popcount = n;
}

}  // namespace cuzk::r1cs
