"""zvmperf.sweeps - a model over the Cartesian grid of axes: grid() evaluates it in memory
(zvp_eval_grid) and returns a Grid of labelled numpy arrays; sweep() writes it to an HDF5 file
(zvp_sweep_run, layout 2: netCDF-4 / CF, opened by xarray) and open_sweep() (module sweepread)
reads such a file back as a Sweep (same interface as Grid: sel, to_xarray, to_dataframe).
Both take progress= (a tqdm bar or a callable) and stop within about a second on Ctrl-C.
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
from ._labelled import Labelled
from ._progress import Progress, check_progress
from .errors import (ArgumentTypeError, BadLengthError, CanceledError, InvalidArgumentError,
                     _check)
from .modeling import _model_file_of
from .sweepread import PARTIAL_SUFFIX, SWEEP_LAYOUT_VERSION, Sweep, open_sweep

__all__ = ["parse_axis", "sweep", "SweepPath", "open_sweep", "Sweep", "grid", "Grid",
           "SWEEP_LAYOUT_VERSION", "PARTIAL_SUFFIX"]

# grid() evaluates in chunks of this many points (as a sweep's blocks), reporting progress and
# letting Ctrl-C through between them.
GRID_CHUNK_POINTS = 65536


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
def _resume_hint(path):
    return ("%s%s keeps the points computed so far: run the same zvmperf.sweep(...) call with "
            "resume=True (or `zvmperf sweep ... -o %s --resume`) to continue; '%s' itself was "
            "not touched" % (path, PARTIAL_SUFFIX, path, path))


def _sweep_stopped(st, err, prog, path):
    """Raise for a sweep that did not finish normally (or that saw Ctrl-C)."""
    if prog.error is not None:  # the caller's progress callable raised: that exception
        raise prog.error
    if prog.interrupted:
        if st == C.ZVP_SUCCESS:
            raise KeyboardInterrupt("sweep interrupted (SIGINT) as it finished: '%s' is "
                                    "complete" % path)
        raise KeyboardInterrupt("sweep interrupted (SIGINT) after %d of %d points; %s"
                                % (prog.done, prog.total, _resume_hint(path)))
    if st == C.ZVP_ECANCELED:
        msg = err.message.decode(errors="replace")
        raise CanceledError(st, "%s%s after %d of %d points; %s" % (
            msg + ": " if msg else "", "canceled by the progress callback", prog.done,
            prog.total, _resume_hint(path)))
    _check(st, err)


def sweep(model_, axes, path=None, fixed=None, threads=0, block_points=0, command=None,
          progress=None, resume=False):
    """Evaluate a model over the Cartesian grid of axes (the last axis varies fastest) with
    OpenMP in C, write the HDF5 file (layout 2: xarray.open_dataset(path, engine='h5netcdf')
    opens it) and return its path (a SweepPath; .summary has the point counts).
    model_: ModelFile, model-file path, model name or Model; fixed: dict of parameters set
    before the sweep (a given ModelFile gets its values back afterwards); axes: dict
    name -> values (array-like, or 'LO:HI:STEP' / 'V1,V2' text), or a list of (name, values)
    pairs or 'NAME=...' strings. path None: a new file in a temporary directory. Unstable or
    invalid points are recorded in /status, not raised; a grid in which the model refuses
    every point raises InvalidArgumentError (naming the first point and the model's message,
    path untouched), as does a non-whole value on the axis of a whole-number parameter.

    The file is written as path + '.partial' and renamed to path when complete, so an
    existing file at path survives a failed or interrupted sweep. progress: None, True (a
    tqdm bar on stderr), or a callable(done_points, total_points) called after every block
    whose true return value stops the sweep (CanceledError). Ctrl-C stops it within about a
    second (C reads a flag before each point; the points in progress finish and are kept in
    path + '.partial') and raises KeyboardInterrupt (from the main thread). resume=True continues from
    path + '.partial' (same model, model file, fixed parameters and axes; an error names the
    first difference), computing only the points not yet done."""
    # Validate every argument before anything is changed or created.
    fixed = _mapping("fixed", fixed)
    ax = _axes_list(axes)
    threads = _count("threads", threads, None, ctypes.c_int32)
    block_points = _count("block_points", block_points, 0, ctypes.c_uint64)
    progress = check_progress(progress)
    if not isinstance(resume, (bool, np.bool_)):
        raise _type_error("resume", resume, "True or False")
    if path is not None:
        _path("path", path)
    elif resume:
        raise InvalidArgumentError(C.ZVP_EINVAL, "resume = True needs the path of the "
                                   "interrupted sweep (path = None)")
    if command is not None:
        _text("command", command)
    mf, owned = _model_file_of(model_)
    try:
        c_axes, keep = _c_axes(ax)
        opt = C.zvp_sweep_options()
        C.zvp_sweep_options_init(byref(opt))
        opt.threads = threads
        opt.block_points = block_points
        opt.resume = 1 if resume else 0
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
            with Progress(progress, "sweep %s" % mf.model.name) as prog:
                opt.progress = prog.c_fn
                opt.stop = prog.stop_ptr
                st = C.zvp_sweep_run(mf._handle(), c_axes, len(ax), _b(path), byref(opt),
                                     byref(summary), byref(err))
        finally:
            if saved is not None:  # a given ModelFile gets its values back, even on error
                p = C.zvp_model_file_params(mf._handle())
                for i, v in enumerate(saved):
                    p[i] = v
        _sweep_stopped(st, err, prog, os.fspath(path))
        out = SweepPath(os.fspath(path))
        out.summary = OrderedDict((f, getattr(summary, f)) for f, _ in summary._fields_)
        return out
    finally:
        if owned:
            mf.close()


class Grid(Labelled):
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


def _eval_chunks(m, base, c_axes, n_axes, n, threads, prog):
    """zvp_eval_grid over [0, n) in chunks of GRID_CHUNK_POINTS, reporting after each:
    (outputs [n_outputs, n], status [n]). Stops with KeyboardInterrupt or CanceledError."""
    outputs = np.empty((len(m.outputs), n))
    status = np.empty(n, dtype=np.uint8)
    err = C.zvp_error()
    if n <= GRID_CHUNK_POINTS and prog.report is None:
        _check(C.zvp_eval_grid_stop(m._ptr, base, c_axes, n_axes, 0, n, outputs, status,
                                    threads, prog.stop_ptr, byref(err)), err)
        if prog.stop.value:  # C stopped before some points (status 0)
            raise KeyboardInterrupt("grid interrupted (SIGINT) after %d of %d points"
                                    % (int((status != 0).sum()), n))
        return outputs, status
    stop = prog.step(0, n)
    first = 0
    while first < n and not stop:
        count = min(GRID_CHUNK_POINTS, n - first)
        out_c = np.empty((len(m.outputs), count))
        st_c = np.empty(count, dtype=np.uint8)
        _check(C.zvp_eval_grid_stop(m._ptr, base, c_axes, n_axes, first, count, out_c, st_c,
                                    threads, prog.stop_ptr, byref(err)), err)
        outputs[:, first:first + count] = out_c
        status[first:first + count] = st_c
        first += int((st_c != 0).sum()) if prog.stop.value else count
        stop = prog.step(first, n) or prog.stop.value
    if prog.error is not None:
        raise prog.error
    if prog.interrupted and first < n:
        raise KeyboardInterrupt("grid interrupted (SIGINT) after %d of %d points" % (first, n))
    if prog.canceled and first < n:
        raise CanceledError(C.ZVP_ECANCELED, "grid canceled by the progress callback after "
                            "%d of %d points" % (first, n))
    if prog.interrupted:
        raise KeyboardInterrupt("grid interrupted (SIGINT) as it finished")
    return outputs, status


def grid(model_, axes, fixed=None, threads=0, on_error="nan", progress=None):
    """Evaluate a model over the Cartesian grid of axes (the last axis varies fastest) in
    memory, in C with OpenMP (zvp_eval_grid): no file is written. model_: ModelFile,
    model-file path, model name or Model; fixed: dict of other parameters set for this call
    (a given ModelFile is not changed); axes as for sweep(). Returns a Grid. on_error='nan'
    (default) records unstable or invalid points in .status; 'raise' raises at the first one
    with the C message (as eval does). progress as for sweep(): the grid is evaluated in
    chunks of GRID_CHUNK_POINTS points (bit for bit the same results), reported after each;
    a callable returning true stops after the current chunk (CanceledError), Ctrl-C within
    about a second (KeyboardInterrupt)."""
    _check_on_error(on_error)
    fixed = _mapping("fixed", fixed)
    ax = _axes_list(axes)
    threads = _count("threads", threads, 0, ctypes.c_int)
    progress = check_progress(progress)
    mf, owned = _model_file_of(model_)
    try:
        m = mf.model
        base = np.array(mf.vector)
        for k, v in fixed.items():
            base[m.param_index(k)] = _float(k, v)
        c_axes, keep = _c_axes(ax)
        shape = tuple(a.size for _, a in ax)
        n = int(np.prod(shape))
        with Progress(progress, "grid %s" % m.name) as prog:
            outputs, status = _eval_chunks(m, base, c_axes, len(ax), n, threads, prog)
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
        g.attrs = OrderedDict([("Conventions", "CF-1.8"), ("title", "zvmperf grid of %s" % m.name),
                               ("zvmperf_version", C.ZVP_VERSION_STRING), ("model", m.name),
                               ("model_source", m.source or ""), ("axes", ",".join(g.dims))])
        return g
    finally:
        if owned:
            mf.close()

