"""Arrays go to C in one call: broadcast eval (zvp_eval_points), grids in memory
(zvp_eval_grid), the single-station kernels and the USL over arrays (zvp_station_batch).
Every result is compared bit for bit with the scalar calls; errors name the argument and the
index of the bad point. Plus: the public names of the package before the split are all still
exported."""
import math
import os

import numpy as np
import pytest

import zvmperf as z
from conftest import CALIB
from zvmperf import _clib

# __all__ of zvmperf.api before the package was split into modules (kept verbatim).
NAMES_BEFORE_SPLIT = [
    "ZvmperfError", "InvalidArgumentError", "ArgumentTypeError", "BadLengthError", "UnstableError",
    "NoMemoryError", "MaxIterError", "ZvmperfIOError", "NotFoundError", "ParseError",
    "FitError", "version", "library_path", "strerror",
    "erlang_b", "erlang_c", "mmc", "mm1", "repairman", "Station", "mva", "StationResult",
    "MvaResult", "mmck", "mminf", "LossResult", "open_network", "OpenResult", "mva_multi",
    "mva_approx", "MvaMultiResult", "mva_ld", "mva_bounds", "Bounds", "usl", "usl_peak",
    "usl_fit", "UslFit", "ParamDesc", "Model", "models", "model_names", "model", "eval",
    "EvalResult", "ModelFile", "read_model_file", "parse_axis", "sweep", "SweepPath",
    "open_sweep", "Sweep", "Table", "read_table", "Calibration", "calibrate", "FitData",
    "read_fit",
]


def test_every_name_exported_before_the_split_still_is():
    from zvmperf import api
    for name in NAMES_BEFORE_SPLIT + ["__version__"]:
        assert name in z.__all__, name
        assert hasattr(z, name), name
    for name in NAMES_BEFORE_SPLIT:
        assert getattr(api, name) is getattr(z, name), name   # the old module is an alias
    assert callable(z.models) and callable(z.sweep) and callable(z.eval)  # not hidden


def test_modules_stay_small():
    pkg = os.path.dirname(z.__file__)
    for f in os.listdir(pkg):
        if f.endswith(".py"):
            with open(os.path.join(pkg, f)) as fp:
                assert sum(1 for _ in fp) <= 700, f


class _Counter:
    """Wraps a C function object and counts the calls."""

    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *a):
        self.calls += 1
        return self.fn(*a)


def _same_bits(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- broadcast eval -------------------------------------------------------------------------
def test_broadcast_eval_is_one_c_call_bit_identical_to_scalar(monkeypatch):
    mf = z.ModelFile.read(os.path.join(CALIB, "params", "sweetspot-zvm64.ini"))
    storage = np.linspace(256.0, 4096.0, 13)
    cpus = np.array([[16.0], [48.0], [128.0]])
    points = _Counter(_clib.zvp_eval_points)
    monkeypatch.setattr(_clib, "zvp_eval_points", points)
    scalar = _Counter(_clib.zvp_model_eval)
    monkeypatch.setattr(_clib, "zvp_model_eval", scalar)
    vec = {t: mf.eval(storage_gb=storage, cpus=cpus, threads=t) for t in (1, 2, 3)}
    assert points.calls == 3 and scalar.calls == 0        # the grid went to C, no Python loop
    for t in (2, 3):                                       # any thread count, same bits
        for name in mf.model.output_names:
            assert _same_bits(vec[t][name], vec[1][name]), name
    r = vec[2]
    assert r["etr"].shape == (3, 13) and (r.status == 1).all()
    assert np.array_equal(r.params["storage_gb"], np.broadcast_to(storage, (3, 13)))
    assert r.params["cpus"].shape == (3, 13) and r.params["users_per_phase"] == \
        mf.params["users_per_phase"]
    monkeypatch.undo()
    for i in range(3):
        for j in range(13):
            one = mf.eval(storage_gb=storage[j], cpus=cpus[i, 0])
            for name in mf.model.output_names:
                assert _same_bits(r[name][i, j], one[name]), (name, i, j)
    mf.close()


def test_broadcast_eval_statuses_and_first_failing_point():
    lam = np.array([[0.5, 2.5, 0.9], [3.5, 0.1, 1.2]])
    r = z.eval("mmc", arrival_rate_per_s=lam, servers=np.array([1.0, 2.0, 1.0]),
               on_error="nan")
    # utilization lam / c: 0.5, 1.25, 0.9 / 3.5, 0.05, 1.2
    assert r.status.tolist() == [[1, 2, 1], [2, 1, 2]] and r.status.dtype == np.uint8
    assert np.isnan(r["wait_s"][r.status != 1]).all()
    assert r["mean_in_system"][0, 2] == pytest.approx(0.9 / 0.1, rel=1e-12)
    for (i, j), c in (((0, 0), 1), ((0, 2), 1), ((1, 1), 2)):
        assert _same_bits(r["response_s"][i, j],
                          z.eval("mmc", arrival_rate_per_s=lam[i, j], servers=c)["response_s"])
    with pytest.raises(z.UnstableError) as ei:     # the first failing flat index is 1
        z.eval("mmc", arrival_rate_per_s=lam, servers=np.array([1.0, 2.0, 1.0]))
    msg = str(ei.value)
    assert msg.startswith("point 1 (arrival_rate_per_s=2.5, servers=2)") and "utilization" in msg
    # an invalid value at a point: status 3, and the message of that point
    r = z.eval("mmc", servers=np.array([1.0, 1.5, 2.0]), on_error="nan")
    assert r.status.tolist() == [1, 3, 1]
    with pytest.raises(z.InvalidArgumentError, match=r"point 1 \(servers=1.5\)"):
        z.eval("mmc", servers=np.array([1.0, 1.5, 2.0]))


def test_eval_threads_argument_is_checked():
    with pytest.raises(z.InvalidArgumentError, match="threads"):
        z.eval("mmc", servers=[1, 2], threads=-1)
    with pytest.raises(z.ArgumentTypeError, match="threads"):
        z.model("mmc").eval(servers=[1, 2], threads="two")


# ---- grids in memory ------------------------------------------------------------------------
def test_grid_in_memory_equals_sweep_file_and_eval(tmp_path):
    lam = np.array([0.2, 0.5, 0.9, 1.5])
    axes = {"arrival_rate_per_s": lam, "servers": [1, 2]}
    g = z.grid("mmc", axes, fixed={"service_rate_per_s": 1.0}, threads=2)
    s = z.open_sweep(z.sweep("mmc", axes, tmp_path / "mmc.h5", fixed={"service_rate_per_s": 1.0}))
    assert g.dims == s.dims and g.shape == s.shape == (4, 2) and g.path is None
    assert dict(g.axis_units) == dict(s.axis_units) and dict(g.units) == dict(s.units)
    assert g.parameters["service_rate_per_s"] == 1.0 == s.parameters["service_rate_per_s"]
    assert np.array_equal(g.status, s.status) and g.status[3, 0] == 2
    for name in s.outputs:
        assert _same_bits(g[name], s[name]), name
    assert g.sel("mean_in_system", arrival_rate_per_s=0.5, servers=1) == pytest.approx(1.0)
    ev = z.eval("mmc", arrival_rate_per_s=lam[:, None], servers=np.array([1, 2])[None, :],
                service_rate_per_s=1.0, on_error="nan")
    assert _same_bits(ev["wait_s"], g["wait_s"])
    with pytest.raises(z.UnstableError, match="utilization"):
        z.grid("mmc", axes, fixed={"service_rate_per_s": 1.0}, on_error="raise")
    with pytest.raises(z.NotFoundError, match="no_param"):
        z.grid("mmc", {"no_param": [1.0]})
    with z.ModelFile.new("mmc") as mf:                     # a ModelFile is not changed
        before = mf.params
        assert mf.grid({"servers": [1, 2]}, fixed={"arrival_rate_per_s": 0.5}).ok.all()
        assert mf.params == before


# ---- kernels over arrays --------------------------------------------------------------------
KERNEL_CASES = [
    # (function, broadcast arguments, scalar -> tuple of floats)
    (z.erlang_b, (np.array([0.0, 2.0, 37.5, 150.0]), np.array([[0], [3], [200]])),
     lambda r: (r,)),
    (z.erlang_c, (np.array([0.5, 2.0, 150.0]), np.array([[1], [3], [200]])), lambda r: (r,)),
    (z.mmc, (np.array([0.3, 1.5, 4.0]), 1.0, np.array([[1], [2], [5]])), tuple),
    (z.mm1, (np.array([0.1, 0.5, 0.99, 1.0]), np.array([[1.0], [2.0]])), tuple),
    (z.mmck, (np.array([0.8, 2.0, 30.0]), 1.0, np.array([[1], [3], [20]]), 40), tuple),
    (z.mminf, (np.array([0.0, 3.0, 1e6]), np.array([[2.0], [0.5]])), tuple),
    (z.repairman, (np.array([0, 2, 10, 500]), 1.0, np.array([[1.0], [0.05]]), 2), tuple),
    (z.usl, (np.array([0.0, 1.0, 8.0, 64.0]), 100.0, np.array([[0.05], [1.5]]), 0.001),
     lambda r: (r,)),
]


@pytest.mark.parametrize("fn,args,fields", KERNEL_CASES, ids=[c[0].__name__ for c in KERNEL_CASES])
def test_kernel_over_arrays_is_one_c_call_bit_identical_to_scalar(monkeypatch, fn, args, fields):
    batch = _Counter(_clib.zvp_station_batch)
    monkeypatch.setattr(_clib, "zvp_station_batch", batch)
    res = fn(*args, on_error="nan")
    assert batch.calls == 1
    monkeypatch.undo()
    shape = np.broadcast(*[np.asarray(a) for a in args]).shape
    vals = [res] if isinstance(res, np.ndarray) else list(res[:-1])
    status = res.status if hasattr(res, "status") else None
    n_ok = 0
    for idx in np.ndindex(*shape):
        point = [np.broadcast_to(a, shape)[idx] for a in args]
        try:
            want = fields(fn(*point))
        except z.ZvmperfError as e:
            want = None
            code = 2 if isinstance(e, z.UnstableError) else 3
        if status is not None:
            assert status[idx] == (1 if want is not None else code), idx
        for k, v in enumerate(vals):
            if want is None:
                assert math.isnan(v[idx])
            else:
                assert _same_bits(v[idx], want[k]), (idx, k)
        n_ok += want is not None
    assert n_ok > 0


def test_kernel_over_arrays_raises_at_the_first_failing_point():
    lam = np.array([0.5, 0.7, 3.0, 5.0])
    with pytest.raises(z.UnstableError) as ei:
        z.mmc(lam, 1.0, 2)
    assert str(ei.value).startswith("point 2 (arrival_rate_per_s=3, service_rate_per_s=1, "
                                    "servers=2): utilization")
    with pytest.raises(z.InvalidArgumentError) as ei:
        z.mmc([0.5, -1.0], 1.0)
    assert "point 1 (arrival_rate_per_s=-1" in str(ei.value) and "arrival_rate_per_s = -1" \
        in str(ei.value)
    with pytest.raises(z.InvalidArgumentError) as ei:   # outside the law's domain
        z.usl([1.0, 0.0], 1.0, 1.5, 0.0)
    assert str(ei.value).startswith("point 1 (n=0, gamma=1, alpha=1.5, beta=0): ")
    r = z.erlang_c([1.0, 3.0], 2, on_error="nan")
    assert math.isnan(r[1]) and r[0] == z.erlang_c(1.0, 2)


@pytest.mark.parametrize("call,text", [
    (lambda: z.mmc(0.5, 1.0, [1, 1.5]), "servers[1] = 1.5: must be an integer >= 1"),
    (lambda: z.mmc([0.5, 0.6], 1.0, [[1, 2], [0, 1]]), "servers[1, 0] = 0.0: must be an "
                                                         "integer >= 1"),
    (lambda: z.erlang_b([1.0, 2.0], [2, -1]), "servers[1] = -1.0: must be an integer >= 0"),
    (lambda: z.erlang_b([1.0, 2.0], [2, np.nan]), "servers[1] = nan"),
    (lambda: z.repairman([3, 2.5], 1.0, 1.0), "sources[1] = 2.5"),
    (lambda: z.repairman([3, 2], 1.0, 1.0, [1, 0]), "servers[1] = 0.0"),
    (lambda: z.mmck([1.0, 2.0], 1.0, 1, [3, 0.5]), "capacity[1] = 0.5"),
    (lambda: z.mmck([1.0, 2.0], 1.0, [1, 1], 2.5), "capacity = 2.5"),
])
def test_bad_count_in_an_array_names_argument_and_index(call, text):
    # raised whatever on_error says (as for scalars): a count must be an integer
    with pytest.raises(z.InvalidArgumentError) as ei:
        call()
    assert text in str(ei.value)
