// The plan of a device NTT, host code only (no CUDA): how a transform of 2^log_n splits into
// passes over the buffer, each running several radix-2 stages on a block held in shared memory.
// ntt.cu launches one kernel per pass; the shape is unit-tested on the CPU (tests/backend_cuda).
//
// A pass over index bits [s_lo, s_lo + k) loads, per block, the 2^k elements that differ only in
// those bits, for 2^c consecutive values of the bits below s_lo (c = coalesce_log, so that each
// block reads runs of 2^c · 32 contiguous bytes), and g index bits above its stages as independent
// groups, so that every pass has blocks of the same size. DIF passes go from the top bits down,
// DIT passes from the bottom up. 2^27 with the default tuning is four passes of 7, 7, 7 and 6
// stages: smaller blocks keep more of them resident per SM, which measures faster than three
// passes of 9 although it moves the buffer once more.
#pragma once

#include <cstddef>
#include <vector>

#include "common/result.hpp"

namespace cuzk::cuda {

// Tuning knobs of the transform kernels. The defaults are the fastest of a sweep on an H200
// (pass_log 10-12, coalesce_log 1-2, 128/256 threads: 2^27 forward 40.9-46 ms; docs/NTT-NOTES.md).
struct NttTuning {
  // Each kernel pass loads 2^pass_log elements of one block into shared memory and runs up to
  // pass_log radix-2 stages there (2^pass_log · 32 bytes of shared memory per block).
  unsigned pass_log = 10;
  // Passes over high index bits load runs of 2^coalesce_log consecutive elements.
  unsigned coalesce_log = 2;
  // Threads per block (at most; fewer when a pass has fewer butterflies per stage).
  unsigned threads = 128;
  // The twiddle table holds at most 2^twiddle_log entries: a plan of 2^N holds ω_N^(i·2^d),
  // i < 2^(N−1−d), with d = N−1−twiddle_log where that is positive, and ω_N^e, e < 2^d, beside it;
  // a stage whose exponents are not multiples of 2^d (the top d stages of a 2^N transform)
  // multiplies the two entries. The default holds one table of every twiddle: at 2^27 a table of
  // 2^19 entries is 16 MiB instead of 2 GiB but costs each transform 8 ms more (43.4 → 51.3 ms on
  // an H200), so it is for budgets that need the room (the H stage's compact plans).
  unsigned twiddle_log = 27;
};

// The ranges the kernels take: pass_log 2..12, coalesce_log <= pass_log − 2, threads a power of
// two in 32..512, twiddle_log at most 28.
Status check_ntt_tuning(const NttTuning& tuning);

// d of a plan of 2^max_log's twiddle tables (NttTuning::twiddle_log): 0 where one table holds
// every twiddle.
constexpr unsigned ntt_twiddle_split(unsigned max_log, unsigned twiddle_log) {
  return max_log > twiddle_log + 1 ? max_log - 1 - twiddle_log : 0;
}

// Shared memory of one block of a pass of 2^pass_log elements of Fr.
constexpr size_t ntt_shared_bytes(unsigned pass_log) { return (size_t(1) << pass_log) * 32; }

// One pass of a transform: index bits [s_lo, s_lo + k) as stages, the c bits below s_lo loaded as
// runs of consecutive elements, and the g bits above its stages as independent groups of one block.
struct NttPass {
  unsigned s_lo, k, c, g;
};

// The passes of a transform of 2^log_n (log_n >= 1), top pass first.
std::vector<NttPass> plan_ntt_passes(unsigned log_n, const NttTuning& tuning);

}  // namespace cuzk::cuda
