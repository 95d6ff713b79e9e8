"""zvmperf._args - argument coercion and validation shared by the modules (private).

Every check raises a zvmperf error that names the argument (and, for arrays, the index of the
first bad element): ArgumentTypeError for a wrong Python type, InvalidArgumentError for a bad
value, BadLengthError for shapes that do not go together. Range checks of numbers are left to
C, whose messages name the parameter, its value and its range.
"""
import ctypes
import math
import numbers
import os

import numpy as np

from . import _clib as C
from .errors import ArgumentTypeError, BadLengthError, InvalidArgumentError

_ON_ERROR = ("raise", "nan")
# Point codes (sweep.h ZVP_POINT_*) of the C status codes a kernel or model returns.
_POINT_OF_STATUS = np.full(256, C.ZVP_POINT_INVALID, dtype=np.uint8)
_POINT_OF_STATUS[C.ZVP_SUCCESS] = C.ZVP_POINT_OK
_POINT_OF_STATUS[C.ZVP_EUNSTABLE] = C.ZVP_POINT_UNSTABLE


def _b(s):
    """bytes for C: str and os.PathLike are encoded, bytes (and None) pass."""
    return os.fsencode(s) if isinstance(s, (str, os.PathLike)) else s


def _s(b):
    """str from a C string (None stays None)."""
    return b.decode() if b is not None else None


def _check_on_error(on_error):
    if on_error not in _ON_ERROR:
        raise InvalidArgumentError(C.ZVP_EINVAL, "on_error = %.80r: must be 'raise' or 'nan'"
                                   % (on_error,))


def _type_error(name, value, what):
    return ArgumentTypeError(C.ZVP_EINVAL, "%s = %.80r: must be %s" % (name, value, what))


def _ndim(x):
    try:
        return np.ndim(x)
    except ValueError:  # ragged nested sequence: _farray reports it with the argument's name
        return 1


def _is_scalar(*xs):
    return all(_ndim(x) == 0 for x in xs)


def _is_number(x):
    return isinstance(x, (numbers.Real, np.number)) and not isinstance(x, (bool, np.bool_))


def _float(name, value):
    """A C double from a real scalar; ArgumentTypeError naming the argument otherwise. NaN and
    infinities pass: the C function range-checks them and names the parameter."""
    if (value is None or isinstance(value, (str, bytes, bool, np.bool_)) or _ndim(value) != 0
            or np.iscomplexobj(value)):
        raise _type_error(name, value, "a real number (not a bool: write 1 or 0)")
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
    if a.dtype.kind not in "iuf":  # not bool: True is no parameter value
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


def _c_range(ctype):
    """(lowest, highest) value of a ctypes integer type."""
    bits = 8 * ctypes.sizeof(ctype)
    if ctype(-1).value < 0:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


_C_TYPE_NAMES = {ctypes.c_int: "int", ctypes.c_ulong: "unsigned long", ctypes.c_int32: "int32_t",
                 ctypes.c_uint32: "uint32_t", ctypes.c_uint64: "uint64_t"}


def _count(name, value, lo=0, ctype=ctypes.c_ulong):
    """A Python int for a C integer argument of type ctype (default unsigned long) from an
    integral number >= lo (lo=None: the type's lowest value) and within the C type's range:
    ctypes would silently wrap anything outside it, so InvalidArgumentError names the argument,
    its value and the range instead. Python and numpy integers are taken exactly."""
    clo, chi = _c_range(ctype)
    lo = clo if lo is None else max(lo, clo)
    if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value,
                                                                          (bool, np.bool_)):
        iv = int(value)
    else:
        v = _float(name, value)
        iv = int(v) if math.isfinite(v) and v == math.floor(v) else None
    if iv is None or iv < lo or iv > chi:
        raise InvalidArgumentError(C.ZVP_EINVAL, "%s = %r: must be an integer in [%d, %d] (C %s)"
                                   % (name, value, lo, chi,
                                      _C_TYPE_NAMES.get(ctype, ctype.__name__)))
    return iv


def _index_text(a, flat):
    """'[i]' or '[i, j]' for flat index `flat` of array a ('' for a 0-d array)."""
    if a.ndim == 0:
        return ""
    return "[%s]" % ", ".join(str(int(i)) for i in np.unravel_index(flat, a.shape))


def _counts(name, a, lo=0):
    """Check that every element of the float array a is an integer >= lo (as _count does for
    one value); InvalidArgumentError naming the argument, the index of the first bad element
    and its value. Returns a."""
    with np.errstate(invalid="ignore"):
        bad = ~(np.isfinite(a) & (a == np.floor(a)) & (a >= lo) & (np.abs(a) <= 2.0 ** 63))
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise InvalidArgumentError(C.ZVP_EINVAL, "%s%s = %r: must be an integer >= %d"
                                   % (name, _index_text(a, i), float(a.ravel()[i]), lo))
    return a


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


def _status_code(st):
    """The point code (1 ok, 2 no steady state, 3 invalid) of one C status."""
    return int(_POINT_OF_STATUS[st if 0 <= st < 256 else C.ZVP_EINVAL])


def _point_codes(statuses):
    """Point codes of a uint8 array of C statuses (same shape)."""
    return _POINT_OF_STATUS[statuses]


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


def _need(name):
    """The C function `name`, looked up when called (tests may replace it)."""
    fn = getattr(C, name, None)
    if fn is None:
        raise NotImplementedError("zvmperf: the loaded library %s has no %s" % (C.lib_path, name))
    return fn
