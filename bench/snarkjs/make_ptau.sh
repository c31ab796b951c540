#!/usr/bin/env bash
# Makes a BLS12-381 powers-of-tau file (one random contribution, prepared for phase 2) of power $1
# at path $2, unless it already exists. Test-only: the entropy is random and discarded.
# Power 16 takes many minutes on two cores; the result is cached outside git by its callers.
set -euo pipefail
power=${1:?power}
out=${2:?output .ptau}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
snarkjs="$root/tests/interop/node_modules/.bin/snarkjs"
[[ -x $snarkjs ]] || { echo "make_ptau: $snarkjs missing; run: bash tools/setup.sh" >&2; exit 1; }
[[ -s $out ]] && exit 0
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$(dirname "$out")/ptau.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$snarkjs" powersoftau new bls12381 "$power" "$tmp/0.ptau" >/dev/null
"$snarkjs" powersoftau contribute "$tmp/0.ptau" "$tmp/1.ptau" --name=cuzk -e="$(od -An -tx8 -N32 /dev/urandom | tr -d ' \n')" >/dev/null
rm -f "$tmp/0.ptau"
"$snarkjs" powersoftau prepare phase2 "$tmp/1.ptau" "$tmp/final.ptau" >/dev/null
mv "$tmp/final.ptau" "$out"
