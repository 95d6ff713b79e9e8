"""Sweep -> open_sweep round trips, and calibration on a committed fit file (nothing written
into calibration/)."""
import hashlib
import os

import h5py
import numpy as np
import pytest

import zvmperf as z
from conftest import CALIB


def test_sweep_roundtrip_axes_units_status(tmp_path):
    lam = np.array([0.2, 0.5, 0.9, 1.5])
    path = z.sweep("mmc", {"arrival_rate_per_s": lam, "servers": [1, 2]},
                   tmp_path / "mmc.h5", fixed={"service_rate_per_s": 1.0}, threads=2)
    assert path == str(tmp_path / "mmc.h5") and os.path.exists(path)
    assert path.summary["points"] == 8 and path.summary["unstable"] == 1
    s = z.open_sweep(path)
    assert s.model == "mmc" and s.dims == ("arrival_rate_per_s", "servers")
    assert np.array_equal(s.axes["arrival_rate_per_s"], lam)
    assert s.axis_units == {"arrival_rate_per_s": "1/s", "servers": "1"}
    assert s.units["response_s"] == "s" and s.shape == (4, 2)
    assert s.parameters["service_rate_per_s"] == 1.0
    assert s.parameter_units["service_rate_per_s"] == "1/s"
    # status: lam = 1.5 with one server has no steady state; everything else is ok
    expect = np.ones((4, 2), dtype=np.uint8)
    expect[3, 0] = 2
    assert np.array_equal(s.status, expect)
    assert np.isnan(s["mean_in_system"][3, 0])
    rho = lam[:3]
    assert s["mean_in_system"][:3, 0] == pytest.approx(rho / (1 - rho), rel=1e-12)  # M/M/1
    assert s.sel("mean_in_system", arrival_rate_per_s=0.5, servers=1) == pytest.approx(1.0)
    # the same grid evaluated in Python gives the same numbers
    ev = z.eval("mmc", arrival_rate_per_s=lam[:, None], servers=np.array([1, 2])[None, :],
                service_rate_per_s=1.0, on_error="nan")
    assert np.array_equal(ev.status, s.status)
    np.testing.assert_array_equal(ev["wait_s"], s["wait_s"])


def test_sweep_of_model_file_restores_fixed_and_parses_text_axes(tmp_path):
    with z.ModelFile.read(os.path.join(CALIB, "params", "sweetspot-zvm64.ini")) as mf:
        before = mf.vector.copy()
        p = z.sweep(mf, {"storage_gb": "256:2048:256"}, tmp_path / "s.h5", fixed={"cpus": 128})
        assert np.array_equal(mf.vector, before)
        s = z.open_sweep(p)
        assert len(s.axes["storage_gb"]) == 8 and s.parameters["cpus"] == 128
        assert "sweetspot" in s.attrs["model_file"]
        ev = mf.eval(storage_gb=s.axes["storage_gb"], cpus=128)
        np.testing.assert_array_equal(ev["etr"], s["etr"])


def test_sweep_errors_carry_c_message(tmp_path):
    with pytest.raises(z.NotFoundError) as ei:
        z.sweep("mmc", {"no_param": [1.0]}, tmp_path / "x.h5")
    assert "no_param" in ei.value.message
    with pytest.raises(z.ZvmperfIOError):
        z.sweep("mmc", {"servers": [1, 2]}, tmp_path / "no" / "dir" / "x.h5")


def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_calibrate_sweetspot_63_writes_only_where_asked(tmp_path):
    fit = os.path.join(CALIB, "fits", "sweetspot-zvm63.ini")
    committed = os.path.join(CALIB, "params", "sweetspot-zvm63.ini")
    before = _digest(committed)
    cal = z.calibrate(fit, output=tmp_path / "cal.ini", report_h5=tmp_path / "cal.h5")
    assert _digest(committed) == before                        # committed file untouched
    assert os.path.abspath(cal.fit_output_path) == os.path.abspath(committed)
    fd = z.read_fit(fit)
    p = len(cal.param_names)
    assert cal.param_names == list(fd.free)        # the fit file's [free] section, in order
    assert cal.covariance.shape == (p, p) and cal.converged
    assert cal.measured.shape == cal.fitted.shape == (12, len(cal.output_names))  # Tables 3 + 4
    np.testing.assert_allclose(cal.residuals, cal.fitted - cal.measured)
    # covariance is symmetric and its diagonal gives the standard errors where defined
    cov = cal.covariance
    ok = np.isfinite(np.diag(cov))
    np.testing.assert_allclose(cov[np.ix_(ok, ok)], cov[np.ix_(ok, ok)].T, rtol=1e-12)
    np.testing.assert_allclose(np.sqrt(np.diag(cov)[ok]), cal.stderr_vector[ok], rtol=1e-9)
    assert cal.dof == int(np.isfinite(cal.measured).sum()) - p and 0 < cal.mape_all < 10
    # the fitted values are the model at the estimates: recompute them through Python (the
    # fit file's [fixed]/[inputs] read by FitData, the written model file evaluated per row)
    pred = fd.predict(str(tmp_path / "cal.ini"))
    for j, name in enumerate(cal.output_names):
        np.testing.assert_allclose(pred[name], cal.fitted[:, j], rtol=1e-9, err_msg=name)
        np.testing.assert_array_equal(fd.matched[name], cal.measured[:, j])
    # the HDF5 report holds the same estimates
    with h5py.File(tmp_path / "cal.h5", "r") as f:
        np.testing.assert_allclose(f["estimate"][()], cal.estimate_vector, rtol=1e-12)
    with z.ModelFile.read(tmp_path / "cal.ini") as back:
        for k, v in cal.estimates.items():
            assert back.params[k] == pytest.approx(v, rel=1e-9)
    assert "free parameters" in cal.report()
    cal.close()
    with pytest.raises(ValueError):
        cal.report()


def test_calibrate_missing_fit_file(tmp_path):
    with pytest.raises(z.ZvmperfIOError) as ei:
        z.calibrate(tmp_path / "none.ini")
    assert "none.ini" in ei.value.message
