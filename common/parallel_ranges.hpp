// Splits [0, n) into one contiguous range per hardware thread and runs `fn(begin, end)` on each,
// on threads of its own: for work that is embarrassingly parallel and fallible, where a pool would
// buy nothing (io/'s point decoding, 100 M points of a large .params; the engine's buffer fills).
#pragma once

#include <cstddef>
#include <functional>

#include "common/result.hpp"

namespace cuzk {

// Returns the error of the lowest-numbered failing range, so that the message names the first
// bad element no matter how the work was scheduled. Ranges are at least `min_chunk` long, and at
// most `max_threads` run at once (0: one per hardware thread).
Status parallel_ranges(size_t n, size_t min_chunk, const std::function<Status(size_t, size_t)>& fn,
                       size_t max_threads = 0);

}  // namespace cuzk
