#!/usr/bin/env bash
# Issue 28's timing criterion on the GPU machine: one PoRep C2 job (a virtual sector's C1 in Curio's
# wrapper) submitted through Curio's cuzk.v1 API and through cuzkd's own API, alternating, on one
# daemon, after an untimed warm-up job; the submit-to-proof seconds of each and their ratio. One
# call, within 5 minutes at 32 GiB with the default two rounds (the key, then five jobs of ~18 s).
#
#   tools/device-curio-compare.sh [BUILD_DIR] [SIZE] [ROUNDS]
#     BUILD_DIR  holds cli/cuzk, server/cuzkd, bench/curio/cuzkd-bench and bench/curio/cuzk-curio-compare
#                (default build-cuda; /tmp/p/b for tools/device-pack.sh's package, whose libraries in
#                /tmp/p/lib are then put on LD_LIBRARY_PATH)
#     SIZE       32g (default): the official parameters (47 GB) cannot be on the machine, so the daemon
#                is cuzkd-bench, cuzkd holding a key made at start: with KEY=fake (the default) random
#                points of the circuit's exact shape, made in seconds, whose results come back FAILED
#                "NOT VALID ...", proofs attached, and time the same work a real key would; with
#                KEY=test a test setup of the circuit (minutes), whose proofs verify.
#                2k: cuzkd with real 2 KiB parameters, made here by `cuzk setup` unless PARAMS_DIR has
#                them; FAKE=1 uses cuzkd-bench at 2 KiB too.
#     ROUNDS     rounds of one job through each API (default 2; the order alternates each round)
#   Environment: BACKEND (cuda; cpu to try it without a GPU), KEY (fake or test, 32g), WARMUP (untimed
#                jobs first, default 1), OUT (else ./device-curio-out),
#                PARAMS_DIR (2k: existing parameters), WORKERS (device workers, default 2 on cuda).
#
# $OUT gets env.txt, cuzkd.toml, cuzkd.log, seal.log, compare.log, compare.json, summary.txt.
set -u
B=${1:-build-cuda}
SIZE=${2:-32g}
ROUNDS=${3:-2}
BACKEND=${BACKEND:-cuda}
O=${OUT:-device-curio-out}
mkdir -p "$O"
O=$(cd "$O" && pwd)
# shellcheck source=tools/device-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/device-common.sh"
device_libs "$B"
CUZK=$B/cli/cuzk
CUZKD=$B/server/cuzkd
BENCHD=$B/bench/curio/cuzkd-bench
COMPARE=$B/bench/curio/cuzk-curio-compare
die() { log "FAILED: $*"; exit 1; }

case $SIZE in
  32g) proof=StackedDrg32GiBV1_1 circuit=porep-32g partitions=10 fake=1 ;;
  2k) proof=StackedDrg2KiBV1_1 circuit=porep-2k partitions=1 fake=${FAKE:-0} ;;
  *) die "SIZE is 32g or 2k, not $SIZE" ;;
esac
device_env "size: $SIZE ($proof, $partitions partitions), rounds: $ROUNDS, backend: $BACKEND, fake key: $fake"
for f in "$CUZK" "$COMPARE" "$( ((fake)) && echo "$BENCHD" || echo "$CUZKD")"; do
  [ -x "$f" ] || die "no $f (build it, or pack it with tools/device-pack.sh)"
done

W=$(mktemp -d /tmp/cuzk-curio-compare.XXXXXX)
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
    kill -TERM "$daemon_pid"
    for _ in $(seq 60); do kill -0 "$daemon_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$daemon_pid" 2>/dev/null
  fi
  rm -rf "$W"
}
trap cleanup EXIT

# 1. The job: a virtual sector's commit-phase-1 output in Curio's wrapper (no data, any size).
log "seal-test-sector --virtual --curio ($proof)"
timeout 120 "$CUZK" seal-test-sector --virtual --curio --proof "$proof" --miner-id 1000 --sector-id 1 \
  --out "$W/sector" >"$O/seal.log" 2>&1 || die "seal-test-sector (seal.log)"
ls -l "$W/sector" | tee -a "$O/summary.txt"

# 2. The parameters: a fake key in cuzkd-bench, or real 2 KiB ones by their official names.
P=$W/params
mkdir -p "$P"
if ((!fake)); then
  if [ -n "${PARAMS_DIR:-}" ]; then
    P=$PARAMS_DIR
  else
    log "setup --filecoin $circuit (real test parameters)"
    timeout 900 "$CUZK" setup -q --filecoin "$circuit" --param-dir "$P" --backend "$BACKEND" \
      >>"$O/seal.log" 2>&1 || die "setup (seal.log)"
  fi
fi

# 3. The daemon, as Curio would run it (deploy/cuzkd.curio.toml), on a socket of its own.
workers=${WORKERS:-$([ "$BACKEND" = cuda ] && echo 2 || echo 1)}
sock=$W/cuzkd.sock
cat >"$O/cuzkd.toml" <<EOF
[daemon]
listen = ["unix://$sock"]
http_listen = ""
max_message_bytes = "256M"
shutdown_grace_s = 5
log_level = "info"
params_dirs = ["$P"]

[engine]
journal = "$W/journal.db"
trusted_params = true           # made on this machine (curve checks only)
synthesis_workers = 2

[devices]
backend = "$BACKEND"
cpu_threads_per_worker = 0

[[devices.device]]
index = 0
workers = $workers

[curio]
param_dir = "$P"
EOF
# The native API names no parameter file: the daemon finds it by its official name here.
export FIL_PROOFS_PARAMETER_CACHE=$P
if ((fake)) && [ "${KEY:-fake}" = test ]; then
  log "cuzkd-bench --test-key $circuit (a setup: minutes at 32 GiB)"
  "$BENCHD" --config "$O/cuzkd.toml" --test-key "$circuit" --toxic-seed 1 --setup-backend "$BACKEND" \
    >"$O/cuzkd.log" 2>&1 &
elif ((fake)); then
  log "cuzkd-bench --fake-key $circuit (the key takes about 15 s at 32 GiB)"
  "$BENCHD" --config "$O/cuzkd.toml" --fake-key "$circuit" >"$O/cuzkd.log" 2>&1 &
else
  log "cuzkd"
  "$CUZKD" --config "$O/cuzkd.toml" >"$O/cuzkd.log" 2>&1 &
fi
daemon_pid=$!
for _ in $(seq 1200); do
  grep -q "event=started" "$O/cuzkd.log" && break
  kill -0 "$daemon_pid" 2>/dev/null || die "the daemon stopped (cuzkd.log: $(tail -2 "$O/cuzkd.log"))"
  sleep 0.5
done
grep -q "event=started" "$O/cuzkd.log" || die "the daemon did not start within 600 s (cuzkd.log)"
grep -E "cuzkd-bench:" "$O/cuzkd.log" | tee -a "$O/summary.txt"

# 4. The comparison: each round one job through each API, the order alternating.
log "cuzk-curio-compare --rounds $ROUNDS"
timeout 3000 "$COMPARE" --daemon "unix://$sock" --sector "$W/sector" --rounds "$ROUNDS" --warmup "${WARMUP:-1}" \
  --partitions "$partitions" --json "$O/compare.json" 2>&1 | tee "$O/compare.log"
rc=${PIPESTATUS[0]}
tail -3 "$O/compare.log" >>"$O/summary.txt"
((rc == 0)) || die "cuzk-curio-compare exit $rc"

# 5. Stop (SIGTERM: drain) and keep the log.
kill -TERM "$daemon_pid"
wait "$daemon_pid"
echo "daemon exit $?" | tee -a "$O/summary.txt"
daemon_pid=
log "done: $O/summary.txt"
