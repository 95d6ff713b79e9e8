#!/bin/sh
# Execute every notebook in notebooks/ headlessly, top to bottom, on Debian's /usr/bin/python3
# kernel; exit non-zero if any cell of any notebook fails. The executed copies go to a
# temporary directory (the committed notebooks stay without outputs); the PNG figures go to
# notebooks/figures/ (or $ZVMPERF_FIG_DIR).
#
# usage: sh notebooks/run_all.sh [PYTHON]      (from anywhere; PYTHON default /usr/bin/python3)
# env:   NB_TIMEOUT  per-cell timeout in seconds (default 600)
#        NB_KEEP     directory to keep the executed notebooks in (default: a removed temp dir)
set -e
PY=${1:-/usr/bin/python3}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${NB_KEEP:-}
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/zvmperf-nbrun.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT INT TERM
[ -n "$OUT" ] || OUT="$TMPD/executed"
mkdir -p "$OUT"

# A private kernelspec named python3 that runs $PY, found first through JUPYTER_PATH, so the
# notebooks run on the interpreter that sees python3-numpy/h5py/matplotlib whatever kernels
# are installed globally (nothing is installed globally).
mkdir -p "$TMPD/jupyter/kernels/python3"
cat > "$TMPD/jupyter/kernels/python3/kernel.json" <<JSON
{"argv": ["$PY", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Python 3 (zvmperf, $PY)", "language": "python"}
JSON
export JUPYTER_PATH="$TMPD/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
export MPLBACKEND=Agg
# ipykernel wants a writable runtime dir; keep it private too
export JUPYTER_RUNTIME_DIR="$TMPD/runtime"

status=0; npass=0; nfail=0
for nb in "$HERE"/*.ipynb; do
  name=$(basename "$nb")
  printf 'notebook %-32s ' "$name"
  if "$PY" -m jupyter nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=python3 \
        --ExecutePreprocessor.timeout="${NB_TIMEOUT:-600}" --output-dir "$OUT" "$nb" \
        > "$TMPD/$name.log" 2>&1; then
    echo ok; npass=$((npass + 1))
  else
    echo FAILED; tail -n 40 "$TMPD/$name.log"; status=1; nfail=$((nfail + 1))
  fi
done
ls "${ZVMPERF_FIG_DIR:-$HERE/figures}"/*.png 2>/dev/null | sed 's/^/figure /'
echo "notebooks: $npass passed, $nfail failed"
exit $status
