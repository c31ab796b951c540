#!/usr/bin/env bash
# The whole test suite from a fresh machine: set-up, Release build of everything, then every
# ctest test (labels unit, interop, gpu, slow; gpu tests skip themselves where there is no GPU).
# Exit status: 0 when every test passed. CI runs exactly this (.ci/run).
set -euo pipefail
# shellcheck source=tools/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

step "set-up (tools/setup.sh)"
bash "$root/tools/setup.sh"
configure
build all
step "ctest (-j$jobs)"
# --no-tests=error: a suite that collected nothing is a broken build, not a pass.
status=0
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j "$jobs" "$@" || status=$?
printf '\nrun-tests: %s after %ss\n' "$([[ $status -eq 0 ]] && echo passed || echo FAILED)" "$(elapsed)"
exit $status
