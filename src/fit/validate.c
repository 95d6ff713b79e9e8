/*
 * src/fit/validate.c - cross-validation of a fit (zvp_fit_validate): leave-one-out or
 * leave-one-group-out refits in parallel, predictions of the held-out cells with prediction
 * intervals, in-sample and out-of-sample MAPE, coverage. Method in calibration/README.md,
 * "Validation".
 *
 * Prediction interval of a held-out cell y at the fold's estimates theta (p free parameters):
 *   var = g^T C g + s_j^2 f^2 (relative residuals) or + s_j^2 (absolute),
 *   f +- t_{(1+level)/2, dof} sqrt(var),
 * g = d f / d theta by central differences, C the fold's covariance (effective dof), s_j^2 the
 * fold's residual variance of output j: the output's mean squared (relative) residual scaled
 * by N / dof (N independent cells). Source: Seber & Wild, "Nonlinear Regression", Wiley 1989,
 * sec. 5.1 (prediction intervals by linearisation).
 */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "fit/fit_impl.h"
#include "interval/interval_impl.h"

typedef struct vfold {
    int status;            /* ZVP_FOLD_* */
    char *message;         /* "" when ok */
    char *key;             /* row label or group value */
    size_t n_held;
    size_t *held;          /* [n_held] rows held out */
    long dof;              /* effective dof of the refit */
    double *est;           /* [p] when ok */
} vfold;

struct zvp_validation {
    zvp_fit_result *full;
    char *scheme;
    double level;
    size_t n_rows, n_match, p;
    long dof_eff;
    double *cv_mape;       /* [n_match] */
    double cv_all;
    double *pred, *lo, *hi; /* [n_rows * n_match] */
    size_t *row_fold;      /* [n_rows] */
    double *row_mape;      /* [n_rows] */
    char **row_id, **row_file; /* [n_rows] */
    size_t n_folds;
    vfold *folds;
    size_t cells, with_interval, covered;
    int has_worst;
    size_t wi, wj;
    double wape;
};

zvp_validate_options zvp_validate_default_options(void)
{
    zvp_validate_options o;
    memset(&o, 0, sizeof o);
    o.scheme = ZVP_VALIDATE_LOO;
    o.level = 0.9;
    return o;
}

void zvp_validation_free(zvp_validation *v)
{
    if (!v)
        return;
    zvp_fit_result_free(v->full);
    free(v->scheme);
    free(v->cv_mape);
    free(v->pred);
    free(v->lo);
    free(v->hi);
    free(v->row_fold);
    free(v->row_mape);
    for (size_t i = 0; i < v->n_rows; i++) {
        free(v->row_id ? v->row_id[i] : NULL);
        free(v->row_file ? v->row_file[i] : NULL);
    }
    free(v->row_id);
    free(v->row_file);
    for (size_t f = 0; v->folds && f < v->n_folds; f++) {
        free(v->folds[f].message);
        free(v->folds[f].key);
        free(v->folds[f].held);
        free(v->folds[f].est);
    }
    free(v->folds);
    free(v);
}

static int check_options(const zvp_fit *fit, const zvp_validate_options *o, zvp_error *err)
{
    zvp_error e;
    if (o->scheme != ZVP_VALIDATE_LOO && o->scheme != ZVP_VALIDATE_GROUP)
        return zvp_fail(err, ZVP_EINVAL, "%s: validate: scheme = %d is not ZVP_VALIDATE_LOO (0) "
                        "or ZVP_VALIDATE_GROUP (1)", zvp_fit_name(fit), o->scheme);
    if (o->threads < 0 || o->threads > 1024)
        return zvp_fail(err, ZVP_EINVAL, "%s: validate: threads = %d is out of range [0, 1024]",
                        zvp_fit_name(fit), o->threads);
    if (!(o->level > 0.0 && o->level < 1.0))
        return zvp_fail(err, ZVP_EINVAL, "%s: validate: level = %g is out of range (0, 1)",
                        zvp_fit_name(fit), o->level);
    if (o->scheme == ZVP_VALIDATE_GROUP && !o->group_keys && !o->group_column)
        return zvp_fail(err, ZVP_EINVAL, "%s: validate: the group scheme needs group_column or "
                        "group_keys", zvp_fit_name(fit));
    zvp_error_clear(&e);
    if (o->params && zvp_fit_check_parameters(o->params, &e))
        return zvp_fit_fail_from(err, &e, "%s: validate", zvp_fit_name(fit));
    return ZVP_SUCCESS;
}

/* Group key of row i. */
static const char *group_key(const zvp_fit *fit, const zvp_validate_options *o, size_t i)
{
    if (o->scheme == ZVP_VALIDATE_LOO)
        return fit->labels[i];
    return o->group_keys ? o->group_keys[i] : zvp_fit_row_column(fit, i, o->group_column);
}

/* The folds: one per distinct key, in order of first appearance. */
static int make_folds(const zvp_fit *fit, const zvp_validate_options *o, zvp_validation *v,
                      zvp_error *err)
{
    size_t n = fit->n_rows;
    if (!(v->folds = calloc(n, sizeof *v->folds)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    for (size_t i = 0; i < n; i++) {
        const char *k = group_key(fit, o, i);
        size_t f = 0;
        if (!k)
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: validate: group:%s: the fit keeps no data column '%s' for row "
                            "%zu (%s) (a fit built in memory: give group_keys)",
                            zvp_fit_name(fit), o->group_column, o->group_column, i + 1,
                            fit->labels[i]);
        while (f < v->n_folds && (o->scheme == ZVP_VALIDATE_LOO || strcmp(v->folds[f].key, k)))
            f++;
        if (f == v->n_folds) {
            vfold *fd = &v->folds[v->n_folds++];
            if (!(fd->key = zvp_strdup(k)) || !(fd->held = malloc(n * sizeof *fd->held)))
                return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
        }
        v->folds[f].held[v->folds[f].n_held++] = i;
        v->row_fold[i] = f;
    }
    return ZVP_SUCCESS;
}

static int alloc_validation(const zvp_fit *fit, const zvp_validate_options *o,
                            zvp_validation **out, zvp_error *err)
{
    size_t n = fit->n_rows, nm = fit->n_match, cells = n * nm;
    zvp_validation *v = calloc(1, sizeof *v);
    char buf[256];
    *out = v;
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    v->n_rows = n;
    v->n_match = nm;
    v->p = fit->n_free;
    v->level = o->level;
    v->dof_eff = (long)zvp_fit_count_independent(fit) - (long)fit->n_free;
    snprintf(buf, sizeof buf, o->scheme == ZVP_VALIDATE_LOO ? "loo" : "group:%s",
             o->group_keys ? "(keys)" : o->group_column);
    v->scheme = zvp_strdup(buf);
    v->cv_mape = malloc((nm + 1) * sizeof *v->cv_mape);
    v->pred = malloc((cells + 1) * sizeof *v->pred);
    v->lo = malloc((cells + 1) * sizeof *v->lo);
    v->hi = malloc((cells + 1) * sizeof *v->hi);
    v->row_fold = calloc(n + 1, sizeof *v->row_fold);
    v->row_mape = malloc((n + 1) * sizeof *v->row_mape);
    v->row_id = calloc(n + 1, sizeof *v->row_id);
    v->row_file = calloc(n + 1, sizeof *v->row_file);
    if (!v->scheme || !v->cv_mape || !v->pred || !v->lo || !v->hi || !v->row_fold ||
        !v->row_mape || !v->row_id || !v->row_file)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    for (size_t c = 0; c < cells; c++)
        v->pred[c] = v->lo[c] = v->hi[c] = NAN;
    for (size_t i = 0; i < n; i++)
        if (!(v->row_id[i] = zvp_strdup(fit->labels[i])) ||
            !(v->row_file[i] = zvp_strdup(zvp_fit_row_data_file(fit, i))))
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    return ZVP_SUCCESS;
}

/* Matched outputs of row i's vector with the free parameters at theta; 0 or a status. */
static int predict_row(const zvp_fit *fit, size_t i, const double *theta, double *params,
                       double *outputs, double *y)
{
    zvp_error e;
    int st;
    zvp_error_clear(&e);
    if ((st = zvp_fit_row_params(fit, i, NULL, params, &e)))
        return st;
    for (size_t k = 0; k < fit->n_free; k++)
        params[fit->free[k].index] = theta[k];
    if ((st = zvp_model_eval(fit->model, params, outputs, &e)))
        return st;
    for (size_t j = 0; j < fit->n_match; j++) {
        y[j] = outputs[fit->match[j].index];
        if (!isfinite(y[j]))
            return ZVP_EINTERNAL;
    }
    return ZVP_SUCCESS;
}

/* Gradient of row i's matched outputs w.r.t. the free parameters at theta: grad[k * nm + j];
 * central differences, one-sided when a side fails or leaves (lo, hi); NaN when neither side
 * evaluates. */
static void gradient(const zvp_fit *fit, size_t i, const double *theta, const double *y0,
                     double *params, double *outputs, double *up, double *dn, double *grad)
{
    size_t p = fit->n_free, nm = fit->n_match;
    double th[ZVP_FIT_MAX_FREE];
    memcpy(th, theta, p * sizeof *th);
    for (size_t k = 0; k < p; k++) {
        const zvp_fit_free_param *fp = &fit->free[k];
        double h = 1e-6 * fmax(fabs(theta[k]), 1e-3 * (fp->hi - fp->lo));
        int okp, okm;
        th[k] = theta[k] + h;
        okp = th[k] < fp->hi && predict_row(fit, i, th, params, outputs, up) == 0;
        th[k] = theta[k] - h;
        okm = th[k] > fp->lo && predict_row(fit, i, th, params, outputs, dn) == 0;
        th[k] = theta[k];
        for (size_t j = 0; j < nm; j++)
            grad[k * nm + j] = okp && okm ? (up[j] - dn[j]) / (2.0 * h)
                               : okp      ? (up[j] - y0[j]) / h
                               : okm      ? (y0[j] - dn[j]) / h
                                          : NAN;
    }
}

/* Predictions and intervals of fold fd's held-out rows from the fold's result. */
static void predict_fold(const zvp_fit *fit, const zvp_fit *sub, const zvp_fit_result *res,
                         const vfold *fd, double level, zvp_validation *v, double *scratch)
{
    size_t p = fit->n_free, nm = fit->n_match, np = fit->model->n_params;
    double *params = scratch, *outputs = params + np, *y = outputs + fit->model->n_outputs;
    double *grad = y + nm, *s2 = grad + p * nm, *up = s2 + nm, *dn = up + nm;
    const double *cov = res->covariance;
    double t = fd->dof > 0 ? zvp_interval_quantile(level, (double)fd->dof) : NAN;
    zvp_fit_residual_variance(sub, res, s2);
    for (size_t h = 0; h < fd->n_held; h++) {
        size_t i = fd->held[h];
        if (predict_row(fit, i, res->estimates, params, outputs, y))
            continue;
        for (size_t j = 0; j < nm; j++)
            v->pred[i * nm + j] = y[j];
        if (!(fd->dof > 0))
            continue;
        gradient(fit, i, res->estimates, y, params, outputs, up, dn, grad);
        for (size_t j = 0; j < nm; j++) /* at a bound / unidentified: NaN, held fixed */
            zvp_delta_bounds(y[j], grad + j, nm, cov, p,
                             s2[j] * (res->residual_absolute ? 1.0 : y[j] * y[j]), t,
                             &v->lo[i * nm + j], &v->hi[i * nm + j]);
    }
}

/* Refit without fold fd's rows and predict them. */
static void run_fold(const zvp_fit *fit, const zvp_fit_parameters *pp, vfold *fd, double level,
                     zvp_validation *v, size_t *train, double *scratch)
{
    size_t n = 0, p = fit->n_free, indep;
    zvp_fit *sub = NULL;
    zvp_fit_result *res = NULL;
    zvp_error e;
    char msg[ZVP_ERRMSG_MAX + 64];
    zvp_error_clear(&e);
    msg[0] = '\0';
    for (size_t i = 0, h = 0; i < fit->n_rows; i++) {
        if (h < fd->n_held && fd->held[h] == i)
            h++;
        else
            train[n++] = i;
    }
    fd->status = ZVP_FOLD_OK;
    if (n == 0) {
        fd->status = ZVP_FOLD_TOO_FEW;
        snprintf(msg, sizeof msg, "no row left to fit (one fold holds every row)");
    } else if (zvp_fit_subset(fit, train, n, &sub, &e)) {
        fd->status = ZVP_FOLD_FAILED;
        snprintf(msg, sizeof msg, "%s", e.message);
    } else {
        indep = zvp_fit_count_independent(sub);
        fd->dof = (long)indep - (long)p;
        if (indep < p || sub->n_measured < p) {
            fd->status = ZVP_FOLD_TOO_FEW;
            snprintf(msg, sizeof msg, "%zu independent cells left for %zu free parameters", indep,
                     p);
        } else if (zvp_fit_run_with(sub, pp, &res, &e)) {
            fd->status = ZVP_FOLD_FAILED;
            snprintf(msg, sizeof msg, "%s: %s", zvp_strerror(e.status), e.message);
        } else if ((fd->est = malloc(p * sizeof *fd->est)) != NULL) {
            memcpy(fd->est, res->estimates, p * sizeof *fd->est);
            predict_fold(fit, sub, res, fd, level, v, scratch);
        }
    }
    if (fd->status == ZVP_FOLD_OK && !fd->est) {
        fd->status = ZVP_FOLD_FAILED;
        snprintf(msg, sizeof msg, "out of memory");
    }
    fd->message = zvp_strdup(msg);
    zvp_fit_result_free(res);
    zvp_fit_free(sub);
}

/* A single fold holds every row and leaves nothing to refit: a bad scheme for this fit
 * (EINVAL naming the scheme, the column and its one value), found before any refit runs. */
static int check_one_fold(const zvp_fit *fit, const zvp_validate_options *o,
                          const zvp_validation *v, zvp_error *err)
{
    if (v->n_folds != 1)
        return ZVP_SUCCESS;
    if (o->scheme == ZVP_VALIDATE_LOO)
        return zvp_fail(err, ZVP_EINVAL, "%s: validate: scheme loo: the fit has 1 row: holding "
                        "it out leaves no row to fit (cross-validation needs at least 2 rows)",
                        zvp_fit_name(fit));
    return zvp_fail(err, ZVP_EINVAL, "%s: validate: scheme %s: %s has one value ('%s') in all "
                    "%zu rows, so one fold holds every row and leaves no row to fit (group by a "
                    "column with at least 2 values, or use --scheme loo)", zvp_fit_name(fit),
                    v->scheme, o->group_keys ? "group_keys" : o->group_column, v->folds[0].key,
                    fit->n_rows);
}

/* No fold could be refitted (every one too small or failed): the validation has no
 * held-out prediction, so it is refused (EINVAL naming the scheme and the first fold's
 * reason) instead of reporting a NaN cross-validated error. */
static int check_usable_fold(const zvp_fit *fit, const zvp_validation *v, zvp_error *err)
{
    size_t too_few = 0;
    for (size_t f = 0; f < v->n_folds; f++) {
        if (v->folds[f].status == ZVP_FOLD_OK)
            return ZVP_SUCCESS;
        too_few += v->folds[f].status == ZVP_FOLD_TOO_FEW;
    }
    return zvp_fail(err, ZVP_EINVAL, "%s: validate: scheme %s: no fold could be refitted: "
                    "%s of the %zu folds %s (fold '%s': %s)", zvp_fit_name(fit), v->scheme,
                    too_few == v->n_folds ? "each" : "every one", v->n_folds,
                    too_few == v->n_folds ? "leaves too few cells to fit"
                                          : "is too small or its refit failed",
                    v->folds[0].key, v->folds[0].message);
}

/* CV MAPE per output and overall, per row, the worst cell, coverage. */
static void summarise(const zvp_fit *fit, zvp_validation *v)
{
    size_t nm = v->n_match, all_n = 0;
    double all = 0.0;
    for (size_t j = 0; j < nm; j++) {
        double s = 0.0;
        size_t n = 0;
        for (size_t i = 0; i < v->n_rows; i++) {
            double y = fit->measured[i * nm + j], f = v->pred[i * nm + j], ape;
            if (isnan(y))
                continue;
            v->cells++;
            if (!isnan(v->lo[i * nm + j])) {
                double zlo, zhi;
                zvp_fit_cell(fit, i, j, &zlo, &zhi, NULL);
                if (isnan(zlo))
                    zlo = zhi = y;
                v->with_interval++; /* a bound or interval: covered when they overlap */
                v->covered += zhi >= v->lo[i * nm + j] && zlo <= v->hi[i * nm + j];
            }
            ape = zvp_fit_cell_ape(fit, i, j, f); /* bounds: 0 inside (measure.c) */
            if (isnan(ape))
                continue;
            s += ape;
            n++;
            if (!v->has_worst || ape > v->wape) {
                v->has_worst = 1;
                v->wi = i;
                v->wj = j;
                v->wape = ape;
            }
        }
        v->cv_mape[j] = n ? s / (double)n : NAN;
        all += s;
        all_n += n;
    }
    v->cv_all = all_n ? all / (double)all_n : NAN;
    for (size_t i = 0; i < v->n_rows; i++) {
        double s = 0.0;
        size_t n = 0;
        for (size_t j = 0; j < nm; j++) {
            double y = fit->measured[i * nm + j], f = v->pred[i * nm + j];
            double ape = isnan(y) ? NAN : zvp_fit_cell_ape(fit, i, j, f);
            if (!isnan(ape)) {
                s += ape;
                n++;
            }
        }
        v->row_mape[i] = n ? s / (double)n : NAN;
    }
}

int zvp_fit_validate(const zvp_fit *fit, const zvp_validate_options *opt, zvp_validation **out,
                     zvp_error *err)
{
    zvp_validate_options o = opt ? *opt : zvp_validate_default_options();
    zvp_fit_parameters pp;
    zvp_validation *v = NULL;
    zvp_error full_err;
    int st, full_st = ZVP_SUCCESS, nomem = 0, nthreads;
    size_t nf, scratch_len;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_validate: out is NULL");
    *out = NULL;
    if (!fit)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_validate: fit is NULL");
    if ((st = check_options(fit, &o, err)))
        return st;
    pp = o.params ? *o.params : fit->params;
    if ((st = alloc_validation(fit, &o, &v, err)) || (st = make_folds(fit, &o, v, err))) {
        zvp_validation_free(v);
        return st;
    }
    if ((st = check_one_fold(fit, &o, v, err))) {
        zvp_validation_free(v);
        return st;
    }
    nf = v->n_folds;
    scratch_len = fit->model->n_params + fit->model->n_outputs + fit->n_match * (fit->n_free + 4);
    zvp_error_clear(&full_err);
    /* task 0: the full fit; task f + 1: fold f. Each task owns its scratch and writes only
     * its fold and its held-out cells, so the results do not depend on the schedule. */
    nthreads = o.threads > 0 ? o.threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
    for (size_t task = 0; task <= nf; task++) {
        if (task == 0) {
            full_st = zvp_fit_run_with(fit, &pp, &v->full, &full_err);
            continue;
        }
        size_t *train = malloc((fit->n_rows + 1) * sizeof *train);
        double *scratch = malloc((scratch_len + 1) * sizeof *scratch);
        if (train && scratch)
            run_fold(fit, &pp, &v->folds[task - 1], o.level, v, train, scratch);
        else {
#pragma omp atomic write
            nomem = 1;
        }
        free(train);
        free(scratch);
    }
    for (size_t f = 0; f < nf; f++)
        nomem |= v->folds[f].message == NULL;
    if (full_st || nomem) {
        st = full_st ? zvp_fit_fail_from(err, &full_err, "%s: validate: the full fit",
                                         zvp_fit_name(fit))
                     : zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
        zvp_validation_free(v);
        return st;
    }
    if ((st = check_usable_fold(fit, v, err))) {
        zvp_validation_free(v);
        return st;
    }
    summarise(fit, v);
    *out = v;
    return ZVP_SUCCESS;
}

/* ---- accessors ---- */

const zvp_fit_result *zvp_validation_full(const zvp_validation *v) { return v ? v->full : NULL; }
const char *zvp_validation_scheme(const zvp_validation *v) { return v ? v->scheme : NULL; }
double zvp_validation_level(const zvp_validation *v) { return v ? v->level : NAN; }
size_t zvp_validation_n_rows(const zvp_validation *v) { return v ? v->n_rows : 0; }
size_t zvp_validation_n_matched(const zvp_validation *v) { return v ? v->n_match : 0; }

double zvp_validation_in_sample_mape(const zvp_validation *v, size_t j)
{
    return v && j < v->n_match ? zvp_fit_result_mape(v->full, j) : NAN;
}

double zvp_validation_in_sample_mape_all(const zvp_validation *v)
{
    return v ? zvp_fit_result_mape_all(v->full) : NAN;
}

double zvp_validation_cv_mape(const zvp_validation *v, size_t j)
{
    return v && j < v->n_match ? v->cv_mape[j] : NAN;
}

double zvp_validation_cv_mape_all(const zvp_validation *v) { return v ? v->cv_all : NAN; }
long zvp_validation_dof_effective(const zvp_validation *v) { return v ? v->dof_eff : 0; }

double zvp_validation_coverage_pct(const zvp_validation *v)
{
    /* no held-out cell has an interval: coverage is undefined (NaN), not 0 % */
    return v && v->cells && v->with_interval ? 100.0 * (double)v->covered / (double)v->cells
                                             : NAN;
}

void zvp_validation_coverage_counts(const zvp_validation *v, size_t *cells, size_t *with_interval,
                                    size_t *covered)
{
    if (cells)
        *cells = v ? v->cells : 0;
    if (with_interval)
        *with_interval = v ? v->with_interval : 0;
    if (covered)
        *covered = v ? v->covered : 0;
}

int zvp_validation_worst(const zvp_validation *v, size_t *row, size_t *j, double *ape_pct)
{
    if (!v || !v->has_worst)
        return -1;
    if (row)
        *row = v->wi;
    if (j)
        *j = v->wj;
    if (ape_pct)
        *ape_pct = v->wape;
    return 0;
}

const double *zvp_validation_predicted(const zvp_validation *v) { return v ? v->pred : NULL; }
const double *zvp_validation_lo(const zvp_validation *v) { return v ? v->lo : NULL; }
const double *zvp_validation_hi(const zvp_validation *v) { return v ? v->hi : NULL; }

const char *zvp_validation_row_id(const zvp_validation *v, size_t i)
{
    return v && i < v->n_rows ? v->row_id[i] : NULL;
}

const char *zvp_validation_row_data_file(const zvp_validation *v, size_t i)
{
    return v && i < v->n_rows ? v->row_file[i] : NULL;
}

size_t zvp_validation_row_fold(const zvp_validation *v, size_t i)
{
    return v && i < v->n_rows ? v->row_fold[i] : (size_t)-1;
}

double zvp_validation_row_cv_mape(const zvp_validation *v, size_t i)
{
    return v && i < v->n_rows ? v->row_mape[i] : NAN;
}

size_t zvp_validation_n_folds(const zvp_validation *v) { return v ? v->n_folds : 0; }

int zvp_validation_fold_status(const zvp_validation *v, size_t f)
{
    return v && f < v->n_folds ? v->folds[f].status : -1;
}

const char *zvp_validation_fold_message(const zvp_validation *v, size_t f)
{
    return v && f < v->n_folds ? v->folds[f].message : NULL;
}

const char *zvp_validation_fold_key(const zvp_validation *v, size_t f)
{
    return v && f < v->n_folds ? v->folds[f].key : NULL;
}

size_t zvp_validation_fold_n_held(const zvp_validation *v, size_t f)
{
    return v && f < v->n_folds ? v->folds[f].n_held : 0;
}

long zvp_validation_fold_dof(const zvp_validation *v, size_t f)
{
    return v && f < v->n_folds ? v->folds[f].dof : 0;
}

const double *zvp_validation_fold_estimates(const zvp_validation *v, size_t f)
{
    return v && f < v->n_folds ? v->folds[f].est : NULL;
}
