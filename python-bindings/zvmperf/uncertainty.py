"""zvmperf.uncertainty - how far the calibration data supports an answer (interval.h, fit.h):
eval_interval (what eval(..., interval=0.9) and ModelFile.eval(..., interval=0.9) return),
validate (cross-validation of a fit) and sensitivity (elasticities and knife-edges).

Intervals come from the covariance a calibrated model file keeps of its fitted parameters:
the delta method (linearisation, Student t with the file's effective dof) or Monte Carlo
draws (reproducible for a seed whatever the thread count). A prediction interval (the
default) adds the output's residual scatter; confidence=True leaves parameter uncertainty
only. Neither covers model-form error: a model that is wrong in shape is wrong with a
narrow band. A file without covariance (uncalibrated, or saturated: no degree of freedom
left) has no interval and raises InvalidArgumentError saying so. Arrays of parameters are
evaluated in C in one call (zvp_interval_points, OpenMP over the points).
"""
import ctypes
from collections import OrderedDict, namedtuple
from ctypes import byref

import numpy as np

from . import _clib as C
from ._args import _b, _check_on_error, _count, _float, _path, _s, _text, _type_error
from .errors import InvalidArgumentError, _check, _raise
from .modeling import _POINT_CODES, _model_file_of, _overrides, _points_used, _vary

__all__ = ["Interval", "IntervalResult", "eval_interval", "Validation", "validate",
           "Sensitivity", "sensitivity", "KNIFE_EDGE"]

KNIFE_EDGE = 3.0  # |elasticity| above which a parameter is a knife-edge (as the CLI)


class Interval(namedtuple("Interval", "value lo hi")):
    """One output: its value and the bounds [lo, hi] (floats, or arrays of one shape)."""
    __slots__ = ()


class IntervalResult(OrderedDict):
    """Outputs with intervals, name -> Interval(value, lo, hi). Also .value, .lo, .hi (dicts
    name -> float or array), .units, .kinds (name -> 'prediction', or 'confidence' where
    asked or where the fit did not match the output, or 'none: ...' for a whole-number output
    under the delta method, whose lo and hi are NaN), .kind, .level, .method, .samples,
    .seed, .dof_effective (NaN: unknown, normal quantiles), .status (ZVP_POINT_* code, int or
    uint8 array), .no_steady_state (share of Monte Carlo draws without a model result: float
    or array; 0 for delta), .params (name -> value used) and .model.
    A point whose value (the centre) has no steady state has status ZVP_POINT_UNSTABLE and
    value NaN; under Monte Carlo its lo and hi are still the quantiles of the draws that have
    one when at least .min_stable_draws of them do (else NaN), and .no_steady_state gives
    their share (src/interval/README.md, "No steady state at the centre")."""

    def __init__(self, model_, items, **attrs):
        super().__init__(items)
        self.model = model_
        self.units = OrderedDict((o.name, o.unit) for o in model_.outputs)
        self.value = OrderedDict((k, v.value) for k, v in self.items())
        self.lo = OrderedDict((k, v.lo) for k, v in self.items())
        self.hi = OrderedDict((k, v.hi) for k, v in self.items())
        self.__dict__.update(attrs)

    def __repr__(self):
        return "<zvmperf.IntervalResult %s, %g%% %s (%s): %s>" % (
            self.model.name, 100 * self.level, self.kind, self.method, ", ".join(self))


def _options(interval, method, samples, seed, confidence, threads, ranges, m):
    """zvp_interval_options (and the ranges array it points to, to keep alive)."""
    o = C.zvp_interval_default_options()
    o.level = _float("interval", interval)
    if method not in ("delta", "mc"):
        raise InvalidArgumentError(C.ZVP_EINVAL, "method = %.80r: must be 'delta' or 'mc'"
                                   % (method,))
    o.method = C.ZVP_INTERVAL_MC if method == "mc" else C.ZVP_INTERVAL_DELTA
    o.prediction = 0 if confidence else 1
    o.samples = _count("samples", samples, 0, ctypes.c_size_t)
    o.seed = _count("seed", seed, 0, ctypes.c_uint64)
    o.threads = _count("threads", threads, 0, ctypes.c_int)
    rng = None
    if ranges:
        if not hasattr(ranges, "items"):
            raise _type_error("ranges", ranges, "a dict name -> (lo, hi)")
        rng = (C.zvp_interval_range * len(ranges))()
        for r, (k, v) in zip(rng, ranges.items()):
            try:
                lo, hi = v
            except (TypeError, ValueError):
                raise _type_error("ranges[%r]" % k, v, "a pair (lo, hi)") from None
            m.param_index(k)  # NotFoundError naming it
            r.name, r.lo, r.hi = _text("range name", k), _float(k, lo), _float(k, hi)
        o.ranges, o.n_ranges = rng, len(ranges)
    return o, rng


def eval_interval(model_file, params=None, interval=0.9, method="delta", samples=1000, seed=1,
                  confidence=False, ranges=None, on_error="raise", threads=0, **kw):
    """The outputs of a calibrated model file (ModelFile or *.ini path) at its parameters
    overridden by params / keywords (scalars, or arrays broadcast together), each with a
    `interval`-level interval. method='delta' (linearisation) or 'mc' (`samples` draws seeded
    from `seed` and the point index). ranges={name: (lo, hi)} samples uncalibrated inputs
    uniformly (Monte Carlo only; the parameter's value is the middle of its range, rounded
    down for a whole-number parameter, whose ends must be whole, as `zvmperf eval
    NAME=LO..HI`). on_error='raise' raises at the first point without a model
    result; 'nan' leaves NaN and the point code in .status. A Monte Carlo point whose centre
    has no steady state raises UnstableError giving the share of stable draws; with
    on_error='nan' it has status 2, value NaN and the bounds of those draws (when there are
    at least .min_stable_draws of them). Returns an IntervalResult."""
    _check_on_error(on_error)
    mf, owned = _model_file_of(model_file)
    try:
        m = mf.model
        opt, rng = _options(interval, method, samples, seed, confidence, threads, ranges, m)
        over = OrderedDict(params or {})
        over.update(kw)
        for k, (lo, hi) in (ranges or {}).items():
            if k in over:  # the value would be printed while the draws come from the range
                raise InvalidArgumentError(
                    C.ZVP_EINVAL, "parameter %s is given both a value and a range: give one "
                    "(the range's middle is the value)" % k)
            mid = 0.5 * (float(lo) + float(hi))
            over[k] = np.floor(mid) if _is_integer_param(m, k) else mid
        idx = _overrides(m, over, {})
        p, vary, vals, shape, arrays = _vary(idx, np.array(mf.vector, dtype=float))
        return _run(mf, m, p, idx, vary, vals, shape, arrays, opt, on_error,
                    method, samples, seed)
    finally:
        if owned:
            mf.close()


def _is_integer_param(m, name):
    """Whether the model declares the parameter integer (counts, switches)."""
    d = m._ptr.contents.params[m.param_index(name)]
    return bool(d.integer)


def _run(mf, m, p, idx, vary, vals, shape, arrays, opt, on_error, method, samples, seed):
    n, n_out = vals.shape[0], len(m.outputs)
    value, lo, hi = (np.empty((n_out, n)) for _ in range(3))
    nores = np.empty(n)
    status = np.empty(n, dtype=np.uint8)
    vidx = np.array([i for i, _, _ in vary], dtype=np.uintp)
    err = C.zvp_error()
    _check(C.zvp_interval_points(mf._handle(), p, 0, n, len(vary), vidx, vals, byref(opt),
                                 value, lo, hi, nores, status, byref(err)), err)
    need = C.zvp_interval_min_stable_draws(opt.level)
    if on_error == "raise" and method == "mc":
        _raise_unstable_centre(m, p, idx, vary, vals, status, nores, samples, need)
    used = _points_used(m, p, idx, vary, vals, shape, arrays, status, on_error, True)

    def cut(a):
        return float(a[0]) if shape == () else a.reshape(shape)

    h = mf._handle()
    d = m._ptr.contents

    def kind(j):
        if method == "delta" and d.outputs[j].integer:  # lo, hi NaN (zvp_interval_eval)
            return ("none: a whole-number output (a step function of the parameters) has no "
                    "delta-method interval; use method='mc'")
        return ("confidence" if not opt.prediction or
                np.isnan(C.zvp_model_file_residual_variance(h, j, None)) else "prediction")
    kinds = OrderedDict((o.name, kind(j)) for j, o in enumerate(m.outputs))
    items = [(o.name, Interval(cut(value[j]), cut(lo[j]), cut(hi[j])))
             for j, o in enumerate(m.outputs)]
    codes = _POINT_CODES[status]
    return IntervalResult(
        m, items, kinds=kinds, kind="prediction" if opt.prediction else "confidence",
        level=opt.level, method=method, samples=samples if method == "mc" else None,
        seed=seed if method == "mc" else None,
        dof_effective=C.zvp_model_file_dof_effective(h),
        status=int(codes[0]) if shape == () else codes.reshape(shape),
        no_steady_state=cut(nores), min_stable_draws=need if method == "mc" else None,
        params=used)


def _raise_unstable_centre(m, p, idx, vary, vals, status, nores, samples, need):
    """on_error='raise', Monte Carlo: if the first failing point has no steady state at its
    centre but its draws were taken, raise UnstableError saying how many were stable and that
    on_error='nan' returns their bounds."""
    bad = np.flatnonzero(status != C.ZVP_POINT_OK)
    if not bad.size or status[bad[0]] != C.ZVP_POINT_UNSTABLE or np.isnan(nores[bad[0]]):
        return
    r = int(bad[0])
    q = np.array(p)
    for j, (i, _, _) in enumerate(vary):
        q[i] = vals[r, j]
    out, err = np.empty(len(m.outputs)), C.zvp_error()
    st = C.zvp_model_eval(m._ptr, q, out, byref(err))
    stable = int(round((1.0 - nores[r]) * samples))
    where = ", ".join("%s=%g" % (k, q[i]) for i, k, _ in idx)
    what = ("on_error='nan' returns their bounds (value NaN, status 2)" if stable >= need else
            "fewer than the %d needed for bounds: more samples or narrower ranges" % need)
    _raise(st if st != C.ZVP_SUCCESS else C.ZVP_EUNSTABLE, err,
           "point %d (%s): no steady state at the centre; Monte Carlo: %d of %d draws "
           "(%.3g %%) have one, %s" % (r, where, stable, samples, 100.0 * (1.0 - nores[r]),
                                       what))


# ---- Cross-validation (fit.h zvp_fit_validate) ------------------------------------------------
OutputScore = namedtuple("OutputScore", "in_sample_mape_pct cv_mape_pct")
RowScore = namedtuple("RowScore", "id data_file fold cv_mape_pct")
Fold = namedtuple("Fold", "key held_out status message dof")
_FOLD_STATUS = {C.ZVP_FOLD_OK: "ok", C.ZVP_FOLD_TOO_FEW: "too_few_cells",
                C.ZVP_FOLD_FAILED: "failed"}


class Validation:
    """Outcome of validate (a plain copy; nothing to close). Attributes: fit (path), model,
    scheme ('loo' or 'group:COLUMN'), level, in_sample_mape_pct, cv_mape_pct (overall, %),
    dof_effective (independent cells - free parameters), independent_cells, free,
    saturated, coverage_90_pct (share of held-out cells inside their prediction interval, %; NaN when
    no held-out cell has an interval),
    coverage (cells, with_interval, covered), outputs (name -> OutputScore), rows [RowScore
    (id, data_file, fold, cv_mape_pct)], folds [Fold (key, held_out, status 'ok' |
    'too_few_cells' | 'failed', message, dof)], predicted / lo / hi (arrays [rows, matched
    outputs]: each cell as predicted by the fold holding it out) and worst_cell (dict row,
    output, measured, predicted, ape_pct; None when nothing was predicted)."""

    def __repr__(self):
        return ("<zvmperf.Validation %s (%s): in-sample MAPE %.3g %%, CV MAPE %.3g %%, "
                "dof %d, coverage %.3g %%>" % (self.fit, self.scheme, self.in_sample_mape_pct,
                                               self.cv_mape_pct, self.dof_effective,
                                               self.coverage_90_pct))


def validate(fitfile, scheme="loo", threads=0, level=0.9):
    """Cross-validate the fit a fit file describes (as `zvmperf validate`): fit all rows, then
    refit without each row (scheme='loo') or each group of rows sharing a data column's value
    (scheme='group:COLUMN'), in parallel on `threads` OpenMP threads (0: the default; the
    results do not depend on it), and predict what was left out. Returns a Validation."""
    if not isinstance(scheme, str) or not (scheme == "loo" or scheme.startswith("group:")):
        raise InvalidArgumentError(C.ZVP_EINVAL, "scheme = %.80r: must be 'loo' or "
                                   "'group:COLUMN'" % (scheme,))
    opt = C.zvp_validate_default_options()
    column = _b(scheme[6:]) if scheme != "loo" else None
    if scheme != "loo":
        opt.scheme, opt.group_column = C.ZVP_VALIDATE_GROUP, column
    opt.threads = _count("threads", threads, 0, ctypes.c_int)
    opt.level = _float("level", level)
    fit, v, err = C.P_fit(), C.P_val(), C.zvp_error()
    _check(C.zvp_fit_read(_path("fitfile", fitfile), byref(fit), byref(err)), err)
    try:
        _check(C.zvp_fit_validate(fit, byref(opt), byref(v), byref(err)), err)
        try:
            return _validation(fitfile, fit, v)
        finally:
            C.zvp_validation_free(v)
    finally:
        C.zvp_fit_free(fit)


def _validation(path, fit, v):
    from .modeling import Model
    m = Model(C.zvp_fit_model(fit))
    nr, nm = C.zvp_validation_n_rows(v), C.zvp_validation_n_matched(v)
    names = [m.output_names[C.zvp_fit_matched_output(fit, j)] for j in range(nm)]
    r = Validation()
    r.fit, r.model = str(path), m.name
    r.scheme = _s(C.zvp_validation_scheme(v))
    r.level = C.zvp_validation_level(v)
    r.in_sample_mape_pct = C.zvp_validation_in_sample_mape_all(v)
    r.cv_mape_pct = C.zvp_validation_cv_mape_all(v)
    r.dof_effective = int(C.zvp_validation_dof_effective(v))
    r.independent_cells = int(C.zvp_fit_n_independent(fit))
    r.free = int(C.zvp_fit_n_free(fit))
    r.saturated = bool(C.zvp_fit_result_saturated(C.zvp_validation_full(v)))
    r.coverage_90_pct = C.zvp_validation_coverage_pct(v)
    cells, with_, cov = ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_size_t()
    C.zvp_validation_coverage_counts(v, byref(cells), byref(with_), byref(cov))
    r.coverage = {"cells": cells.value, "with_interval": with_.value, "covered": cov.value}
    r.outputs = OrderedDict((names[j], OutputScore(C.zvp_validation_in_sample_mape(v, j),
                                                   C.zvp_validation_cv_mape(v, j)))
                            for j in range(nm))
    r.folds = [Fold(_s(C.zvp_validation_fold_key(v, f)), C.zvp_validation_fold_n_held(v, f),
                    _FOLD_STATUS.get(C.zvp_validation_fold_status(v, f), "failed"),
                    _s(C.zvp_validation_fold_message(v, f)),
                    int(C.zvp_validation_fold_dof(v, f)))
               for f in range(C.zvp_validation_n_folds(v))]
    r.rows = [RowScore(_s(C.zvp_validation_row_id(v, i)),
                       _s(C.zvp_validation_row_data_file(v, i)),
                       r.folds[C.zvp_validation_row_fold(v, i)].key,
                       C.zvp_validation_row_cv_mape(v, i)) for i in range(nr)]
    for name, fn in (("predicted", C.zvp_validation_predicted), ("lo", C.zvp_validation_lo),
                     ("hi", C.zvp_validation_hi)):
        ptr = fn(v)
        setattr(r, name, np.ctypeslib.as_array(ptr, (nr, nm)).copy() if ptr and nr * nm
                else np.full((nr, nm), np.nan))
    wi, wj, ape = ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_double()
    r.worst_cell = None
    if C.zvp_validation_worst(v, byref(wi), byref(wj), byref(ape)) == 0:
        r.worst_cell = {"row": r.rows[wi.value].id, "output": names[wj.value],
                        "measured": C.zvp_fit_measured(fit, wi.value, wj.value),
                        "predicted": float(r.predicted[wi.value, wj.value]),
                        "ape_pct": ape.value}
    return r


# ---- Sensitivity (fit.h zvp_sensitivity) --------------------------------------------------------
class Sensitivity:
    """Elasticities d ln output / d ln parameter at one point: .elasticity (output -> {param:
    e}, NaN where undefined), .reasons (output -> {param: why} for the NaN ones), .outputs
    (output -> value at the point), .knife_edges [(output, parameter, e)] with |e| above
    .threshold (3), .params (the point) and .model."""

    def __repr__(self):
        return "<zvmperf.Sensitivity %s: %d knife-edges>" % (self.model.name,
                                                            len(self.knife_edges))


def sensitivity(model_file, params=None, rel_step=0.0, **kw):
    """Elasticity of every output to every parameter of a model (name, Model, ModelFile or
    *.ini path) at its parameters overridden by params / keywords (scalars), by central
    differences with the relative step rel_step (0: 1e-4), as `zvmperf sensitivity`.
    Returns a Sensitivity."""
    mf, owned = _model_file_of(model_file)
    try:
        m = mf.model
        p = np.array(mf.vector, dtype=float)
        for i, k, v in _overrides(m, params, kw):
            p[i] = _float(k, v)
    finally:
        if owned:
            mf.close()
    no, np_ = len(m.outputs), len(m.params)
    el, why = np.empty(no * np_), np.empty(no * np_, dtype=np.intc)
    out, err = np.empty(no), C.zvp_error()
    st = C.zvp_sensitivity(m._ptr, p, _float("rel_step", rel_step), el, why, out, byref(err))
    if st != C.ZVP_SUCCESS:
        _raise(st, err)
    s = Sensitivity()
    s.model, s.threshold = m, KNIFE_EDGE
    s.params = OrderedDict(zip(m.param_names, p.tolist()))
    s.outputs = OrderedDict(zip(m.output_names, out.tolist()))
    s.elasticity, s.reasons, s.knife_edges = OrderedDict(), OrderedDict(), []
    for j, o in enumerate(m.output_names):
        row = el[j * np_:(j + 1) * np_]
        s.elasticity[o] = OrderedDict(zip(m.param_names, row.tolist()))
        s.reasons[o] = OrderedDict((m.param_names[k], _s(C.zvp_sensitivity_reason(int(r))))
                                   for k, r in enumerate(why[j * np_:(j + 1) * np_])
                                   if r != 0)
        s.knife_edges += [(o, m.param_names[k], float(e)) for k, e in enumerate(row)
                          if abs(e) > KNIFE_EDGE]
    return s
