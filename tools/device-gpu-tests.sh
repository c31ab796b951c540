#!/usr/bin/env bash
# Every GPU test binary of a tools/device-pack.sh package, one after another, each under a time
# limit, on the GPU machine: pass/fail per binary in $OUT/gpu-tests.txt, each log beside it.
#
#   tools/device-gpu-tests.sh PKG_DIR [BINARY_NAME_PATTERN]
#     PKG_DIR: where the package was unpacked (its b/ and lib/); tests read tests/data by this
#              checkout's absolute path, which the script links to /work/main when absent.
#   Environment: LIMIT (seconds a binary, default 300), SKIP (a name pattern to leave out, e.g. one
#                run apart in the background), OUT (else ./device-gpu-tests-out).
set -u
P=${1:?package dir}
pattern=${2:-cuzk_test_gpu_}
O=${OUT:-device-gpu-tests-out}
mkdir -p "$O"
export LD_LIBRARY_PATH="$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -e /work/main ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; }
for t in "$P"/b/tests/gpu/*; do
  name=$(basename "$t")
  case $name in *"$pattern"*) ;; *) continue ;; esac
  if [ -n "${SKIP:-}" ]; then case $name in *"$SKIP"*) continue ;; esac; fi
  start=$(date +%s)
  timeout "${LIMIT:-300}" "$t" --gtest_brief=1 >"$O/$name.log" 2>&1
  rc=$?
  echo "$name rc=$rc $(($(date +%s) - start)) s $(grep -E '^\[  (PASSED|FAILED) ' "$O/$name.log" | tr '\n' ' ')" | tee -a "$O/gpu-tests.txt"
done
