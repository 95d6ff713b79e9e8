#!/bin/sh
# bench/run.sh - run the benchmarks (make bench): sh bench/run.sh BUILD_DIR CLI
#   e.g. sh bench/run.sh build build/zvmperf
# Runs BUILD_DIR/<name> for every bench/<name>.c (one program each), then times the CLI
# on the `make demo` sweep grid. bench_sweep times the HDF5 sweep (zvp_sweep_run) and the
# same grid in memory (zvp_eval_grid), each with 1 and 2 threads. Figures are printed;
# nothing is asserted on time. Exits 1 if a benchmark program fails (bench_sweep also fails
# when the 1- and 2-thread results differ, in the files or in memory).
set -u
B=${1:-build}
CLI=${2:-build/zvmperf}
PARAMS=calibration/params/sweetspot-zvm64.ini
OUT=${TMPDIR:-/tmp}
# older calling convention: the first argument was a benchmark program
[ -f "$B" ] && B=$(dirname "$B")

rc=0
for src in bench/*.c; do
    name=$(basename "$src" .c)
    prog="$B/$name"
    echo "== $name =="
    if [ ! -x "$prog" ]; then
        echo "$prog: not built"
        rc=1
        continue
    fi
    case "$name" in
    bench_sweep) "$prog" "$PARAMS" "$OUT" || rc=1 ;;
    *) "$prog" || rc=1 ;;
    esac
done

# The CLI on the `make demo` grid (61 x 29 points), when the CLI and the calibrated
# parameter file exist.
if [ -x "$CLI" ] && [ -r "$PARAMS" ]; then
    echo "== CLI: zvmperf sweep $PARAMS --axis storage_gb=256:4096:64 --axis cpus=16:128:4 =="
    f="$OUT/zvp_bench_cli_$$.h5"
    t0=$(date +%s.%N)
    if "$CLI" sweep "$PARAMS" --axis storage_gb=256:4096:64 --axis cpus=16:128:4 -o "$f"; then
        t1=$(date +%s.%N)
        echo "$t0 $t1" | awk '{ printf "cli sweep: %.3f s wall (process start to exit)\n", $2 - $1 }'
    else
        echo "cli sweep: failed"
        rc=1
    fi
    rm -f "$f"
else
    echo "== CLI timing skipped ($CLI or $PARAMS missing) =="
fi
# the joint sweetspot fit alone (issue 13), on a copy of calibration/ (the committed files are
# never rewritten); then make calibrate (every shipped fit) on a copy (issue 11: under 2 s,
# set before the sweetspot fits solved the exact chain)
if [ -x "$CLI" ]; then
    echo "== calibrate: the joint sweetspot fit (calibration/fits/sweetspot-zvm63.ini) =="
    d=$(mktemp -d "$OUT/zvp_bench_ss.XXXXXX") && cp -R calibration "$d/calibration" && {
        t0=$(date +%s.%N)
        if "$CLI" calibrate "$d/calibration/fits/sweetspot-zvm63.ini" > "$d/log" 2>&1; then
            t1=$(date +%s.%N)
            echo "$t0 $t1" | awk '{ printf "sweetspot joint fit: %.3f s wall\n", $2 - $1 }'
        else
            cat "$d/log"; echo "sweetspot joint fit: failed"; rc=1
        fi
        rm -rf "$d"
    }
fi
echo "== calibrate: every fit of calibration/fits (bench/calibrate.sh) =="
[ -x "$CLI" ] && { sh bench/calibrate.sh "$CLI" || rc=1; }
# Monte Carlo intervals (issue 11: 10^7 draws in < 60 s, set while a sweetspot point cost
# microseconds; since issue 13 a point solves the exact lock chain, ~0.2 ms, so 10^6 draws are
# timed): 1,000 draws at each of 1,000 points on 2 threads, sweep --interval 0.9 --method mc
# (the same numbers on any thread count)
if [ -x "$CLI" ] && [ -r "$PARAMS" ]; then
    echo "== CLI: sweep --interval 0.9 --method mc --samples 1000, 100 x 10 points, 2 threads =="
    f="$OUT/zvp_bench_iv_$$.h5"
    t0=$(date +%s.%N)
    if "$CLI" sweep "$PARAMS" --axis storage_gb=128:1118:10 --axis cpus=1:100:10 -o "$f" \
        --interval 0.9 --method mc --samples 1000 --threads 2 --no-progress >/dev/null; then
        t1=$(date +%s.%N)
        echo "$t0 $t1" | awk '{ printf "mc intervals: %.3f s wall for 10^6 draws (%.0f draws/s)\n", $2 - $1, 1e6 / ($2 - $1) }'
    else
        echo "mc intervals: failed"
        rc=1
    fi
    rm -f "$f"
fi
# Python's broadcast eval (one C call) against the CLI sweep on a 1.7-million-point grid
PY=${PYTHON:-/usr/bin/python3}
if [ -x "$CLI" ] && "$PY" -c "import numpy, h5py" 2>/dev/null; then
    echo "== Python grid vs CLI sweep =="
    PYTHONPATH=python-bindings ZVMPERF_LIB="$B/libzvmperf.so" "$PY" bench/bench_python_grid.py \
        --cli "$CLI" --threads 2 --repeat 1 || rc=1
fi
exit $rc
