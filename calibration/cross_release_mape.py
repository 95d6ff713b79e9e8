#!/usr/bin/python3
"""Cross-release prediction error of the sweetspot model (report 000, Memory Management
Serialization Contention Relief and 2 TB Central Storage Support): the model file calibrated on
z/VM 6.3 alone and switched to the z/VM 6.4 release values (default
calibration/params/sweetspot-zvm64-predicted.ini) evaluated at each printed storage size of
Table 4, per-output MAPE against Table 4 (calibration/data/000_table4_sweetspot_zvm64.csv).
ITR is ETR / busy (a dependent cell): printed, not counted in the mean of the 9 independent
outputs.

Usage: /usr/bin/python3 calibration/cross_release_mape.py [MODELFILE [NAME=VALUE ...]]
(run from the repository root; NAME=VALUE overrides a parameter at every point)."""
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE4 = os.path.join(ROOT, "calibration", "data", "000_table4_sweetspot_zvm64.csv")
ZVMPERF = os.path.join(ROOT, "build", "zvmperf")
OUTPUTS = ["etr", "itr", "busy_per_cpu_pct", "spin_busy_pct", "avail_spin_busy_pct",
           "cm1_priming_s", "cm2_priming_s", "cm3_priming_s", "cm4_priming_s", "logoff_s"]
DEPENDENT = {"itr"}


def table4():
    with open(TABLE4, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    head = [h.split(" [")[0] for h in rows[0]]
    return [dict(zip(head, r)) for r in rows[1:]]


def model(path, storage_gb, extra):
    cmd = [ZVMPERF, "eval", path, "storage_gb=%s" % storage_gb] + extra + ["--json"]
    res = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return {k: v["value"] for k, v in res["outputs"].items()}


def main(argv):
    path = argv[1] if len(argv) > 1 else os.path.join(
        ROOT, "calibration", "params", "sweetspot-zvm64-predicted.ini")
    extra = argv[2:]
    rows = table4()
    err = {o: [] for o in OUTPUTS}
    vals = {o: [] for o in OUTPUTS}
    for r in rows:
        m = model(path, r["storage_gb"], extra)
        for o in OUTPUTS:
            meas = float(r[o])
            vals[o].append(m[o])
            err[o].append(abs(m[o] - meas) / abs(meas))
    print("%-22s %12s %12s %10s" % ("output", "model min", "model max", "MAPE %"))
    indep = []
    for o in OUTPUTS:
        mape = 100.0 * sum(err[o]) / len(err[o])
        if o not in DEPENDENT:
            indep.append(mape)
        print("%-22s %12.4g %12.4g %10.1f%s" % (o, min(vals[o]), max(vals[o]), mape,
                                                 " (dependent)" if o in DEPENDENT else ""))
    print("%-22s %36.1f" % ("9 independent outputs", sum(indep) / len(indep)))


if __name__ == "__main__":
    main(sys.argv)
