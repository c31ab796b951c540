#include "backend/cpu/sparse_rows.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "backend/cpu/scratch_values.hpp"

namespace cuzk::cpu {

namespace {

// The witness value of wire `w`: ONE and the inputs, then the auxiliaries.
// The arrays are those of a checked compiled circuit (every wire and coefficient index in range);
// check_shape makes sure the witness is its shape.
inline const Fr& wire_value(const CompiledRows& rows, uint32_t w) {
  const size_t ni = rows.inputs.size();
  return w < ni ? rows.inputs[w] : rows.aux[w - ni];
}

Status check_shape(const CompiledRows& rows, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
  const CircuitMatrices& m = rows.matrices;
  const size_t n = a.size();
  if (const std::string e = circuit_shape_error(m); !e.empty()) return make_error("compiled rows: " + e);
  if (b.size() != n || c.size() != (m.has_c() ? n : 0))
    return make_error("compiled rows: a, b (and c when the rows have C) must be as long as the domain");
  if (m.num_rows() > n) return make_error("compiled rows: more rows than the domain holds");
  if (rows.inputs.size() != m.num_inputs || rows.aux.size() != m.num_aux)
    return make_error("compiled rows: the witness has " + std::to_string(rows.inputs.size()) +
                      " inputs and " + std::to_string(rows.aux.size()) + " auxiliaries, the circuit " +
                      std::to_string(m.num_inputs) + " and " + std::to_string(m.num_aux));
  return Status::Ok();
}

}  // namespace

Fr sparse_row(const CompiledRows& rows, const SparseSide& side, size_t r) {
  Fr acc = Fr::zero();
  for (uint32_t k = side.row_start[r], e = side.row_start[r + 1]; k < e; ++k) {
    const Fr& v = wire_value(rows, side.wire[k]);
    if (v.is_zero()) continue;
    const uint32_t ci = side.coeff[k];
    if (ci == kSpmvCoeffOne) {
      acc += v;
    } else if (ci == kSpmvCoeffMinusOne) {
      acc -= v;
    } else if (v.is_one()) {
      acc += rows.matrices.coeffs[ci];
    } else {
      acc += v * rows.matrices.coeffs[ci];
    }
  }
  return acc;
}

Status evaluate_rows(const CompiledRows& rows, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                     ThreadPool& pool) {
  CUZK_TRY_STATUS(check_shape(rows, a, b, c));
  const CircuitMatrices& mat = rows.matrices;
  const size_t m = mat.num_constraints, ni = rows.inputs.size(), n = a.size();
  const bool with_c = mat.has_c();
  pool.for_ranges(n, size_t(1) << 14, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      if (r < m) {
        a[r] = sparse_row(rows, mat.sides[0], r);
        b[r] = sparse_row(rows, mat.sides[1], r);
        if (with_c) c[r] = sparse_row(rows, mat.sides[2], r);
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

HRequest with_rows_formed(const HRequest& rq, std::span<Fr> b, std::span<Fr> c) {
  HRequest evaluated = rq;
  evaluated.c_from_ab = !rq.rows->matrices.has_c();
  evaluated.rows = nullptr;
  evaluated.b = b;
  evaluated.c = c;
  return evaluated;
}

Status compute_h_from_host_rows(const HRequest& rq, const std::function<Status(const HRequest&)>& compute,
                                ThreadPool& pool) {
  const size_t n = size_t(1) << rq.log_n;
  const bool with_c = rq.rows->matrices.has_c();
  ScratchValues b, c;
  CUZK_TRY_STATUS(b.allocate(n, "the sparse products' b"));
  if (with_c) CUZK_TRY_STATUS(c.allocate(n, "the sparse products' c"));
  CUZK_TRY_STATUS(evaluate_rows(*rq.rows, rq.a, b.span(), c.span(), pool));
  return compute(with_rows_formed(rq, b.span(), c.span()));
}

}  // namespace cuzk::cpu
