#!/usr/bin/python3
"""bench/bench_python_grid.py - Python's broadcast eval against the CLI sweep on one grid.

    /usr/bin/python3 bench/bench_python_grid.py [--cli build/zvmperf] [--threads 2]
                                                [--params FILE] [--repeat 3] [--max-ratio R]

Grid (as `make demo`, at a finer step): storage_gb = 256:4096:2.5 (1537 values) x
cpus = 16:128:1 (113 values) = 173,681 sweetspot points, with the calibrated parameters of
calibration/params/sweetspot-zvm64.ini (10 x fewer than while a point cost microseconds: since
issue 13 a sweetspot point solves the exact lock chain, about 0.2 ms).

  python  ModelFile.eval(storage_gb=<column>, cpus=<row>, threads=T): the broadcast arrays go
          to C in one zvp_eval_points call; the time includes building the point matrix and
          the result arrays (everything the caller waits for).
  grid    zvmperf.grid(...) on the same axes (zvp_eval_grid, no point matrix).
  cli     `zvmperf sweep FILE --axis ... --threads T -o TMP.h5`, wall time of the process
          (start to exit, HDF5 written); the CLI's own figure (evaluation + writing) is printed
          beside it.

Each is run --repeat times and the best time is kept (the machine is shared). The ratio is
python / cli wall. A sample of points is checked bit for bit against the CLI's file (h5py).
Figures are printed; nothing is asserted on time unless --max-ratio is given (exit 1 when the
ratio is above it). Run by `make bench` only if the lead hooks it in (see the report); never
by `make check`.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python-bindings"))
import zvmperf as z  # noqa: E402

STORAGE = "storage_gb=256:4096:2.5"
CPUS = "cpus=16:128:1"


def best(fn, repeat):
    """(best time, result of the best run) over repeat runs of fn()."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        runs.append((time.perf_counter() - t0, out))
    return min(runs, key=lambda r: r[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default=os.path.join(REPO, "build", "zvmperf"))
    ap.add_argument("--params", default=os.path.join(REPO, "calibration", "params",
                                                     "sweetspot-zvm64.ini"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-ratio", type=float, default=None)
    a = ap.parse_args()

    _, storage = z.parse_axis(STORAGE)
    _, cpus = z.parse_axis(CPUS)
    n = storage.size * cpus.size
    print("grid: %s x %s = %d points, %s, %d threads, best of %d"
          % (STORAGE, CPUS, n, os.path.relpath(a.params, REPO), a.threads, a.repeat))

    mf = z.ModelFile.read(a.params)
    t_py, res = best(lambda: mf.eval(storage_gb=storage[:, None], cpus=cpus[None, :],
                                     threads=a.threads, on_error="nan"), a.repeat)
    ok = int((res.status == 1).sum())
    print("python eval: %.3f s, %.0f points/s (%d ok)" % (t_py, n / t_py, ok))
    t_grid, g = best(lambda: z.grid(mf, {"storage_gb": storage, "cpus": cpus},
                                    threads=a.threads), a.repeat)
    print("python grid: %.3f s, %.0f points/s" % (t_grid, n / t_grid))
    for name in res:
        assert res[name].tobytes() == g[name].tobytes(), name

    with tempfile.TemporaryDirectory(prefix="zvp-bench-") as tmp:
        out = os.path.join(tmp, "sweep.h5")
        cmd = [a.cli, "sweep", a.params, "--axis", STORAGE, "--axis", CPUS, "--threads",
               str(a.threads), "-o", out]
        t_cli, proc = best(lambda: subprocess.run(cmd, capture_output=True, text=True,
                                                  check=True), a.repeat)
        m = re.search(r"in ([0-9.]+) s", proc.stdout + proc.stderr)
        own = " (its own figure: %s s evaluation + HDF5)" % m.group(1) if m else ""
        print("cli sweep:   %.3f s wall, %.0f points/s%s" % (t_cli, n / t_cli, own))
        try:
            import h5py
            with h5py.File(out, "r") as f:
                rng = np.random.default_rng(8)
                i = rng.integers(0, storage.size, 2000)
                j = rng.integers(0, cpus.size, 2000)
                # the sweep file holds one dataset per output at its root (src/sweep/README.md)
                for name in ("etr", "logoff_s"):
                    if name in f:
                        cli_v = f[name][()][i, j]
                        assert cli_v.tobytes() == res[name][i, j].tobytes(), name
            print("check: 2000 sampled points of etr and logoff_s identical bit for bit "
                  "(python vs CLI file)")
        except ImportError:
            print("check: skipped (no h5py)")
    ratio = t_py / t_cli
    print("ratio python / cli: %.2f (target <= 1.3)" % ratio)
    mf.close()
    if a.max_ratio is not None and ratio > a.max_ratio:
        print("FAIL: ratio %.2f > %.2f" % (ratio, a.max_ratio))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
