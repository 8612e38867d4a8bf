#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Prints bench/RESULTS.md's tables from the folder bench/run_all.sh wrote.

    bench/make_tables.py OUT_DIR [--under N] > tables.md

--under N numbers the sections N.1, N.2, ... one heading level down, for a run that goes under
a section of its own.

It only formats what the JSON files hold (no number is computed here but ratios of two measured
values and the ranges of measured ceilings), so the tables can be checked against the files.
"""
import json
import os
import sys

NMF_FAMILY = {"nmf", "gnmf", "cnmf", "semignmf"}


def load(out, name):
    path = os.path.join(out, name + ".json")
    with open(path) as f:
        return json.load(f)


def hhmm(iso):
    return iso[11:16] if iso else "?"


def base_method(method):
    return method.split("+")[0]


def x_passes(row):
    """How often the bytes model counts X (or K) per iteration (solver/bench/flops.cpp)."""
    method = base_method(row["method"])
    fused = row.get("fused_passes", False)
    if method == "kmeans":
        return "1"
    if method == "pca":
        return "2"
    if method == "cf-ogl":
        if row.get("explicit_kernel"):
            return "K x10" if fused else "K x20"
        return "20" if fused else "40"
    if row.get("explicit_kernel"):
        return "K x1" if fused else "K x2"
    if method in NMF_FAMILY:
        return "1" if fused else "2"
    return "2" if fused else "4"


def points(value):
    return "-" if value is None else f"{100 * value:.1f}"


def full_table(rows):
    lines = [
        "| dataset | n x m | method | k | ms/iter | GFLOP/s | limit ms | limit / measured "
        "| GEMM, triad | X passes | peak MiB | AC | NMI |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        head = f"| {r['dataset']} | {r['n']} x {r['m']} | {r['method']} | {r['rank']} |"
        if "error" in r:
            lines.append(f"{head} refused: {r['error']} | | | | | | | | |")
            continue
        lines.append(
            f"{head} {r['ms_per_iteration']:.3f} | {r['gflops']:.0f} | {r['roofline_limit_ms']:.3f} "
            f"| {r['fraction_of_limit']:.2f} | {r['ceiling_gemm_gflops']:.0f}, "
            f"{r['ceiling_triad_gb_per_s']:.0f} | {x_passes(r)} "
            f"| {r['peak_resident_bytes'] / 2**20:.0f} | {points(r.get('ac'))} | {points(r.get('nmi'))} |")
    return "\n".join(lines)


def key(row):
    return (row["dataset"], row["method"], row["rank"])


def float_table(double_rows, float_rows):
    by_key = {key(r): r for r in float_rows}
    lines = [
        "| dataset | method | double ms | float ms | speed-up | float GFLOP/s "
        "| float limit / measured | float GEMM, triad | float peak MiB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for d in double_rows:
        f = by_key.get(key(d))
        head = f"| {d['dataset']} | {d['method']} |"
        if "error" in d:
            continue
        if f is None or "error" in f:
            lines.append(f"{head} {d['ms_per_iteration']:.3f} | - | - | - | - | - | - |")
            continue
        lines.append(
            f"{head} {d['ms_per_iteration']:.3f} | {f['ms_per_iteration']:.3f} "
            f"| {d['ms_per_iteration'] / f['ms_per_iteration']:.2f}x | {f['gflops']:.0f} "
            f"| {f['fraction_of_limit']:.2f} | {f['ceiling_gemm_gflops']:.0f}, "
            f"{f['ceiling_triad_gb_per_s']:.0f} | {f['peak_resident_bytes'] / 2**20:.0f} |")
    return "\n".join(lines)


def agreement_table(double_rows, float_rows):
    by_key = {key(r): r for r in float_rows}
    lines = [
        "| dataset | method | AC double | AC float | NMI double | NMI float | objective rel. diff |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    same = total = 0
    for d in double_rows:
        f = by_key.get(key(d))
        if "error" in d or f is None or "error" in f or d.get("ac") is None:
            continue
        diff = abs(d["objective"] - f["objective"]) / abs(d["objective"])
        total += 1
        if round(100 * d["ac"], 2) == round(100 * f["ac"], 2) and round(100 * d["nmi"], 2) == round(
                100 * f["nmi"], 2):
            same += 1
        lines.append(
            f"| {d['dataset']} | {d['method']} | {100 * d['ac']:.2f} | {100 * f['ac']:.2f} "
            f"| {100 * d['nmi']:.2f} | {100 * f['nmi']:.2f} | {diff:.1e} |")
    lines.append("")
    lines.append(f"{same} of {total} rows give the same AC and NMI to two decimals in both precisions.")
    return "\n".join(lines)


def ceiling_range(rows, field):
    values = [r[field] for r in rows if field in r]
    return f"{min(values):.0f}-{max(values):.0f}" if values else "-"


def main():
    args = sys.argv[1:]
    under = None
    if len(args) == 3 and args[1] == "--under":
        under = args[2]
        args = args[:1]
    if len(args) != 1:
        sys.exit(__doc__)
    out = args[0]

    def heading(number, text):
        text = text.rstrip("\n")
        if under is None:
            print(f"\n## {number}. {text}\n")
        else:
            print(f"\n### {under}.{number} {text}\n")
    run = load(out, "run")
    when = {c["name"]: c for c in run["commands"]}
    double, single = load(out, "double"), load(out, "float")
    variants, variants_float = load(out, "variants"), load(out, "variants_float")
    variants_large, ogl = load(out, "variants_large"), load(out, "ogl")
    compare, recall, lccf70k = load(out, "compare"), load(out, "recall"), load(out, "lccf70k")

    def stamp(name, report=None):
        c = when[name]
        text = f"{hhmm(c['start'])}-{hhmm(c['end'])} UTC, load average {c['load_start'].split()[0]} at the start"
        if report is not None and report.get("load_average_end"):
            text += f", {report['load_average_end'].split()[0]} at the end"
        return text

    first, last = run["commands"][0], run["commands"][-1]
    print(f"<!-- bench/make_tables.py {os.path.basename(os.path.normpath(out))}: commit "
          f"{run['commit'][:7]}{' (with uncommitted changes)' if run['uncommitted_changes'] else ''}, "
          f"{first['start']} to {last['end']} -->")
    print(f"\nRun: commit {run['commit'][:7]}, {first['start'][:10]} {hhmm(first['start'])}-"
          f"{hhmm(last['end'])} UTC; CPU {double['machine']['cpu']}, "
          f"{double['machine']['simd'].split(',')[0]}, Eigen {double['machine']['eigen_threads']} threads, "
          f"OpenMP {double['machine']['omp_max_threads']}.")

    heading("1", "Ceilings, measured in the same run\n")
    print("| precision | GEMM 1536³, 2 threads (GFLOP/s), run start | same GEMM, 1 thread "
          "| triad (GB/s), run start | GEMM beside each case, range | triad beside each case, range |")
    print("|---|---:|---:|---:|---:|---:|")
    double_cases = double["rows"] + variants["rows"] + variants_large["rows"] + ogl["rows"]
    float_cases = single["rows"] + variants_float["rows"]
    for name, report, cases in (("double", double, double_cases), ("float", single, float_cases)):
        p = report["peaks"]
        print(f"| {name} | {p['gemm_gflops']:.0f} | {p['gemm_gflops_one_thread']:.0f} "
              f"| {p['triad_gb_per_s']:.0f} | {ceiling_range(cases, 'ceiling_gemm_gflops')} "
              f"| {ceiling_range(cases, 'ceiling_triad_gb_per_s')} |")

    o = double["options"]
    heading(f"2", f"Double precision ({stamp('double', double)})\n")
    print(f"`facet-cli bench --json double.json`: {o['iterations']} timed iterations x "
          f"{o['repeats']} repeat(s) per row.\n")
    print(full_table(double["rows"]))

    heading(f"3", f"Single precision ({stamp('float', single)})\n")
    print("`facet-cli bench --precision float`: the same cases on the single-precision solver "
          "(facet-bench-float, started by facet-cli). Speed-up = double ms / float ms.\n")
    print(float_table(double["rows"], single["rows"]))

    heading(f"4", f"Float against double: AC and NMI ({hhmm(when['agree_random_double']['start'])}-"
          f"{hhmm(when['agree_kmeans_float']['end'])} UTC)\n")
    print("**From the methods' default start** (random; NMF start for CCF):\n")
    print(agreement_table(load(out, "agree_random_double")["rows"], load(out, "agree_random_float")["rows"]))
    print("\n**From the k-means start** (`--init kmeans`, METHODS.md section 0):\n")
    print(agreement_table(load(out, "agree_kmeans_double")["rows"], load(out, "agree_kmeans_float")["rows"]))

    heading(f"5", f"NMF against scikit-learn ({stamp('sklearn')})\n")
    print(f"scikit-learn {compare['sklearn']}, BLAS {compare['blas']}.\n")
    print("| dataset | k | Facet ms/iter | scikit-learn ms/iter | scikit-learn / Facet |")
    print("|---|---:|---:|---:|---:|")
    for r in compare["rows"]:
        print(f"| {r['dataset']} | {r['rank']} | {r['facet_ms']:.3f} | {r['sklearn_ms']:.3f} "
              f"| {r['ratio']:.2f}x |")

    heading(f"6", f"kNN graph: exact against HNSW ({stamp('recall')})\n")
    print("| dataset | n | exact (s) | HNSW (s) | recall | exact peak MiB | HNSW peak MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in recall["knn_recall"]:
        # The peaks were recorded from 24 November on; older files print "-".
        peaks = [f"{r[k] / 2**20:.0f}" if r.get(k) else "-"
                 for k in ("exact_peak_bytes", "approximate_peak_bytes")]
        print(f"| {r['dataset']} | {r['n']} | {r['exact_seconds']:.2f} | {r['approximate_seconds']:.2f} "
              f"| {r['recall']:.4f} | {peaks[0]} | {peaks[1]} |")
    row = lccf70k["rows"][0]
    c = when["lccf70k"]
    print(f"\n**LCCF at n = 70,000** ({row['dataset']}, rank {row['rank']}, {row['iterations']} "
          f"iterations, double, {hhmm(c['start'])}): {c['seconds']} s wall for the whole `facet-cli "
          f"bench` command, of it {row['setup_seconds']:.1f} s of setup (generating the set, the "
          f"{row.get('knn_search', '?')} graph: {row.get('graph_seconds', 0):.1f} s), "
          f"{row['ms_per_iteration']:.1f} ms per iteration, k-means on V AC {points(row.get('ac'))} %; "
          f"peak resident memory {row['peak_resident_bytes'] / 2**20:.0f} MiB.")

    heading(f"10", f"Kernel and NCW variants ({stamp('variants', variants)}; the large sets "
          f"{hhmm(when['variants_large']['start'])}; float {hhmm(when['variants_float']['start'])})\n")
    print(full_table(variants["rows"] + variants_large["rows"]))
    print("\nThe same on the single-precision solver:\n")
    print(float_table(variants["rows"], variants_float["rows"]))

    heading(f"11", f"CF_OGL ({stamp('ogl', ogl)})\n")
    print(full_table(ogl["rows"]))


if __name__ == "__main__":
    main()
