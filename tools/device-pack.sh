#!/usr/bin/env bash
# Packs GPU binaries built here, with the shared libraries they need beyond a base system, for the
# GPU machine (whose Ubuntu has newer glibc/libstdc++ but not gRPC, abseil, protobuf and friends):
#
#   tools/device-pack.sh [BUILD_DIR] [OUT.tar.xz] [BINARY ...]
#     defaults: build-cuda, device-pkg.tar.xz, cli/cuzk and every GPU test and bench binary
#
# On the GPU machine: mkdir -p /tmp/p && tar -C /tmp/p -xJf device-pkg.tar.xz, then run
# /tmp/p/b/<path> with LD_LIBRARY_PATH=/tmp/p/lib. The prover tests read tests/data by this
# checkout's absolute path: link it there (ln -s "$PWD" <that path>) when the paths differ.
set -euo pipefail
B=${1:-build-cuda}
OUT=${2:-device-pkg.tar.xz}
shift $(($# < 2 ? $# : 2))
cd "$B"
bins=("$@")
if ((${#bins[@]} == 0)); then
  bins=(cli/cuzk)
  while IFS= read -r f; do bins+=("$f"); done < <(find tests/gpu bench/gpu -maxdepth 1 -type f -executable -name 'cuzk_*' | sort)
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/b" "$stage/lib"
for f in "${bins[@]}"; do
  mkdir -p "$stage/b/$(dirname "$f")"
  cp "$f" "$stage/b/$f"
  strip "$stage/b/$f" 2>/dev/null || true
done
# Everything ldd resolves except the C/C++ runtime and the driver, which the GPU machine has (awk,
# not grep -v, so a binary that needs nothing more does not fail the pipeline).
find "$stage/b" -type f -exec ldd {} \; | awk '/=>/ {print $3}' | sort -u |
  awk '!/\/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^\/]*|libpthread|libdl|librt|libcuda)\.so/' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
cd - > /dev/null
tar -C "$stage" -cJf "$OUT" .
echo "device-pack: $OUT, ${#bins[@]} binaries, $(ls "$stage/lib" | wc -l) libraries, $(du -h "$OUT" | cut -f1)"
