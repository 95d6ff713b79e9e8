"""zvmperf._labelled - what Grid (a grid in memory) and Sweep (a sweep file read back) share
(private): access by name, exact or tolerant selection by axis value, and conversion to
xarray (python3-xarray) and pandas (python3-pandas), imported only when asked for.
"""
import math
from collections import OrderedDict

import numpy as np

from . import _clib as C
from ._args import _float
from .errors import InvalidArgumentError, NotFoundError

# The CF flags of /status (sweep file layout 2).
STATUS_FLAG_VALUES = (C.ZVP_POINT_NOT_COMPUTED, C.ZVP_POINT_OK, C.ZVP_POINT_UNSTABLE,
                      C.ZVP_POINT_INVALID)
STATUS_FLAG_MEANINGS = "not_computed ok no_steady_state invalid_input"
STATUS_LONG_NAME = "point status"


def _tolerance(tol, axis):
    """The tolerance for one axis from tol= (None, a number >= 0, or a dict axis -> number)."""
    if isinstance(tol, dict):
        tol = tol.get(axis)
    if tol is None:
        return None
    t = _float("tol" if axis is None else "tol for %s" % axis, tol)
    if not t >= 0:  # also NaN
        raise InvalidArgumentError(C.ZVP_EINVAL, "tol = %r: must be a number >= 0" % (tol,))
    return t


class Labelled:
    """Access by name and by axis values: g['etr'], g.ok, g.index(storage_gb=1024),
    g.sel('etr', cpus=64), g.meshgrid(), g.to_xarray(), g.to_dataframe().

    Subclasses set dims, axes, axis_units, axis_descriptions, shape, outputs, units,
    descriptions, status, parameters, parameter_units, model, path and attrs."""

    path = None

    def _label(self):
        return self.path or self.model

    def __getitem__(self, name):
        if name in self.outputs:
            return self.outputs[name]
        if name in self.axes:
            return self.axes[name]
        if name == "status":
            return self.status
        raise KeyError("%s: no output or axis %r (outputs: %s; axes: %s)"
                       % (self._label(), name, ", ".join(self.outputs), ", ".join(self.axes)))

    @property
    def ok(self):
        """Boolean mask of the points with status 1 (ok)."""
        return self.status == C.ZVP_POINT_OK

    def _position(self, axis, value, tol):
        """Index of value on axis: an exact match, else the nearest value when it lies
        within tol; NotFoundError naming the axis, the value and the nearest value."""
        v = _float(axis, value)
        a = self.axes[axis]
        hits = np.flatnonzero(a == v)
        if hits.size:
            return int(hits[0])
        if a.size == 0 or math.isnan(v):
            raise NotFoundError(C.ZVP_ENOTFOUND, "%s: axis %s has no value %r"
                                % (self._label(), axis, value))
        k = int(np.argmin(np.abs(a - v)))
        t = _tolerance(tol, axis)
        if t is not None and abs(a[k] - v) <= t:
            return k
        raise NotFoundError(C.ZVP_ENOTFOUND, "%s: axis %s has no value %r; the nearest is %r "
                            "(%s); pass tol= to accept the nearest value within a tolerance "
                            "(tol = %r)" % (self._label(), axis, value, float(a[k]),
                                            "index %d of %d" % (k, a.size), t))

    def index(self, tol=None, **coords):
        """Index tuple for coords (axis -> value; other axes: all). A value matches an axis
        value exactly, or the nearest axis value when it lies within tol (a number, or a dict
        axis -> number, in the axis's unit); otherwise NotFoundError names the axis, the
        value and the nearest available value. An unknown axis name raises KeyError."""
        unknown = set(coords) - set(self.dims)
        if unknown:
            raise KeyError("not an axis of %s: %s (axes: %s)" % (
                self._label(), ", ".join(sorted(unknown)), ", ".join(self.dims)))
        _check_tol(tol)
        return tuple(self._position(n, coords[n], tol) if n in coords else slice(None)
                     for n in self.dims)

    def sel(self, output, tol=None, **coords):
        """The output (or 'status', or an axis) at coords, matched as index() does:
        s.sel('etr', cpus=64), s.sel('etr', tol=1e-6, storage_gb=1024.0)."""
        if output in self.axes:
            raise KeyError("%s: sel needs an output or 'status', not the axis %r"
                           % (self._label(), output))
        return self[output][self.index(tol=tol, **coords)]

    def meshgrid(self):
        """Axis values broadcast to the grid shape, name -> N-D array (indexing 'ij')."""
        grids = np.meshgrid(*self.axes.values(), indexing="ij")
        return OrderedDict(zip(self.dims, grids))

    # ---- the ecosystem --------------------------------------------------------------------
    def _global_attrs(self):
        return OrderedDict(getattr(self, "attrs", None) or ())

    def to_xarray(self):
        """An xarray.Dataset: coordinates = the axes (attributes units, long_name), data
        variables = the outputs (units, long_name) and status (long_name, flag_values,
        flag_meanings; uint8), global attributes = the file's (or, for a Grid, Conventions,
        title, model, axes). The same names, values and attributes as
        xarray.open_dataset(sweep_file, engine='h5netcdf') gives (status there is masked
        where 0, its _FillValue). Needs python3-xarray."""
        import xarray as xr
        coords = OrderedDict(
            (n, xr.Variable((n,), np.asarray(self.axes[n]),
                            {"units": self.axis_units.get(n, ""),
                             "long_name": self.axis_descriptions.get(n, "")}))
            for n in self.dims)
        data = OrderedDict()
        for n, arr in self.outputs.items():
            data[n] = xr.Variable(self.dims, arr, {"units": self.units.get(n, ""),
                                                   "long_name": self.descriptions.get(n, "")},
                                  encoding={"_FillValue": np.nan})
        data["status"] = xr.Variable(
            self.dims, np.asarray(self.status, dtype=np.uint8),
            {"long_name": STATUS_LONG_NAME, "units": "1",
             "flag_values": np.array(STATUS_FLAG_VALUES, dtype=np.uint8),
             "flag_meanings": STATUS_FLAG_MEANINGS}, encoding={"_FillValue": np.uint8(0)})
        return xr.Dataset(data, coords=coords, attrs=self._global_attrs())

    def to_dataframe(self):
        """A pandas.DataFrame with one row per grid point (C order: the last axis varies
        fastest) and the columns: the axes, the outputs, status. .attrs['units'] maps each
        column to its unit. Needs python3-pandas."""
        import pandas as pd
        cols = OrderedDict((n, g.ravel()) for n, g in self.meshgrid().items())
        for n, arr in self.outputs.items():
            cols[n] = np.asarray(arr).ravel()
        cols["status"] = np.asarray(self.status, dtype=np.uint8).ravel()
        df = pd.DataFrame(cols)
        units = OrderedDict((n, self.axis_units.get(n, "")) for n in self.dims)
        units.update((n, self.units.get(n, "")) for n in self.outputs)
        units["status"] = "1"
        df.attrs["units"] = dict(units)
        df.attrs["model"] = self.model
        return df


def _check_tol(tol):
    """Validate tol= up front (None, a number >= 0, or a dict axis -> number >= 0)."""
    if isinstance(tol, dict):
        for k, v in tol.items():
            _tolerance(v, k)
    elif tol is not None:
        _tolerance(tol, None)
    return tol
