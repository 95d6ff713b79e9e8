/*
 * zvmperf/calibrate.h - measurement tables (CSV) and model calibration by GSL nonlinear
 * least squares (multifit_nlinear, trust region).
 *
 * Fit file (INI), paths relative to the fit file's directory:
 *     [fit]
 *     model     = sweetspot
 *     data      = ../data/000_table3_sweetspot_zvm63.csv    ; or a.csv, b.csv (concatenated)
 *     join      = ../data/000_table1_sweetspot_config.csv   ; optional second table
 *     join_key  = storage_gb                                  ; column both tables share
 *     ; optional row filter (no comment on its line, see below):
 *     where     = release = 6.3;dasd_type = ECKD
 *     base      = ../params/x.ini      ; optional model file giving the fixed parameters
 *     output    = ../params/sweetspot-zvm63.ini               ; calibrated model file
 *     starts    = 8                    ; multistart count (1..10000, default 1)
 *     residual  = relative             ; relative (default) | absolute
 *     [fixed]   <param> = <value>                             ; fixed parameter values
 *     [inputs]  <param> = <column>                            ; per-row parameter values
 *     [free]    <param> = <start>, <lo>, <hi>                 ; fitted, lo < start < hi
 *     [match]   <output> = <column> [, <weight>]              ; matched outputs
 *
 * Keys: model and data are required; join and join_key come together (inner join on a
 * numeric key; a data row whose key the join table lacks is ZVP_EPARSE naming the key
 * value); output is optional. Columns are looked up in the data table, then the join
 * table.
 * data may list several CSV files separated by ',' (file names cannot contain ','): their rows
 * are concatenated in the order given; every file must have the first one's header (same
 * column names and units in the same order), else ZVP_EPARSE.
 * where keeps only the rows that satisfy every condition <column> = <value> (conditions
 * separated by ';'; column and value trimmed of blanks); it is applied after the join (to
 * every data row; the join must succeed for all of them) and the column may be in either
 * table. A numeric column (at least one non-empty cell, every non-empty cell a number, over
 * all data files) compares numerically (6.3 matches a cell written 6.30; a value that is not
 * a number is ZVP_EINVAL); any other column compares the trimmed cell text exactly. An
 * empty cell never matches. Unknown column: ZVP_ENOTFOUND; a condition without '=' or with an
 * empty column or value: ZVP_EPARSE; no row left: ZVP_EINVAL naming the filter. The INI
 * reader takes a ';' after a blank as the start of a comment, so write `a = 1;b = 2` or
 * `a = 1; b = 2` (no blank before ';') and no comment on the where line: a blank before ';'
 * there is ZVP_EPARSE. The calibrated file's provenance records `where` as written and
 * data_file as the resolved paths joined with ", ".
 * A row's parameter vector is: model defaults, then the base file, then [fixed], then
 * that row's [inputs] cells, then the free parameters. A parameter may appear in only one of
 * [fixed], [inputs], [free]; lo and hi must lie in the parameter's valid range. An empty
 * measured cell is not fitted (residual 0, not counted); a relative residual needs nonzero
 * measured values. Residuals: relative  w (model - measured) / |measured|,
 *                             absolute  w (model - measured).
 * Multistart: start 1 is the given start; the others are drawn (GSL mt19937, seed 1, so
 * results are deterministic) uniformly in u within +-3 of the first start's u, where
 * theta = lo + (hi - lo) / (1 + exp(-u)). The best finite cost wins. A row where the model
 * returns a non-success status during the iterations gets a large finite residual.
 *
 * Bounds are enforced by reparametrisation (logistic map of an unbounded variable onto
 * (lo, hi)); standard errors come from the covariance at the optimum, mapped back by the
 * delta method. Source: GSL manual, "Nonlinear Least-Squares Fitting"; Bates & Watts,
 * "Nonlinear Regression Analysis and Its Applications", Wiley 1988, sec. 2.3 (standard
 * errors from s^2 (J^T J)^-1).
 */
#ifndef ZVMPERF_CALIBRATE_H
#define ZVMPERF_CALIBRATE_H

#include <stddef.h>
#include <stdio.h>
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Measurement tables (CSV) -------------------------------------------------------- */

/* A CSV table: '#' comment lines, one header row whose cells are `name` or `name [unit]`,
 * then data rows. Cells are numbers or text. Opaque handle. */
typedef struct zvp_table zvp_table;

/**
 * zvp_table_read - read a CSV measurement table.
 * Cells are split on ',' and trimmed of spaces and tabs; a cell may be quoted with '"'
 * ("" is a quote inside quotes). CRLF line ends, blank lines and '#' comment lines (also
 * indented) are accepted; lines have no length limit. An empty cell has value NaN and
 * text "". A cell is numeric when the whole (trimmed) text is a finite number.
 * @param[in]  path  file path.
 * @param[out] out   new table (free with zvp_table_free).
 * @return ZVP_SUCCESS; ZVP_EIO (missing file; message names the path); ZVP_EPARSE (ragged
 *         row, no header, empty or duplicate column name, bad quoting; message gives
 *         file:line); ZVP_ENOMEM. *out is NULL on failure.
 * Thread safety: reentrant.
 */
int zvp_table_read(const char *path, zvp_table **out, zvp_error *err);
/** zvp_table_free - free; NULL is a no-op. */
void zvp_table_free(zvp_table *t);
/** zvp_table_rows / zvp_table_cols - number of data rows (header, comment and blank lines
 *  not counted) and of columns; 0 for a NULL table. */
size_t zvp_table_rows(const zvp_table *t);
size_t zvp_table_cols(const zvp_table *t);
/** Column name (without the unit) and unit ("" if none) of column j (0 <= j < cols); owned
 *  by the table. NULL when t is NULL or j >= zvp_table_cols(t). */
const char *zvp_table_col_name(const zvp_table *t, size_t j);
const char *zvp_table_col_unit(const zvp_table *t, size_t j);
/** Index of a named column, or -1 with ZVP_ENOTFOUND (message lists the columns); -1 with
 *  ZVP_EINVAL when t or name is NULL. */
long zvp_table_col_index(const zvp_table *t, const char *name, zvp_error *err);
/** Numeric value of cell (i, j) (row i < rows, column j < cols); NaN if the cell is text or
 *  empty, and NaN when t is NULL or i or j is out of range (no error is reported: use
 *  zvp_table_rows/cols to tell an out-of-range index from an empty cell). */
double zvp_table_value(const zvp_table *t, size_t i, size_t j);
/** Text of cell (i, j) as written (trimmed, quotes removed; "" for an empty cell); owned by
 *  the table. NULL when t is NULL or i or j is out of range. */
const char *zvp_table_text(const zvp_table *t, size_t i, size_t j);

/* ---- Fits ---------------------------------------------------------------------------- */

typedef struct zvp_fit zvp_fit;               /* a parsed fit file with its data */
typedef struct zvp_fit_result zvp_fit_result; /* outcome of zvp_fit_run */

/**
 * zvp_fit_read - parse a fit file and load its data tables.
 * @param[in]  path  the fit file (format at the top of this header); the paths in it are
 *                   relative to its directory. NULL: ZVP_EINVAL.
 * @param[out] out   must not be NULL (ZVP_EINVAL); the new fit on success (free with
 *                   zvp_fit_free), NULL on failure.
 * @param[out] err   may be NULL; the message on failure.
 * @return ZVP_SUCCESS; ZVP_EIO; ZVP_EPARSE (also: data files with different headers, a
 *         malformed where); ZVP_ENOTFOUND (unknown model, parameter, output or column,
 *         including a where column); ZVP_EINVAL (bad bounds, start outside bounds, starts < 1,
 *         where leaves no rows, where value not a number for a numeric column); ZVP_ENOMEM.
 *         Messages name the file, key and value.
 */
int zvp_fit_read(const char *path, zvp_fit **out, zvp_error *err);
/** zvp_fit_free - free a fit and its tables; NULL is a no-op. */
void zvp_fit_free(zvp_fit *fit);

/** Output path of the calibrated model file named in the fit file, resolved against the fit
 *  file's directory (owned by fit), or NULL when the fit file has no `output` key. */
const char *zvp_fit_output_path(const zvp_fit *fit);

/* ---- What a parsed fit holds, without fitting (rows after the join and the `where`
 * filter). Indices: rows i < zvp_fit_n_rows, matched outputs j < zvp_fit_n_matched, free
 * parameters k < zvp_fit_n_free, fixed f < zvp_fit_n_fixed, inputs k < zvp_fit_n_inputs.
 * Strings belong to the fit. An index out of range gives NULL, NaN or (size_t)-1. ---- */
const zvp_model *zvp_fit_model(const zvp_fit *fit);
/** Base model file resolved against the fit file's directory, or NULL when none. */
const char *zvp_fit_base_path(const zvp_fit *fit);
size_t zvp_fit_n_rows(const zvp_fit *fit);
/** Row label: the first text column of the data (e.g. a run id) or the join key value. */
const char *zvp_fit_row_label(const zvp_fit *fit, size_t i);
size_t zvp_fit_n_matched(const zvp_fit *fit);
/** Model output index of matched output j, and the data column it is matched to. */
size_t zvp_fit_matched_output(const zvp_fit *fit, size_t j);
const char *zvp_fit_matched_column(const zvp_fit *fit, size_t j);
/** Unit of that data column as written in the CSV header ("" if none). */
const char *zvp_fit_matched_unit(const zvp_fit *fit, size_t j);
/** Measured value of row i, matched output j, in the output's unit; NaN where empty. */
double zvp_fit_measured(const zvp_fit *fit, size_t i, size_t j);
size_t zvp_fit_n_free(const zvp_fit *fit);
/** Free parameter k: its model parameter index; start, lo, hi through the pointers (any
 *  may be NULL), model units. */
size_t zvp_fit_free_param_at(const zvp_fit *fit, size_t k, double *start, double *lo, double *hi);
size_t zvp_fit_n_fixed(const zvp_fit *fit);
/** [fixed] entry f: its model parameter index, and its value through `value` (may be NULL). */
size_t zvp_fit_fixed_param_at(const zvp_fit *fit, size_t f, double *value);
size_t zvp_fit_n_inputs(const zvp_fit *fit);
/** [inputs] entry k: its model parameter index and its data column. */
size_t zvp_fit_input_param_at(const zvp_fit *fit, size_t k, const char **column);

/**
 * zvp_fit_row_params - the parameter vector of row i as the engine builds it.
 * @param[in]  params_in   NULL: the fit's own start (model defaults, then `base`, [fixed],
 *                         [inputs], free parameters at their start values); or a vector
 *                         [n_params] (e.g. a calibrated file's) over which the row's [fixed]
 *                         and [inputs] values are set — the way to evaluate a calibrated
 *                         model at the rows it was fitted on.
 * @param[out] params_out  [n_params] of zvp_fit_model(fit); may equal params_in.
 * @return ZVP_SUCCESS; ZVP_EINVAL (i out of range, NULL fit or params_out).
 */
int zvp_fit_row_params(const zvp_fit *fit, size_t i, const double *params_in, double *params_out,
                       zvp_error *err);

/**
 * zvp_fit_run - calibrate: multistart trust-region least squares (GSL
 * gsl_multifit_nlinear_trust, Levenberg-Marquardt with geodesic acceleration off).
 * @param[out] out  new result (free with zvp_fit_result_free), NULL on failure.
 * @return ZVP_SUCCESS; ZVP_EFIT (no start reached a finite cost with a model result at
 *         every row); ZVP_ENOMEM. A start that stops at the iteration limit is still used
 *         if its cost is finite (see zvp_fit_result_converged).
 * Thread safety: reentrant (no shared state); fit is only read.
 */
int zvp_fit_run(const zvp_fit *fit, zvp_fit_result **out, zvp_error *err);
/** zvp_fit_result_free - free a result (and its model file); NULL is a no-op. */
void zvp_fit_result_free(zvp_fit_result *res);

/* Result accessors; arrays belong to the result. p = free parameters, n = rows x matched outputs.
 * Estimates, standard errors and covariance are in the parameters' units. Standard errors
 * and covariance are NaN when dof = 0 (as many measured cells as free parameters), when
 * J^T J is singular (for a parameter whose Jacobian column GSL's covar drops as linearly
 * dependent, i.e. not identified by the data), and for an estimate at a bound (within
 * 1e-6 (hi - lo)), where the delta method would give 0. measured is NaN where a cell was not measured; fitted is the model's
 * output at the estimates for every row. */
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
/** Label of row i: its cell in the first text column of the data (e.g. a run id; a column is
 *  text here when one of the rows left holds a non-numeric cell in it), skipping the columns
 *  named in `where` (constant over the rows left); else join_key=value; else "row <n>" (the
 *  row's number in its data file) or, with several data files, "file <k> row <n>". Owned by
 *  the result. */
const char *zvp_fit_result_row_label(const zvp_fit_result *res, size_t i);
/** Iterations of the best start, and whether it met a convergence test (1) rather than
 *  stopping at the iteration limit or for lack of progress (0). */
size_t zvp_fit_result_iterations(const zvp_fit_result *res);
int zvp_fit_result_converged(const zvp_fit_result *res);

/** zvp_fit_result_model_file - the calibrated model file (fitted + fixed parameters,
 *  standard errors, provenance). Owned by the result. */
const zvp_model_file *zvp_fit_result_model_file(const zvp_fit_result *res);

/** zvp_fit_result_print - the text report: estimates with standard errors, per-output R^2,
 *  RMSE, MAPE, and every row's measured, fitted and residual values. */
void zvp_fit_result_print(const zvp_fit_result *res, FILE *fp);

/** zvp_fit_result_write_h5 - the report as HDF5 (/measured, /fitted, /residual [rows x
 *  matched], /estimates, /stderrs, /covariance, /r2, /rmse, /mape, attributes).
 *  /residual = fitted - measured in the output units, /residual_pct = 100 residual /
 *  |measured|; also /lo, /hi, /start [p], /start_cost, /start_iterations, /start_status
 *  [starts]. Every dataset has a `units` attribute (string, or one string per column).
 *  Root attributes (variable-length UTF-8 strings, read by h5py as str): param_names,
 *  param_units, output_names, output_units, row_labels, model, fit_file, data_file (the
 *  data files joined with ", "), where (only when the fit file has one), zvmperf_version,
 *  created (ISO 8601 UTC), residual, outcome; doubles cost, dof,
 *  best_start, iterations, mape_all_pct. The file is replaced if it exists.
 *  @return ZVP_SUCCESS or ZVP_EIO (message names the path and the failing object). */
int zvp_fit_result_write_h5(const zvp_fit_result *res, const char *path, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_CALIBRATE_H */
