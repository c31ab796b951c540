#include "backend/cpu/row_check.hpp"

#include <atomic>
#include <new>
#include <string>

namespace cuzk::cpu {

std::optional<size_t> first_unsatisfied_row(const Fr* a, const Fr* b, const Fr* c, size_t rows,
                                            ThreadPool& pool) {
  std::atomic<size_t> first{rows};
  pool.for_ranges(rows, 65536, [&](size_t begin, size_t end) {
    // A range past a failing row already found has nothing to add.
    for (size_t j = begin; j < end && j < first.load(std::memory_order_relaxed); ++j)
      if (a[j] * b[j] != c[j]) {
        size_t seen = first.load(std::memory_order_relaxed);
        while (j < seen && !first.compare_exchange_weak(seen, j, std::memory_order_relaxed)) {
        }
        return;
      }
  });
  const size_t j = first.load();
  return j < rows ? std::optional<size_t>(j) : std::nullopt;
}

void multiply_rows(const Fr* a, const Fr* b, Fr* c, size_t rows, ThreadPool& pool) {
  pool.for_ranges(rows, 65536, [&](size_t begin, size_t end) {
    for (size_t j = begin; j < end; ++j) c[j] = a[j] * b[j];
  });
}

Result<std::span<Fr>> host_c_values(const HRequest& rq, ScratchValues& scratch, ThreadPool& pool) {
  if (!rq.c_from_ab) return rq.c;
  const size_t n = rq.a.size();
  CUZK_TRY_STATUS(scratch.allocate(n, "c = a∘b"));
  multiply_rows(rq.a.data(), rq.b.data(), scratch.span().data(), n, pool);
  return scratch.span();
}

Error unsatisfied_row_error(size_t row) {
  return make_input_error("assignment: the witness does not satisfy constraint " + std::to_string(row) +
                          " (a·b ≠ c)");
}

Status check_rows(const Fr* a, const Fr* b, const Fr* c, size_t rows, ThreadPool& pool) {
  if (auto bad = first_unsatisfied_row(a, b, c, rows, pool)) return unsatisfied_row_error(*bad);
  return Status::Ok();
}

}  // namespace cuzk::cpu
