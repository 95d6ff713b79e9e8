"""The calibration report .h5, layout 2 (netCDF-4 / CF, calibration/README.md "HDF5"): read
by h5py (datasets and their dimension scales) and by xarray (engine="h5netcdf"), with every
value equal to the result in memory (Calibration) and each row's inputs equal to the fit
file's (FitData, read independently of the report writer)."""
import os
import shutil
import subprocess

import h5py
import numpy as np
import pytest

import zvmperf as z
from conftest import CALIB

FIT = os.path.join(CALIB, "fits", "sweetspot-zvm63.ini")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("report") / "cal.h5")
    cal = z.calibrate(FIT, report_h5=path)
    yield cal, z.read_fit(FIT), path
    cal.close()


def _dims(ds):
    return tuple(d[0].name.lstrip("/") if len(d) else None for d in ds.dims)


def test_report_h5py_dims_and_values(report):
    cal, fd, path = report
    nr, nm, p = len(cal.row_labels), len(cal.output_names), len(cal.param_names)
    with h5py.File(path, "r") as f:
        for name in ("measured", "fitted", "residual", "residual_pct"):
            assert _dims(f[name]) == ("row", "output") and f[name].shape == (nr, nm)
        for name in ("estimate", "stderr", "lo", "hi", "start", "estimate_flag"):
            assert _dims(f[name]) == ("parameter",) and f[name].shape == (p,)
        assert _dims(f["covariance"]) == ("parameter", "parameter")
        for name in ("r2", "rmse", "mape", "cells"):
            assert _dims(f[name]) == ("output",)
        for name in ("start_cost", "start_iterations", "start_status"):
            assert _dims(f[name]) == ("start_number",)
        # integers stored as integers
        for name in ("row", "start_number", "cells", "start_iterations", "start_status",
                     "estimate_flag"):
            assert f[name].dtype.kind == "i", name
        for name in ("dof", "iterations", "best_start", "rows", "measured_cells"):
            assert np.asarray(f.attrs[name]).dtype.kind == "i", name
        assert int(f.attrs["dof"]) == cal.dof and int(f.attrs["rows"]) == nr
        assert f.attrs["Conventions"] == "CF-1.8" and f.attrs["fit_file"] == FIT
        for key in ("title", "data_file", "model", "created", "zvmperf_version", "method"):
            assert f.attrs[key], key
        # values: those of the result in memory
        np.testing.assert_array_equal(f["row"][()], np.arange(nr))
        assert [s.decode() for s in f["label"][()]] == cal.row_labels
        assert [s.decode() for s in f["parameter"][()]] == cal.param_names
        assert [s.decode() for s in f["output"][()]] == cal.output_names
        np.testing.assert_array_equal(f["measured"][()], cal.measured)
        np.testing.assert_array_equal(f["fitted"][()], cal.fitted)
        np.testing.assert_array_equal(f["residual"][()], cal.residuals)
        np.testing.assert_allclose(f["residual_pct"][()], cal.residuals_pct, rtol=1e-12)
        np.testing.assert_array_equal(f["estimate"][()], cal.estimate_vector)
        np.testing.assert_array_equal(f["stderr"][()], cal.stderr_vector)
        np.testing.assert_array_equal(f["covariance"][()], cal.covariance)
        np.testing.assert_array_equal(f["cells"][()], np.isfinite(cal.measured).sum(axis=0))
        # each row's inputs, as the fit file gives them
        assert list(fd.inputs)
        for name, values in fd.inputs.items():
            v = f["input_" + name]
            assert _dims(v) == ("row",) and v.attrs["parameter"] == name and v.attrs["units"]
            np.testing.assert_array_equal(v[()], values)


def test_report_xarray(report):
    xr = pytest.importorskip("xarray")
    pytest.importorskip("h5netcdf")
    cal, fd, path = report
    with xr.open_dataset(path, engine="h5netcdf") as ds:
        assert {"row", "parameter", "output", "start_number"} <= set(ds.dims)
        assert {"label", "output_units", "parameter_units"} <= set(ds.coords)
        assert {"input_" + n for n in fd.inputs} <= set(ds.coords)
        assert list(ds["output"].values) == cal.output_names
        assert list(ds["parameter"].values) == cal.param_names
        assert ds["measured"].dims == ("row", "output")
        assert ds["covariance"].dims == ("parameter", "parameter")
        j = cal.output_names.index("etr")
        np.testing.assert_array_equal(ds["fitted"].sel(output="etr").values, cal.fitted[:, j])
        for k, name in enumerate(cal.param_names):
            assert float(ds["estimate"].sel(parameter=name)) == cal.estimate_vector[k]
        assert ds["input_storage_gb"].attrs["units"] and ds["input_storage_gb"].attrs["long_name"]
        assert ds.attrs["Conventions"] == "CF-1.8"


@pytest.mark.skipif(shutil.which("ncdump") is None, reason="netcdf-bin not installed")
def test_report_ncdump(report):
    out = subprocess.run(["ncdump", "-h", report[2]], check=True, capture_output=True,
                         text=True).stdout
    for want in ("row = 12 ;", "double measured(row, output) ;", "int64 cells(output) ;",
                 "double covariance(parameter, parameter) ;", ":Conventions = \"CF-1.8\" ;"):
        assert want in out, want
