"""Bad input to every public function raises a ZvmperfError subclass (ArgumentTypeError, also a
TypeError, for a wrong Python type) whose message names the argument, never a bare ctypes /
numpy / h5py error; plus the plain-number station form of mva and the USL fit refusals."""
import math
import os

import h5py
import numpy as np
import pytest

import zvmperf as z
from zvmperf import _clib

NAN = float("nan")


# ---- 1. mva: a plain sequence of numbers = single-server queueing stations ------------------
def test_mva_plain_numbers_are_queueing_stations():
    d = [0.05, 0.03, 0.02]
    r = z.mva(d, 2.0, 100)
    ref = z.mva([z.Station("queue", x) for x in d], 2.0, 100)
    assert r.throughput_per_s == ref.throughput_per_s
    np.testing.assert_array_equal(r.residence_s, ref.residence_s)
    # N = 1 closed form: X = 1 / (Z + sum D), residence R_k = D_k (no one else queues)
    one = z.mva(d, 2.0, 1)
    assert one.throughput_per_s == pytest.approx(1.0 / 2.1, rel=1e-12)
    np.testing.assert_allclose(one.residence_s, d, rtol=1e-12)
    # asymptotic bound (QSP ch. 5): X(N) <= 1 / D_max = 20/s, reached closely at N = 100
    assert 19.9 < r.throughput_per_s <= 20.0
    # numpy array of numbers, and numbers mixed with Station entries, mean the same
    assert z.mva(np.array(d), 2.0, 100).throughput_per_s == ref.throughput_per_s
    mixed = z.mva([0.05, z.Station("queue", 0.03), ("queue", 0.02)], 2.0, 100)
    assert mixed.throughput_per_s == ref.throughput_per_s
    # other kernels taking stations accept the same form: open M/M/1 tandem R = sum D/(1-U)
    o = z.open_network([0.1, 0.2], 1.0)
    assert o.response_s == pytest.approx(0.1 / 0.9 + 0.2 / 0.8, rel=1e-12)


@pytest.mark.parametrize("stations", [
    None, 0.5, "queue", ["queue"], [("queue",)], [{"kind": "queue", "d": 1.0}], [True],
    [object()], [("fifo", 0.1)], np.array([[0.1, 0.2]]), {"queue": 0.1},
])
def test_mva_bad_station_spec_says_what_is_accepted(stations):
    with pytest.raises(z.InvalidArgumentError) as e:
        z.mva(stations, 1.0, 2)
    assert isinstance(e.value, ValueError) and isinstance(e.value, z.ZvmperfError)
    msg = str(e.value)
    assert "stations" in msg
    assert "Station('queue', demand_s)" in msg or "must be one of queue" in msg


def test_empty_station_list_is_refused():
    for fn, args in [(z.mva, (1.0, 2)), (z.mva_bounds, (1.0, 2)), (z.open_network, (1.0,)),
                     (z.mva_ld, (1.0, 2))]:
        with pytest.raises(z.InvalidArgumentError, match="stations is empty"):
            fn([], *args)


# ---- 2. open_sweep: missing, not HDF5, not a sweep ------------------------------------------
def test_open_sweep_missing_file_is_zvmperf_io_error(tmp_path):
    path = str(tmp_path / "nonexistent.h5")
    with pytest.raises(z.ZvmperfIOError) as e:
        z.open_sweep(path)
    assert e.value.status == _clib.ZVP_EIO and path in str(e.value)
    assert isinstance(e.value, z.ZvmperfError) and isinstance(e.value, OSError)


def test_open_sweep_not_hdf5_and_directory(tmp_path):
    txt = tmp_path / "x.h5"
    txt.write_text("not hdf5\n")
    with pytest.raises(z.ZvmperfIOError, match=str(txt)):
        z.open_sweep(txt)
    with pytest.raises(z.ZvmperfIOError, match=str(tmp_path)):
        z.open_sweep(tmp_path)


def test_open_sweep_hdf5_that_is_not_a_sweep(tmp_path):
    no_outputs = tmp_path / "no_outputs.h5"
    with h5py.File(no_outputs, "w") as f:
        f.attrs["model"] = "mmc"
        f.create_group("axes").create_dataset("servers", data=[1.0, 2.0])
        f.create_dataset("status", data=np.ones(2, dtype=np.uint8))
    with pytest.raises(z.ParseError, match="no group /outputs") as e:
        z.open_sweep(no_outputs)
    assert str(no_outputs) in str(e.value) and isinstance(e.value, z.ZvmperfError)
    no_model = tmp_path / "no_model.h5"
    with h5py.File(no_model, "w") as f:
        f.create_group("outputs")
    with pytest.raises(z.ParseError, match="no root attribute 'model'"):
        z.open_sweep(no_model)
    # a real sweep with one output cut to the wrong shape
    good = z.sweep("mmc", {"servers": [1, 2, 3]}, tmp_path / "good.h5",
                   fixed={"arrival_rate_per_s": 0.5})
    with h5py.File(good, "a") as f:   # sweep file layout 2: outputs at the root
        del f["utilization"]
        f.create_dataset("utilization", data=[0.5])
    with pytest.raises(z.ParseError, match="/utilization is not a dataset of the axes' shape"):
        z.open_sweep(good)


# ---- 3. wrong types, empty sequences, NaN, missing files across the API ----------------------
MF_INI = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "calibration", "params", "sweetspot-zvm64.ini")

# (call, expected exception class, text the message must contain: the argument's name)
BAD_CALLS = [
    (lambda: z.erlang_b("a", 2), z.ArgumentTypeError, "offered_load"),
    (lambda: z.erlang_b(1.0, None), z.ArgumentTypeError, "servers"),
    (lambda: z.erlang_b([], 2), z.InvalidArgumentError, "offered_load is empty"),
    (lambda: z.erlang_b(["a"], 2), z.ArgumentTypeError, "offered_load"),
    (lambda: z.erlang_b([1, 2], [1, 2, 3]), z.BadLengthError, "servers (3,)"),
    (lambda: z.erlang_c(1.0, 2, on_error="ignore"), z.InvalidArgumentError, "on_error"),
    (lambda: z.mmc(None, 1.0), z.ArgumentTypeError, "arrival_rate_per_s"),
    (lambda: z.mmc(0.5, "fast"), z.ArgumentTypeError, "service_rate_per_s"),
    (lambda: z.mmc(0.5, 1.0, 1.5), z.InvalidArgumentError, "servers"),
    (lambda: z.repairman(10, "x", 1.0), z.ArgumentTypeError, "think_s"),
    (lambda: z.mmck(1.0, 2.0, 1, None), z.ArgumentTypeError, "capacity"),
    (lambda: z.mminf([[1.0], [1.0, 2.0]], 1.0), z.ArgumentTypeError, "arrival_rate_per_s"),
    (lambda: z.mva([0.1], "x", 2), z.ArgumentTypeError, "think_s"),
    (lambda: z.mva([0.1], 1.0, None), z.ArgumentTypeError, "customers"),
    (lambda: z.mva([0.1], NAN, 2), z.InvalidArgumentError, "think_s = nan"),
    (lambda: z.mva([("queue", "x")], 1.0, 2), z.ArgumentTypeError, "stations[0].demand_s"),
    (lambda: z.open_network([0.1], "x"), z.ArgumentTypeError, "arrival_rate_per_s"),
    (lambda: z.open_network([0.1], []), z.InvalidArgumentError, "arrival_rate_per_s is empty"),
    (lambda: z.open_network([0.1], 1.0, [[0.1, 0.2]]), z.BadLengthError, "demands_s"),
    (lambda: z.mva_multi([0.1], [[0.1]], ["x"], [2]), z.ArgumentTypeError, "think_s"),
    (lambda: z.mva_multi([0.1], [[0.1]], [1.0], []), z.InvalidArgumentError, "customers"),
    (lambda: z.mva_approx([0.1], 1.0, 3, max_iterations="x"), z.ArgumentTypeError,
     "max_iterations"),
    (lambda: z.mva_approx([0.1], 1.0, 3, max_iterations=-1), z.InvalidArgumentError,
     "max_iterations"),
    (lambda: z.mva_approx([0.1], 1.0, 3, method=None), z.InvalidArgumentError, "method"),
    (lambda: z.mva_ld([("ld", 0.1)], 1.0, 2, alpha=[[1, 1, 1]]), z.ArgumentTypeError, "alpha"),
    (lambda: z.mva_ld([("ld", 0.1)], 1.0, 2, alpha={5: [1, 1, 1]}), z.InvalidArgumentError,
     "alpha key 5"),
    (lambda: z.mva_ld([("ld", 0.1)], 1.0, 2, alpha={0: ["a", 1, 1]}), z.ArgumentTypeError,
     "alpha[0]"),
    (lambda: z.mva_bounds([0.1], None, 2), z.ArgumentTypeError, "think_s"),
    (lambda: z.usl("x", 1, 0, 0), z.ArgumentTypeError, "n ="),
    (lambda: z.usl_peak(1.0, None, 0.0), z.ArgumentTypeError, "alpha"),
    (lambda: z.usl_fit(["a", "b", "c"], [1, 2, 3]), z.ArgumentTypeError, "n ="),
    (lambda: z.usl_fit([1, 2, NAN], [1, 2, 3]), z.InvalidArgumentError, "n[2] = nan"),
    (lambda: z.model(3), z.ArgumentTypeError, "model = 3"),
    (lambda: z.model(None), z.ArgumentTypeError, "model = None"),
    (lambda: z.eval("mmc", servers="x"), z.ArgumentTypeError, "servers"),
    (lambda: z.eval("spinlock", cpus=True), z.ArgumentTypeError, "cpus"),
    (lambda: z.eval("spinlock", cpus=[True, False]), z.ArgumentTypeError, "cpus"),
    (lambda: z.eval("mmc", servers=[]), z.InvalidArgumentError, "servers is empty"),
    (lambda: z.eval("mmc", servers=[1, 2], arrival_rate_per_s=[0.1, 0.2, 0.3]),
     z.BadLengthError, "arrival_rate_per_s (3,)"),
    (lambda: z.eval("mmc", [1, 2]), z.ArgumentTypeError, "params"),
    (lambda: z.eval("/nonexistent/x.ini"), z.ZvmperfIOError, "/nonexistent/x.ini"),
    (lambda: z.model("mmc").check(servers="x"), z.ArgumentTypeError, "servers"),
    (lambda: z.model("mmc").param(3), z.ArgumentTypeError, "parameter name"),
    (lambda: z.model("mmc").output(None), z.ArgumentTypeError, "output name"),
    (lambda: z.ModelFile.read(None), z.ArgumentTypeError, "path"),
    (lambda: z.ModelFile.new("mmc").set(servers="x"), z.ArgumentTypeError, "servers"),
    (lambda: z.ModelFile.new("mmc").set_stderr("servers", "x"), z.ArgumentTypeError,
     "servers"),
    (lambda: z.ModelFile.new("mmc").set_provenance(None, "x"), z.ArgumentTypeError,
     "provenance key"),
    (lambda: z.ModelFile.new("mmc").write(None), z.ArgumentTypeError, "path"),
    (lambda: z.parse_axis(3), z.ArgumentTypeError, "axis spec"),
    (lambda: z.sweep("mmc", None), z.ArgumentTypeError, "axes"),
    (lambda: z.sweep("mmc", [3]), z.ArgumentTypeError, "axes[0]"),
    (lambda: z.sweep("mmc", {"servers": ["x"]}), z.ArgumentTypeError, "axis servers"),
    (lambda: z.sweep("mmc", {"servers": [1]}, threads="x"), z.ArgumentTypeError, "threads"),
    (lambda: z.sweep("mmc", {"servers": [1]}, fixed=[1]), z.ArgumentTypeError, "fixed"),
    (lambda: z.sweep("mmc", {"servers": [1]}, path=5), z.ArgumentTypeError, "path"),
    (lambda: z.open_sweep(None), z.ArgumentTypeError, "path"),
    (lambda: z.read_table(None), z.ArgumentTypeError, "path"),
    (lambda: z.calibrate(None), z.ArgumentTypeError, "fit_path"),
    (lambda: z.read_fit("/nonexistent/fit.ini"), z.ZvmperfIOError, "/nonexistent/fit.ini"),
    (lambda: z.read_fit(MF_INI), z.ParseError, "[fit] model"),
    (lambda: z.strerror("x"), z.ArgumentTypeError, "status"),
]


@pytest.mark.parametrize("call,cls,text", BAD_CALLS,
                         ids=["bad%02d" % i for i in range(len(BAD_CALLS))])
def test_bad_arguments_raise_zvmperf_errors_naming_the_argument(call, cls, text):
    with pytest.raises(cls) as e:
        call()
    assert isinstance(e.value, z.ZvmperfError)
    assert text in str(e.value)
    if isinstance(e.value, z.ArgumentTypeError):
        assert isinstance(e.value, TypeError) and isinstance(e.value, ValueError)


def test_failed_sweep_gives_a_model_file_its_values_back(tmp_path):
    with z.ModelFile.new("mmc") as mf:
        before = mf.params
        with pytest.raises(z.ZvmperfIOError):
            mf.sweep({"arrival_rate_per_s": [0.1]}, tmp_path / "no" / "dir" / "s.h5",
                     fixed={"servers": 3})
        assert mf.params == before
        with pytest.raises(z.ArgumentTypeError):  # invalid axes: nothing is changed at all
            mf.sweep({"arrival_rate_per_s": ["x"]}, tmp_path / "s.h5", fixed={"servers": 3})
        assert mf.params == before and not os.path.exists(tmp_path / "s.h5")


# ---- 4. usl_fit must not return start values for unidentifiable data -----------------------
def test_usl_fit_refuses_data_that_cannot_identify_the_parameters():
    # X(N) measured at fewer than 3 distinct N: a whole curve of (gamma, alpha, beta) fits
    # exactly, so any "estimate" would be the start values (the tester's report)
    for n, x in [([1, 1, 1], [1, 1, 1]), ([1, 2, 2, 1], [1.0, 1.5, 1.5, 1.0])]:
        with pytest.raises(z.InvalidArgumentError, match="distinct") as e:
            z.usl_fit(n, x)
        assert e.value.status == _clib.ZVP_EINVAL


def _fake_usl_fit(gsl_status, alpha_se):
    def fake(n, x, length, out, err):
        r = out._obj
        r.gamma, r.alpha, r.beta = 1.0, 0.01, 1e-4
        r.gamma_se, r.alpha_se, r.beta_se = 0.0, alpha_se, 0.0
        r.iterations, r.gsl_status = 1, gsl_status
        return _clib.ZVP_SUCCESS
    return fake


def test_usl_fit_checks_gsl_status_and_standard_errors(monkeypatch):
    # a library that reports success with a failed GSL driver, or a non-finite standard
    # error, must not hand the numbers back as a fit
    monkeypatch.setattr(_clib, "zvp_usl_fit", _fake_usl_fit(27, 0.0))
    with pytest.raises(z.FitError, match="status 27"):
        z.usl_fit([1, 2, 4], [1.0, 1.8, 3.0])
    monkeypatch.setattr(_clib, "zvp_usl_fit", _fake_usl_fit(0, math.inf))
    with pytest.raises(z.FitError, match="alpha_se"):
        z.usl_fit([1, 2, 4, 8], [1.0, 1.8, 3.0, 4.0])
    monkeypatch.setattr(_clib, "zvp_usl_fit", _fake_usl_fit(0, 0.5))
    assert z.usl_fit([1, 2, 4, 8], [1.0, 1.8, 3.0, 4.0]).alpha_se == 0.5
    # 3 points: no residual degree of freedom, NaN standard errors are the documented result
    monkeypatch.setattr(_clib, "zvp_usl_fit", _fake_usl_fit(0, math.nan))
    assert math.isnan(z.usl_fit([1, 2, 4], [1.0, 1.8, 3.0]).alpha_se)
