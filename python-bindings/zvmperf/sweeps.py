"""zvmperf.sweeps - a model over the Cartesian grid of axes: grid() evaluates it in memory
(zvp_eval_grid) and returns a Grid of labelled numpy arrays; sweep() writes it to an HDF5 file
(zvp_sweep_run) and open_sweep() reads such a file back as a Sweep (same interface as Grid).
parse_axis() parses the CLI's axis text ('NAME=LO:HI:STEP', 'NAME=V1,V2').

(The module is not called `sweep` so that it does not hide the function zvmperf.sweep.)
"""
import ctypes
import os
import tempfile
from collections import OrderedDict
from ctypes import byref, c_size_t, c_void_p

import numpy as np

from . import _clib as C
from ._args import (_b, _check_on_error, _count, _farray, _float, _mapping, _path, _text,
                    _type_error)
from .errors import (ArgumentTypeError, BadLengthError, ParseError, ZvmperfError,
                     ZvmperfIOError, _check)
from .modeling import _model_file_of

__all__ = ["parse_axis", "sweep", "SweepPath", "open_sweep", "Sweep", "grid", "Grid"]


# ---- Axes -----------------------------------------------------------------------------------
def parse_axis(spec):
    """Parse 'NAME=LO:HI:STEP' or 'NAME=V1,V2,...' with the C parser: (name, values array)."""
    name_p, values_p = c_void_p(), c_void_p()
    n = c_size_t()
    err = C.zvp_error()
    _check(C.zvp_axis_parse(_text("axis spec", spec), byref(name_p), byref(values_p), byref(n),
                            byref(err)), err)
    try:
        name = ctypes.string_at(name_p.value).decode()
        vals = np.ctypeslib.as_array(ctypes.cast(values_p, C.P_double), shape=(n.value,)).copy()
    finally:
        C.libc_free(name_p)
        C.libc_free(values_p)
    return name, vals


class SweepPath(str):
    """The path of a sweep file (a str), with .summary: points, ok, unstable, invalid, seconds."""
    summary = None


_AXES_FORMS = ("axes must be a dict name -> values (array-like, or 'LO:HI:STEP' / 'V1,V2' "
               "text), or a list of (name, values) pairs or 'NAME=...' strings")


def _axes_list(axes):
    if hasattr(axes, "items"):
        items = list(axes.items())
    elif axes is None or isinstance(axes, (str, bytes)) or not hasattr(axes, "__iter__"):
        raise ArgumentTypeError(C.ZVP_EINVAL, "axes = %.80r: %s" % (axes, _AXES_FORMS))
    else:
        items = []
        for i, a in enumerate(axes):
            if isinstance(a, str):
                items.append(parse_axis(a))
            elif isinstance(a, (tuple, list)) and len(a) == 2:
                items.append(tuple(a))
            else:
                raise ArgumentTypeError(C.ZVP_EINVAL, "axes[%d] = %.80r: %s"
                                        % (i, a, _AXES_FORMS))
    out = []
    for name, values in items:
        if not isinstance(name, str):
            raise _type_error("axis name", name, "a str (a parameter name)")
        if isinstance(values, str):
            name2, values = parse_axis("%s=%s" % (name, values))
        arr = np.ascontiguousarray(np.atleast_1d(_farray("axis %s" % name, values,
                                                         allow_empty=True)))
        if arr.ndim != 1:
            raise BadLengthError(C.ZVP_EBADLEN, "axis %s: values must be 1-D, got shape %s"
                                 % (name, arr.shape))
        out.append((name, arr))
    return out


def _c_axes(ax):
    """A ctypes zvp_axis array for [(name, values)] and the objects it points into."""
    c_axes = (C.zvp_axis * len(ax))()
    keep = []
    for k, (name, arr) in enumerate(ax):
        nb = _b(name)
        keep.append((nb, arr))
        c_axes[k].name = nb
        c_axes[k].values = arr.ctypes.data_as(C.P_double)
        c_axes[k].n_values = arr.size
    return c_axes, keep


# ---- HDF5 sweeps ----------------------------------------------------------------------------
def sweep(model_, axes, path=None, fixed=None, threads=0, block_points=0, command=None):
    """Evaluate a model over the Cartesian grid of axes (the last axis varies fastest) with
    OpenMP in C, write the HDF5 file and return its path (a SweepPath; .summary has the
    point counts). model_: ModelFile, model-file path, model name or Model; fixed: dict of
    parameters set before the sweep (a given ModelFile gets its values back afterwards);
    axes: dict name -> values (array-like, or 'LO:HI:STEP' / 'V1,V2' text), or a list of
    (name, values) pairs or 'NAME=...' strings. path None: a new file in a temporary
    directory. Unstable or invalid points are recorded in /status, not raised."""
    # Validate every argument before anything is changed or created.
    fixed = _mapping("fixed", fixed)
    ax = _axes_list(axes)
    threads = _count("threads", threads, None, ctypes.c_int32)
    block_points = _count("block_points", block_points, 0, ctypes.c_uint64)
    if path is not None:
        _path("path", path)
    if command is not None:
        _text("command", command)
    mf, owned = _model_file_of(model_)
    try:
        c_axes, keep = _c_axes(ax)
        opt = C.zvp_sweep_options()
        C.zvp_sweep_options_init(byref(opt))
        opt.threads = threads
        opt.block_points = block_points
        if command is None:
            command = "zvmperf.sweep(%s, axes=[%s]%s) (Python)" % (
                mf.path or mf.model.name,
                ", ".join("%s: %d values" % (n, a.size) for n, a in ax),
                ", fixed=%r" % (dict(fixed),) if fixed else "")
        cmd_b = _b(command)
        opt.command = cmd_b
        summary = C.zvp_sweep_summary()
        err = C.zvp_error()
        saved = mf.vector.copy() if fixed else None
        try:
            if fixed:
                mf.set(**fixed)
            if path is None:
                path = os.path.join(tempfile.mkdtemp(prefix="zvmperf-sweep-"),
                                    "%s-sweep.h5" % mf.model.name)
            st = C.zvp_sweep_run(mf._handle(), c_axes, len(ax), _b(path), byref(opt),
                                 byref(summary), byref(err))
        finally:
            if saved is not None:  # a given ModelFile gets its values back, even on error
                p = C.zvp_model_file_params(mf._handle())
                for i, v in enumerate(saved):
                    p[i] = v
        _check(st, err)
        out = SweepPath(os.fspath(path))
        out.summary = OrderedDict((f, getattr(summary, f)) for f, _ in summary._fields_)
        return out
    finally:
        if owned:
            mf.close()


def _attr(v):
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype.kind == "f":
        return float(v.ravel()[0])
    if isinstance(v, np.generic):
        return v.item()
    return v


# ---- Reading results: labelled arrays --------------------------------------------------------
class _Labelled:
    """Access by name and by axis values, shared by Grid and Sweep: g['etr'], g.ok,
    g.index(storage_gb=1024), g.sel('etr', cpus=64), g.meshgrid()."""

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

    def index(self, **coords):
        """Index tuple selecting the axis values nearest to coords (others: all)."""
        idx = []
        for n in self.dims:
            if n in coords:
                idx.append(int(np.argmin(np.abs(self.axes[n] - coords[n]))))
            else:
                idx.append(slice(None))
        unknown = set(coords) - set(self.dims)
        if unknown:
            raise KeyError("not an axis of %s: %s" % (self._label(), ", ".join(sorted(unknown))))
        return tuple(idx)

    def sel(self, output, **coords):
        """The output (or 'status') at the axis values nearest to coords."""
        return self[output][self.index(**coords)]

    def meshgrid(self):
        """Axis values broadcast to the grid shape, name -> N-D array (indexing 'ij')."""
        grids = np.meshgrid(*self.axes.values(), indexing="ij")
        return OrderedDict(zip(self.dims, grids))


class Grid(_Labelled):
    """A model evaluated over a grid in memory (grid()): dims (axis names in order), axes
    (name -> 1-D values), axis_units, outputs (name -> N-D array shaped by dims, NaN where
    the point is not ok), units, descriptions, status (N-D uint8: 1 ok, 2 no steady state,
    3 invalid), parameters / parameter_units (the values of the other parameters), model
    (name), shape; path is None. Same interface as Sweep."""

    path = None

    def __repr__(self):
        return "<zvmperf.Grid %s over %s: %d outputs, %d/%d points ok>" % (
            self.model, " x ".join("%s[%d]" % (n, len(v)) for n, v in self.axes.items()),
            len(self.outputs), int((self.status == C.ZVP_POINT_OK).sum()), self.status.size)


def grid(model_, axes, fixed=None, threads=0, on_error="nan"):
    """Evaluate a model over the Cartesian grid of axes (the last axis varies fastest) in
    memory, in C with OpenMP (zvp_eval_grid): no file is written. model_: ModelFile,
    model-file path, model name or Model; fixed: dict of other parameters set for this call
    (a given ModelFile is not changed); axes as for sweep(). Returns a Grid. on_error='nan'
    (default) records unstable or invalid points in .status; 'raise' raises at the first one
    with the C message (as eval does)."""
    _check_on_error(on_error)
    fixed = _mapping("fixed", fixed)
    ax = _axes_list(axes)
    threads = _count("threads", threads, 0, ctypes.c_int)
    mf, owned = _model_file_of(model_)
    try:
        m = mf.model
        base = np.array(mf.vector)
        for k, v in fixed.items():
            base[m.param_index(k)] = _float(k, v)
        c_axes, keep = _c_axes(ax)
        shape = tuple(a.size for _, a in ax)
        n = int(np.prod(shape))
        outputs = np.empty((len(m.outputs), n))
        status = np.empty(n, dtype=np.uint8)
        err = C.zvp_error()
        _check(C.zvp_eval_grid(m._ptr, base, c_axes, len(ax), 0, n, outputs, status, threads,
                               byref(err)), err)
        del keep
        if on_error == "raise" and (status != C.ZVP_POINT_OK).any():
            r = int(np.flatnonzero(status != C.ZVP_POINT_OK)[0])
            at = np.unravel_index(r, shape)
            point = {name: a[i] for (name, a), i in zip(ax, at)}
            mf.eval(dict(fixed, **point))  # raises with the C message of that point
        g = Grid()
        g.model = m.name
        g.dims = tuple(name for name, _ in ax)
        g.axes = OrderedDict(ax)
        g.axis_units = OrderedDict((n_, m.param(n_).unit) for n_ in g.dims)
        g.axis_descriptions = OrderedDict((n_, m.param(n_).description) for n_ in g.dims)
        g.shape = shape
        g.outputs = OrderedDict((o.name, outputs[j].reshape(shape))
                                for j, o in enumerate(m.outputs))
        g.units = OrderedDict((o.name, o.unit) for o in m.outputs)
        g.descriptions = OrderedDict((o.name, o.description) for o in m.outputs)
        codes = np.where(status <= C.ZVP_POINT_INVALID, status, C.ZVP_POINT_INVALID)
        g.status = codes.astype(np.uint8).reshape(shape)
        g.parameters = OrderedDict((p.name, float(v)) for p, v in zip(m.params, base)
                                   if p.name not in g.dims)
        g.parameter_units = OrderedDict((p.name, p.unit) for p in m.params
                                        if p.name not in g.dims)
        return g
    finally:
        if owned:
            mf.close()




class Sweep(_Labelled):
    """A sweep file read into labelled numpy arrays (everything loaded, the file closed).

    dims: axis names in order; axes: name -> 1-D values; axis_units; outputs: name -> N-D
    array shaped by dims; units, descriptions: per output; status: N-D uint8 (0 not computed,
    1 ok, 2 no steady state, 3 invalid); parameters / parameter_units: the fixed parameters;
    attrs: root attributes (model, created, command, model_file, zvmperf_version, ...)."""

    def __init__(self, path):
        import h5py  # only needed here
        self.path = os.fsdecode(_path("path", path))
        if not os.path.exists(self.path):
            raise ZvmperfIOError(C.ZVP_EIO, "cannot open sweep file '%s': no such file"
                                 % self.path)
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

    def _read(self, f):
        import h5py

        def need(cond, what):
            if not cond:
                raise ParseError(C.ZVP_EPARSE, "'%s' is not a zvmperf sweep file (as written "
                                 "by zvmperf.sweep or `zvmperf sweep`): %s" % (self.path, what))
        need("model" in f.attrs, "no root attribute 'model'")
        for g in ("axes", "outputs"):
            need(isinstance(f.get(g), h5py.Group), "no group /%s" % g)
        need(isinstance(f.get("status"), h5py.Dataset), "no dataset /status")
        self.attrs = OrderedDict((k, _attr(v)) for k, v in f.attrs.items())
        self.model = self.attrs.get("model")
        names = self.attrs.get("axes")
        dims = [n for n in names.split(",") if n] if isinstance(names, str) and names \
            else list(f["axes"].keys())
        for n in dims:
            need(isinstance(f["axes"].get(n), h5py.Dataset), "no dataset /axes/%s" % n)
        self.dims = tuple(dims)
        self.axes = OrderedDict((n, f["axes"][n][()]) for n in dims)
        self.axis_units = OrderedDict((n, _attr(f["axes"][n].attrs.get("units", "")))
                                      for n in dims)
        self.axis_descriptions = OrderedDict(
            (n, _attr(f["axes"][n].attrs.get("description", ""))) for n in dims)
        self.shape = tuple(np.size(self.axes[n]) for n in self.dims)
        self.outputs = OrderedDict()
        self.units = OrderedDict()
        self.descriptions = OrderedDict()
        for n, ds in f["outputs"].items():
            need(isinstance(ds, h5py.Dataset) and ds.shape == self.shape,
                 "/outputs/%s is not a dataset of the axes' shape %s" % (n, self.shape))
            self.outputs[n] = ds[()]
            self.units[n] = _attr(ds.attrs.get("units", ""))
            self.descriptions[n] = _attr(ds.attrs.get("description", ""))
        need(f["status"].shape == self.shape,
             "/status has shape %s, the axes give %s" % (f["status"].shape, self.shape))
        self.status = f["status"][()]
        self.status_codes = _attr(f["status"].attrs.get("codes", ""))
        self.parameters = OrderedDict()
        self.parameter_units = OrderedDict()
        prm = f.get("parameters")
        for k, v in (prm.attrs.items() if prm is not None else []):
            if k.endswith("_units"):
                self.parameter_units[k[:-6]] = _attr(v)
            else:
                self.parameters[k] = _attr(v)

    def __repr__(self):
        return "<zvmperf.Sweep %s %s over %s: %d outputs, %d/%d points ok>" % (
            self.model, self.path, " x ".join("%s[%d]" % (n, len(v)) for n, v in
                                              self.axes.items()),
            len(self.outputs), int((self.status == C.ZVP_POINT_OK).sum()), self.status.size)

def open_sweep(path):
    """Read a sweep HDF5 file (written by sweep() or `zvmperf sweep`) with h5py.
    A missing or unreadable file raises ZvmperfIOError (ZVP_EIO) naming the path; an HDF5
    file that is not a sweep (no root attribute 'model', no /axes, /outputs or /status, or
    shapes that disagree) raises ParseError saying what is missing."""
    return Sweep(path)
