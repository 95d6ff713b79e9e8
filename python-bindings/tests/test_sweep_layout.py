"""Sweep file layout 2 (netCDF-4 / CF) read by open_sweep and by xarray, to_xarray /
to_dataframe, exact-or-tolerant sel, progress callbacks, cancellation and Ctrl-C (issue 10).

Expected values come from closed forms (M/M/1: L = rho / (1 - rho)), from the axes given, or
from an independent evaluation (z.eval, one point at a time in C)."""
import math
import os
import signal
import subprocess
import sys
import textwrap
import time

import h5py
import numpy as np
import pytest

import zvmperf as z
from conftest import PKG_ROOT

LAM = np.array([0.2, 0.5, 0.9, 1.5])
AXES = {"arrival_rate_per_s": LAM, "servers": [1.0, 2.0]}
FIXED = {"service_rate_per_s": 1.0}
BLOCK = 65536  # the smallest sweep block (one HDF5 chunk), sweep.h


def _mm1_L(lam):
    rho = np.asarray(lam)
    return rho / (1 - rho)


def write_v2(path, g, status=None, complete=1):
    """A sweep file in layout 2 written with h5py from a Grid (as the C writer lays it out),
    so the reader is tested on a file it did not write."""
    status = g.status if status is None else status
    with h5py.File(path, "w") as f:
        f.attrs["Conventions"] = "CF-1.8"
        f.attrs["title"] = "zvmperf sweep of %s" % g.model
        f.attrs["model"] = g.model
        f.attrs["axes"] = ",".join(g.dims)
        f.attrs["sweep_layout_version"] = np.int32(2)
        f.attrs["sweep_complete"] = np.int32(complete)
        f.attrs["points_total"] = np.uint64(status.size)
        for n in g.dims:
            d = f.create_dataset(n, data=g.axes[n])
            d.make_scale(n)
            d.attrs["units"] = g.axis_units[n]
            d.attrs["long_name"] = g.axis_descriptions[n]
        for n, arr in list(g.outputs.items())[::-1]:  # reversed: the reader orders by model
            d = f.create_dataset(n, data=arr, fillvalue=np.nan, chunks=True, shuffle=True,
                                 compression="gzip", compression_opts=1)
            d.attrs["units"] = g.units[n]
            d.attrs["long_name"] = g.descriptions[n]
            d.attrs["_FillValue"] = np.float64(np.nan)
            for k, dim in enumerate(g.dims):
                d.dims[k].attach_scale(f[dim])
        d = f.create_dataset("status", data=status, fillvalue=0)
        d.attrs["long_name"] = "point status"
        d.attrs["flag_values"] = np.array([0, 1, 2, 3], dtype=np.uint8)
        d.attrs["flag_meanings"] = "not_computed ok no_steady_state invalid_input"
        d.attrs["_FillValue"] = np.uint8(0)
        for k, dim in enumerate(g.dims):
            d.dims[k].attach_scale(f[dim])
        p = f.create_group("parameters")
        for k, v in g.parameters.items():
            p.attrs[k] = v
            p.attrs[k + "_units"] = g.parameter_units[k]


@pytest.fixture(scope="module")
def mmc_grid():
    return z.grid("mmc", AXES, fixed=FIXED)


@pytest.fixture(scope="module")
def mmc_file(tmp_path_factory):
    return z.sweep("mmc", AXES, str(tmp_path_factory.mktemp("v2") / "mmc.h5"), fixed=FIXED)


def _layout(path):
    with h5py.File(path, "r") as f:
        return int(f.attrs.get("sweep_layout_version", 1))


# ---- reading layout 2 ---------------------------------------------------------------------
def test_open_sweep_reads_layout2_written_by_h5py(tmp_path, mmc_grid):
    p = tmp_path / "v2.h5"
    write_v2(p, mmc_grid)
    s = z.open_sweep(p)
    assert s.layout_version == 2 and s.complete and s.model == "mmc"
    assert s.dims == ("arrival_rate_per_s", "servers") and s.shape == (4, 2)
    assert list(s.outputs) == list(z.model("mmc").output_names)         # model order, not file
    assert s.axis_units == {"arrival_rate_per_s": "1/s", "servers": "1"}
    assert s.units["response_s"] == "s" and s.descriptions["response_s"]
    assert s.parameters == {"service_rate_per_s": 1.0}
    assert s.status_flags == {0: "not_computed", 1: "ok", 2: "no_steady_state",
                              3: "invalid_input"}
    assert s["mean_in_system"][:3, 0] == pytest.approx(_mm1_L(LAM[:3]), rel=1e-12)
    assert s.status[3, 0] == 2 and np.isnan(s["mean_in_system"][3, 0])
    assert s.attrs["Conventions"] == "CF-1.8" and s.attrs["points_total"] == 8


def test_open_sweep_layout2_axes_from_dimension_scales_and_partial(tmp_path, mmc_grid):
    p = tmp_path / "partial.h5"
    st = mmc_grid.status.copy()
    st[2:] = 0
    write_v2(p, mmc_grid, status=st, complete=0)
    with h5py.File(p, "a") as f:
        del f.attrs["axes"]          # the dims then come from the scales attached to /status
    s = z.open_sweep(p)
    assert s.dims == mmc_grid.dims and not s.complete and "partial" in repr(s)
    assert (s.status[2:] == 0).all() and (s.status[:2] == 1).all()


def test_open_sweep_layout2_refuses_what_is_not_a_sweep(tmp_path, mmc_grid):
    p = tmp_path / "bad.h5"
    write_v2(p, mmc_grid)
    with h5py.File(p, "a") as f:
        del f["utilization"]
        f.create_dataset("utilization", data=[0.5])
    with pytest.raises(z.ParseError, match="/utilization is not a dataset"):
        z.open_sweep(p)
    write_v2(p, mmc_grid)
    with h5py.File(p, "a") as f:
        f.attrs["sweep_layout_version"] = np.int32(3)
    with pytest.raises(z.ParseError, match="sweep_layout_version = 3"):
        z.open_sweep(p)
    with h5py.File(p, "w") as f:
        f.attrs["model"] = "mmc"
        f.create_dataset("status", data=np.ones(2, dtype=np.uint8))
    with pytest.raises(z.ParseError, match="'sweep_layout_version'.*no group /axes"):
        z.open_sweep(p)


def test_missing_file_names_the_partial_one(tmp_path):
    out = tmp_path / "out.h5"
    (tmp_path / "out.h5.partial").write_bytes(b"")
    with pytest.raises(z.ZvmperfIOError, match=r"out\.h5\.partial.*resume=True"):
        z.open_sweep(out)


# ---- a real sweep file opened by xarray and pandas -----------------------------------------
def test_real_sweep_file_opens_in_xarray(mmc_file):
    xr = pytest.importorskip("xarray")
    if _layout(mmc_file) != 2:
        pytest.skip("the library still writes sweep layout 1")
    ds = xr.open_dataset(mmc_file, engine="h5netcdf")
    try:
        assert list(ds.coords) == ["arrival_rate_per_s", "servers"]
        assert set(ds.data_vars) == set(z.model("mmc").output_names) | {"status"}
        np.testing.assert_array_equal(ds["arrival_rate_per_s"].values, LAM)
        assert ds["arrival_rate_per_s"].attrs["units"] == "1/s"
        assert ds["servers"].attrs["long_name"] == z.model("mmc").param("servers").description
        assert ds["response_s"].attrs["units"] == "s"
        assert ds["response_s"].dims == ("arrival_rate_per_s", "servers")
        L = ds["mean_in_system"].sel(servers=1.0).values
        assert L[:3] == pytest.approx(_mm1_L(LAM[:3]), rel=1e-12) and np.isnan(L[3])
        assert ds["status"].attrs["flag_meanings"] == \
            "not_computed ok no_steady_state invalid_input"
        assert list(ds["status"].attrs["flag_values"]) == [0, 1, 2, 3]
        assert ds.attrs["Conventions"] == "CF-1.8" and ds.attrs["model"] == "mmc"
        assert int(ds.attrs["sweep_complete"]) == 1
        # open_sweep(...).to_xarray() has the same names, values and units
        mine = z.open_sweep(mmc_file).to_xarray()
        assert list(mine.coords) == list(ds.coords)
        assert set(mine.data_vars) == set(ds.data_vars)
        for n in mine.data_vars:
            assert mine[n].attrs.get("units") == ds[n].attrs.get("units"), n
            if n != "status":
                np.testing.assert_array_equal(mine[n].values, ds[n].values)
    finally:
        ds.close()


def test_to_xarray_and_to_dataframe(mmc_file, mmc_grid):
    pytest.importorskip("xarray")
    pd = pytest.importorskip("pandas")
    for obj in (z.open_sweep(mmc_file), mmc_grid):
        ds = obj.to_xarray()
        assert ds["arrival_rate_per_s"].attrs["units"] == "1/s"
        assert ds["status"].dtype == np.uint8 and int(ds["status"][3, 0]) == 2
        assert ds["wait_s"].attrs["units"] == "s" and ds.attrs["model"] == "mmc"
        df = obj.to_dataframe()
        assert isinstance(df, pd.DataFrame) and len(df) == 8          # one row per point
        assert list(df.columns) == (["arrival_rate_per_s", "servers"]
                                    + list(z.model("mmc").output_names) + ["status"])
        # row i is flat point i: the last axis varies fastest
        np.testing.assert_array_equal(df["arrival_rate_per_s"], np.repeat(LAM, 2))
        np.testing.assert_array_equal(df["servers"], np.tile([1.0, 2.0], 4))
        mm1 = df[df.servers == 1.0]
        assert mm1["mean_in_system"].values[:3] == pytest.approx(_mm1_L(LAM[:3]), rel=1e-12)
        assert list(df["status"]) == [1, 1, 1, 1, 1, 1, 2, 1]
        assert df.attrs["units"]["wait_s"] == "s"


def test_sel_exact_nearest_within_tol_or_raise(mmc_file, mmc_grid):
    for obj in (z.open_sweep(mmc_file), mmc_grid):
        assert obj.sel("mean_in_system", arrival_rate_per_s=0.5, servers=1) == 1.0  # exact
        with pytest.raises(z.NotFoundError) as ei:
            obj.sel("mean_in_system", arrival_rate_per_s=0.55, servers=1)
        msg = ei.value.message
        assert "arrival_rate_per_s" in msg and "0.55" in msg and "nearest is 0.5" in msg
        assert obj.sel("mean_in_system", tol=0.051, arrival_rate_per_s=0.55, servers=1) == 1.0
        assert obj.sel("mean_in_system", tol={"arrival_rate_per_s": 0.06},
                       arrival_rate_per_s=0.55, servers=1) == 1.0
        with pytest.raises(z.NotFoundError, match="nearest is 0.5"):
            obj.sel("mean_in_system", tol=0.01, arrival_rate_per_s=0.55, servers=1)
        row = obj.sel("status", servers=2)                    # other axes: all
        assert list(row) == [1, 1, 1, 1]
        with pytest.raises(KeyError, match="no_axis"):
            obj.sel("wait_s", no_axis=1)
        with pytest.raises(z.InvalidArgumentError, match="tol"):
            obj.sel("wait_s", tol=-1, servers=1.5)


# ---- progress, cancellation, Ctrl-C --------------------------------------------------------
def _big_axes(n_lam=700, n_servers=300):
    """n_lam x n_servers M/M/c points: more than 3 sweep blocks at the default size."""
    return {"arrival_rate_per_s": np.linspace(0.05, 0.95, n_lam),
            "servers": np.arange(1.0, n_servers + 1)}


def test_sweep_progress_callback_counts(tmp_path):
    calls = []
    n = 700 * 300
    p = z.sweep("mmc", _big_axes(), tmp_path / "big.h5", fixed=FIXED, threads=2,
                progress=lambda done, total: calls.append((done, total)))
    assert p.summary["points"] == n
    assert calls[0] == (0, n) and calls[-1] == (n, n)
    assert all(t == n for _, t in calls)
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(set(done)) == len(done)
    assert len(calls) - 1 >= math.ceil(n / BLOCK)      # one call per block after the first
    assert all(b - a <= BLOCK for a, b in zip(done, done[1:]))


def test_sweep_cancel_after_two_blocks_keeps_partial_then_resumes(tmp_path):
    out = tmp_path / "cancel.h5"
    out.write_bytes(b"an older file that must survive")
    calls = []

    def stop_after_two_blocks(done, total):
        calls.append(done)
        return len(calls) > 2                  # the start call, then two blocks

    with pytest.raises(z.CanceledError) as ei:
        z.sweep("mmc", _big_axes(), out, fixed=FIXED, progress=stop_after_two_blocks)
    assert ei.value.status == z._clib.ZVP_ECANCELED
    assert "resume=True" in str(ei.value) and "cancel.h5.partial" in str(ei.value)
    assert len(calls) == 3                      # stopped right after the block it was told
    assert out.read_bytes() == b"an older file that must survive"
    part = z.open_sweep(str(out) + ".partial")
    assert not part.complete
    assert int((part.status != 0).sum()) == calls[-1]   # exactly the two blocks' points
    # resume: only the rest is computed, and the result equals an uninterrupted sweep
    resumed = []
    p = z.sweep("mmc", _big_axes(), out, fixed=FIXED, resume=True,
                progress=lambda d, t: resumed.append(d))
    assert resumed[0] == calls[-1] and resumed[-1] == 700 * 300
    assert not os.path.exists(str(out) + ".partial")
    full = z.open_sweep(z.sweep("mmc", _big_axes(), tmp_path / "full.h5", fixed=FIXED))
    s = z.open_sweep(p)
    assert s.complete and np.array_equal(s.status, full.status)
    for name in full.outputs:
        np.testing.assert_array_equal(s[name], full[name], err_msg=name)


def test_progress_callback_exception_is_raised_after_the_sweep_stops(tmp_path):
    class Boom(Exception):
        pass

    def boom(done, total):
        if done:
            raise Boom("from the callback")

    with pytest.raises(Boom):
        z.sweep("mmc", _big_axes(), tmp_path / "boom.h5", fixed=FIXED, progress=boom)
    assert not os.path.exists(tmp_path / "boom.h5")


def test_progress_true_draws_a_bar_on_stderr(tmp_path, capsys):
    z.sweep("mmc", AXES, tmp_path / "bar.h5", fixed=FIXED, progress=True)
    err = capsys.readouterr().err
    assert "8/8" in err and "sweep mmc" in err


def test_progress_argument_checked(tmp_path):
    with pytest.raises(z.ArgumentTypeError, match="progress"):
        z.sweep("mmc", AXES, tmp_path / "x.h5", progress="yes")
    with pytest.raises(z.InvalidArgumentError, match="resume"):
        z.sweep("mmc", AXES, None, resume=True)
    assert not os.path.exists(tmp_path / "x.h5")


def test_grid_progress_chunks_give_the_same_bits():
    calls = []
    axes = _big_axes(300, 300)
    g = z.grid("mmc", axes, fixed=FIXED, progress=lambda d, t: calls.append(d))
    n = 300 * 300
    assert calls == [0] + [min(n, k * BLOCK) for k in range(1, math.ceil(n / BLOCK) + 1)]
    lam, c = np.meshgrid(axes["arrival_rate_per_s"], axes["servers"], indexing="ij")
    ev = z.eval("mmc", arrival_rate_per_s=lam, servers=c, on_error="nan", **FIXED)
    assert np.array_equal(ev.status, g.status)
    for name in g.outputs:
        assert np.array_equal(ev[name].view(np.uint64), g[name].view(np.uint64)), name
    with pytest.raises(z.CanceledError, match="65536 of 90000"):
        z.grid("mmc", axes, fixed=FIXED, progress=lambda d, t: d > 0)


_CHILD = textwrap.dedent("""
    import os, sys, time
    import numpy as np
    import zvmperf as z
    out = sys.argv[1]
    def slow(done, total):           # keep the sweep running long enough to be interrupted
        if done:
            print("block", done, flush=True)
        time.sleep(0.05)
    try:
        z.sweep("mmc", {"arrival_rate_per_s": np.linspace(0.05, 0.95, 2000),
                        "servers": np.arange(1.0, 1001)}, out,
                fixed={"service_rate_per_s": 1.0}, progress=slow)
        print("finished", flush=True)
    except KeyboardInterrupt as e:
        print("KeyboardInterrupt:", e, flush=True)
        sys.exit(3)
""")


def test_ctrl_c_stops_a_sweep_within_one_block(tmp_path):
    out = str(tmp_path / "sigint.h5")
    env = dict(os.environ, PYTHONPATH=PKG_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", _CHILD, out], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = child.stdout.readline()
        assert first.startswith("block"), first + child.stderr.read()
        child.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        rest, err = child.communicate(timeout=60)
        elapsed = time.monotonic() - t0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 3, rest + err
    assert "KeyboardInterrupt: sweep interrupted (SIGINT)" in rest
    assert "sigint.h5.partial" in rest and "resume=True" in rest
    blocks_after = [ln for ln in rest.splitlines() if ln.startswith("block")]
    assert len(blocks_after) <= 2, rest      # the block running at SIGINT, at most one more
    assert elapsed < 30
    assert not os.path.exists(out) and os.path.exists(out + ".partial")
    part = z.open_sweep(out + ".partial")
    assert not part.complete and 0 < int((part.status != 0).sum()) < part.status.size
