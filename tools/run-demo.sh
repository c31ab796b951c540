#!/usr/bin/env bash
# The main job from a fresh machine: set-up, build the `cuzk` command, run it.
# The main job: a quick arithmetic self-check, then a sample circuit (membership in a Poseidon
# Merkle tree of depth 16) is set up, proved -- on the GPU when one is found, else on the CPU --
# and verified; a tampered public input must be rejected.
set -euo pipefail
# shellcheck source=tools/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cuzk="$build_dir/cli/cuzk"

main_job() {
  step "cuzk selfcheck"
  "$cuzk" selfcheck
  local out="$build_dir/demo"
  mkdir -p "$out"
  step "cuzk setup: Poseidon Merkle inclusion, depth 16"
  "$cuzk" setup --circuit merkle --depth 16 --params "$out/merkle16.params" --vk "$out/merkle16.vk"
  step "cuzk prove (GPU when present, else CPU)"
  "$cuzk" prove --backend auto --params "$out/merkle16.params" --circuit merkle --depth 16 --seed "$RANDOM" \
    --proof "$out/merkle16.proof" --public "$out/merkle16.public.json"
  step "cuzk verify"
  "$cuzk" verify --vk "$out/merkle16.vk" --proof "$out/merkle16.proof" --public "$out/merkle16.public.json"
  step "cuzk verify, tampered public input (must be rejected)"
  echo '["1"]' > "$out/tampered.public.json"
  local rc=0
  "$cuzk" verify --vk "$out/merkle16.vk" --proof "$out/merkle16.proof" --public "$out/tampered.public.json" || rc=$?
  if [ "$rc" -ne 3 ]; then
    echo "run-demo: the tampered input was not rejected (exit $rc)" >&2
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
