#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Distributed factorization at N = 1..4 ranks, measured, and modelled at cluster scale.

    bench/mpi_scale.py [FACET_CLI] [--dataset gen:16000x1024] [--rank 50] [--iterations 20]

For each method (nmf, cf; the `mu` rules, a fixed iteration count, one inner thread per rank) it
runs `facet-cli run` alone (N = 1) and under `mpirun --oversubscribe -np N` (N = 2, 3, 4), and
prints per N: ms per iteration, the samples and peak resident memory of each rank, and the bytes
reduced per iteration, counted by the communicator, beside the formula of docs/cluster.md. Then
the model of time per iteration at n = 10^7, m = 1024, k = 50 for N = 1..1024 ranks from the
compute rate measured at N = 1 and a stated network (latency ALPHA, bandwidth BETA; an allreduce
of B bytes costs 2 log2(N) ALPHA + 2 (N - 1) / N B / BETA, Thakur, Rabenseifner & Gropp 2005).
On a 2-core machine N = 3 and 4 are oversubscribed: their times say nothing about speed-up.

GNMF (binary kNN graph, p = 5, built across the ranks) the same way: the graph's set-up time
(the exact search, a ring pass of X's blocks), ms per iteration after it, and the bytes each rank
sent point to point: the ring and the halo's columns of X once, V's halo rows per iteration. Its
model adds to nmf's one more reduction and the halo exchange, at the worst case of samples in no
useful order (each sample's DEGREE neighbours on as many other ranks: n / N DEGREE k 8 bytes per
rank and iteration, N - 1 messages), and the set-up's exact search, n^2 m / N multiply-adds per
rank at the measured rate, its ring moving n m 8 (N - 1) / N bytes through each rank.
"""
import argparse
import json
import math
import os
import subprocess
import tempfile

ALPHA = 1e-6  # s, per message step
BETA = 10e9  # bytes/s
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl": "self,vader", "OMP_WAIT_POLICY": "passive"}
# Flops per iteration of the mu rules (solver/bench/flops.cpp, leading terms) and the reductions
# (docs/cluster.md): nmf reduces X V (m x k), V^T V (k x k) and the objective's trace; cf X V and
# X W, W^T K W and V^T V, and its trace.
FLOPS = {"nmf": lambda m, n, k: 4 * m * n * k, "cf": lambda m, n, k: 8 * m * n * k}
REDUCED = {"nmf": lambda m, k: (m * k + k * k + 1) * 8, "cf": lambda m, k: (2 * m * k + 2 * k * k + 1) * 8}
CALLS = {"nmf": 3, "cf": 5}
DEGREE = 8  # mean stored neighbours per sample of a p = 5 kNN graph (measured: 6 to 8)


def run(cli, ranks, method, args, out):
    base = [cli, "run", "--method", method, "--algorithm", "mu", "--json", out, "--threads", "1"] + args
    env = dict(os.environ, **MPI_ENV)
    if ranks == 1:
        cmd = ["/usr/bin/time", "-f", "%M"] + base
    else:
        cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks)] + base
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    with open(out) as f:
        result = json.load(f)
    if ranks == 1:
        result["peak_kib"] = int(done.stderr.strip().splitlines()[-1])
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cli", nargs="?", default="build/release/app/facet-cli")
    p.add_argument("--dataset", default="gen:16000x1024")
    p.add_argument("--rank", type=int, default=50)
    p.add_argument("--iterations", type=int, default=20)
    o = p.parse_args()
    args = ["--dataset", o.dataset, "--rank", str(o.rank), "--min-iter", str(o.iterations),
            "--max-iter", str(o.iterations), "--seed", "1"]
    rates = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        print("| method | N | ms/iter | samples per rank | peak MiB per rank | reduced bytes/iter (counted; formula) |")
        print("|---|---:|---:|---|---|---|")
        for method in ("nmf", "cf"):
            for ranks in (1, 2, 3, 4):
                r = run(o.cli, ranks, method, args, out)
                m, n, its = r["m"], r["n"], r["iterations"]
                d = r.get("distributed")
                if d:
                    ms = 1e3 * d["solve_seconds"] / its
                    samples = ", ".join(str(int(c)) for c in d["samples_per_rank"])
                    peak = ", ".join(f"{b / 2**20:.0f}" for b in d["peak_memory_bytes_per_rank"])
                    counted = f"{d['reduced_bytes_per_iteration'] / 1e3:.1f} kB"
                else:
                    ms = 1e3 * r["timings"]["solve_s"] / its
                    samples, peak, counted = str(n), f"{r['peak_kib'] / 1024:.0f}", "-"
                    rates[method] = FLOPS[method](m, n, o.rank) / (ms / 1e3)
                formula = f"{REDUCED[method](m, o.rank) / 1e3:.1f} kB"
                print(f"| {method} | {ranks} | {ms:.1f} | {samples} | {peak} | {counted}; {formula} |")
        print("\n| gnmf N | graph set-up s | ms/iter | sent per rank at set-up (MB) | halo sent per rank per iteration (kB) |")
        print("|---:|---:|---:|---|---|")
        for ranks in (1, 2, 3, 4):
            r = run(o.cli, ranks, "gnmf", args, out)
            d = r.get("distributed")
            if d:
                setup = d["setup_seconds"]
                ms = 1e3 * (d["solve_seconds"] - setup) / r["iterations"]
                ring = ", ".join(f"{b / 1e6:.1f}" for b in d["graph_setup_exchanged_bytes_per_rank"])
                halo = ", ".join(f"{b / 1e3:.1f}" for b in d["exchanged_bytes_per_iteration_per_rank"])
            else:
                setup = r["timings"]["setup_s"]
                ms = 1e3 * r["timings"]["solve_s"] / r["iterations"]
                ring, halo = "-", "-"
                rates["knn"] = r["m"] * r["n"] ** 2 / setup  # multiply-adds/s, one process's n^2 m / 2 pairs, x2 flops
            print(f"| {ranks} | {setup:.2f} | {ms:.1f} | {ring} | {halo} |")
    n, m, k = 10**7, 1024, 50
    print(f"\nModel, n = 10^7, m = {m}, k = {k}: compute at the N = 1 rate per rank "
          f"(nmf {rates['nmf'] / 1e9:.1f}, cf {rates['cf'] / 1e9:.1f} GFLOP/s), "
          f"network {ALPHA * 1e6:g} us, {BETA / 1e9:g} GB/s\n")
    print("| N | nmf compute ms | nmf comm ms | cf compute ms | cf comm ms |")
    print("|---:|---:|---:|---:|---:|")
    for ranks in (1, 4, 16, 64, 256, 1024):
        row = [str(ranks)]
        for method in ("nmf", "cf"):
            compute = FLOPS[method](m, n, k) / ranks / rates[method]
            size = REDUCED[method](m, k) / CALLS[method]
            comm = 0.0 if ranks == 1 else CALLS[method] * (
                2 * math.log2(ranks) * ALPHA + 2 * (ranks - 1) / ranks * size / BETA)
            row += [f"{1e3 * compute:,.1f}", f"{1e3 * comm:.3f}"]
        print("| " + " | ".join(row) + " |")
    print(f"\nGNMF at the same size: the nmf model plus one reduction of 8 bytes and the halo "
          f"exchange ({DEGREE} neighbours per sample on other ranks); the exact kNN search at "
          f"{rates['knn'] / 1e9:.1f} GFLOP/s per rank\n")
    print("| N | halo MB per rank | halo ms | graph search s | ring s |")
    print("|---:|---:|---:|---:|---:|")
    for ranks in (4, 16, 64, 256, 1024):
        halo = n / ranks * min(DEGREE, ranks - 1) * k * 8
        halo_s = (ranks - 1) * ALPHA + halo / BETA
        search = 2 * m * n**2 / ranks / rates["knn"]
        ring = (ranks - 1) * ALPHA + n * m * 8 * (ranks - 1) / ranks / BETA
        print(f"| {ranks} | {halo / 1e6:,.1f} | {1e3 * halo_s:,.2f} | {search:,.0f} | {ring:.1f} |")


if __name__ == "__main__":
    main()
