"""zvmperf - Python bindings (ctypes) for libzvmperf, analytical queueing models of IBM z/VM
memory-management performance.

Two layers: zvmperf._clib declares every C prototype of include/zvmperf/*.h once;
zvmperf.api (re-exported here) is the Pythonic layer: kernels (erlang_b, erlang_c, mmc,
mm1, repairman, mva), the model registry (models, model), eval (one point or vectorised),
model files, calibrate, sweep (writes HDF5) and open_sweep (reads it with h5py).

The shared library is found through $ZVMPERF_LIB, next to this package, the build tree, or
the installed prefix (see zvmperf._clib); import fails with the list of places tried, or if
the library's version differs from __version__.
"""
from . import _clib
from .api import *  # noqa: F401,F403
from .api import __all__ as _api_all

__version__ = _clib.ZVP_VERSION_STRING
__all__ = ["__version__"] + list(_api_all)
