#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# NMF, time to a solution: Facet's algorithms (hals-ex, hals, mu-ex, mu) against scikit-learn's coordinate descent
# (`cd`) and multiplicative updates (`mu`) on the same prepared data, in the same run (issue 35).
# Usage:
#   bench/to_solution.sh [FACET_CLI] [DATASETS] [SEEDS]
#   defaults: build/release/app/facet-cli  yale:15,orl:40,coil20:20,mnist:10  5
# DATASETS: name:rank pairs (the names of `facet-cli bench`: orl, yale, coil20, mnist).
#
# What is measured, per data set:
# - scikit-learn: for each seed, NMF(solver, init='random', random_state=seed, tol=0) fitted with
#   max_iter on a ladder 25, 50, ..., 3200, each fit in full and timed (validation, start and final
#   error included); the objective is reconstruction_err_^2 = ||X - W H||_F^2, Facet's O.
# - Facet: `facet-cli run --method nmf --algorithm A --seed S --tol 0 --stationarity-tol 0
#   --min-iter 0` (1,500 iterations for hals and hals-ex, 5,000 for mu and mu-ex) with
#   objective_history and time_history (seconds from the start of the solve, initialization
#   included): the time an objective is first reached is read off the history.
# - target = the median over the seeds of scikit-learn cd's objective after 3200 iterations, plus
#   0.1 % (issue 35's target); f* = the lowest objective any run reached. For each side: the median
#   over the seeds of the time to reach the target and to come within 1e-2, 1e-3, 1e-4 of f*
#   ("-" where a seed never got there: then the median is over the seeds that did, with the count).
# Each side runs in its own process, one after the other, on two cores: a numpy process's BLAS
# threads keep spinning after a call and would slow whatever ran beside them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLI="${1:-$ROOT/build/release/app/facet-cli}"
DATASETS="${2:-yale:15,orl:40,coil20:20,mnist:10}"
SEEDS="${3:-5}"
PY=/usr/bin/python3
DATA="${FACET_DATA_DIR:-$ROOT/../shared/data}"
source "$ROOT/bench/common.sh"

source "$ROOT/bench/sklearn_env.sh"
require_sklearn to_solution.sh python3-scipy
[ -x "$CLI" ] || { echo "facet-cli not found at $CLI (build it, or pass its path)" >&2; exit 1; }

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
bench_host_line "$ROOT"

IFS=, read -ra pairs <<<"$DATASETS"
for pair in "${pairs[@]}"; do
  name="${pair%%:*}"
  rank="${pair##*:}"
  file="$DATA/${BENCH_FILES[$name]:?unknown data set $name}"
  "$CLI" export-dataset "$file" --out "$OUT/$name.mat" >/dev/null
  for algorithm in hals-ex hals mu-ex mu; do
    iterations=1500
    [ "${algorithm#mu}" != "$algorithm" ] && iterations=5000
    for ((seed = 0; seed < SEEDS; seed++)); do
      "$CLI" run --dataset "$file" --method nmf --rank "$rank" --algorithm "$algorithm" \
        --seed "$seed" --max-iter "$iterations" --min-iter 0 --tol 0 --stationarity-tol 0 \
        --cluster argmax \
        --json "$OUT/$name-$algorithm-$seed.json" >/dev/null
    done
  done
done

sklearn_env
env "${SKLEARN_ENV[@]}" "$PY" - "$OUT" "$DATASETS" "$SEEDS" <<'EOF'
import json, statistics, sys, time, warnings
import numpy as np
import scipy.io
import sklearn
from sklearn.decomposition import NMF
from threadpoolctl import threadpool_info, threadpool_limits

out, datasets, seeds = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
warnings.filterwarnings("ignore")
blas = [(i.get("internal_api"), i.get("architecture"), i.get("num_threads")) for i in threadpool_info()]
print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}, BLAS {blas}")
ladder = [25, 50, 100, 200, 400, 800, 1600, 3200]

def sklearn_curve(X, rank, solver, seed):
    """[(seconds, objective)] of fits with max_iter on the ladder."""
    curve = []
    for max_iter in ladder:
        model = NMF(n_components=rank, solver=solver, init="random", tol=0, max_iter=max_iter,
                    random_state=seed)
        start = time.perf_counter()
        model.fit_transform(X)
        seconds = time.perf_counter() - start
        curve.append((seconds, model.reconstruction_err_ ** 2))
    return curve

def first_time(curve, target):
    for seconds, objective in curve:
        if objective <= target:
            return seconds
    return None

def median_time(curves, target):
    times = [t for t in (first_time(c, target) for c in curves) if t is not None]
    if not times:
        return "-", None
    value = statistics.median(times)
    text = f"{value:.3g}" if len(times) == len(curves) else f"{value:.3g} ({len(times)}/{len(curves)})"
    return text, value

rows = []
for pair in datasets:
    name, rank = pair.split(":")
    rank = int(rank)
    fea = scipy.io.loadmat(f"{out}/{name}.mat")["fea"].astype(np.float64)  # n x m
    curves = {}
    for algorithm in ("hals-ex", "hals", "mu-ex", "mu"):
        runs = []
        for seed in range(seeds):
            with open(f"{out}/{name}-{algorithm}-{seed}.json") as f:
                run = json.load(f)
            history, times = run["objective_history"], run["time_history"]
            assert run["params"]["algorithm"] == algorithm
            runs.append(list(zip(times, history[len(history) - len(times):])))
        curves[f"Facet {algorithm}"] = runs
    with threadpool_limits(limits=2):
        for solver in ("cd", "mu"):
            curves[f"sklearn {solver}"] = [sklearn_curve(fea, rank, solver, s) for s in range(seeds)]
    target = statistics.median(c[-1][1] for c in curves["sklearn cd"]) * (1 + 1e-3)
    fstar = min(o for runs in curves.values() for c in runs for _, o in c)
    cd_time = median_time(curves["sklearn cd"], target)[1]
    print(f"\n{name} (n = {fea.shape[0]}, m = {fea.shape[1]}, k = {rank}): target {target:.6g} "
          f"(sklearn cd after 3200, median, +0.1 %), f* {fstar:.6g}")
    print("| algorithm | to target (s) | cd / this | f*+1e-2 | f*+1e-3 | f*+1e-4 | final objective |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, runs in curves.items():
        text, value = median_time(runs, target)
        ratio = f"{cd_time / value:.1f}x" if value and cd_time else "-"
        cells = [median_time(runs, fstar * (1 + e))[0] for e in (1e-2, 1e-3, 1e-4)]
        final = statistics.median(c[-1][1] for c in runs)
        print(f"| {label} | {text} | {ratio} | {' | '.join(cells)} | {final:.6g} |")
EOF
