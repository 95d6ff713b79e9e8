/*
 * zvmperf/fit.h - model calibration in memory: a fit (model, fixed values, free parameters
 * with bounds, matched outputs, rows of inputs and measured values), the least-squares engine
 * (GSL multifit_nlinear trust region, Levenberg-Marquardt, multistart), its result, and the
 * text and HDF5 reports. Reading a fit from a file is in fitfile.h; the method, the residuals
 * and the report layouts are described in calibration/README.md.
 *
 * Method: bounds are enforced by a logistic map theta = lo + (hi - lo) / (1 + exp(-u)) of an
 * unbounded u; standard errors come from s^2 (J^T J)^-1 at the optimum (s^2 = cost / dof),
 * mapped back by the delta method. Source: GSL manual, "Nonlinear Least-Squares Fitting";
 * Bates & Watts, "Nonlinear Regression Analysis and Its Applications", Wiley 1988, sec. 2.3.
 *
 * Thread safety: a fit is built by one thread; once built, runs only read it (several
 * threads may run the same fit). No global state.
 */
#ifndef ZVMPERF_FIT_H
#define ZVMPERF_FIT_H

#include <stddef.h>
#include <stdio.h>
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zvp_fit zvp_fit;               /* a fit: model, parameters, rows */
typedef struct zvp_fit_result zvp_fit_result; /* outcome of zvp_fit_run */

/* ---- Tunables ------------------------------------------------------------------------ */

/* Residual kinds: relative r = w (model - measured) / |measured| (measured cells must be
 * nonzero); absolute r = w (model - measured), in the output's unit. */
enum { ZVP_FIT_RELATIVE = 0, ZVP_FIT_ABSOLUTE = 1 };

/* Tunables of a run. Fill with zvp_fit_default_parameters(), then change fields. */
typedef struct zvp_fit_parameters {
    size_t starts;      /* multistart count, [1, 10000]; default 1 */
    int residual;       /* ZVP_FIT_RELATIVE (default) or ZVP_FIT_ABSOLUTE */
    size_t max_iter;    /* iteration limit per start, [1, 100000]; default 200 */
    double xtol;        /* GSL driver step tolerance, [0, 0.1]; default 1e-10 */
    double gtol;        /* GSL driver gradient tolerance, [0, 0.1]; default 1e-10 */
    double ftol;        /* GSL driver cost-change tolerance, [0, 0.1]; default 1e-12 */
    unsigned long seed; /* GSL mt19937 seed of the draws of starts 2.. (default 1) */
    double start_box;   /* starts 2.. are drawn uniformly in u within +-start_box of the
                           first start's u; (0, 50]; default 3 */
} zvp_fit_parameters;

/** zvp_fit_default_parameters - the defaults above (as GSL's
 *  gsl_multifit_nlinear_default_parameters). */
zvp_fit_parameters zvp_fit_default_parameters(void);

/** zvp_fit_check_parameters - ZVP_SUCCESS, or ZVP_EINVAL naming the first field out of its
 *  range (above) with its value; ZVP_EINVAL for NULL. */
int zvp_fit_check_parameters(const zvp_fit_parameters *p, zvp_error *err);

/* ---- Building a fit in memory ---------------------------------------------------------
 * Order: zvp_fit_new, then any of set_fixed / add_free / add_input / add_match, then rows
 * (declarations after the first row are refused with ZVP_EINVAL). A parameter takes one
 * role: fixed, per-row input or free (a second role is ZVP_EINVAL naming it). Names are the
 * model descriptor's; an unknown name is ZVP_ENOTFOUND (the message lists the names). */

/**
 * zvp_fit_new - an empty fit of model m.
 * @param[in]  base_params [m->n_params] values of the parameters that are neither fixed,
 *                         inputs nor free (copied); NULL: the model's defaults.
 * @param[out] out         the new fit (free with zvp_fit_free); NULL on failure.
 * @return ZVP_SUCCESS; ZVP_EINVAL (m or out NULL, a base value not finite); ZVP_ENOMEM.
 * The fit carries zvp_fit_default_parameters() until zvp_fit_set_parameters.
 */
int zvp_fit_new(const zvp_model *m, const double *base_params, zvp_fit **out, zvp_error *err);
/** zvp_fit_free - free a fit; NULL is a no-op. */
void zvp_fit_free(zvp_fit *fit);

/** zvp_fit_set_fixed - parameter `name` = value (model units) in every row.
 *  @return ZVP_SUCCESS; ZVP_ENOTFOUND; ZVP_EINVAL (value outside the parameter's valid range
 *  or not whole for an integer parameter, another role, after rows). */
int zvp_fit_set_fixed(zvp_fit *fit, const char *name, double value, zvp_error *err);

/** zvp_fit_add_free - fit parameter `name` within the open bounds (lo, hi), from `start`
 *  (model units); at most 64 free parameters.
 *  @return ZVP_SUCCESS; ZVP_ENOTFOUND; ZVP_EINVAL (lo >= hi, start not in (lo, hi), [lo, hi]
 *  outside the parameter's valid range, an integer parameter (counts and switches cannot be
 *  fitted), another role, a 65th, after rows). */
int zvp_fit_add_free(zvp_fit *fit, const char *name, double start, double lo, double hi,
                     zvp_error *err);

/** zvp_fit_add_input - parameter `name` takes a value per row: the k-th input declared is
 *  inputs[k] of zvp_fit_add_row.
 *  @return ZVP_SUCCESS; ZVP_ENOTFOUND; ZVP_EINVAL (another role, after rows). */
int zvp_fit_add_input(zvp_fit *fit, const char *name, zvp_error *err);

/** zvp_fit_add_match - match model output `output` to measured values with weight w
 *  (finite, > 0); the j-th output matched is measured[j] of the rows.
 *  @return ZVP_SUCCESS; ZVP_ENOTFOUND; ZVP_EINVAL (weight, output matched twice, after
 *  rows). */
int zvp_fit_add_match(zvp_fit *fit, const char *output, double weight, zvp_error *err);

/**
 * zvp_fit_add_row - add a row from its input values.
 * The row's parameter vector: the base vector with the fixed values, then inputs[k] for the
 * k-th declared input, then the free parameters at their starts; it must pass
 * zvp_model_check_params.
 * @param[in] label     row label (copied); NULL: "row <n>" (n = 1-based row number).
 * @param[in] inputs    [zvp_fit_n_inputs] model units; may be NULL when there is no input.
 * @param[in] measured  [zvp_fit_n_matched] in the outputs' units; NaN: not measured.
 * @return ZVP_SUCCESS; ZVP_EINVAL (no free parameter or no matched output declared, an input
 *         or a measured value infinite, the vector refused by the model: the message names
 *         the row and the parameter); ZVP_ENOMEM.
 */
int zvp_fit_add_row(zvp_fit *fit, const char *label, const double *inputs,
                    const double *measured, zvp_error *err);

/** zvp_fit_add_row_params - the same from the row's whole vector params[n_params] (copied,
 *  then the fixed values and the free parameters at their starts are set over it). */
int zvp_fit_add_row_params(zvp_fit *fit, const char *label, const double *params,
                           const double *measured, zvp_error *err);

/** zvp_fit_add_rows - n rows at once: labels [n] (NULL, or NULL entries: "row <n>"),
 *  inputs [n * n_inputs] row-major (NULL when there is no input), measured [n * n_matched]
 *  row-major. Stops at the first refused row (the rows before it stay). */
int zvp_fit_add_rows(zvp_fit *fit, size_t n, const char *const *labels, const double *inputs,
                     const double *measured, zvp_error *err);

/** zvp_fit_set_parameters / zvp_fit_get_parameters - the tunables zvp_fit_run uses (a fit
 *  file's `starts` and `residual`, else the defaults).
 *  @return ZVP_SUCCESS; ZVP_EINVAL (NULL, a field out of range: see
 *  zvp_fit_check_parameters). */
int zvp_fit_set_parameters(zvp_fit *fit, const zvp_fit_parameters *p, zvp_error *err);
int zvp_fit_get_parameters(const zvp_fit *fit, zvp_fit_parameters *out);

/**
 * zvp_fit_subset - a new fit with rows rows[0..n_rows) of fit, in that order (an index may
 * repeat: bootstrap), and everything else (model, roles, parameters, provenance) copied.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL, n_rows = 0, an index >= zvp_fit_n_rows(fit), naming
 *         it); ZVP_ENOMEM. *out is NULL on failure.
 */
int zvp_fit_subset(const zvp_fit *fit, const size_t *rows, size_t n_rows, zvp_fit **out,
                   zvp_error *err);

/* ---- What a fit holds (rows after a fit file's join and `where` filter). Indices: rows
 * i < zvp_fit_n_rows, matched outputs j < zvp_fit_n_matched, free parameters
 * k < zvp_fit_n_free, fixed f < zvp_fit_n_fixed, inputs k < zvp_fit_n_inputs. Strings belong
 * to the fit. An index out of range gives NULL, NaN or (size_t)-1. ---- */
const zvp_model *zvp_fit_model(const zvp_fit *fit);
size_t zvp_fit_n_rows(const zvp_fit *fit);
/** Row label: as given; from a fit file, the first text column of the data whose cells tell
 *  the rows apart (e.g. a run id; else the first text column) or the join key value. */
const char *zvp_fit_row_label(const zvp_fit *fit, size_t i);
size_t zvp_fit_n_matched(const zvp_fit *fit);
/** Model output index of matched output j, and the data column it is matched to (the output
 *  name for a fit built in memory). */
size_t zvp_fit_matched_output(const zvp_fit *fit, size_t j);
const char *zvp_fit_matched_column(const zvp_fit *fit, size_t j);
/** Unit of that data column as written in the CSV header ("" if none); in memory, the
 *  output's unit. */
const char *zvp_fit_matched_unit(const zvp_fit *fit, size_t j);
/** Measured value of row i, matched output j, in the output's unit; NaN where empty. */
double zvp_fit_measured(const zvp_fit *fit, size_t i, size_t j);
size_t zvp_fit_n_free(const zvp_fit *fit);
/** Free parameter k: its model parameter index; start, lo, hi through the pointers (any
 *  may be NULL), model units. */
size_t zvp_fit_free_param_at(const zvp_fit *fit, size_t k, double *start, double *lo, double *hi);
size_t zvp_fit_n_fixed(const zvp_fit *fit);
/** Fixed entry f: its model parameter index, and its value through `value` (may be NULL). */
size_t zvp_fit_fixed_param_at(const zvp_fit *fit, size_t f, double *value);
size_t zvp_fit_n_inputs(const zvp_fit *fit);
/** Input k: its model parameter index and its data column (the parameter name in memory). */
size_t zvp_fit_input_param_at(const zvp_fit *fit, size_t k, const char **column);

/**
 * zvp_fit_row_params - the parameter vector of row i as the engine builds it.
 * @param[in]  params_in   NULL: the fit's own start (base, fixed, inputs, free parameters at
 *                         their start values); or a vector [n_params] (e.g. a calibrated
 *                         file's) over which the row's fixed and input values are set - the
 *                         way to evaluate a calibrated model at the rows it was fitted on.
 * @param[out] params_out  [n_params] of zvp_fit_model(fit); may equal params_in.
 * @return ZVP_SUCCESS; ZVP_EINVAL (i out of range, NULL fit or params_out).
 */
int zvp_fit_row_params(const zvp_fit *fit, size_t i, const double *params_in, double *params_out,
                       zvp_error *err);

/* ---- The engine ------------------------------------------------------------------------ */

/**
 * zvp_fit_run_with - calibrate: multistart trust-region least squares (GSL
 * gsl_multifit_nlinear_trust, Levenberg-Marquardt, forward-difference Jacobian, no geodesic
 * acceleration). Start 1 is the given start; starts 2.. are drawn (see zvp_fit_parameters);
 * the best finite cost wins. A row where the model has no result during the iterations gets
 * a large finite residual. Touches no file (the result's model file is built in memory).
 * @param[in]  params  the tunables; NULL: the fit's own (zvp_fit_get_parameters).
 * @param[out] out     new result (free with zvp_fit_result_free), NULL on failure.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL fit or out, a parameter field out of range, no row,
 *         fewer measured cells than free parameters, a measured 0 with relative residuals
 *         naming the row and output); ZVP_EFIT (no start reached a finite cost with a model
 *         result at every row); ZVP_ENOMEM. A start that stops at the iteration limit is
 *         still used if its cost is finite (see zvp_fit_result_converged).
 * Thread safety: reentrant; fit is only read.
 */
int zvp_fit_run_with(const zvp_fit *fit, const zvp_fit_parameters *params,
                     zvp_fit_result **out, zvp_error *err);
/** zvp_fit_run - zvp_fit_run_with(fit, NULL, out, err): the fit's own tunables. */
int zvp_fit_run(const zvp_fit *fit, zvp_fit_result **out, zvp_error *err);
/** zvp_fit_result_free - free a result (and its model file); NULL is a no-op. */
void zvp_fit_result_free(zvp_fit_result *res);

/* ---- Result accessors; arrays belong to the result. p = free parameters, n = rows x
 * matched outputs (row-major). Estimates, standard errors and covariance are in the
 * parameters' units. Standard errors and covariance are NaN when dof = 0, when J^T J is
 * singular for a parameter (GSL's covar drops its column: not identified by the data), and
 * for an estimate at a bound (within 1e-6 (hi - lo)), where the delta method would give 0.
 * measured is NaN where a cell was not measured; fitted is the model's output at the
 * estimates for every row (NaN where the model has no result). ---- */
size_t zvp_fit_result_n_free(const zvp_fit_result *res);
const char *zvp_fit_result_param_name(const zvp_fit_result *res, size_t i);
const double *zvp_fit_result_estimates(const zvp_fit_result *res);  /* [p] */
const double *zvp_fit_result_stderrs(const zvp_fit_result *res);    /* [p] */
const double *zvp_fit_result_covariance(const zvp_fit_result *res); /* [p*p] row-major */
size_t zvp_fit_result_n_rows(const zvp_fit_result *res);
size_t zvp_fit_result_n_matched(const zvp_fit_result *res);
const char *zvp_fit_result_output_name(const zvp_fit_result *res, size_t j);
const double *zvp_fit_result_measured(const zvp_fit_result *res);   /* [rows*matched] */
const double *zvp_fit_result_fitted(const zvp_fit_result *res);     /* [rows*matched] */
/** Goodness of fit per matched output j (0 <= j < n_matched), over the rows where output j
 *  was measured, from the unweighted absolute residuals e_i = fitted_i - measured_i (also
 *  for a relative or weighted fit): R^2 = 1 - sum e_i^2 / SStot with SStot = sum (y_i -
 *  mean y)^2; RMSE = sqrt(sum e_i^2 / n) in the output's unit; MAPE = 100/n' sum |e_i/y_i|
 *  in % over the n' cells with y_i != 0. NaN when res is NULL or j >= n_matched, when the
 *  output has no measured cell; R^2 is NaN when SStot = 0 (one measured cell, or all
 *  equal), MAPE when every measured cell is 0. */
double zvp_fit_result_r2(const zvp_fit_result *res, size_t j);
double zvp_fit_result_rmse(const zvp_fit_result *res, size_t j);
double zvp_fit_result_mape(const zvp_fit_result *res, size_t j);
/** Overall MAPE (%) over all matched cells with a nonzero measured value (every output
 *  pooled); NaN when there is none or res is NULL. */
double zvp_fit_result_mape_all(const zvp_fit_result *res);
/** Sum of squared weighted residuals at the estimates (as minimised). */
double zvp_fit_result_cost(const zvp_fit_result *res);
/** Degrees of freedom: measured cells - free parameters. */
size_t zvp_fit_result_dof(const zvp_fit_result *res);
/** Label of row i (zvp_fit_row_label of the fit). Owned by the result. */
const char *zvp_fit_result_row_label(const zvp_fit_result *res, size_t i);
/** Iterations of the best start, and whether it met a convergence test (1) rather than
 *  stopping at the iteration limit or for lack of progress (0). */
size_t zvp_fit_result_iterations(const zvp_fit_result *res);
int zvp_fit_result_converged(const zvp_fit_result *res);

/** zvp_fit_result_model_file - the calibrated model file (fitted + fixed parameters,
 *  standard errors, covariance, residual variances, provenance). Owned by the result. A
 *  residual variance is never below the mean variance its cells' text states (a printed
 *  number's rounding (10^-d)^2 / 12, an "x +- s" cell's s^2, a bound 0; a fit built in memory
 *  has no text and no floor): calibration/README.md, "Covariance in model files". */
const zvp_model_file *zvp_fit_result_model_file(const zvp_fit_result *res);

/* ---- Reports (layouts in calibration/README.md) ---------------------------------------- */

/** zvp_fit_result_print - the text report: estimates with standard errors, per-output R^2,
 *  RMSE, MAPE, and every row's measured, fitted and residual values. NULL res or fp: no-op. */
void zvp_fit_result_print(const zvp_fit_result *res, FILE *fp);

/** zvp_fit_result_write_h5 - the report as HDF5, netCDF-4 / CF-1.8 (layout 2,
 *  calibration/README.md "HDF5"): dimension scales row, parameter, output, start_number;
 *  [row, output] measured, fitted, residual (fitted - measured), residual_pct; [parameter]
 *  estimate, stderr, lo, hi, start, estimate_flag; [parameter, parameter] covariance; [output]
 *  r2, rmse, mape, cells; [start_number] start_cost, start_iterations, start_status; [row]
 *  label and input_<param> (each row's inputs); units, long_name; global attributes
 *  (provenance, created in ISO 8601 UTC, cost, dof...; counts as integers). Atomic: written
 *  to a temporary file beside path and renamed over it only when complete; on failure path
 *  is untouched.
 *  @return ZVP_SUCCESS; ZVP_EINVAL (NULL); ZVP_EIO (message names the path and the failing
 *  object); ZVP_ENOMEM. */
int zvp_fit_result_write_h5(const zvp_fit_result *res, const char *path, zvp_error *err);

/* ---- Dependent cells, row sources, validation, sensitivity (calibration/README.md,
 * "Validation"). ---- */

/** zvp_fit_set_dependent - declare the measured cell (row i, matched output j) a function of
 *  other cells (e.g. ITR = ETR / busy): it stays in the least squares but is not counted as
 *  an independent cell in the degrees of freedom. Declaring a cell twice is a no-op.
 *  @return ZVP_SUCCESS; ZVP_EINVAL (NULL fit, i or j out of range, naming it); ZVP_ENOMEM. */
int zvp_fit_set_dependent(zvp_fit *fit, size_t i, size_t j, zvp_error *err);
/** 1 if cell (i, j) is declared dependent, else 0 (also out of range). */
int zvp_fit_cell_dependent(const zvp_fit *fit, size_t i, size_t j);
/** Measured cells not declared dependent (0 for NULL). */
size_t zvp_fit_n_independent(const zvp_fit *fit);

/** zvp_fit_set_cell - state how measured cell (row i, matched output j) was measured
 *  (calibration/README.md, "Measurements as stated"): a bound or interval [lo, hi] (lo may be
 *  -INFINITY, hi INFINITY; both NaN for a point value) and a sigma (> 0, the output's unit;
 *  NaN: none). The cell must be measured (its measured value is the nominal one: the bound,
 *  the interval's midpoint). Residual: 0 inside the zone and the distance to the nearest end
 *  outside, divided by sigma, else by |that end| (relative) or 1 (absolute).
 *  @return ZVP_SUCCESS; ZVP_EINVAL (NULL fit, i or j out of range, a cell not measured,
 *  lo >= hi, a zone with both ends infinite, sigma <= 0 or infinite, naming it); ZVP_ENOMEM. */
int zvp_fit_set_cell(zvp_fit *fit, size_t i, size_t j, double lo, double hi, double sigma,
                     zvp_error *err);
/** The zone and sigma of cell (i, j) (NaN where none; all NaN out of range). */
void zvp_fit_cell(const zvp_fit *fit, size_t i, size_t j, double *lo, double *hi, double *sigma);

/** zvp_fit_set_row_source - the data file (CSV) row i came from (copied); a fit file sets it
 *  for every row. @return ZVP_SUCCESS; ZVP_EINVAL (NULL, i out of range); ZVP_ENOMEM. */
int zvp_fit_set_row_source(zvp_fit *fit, size_t i, const char *data_file, zvp_error *err);
/** The data file of row i; "" when unknown (built in memory); NULL out of range. */
const char *zvp_fit_row_data_file(const zvp_fit *fit, size_t i);
/** The text of data column `column` in row i (data file, then join table, as read); NULL when
 *  the fit keeps no such column (in memory) or i is out of range. */
const char *zvp_fit_row_column(const zvp_fit *fit, size_t i, const char *column);

/** Measured cells not declared dependent; the effective degrees of freedom (those cells - free
 *  parameters, 0 when saturated; s^2 = cost / this; zvp_fit_result_dof keeps measured cells -
 *  free parameters); 1 when saturated (independent cells <= free parameters: no degree of
 *  freedom, standard errors and covariance NaN). */
size_t zvp_fit_result_n_independent(const zvp_fit_result *res);
size_t zvp_fit_result_dof_effective(const zvp_fit_result *res);
int zvp_fit_result_saturated(const zvp_fit_result *res);

typedef struct zvp_validation zvp_validation; /* outcome of zvp_fit_validate */

/* Cross-validation schemes. */
enum { ZVP_VALIDATE_LOO = 0, ZVP_VALIDATE_GROUP = 1 };
/* Fold status: fitted; not fittable (fewer independent cells than free parameters); the
 * solver failed. */
enum { ZVP_FOLD_OK = 0, ZVP_FOLD_TOO_FEW = 1, ZVP_FOLD_FAILED = 2 };

typedef struct zvp_validate_options {
    int scheme;                      /* ZVP_VALIDATE_LOO (default) or ZVP_VALIDATE_GROUP */
    const char *group_column;        /* GROUP: data column whose equal values form a fold */
    const char *const *group_keys;   /* GROUP: [n_rows] keys instead of a column; or NULL */
    int threads;                     /* OpenMP threads, 0: the OpenMP default; [0, 1024] */
    double level;                    /* prediction-interval level, (0, 1); default 0.9 */
    const zvp_fit_parameters *params; /* tunables of every refit; NULL: the fit's own */
} zvp_validate_options;

/** zvp_validate_default_options - leave-one-out, default threads, level 0.9. */
zvp_validate_options zvp_validate_default_options(void);

/**
 * zvp_fit_validate - cross-validate a fit: the full fit (in-sample), then one refit per fold
 * (a row, or the rows sharing a group key) without the fold's rows, in parallel (OpenMP; the
 * results do not depend on the thread count). Each held-out cell is predicted with the fold's
 * estimates at the row's parameter vector, with a prediction interval: delta method on the
 * fold's covariance plus the output's residual variance in the fold (relative for relative
 * residuals), Student-t quantile with the fold's effective dof; a fold with dof 0 gives no
 * interval (its cells count as not covered). A fold that cannot be fitted is kept with its
 * status and message.
 * @param opt  NULL: zvp_validate_default_options().
 * @return ZVP_SUCCESS (even when some folds fail: see their status); ZVP_EINVAL (NULL fit or
 *         out, an option out of range, GROUP without keys, a column the fit does not keep; one
 *         row, or one group, so that a single fold holds every row; no fold could be refitted,
 *         every one too small or failed); the full fit's status when it fails; ZVP_ENOMEM.
 */
int zvp_fit_validate(const zvp_fit *fit, const zvp_validate_options *opt, zvp_validation **out,
                     zvp_error *err);
void zvp_validation_free(zvp_validation *v);

/* Accessors (NULL v or an index out of range: NaN, NULL, 0 or -1). j indexes the matched
 * outputs, i the rows, f the folds. MAPE in %, over cells with a nonzero measured value. */
const zvp_fit_result *zvp_validation_full(const zvp_validation *v); /* the in-sample fit */
const char *zvp_validation_scheme(const zvp_validation *v); /* "loo" or "group:COLUMN" */
double zvp_validation_level(const zvp_validation *v);
size_t zvp_validation_n_rows(const zvp_validation *v);
size_t zvp_validation_n_matched(const zvp_validation *v);
double zvp_validation_in_sample_mape(const zvp_validation *v, size_t j);
double zvp_validation_in_sample_mape_all(const zvp_validation *v);
double zvp_validation_cv_mape(const zvp_validation *v, size_t j);
double zvp_validation_cv_mape_all(const zvp_validation *v);
/** Independent measured cells minus free parameters (negative: fewer cells than parameters). */
long zvp_validation_dof_effective(const zvp_validation *v);
/** Share (%) of the held-out measured cells inside their prediction interval; cells of folds
 *  without an interval (dof 0, failed) count as not covered. NaN (undefined) when no
 *  held-out cell has an interval. */
double zvp_validation_coverage_pct(const zvp_validation *v);
/** Held-out measured cells, those with an interval, those covered. */
void zvp_validation_coverage_counts(const zvp_validation *v, size_t *cells, size_t *with_interval,
                                    size_t *covered);
/** The held-out cell with the largest absolute percentage error: returns 0 and sets row,
 *  output, ape_pct; -1 when no cell was predicted. */
int zvp_validation_worst(const zvp_validation *v, size_t *row, size_t *j, double *ape_pct);
/** [rows * matched] row-major: prediction of each cell by the fold holding its row out (NaN
 *  where the fold failed or the model has no result), interval bounds (NaN without one). */
const double *zvp_validation_predicted(const zvp_validation *v);
const double *zvp_validation_lo(const zvp_validation *v);
const double *zvp_validation_hi(const zvp_validation *v);
/** Row i: label, data file ("" unknown), its fold, its held-out MAPE (NaN: no prediction). */
const char *zvp_validation_row_id(const zvp_validation *v, size_t i);
const char *zvp_validation_row_data_file(const zvp_validation *v, size_t i);
size_t zvp_validation_row_fold(const zvp_validation *v, size_t i);
double zvp_validation_row_cv_mape(const zvp_validation *v, size_t i);
size_t zvp_validation_n_folds(const zvp_validation *v);
/** Fold f: ZVP_FOLD_*, its message ("" when ok), its key (row label or group value), rows held
 *  out, effective dof of the refit (negative: too few cells), estimates [n_free] (NULL unless
 *  ok). */
int zvp_validation_fold_status(const zvp_validation *v, size_t f);
const char *zvp_validation_fold_message(const zvp_validation *v, size_t f);
const char *zvp_validation_fold_key(const zvp_validation *v, size_t f);
size_t zvp_validation_fold_n_held(const zvp_validation *v, size_t f);
long zvp_validation_fold_dof(const zvp_validation *v, size_t f);
const double *zvp_validation_fold_estimates(const zvp_validation *v, size_t f);

/* Why an elasticity is NaN. */
enum { ZVP_SENS_OK = 0, ZVP_SENS_ZERO_OUTPUT = 1, ZVP_SENS_ZERO_PARAM = 2,
       ZVP_SENS_INTEGER = 3, ZVP_SENS_FAILED = 4 };
/** Text of a ZVP_SENS_* reason (static). */
const char *zvp_sensitivity_reason(int reason);

/**
 * zvp_sensitivity - elasticities e[j][k] = d ln output_j / d ln param_k at params, by central
 * differences with the relative step rel_step (theta (1 +- h)), one-sided when a side leaves
 * the parameter's range or has no model result. NaN with a reason where output_j or param_k
 * is 0, the parameter is an integer (counts, switches), or neither side evaluates.
 * @param rel_step    (0, 0.1]; 0: 1e-4.
 * @param elasticity  [n_outputs * n_params] output-major (elasticity[j * n_params + k]).
 * @param reason      [n_outputs * n_params] ZVP_SENS_*; may be NULL.
 * @param outputs     [n_outputs] the outputs at params; may be NULL.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL, rel_step out of range); the model's status when the
 *         point itself does not evaluate (message names it); ZVP_ENOMEM.
 */
int zvp_sensitivity(const zvp_model *m, const double *params, double rel_step, double *elasticity,
                    int *reason, double *outputs, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_FIT_H */
