#include "backend/cpu/sparse_rows.hpp"

#include <algorithm>
#include <atomic>
#include <string>

namespace cuzk::cpu {

namespace {

// The witness value of wire `w`: ONE and the inputs, then the auxiliaries.
inline const Fr& wire_value(const CompiledRows& rows, uint32_t w) {
  const size_t ni = rows.inputs.size();
  return w < ni ? rows.inputs[w] : rows.aux[w - ni];
}

Status check_shape(const CompiledRows& rows, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
  const size_t n = a.size();
  if (b.size() != n || c.size() != (rows.c.present() ? n : 0))
    return make_error("compiled rows: a, b (and c when the rows have C) must be as long as the domain");
  if (rows.num_rows() > n) return make_error("compiled rows: more rows than the domain holds");
  if (rows.inputs.empty()) return make_error("compiled rows: the witness has no ONE");
  if (rows.coeffs.size() < 2) return make_error("compiled rows: the coefficient table lacks 1 and −1");
  const size_t wires = rows.inputs.size() + rows.aux.size();
  for (const SparseSide* s : {&rows.a, &rows.b, &rows.c}) {
    if (!s->present()) continue;
    if (s->row_start.size() != rows.num_constraints + 1 || s->wire.size() != s->coeff.size() ||
        s->row_start.back() != s->wire.size())
      return make_error("compiled rows: a side's offsets do not match its terms");
    const auto wmax = std::max_element(s->wire.begin(), s->wire.end());
    if (wmax != s->wire.end() && *wmax >= wires)
      return make_error("compiled rows: a term reads wire " + std::to_string(*wmax) + " of a witness of " +
                        std::to_string(wires));
    const auto cmax = std::max_element(s->coeff.begin(), s->coeff.end());
    if (cmax != s->coeff.end() && *cmax >= rows.coeffs.size())
      return make_error("compiled rows: a term has coefficient " + std::to_string(*cmax) + " of " +
                        std::to_string(rows.coeffs.size()));
  }
  if (!rows.a.present() || !rows.b.present()) return make_error("compiled rows: A and B must be present");
  return Status::Ok();
}

}  // namespace

Fr sparse_row(const CompiledRows& rows, const SparseSide& side, size_t r) {
  Fr acc = Fr::zero();
  for (uint32_t k = side.row_start[r], e = side.row_start[r + 1]; k < e; ++k) {
    const Fr& v = wire_value(rows, side.wire[k]);
    if (v.is_zero()) continue;
    const uint32_t ci = side.coeff[k];
    if (ci == 0) {
      acc += v;
    } else if (ci == 1) {
      acc -= v;
    } else if (v.is_one()) {
      acc += rows.coeffs[ci];
    } else {
      acc += v * rows.coeffs[ci];
    }
  }
  return acc;
}

Status evaluate_rows(const CompiledRows& rows, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                     ThreadPool& pool) {
  CUZK_TRY_STATUS(check_shape(rows, a, b, c));
  const size_t m = rows.num_constraints, ni = rows.inputs.size(), n = a.size();
  const bool with_c = rows.c.present();
  pool.for_ranges(n, size_t(1) << 14, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      if (r < m) {
        a[r] = sparse_row(rows, rows.a, r);
        b[r] = sparse_row(rows, rows.b, r);
        if (with_c) c[r] = sparse_row(rows, rows.c, r);
      } else {
        // The input rows x_i · 0 = 0, then the domain's padding.
        a[r] = r < m + ni ? rows.inputs[r - m] : Fr::zero();
        b[r] = Fr::zero();
        if (with_c) c[r] = Fr::zero();
      }
    }
  });
  return Status::Ok();
}

}  // namespace cuzk::cpu
