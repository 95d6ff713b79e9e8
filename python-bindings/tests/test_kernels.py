"""Kernels against closed forms and textbook values."""
import math

import numpy as np
import pytest

import zvmperf as z


def test_mm1_closed_form():
    lam, mu = 0.6, 1.0
    r = z.mm1(lam, mu)
    rho = lam / mu
    assert r.utilization == pytest.approx(rho, rel=1e-12)
    assert r.mean_in_system == pytest.approx(rho / (1 - rho), rel=1e-12)   # L = rho/(1-rho)
    assert r.wait_s == pytest.approx(lam / (mu * (mu - lam)), rel=1e-12)  # Wq = lam/(mu(mu-lam))
    assert r.response_s == pytest.approx(1 / (mu - lam), rel=1e-12)       # R = 1/(mu-lam)
    assert r.mean_in_queue == pytest.approx(rho ** 2 / (1 - rho), rel=1e-12)


def test_mmc_two_servers_closed_form():
    # lam=1.5, mu=1, c=2: a=1.5, rho=0.75, P0 = 1/(1 + a + a^2/(2(1-rho))) = 1/7,
    # Lq = P0 a^c rho / (c! (1-rho)^2) = 13.5/7 (Gross et al. 2008, eq. 2.29-2.31 by hand).
    r = z.mmc(1.5, 1.0, 2)
    assert r.mean_in_queue == pytest.approx(13.5 / 7, rel=1e-12)
    assert r.mean_in_system == pytest.approx(13.5 / 7 + 1.5, rel=1e-12)
    assert r.busy_servers == pytest.approx(1.5, rel=1e-12)


def test_erlang_c_200_servers_150_erlangs():
    # Value given in the project brief (6.015193e-05), and recomputed here independently by
    # summing the Erlang B terms in log space with lgamma (no recurrence shared with C).
    a, c = 150.0, 200
    logs = [k * math.log(a) - math.lgamma(k + 1) for k in range(c + 1)]
    mx = max(logs)
    b = math.exp(logs[-1] - mx) / sum(math.exp(t - mx) for t in logs)
    cw = c * b / (c - a * (1 - b))
    assert cw == pytest.approx(6.015193e-05, rel=1e-6)
    assert z.erlang_c(a, c) == pytest.approx(6.015193e-05, rel=1e-6)
    assert z.erlang_c(a, c) == pytest.approx(cw, rel=1e-10)


def test_erlang_b_small_closed_form_and_vectorised():
    # B(3, 2) = (8/6) / (1 + 2 + 2 + 8/6) = 4/19
    assert z.erlang_b(2.0, 3) == pytest.approx(4 / 19, rel=1e-12)
    v = z.erlang_b(np.array([2.0, 1.0]), [3, 1])          # numpy and list broadcast together
    assert v == pytest.approx([4 / 19, 0.5], rel=1e-12)  # B(1, 1) = 1/2


def test_repairman_closed_form():
    # N=2 sources, Z=1, S=1, c=1: p_k proportional to N!/(N-k)! (S/Z)^k = 1, 2, 2 -> p0 = 1/5;
    # X = (1 - p0)/S = 0.8, L = (2 + 4)/5 = 1.2, R = N/X - Z = 1.5.
    r = z.repairman(2, 1.0, 1.0)
    assert r.throughput_per_s == pytest.approx(0.8, rel=1e-12)
    assert r.mean_in_system == pytest.approx(1.2, rel=1e-12)
    assert r.response_s == pytest.approx(1.5, rel=1e-12)


def test_mva_matches_repairman_and_hand_recursion():
    # One queue (D = 1 s) plus think time Z = 1 s, N = 2: by hand, N=1: R=1, X=0.5, Q=0.5;
    # N=2: R = 1 (1 + 0.5) = 1.5, X = 2/(1 + 1.5) = 0.8, Q = 1.2 (= the repairman above).
    r = z.mva([z.Station("queue", 1.0)], 1.0, 2)
    assert r.throughput_per_s == pytest.approx(0.8, rel=1e-12)
    assert r.response_s == pytest.approx(1.5, rel=1e-12)
    assert r.queue_length[0] == pytest.approx(1.2, rel=1e-12)
    assert r.utilization[0] == pytest.approx(0.8, rel=1e-12)


def test_mva_station_array_passes_as_is():
    st = np.zeros(2, dtype=z._clib.STATION_DTYPE)
    st["kind"] = [z._clib.ZVP_STATION_QUEUE, z._clib.ZVP_STATION_DELAY]
    st["servers"] = 1
    st["replicas"] = 1
    st["demand_s"] = [1.0, 1.0]
    # a delay of 1 s and a queue of 1 s with no think time is the same network as above
    r = z.mva(st, 0.0, 2)
    assert r.throughput_per_s == pytest.approx(0.8, rel=1e-12)
    assert z.queue._stations_array(st) is st or np.shares_memory(z.queue._stations_array(st), st)


def test_unstable_raises_with_c_message():
    with pytest.raises(z.UnstableError) as ei:
        z.mm1(2.0, 1.0)
    assert ei.value.status == z._clib.ZVP_EUNSTABLE
    assert "utilization" in ei.value.message and "2" in ei.value.message


def test_invalid_argument_names_parameter():
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mmc(-1.0, 1.0, 1)
    assert "arrival" in str(ei.value) and "-1" in str(ei.value)
    with pytest.raises(z.InvalidArgumentError):
        z.mmc(0.5, 1.0, -2)          # caught in Python before ctypes would wrap it
    with pytest.raises(ValueError):  # the error classes are also the builtin kinds
        z.mmc(0.5, 0.0, 1)


def test_vectorised_kernel_nan_mode_records_status():
    r = z.mm1(np.array([0.5, 1.5]), 1.0, on_error="nan")
    assert r.mean_in_system[0] == pytest.approx(1.0, rel=1e-12)
    assert math.isnan(r.mean_in_system[1])
    assert list(r.status) == [1, 2]
    with pytest.raises(z.UnstableError):
        z.mm1(np.array([0.5, 1.5]), 1.0)


# ---- issue-3 kernels ------------------------------------------------------------------------
def test_mm1k_closed_form():
    # M/M/1/K: p_k = (1 - rho) rho^k / (1 - rho^(K+1)) (Gross et al. 2008, sec. 2.5)
    lam, mu, K = 0.8, 1.0, 5
    rho = lam / mu
    p = [(1 - rho) * rho ** k / (1 - rho ** (K + 1)) for k in range(K + 1)]
    r = z.mmck(lam, mu, 1, K)
    assert r.pblock == pytest.approx(p[K], rel=1e-12)
    assert r.mean_in_system == pytest.approx(sum(k * pk for k, pk in enumerate(p)), rel=1e-12)
    assert r.throughput_per_s == pytest.approx(lam * (1 - p[K]), rel=1e-12)


def test_erlang_loss_is_mmcc():
    assert z.mmck(2.0, 1.0, 3, 3).pblock == pytest.approx(4 / 19, rel=1e-12)


def test_mminf_and_open_single_queue():
    r = z.mminf(3.0, 2.0)
    assert r.mean_in_system == pytest.approx(1.5, rel=1e-12) and r.response_s == pytest.approx(0.5)
    # an open network of one queue of demand 1 s at lambda = 0.6 is an M/M/1: R = 1/(1 - 0.6)
    o = z.open_network([z.Station("queue", 1.0)], 0.6)
    assert o.response_s == pytest.approx(2.5, rel=1e-12)
    with pytest.raises(z.UnstableError):
        z.open_network([z.Station("queue", 1.0)], 1.2)


def test_multiclass_one_class_equals_single_class_and_approx_is_close():
    st = [z.Station("queue", 0.2), z.Station("queue", 0.1)]
    exact = z.mva(st, 1.0, 10)
    m = z.mva_multi(st, [[0.2, 0.1]], [1.0], [10])
    assert m.throughput_per_s[0] == pytest.approx(exact.throughput_per_s, rel=1e-12)
    ap, info = z.mva_approx(st, 1.0, 10, tolerance=1e-13)
    assert info["converged"] == 1
    # Schweitzer is an approximation: a few per cent off at N = 10 here (QSP sec. 7.4);
    # exact MVA gives X = 4.7762237067226225, Schweitzer's fixed point 4.501004016434916
    assert exact.throughput_per_s == pytest.approx(4.7762237067226225, rel=1e-12)
    assert ap.throughput_per_s[0] == pytest.approx(exact.throughput_per_s, rel=0.08)
    assert ap.throughput_per_s[0] != exact.throughput_per_s
    # independent Schweitzer (1979) fixed point: an arrival at queue k sees Q_k (N-1)/N
    d, n, think = (0.2, 0.1), 10, 1.0
    q = [n / 2.0, n / 2.0]
    for _ in range(100000):
        r = [dk * (1.0 + qk * (n - 1) / n) for dk, qk in zip(d, q)]
        x = n / (think + sum(r))
        qn = [x * rk for rk in r]
        done = max(abs(a - b) for a, b in zip(qn, q)) < 1e-15
        q = qn
        if done:
            break
    assert done
    assert x == pytest.approx(4.501004016434916, rel=1e-12)    # /usr/bin/python3, same loop
    assert ap.throughput_per_s[0] == pytest.approx(x, rel=1e-9)


def test_mva_ld_with_unit_rates_is_a_queue():
    n = 2
    r = z.mva_ld([z.Station("ld", 1.0)], 1.0, n, alpha={0: np.ones(n + 1)})
    assert r.throughput_per_s == pytest.approx(0.8, rel=1e-12)   # as the repairman above


def test_bounds_and_usl_closed_forms():
    st = [z.Station("queue", 0.2), z.Station("queue", 0.1)]
    b = z.mva_bounds(st, 1.0, 10)
    assert b.total_demand_s == pytest.approx(0.3) and b.max_demand_s == pytest.approx(0.2)
    assert b.x_upper_per_s == pytest.approx(min(10 / 1.3, 1 / 0.2), rel=1e-12)   # ABA
    assert b.saturation_customers == pytest.approx(1.3 / 0.2, rel=1e-12)
    g, a, be = 100.0, 0.05, 0.001
    n = np.array([1.0, 8.0, 32.0])
    assert z.usl(n, g, a, be) == pytest.approx(g * n / (1 + a * (n - 1) + be * n * (n - 1)),
                                               rel=1e-12)
    npk, _ = z.usl_peak(g, a, be)
    assert npk == pytest.approx(np.sqrt((1 - a) / be), rel=1e-12)
    grid = np.arange(1.0, 65.0, 4.0)
    fit = z.usl_fit(grid, z.usl(grid, g, a, be))
    assert (fit.gamma, fit.alpha, fit.beta) == pytest.approx((g, a, be), rel=1e-4)
