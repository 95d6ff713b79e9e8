#!/bin/sh
# Refit every fit file in calibration/fits/ (6.3 before 6.4: the 6.4 fits use the calibrated
# 6.3 workload parameters as their base) and print one summary table.
# Usage: sh calibration/calibrate_all.sh build/zvmperf RESULTS_DIR
set -e
ZVP=${1:-build/zvmperf}
OUT=${2:-results}
mkdir -p "$OUT"
summary="$OUT/calibration-summary.txt"
: > "$summary.tmp"
for fit in $(ls calibration/fits/*.ini | sort); do
  name=$(basename "$fit" .ini)
  if ! "$ZVP" calibrate "$fit" > "$OUT/calibrate-$name.txt" 2>&1; then
    cat "$OUT/calibrate-$name.txt"; echo "calibrate: $fit failed"; exit 1
  fi
  grep '^summary:' "$OUT/calibrate-$name.txt" | sed 's/^summary: //' >> "$summary.tmp"
  echo "calibrated $fit (report: $OUT/calibrate-$name.txt)"
done
{
  printf '%-22s %-10s %-14s %5s %5s %9s %8s  %s\n' fit model release rows free "R2(min)" "MAPE%" "worst row (output, residual)"
  cat "$summary.tmp"
} > "$summary"
rm -f "$summary.tmp"
echo
echo "Calibration summary. R2 is the smallest over the matched outputs: outputs that are flat in"
echo "the data have R2 near or below 0 even when MAPE is small, so read MAPE first; nan means no"
echo "output has a defined R2 (one row per fit, as for cms: one release column each)."
cat "$summary"
