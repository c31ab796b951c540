#!/usr/bin/env bash
# snarkjs vs cuzk: proofs of the same circom circuit by `snarkjs groth16 prove` and `cuzk prove
# --zkey`, side by side in one run (not part of CI).
#
# Circuit: circomlib's Sha256(512), the SHA-256 of a 64-byte message, compiled with circom2
# -p bls12381 (about 60 k constraints, 256 public outputs, domain 2^16). The power-16 ptau, the
# zkey and the witness are made once into a cache folder outside git; the ptau alone takes many
# minutes on two cores (start it early: bench/snarkjs/make_ptau.sh 16 <cache>/bls12381_16.ptau).
# Each prover runs RUNS times, alternately; every proof is checked with `snarkjs groth16 verify`.
# Times are wall-clock seconds of the whole command (process start, key loading, proving,
# writing); the table also shows the prove stage that cuzk reports itself.
#
# Usage: bench/snarkjs/compare.sh            settings (environment):
#   CUZK=<cuzk binary>   default: build-e2e/cli/cuzk, else build/cli/cuzk
#   CACHE=<folder>       default: ~/.cache/cuzk/snarkjs-sha256
#   RUNS=<n>             default: 3
#   CUZK_ARGS=<args>     extra arguments for cuzk prove, e.g. "--threads 2"
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
modules="$root/tests/interop/node_modules"
bin="$modules/.bin"
runs=${RUNS:-3}
cache=${CACHE:-$HOME/.cache/cuzk/snarkjs-sha256}
cuzk=${CUZK:-}
if [[ -z $cuzk ]]; then
  for c in "$root/build-e2e/cli/cuzk" "$root/build/cli/cuzk"; do [[ -x $c ]] && { cuzk=$c; break; }; done
fi
[[ -n $cuzk && -x $cuzk ]] || { echo "compare: no cuzk binary; build it or set CUZK" >&2; exit 1; }
for tool in circom2 snarkjs; do
  [[ -x $bin/$tool ]] || { echo "compare: $bin/$tool missing; run: bash tools/setup.sh" >&2; exit 1; }
done
[[ -d $modules/circomlib/circuits ]] || { echo "compare: circomlib missing; run: bash tools/setup.sh" >&2; exit 1; }
snarkjs() { "$bin/snarkjs" "$@"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
entropy() { od -An -tx8 -N16 /dev/urandom | tr -d ' \n'; }
mkdir -p "$cache"
cd "$cache"

# ---------------------------------------------------------------- inputs (cached)
if [[ ! -s sha256_512.r1cs || ! -s sha256_512_js/sha256_512.wasm ]]; then
  echo "compile: circomlib Sha256(512) with circom2 -p bls12381"
  rm -rf circomlib && cp -r "$modules/circomlib/circuits" circomlib   # circom2 (WASI) sees only . and parents
  cat >sha256_512.circom <<'CIRCOM'
pragma circom 2.0.0;
include "sha256/sha256.circom";
// SHA-256 of a 64-byte (512-bit) message, most significant bit of each byte first.
component main = Sha256(512);
CIRCOM
  "$bin/circom2" sha256_512.circom --r1cs --wasm -p bls12381 -l circomlib -o . | grep -E "constraints|wires|outputs"
fi
if [[ ! -s sha256_512.wtns ]]; then
  # The message: the bytes 0, 1, ..., 63.
  node -e 'const bits = []; for (let i = 0; i < 64; ++i) for (let b = 7; b >= 0; --b) bits.push(String((i >> b) & 1));
           process.stdout.write(JSON.stringify({ in: bits }));' >input.json
  snarkjs wtns calculate sha256_512_js/sha256_512.wasm input.json sha256_512.wtns
fi
ptau="$(dirname "$cache")/bls12381_16.ptau"
if [[ ! -s $ptau ]]; then
  echo "ptau: power 16 (many minutes) -> $ptau"
  bash "$root/bench/snarkjs/make_ptau.sh" 16 "$ptau"
fi
if [[ ! -s sha256_512.zkey ]]; then
  echo "zkey: groth16 setup + one contribution"
  snarkjs groth16 setup sha256_512.r1cs "$ptau" sha256_512_0.zkey >/dev/null
  snarkjs zkey contribute sha256_512_0.zkey sha256_512.zkey.tmp --name=bench -e="$(entropy)" >/dev/null
  rm -f sha256_512_0.zkey
  mv sha256_512.zkey.tmp sha256_512.zkey
fi
[[ -s vk.json ]] || snarkjs zkey export verificationkey sha256_512.zkey vk.json >/dev/null

# The circuit's digest must be SHA-256 of the message: check the public outputs once.
expected=$(node -e 'const c = require("crypto"); const h = c.createHash("sha256").update(Buffer.from([...Array(64).keys()])).digest();
  const bits = []; for (const x of h) for (let b = 7; b >= 0; --b) bits.push(String((x >> b) & 1)); console.log(JSON.stringify(bits));')

# ---------------------------------------------------------------- timed runs
read -r cons wires < <(snarkjs r1cs info sha256_512.r1cs 2>/dev/null |
  awk '/# of Constraints/ {c=$NF} /# of Wires/ {w=$NF} END {print c, w}')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
verify() {  # verify <public.json> <proof.json>
  snarkjs groth16 verify vk.json "$1" "$2" | grep -q "OK!" || { echo "compare: $2 does not verify" >&2; exit 1; }
  [[ $(node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1]))))' "$1") == "$expected" ]] ||
    { echo "compare: $1 is not SHA-256 of the message" >&2; exit 1; }
}
declare -a t_snarkjs t_cuzk t_stage
for ((i = 1; i <= runs; ++i)); do
  t0=$(now)
  snarkjs groth16 prove sha256_512.zkey sha256_512.wtns proof_snarkjs.json public_snarkjs.json
  t1=$(now)
  verify public_snarkjs.json proof_snarkjs.json
  # shellcheck disable=SC2086
  out=$("$cuzk" prove -q --zkey sha256_512.zkey --wtns sha256_512.wtns --proof proof_cuzk.json \
        --public public_cuzk.json ${CUZK_ARGS:-})
  t2=$(now)
  verify public_cuzk.json proof_cuzk.json
  t_snarkjs[i]=$(calc "$t1 - $t0")
  t_cuzk[i]=$(calc "$t2 - $t1")
  t_stage[i]=$(sed -n 's/.*proved in \([0-9.]*\) s.*/\1/p' <<<"$out")
  printf 'run %d: snarkjs %.2f s, cuzk %.2f s (prove stage %s s)\n' "$i" "${t_snarkjs[i]}" "${t_cuzk[i]}" "${t_stage[i]}"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
ms=$(median "${t_snarkjs[@]}")
mc=$(median "${t_cuzk[@]}")
mp=$(median "${t_stage[@]}")
echo
echo "snarkjs vs cuzk: circomlib Sha256(512), BLS12-381, $cons constraints, $wires wires, $(nproc) CPUs"
echo "cuzk $(git -C "$root" rev-parse --short HEAD), snarkjs $(node -p "require('$modules/snarkjs/package.json').version"), node $(node --version)"
echo "load average before: $load_before; after: $load_after"
echo
printf '| %-5s | %-20s | %-20s | %-16s | %-8s |\n' run "snarkjs prove (s)" "cuzk prove (s)" "cuzk stage (s)" speedup
printf '|%s|%s|%s|%s|%s|\n' -------  ---------------------- ---------------------- ------------------ ----------
for ((i = 1; i <= runs; ++i)); do
  printf '| %-5s | %20.2f | %20.2f | %16.2f | %7.1fx |\n' "$i" "${t_snarkjs[i]}" "${t_cuzk[i]}" "${t_stage[i]}" \
    "$(calc "${t_snarkjs[i]} / ${t_cuzk[i]}")"
done
printf '| %-5s | %20.2f | %20.2f | %16.2f | %7.1fx |\n' median "$ms" "$mc" "$mp" "$(calc "$ms / $mc")"
