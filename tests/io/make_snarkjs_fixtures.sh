#!/usr/bin/env bash
# Regenerates tests/data/snarkjs/: a toy circom circuit compiled for BLS12-381 and a full snarkjs
# Groth16 set-up, proof and bellman export (reference/formats.md §4.2). Uses the pinned npm packages
# of tests/interop (installed by tools/setup.sh). ~30 s on two cores. The ceremony entropy is
# random, so every run yields different (equally valid) keys; commit the result.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin="$root/tests/interop/node_modules/.bin"
out="$root/tests/data/snarkjs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# Two outputs, one public input, two private inputs; a linear term and a constant so that every
# matrix gets coefficients other than ±1.
cat >toy.circom <<'CIRCOM'
pragma circom 2.0.0;

template Toy() {
    signal input a;
    signal input b;
    signal input x;
    signal output c;
    signal output d;
    signal t;
    t <== a * b;
    c <== t * x + 3 * a + 5;
    d <== (a + 2 * b) * (x - 7);
}

component main {public [a]} = Toy();
CIRCOM
echo '{"a": "3", "b": "11", "x": "123456789"}' >input.json

"$bin/circom2" toy.circom --r1cs --wasm -p bls12381 -o . >/dev/null
"$bin/snarkjs" wtns calculate toy_js/toy.wasm input.json toy.wtns
"$bin/snarkjs" powersoftau new bls12381 4 pot_0.ptau >/dev/null
"$bin/snarkjs" powersoftau contribute pot_0.ptau pot_1.ptau --name=x -e="$RANDOM$RANDOM" >/dev/null
"$bin/snarkjs" powersoftau prepare phase2 pot_1.ptau pot_final.ptau >/dev/null
"$bin/snarkjs" groth16 setup toy.r1cs pot_final.ptau toy_0.zkey >/dev/null
"$bin/snarkjs" zkey contribute toy_0.zkey toy.zkey --name=y -e="$RANDOM$RANDOM" >/dev/null
"$bin/snarkjs" zkey export verificationkey toy.zkey verification_key.json >/dev/null
"$bin/snarkjs" groth16 prove toy.zkey toy.wtns proof.json public.json
"$bin/snarkjs" groth16 verify verification_key.json public.json proof.json
"$bin/snarkjs" zkey export bellman toy.zkey toy.params >/dev/null

mkdir -p "$out"
cp toy.circom input.json toy.r1cs toy.wtns toy.zkey toy.params verification_key.json proof.json public.json "$out/"
ls -l "$out"
