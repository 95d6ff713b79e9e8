"""zvmperf.calibration - measurement tables and calibration (calibrate.h): read_table / Table
(a measurement CSV read by the C reader), calibrate / Calibration (zvp_fit_read +
zvp_fit_run: estimates, standard errors, covariance, fitted values, report), read_fit /
FitData (what a fit file says about its data, without fitting, and predict() at its rows).

Arrays owned by a C handle (fit results) are copied out, so they outlive the handle.
"""
import os
import tempfile
from collections import OrderedDict
from ctypes import byref, c_char_p, c_double

import numpy as np

from . import _clib as C
from ._args import _b, _path, _s
from .errors import NotFoundError, ZvmperfIOError, _check
from .modeling import Model, ModelFile, _Closeable

__all__ = ["Table", "read_table", "Calibration", "calibrate", "FitData", "read_fit"]


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

    def predict(self, model_file=None, on_error="nan", interval=None, **kw):
        """Evaluate a model file (default: the fit's own output file) at the data rows, with
        the fit's [fixed] and [inputs] set over the file's values: an EvalResult of arrays
        [rows]. interval=LEVEL (and the keywords of eval: method, samples, seed, confidence)
        gives an IntervalResult of arrays [rows] instead (a file without covariance raises)."""
        mf = model_file if model_file is not None else self.output
        n = len(self.rows)
        per_row = OrderedDict((k, np.full(n, v)) for k, v in self.fixed.items())
        per_row.update(self.inputs)
        if interval is not None:
            if isinstance(mf, ModelFile):
                return mf.eval(per_row, on_error=on_error, interval=interval, **kw)
            with ModelFile.read(mf) as h:
                return h.eval(per_row, on_error=on_error, interval=interval, **kw)
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


def read_fit(path):
    """Read a fit file and its data tables (no fitting): a FitData."""
    return FitData(path)
