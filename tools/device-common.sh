# shellcheck shell=bash
# Sourced by the scripts that run on the GPU machine (device-*.sh): a package's libraries on the
# library path, the step log and the machine's description. The caller sets O (its output folder).

# The libraries of a tools/device-pack.sh package, which lie in lib/ beside its binaries folder.
device_libs() {
  if [ -d "$1/../lib" ]; then
    local lib
    lib=$(cd "$1/../lib" && pwd)
    export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
}

# A timestamped line on stdout and in $O/summary.txt.
log() { echo "== $(date -u +%T) $*" | tee -a "$O/summary.txt"; }

# The date, the commit, the caller's lines (its arguments), the GPUs and the host, into $O/env.txt
# and on stdout.
device_env() {
  {
    echo "date: $(date -u +%FT%TZ)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    local line
    for line in "$@"; do echo "$line"; done
    if command -v nvidia-smi >/dev/null; then
      nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
    fi
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores," \
      "$(free -g | awk '/Mem:/ {print $2}') GiB"
  } >"$O/env.txt"
  cat "$O/env.txt"
}
