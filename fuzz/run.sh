#!/bin/sh
# fuzz/run.sh - run libFuzzer harnesses for a fixed time each (make fuzz calls it).
#   sh fuzz/run.sh BUILD_DIR SECONDS NAME...      (from the repository root)
# Each NAME runs as BUILD_DIR/fuzz_NAME on BUILD_DIR/corpus/NAME: that directory keeps what
# earlier runs found and gets a fresh copy of the seeds (the shipped files listed below,
# plus fuzz/corpus/NAME/*); nothing under fuzz/ is written. Logs in BUILD_DIR/logs/NAME.log,
# reproducers in BUILD_DIR/artifacts/NAME-{crash,leak,timeout,oom}-*.
# Exit status 1 when any harness found a crash, leak, timeout or out-of-memory.
set -u
# absolute: the CLI harnesses change directory while a command runs (a crash then)
B=$(cd "$1" && pwd) || exit 2
SECS=$2
shift 2
mkdir -p "$B/logs" "$B/artifacts"
# scratch files (the inputs written as files, sweep outputs) go to memory when possible
SCRATCH=/dev/shm
[ -d "$SCRATCH" ] && [ -w "$SCRATCH" ] || SCRATCH=$B

fail=0
summary=""
for t in "$@"; do
    case $t in
    model_file) seeds="calibration/params/*.ini" maxlen=16384 ;;
    fit_file) seeds="calibration/fits/*.ini tests/data/fit_*.ini" maxlen=8192 ;;
    csv) seeds="calibration/data/*.csv tests/data/*.csv" maxlen=16384 ;;
    ini) seeds="calibration/params/*.ini calibration/fits/*.ini tests/data/*.ini" maxlen=16384 ;;
    claims) seeds="calibration/claims/*.csv tests/data/claims/*.csv" maxlen=40960 ;;
    cli_*) seeds="" maxlen=1024 ;;
    *) echo "fuzz: unknown harness $t" >&2; exit 2 ;;
    esac
    corpus=$B/corpus/$t
    mkdir -p "$corpus"
    for f in $seeds fuzz/corpus/$t/*; do
        [ -f "$f" ] && cp "$f" "$corpus/seed-$(echo "$f" | tr / _)"
    done
    log=$B/logs/$t.log
    echo "fuzz: $t for $SECS s (log $log)"
    tmp=$(mktemp -d "$SCRATCH/zvp-fuzz-$t.XXXXXX") || exit 1
    TMPDIR=$tmp UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
        "$B/fuzz_$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=$maxlen \
        -dict="fuzz/$t.dict" -artifact_prefix="$B/artifacts/$t-" -print_final_stats=1 \
        "$corpus" >"$log" 2>&1
    rc=$?
    rm -rf "$tmp"
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        result=ok
    else
        fail=1
        found=$(grep -o "Test unit written to [^ ]*" "$log" | tail -n 1 | sed 's/Test unit written to //')
        result="FAILED (exit $rc; $(grep -m1 -o 'ERROR: [A-Za-z]*Sanitizer: [a-z-]*\|ERROR: libFuzzer: [a-z-]*\|runtime error: .*' "$log" | head -n 1); reproducer ${found:-none})"
    fi
    summary="$summary$(printf '  %-11s %12s executions, corpus %5s files  %s' "$t" "${execs:-?}" \
        "$(ls "$corpus" | wc -l)" "$result")
"
done
printf 'fuzz: %s s each\n%s' "$SECS" "$summary"
exit $fail
