"""Monte Carlo intervals at a point whose centre has no steady state (interval.h).

The point (as tests/test_interval_unstable.c): M/M/c, lambda = 7/s fitted with a negligible
covariance, c = 2 servers, mu uniform on [1, 5]/s; the centre mu = 3 is saturated (7/6 >= 1).
A draw is stable exactly when mu > 3.5: share p = 1.5 / 4 = 0.375 (Binomial count); given a
steady state mu is uniform on (3.5, 5), so the utilization 3.5 / mu has the quantile
3.5 / (5 - 1.5 q) (Gross et al. 2008, sec. 2.3, closed forms)."""
import json
import math
import os
import subprocess

import numpy as np
import pytest

import zvmperf as z
from conftest import REPO

CLI = os.path.join(REPO, "build", "zvmperf")
TEXT = ("[model]\nname = mmc\n[parameters]\narrival_rate_per_s = 7\nservice_rate_per_s = 3\n"
        "servers = 2\n[transform]\narrival_rate_per_s = logistic 0.01 100\n[covariance]\n"
        "arrival_rate_per_s = 1e-14\n")
RANGE = {"service_rate_per_s": (1.0, 5.0)}
P = 0.375


@pytest.fixture
def mmc_file(tmp_path):
    path = tmp_path / "mmc-unstable.ini"
    path.write_text(TEXT)
    return str(path)


def util_quantile(q):
    return 3.5 / (5.0 - 1.5 * q)


def test_bounds_of_the_stable_draws(mmc_file):
    r = z.eval(mmc_file, interval=0.9, method="mc", samples=4000, confidence=True,
               ranges=RANGE, on_error="nan")
    assert r.status == 2  # ZVP_POINT_UNSTABLE
    assert r.min_stable_draws == 100
    assert abs((1 - r.no_steady_state) - P) <= 4 * math.sqrt(P * (1 - P) / 4000)
    u = r["utilization"]
    assert math.isnan(u.value)
    assert abs(u.lo - util_quantile(0.05)) <= 0.005 and abs(u.hi - util_quantile(0.95)) <= 0.01
    assert r["throughput_per_s"].lo == pytest.approx(7.0, abs=1e-5)


def test_raise_names_the_share_and_too_few_gives_nan(mmc_file):
    with pytest.raises(z.UnstableError, match="of 4000 draws .* on_error='nan' returns"):
        z.eval(mmc_file, interval=0.9, method="mc", samples=4000, ranges=RANGE)
    # 150 draws: about 56 stable (at most 80 at 4 sd), fewer than the 100 needed at 0.9
    with pytest.raises(z.UnstableError, match="fewer than the 100 needed"):
        z.eval(mmc_file, interval=0.9, method="mc", samples=150, ranges=RANGE)
    r = z.eval(mmc_file, interval=0.9, method="mc", samples=150, ranges=RANGE, on_error="nan")
    assert r.status == 2 and 0 < r.no_steady_state < 1
    assert all(math.isnan(r.lo[k]) and math.isnan(r.hi[k]) for k in r)


def test_delta_at_an_unstable_point_is_a_status(mmc_file):
    with pytest.raises(z.UnstableError, match="saturated"):
        z.eval(mmc_file, interval=0.9)
    r = z.eval(mmc_file, interval=0.9, on_error="nan")
    assert r.status == 2 and all(math.isnan(r.lo[k]) for k in r)


def test_arrays_and_cli_agree(mmc_file):
    # servers 2 (unstable centre) and 3 (stable, share (5 - 7/3) / 4)
    r = z.eval(mmc_file, interval=0.9, method="mc", samples=3000, ranges=RANGE,
               servers=np.array([2, 3]), on_error="nan")
    assert list(r.status) == [2, 1]
    p3 = (5 - 7 / 3) / 4
    assert abs(1 - r.no_steady_state[1] - p3) <= 4 * math.sqrt(p3 * (1 - p3) / 3000)
    assert math.isnan(r["utilization"].value[0])
    assert r["utilization"].value[1] == pytest.approx(7 / 9, rel=1e-12)
    if not os.access(CLI, os.X_OK):
        pytest.skip("build/zvmperf not built")
    out = subprocess.run([CLI, "eval", mmc_file, "service_rate_per_s=1..5", "--interval", "0.9",
                          "--method", "mc", "--json"], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 3, out.stderr
    d = json.loads(out.stdout)
    one = z.eval(mmc_file, interval=0.9, method="mc", ranges=RANGE, on_error="nan")
    assert d["status"] == "unstable" and d["outputs"]["utilization"]["value"] is None
    assert d["outputs"]["utilization"]["lo"] == one["utilization"].lo
    assert d["outputs"]["utilization"]["hi"] == one["utilization"].hi
    assert d["interval"]["no_steady_state_share"] == one.no_steady_state


def test_whole_number_range_needs_whole_ends(mmc_file):
    # servers takes whole values: 1.5..3 would draw 2..3 around a centre the caller set to 2.25
    with pytest.raises(z.InvalidArgumentError, match=r"servers = 1\.5\.\.3.*whole"):
        z.eval(mmc_file, interval=0.9, method="mc", samples=200,
               ranges={"servers": (1.5, 3.0)})


def test_value_and_range_of_one_parameter_refused(mmc_file):
    # the value would be printed while the draws come from the range
    with pytest.raises(z.InvalidArgumentError, match="servers is given both a value and a range"):
        z.eval(mmc_file, interval=0.9, method="mc", samples=200, ranges={"servers": (2, 3)},
               servers=5)
