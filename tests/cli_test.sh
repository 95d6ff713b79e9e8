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
expect 2 "no point of the sweep is valid" -- "$ZVP" sweep mmc --axis servers=1.5,2.5 -o "$T/s.h5"
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
expect 2 "9 of 9 points are invalid" -- "$ZVP" sweep sweetspot --axis cpus=1.5:10:1 -o "$T/s.h5"
expect 0 "points" -- "$ZVP" sweep sweetspot --axis storage_gb=256:1024:256 --axis cpus=16,64 -o "$T/s.h5" --threads 2
if "$PY" - "$T/s.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
assert f.attrs["model"] in (b"sweetspot", "sweetspot")
assert list(f["axes/storage_gb"][:]) == [256, 512, 768, 1024]
assert list(f["axes/cpus"][:]) == [16, 64]
etr = f["outputs/etr"]
assert etr.shape == (4, 2) and etr.attrs["units"] in (b"kpages/s", "kpages/s")
assert (f["status"][:] == 1).all()
assert np.isfinite(etr[:]).all()
PYEOF
then ok; else bad "sweep file contents"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
