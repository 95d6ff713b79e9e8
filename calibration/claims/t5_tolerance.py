#!/usr/bin/python3
"""calibration/claims/t5_tolerance.py - the tolerances of the Table 5 time claims of
000_sweetspot.csv, computed from report 000's Tables 3, 4 and 5 (calibration/data/000_table*).

Usage: t5_tolerance.py [--check CLAIMS_CSV] [--groups] [--data DIR]
Prints, per time cell, the printed delta, its whole-second rounding span, the row's spread and
the tolerance. --check: exit 1 when a Table 5 time claim of CLAIMS_CSV (ids 000-t5-cmN-SIZE,
000-t5-logoff-SIZE) has another tolerance or another printed value (make test-claims runs it).

Rules (calibration/claims/README.md; the comment above the Table 5 claims):
- Each row (CM1, CM2, CM3, CM4, logoff) gets its spread, max - min over 256-1536 GB: a value
  flat in storage passes the whole row exactly when it lies inside [min, max].
- Never below the cell's own precision: a printed delta is t64 / t63 - 1 of whole seconds, so
  it is known only within [(t64 - 0.5) / (t63 + 0.5) - 1, (t64 + 0.5) / (t63 - 0.5) - 1]; where
  that span reaches farther from the printed value, its farther end is the tolerance.
- The three groups CM1-CM3 are not pooled into one scatter: --groups prints the test that
  rejects it (a two-way analysis of variance of the 18 deltas, group x storage size, and CM1
  against the mean of CM2 and CM3 paired by size).
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


def group_test(t5):
    """The test of pooling CM1-CM3: a two-way analysis of variance of the 18 deltas (group x
    storage size, one cell each) and CM1 against the mean of CM2 and CM3 paired by size."""
    d = [[float(t5[s][g + "_priming_delta_pct"]) for s in SIZES] for g in GROUPS]
    G, S = len(d), len(SIZES)
    m = sum(map(sum, d)) / (G * S)
    gm = [sum(r) / S for r in d]
    sm = [sum(d[g][j] for g in range(G)) / G for j in range(S)]
    ssg = S * sum((x - m) ** 2 for x in gm)
    sss = G * sum((x - m) ** 2 for x in sm)
    sse = sum((d[g][j] - m) ** 2 for g in range(G) for j in range(S)) - ssg - sss
    dfg, dfe = G - 1, (G - 1) * (S - 1)
    f = (ssg / dfg) / (sse / dfe)
    x = [d[0][j] - (d[1][j] + d[2][j]) / 2.0 for j in range(S)]
    xm = sum(x) / S
    sd = math.sqrt(sum((v - xm) ** 2 for v in x) / (S - 1))
    return {"F": f, "df": (dfg, dfe), "cm1_minus_rest": xm, "t": xm / (sd / math.sqrt(S)),
            "t_df": S - 1, "paired": x}


def tolerances(data):
    t3 = read_table(os.path.join(data, "000_table3_sweetspot_zvm63.csv"))
    t4 = read_table(os.path.join(data, "000_table4_sweetspot_zvm64.csv"))
    t5 = read_table(os.path.join(data, "000_table5_sweetspot_delta.csv"))
    out = []
    for row, col in (("cm1", "cm1_priming_s"), ("cm2", "cm2_priming_s"),
                     ("cm3", "cm3_priming_s"), ("cm4", "cm4_priming_s"), ("logoff", "logoff_s")):
        dcol = "logoff_delta_pct" if row == "logoff" else row + "_priming_delta_pct"
        printed = [float(t5[s][dcol]) for s in SIZES]
        spread = max(printed) - min(printed)
        for s, p in zip(SIZES, printed):
            reach, lo, hi = rounding_reach(float(t3[s][col]), float(t4[s][col]), p)
            tol = ceil1(max(spread, reach))
            out.append(("000-t5-%s-%d" % (row, s), p, lo, hi, spread, tol,
                        "rounding" if reach > spread else "row spread"))
    return group_test(t5), out


def check(path, rows):
    want = {r[0]: (r[1], r[5]) for r in rows}
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
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", metavar="CLAIMS_CSV")
    mode.add_argument("--groups", action="store_true", help="the test that rejects pooling CM1-CM3")
    a = ap.parse_args()
    try:
        gt, rows = tolerances(a.data)
        if a.check:
            return check(a.check, rows)
    except OSError as e:
        print("t5_tolerance: %s: %s" % (e.filename, e.strerror), file=sys.stderr)
        return 2
    if a.groups:
        try:  # p-values where SciPy is at hand (python3-scipy); the statistics without it
            from scipy import stats
            pf = " (p = %.3f)" % stats.f.sf(gt["F"], *gt["df"])
            pt = " (two-sided p = %.4f)" % (2.0 * stats.t.sf(abs(gt["t"]), gt["t_df"]))
        except ImportError:
            pf = pt = ""
        print("CM1-CM3 deltas, group x storage size: group F(%d, %d) = %.2f%s"
              % (gt["df"][0], gt["df"][1], gt["F"], pf))
        print("CM1 minus the mean of CM2 and CM3, paired by size: %s; mean %.2f points, "
              "t(%d) = %.2f%s" % (", ".join("%.2f" % v for v in gt["paired"]),
                                  gt["cm1_minus_rest"], gt["t_df"], gt["t"], pt))
        return 0
    print("%-20s %8s %18s %12s %8s" % ("claim", "printed", "rounding span", "row spread", "tol"))
    for cid, p, lo, hi, spread, tol, binding in rows:
        print("%-20s %8.1f [%7.1f, %7.1f] %12.1f %8.1f%s"
              % (cid, p, lo, hi, spread, tol, "  (rounding)" if binding == "rounding" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
