#!/usr/bin/python3
"""bench/spinlock_util_grid.py - the spinlock model against the simulator at a given busiest-zone
utilization without handoff (models/README.md, spinlock, "Grids."): CPUs 2, 8, 32, 128, 256;
hold SCV 0, 0.5, 1, 4; zones 1, 2, 16, 1024; skew 0 and 1.5 (one zone: skew 0 only); hold
1 us, handoff 0. For each point work_us is set so that the analytic busiest-zone utilization
(`lock_util_pct` of `zvmperf eval spinlock`) equals the target: bisection on log(work_us)
between 1e-9 x and 1 x the bound Z = N p_1 S / u - S (X <= N / (Z + S), so U_1 = X p_1 S <= u
there; p_1 the Zipf share of zone 1), to 1e-8 relative in work. A point whose
utilization at work_us = 0 is below the target cannot reach it (N CPUs cannot load a zone
that gets a small share of the requests) and is skipped and counted.

Each point is simulated with `zvmperf simulate spinlock` (R replications x E events, seed S,
2 threads; the same seed gives the same numbers on any thread count); interval_s is left at
its default, it does not change any output without a handoff. The 256-CPU points take
--events-256 events per replication (their intervals are the widest: half-widths up to 6 %
at 10 x 3e5 events).
A point outside the simulated interval widened by 5 % of the simulated mean, or more than
5 % from the simulated mean, is simulated again with --recheck times the events (0: not).

Usage: bench/spinlock_util_grid.py [--zvmperf build/zvmperf] [--util 0.99[,0.9...]]
       [--events 1000000] [--events-256 4000000] [--replications 10] [--seed 1]
       [--threads 2] [--recheck 10]
Prints one line per point (cpus, c2, zones, skew, work_us, analytic utilization, simulated
utilization, analytic spin_busy_pct, simulated mean [lo, hi], error of the analytic value
against the simulated mean) and the counts. Needs only the CLI; nothing is written.
"""
import argparse
import math
import time

from spinlock_cli import params, run

HOLD_US = 1.0


def util(zvmperf, p, work):
    q = dict(p, work_us=work)
    out = run([zvmperf, "eval", "spinlock"] + params(q) + ["--json"])["outputs"]
    return out["lock_util_pct"]["value"] / 100.0


def zone1_share(zones, skew):
    return 1.0 / sum(z ** -skew for z in range(1, zones + 1))


def find_work(zvmperf, p, u):
    """work_us with the analytic busiest-zone utilization u, or None if out of reach."""
    if util(zvmperf, p, 0.0) < u:
        return None
    hi = p["cpus"] * zone1_share(p["zones"], p["zone_skew"]) * HOLD_US / u - HOLD_US
    if hi <= 0 or util(zvmperf, p, hi) >= u:
        return max(hi, 0.0)
    lo = hi * 1e-9
    if util(zvmperf, p, lo) < u:  # only below 1e-9 x the bound: linear bisection
        lo, hi, geo = 0.0, lo, False
    else:
        geo = True
    while hi - lo > 1e-8 * hi:
        mid = math.sqrt(lo * hi) if geo else 0.5 * (lo + hi)
        if util(zvmperf, p, mid) >= u:
            lo = mid
        else:
            hi = mid
    return lo if util(zvmperf, p, lo) - u <= u - util(zvmperf, p, hi) else hi


def grid():
    for n in (2, 8, 32, 128, 256):
        for c2 in (0, 0.5, 1, 4):
            for zones in (1, 2, 16, 1024):
                for skew in ((0,) if zones == 1 else (0, 1.5)):
                    yield {"cpus": n, "hold_us": HOLD_US, "hold_scv": c2, "zones": zones,
                           "zone_skew": skew, "handoff_us": 0}


def simulate(a, p, events):
    s = run([a.zvmperf, "simulate", "spinlock"] + params(p) +
            ["--events", str(events), "--replications", str(a.replications),
             "--seed", str(a.seed), "--threads", str(a.threads), "--json"])
    o = s["outputs"]
    spin = o["spin_busy_pct"]
    return (spin["analytic"], spin["value"], spin["ci_lo"], spin["ci_hi"],
            o["lock_util_pct"]["value"] / 100.0, spin["ci_lo"] == 0 and spin["value"] > 0,
            s.get("intervals_clipped", 0))


def line(p, work, u, r, events):
    ana, mean, lo, hi, usim, spin_clipped, _ = r
    slack = 0.05 * mean
    outside = ana < lo - slack or ana > hi + slack
    err = 100.0 * (ana / mean - 1.0)
    txt = "%4d %3g %4d %3g %10.4g %6.4f %6.4f | %9.4g | %9.4g [%9.4g, %9.4g] %+6.2f %% %8.2g%s%s" % (
        p["cpus"], p["hold_scv"], p["zones"], p["zone_skew"], work, u, usim, ana, mean, lo, hi,
        err, events, " *" if outside else "", " (spin interval clipped)" if spin_clipped else "")
    return txt, outside, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zvmperf", default="build/zvmperf")
    ap.add_argument("--util", default="0.99", help="comma-separated target utilizations")
    ap.add_argument("--events", type=int, default=1000000)
    ap.add_argument("--events-256", type=int, default=4000000,
                    help="events per replication of the 256-CPU points")
    ap.add_argument("--replications", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--recheck", type=int, default=10,
                    help="re-simulate points off by more than 5 %% with this many times the events")
    a = ap.parse_args()
    for u in (float(x) for x in a.util.split(",")):
        t0 = time.time()
        print("utilization %g: %d replications x %d events (256 CPUs: %d), seed %d" % (
            u, a.replications, a.events, a.events_256, a.seed))
        print("cpus c2 zones skew work_us util sim_util | analytic | simulated [lo, hi] "
              "error events")
        pts = skipped = outside = off5 = clipped = spin_clipped = 0
        worst = {}
        recheck = []
        for p in grid():
            work = find_work(a.zvmperf, p, u)
            if work is None:
                skipped += 1
                print("%4d %3g %4d %3g skipped: utilization %.4f at work_us = 0" % (
                    p["cpus"], p["hold_scv"], p["zones"], p["zone_skew"],
                    util(a.zvmperf, p, 0.0)), flush=True)
                continue
            q = dict(p, work_us=work)
            events = a.events_256 if p["cpus"] == 256 else a.events
            uana = util(a.zvmperf, p, work)
            r = simulate(a, q, events)
            txt, out, err = line(q, work, uana, r, events)
            print(txt, flush=True)
            spin_clipped += r[5]
            clipped += r[6] > 0
            pts += 1
            outside += out
            off5 += abs(err) > 5
            if abs(err) > abs(worst.get(p["cpus"], 0.0)):
                worst[p["cpus"]] = err
            if a.recheck and (out or abs(err) > 5):
                recheck.append((q, work, uana, events))
        print("utilization %g: %d points simulated, %d skipped (out of reach); outside the "
              "simulated interval +- 5 %% of the mean: %d; |analytic / mean - 1| > 5 %%: %d" % (
                  u, pts, skipped, outside, off5))
        print("points with a clipped interval (NOT CONVERGED on stderr): %d; of them with the "
              "spin interval clipped: %d (the others: figures of single zones)" % (
                  clipped, spin_clipped))
        print("worst error by CPUs: " + ", ".join(
            "%d: %+.2f %%" % (n, worst[n]) for n in sorted(worst)))
        for q, work, uana, events in recheck:
            txt, _, _ = line(q, work, uana, simulate(a, q, a.recheck * events),
                             a.recheck * events)
            print("recheck " + txt, flush=True)
        print("utilization %g: %.0f s" % (u, time.time() - t0), flush=True)


if __name__ == "__main__":
    main()
