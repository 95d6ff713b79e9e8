"""zvmperf._clib - the thin layer: load libzvmperf.so and declare every C prototype once.

This module mirrors include/zvmperf/*.h one to one (libsvm's svm.py pattern): the plain
structs become ctypes Structures, the opaque handles become pointer types, and every
function gets its restype and argtypes in the table PROTOTYPES, so nothing relies on
ctypes' implicit ``int`` return. Adding a C function is one line in that table.

Library search order (first hit wins):
  1. $ZVMPERF_LIB, a full path to the shared library;
  2. next to this package (libzvmperf.so*, as install.sh may put it);
  3. the build tree, <package>/../../build/ (running from a source checkout);
  4. the library directory recorded by install.sh (zvmperf/_libdir.py, written at install);
  5. ctypes.util.find_library("zvmperf"), then <prefix>/lib for sys.prefix, /usr/local, /usr.
ImportError lists every place tried when none loads. The loaded library's
zvp_version_number() must equal ZVP_VERSION_NUMBER below (the header this package mirrors).

Thread safety: CDLL calls release the GIL. The one Python callback handed to C is a sweep's
progress function (zvp_progress_fn), which C calls from the calling thread between blocks.
"""
import ctypes
import ctypes.util
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_int, c_int32,
                    c_long, c_size_t, c_uint8, c_uint32, c_uint64, c_ulong, c_void_p)

import numpy as np

# ---- Version (status.h) -------------------------------------------------------------------
# One version source: include/zvmperf/status.h. `make` writes it into _version.py (not
# committed); in a source tree without that file it is read from the header directly.
def _read_version():
    try:
        from ._version import ZVP_VERSION_STRING as v
        return v
    except ImportError:
        import re
        header = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                              "include", "zvmperf", "status.h")
        try:
            with open(header, encoding="utf-8") as fh:
                m = re.search(r'#define ZVP_VERSION_STRING "([0-9]+\.[0-9]+\.[0-9]+)"', fh.read())
        except OSError:
            m = None
        if not m:
            raise ImportError("zvmperf: no _version.py (run `make`) and no include/zvmperf/status.h "
                              "beside the package to read the version from")
        return m.group(1)


ZVP_VERSION_STRING = _read_version()
ZVP_VERSION_MAJOR, ZVP_VERSION_MINOR, ZVP_VERSION_PATCH = (int(x) for x in ZVP_VERSION_STRING.split("."))
ZVP_VERSION_NUMBER = ZVP_VERSION_MAJOR * 10000 + ZVP_VERSION_MINOR * 100 + ZVP_VERSION_PATCH

# ---- Status codes (status.h) ----------------------------------------------------------------
ZVP_SUCCESS = 0
ZVP_EINVAL = 1
ZVP_EBADLEN = 2
ZVP_EUNSTABLE = 3
ZVP_ENOMEM = 4
ZVP_EMAXITER = 5
ZVP_EIO = 6
ZVP_ENOTFOUND = 7
ZVP_EPARSE = 8
ZVP_EFIT = 9
ZVP_EINTERNAL = 10
ZVP_ECANCELED = 11  # a sweep's progress callback asked it to stop
ZVP_ENUM_STATUS = 12
ZVP_ERRMSG_MAX = 512

# ---- Sweep point status (sweep.h) -----------------------------------------------------------
ZVP_POINT_NOT_COMPUTED = 0
ZVP_POINT_OK = 1
ZVP_POINT_UNSTABLE = 2
ZVP_POINT_INVALID = 3
ZVP_POINT_FAILED = 4  # in memory only (zvp_eval_points/_grid): any other model status

# ---- Station kinds (queue.h) ----------------------------------------------------------------
ZVP_STATION_QUEUE = 0
ZVP_STATION_DELAY = 1
ZVP_STATION_MULTI = 2
ZVP_STATION_LD = 3
ZVP_MVA_SCHWEITZER = 1
ZVP_MVA_BARD = 2
ZVP_MAX_SERVERS = 10000000
ZVP_MAX_CUSTOMERS = 100000000

# ---- Batch kernels (queue.h, zvp_station_batch) ---------------------------------------------
ZVP_BATCH_ERLANG_B = 0
ZVP_BATCH_ERLANG_C = 1
ZVP_BATCH_MMC = 2
ZVP_BATCH_MMCK = 3
ZVP_BATCH_MMINF = 4
ZVP_BATCH_REPAIRMAN = 5
ZVP_BATCH_USL = 6
ZVP_BATCH_N_KERNELS = 7
ZVP_BATCH_STATION_FIELDS = 8


# ---- Structures -----------------------------------------------------------------------------
class zvp_error(Structure):
    """status.h: caller-owned error record."""
    _fields_ = [("status", c_int), ("message", c_char * ZVP_ERRMSG_MAX)]


class zvp_param_desc(Structure):
    """model.h: one parameter or output of a model."""
    _fields_ = [("name", c_char_p), ("unit", c_char_p), ("description", c_char_p),
                ("min", c_double), ("max", c_double), ("default_value", c_double),
                ("integer", ctypes.c_int32), ("reserved", ctypes.c_int32)]


zvp_eval_fn = CFUNCTYPE(c_int, POINTER(c_double), POINTER(c_double), POINTER(zvp_error))


class zvp_model(Structure):
    """model.h: a model descriptor (static in the library; never freed)."""
    _fields_ = [("name", c_char_p), ("description", c_char_p), ("source", c_char_p),
                ("n_params", c_size_t), ("params", POINTER(zvp_param_desc)),
                ("n_outputs", c_size_t), ("outputs", POINTER(zvp_param_desc)),
                ("eval", zvp_eval_fn), ("sim", c_void_p)]  # sim: zvp_model_sim *, NULL: none


class zvp_sim_options(Structure):
    """sim.h: simulation run control (fill with zvp_sim_default_options)."""
    _fields_ = [("seed", ctypes.c_uint64), ("events", ctypes.c_uint64),
                ("max_events", ctypes.c_uint64), ("replications", ctypes.c_uint32),
                ("reservoir", ctypes.c_uint32), ("precision", c_double),
                ("threads", ctypes.c_int32), ("reserved", ctypes.c_int32)]


class zvp_sim_estimate(Structure):
    """sim.h: a mean with its 95% confidence interval."""
    _fields_ = [("mean", c_double), ("half_width", c_double), ("ci_lo", c_double),
                ("ci_hi", c_double)]


class zvp_station_result(Structure):
    """queue.h: steady-state figures of one station."""
    _fields_ = [("throughput_per_s", c_double), ("utilization", c_double),
                ("busy_servers", c_double), ("mean_in_system", c_double),
                ("mean_in_queue", c_double), ("response_s", c_double), ("wait_s", c_double),
                ("pwait", c_double)]


class zvp_station(Structure):
    """queue.h: one station entry of a closed network (fixed-width fields)."""
    _fields_ = [("kind", c_int32), ("servers", c_int32), ("replicas", c_uint32),
                ("reserved", c_uint32), ("demand_s", c_double)]


# numpy dtype with the same layout as zvp_station, so an array of stations goes in unchanged.
STATION_DTYPE = np.dtype([("kind", np.int32), ("servers", np.int32), ("replicas", np.uint32),
                          ("reserved", np.uint32), ("demand_s", np.float64)], align=True)
assert STATION_DTYPE.itemsize == ctypes.sizeof(zvp_station)


class zvp_mva_result(Structure):
    """queue.h: MVA results; the arrays are caller-allocated [n_stations]."""
    _fields_ = [("throughput_per_s", c_double), ("response_s", c_double),
                ("residence_s", POINTER(c_double)), ("queue_length", POINTER(c_double)),
                ("utilization", POINTER(c_double))]


class zvp_open_result(Structure):
    """queue.h: open network results; arrays caller-allocated ([C], [C*K], [C*K], [K])."""
    _fields_ = [("throughput_per_s", c_double), ("response_s", c_double),
                ("mean_in_system", c_double), ("class_response_s", POINTER(c_double)),
                ("residence_s", POINTER(c_double)), ("queue_length", POINTER(c_double)),
                ("utilization", POINTER(c_double))]


class zvp_mva_multi_result(Structure):
    """queue.h: closed multiclass results; arrays caller-allocated ([C], [C], [C*K] x 3)."""
    _fields_ = [("throughput_per_s", POINTER(c_double)), ("response_s", POINTER(c_double)),
                ("residence_s", POINTER(c_double)), ("queue_length", POINTER(c_double)),
                ("utilization", POINTER(c_double))]


class zvp_mva_approx_options(Structure):
    """queue.h: options of the approximate MVA solvers."""
    _fields_ = [("method", c_int32), ("max_iterations", c_uint32), ("tolerance", c_double)]


class zvp_mva_approx_info(Structure):
    """queue.h: what an approximate solve did."""
    _fields_ = [("iterations", c_uint32), ("converged", c_int32),
                ("multiserver_seidmann", c_int32), ("reserved", c_int32),
                ("tolerance", c_double), ("max_change", c_double)]


class zvp_bounds_result(Structure):
    """queue.h: asymptotic and balanced job bounds."""
    _fields_ = [("total_demand_s", c_double), ("max_demand_s", c_double),
                ("saturation_customers", c_double), ("x_upper_per_s", c_double),
                ("x_lower_per_s", c_double), ("r_lower_s", c_double), ("r_upper_s", c_double),
                ("bjb_x_upper_per_s", c_double), ("bjb_x_lower_per_s", c_double),
                ("bjb_valid", c_int32), ("reserved", c_int32)]


class zvp_usl_fit_result(Structure):
    """queue.h: Universal Scalability Law fit."""
    _fields_ = [("gamma", c_double), ("alpha", c_double), ("beta", c_double),
                ("gamma_se", c_double), ("alpha_se", c_double), ("beta_se", c_double),
                ("n_peak", c_double), ("x_peak", c_double), ("rss", c_double),
                ("iterations", c_uint32), ("gsl_status", c_int32)]


class zvp_axis(Structure):
    """sweep.h: one sweep axis (values caller-owned during the call)."""
    _fields_ = [("name", c_char_p), ("values", POINTER(c_double)), ("n_values", c_size_t)]


# sweep.h: called after every block (and once at the start) with the points done and the
# total; a nonzero return stops the sweep after that block (ZVP_ECANCELED).
zvp_progress_fn = CFUNCTYPE(c_int, c_uint64, c_uint64, c_void_p)


class zvp_sweep_options(Structure):
    """sweep.h: options of a sweep run (fill with zvp_sweep_options_init)."""
    _fields_ = [("threads", c_int32), ("reserved", c_int32), ("block_points", c_uint64),
                ("command", c_char_p), ("progress", zvp_progress_fn),
                ("progress_user", c_void_p), ("resume", c_int32),
                ("interval", c_void_p),  # const zvp_interval_options * (NULL: values only)
                ("stop", POINTER(c_int))]  # const volatile sig_atomic_t * (an int here)


class zvp_sweep_summary(Structure):
    """sweep.h: summary of a finished sweep."""
    _fields_ = [("points", c_uint64), ("ok", c_uint64), ("unstable", c_uint64),
                ("invalid", c_uint64), ("seconds", c_double)]


# Opaque handles: only pointers to them cross the boundary.
class zvp_model_file(Structure):
    """model.h: opaque model-file handle."""


class zvp_table(Structure):
    """calibrate.h: opaque CSV table handle."""


class zvp_fit(Structure):
    """calibrate.h: opaque parsed fit file."""


class zvp_fit_result(Structure):
    """calibrate.h: opaque fit outcome."""


P_err = POINTER(zvp_error)
P_model = POINTER(zvp_model)
P_mf = POINTER(zvp_model_file)
P_table = POINTER(zvp_table)
P_fit = POINTER(zvp_fit)
P_res = POINTER(zvp_fit_result)
P_double = POINTER(c_double)
P_size = POINTER(c_size_t)
P_char_p = POINTER(c_char_p)
P_P_double = POINTER(P_double)
P_file = c_void_p  # FILE *
P_uint8 = POINTER(c_uint8)
# 1-D float64 arrays checked before C runs: wrong dtype or layout raises TypeError.
ND_DOUBLE = np.ctypeslib.ndpointer(np.float64, ndim=1, flags="C_CONTIGUOUS")
ND_STATIONS = np.ctypeslib.ndpointer(STATION_DTYPE, ndim=1, flags="C_CONTIGUOUS")
# Output-major result matrices [rows, points] and per-point status bytes written by C.
ND_DOUBLE_2D = np.ctypeslib.ndpointer(np.float64, ndim=2, flags=("C_CONTIGUOUS", "WRITEABLE"))
ND_UINT8 = np.ctypeslib.ndpointer(np.uint8, ndim=1, flags=("C_CONTIGUOUS", "WRITEABLE"))
ND_SIZE = np.ctypeslib.ndpointer(np.uintp, ndim=1, flags="C_CONTIGUOUS")

# ---- Prototypes: (name, restype, argtypes). One line per C function. -----------------------
PROTOTYPES = [
    # status.h
    ("zvp_strerror", c_char_p, [c_int]),
    ("zvp_error_clear", None, [P_err]),
    ("zvp_init", c_int, []),
    ("zvp_version", c_char_p, []),
    ("zvp_version_number", c_int, []),
    # queue.h
    ("zvp_erlang_b", c_int, [c_double, c_ulong, P_double, P_err]),
    ("zvp_erlang_c", c_int, [c_double, c_ulong, P_double, P_err]),
    ("zvp_mmc", c_int, [c_double, c_double, c_ulong, POINTER(zvp_station_result), P_err]),
    ("zvp_repairman", c_int,
     [c_ulong, c_double, c_double, c_ulong, POINTER(zvp_station_result), P_err]),
    ("zvp_mva_exact", c_int,
     [ND_STATIONS, c_size_t, c_double, c_ulong, POINTER(zvp_mva_result), P_double, P_err]),
    ("zvp_mva_scratch_doubles", c_size_t, [ND_STATIONS, c_size_t]),
    # model.h: registry
    ("zvp_model_count", c_size_t, []),
    ("zvp_model_at", P_model, [c_size_t]),
    ("zvp_model_find", P_model, [c_char_p, P_err]),
    ("zvp_model_param_index", c_long, [P_model, c_char_p, P_err]),
    ("zvp_model_output_index", c_long, [P_model, c_char_p, P_err]),
    ("zvp_model_defaults", None, [P_model, ND_DOUBLE]),
    ("zvp_model_check_params", c_int, [P_model, ND_DOUBLE, P_err]),
    ("zvp_model_eval", c_int, [P_model, ND_DOUBLE, ND_DOUBLE, P_err]),
    ("zvp_sim_default_options", None, [POINTER(zvp_sim_options)]),
    ("zvp_model_simulate", c_int, [P_model, ND_DOUBLE, POINTER(zvp_sim_options),
                                   POINTER(zvp_sim_estimate), POINTER(c_char_p), c_void_p,
                                   P_err]),
    # model.h: model files
    ("zvp_model_file_read", c_int, [c_char_p, POINTER(P_mf), P_err]),
    ("zvp_model_file_new", P_mf, [P_model]),
    ("zvp_model_file_free", None, [P_mf]),
    ("zvp_model_file_model", P_model, [P_mf]),
    ("zvp_model_file_params", P_double, [P_mf]),
    ("zvp_model_file_text", c_char_p, [P_mf]),
    ("zvp_model_file_stderr", c_double, [P_mf, c_size_t]),
    ("zvp_model_file_set_stderr", None, [P_mf, c_size_t, c_double]),
    ("zvp_model_file_set", c_int, [P_mf, c_char_p, c_double, P_err]),
    ("zvp_model_file_set_provenance", c_int, [P_mf, c_char_p, c_char_p, P_err]),
    ("zvp_model_file_write", c_int, [P_mf, c_char_p, P_err]),
    # sweep.h
    ("zvp_axis_parse", c_int, [c_char_p, POINTER(c_void_p), POINTER(c_void_p), P_size, P_err]),
    ("zvp_sweep_options_init", None, [POINTER(zvp_sweep_options)]),
    ("zvp_sweep_run", c_int,
     [P_mf, POINTER(zvp_axis), c_size_t, c_char_p, POINTER(zvp_sweep_options),
      POINTER(zvp_sweep_summary), P_err]),
    # calibrate.h: tables
    ("zvp_table_read", c_int, [c_char_p, POINTER(P_table), P_err]),
    ("zvp_table_free", None, [P_table]),
    ("zvp_table_rows", c_size_t, [P_table]),
    ("zvp_table_cols", c_size_t, [P_table]),
    ("zvp_table_col_name", c_char_p, [P_table, c_size_t]),
    ("zvp_table_col_unit", c_char_p, [P_table, c_size_t]),
    ("zvp_table_col_index", c_long, [P_table, c_char_p, P_err]),
    ("zvp_table_value", c_double, [P_table, c_size_t, c_size_t]),
    ("zvp_table_text", c_char_p, [P_table, c_size_t, c_size_t]),
    # calibrate.h: fits
    ("zvp_fit_read", c_int, [c_char_p, POINTER(P_fit), P_err]),
    ("zvp_fit_free", None, [P_fit]),
    ("zvp_fit_output_path", c_char_p, [P_fit]),
    ("zvp_fit_model", P_model, [P_fit]),
    ("zvp_fit_base_path", c_char_p, [P_fit]),
    ("zvp_fit_n_rows", c_size_t, [P_fit]),
    ("zvp_fit_row_label", c_char_p, [P_fit, c_size_t]),
    ("zvp_fit_n_matched", c_size_t, [P_fit]),
    ("zvp_fit_matched_output", c_size_t, [P_fit, c_size_t]),
    ("zvp_fit_matched_column", c_char_p, [P_fit, c_size_t]),
    ("zvp_fit_matched_unit", c_char_p, [P_fit, c_size_t]),
    ("zvp_fit_measured", c_double, [P_fit, c_size_t, c_size_t]),
    ("zvp_fit_n_free", c_size_t, [P_fit]),
    ("zvp_fit_free_param_at", c_size_t, [P_fit, c_size_t, P_double, P_double, P_double]),
    ("zvp_fit_n_fixed", c_size_t, [P_fit]),
    ("zvp_fit_fixed_param_at", c_size_t, [P_fit, c_size_t, P_double]),
    ("zvp_fit_n_inputs", c_size_t, [P_fit]),
    ("zvp_fit_input_param_at", c_size_t, [P_fit, c_size_t, POINTER(c_char_p)]),
    ("zvp_fit_row_params", c_int, [P_fit, c_size_t, P_double, P_double, P_err]),
    ("zvp_fit_run", c_int, [P_fit, POINTER(P_res), P_err]),
    ("zvp_fit_result_free", None, [P_res]),
    ("zvp_fit_result_n_free", c_size_t, [P_res]),
    ("zvp_fit_result_param_name", c_char_p, [P_res, c_size_t]),
    ("zvp_fit_result_estimates", P_double, [P_res]),
    ("zvp_fit_result_stderrs", P_double, [P_res]),
    ("zvp_fit_result_covariance", P_double, [P_res]),
    ("zvp_fit_result_n_rows", c_size_t, [P_res]),
    ("zvp_fit_result_n_matched", c_size_t, [P_res]),
    ("zvp_fit_result_output_name", c_char_p, [P_res, c_size_t]),
    ("zvp_fit_result_measured", P_double, [P_res]),
    ("zvp_fit_result_fitted", P_double, [P_res]),
    ("zvp_fit_result_r2", c_double, [P_res, c_size_t]),
    ("zvp_fit_result_rmse", c_double, [P_res, c_size_t]),
    ("zvp_fit_result_mape", c_double, [P_res, c_size_t]),
    ("zvp_fit_result_mape_all", c_double, [P_res]),
    ("zvp_fit_result_cost", c_double, [P_res]),
    ("zvp_fit_result_dof", c_size_t, [P_res]),
    ("zvp_fit_result_row_label", c_char_p, [P_res, c_size_t]),
    ("zvp_fit_result_iterations", c_size_t, [P_res]),
    ("zvp_fit_result_converged", c_int, [P_res]),
    ("zvp_fit_result_model_file", P_mf, [P_res]),
    ("zvp_fit_result_print", None, [P_res, P_file]),
    ("zvp_fit_result_write_h5", c_int, [P_res, c_char_p, P_err]),
]

# The queueing kernels of queue.h, second part (single stations with capacity, open and
# multiclass networks, approximate and load-dependent MVA, bounds, USL). Same format.
ND_ULONG = np.ctypeslib.ndpointer(np.uint64 if ctypes.sizeof(c_ulong) == 8 else np.uint32,
                                  ndim=1, flags="C_CONTIGUOUS")
QUEUE_PROTOTYPES = [
    ("zvp_mmck", c_int,
     [c_double, c_double, c_ulong, c_ulong, POINTER(zvp_station_result), P_double, P_err]),
    ("zvp_mminf", c_int, [c_double, c_double, POINTER(zvp_station_result), P_err]),
    ("zvp_open_network", c_int,
     [ND_STATIONS, c_size_t, P_double, ND_DOUBLE, c_size_t, POINTER(zvp_open_result), P_err]),
    ("zvp_mva_multi_exact", c_int,
     [ND_STATIONS, c_size_t, ND_DOUBLE, ND_DOUBLE, ND_ULONG, c_size_t,
      POINTER(zvp_mva_multi_result), P_err]),
    ("zvp_mva_approx", c_int,
     [ND_STATIONS, c_size_t, ND_DOUBLE, ND_DOUBLE, ND_ULONG, c_size_t,
      POINTER(zvp_mva_approx_options), POINTER(zvp_mva_multi_result),
      POINTER(zvp_mva_approx_info), P_err]),
    ("zvp_mva_ld", c_int,
     [ND_STATIONS, c_size_t, P_P_double, c_double, c_ulong, POINTER(zvp_mva_result), P_err]),
    ("zvp_mva_bounds", c_int,
     [ND_STATIONS, c_size_t, c_double, c_ulong, POINTER(zvp_bounds_result), P_err]),
    ("zvp_usl_eval", c_int, [c_double, c_double, c_double, c_double, P_double, P_err]),
    ("zvp_usl_peak", c_int, [c_double, c_double, c_double, P_double, P_double, P_err]),
    ("zvp_usl_fit", c_int, [ND_DOUBLE, ND_DOUBLE, c_size_t, POINTER(zvp_usl_fit_result), P_err]),
    # kernels over arrays: inputs [n_inputs] pointers to [n] doubles, outputs [n_outputs, n]
    ("zvp_batch_shape", c_int, [c_int, P_size, P_size, P_err]),
    ("zvp_station_batch", c_int,
     [c_int, c_size_t, POINTER(P_double), ND_DOUBLE_2D, ND_UINT8, c_int, P_err]),
]

# Grid evaluation in memory (sweep.h). Outputs are output-major [n_outputs, n_points].
GRID_PROTOTYPES = [
    ("zvp_eval_points", c_int,
     [P_model, ND_DOUBLE, c_size_t, c_size_t, ND_SIZE, ND_DOUBLE_2D, ND_DOUBLE_2D, ND_UINT8,
      c_int, P_err]),
    ("zvp_eval_grid", c_int,
     [P_model, ND_DOUBLE, POINTER(zvp_axis), c_size_t, c_uint64, c_uint64, ND_DOUBLE_2D,
      ND_UINT8, c_int, P_err]),
    ("zvp_eval_grid_stop", c_int,
     [P_model, ND_DOUBLE, POINTER(zvp_axis), c_size_t, c_uint64, c_uint64, ND_DOUBLE_2D,
      ND_UINT8, c_int, POINTER(c_int), P_err]),
]

# Intervals (interval.h) and validation / sensitivity (fit.h).
ZVP_INTERVAL_DELTA = 0
ZVP_INTERVAL_MC = 1
ZVP_VALIDATE_LOO = 0
ZVP_VALIDATE_GROUP = 1
ZVP_FOLD_OK, ZVP_FOLD_TOO_FEW, ZVP_FOLD_FAILED = 0, 1, 2


class zvp_interval_range(Structure):
    """interval.h: an uncalibrated input sampled uniformly in [lo, hi] (Monte Carlo)."""
    _fields_ = [("name", c_char_p), ("lo", c_double), ("hi", c_double)]


class zvp_interval_options(Structure):
    """interval.h: options of an interval (fill with zvp_interval_default_options)."""
    _fields_ = [("level", c_double), ("method", c_int), ("prediction", c_int),
                ("samples", c_size_t), ("seed", c_uint64), ("threads", c_int),
                ("ranges", POINTER(zvp_interval_range)), ("n_ranges", c_size_t)]


class zvp_validate_options(Structure):
    """fit.h: options of a cross-validation (fill with zvp_validate_default_options)."""
    _fields_ = [("scheme", c_int), ("group_column", c_char_p), ("group_keys", c_void_p),
                ("threads", c_int), ("level", c_double), ("params", c_void_p)]


class zvp_validation(Structure):
    """fit.h: opaque outcome of zvp_fit_validate."""


P_val = POINTER(zvp_validation)
ND_INT = np.ctypeslib.ndpointer(np.intc, ndim=1, flags=("C_CONTIGUOUS", "WRITEABLE"))
ND_DOUBLE_W = np.ctypeslib.ndpointer(np.float64, ndim=1, flags=("C_CONTIGUOUS", "WRITEABLE"))
UNCERTAINTY_PROTOTYPES = [
    ("zvp_interval_default_options", zvp_interval_options, []),
    ("zvp_interval_min_stable_draws", c_size_t, [c_double]),
    ("zvp_interval_points", c_int,
     [P_mf, ND_DOUBLE, c_uint64, c_size_t, c_size_t, ND_SIZE, ND_DOUBLE_2D,
      POINTER(zvp_interval_options), ND_DOUBLE_2D, ND_DOUBLE_2D, ND_DOUBLE_2D, ND_DOUBLE_W,
      ND_UINT8, P_err]),
    ("zvp_model_file_residual_variance", c_double, [P_mf, c_size_t, POINTER(c_int)]),
    ("zvp_model_file_dof_effective", c_double, [P_mf]),
    ("zvp_model_file_n_covariance", c_size_t, [P_mf]),
    ("zvp_sensitivity", c_int, [P_model, ND_DOUBLE, c_double, ND_DOUBLE_W, ND_INT, ND_DOUBLE_W,
                                P_err]),
    ("zvp_sensitivity_reason", c_char_p, [c_int]),
    ("zvp_fit_n_independent", c_size_t, [P_fit]),
    ("zvp_fit_row_data_file", c_char_p, [P_fit, c_size_t]),
    ("zvp_fit_result_saturated", c_int, [P_res]),
    ("zvp_validate_default_options", zvp_validate_options, []),
    ("zvp_fit_validate", c_int, [P_fit, POINTER(zvp_validate_options), POINTER(P_val), P_err]),
    ("zvp_validation_free", None, [P_val]),
    ("zvp_validation_full", P_res, [P_val]),
    ("zvp_validation_scheme", c_char_p, [P_val]),
    ("zvp_validation_level", c_double, [P_val]),
    ("zvp_validation_n_rows", c_size_t, [P_val]),
    ("zvp_validation_n_matched", c_size_t, [P_val]),
    ("zvp_validation_in_sample_mape", c_double, [P_val, c_size_t]),
    ("zvp_validation_in_sample_mape_all", c_double, [P_val]),
    ("zvp_validation_cv_mape", c_double, [P_val, c_size_t]),
    ("zvp_validation_cv_mape_all", c_double, [P_val]),
    ("zvp_validation_dof_effective", c_long, [P_val]),
    ("zvp_validation_coverage_pct", c_double, [P_val]),
    ("zvp_validation_coverage_counts", None, [P_val, P_size, P_size, P_size]),
    ("zvp_validation_worst", c_int, [P_val, P_size, P_size, P_double]),
    ("zvp_validation_predicted", P_double, [P_val]),
    ("zvp_validation_lo", P_double, [P_val]),
    ("zvp_validation_hi", P_double, [P_val]),
    ("zvp_validation_row_id", c_char_p, [P_val, c_size_t]),
    ("zvp_validation_row_data_file", c_char_p, [P_val, c_size_t]),
    ("zvp_validation_row_fold", c_size_t, [P_val, c_size_t]),
    ("zvp_validation_row_cv_mape", c_double, [P_val, c_size_t]),
    ("zvp_validation_n_folds", c_size_t, [P_val]),
    ("zvp_validation_fold_status", c_int, [P_val, c_size_t]),
    ("zvp_validation_fold_message", c_char_p, [P_val, c_size_t]),
    ("zvp_validation_fold_key", c_char_p, [P_val, c_size_t]),
    ("zvp_validation_fold_n_held", c_size_t, [P_val, c_size_t]),
    ("zvp_validation_fold_dof", c_long, [P_val, c_size_t]),
]

# libc, for free() of malloc'ed results (zvp_axis_parse) and a FILE* for zvp_fit_result_print.
LIBC_PROTOTYPES = [
    ("free", None, [c_void_p]),
    ("fopen", c_void_p, [c_char_p, c_char_p]),
    ("fclose", c_int, [c_void_p]),
]


# ---- Loading --------------------------------------------------------------------------------
_SONAMES = ("libzvmperf.so.%s" % ZVP_VERSION_STRING, "libzvmperf.so.%d" % ZVP_VERSION_MAJOR,
            "libzvmperf.so")


def candidate_paths():
    """The places searched for the library, in order, as (description, path or name)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    env = os.environ.get("ZVMPERF_LIB")
    if env:
        out.append(("$ZVMPERF_LIB", env))
    for name in _SONAMES:
        out.append(("next to the package", os.path.join(here, name)))
    build = os.path.normpath(os.path.join(here, "..", "..", "build"))
    for name in _SONAMES:
        out.append(("build tree", os.path.join(build, name)))
    try:
        from ._libdir import LIBDIR  # written by install.sh; absent in a source checkout
    except ImportError:
        LIBDIR = None
    if LIBDIR:
        out.append(("install libdir", os.path.join(LIBDIR, _SONAMES[1])))
    out.append(('ctypes.util.find_library("zvmperf")', ctypes.util.find_library("zvmperf")))
    prefixes = []
    for p in (sys.prefix, "/usr/local", "/usr"):
        if p not in prefixes:
            prefixes.append(p)
    for p in prefixes:
        for libdir in ("lib", "lib64", "lib/x86_64-linux-gnu"):
            out.append(("installed prefix", os.path.join(p, libdir, _SONAMES[1])))
    return out


def load_library():
    """Load the first library that opens; raise ImportError listing every place tried."""
    tried = []
    for where, path in candidate_paths():
        if path is None:
            tried.append("  %s: no match" % where)
            continue
        if os.path.sep in path and not os.path.exists(path):
            tried.append("  %s: %s (not found)" % (where, path))
            if where == "$ZVMPERF_LIB":
                break  # an explicit choice that does not exist is an error, not a hint
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("  %s: %s (%s)" % (where, path, e))
            if where == "$ZVMPERF_LIB":
                break
    raise ImportError("zvmperf: libzvmperf shared library not found or not loadable. Tried:\n"
                      + "\n".join(tried)
                      + "\nBuild it with `make` at the top of the zvmperf tree, install it with "
                        "`make install`, or set ZVMPERF_LIB to its full path.")


def _declare(lib, name, restype, argtypes, optional=False):
    try:
        f = getattr(lib, name)
    except AttributeError:
        if optional:
            return None
        raise ImportError("zvmperf: %s does not export %s (library older than the bindings?)"
                          % (lib._name, name))
    f.restype = restype
    f.argtypes = argtypes
    return f


lib, lib_path = load_library()
for _name, _res, _args in PROTOTYPES:
    globals()[_name] = _declare(lib, _name, _res, _args)
for _name, _res, _args in QUEUE_PROTOTYPES:
    globals()[_name] = _declare(lib, _name, _res, _args)
for _name, _res, _args in GRID_PROTOTYPES:
    globals()[_name] = _declare(lib, _name, _res, _args)
for _name, _res, _args in UNCERTAINTY_PROTOTYPES:
    globals()[_name] = _declare(lib, _name, _res, _args)
del _name, _res, _args

libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
for _name, _res, _args in LIBC_PROTOTYPES:
    globals()["libc_" + _name] = _declare(libc, _name, _res, _args)

zvp_init()
_loaded_version = zvp_version_number()
if _loaded_version != ZVP_VERSION_NUMBER:
    raise ImportError("zvmperf: %s is version %d (%s) but these bindings expect %d (%s)"
                      % (lib_path, _loaded_version, zvp_version().decode(), ZVP_VERSION_NUMBER,
                         ZVP_VERSION_STRING))
