#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every measurement of bench/RESULTS.md in one run (issue 7), into one folder:
#   bench/run_all.sh [OUT_DIR] [FACET_CLI]
#   defaults: bench/out-<UTC date and time>  build/release/app/facet-cli
# Then `bench/make_tables.py OUT_DIR` prints RESULTS.md's tables from what this wrote.
# OUT_DIR/run.json records the commit (and whether the tree had uncommitted changes), and each
# command's line, start and end time and load averages; each bench JSON records its own options
# and machine. The commands run one after another: nothing else should run beside them, as every
# row is judged against ceilings measured in the same process right before it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bench/out-$(date -u +%Y%m%d-%H%M%S)}"
CLI="${2:-$ROOT/build/release/app/facet-cli}"
export FACET_DATA_DIR="${FACET_DATA_DIR:-$ROOT/../shared/data}"
[ -x "$CLI" ] || { echo "facet-cli not found at $CLI (build the release preset, or pass its path)" >&2; exit 1; }
mkdir -p "$OUT/logs"

commit="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
dirty=false
[ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && dirty=true
records=()

# run NAME COMMAND...: stdout and stderr to logs/NAME.txt, the times and loads to run.json.
run() {
  local name="$1"
  shift
  local start load_start end
  start="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "[$start] $name: $*"
  local t0=$SECONDS
  "$@" >"$OUT/logs/$name.txt" 2>&1 || { echo "$name failed: see $OUT/logs/$name.txt" >&2; exit 1; }
  end="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  # The command's words joined by spaces, as a JSON string (backslashes and quotes escaped).
  local command="$*"
  command="${command//\\/\\\\}"
  command="${command//\"/\\\"}"
  records+=("$(printf '{"name": "%s", "command": "%s", "start": "%s", "end": "%s", "seconds": %d, "load_start": "%s", "load_end": "%s"}' \
    "$name" "$command" "$start" "$end" $((SECONDS - t0)) "$load_start" "$(cut -d' ' -f1-3 /proc/loadavg)")")
}

VARIANTS=nmf+ncw,cf+ncw,lccf+ncw,cf+gaussian,cf+polynomial,lccf+gaussian,lcf+gaussian,ccf+gaussian
run double "$CLI" bench --json "$OUT/double.json"
run float "$CLI" bench --precision float --json "$OUT/float.json"
run variants "$CLI" bench --datasets coil20,mnist --methods "$VARIANTS" --json "$OUT/variants.json"
run variants_float "$CLI" bench --datasets coil20,mnist --methods "$VARIANTS" --precision float \
  --json "$OUT/variants_float.json"
run variants_large "$CLI" bench --datasets gen:20000x784,gen:70000x1024 \
  --methods cf+ncw,lccf+ncw,cf+gaussian --iterations 20 --repeats 2 --json "$OUT/variants_large.json"
run ogl "$CLI" bench --datasets orl,yale,coil20,mnist,gen:20000x784 --methods cf-ogl \
  --iterations 10 --repeats 2 --json "$OUT/ogl.json"
for init in random kmeans; do
  extra=()
  [ "$init" = kmeans ] && extra=(--init kmeans)
  for precision in double float; do
    run "agree_${init}_$precision" "$CLI" bench --datasets orl,coil20 --iterations 300 --repeats 1 \
      "${extra[@]}" --precision "$precision" --json "$OUT/agree_${init}_$precision.json"
  done
done
run sklearn env FACET_COMPARE_JSON="$OUT/compare.json" "$ROOT/bench/compare_sklearn.sh" "$CLI"
run recall "$CLI" bench --datasets orl,coil20,mnist,gen:20000x784,gen:70000x1024 --no-timing \
  --knn-recall --json "$OUT/recall.json"
run lccf70k "$CLI" bench --datasets gen:70000x1024 --methods lccf --ranks 10 --iterations 100 \
  --repeats 1 --warmup 0 --json "$OUT/lccf70k.json"

{
  printf '{"commit": "%s", "uncommitted_changes": %s, "cli": "%s", "commands": [\n' "$commit" "$dirty" "$CLI"
  for i in "${!records[@]}"; do
    [ "$i" -gt 0 ] && printf ',\n'
    printf '  %s' "${records[$i]}"
  done
  printf '\n]}\n'
} >"$OUT/run.json"
echo "wrote $OUT (bench/make_tables.py $OUT prints the tables)"
