#!/bin/sh
# bench/bench_mpi.sh - zvmperf-mpi benchmarks (make bench runs it when build-mpi/zvmperf-mpi
# exists): sh bench/bench_mpi.sh build-mpi/zvmperf-mpi build/zvmperf
#  1. points per second on one grid for 1 rank x 1 thread, 2 ranks x 1 thread and 1 rank x
#     2 threads (and the serial CLI with 1 and 2 threads), with the speed-ups over 1 x 1;
#     every file is checked bit-identical to the serial one (h5diff of /status and one output).
#  2. peak resident memory of each rank (GNU time's %M) for two grid sizes, 3x apart.
# Figures are printed; nothing is asserted on time. Rates use the sweep's own time (the
# summary line: evaluation + writing, without MPI's start-up), wall time is shown beside it.
set -u
MPI=${1:-build-mpi/zvmperf-mpi}
CLI=${2:-build/zvmperf}
MPIRUN=${MPIRUN:-mpirun}
if [ "$(id -u)" = 0 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
RUN="$MPIRUN --oversubscribe --bind-to none"
T=$(mktemp -d "${TMPDIR:-/tmp}/zvp_bench_mpi.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
rc=0
PARAMS=calibration/params/sweetspot-zvm64.ini
# sweetspot (exact MVA per point): 961 x 113 x 3 = 325779 points, 5 blocks
GRID=${BENCH_MPI_GRID:-"--axis users_per_phase=80,88,96 --axis storage_gb=256:4096:4 --axis cpus=16:128:1"}

# run LABEL COMMAND...: prints "LABEL points seconds wall" from the summary line
run() {
    label=$1
    shift
    t0=$(date +%s.%N)
    if ! "$@" >"$T/out" 2>"$T/err"; then
        echo "$label: failed"; cat "$T/err"; rc=1; return
    fi
    t1=$(date +%s.%N)
    sed -n 's/^sweep [^:]*: \([0-9]*\) points .* in \([0-9.]*\) s.*/\1 \2/p' "$T/out" |
        awk -v l="$label" -v w="$(echo "$t0 $t1" | awk '{print $2 - $1}')" \
            '{ printf "%s %s %s %s\n", l, $1, $2, w }' >>"$T/rates"
}
same() {
    for d in status etr; do
        h5diff -q "$T/serial.h5" "$1" "/$d" "/$d" >/dev/null 2>&1 ||
            { echo "$1: /$d differs from the serial sweep"; rc=1; }
    done
}

echo "== zvmperf-mpi: points per second ($PARAMS, 325779 points) =="
: >"$T/rates"
run "serial-1x1" "$CLI" sweep "$PARAMS" $GRID -o "$T/serial.h5" --threads 1 --no-progress
run "serial-1x2" "$CLI" sweep "$PARAMS" $GRID -o "$T/s2.h5" --threads 2 --no-progress
run "mpi-1rank-x-1thread" $RUN -np 1 "$MPI" sweep "$PARAMS" $GRID -o "$T/m11.h5" --threads 1
run "mpi-2ranks-x-1thread" $RUN -np 2 "$MPI" sweep "$PARAMS" $GRID -o "$T/m21.h5" --threads 1
run "mpi-1rank-x-2threads" $RUN -np 1 "$MPI" sweep "$PARAMS" $GRID -o "$T/m12.h5" --threads 2
for f in s2 m11 m21 m12; do [ -f "$T/$f.h5" ] && same "$T/$f.h5"; done
awk '{ r[NR] = $2 / $3; l[NR] = $1; s[NR] = $3; w[NR] = $4; if ($1 == "mpi-1rank-x-1thread") base = r[NR] }
     END { printf "%-22s %12s %10s %10s %10s\n", "run", "points/s", "sweep s", "wall s", "speed-up";
           for (i = 1; i <= NR; i++)
               printf "%-22s %12.0f %10.3f %10.3f %10s\n", l[i], r[i], s[i], w[i],
                      (base > 0 ? sprintf("%.2f", r[i] / base) : "-") }' "$T/rates"
echo "(speed-up over mpi 1 rank x 1 thread; $(nproc) cores here, shared with whatever else runs)"

echo "== zvmperf-mpi: peak memory per rank (mmc, 2 ranks x 1 thread, GNU time %M) =="
if command -v /usr/bin/time >/dev/null 2>&1; then
    for n in 100 300; do
        hi=$(echo "$n" | awk '{ printf "%.1f", ($1 - 1) / 10 }')
        pts=$((n * 19 * 451))
        $RUN -np 2 /usr/bin/time -f "rank peak RSS %M KB" "$MPI" sweep mmc \
            --axis arrival_rate_per_s=0:$hi:0.1 --axis servers=1:10:0.5 \
            --axis service_rate_per_s=0.5:5:0.01 -o "$T/mem$n.h5" --threads 1 \
            >/dev/null 2>"$T/mem"
        echo "$pts points: $(grep 'rank peak RSS' "$T/mem" | sed 's/rank peak RSS //' |
            tr '\n' ' ' | sed 's/ $//; s/ KB /, /g')"
    done
    echo "(per rank: up to 4 blocks of 65536 points x (8 B x outputs + 1 B) plus MPI and HDF5;"
    echo " independent of the grid size)"
else
    echo "/usr/bin/time missing: skipped"
fi
exit $rc
