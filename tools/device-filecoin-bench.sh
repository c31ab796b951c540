#!/usr/bin/env bash
# The real Filecoin circuits on the GPU machine (one H200, 16 cores, 128 GiB): one partition each of
# PoRep, WindowPoSt, WinningPoSt and SnapDeals at 32 GiB from virtual sectors, then the 10-partition
# 32 GiB PoRep job through the engine with WinningPoSt beside it (on the whole card and in a 20 GB
# budget), WindowPoSt jobs through the engine, and the PoRep witness alone. Keys are random points
# of each circuit's exact shape: the proofs time the prover and do not verify (the JSON says so).
#
#   tools/device-filecoin-bench.sh [BUILD_DIR] [STEP ...]
#     BUILD_DIR: holds cli/cuzk (default build-cuda; /tmp/p/b for tools/device-pack.sh's package, whose
#                libraries in /tmp/p/lib are then put on LD_LIBRARY_PATH)
#     STEP:      porep wpost winning snap engine engine-copies (the default, about 12 minutes;
#                where one call must end within 10, `porep wpost winning snap` then
#                `engine engine-copies` split it in two), and apart: engine-20g (the engine job
#                in a 20 GB device budget), wpost-jobs (WindowPoSt jobs from the vanilla proofs
#                through the engine, one at a time: submit to proof; WinningPoSt jobs beside them), witness (the PoRep
#                partition's witness alone, three times, on every core)
#
# VERBOSE=1 adds the engine's info logs (each device stage's plan and time) to the engine steps' logs.
# JSON and logs go to $OUT (else ./device-filecoin-out): <step>.json, <step>.log, summary.txt. Each
# step has a time limit and a failure never stops the others; each runs in its own process, so the
# host memory of one (a 2^27 partition is ~17 GB, its key ~12 GB) is free before the next.
set -u
B=${1:-build-cuda}
shift $(($# < 1 ? $# : 1))
steps=${*:-porep wpost winning snap engine engine-copies}
O=${OUT:-device-filecoin-out}
mkdir -p "$O"
# shellcheck source=tools/device-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/device-common.sh"
device_libs "$B"
CUZK=$B/cli/cuzk
device_env
[ -x "$CUZK" ] || { echo "no $CUZK" | tee -a "$O/summary.txt"; exit 1; }

# One partition: virtual inputs, their checks, synthesis on every core (where the circuit splits),
# the fake key, a warm-up proof and two timed ones.
partition() {  # step circuit limit_s
  log "bench filecoin $2"
  timeout "$3" "$CUZK" bench filecoin --circuit "$2" --backend cuda --repeat 2 --json "$O/$1.json" \
    >"$O/$1.log" 2>&1
  echo "exit $? for $1 ($2)" | tee -a "$O/summary.txt"
  tail -4 "$O/$1.log" | tee -a "$O/summary.txt"
}

for step in $steps; do
  case $step in
    porep) partition porep porep-32g 150 ;;
    wpost) partition wpost wpost-32g 200 ;;
    winning) partition winning winning-32g 60 ;;
    snap) partition snap snap-32g 200 ;;
    witness)
      log "bench filecoin porep-32g --synthesis-only --witness-only --repeat 3"
      timeout 120 "$CUZK" bench filecoin --circuit porep-32g --synthesis-only --witness-only --repeat 3 \
        --json "$O/witness.json" >"$O/witness.log" 2>&1
      echo "exit $? for witness" | tee -a "$O/summary.txt"
      tail -6 "$O/witness.log" | tee -a "$O/summary.txt"
      ;;
    wpost-jobs)
      log "bench engine --filecoin wpost-32g --jobs 5 --winning 4"
      timeout 300 "$CUZK" bench engine --filecoin wpost-32g --backend cuda --gpus 1 --workers-per-gpu 2 \
        --synthesis-workers 2 --winning 4 --jobs 5 ${VERBOSE:+--verbose} --json "$O/wpost-jobs.json" >"$O/wpost-jobs.log" 2>&1
      echo "exit $? for wpost-jobs" | tee -a "$O/summary.txt"
      grep -E '^(porep circuit|partitions|peak host RSS|job latency|porep stages|winningpost|winning stages|failures)' \
        "$O/wpost-jobs.log" | tee -a "$O/summary.txt"
      ;;
    engine | engine-copies | engine-20g)
      # The job as docs/BENCHMARKS.md measures the synthetic one (two workers on the GPU, two
      # synthesis workers), with the real PoRep and WinningPoSt circuits. `engine`: every partition
      # synthesized in the engine from the C1 (witness-only against the compiled circuit; three
      # jobs, the steady figure from the first job's end); `engine-copies`: one partition
      # synthesized before the clock and copied (what the devices and the engine sustain).
      # `engine-20g`: the job from the C1 on a 20 GB card's budget (two workers): one job.
      case $step in
        engine) extra="--jobs 3" limit=360 ;;
        engine-copies) extra="--jobs 3 --presynthesized" limit=240 ;;
        engine-20g) extra="--jobs 1 --vram-budget 20G" limit=300 ;;
      esac
      log "bench engine --filecoin porep-32g $extra"
      # shellcheck disable=SC2086
      timeout "$limit" "$CUZK" bench engine --filecoin porep-32g --backend cuda --gpus 1 --workers-per-gpu 2 \
        --synthesis-workers 2 --winning 3 $extra ${VERBOSE:+--verbose} --json "$O/$step.json" >"$O/$step.log" 2>&1
      echo "exit $? for $step" | tee -a "$O/summary.txt"
      grep -E '^(porep circuit|partitions|peak host RSS|s per job|steady rate|porep stages|winningpost|winning stages|retries|failures)' "$O/$step.log" |
        tee -a "$O/summary.txt"
      ;;
    *) echo "unknown step $step (porep wpost winning snap engine engine-copies engine-20g wpost-jobs witness)" |
      tee -a "$O/summary.txt" ;;
  esac
done
