# shellcheck shell=bash
# Sourced by the end-to-end scripts: the cuzk binary, the fixture folders, and checks of exit codes.
#   $1: the cuzk executable; $2: the fixture folder (sector/, params/ made by the setup tests).
set -euo pipefail
cuzk=$1
e2e=$2
sector=$e2e/sector
params=$e2e/params
work=$(mktemp -d "$e2e/run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The value of a top-level or nested key of sector.json ("post_randomness", "window_post.proof_type").
sector_value() { python3 -c "import json,sys; v=json.load(open(sys.argv[1])); [v:=v[k] for k in sys.argv[2].split('.')]; print(v)" "$sector/sector.json" "$1"; }

# expect_exit CODE WHAT command...: runs the command, fails the test unless it exits with CODE.
expect_exit() {
  local want=$1 what=$2 rc=0
  shift 2
  "$@" >"$work/out" 2>&1 || rc=$?
  cat "$work/out"
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want" >&2
    exit 1
  fi
  echo "ok: $what (exit $rc)"
}

# A copy of a file with the byte at OFFSET xored with 0x01.
flip_byte() { python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[int(sys.argv[3])]^=1; open(sys.argv[2],'wb').write(b)" "$1" "$2" "$3"; }
