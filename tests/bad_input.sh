#!/bin/sh
# tests/bad_input.sh - run the bad-input table tests/bad_input.tsv against the CLI.
# Usage: sh tests/bad_input.sh build/zvmperf [TABLE]
#   BAD_INPUT_ALL=1      also run the pending rows and say which of them pass now (to enable them)
#   BAD_INPUT_ONLY=ID    run one row (any state), printing its output
#   BAD_INPUT_TIMEOUT=S  seconds per row before it counts as hung (default 20)
#
# The table: one row per line, 6 fields separated by TABs, '#' lines and blank lines ignored:
#   id      unique name (the row's scratch directory is tests/tmp/bad_input/<id>)
#   state   on | pending:<helper> (listed, skipped with a note, until the fix lands: then 'on')
#   setup   sh commands run first, or '-' (e.g. writing the input file into $T)
#   command sh command line; $ZVP is the CLI (absolute path), $T the row's scratch directory,
#           $PY the Python interpreter (with PYTHONPATH and ZVMPERF_LIB set for the package);
#           it runs from the repository root with standard input from /dev/null (pipe into
#           the CLI in the command to test standard input)
#   exit    the expected exit status: N, a list N,M, or !0 (any failure)
#   words   text that must all appear in stdout+stderr (fixed strings, case-insensitive),
#           separated by '|'; '-' for none
# Every field is non-empty ('-' for none), so consecutive TABs never collapse.
ZVP=${1:-build/zvmperf}
TABLE=${2:-tests/bad_input.tsv}
TO=${BAD_INPUT_TIMEOUT:-20}
case $ZVP in /*) ;; *) ZVP=$(pwd)/$ZVP ;; esac
ROOT=$(pwd)/tests/tmp/bad_input
PY=${PYTHON:-/usr/bin/python3}
PYTHONPATH=$(pwd)/python-bindings${PYTHONPATH:+:$PYTHONPATH}
ZVMPERF_LIB=${ZVMPERF_LIB:-$(dirname "$ZVP")/libzvmperf.so}
export ZVP PY PYTHONPATH ZVMPERF_LIB
rm -rf "$ROOT"
mkdir -p "$ROOT"
. "$(dirname "$0")/lib.sh"
pending=0; nowpass=""; ids=" "
tab=$(printf '\t')

# run one row: sets $out and $got
run_row() {
  T=$ROOT/$1
  export T
  rm -rf "$T"; mkdir -p "$T"
  if [ "$2" != "-" ] && ! out=$(sh -c "$2" 2>&1); then got=setup; return; fi
  out=$(timeout "$TO" sh -c "$3" 2>&1 < /dev/null); got=$?
  [ "$got" -eq 124 ] && out="(timed out after $TO s) $out"
}
# 0 when $got and $out are what the row expects; $why says what is wrong
check_row() {
  want=$1; words=$2; why=""
  case $got in setup) why="setup failed: $out"; return 1 ;; esac
  case $want in
    '!0') [ "$got" -ne 0 ] || why="exit 0, expected a failure" ;;
    *) case ",$want," in *",$got,"*) ;; *) why="exit $got, expected $want" ;; esac ;;
  esac
  if [ -z "$why" ] && [ "$words" != "-" ]; then
    rest=$words
    while [ -n "$rest" ]; do
      w=${rest%%|*}
      case $rest in *'|'*) rest=${rest#*|} ;; *) rest="" ;; esac
      printf '%s' "$out" | grep -qiF -- "$w" || { why="output lacks '$w'"; break; }
    done
  fi
  [ -z "$why" ]
}

while IFS="$tab" read -r id state setup cmd want words extra; do
  case $id in ''|'#'*) continue ;; esac
  if [ -z "$words" ] || [ -n "$extra" ]; then bad "$TABLE: row '$id' does not have 6 TAB-separated fields"; continue; fi
  case $ids in *" $id "*) bad "$TABLE: id '$id' is used twice"; continue ;; esac
  ids="$ids$id "
  if [ -n "$BAD_INPUT_ONLY" ]; then
    [ "$id" = "$BAD_INPUT_ONLY" ] || continue
    run_row "$id" "$setup" "$cmd"
    printf '%s\n' "$out"
    if check_row "$want" "$words"; then ok; else bad "$id ($state): $why"; fi
    continue
  fi
  case $state in
    on) ;;
    pending:?*)
      pending=$((pending + 1))
      if [ -z "$BAD_INPUT_ALL" ]; then
        echo "pending ($state): $id - expects exit $want, '$words'"; continue
      fi
      run_row "$id" "$setup" "$cmd"
      if check_row "$want" "$words"; then nowpass="$nowpass $id"; echo "pending ($state): $id passes now"
      else echo "pending ($state): $id - $why"; fi
      continue ;;
    *) bad "$TABLE: row '$id' has state '$state' (on or pending:<helper>)"; continue ;;
  esac
  run_row "$id" "$setup" "$cmd"
  if check_row "$want" "$words"; then ok; else bad "$id: $why; command: $cmd; output: $(printf '%s' "$out" | head -c 600)"; fi
done < "$TABLE"

[ -n "$nowpass" ] && echo "pending rows that pass now (set their state to 'on'):$nowpass"
echo "bad_input: $pass passed, $fail failed, $pending pending"
[ "$fail" -eq 0 ]
