"""zvmperf.queue - the queueing kernels of queue.h: single stations (erlang_b, erlang_c, mmc,
mm1, mmck, mminf, repairman), closed and open networks (mva, mva_multi, mva_approx, mva_ld,
mva_bounds, open_network) and the Universal Scalability Law (usl, usl_peak, usl_fit).

Times are in seconds and rates in 1/s, as in the C header. The single-station kernels and usl
take scalars (one C call, a float or a namedtuple of floats) or arrays, which broadcast
together (numpy rules): the whole array then goes to C in one call (zvp_station_batch, OpenMP)
and every field is an array of the broadcast shape, bit for bit what the scalar calls give.
on_error='raise' raises at the first failing point (lowest flat index) with the C message;
on_error='nan' leaves NaN there and records the point code in .status (1 ok, 2 no steady
state, 3 invalid). A count argument (servers, capacity, sources) that is not an integer raises
InvalidArgumentError naming the argument and the index of the first bad element, whatever
on_error says.
"""
import ctypes
import math
from collections import OrderedDict, namedtuple
from ctypes import byref, c_double

import numpy as np

from . import _clib as C
from ._args import (_broadcast, _check_on_error, _count, _counts, _dptr, _farray, _float,
                    _is_number, _is_scalar, _mapping, _need, _point_codes, _ulongs)
from .errors import (ArgumentTypeError, BadLengthError, FitError, InvalidArgumentError, _check,
                     _raise)

__all__ = ["erlang_b", "erlang_c", "mmc", "mm1", "repairman", "Station", "mva", "StationResult",
           "MvaResult", "mmck", "mminf", "LossResult", "open_network", "OpenResult",
           "mva_multi", "mva_approx", "MvaMultiResult", "mva_ld", "mva_bounds", "Bounds", "usl",
           "usl_peak", "usl_fit", "UslFit"]


# ---- Kernels over arrays, in C --------------------------------------------------------------
def _batch(kernel, args, names, counts, on_error, threads=0):
    """Evaluate batch kernel `kernel` (ZVP_BATCH_*) over the broadcast of args in one C call.
    counts: {argument index: lower bound} of the count arguments (checked here, naming the
    argument and the index). Returns (list of output arrays of the broadcast shape, point
    codes as a uint8 array of that shape)."""
    _check_on_error(on_error)
    arrays = [_farray(n, a) for n, a in zip(names, args)]
    full = _broadcast(names, arrays)
    for k, lo in counts.items():
        _counts(names[k], arrays[k], lo)
    shape = full[0].shape
    n = full[0].size
    cols = [np.ascontiguousarray(a).reshape(n) for a in full]
    n_out = len(_BATCH_ROWS[kernel])
    out = np.empty((n_out, n))
    status = np.empty(n, dtype=np.uint8)
    ptrs = (C.P_double * len(cols))(*[_dptr(c) for c in cols])
    err = C.zvp_error()
    _check(C.zvp_station_batch(kernel, n, ptrs, out, status, threads, byref(err)), err)
    if err.status != C.ZVP_SUCCESS and on_error == "raise":
        i = int(np.flatnonzero(status)[0])
        where = ", ".join("%s=%g" % (nm, c[i]) for nm, c in zip(names, cols))
        _raise(err.status, err, "point %d (%s)" % (i, where))
    return [o.reshape(shape) for o in out], _point_codes(status).reshape(shape)


# ---- Single stations ------------------------------------------------------------------------
_STATION_FIELDS = [f[0] for f in C.zvp_station_result._fields_]
# Output rows of each batch kernel (queue.h zvp_batch_kernel).
_BATCH_ROWS = {C.ZVP_BATCH_ERLANG_B: ["blocking"], C.ZVP_BATCH_ERLANG_C: ["pwait"],
               C.ZVP_BATCH_MMC: _STATION_FIELDS, C.ZVP_BATCH_MMCK: _STATION_FIELDS + ["pblock"],
               C.ZVP_BATCH_MMINF: _STATION_FIELDS, C.ZVP_BATCH_REPAIRMAN: _STATION_FIELDS,
               C.ZVP_BATCH_USL: ["throughput"]}
assert len(_STATION_FIELDS) == C.ZVP_BATCH_STATION_FIELDS


def _erlang(fn, kernel, offered_load, servers, on_error):
    _check_on_error(on_error)
    if _is_scalar(offered_load, servers):
        err = C.zvp_error()
        v = c_double(math.nan)
        _check(fn(_float("offered_load", offered_load), _count("servers", servers), byref(v),
                  byref(err)), err)
        return v.value
    (v,), _ = _batch(kernel, (offered_load, servers), ("offered_load", "servers"), {1: 0},
                     on_error)
    return v


def erlang_b(offered_load, servers, on_error="raise"):
    """Erlang B blocking probability B(c, a); offered_load a in Erlangs, servers c.
    Scalars give a float; arrays broadcast and give an array (on_error='nan' puts NaN at
    failing points instead of raising). Source: queue.h zvp_erlang_b."""
    return _erlang(C.zvp_erlang_b, C.ZVP_BATCH_ERLANG_B, offered_load, servers, on_error)


def erlang_c(offered_load, servers, on_error="raise"):
    """Erlang C probability of waiting C(c, a) of M/M/c. UnstableError when a >= c."""
    return _erlang(C.zvp_erlang_c, C.ZVP_BATCH_ERLANG_C, offered_load, servers, on_error)


class StationResult(namedtuple("StationResult", _STATION_FIELDS + ["status"])):
    """Steady-state figures of one station (queue.h zvp_station_result): throughput_per_s,
    utilization (per server), busy_servers, mean_in_system (L), mean_in_queue (Lq),
    response_s (R), wait_s (W), pwait. Fields are floats, or arrays when the inputs were
    arrays; status is 1 (ok) or, with on_error='nan', a uint8 array of sweep point codes
    (1 ok, 2 no steady state, 3 invalid)."""
    __slots__ = ()


class LossResult(namedtuple("LossResult", _STATION_FIELDS + ["pblock", "status"])):
    """M/M/c/K figures (StationResult fields on accepted customers) plus pblock, the
    probability that an arrival is lost."""
    __slots__ = ()


def _station(cls, kernel, scalar_call, args, names, counts, on_error):
    """A single-station kernel: one scalar C call (scalar_call(result, pblock, err) -> status)
    when every argument is a scalar, else the batch over the broadcast arrays."""
    _check_on_error(on_error)
    if _is_scalar(*args):
        err = C.zvp_error()
        r = C.zvp_station_result()
        pb = c_double(math.nan)
        _check(scalar_call(byref(r), byref(pb), byref(err)), err)
        extra = (pb.value,) if cls is LossResult else ()
        return cls(*(tuple(getattr(r, f) for f in _STATION_FIELDS) + extra),
                   status=C.ZVP_POINT_OK)
    fields, status = _batch(kernel, args, names, counts, on_error)
    return cls(*fields, status=status)


def mmc(arrival_rate_per_s, service_rate_per_s, servers=1, on_error="raise"):
    """M/M/c queue (servers = 1 is M/M/1): lambda in 1/s, mu per server in 1/s.
    Returns a StationResult; UnstableError (scalar call) when lambda >= c mu.
    Source: Gross et al. 2008, sec. 2.3 (queue.h zvp_mmc)."""
    args = (arrival_rate_per_s, service_rate_per_s, servers)
    return _station(StationResult, C.ZVP_BATCH_MMC, lambda r, pb, e: C.zvp_mmc(
        _float("arrival_rate_per_s", args[0]), _float("service_rate_per_s", args[1]),
        _count("servers", args[2], 1), r, e), args,
        ("arrival_rate_per_s", "service_rate_per_s", "servers"), {2: 1}, on_error)


def mm1(arrival_rate_per_s, service_rate_per_s, on_error="raise"):
    """M/M/1 queue: mmc with one server."""
    return mmc(arrival_rate_per_s, service_rate_per_s, 1, on_error)


def repairman(sources, think_s, service_s, servers=1, on_error="raise"):
    """Finite-source M/M/c//N (machine repairman): N sources thinking think_s, service
    service_s at c servers. Returns a StationResult (queue.h zvp_repairman)."""
    args = (sources, think_s, service_s, servers)
    return _station(StationResult, C.ZVP_BATCH_REPAIRMAN, lambda r, pb, e: C.zvp_repairman(
        _count("sources", args[0]), _float("think_s", args[1]), _float("service_s", args[2]),
        _count("servers", args[3], 1), r, e), args,
        ("sources", "think_s", "service_s", "servers"), {0: 0, 3: 1}, on_error)


def mmck(arrival_rate_per_s, service_rate_per_s, servers, capacity, on_error="raise"):
    """M/M/c/K queue (room for K in all; M/M/1/K is c = 1, Erlang loss M/M/c/c is K = c).
    Returns a LossResult. Source: Gross et al. 2008, sec. 2.5-2.6 (queue.h zvp_mmck)."""
    fn = _need("zvp_mmck")
    args = (arrival_rate_per_s, service_rate_per_s, servers, capacity)
    return _station(LossResult, C.ZVP_BATCH_MMCK, lambda r, pb, e: fn(
        _float("arrival_rate_per_s", args[0]), _float("service_rate_per_s", args[1]),
        _count("servers", args[2], 1), _count("capacity", args[3], 1), r, pb, e), args,
        ("arrival_rate_per_s", "service_rate_per_s", "servers", "capacity"), {2: 1, 3: 1},
        on_error)


def mminf(arrival_rate_per_s, service_rate_per_s, on_error="raise"):
    """M/M/infinity (pure delay) station (queue.h zvp_mminf)."""
    fn = _need("zvp_mminf")
    args = (arrival_rate_per_s, service_rate_per_s)
    return _station(StationResult, C.ZVP_BATCH_MMINF, lambda r, pb, e: fn(
        _float("arrival_rate_per_s", args[0]), _float("service_rate_per_s", args[1]), r, e),
        args, ("arrival_rate_per_s", "service_rate_per_s"), {}, on_error)


# ---- Stations of networks; exact MVA --------------------------------------------------------
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
        arr[i] = (kind, _count("stations[%d].servers" % i, s.servers, 0, ctypes.c_int32),
                  _count("stations[%d].replicas" % i, s.replicas, 0, ctypes.c_uint32), 0,
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



# ---- Open networks, multiclass and approximate MVA, bounds -----------------------------------
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
    opt = C.zvp_mva_approx_options(methods[method], _count("max_iterations", max_iterations, 0,
                                                                ctypes.c_uint32),
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



# ---- Universal Scalability Law --------------------------------------------------------------
def usl(n, gamma, alpha, beta, on_error="raise"):
    """Universal Scalability Law X(N) = gamma N / (1 + alpha (N-1) + beta N (N-1)) (Gunther
    2007); n (and the coefficients) may be arrays, evaluated in C in one call."""
    fn = _need("zvp_usl_eval")
    _check_on_error(on_error)
    if _is_scalar(n, gamma, alpha, beta):
        err = C.zvp_error()
        x = c_double(math.nan)
        _check(fn(_float("n", n), _float("gamma", gamma), _float("alpha", alpha),
                  _float("beta", beta), byref(x), byref(err)), err)
        return x.value
    (x,), _ = _batch(C.ZVP_BATCH_USL, (n, gamma, alpha, beta), ("n", "gamma", "alpha", "beta"),
                     {}, on_error)
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
