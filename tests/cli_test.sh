#!/bin/sh
# tests/cli_test.sh - end-to-end checks of the zvmperf CLI: exit statuses, messages, JSON,
# and a small sweep read back with h5py. Usage: sh tests/cli_test.sh build/zvmperf
ZVP=${1:-build/zvmperf}
PY=${PYTHON:-/usr/bin/python3}
T=tests/tmp/cli
mkdir -p "$T"
# pass/fail counters, ok, bad, expect
. "$(dirname "$0")/lib.sh"

expect 0 "zvmperf" -- "$ZVP" version
expect 0 "sweetspot" -- "$ZVP" models
expect 0 "avail_spin_busy_pct" -- "$ZVP" models sweetspot
expect 2 "nosuch" -- "$ZVP" models nosuch
expect 2 "usage" -- "$ZVP"
expect 2 "unknown command" -- "$ZVP" frobnicate
expect 0 "etr" -- "$ZVP" eval sweetspot
# bad input: the message names the parameter, its value and the allowed range
expect 2 "cpus = -1.*\[1, 4096\]" -- "$ZVP" eval sweetspot cpus=-1
expect 2 "storage_gb = nan" -- "$ZVP" eval sweetspot storage_gb=nan
expect 2 "bogus" -- "$ZVP" eval sweetspot bogus=1
expect 2 "not a number" -- "$ZVP" eval sweetspot cpus=abc
expect 1 "missing.ini" -- "$ZVP" eval "$T/missing.ini"
printf '[model]\nname = sweetspot\n[parameters]\nbroken line\n' > "$T/bad.ini"
expect 2 "bad.ini:4" -- "$ZVP" eval "$T/bad.ini"
# a key given twice, a repeated override, a directory, a misspelt model name
printf '[model]\nname = sweetspot\n[parameters]\nstorage_gb = 512\nstorage_gb = 1024\n' > "$T/dup.ini"
expect 2 "storage_gb is given twice" -- "$ZVP" eval "$T/dup.ini"
printf '[model]\nname = sweetspot\nname = mmc\n' > "$T/dupname.ini"
expect 2 "name is given twice" -- "$ZVP" eval "$T/dupname.ini"
expect 2 "cpus is given twice" -- "$ZVP" eval sweetspot cpus=8 cpus=16
mkdir -p "$T/dir.ini"
expect 1 "directory" -- "$ZVP" eval "$T/dir.ini"
expect 2 "neither a model file nor a registered model" -- "$ZVP" eval sweetspt
# --json on bad input is still one object; hex, repeated and unknown options refused
out=$("$ZVP" eval mmc servers=2.5 --json 2>/dev/null); rc=$?
if [ "$rc" -eq 2 ] && printf '%s' "$out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); assert d["status"]=="error" and "servers = 2.5" in d["message"]'; then ok; else bad "eval --json on bad input: $out"; fi
expect 2 "is not a number" -- "$ZVP" eval mmc arrival_rate_per_s=0x10
expect 2 "given twice" -- "$ZVP" eval mmc --json --json
expect 2 "unknown option '--bogus'" -- "$ZVP" eval mmc --bogus
expect 2 "unknown or repeated argument '--bogus'" -- "$ZVP" models --bogus
expect 2 "takes no argument" -- "$ZVP" version extra
expect 2 "option -o is given twice" -- "$ZVP" sweep mmc --axis servers=1,2 -o "$T/a.h5" -o "$T/b.h5"
expect 2 "'servers': value 1.5 is not a whole number; servers must be whole" -- "$ZVP" sweep mmc --axis servers=1.5,2.5 -o "$T/s.h5"
# no steady state: M/M/1 with lambda = mu
expect 3 "" -- "$ZVP" eval mmc arrival_rate_per_s=1 service_rate_per_s=1
# JSON: one object, outputs with value and unit, status ok
if "$ZVP" eval sweetspot --json > "$T/e.json" 2>"$T/e.err" && "$PY" - "$T/e.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "ok", d
o = d["outputs"]
for k in ("etr", "itr", "busy_per_cpu_pct", "spin_busy_pct", "avail_spin_busy_pct", "cm1_priming_s",
          "cm2_priming_s", "cm3_priming_s", "cm4_priming_s", "logoff_s"):
    assert isinstance(o[k]["value"], float) and o[k]["unit"], k
assert abs(o["itr"]["value"] - o["etr"]["value"] / (o["busy_per_cpu_pct"]["value"] / 100)) < 1e-9 * o["itr"]["value"]
PYEOF
then ok; else bad "eval --json"; fi
# M/M/1 closed form through the CLI: lambda = 0.5, mu = 1: L = rho/(1-rho) = 1, R = 1/(mu-lambda) = 2
if "$ZVP" eval mmc arrival_rate_per_s=0.5 service_rate_per_s=1 --json > "$T/m.json" && "$PY" - "$T/m.json" <<'PYEOF'
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
assert abs(o["mean_in_system"]["value"] - 1.0) < 1e-12
assert abs(o["response_s"]["value"] - 2.0) < 1e-12
PYEOF
then ok; else bad "eval mmc closed form"; fi
# sweep: bad axis, unknown axis, then a small sweep read back
expect 2 "" -- "$ZVP" sweep sweetspot --axis cpus=8:4:1 -o "$T/s.h5"
expect 2 "nosuch" -- "$ZVP" sweep sweetspot --axis nosuch=1,2 -o "$T/s.h5"
expect 2 "" -- "$ZVP" sweep sweetspot --axis cpus=8,16 -o "$T/s.h5" --threads -3
expect 2 "both swept" -- "$ZVP" sweep mmc --axis servers=1,2 servers=3 -o "$T/s.h5"
expect 2 "at most 1000000000 points" -- "$ZVP" sweep mmc --axis arrival_rate_per_s=0:1:0.000001 --axis service_rate_per_s=1:1000000:1 -o "$T/big.h5"
[ ! -e "$T/big.h5" ] && ok || bad "a rejected sweep left a file behind"
expect 2 "value 0 is out of range" -- "$ZVP" sweep mmc --axis servers=0,1 -o "$T/s.h5"
expect 2 "'cpus': value 1.5 is not a whole number" -- "$ZVP" sweep sweetspot --axis cpus=1.5:10:1 -o "$T/s.h5"
expect 0 "points" -- "$ZVP" sweep sweetspot --axis storage_gb=256:1024:256 --axis cpus=16,64 -o "$T/s.h5" --threads 2
if "$PY" - "$T/s.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
assert f.attrs["model"] in (b"sweetspot", "sweetspot")
assert list(f["storage_gb"][:]) == [256, 512, 768, 1024]
assert list(f["cpus"][:]) == [16, 64]
etr = f["etr"]
assert etr.shape == (4, 2) and etr.attrs["units"] in (b"kpages/s", "kpages/s")
assert (f["status"][:] == 1).all()
assert np.isfinite(etr[:]).all()
PYEOF
then ok; else bad "sweep file contents"; fi

# ---- conventions (issue 8): help, version, getopt_long forms, --, repeats, stdin -------------
# --help, -h, help COMMAND: stdout, exit 0, for every command; --version and --help at the top
for c in models eval sweep calibrate solve version help; do
  out=$("$ZVP" "$c" --help 2>/dev/null); st=$?
  if [ "$st" -eq 0 ] && printf '%s' "$out" | grep -q "Usage: zvmperf $c"; then ok; else bad "$c --help: exit $st"; fi
  out=$("$ZVP" help "$c" 2>/dev/null); st=$?
  if [ "$st" -eq 0 ] && printf '%s' "$out" | grep -q "Usage: zvmperf $c"; then ok; else bad "help $c: exit $st"; fi
  [ -z "$("$ZVP" "$c" -h 2>&1 >/dev/null)" ] && ok || bad "$c -h writes to stderr"
done
expect 0 "Exit status:" -- "$ZVP" --help
expect 0 "3  no steady state" -- "$ZVP" --help
out=$("$ZVP" --version 2>/dev/null); st=$?
[ "$st" -eq 0 ] && [ "$out" = "zvmperf $("$ZVP" version --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["version"])')" ] && ok || bad "--version: exit $st, '$out'"
expect 2 "unknown command 'nosuch'" -- "$ZVP" help nosuch
# --opt=value and --opt value give the same result; -o and --output are one option
a=$("$ZVP" solve mmc --lambda=1.5 --mu 1 --servers=2 --json); b=$("$ZVP" solve mmc --lambda 1.5 --mu=1 --servers 2 --json)
# (both must be solved: two equal error objects would also compare equal)
[ "$a" = "$b" ] && printf '%s' "$a" | grep -q '"status": "ok"' && ok || bad "--opt=value differs: $a / $b"
expect 0 "2 points" -- "$ZVP" sweep mmc --axis=servers=1,2 --output="$T/o1.h5"
expect 2 "option -o is given twice" -- "$ZVP" sweep mmc --axis servers=1,2 --output "$T/a.h5" -o "$T/b.h5"
expect 2 "option --output is given twice" -- "$ZVP" calibrate calibration/fits/fsio-cid64-20.ini -o "$T/a.ini" --output "$T/b.ini"
expect 2 "option --threads is given twice" -- "$ZVP" sweep mmc --axis servers=1,2 -o "$T/a.h5" --threads 1 --threads=2
expect 2 "option --h5 is given twice" -- "$ZVP" calibrate calibration/fits/fsio-cid64-20.ini --h5 a --h5 b
expect 2 "option --json is given twice" -- "$ZVP" models --json --json
expect 2 "option --axis needs a value" -- "$ZVP" sweep mmc --axis
expect 2 "option --json takes no value" -- "$ZVP" version --json=yes
expect 2 "unknown option '--frob'" -- "$ZVP" sweep mmc --frob 1
expect 2 "unknown option '--frob'" -- "$ZVP" calibrate --frob
expect 2 "unknown option '--frob'" -- "$ZVP" version --frob
# '--' ends the options: after it, '--json' is an argument (here a model name that is not found)
expect 2 "'--json' is neither a model file" -- "$ZVP" eval -- --json
out=$("$ZVP" eval -- mmc servers=2 2>/dev/null); st=$?
[ "$st" -eq 0 ] && printf '%s' "$out" | grep -q "model mmc" && ok || bad "eval -- mmc: exit $st"
expect 2 "version takes no argument ('--json')" -- "$ZVP" version -- --json
# '-' reads the model file from standard input: same figures as the file itself
a=$("$ZVP" eval calibration/params/paging-zvm64.ini --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["outputs"])')
b=$("$ZVP" eval - --json < calibration/params/paging-zvm64.ini | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["outputs"])')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "eval - differs from the file: $a / $b"
printf '[model]\nname = mmc\n[parameters]\nservers = 2\n' | "$ZVP" eval - arrival_rate_per_s=1 service_rate_per_s=1 --json > "$T/stdin.json"
"$PY" -c 'import json,sys; o=json.load(open(sys.argv[1]))["outputs"]; assert abs(o["pwait"]["value"] - 1/3) < 1e-14, o' "$T/stdin.json" && ok || bad "eval - (mmc c=2, a=1: Erlang C = 1/3)"
printf '[model]\nname = mmc\n[parameters]\nbroken line\n' > "$T/bad-stdin.ini"
expect 2 "<stdin>:4" -- sh -c "'$ZVP' eval - < '$T/bad-stdin.ini'"
expect 0 "1 points (1 ok" -- sh -c "printf '[model]\\nname = mmc\\n' | '$ZVP' sweep - --axis servers=1 -o '$T/stdin.h5'"

# ---- --json on every command: one valid JSON object on stdout -----------------------------
json_ok() { # json_ok LABEL command...: stdout parses as one JSON object with a status
  label=$1; shift
  out=$("$@" 2>/dev/null)
  if printf '%s' "$out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); assert isinstance(d, dict) and "status" in d and d["command"]' 2>/dev/null; then ok; else bad "$label: not one JSON object: $out"; fi
}
json_ok models "$ZVP" models --json
json_ok "models NAME" "$ZVP" models mmc --json
json_ok eval "$ZVP" eval mmc --json
json_ok "eval unstable" "$ZVP" eval mmc arrival_rate_per_s=1 service_rate_per_s=1 --json
json_ok "eval error" "$ZVP" eval nosuch --json
json_ok sweep "$ZVP" sweep mmc --axis servers=1,2 -o "$T/j.h5" --json
json_ok "sweep error" "$ZVP" sweep mmc --axis servers=0,1 -o "$T/j.h5" --json
json_ok version "$ZVP" version --json
json_ok help "$ZVP" help --json
json_ok "help eval" "$ZVP" help eval --json
json_ok "solve" "$ZVP" solve mm1 --lambda 1 --mu 2 --json
json_ok "solve error" "$ZVP" solve mm1 --lambda 1 --json
json_ok "usage error" "$ZVP" models --json --bogus
# unstable eval: outputs null, each explained in "nulls", status unstable, exit 3
"$ZVP" eval mmc arrival_rate_per_s=1 service_rate_per_s=1 --json > "$T/u.json" 2>/dev/null; st=$?
if [ "$st" -eq 3 ] && "$PY" - "$T/u.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "unstable" and d["outputs"]["response_s"]["value"] is None
assert d["outputs"]["response_s"]["unit"] == "s"
assert "/outputs/response_s/value" in d["nulls"], d["nulls"]
PYEOF
then ok; else bad "eval --json unstable: exit $st"; fi
# models --json: units on every bound; an unbounded max is null with its reason
if "$ZVP" models mmc --json | "$PY" -c '
import json, sys
d = json.load(sys.stdin); m = d["models"][0]
assert m["name"] == "mmc"
p = {x["name"]: x for x in m["parameters"]}
assert p["service_rate_per_s"]["min"] == {"value": 1e-12, "unit": "1/s"}
assert p["servers"]["integer"] is True and p["servers"]["default"]["value"] == 1
o = {x["name"]: x for x in m["outputs"]}
assert o["response_s"]["max"]["value"] is None and "inf" in d["nulls"]["/models/0/outputs/4/max/value"]
'; then ok; else bad "models --json units / nulls"; fi
# sweep --json: the summary counts (2 x 3 grid, all ok) and the axes with units
if "$ZVP" sweep mmc --axis servers=1,2 --axis arrival_rate_per_s=0.1,0.2,0.3 -o "$T/j.h5" --json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "ok" and d["points"] == 6 and d["ok"] == 6 and d["invalid"] == 0
assert d["seconds"]["unit"] == "s" and d["axes"][1] == {"name": "arrival_rate_per_s", "unit": "1/s", "n_values": 3}
' 2>/dev/null; then ok; else bad "sweep --json summary"; fi
# calibrate --json (fsio: a small fit) writes the files and prints the summary only
if "$ZVP" calibrate calibration/fits/fsio-cid64-20.ini -o "$T/fsio.ini" --json > "$T/cal.json" 2>/dev/null && "$PY" - "$T/cal.json" "$T/fsio.ini" <<'PYEOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "ok" and d["model"] == "fsio" and d["fit"] == "fsio-cid64-20"
assert d["model_file"] == sys.argv[2] and os.path.exists(sys.argv[2]) and os.path.exists(d["report_h5"])
assert d["rows"] >= 1 and d["free"] == len(d["parameters"]) >= 1
for p in d["parameters"]:
    assert set(p["estimate"]) == {"value", "unit"}
assert d["mape_pct"]["unit"] == "%"
PYEOF
then ok; else bad "calibrate --json"; fi

# ---- calibrate: a free parameter that ends on a bound is a warning (exit 0, file written) ----
# M/M/1 response times R = 1/(mu - lambda) (servers = 1) of mu = 1, 5 and 2 at lambda = 0.2,
# 0.5, 0.8: mu = 1 lies below the interval (1.5, 20), mu = 5 above (1.5, 3), mu = 2 inside
B=$T/bound; mkdir -p "$B"
printf 'lambda [1/s], r [s]\n0.2, 1.25\n0.5, 2\n0.8, 5\n' > "$B/mu1.csv"
printf 'lambda [1/s], r [s]\n0.2, 0.2083333333\n0.5, 0.2222222222\n0.8, 0.2380952381\n' > "$B/mu5.csv"
printf 'lambda [1/s], r [s]\n0.2, 0.5555555556\n0.5, 0.6666666667\n0.8, 0.8333333333\n' > "$B/mu2.csv"
bound_fit() { # data, start, lo, hi -> fit file on stdout
  printf '[fit]\nmodel = mmc\ndata = %s\nresidual = relative\n[fixed]\nservers = 1\n[inputs]\narrival_rate_per_s = lambda\n[free]\nservice_rate_per_s = %s, %s, %s\n[match]\nresponse_s = r\n' "$1" "$2" "$3" "$4"
}
bound_fit mu1.csv 1.8 1.5 20 > "$B/low.ini"; bound_fit mu5.csv 2.5 1.5 3 > "$B/high.ini"; bound_fit mu2.csv 1.8 1.5 20 > "$B/inside.ini"
"$ZVP" calibrate "$B/low.ini" -o "$B/low-out.ini" > /dev/null 2> "$B/low.err"; rc=$?
[ "$rc" -eq 0 ] && [ -s "$B/low-out.ini" ] && [ "$(grep -c warning "$B/low.err")" -eq 1 ] &&
  grep -q "calibrate: warning: .*low.ini: free parameter service_rate_per_s = 1\.5[0-9]* 1/s ends at its lower bound 1.5 (\[free\] interval (1.5, 20)).*may be misspecified.*units" "$B/low.err" &&
  ok || bad "fit ending on its lower bound: rc $rc, $(cat "$B/low.err")"
"$ZVP" calibrate "$B/high.ini" -o "$B/high-out.ini" --json > "$B/high.json" 2> "$B/high.err"; rc=$?
[ "$rc" -eq 0 ] && grep -q "service_rate_per_s = \(3\|2\.99999999[0-9]*\) 1/s ends at its upper bound 3 " "$B/high.err" &&
  "$PY" -c 'import json,sys; assert json.load(open(sys.argv[1]))["status"] == "ok"' "$B/high.json" &&
  ok || bad "fit ending on its upper bound (--json): rc $rc, $(cat "$B/high.err")"
"$ZVP" calibrate "$B/inside.ini" -o "$B/inside-out.ini" > /dev/null 2> "$B/inside.err"; rc=$?
mu=$(awk '/^\[/ { sec = $0 } sec == "[parameters]" && $1 == "service_rate_per_s" { print $3 }' "$B/inside-out.ini")
[ "$rc" -eq 0 ] && [ ! -s "$B/inside.err" ] && awk -v m="$mu" 'BEGIN { exit !(m - 2 < 1e-6 && 2 - m < 1e-6) }' &&
  ok || bad "fit inside its bounds warns or misses mu = 2: rc $rc, mu '$mu', $(cat "$B/inside.err")"

# ---- calibrated files by name; the fallback to the defaults is said on stderr ---------------
# a bare NAME finds NAME.ini in ./calibration/params: same figures as the file
a=$("$ZVP" eval calibration/params/sweetspot-zvm64.ini --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["outputs"]["etr"])')
b=$("$ZVP" eval sweetspot-zvm64 --json 2>"$T/n.err" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["outputs"]["etr"])')
[ -n "$a" ] && [ "$a" = "$b" ] && [ ! -s "$T/n.err" ] && ok || bad "eval sweetspot-zvm64 by name: $a / $b"
expect 0 "model sweetspot" -- "$ZVP" eval sweetspot-zvm64.ini
# away from the tree: $ZVMPERF_DATA/params first, else not found
mkdir -p "$T/data/params" "$T/away"
printf '[model]\nname = mmc\n[parameters]\nservers = 3\n' > "$T/data/params/my-mmc.ini"
A=$(cd "$T" && pwd); D=$A/data; Z=$(cd "$(dirname "$ZVP")" && pwd)/$(basename "$ZVP")
out=$(cd "$T/away" && ZVMPERF_DATA="$D" "$Z" eval my-mmc --json 2>/dev/null)
printf '%s' "$out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); assert d["parameters"]["servers"]["value"] == 3 and d["model_file"].endswith("/params/my-mmc.ini")' && ok || bad "ZVMPERF_DATA lookup: $out"
expect 2 "no calibrated file my-mmc.ini is in" -- sh -c "cd '$T/away' && '$Z' eval my-mmc"
# a file in ./calibration/params wins over the registry, $ZVMPERF_DATA over ./calibration
mkdir -p "$T/away/calibration/params"
printf '[model]\nname = mmc\n[parameters]\narrival_rate_per_s = 0.5\nservice_rate_per_s = 1\nservers = 4\n' > "$T/away/calibration/params/mmc.ini"
printf '[model]\nname = mmc\n[parameters]\nservers = 5\n' > "$T/data/params/mmc.ini"
out=$(cd "$T/away" && "$Z" eval mmc --json 2>"$A/w.err")
printf '%s' "$out" | "$PY" -c 'import json,sys; assert json.load(sys.stdin)["parameters"]["servers"]["value"] == 4' && [ ! -s "$A/w.err" ] && ok || bad "./calibration/params lookup: $out"
out=$(cd "$T/away" && ZVMPERF_DATA="$D" "$Z" eval mmc --json 2>/dev/null)
printf '%s' "$out" | "$PY" -c 'import json,sys; assert json.load(sys.stdin)["parameters"]["servers"]["value"] == 5' && ok || bad "ZVMPERF_DATA order: $out"
# the search path is reported by version --json, in that order
out=$(cd "$T/away" && ZVMPERF_DATA="$D" "$Z" version --json)
printf '%s' "$out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); s=d["search_path"]; assert s[0] == sys.argv[1] + "/params" and s[1] == "calibration/params" and s[2] == d["datadir"] + "/params"' "$D" && ok || bad "version --json search path: $out"
# a registered model without a calibrated file: its defaults, and stderr says so
err=$("$ZVP" eval sweetspot 2>&1 >/dev/null)
printf '%s' "$err" | grep -q "uncalibrated default parameters" && ok || bad "no fallback note: '$err'"
err=$("$ZVP" eval calibration/params/sweetspot-zvm64.ini 2>&1 >/dev/null)
[ -z "$err" ] && ok || bad "a model file gives a fallback note: '$err'"
# a model file that leaves parameters out: they keep the model's defaults, said once on stderr
# naming them (eval, sweep, sensitivity); NAME=VALUE and swept axes count as set
printf '[model]\nname = mmc\n[parameters]\nservers = 2\n' > "$T/part.ini"
err=$("$ZVP" eval "$T/part.ini" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$err" | grep -c warning)" -eq 1 ] &&
  printf '%s' "$err" | grep -q "part.ini does not set arrival_rate_per_s, service_rate_per_s: they keep the model's uncalibrated defaults" &&
  ! printf '%s' "$err" | grep -q "servers" && ok || bad "partial model file: rc $rc, '$err'"
err=$("$ZVP" eval "$T/part.ini" arrival_rate_per_s=0.5 --json 2>&1 >/dev/null)
printf '%s' "$err" | grep -q "does not set service_rate_per_s: it keeps the model's uncalibrated default " && ok || bad "partial file + override: '$err'"
err=$("$ZVP" eval "$T/part.ini" arrival_rate_per_s=0.5 service_rate_per_s=2 2>&1 >/dev/null)
[ -z "$err" ] && ok || bad "partial file, every parameter given: '$err'"
err=$("$ZVP" sweep "$T/part.ini" --axis arrival_rate_per_s=0.1,0.2 -o "$T/part.h5" 2>&1 >/dev/null)
printf '%s' "$err" | grep -q "sweep: warning: .*part.ini does not set service_rate_per_s: it keeps" && ok || bad "sweep of a partial file: '$err'"
err=$("$ZVP" sensitivity "$T/part.ini" 2>&1 >/dev/null)
printf '%s' "$err" | grep -q "sensitivity: warning: .*does not set arrival_rate_per_s, service_rate_per_s" && ok || bad "sensitivity of a partial file: '$err'"
err=$("$ZVP" eval - < "$T/part.ini" 2>&1 >/dev/null)
printf '%s' "$err" | grep -q "the model file on standard input does not set" && ok || bad "partial file on stdin: '$err'"
# a truncated calibrated file: at most 8 names, then the count of the others; the count is
# the model's parameters (zvmperf models) less the 8 listed and those the truncated text sets
head -c 700 calibration/params/sweetspot-zvm64.ini > "$T/trunc.ini"
n_all=$("$ZVP" models sweetspot | sed -n '/^  parameters:/,/^  outputs:/p' | grep -c '^    [a-z]')
n_set=$(sed -n '/^\[parameters\]/,$p' "$T/trunc.ini" | grep -c '^[a-z_]* = ')
err=$("$ZVP" eval "$T/trunc.ini" 2>&1 >/dev/null)
printf '%s' "$err" | grep -q "trunc.ini does not set lock_zones, .* and $((n_all - n_set - 8)) more: they keep" && ok || bad "truncated file ($n_all parameters, $n_set set): '$err'"
# every calibrated file sets every parameter: no warning (sweetspot-release-zvm64.ini is a
# hand-written base of the 6.4 fits, setting the release parameters only)
for f in calibration/params/*.ini; do
  case $f in */sweetspot-release-zvm64.ini) continue ;; esac
  err=$("$ZVP" eval "$f" 2>&1 >/dev/null)
  [ -z "$err" ] && ok || bad "calibrated file $f warns: '$err'"
done

# ---- solve --json: every kind is valid JSON, figures carry their units ----------------------
for args in "mm1 --lambda 0.5 --mu 1" "mmc --lambda 1 --mu 1 --servers 2" "erlang-b --lambda 5 --mu 1 --servers 10" \
    "mm1k --lambda 2 --mu 2 --capacity 9" "mmck --lambda 4 --mu 1.5 --servers 3 --capacity 7" "mminf --lambda 1 --service 2" \
    "repairman --sources 4 --think 2 --service 1 --servers 2" "open --lambda 1,2 --demands 0.1,0.2;0.3,0.05" \
    "mva --users 4 --think 2 --demands 1,0.5 --station-servers 2,inf" "mva-multi --users 3,2 --think 3,1 --demands 0.5,0.3;0.2,0.7" \
    "bounds --users 10 --think 5 --demands 0.4,0.2" "usl --gamma 100 --alpha 0.05 --beta 0.0005 --users 10" \
    "usl --data 1:1,2:1.8,4:3"; do
  # shellcheck disable=SC2086
  "$ZVP" solve $args --json > "$T/s.json" 2>/dev/null
  if "$PY" - "$T/s.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "solve" and d["status"] == "ok", d
units = {"X": "1/s", "R": "s", "W": "s", "Q": "1", "U": "1", "Pwait": "1", "Pblock": "1", "Lq": "1",
         "X_upper": "1/s", "R_lower": "s", "D": "s", "N_star": "1", "X_peak": "1/s", "alpha": "1"}
def check(o):
    for k, v in o.items():
        if k in units:
            assert isinstance(v, dict) and v["unit"] == units[k], (k, v)
            assert v["value"] is None or isinstance(v["value"], float), (k, v)
            if v["value"] is None:
                assert any(p.endswith("/" + k + "/value") for p in d["nulls"]), (k, d)
for st in [d] + d.get("stations", []) + d.get("classes", []):
    check(st)
assert any(k in d for k in ("X", "X_upper", "alpha")), d
PYEOF
  then ok; else bad "solve $args --json: $(cat "$T/s.json")"; fi
done
# M/M/1 through the JSON with units: R = 1/(mu - lambda) = 2 s, X = lambda = 0.5 1/s
"$ZVP" solve mm1 --lambda 0.5 --mu 1 --json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["R"] == {"value": 2.0, "unit": "s"} and d["X"] == {"value": 0.5, "unit": "1/s"}
assert d["stations"][0]["R"] == {"value": 2.0, "unit": "s"}' && ok || bad "solve mm1 --json units"
# no residual degree of freedom: the standard errors are null and "nulls" says why
"$ZVP" solve usl --data 1:1,2:1.8,4:3 --json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["alpha_se"]["value"] is None and "degree of freedom" in d["nulls"]["/alpha_se/value"]' && ok || bad "usl se nulls"
# a non-converged approximate solver: exit 1, JSON status says so
"$ZVP" solve mva --users 40 --think 2 --demands 1,0.5 --method schweitzer --max-iterations 1 --json > "$T/nc.json" 2>/dev/null; st=$?
[ "$st" -eq 1 ] && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"] == "not converged" and d["converged"] is False' "$T/nc.json" && ok || bad "mva not converged: exit $st"

# ---- files are never damaged (issue 9, items 1-5) -------------------------------------------
# A copy of two fit trees: fits/, data/, params/ side by side, as in calibration/.
W=$T/tree; rm -rf "$W"; mkdir -p "$W/fits" "$W/data" "$W/params"
cp calibration/fits/sweetspot-zvm63.ini calibration/fits/fsio-cid64-20.ini "$W/fits/"
cp calibration/data/000_table3_sweetspot_zvm63.csv calibration/data/000_table4_sweetspot_zvm64.csv \
   calibration/data/000_table1_sweetspot_config.csv \
   calibration/data/002_fit_fsio.csv "$W/data/"
cp calibration/params/fsio-cid64-20.ini "$W/params/base.ini"
sed 's|^output .*|output   = ../params/fsio.ini\nbase     = ../params/base.ini|' \
    "$W/fits/fsio-cid64-20.ini" > "$W/fits/f.ini"
cp -R "$W/data" "$W/data.orig"; cp "$W/fits/f.ini" "$W/f.orig"; cp "$W/params/base.ini" "$W/base.orig"
notmp() { # no temporary left in the directories given
  left=$(find "$@" -name '.*.tmp' 2>/dev/null)
  [ -z "$left" ] && ok || bad "temporary files left: $left"
}
same_inputs() { # the inputs are byte for byte what they were
  diff -r "$W/data" "$W/data.orig" >/dev/null && cmp -s "$W/fits/f.ini" "$W/f.orig" &&
    cmp -s "$W/params/base.ini" "$W/base.orig" && ok || bad "an input changed: $1"
}
# 1. written whole through a temporary: the fit file's output (../params, its tree) and report
expect 0 "wrote" -- "$ZVP" calibrate "$W/fits/f.ini"
[ -s "$W/params/fsio.ini" ] && [ -s "$W/params/fsio.report.h5" ] && ok || bad "calibrate output"
cp "$W/params/fsio.ini" "$W/fsio.first"
expect 0 "wrote" -- "$ZVP" calibrate "$W/fits/f.ini"   # replaces: same parameters again
grep -v '^fitted_at' "$W/params/fsio.ini" > "$W/a.txt"; grep -v '^fitted_at' "$W/fsio.first" > "$W/b.txt"
cmp -s "$W/a.txt" "$W/b.txt" && ok || bad "second calibrate changed the parameters"
notmp "$W"
# 2. all outputs or none: the report cannot be written, so no model file either
expect 1 "cannot write '/nonexistent/x.h5'" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/new.ini" --h5 /nonexistent/x.h5
[ ! -e "$W/new.ini" ] && ok || bad "calibrate left new.ini after the report failed"
echo "old content" > "$W/keep.ini"
expect 1 "/nonexistent" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/keep.ini" --h5 /nonexistent/x.h5
[ "$(cat "$W/keep.ini")" = "old content" ] && ok || bad "a failed calibrate changed the old model file"
expect 1 "cannot write '/nonexistent/m.ini'" -- "$ZVP" calibrate "$W/fits/f.ini" -o /nonexistent/m.ini --h5 "$W/r.h5"
[ ! -e "$W/r.h5" ] && ok || bad "calibrate left the report after the model file failed"
mkdir -p "$W/adir"
expect 2 "is a directory" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/adir"
notmp "$W"
# 3. an output may not be an input, nor name the same file twice
expect 2 "output model file '$W/fits/f.ini' is the input fit file" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/fits/f.ini"
expect 2 "is the input fit file" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/fits/../fits/./f.ini"
expect 2 "is the input data file '$W/fits/../data/002_fit_fsio.csv'" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/data/002_fit_fsio.csv"
expect 2 "HDF5 report '$W/data/002_fit_fsio.csv' is the input data file" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/o.ini" --h5 "$W/data/002_fit_fsio.csv"
expect 2 "is the input base model file" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/params/base.ini"
ln "$W/data/002_fit_fsio.csv" "$W/hardlink.csv"   # another name, the same inode
expect 2 "is the input data file" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/hardlink.csv"
rm -f "$W/hardlink.csv"
expect 2 "is the input join file" -- "$ZVP" calibrate "$W/fits/sweetspot-zvm63.ini" -o "$W/data/000_table1_sweetspot_config.csv"
expect 2 "outputs model file '$W/x' and HDF5 report '$W/x' are the same file" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/x" --h5 "$W/x"
expect 2 "are the same file" -- "$ZVP" calibrate "$W/fits/f.ini" -o "$W/x" --h5 "$W/../tree/x"
[ ! -e "$W/x" ] && ok || bad "refused calibrate wrote x"
same_inputs "calibrate onto inputs"
cp "$W/params/base.ini" "$W/m.ini"; cp "$W/m.ini" "$W/m.orig"
expect 2 "output HDF5 file (-o) '$W/m.ini' is the input model file '$W/m.ini'" -- "$ZVP" sweep "$W/m.ini" --axis storage_util=0.1,0.2 -o "$W/m.ini"
expect 2 "is the input model file" -- "$ZVP" sweep "$W/m.ini" --axis storage_util=0.1,0.2 -o "$W/./m.ini"
cmp -s "$W/m.ini" "$W/m.orig" && ok || bad "sweep -o onto its model file changed it"
# a fit file's output is resolved against it and stays within its directory's parent
for o in ../../escape.ini /tmp/escape.ini a/../../../escape.ini ../../tree/escape.ini; do
  sed "s|^output .*|output   = $o|" "$W/fits/fsio-cid64-20.ini" > "$W/fits/bad-out.ini"
  expect 2 "output = '$o' leaves the fit file's tree" -- "$ZVP" calibrate "$W/fits/bad-out.ini"
done
[ ! -e "$T/escape.ini" ] && [ ! -e /tmp/escape.ini ] && ok || bad "an output left the fit tree"
sed "s|^output .*|output   = ./../params/in-tree.ini|" "$W/fits/fsio-cid64-20.ini" > "$W/fits/ok-out.ini"
expect 0 "wrote" -- "$ZVP" calibrate "$W/fits/ok-out.ini"
[ -s "$W/params/in-tree.ini" ] && ok || bad "output within the tree not written"
grep -v '^output' "$W/fits/fsio-cid64-20.ini" > "$W/fits/no-out.ini"   # -o writes anywhere
expect 0 "wrote" -- "$ZVP" calibrate "$W/fits/no-out.ini" -o "$T/anywhere.ini"
# 4. disk full (file size limit; SIGXFSZ ignored so write() fails with EFBIG): exit 1 with
# the reason, no crash at HDF5 shutdown, no temporary left, the previous file untouched
echo "previous sweep" > "$W/big.h5"
( trap '' XFSZ; ulimit -f 50; "$ZVP" sweep calibration/params/sweetspot-zvm63.ini \
    --axis storage_gb=256:4096:1 --axis cpus=1:40:1 -o "$W/big.h5" ) > "$W/big.out" 2>&1; st=$?
[ "$st" -eq 1 ] && grep -q "cannot write '$W/big.h5': File too large" "$W/big.out" && ok ||
  bad "sweep under a file size limit: exit $st (139 = crash): $(cat "$W/big.out")"
[ "$(cat "$W/big.h5")" = "previous sweep" ] && ok || bad "a failed sweep changed the previous file"
echo "previous model" > "$W/small.ini"
( trap '' XFSZ; ulimit -f 8; "$ZVP" calibrate "$W/fits/sweetspot-zvm63.ini" -o "$W/small.ini" ) > /dev/null 2> "$W/small.out"; st=$?
[ "$st" -eq 1 ] && grep -q "File too large" "$W/small.out" && ok ||
  bad "calibrate under a file size limit: exit $st: $(tail -2 "$W/small.out")"
[ "$(cat "$W/small.ini")" = "previous model" ] && [ ! -e "$W/small.report.h5" ] && ok ||
  bad "a calibrate that failed on its report changed the model file"
notmp "$W"
# 5. repeated options are refused by every command (never "last wins")
expect 2 "option -o is given twice (first 'a.ini', then 'b.ini')" -- "$ZVP" calibrate "$W/fits/f.ini" -o a.ini -o b.ini
expect 2 "option --h5 is given twice" -- "$ZVP" calibrate "$W/fits/f.ini" --h5 "$W/a.h5" --h5="$W/b.h5"
expect 2 "option --block is given twice" -- "$ZVP" sweep mmc --axis servers=1,2 -o "$W/a.h5" --block 4 --block 8
expect 2 "option --json is given twice" -- "$ZVP" calibrate "$W/fits/f.ini" --json --json
expect 2 "option --json is given twice" -- "$ZVP" version --json --json
expect 2 "calibrate takes one FITFILE" -- "$ZVP" calibrate "$W/fits/f.ini" "$W/fits/f.ini"
[ ! -e a.ini ] && [ ! -e b.ini ] && [ ! -e "$W/a.h5" ] && ok || bad "a refused command wrote a file"

# ---- bad input gets a clear error, fast (issue 9: items 6, 13, 14, 15) ----------------------
I="$T/input"; rm -rf "$I"; mkdir -p "$I"; IA=$(cd "$I" && pwd)
# M/M/1, mu = 2.5/s: R = 1/(mu - lambda) = 0.5, 1, 2, 4 s at lambda = 0.5, 1.5, 2, 2.25/s
printf 'lam [1/s],resp [s]\n0.5,0.5\n1.5,1\n2,2\n2.25,4\n' > "$I/s.csv"
printf 'lam [1/s],resp [ms]\n0.5,500\n1.5,1000\n2,2000\n2.25,4000\n' > "$I/ms.csv"
printf 'lam [1/s],resp [apples]\n0.5,500\n1.5,1000\n' > "$I/apples.csv"
printf 'lam [1/s],resp [s]\n0x10,0.5\n1.5,1\n' > "$I/hex.csv"
printf 'lam [1/s],resp [s]\n0.5,0.5\n1.5,1\0\n' > "$I/nul.csv"
fit() { printf '[fit]\nmodel = mmc\ndata = %s\n[fixed]\nservers = 1\n[inputs]\narrival_rate_per_s = lam\n[free]\nservice_rate_per_s = 5, 0.5, 20\n[match]\nresponse_s = resp\n' "$1"; }
for d in s ms apples hex nul; do fit "$d.csv" > "$I/fit_$d.ini"; done
est() { "$ZVP" calibrate "$1" -o "$2" --json 2>/dev/null | "$PY" -c 'import json,sys; print(repr(json.load(sys.stdin)["parameters"][0]["estimate"]["value"]))'; }
e_s=$(est "$I/fit_s.ini" "$I/o_s.ini"); e_ms=$(est "$I/fit_ms.ini" "$I/o_ms.ini")
if [ -n "$e_s" ] && [ "$e_s" = "$e_ms" ] && "$PY" -c "assert abs($e_s - 2.5) < 1e-6"; then ok; else bad "resp [ms] fits $e_ms, resp [s] fits $e_s (want the same, 2.5)"; fi
expect 2 "unit \[apples\] cannot be converted to \[s\]" -- "$ZVP" calibrate "$I/fit_apples.ini" -o "$I/o.ini"
expect 2 "row 1 of .*'0x10', not a number" -- "$ZVP" calibrate "$I/fit_hex.ini" -o "$I/o.ini"
expect 2 "nul.csv:3: NUL byte" -- "$ZVP" calibrate "$I/fit_nul.ini" -o "$I/o.ini"
# special files: /dev/zero fails naming the limit; a FIFO and process substitution work
fit /dev/zero > "$I/fit_zero.ini"
expect 1 "/dev/zero: input is larger than the limit of 67108864 bytes" -- timeout 30 "$ZVP" calibrate "$I/fit_zero.ini" -o "$I/o.ini"
expect 1 "limit of 67108864 bytes" -- timeout 30 "$ZVP" eval /dev/zero
rm -f "$I/data.fifo" "$I/model.fifo"
if mkfifo "$I/data.fifo" "$I/model.fifo"; then
  fit "$IA/data.fifo" > "$I/fit_fifo.ini"
  (cat "$I/s.csv" > "$I/data.fifo" &)
  expect 0 "service_rate_per_s" -- timeout 30 "$ZVP" calibrate "$I/fit_fifo.ini" -o "$I/o_fifo.ini"
  (cat calibration/params/apache-zvm63.ini > "$I/model.fifo" &)
  expect 0 "model apache" -- timeout 30 "$ZVP" eval "$I/model.fifo"
else bad "mkfifo"; fi
expect 0 "model apache" -- timeout 30 bash -c "'$ZVP' eval <(cat calibration/params/apache-zvm63.ini)"
fit "$IA/s.csv" > "$I/fit_abs.ini"
expect 0 "service_rate_per_s" -- timeout 30 bash -c "'$ZVP' calibrate <(cat '$I/fit_abs.ini') -o '$I/o_ps.ini'"
# hex is refused everywhere: eval overrides, model files, solve options, sweep axes
printf '[model]\nname = mmc\n[parameters]\narrival_rate_per_s = 0x10\n' > "$I/hex.ini"
expect 2 "not a finite decimal number" -- "$ZVP" eval "$I/hex.ini"
expect 2 "is not a number" -- "$ZVP" eval mmc arrival_rate_per_s=0x1p3
expect 2 "is not a number" -- "$ZVP" solve mm1 --lambda 0x10 --mu 100
expect 2 "is not a number" -- "$ZVP" solve mm1 --lambda 0.5 --mu 0X1
expect 2 "not a number" -- "$ZVP" sweep mmc --axis arrival_rate_per_s=0x10:1:3 -o "$I/s.h5"
printf '[fit]\nmodel = mmc\ndata = s.csv\n[fixed]\nservers = 0x1\n[inputs]\narrival_rate_per_s = lam\n[free]\nservice_rate_per_s = 5, 0.5, 20\n[match]\nresponse_s = resp\n' > "$I/fit_hexfixed.ini"
expect 2 "not a number" -- "$ZVP" calibrate "$I/fit_hexfixed.ini" -o "$I/o.ini"
# -0 is printed 0 (text and JSON); a message never repeats itself
out=$("$ZVP" eval mmc arrival_rate_per_s=-0 2>/dev/null)
if [ -n "$out" ] && ! printf '%s' "$out" | grep -q -- ' -0 '; then ok; else bad "eval prints -0: $out"; fi
out=$("$ZVP" eval mmc arrival_rate_per_s=-0 --json 2>/dev/null)
if printf '%s' "$out" | "$PY" -c 'import json,sys,math; d=json.load(sys.stdin); assert all(math.copysign(1, v["value"]) > 0 for v in list(d["outputs"].values()) + list(d["parameters"].values()) if v["value"] == 0)' && ! printf '%s' "$out" | grep -q -- '-0\.0'; then ok; else bad "eval --json prints -0: $out"; fi
out=$("$ZVP" eval mmc arrival_rate_per_s=100 2>&1)
[ "$(printf '%s' "$out" | grep -o 'no steady state' | wc -l)" -eq 1 ] && ok || bad "repeated: $out"
out=$("$ZVP" eval /dev/zero 2>&1)
[ "$(printf '%s' "$out" | grep -o 'input' | wc -l)" -le 2 ] && ok || bad "repeated: $out"
# negative [stderr] refused; provenance with ' ;' reads back (written escaped)
printf '[model]\nname = mmc\n[stderr]\nservers = -1\n' > "$I/negse.ini"
expect 2 "\[stderr\] servers = -1: a standard error is >= 0" -- "$ZVP" eval "$I/negse.ini"
printf '[model]\nname = mmc\n[provenance]\n#x = 1\nnote = a \\; b\n' > "$I/prov.ini"
expect 0 "model mmc" -- "$ZVP" eval "$I/prov.ini"
# load time linear: a 60,000-line model file and a 100,000-column CSV header load
"$PY" -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("[model]\nname = mmc\n[provenance]\n")
    f.writelines("k%d = v%d\n" % (i, i) for i in range(59997))
with open(sys.argv[2], "w") as f:
    f.write(",".join("c%d [ms]" % i for i in range(99998)) + ",lam [1/s],resp [s]\n")
    for lam, r in (("0.5", "0.5"), ("1.5", "1"), ("2", "2"), ("2.25", "4")):
        f.write("1," * 99998 + lam + "," + r + "\n")' "$I/big.ini" "$I/wide.csv"
expect 0 "model mmc" -- timeout 30 "$ZVP" eval "$I/big.ini"
fit wide.csv > "$I/fit_wide.ini"
expect 0 "service_rate_per_s" -- timeout 60 "$ZVP" calibrate "$I/fit_wide.ini" -o "$I/o_wide.ini"


# ---- issue 10: the sweep file is netCDF-4/CF; crash-safe, resumable, locked, with progress ----
S="$T/i10"; rm -rf "$S"; mkdir -p "$S"
expect 0 "6 points" -- "$ZVP" sweep mmc --axis servers=1,2 --axis arrival_rate_per_s=0.5,1,1.5 -o "$S/small.h5"
if ncdump -h "$S/small.h5" > "$S/ncdump.txt" 2>&1 &&
   grep -q "double utilization(servers, arrival_rate_per_s)" "$S/ncdump.txt" &&
   grep -q "ubyte status(servers, arrival_rate_per_s)" "$S/ncdump.txt" &&
   grep -q 'flag_meanings = "not_computed ok no_steady_state invalid_input"' "$S/ncdump.txt" &&
   grep -q ':Conventions = "CF-1.8"' "$S/ncdump.txt"
then ok; else bad "ncdump -h of a sweep file: $(head -c 400 "$S/ncdump.txt")"; fi
if "$PY" - "$S/small.h5" <<'PYEOF'
import sys, xarray
ds = xarray.open_dataset(sys.argv[1], engine="h5netcdf")
assert list(ds.coords) == ["servers", "arrival_rate_per_s"], list(ds.coords)
assert "status" in ds.data_vars and "utilization" in ds.data_vars and "servers" not in ds.data_vars
assert ds["utilization"].dims == ("servers", "arrival_rate_per_s")
assert ds["arrival_rate_per_s"].attrs["units"] == "1/s" and ds["utilization"].attrs["long_name"]
# M/M/c with mu = 1 (the default): utilization = lambda / (c mu)
assert abs(float(ds["utilization"].sel(servers=2, arrival_rate_per_s=1.5)) - 0.75) < 1e-12
assert ds.attrs["Conventions"] == "CF-1.8" and int(ds.attrs["sweep_complete"]) == 1
PYEOF
then ok; else bad "xarray.open_dataset(engine='h5netcdf') of a sweep file"; fi
# the same datasets, bit for bit (attributes such as `created` and `command` may differ)
same_sweep() {
"$PY" - "$1" "$2" <<'PYEOF'
import sys, h5py
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
names = sorted(k for k in a if isinstance(a[k], h5py.Dataset))
assert names == sorted(k for k in b if isinstance(b[k], h5py.Dataset)), names
for k in names:
    x, y = a[k][()], b[k][()]
    assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), k
assert int(b.attrs["sweep_complete"]) == 1 and (b["status"][()] > 0).all()
PYEOF
}
# wait (at most 20 s) until file $1 matches the pattern $2
wait_for() { n=0; until grep -q "$2" "$1" 2>/dev/null || [ $n -ge 400 ]; do sleep 0.05; n=$((n + 1)); done; }
GRID="mmc --axis servers=1:8:1 --axis arrival_rate_per_s=0.0001:6:0.0001 --threads 1" # 8 blocks
"$ZVP" sweep $GRID -o "$S/ref.h5" 2>"$S/ref.err" && ok || bad "reference sweep: $(cat "$S/ref.err")"
grep -q '%' "$S/ref.err" && bad "progress line shown although stderr is not a terminal" || ok
# SIGINT: stops after the current block, exit 130, says how to resume, old file kept
echo "previous sweep" > "$S/int.h5"
"$ZVP" sweep $GRID -o "$S/int.h5" --progress 2>"$S/int.err" & pid=$!
wait_for "$S/int.err" '%'; kill -INT $pid; wait $pid; st=$?
[ $st -eq 130 ] && ok || bad "sweep after SIGINT: exit $st (want 130): $(cat "$S/int.err")"
grep -q -- "--resume" "$S/int.err" && ok || bad "no resume hint after SIGINT: $(cat "$S/int.err")"
[ "$(cat "$S/int.h5")" = "previous sweep" ] && [ -f "$S/int.h5.partial" ] && ok || bad "SIGINT: old file or partial file lost"
expect 0 "resuming" -- "$ZVP" sweep $GRID -o "$S/int.h5" --resume
same_sweep "$S/ref.h5" "$S/int.h5" && ok || bad "resumed after SIGINT differs from the uninterrupted sweep"
[ ! -e "$S/int.h5.partial" ] && ok || bad "partial file left after a complete sweep"
# SIGTERM: exit 143
"$ZVP" sweep $GRID -o "$S/term.h5" --progress 2>"$S/term.err" & pid=$!
wait_for "$S/term.err" '%'; kill -TERM $pid; wait $pid; st=$?
[ $st -eq 143 ] && ok || bad "sweep after SIGTERM: exit $st (want 143): $(cat "$S/term.err")"
# with --json the object gives the same exit status (it said 130 after SIGTERM) and stderr one message
"$ZVP" sweep $GRID -o "$S/tj.h5" --progress --json >"$S/tj.json" 2>"$S/tj.err" & pid=$!
wait_for "$S/tj.err" '%'; kill -TERM $pid; wait $pid; st=$?
[ $st -eq 143 ] && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["exit_status"] == 143 and "SIGTERM" in d["message"], d' "$S/tj.json" &&
   [ "$(grep -c 'error' "$S/tj.err")" -eq 1 ] && ok || bad "sweep --json after SIGTERM: exit $st: $(cat "$S/tj.json") / $(cat "$S/tj.err")"
# a second sweep to the same output fails at once, naming the partial file; the first goes on
"$ZVP" sweep $GRID -o "$S/term.h5" --resume --progress 2>"$S/lock1.err" & pid=$!
wait_for "$S/lock1.err" '%'
expect 1 "another sweep is writing '$S/term.h5.partial'" -- "$ZVP" sweep $GRID -o "$S/term.h5"
wait $pid && ok || bad "the first sweep failed beside a locked-out second one: $(cat "$S/lock1.err")"
same_sweep "$S/ref.h5" "$S/term.h5" && ok || bad "sweep finished beside a locked-out one differs"
# SIGKILL after at least one block: resume completes with the same datasets
"$ZVP" sweep $GRID -o "$S/kill.h5" --progress 2>"$S/kill.err" & pid=$!
wait_for "$S/kill.err" '([1-9][0-9]* of'; kill -KILL $pid; wait $pid
[ -f "$S/kill.h5.partial" ] && [ ! -e "$S/kill.h5" ] && ok || bad "no partial file after SIGKILL"
expect 0 "resuming" -- "$ZVP" sweep $GRID -o "$S/kill.h5" --resume
same_sweep "$S/ref.h5" "$S/kill.h5" && ok || bad "resumed after SIGKILL differs from the uninterrupted sweep"
# a partial file cut short (crash while writing) is detected and the sweep starts again
"$ZVP" sweep $GRID -o "$S/cut.h5" --progress 2>"$S/cut.err" & pid=$!
wait_for "$S/cut.err" '([1-9][0-9]* of'; kill -INT $pid; wait $pid
truncate -s 3000 "$S/cut.h5.partial"
expect 0 "cannot be read.*starting the sweep again" -- "$ZVP" sweep $GRID -o "$S/cut.h5" --resume
same_sweep "$S/ref.h5" "$S/cut.h5" && ok || bad "sweep restarted after a cut partial file differs"
# resume of another sweep is refused, naming the difference
"$ZVP" sweep $GRID -o "$S/other.h5" --progress 2>"$S/other.err" & pid=$!
wait_for "$S/other.err" '%'; kill -INT $pid; wait $pid
expect 2 "fixed parameter service_rate_per_s = 1 there, 2 here" -- "$ZVP" sweep $GRID -o "$S/other.h5" --resume service_rate_per_s=2
expect 2 "axis 'servers' has 8 values there, 9 here" -- "$ZVP" sweep mmc --axis servers=1:9:1 --axis arrival_rate_per_s=0.0001:6:0.0001 -o "$S/other.h5" --resume
expect 0 "replacing the partial file" -- "$ZVP" sweep mmc --axis servers=1,2 -o "$S/other.h5"

# ---- validate and sensitivity (issue 11) ------------------------------------------------------
V=tests/tmp/cli_validate
mkdir -p "$V"
expect 0 "CV MAPE" -- "$ZVP" validate tests/data/fit_mm1_noisy.ini --threads 2
expect 0 "scheme group:runid" -- "$ZVP" validate tests/data/fit_mm1_noisy.ini --scheme group:runid
expect 2 "--scheme nope: must be loo or group:COLUMN" -- "$ZVP" validate tests/data/fit_mm1_noisy.ini --scheme nope
expect 2 "--threads 1.5: must be a whole number in \[0, 1024\]" -- "$ZVP" validate tests/data/fit_mm1_noisy.ini --threads 1.5
expect 2 "no data column 'nosuch'" -- "$ZVP" validate tests/data/fit_mm1_noisy.ini --scheme group:nosuch
expect 2 "validate needs a FITFILE" -- "$ZVP" validate
expect 0 "Usage: zvmperf validate" -- "$ZVP" validate --help
# JSON: the keys the issue names, a row per data row with its data file, a fold per row
if "$ZVP" validate tests/data/fit_mm1_noisy.ini --json > "$V/v.json" 2>/dev/null && "$PY" - "$V/v.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("in_sample_mape_pct", "cv_mape_pct", "dof_effective", "coverage_90_pct", "scheme",
          "folds", "outputs", "rows", "worst_cell", "knife_edges"):
    assert k in d, k
assert d["status"] == "ok" and d["scheme"] == "loo"
assert d["cv_mape_pct"]["value"] > d["in_sample_mape_pct"]["value"]
assert d["cv_mape_pct"]["unit"] == "%"
assert len(d["rows"]) == len(d["folds"]) == 6 and all(f["status"] == "ok" for f in d["folds"])
assert all(r["data_file"].endswith("mm1_noisy.csv") and r["id"] for r in d["rows"])
assert d["dof_effective"] == 5 and d["saturated"] is False
PYEOF
then ok; else bad "validate --json: $(cat "$V/v.json")"; fi
# a saturated fit says so (text and JSON); folds that cannot be fitted are listed with their status
printf '[fit]\nmodel = mmc\ndata = %s/tests/data/mm1_noisy.csv\n[fixed]\nservers = 1\n[inputs]\narrival_rate_per_s = arrival_rate_per_s\n[free]\nservice_rate_per_s = 3, 2.3, 20\n[match]\nmean_in_system = mean_in_system\n[dependent]\nn2.mean_in_system = n1.mean_in_system\nn3.mean_in_system = n1.mean_in_system\nn4.mean_in_system = n1.mean_in_system\nn5.mean_in_system = n1.mean_in_system\nn6.mean_in_system = n1.mean_in_system\n' "$(pwd)" > "$V/sat.ini"
expect 0 "saturated: standard errors undefined" -- "$ZVP" calibrate "$V/sat.ini" -o "$V/sat_out.ini"
expect 0 "saturated: standard errors undefined" -- "$ZVP" validate "$V/sat.ini"
if "$ZVP" calibrate "$V/sat.ini" -o "$V/sat_out2.ini" --json 2>/dev/null | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["stderr_note"] == "saturated: standard errors undefined" and d["parameters"][0]["stderr"]["value"] is None'; then ok; else bad "calibrate --json of a saturated fit"; fi
if "$ZVP" validate "$V/sat.ini" --json 2>/dev/null | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["saturated"] is True and d["stderr_note"] == "saturated: standard errors undefined"
assert d["dof_effective"] == 0 and d["independent_cells"] == 1
st = [f["status"] for f in d["folds"]]
assert st[0] == "too_few_cells" and st.count("ok") == 5, st
assert d["coverage"]["with_interval"] == 0 and d["coverage_90_pct"]["value"] is None'; then ok; else bad "validate saturated JSON"; fi
expect 2 "\[dependent\] bogus: not a matched output" -- sh -c "printf '[dependent]\nbogus = 1\n' | cat '$V/sat.ini' - > '$V/bad_dep.ini' && '$ZVP' validate '$V/bad_dep.ini'"
# sensitivity: M/M/1 at rho = 0.8, closed forms rho/(1-rho) = 4 and -1/(1-rho) = -5; knife-edges
expect 0 "knife-edge" -- "$ZVP" sensitivity mmc servers=1 service_rate_per_s=2.5 arrival_rate_per_s=2
if "$ZVP" sensitivity mmc servers=1 service_rate_per_s=2.5 arrival_rate_per_s=2 --json 2>/dev/null | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
e = d["elasticity"]["response_s"]
assert abs(e["arrival_rate_per_s"] - 4) < 1e-5 and abs(e["service_rate_per_s"] + 5) < 1e-5, e
assert e["servers"] is None and "integer" in d["nulls"]["/elasticity/response_s/servers"]
assert abs(d["elasticity"]["utilization"]["arrival_rate_per_s"] - 1) < 1e-8
k = {(x["output"], x["parameter"]) for x in d["knife_edges"]}
assert ("response_s", "arrival_rate_per_s") in k and ("utilization", "arrival_rate_per_s") not in k'; then ok; else bad "sensitivity --json"; fi
expect 3 "no steady state" -- "$ZVP" sensitivity mmc arrival_rate_per_s=5
expect 2 "sensitivity needs a MODEL" -- "$ZVP" sensitivity
expect 0 "elasticity" -- "$ZVP" sensitivity calibration/params/paging-zvm63.ini

# ---- the calibration report .h5 (layout 2, netCDF-4 / CF): h5py, xarray and ncdump open it, and
# it holds what calibrate --json says ----------------------------------------------------------
R=tests/tmp/cli/report
mkdir -p "$R"
"$ZVP" calibrate calibration/fits/sweetspot-zvm63.ini -o "$R/s.ini" --h5 "$R/s.h5" --json > "$R/s.json" 2>/dev/null &&
  ok || bad "calibrate --h5 for the report checks"
if "$PY" - "$R/s.h5" "$R/s.json" <<'PYEOF'
import json, sys, warnings
import h5py, numpy as np
warnings.simplefilter("ignore")
import xarray as xr
d = json.load(open(sys.argv[2]))
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["Conventions"] == "CF-1.8" and f.attrs["release"] == d["release"] == "zvm63"
    assert f["measured"].dims[0][0].name == "/row" and f["measured"].dims[1][0].name == "/output"
    assert f["start_iterations"].dtype.kind == "i" and np.asarray(f.attrs["dof"]).dtype.kind == "i"
ds = xr.open_dataset(sys.argv[1], engine="h5netcdf")
assert {"row", "parameter", "output", "start_number", "label", "input_storage_gb"} <= set(ds.coords)
assert ds.sizes["row"] == d["rows"] and ds.sizes["parameter"] == d["free"]
for p in d["parameters"]:
    e = ds["estimate"].sel(parameter=p["name"])
    assert abs(float(e) - p["estimate"]["value"]) <= 1e-15 * abs(p["estimate"]["value"]), p
    assert str(ds["parameter_units"].sel(parameter=p["name"]).values) == p["estimate"]["unit"]
for o in d["outputs"]:
    assert abs(float(ds["r2"].sel(output=o["name"])) - o["r2"]["value"]) <= 1e-12
assert abs(float(ds.attrs["mape_all_pct"]) - d["mape_pct"]["value"]) <= 1e-12
ds.close()
PYEOF
then ok; else bad "report .h5 read by h5py and xarray"; fi
if command -v ncdump >/dev/null 2>&1; then
  ncdump -h "$R/s.h5" > "$R/s.cdl" 2>&1 && grep -q "double fitted(row, output) ;" "$R/s.cdl" &&
    grep -q "int start_iterations(start_number) ;" "$R/s.cdl" &&
    grep -q "double input_storage_gb(row) ;" "$R/s.cdl" && ok || bad "ncdump -h of the report"
fi
# simulate: the networks of solve simulated, with confidence intervals
expect 0 "analytic 2" -- "$ZVP" simulate mm1 --lambda 0.5 --mu 1 --events 20000 --replications 4
expect 0 "analytic" -- "$ZVP" simulate repairman --sources 8 --think 4 --service 1 --discipline ros --events 20000
expect 0 "station 1" -- "$ZVP" simulate mva --users 5 --think 2 --demands 0.3,0.2,0.5 --station-servers 1,1,inf --scv 1,3,0 --discipline fcfs,ps,fcfs --events 20000
expect 0 "handoff cost" -- "$ZVP" simulate repairman --sources 4 --think 1 --service 1 --handoff 0.1:0.05 --events 20000
expect 2 "does not apply to kind mm1" -- "$ZVP" simulate mm1 --lambda 0.5 --mu 1 --users 3
expect 2 "wrong number of entries" -- "$ZVP" simulate mva --users 5 --demands 0.3,0.2 --scv 1,1,1
expect 2 "fcfs, ros or ps" -- "$ZVP" simulate mm1 --lambda 0.5 --mu 1 --discipline lifo
expect 2 "unknown KIND" -- "$ZVP" simulate usl
expect 3 "utilization" -- "$ZVP" simulate mm1 --lambda 2 --mu 1
expect 0 "spin_busy_pct" -- "$ZVP" simulate spinlock cpus=8 work_us=4 hold_us=1 --events 20000 --replications 4
expect 2 "describes no network" -- "$ZVP" simulate paging --events 20000
expect 0 "avail_spin_busy_pct" -- "$ZVP" simulate sweetspot cpus=8 --events 20000 --replications 4
expect 2 "zones" -- "$ZVP" simulate spinlock zones=0
if j=$("$ZVP" simulate spinlock cpus=8 work_us=4 hold_us=1 --events 20000 --replications 4 --json) &&
   printf '%s' "$j" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["outputs"]["spin_busy_pct"]
assert d["command"] == "simulate" and d["model"] == "spinlock" and d["status"] == "ok"
assert s["ci_lo"] <= s["value"] <= s["ci_hi"] and abs(s["analytic"] - 315.21) < 0.01 and s["unit"] == "%"
assert d["outputs"]["collisions_per_s"]["value"] is None'; then ok; else bad "simulate spinlock --json: $j"; fi
# JSON: value/ci/unit per figure, the analytic value (P-K for M/D/1: R = 1.75), and the same
# numbers on 1 and 2 threads
j1=$("$ZVP" simulate mm1 --lambda 0.6 --service 1 --scv 0 --events 20000 --replications 6 --seed 7 --threads 1 --json)
j2=$("$ZVP" simulate mm1 --lambda 0.6 --service 1 --scv 0 --events 20000 --replications 6 --seed 7 --threads 2 --json)
if printf '%s\n%s\n' "$j1" "$j2" | "$PY" -c '
import json, sys
a, b = (json.loads(l) for l in sys.stdin.read().splitlines())
for d in (a, b):
    for k in ("seconds", "events_per_s"): d.pop(k)
assert a == b, "thread count changes the numbers"
assert set(a["R"]) == {"value", "ci_lo", "ci_hi", "unit"} and a["R"]["unit"] == "s"
assert a["R"]["ci_lo"] <= a["R"]["value"] <= a["R"]["ci_hi"]
assert abs(a["analytic"]["R"]["value"] - 1.75) < 1e-12
assert a["events"] == 120000 and a["replications"] == 6 and a["seed"] == 7
assert abs(a["R"]["value"] - 1.75) < 0.1'; then ok; else bad "simulate --json: $j1"; fi
j=$("$ZVP" simulate open --lambda 0.3,0.2 --demands '1,0.5;0.5,2' --discipline ps --events 20000 --precision 0.05 --replications 4 --json)
if printf '%s' "$j" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
p = d["precision"]
assert p["met"] or p["event_cap_hit"]
assert p["met"] == (p["worst"]["value"] <= 0.05 if isinstance(p["worst"], dict) else p["worst"] <= 0.05)
assert len(d["classes"]) == 2 and len(d["stations"]) == 2 and d["analytic"] is not None'; then ok; else bad "simulate open --json: $j"; fi

# ---- intervals on eval and sweep (issue 11, item 5) ------------------------------------------
IV=$T/iv; mkdir -p "$IV"
CAL=calibration/params/sweetspot-zvm63.ini
expect 0 "90% prediction interval, delta method" -- "$ZVP" eval "$CAL" --interval 0.9
expect 0 "output  *value  *lo  *hi  *unit" -- "$ZVP" eval "$CAL" --interval 0.9
expect 0 "90% confidence interval, Monte Carlo (200 draws, seed 5" -- "$ZVP" eval "$CAL" --interval 0.9 --confidence --method mc --samples 200 --seed 5
# JSON: lo <= value <= hi on every output with bounds; kind says prediction or confidence
for extra in "" "--confidence" "--method mc --samples 200" "--method mc --samples 200 --confidence"; do
  if "$ZVP" eval "$CAL" cpus=48 --interval 0.9 $extra --json > "$IV/e.json" 2>"$IV/e.err" &&
     "$PY" - "$IV/e.json" "$extra" <<'PYEOF'
import json, sys
d, extra = json.load(open(sys.argv[1])), sys.argv[2]
kind = "confidence" if "--confidence" in extra else "prediction"
iv = d["interval"]
assert d["status"] == "ok" and iv["level"] == 0.9 and iv["kind"] == kind, iv
assert iv["method"] == ("mc" if "mc" in extra else "delta"), iv
assert d["parameters"]["cpus"]["value"] == 48
n = 0
for name, o in d["outputs"].items():
    assert set(o) >= {"value", "unit", "lo", "hi", "kind"}, (name, o)
    assert o["kind"].startswith("prediction") or o["kind"].startswith("confidence"), o
    if kind == "confidence":
        assert o["kind"] == "confidence", o
    if isinstance(o["lo"], float) and isinstance(o["hi"], float):
        assert o["lo"] <= o["value"] <= o["hi"], (name, o)
        n += o["lo"] < o["hi"]
assert d["outputs"]["etr"]["kind"] == kind and n >= 5, (d["outputs"]["etr"], n)
PYEOF
  then ok; else bad "eval --interval 0.9 $extra --json: $(cat "$IV/e.err")"; fi
done
# Monte Carlo: the same numbers for a seed on any thread count, other numbers for another seed
# (eval takes its thread count from OMP_NUM_THREADS; it refuses --threads)
a=$(OMP_NUM_THREADS=1 "$ZVP" eval "$CAL" --interval 0.9 --method mc --samples 300 --seed 11 --json 2>&1)
b=$(OMP_NUM_THREADS=2 "$ZVP" eval "$CAL" --interval 0.9 --method mc --samples 300 --seed 11 --json 2>&1)
c=$("$ZVP" eval "$CAL" --interval 0.9 --method mc --samples 300 --seed 12 --json 2>&1)
if [ "$a" = "$b" ] && printf '%s' "$a" | grep -q '"status": "ok"'; then ok; else bad "eval --method mc --seed 11 differs between 1 and 2 threads: $a / $b"; fi
[ "$a" != "$c" ] && ok || bad "eval --method mc: seeds 11 and 12 give the same numbers"
# ranges: sampled by Monte Carlo only; refused with delta naming --method
expect 2 "sampled by --interval LEVEL --method mc only" -- "$ZVP" eval "$CAL" paging_volumes=16..48 --interval 0.9
expect 2 "not by --method delta" -- "$ZVP" eval "$CAL" paging_volumes=16..48 --interval 0.9 --method delta
expect 0 "Monte Carlo" -- "$ZVP" eval "$CAL" paging_volumes=16..48 --interval 0.9 --method mc --samples 100
# a saturated file (no degree of freedom left) has no interval, and says so
expect 2 "intervals are undefined" -- "$ZVP" eval calibration/params/cms-vmesa240.ini --interval 0.9
expect 2 "saturated" -- "$ZVP" eval calibration/params/cms-vmesa240.ini --interval 0.9 --method mc
# sweep --interval: OUT_lo and OUT_hi beside each output, equal to eval --interval at the points
SW="$CAL --axis storage_gb=256,1024 --axis cpus=16,48 --threads 2"
expect 0 "4 ok" -- "$ZVP" sweep $SW --interval 0.9 -o "$IV/d.h5"
"$ZVP" eval "$CAL" storage_gb=256 cpus=16 --interval 0.9 --json > "$IV/p00.json" &&
"$ZVP" eval "$CAL" storage_gb=1024 cpus=48 --interval 0.9 --json > "$IV/p11.json" &&
"$ZVP" sweep $SW --interval 0.9 --method mc --samples 200 --seed 9 -o "$IV/m.h5" >/dev/null &&
"$ZVP" eval "$CAL" storage_gb=256 cpus=16 --interval 0.9 --method mc --samples 200 --seed 9 --json > "$IV/m00.json"
if [ $? -eq 0 ] && "$PY" - "$IV" <<'PYEOF'
import json, sys, h5py, math
d = sys.argv[1]
f = h5py.File(d + "/d.h5", "r")
assert "delta method" in str(f.attrs["interval"]) and "prediction" in str(f.attrs["interval"])
outs = [k for k in json.load(open(d + "/p00.json"))["outputs"]]
for k in outs:
    assert k + "_lo" in f and k + "_hi" in f, k
    assert f[k + "_lo"].shape == f[k].shape == (2, 2), k
def same(a, b):
    return (a is None and math.isnan(b)) or (isinstance(a, float) and a == b)
for (i, j), p in (((0, 0), "p00"), ((1, 1), "p11")):
    o = json.load(open("%s/%s.json" % (d, p)))["outputs"]
    for k in outs:
        assert same(o[k]["value"], float(f[k][i, j])), (p, k)
        assert same(o[k]["lo"], float(f[k + "_lo"][i, j])), (p, k, o[k], f[k + "_lo"][i, j])
        assert same(o[k]["hi"], float(f[k + "_hi"][i, j])), (p, k)
# Monte Carlo: point 0 of the grid is seeded as eval's one point
m, o = h5py.File(d + "/m.h5", "r"), json.load(open(d + "/m00.json"))["outputs"]
assert "Monte Carlo" in str(m.attrs["interval"]) and "seed 9" in str(m.attrs["interval"])
for k in ("etr", "itr", "busy_per_cpu_pct"):
    assert same(o[k]["lo"], float(m[k + "_lo"][0, 0])) and same(o[k]["hi"], float(m[k + "_hi"][0, 0])), k
PYEOF
then ok; else bad "sweep --interval: OUT_lo/OUT_hi or their values differ from eval --interval"; fi
# --resume refuses a partial file written with other interval options, and accepts the same
cp "$IV/d.h5" "$IV/r.h5.partial"
expect 2 "interval" -- "$ZVP" sweep $SW --interval 0.9 --method mc --samples 200 -o "$IV/r.h5" --resume
expect 2 "interval" -- "$ZVP" sweep $SW --interval 0.8 -o "$IV/r.h5" --resume
expect 2 "interval" -- "$ZVP" sweep $SW --interval 0.9 --confidence -o "$IV/r.h5" --resume
expect 2 "written with --interval, this sweep runs without" -- "$ZVP" sweep $SW -o "$IV/r.h5" --resume
expect 0 "resuming" -- "$ZVP" sweep $SW --interval 0.9 -o "$IV/r.h5" --resume
same_sweep "$IV/d.h5" "$IV/r.h5" && ok || bad "resume with the same interval options differs"
cp "$IV/m.h5" "$IV/s.h5.partial"
expect 2 "seed 9.*seed 10" -- "$ZVP" sweep $SW --interval 0.9 --method mc --samples 200 --seed 10 -o "$IV/s.h5" --resume
expect 2 "200 draws.*300 draws" -- "$ZVP" sweep $SW --interval 0.9 --method mc --samples 300 --seed 9 -o "$IV/s.h5" --resume
"$ZVP" sweep $SW -o "$IV/v.h5" >/dev/null && cp "$IV/v.h5" "$IV/w.h5.partial"
expect 2 "written without --interval, this sweep runs with" -- "$ZVP" sweep $SW --interval 0.9 -o "$IV/w.h5" --resume
# --method mc stores stable_draw_share: at status 1 and 2, 1 - eval --json's
# no_steady_state_share with the same seed at the same point index (eval's one point is index
# 0: the grid's first point); NaN bounds kept at status 2; delta sweeps have no such variable.
# The paging page-out capacity is about 178000 pages/s: at 178000 some draws have no steady
# state (stable centre), at 180000 some have one (unstable centre)
PGF="calibration/params/paging-zvm64.ini --interval 0.9"; PGA="$PGF --samples 200 --seed 9"
if "$ZVP" sweep $PGA --method mc --axis pageout_rate_per_s=178000,170000,180000,190000 -o "$IV/share1.h5" >/dev/null 2>&1 &&
   "$ZVP" sweep $PGA --method mc --axis pageout_rate_per_s=180000,170000 -o "$IV/share2.h5" >/dev/null 2>&1 &&
   "$ZVP" sweep $PGF --axis pageout_rate_per_s=178000,170000 -o "$IV/share_delta.h5" >/dev/null 2>&1 &&
   { "$ZVP" eval $PGA --method mc pageout_rate_per_s=178000 --json > "$IV/share1.json" 2>/dev/null
     "$ZVP" eval $PGA --method mc pageout_rate_per_s=180000 --json > "$IV/share2.json" 2>/dev/null; true; } &&
   "$PY" - "$IV" <<'PYEOF'
import sys, json, h5py, numpy as np
d = sys.argv[1]
for n, want_status in ((1, 1), (2, 2)):
    f = h5py.File("%s/share%d.h5" % (d, n), "r")
    s, st = f["stable_draw_share"][()], f["status"][()]
    a = f["stable_draw_share"].attrs
    assert a["units"] in (b"1", "1") and "steady state" in str(a["long_name"]), dict(a)
    e = json.load(open("%s/share%d.json" % (d, n)))["interval"]
    assert st[0] == want_status and abs(s[0] - (1.0 - e["no_steady_state_share"])) < 1e-15, (s, e)
    assert 0 < s[0] < 1 and e["stable_draws"] == round(200 * s[0]), (s, e)
    assert np.isnan(s[(st != 1) & (st != 2)]).all() and ((s >= 0) & (s <= 1) | np.isnan(s)).all()
    for k in f:
        if k.endswith("_lo") or k.endswith("_hi"):
            assert np.isnan(f[k][()][st == 2]).all(), k
assert "stable_draw_share" not in h5py.File(d + "/share_delta.h5", "r")
PYEOF
then ok; else bad "sweep --method mc: stable_draw_share missing or not eval's share of stable draws"; fi

# bash completion: the interval options of eval and sweep, and their --method values
# comp CWORD WORD...: the completions of word CWORD of the command line WORD...
comp() { bash -c '. src/cli/zvmperf.bash-completion; COMP_CWORD=$1; shift; COMP_WORDS=("$@"); _zvmperf; echo "${COMPREPLY[*]}"' _ "$@"; }
if command -v bash >/dev/null 2>&1; then
  # has_all "LIST" WORD...: every WORD is a word of LIST
  has_all() { l=" $1 "; shift; for w in "$@"; do case $l in *" $w "*) ;; *) return 1 ;; esac; done; }
  has_all "$(comp 3 zvmperf eval x --)" --interval --method --samples --seed --confidence &&
    ok || bad "completion of eval options: $(comp 3 zvmperf eval x --)"
  has_all "$(comp 3 zvmperf sweep x --)" --interval --method --samples --seed --confidence --resume \
    --progress --no-progress && ok || bad "completion of sweep options: $(comp 3 zvmperf sweep x --)"
  [ "$(comp 4 zvmperf eval x --method '')" = "delta mc" ] && ok || bad "completion of eval --method: $(comp 4 zvmperf eval x --method '')"
  [ "$(comp 4 zvmperf sweep x --method m)" = "mc" ] && ok || bad "completion of sweep --method m"
  [ "$(comp 4 zvmperf solve mva --method '')" = "exact schweitzer bard" ] && ok || bad "completion of solve --method: $(comp 4 zvmperf solve mva --method '')"
fi

# ---- claims (src/cli/claims.c; fixtures tests/data/claims/: values by hand in their comments)
CD=tests/data/claims
expect 0 "claims: 4 evaluated, 4 passed, 0 failed (1 fitted, 3 predicted, 0 identities; 3 model files)" -- "$ZVP" claims $CD/pass.csv
# kind identity (met by construction): counted apart, selectable, never a prediction
expect 0 "claims: 2 evaluated, 2 passed, 0 failed (0 fitted, 1 predicted, 1 identities; 1 model files)" -- "$ZVP" claims $CD/identity.csv
expect 0 "claims: 1 evaluated, 1 passed, 0 failed (0 fitted, 0 predicted, 1 identities" -- "$ZVP" claims $CD/identity.csv --kind identity
expect 0 "PASS  903-self .*identity" -- "$ZVP" claims $CD/identity.csv
expect 0 "PASS  900-mm2-response" -- "$ZVP" claims $CD/pass.csv
expect 0 "warning: 'repairman' is the registered model with its uncalibrated default" -- "$ZVP" claims $CD/pass.csv
expect 4 "FAIL  901-wrong" -- "$ZVP" claims $CD/fail.csv
expect 4 "fail.csv:4: |lhs - rhs| = |1.33333 - 1.5| = 0.166667 > tolerance 0.075" -- "$ZVP" claims $CD/fail.csv
expect 4 "fail.csv:5: lhs: .*no steady state" -- "$ZVP" claims $CD/fail.csv
expect 4 "2 of 3 claims fail" -- "$ZVP" claims $CD/fail.csv
expect 0 "1 evaluated, 1 passed" -- "$ZVP" claims $CD/fail.csv --id 901-holds
expect 0 "2 evaluated, 2 passed, 0 failed (1 fitted, 1 predicted" -- "$ZVP" claims $CD/fail.csv $CD/pass.csv --id 901-holds --id=900-ratio
expect 0 "1 fitted, 0 predicted" -- "$ZVP" claims $CD/fail.csv --kind fitted
expect 4 "0 fitted, 2 predicted" -- "$ZVP" claims $CD/fail.csv --kind predicted
expect 2 "kind 'measured' is not allowed (fitted, predicted or identity)" -- "$ZVP" claims $CD/pass.csv --kind measured
expect 2 "no claim with id '999-x'" -- "$ZVP" claims $CD/pass.csv --id 999-x
expect 2 "dup.csv:3: claim 900-mm2-response: duplicate id (also $CD/pass.csv:5" -- "$ZVP" claims $CD/pass.csv $CD/dup.csv
expect 2 "at least one FILE" -- "$ZVP" claims
expect 1 "missing.csv" -- "$ZVP" claims $T/missing.csv
expect 0 "Usage: zvmperf claims FILE" -- "$ZVP" claims --help
expect 0 "a check failed: a claim does not hold" -- "$ZVP" help claims
printf '%s\n' "$(sed -n 's/^\(id,.*\)/\1/p' $CD/pass.csv)" '902-a,fitted,t,s,mmc:response_s[servers=0],<,1,' > "$T/range.csv"
expect 2 "range.csv:2: claim 902-a: lhs: .*servers = 0 is out of range" -- "$ZVP" claims "$T/range.csv"
# (the claims file on stdin through a file: `expect` in a pipeline runs in a subshell, whose
# pass/fail count would be lost)
printf 'id,kind,source,statement,lhs,relation,rhs,tolerance\n902-b,fitted,t,s,1,~,2,\n' > "$T/tol_stdin.csv"
expect 2 "<stdin>:2: claim 902-b: relation '~' needs a tolerance" -- sh -c '"$1" claims - < "$2"' sh "$ZVP" "$T/tol_stdin.csv"
# a term's override beyond the double range: named as the CLI's NAME=VALUE names it
printf 'id,kind,source,statement,lhs,relation,rhs,tolerance\n902-c,predicted,t,s,mmc:response_s[arrival_rate_per_s=1e-400],<,1,\n902-d,predicted,t,s,1,<,mmc:response_s[arrival_rate_per_s=1e400],\n' > "$T/range_under.csv"
expect 2 "range_under.csv:2: claim 902-c: lhs: '1e-400' at column 35 is too small to represent (underflow)" -- "$ZVP" claims "$T/range_under.csv"
sed '2d' "$T/range_under.csv" > "$T/range_over.csv"
expect 2 "range_over.csv:2: claim 902-d: rhs: '1e400' at column 35 is too large to represent (overflow)" -- "$ZVP" claims "$T/range_over.csv"
# --json: one object; claims with id, kind, pass, values; the summary; exit 4 when one fails
out=$("$ZVP" claims $CD/fail.csv $CD/pass.csv --json 2>/dev/null); rc=$?
if [ "$rc" -eq 4 ] && printf '%s' "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["command"] == "claims" and d["status"] == "failed", d
c = {x["id"]: x for x in d["claims"]}
assert len(c) == 7 and d["summary"] == {"claims": 7, "passed": 5, "failed": 2, "fitted": 2, "predicted": 5, "identity": 0, "models": 3}, d["summary"]
assert c["900-mm2-response"]["pass"] is True and abs(c["900-mm2-response"]["lhs"]["value"] - 4 / 3) < 1e-12
assert c["901-wrong"]["pass"] is False and c["901-wrong"]["tolerance"] == "5%" and abs(c["901-wrong"]["tolerance_value"] - 0.075) < 1e-15
assert c["901-unstable"]["lhs"]["value"] is None and "no steady state" in c["901-unstable"]["reason"]
assert "/claims/2/lhs/value" in d["nulls"]
assert c["900-ratio"]["lhs"]["expr"].startswith("mmc:response_s[") and c["900-ratio"]["relation"] == "<" and c["900-ratio"]["tolerance"] is None
'; then ok; else bad "claims --json: exit $rc: $out"; fi
out=$("$ZVP" claims $CD/pass.csv $CD/dup.csv --json 2>/dev/null); rc=$?
if [ "$rc" -eq 2 ] && printf '%s' "$out" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); assert d["status"]=="error" and "duplicate id" in d["message"]'; then ok; else bad "claims --json on bad input: $out"; fi
# the gate of make test-claims (tests/check_claims.py): failing claims and too few predictions fail
"$ZVP" claims $CD/fail.csv --json > "$T/claims_fail.json" 2>/dev/null
"$ZVP" claims $CD/pass.csv --json > "$T/claims_pass.json" 2>/dev/null
expect 1 "FAIL 901-wrong (tests/data/claims/fail.csv:4)" -- "$PY" tests/check_claims.py "$T/claims_fail.json" 0
expect 1 "3 passing predictions, at least 4 required" -- "$PY" tests/check_claims.py "$T/claims_pass.json" 4
expect 0 "4 claims, 4 passed, 0 failed (0 known); 1 fitted, 3 predicted, 0 identities (met by construction, not tests); 3 predictions pass (at least 3 required)" -- "$PY" tests/check_claims.py "$T/claims_pass.json" 3
# an identity never counts as a prediction, and cannot be a known failure
"$ZVP" claims $CD/identity.csv --json > "$T/claims_identity.json" 2>/dev/null
expect 1 "1 passing predictions, at least 2 required" -- "$PY" tests/check_claims.py "$T/claims_identity.json" 2
printf '903-self listed\n' > "$T/known_identity.txt"
expect 1 "identities cannot be known failures .*903-self" -- "$PY" tests/check_claims.py "$T/claims_identity.json" 0 "$T/known_identity.txt"
# known failures: listed ones may fail (and must), unlisted ones may not; a listed id must exist
printf '# id reason\n901-wrong R is 4/3, not 1.5\n901-unstable no steady state\n' > "$T/known.txt"
expect 0 "known 901-wrong" -- "$PY" tests/check_claims.py "$T/claims_fail.json" 0 "$T/known.txt"
printf '901-wrong R is 4/3\n' > "$T/known1.txt"
expect 1 "FAIL 901-unstable" -- "$PY" tests/check_claims.py "$T/claims_fail.json" 0 "$T/known1.txt"
printf '901-holds it holds\n901-wrong x\n901-unstable y\n' > "$T/known2.txt"
expect 1 "known failure 901-holds now passes" -- "$PY" tests/check_claims.py "$T/claims_fail.json" 0 "$T/known2.txt"
printf '901-nosuch x\n' > "$T/known3.txt"
expect 1 "known failure 901-nosuch is not a claim" -- "$PY" tests/check_claims.py "$T/claims_pass.json" 0 "$T/known3.txt"
printf '901-wrong\n' > "$T/known4.txt"
expect 1 "a known failure needs an id and a reason" -- "$PY" tests/check_claims.py "$T/claims_fail.json" 0 "$T/known4.txt"
if command -v bash >/dev/null 2>&1; then
  comp() { bash -c '. src/cli/zvmperf.bash-completion; COMP_CWORD=$1; shift; COMP_WORDS=("$@"); _zvmperf; echo "${COMPREPLY[*]}"' _ "$@"; }
  case " $(comp 1 zvmperf cl) " in *" claims "*) ok ;; *) bad "completion of the claims command" ;; esac
  [ "$(comp 4 zvmperf claims x --kind '')" = "fitted predicted identity" ] && ok || bad "completion of claims --kind: $(comp 4 zvmperf claims x --kind '')"
  [ "$(comp 2 zvmperf claims --)" = "--kind --id --json --help" ] && ok || bad "completion of claims options: $(comp 2 zvmperf claims --)"
fi
# cms (report 004): users at 1 s response with a 90 % interval from the joint fit over the three runs,
# inputs the report does not give as ranges (Monte Carlo); more users than central storage has pages refused
expect 0 "users_at_limit" -- "$ZVP" eval calibration/params/cms-releases.ini --interval 0.9 --method mc --samples 100 xstor_in_us=1..100 server_pages=7700..14400 paging_cpu_us=0..168
expect 2 "users = 200000 leave .* at least 1 page per user" -- "$ZVP" eval calibration/params/cms-vmesa240.ini users=200000
# the same answer as numbers: a real interval (not the degenerate one of a whole-number output),
# the value inside it, and no draw above the closed network's CPU asymptote N <= (limit + think +
# other delay) x cpus / D_cpu = (1 + 9.12 + 0.711) x 2 / 5.172 ms = 4188 users, with other_delay_s
# at three of its standard errors (0.088 s) above the fitted value
if "$ZVP" eval calibration/params/cms-releases.ini --interval 0.9 --method mc --samples 100 xstor_in_us=1..100 server_pages=7700..14400 paging_cpu_us=0..168 --json > "$T/cms_cap.json" && "$PY" - "$T/cms_cap.json" <<'PYEOF'
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]["users_at_limit"]
bound = (1 + 9.12 + 0.711 + 3 * 0.088) * 2 / 5.172e-3
assert o["lo"] < o["value"] <= o["hi"] and o["hi"] - o["lo"] > 50 and o["hi"] <= bound, o
PYEOF
then ok; else bad "cms users_at_limit interval: $(cat "$T/cms_cap.json")"; fi
# the delta method has no interval for a whole-number output (its derivative is 0 almost
# everywhere): null with the reason, never the degenerate [4188, 4188] it once printed
expect 0 "users_at_limit .* nan .* nan .*use --method mc" -- "$ZVP" eval calibration/params/cms-releases.ini --interval 0.9
if "$ZVP" eval calibration/params/cms-releases.ini --interval 0.9 --json > "$T/cms_delta.json" && "$PY" - "$T/cms_delta.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
o = d["outputs"]["users_at_limit"]
assert o["lo"] is None and o["hi"] is None, o
assert "whole-number" in d["nulls"]["/outputs/users_at_limit/lo"], d["nulls"]
# the continuous outputs keep their delta-method intervals
assert any(v["lo"] is not None and v["lo"] < v["hi"] for k, v in d["outputs"].items()
           if k != "users_at_limit"), d["outputs"]
PYEOF
then ok; else bad "cms users_at_limit delta interval: $(cat "$T/cms_delta.json")"; fi
# review: a delta-method sweep says which whole-number outputs have NaN bounds (as eval does),
# and the file holds NaN there; --method mc gives them real bounds and no such note
rm -f "$T/cms_sweep_delta.h5" "$T/cms_sweep_mc.h5"
expect 0 "users_at_limit_lo and users_at_limit_hi are NaN: no delta-method interval.*use --method mc" -- "$ZVP" sweep calibration/params/cms-releases.ini --axis response_limit_s=0.5,1 --interval 0.9 --threads 1 -o "$T/cms_sweep_delta.h5"
if out=$("$ZVP" sweep calibration/params/cms-releases.ini --axis response_limit_s=0.5,1 --interval 0.9 --method mc --samples 50 --threads 1 -o "$T/cms_sweep_mc.h5" 2>&1) && ! printf '%s' "$out" | grep -q "are NaN" && "$PY" - "$T/cms_sweep_delta.h5" "$T/cms_sweep_mc.h5" <<'PYEOF'
import sys, h5py, numpy as np
d, m = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
assert (d["status"][()] == 1).all() and np.isnan(d["users_at_limit_lo"][()]).all(), d["users_at_limit_lo"][()]
lo, v, hi = (m[k][()] for k in ("users_at_limit_lo", "users_at_limit", "users_at_limit_hi"))
assert np.isfinite(lo).all() and (lo <= v).all() and (v <= hi).all() and (hi > lo).all(), (lo, v, hi)
PYEOF
then ok; else bad "cms sweep mc interval of users_at_limit: $out"; fi

# review: a value that is not a finite number names the parameter's range and unit; ranges are
# printed in their shortest exact form (1e-06, not 9.9999999999999995e-07)
expect 2 "parameter hold_us = 1e400 is too large to represent (overflow) (a finite decimal number in \[1e-06, 1000000000\], unit us)" -- "$ZVP" eval spinlock hold_us=1e400
expect 2 "parameter cpus = nan is not a number (a finite decimal number in \[1, 4096\], unit 1)" -- "$ZVP" eval spinlock cpus=nan
expect 2 "parameter hold_us = -1 is out of range \[1e-06, 1000000000\] (unit us)" -- "$ZVP" eval spinlock hold_us=-1
# review: the calibrate summary names the output whose R^2 is the smallest
expect 0 "^summary: .*; R2(min) of mean_in_system" -- "$ZVP" calibrate tests/data/fit_mm1.ini -o "$T/r2min.ini" --h5 "$T/r2min.h5"
# simulate: replications that disagree by more than their mean (rare spin, short runs) warn
# NOT CONVERGED on stderr, the clipped lower bound is 0 and --json counts intervals_clipped
expect 0 "NOT CONVERGED" -- "$ZVP" simulate spinlock cpus=2 work_us=1000 hold_us=1 --events 2000 --replications 5 --seed 12 --threads 1
if j=$("$ZVP" simulate spinlock cpus=2 work_us=1000 hold_us=1 --events 2000 --replications 5 --seed 12 --threads 1 --json 2>/dev/null) &&
   printf '%s' "$j" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
s = d["outputs"]["spin_busy_pct"]
assert d["intervals_clipped"] > 0 and s["ci_lo"] == 0 and s["value"] > 0, d
assert d["outputs_clipped"] >= 1, d
assert d["precision"]["met"] is None, d  # no --precision: nothing was asked to be met
'; then ok; else bad "simulate spinlock clipped --json: $j"; fi
# a model's warning counts its outputs: clipped figures of rarely used zone stations (not
# printed) get a line of their own, with the count --json gives, that says no printed output
# is clipped, and no NOT CONVERGED
if j=$("$ZVP" simulate spinlock cpus=8 work_us=20 hold_us=1 zones=64 zone_skew=1.5 --events 20000 --replications 5 --seed 3 --threads 1 --json 2>"$T/sl64.err") &&
   n=$(printf '%s' "$j" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["outputs_clipped"] == 0 and d["intervals_clipped"] > 0, d
print(d["intervals_clipped"])') &&
   grep -q "$n figure(s) of the simulated network behind the outputs (per station, not printed) have a 95% t-interval that reached below 0 .*no printed output's interval is clipped" "$T/sl64.err" &&
   ! grep -q "NOT CONVERGED" "$T/sl64.err"; then ok; else bad "simulate spinlock 64 zones, station figures clipped: $j $(cat "$T/sl64.err")"; fi

# review: a Monte Carlo prediction interval stays within the output's valid range (the residual
# scatter added to a draw put fsio's dpa_share_pct at 103.67 %, documented as at most 100)
if j=$("$ZVP" eval calibration/params/fsio-cid64-20.ini page_cache_gb=20 io_intensity=0.5 real_memory_gb=23..26 --interval 0.9 --method mc --samples 400 --seed 3 --json 2>/dev/null) &&
   printf '%s' "$j" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
o = d["outputs"]["dpa_share_pct"]
assert o["hi"] is not None and o["hi"] <= 100.0 and o["lo"] <= o["value"] <= o["hi"], o'; then ok; else bad "mc interval within the output range: $j"; fi

# review: the simulator's station limit is named as spinlock's zones, with both ranges
expect 2 "spinlock: zones = 65536 is out of range \[1, 10000\] for the simulator" -- "$ZVP" simulate spinlock cpus=2 hold_us=1 zones=65536

# spinlock flags a collapsed state (256 CPUs, 28 zones, handoff: history decides) and says how long
# a lock started symmetric takes to reach it (none at 32 zones: 1e300, never)
expect 0 "bistable  *1 1 " -- "$ZVP" eval spinlock cpus=256 work_us=45 hold_us=1 zones=28 handoff_us=0.1
expect 0 "bistable  *0 1 " -- "$ZVP" eval spinlock cpus=256 work_us=45 hold_us=1 zones=32 handoff_us=0.1
expect 0 "collapse_time_s  *1e+300 s " -- "$ZVP" eval spinlock cpus=256 work_us=45 hold_us=1 zones=32 handoff_us=0.1
expect 2 "interval_s" -- "$ZVP" eval spinlock interval_s=-1

# review: a Monte Carlo interval whose centre (the middle of the ranges) has no steady state
# gives the bounds of the stable draws, value "unstable", a NOTE with the stable share, exit 3.
# fsio at the file's parameters reads 181406 pages/s x 0.5 ms = 90.7 busy paging volumes (the
# model's message), so of paging_volumes 16..128 (113 whole values) those >= 91 are stable:
# 38/113 = 0.336, +- 0.06 (4 binomial sd of 1000 draws) and the fitted parameters' spread
expect 3 "NOTE: no steady state at the centre (paging_volumes = 72, the middle of 16..128)" -- "$ZVP" eval fsio-cid64-20 paging_volumes=16..128 --interval 0.9 --method mc
expect 3 "fewer than the 100 needed for bounds at level 0.9" -- "$ZVP" eval fsio-cid64-20 paging_volumes=16..128 --interval 0.9 --method mc --samples 100
expect 3 "interval (delta method): no steady state at the point.*paging_volumes = 72" -- "$ZVP" eval fsio-cid64-20 paging_volumes=72 --interval 0.9
# (eval has no --threads: the thread count is OMP_NUM_THREADS; the same bits on 1 and 2)
if a=$(OMP_NUM_THREADS=1 "$ZVP" eval fsio-cid64-20 paging_volumes=16..128 --interval 0.9 --method mc --json 2>/dev/null); [ $? -eq 3 ] &&
   b=$(OMP_NUM_THREADS=2 "$ZVP" eval fsio-cid64-20 paging_volumes=16..128 --interval 0.9 --method mc --json 2>/dev/null); [ "$a" = "$b" ] &&
   printf '%s' "$a" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
iv, o = d["interval"], d["outputs"]["paging_util_pct"]
share = 1 - iv["no_steady_state_share"]
assert d["status"] == "unstable" and d["exit_status"] == 3, d
assert 0.25 <= share <= 0.42 and iv["stable_draws"] == round(share * 1000), iv
assert iv["min_stable_draws_unstable_centre"] == 100 and "note" in iv, iv
assert o["value"] is None and "/outputs/paging_util_pct/value" in d["nulls"], o
assert o["lo"] is not None and o["lo"] <= o["hi"] < 100, o'; then ok; else bad "eval mc unstable centre --json: $a"; fi
# sweep: a point whose centre has no steady state keeps status 2 with NaN value and bounds
# (the file keeps no share of draws); the stable point has its bounds
rm -f "$T/ivu.h5"
if e=$("$ZVP" sweep fsio-cid64-20 --axis paging_volumes=72,128 --interval 0.9 --method mc --samples 200 -o "$T/ivu.h5" 2>&1 >/dev/null) &&
   printf '%s' "$e" | grep -q "note: the 1 point(s) without a steady state (status 2) have NaN bounds" &&
   "$PY" - "$T/ivu.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
s, lo, hi = f["status"][:], f["paging_util_pct_lo"][:], f["paging_util_pct_hi"][:]
assert list(s) == [2, 1], s
assert np.isnan(f["paging_util_pct"][0]) and np.isnan(lo[0]) and np.isnan(hi[0]), (lo, hi)
assert lo[1] <= f["paging_util_pct"][1] <= hi[1], (lo, hi)
PYEOF
then ok; else bad "sweep mc unstable centre: status 2, NaN bounds, a note: $e"; fi

# review: cms with no users is refused (per-user storage is undefined); a users_at_limit search
# that meets an invalid user count names it
expect 2 "users = 0 is out of range \[1, 1000000\]" -- "$ZVP" eval cms-vmesa240 users=0
expect 2 "users_at_limit (the most users with response <= 1 s) evaluates users = [0-9]* on its way" -- "$ZVP" eval cms-vmesa240 cpu_ms_per_cmd=0.5 paging_cpu_us=1000 page_ins_ref=6.6

# a whole-number output's Monte Carlo bounds are whole (cms users_at_limit; was 4185.05)
if j=$("$ZVP" eval cms-releases --interval 0.9 --method mc --samples 200 --json 2>/dev/null) &&
   printf '%s' "$j" | "$PY" -c 'import json,sys
o = json.load(sys.stdin)["outputs"]["users_at_limit"]
assert o["lo"] == int(o["lo"]) and o["hi"] == int(o["hi"]) and o["lo"] < o["hi"], o'; then ok; else bad "mc bounds of users_at_limit not whole: $j"; fi
# --- clifix (review 4): F14 the command column of --help leaves two spaces after every name
# (help2man makes one man-page paragraph per row only then)
h=$("$ZVP" --help | sed -n '/^Commands:/,/^$/p' | sed '1d;$d')
if [ "$(printf '%s\n' "$h" | wc -l)" -ge 11 ] && ! printf '%s\n' "$h" | grep -qvE '^  [a-z]+  +[a-z(]' &&
   [ "$(printf '%s\n' "$h" | awk '{ match($0, /^  [a-z]+ +/); print RLENGTH }' | sort -u | wc -l)" -eq 1 ]; then ok
else bad "--help command column: $h"; fi
# every command's --help: the option lines of an options section share one description column
# and their continuation lines start at it (eval once had two columns)
for c in "" models eval sweep calibrate validate sensitivity claims solve simulate version help; do
  if "$ZVP" $c --help 2>/dev/null | "$PY" -c '
import re, sys
sec, col, bad = False, None, []
for l in sys.stdin.read().split("\n"):
    if re.match(r"^(\S.*)?[Oo]ptions.*:$", l):
        sec, col = True, None
        continue
    if sec and not l.startswith(" "):
        sec = False
    if not sec:
        continue
    m = re.match(r"^( +-\S*(?: --?\S+)?(?: [A-Z][A-Za-z0-9.]*)?)( {2,})\S", l)
    if m:
        c = len(m.group(1)) + len(m.group(2))
        if col is None:
            col = c
        if c != col:
            bad.append(l)
    elif col is not None and len(l) - len(l.lstrip(" ")) != col:
        bad.append(l)
sys.exit("\n".join(bad) if bad else 0)
'; then ok; else bad "${c:-zvmperf} --help: option descriptions not in one column"; fi
done
# ---- sweepfix (review 4: F1, F2, F11, F13) ----
SF="$T/sweepfix"; mkdir -p "$SF"
# F1: a one-block sweep (the README demo grid is one) stops on SIGINT / SIGTERM mid-block, within
# seconds, exit 130 / 143, the old file kept; --resume ends identical to an uninterrupted sweep
SFGRID="sweetspot --axis storage_gb=256:4096:32 --axis cpus=16:128:4 --axis users_per_phase=64:128:8" # 31581 points
"$ZVP" sweep $SFGRID -o "$SF/ref.h5" --threads 2 >/dev/null 2>&1 && ok || bad "sweepfix: reference sweep"
for sig in INT TERM; do
    echo "previous sweep" > "$SF/$sig.h5"
    "$ZVP" sweep $SFGRID -o "$SF/$sig.h5" --threads 1 --no-progress 2>"$SF/$sig.err" & pid=$!
    sleep 0.5; t0=$(date +%s%N); kill -$sig $pid; wait $pid; st=$?; t1=$(date +%s%N)
    want=130; [ $sig = TERM ] && want=143
    [ $st -eq $want ] && ok || bad "sweepfix: one-block sweep after SIG$sig: exit $st (want $want): $(cat "$SF/$sig.err")"
    [ $(( (t1 - t0) / 1000000 )) -lt 5000 ] && ok || bad "sweepfix: SIG$sig took $(( (t1 - t0) / 1000000 )) ms to stop the sweep"
    [ "$(cat "$SF/$sig.h5")" = "previous sweep" ] && [ -f "$SF/$sig.h5.partial" ] && ok || bad "sweepfix: SIG$sig: old file or partial file lost"
    expect 0 "resuming" -- "$ZVP" sweep $SFGRID -o "$SF/$sig.h5" --threads 2 --resume
    same_sweep "$SF/ref.h5" "$SF/$sig.h5" && ok || bad "sweepfix: resumed after SIG$sig differs from the uninterrupted sweep"
done
# F1 with --interval (slices sized by time, the flag read between them): stopped mid-block, resumed
# to the uninterrupted datasets
SFIV="calibration/params/cms-releases.ini --axis users=1000:5000:100 --interval 0.9 --method mc --samples 20"
"$ZVP" sweep $SFIV -o "$SF/ivref.h5" --threads 2 >/dev/null 2>&1 && ok || bad "sweepfix: interval reference sweep"
"$ZVP" sweep $SFIV -o "$SF/iv.h5" --threads 1 --no-progress 2>"$SF/iv.err" & pid=$!
sleep 1; kill -INT $pid; wait $pid; st=$?
[ $st -eq 130 ] && [ -f "$SF/iv.h5.partial" ] && ok || bad "sweepfix: interval sweep after SIGINT: exit $st: $(cat "$SF/iv.err")"
expect 0 "resuming" -- "$ZVP" sweep $SFIV -o "$SF/iv.h5" --threads 2 --resume
same_sweep "$SF/ivref.h5" "$SF/iv.h5" && ok || bad "sweepfix: resumed interval sweep differs from the uninterrupted sweep"
# F2: a failed sweep leaves the existing file; non-whole values of a whole-number axis are refused
# up front; a grid with no valid point names its first point and the model's message
"$ZVP" sweep calibration/params/paging-zvm64.ini --axis volumes=1:10:1 -o "$SF/good.h5" >/dev/null 2>&1
sum0=$(md5sum < "$SF/good.h5")
expect 2 "'volumes': value 1.5 is not a whole number; volumes must be whole" -- "$ZVP" sweep calibration/params/paging-zvm64.ini --axis volumes=1.5:10:1 -o "$SF/good.h5"
expect 2 "'volumes': value 2.5 is not a whole number" -- "$ZVP" sweep calibration/params/paging-zvm64.ini --axis volumes=1:10:1.5 -o "$SF/good.h5"
expect 2 "no point of the sweep is valid input: model 'fsio' refuses all 2 points; the first, point 0 (cp_memory_gb = 64): fsio: cp_memory_gb = 64 must be below real_memory_gb = 64" -- "$ZVP" sweep fsio --axis cp_memory_gb=64,100 -o "$SF/good.h5"
[ "$(md5sum < "$SF/good.h5")" = "$sum0" ] && [ ! -e "$SF/good.h5.partial" ] && ok || bad "sweepfix: a failed sweep changed the existing file or left a partial file"
# F11: interval bounds say their kind and why they are NaN, in the file
expect 0 "5 points" -- "$ZVP" sweep calibration/params/cms-releases.ini --axis users=1000:5000:1000 --interval 0.9 -o "$SF/ci.h5"
if "$PY" - "$SF/ci.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
s = lambda v: v.decode() if isinstance(v, bytes) else v
ok = f["status"][()] == 1
assert ok.all() and np.isnan(f["users_at_limit_lo"][()]).all()
for b in ("users_at_limit_lo", "users_at_limit_hi"):
    assert "whole-number output" in s(f[b].attrs["no_interval_reason"]), b
    assert s(f[b].attrs["interval_kind"]) == "confidence"
    assert "confidence interval" in s(f[b].attrs["long_name"]), s(f[b].attrs["long_name"])
assert s(f["etr_lo"].attrs["interval_kind"]) == "prediction" and "no_interval_reason" not in f["etr_lo"].attrs
assert not np.isnan(f["etr_lo"][()]).any()
PYEOF
then ok; else bad "sweepfix: interval bound attributes"; fi
# F13: exactly 10^9 values pass the count (then cannot be allocated under a 3 GB limit); 10^9 + 1 do not
# (not under AddressSanitizer, whose shadow memory cannot live under a 3 GB address-space limit)
if [ -z "${ASAN_OPTIONS:-}" ]; then
expect 1 "cannot allocate 1000000000 values" -- bash -c "ulimit -v 3000000; exec \"$ZVP\" sweep calibration/params/paging-zvm64.ini --axis pageout_rate_per_s=1:1e9:1 -o \"$SF/big.h5\""
fi
expect 2 "1000000001 values; more than 10^9 values are refused" -- "$ZVP" sweep calibration/params/paging-zvm64.ini --axis pageout_rate_per_s=0:1e9:1 -o "$SF/big.h5"
# ---- end sweepfix ----

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
