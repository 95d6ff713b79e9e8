#!/bin/sh
# calibration/validate_all.sh - the validation table of the shipped fits: for each fit file in
# calibration/fits/ (or the files given), `zvmperf validate` with leave-one-out folds, printed as
# the Markdown table of calibration/README.md ("Results of the shipped fits"): in-sample MAPE,
# cross-validated MAPE, effective degrees of freedom, 90 % coverage of held-out cells, folds ok.
# Usage: calibration/validate_all.sh [ZVMPERF [FIT.ini ...]]  (default build/zvmperf, every fit)
# Needs /usr/bin/python3 (JSON). Read-only: writes nothing.
set -u
ZVP=${1:-build/zvmperf}
[ $# -gt 0 ] && shift
PY=${PYTHON:-/usr/bin/python3}
[ $# -eq 0 ] && set -- calibration/fits/*.ini
echo "| fit | scheme | in-sample MAPE | CV MAPE | dof_effective | 90 % coverage | folds ok |"
echo "|---|---|---|---|---|---|---|"
for f in "$@"; do
  "$ZVP" validate "$f" --json 2>/dev/null | "$PY" -c '
import json, sys
name = sys.argv[1].rsplit("/", 1)[-1][:-4]
try:
    d = json.load(sys.stdin)
except ValueError:
    print("| %s | loo | no answer | | | | |" % name); sys.exit(0)
if d.get("status") != "ok":
    print("| %s | loo | %s | | | | |" % (name, d.get("message", "error").replace("|", "/"))); sys.exit(0)
pct = lambda k: "%.3g %%" % d[k]["value"] if d.get(k) and d[k].get("value") is not None else "not possible"
folds = d.get("folds", [])
ok = sum(1 for x in folds if x.get("status") == "ok")
print("| %s | %s | %s | %s | %s | %s | %d of %d |" % (name, d.get("scheme", "loo"), pct("in_sample_mape_pct"),
      pct("cv_mape_pct"), d.get("dof_effective", ""),
      pct("coverage_90_pct").replace("not possible", "n/a"), ok, len(folds)))
' "$f"
done
