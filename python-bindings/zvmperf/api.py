"""zvmperf.api - the Pythonic layer over zvmperf._clib.

Every non-zero C status becomes a ZvmperfError subclass carrying the C message (which names
the parameter, its value and its range). Times are in seconds and rates in 1/s, as in the C
headers; model parameters and outputs carry the units of their descriptors (Model.params).

Arrays: 1-D float64 C-contiguous numpy arrays are passed to C as they are (no copy); other
inputs (lists, ints, other dtypes) are converted once. Results computed by C into
Python-allocated arrays (MVA per-station figures, vectorised eval) are written in place.
Arrays owned by a C handle (fit results) are copied out, so they outlive the handle.
"""
import configparser
import ctypes
import math
import numbers
import os
import tempfile
from collections import OrderedDict, namedtuple
from ctypes import byref, c_char_p, c_double, c_size_t, c_void_p

import numpy as np

from . import _clib as C

__all__ = [
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


# ---- Errors ---------------------------------------------------------------------------------
class ZvmperfError(Exception):
    """A non-zero zvmperf status. .status is the ZVP_* code, .message the C message."""

    def __init__(self, status, message):
        self.status = int(status)
        self.message = message
        self.status_name = strerror(status)
        super().__init__("%s (%s)" % (message, self.status_name) if message else self.status_name)


class InvalidArgumentError(ZvmperfError, ValueError):
    """ZVP_EINVAL: out of range, NaN, negative, NULL."""


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """ZVP_EINVAL for an argument of the wrong Python type (None or a str where a number, a
    path or a name is needed, a scalar where a sequence is needed, ...): both an
    InvalidArgumentError (so a ZvmperfError and a ValueError) and a TypeError. The message
    names the argument and says what is accepted."""


class BadLengthError(ZvmperfError, ValueError):
    """ZVP_EBADLEN: array length mismatch."""


class UnstableError(ZvmperfError, ArithmeticError):
    """ZVP_EUNSTABLE: no steady state (utilization >= 1)."""


class NoMemoryError(ZvmperfError, MemoryError):
    """ZVP_ENOMEM."""


class MaxIterError(ZvmperfError, RuntimeError):
    """ZVP_EMAXITER: iteration limit reached."""


class ZvmperfIOError(ZvmperfError, OSError):
    """ZVP_EIO: file could not be opened, read or written (includes HDF5)."""


class NotFoundError(ZvmperfError, LookupError):
    """ZVP_ENOTFOUND: unknown model, parameter, output or column."""


class ParseError(ZvmperfError, ValueError):
    """ZVP_EPARSE: malformed INI or CSV input."""


class FitError(ZvmperfError, RuntimeError):
    """ZVP_EFIT: calibration failed."""


_ERRORS = {C.ZVP_EINVAL: InvalidArgumentError, C.ZVP_EBADLEN: BadLengthError,
           C.ZVP_EUNSTABLE: UnstableError, C.ZVP_ENOMEM: NoMemoryError,
           C.ZVP_EMAXITER: MaxIterError, C.ZVP_EIO: ZvmperfIOError,
           C.ZVP_ENOTFOUND: NotFoundError, C.ZVP_EPARSE: ParseError, C.ZVP_EFIT: FitError}


def strerror(status):
    """Static text of a ZVP_* status code."""
    return C.zvp_strerror(_count("status", status, None)).decode()


def _error(status, message):
    return _ERRORS.get(status, ZvmperfError)(status, message)


def _raise(status, err, prefix=None):
    msg = err.message.decode(errors="replace") if err is not None else ""
    if prefix:
        msg = "%s: %s" % (prefix, msg) if msg else prefix
    raise _error(status, msg)


def _check(status, err, prefix=None):
    if status != C.ZVP_SUCCESS:
        _raise(status, err, prefix)


def _b(s):
    return os.fsencode(s) if isinstance(s, (str, os.PathLike)) else s


def _s(b):
    return b.decode() if b is not None else None


def version():
    """Version string of the loaded library, e.g. '0.1.0'."""
    return C.zvp_version().decode()


def library_path():
    """Path (or name) of the libzvmperf shared library that was loaded."""
    return C.lib_path


# ---- Helpers for vectorised kernels ---------------------------------------------------------
_ON_ERROR = ("raise", "nan")


def _check_on_error(on_error):
    if on_error not in _ON_ERROR:
        raise InvalidArgumentError(C.ZVP_EINVAL, "on_error = %.80r: must be 'raise' or 'nan'"
                                   % (on_error,))


def _type_error(name, value, what):
    return ArgumentTypeError(C.ZVP_EINVAL, "%s = %.80r: must be %s" % (name, value, what))


def _float(name, value):
    """A C double from a real scalar; ArgumentTypeError naming the argument otherwise. NaN and
    infinities pass: the C function range-checks them and names the parameter."""
    if (value is None or isinstance(value, (str, bytes)) or _ndim(value) != 0
            or np.iscomplexobj(value)):
        raise _type_error(name, value, "a real number")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise _type_error(name, value, "a real number") from None


def _farray(name, value, allow_empty=False):
    """A float64 numpy array from a number or an array-like of real numbers; ArgumentTypeError
    (wrong type, ragged) or InvalidArgumentError (empty, unless allow_empty) naming it."""
    if value is None or isinstance(value, (str, bytes)):
        raise _type_error(name, value, "a number or an array of real numbers")
    try:
        a = np.asarray(value)
        if a.dtype.kind == "O":
            a = a.astype(float)
    except (TypeError, ValueError):
        raise _type_error(name, value, "a number or a rectangular array of real numbers") \
            from None
    if a.dtype.kind not in "biuf":
        raise _type_error(name, value, "a number or an array of real numbers (got dtype %s)"
                          % a.dtype)
    a = a.astype(np.float64, copy=False)
    if a.size == 0 and not allow_empty:
        raise InvalidArgumentError(C.ZVP_EINVAL, "%s is empty (shape %s): at least one value "
                                   "is required" % (name, a.shape))
    return a


def _broadcast(names, arrays):
    """np.broadcast_arrays with a BadLengthError naming the arguments and their shapes."""
    try:
        return np.broadcast_arrays(*arrays)
    except ValueError:
        raise BadLengthError(C.ZVP_EBADLEN, "shapes do not broadcast together: %s" % ", ".join(
            "%s %s" % (n, a.shape) for n, a in zip(names, arrays))) from None


def _count(name, value, lo=0):
    """A C unsigned long from an integral number >= lo (ctypes would wrap negatives);
    lo=None: any integer (the C function range-checks it)."""
    v = _float(name, value)
    if (not math.isfinite(v) or v != math.floor(v) or (lo is not None and v < lo)
            or abs(v) > 2.0 ** 63):
        raise InvalidArgumentError(C.ZVP_EINVAL, "%s = %r: must be an integer%s"
                                   % (name, value, " >= %d" % lo if lo is not None else ""))
    return int(v)


def _path(name, value):
    """bytes for a C path argument: str, bytes or os.PathLike, else ArgumentTypeError."""
    if isinstance(value, (str, bytes, os.PathLike)):
        return _b(value)
    raise _type_error(name, value, "a path (str, bytes or os.PathLike)")


def _text(name, value):
    """bytes for a C string argument (a name): str or bytes, else ArgumentTypeError."""
    if isinstance(value, (str, bytes)):
        return _b(value)
    raise _type_error(name, value, "a str")


def _mapping(name, value, what="a dict (name -> value) or None"):
    """A dict-like argument (or None -> {}); ArgumentTypeError otherwise."""
    if value is None:
        return {}
    if not hasattr(value, "items"):
        raise _type_error(name, value, what)
    return value


def _ndim(x):
    try:
        return np.ndim(x)
    except ValueError:  # ragged nested sequence: _farray reports it with the argument's name
        return 1


def _is_scalar(*xs):
    return all(_ndim(x) == 0 for x in xs)


def _status_code(st):
    return (C.ZVP_POINT_OK if st == C.ZVP_SUCCESS else
            C.ZVP_POINT_UNSTABLE if st == C.ZVP_EUNSTABLE else C.ZVP_POINT_INVALID)


def _broadcast_loop(scalar_fn, args, names, n_fields, on_error):
    """Call scalar_fn(*point) -> (status, err, tuple of n_fields floats) over the broadcast of
    args. Returns (fields [n_fields] arrays of the broadcast shape, status uint8 array)."""
    _check_on_error(on_error)
    arrs = _broadcast(names, [_farray(n, a) for n, a in zip(names, args)])
    shape = arrs[0].shape
    flat = [a.ravel() for a in arrs]
    out = np.full((n_fields,) + (int(np.prod(shape)),), np.nan)
    status = np.empty(out.shape[1], dtype=np.uint8)
    for i in range(out.shape[1]):
        point = [f[i] for f in flat]
        st, err, vals = scalar_fn(*point)
        status[i] = _status_code(st)
        if st != C.ZVP_SUCCESS:
            if on_error == "raise":
                where = ", ".join("%s=%g" % (n, v) for n, v in zip(names, point))
                _raise(st, err, "point %d (%s)" % (i, where))
            continue
        out[:, i] = vals
    return [o.reshape(shape) for o in out], status.reshape(shape)


# ---- Kernels (queue.h) ------------------------------------------------------------------------
def _erlang(fn, offered_load, servers, on_error):
    _check_on_error(on_error)

    def one(a, c):
        err = C.zvp_error()
        v = c_double(math.nan)
        st = fn(_float("offered_load", a), _count("servers", c), byref(v), byref(err))
        return st, err, (v.value,)

    if _is_scalar(offered_load, servers):
        st, err, (v,) = one(offered_load, servers)
        _check(st, err)
        return v
    (v,), _ = _broadcast_loop(one, (offered_load, servers), ("offered_load", "servers"), 1,
                              on_error)
    return v


def erlang_b(offered_load, servers, on_error="raise"):
    """Erlang B blocking probability B(c, a); offered_load a in Erlangs, servers c.
    Scalars give a float; arrays broadcast and give an array (on_error='nan' puts NaN at
    failing points instead of raising). Source: queue.h zvp_erlang_b."""
    return _erlang(C.zvp_erlang_b, offered_load, servers, on_error)


def erlang_c(offered_load, servers, on_error="raise"):
    """Erlang C probability of waiting C(c, a) of M/M/c. UnstableError when a >= c."""
    return _erlang(C.zvp_erlang_c, offered_load, servers, on_error)


_STATION_FIELDS = [f[0] for f in C.zvp_station_result._fields_]


class StationResult(namedtuple("StationResult", _STATION_FIELDS + ["status"])):
    """Steady-state figures of one station (queue.h zvp_station_result): throughput_per_s,
    utilization (per server), busy_servers, mean_in_system (L), mean_in_queue (Lq),
    response_s (R), wait_s (W), pwait. Fields are floats, or arrays when the inputs were
    arrays; status is 1 (ok) or, with on_error='nan', a uint8 array of sweep point codes
    (1 ok, 2 no steady state, 3 invalid)."""
    __slots__ = ()


def _station_call(make_args, args, names, on_error):
    _check_on_error(on_error)

    def one(*point):
        err = C.zvp_error()
        r = C.zvp_station_result()
        st = make_args(*point)(byref(r), byref(err))
        return st, err, tuple(getattr(r, f) for f in _STATION_FIELDS)

    if _is_scalar(*args):
        st, err, vals = one(*args)
        _check(st, err)
        return StationResult(*vals, status=C.ZVP_POINT_OK)
    fields, status = _broadcast_loop(one, args, names, len(_STATION_FIELDS), on_error)
    return StationResult(*fields, status=status)


def mmc(arrival_rate_per_s, service_rate_per_s, servers=1, on_error="raise"):
    """M/M/c queue (servers = 1 is M/M/1): lambda in 1/s, mu per server in 1/s.
    Returns a StationResult; UnstableError (scalar call) when lambda >= c mu.
    Source: Gross et al. 2008, sec. 2.3 (queue.h zvp_mmc)."""
    def make(lam, mu, c):
        return lambda r, e: C.zvp_mmc(_float("arrival_rate_per_s", lam),
                                       _float("service_rate_per_s", mu),
                                       _count("servers", c, 1), r, e)
    return _station_call(make, (arrival_rate_per_s, service_rate_per_s, servers),
                         ("arrival_rate_per_s", "service_rate_per_s", "servers"), on_error)


def mm1(arrival_rate_per_s, service_rate_per_s, on_error="raise"):
    """M/M/1 queue: mmc with one server."""
    return mmc(arrival_rate_per_s, service_rate_per_s, 1, on_error)


def repairman(sources, think_s, service_s, servers=1, on_error="raise"):
    """Finite-source M/M/c//N (machine repairman): N sources thinking think_s, service
    service_s at c servers. Returns a StationResult (queue.h zvp_repairman)."""
    def make(n, z, s, c):
        return lambda r, e: C.zvp_repairman(_count("sources", n), _float("think_s", z),
                                            _float("service_s", s),
                                            _count("servers", c, 1), r, e)
    return _station_call(make, (sources, think_s, service_s, servers),
                         ("sources", "think_s", "service_s", "servers"), on_error)


_KINDS = {"queue": C.ZVP_STATION_QUEUE, "delay": C.ZVP_STATION_DELAY,
          "multi": C.ZVP_STATION_MULTI, "ld": C.ZVP_STATION_LD}


class Station(namedtuple("Station", "kind demand_s servers replicas")):
    """One station of a closed network: kind 'queue' | 'delay' | 'multi' | 'ld' (or the
    ZVP_STATION_* code), demand_s = visits x service time per job cycle at one replica (s),
    servers (m for 'multi'), replicas (identical stations sharing the entry).
    Wherever a list of stations is taken, a plain number d stands for Station('queue', d), a
    single-server queueing (FCFS/PS) station with service demand d s."""
    __slots__ = ()

    def __new__(cls, kind, demand_s, servers=1, replicas=1):
        return super().__new__(cls, kind, demand_s, servers, replicas)


_STATION_FORMS = (
    "stations must be a non-empty sequence whose items are each a number (the service demand "
    "in s of a single-server queueing station, i.e. Station('queue', demand_s)), a Station, a "
    "(kind, demand_s[, servers[, replicas]]) tuple or list, or a dict with those keys; or a "
    "1-D array of numbers (demands of queueing stations); or a 1-D numpy array of dtype "
    "zvmperf._clib.STATION_DTYPE")


def _is_number(x):
    return isinstance(x, (numbers.Real, np.number)) and not isinstance(x, (bool, np.bool_))


def _station_of(i, s):
    """Station i of a stations argument, in any accepted form (see _STATION_FORMS)."""
    if isinstance(s, Station):
        return s
    if _is_number(s):
        return Station("queue", s)
    try:
        if isinstance(s, dict):
            return Station(**s)
        if isinstance(s, (tuple, list)) and 2 <= len(s) <= 4:
            return Station(*s)
    except TypeError:
        pass
    raise InvalidArgumentError(C.ZVP_EINVAL, "stations[%d] = %.80r is not a station: %s"
                               % (i, s, _STATION_FORMS))


def _stations_array(stations):
    """A zvp_station array: a STATION_DTYPE array passes as is; numbers (single-server
    queueing stations of those demands), Station / tuples / dicts are packed once. Anything
    else raises InvalidArgumentError (ArgumentTypeError for a wrong Python type) listing the
    accepted forms."""
    if isinstance(stations, np.ndarray) and stations.dtype == C.STATION_DTYPE:
        if stations.ndim != 1 or stations.size == 0:
            raise InvalidArgumentError(C.ZVP_EINVAL, "stations: a STATION_DTYPE array of shape "
                                       "%s; %s" % (stations.shape, _STATION_FORMS))
        return np.ascontiguousarray(stations)
    if isinstance(stations, np.ndarray):
        if stations.ndim != 1 or stations.dtype.kind not in "biuf":
            raise InvalidArgumentError(C.ZVP_EINVAL, "stations: an array of dtype %s and shape "
                                       "%s; %s" % (stations.dtype, stations.shape,
                                                   _STATION_FORMS))
        stations = stations.tolist()
    if (stations is None or isinstance(stations, (str, bytes, dict, Station))
            or not hasattr(stations, "__len__") or not hasattr(stations, "__getitem__")):
        raise ArgumentTypeError(C.ZVP_EINVAL, "stations = %.80r: %s" % (stations, _STATION_FORMS))
    if len(stations) == 0:
        raise InvalidArgumentError(C.ZVP_EINVAL, "stations is empty: at least one station is "
                                   "required")
    arr = np.zeros(len(stations), dtype=C.STATION_DTYPE)
    for i, s in enumerate(stations):
        s = _station_of(i, s)
        kind = _KINDS.get(s.kind, s.kind) if isinstance(s.kind, str) else s.kind
        if not _is_number(kind) or kind not in _KINDS.values():
            raise InvalidArgumentError(C.ZVP_EINVAL, "stations[%d]: kind = %r: must be one of %s "
                                       "(or the ZVP_STATION_* code)"
                                       % (i, s.kind, ", ".join(_KINDS)))
        arr[i] = (kind, _count("stations[%d].servers" % i, s.servers),
                  _count("stations[%d].replicas" % i, s.replicas), 0,
                  _float("stations[%d].demand_s" % i, s.demand_s))
    return arr


MvaResult = namedtuple("MvaResult",
                       "throughput_per_s response_s residence_s queue_length utilization")
MvaResult.__doc__ = ("Exact MVA results: system throughput X (1/s), response R = N/X - Z (s), "
                     "and per station (one replica) residence time R_k (s), mean queue "
                     "length Q_k and utilization U_k (arrays [n_stations]).")


def mva(stations, think_s, customers):
    """Exact single-class MVA of a closed network with think time think_s (s) and `customers`
    jobs. stations: a list of Station (or (kind, demand_s[, servers, replicas]) tuples, or
    dicts), or a numpy array of dtype zvmperf._clib.STATION_DTYPE (passed without copy).
    A plain sequence of numbers means single-server queueing stations with those service
    demands (s), the textbook case: mva([0.05, 0.03, 0.02], 2.0, 100). Any other form raises
    InvalidArgumentError listing the accepted ones; an empty list raises too.
    Source: Reiser & Lavenberg 1980; QSP ch. 6, 8 (queue.h zvp_mva_exact)."""
    st_arr = _stations_array(stations)
    k = len(st_arr)
    residence = np.full(k, np.nan)
    queue = np.full(k, np.nan)
    util = np.full(k, np.nan)
    res = C.zvp_mva_result(math.nan, math.nan,
                           residence.ctypes.data_as(C.P_double),
                           queue.ctypes.data_as(C.P_double),
                           util.ctypes.data_as(C.P_double))
    err = C.zvp_error()
    st = C.zvp_mva_exact(st_arr, k, _float("think_s", think_s), _count("customers", customers),
                         byref(res),
                         None, byref(err))
    _check(st, err)
    return MvaResult(res.throughput_per_s, res.response_s, residence, queue, util)


# ---- More kernels (queue.h, second part) -------------------------------------------------
def _need(name):
    fn = getattr(C, name, None)
    if fn is None:
        raise NotImplementedError("zvmperf: the loaded library %s has no %s" % (C.lib_path, name))
    return fn


class LossResult(namedtuple("LossResult", _STATION_FIELDS + ["pblock", "status"])):
    """M/M/c/K figures (StationResult fields on accepted customers) plus pblock, the
    probability that an arrival is lost."""
    __slots__ = ()


def mmck(arrival_rate_per_s, service_rate_per_s, servers, capacity, on_error="raise"):
    """M/M/c/K queue (room for K in all; M/M/1/K is c = 1, Erlang loss M/M/c/c is K = c).
    Returns a LossResult. Source: Gross et al. 2008, sec. 2.5-2.6 (queue.h zvp_mmck)."""
    fn = _need("zvp_mmck")
    _check_on_error(on_error)

    def one(lam, mu, c, k):
        err = C.zvp_error()
        r = C.zvp_station_result()
        pb = c_double(math.nan)
        st = fn(_float("arrival_rate_per_s", lam), _float("service_rate_per_s", mu),
                _count("servers", c, 1), _count("capacity", k, 1),
                byref(r), byref(pb), byref(err))
        return st, err, tuple(getattr(r, f) for f in _STATION_FIELDS) + (pb.value,)

    args = (arrival_rate_per_s, service_rate_per_s, servers, capacity)
    if _is_scalar(*args):
        st, err, vals = one(*args)
        _check(st, err)
        return LossResult(*vals, status=C.ZVP_POINT_OK)
    fields, status = _broadcast_loop(one, args, ("arrival_rate_per_s", "service_rate_per_s",
                                                 "servers", "capacity"),
                                     len(_STATION_FIELDS) + 1, on_error)
    return LossResult(*fields, status=status)


def mminf(arrival_rate_per_s, service_rate_per_s, on_error="raise"):
    """M/M/infinity (pure delay) station (queue.h zvp_mminf)."""
    fn = _need("zvp_mminf")

    def make(lam, mu):
        return lambda r, e: fn(_float("arrival_rate_per_s", lam),
                               _float("service_rate_per_s", mu), r, e)
    return _station_call(make, (arrival_rate_per_s, service_rate_per_s),
                         ("arrival_rate_per_s", "service_rate_per_s"), on_error)


def _dptr(a):
    return a.ctypes.data_as(C.P_double)


def _ulongs(name, values):
    if values is None or isinstance(values, (str, bytes)):
        raise _type_error(name, values, "an integer or a sequence of integers")
    vals = [_count("%s[%d]" % (name, i), v) for i, v in enumerate(np.atleast_1d(values))]
    if not vals:
        raise InvalidArgumentError(C.ZVP_EINVAL, "%s is empty: at least one value is required"
                                   % name)
    return np.ascontiguousarray(vals, dtype=C.ND_ULONG._dtype_)


OpenResult = namedtuple("OpenResult", "throughput_per_s response_s mean_in_system "
                                      "class_response_s residence_s queue_length utilization")
OpenResult.__doc__ = ("Open network results: totals, class_response_s [C], residence_s and "
                      "queue_length [C, K] (one replica), utilization [K] (per server).")


def open_network(stations, arrival_rate_per_s, demands_s=None):
    """Open product-form (BCMP/Jackson) network. arrival_rate_per_s: [C] per class (a scalar
    for one class); demands_s: [C, K] per class and station (None: the stations' demand_s,
    one class). UnstableError names the saturated station. (queue.h zvp_open_network)"""
    fn = _need("zvp_open_network")
    st = _stations_array(stations)
    k = len(st)
    lam = np.ascontiguousarray(np.atleast_1d(_farray("arrival_rate_per_s", arrival_rate_per_s)))
    if lam.ndim != 1:
        raise BadLengthError(C.ZVP_EBADLEN, "arrival_rate_per_s must be a scalar or 1-D [C], "
                             "got shape %s" % (lam.shape,))
    c = lam.size
    d = None
    if demands_s is not None:
        d = _farray("demands_s", demands_s)
        if d.size != c * k:
            raise BadLengthError(C.ZVP_EBADLEN, "demands_s has shape %s, expected classes x "
                                 "stations = %d x %d" % (d.shape, c, k))
        d = np.ascontiguousarray(d.reshape(c, k))
    cr, rs, ql, ut = np.full(c, np.nan), np.full((c, k), np.nan), np.full((c, k), np.nan), \
        np.full(k, np.nan)
    res = C.zvp_open_result(math.nan, math.nan, math.nan, _dptr(cr), _dptr(rs), _dptr(ql),
                            _dptr(ut))
    err = C.zvp_error()
    _check(fn(st, k, _dptr(d) if d is not None else None, lam, c, byref(res), byref(err)), err)
    return OpenResult(res.throughput_per_s, res.response_s, res.mean_in_system, cr, rs, ql, ut)


MvaMultiResult = namedtuple("MvaMultiResult", "throughput_per_s response_s residence_s "
                                              "queue_length utilization")
MvaMultiResult.__doc__ = ("Closed multiclass results: throughput_per_s and response_s [C]; "
                          "residence_s, queue_length, utilization [C, K] (one replica).")


def _multi_args(stations, demands_s, think_s, customers):
    st = _stations_array(stations)
    k = len(st)
    z = np.ascontiguousarray(np.atleast_1d(_farray("think_s", think_s)).ravel())
    n = _ulongs("customers", customers)
    c = n.size
    if demands_s is None:
        if c != 1:
            raise BadLengthError(C.ZVP_EBADLEN, "demands_s is required with %d classes" % c)
        d = np.ascontiguousarray(st["demand_s"], dtype=float).reshape(1, k)
    else:
        d = np.ascontiguousarray(_farray("demands_s", demands_s))
        if d.size != c * k:
            raise BadLengthError(C.ZVP_EBADLEN, "demands_s has %d values, expected classes x "
                                 "stations = %d x %d" % (d.size, c, k))
        d = d.reshape(c, k)
    if z.size != c:
        raise BadLengthError(C.ZVP_EBADLEN, "think_s has %d values for %d classes" % (z.size, c))
    out = [np.full(c, np.nan), np.full(c, np.nan)] + [np.full((c, k), np.nan) for _ in range(3)]
    res = C.zvp_mva_multi_result(*[_dptr(a) for a in out])
    return st, k, d, z, n, c, out, res


def mva_multi(stations, demands_s, think_s, customers):
    """Exact multiclass MVA: demands_s [C, K], think_s [C], customers [C]
    (queue.h zvp_mva_multi_exact; Reiser & Lavenberg 1980)."""
    fn = _need("zvp_mva_multi_exact")
    st, k, d, z, n, c, out, res = _multi_args(stations, demands_s, think_s, customers)
    err = C.zvp_error()
    _check(fn(st, k, d.ravel(), z, n, c, byref(res), byref(err)), err)
    return MvaMultiResult(*out)


def mva_approx(stations, think_s, customers, demands_s=None, method="schweitzer",
               max_iterations=0, tolerance=0.0):
    """Schweitzer or Bard approximate MVA (one class: demands from the stations; several:
    demands_s [C, K], think_s and customers [C]). Returns (MvaMultiResult, info dict);
    MaxIterError when it does not converge. (queue.h zvp_mva_approx)"""
    fn = _need("zvp_mva_approx")
    st, k, d, z, n, c, out, res = _multi_args(stations, demands_s, think_s, customers)
    methods = {"schweitzer": C.ZVP_MVA_SCHWEITZER, "bard": C.ZVP_MVA_BARD}
    if not isinstance(method, str) or method not in methods:
        raise InvalidArgumentError(C.ZVP_EINVAL, "method = %r: must be 'schweitzer' or 'bard'"
                                   % (method,))
    opt = C.zvp_mva_approx_options(methods[method], _count("max_iterations", max_iterations),
                                   _float("tolerance", tolerance))
    info = C.zvp_mva_approx_info()
    err = C.zvp_error()
    _check(fn(st, k, d.ravel(), z, n, c, byref(opt), byref(res), byref(info), byref(err)), err)
    return MvaMultiResult(*out), OrderedDict((f, getattr(info, f)) for f, _ in info._fields_
                                             if f != "reserved")


def mva_ld(stations, think_s, customers, alpha=None):
    """Exact single-class MVA with general load-dependent stations (kind 'ld' = 3): alpha maps
    a station index to its rate multipliers alpha[j], j = 0..N (alpha[0] ignored).
    Returns an MvaResult. (queue.h zvp_mva_ld; Buzen 1973 convolution in log space)"""
    fn = _need("zvp_mva_ld")
    st = _stations_array(stations)
    k = len(st)
    n = _count("customers", customers)
    keep = []
    arr = None
    alpha = _mapping("alpha", alpha, "a dict station index -> rate multipliers, or None")
    if alpha:
        arr = (C.P_double * k)()
        for i, a in alpha.items():
            if not _is_number(i) or i != int(i) or not 0 <= int(i) < k:
                raise InvalidArgumentError(C.ZVP_EINVAL, "alpha key %r: must be a station index "
                                           "0 .. %d" % (i, k - 1))
            i = int(i)
            v = np.ascontiguousarray(_farray("alpha[%d]" % i, a).ravel())
            if v.size != n + 1:
                raise BadLengthError(C.ZVP_EBADLEN, "alpha[%d] has %d values, expected "
                                     "customers + 1 = %d" % (i, v.size, n + 1))
            keep.append(v)
            arr[i] = _dptr(v)
    out = [np.full(k, np.nan) for _ in range(3)]
    res = C.zvp_mva_result(math.nan, math.nan, *[_dptr(a) for a in out])
    err = C.zvp_error()
    _check(fn(st, k, arr, _float("think_s", think_s), n, byref(res), byref(err)), err)
    return MvaResult(res.throughput_per_s, res.response_s, *out)


_BOUND_FIELDS = [f for f, _ in C.zvp_bounds_result._fields_ if f != "reserved"]
Bounds = namedtuple("Bounds", _BOUND_FIELDS)
Bounds.__doc__ = "Asymptotic (ABA) and balanced job bounds of a closed network (queue.h)."


def mva_bounds(stations, think_s, customers):
    """Asymptotic and balanced job bounds (QSP ch. 5) of a single-class closed network."""
    fn = _need("zvp_mva_bounds")
    st = _stations_array(stations)
    out = C.zvp_bounds_result()
    err = C.zvp_error()
    _check(fn(st, len(st), _float("think_s", think_s), _count("customers", customers), byref(out),
              byref(err)), err)
    return Bounds(*[getattr(out, f) for f in _BOUND_FIELDS])


def usl(n, gamma, alpha, beta, on_error="raise"):
    """Universal Scalability Law X(N) = gamma N / (1 + alpha (N-1) + beta N (N-1)) (Gunther
    2007); n may be an array."""
    fn = _need("zvp_usl_eval")
    _check_on_error(on_error)

    def one(nn, g, a, b):
        err = C.zvp_error()
        x = c_double(math.nan)
        st = fn(_float("n", nn), _float("gamma", g), _float("alpha", a), _float("beta", b),
                byref(x), byref(err))
        return st, err, (x.value,)
    if _is_scalar(n, gamma, alpha, beta):
        st, err, (x,) = one(n, gamma, alpha, beta)
        _check(st, err)
        return x
    (x,), _ = _broadcast_loop(one, (n, gamma, alpha, beta), ("n", "gamma", "alpha", "beta"), 1,
                              on_error)
    return x


def usl_peak(gamma, alpha, beta):
    """(n_peak, x_peak) of the USL (Gunther 2007, eq. 4.33)."""
    fn = _need("zvp_usl_peak")
    npk, xpk = c_double(), c_double()
    err = C.zvp_error()
    _check(fn(_float("gamma", gamma), _float("alpha", alpha), _float("beta", beta), byref(npk),
              byref(xpk), byref(err)), err)
    return npk.value, xpk.value


UslFit = namedtuple("UslFit", [f for f, _ in C.zvp_usl_fit_result._fields_])


def usl_fit(n, x):
    """Fit the USL to throughputs x measured at concurrencies n (queue.h zvp_usl_fit).

    n, x: [len] concurrencies n_i >= 1 and throughputs x_i >= 0, len >= 3 with at least 3
    distinct n_i. Raises InvalidArgumentError for bad data or fewer than 3 distinct n (the
    data cannot identify gamma, alpha and beta), FitError (ZVP_EFIT) when the fit fails:
    no convergence, a GSL failure, a rank-deficient Jacobian. Checked here as well, so an
    older library that returned success with its start values is refused too: a non-zero
    GSL driver status, or a non-finite standard error with len > 3 (with len == 3 there is
    no residual degree of freedom and the standard errors are NaN). A returned UslFit has
    gsl_status == 0."""
    fn = _need("zvp_usl_fit")
    nn = np.ascontiguousarray(_farray("n", n, allow_empty=True))
    xx = np.ascontiguousarray(_farray("x", x, allow_empty=True))
    if nn.shape != xx.shape or nn.ndim != 1:
        raise BadLengthError(C.ZVP_EBADLEN, "n and x must be 1-D of the same length (%s, %s)"
                             % (nn.shape, xx.shape))
    out = C.zvp_usl_fit_result()
    err = C.zvp_error()
    _check(fn(nn, xx, nn.size, byref(out), byref(err)), err)
    fit = UslFit(*[getattr(out, f) for f, _ in out._fields_])
    distinct = np.unique(nn)
    if distinct.size < 3:
        # X(N) at fewer than 3 distinct N cannot determine 3 parameters (a whole curve of
        # (gamma, alpha, beta) fits exactly); current libraries say so themselves (EINVAL).
        raise InvalidArgumentError(C.ZVP_EINVAL, "usl_fit: n has %d distinct value(s) (%s); "
                                   "gamma, alpha and beta need measurements at >= 3 distinct "
                                   "concurrencies"
                                   % (distinct.size, ", ".join("%g" % v for v in distinct)))
    if fit.gsl_status != 0:
        raise FitError(C.ZVP_EFIT, "usl_fit: the GSL driver returned status %d (%s) after %d "
                       "iterations: the %d points (n = %s) do not determine gamma, alpha, beta"
                       % (fit.gsl_status, _gsl_status_name(fit.gsl_status), fit.iterations,
                          nn.size, np.array2string(nn, threshold=8)))
    bad = [f for f in ("gamma_se", "alpha_se", "beta_se")
           if nn.size > 3 and not math.isfinite(getattr(fit, f))]
    if bad:
        raise FitError(C.ZVP_EFIT, "usl_fit: standard error %s is not finite (%s): the fit "
                       "is not identified by the data" % (", ".join(bad), ", ".join(
                           "%s = %r" % (f, getattr(fit, f)) for f in bad)))
    return fit


_GSL_STATUS = {11: "GSL_EMAXITER: exceeded the iteration limit or no progress from the start",
               27: "GSL_ENOPROG: no progress", 1: "GSL_EDOM", 4: "GSL_EINVAL",
               5: "GSL_EFAILED"}


def _gsl_status_name(code):
    return _GSL_STATUS.get(code, "GSL status %d" % code)


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

    def eval(self, params=None, on_error="raise", **kw):
        """Evaluate from the defaults overridden by params / keywords (see zvmperf.eval)."""
        return _eval(self, self.default_vector(), params, kw, on_error)

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


def _eval(m, base, params, kw, on_error):
    _check_on_error(on_error)
    over = OrderedDict()
    over.update(_mapping("params", params))
    over.update(kw)
    idx = [(m.param_index(k), k, v) for k, v in over.items()]
    n_out = len(m.outputs)
    err = C.zvp_error()
    if _is_scalar(*[v for _, _, v in idx]):
        p = np.array(base, dtype=float)
        for i, k, v in idx:
            p[i] = _float(k, v)
        out = np.empty(n_out)
        st = C.zvp_model_eval(m._ptr, p, out, byref(err))
        if st != C.ZVP_SUCCESS and on_error == "raise":
            _raise(st, err)
        return EvalResult(m, zip(m.output_names, out.tolist()), _status_code(st),
                          OrderedDict(zip(m.param_names, p.tolist())))
    # vectorised: a (N, n_params) matrix built by numpy, then one C call per row, writing
    # straight into row i of the (N, n_outputs) output matrix.
    arrays = [_farray(k, v) for _, k, v in idx]
    shape = _broadcast([k for _, k, _ in idx], arrays)[0].shape
    n = int(np.prod(shape))
    pm = np.empty((n, len(base)))
    pm[:] = base
    for (i, _, _), a in zip(idx, arrays):
        pm[:, i] = np.broadcast_to(a, shape).ravel()
    om = np.full((n, n_out), np.nan)
    status = np.empty(n, dtype=np.uint8)
    f = C.zvp_model_eval_raw
    mp = m._ptr
    eref = byref(err)
    pa, ps = pm.ctypes.data, pm.strides[0]
    oa, os_ = om.ctypes.data, om.strides[0]
    ok, unstable = C.ZVP_SUCCESS, C.ZVP_EUNSTABLE
    for r in range(n):
        st = f(mp, pa + r * ps, oa + r * os_, eref)
        if st == ok:
            status[r] = C.ZVP_POINT_OK
        else:
            if on_error == "raise":
                where = ", ".join("%s=%g" % (k, pm[r, i]) for i, k, _ in idx)
                _raise(st, err, "point %d (%s)" % (r, where))
            status[r] = C.ZVP_POINT_UNSTABLE if st == unstable else C.ZVP_POINT_INVALID
    values = [(name, om[:, j].reshape(shape)) for j, name in enumerate(m.output_names)]
    used = OrderedDict((name, pm[:, j].reshape(shape) if any(j == i for i, _, _ in idx)
                        else float(base[j])) for j, name in enumerate(m.param_names))
    return EvalResult(m, values, status.reshape(shape), used)


def eval(model_, params=None, on_error="raise", **kw):  # noqa: A001 (the issue's name)
    """Evaluate a model at one point, or vectorised over numpy arrays.

    model_: a registered model name or Model (starts from its defaults), a ModelFile, or the
    path of a model file (*.ini; starts from its parameters). params (dict) and keyword
    arguments override parameters by name; values that are arrays are broadcast together
    (numpy rules) and every output is then an array of that shape.
    on_error='raise' (default) raises at the first failing point with the C message;
    on_error='nan' leaves NaN there and records the point code in .status (never silent).
    Returns an EvalResult (an ordered dict output name -> value, with .units and .status)."""
    if isinstance(model_, ModelFile):
        return model_.eval(params, on_error=on_error, **kw)
    if isinstance(model_, (str, os.PathLike)) and str(model_).endswith(".ini"):
        with ModelFile.read(model_) as mf:
            return mf.eval(params, on_error=on_error, **kw)
    return model(model_).eval(params, on_error=on_error, **kw)


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


class ModelFile(_Closeable):
    """A model with a parameter vector (model.h zvp_model_file). Create with
    ModelFile.read(path) or ModelFile.new(model); free with close() or a with-block."""

    def __init__(self, handle, owner=True, keepalive=None):
        if not handle:
            raise NoMemoryError(C.ZVP_ENOMEM, "model file: out of memory")
        self._h = handle
        self._owner = owner
        self._keepalive = keepalive  # the C object that owns a borrowed handle
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
        """Free the C handle (owned handles only); later use raises ValueError."""
        if self._h is not None and self._owner:
            C.zvp_model_file_free(self._h)
        self._h = None
        self._keepalive = None

    def __repr__(self):
        return "<zvmperf.ModelFile %s%s>" % (self.model.name,
                                              " from " + self.path if self.path else "")

    @property
    def vector(self):
        """The parameter vector [n_params], a read-only numpy view of the handle's memory
        (no copy; valid until close()). Change values with set()."""
        n = len(self.model.params)
        v = np.ctypeslib.as_array(C.zvp_model_file_params(self._handle()), shape=(n,))
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

    def eval(self, params=None, on_error="raise", **kw):
        """Evaluate from this file's parameters overridden by params / keywords (see eval)."""
        return _eval(self.model, np.array(self.vector), params, kw, on_error)

    def sweep(self, axes, path=None, **kw):
        """Sweep this model file over axes; see zvmperf.sweep."""
        return sweep(self, axes, path, **kw)


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


# ---- Sweeps (sweep.h) -----------------------------------------------------------------------
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
    threads = _count("threads", threads, None)
    block_points = _count("block_points", block_points)
    if path is not None:
        _path("path", path)
    if command is not None:
        _text("command", command)
    mf, owned = _model_file_of(model_)
    try:
        c_axes = (C.zvp_axis * len(ax))()
        keep = []
        for k, (name, arr) in enumerate(ax):
            nb = _b(name)
            keep.append(nb)
            c_axes[k].name = nb
            c_axes[k].values = arr.ctypes.data_as(C.P_double)
            c_axes[k].n_values = arr.size
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


class Sweep:
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

    def __getitem__(self, name):
        if name in self.outputs:
            return self.outputs[name]
        if name in self.axes:
            return self.axes[name]
        if name == "status":
            return self.status
        raise KeyError("%s: no output or axis %r (outputs: %s; axes: %s)"
                       % (self.path, name, ", ".join(self.outputs), ", ".join(self.axes)))

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
            raise KeyError("not an axis of %s: %s" % (self.path, ", ".join(sorted(unknown))))
        return tuple(idx)

    def sel(self, output, **coords):
        """The output (or 'status') at the axis values nearest to coords."""
        return self[output][self.index(**coords)]

    def meshgrid(self):
        """Axis values broadcast to the grid shape, name -> N-D array (indexing 'ij')."""
        grids = np.meshgrid(*self.axes.values(), indexing="ij")
        return OrderedDict(zip(self.dims, grids))


def open_sweep(path):
    """Read a sweep HDF5 file (written by sweep() or `zvmperf sweep`) with h5py.
    A missing or unreadable file raises ZvmperfIOError (ZVP_EIO) naming the path; an HDF5
    file that is not a sweep (no root attribute 'model', no /axes, /outputs or /status, or
    shapes that disagree) raises ParseError saying what is missing."""
    return Sweep(path)


# ---- Measurement tables (CSV) ---------------------------------------------------------------
class Table:
    """A measurement CSV read by the C reader (zvp_table_read): columns (names, in order),
    units (name -> unit, '' if none), rows, values(name) / t[name] (float array, NaN for text
    or empty cells), text(name) (list of str), comments ('#' lines, without '# ')."""

    def __init__(self, path):
        h = C.P_table()
        err = C.zvp_error()
        _check(C.zvp_table_read(_path("path", path), byref(h), byref(err)), err)
        try:
            self.path = os.fspath(path)
            nr, nc = C.zvp_table_rows(h), C.zvp_table_cols(h)
            self.rows = nr
            self.columns = [_s(C.zvp_table_col_name(h, j)) for j in range(nc)]
            self.units = OrderedDict((self.columns[j], _s(C.zvp_table_col_unit(h, j)))
                                     for j in range(nc))
            self._values = np.array([[C.zvp_table_value(h, i, j) for j in range(nc)]
                                     for i in range(nr)], dtype=float).reshape(nr, nc)
            self._text = [[_s(C.zvp_table_text(h, i, j)) for j in range(nc)] for i in range(nr)]
        finally:
            C.zvp_table_free(h)
        with open(self.path, encoding="utf-8") as fp:
            self.comments = [ln[1:].strip() for ln in fp if ln.startswith("#")]

    def _col(self, name):
        try:
            return self.columns.index(name)
        except ValueError:
            raise NotFoundError(C.ZVP_ENOTFOUND, "%s: no column %s (columns: %s)"
                                % (self.path, name, ", ".join(self.columns))) from None

    def values(self, name):
        return self._values[:, self._col(name)].copy()

    __getitem__ = values

    def __contains__(self, name):
        return name in self.columns

    def text(self, name):
        j = self._col(name)
        return [r[j] for r in self._text]

    def __repr__(self):
        return "<zvmperf.Table %s: %d rows x %d columns>" % (self.path, self.rows,
                                                            len(self.columns))


def read_table(path):
    """Read a measurement CSV (calibration/data/*.csv) into a Table."""
    return Table(path)


# ---- Calibration (calibrate.h) ----------------------------------------------------------------
def _copy(ptr, n):
    if n == 0 or not ptr:
        return np.empty(0)
    return np.ctypeslib.as_array(ptr, shape=(n,)).copy()


class Calibration(_Closeable):
    """The outcome of calibrate(). Arrays are copies (they outlive close()).

    param_names, estimates / stderrs (ordered dicts name -> value, parameter units),
    estimate_vector / stderr_vector [p], covariance [p, p]; output_names, row_labels,
    measured / fitted [rows, matched] (measured NaN where not measured), residuals =
    fitted - measured (output units), residuals_pct = 100 residuals / |measured|;
    r2, rmse, mape (dicts per output), mape_all (%), cost, dof, iterations, converged;
    model_file (an owned ModelFile copy of the calibrated parameters); fit_output_path (the
    fit file's `output`, never written unless you pass it to calibrate / write_model_file)."""

    def __init__(self, fit_path, res, output_path):
        self._res = res
        self.fit_path = os.fspath(fit_path)
        self.fit_output_path = output_path
        p = C.zvp_fit_result_n_free(res)
        nr, nm = C.zvp_fit_result_n_rows(res), C.zvp_fit_result_n_matched(res)
        self.param_names = [_s(C.zvp_fit_result_param_name(res, i)) for i in range(p)]
        self.estimate_vector = _copy(C.zvp_fit_result_estimates(res), p)
        self.stderr_vector = _copy(C.zvp_fit_result_stderrs(res), p)
        self.covariance = _copy(C.zvp_fit_result_covariance(res), p * p).reshape(p, p)
        self.estimates = OrderedDict(zip(self.param_names, self.estimate_vector.tolist()))
        self.stderrs = OrderedDict(zip(self.param_names, self.stderr_vector.tolist()))
        self.output_names = [_s(C.zvp_fit_result_output_name(res, j)) for j in range(nm)]
        self.row_labels = [_s(C.zvp_fit_result_row_label(res, i)) for i in range(nr)]
        self.measured = _copy(C.zvp_fit_result_measured(res), nr * nm).reshape(nr, nm)
        self.fitted = _copy(C.zvp_fit_result_fitted(res), nr * nm).reshape(nr, nm)
        self.residuals = self.fitted - self.measured
        with np.errstate(divide="ignore", invalid="ignore"):
            self.residuals_pct = 100.0 * self.residuals / np.abs(self.measured)
        self.r2 = OrderedDict((n, C.zvp_fit_result_r2(res, j))
                              for j, n in enumerate(self.output_names))
        self.rmse = OrderedDict((n, C.zvp_fit_result_rmse(res, j))
                                for j, n in enumerate(self.output_names))
        self.mape = OrderedDict((n, C.zvp_fit_result_mape(res, j))
                                for j, n in enumerate(self.output_names))
        self.mape_all = C.zvp_fit_result_mape_all(res)
        self.cost = C.zvp_fit_result_cost(res)
        self.dof = C.zvp_fit_result_dof(res)
        self.iterations = C.zvp_fit_result_iterations(res)
        self.converged = bool(C.zvp_fit_result_converged(res))
        borrowed = ModelFile(C.zvp_fit_result_model_file(res), owner=False, keepalive=self)
        self.model = borrowed.model
        self.model_file = borrowed.copy()
        borrowed.close()

    def _handle(self):
        if self._res is None:
            raise ValueError("zvmperf.Calibration: used after close()")
        return self._res

    def close(self):
        if self._res is not None:
            C.zvp_fit_result_free(self._res)
        self._res = None

    def __repr__(self):
        return "<zvmperf.Calibration %s: %d free, %d rows x %d outputs, MAPE %.3g%%>" % (
            self.fit_path, len(self.param_names), len(self.row_labels),
            len(self.output_names), self.mape_all)

    def write_model_file(self, path):
        """Write the calibrated model file (with standard errors and provenance)."""
        err = C.zvp_error()
        _check(C.zvp_model_file_write(C.zvp_fit_result_model_file(self._handle()),
                                      _path("path", path), byref(err)), err)
        return os.fspath(path)

    def write_h5(self, path):
        """Write the calibration report as HDF5 (calibrate.h zvp_fit_result_write_h5)."""
        err = C.zvp_error()
        _check(C.zvp_fit_result_write_h5(self._handle(), _path("path", path), byref(err)), err)
        return os.fspath(path)

    def report(self):
        """The text report of zvp_fit_result_print, as a str."""
        fd, tmp = tempfile.mkstemp(prefix="zvmperf-report-", suffix=".txt")
        os.close(fd)
        try:
            fp = C.libc_fopen(_b(tmp), b"w")
            if not fp:
                raise ZvmperfIOError(C.ZVP_EIO, "cannot open %s" % tmp)
            C.zvp_fit_result_print(self._handle(), fp)
            C.libc_fclose(fp)
            with open(tmp, encoding="utf-8", errors="replace") as f:
                return f.read()
        finally:
            os.unlink(tmp)


def calibrate(fit_path, output=None, report_h5=None):
    """Calibrate a model against its measurement table (zvp_fit_read + zvp_fit_run).

    Nothing is written unless asked: output = path of the calibrated model file to write,
    report_h5 = path of the HDF5 report. (The fit file's own `output` is available as
    .fit_output_path; pass it explicitly to overwrite the committed file.)
    Returns a Calibration; raises FitError / ParseError / NotFoundError ... with the C message."""
    if output is not None:
        _path("output", output)
    if report_h5 is not None:
        _path("report_h5", report_h5)
    fit = C.P_fit()
    err = C.zvp_error()
    _check(C.zvp_fit_read(_path("fit_path", fit_path), byref(fit), byref(err)), err)
    try:
        res = C.P_res()
        _check(C.zvp_fit_run(fit, byref(res), byref(err)), err)
        cal = Calibration(fit_path, res, _s(C.zvp_fit_output_path(fit)))
    finally:
        C.zvp_fit_free(fit)
    if output is not None:
        cal.write_model_file(output)
    if report_h5 is not None:
        cal.write_h5(report_h5)
    return cal


# ---- Fit files read in Python, for plotting a calibrated model against its data -------------
class FitData:
    """What a fit file says about its data, without fitting, as the C engine reads it
    (zvp_fit_read: join, `where` filter, concatenated data files): model (name), rows
    (labels), inputs (parameter -> per-row values), fixed (parameter -> value), free
    (parameter -> [start, lo, hi]), base (model-file path or None), matched (output ->
    measured per-row values, NaN where empty), columns (output -> data column), units
    (output -> unit of its column), output (path or None), path. predict() evaluates a model
    file at the rows (zvp_fit_row_params: the file's values with the rows' [fixed] and
    [inputs] set)."""

    def __init__(self, path):
        self.path = os.fsdecode(_path("path", path))
        fit = C.P_fit()
        err = C.zvp_error()
        _check(C.zvp_fit_read(_path("path", path), byref(fit), byref(err)), err)
        try:
            m = Model(C.zvp_fit_model(fit))
            pnames = list(m.param_names)
            onames = [o.name for o in m.outputs]
            self.model = m.name
            self.n_params = len(pnames)
            self.output = _s(C.zvp_fit_output_path(fit))
            self.base = _s(C.zvp_fit_base_path(fit))
            nrows = C.zvp_fit_n_rows(fit)
            self.rows = [_s(C.zvp_fit_row_label(fit, i)) for i in range(nrows)]
            st, lo, hi, v = c_double(), c_double(), c_double(), c_double()
            self.free = OrderedDict()
            for k in range(C.zvp_fit_n_free(fit)):
                idx = C.zvp_fit_free_param_at(fit, k, byref(st), byref(lo), byref(hi))
                self.free[pnames[idx]] = [st.value, lo.value, hi.value]
            self.fixed = OrderedDict()
            for f in range(C.zvp_fit_n_fixed(fit)):
                idx = C.zvp_fit_fixed_param_at(fit, f, byref(v))
                self.fixed[pnames[idx]] = v.value
            rows = np.empty((nrows, self.n_params))
            for i in range(nrows):
                _check(C.zvp_fit_row_params(fit, i, None,
                                            rows[i].ctypes.data_as(C.P_double), byref(err)), err)
            self._row_params = rows
            col = c_char_p()
            self.inputs = OrderedDict()
            for k in range(C.zvp_fit_n_inputs(fit)):
                idx = C.zvp_fit_input_param_at(fit, k, byref(col))
                self.inputs[pnames[idx]] = rows[:, idx].copy()
            self.columns, self.units, self.matched = OrderedDict(), OrderedDict(), OrderedDict()
            for j in range(C.zvp_fit_n_matched(fit)):
                name = onames[C.zvp_fit_matched_output(fit, j)]
                self.columns[name] = _s(C.zvp_fit_matched_column(fit, j))
                self.units[name] = _s(C.zvp_fit_matched_unit(fit, j))
                self.matched[name] = np.array([C.zvp_fit_measured(fit, i, j)
                                               for i in range(nrows)])
            self._fit_path = self.path
        finally:
            C.zvp_fit_free(fit)

    def predict(self, model_file=None, on_error="nan"):
        """Evaluate a model file (default: the fit's own output file) at the data rows, with
        the fit's [fixed] and [inputs] set over the file's values: an EvalResult of arrays
        [rows]."""
        mf = model_file if model_file is not None else self.output
        n = len(self.rows)
        per_row = OrderedDict((k, np.full(n, v)) for k, v in self.fixed.items())
        per_row.update(self.inputs)
        if isinstance(mf, ModelFile):
            res = mf.eval(per_row, on_error=on_error)
        else:
            with ModelFile.read(mf) as h:
                res = h.eval(per_row, on_error=on_error)
        # a fit without [fixed] or [inputs] gives one point: repeat it per row
        for key in list(res):
            res[key] = np.broadcast_to(np.asarray(res[key], dtype=float), (n,)).copy()
        res.status = np.broadcast_to(np.asarray(res.status, dtype=np.uint8), (n,)).copy()
        return res


def _isnum(t):
    try:
        float(t)
        return True
    except ValueError:
        return False


def read_fit(path):
    """Read a fit file and its data tables (no fitting): a FitData."""
    return FitData(path)
