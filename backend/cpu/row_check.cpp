#include "backend/cpu/row_check.hpp"

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace cuzk::cpu {

std::optional<size_t> first_unsatisfied_row(const Fr* a, const Fr* b, const Fr* c, size_t rows) {
  const size_t n = rows;
  const size_t threads =
      std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), n / 65536 + 1));
  std::vector<size_t> first(threads, n);
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (size_t j = n * t / threads, e = n * (t + 1) / threads; j < e; ++j)
        if (a[j] * b[j] != c[j]) {
          first[t] = j;
          return;
        }
    });
  for (auto& th : pool) th.join();
  const size_t j = *std::min_element(first.begin(), first.end());
  return j < n ? std::optional<size_t>(j) : std::nullopt;
}

Error unsatisfied_row_error(size_t row) {
  return make_input_error("assignment: the witness does not satisfy constraint " + std::to_string(row) +
                          " (a·b ≠ c)");
}

Status check_rows(const Fr* a, const Fr* b, const Fr* c, size_t rows) {
  if (auto bad = first_unsatisfied_row(a, b, c, rows)) return unsatisfied_row_error(*bad);
  return Status::Ok();
}

}  // namespace cuzk::cpu
