#!/usr/bin/env bash
# The Filecoin proofs on the GPU give the CPU's bytes. On the GPU machine: a 2 KiB test sector is
# sealed, each proof kind's test parameters are made on the device, and each proof (PoRep C2,
# WindowPoSt, WinningPoSt, SnapDeals) is made on the CPU and on the GPU with the same r and s,
# compared byte for byte, and verified against the verifying key.
#
#   tools/device-filecoin-check.sh [BUILD_DIR]   (default build; logs and summary.txt go to $OUT)
#
# BUILD_DIR holds cli/cuzk; for tools/device-pack.sh's package (/tmp/p/b) the libraries in
# /tmp/p/lib are put on LD_LIBRARY_PATH. Each step is time-limited and a failure never stops the
# others; the exit status counts the failed checks.
set -u
B=${1:-build}
O=${OUT:-device-filecoin-check-out}
mkdir -p "$O"
if [ -d "$B/../lib" ]; then
  lib=$(cd "$B/../lib" && pwd)
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
C=$B/cli/cuzk
W=$(mktemp -d)
P=$W/params
failed=0
say() { echo "== $*" | tee -a "$O/summary.txt"; }
run() {  # limit_s command...: its output into the log, a failure counted
  local limit=$1
  shift
  if ! timeout "$limit" "$@" >>"$O/check.log" 2>&1; then
    say "FAILED: $*"
    failed=$((failed + 1))
    return 1
  fi
}

say "seal a 2 KiB test sector (StackedDrg2KiBV1_1, miner f01000, sector 1)"
run 60 "$C" seal-test-sector --proof StackedDrg2KiBV1_1 --out "$W/s" --miner-id 1000 --sector-id 1 --rng-seed 7
field() { sed -n "s/.*\"$1\": \"\\([0-9a-f]*\\)\".*/\\1/p" "$W/s/sector.json" | head -1; }
for c in porep-2k wpost-2k winning-2k snap-2k; do
  say "setup --filecoin $c (on the device)"
  run 300 "$C" setup --filecoin "$c" --param-dir "$P" --backend cuda --toxic-seed 1 -q
done

# kind, then the arguments that name the proof's inputs (the same for prove and verify).
check() {
  local kind=$1 name=$2
  shift 2
  for be in cpu cuda; do
    say "prove-$kind $name on $be"
    local t0=$SECONDS
    run 300 "$C" "prove-$kind" "$@" --param-dir "$P" --backend "$be" --rs-seed 11 \
      --proof-out "$W/$name.$be" || return
    echo "   $((SECONDS - t0)) s" | tee -a "$O/summary.txt"
  done
  if cmp -s "$W/$name.cpu" "$W/$name.cuda"; then
    say "$name: the CPU and GPU proofs are identical ($(stat -c %s "$W/$name.cuda") bytes)"
  else
    say "FAILED: $name: the CPU and GPU proofs differ"
    failed=$((failed + 1))
  fi
  run 120 "$C" "verify-$kind" "$@" --param-dir "$P" --proof-in "$W/$name.cuda" && say "$name: verified"
}
check porep porep --c1 "$W/s/c1.json" --miner-id 1000 --sector-id 1
check post window --kind window --proof StackedDrgWindow2KiBV1_2 --randomness "$(field post_randomness)" \
  --vanilla "$W/s/window-1.vproof"
check post winning --kind winning --proof StackedDrgWinning2KiBV1 --randomness "$(field post_randomness)" \
  --vanilla "$W/s/winning-1.vproof"
check update update --proof StackedDrg2KiBV1 --vanilla "$W/s/update-1-0.vproof" \
  --comm-r-old "$(field comm_r_old)" --comm-d-new "$(field comm_d_new)" --comm-r-new "$(field comm_r_new)"
say "$failed failed"
rm -rf "$W"
exit "$failed"
