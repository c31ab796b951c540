#include "common/parallel_ranges.hpp"

#include <algorithm>
#include <system_error>
#include <thread>
#include <vector>

namespace cuzk {

Status parallel_ranges(size_t n, size_t min_chunk, const std::function<Status(size_t, size_t)>& fn,
                       size_t max_threads) {
  if (n == 0) return Status::Ok();
  const size_t hw = max_threads ? max_threads : std::max<size_t>(1, std::thread::hardware_concurrency());
  const size_t by_size = (n + std::max<size_t>(1, min_chunk) - 1) / std::max<size_t>(1, min_chunk);
  const size_t parts = std::min(hw, by_size);
  if (parts <= 1) return fn(0, n);

  std::vector<Status> results(parts);
  std::vector<std::thread> threads;
  threads.reserve(parts);
  const size_t step = (n + parts - 1) / parts;
  for (size_t i = 0; i < parts; ++i) {
    const size_t begin = std::min(n, i * step), end = std::min(n, begin + step);
    try {
      threads.emplace_back([&results, &fn, i, begin, end] { results[i] = fn(begin, end); });
    } catch (const std::system_error&) {
      results[i] = fn(begin, end);  // no thread to be had: do this range here
    }
  }
  for (auto& t : threads) t.join();
  for (auto& s : results)
    if (!s.ok()) return s;
  return Status::Ok();
}

}  // namespace cuzk
