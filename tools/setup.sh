#!/usr/bin/env bash
# Installs everything cuzk builds and tests with, on Debian 12 as root (or with sudo):
#   1. Debian packages (compiler, CMake/Ninja, libraries, test frameworks, Node.js), via apt-get;
#   2. the npm packages of the interop tests, via `npm ci` from tests/interop/package-lock.json.
# Idempotent and quick when nothing is missing: apt is not touched when every package is already
# installed, and `npm ci` is skipped while node_modules matches the committed lockfile.
# No GPU is needed. The CUDA toolkit is not a Debian package: when nvcc exists (on PATH or in
# /usr/local/cuda/bin) CMake builds the CUDA backend too, otherwise the build is CPU-only.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
interop="$root/tests/interop"

say() { printf '[setup] %s\n' "$*"; }

# ------------------------------------------------------------------ Debian packages
packages=(
  # build
  cmake ninja-build g++ pkg-config git
  # tests and benchmarks (GMP: reference arithmetic in tests only)
  libgtest-dev libgmock-dev libbenchmark-dev libgmp-dev
  # the Filecoin end-to-end test scripts (tests/filecoin_e2e) read JSON and edit bytes with python3
  python3
  # libraries of the cli, engine and daemon
  libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libsqlite3-dev libtbb-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libcpp-httplib-dev libtomlplusplus-dev
  # OpenSSL libcrypto: SHA-256, BLAKE2b and ChaCha20 checks of Filecoin's vanilla side
  libssl-dev
  # tests/curio_api: a Python client of Curio's cuzk.v1 API (stubs by protoc + grpc_python_plugin)
  python3-grpcio python3-protobuf
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
# Node.js: only from Debian when there is none at all. A Node.js from another source (NodeSource
# bundles its own npm) conflicts with Debian's npm package, so never ask apt for npm beside it.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if ((${#missing[@]})); then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  say "Debian packages: all ${#packages[@]} present"
fi

# ------------------------------------------------------------------ Node.js packages
# @noble/curves 2.x declares node >= 20.19; Debian 12's own nodejs is 18.20, with which the interop
# checks passed when tried, so warn rather than stop.
node_version=$(node --version)
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
  say "WARNING: node $node_version is older than 20.19, the minimum @noble/curves 2.4.0 declares;" \
    "the interop tests passed on Debian's 18.20 when tried, but if they fail, install Node.js >= 20.19."
fi

# npm ci wipes and reinstalls node_modules; a stamp of the lockfile it installed lets repeated
# runs skip it.
stamp="$interop/node_modules/.cuzk-lockfile.sha256"
want=$(sha256sum "$interop/package-lock.json" | cut -d' ' -f1)
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  say "npm packages: up to date with tests/interop/package-lock.json"
else
  say "npm ci in tests/interop (node $node_version, npm $(npm --version))"
  (cd "$interop" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" >"$stamp"
fi

# ------------------------------------------------------------------ CUDA (optional)
nvcc=$(command -v nvcc || true)
[[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
if [[ -n "$nvcc" ]]; then
  nvcc_version=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
  say "nvcc $nvcc_version found: the CUDA backend will be built (GPU tests skip themselves without a GPU)"
else
  say "no nvcc: CPU-only build"
fi
say "toolchain: g++ $(g++ -dumpfullversion), cmake $(cmake --version | sed -n '1s/.* //p')," \
  "ninja $(ninja --version), node $node_version"
