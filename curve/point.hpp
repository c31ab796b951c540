// Points of BLS12 curves: affine, Jacobian and XYZZ forms, and the operations over arrays of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "curve/affine.hpp"
#include "curve/jacobian.hpp"
#include "curve/xyzz.hpp"

namespace cuzk::curve {

// |z| for the BLS12-381 curve parameter z = -0xd201000000010000 (the sign is applied by callers).
inline constexpr uint64_t bls_x_abs = 0xd201000000010000ull;

// Montgomery's trick: one inversion for the whole array. out[i].x holds the running prefix product
// of the Z's during the forward pass, so no scratch memory is needed. Infinities are skipped in the
// product and come out as all-zero affine points.
template <class F, class C>
void batch_to_affine(const jacobian_t<F, C>* in, affine_t<F, C>* out, size_t n) {
  F acc = F::one();
  for (size_t i = 0; i < n; ++i) {
    if (in[i].is_inf()) continue;
    out[i].x = acc;
    acc *= in[i].Z;
  }
  F inv = acc.inverse();
  for (size_t i = n; i-- > 0;) {
    if (in[i].is_inf()) {
      out[i] = affine_t<F, C>::infinity();
      continue;
    }
    const F zi = inv * out[i].x;  // 1/Z_i
    inv *= in[i].Z;
    const F zi2 = zi.sqr();
    out[i] = {in[i].X * zi2, in[i].Y * zi2 * zi};
  }
}

// Same for XYZZ, inverting ZZZ: 1/ZZ = (ZZ/ZZZ)^2 because ZZ^3 = ZZZ^2.
template <class F, class C>
void batch_to_affine(const xyzz_t<F, C>* in, affine_t<F, C>* out, size_t n) {
  F acc = F::one();
  for (size_t i = 0; i < n; ++i) {
    if (in[i].is_inf()) continue;
    out[i].x = acc;
    acc *= in[i].ZZZ;
  }
  F inv = acc.inverse();
  for (size_t i = n; i-- > 0;) {
    if (in[i].is_inf()) {
      out[i] = affine_t<F, C>::infinity();
      continue;
    }
    const F izzz = inv * out[i].x;
    inv *= in[i].ZZZ;
    const F izz = (in[i].ZZ * izzz).sqr();
    out[i] = {in[i].X * izz, in[i].Y * izzz};
  }
}

// The table of fixed-base multiplication by windows: row w (of `windows`) holds j·2^(bits·w)·base
// for j < 2^bits, in affine (j = 0 is infinity). k·base is then one table entry per nonzero digit.
template <class F, class C>
std::vector<affine_t<F, C>> window_table(const affine_t<F, C>& base, unsigned bits, unsigned windows) {
  const size_t row_len = size_t(1) << bits;
  std::vector<affine_t<F, C>> table(row_len * windows);
  std::vector<jacobian_t<F, C>> row(row_len);
  jacobian_t<F, C> row_base(base);
  for (unsigned w = 0; w < windows; ++w) {
    row[0] = jacobian_t<F, C>::infinity();
    for (size_t j = 1; j < row_len; ++j) row[j] = row[j - 1].add(row_base);
    batch_to_affine(row.data(), table.data() + w * row_len, row_len);
    for (unsigned d = 0; d < bits; ++d) row_base = row_base.dbl();
  }
  return table;
}

}  // namespace cuzk::curve
