"""zvmperf.simulate: a model's outputs simulated with intervals, beside the analytic value."""
import math

import pytest

import zvmperf as z


def test_spinlock_simulate_matches_repairman_closed_form():
    # one zone, exponential holds, no handoff: the machine repairman (Erlang B), exact
    n, a = 8, 4.0
    b = 1.0
    for j in range(1, n + 1):
        b = a * b / (j + a * b)
    lq = n - (1 - b) * (1 + a)
    r = z.simulate("spinlock", cpus=n, work_us=4, hold_us=1, events=50000, replications=5,
                   threads=1)
    s = r["spin_busy_pct"]
    assert s.analytic == pytest.approx(100 * lq, rel=1e-9)
    assert abs(s.value - 100 * lq) <= 0.03 * 100 * lq + (s.ci_hi - s.value)
    assert s.ci_lo < s.value < s.ci_hi and s.unit == "%"
    assert math.isnan(r["collisions_per_s"].value)
    assert "collisions_per_s" in r.not_simulated and r.params["cpus"] == n


def test_simulate_refuses_model_without_network_and_bad_parameter():
    with pytest.raises(z.InvalidArgumentError, match="paging"):
        z.simulate("paging", events=1000)
    with pytest.raises(z.InvalidArgumentError, match="zones"):
        z.simulate("spinlock", zones=0, events=1000)


def test_simulate_names_clipped_outputs():
    # rare spin (2 CPUs requesting a 1 us lock every 1000 us) over short runs: some runs see
    # spin, others none, so the replications disagree by more than their mean and the spin's
    # interval is clipped at 0 (the CLI warns NOT CONVERGED); a long converged run clips nothing
    r = z.simulate("spinlock", cpus=2, work_us=1000, hold_us=1, events=2000, replications=5,
                   seed=12, threads=1)
    assert "spin_busy_pct" in r.outputs_clipped and r["spin_busy_pct"].ci_lo == 0.0
    assert r.analytic_error is None
    r = z.simulate("spinlock", cpus=8, work_us=4, hold_us=1, events=50000, replications=5,
                   threads=1)
    assert r.outputs_clipped == []
