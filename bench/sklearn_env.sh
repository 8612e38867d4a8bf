# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the scripts that run scikit-learn beside Facet (compare_sklearn.sh, to_solution.sh).

# require_sklearn NAME [PACKAGE...]: Debian's scikit-learn, threadpoolctl and the threaded
# OpenBLAS (plus the given packages), installed if missing (as root), else the command that
# would do it, with NAME in the message.
require_sklearn() {
  local name="$1"
  shift
  local packages=(python3-sklearn python3-threadpoolctl libopenblas0-pthread "$@")
  local missing=()
  local pkg
  for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null | grep -qx installed ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "$name needs: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE may pin OpenBLAS to an older kernel on this machine (the
# environment's doc: unset both together, in the benchmark command alone). OpenBLAS 0.3.21
# (Debian 12) does not know every CPU it meets: on an Intel Xeon of family 6, model 207 it fell
# back to its SSE3 "Prescott" kernel, a third of the speed. So the kernel is chosen from the
# CPU's flags, the newest one they allow, the one it picks itself on the AMD Zen 5 host:
# Cooperlake (AVX-512 with BF16), SkylakeX (AVX-512), Haswell (AVX2); else its own detection.
# sets SKLEARN_ENV: the `env` arguments to run scikit-learn's Python with.
sklearn_env() {
  local flags
  flags="$(grep -m1 '^flags' /proc/cpuinfo || true)"
  SKLEARN_ENV=(-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE)
  case "$flags" in
    *avx512_bf16*) SKLEARN_ENV+=(OPENBLAS_CORETYPE=Cooperlake) ;;
    *avx512f*) SKLEARN_ENV+=(OPENBLAS_CORETYPE=SkylakeX) ;;
    *avx2*) SKLEARN_ENV+=(OPENBLAS_CORETYPE=Haswell) ;;
  esac
}
