#!/usr/bin/python3
"""bench/spinlock_collapse_grid.py - the spinlock model's handoff grid against the simulator
(models/README.md, spinlock, "Time to collapse"): 72 points, CPUs 8, 16, 64; 4 and 16 uniform
zones; hold SCV 0 and 1; handoff 0.1, 0.3, 1 us with hold 1 us; work for a zone utilization
without handoff N S / (L (Z + S)) of 0.3 and 0.7; `zvmperf simulate spinlock` with 4
replications x 4e5 events (seed 1, one thread). Each analytic value is taken with interval_s
set to the simulated time one replication covers, events / (2 X) (two events per acquisition:
the end of the work and the end of the hold; X the simulated acquisitions per second).

Usage: bench/spinlock_collapse_grid.py [--zvmperf build/zvmperf] [--old OTHER_ZVMPERF]
       [--events 400000] [--replications 4] [--points 256]
--old: a second build to compare with (one without interval_s is evaluated without it).
--points 256: the 256-CPU points (work 45 us, handoff 0.1 us, 16/28/30/32 zones) and the
transition points instead of the grid (longer runs: 4 x 2e6 events).
Prints one line per point and the count outside the simulated interval widened by 5 % of the
simulated mean. Needs only the CLI; nothing is written.
"""
import argparse
import subprocess

from spinlock_cli import params, run


def analytic(zvmperf, p, interval):
    args = params(p) + (["interval_s=%.17g" % interval] if interval is not None else [])
    out = run([zvmperf, "eval", "spinlock"] + args + ["--json"])["outputs"]
    return out["spin_busy_pct"]["value"], out["bistable"]["value"]


def has_interval(zvmperf):
    r = subprocess.run([zvmperf, "eval", "spinlock", "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return "interval_s" in r.stdout


def grid():
    for n in (8, 16, 64):
        for zones in (4, 16):
            for c2 in (0, 1):
                for h in (0.1, 0.3, 1):
                    for rho in (0.3, 0.7):
                        work = round(n * 1.0 / (zones * rho) - 1.0, 4)
                        yield {"cpus": n, "work_us": max(work, 0.01), "hold_us": 1,
                               "hold_scv": c2, "zones": zones, "zone_skew": 0,
                               "handoff_us": h}


def special():
    for zones in (16, 28, 30, 32):
        yield {"cpus": 256, "work_us": 45, "hold_us": 1, "hold_scv": 1, "zones": zones,
               "zone_skew": 0, "handoff_us": 0.1}
    for n, work, zones, h in ((16, 0.43, 16, 0.3), (16, 6, 4, 0.3), (12, 5, 4, 0.5)):
        yield {"cpus": n, "work_us": work, "hold_us": 1, "hold_scv": 1, "zones": zones,
               "zone_skew": 0, "handoff_us": h}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zvmperf", default="build/zvmperf")
    ap.add_argument("--old")
    ap.add_argument("--events", type=int)
    ap.add_argument("--replications", type=int, default=4)
    ap.add_argument("--points", choices=("grid", "256"), default="grid")
    a = ap.parse_args()
    events = a.events or (400000 if a.points == "grid" else 2000000)
    old_iv = a.old and has_interval(a.old)
    pts = list(grid() if a.points == "grid" else special())
    bad_new = bad_old = 0
    print("cpus work_us c2 zones handoff | sim [lo, hi] | interval_s | new (bistable) err | old err")
    for p in pts:
        s = run([a.zvmperf, "simulate", "spinlock"] + params(p) +
                ["--events", str(events), "--replications", str(a.replications),
                 "--threads", "1", "--json"])
        o = s["outputs"]
        mean, lo, hi = (o["spin_busy_pct"][k] for k in ("value", "ci_lo", "ci_hi"))
        H = events / (2.0 * o["acquisitions_per_s"]["value"])
        new, bi = analytic(a.zvmperf, p, H)
        slack = 0.05 * mean
        out_new = new < lo - slack or new > hi + slack
        bad_new += out_new
        line = "%4d %7.4g %g %3d %4g | %9.4g [%9.4g, %9.4g] | %9.3g | %9.4g (%d) %+6.1f %%%s" % (
            p["cpus"], p["work_us"], p["hold_scv"], p["zones"], p["handoff_us"], mean, lo, hi, H,
            new, bi, 100 * (new - mean) / mean, " *" if out_new else "")
        if a.old:
            old, _ = analytic(a.old, p, H if old_iv else None)
            out_old = old < lo - slack or old > hi + slack
            bad_old += out_old
            line += " | %9.4g %+6.1f %%%s" % (old, 100 * (old - mean) / mean,
                                              " *" if out_old else "")
        print(line, flush=True)
    print("outside the simulated interval +- 5 %%: %d of %d%s" % (
        bad_new, len(pts), " (old: %d)" % bad_old if a.old else ""))


if __name__ == "__main__":
    main()
