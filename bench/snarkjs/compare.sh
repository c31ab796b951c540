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
# writing) and their CPU time; the table also shows the prove stage that cuzk reports itself. cuzk
# runs twice per round: as is (every zkey point subgroup-checked) and with --trusted-params (no
# checks, as snarkjs).
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
  # No phase-2 contribution: proving costs the same with or without one, and it saves minutes.
  echo "zkey: groth16 setup"
  snarkjs groth16 setup sha256_512.r1cs "$ptau" sha256_512.zkey.tmp >/dev/null
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
# timed <name> <run> <command...>: wall and CPU (user + sys) seconds into wall[name,run], cpu[name,run].
declare -A wall cpu stage
timed() {
  local name=$1 run=$2 t TIMEFORMAT='%R %U %S'
  shift 2
  if ! t=$({ time "$@" >cmd.out 2>cmd.err; } 2>&1); then
    echo "compare: $name failed: $*" >&2
    cat cmd.out cmd.err >&2
    exit 1
  fi
  read -r r u s <<<"$t"
  wall[$name,$run]=$r
  cpu[$name,$run]=$(calc "$u + $s")
}
# Alternating, so that a change of the machine's load hits every prover alike.
names=(snarkjs cuzk cuzk-trusted)
for ((i = 1; i <= runs; ++i)); do
  timed snarkjs $i snarkjs groth16 prove sha256_512.zkey sha256_512.wtns proof.json public.json
  verify public.json proof.json
  # shellcheck disable=SC2086
  timed cuzk $i "$cuzk" prove -q --zkey sha256_512.zkey --wtns sha256_512.wtns --proof proof.json \
    --public public.json ${CUZK_ARGS:-}
  verify public.json proof.json
  stage[cuzk,$i]=$(sed -n 's/.*proved \(on [a-z0-9:]* \)\{0,1\}in \([0-9.]*\) s.*/\2/p' cmd.out)
  # The same with the zkey's points trusted (no subgroup checks), as snarkjs trusts them.
  # shellcheck disable=SC2086
  timed cuzk-trusted $i "$cuzk" prove -q --trusted-params --zkey sha256_512.zkey --wtns sha256_512.wtns \
    --proof proof.json --public public.json ${CUZK_ARGS:-}
  verify public.json proof.json
  stage[cuzk-trusted,$i]=$(sed -n 's/.*proved \(on [a-z0-9:]* \)\{0,1\}in \([0-9.]*\) s.*/\2/p' cmd.out)
  printf 'run %d:' "$i"
  for n in "${names[@]}"; do printf ' %s %.2f s (cpu %.2f s);' "$n" "${wall[$n,$i]}" "${cpu[$n,$i]}"; done
  echo
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
values() {  # values <array name> <prover>: the values of runs 1..runs
  local -n a=$1
  local k
  for ((k = 1; k <= runs; ++k)); do echo "${a[$2,$k]}"; done
}
echo
echo "snarkjs vs cuzk: circomlib Sha256(512), BLS12-381, $cons constraints, $wires wires, domain 2^16, $(nproc) CPUs"
echo "cuzk $(git -C "$root" rev-parse --short HEAD) ($cuzk), snarkjs $(node -p "require('$modules/snarkjs/package.json').version"), node $(node --version)"
echo "load average before: $load_before; after: $load_after"
echo "wall = whole command (process start, key loading, proving, writing); cpu = user + sys of the command;"
echo "cuzk stage = the prove stage cuzk reports (after loading the key and the witness); median of $runs runs"
echo
printf '| %-28s | %9s | %9s | %9s | %12s |\n' prover "wall (s)" "cpu (s)" "stage (s)" "vs snarkjs"
printf '|%s|%s|%s|%s|%s|\n' ------------------------------ ----------- ----------- ----------- --------------
ms=$(median $(values wall snarkjs))
for n in "${names[@]}"; do
  mw=$(median $(values wall "$n"))
  mcpu=$(median $(values cpu "$n"))
  if [[ $n == snarkjs ]]; then st="-"; else st=$(printf '%.2f' "$(median $(values stage "$n"))"); fi
  label=$n
  [[ $n == snarkjs ]] && label="snarkjs groth16 prove"
  [[ $n == cuzk ]] && label="cuzk prove --zkey"
  [[ $n == cuzk-trusted ]] && label="cuzk prove --zkey --trusted"
  printf '| %-28s | %9.2f | %9.2f | %9s | %11.1fx |\n' "$label" "$mw" "$mcpu" "$st" "$(calc "$ms / $mw")"
done
