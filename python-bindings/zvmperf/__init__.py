"""zvmperf - Python bindings (ctypes) for libzvmperf, analytical queueing models of IBM z/VM
memory-management performance.

Modules (everything public is re-exported here, so `import zvmperf as z; z.mmc(...)`):
  _clib        the thin layer: loads the library, declares every C prototype once
  errors       ZvmperfError and its subclasses, one per C status
  _args        argument coercion and validation (private)
  queue        queueing kernels: erlang_b, erlang_c, mmc, mm1, mmck, mminf, repairman, mva,
               mva_multi, mva_approx, mva_ld, mva_bounds, open_network, usl, usl_peak, usl_fit
  modeling     the model registry (models, model), eval (one point, or arrays in C) and
               model files (ModelFile)
  sweeps       grid (a grid in memory), sweep (written to HDF5, progress=, resume=), parse_axis
  sweepread    open_sweep (sweep file layout 2, netCDF-4 / CF; also layout 1) -> Sweep, whose
               to_xarray(), to_dataframe() and sel() the in-memory Grid shares (_labelled)
  calibration  read_table, calibrate, read_fit
  uncertainty  eval(..., interval=0.9) -> IntervalResult (value, lo, hi per output), validate
               (cross-validation of a fit), sensitivity (elasticities, knife-edges)
  api          the former single module, kept as an alias of the public names

The shared library is found through $ZVMPERF_LIB, next to this package, the build tree, or
the installed prefix (see zvmperf._clib); import fails with the list of places tried, or if
the library's version differs from __version__.
"""
from . import _clib
from . import calibration as _calibration
from . import errors as _errors
from . import modeling as _modeling
from . import queue as _queue
from . import sweeps as _sweeps
from . import simulation as _simulation
from . import uncertainty as _uncertainty
from .calibration import *  # noqa: F401,F403
from .errors import *  # noqa: F401,F403
from .modeling import *  # noqa: F401,F403
from .queue import *  # noqa: F401,F403
from .sweeps import *  # noqa: F401,F403
from .simulation import *  # noqa: F401,F403
from .uncertainty import *  # noqa: F401,F403

__version__ = _clib.ZVP_VERSION_STRING
__all__ = (["__version__", "version", "library_path"] + _errors.__all__ + _queue.__all__
           + _modeling.__all__ + _sweeps.__all__ + _calibration.__all__
           + _simulation.__all__ + _uncertainty.__all__)


def version():
    """Version string of the loaded library, e.g. '0.1.0'."""
    return _clib.zvp_version().decode()


def library_path():
    """Path (or name) of the libzvmperf shared library that was loaded."""
    return _clib.lib_path
