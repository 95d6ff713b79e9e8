"""zvmperf.claims - the reports' statements as tests of the models (include/zvmperf/claims.h).

    from zvmperf import claims
    results = claims.evaluate(glob.glob("calibration/claims/*.csv"))
    failed = [r for r in results if not r["pass"]]

A claims file (calibration/claims/README.md) is a CSV table
``id,kind,source,statement,lhs,relation,rhs,tolerance``: one claim per row, ``lhs RELATION
rhs`` with expressions over numbers and model terms ``MODEL:OUTPUT[NAME=VALUE;...]``; kind
is ``fitted``, ``predicted`` or ``identity`` (met by construction: not a test).
evaluate() reads the files with zvp_claims_read (every check of the format is done there:
errors raise the matching ZvmperfError, the message naming FILE:LINE and the claim) and
evaluates each claim with zvp_claim_eval; a claim that does not hold, or whose point has no
steady state, is a result with ``pass`` False and its ``reason``, not an exception.

MODEL is resolved as ``zvmperf eval`` does: a path, NAME.ini in the search directories, or a
registered model with its defaults. The directories default to $ZVMPERF_DATA/params (when
set) and calibration/params (relative to the working directory), as the command line's.
"""
import math
import os
from ctypes import POINTER, Structure, byref, c_char, c_char_p, c_double, c_int, c_long, c_size_t, c_void_p

from . import _clib as C
from .errors import _check

__all__ = ["evaluate", "default_search_dirs"]


class zvp_claims_options(Structure):
    """claims.h: how MODEL is resolved."""
    _fields_ = [("search_dirs", POINTER(c_char_p)), ("n_search_dirs", c_size_t)]


class zvp_claim_info(Structure):
    """claims.h: one claim as written."""
    _fields_ = [("id", c_char_p), ("kind", c_char_p), ("source", c_char_p),
                ("statement", c_char_p), ("lhs", c_char_p), ("relation", c_char_p),
                ("rhs", c_char_p), ("tolerance", c_char_p), ("file", c_char_p),
                ("line", c_size_t), ("predicted", c_int)]


class zvp_claim_result(Structure):
    """claims.h: the outcome of one claim."""
    _fields_ = [("lhs", c_double), ("rhs", c_double), ("tolerance", c_double), ("pass_", c_int),
                ("reason", c_char * C.ZVP_ERRMSG_MAX)]


_P_claims = c_void_p
_read = C._declare(C.lib, "zvp_claims_read", c_int,
                   [POINTER(c_char_p), c_size_t, POINTER(zvp_claims_options),
                    POINTER(_P_claims), C.P_err])
_free = C._declare(C.lib, "zvp_claims_free", None, [_P_claims])
_count = C._declare(C.lib, "zvp_claims_count", c_size_t, [_P_claims])
_info = C._declare(C.lib, "zvp_claims_info", c_int,
                   [_P_claims, c_size_t, POINTER(zvp_claim_info), C.P_err])
_index = C._declare(C.lib, "zvp_claims_index", c_long, [_P_claims, c_char_p, C.P_err])
_eval = C._declare(C.lib, "zvp_claim_eval", c_int,
                   [_P_claims, c_size_t, POINTER(zvp_claim_result), C.P_err])


def default_search_dirs():
    """The directories searched for NAME.ini: $ZVMPERF_DATA/params (when set), calibration/params."""
    dirs = []
    env = os.environ.get("ZVMPERF_DATA")
    if env:
        dirs.append(os.path.join(env, "params"))
    dirs.append("calibration/params")
    return dirs


def _text(b):
    return b.decode("utf-8", errors="replace") if b is not None else None


def _num(x):
    return None if math.isnan(x) else float(x)


def evaluate(paths, search_dirs=None):
    """Read the claims files `paths` (a path or a list of paths) and evaluate every claim.

    Returns a list of dicts in file order, one per claim: id, kind, source, statement, file,
    line, lhs {"expr", "value"}, relation, rhs {"expr", "value"}, tolerance (as written, or
    None), tolerance_value (absolute, None for an inequality), pass (bool), reason (None when
    the claim holds). A value that could not be computed is None (the reason says why).
    search_dirs: directories for a MODEL given by name (default: default_search_dirs()).
    Raises InvalidArgumentError, ParseError, NotFoundError or ZvmperfIOError (from
    zvp_claims_read) for a malformed or unreadable file.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    paths = [os.fsencode(p) for p in paths]
    dirs = [os.fsencode(d) for d in (default_search_dirs() if search_dirs is None
                                     else search_dirs)]
    c_paths = (c_char_p * max(len(paths), 1))(*paths)
    c_dirs = (c_char_p * max(len(dirs), 1))(*dirs)
    opt = zvp_claims_options(c_dirs, len(dirs))
    err = C.zvp_error()
    handle = _P_claims()
    _check(_read(c_paths, len(paths), byref(opt), byref(handle), byref(err)), err)
    try:
        out = []
        for i in range(_count(handle)):
            info = zvp_claim_info()
            res = zvp_claim_result()
            _check(_info(handle, i, byref(info), byref(err)), err)
            _check(_eval(handle, i, byref(res), byref(err)), err)
            reason = _text(res.reason)
            out.append({
                "id": _text(info.id), "kind": _text(info.kind), "source": _text(info.source),
                "statement": _text(info.statement), "file": _text(info.file),
                "line": int(info.line),
                "lhs": {"expr": _text(info.lhs), "value": _num(res.lhs)},
                "relation": _text(info.relation),
                "rhs": {"expr": _text(info.rhs), "value": _num(res.rhs)},
                "tolerance": _text(info.tolerance) or None,
                "tolerance_value": _num(res.tolerance),
                "pass": bool(res.pass_), "reason": reason or None,
            })
        return out
    finally:
        _free(handle)
