#include "r1cs/constraint_system.hpp"

#include <algorithm>
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

namespace {

uint64_t low_mask(size_t k) { return k >= 64 ? ~uint64_t(0) : (uint64_t(1) << k) - 1; }

// dst's bits [0, n) |= src's bits [0, n) (n ≤ both lengths), keeping dst's popcount.
void or_prefix(DensityBitmap& dst, const DensityBitmap& src, size_t n) {
  for (size_t w = 0; w * 64 < n; ++w) {
    const uint64_t add = src.words[w] & ~dst.words[w] & low_mask(n - w * 64);
    dst.words[w] |= add;
    dst.popcount += size_t(std::popcount(add));
  }
}

// Appends src's bits [from, src.bit_len) to dst, a word at a time.
void append_bits(DensityBitmap& dst, const DensityBitmap& src, size_t from) {
  const size_t n = src.bit_len - from, base = dst.bit_len;
  dst.resize(base + n);  // the new bits are clear
  for (size_t i = 0; i < n;) {
    const size_t s = from + i, d = base + i;
    const size_t k = std::min({64 - s % 64, 64 - d % 64, n - i});
    const uint64_t bits = (src.words[s / 64] >> (s % 64)) & low_mask(k);
    dst.words[d / 64] |= bits << (d % 64);
    dst.popcount += size_t(std::popcount(bits));
    i += k;
  }
}

}  // namespace

void DensityBitmap::join(const DensityBitmap& piece, size_t prefix) {
  or_prefix(*this, piece, prefix);
  append_bits(*this, piece, prefix);
}

}  // namespace cuzk::r1cs
