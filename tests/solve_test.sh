#!/bin/sh
# tests/solve_test.sh - end-to-end checks of `zvmperf solve` (no Python): exit statuses,
# messages naming the option / station, and JSON figures against closed forms.
# Usage: sh tests/solve_test.sh build/zvmperf
ZVP=${1:-build/zvmperf}
# pass/fail counters, ok, bad, expect
. "$(dirname "$0")/lib.sh"
# field JSON KEY: the first number after "KEY": (a quantity {"value": V, "unit": U}: V)
field() { printf '%s' "$1" | grep -o "\"$2\": \({\"value\": \)\{0,1\}[-0-9.eE+]*" | head -n 1 | sed 's/.*: //'; }
# close NAME ACTUAL EXPECTED RELTOL
close() {
  if awk -v a="$2" -v e="$3" -v t="$4" 'BEGIN { d = a - e; if (d < 0) d = -d; m = e < 0 ? -e : e;
      exit !(a != "" && d <= t * m) }'; then ok; else bad "$1 = '$2', expected $3 (rel $4)"; fi
}

# --- single stations: closed forms -----------------------------------------------------
# M/M/1, lambda = 0.5, mu = 1: L = 1, R = 2, W = 1, P(wait) = 0.5
j=$("$ZVP" solve mm1 --lambda 0.5 --mu 1 --json)
close "mm1 Q" "$(field "$j" Q)" 1 1e-14
close "mm1 R" "$(field "$j" R)" 2 1e-14
close "mm1 W" "$(field "$j" W)" 1 1e-14
close "mm1 Pwait" "$(field "$j" Pwait)" 0.5 1e-14
# M/M/c Erlang C values from the issue (factorial-free): C(200, 150), C(1000, 950)
j=$("$ZVP" solve mmc --lambda 150 --mu 1 --servers 200 --json)
close "erlang C 200/150" "$(field "$j" Pwait)" 6.015193e-05 1e-6
j=$("$ZVP" solve mmc --lambda 950 --mu 1 --servers 1000 --json)
close "erlang C 1000/950" "$(field "$j" Pwait)" 6.825342e-02 1e-6
# 1e5 servers at utilization 1 - 1e-9: finite and stable, against an independent Erlang C.
# lambda is the double nearest 99999.9999 (c mu - lambda = 1.0000000111e-4, so W depends on
# that rounding at 1e-7: tests/test_queue2.c uses 1e5 (1 - 1e-9), a different double).
# Reference (/usr/bin/python3, log-space terms summed with math.fsum):
#   import math
#   c, a = 100000, 99999.9999
#   logs = [k * math.log(a) - math.lgamma(k + 1) for k in range(c)]
#   tail = c * math.log(a) - math.lgamma(c + 1) + math.log(c) - math.log(c - a)
#   m = max(max(logs), tail); t = math.exp(tail - m)
#   C = t / (math.fsum(math.exp(x - m) for x in logs) + t); W = C / (c - a)
# gives C = 0.9999996040003114, W = 9999.995565028812; mpmath at 50 digits (Erlang B
# recursion B_k = a B_{k-1}/(k + a B_{k-1}), C = B/(1 - rho (1 - B))) gives
# C = 0.99999960400031159842, W = 9999.9955650288135802 (used below).
j=$("$ZVP" solve mmc --lambda 99999.9999 --mu 1 --servers 100000 --json)
close "erlang C 1e5/99999.9999 Pwait" "$(field "$j" Pwait)" 0.99999960400031159842 1e-12
close "erlang C 1e5/99999.9999 W" "$(field "$j" W)" 9999.9955650288135802 1e-12
close "erlang C 1e5/99999.9999 R" "$(field "$j" R)" 10000.9955650288135802 1e-12
# Erlang B(10, 5) = 0.018384570336648132 (exact rationals, tests/test_queue.c)
j=$("$ZVP" solve erlang-b --lambda 5 --mu 1 --servers 10 --json)
close "erlang B" "$(field "$j" Pblock)" 0.018384570336648132 1e-12
# M/M/1/K, rho = 1, K = 9: L = K/2, Pblock = 1/(K+1)
j=$("$ZVP" solve mm1k --lambda 2 --mu 2 --capacity 9 --json)
close "mm1k L" "$(field "$j" Q)" 4.5 1e-12
close "mm1k Pblock" "$(field "$j" Pblock)" 0.1 1e-12
# M/M/c/K, ref2.py (exact rationals): lambda 4, mu 1.5, c 3, K 7
j=$("$ZVP" solve mmck --lambda 4 --mu 1.5 --servers 3 --capacity 7 --json)
close "mmck X" "$(field "$j" X)" 3.603042213883411 1e-12
close "mmck Pblock" "$(field "$j" Pblock)" 0.09923944652914726 1e-12
# finite source 4, think 2, 2 servers, service 1: X = 110/87, per-server U = X S / 2
j=$("$ZVP" solve repairman --sources 4 --think 2 --service 1 --servers 2 --json)
close "repairman X" "$(field "$j" X)" 1.2643678160919540 1e-14
close "repairman U" "$(field "$j" U)" 0.6321839080459770 1e-14

# --- saturation: exit 3 naming the station, never a negative or infinite wait -----------
expect 3 "station 0.*saturated.*1.5" -- "$ZVP" solve mmc --lambda 3 --mu 1 --servers 2
expect 3 "station 0.*saturated" -- "$ZVP" solve mm1 --lambda 1 --mu 1 --json
expect 3 "stations\[1\] is saturated" -- "$ZVP" solve open --lambda 2 --demands 0.1,0.5
expect 3 "stations\[0\] is saturated" -- "$ZVP" solve open --lambda 1,3 --demands "0.1,0.2;0.3,0.05"

# --- bad input: exit 2 naming the option, its value and the range ------------------------
expect 2 "\-\-lambda = -1 is out of range \[0," -- "$ZVP" solve mm1 --lambda -1 --mu 1
expect 2 "\-\-servers = 0 is out of range \[1, 10000000\]" -- "$ZVP" solve mmc --lambda 1 --mu 1 --servers 0
expect 2 "\-\-mu = 0 is out of range (0," -- "$ZVP" solve mm1 --lambda 1 --mu 0
expect 2 "\-\-capacity = 2 is out of range \[3," -- "$ZVP" solve mmck --lambda 1 --mu 1 --servers 3 --capacity 2
expect 2 "\-\-demands = 1,x: entry 2" -- "$ZVP" solve mva --users 3 --demands 1,x
expect 2 "\-\-method = fast" -- "$ZVP" solve mva --users 3 --demands 1 --method fast
expect 2 "\-\-station-servers = 0" -- "$ZVP" solve mva --users 3 --demands 1 --station-servers 0
expect 2 "\-\-users = 2.5" -- "$ZVP" solve mva --users 2.5 --demands 1
expect 2 "unknown KIND" -- "$ZVP" solve nosuch
expect 2 "unknown option" -- "$ZVP" solve mm1 --lambda 1 --mu 2 --bogus 3
expect 2 "cycle time" -- "$ZVP" solve mva --users 3 --demands 0,0
expect 2 "not supported" -- "$ZVP" solve mva-multi --users 2,2 --demands "1;1" --station-servers 2

# --- closed networks --------------------------------------------------------------------
# exact multi-server: X = 110/87; the Seidmann approximation is flagged as such
j=$("$ZVP" solve mva --users 4 --think 2 --demands 1 --station-servers 2 --json)
close "mva multi X" "$(field "$j" X)" 1.2643678160919540 1e-13
expect 0 '"multiserver": "exact"' -- "$ZVP" solve mva --users 4 --think 2 --demands 1 --station-servers 2 --json
expect 0 '"multiserver": "seidmann' -- "$ZVP" solve mva --users 4 --think 2 --demands 1 --station-servers 2 --method schweitzer --json
expect 0 '"converged": true' -- "$ZVP" solve mva --users 40 --think 2 --demands 1,0.5 --method bard --json
expect 0 '"iterations": [0-9]' -- "$ZVP" solve mva --users 40 --think 2 --demands 1,0.5 --method schweitzer --json
expect 1 '"converged": false' -- "$ZVP" solve mva --users 40 --think 2 --demands 1,0.5 --method schweitzer --max-iterations 1 --json
# N = 1: R = sum of demands
j=$("$ZVP" solve mva --users 1 --think 3 --demands 0.2,0.5,0.3 --json)
close "mva N=1 R" "$(field "$j" R)" 1.0 1e-14
# multiclass, ref2.py (brute-force state enumeration): X_0 + X_1
j=$("$ZVP" solve mva-multi --users 3,2 --think 3,1 --demands "0.5,0.3,0.2;0.2,0.7,0.4" --station-servers 1,1,inf --json)
close "mva-multi X" "$(field "$j" X)" 1.3526594383865554 1e-12
# bounds by hand: D = 0.6, Dmax = 0.4, Z' = 6, N = 10
j=$("$ZVP" solve bounds --users 10 --think 5 --demands 0.4,0.2,1 --station-servers 1,1,inf --json)
close "bounds X_upper" "$(field "$j" X_upper)" 1.5151515151515151 1e-14
close "bounds N*" "$(field "$j" N_star)" 16.5 1e-14
# open network: two classes, queues; U_0 = 0.7, R_class1 = 0.3/0.3 + 0.05/0.7
j=$("$ZVP" solve open --lambda 1,2 --demands "0.1,0.2;0.3,0.05" --json)
close "open X" "$(field "$j" X)" 3 1e-15
close "open U0" "$(field "$j" U)" 0.7 1e-14

# --- USL --------------------------------------------------------------------------------
j=$("$ZVP" solve usl --gamma 100 --alpha 0.05 --beta 0.0005 --users 10 --json)
close "usl X(10)" "$(field "$j" X)" 668.89632107023411 1e-13
close "usl N_peak" "$(field "$j" N_peak)" 43.588989435406738 1e-13
j=$("$ZVP" solve usl --data 1:101,2:187.44053282588013,4:352.94117647058823,8:574.7460087082728,16:859.893048128342,32:1063.1648063033488,48:1050.4689593568557,64:1046.2536490431396 --json)
close "usl fit alpha (scipy)" "$(field "$j" alpha)" 0.04975437731042141 1e-5
close "usl fit beta_se (scipy)" "$(field "$j" beta_se)" 4.2800805907637225e-05 1e-4

# --- defects fixed: bounded work, unidentifiable fits, messages, strict options ------------
# m-server MVA with m < N: work limit up front (ran for minutes before), way out named
expect 2 "ZVP_QUEUE_MAX_WORK.*delay station" -- timeout 20 "$ZVP" solve mva --users 11000000 --demands 0.1,0.2 --station-servers 10000000,1
# m >= N is a delay station exactly: cheap; X = 1/D_max = 5 far beyond N* = 1.5
j=$(timeout 20 "$ZVP" solve mva --users 10000000 --demands 0.1,0.2 --station-servers 10000000,1 --json)
close "mva huge m X" "$(field "$j" X)" 5 1e-12
# USL: unidentifiable data are bad input, never start values with se = 0
expect 2 "\-\-data.*at least 3 distinct N" -- "$ZVP" solve usl --data 1:1,1:1,1:1
expect 2 "\-\-data = 1:1,2:1.8 has 2 points: at least 3 points" -- "$ZVP" solve usl --data 1:1,2:1.8
expect 2 "\-\-data.*distinct N" -- "$ZVP" solve usl --data 1:1,2:1.8,2:1.8,2:1.8
# three points fit exactly, but no residual degree of freedom: se null (NaN), not 0
expect 0 '"alpha_se": {"value": null' -- "$ZVP" solve usl --data 1:1,2:1.8,4:3 --json
# messages
expect 2 "customers\[1\] = 100000000 brings the total population.*200000000" -- "$ZVP" solve mva-multi --users 100000000,100000000 --demands "1;1"
expect 2 "entry 2 ('abc') is not a number" -- "$ZVP" solve mva --users 3 --demands 0.1,abc
expect 2 "\-\-lambda = '' is not a number" -- "$ZVP" solve mm1 --lambda '' --mu 1
expect 2 "\-\-lambda = '': entry 1 is empty" -- "$ZVP" solve open --lambda '' --demands 1
expect 2 "option --servers is required by kind mmc: an integer in \[1, 10000000\]" -- "$ZVP" solve mmc --lambda 1 --mu 2
out=$("$ZVP" solve open --lambda 1 --demands 0.5,1.2 2>&1)
if printf '%s' "$out" | grep -q "no steady state.*no steady state"; then bad "duplicated: $out"; else ok; fi
expect 0 "mmc|erlang-b .*--servers C$" -- "$ZVP" solve --help
out=$("$ZVP" solve --help 2>/dev/null); st=$?
if [ "$st" -eq 0 ] && printf '%s' "$out" | grep -q "Exit status: 0 ok; 1 no convergence"; then ok; else bad "solve --help: exit $st, stdout '$out'"; fi
if "$ZVP" solve --help | grep -q "mmc.*\[--servers C\]"; then bad "usage shows --servers optional for mmc"; else ok; fi
# repeated and inapplicable options
expect 2 "option --lambda is given twice for kind mmc" -- "$ZVP" solve mmc --lambda 1 --mu 2 --lambda 5 --servers 1
expect 2 "option --servers does not apply to kind mm1 (kind mm1 takes: --lambda --mu --service --json)" -- "$ZVP" solve mm1 --lambda .5 --mu 1 --servers 3
expect 2 "option --capacity does not apply to kind mm1" -- "$ZVP" solve mm1 --lambda .5 --mu 1 --capacity 5
expect 2 "option --servers does not apply to kind mminf" -- "$ZVP" solve mminf --lambda .5 --mu 1 --servers 3
expect 2 "option --gamma does not apply to kind usl with --data" -- "$ZVP" solve usl --gamma 1 --alpha .1 --beta .01 --data 1:1,2:1.8,4:3
expect 2 "\-\-mu and --service are alternatives" -- "$ZVP" solve mm1 --lambda 1 --mu 2 --service 3
expect 2 "\-\-tolerance applies only to an approximate method" -- "$ZVP" solve mva --users 4 --demands 1 --tolerance 1e-3
# non-convergence: exit 1, and the message says so
expect 1 "did not converge.*last iterate" -- "$ZVP" solve mva --users 40 --think 2 --demands 1,0.5 --method schweitzer --max-iterations 1

# inputs beyond double arithmetic: an error, never inf printed as a result
expect 2 "outside the range" -- "$ZVP" solve mm1 --lambda 1e-320 --mu 1e-310
expect 2 "outside the range" -- "$ZVP" solve repairman --sources 3 --think 1e308 --service 1e308
expect 2 "outside the range" -- "$ZVP" solve mm1 --lambda 0 --mu 1e-309 --json
# getopt_long forms: --opt=value as --opt value; '--' ends the options; help anywhere
j=$("$ZVP" solve mm1 --lambda=0.5 --mu=1 --json)
close "mm1 --opt=value R" "$(field "$j" R)" 2 1e-14
expect 2 "unexpected argument '--mu'" -- "$ZVP" solve mm1 --lambda 0.5 -- --mu 1
expect 2 "option --mu is given twice for kind mm1 (first '1', then '2')" -- "$ZVP" solve mm1 --lambda .5 --mu=1 --mu 2
expect 0 "Usage: zvmperf solve KIND" -- "$ZVP" solve mm1 --lambda 1 --help
expect 0 "Usage: zvmperf solve KIND" -- "$ZVP" help solve
expect 2 "needs a KIND" -- "$ZVP" solve --json
# --- issue 9 (numerics): network kernels refuse results beyond double arithmetic (exit 2,
# naming the inputs), never print NaN or inf with exit 0
# (the issue's example, --users 10 --demands 1e300,1e300 --think 1, now has its true,
# representable answer: see the time-scaling block below; R = N D = 1e309 still overflows)
expect 2 "zvp_mva_exact: the inputs (stations\[\].demand_s, think_s, customers) are outside the range double arithmetic can solve" -- "$ZVP" solve mva --users 100 --demands 1e307,1e307 --think 1
expect 2 "outside the range double arithmetic" -- "$ZVP" solve mva --users 100 --demands 1e307,1e307 --think 1 --json
expect 2 "zvp_mva_exact: the inputs.*throughput_per_s" -- "$ZVP" solve mva --users 3 --demands 1e-320,1e-320
expect 2 "zvp_mva_exact: the inputs" -- "$ZVP" solve mva --users 100 --demands 1e307 --station-servers 2
expect 2 "zvp_mva_approx: the inputs" -- "$ZVP" solve mva --users 100 --demands 1e307,1 --method schweitzer
expect 2 "zvp_mva_approx: the inputs" -- "$ZVP" solve mva --users 100 --demands 1e307,1 --method bard
expect 2 "zvp_mva_multi_exact: the inputs" -- "$ZVP" solve mva-multi --users 60,40 --demands "1e307,1;1e307,1"
expect 2 "zvp_mva_bounds: the inputs" -- "$ZVP" solve bounds --users 100000 --demands 1e305
expect 2 "zvp_open_network: the inputs" -- "$ZVP" solve open --lambda 0.99e-308 --demands 1e308
expect 2 "zvp_usl_eval: the inputs" -- "$ZVP" solve usl --gamma 1e300 --alpha 0 --beta 0 --users 1e300
for d in 1e300 1e307; do
  out=$("$ZVP" solve mva --users 10 --demands $d,$d --think 1 2>&1)
  if printf '%s' "$out" | grep -qi "nan\|= inf"; then bad "NaN printed as a result: $out"; else ok; fi
done
# --- numfix: exact MVA is solved in a scaled time unit (a power of two) when the demands or
# the think time are tiny or huge. Two balanced queues of demand D, Z = 0 (or Z << D):
# X = N/((N + 1) D), R = (N + 1) D, Q_k = N/2, U_k = N/(N + 1), whatever D.
for d in 1 1e-300 1e300 1e-150; do
  j=$("$ZVP" solve mva --users 100 --demands $d,$d --think 0 --json)
  close "mva D=$d X" "$(field "$j" X)" "$(awk -v d=$d 'BEGIN { printf "%.17g", 100 / 101 / d }')" 1e-12
  close "mva D=$d R" "$(field "$j" R)" "$(awk -v d=$d 'BEGIN { printf "%.17g", 101 * d }')" 1e-12
  close "mva D=$d Q" "$(field "$j" Q)" 100 1e-12
  close "mva D=$d U" "$(field "$j" U)" "$(awk 'BEGIN { printf "%.17g", 100 / 101 }')" 1e-12
done
j=$("$ZVP" solve mva --users 10 --demands 1e300,1e300 --think 1 --json)
close "mva issue example X" "$(field "$j" X)" 9.0909090909090909e-301 1e-12
close "mva issue example R" "$(field "$j" R)" 1.1e301 1e-12
# the m-server path: 4 servers of demand D, one customer each below m: X = N/D (no queueing)
for d in 1e-300 1e300; do
  j=$("$ZVP" solve mva --users 3 --demands $d --station-servers 4 --json)
  close "mva 4-server D=$d X" "$(field "$j" X)" "$(awk -v d=$d 'BEGIN { printf "%.17g", 3 / d }')" 1e-12
done
j=$("$ZVP" solve mva --users 100 --demands 1e-300,1e-300 --station-servers 4,1 --json)
k=$("$ZVP" solve mva --users 100 --demands 1,1 --station-servers 4,1 --json)
close "mva 4-server+queue D=1e-300 X" "$(field "$j" X)" "$(awk -v x="$(field "$k" X)" 'BEGIN { printf "%.17g", x * 1e300 }')" 1e-12
# --- numfix: exact multiclass lattice limit (1e7): the largest accepted is fast, beyond it a
# fast error naming the lattice size and the limit
j=$("$ZVP" solve mva-multi --users 9999999,0 --demands "1;1" --json)
close "mva-multi at the lattice limit X" "$(field "$j" X)" 1 1e-15
expect 2 "population lattice prod_c (customers\[c\] + 1) = 50000000 exceeds the limit ZVP_MVA_MAX_LATTICE = 10000000" -- "$ZVP" solve mva-multi --users 49999999,0 --demands "1;1"
expect 2 "= 29481408 exceeds the limit ZVP_MVA_MAX_LATTICE" -- "$ZVP" solve mva-multi --users 2537,11615 --demands "1;1"
expect 2 "= 10000001 exceeds the limit ZVP_MVA_MAX_LATTICE" -- "$ZVP" solve mva-multi --users 10000000,0 --demands "1;1"
expect 2 "ZVP_MVA_MAX_LATTICE_WORK" -- "$ZVP" solve mva-multi --users 4999999,1 --demands "1,1;1,1"
echo "solve: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
