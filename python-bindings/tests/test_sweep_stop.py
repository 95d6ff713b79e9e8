"""Review 4 of the sweep: Ctrl-C stops a sweep (or a grid) of a single block within about a
second, not after the whole block; the stopped sweep resumes to the numbers of an
uninterrupted evaluation; a sweep in which no point is valid raises and keeps the file at path.

Expected values come from an independent evaluation of the same points (z.grid, one call in
C over the whole grid) and from the counts of points in the files."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import zvmperf as z
from conftest import CALIB, PKG_ROOT

MODEL = os.path.join(CALIB, "params", "sweetspot-zvm64.ini")
# 121 x 29 x 9 = 31,581 points: one block (65,536), several seconds on one thread
AXES = {"storage_gb": "256:4096:32", "cpus": "16:128:4", "users_per_phase": "64:128:8"}

_CHILD = textwrap.dedent("""
    import sys
    import zvmperf as z
    mode, model, out = sys.argv[1], sys.argv[2], sys.argv[3]
    axes = {"storage_gb": "256:4096:32", "cpus": "16:128:4", "users_per_phase": "64:128:8"}
    def started(done, total):
        if done == 0:
            print("started", flush=True)
    try:
        if mode == "sweep":
            z.sweep(model, axes, out, threads=1, progress=started)
        else:
            print("started", flush=True)
            z.grid(model, axes, threads=1)
        print("finished", flush=True)
    except KeyboardInterrupt as e:
        print("KeyboardInterrupt:", e, flush=True)
        sys.exit(3)
""")


def _interrupt(mode, out):
    """Run the child, SIGINT it 0.5 s after it starts; (exit status, stdout, seconds from the
    signal to its exit)."""
    env = dict(os.environ, PYTHONPATH=PKG_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", _CHILD, mode, MODEL, out],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = child.stdout.readline()
        assert first.startswith("started"), first + child.stderr.read()
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        rest, err = child.communicate(timeout=120)
        elapsed = time.monotonic() - t0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, rest + err, elapsed


def test_ctrl_c_stops_a_one_block_sweep_at_once_and_resume_completes_it(tmp_path):
    out = str(tmp_path / "one.h5")
    with open(out, "w") as f:
        f.write("previous sweep")
    code, text, elapsed = _interrupt("sweep", out)
    assert code == 3, text
    assert "KeyboardInterrupt: sweep interrupted (SIGINT) after" in text, text
    assert elapsed < 3.0, (elapsed, text)  # it used to run on to the end of the block
    with open(out) as f:
        assert f.read() == "previous sweep"
    part = z.open_sweep(out + ".partial")
    done = int((part.status != 0).sum())
    assert not part.complete and 0 < done < part.status.size, done
    res = z.sweep(MODEL, AXES, out, threads=2, resume=True)
    assert res.summary["ok"] + res.summary["unstable"] + res.summary["invalid"] == 31581
    s, g = z.open_sweep(out), z.grid(MODEL, AXES, threads=2)
    assert np.array_equal(s.status, g.status)
    for name in g.outputs:
        assert np.array_equal(s[name].view(np.uint64), g[name].view(np.uint64)), name


def test_ctrl_c_stops_a_one_block_grid_at_once(tmp_path):
    code, text, elapsed = _interrupt("grid", str(tmp_path / "unused.h5"))
    assert code == 3, text
    assert "KeyboardInterrupt: grid interrupted (SIGINT) after" in text, text
    assert elapsed < 3.0, (elapsed, text)


def test_a_sweep_with_no_valid_point_raises_and_keeps_the_file(tmp_path):
    out = str(tmp_path / "keep.h5")
    with open(out, "w") as f:
        f.write("previous sweep")
    # fsio refuses cp_memory_gb >= real_memory_gb (64 GiB by default) at every point
    with pytest.raises(z.InvalidArgumentError,
                       match=r"no point of the sweep is valid input.*cp_memory_gb = 64"):
        z.sweep("fsio", {"cp_memory_gb": [64.0, 100.0]}, out)
    with open(out) as f:
        assert f.read() == "previous sweep"
    assert not os.path.exists(out + ".partial")
    # a non-whole value of a whole-number parameter is refused before anything runs
    with pytest.raises(z.InvalidArgumentError, match="value 1.5 is not a whole number"):
        z.sweep("mmc", {"servers": [1.5, 2.0]}, out)
    with open(out) as f:
        assert f.read() == "previous sweep"
