# tests/lib.sh - helpers shared by the end-to-end scripts (cli_test.sh, solve_test.sh).
# Source it with: . "$(dirname "$0")/lib.sh"
# It sets the counters pass and fail to 0; each script prints its own summary line.
pass=0; fail=0
ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect STATUS PATTERN -- command...: exit status and a pattern in stdout+stderr
expect() {
  want=$1; pat=$2; shift 3
  out=$("$@" 2>&1); got=$?
  if [ "$got" -ne "$want" ]; then bad "$* -> exit $got, expected $want: $out"; return; fi
  if [ -n "$pat" ] && ! printf '%s' "$out" | grep -q -- "$pat"; then
    bad "$* -> output lacks '$pat': $out"; return; fi
  ok
}
