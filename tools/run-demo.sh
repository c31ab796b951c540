#!/usr/bin/env bash
# The main job from a fresh machine: set-up, build the `cuzk` command, run it.
# Today that is the arithmetic self-check; when the prover lands, add its steps to main_job below
# (e.g. prove a sample circuit, then verify the proof with cuzk and with snarkjs).
set -euo pipefail
# shellcheck source=tools/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cuzk="$build_dir/cli/cuzk"

main_job() {
  step "cuzk selfcheck"
  "$cuzk" selfcheck
}

step "set-up (tools/setup.sh)"
bash "$root/tools/setup.sh"
configure
build cuzk
"$cuzk" --version
main_job
printf '\nrun-demo: done after %ss\n' "$(elapsed)"
