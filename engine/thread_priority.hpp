// Lowering the scheduling priority of the calling thread (its nice value), which the threads it
// starts afterwards inherit.
#pragma once

#include "common/result.hpp"

namespace cuzk::engine {

// Raises the calling thread's nice value by `increment` (capped at 19), so that under contention the
// kernel's scheduler favours other threads. On Linux nice is per thread and a new thread starts
// with its creator's, so every thread a synthesis spawns runs at the lowered priority too. Raising
// nice needs no privilege; lowering it back would, so this is one-way. Elsewhere: does nothing.
Status lower_thread_priority(int increment);

// The calling thread's nice value (0 where it cannot be read).
int thread_nice();

}  // namespace cuzk::engine
