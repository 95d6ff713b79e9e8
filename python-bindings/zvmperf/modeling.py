"""zvmperf.modeling - models and model files (model.h): the registry (models, model_names,
model, Model, ParamDesc), evaluation (eval, Model.eval, ModelFile.eval, EvalResult) and model
files (ModelFile, read_model_file).

Evaluation takes scalars (one zvp_model_eval call) or arrays that broadcast together (numpy
rules): the whole set of points is then evaluated in C in one call (zvp_eval_points, OpenMP
over `threads` threads), bit for bit what one scalar call per point gives. (The module is not
called `models` so that it does not hide the function zvmperf.models.)
"""
import ctypes
import os
from collections import OrderedDict, namedtuple
from ctypes import byref

import numpy as np

from . import _clib as C
from ._args import (_b, _broadcast, _check_on_error, _count, _farray, _float, _is_scalar,
                    _mapping, _path, _s, _status_code, _text, _type_error)
from .errors import NoMemoryError, _check, _raise

__all__ = ["ParamDesc", "Model", "models", "model_names", "model", "eval", "EvalResult",
           "ModelFile", "read_model_file"]

# Point codes of zvp_eval_points as EvalResult.status gives them (1 ok, 2 no steady state,
# 3 invalid; a point that failed otherwise, e.g. ZVP_EMAXITER, counts as invalid).
_POINT_CODES = np.array([C.ZVP_POINT_INVALID, C.ZVP_POINT_OK, C.ZVP_POINT_UNSTABLE] +
                        [C.ZVP_POINT_INVALID] * 253, dtype=np.uint8)
assert _POINT_CODES[C.ZVP_POINT_FAILED] == C.ZVP_POINT_INVALID


# ---- Model registry (model.h) -----------------------------------------------------------------
class ParamDesc(namedtuple("ParamDesc", "name unit description min max default")):
    """A parameter or output of a model: name, unit, description, valid range [min, max]
    (for outputs: expected range, informative) and default value."""
    __slots__ = ()


def _descs(ptr, n):
    return tuple(ParamDesc(_s(ptr[i].name), _s(ptr[i].unit), _s(ptr[i].description),
                           ptr[i].min, ptr[i].max, ptr[i].default_value) for i in range(n))


class Model:
    """A registered model (static descriptor in the library). Discover with models()."""

    def __init__(self, ptr):
        if not ptr:
            raise ValueError("NULL model")
        self._ptr = ptr
        d = ptr.contents
        self.name = _s(d.name)
        self.description = _s(d.description)
        self.source = _s(d.source)
        self.params = _descs(d.params, d.n_params)
        self.outputs = _descs(d.outputs, d.n_outputs)
        self.param_names = tuple(p.name for p in self.params)
        self.output_names = tuple(o.name for o in self.outputs)
        self._pindex = {n: i for i, n in enumerate(self.param_names)}

    def __repr__(self):
        return "<zvmperf.Model %s: %d parameters, %d outputs>" % (
            self.name, len(self.params), len(self.outputs))

    def __eq__(self, other):
        return isinstance(other, Model) and ctypes.addressof(self._ptr.contents) == \
            ctypes.addressof(other._ptr.contents)

    def __hash__(self):
        return hash(self.name)

    def param(self, name):
        """Descriptor of a parameter by name (NotFoundError with the C message otherwise)."""
        return self.params[self.param_index(name)]

    def output(self, name):
        """Descriptor of an output by name."""
        err = C.zvp_error()
        i = C.zvp_model_output_index(self._ptr, _text("output name", name), byref(err))
        if i < 0:
            _raise(err.status or C.ZVP_ENOTFOUND, err)
        return self.outputs[i]

    def param_index(self, name):
        i = self._pindex.get(name)
        if i is None:
            err = C.zvp_error()
            i = C.zvp_model_param_index(self._ptr, _text("parameter name", name), byref(err))
            if i < 0:
                _raise(err.status or C.ZVP_ENOTFOUND, err)
        return i

    def default_vector(self):
        """Default parameter vector [n_params] (descriptor order), from zvp_model_defaults."""
        v = np.empty(len(self.params))
        C.zvp_model_defaults(self._ptr, v)
        return v

    def defaults(self):
        """Default parameters as an ordered dict name -> value."""
        return OrderedDict(zip(self.param_names, self.default_vector().tolist()))

    def check(self, **params):
        """Validate defaults overridden by params against the ranges; InvalidArgumentError."""
        v = self.default_vector()
        for k, x in params.items():
            v[self.param_index(k)] = _float(k, x)
        err = C.zvp_error()
        _check(C.zvp_model_check_params(self._ptr, v, byref(err)), err)

    def eval(self, params=None, on_error="raise", threads=0, **kw):
        """Evaluate from the defaults overridden by params / keywords (see zvmperf.eval)."""
        return _eval(self, self.default_vector(), params, kw, on_error, threads)

    def describe(self):
        """Plain-text table of parameters and outputs with units and ranges."""
        lines = ["%s - %s" % (self.name, self.description), "source: %s" % self.source,
                 "parameters:"]
        for p in self.params:
            lines.append("  %-26s [%s] %g (range %g .. %g)  %s"
                         % (p.name, p.unit, p.default, p.min, p.max, p.description))
        lines.append("outputs:")
        for o in self.outputs:
            lines.append("  %-26s [%s]  %s" % (o.name, o.unit, o.description))
        return "\n".join(lines)


def models():
    """Every registered model, in registry order (read from the library, never hard-coded)."""
    return [Model(C.zvp_model_at(i)) for i in range(C.zvp_model_count())]


def model_names():
    """Names of the registered models."""
    return [m.name for m in models()]


def model(name):
    """The registered model called name (a Model passes through). NotFoundError lists the
    registered names."""
    if isinstance(name, Model):
        return name
    if not isinstance(name, (str, bytes)):
        raise _type_error("model", name, "a registered model name (str) or a Model (names: %s)"
                          % ", ".join(model_names()))
    err = C.zvp_error()
    p = C.zvp_model_find(_b(name), byref(err))
    if not p:
        _raise(err.status or C.ZVP_ENOTFOUND, err)
    return Model(p)


# ---- Evaluation -----------------------------------------------------------------------------
class EvalResult(OrderedDict):
    """Model outputs, name -> value (floats for one point; arrays of the broadcast shape for a
    vectorised call). .units maps names to units; .status is the ZVP_POINT_* code (1 ok,
    2 no steady state, 3 invalid input) as an int or a uint8 array; .model is the Model;
    .params the parameter values used (name -> float or array)."""

    def __init__(self, model_, values, status, params):
        super().__init__(values)
        self.model = model_
        self.units = OrderedDict((o.name, o.unit) for o in model_.outputs)
        self.status = status
        self.params = params


def _overrides(m, params, kw):
    """[(parameter index, name, value)] of params (dict) updated by kw, in order."""
    over = OrderedDict()
    over.update(_mapping("params", params))
    over.update(kw)
    return [(m.param_index(k), k, v) for k, v in over.items()]


def _eval(m, base, params, kw, on_error, threads=0):
    """Evaluate model m from the parameter vector base overridden by params and kw."""
    _check_on_error(on_error)
    idx = _overrides(m, params, kw)
    threads = _count("threads", threads, 0, ctypes.c_int)
    n_out = len(m.outputs)
    err = C.zvp_error()
    p = np.array(base, dtype=float)
    if _is_scalar(*[v for _, _, v in idx]):
        for i, k, v in idx:
            p[i] = _float(k, v)
        out = np.empty(n_out)
        st = C.zvp_model_eval(m._ptr, p, out, byref(err))
        if st != C.ZVP_SUCCESS and on_error == "raise":
            _raise(st, err)
        return EvalResult(m, zip(m.output_names, out.tolist()), _status_code(st),
                          OrderedDict(zip(m.param_names, p.tolist())))
    p, vary, vals, shape, arrays = _vary(idx, p)
    n = vals.shape[0]
    outputs = np.empty((n_out, n))
    status = np.empty(n, dtype=np.uint8)
    vidx = np.array([i for i, _, _ in vary], dtype=np.uintp)
    _check(C.zvp_eval_points(m._ptr, p, n, len(vary), vidx, vals, outputs, status, threads,
                             byref(err)), err)
    used = _points_used(m, p, idx, vary, vals, shape, arrays, status, on_error, False)
    values = [(name, outputs[j].reshape(shape)) for j, name in enumerate(m.output_names)]
    return EvalResult(m, values, _POINT_CODES[status].reshape(shape), used)


def _vary(idx, p):
    """Broadcast the overrides idx [(index, name, value)]: scalar ones go into the parameter
    vector p (modified), array ones are the varied parameters of zvp_eval_points. Returns
    (p, vary [(index, name, array)], values [points, varied] row-major, shape, arrays)."""
    arrays = [_farray(k, v) for _, k, v in idx]
    shape = _broadcast([k for _, k, _ in idx], arrays)[0].shape if arrays else ()
    vary = [(i, k, a) for (i, k, _), a in zip(idx, arrays) if a.ndim > 0]
    for (i, k, _), a in zip(idx, arrays):
        if a.ndim == 0:
            p[i] = float(a)
    n = int(np.prod(shape))
    vals = np.empty(shape + (len(vary),))
    for j, (_, _, a) in enumerate(vary):
        vals[..., j] = a
    return p, vary, vals.reshape(n, len(vary)), shape, arrays


def _points_used(m, p, idx, vary, vals, shape, arrays, status, on_error, scalar_floats):
    """After a C call over the points of _vary: with on_error='raise', raise the error of the
    first point whose status is not ok. Returns the parameter values used, name -> value: those
    of the vector p, the overrides broadcast to shape (a scalar one as a float when
    scalar_floats) and the varied ones point by point."""
    if on_error == "raise":
        bad = np.flatnonzero(status != C.ZVP_POINT_OK)
        if bad.size:
            _raise_at(m, p, vary, vals, idx, int(bad[0]))
    used = OrderedDict((name, float(v)) for name, v in zip(m.param_names, p))
    for (i, k, _), a in zip(idx, arrays):
        used[k] = float(a) if scalar_floats and a.ndim == 0 else np.broadcast_to(a, shape)
    for j, (_, k, _) in enumerate(vary):
        used[k] = vals[:, j].reshape(shape)
    return used


def _raise_at(m, base, vary, vals, idx, r):
    """Raise the error of point r (re-evaluated alone to get its C status and message)."""
    p = np.array(base)
    for j, (i, _, _) in enumerate(vary):
        p[i] = vals[r, j]
    out = np.empty(len(m.outputs))
    err = C.zvp_error()
    st = C.zvp_model_eval(m._ptr, p, out, byref(err))
    where = ", ".join("%s=%g" % (k, p[i]) for i, k, _ in idx)
    _raise(st if st != C.ZVP_SUCCESS else C.ZVP_EINVAL, err, "point %d (%s)" % (r, where))


def eval(model_, params=None, on_error="raise", threads=0, interval=None, **kw):  # noqa: A001
    """Evaluate a model at one point, or vectorised over numpy arrays.

    model_: a registered model name or Model (starts from its defaults), a ModelFile, or the
    path of a model file (*.ini; starts from its parameters). params (dict) and keyword
    arguments override parameters by name; values that are arrays are broadcast together
    (numpy rules) and every output is then an array of that shape.
    on_error='raise' (default) raises at the first failing point with the C message;
    on_error='nan' leaves NaN there and records the point code in .status (never silent).
    Arrays are evaluated in C in one call (zvp_eval_points) on `threads` OpenMP threads
    (0 = the OpenMP default); the results are bit for bit those of one call per point.
    (params, on_error and threads are not parameter names here: a model parameter of one of
    those names is given in the params dict.)
    Returns an EvalResult (an ordered dict output name -> value, with .units and .status).

    interval=LEVEL (e.g. 0.9) gives every output with an interval instead, from a calibrated
    model file's covariance: keywords method='delta'|'mc', samples=1000, seed=1,
    confidence=False, ranges={name: (lo, hi)} (Monte Carlo only); returns an IntervalResult
    (see zvmperf.uncertainty.eval_interval)."""
    if interval is not None:
        from .uncertainty import eval_interval  # uncertainty imports this module
        mf, owned = _model_file_of(model_)
        try:
            return eval_interval(mf, params, interval=interval, on_error=on_error,
                                 threads=threads, **kw)
        finally:
            if owned:
                mf.close()
    if isinstance(model_, ModelFile):
        return model_.eval(params, on_error=on_error, threads=threads, **kw)
    if isinstance(model_, (str, os.PathLike)) and str(model_).endswith(".ini"):
        with ModelFile.read(model_) as mf:
            return mf.eval(params, on_error=on_error, threads=threads, **kw)
    return model(model_).eval(params, on_error=on_error, threads=threads, **kw)


# ---- Model files ----------------------------------------------------------------------------
class _Closeable:
    """A wrapper of a C handle freed by close(): with-blocks and garbage collection close it."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class _HandleMemory:
    """Owner of a C model-file handle: frees it (when owned) only when nothing refers to it
    any more, neither the ModelFile nor an array viewing its parameters."""

    def __init__(self, handle, owner, keepalive):
        self.handle = handle
        self.owner = owner
        self.keepalive = keepalive  # the C object that owns a borrowed handle

    def __del__(self):
        if self.owner and self.handle is not None and C is not None:
            C.zvp_model_file_free(self.handle)
        self.handle = None


class _ParamsView:
    """numpy array interface over the parameters of a handle; being the array's base, it
    keeps the handle's memory (and so the array's data) alive as long as the array lives."""

    def __init__(self, memory, n):
        self._memory = memory
        addr = ctypes.cast(C.zvp_model_file_params(memory.handle), ctypes.c_void_p).value
        self.__array_interface__ = {"data": (addr, False), "shape": (n,), "typestr": "<f8",
                                    "version": 3}


class ModelFile(_Closeable):
    """A model with a parameter vector (model.h zvp_model_file). Create with
    ModelFile.read(path) or ModelFile.new(model); free with close() or a with-block."""

    def __init__(self, handle, owner=True, keepalive=None):
        if not handle:
            raise NoMemoryError(C.ZVP_ENOMEM, "model file: out of memory")
        self._h = handle
        self._mem = _HandleMemory(handle, owner, keepalive)
        self.model = Model(C.zvp_model_file_model(handle))
        self.path = None

    @classmethod
    def read(cls, path):
        """Parse a model file (EIO, EPARSE, ENOTFOUND, EINVAL become exceptions)."""
        h = C.P_mf()
        err = C.zvp_error()
        _check(C.zvp_model_file_read(_path("path", path), byref(h), byref(err)), err)
        mf = cls(h)
        mf.path = os.fspath(path)
        return mf

    @classmethod
    def new(cls, model_):
        """A handle for a model (name or Model) with its default parameters."""
        m = model(model_)
        return cls(C.zvp_model_file_new(m._ptr))

    def _handle(self):
        if self._h is None:
            raise ValueError("zvmperf.ModelFile: used after close()")
        return self._h

    def close(self):
        """Release the C handle (freed, when owned, once no array from .vector refers to it);
        later use of this object raises ValueError."""
        self._h = None
        self._mem = None

    def __repr__(self):
        return "<zvmperf.ModelFile %s%s>" % (self.model.name,
                                              " from " + self.path if self.path else "")

    @property
    def vector(self):
        """The parameter vector [n_params], a read-only numpy view of the handle's memory
        (no copy: it follows set()). The view keeps that memory alive through its base, so
        it stays valid after close() or after this object goes. Change values with set()."""
        self._handle()
        v = np.asarray(_ParamsView(self._mem, len(self.model.params)))
        v.flags.writeable = False
        return v

    @property
    def params(self):
        """Parameters as an ordered dict name -> value (a copy)."""
        return OrderedDict(zip(self.model.param_names, self.vector.tolist()))

    @property
    def stderr(self):
        """Standard errors recorded in the file, name -> value (NaN where none)."""
        h = self._handle()
        return OrderedDict((n, C.zvp_model_file_stderr(h, i))
                           for i, n in enumerate(self.model.param_names))

    @property
    def text(self):
        """Text of the file as read ('' for a handle made by new())."""
        return _s(C.zvp_model_file_text(self._handle())) or ""

    def set(self, name=None, value=None, **kw):
        """Set parameters by name, range-checked by C: set('cpus', 128) or set(cpus=128)."""
        items = list(kw.items())
        if name is not None:
            items.insert(0, (name, value))
        h = self._handle()
        for k, v in items:
            err = C.zvp_error()
            _check(C.zvp_model_file_set(h, _text("parameter name", k), _float(k, v),
                                        byref(err)), err)
        return self

    def set_stderr(self, name, se):
        C.zvp_model_file_set_stderr(self._handle(), self.model.param_index(name),
                                    _float("standard error of %s" % name, se))

    def set_provenance(self, key, value):
        err = C.zvp_error()
        _check(C.zvp_model_file_set_provenance(self._handle(), _text("provenance key", key),
                                               _b(str(value)),
                                               byref(err)), err)

    def write(self, path):
        """Write as a model file; returns the path."""
        err = C.zvp_error()
        _check(C.zvp_model_file_write(self._handle(), _path("path", path), byref(err)), err)
        return os.fspath(path)

    def copy(self):
        """An owned copy with the same parameters and standard errors (provenance and text
        are not copied)."""
        new = ModelFile.new(self.model)
        h, v = new._handle(), self.vector
        p = C.zvp_model_file_params(h)
        for i in range(len(v)):
            p[i] = v[i]
        for i, se in enumerate(self.stderr.values()):
            C.zvp_model_file_set_stderr(h, i, se)
        return new

    def eval(self, params=None, on_error="raise", threads=0, interval=None, **kw):
        """Evaluate from this file's parameters overridden by params / keywords (see eval;
        interval=LEVEL and its keywords give an IntervalResult)."""
        if interval is not None:
            from .uncertainty import eval_interval
            return eval_interval(self, params, interval=interval, on_error=on_error,
                                 threads=threads, **kw)
        return _eval(self.model, np.array(self.vector), params, kw, on_error, threads)

    def sweep(self, axes, path=None, **kw):
        """Sweep this model file over axes; see zvmperf.sweep."""
        from .sweeps import sweep  # sweeps imports this module
        return sweep(self, axes, path, **kw)

    def grid(self, axes, **kw):
        """Evaluate this model file over a grid in memory; see zvmperf.grid."""
        from .sweeps import grid
        return grid(self, axes, **kw)


def read_model_file(path):
    """ModelFile.read(path)."""
    return ModelFile.read(path)


def _model_file_of(obj):
    """(ModelFile, owned_by_us) for a ModelFile, a *.ini path, a model name or a Model."""
    if isinstance(obj, ModelFile):
        return obj, False
    if isinstance(obj, (str, os.PathLike)) and str(obj).endswith(".ini"):
        return ModelFile.read(obj), True
    return ModelFile.new(obj), True
