#!/usr/bin/env bash
# The headline figures of docs/BENCHMARKS.md in one run on the GPU machine, each against its goal:
# the MSMs of the goals' shapes (G1 2^20 .. 2^26, G2 2^22 and 2^24: bases and random scalars on the
# device, one table), the 2^27 NTT, whole synthetic proofs at 2^24, 2^26, 2^27 and 2^27 under an
# 8 GiB budget (each proof pairing-checked), and the synthetic 10-partition job's steady rate (four
# jobs, two device workers, WinningPoSt beside them). About five minutes on one H200 for the first
# three steps, two more for the job.
#
#   tools/device-headline.sh PKG_DIR [STEP ...]
#     PKG_DIR: a tools/device-pack.sh package unpacked (its b/ and lib/), holding
#              bench/gpu/cuzk_bench_msm, bench/gpu/cuzk_bench_ntt and cli/cuzk
#     STEP:    msm ntt prove engine (the default: all four)
#
# Logs and JSON go to $OUT (else ./device-headline-out); summary.txt holds each step's table lines.
set -u
P=${1:?package dir}
shift
steps=${*:-msm ntt prove engine}
O=${OUT:-device-headline-out}
mkdir -p "$O"
B=$P/b
# shellcheck source=tools/device-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/device-common.sh"
device_libs "$B"
device_env

for step in $steps; do
  case $step in
    msm)
      for args in "g1 20 22 24 26" "g2 22 24"; do
        log "msm $args"
        # shellcheck disable=SC2086
        timeout 300 "$B/bench/gpu/cuzk_bench_msm" $args --precompute 1 --reps 5 --check --profile \
          >"$O/msm_${args%% *}.log" 2>&1
        echo "exit $?" | tee -a "$O/summary.txt"
        grep -E 'median|phases' "$O/msm_${args%% *}.log" | tee -a "$O/summary.txt"
      done
      ;;
    ntt)
      log "ntt 2^27"
      timeout 200 "$B/bench/gpu/cuzk_bench_ntt" --sizes 27 --reps 5 >"$O/ntt.log" 2>&1
      echo "exit $?" | tee -a "$O/summary.txt"
      grep -E '^\|' "$O/ntt.log" | tee -a "$O/summary.txt"
      ;;
    prove)
      for spec in 24 26 27 27:8G; do
        k=${spec%%:*}
        budget=""
        [ "$spec" != "$k" ] && budget="--vram-budget ${spec#*:}"
        log "prove 2^$k $budget"
        # shellcheck disable=SC2086
        timeout 300 "$B/cli/cuzk" bench prove --circuit synthetic --log-domain "$k" --fake-key --backend cuda \
          --warmup --repeat 2 --pin-assignment $budget --json "$O/prove_$k${budget:+_8g}.json" \
          >"$O/prove_$k${budget:+_8g}.log" 2>&1
        echo "exit $?" | tee -a "$O/summary.txt"
        tail -3 "$O/prove_$k${budget:+_8g}.log" | tee -a "$O/summary.txt"
      done
      ;;
    engine)
      log "engine: 4 jobs of 10 synthetic 2^27 partitions"
      timeout 300 "$B/cli/cuzk" bench engine --backend cuda --winning 3 --winning-log-domain 20 \
        --synthesis-workers 2 --log-domain 27 --gpus 1 --workers-per-gpu 2 --jobs 4 --json "$O/engine.json" \
        >"$O/engine.log" 2>&1
      echo "exit $?" | tee -a "$O/summary.txt"
      grep -o '"steady[a-z_]*": *[0-9.]*' "$O/engine.json" | tee -a "$O/summary.txt"
      ;;
    *) echo "unknown step $step" | tee -a "$O/summary.txt" ;;
  esac
done
