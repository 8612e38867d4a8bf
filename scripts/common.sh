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

# Configures and builds one preset with both cores.
facet_build() {
  local preset="${1:-release}"
  cmake --preset "$preset" -S "$FACET_ROOT" \
    -DFACET_DATA_DIR="${FACET_DATA_DIR:-$FACET_ROOT/../shared/data}" >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)"
}
