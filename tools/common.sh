# shellcheck shell=bash
# Sourced by run-demo.sh and run-tests.sh: where to build and how.
#   CUZK_BUILD_DIR  build folder (default: build, in the repository root)
#   CUZK_JOBS       parallel compile and test jobs (default: nproc)
#   CUZK_CMAKE_ARGS extra arguments for the CMake configure step

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${CUZK_BUILD_DIR:-$root/build}
jobs=${CUZK_JOBS:-$(nproc)}

# Each step is stamped with the seconds since the start, so a slow phase shows in CI logs.
step() { printf '\n==> [%ss] %s\n' "$SECONDS" "$*"; }

# Seconds since the script started, for the closing summary.
elapsed() { echo $((SECONDS)); }

# Release with Ninja. A folder configured earlier with another generator is left alone rather
# than silently wiped: say what to do instead.
configure() {
  if [[ -f "$build_dir/CMakeCache.txt" ]] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$build_dir/CMakeCache.txt"; then
    echo "error: $build_dir was configured with another generator; remove it or set CUZK_BUILD_DIR" >&2
    exit 2
  fi
  step "configure ($build_dir: Release, Ninja)"
  # shellcheck disable=SC2086  # CUZK_CMAKE_ARGS is a list of words on purpose
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CUZK_CMAKE_ARGS:-}
}

# build targets...: "all" builds everything.
build() {
  local targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  step "build $* (-j$jobs)"
  cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
}
