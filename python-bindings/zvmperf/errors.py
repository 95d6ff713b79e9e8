"""zvmperf.errors - the exceptions: every non-zero C status becomes a ZvmperfError subclass
carrying the C message (which names the parameter, its value and its range).

Each class is also the matching builtin kind (InvalidArgumentError is a ValueError,
UnstableError an ArithmeticError, ZvmperfIOError an OSError, ...), so callers may catch either.
"""
import ctypes

from . import _clib as C

__all__ = ["ZvmperfError", "InvalidArgumentError", "ArgumentTypeError", "BadLengthError",
           "UnstableError", "NoMemoryError", "MaxIterError", "ZvmperfIOError", "NotFoundError",
           "ParseError", "FitError", "InternalError", "CanceledError", "strerror"]


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


class InternalError(ZvmperfError, RuntimeError):
    """ZVP_EINTERNAL: an internal consistency check failed (a bug in zvmperf; report it)."""


class CanceledError(ZvmperfError, RuntimeError):
    """ZVP_ECANCELED: a sweep stopped because its progress callback asked it to; the partial
    file (OUT.partial) keeps the finished blocks and sweep(..., resume=True) continues it."""


_ERRORS = {C.ZVP_EINVAL: InvalidArgumentError, C.ZVP_EBADLEN: BadLengthError,
           C.ZVP_EUNSTABLE: UnstableError, C.ZVP_ENOMEM: NoMemoryError,
           C.ZVP_EMAXITER: MaxIterError, C.ZVP_EIO: ZvmperfIOError,
           C.ZVP_ENOTFOUND: NotFoundError, C.ZVP_EPARSE: ParseError, C.ZVP_EFIT: FitError,
           C.ZVP_EINTERNAL: InternalError, C.ZVP_ECANCELED: CanceledError}


def strerror(status):
    """Static text of a ZVP_* status code."""
    from ._args import _count  # _args raises the classes above: imported when first used
    return C.zvp_strerror(_count("status", status, None, ctypes.c_int)).decode()


def _error(status, message):
    """The exception object for a status and message."""
    return _ERRORS.get(status, ZvmperfError)(status, message)


def _raise(status, err, prefix=None):
    """Raise the exception of status with err's C message (after prefix, if any)."""
    msg = err.message.decode(errors="replace") if err is not None else ""
    if prefix:
        msg = "%s: %s" % (prefix, msg) if msg else prefix
    raise _error(status, msg)


def _check(status, err, prefix=None):
    """Raise unless status is ZVP_SUCCESS."""
    if status != C.ZVP_SUCCESS:
        _raise(status, err, prefix)
