#!/bin/sh
# tests/mpi_test.sh - zvmperf-mpi against the serial sweep (make test-mpi):
#   sh tests/mpi_test.sh build-mpi/zvmperf-mpi build/zvmperf
# The same grid swept by `zvmperf sweep` and by `mpirun -np N zvmperf-mpi sweep` for N = 1,
# 2, 3 (and 2 ranks x 2 threads) must give the same datasets, bit for bit (h5diff of every
# dataset: coordinates, outputs, status); the root attributes other than `created` and
# `command` must match too (h5py, when /usr/bin/python3 has it). Then --resume under MPI:
# from a partial file whose blocks were cut out (deterministic), and from a sweep stopped
# by SIGTERM. mpirun runs with --oversubscribe (3 ranks on 2 cores); as root the
# OMPI_ALLOW_RUN_AS_ROOT variables are set here (CI runs as root).
set -u
MPI=${1:-build-mpi/zvmperf-mpi}
CLI=${2:-build/zvmperf}
MPIRUN=${MPIRUN:-mpirun}
PY=${PYTHON:-/usr/bin/python3}
if [ "$(id -u)" = 0 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
# no MPI binding: ranks share the cores with whatever else runs
RUN="$MPIRUN --oversubscribe --bind-to none"
T=$(mktemp -d "${TMPDIR:-/tmp}/zvp_mpi_test.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# mmc: ok and unstable points (arrival >= servers x rate); servers = 1.5 (invalid) is refused
# up front by every sweep now (whole-number axes, src/sweep/README.md), so servers are whole;
# 100 x 10 x 451 = 451000 points in several blocks
AXES="--axis arrival_rate_per_s=0:9.9:0.1 --axis servers=1:10:1 --axis service_rate_per_s=0.5:5:0.01"
MODEL=mmc

# same datasets (h5diff, bit for bit: NaN equals NaN only when both are NaN) and the same
# root attributes but created/command
same() {
    a=$1 b=$2 what=$3 ok=1
    for d in arrival_rate_per_s servers service_rate_per_s status $("$CLI" models $MODEL |
             sed -n '/^  outputs:/,$ s/^    \([a-z_0-9]*\) .*/\1/p'); do
        if ! h5diff -q "$a" "$b" "/$d" "/$d" >/dev/null 2>&1; then
            echo "  $what: dataset /$d differs:"; h5diff -r "$a" "$b" "/$d" "/$d" 2>&1 | head -5
            ok=0
        fi
    done
    if "$PY" -c "import h5py" 2>/dev/null; then
        "$PY" - "$a" "$b" <<'EOF' || ok=0
import sys, h5py, numpy as np
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
bad = []
names = set(a.attrs) | set(b.attrs)
for k in sorted(names - {"created", "command"}):
    if k not in a.attrs or k not in b.attrs or not np.array_equal(a.attrs[k], b.attrs[k]):
        bad.append(k)
if sorted(a.keys()) != sorted(b.keys()):
    bad.append("objects %s != %s" % (sorted(a.keys()), sorted(b.keys())))
for k in sorted(set(a["parameters"].attrs) | set(b["parameters"].attrs)):
    if not np.array_equal(a["parameters"].attrs.get(k), b["parameters"].attrs.get(k)):
        bad.append("parameters/" + k)
for k in a.keys():
    if isinstance(a[k], h5py.Dataset) and a[k].chunks != b[k].chunks:
        bad.append("chunks of " + k)
if bad:
    print("  root attributes or layout differ: " + ", ".join(bad))
sys.exit(1 if bad else 0)
EOF
    fi
    [ $ok = 1 ] && pass "$what" || fail "$what"
}

"$CLI" sweep $MODEL $AXES -o "$T/serial.h5" --threads 2 >"$T/serial.txt" 2>/dev/null ||
    { echo "FAIL serial sweep"; exit 1; }
counts=$(sed -n 's/.*points \(([^)]*)\).*/\1/p' "$T/serial.txt")

for np in 1 2 3; do
    $RUN -np $np "$MPI" sweep $MODEL $AXES -o "$T/mpi$np.h5" --threads 1 >/dev/null 2>"$T/err$np"
    rc=$?
    if [ $rc -ne 0 ] || [ ! -f "$T/mpi$np.h5" ]; then
        fail "mpirun -np $np: exit $rc"; cat "$T/err$np"; continue
    fi
    same "$T/serial.h5" "$T/mpi$np.h5" "mpirun -np $np, 1 thread: the serial datasets"
    [ -e "$T/mpi$np.h5.partial" ] && fail "-np $np left $T/mpi$np.h5.partial behind"
done
# the summary line is rank 0's only, and has the serial counts
n=$($RUN -np 2 "$MPI" sweep $MODEL $AXES -o "$T/mpi2t.h5" --threads 2 2>/dev/null | tee "$T/sum")
[ "$(grep -c '^sweep mmc: 451000 points' "$T/sum")" = 1 ] &&
    [ -n "$counts" ] && grep -qF "$counts" "$T/sum" &&
    pass "one summary line, with the serial counts" || { fail "summary: $n"; cat "$T/sum"; }
same "$T/serial.h5" "$T/mpi2t.h5" "mpirun -np 2, 2 threads each: the serial datasets"

# --json on rank 0 only
j=$($RUN -np 2 "$MPI" sweep $MODEL $AXES -o "$T/json.h5" --json 2>/dev/null)
[ "$(printf '%s\n' "$j" | grep -c '"command"')" = 1 ] &&
    printf '%s' "$j" | grep -q '"points": 451000' && printf '%s' "$j" | grep -q '"ranks": 2' &&
    pass "--json: one object" || fail "--json: $j"

# bad input: one message (rank 0's), exit 2, no file
e=$($RUN -np 2 "$MPI" sweep $MODEL --axis servers=0:3:1 -o "$T/bad.h5" 2>&1 >/dev/null)
rc=$?
[ $rc = 2 ] && [ "$(printf '%s\n' "$e" | grep -c 'error:.*servers')" = 1 ] && [ ! -e "$T/bad.h5" ] &&
    pass "an axis value out of range: exit 2, one message" || fail "bad axis: exit $rc: $e"

# --resume from a partial file (made from the serial file with blocks 3, 4 and 9 cut out:
# status 0, outputs NaN, sweep_complete 0): only those are computed again
if "$PY" -c "import h5py" 2>/dev/null; then
    cp "$T/serial.h5" "$T/res.h5.partial"
    "$PY" - "$T/res.h5.partial" <<'EOF'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f:
    if "sweep_complete" in f.attrs:
        f.attrs.modify("sweep_complete", np.int32(0))
    for b in (3, 4, 9):  # rows of 7 arrival rates (the blocks holding them are computed again)
        f["status"][7 * b:7 * b + 7] = 0
        for k in f.keys():
            if isinstance(f[k], h5py.Dataset) and f[k].ndim == 3 and k != "status":
                f[k][7 * b:7 * b + 7] = np.nan
    f["status"][99, 3, 5] = 0  # one point of the last block
EOF
    out=$($RUN -np 2 "$MPI" sweep $MODEL $AXES -o "$T/res.h5" --resume 2>"$T/err")
    rc=$?
    [ $rc = 0 ] && [ -f "$T/res.h5" ] && [ ! -e "$T/res.h5.partial" ] &&
        pass "--resume under mpirun -np 2: exit 0, renamed" || { fail "--resume: exit $rc"; cat "$T/err"; }
    case "$out" in *"451000 points"*) ;; *) fail "--resume summary: $out" ;; esac
    same "$T/serial.h5" "$T/res.h5" "--resume (4 blocks cut out) under mpirun -np 2: the serial datasets"
else
    echo "skip --resume from a cut partial file (no h5py for $PY)"
fi

# a sweep stopped by SIGTERM (sent to the ranks after the partial file appears), then resumed
BIG=$AXES
cp "$T/serial.h5" "$T/big.h5"
echo keep > "$T/stop.h5"
$RUN -np 2 "$MPI" sweep $MODEL $BIG -o "$T/stop.h5" --threads 1 >/dev/null 2>"$T/err" &
pid=$!
i=0
while [ ! -e "$T/stop.h5.partial" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.2
for p in $(pgrep -P $pid); do kill -TERM "$p" 2>/dev/null; done
for p in $(pgrep -P $pid); do for q in $(pgrep -P "$p"); do kill -TERM "$q" 2>/dev/null; done; done
wait $pid
rc=$?
if [ $rc = 143 ]; then
    [ "$(cat "$T/stop.h5")" = keep ] && [ -f "$T/stop.h5.partial" ] && grep -q -- --resume "$T/err" &&
        pass "SIGTERM: exit 143, partial file kept, the old file untouched, resume hinted" ||
        { fail "SIGTERM: state after exit 143"; cat "$T/err"; }
    $RUN -np 3 "$MPI" sweep $MODEL $BIG -o "$T/stop.h5" --resume >/dev/null 2>"$T/err" ||
        { fail "resume after SIGTERM (3 ranks)"; cat "$T/err"; }
    same "$T/big.h5" "$T/stop.h5" "SIGTERM on 2 ranks, --resume on 3: the serial datasets"
else
    echo "note: the SIGTERM sweep ended with exit $rc before the signal (machine fast): resume not tried"
    [ $rc = 0 ] && same "$T/big.h5" "$T/stop.h5" "the SIGTERM sweep (finished first): the serial datasets"
fi

# two sweeps to one path: the second fails at once on rank 0's lock, the first completes
$RUN -np 2 "$MPI" sweep $MODEL $AXES -o "$T/lock.h5" >/dev/null 2>"$T/err1" &
pid=$!
i=0
while [ ! -e "$T/lock.h5.partial" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
$RUN -np 2 "$MPI" sweep $MODEL $AXES -o "$T/lock.h5" >/dev/null 2>"$T/err2"
rc2=$?
wait $pid
rc1=$?
if grep -q "another sweep" "$T/err2"; then
    [ $rc2 != 0 ] && [ $rc1 = 0 ] && pass "a second sweep to the same path: refused (exit $rc2), the first completes" ||
        fail "lock: first exit $rc1, second exit $rc2"
    same "$T/serial.h5" "$T/lock.h5" "the locked sweep: the serial datasets"
else
    echo "note: the second sweep did not meet the lock (exit $rc2; the first ended first?)"
    sed -n 1,3p "$T/err2"
fi

# a sweep whose every point the model refuses is an input error (exit 2) that leaves an
# existing file as it was and no partial file (as the serial sweep: src/sweep/README.md)
cp "$T/serial.h5" "$T/keep.h5"
$RUN -np 2 "$MPI" sweep fsio real_memory_gb=64 --axis cp_memory_gb=64,70 -o "$T/keep.h5" \
    >/dev/null 2>"$T/errk"
rck=$?
if [ $rck = 2 ] && cmp -s "$T/serial.h5" "$T/keep.h5" && [ ! -e "$T/keep.h5.partial" ] &&
   grep -q "no point of the sweep is valid input" "$T/errk"; then
    pass "no valid point: exit 2, the existing file kept, no partial file"
else
    fail "no valid point: exit $rck, file kept: $(cmp -s "$T/serial.h5" "$T/keep.h5" && echo yes || echo no)"
    sed -n 1,3p "$T/errk"
fi
# its message is the serial sweep's: the first refused point and the model's reason
"$CLI" sweep fsio real_memory_gb=64 --axis cp_memory_gb=64,70 -o "$T/keep.h5" >/dev/null 2>"$T/errs"
mpi_msg=$(grep -m1 "error: no point" "$T/errk")
if [ -n "$mpi_msg" ] && [ "$mpi_msg" = "$(grep -m1 "error: no point" "$T/errs")" ] &&
   printf '%s' "$mpi_msg" | grep -qF "the first, point 0 (cp_memory_gb = 64): fsio: cp_memory_gb = 64 must be below real_memory_gb = 64"; then
    pass "no valid point: the serial sweep's message (first point, the model's reason)"
else
    fail "no valid point: message differs from the serial sweep's"
    echo "  mpi:    $mpi_msg"; echo "  serial: $(grep -m1 "error: no point" "$T/errs")"
fi

if [ $fails -ne 0 ]; then
    echo "mpi_test: $fails failed"
    exit 1
fi
echo "mpi_test: all passed"
