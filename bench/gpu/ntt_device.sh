#!/usr/bin/env bash
# One visit to the GPU machine for the NTT: tests, benchmark, SASS of the kernels.
# Binaries are built on the dev machine and carried in .device-ntt/ (see docs/NTT-NOTES.md).
set -o pipefail
D=.device-ntt
OUT=${OUT:-/tmp/ntt-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader
(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump) >/dev/null 2>&1 &&
  { PATH=$PATH:/usr/local/cuda/bin cuobjdump -sass $D/cuzk_bench_ntt | gzip > "$OUT/sass.txt.gz"; }
timeout "${BENCH_S:-90}" $D/cuzk_bench_ntt ${BENCH_ARGS:---sizes 20,24,26,27 --reps 7 --sweep 27} 2>&1 | tee "$OUT/bench.log" | grep -v '^2^'
echo "bench rc=$?"
timeout "${TEST_S:-130}" $D/cuzk_test_gpu_ntt ${TEST_ARGS:-} 2>&1 > "$OUT/test.log"
echo "test rc=$?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|^\[  FAILED|Failure|mismatch|Expected|Which is" "$OUT/test.log" | head -40
