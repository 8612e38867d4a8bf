#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Two solves at once (issue 35 item 5, issue 36 item 2): the time per iteration of a facet-cli run
# alone and with a second one beside it, with the program's own OpenMP wait settings (the
# default), with libgomp's (FACET_OPENMP_REEXEC=1 keeps facet-cli from choosing them) and with
# OMP_WAIT_POLICY=passive (threads sleep at once at every barrier).
# Usage: bench/concurrent.sh [FACET_CLI] [ITERATIONS]
#   defaults: build/release/app/facet-cli  400
# Each run: NMF with the mu rules (a fixed cost per iteration), --tol 0 --min-iter 0, so every run
# lasts ITERATIONS; the time per iteration is read from time_history (initialization excluded).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLI="${1:-$ROOT/build/release/app/facet-cli}"
ITERATIONS="${2:-400}"
DATA="${FACET_DATA_DIR:-$ROOT/../shared/data}"
source "$ROOT/bench/common.sh"
[ -x "$CLI" ] || { echo "facet-cli not found at $CLI (build it, or pass its path)" >&2; exit 1; }
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
bench_host_line "$ROOT"

solve() { # name dataset rank json [env...]
  local name="$1" data="$2" rank="$3" json="$4"
  shift 4
  env "$@" "$CLI" run --dataset "$DATA/$data" --method nmf --rank "$rank" --algorithm mu \
    --seed 1 --max-iter "$ITERATIONS" --min-iter 0 --tol 0 --cluster argmax --json "$json" \
    >/dev/null
}

per_iteration() {
  python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["time_history"]
print(f"{1000 * (t[-1] - t[0]) / (len(t) - 1):.3f}")' "$1"
}

echo "| settings | run | alone (ms/it) | beside ORL (ms/it) | ratio |"
echo "|---|---|---:|---:|---:|"
for settings in default libgomp passive; do
  extra=()
  [ "$settings" = libgomp ] && extra=(FACET_OPENMP_REEXEC=1)
  [ "$settings" = passive ] && extra=(OMP_WAIT_POLICY=passive)
  for run in yale:Yale_32x32.mat:15 orl:ORL_32x32.mat:40; do
    IFS=: read -r name file rank <<<"$run"
    solve "$name" "$file" "$rank" "$OUT/alone.json" "${extra[@]}"
    alone=$(per_iteration "$OUT/alone.json")
    # The partner runs longer than the measured run, so it is busy the whole time (started as
    # the process itself, so that kill reaches it).
    env "${extra[@]}" "$CLI" run --dataset "$DATA/ORL_32x32.mat" --method nmf --rank 40 \
      --algorithm mu --seed 2 --max-iter $((ITERATIONS * 20)) --min-iter 0 --tol 0 \
      --cluster argmax --json "$OUT/partner.json" >/dev/null &
    partner=$!
    sleep 0.5
    solve "$name" "$file" "$rank" "$OUT/beside.json" "${extra[@]}"
    kill "$partner" 2>/dev/null || true
    wait "$partner" 2>/dev/null || true
    beside=$(per_iteration "$OUT/beside.json")
    ratio=$(python3 -c "print(f'{$beside / $alone:.2f}x')")
    echo "| $settings | $name NMF k=$rank | $alone | $beside | $ratio |"
  done
done
