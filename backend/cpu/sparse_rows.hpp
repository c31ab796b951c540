// The sparse matrix-vector product of compiled constraint rows (backend/compute.hpp's
// CompiledRows) on the host: a, b and c for the H stage from the witness alone.
#pragma once

#include <functional>
#include <span>

#include "backend/compute.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"

namespace cuzk::cpu {

// Row r of one side: Σ coeffs[coeff[k]] · w[wire[k]], skipping the product for the coefficients
// 1 and −1 and for witness values 0 and 1 (most wires of real circuits are bits).
Fr sparse_row(const CompiledRows& rows, const SparseSide& side, size_t r);

// a, b (and c when the rows have C) over the whole domain: the constraint rows, then a_i = x_i for
// each input with b = c = 0 there, then zeros. `c` is empty when the rows have no C (c = a∘b).
// The arrays must be a checked compiled circuit's; the witness is checked to be its shape.
Status evaluate_rows(const CompiledRows& rows, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                     ThreadPool& pool);

// The request over host vectors once a, b (and c) of its rows are formed: rq.a holds a, `b` and
// `c` the others (c empty when the rows have no C: it then stands for a∘b).
HRequest with_rows_formed(const HRequest& rq, std::span<Fr> b, std::span<Fr> c);

// compute_h of a request with rows (HRequest::rows) by a backend that takes vectors: a, b (and c)
// evaluated here into rq.a and vectors of its own, then `compute` over them.
Status compute_h_from_host_rows(const HRequest& rq, const std::function<Status(const HRequest&)>& compute,
                                ThreadPool& pool);

}  // namespace cuzk::cpu
