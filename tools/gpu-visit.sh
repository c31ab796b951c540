#!/usr/bin/env bash
# One visit to the GPU machine: every GPU test and benchmark found in the build folder, plus the
# SASS instruction counts of the field/curve throughput kernels. Run from the repository root:
#
#   tools/gpu-visit.sh [BUILD_DIR]     (default build-cuda; logs go to $OUT, else ./gpu-visit-out)
#
# The binaries are built on the development machine and carried (static cudart, static gtest);
# nothing is compiled here. Each step has a time limit and a failure never stops the others.
set -u
B=${1:-build-cuda}
O=${OUT:-gpu-visit-out}
mkdir -p "$O"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$O/summary.txt"; }

{
  echo "date: $(date -u +%FT%TZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,power.limit --format=csv
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  nvcc --version | tail -1
} >"$O/env.txt" 2>&1
cat "$O/env.txt"

# Tests: GPU/CUDA test binaries (gtest), each one in full.
for t in $(find "$B/tests" -type f -executable -name 'cuzk_test_*' 2>/dev/null | grep -Ei 'gpu|cuda' | sort); do
  log "test $(basename "$t")"
  timeout 240 "$t" --gtest_brief=1 >>"$O/tests.log" 2>&1
  echo "exit $? for $t" | tee -a "$O/summary.txt" >>"$O/tests.log"
done
grep -E '^\[  (FAILED|PASSED|SKIPPED) ' "$O/tests.log" | sort | uniq -c | tee -a "$O/summary.txt"

# Benchmarks: every executable in bench/gpu.
for b in $(find "$B/bench/gpu" -maxdepth 1 -type f -executable -name 'cuzk_bench_*' 2>/dev/null | sort); do
  n=$(basename "$b")
  log "bench $n"
  if [ "$n" = cuzk_bench_gpu_field ]; then
    timeout 180 "$b" --json "$O/bench_gpu_field.json" >>"$O/bench.log" 2>&1
  else
    timeout 180 "$b" >>"$O/bench.log" 2>&1
  fi
  echo "exit $? for $n" | tee -a "$O/summary.txt" >>"$O/bench.log"
done
# The MSMs at a 2^27 proof's shapes (one table, passes of 2^25 points, device scalars), with their
# phases: the H query (uniform, c = 20), a witness vector in G1 (c = 16 and the model's c = 19) and in
# G2 (c = 16). CUZK_MSM_SHAPES=0 skips them.
if [ -x "$B/bench/gpu/cuzk_bench_msm" ] && [ "${CUZK_MSM_SHAPES:-1}" != 0 ]; then
  for args in "g1 27 --window 20" "g1 27 --window 16 --witness" "g1 27 --window 19 --witness" \
    "g2 26 --window 16 --witness"; do
    log "bench msm $args (proof shape)"
    timeout 180 "$B/bench/gpu/cuzk_bench_msm" $args --precompute 1 --chunk 25 --reps 3 --profile >>"$O/bench.log" 2>&1
    echo "exit $? for msm $args" | tee -a "$O/summary.txt" >>"$O/bench.log"
  done
fi
# The host's single-core field/curve numbers, on this machine's CPU too.
if [ -x "$B/bench/cpu/cuzk_bench_cpu" ]; then
  log "bench cuzk_bench_cpu --quick"
  timeout 120 "$B/bench/cpu/cuzk_bench_cpu" --quick >>"$O/bench.log" 2>&1
fi

# Whole proofs of the partition shape (constraints 0.97·2^k, 20 inputs, A 100 %, B 60 %, aux 40 % 0,
# 40 % 1): from the assignment in host memory to the proof, parameters resident on the device
# (a warm-up proof loads them), with a key of random points (timing only). CUZK_PROVE_LOGS picks
# the sizes; "27:8G" runs 2^27 under an 8 GiB budget. --pin-assignment writes every proof's a, b, c and
# aux into the same pinned buffers, as the engine's pooled partition buffers do.
if [ -x "$B/cli/cuzk" ]; then
  for spec in ${CUZK_PROVE_LOGS:-20 24 26 27 27:8G}; do
    k=${spec%%:*}
    budget=""
    [ "$spec" != "$k" ] && budget="--vram-budget ${spec#*:}"
    log "bench prove 2^$k $budget"
    # shellcheck disable=SC2086
    timeout 300 "$B/cli/cuzk" bench prove --circuit synthetic --log-domain "$k" --fake-key --backend cuda \
      --warmup --repeat 2 --pin-assignment $budget --json "$O/prove_$k${budget:+_budget}.json" >>"$O/bench.log" 2>&1
    echo "exit $? for prove 2^$k" | tee -a "$O/summary.txt" >>"$O/bench.log"
  done
fi

# The setup's generator multiples on the CPU and on the GPU (uncompressed params written to /tmp).
if [ -x "$B/cli/cuzk" ]; then
  for spec in 20:cpu 20:cuda ${CUZK_SETUP_LOGS:-24}:cuda; do
    k=${spec%%:*}
    log "setup 2^$k on ${spec#*:}"
    timeout 300 "$B/cli/cuzk" setup --circuit synthetic --log-domain "$k" --toxic-seed 1 --backend "${spec#*:}" \
      --params /tmp/gpu-visit-setup.params >>"$O/bench.log" 2>&1
    echo "exit $? for setup 2^$k ${spec#*:}" | tee -a "$O/summary.txt" >>"$O/bench.log"
    rm -f /tmp/gpu-visit-setup.params
  done
fi

# The engine (docs/BENCHMARKS.md, "The engine on one and two H200s"): 10-partition PoRep jobs with
# WinningPoSt on one GPU, on every GPU, and two workers per GPU under 16 GiB per device.
# CUZK_ENGINE_LOG picks the partition size (27 is PoRep's; 26 halves the time). Each run submits its jobs
# at once, so the later jobs show the steady state (the first pays for resident bases and buffer sets).
if [ -x "$B/cli/cuzk" ]; then
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  k=${CUZK_ENGINE_LOG:-26}
  common="--backend cuda --log-domain $k --winning 2 --winning-log-domain 20 --synthesis-workers 3 --synthesis-threads 10"
  runs="1gpu:--gpus 1 --workers-per-gpu 1 --jobs 2"
  [ "$gpus" -ge 2 ] && runs="$runs|2gpu:--gpus 2 --workers-per-gpu 1 --jobs 3|2x2_16G:--gpus 2 --workers-per-gpu 2 --vram-budget 16G --jobs 1"
  IFS='|' read -r -a list <<<"$runs"
  for run in "${list[@]}"; do
    name=${run%%:*}
    log "bench engine 2^$k $name"
    # shellcheck disable=SC2086
    timeout 400 "$B/cli/cuzk" bench engine $common ${run#*:} --json "$O/engine_${k}_$name.json" >>"$O/bench.log" 2>&1
    echo "exit $? for engine $name" | tee -a "$O/summary.txt" >>"$O/bench.log"
  done
fi

# SASS of the throughput kernels: instruction mix per kernel.
obj=$(find "$B" -name 'throughput.cu.o' | head -1)
if [ -n "$obj" ] && command -v cuobjdump >/dev/null; then
  cuobjdump --dump-sass "$obj" >/tmp/sass_throughput.txt 2>&1
  awk '/Function :/ { fn = $3 }
       /^ +\/\*[0-9a-f]+\*\/ / { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); n[fn "\t" op]++ }
       END { for (k in n) print k "\t" n[k] }' /tmp/sass_throughput.txt | sort >"$O/sass_counts.txt"
  log "sass counts written"
fi
# SASS of one operation per kernel (bench/gpu/sass_probe.cu), compiled here with the same flags.
if command -v cuobjdump >/dev/null && command -v nvcc >/dev/null; then
  nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -I. -cubin bench/gpu/sass_probe.cu -o "$O/probe.cubin" &&
    cuobjdump --dump-sass "$O/probe.cubin" >"$O/sass_probe.txt" 2>&1 && rm -f "$O/probe.cubin"
  awk '/Function :/ { fn = $3 }
       /^ +\/\*[0-9a-f]+\*\/ / { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); n[fn "\t" op]++; t[fn]++ }
       END { for (k in n) print k "\t" n[k]; for (f in t) print f "\tTOTAL\t" t[f] }' "$O/sass_probe.txt" |
    sort >"$O/sass_probe_counts.txt"
  log "sass probe counts written"
fi
log "done"
