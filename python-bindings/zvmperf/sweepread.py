"""zvmperf.sweepread - read a sweep file back: open_sweep(path) -> Sweep (labelled numpy
arrays, to_xarray(), to_dataframe(), sel), with h5py.

Layout version 2 (netCDF-4 / CF-1.8, what `zvmperf sweep` and zvmperf.sweep write): global
attributes (Conventions, title, model, model_source, zvmperf_version, created, command,
model_file, axes, sweep_layout_version = 2, sweep_complete, points_total); one 1-D
coordinate variable /<axis> per axis (an HDF5 dimension scale; units, long_name); one N-D
variable /<output> per model output and /status (uint8; flag_values, flag_meanings), all
over the axes in axis order; the group /parameters (the fixed parameters as attributes
<param> and <param>_units). Version 1 (/axes/<axis>, /outputs/<output>, /status) is still read.
"""
import os
from collections import OrderedDict

import numpy as np

from . import _clib as C
from ._args import _path
from ._labelled import Labelled
from .errors import ParseError, ZvmperfError, ZvmperfIOError

__all__ = ["open_sweep", "Sweep", "SWEEP_LAYOUT_VERSION", "PARTIAL_SUFFIX"]

SWEEP_LAYOUT_VERSION = 2
PARTIAL_SUFFIX = ".partial"  # a sweep to OUT writes OUT.partial and renames it when complete


def _attr(v):
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype.kind in "fiu" and v.ndim <= 1:
        return v.ravel()[0].item()
    if isinstance(v, np.ndarray) and v.dtype.kind in "OS":
        return [_attr(x) for x in v.ravel()]
    if isinstance(v, np.generic):
        return v.item()
    return v


def _model_output_order(model, names):
    """names ordered as the model declares its outputs (file order when it is unknown)."""
    from .modeling import model as find_model
    try:
        order = [o.name for o in find_model(model).outputs]
    except (ZvmperfError, TypeError):
        return list(names)
    known = [n for n in order if n in names]
    return known + [n for n in names if n not in known]


class Sweep(Labelled):
    """A sweep file read into labelled numpy arrays (everything loaded, the file closed).

    dims: axis names in order; axes: name -> 1-D values; axis_units, axis_descriptions
    (long_name); shape; outputs: name -> N-D array shaped by dims (NaN where not ok); units,
    descriptions (long_name): per output; status: N-D uint8 (0 not computed, 1 ok, 2 no
    steady state, 3 invalid); status_flags: code -> meaning; parameters / parameter_units:
    the fixed parameters; attrs: the global attributes (model, created, command, model_file,
    zvmperf_version, ...); layout_version (1 or 2); complete (False for a partial file)."""

    def __init__(self, path):
        import h5py  # only needed here
        self.path = os.fsdecode(_path("path", path))
        if not os.path.exists(self.path):
            hint = ""
            if os.path.exists(self.path + PARTIAL_SUFFIX):
                hint = ("; an unfinished sweep '%s%s' exists: continue it with "
                        "zvmperf.sweep(..., resume=True) (or `zvmperf sweep ... --resume`), or "
                        "read the points computed so far with open_sweep('%s%s')"
                        % (self.path, PARTIAL_SUFFIX, self.path, PARTIAL_SUFFIX))
            raise ZvmperfIOError(C.ZVP_EIO, "cannot open sweep file '%s': no such file%s"
                                 % (self.path, hint))
        try:
            f = h5py.File(self.path, "r")
        except OSError as e:
            raise ZvmperfIOError(C.ZVP_EIO, "cannot open sweep file '%s' as HDF5: %s"
                                 % (self.path, e)) from None
        with f:
            try:
                self._read(f)
            except ZvmperfError:
                raise
            except (KeyError, ValueError, TypeError, AttributeError) as e:
                raise ParseError(C.ZVP_EPARSE, "'%s' is not a readable zvmperf sweep file: %s"
                                 % (self.path, e)) from None

    def _need(self, cond, what):
        if not cond:
            raise ParseError(C.ZVP_EPARSE, "'%s' is not a zvmperf sweep file (as written by "
                             "zvmperf.sweep or `zvmperf sweep`): %s" % (self.path, what))

    def _read(self, f):
        import h5py
        need = self._need
        need("model" in f.attrs, "no root attribute 'model'")
        self.attrs = OrderedDict((k, _attr(v)) for k, v in f.attrs.items())
        self.model = self.attrs.get("model")
        version = self.attrs.get("sweep_layout_version")
        if version is None:
            missing = [g for g in ("axes", "outputs") if not isinstance(f.get(g), h5py.Group)]
            need(not missing, "no root attribute 'sweep_layout_version' (layout 2) and no "
                 "group %s (layout 1)" % " or ".join("/" + g for g in missing))
            self.layout_version = 1
        else:
            need(isinstance(version, int) and 1 <= version <= SWEEP_LAYOUT_VERSION,
                 "sweep_layout_version = %r: this reader knows versions 1 to %d (a newer "
                 "zvmperf wrote it)" % (version, SWEEP_LAYOUT_VERSION))
            self.layout_version = version
        need(isinstance(f.get("status"), h5py.Dataset), "no dataset /status")
        names = self.attrs.get("axes")
        dims = [n for n in names.split(",") if n] if isinstance(names, str) and names else None
        if self.layout_version == 1:
            self._read_v1(f, dims or list(f["axes"].keys()))
        else:
            self._read_v2(f, dims or self._status_dims(f))
        status = f["status"]
        need(status.shape == self.shape,
             "/status has shape %s, the axes give %s" % (status.shape, self.shape))
        self.status = status[()].astype(np.uint8, copy=False)
        self.status_codes = _attr(status.attrs.get("codes", ""))
        values = status.attrs.get("flag_values")
        meanings = _attr(status.attrs.get("flag_meanings", ""))
        if values is not None and isinstance(meanings, str):
            self.status_flags = OrderedDict(zip((int(v) for v in np.ravel(values)),
                                                meanings.split()))
        else:
            self.status_flags = OrderedDict()
        self.complete = bool(self.attrs.get("sweep_complete", 1))
        self.parameters = OrderedDict()
        self.parameter_units = OrderedDict()
        prm = f.get("parameters")
        for k, v in (prm.attrs.items() if prm is not None else []):
            if k.endswith("_units"):
                self.parameter_units[k[:-6]] = _attr(v)
            else:
                self.parameters[k] = _attr(v)

    def _status_dims(self, f):
        """Axis names from the dimension scales attached to /status (layout 2 without the
        'axes' attribute)."""
        st = f["status"]
        dims = []
        for k, d in enumerate(st.dims):
            self._need(len(d) > 0, "no root attribute 'axes' and no dimension scale on "
                       "dimension %d of /status" % k)
            dims.append(d[0].name.lstrip("/"))
        return dims

    def _read_v1(self, f, dims):
        import h5py
        need = self._need
        for n in dims:
            need(isinstance(f["axes"].get(n), h5py.Dataset), "no dataset /axes/%s" % n)
        self._set_axes(dims, [f["axes"][n] for n in dims], "description")
        self.outputs, self.units, self.descriptions = OrderedDict(), OrderedDict(), OrderedDict()
        for n in _model_output_order(self.model, list(f["outputs"].keys())):
            self._add_output(n, f["outputs"][n], "/outputs/%s" % n, "description")

    def _read_v2(self, f, dims):
        import h5py
        need = self._need
        for n in dims:
            need(n not in ("status", "parameters") and isinstance(f.get(n), h5py.Dataset)
                 and f[n].ndim == 1, "no 1-D coordinate variable /%s for axis %s" % (n, n))
        self._set_axes(dims, [f[n] for n in dims], "long_name")
        self.outputs, self.units, self.descriptions = OrderedDict(), OrderedDict(), OrderedDict()
        names = [n for n, obj in f.items() if isinstance(obj, h5py.Dataset)
                 and n not in self.axes and n != "status"]
        for n in _model_output_order(self.model, names):
            self._add_output(n, f[n], "/%s" % n, "long_name")

    def _set_axes(self, dims, datasets, desc_attr):
        self.dims = tuple(dims)
        self.axes = OrderedDict((n, ds[()].astype(np.float64, copy=False))
                                for n, ds in zip(dims, datasets))
        self.axis_units = OrderedDict((n, _attr(ds.attrs.get("units", "")))
                                      for n, ds in zip(dims, datasets))
        self.axis_descriptions = OrderedDict((n, _attr(ds.attrs.get(desc_attr, "")))
                                             for n, ds in zip(dims, datasets))
        self.shape = tuple(np.size(self.axes[n]) for n in self.dims)

    def _add_output(self, name, ds, where, desc_attr):
        self._need(ds.shape == self.shape, "%s is not a dataset of the axes' shape %s"
                   % (where, self.shape))
        self.outputs[name] = ds[()]
        self.units[name] = _attr(ds.attrs.get("units", ""))
        self.descriptions[name] = _attr(ds.attrs.get(desc_attr, ""))

    def __repr__(self):
        return "<zvmperf.Sweep %s %s over %s: %d outputs, %d/%d points ok%s>" % (
            self.model, self.path, " x ".join("%s[%d]" % (n, len(v)) for n, v in
                                              self.axes.items()),
            len(self.outputs), int((self.status == C.ZVP_POINT_OK).sum()), self.status.size,
            "" if self.complete else ", partial")


def open_sweep(path):
    """Read a sweep file (written by sweep() or `zvmperf sweep`; layout 2, or the older
    layout 1) with h5py into a Sweep. A partial file (OUT.partial of an interrupted sweep)
    reads too: its .complete is False and /status is 0 where nothing was computed.
    A missing or unreadable file raises ZvmperfIOError (ZVP_EIO) naming the path (and an
    unfinished OUT.partial beside it); an HDF5 file that is not a sweep (no root attribute
    'model', neither layout's variables, shapes that disagree, a newer layout) raises
    ParseError saying what is missing."""
    return Sweep(path)
