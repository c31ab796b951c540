#!/usr/bin/env bash
# Regenerates the fixtures of the circom interop tests (tests/interop_groth16/): for each circuit
# <name>.circom here, with the witness input <name>.input.json, writes <name>/
#   circuit.r1cs   circom2 -p bls12381 (circomlib from tests/interop/node_modules on the include path)
#   witness.wtns   snarkjs wtns calculate
#   circuit.zkey   snarkjs groth16 setup on a fresh power-of-tau file + one zkey contribution
#   verification_key.json, proof.json, public.json   snarkjs's own key export and proof (verified)
# Uses the pinned npm packages of tests/interop (install them with tools/setup.sh). The entropy is
# random, so every run yields different, equally valid keys: commit the result. A few minutes on
# two cores. Usage: make_fixtures.sh [name...]   (default: every circuit)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
modules="$here/../../interop/node_modules"
bin="$modules/.bin"
for tool in circom2 snarkjs; do
  [[ -x $bin/$tool ]] || { echo "make_fixtures: $bin/$tool missing; run: bash tools/setup.sh" >&2; exit 1; }
done
[[ -d $modules/circomlib/circuits ]] || { echo "make_fixtures: circomlib missing; run: bash tools/setup.sh" >&2; exit 1; }

# Power of tau per circuit: the smallest with 2^power >= constraints + public signals + 1.
declare -A power=([multiplier]=3 [bits]=9)
names=("$@")
[[ ${#names[@]} -gt 0 ]] || names=(multiplier bits)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# circom2 runs in WASI and only sees the current folder and its parents: give it a copy of
# circomlib's circuits beside the sources.
cp -r "$modules/circomlib/circuits" "$work/circomlib"
entropy() { od -An -tx8 -N16 /dev/urandom | tr -d ' \n'; }

for name in "${names[@]}"; do
  p=${power[$name]:?"no power of tau set for $name"}
  echo "== $name (ptau power $p)"
  d="$work/$name"
  mkdir -p "$d"
  cp "$here/$name.circom" "$here/$name.input.json" "$work/"
  (
    cd "$work"
    "$bin/circom2" "$name.circom" --r1cs --wasm -p bls12381 -l circomlib -o "$name" | grep -E "constraints|inputs|outputs|wires"
    cd "$d"
    "$bin/snarkjs" wtns calculate "${name}_js/$name.wasm" "../$name.input.json" witness.wtns
    mv "$name.r1cs" circuit.r1cs
    "$bin/snarkjs" powersoftau new bls12381 "$p" pot_0.ptau >/dev/null
    "$bin/snarkjs" powersoftau contribute pot_0.ptau pot_1.ptau --name=cuzk-fixture -e="$(entropy)" >/dev/null
    "$bin/snarkjs" powersoftau prepare phase2 pot_1.ptau pot_final.ptau >/dev/null
    "$bin/snarkjs" groth16 setup circuit.r1cs pot_final.ptau circuit_0.zkey >/dev/null
    "$bin/snarkjs" zkey contribute circuit_0.zkey circuit.zkey --name=cuzk-fixture -e="$(entropy)" >/dev/null
    "$bin/snarkjs" zkey export verificationkey circuit.zkey verification_key.json >/dev/null
    "$bin/snarkjs" groth16 prove circuit.zkey witness.wtns proof.json public.json
    "$bin/snarkjs" groth16 verify verification_key.json public.json proof.json
  )
  rm -rf "${here:?}/$name"
  mkdir -p "$here/$name"
  cp "$d"/{circuit.r1cs,witness.wtns,circuit.zkey,verification_key.json,proof.json,public.json} "$here/$name/"
  ls -l "$here/$name"
done
