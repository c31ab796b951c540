#!/usr/bin/env bash
# The main job from a fresh machine: set-up, build the `cuzk` command, run it.
# The main job: a quick arithmetic self-check; then a real Filecoin proof: a 2 KiB test sector is
# sealed, its PoRep C2 (commit phase 2) is proved from the commit-phase-1 JSON -- on the GPU when
# one is found, else on the CPU -- and verified against the verifying key found by its official
# file name; a proof checked as another sector's, and a tampered C1, must be refused.
set -euo pipefail
# shellcheck source=tools/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cuzk="$build_dir/cli/cuzk"

main_job() {
  step "cuzk selfcheck"
  "$cuzk" selfcheck
  local out="$build_dir/demo"
  # Test parameters are kept between runs (they take minutes to make): the official file names in
  # a folder of the build, the way FIL_PROOFS_PARAMETER_CACHE names the real ones.
  local params="$build_dir/filecoin-parameters"
  rm -rf "$out"
  mkdir -p "$out" "$params"
  step "cuzk seal-test-sector: a 2 KiB sector (StackedDrg2KiBV1_1), miner f01000, sector 1"
  "$cuzk" seal-test-sector --proof StackedDrg2KiBV1_1 --miner-id 1000 --sector-id 1 --rng-seed "$RANDOM" \
    --out "$out/sector"
  step "cuzk setup --filecoin porep-2k (test parameters; kept when present)"
  "$cuzk" setup --filecoin porep-2k --param-dir "$params"
  step "cuzk prove-porep: C2 from the C1 JSON (GPU when present, else CPU)"
  "$cuzk" prove-porep --backend auto --c1 "$out/sector/c1.json" --miner-id 1000 --sector-id 1 \
    --param-dir "$params" --proof-out "$out/porep.proof"
  step "cuzk verify-porep"
  "$cuzk" verify-porep --c1 "$out/sector/c1.json" --miner-id 1000 --sector-id 1 --param-dir "$params" \
    --proof-in "$out/porep.proof"
  step "cuzk verify-porep as sector 2 (must be rejected)"
  local rc=0
  "$cuzk" verify-porep --c1 "$out/sector/c1.json" --miner-id 1000 --sector-id 2 --param-dir "$params" \
    --proof-in "$out/porep.proof" || rc=$?
  if [ "$rc" -ne 3 ]; then
    echo "run-demo: the proof was accepted for another sector (exit $rc)" >&2
    exit 1
  fi
  step "cuzk prove-porep of a tampered C1 (another interactive seed: must be refused before proving)"
  local byte=7
  if grep -q '"seed":\[7,' "$out/sector/c1.json"; then byte=8; fi
  sed -E "s/\"seed\":\[[0-9]+,/\"seed\":[$byte,/" "$out/sector/c1.json" > "$out/tampered-c1.json"
  rc=0
  "$cuzk" prove-porep --c1 "$out/tampered-c1.json" --param-dir "$params" --proof-out "$out/tampered.proof" || rc=$?
  if [ "$rc" -ne 1 ]; then
    echo "run-demo: the tampered C1 was not refused (exit $rc)" >&2
    exit 1
  fi
}

step "set-up (tools/setup.sh)"
bash "$root/tools/setup.sh"
configure
build cuzk
"$cuzk" --version
main_job
printf '\nrun-demo: done after %ss\n' "$(elapsed)"
