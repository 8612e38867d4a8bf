# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the bench scripts that run facet-cli on the bundled sets (to_solution.sh,
# to_solution_methods.sh, concurrent.sh).

# The data sets by the names of `facet-cli bench`, as files of FACET_DATA_DIR.
declare -A BENCH_FILES=([orl]=ORL_32x32.mat [yale]=Yale_32x32.mat [coil20]=COIL20.mat
  [mnist]=mnist.mat)

# The first line of every report: the host, the commit and how busy the machine was.
bench_host_line() {
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;" \
    "commit $(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo unknown);" \
    "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
}
