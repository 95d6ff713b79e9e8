#!/usr/bin/python3
"""calibration/claims/t5_tolerance.py - the tolerances of the Table 5 time claims of
000_sweetspot.csv, computed from report 000's Tables 3, 4 and 5 (calibration/data/000_table*).

Usage: t5_tolerance.py [--check CLAIMS_CSV] [--data DIR]
Prints, per time cell, the printed delta, its whole-second rounding span, the scatter rule and
the tolerance. --check: exit 1 when a Table 5 time claim of CLAIMS_CSV (ids 000-t5-cmN-SIZE,
000-t5-logoff-SIZE) has another tolerance or another printed value (make test-claims runs it).

Rules (calibration/claims/README.md; the comment above the Table 5 claims):
- CM1, CM2, CM3 (the non-paging priming phases): Table 1 makes the three groups the same
  experiment (88 users each, the same virtual size, no paging), so at one storage size their
  times are three repeated measurements. The scatter of one time is the pooled within-size
  standard deviation of ln(time) over the three groups (6 sizes x 2 degrees of freedom per
  release); a delta d = t64 / t63 - 1 then scatters by (1 + d) sqrt(s63^2 + s64^2), d the mean
  of the 18 printed cells. Tolerance: twice that (a two-sided 95 % band for one cell), the same
  for all 18 cells.
- CM4 and logoff (one group each, no repeat): the row's spread, max - min over 256-1536 GB (a
  value flat in storage passes the whole row exactly when it lies inside [min, max]).
- Never below the cell's own precision: a printed delta is t64 / t63 - 1 of whole seconds, so
  it is known only within [(t64 - 0.5) / (t63 + 0.5) - 1, (t64 + 0.5) / (t63 - 0.5) - 1]; where
  that span reaches farther from the printed value, its farther end is the tolerance.
Tolerances are rounded up to 0.1 point.
"""
import argparse
import csv
import math
import os
import sys

SIZES = (256, 512, 768, 1024, 1280, 1536)
GROUPS = ("cm1", "cm2", "cm3")


def read_table(path):
    """{storage_gb: {column name without unit: text}} of a calibration/data CSV."""
    with open(path, encoding="utf-8") as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    head = [h.split(" [")[0] for h in rows[0]]
    return {int(r[0]): dict(zip(head, r)) for r in rows[1:]}


def ceil1(x):
    """x rounded up to 0.1 (a tolerance is never below what it is computed from)."""
    return math.ceil(round(x * 10.0, 9)) / 10.0


def rounding_reach(t3, t4, printed):
    """Farthest distance (points) of the whole-second rounding span from the printed delta."""
    lo = 100.0 * ((t4 - 0.5) / (t3 + 0.5) - 1.0)
    hi = 100.0 * ((t4 + 0.5) / (t3 - 0.5) - 1.0)
    return max(printed - lo, hi - printed), lo, hi


def pooled_sd_log(table, groups):
    """Pooled within-size standard deviation of ln(time) over the groups."""
    ss, dof = 0.0, 0
    for s in SIZES:
        logs = [math.log(float(table[s][g + "_priming_s"])) for g in groups]
        m = sum(logs) / len(logs)
        ss += sum((x - m) ** 2 for x in logs)
        dof += len(logs) - 1
    return math.sqrt(ss / dof)


def tolerances(data):
    t3 = read_table(os.path.join(data, "000_table3_sweetspot_zvm63.csv"))
    t4 = read_table(os.path.join(data, "000_table4_sweetspot_zvm64.csv"))
    t5 = read_table(os.path.join(data, "000_table5_sweetspot_delta.csv"))
    s63, s64 = pooled_sd_log(t3, GROUPS), pooled_sd_log(t4, GROUPS)
    cells = [float(t5[s][g + "_priming_delta_pct"]) for g in GROUPS for s in SIZES]
    mean = sum(cells) / len(cells)
    sd_delta = (1.0 + mean / 100.0) * math.hypot(s63, s64) * 100.0
    info = {"s63": s63, "s64": s64, "mean": mean, "sd_delta": sd_delta,
            "s63_cm23": pooled_sd_log(t3, GROUPS[1:]), "s64_cm23": pooled_sd_log(t4, GROUPS[1:])}
    out = []
    for row, col in (("cm1", "cm1_priming_s"), ("cm2", "cm2_priming_s"),
                     ("cm3", "cm3_priming_s"), ("cm4", "cm4_priming_s"), ("logoff", "logoff_s")):
        dcol = col.replace("_s", "_delta_pct") if row != "logoff" else "logoff_delta_pct"
        printed = [float(t5[s][dcol]) for s in SIZES]
        if row in GROUPS:
            scatter, rule = 2.0 * sd_delta, "2 sd of repeated groups"
        else:
            scatter, rule = max(printed) - min(printed), "row spread"
        for s, p in zip(SIZES, printed):
            reach, lo, hi = rounding_reach(float(t3[s][col]), float(t4[s][col]), p)
            tol = ceil1(max(scatter, reach))
            out.append(("000-t5-%s-%d" % (row, s), p, lo, hi, rule, scatter, tol,
                        "rounding" if reach > scatter else rule))
    return info, out


def check(path, rows):
    want = {r[0]: (r[1], r[6]) for r in rows}
    seen, bad = set(), 0
    with open(path, encoding="utf-8") as f:
        for rec in csv.reader(line for line in f if not line.startswith("#")):
            if not rec or rec[0] not in want:
                continue
            seen.add(rec[0])
            printed, tol = want[rec[0]]
            if abs(float(rec[6]) - printed) > 1e-9 or abs(float(rec[7]) - tol) > 1e-9:
                print("t5_tolerance: %s has %s +- %s, the tables give %.1f +- %.1f"
                      % (rec[0], rec[6], rec[7], printed, tol))
                bad += 1
    for k in sorted(set(want) - seen):
        print("t5_tolerance: %s is missing from %s" % (k, path))
        bad += 1
    if not bad:
        print("t5_tolerance: the %d Table 5 time claims have the tolerances the tables give"
              % len(want))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "..", "data"))
    ap.add_argument("--check", metavar="CLAIMS_CSV")
    a = ap.parse_args()
    info, rows = tolerances(a.data)
    if a.check:
        return check(a.check, rows)
    print("CM1-CM3 repeated groups: sd of ln(time) 6.3 %.4f, 6.4 %.4f (CM2, CM3 only: %.4f, %.4f);"
          % (info["s63"], info["s64"], info["s63_cm23"], info["s64_cm23"]))
    print("mean delta %.2f %%, sd of one delta %.2f points, tolerance 2 sd = %.2f"
          % (info["mean"], info["sd_delta"], 2 * info["sd_delta"]))
    print("%-20s %8s %18s %26s %8s" % ("claim", "printed", "rounding span", "rule (value)", "tol"))
    for cid, p, lo, hi, rule, scatter, tol, binding in rows:
        print("%-20s %8.1f [%7.1f, %7.1f] %17s (%5.2f) %8.1f%s"
              % (cid, p, lo, hi, rule[:17], scatter, tol, "  (rounding)" if binding == "rounding" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
