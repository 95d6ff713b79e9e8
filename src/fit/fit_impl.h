/* src/fit/fit_impl.h - private layout of zvp_fit and zvp_fit_result, shared by the sources in src/fit. */
#ifndef ZVMPERF_FIT_IMPL_H
#define ZVMPERF_FIT_IMPL_H

#include <math.h>
#include <stddef.h>
#include "zvmperf/fit.h"
#include "zvmperf/fitfile.h"
#include "zvmperf/modelfile.h"
#include "zvmperf/table.h"
#include "internal.h"

/* Large finite residual given to GSL for a matched cell at a row where the model has no
 * result (EUNSTABLE, EINVAL, non-finite output): the trust region then backs off. */
#define ZVP_FIT_PENALTY 1e3

/* The smallest |measured value| a relative residual (f - y) / |y| uses: below it the residual
 * of a model value of ordinary size squares beyond the double range (1e-200 with f ~ 100 gives
 * r^2 ~ 1e404), and the fit can reach no finite cost. Such a cell is refused as input, as a
 * measured 0 is (use absolute residuals, a sigma, or the column in a larger unit). */
#define ZVP_FIT_REL_MIN 1e-100

/* At most this many free parameters (stack arrays in the engine). */
#define ZVP_FIT_MAX_FREE 64

/* An estimate within ZVP_FIT_BOUND_REL (hi - lo) of a bound is "at the bound": its standard
 * error and covariance entries are NaN (the delta method would give 0). */
#define ZVP_FIT_BOUND_REL 1e-6
int zvp_fit_at_bound(double theta, double lo, double hi);
enum { ZVP_FIT_AT_BOUND = 1, ZVP_FIT_UNIDENTIFIED = 2 };

/* Role of a parameter in a fit. */
enum { ZVP_ROLE_NONE = 0, ZVP_ROLE_FIXED, ZVP_ROLE_INPUT, ZVP_ROLE_FREE };

typedef struct zvp_fit_free_param {
    size_t index;          /* parameter index in the model descriptor */
    double start, lo, hi;  /* lo < start < hi, model units */
} zvp_fit_free_param;

typedef struct zvp_fit_input {
    size_t index;          /* parameter index */
    char *column;          /* data column (fit file) or the parameter name (in memory) */
} zvp_fit_input;

typedef struct zvp_fit_match {
    size_t index;          /* output index in the model descriptor */
    char *column;          /* data column (fit file) or the output name (in memory) */
    char *unit;            /* the column's unit (fit file) or the output's unit */
    double weight;         /* finite, > 0 */
} zvp_fit_match;

struct zvp_fit {
    const zvp_model *model;
    zvp_fit_parameters params; /* the tunables zvp_fit_run uses */
    /* provenance (fit file); NULL for a fit built in memory. data_path: the resolved data
     * files joined with ", " */
    char *path, *data_path, *join_path, *join_key, *base_path, *output_path, *where;
    char **files;          /* [n_files] the files read: fit file, data, join, base (fitfile.c) */
    size_t n_files;

    double *base_params;   /* [n_params]: base vector with the fixed values */
    int *roles;            /* [n_params] ZVP_ROLE_* */
    size_t n_fixed;
    size_t *fixed_index;   /* [n_params] capacity */
    double *fixed_value;
    size_t n_inputs;
    zvp_fit_input *inputs; /* [n_params] capacity */
    size_t n_free;
    zvp_fit_free_param *free; /* [n_params] capacity */
    size_t n_match;
    zvp_fit_match *match;  /* [n_outputs] capacity */

    size_t n_rows, cap_rows;
    double *row_params;    /* [n_rows * n_params]: base, fixed, inputs, free at their start */
    double *measured;      /* [n_rows * n_match], NaN where not measured */
    char **labels;         /* [n_rows] */
    size_t n_measured;     /* number of measured (non-NaN) cells */
    struct zvp_fit_extra *extra; /* row sources and dependent cells (rowinfo.c); may be NULL */
};

/* Per-row extras of a fit (src/fit/rowinfo.c): the CSV each row came from, the text of its
 * data columns (validation by group), and the matched cells declared dependent (functions of
 * other cells: not counted as independent in the degrees of freedom). */
typedef struct zvp_fit_extra {
    size_t n_rows;         /* rows described by data_file and cells (the first n_rows) */
    char **data_file;      /* [n_rows]; NULL entries: unknown */
    size_t n_cols;
    char **col_names;      /* [n_cols] data columns, then the join table's */
    char **cells;          /* [n_rows * n_cols] */
    size_t n_dep, cap_dep;
    size_t *dep;           /* [n_dep] distinct dependent cells i * n_match + j */
    /* measurements as stated (measure.c): zone [zlo, zhi] of a bound or interval cell (both
     * NaN for a point value) and sigma (NaN: none), in the output's unit; cells of rows at or
     * past n_cell_rows are plain points */
    size_t n_cell_rows;
    double *zlo, *zhi, *sigma; /* [n_cell_rows * n_match] */
} zvp_fit_extra;

/* Free the extras (NULL: no-op). */
void zvp_fit_extra_free(zvp_fit_extra *x);
/* dst's extras for its rows rows[0..n) of src (after zvp_fit_subset); ZVP_ENOMEM or 0. */
int zvp_fit_extra_subset(const zvp_fit *src, zvp_fit *dst, const size_t *rows, size_t n);
/* The extras of fit, allocated on first use; NULL when out of memory. */
zvp_fit_extra *zvp_fit_extra_get(zvp_fit *fit);
/* Measured cells not declared dependent. */
size_t zvp_fit_count_independent(const zvp_fit *fit);

typedef struct zvp_fit_start_info {
    double cost;           /* sum of squared weighted residuals at the end (inf if unusable) */
    size_t iterations;
    int gsl_status;        /* gsl_multifit_nlinear_driver status (GSL_SUCCESS, GSL_EMAXITER...) */
    int info;              /* driver info: 1 small step (xtol), 2 small gradient (gtol), 3 ftol */
    int usable;            /* 1 if every row evaluated and the cost is finite */
} zvp_fit_start_info;

/* Text for a start's driver outcome ("converged (small step, xtol)", ...); static. */
const char *zvp_fit_start_outcome(const zvp_fit_start_info *s);

struct zvp_fit_result {
    const zvp_model *model;
    char *fit_path, *data_path, *join_path, *join_key, *base_path; /* NULL in memory */
    char *where;           /* [fit] where, NULL if absent */
    int residual_absolute;
    size_t p, n_rows, n_match, n_measured, n_starts, best_start;
    size_t *param_index;   /* [p] */
    size_t *output_index;  /* [n_match] */
    double *lo, *hi, *start; /* [p] */
    int *flags;            /* [p] ZVP_FIT_AT_BOUND, ZVP_FIT_UNIDENTIFIED or 0 */
    double *estimates, *stderrs; /* [p] */
    double *covariance;    /* [p*p] */
    double *cov_u;         /* [p*p] covariance of the fitted u (NaN rows as covariance) */
    double *measured, *fitted, *residual; /* [n_rows*n_match]; residual = fitted - measured */
    double *pct;           /* [n_rows*n_match] 100 residual / |measured|, NaN where the cell has
                            * no relative error (zvp_fit_cell_pct) */
    double *r2, *rmse, *mape; /* [n_match] */
    size_t *cells;         /* [n_match] measured cells per output */
    size_t *no_rel;        /* [n_match] measured cells without a relative error (near zero):
                            * not in the MAPE */
    double mape_all, cost;
    size_t dof;            /* measured cells - p (zvp_fit_result_dof) */
    size_t dof_eff;        /* independent cells - p, 0 when saturated: scales the stderrs */
    size_t n_independent;  /* measured cells not declared dependent */
    int saturated;         /* n_independent <= p: standard errors undefined (NaN) */
    char **labels;         /* [n_rows] */
    size_t n_inputs;       /* per-row input parameters (the fit's [inputs]) */
    size_t *input_index;   /* [n_inputs] their parameter indices */
    char **input_column;   /* [n_inputs] their data columns */
    double *inputs;        /* [n_rows * n_inputs] row-major: each row's input values */
    zvp_fit_start_info *starts; /* [n_starts] */
    zvp_model_file *model_file;
};

/* The engine's outcome before the result is built (src/fit/solver.c -> result.c). */
typedef struct zvp_fit_solution {
    size_t n_starts, best;     /* best start index */
    double cost;               /* its cost */
    double *u;                 /* [p] unbounded variables at the optimum */
    double *cov_u;             /* [p*p] (J_u^T J_u)^-1 at the optimum, NaN if covar failed */
    zvp_fit_start_info *starts; /* [n_starts] (moved into the result) */
} zvp_fit_solution;

/* ---- shared helpers ---- */

/* Fail with sub->status and "<formatted prefix>: <sub->message>". */
int zvp_fit_fail_from(zvp_error *err, const zvp_error *sub, const char *fmt, ...) ZVP_PRINTF(3, 4);

/* The fit's name in messages: its file, or "in-memory fit". */
const char *zvp_fit_name(const zvp_fit *fit);

/* Bounded theta from unbounded u, and back (logistic map onto (lo, hi)). */
static inline double zvp_fit_theta_of_u(double u, double lo, double hi)
{
    return lo + (hi - lo) / (1.0 + exp(-u));
}
static inline double zvp_fit_u_of_theta(double theta, double lo, double hi)
{
    return log((theta - lo) / (hi - theta));
}

/* ---- measurements as stated (measure.c) ---- */

/* The error of model value f at measured cell (i, j): for a point value y, f - y with
 * *ref = |y|; for a bound or interval, 0 inside and the signed distance to the nearest end
 * outside, *ref = |that end| (the nearer finite end when inside). *sigma: the cell's sigma or
 * NaN. NaN when the cell is not measured or f is NaN. */
double zvp_fit_cell_error(const zvp_fit *fit, size_t i, size_t j, double f, double *ref,
                          double *sigma);
/* Weighted residual of cell (i, j) at model value f (see calibration/README.md, "Residuals"):
 * w e / sigma with a sigma, else w e / ref (relative) or w e (absolute). */
double zvp_fit_cell_residual(const zvp_fit *fit, size_t i, size_t j, double f, int absolute);
/* 1 when cell (i, j) at model value f has a relative error: its reference |y| (a point) or
 * |violated end| (a bound or interval; the nearer finite end inside) is at least
 * ZVP_FIT_REL_MIN and, for a cell with a sigma, larger than the sigma (a value within one
 * sigma of 0 is "near zero"); 0 otherwise (not measured, f NaN, near zero). */
int zvp_fit_cell_has_relative(const zvp_fit *fit, size_t i, size_t j, double f);
/* Absolute percentage error 100 |e| / ref of cell (i, j) at f; NaN when the cell has no
 * relative error (zvp_fit_cell_has_relative: not measured, near zero). */
double zvp_fit_cell_ape(const zvp_fit *fit, size_t i, size_t j, double f);
/* Signed percentage error 100 (f - y) / |y| of cell (i, j) against its nominal value y (the
 * text report's and the HDF5 report's residual %); NaN when the cell has no relative error. */
double zvp_fit_cell_pct(const zvp_fit *fit, size_t i, size_t j, double f);
/* 1 when cell (i, j) is a bound or an interval. */
int zvp_fit_cell_is_zone(const zvp_fit *fit, size_t i, size_t j);
/* Copy the cell annotations of rows[0..n) of src to dst (zvp_fit_subset); 0 or ZVP_ENOMEM. */
int zvp_fit_cells_subset(const zvp_fit *src, zvp_fit *dst, const size_t *rows, size_t n);
/* Parse a stated measurement: "< X", "<= X", "> X", ">= X" (zone (-inf, X] or [X, inf)),
 * "A..B" (A < B), "X +- S" or "X +- S%" (also with U+00B1). *y is the nominal value (the
 * bound, the interval's midpoint, X), lo and hi the zone (NaN for a point), sigma the sigma
 * (NaN: none), sigma_rel 1 when it was given in %. 0 on success, -1 when text is none of
 * these. */
int zvp_measure_parse(const char *text, double *y, double *lo, double *hi, double *sigma,
                      int *sigma_rel);
/* The strictness of a stated bound: -1 for "< X", +1 for "> X", 0 for anything else ("<=",
 * ">=", an interval, a number). */
int zvp_measure_strict(const char *text);
/* Half a unit of the last printed digit of a decimal number's text ("5.0" -> 0.05, "963" ->
 * 0.5, "1.5e3" -> 50); NaN when text is not a number. */
double zvp_measure_half_digit(const char *text);
/* Decimals d of a printed number's text, the power of ten of its last digit negated
 * ("5432.05" 2, "963" 0, "5." 0, "1.5e3" -2, "2.50e-1" 3): 0 with *dec set, -1 when text is
 * not a number. */
int zvp_measure_decimals(const char *text, long *dec);
/* Variance of the rounding error of a printed number, uniform on +- 0.5 10^-d:
 * (10^-d)^2 / 12 ("963" 1/12, "1.08" 1e-4/12); NaN when text is not a number. */
double zvp_measure_rounding_variance(const char *text);
/* The measurement variance cell (i, j) states by its text as transcribed (the fit's data
 * cell; 0 when the fit has no text for it, e.g. a fit built in memory): a printed number its
 * rounding variance, "x +- s" its s^2, a bound or interval 0. In the residual's terms: divided
 * by the cell's value squared (relative; 0 for a value 0) or times k^2 (absolute; k converts
 * the column's unit to the output's). The floor of the residual variance (result.c). */
double zvp_fit_cell_floor(const zvp_fit *fit, size_t i, size_t j, int absolute, double k);

/* Evaluation scratch of one run. */
typedef struct zvp_fit_eval {
    const zvp_fit *fit;
    int residual_absolute;
    double *params;   /* [n_params] scratch */
    double *outputs;  /* [n_outputs] scratch */
    double *u;        /* [p] scratch */
    double *r;        /* [n] scratch residuals */
    size_t bad_row;   /* first row without a model result in the last evaluation, or SIZE_MAX */
    zvp_error row_err;
} zvp_fit_eval;

/* Evaluate the model at every row for u[p]: weighted residuals r[n_rows*n_match] (0 where not
 * measured, ZVP_FIT_PENALTY where the model has no finite result) and, if fitted is not NULL,
 * the outputs (NaN where no result). Returns the number of rows without a model result. */
size_t zvp_fit_evaluate(zvp_fit_eval *ev, const double *u, double *r, double *fitted);

/* Multistart least squares (solver.c). sol is filled on success (free with
 * zvp_fit_solution_free). */
int zvp_fit_solve(const zvp_fit *fit, const zvp_fit_parameters *pp, zvp_fit_eval *ev,
                  zvp_fit_solution *sol, zvp_error *err);
void zvp_fit_solution_free(zvp_fit_solution *sol);

/* Build the result from a solution (result.c); takes sol->starts. */
int zvp_fit_result_build(const zvp_fit *fit, const zvp_fit_parameters *pp, zvp_fit_eval *ev,
                         zvp_fit_solution *sol, zvp_fit_result **out, zvp_error *err);

/* Copy of a string that may be NULL; *ok becomes 0 when out of memory (build.c). */
char *zvp_fit_dup_opt(const char *s, int *ok);

/* Residual variance s2[n_match] of each matched output of a result: the mean squared
 * residual (relative or absolute, as fitted, unweighted) scaled by N / dof (N independent
 * cells, dof effective), and never below the mean over the output's measured cells of the
 * variance their text states (zvp_fit_cell_floor: rounding of the printed digits, a stated
 * sigma; 0 for bounds and intervals); NaN when dof = 0 (result.c; validate.c and the model
 * file use it). */
void zvp_fit_residual_variance(const zvp_fit *fit, const zvp_fit_result *res, double *s2);

/* Set the data column of matched output j / input k and the column's unit (fit file); copies.
 * ZVP_ENOMEM on failure. */
int zvp_fit_set_match_column(zvp_fit *fit, size_t j, const char *column, const char *unit);
int zvp_fit_set_input_column(zvp_fit *fit, size_t k, const char *column);

#endif
