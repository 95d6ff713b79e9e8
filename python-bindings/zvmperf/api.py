"""zvmperf.api - the former single module of the Pythonic layer, now split into
zvmperf.errors, zvmperf.queue, zvmperf.modeling, zvmperf.sweeps and zvmperf.calibration.
Kept so that `from zvmperf.api import ...` goes on working: it re-exports the public names
(the same objects as `zvmperf.<name>`)."""
from . import library_path, version  # noqa: F401
from .calibration import *  # noqa: F401,F403
from .errors import *  # noqa: F401,F403
from .modeling import *  # noqa: F401,F403
from .queue import *  # noqa: F401,F403
from .sweeps import *  # noqa: F401,F403

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
    "read_fit", "grid", "Grid", "InternalError", "CanceledError",
]
