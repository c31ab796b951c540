// R1CS satisfaction on the evaluations: a_j·b_j = c_j for every constraint row j. The prover's
// backends run it before they transform a, b and c, so that a bad witness is reported as such (its
// first failing row named) instead of as a proof that fails to verify.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "backend/compute.hpp"
#include "backend/cpu/scratch_values.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "field/fields.hpp"

namespace cuzk::cpu {

// The first j < rows with a_j·b_j ≠ c_j, on `pool` (one multiplication per row: 130 M at PoRep size
// is seconds on one core).
std::optional<size_t> first_unsatisfied_row(const Fr* a, const Fr* b, const Fr* c, size_t rows,
                                            ThreadPool& pool = ThreadPool::shared());

// c_j ← a_j·b_j for j < rows, on `pool`: the C evaluations of a satisfied circuit.
void multiply_rows(const Fr* a, const Fr* b, Fr* c, size_t rows, ThreadPool& pool = ThreadPool::shared());

// The C evaluations of an H request in host memory: its c, or a∘b formed into `scratch` when the
// caller left c out (HRequest::c_from_ab), for a backend that transforms c on the host. A host that
// cannot hold them is an error.
Result<std::span<Fr>> host_c_values(const HRequest& rq, ScratchValues& scratch,
                                    ThreadPool& pool = ThreadPool::shared());

// The error for a witness whose row `row` fails (a bad input, not a fault of the machine).
Error unsatisfied_row_error(size_t row);

// Ok, or unsatisfied_row_error of the first failing row.
Status check_rows(const Fr* a, const Fr* b, const Fr* c, size_t rows,
                  ThreadPool& pool = ThreadPool::shared());

}  // namespace cuzk::cpu
