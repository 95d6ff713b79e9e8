/* src/fit_impl.h - private layout of zvp_fit and zvp_fit_result (src/fit.c, src/fit_report.c). */
#ifndef ZVMPERF_FIT_IMPL_H
#define ZVMPERF_FIT_IMPL_H

#include <stddef.h>
#include "zvmperf/calibrate.h"

/* Large finite residual given to GSL for a matched cell at a row where the model has no
 * result (EUNSTABLE, EINVAL, non-finite output): the trust region then backs off. */
#define ZVP_FIT_PENALTY 1e3

/* GSL driver settings (zvp_fit_run). */
#define ZVP_FIT_MAXITER 200
#define ZVP_FIT_XTOL 1e-10
#define ZVP_FIT_GTOL 1e-10
#define ZVP_FIT_FTOL 1e-12

/* Half-width of the box, in the unbounded variable u, around the first start's u from which
 * the other starts are drawn (u = logit((theta - lo) / (hi - lo))). */
#define ZVP_FIT_START_BOX 3.0

/* An estimate within ZVP_FIT_BOUND_REL (hi - lo) of a bound is "at the bound": its standard
 * error and covariance entries are NaN (the delta method would give 0). */
#define ZVP_FIT_BOUND_REL 1e-6
int zvp_fit_at_bound(double theta, double lo, double hi);
enum { ZVP_FIT_AT_BOUND = 1, ZVP_FIT_UNIDENTIFIED = 2 };

typedef struct zvp_fit_free_param {
    size_t index;          /* parameter index in the model descriptor */
    double start, lo, hi;  /* lo < start < hi, model units */
} zvp_fit_free_param;

typedef struct zvp_fit_input {
    size_t index;          /* parameter index */
    char *column;          /* column name */
    int table;             /* 0 = data, 1 = join */
    size_t col;            /* column index in that table */
} zvp_fit_input;

/* One condition of [fit] where = <column> = <value>[; ...]. */
typedef struct zvp_fit_where {
    char *column, *value;  /* trimmed */
    int table;             /* 0 = data, 1 = join */
    size_t col;
    int numeric;           /* 1: the column is numeric (compare number), 0: text (compare string) */
    double number;         /* value as a number when numeric */
} zvp_fit_where;

typedef struct zvp_fit_match {
    size_t index;          /* output index in the model descriptor */
    char *column;
    int table;             /* 0 = data, 1 = join */
    size_t col;
    double weight;         /* > 0 */
} zvp_fit_match;

struct zvp_fit {
    char *path;            /* fit file as given */
    const zvp_model *model;
    /* data_path: the resolved data files joined with ", " (messages, provenance); the others
     * resolved, NULL if absent */
    char *data_path, *join_path, *join_key, *base_path, *output_path;
    size_t n_data;         /* data files (concatenated; identical headers) */
    char **data_paths;     /* [n_data] resolved */
    zvp_table **data;      /* [n_data]; columns are looked up in data[0] */
    zvp_table *join;
    char *where;           /* [fit] where as given, NULL if absent */
    size_t n_where;
    zvp_fit_where *wheres; /* [n_where] */
    size_t starts;
    int residual_absolute; /* 0: relative (default), 1: absolute */

    size_t n_fixed;
    size_t *fixed_index;
    double *fixed_value;
    size_t n_inputs;
    zvp_fit_input *inputs;
    size_t n_free;
    zvp_fit_free_param *free;
    size_t n_match;
    zvp_fit_match *match;

    /* assembled rows (after the join and the where filter) */
    size_t n_rows;
    double *base_params;   /* [n_params]: defaults, base file, [fixed] */
    double *row_params;    /* [n_rows * n_params]: base_params plus [inputs] (free at start) */
    double *measured;      /* [n_rows * n_match], NaN where not measured */
    char **labels;         /* [n_rows] */
    size_t n_measured;     /* number of measured (non-NaN) cells */
};

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
    char *fit_path, *data_path, *join_path, *join_key, *base_path;
    char *where;           /* [fit] where, NULL if absent */
    int residual_absolute;
    size_t p, n_rows, n_match, n_measured, n_starts, best_start;
    size_t *param_index;   /* [p] */
    size_t *output_index;  /* [n_match] */
    double *lo, *hi, *start; /* [p] */
    int *flags;            /* [p] ZVP_FIT_AT_BOUND, ZVP_FIT_UNIDENTIFIED or 0 */
    double *estimates, *stderrs; /* [p] */
    double *covariance;    /* [p*p] */
    double *measured, *fitted, *residual; /* [n_rows*n_match]; residual = fitted - measured */
    double *r2, *rmse, *mape; /* [n_match] */
    size_t *cells;         /* [n_match] measured cells per output */
    double mape_all, cost;
    size_t dof;
    char **labels;         /* [n_rows] */
    zvp_fit_start_info *starts; /* [n_starts] */
    zvp_model_file *model_file;
};

#endif
