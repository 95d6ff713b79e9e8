#!/bin/sh
# Refit every fit file in calibration/fits/ in dependency order and print one summary table.
# A fit whose [fit] `base =` names the model file another fit writes (its `output =`) runs
# after that fit (e.g. sweetspot-zvm64 after sweetspot-zvm63; dump-eckd-zvm62 after dump-eckd-zvm63
# and dump-edev-zvm63 after dump-edev-zvm62: each dump device has one root fit, no cycle);
# fits that do not depend on each other run in name order. A cycle of bases is refused, naming
# the fits on it. `zvmperf calibrate` leaves a model file alone when only `fitted_at` would
# change, so a rerun on unchanged inputs leaves the tree as it was.
# Usage: sh calibration/calibrate_all.sh build/zvmperf RESULTS_DIR
set -e
ZVP=${1:-build/zvmperf}
OUT=${2:-results}
FITS=${FITS:-calibration/fits}
mkdir -p "$OUT"

# the value of KEY in the [fit] section of FILE ("" when absent; a " ;" comment is cut)
fit_key() {
  awk -v want="$2" '
    /^[ \t]*\[/ { sec = $0; gsub(/^[ \t]*\[[ \t]*|[ \t]*\].*$/, "", sec); next }
    sec == "fit" && index($0, "=") {
      k = substr($0, 1, index($0, "=") - 1); v = substr($0, index($0, "=") + 1)
      gsub(/^[ \t]+|[ \t]+$/, "", k)
      if (k != want) next
      sub(/[ \t];.*$/, "", v); gsub(/^[ \t]+|[ \t]+$/, "", v); print v; exit }' "$1"
}
# PATH (relative to the directory of FILE unless absolute) as an absolute, normalized path
resolve() {
  case $2 in /*) p=$2 ;; *) p=$(dirname "$1")/$2 ;; esac
  d=$(cd "$(dirname "$p")" 2>/dev/null && pwd -P) || { echo "$p"; return; }
  echo "$d/$(basename "$p")"
}

# one line per fit: "fit output base" (base "-" when none), fits in name order
graph="$OUT/calibration-order.tmp"
: > "$graph"
for fit in $(ls "$FITS"/*.ini | LC_ALL=C sort); do
  o=$(fit_key "$fit" output); b=$(fit_key "$fit" base)
  [ -n "$o" ] && o=$(resolve "$fit" "$o") || o="-"
  [ -n "$b" ] && b=$(resolve "$fit" "$b") || b="-"
  echo "$fit $o $b" >> "$graph"
done
# Kahn's algorithm, the first ready fit in name order each time; a base that no fit writes
# is a committed file (no dependency). Prints the order, or "cycle: a -> b -> a" and fails.
order=$(awk '
  { fit[NR] = $1; out[NR] = $2; base[NR] = $3; n = NR; if ($2 != "-") writer[$2] = NR }
  END {
    for (i = 1; i <= n; i++) dep[i] = (base[i] in writer) ? writer[base[i]] : 0
    for (done = 0; done < n; ) {
      pick = 0
      for (i = 1; i <= n && !pick; i++)
        if (!(i in ran) && (dep[i] == 0 || (dep[i] in ran))) pick = i
      if (!pick) {
        for (i = 1; i <= n; i++) if (!(i in ran)) break
        for (k = 0; k <= n; k++) { seen[i] = 1; i = dep[i]; if (i in seen) break }
        msg = fit[i]; j = dep[i]
        for (k = 0; k <= n && j != i; k++) { msg = msg " -> " fit[j]; j = dep[j] }
        print "cycle: " msg " -> " fit[i]; exit 1
      }
      ran[pick] = 1; done++; print fit[pick]
    }
  }' "$graph") || { echo "calibrate_all: the fits' bases form a cycle (A -> B: A's base is the output of B):" >&2
                    echo "$order" | grep '^cycle:' >&2; rm -f "$graph"; exit 1; }
rm -f "$graph"

summary="$OUT/calibration-summary.txt"
: > "$summary.tmp"
for fit in $order; do
  name=$(basename "$fit" .ini)
  if ! "$ZVP" calibrate "$fit" > "$OUT/calibrate-$name.txt" 2>&1; then
    cat "$OUT/calibrate-$name.txt"; echo "calibrate: $fit failed"; exit 1
  fi
  grep '^summary:' "$OUT/calibrate-$name.txt" | sed 's/^summary: //' >> "$summary.tmp"
  if grep -q '^unchanged ' "$OUT/calibrate-$name.txt"; then state="model file unchanged"; else state="model file written"; fi
  echo "calibrated $fit ($state; report: $OUT/calibrate-$name.txt)"
done
{
  printf '%-22s %-10s %-14s %5s %5s %9s %8s  %s\n' fit model release rows free "R2(min)" "MAPE%" "worst row (output, residual)"
  cat "$summary.tmp"
} > "$summary"
rm -f "$summary.tmp"
echo
echo "Calibration summary. R2 is the smallest over the matched outputs (the last field names that output): outputs flat in"
echo "the data have R2 near or below 0 even when MAPE is small, so read MAPE first; nan means no"
echo "output has a defined R2 (one row per fit, as for cms: one release column each)."
cat "$summary"
