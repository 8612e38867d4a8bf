# Shared by scripts/run and scripts/test (sourced).
set -euo pipefail

FACET_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=deps
source "$FACET_ROOT/scripts/deps"

# Installs the missing packages of scripts/deps. As root it runs apt-get; otherwise it prints
# the one command that would do it and stops.
facet_install_deps() {
  local missing=()
  local pkg
  for pkg in "${FACET_DEB_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null | grep -qx installed; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "Facet needs these Debian packages. Install them, then run this again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The tests that start threads (the solve worker, experiments and sweeps, the GUI): the tsan
# preset's FACET_TEST_FILTER (CMakePresets.json) compiles and registers only these, and its step
# builds only the targets they need. Qt is not built with ThreadSanitizer; see
# cmake/sanitizers/tsan.supp.
FACET_TSAN_TARGETS=(facet_tests_app facet_tests_widgets facet-cli)

# Configures one preset and builds it (or only the given targets) with both cores; ccache is
# used when it is installed.
facet_build() {
  local preset="${1:-release}"
  shift || true
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # ccache caches a compile that uses a precompiled header (FACET_PCH) only with this sloppiness:
  # the header is rebuilt with each tree, so its time stamps and __DATE__-style macros differ.
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:+$CCACHE_SLOPPINESS,}pch_defines,time_macros,include_file_mtime,include_file_ctime"
  # FACET_FLOAT_BENCH=OFF leaves out the single-precision solver (facet-bench-float and its
  # tests): .ci/run sets it for time (RELIABILITY.md, "CI step times"); unset, the preset decides.
  local float=()
  [ -n "${FACET_FLOAT_BENCH:-}" ] && float=(-DFACET_BUILD_FLOAT_BENCH="$FACET_FLOAT_BENCH")
  cmake --preset "$preset" -S "$FACET_ROOT" "${launcher[@]}" "${float[@]}" \
    -DFACET_DATA_DIR="${FACET_DATA_DIR:-$FACET_ROOT/../shared/data}" >/dev/null
  if [ $# -gt 0 ]; then
    cmake --build --preset "$preset" -j "$(nproc)" --target "$@"
  else
    cmake --build --preset "$preset" -j "$(nproc)"
  fi
}
