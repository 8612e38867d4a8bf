#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every method but NMF (bench/to_solution.sh has NMF against scikit-learn): time to a solution of
# each algorithm a method has, and what a default run gives (issue 35).
# Usage:
#   bench/to_solution_methods.sh [FACET_CLI] [DATASETS] [SEEDS] [METHODS]
#   defaults: build/release/app/facet-cli  yale:15,orl:40,coil20:20  3  cf,lccf,lcf,gnmf
#
# Per data set and method:
# - long runs: `facet-cli run --algorithm A --seed S --max-iter 3000 --tol 0 --stationarity-tol 0
#   --min-iter 0` for every algorithm the method has (`facet-cli help run`); f* = the lowest
#   objective any of them reached; per algorithm the median over the seeds of the seconds (from
#   time_history, initialization included) to come within 1e-2, 1e-3 and 1e-4 of f*, and the
#   median final objective;
# - the default run: `facet-cli run --seed S` with nothing else: its stop reason and rule,
#   iterations, objective relative to f* and solve time (medians; the stop reasons counted).
# DEFAULTS_ONLY=1 runs the default runs alone (no f*): stop reasons, iterations, the median
# objective and time, for comparing with an earlier report's f*.
# One process at a time, on the machine's cores.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLI="${1:-$ROOT/build/release/app/facet-cli}"
DATASETS="${2:-yale:15,orl:40,coil20:20}"
SEEDS="${3:-3}"
METHODS="${4:-cf,lccf,lcf,gnmf}"
DATA="${FACET_DATA_DIR:-$ROOT/../shared/data}"
source "$ROOT/bench/common.sh"
[ -x "$CLI" ] || { echo "facet-cli not found at $CLI (build it, or pass its path)" >&2; exit 1; }

declare -A ALGORITHMS=([gnmf]="mu mu-ex hals hals-ex" [semignmf]="mu mu-ex hals hals-ex")
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
bench_host_line "$ROOT"

IFS=, read -ra pairs <<<"$DATASETS"
IFS=, read -ra methods <<<"$METHODS"
for pair in "${pairs[@]}"; do
  name="${pair%%:*}"
  rank="${pair##*:}"
  file="$DATA/${BENCH_FILES[$name]:?unknown data set $name}"
  for method in "${methods[@]}"; do
    [ "${DEFAULTS_ONLY:-0}" = 1 ] ||
    for algorithm in ${ALGORITHMS[$method]:-mu mu-ex}; do
      for ((seed = 0; seed < SEEDS; seed++)); do
        "$CLI" run --dataset "$file" --method "$method" --rank "$rank" --algorithm "$algorithm" \
          --seed "$seed" --max-iter 3000 --min-iter 0 --tol 0 --stationarity-tol 0 \
          --cluster argmax --json "$OUT/$name-$method-$algorithm-$seed.json" >/dev/null
      done
    done
    for ((seed = 0; seed < SEEDS; seed++)); do
      "$CLI" run --dataset "$file" --method "$method" --rank "$rank" --seed "$seed" \
        --cluster argmax --json "$OUT/$name-$method-default-$seed.json" >/dev/null
    done
  done
done

python3 - "$OUT" "$DATASETS" "$SEEDS" "$METHODS" <<'PY'
import glob, json, os, statistics, sys
out, datasets, seeds, methods = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3]), sys.argv[4].split(",")

def load(path):
    with open(path) as f:
        return json.load(f)

def first_time(run, target):
    history, times = run["objective_history"], run["time_history"]
    offset = len(history) - len(times)
    for i, t in enumerate(times):
        if history[offset + i] <= target:
            return t
    return None

def median_text(values, count):
    got = [v for v in values if v is not None]
    if not got:
        return "-"
    text = f"{statistics.median(got):.3g}"
    return text if len(got) == count else f"{text} ({len(got)}/{count})"

for pair in datasets:
    name, rank = pair.split(":")
    for method in methods:
        runs = {}
        for path in sorted(glob.glob(f"{out}/{name}-{method}-*-*.json")):
            algorithm = os.path.basename(path)[len(f"{name}-{method}-"):].rsplit("-", 1)[0]
            runs.setdefault(algorithm, []).append(load(path))
        defaults = runs.pop("default")
        if not runs:  # DEFAULTS_ONLY
            reasons = {}
            for r in defaults:
                key = r["stop_reason"] + (f" ({r['stop_rule']})" if r.get("stop_rule") else "")
                reasons[key] = reasons.get(key, 0) + 1
            final = statistics.median(r["objective_history"][-1] for r in defaults)
            print(f"{name} {method} (k = {rank}) default run ({defaults[0]['params']['algorithm']}): "
                  + ", ".join(f"{v} x {k}" for k, v in reasons.items())
                  + f"; {statistics.median(r['iterations'] for r in defaults):g} iterations"
                  + f"; objective {final:.6g}"
                  + f"; {statistics.median(r['time_history'][-1] for r in defaults):.3g} s")
            continue
        fstar = min(r["objective_history"][-1] for rs in runs.values() for r in rs)
        print(f"\n{name} {method} (k = {rank}): f* {fstar:.6g}")
        print("| algorithm | f*+1e-2 (s) | f*+1e-3 (s) | f*+1e-4 (s) | final objective |")
        print("|---|---:|---:|---:|---:|")
        for algorithm, rs in runs.items():
            cells = [median_text([first_time(r, fstar * (1 + e)) for r in rs], len(rs))
                     for e in (1e-2, 1e-3, 1e-4)]
            final = statistics.median(r["objective_history"][-1] for r in rs)
            print(f"| {algorithm} | {' | '.join(cells)} | {final:.6g} |")
        reasons = {}
        for r in defaults:
            key = r["stop_reason"] + (f" ({r['stop_rule']})" if r.get("stop_rule") else "")
            reasons[key] = reasons.get(key, 0) + 1
        gap = statistics.median((r["objective_history"][-1] - fstar) / fstar for r in defaults)
        its = statistics.median(r["iterations"] for r in defaults)
        seconds = statistics.median(r["time_history"][-1] for r in defaults)
        print(f"default run ({defaults[0]['params']['algorithm']}): "
              + ", ".join(f"{v} x {k}" for k, v in reasons.items())
              + f"; {its:g} iterations; objective f* + {gap:.1e}; {seconds:.3g} s")
PY
