/*
 * src/fit/result.c - the result of a fit: estimates and standard errors, goodness of fit,
 * the calibrated model file with its provenance, accessors.
 *
 * Standard errors: C_u = s^2 (J_u^T J_u)^-1 with s^2 = cost / (n - p) (Bates & Watts 1988,
 * sec. 2.3; GSL manual, "Nonlinear Least-Squares Fitting", covariance of best-fit
 * parameters), mapped to theta by the delta method with
 * d theta_k / d u_k = (theta_k - lo_k)(hi_k - theta_k) / (hi_k - lo_k).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/fit_impl.h"
#include "h5util.h"

static void result_free_arrays(zvp_fit_result *r)
{
    free(r->fit_path);
    free(r->data_path);
    free(r->join_path);
    free(r->join_key);
    free(r->base_path);
    free(r->where);
    free(r->param_index);
    free(r->output_index);
    free(r->lo);
    free(r->hi);
    free(r->start);
    free(r->flags);
    free(r->estimates);
    free(r->stderrs);
    free(r->covariance);
    free(r->cov_u);
    free(r->measured);
    free(r->fitted);
    free(r->residual);
    free(r->r2);
    free(r->rmse);
    free(r->mape);
    free(r->pct);
    free(r->no_rel);
    free(r->cells);
    if (r->labels)
        for (size_t i = 0; i < r->n_rows; i++)
            free(r->labels[i]);
    free(r->labels);
    if (r->input_column)
        for (size_t k = 0; k < r->n_inputs; k++)
            free(r->input_column[k]);
    free(r->input_column);
    free(r->input_index);
    free(r->inputs);
    free(r->starts);
}

void zvp_fit_result_free(zvp_fit_result *res)
{
    if (!res)
        return;
    result_free_arrays(res);
    zvp_model_file_free(res->model_file);
    free(res);
}

/* R^2, RMSE, MAPE per output and overall. */
static void result_stats(const zvp_fit *fit, zvp_fit_result *r)
{
    size_t nm = r->n_match, all_n = 0;
    double all_ape = 0.0;
    for (size_t j = 0; j < nm; j++) {
        double mean = 0.0, ss_res = 0.0, ss_tot = 0.0, ape = 0.0;
        size_t n = 0, n_ape = 0;
        for (size_t i = 0; i < r->n_rows; i++) {
            double y = r->measured[i * nm + j];
            if (!isnan(y)) {
                mean += y;
                n++;
            }
        }
        r->cells[j] = n;
        if (n == 0) {
            r->r2[j] = r->rmse[j] = r->mape[j] = NAN;
            continue;
        }
        mean /= (double)n;
        for (size_t i = 0; i < r->n_rows; i++) {
            double y = r->measured[i * nm + j], f = r->fitted[i * nm + j];
            if (isnan(y))
                continue;
            ss_res += (f - y) * (f - y);
            ss_tot += (y - mean) * (y - mean);
            r->pct[i * nm + j] = zvp_fit_cell_pct(fit, i, j, f);
            if (!isnan(zvp_fit_cell_ape(fit, i, j, f))) { /* bounds: 0 inside (measure.c) */
                ape += 0.01 * zvp_fit_cell_ape(fit, i, j, f);
                n_ape++;
            } else if (!isnan(f)) {
                r->no_rel[j]++; /* near zero: its error is in the RMSE only */
            }
        }
        r->r2[j] = ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : NAN;
        r->rmse[j] = sqrt(ss_res / (double)n);
        r->mape[j] = n_ape ? 100.0 * ape / (double)n_ape : NAN;
        all_ape += ape;
        all_n += n_ape;
    }
    r->mape_all = all_n ? 100.0 * all_ape / (double)all_n : NAN;
}

/* "a from column x; b from column y" into val (truncated to size). */
static void inputs_text(const zvp_fit *fit, char *val, size_t size)
{
    size_t used = 0;
    val[0] = '\0';
    for (size_t k = 0; k < fit->n_inputs && used < size; k++) {
        int w = snprintf(val + used, size - used, "%s%s from column %s", k ? "; " : "",
                         fit->model->params[fit->inputs[k].index].name, fit->inputs[k].column);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* Provenance of the calibrated model file. */
static int result_provenance(const zvp_fit *fit, zvp_fit_result *r, zvp_error *err)
{
    const zvp_model *m = fit->model;
    char key[160], val[1024];
    zvp_error e;
    int st = ZVP_SUCCESS;
    zvp_error_clear(&e);
#define PROV(k, v)                                                                             \
    do {                                                                                       \
        if (!st && (st = zvp_model_file_set_provenance(r->model_file, (k), (v), &e)))           \
            return zvp_fit_fail_from(err, &e, "%s: provenance %s", zvp_fit_name(fit), (k));    \
    } while (0)

    if (fit->path)
        PROV("fit_file", fit->path);
    if (fit->data_path)
        PROV("data_file", fit->data_path);
    if (fit->join_path) {
        PROV("join_file", fit->join_path);
        PROV("join_key", fit->join_key);
    }
    if (fit->where)
        PROV("where", fit->where);
    if (fit->base_path)
        PROV("base_file", fit->base_path);
    if (zvp_h5_iso8601_now(val, sizeof val, NULL) == ZVP_SUCCESS)
        PROV("fitted_at", val);
    PROV("zvmperf_version", zvp_version());
    snprintf(val, sizeof val, "%zu", r->n_rows);
    PROV("rows", val);
    snprintf(val, sizeof val, "%zu", r->n_measured);
    PROV("measured_cells", val);
    if (r->n_independent != r->n_measured) {
        snprintf(val, sizeof val, "%zu", r->n_independent);
        PROV("independent_cells", val);
    }
    snprintf(val, sizeof val, "%zu", r->dof_eff);
    PROV("dof_effective", val);
    if (r->saturated)
        PROV("stderr_note", "saturated: standard errors undefined");
    snprintf(val, sizeof val, "%.6g", r->mape_all);
    PROV("mape_pct", val);
    for (size_t j = 0; j < r->n_match; j++) {
        snprintf(key, sizeof key, "r2_%s", m->outputs[r->output_index[j]].name);
        snprintf(val, sizeof val, "%.6g", r->r2[j]);
        PROV(key, val);
    }
    snprintf(val, sizeof val, "%.6g", r->cost);
    PROV("cost", val);
    snprintf(val, sizeof val, "GSL multifit_nlinear trust region (Levenberg-Marquardt), %s "
             "residuals, %zu start(s); best start %zu: %zu iterations, %s",
             r->residual_absolute ? "absolute" : "relative", r->n_starts, r->best_start + 1,
             r->starts[r->best_start].iterations, zvp_fit_start_outcome(&r->starts[r->best_start]));
    PROV("method", val);
    if (fit->n_inputs) {
        inputs_text(fit, val, sizeof val);
        PROV("inputs", val);
        PROV("inputs_note", "per-row parameters: the values in [parameters] are not fitted");
    }
#undef PROV
    return st;
}

/* Residual variance per matched output (see fit_impl.h). */
void zvp_fit_residual_variance(const zvp_fit *fit, const zvp_fit_result *res, double *s2)
{
    size_t nm = res->n_match;
    double scale = res->dof_eff > 0 ? (double)res->n_independent / (double)res->dof_eff : NAN;
    for (size_t j = 0; j < nm; j++) {
        const zvp_fit_match *mt = &fit->match[j];
        const char *ounit = fit->model->outputs[mt->index].unit;
        double ss = 0.0, fl = 0.0, mul = 1.0, div = 1.0;
        size_t n = 0;
        zvp_error e0;
        /* the column's unit to the output's (absolute floors); NaN: no floor */
        if (zvp_unit_ratio(mt->unit ? mt->unit : "", ounit ? ounit : "", &mul, &div, &e0))
            mul = NAN;
        for (size_t i = 0; i < res->n_rows; i++) {
            double y = res->measured[i * nm + j], f = res->fitted[i * nm + j], e, ref, sg;
            if (isnan(y))
                continue;
            /* a bound or interval cell counts its distance outside (measure.c) */
            e = zvp_fit_cell_error(fit, i, j, f, &ref, &sg);
            e = res->residual_absolute || e == 0.0 ? e : e / ref;
            ss += e * e;
            fl += zvp_fit_cell_floor(fit, i, j, res->residual_absolute, mul / div);
            n++;
        }
        /* the printed precision of the cells is a lower bound of the scatter (measure.c) */
        s2[j] = n ? fmax(ss / (double)n * scale, fl / (double)n) : NAN;
        if (isnan(scale))
            s2[j] = NAN;
    }
}

/* [transform] of every free parameter, [covariance] of those with one (not at a bound, not
 * unidentified; none when saturated), [residual_variance] of the matched outputs. */
static int result_uncertainty(const zvp_fit *fit, zvp_fit_result *r, zvp_error *err)
{
    size_t p = r->p, n = 0, idx[ZVP_FIT_MAX_FREE], pos[ZVP_FIT_MAX_FREE];
    double *c = malloc((p * p + 1) * sizeof *c);
    double *rv = malloc((r->n_match + 1) * sizeof *rv);
    zvp_error e;
    int st = ZVP_SUCCESS;
    zvp_error_clear(&e);
    if (!c || !rv) {
        free(c);
        free(rv);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    }
    for (size_t k = 0; k < p && !st; k++) {
        st = zvp_model_file_set_transform(r->model_file, r->param_index[k], r->lo[k], r->hi[k], &e);
        if (!isnan(r->cov_u[k * p + k]) && r->cov_u[k * p + k] > 0.0) {
            pos[n] = k;
            idx[n++] = r->param_index[k];
        }
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            c[a * n + b] = r->cov_u[pos[a] * p + pos[b]];
    if (!st && !r->saturated)
        st = zvp_model_file_set_covariance(r->model_file, n, idx, c, &e);
    zvp_fit_residual_variance(fit, r, rv);
    for (size_t j = 0; j < r->n_match && !st; j++)
        if (isfinite(rv[j]))
            st = zvp_model_file_set_residual_variance(r->model_file, r->output_index[j], rv[j],
                                                      r->residual_absolute ? ZVP_RESVAR_ABSOLUTE
                                                                           : ZVP_RESVAR_RELATIVE,
                                                      &e);
    free(c);
    free(rv);
    return st ? zvp_fit_fail_from(err, &e, "%s: the model file's covariance", zvp_fit_name(fit))
              : ZVP_SUCCESS;
}

/* The calibrated model file: base vector, fixed and fitted values,
 * standard errors, provenance. */
static int result_model_file(const zvp_fit *fit, zvp_fit_result *r, zvp_error *err)
{
    const zvp_model *m = fit->model;
    zvp_error e;
    int st = ZVP_SUCCESS;
    zvp_error_clear(&e);
    r->model_file = zvp_model_file_new(m);
    if (!r->model_file)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    /* the base vector (model defaults, or a fit file's base file, or the caller's), with the
     * fixed values */
    memcpy(zvp_model_file_params(r->model_file), fit->base_params, m->n_params * sizeof(double));
    for (size_t k = 0; k < fit->n_fixed && !st; k++)
        st = zvp_model_file_set(r->model_file, m->params[fit->fixed_index[k]].name,
                                fit->fixed_value[k], &e);
    for (size_t k = 0; k < r->p && !st; k++) {
        st = zvp_model_file_set(r->model_file, m->params[r->param_index[k]].name,
                                r->estimates[k], &e);
        if (!st && isfinite(r->stderrs[k]))
            zvp_model_file_set_stderr(r->model_file, r->param_index[k], r->stderrs[k]);
    }
    if (st)
        return zvp_fit_fail_from(err, &e, "%s: writing the calibrated parameters",
                                 zvp_fit_name(fit));
    if ((st = result_uncertainty(fit, r, err)))
        return st;
    return result_provenance(fit, r, err);
}

/* Copy the fit's per-row inputs (index, column, each row's value); 0 when out of memory. */
static int result_alloc_inputs(const zvp_fit *fit, zvp_fit_result *r)
{
    size_t ni = fit->n_inputs, np = fit->model->n_params;
    r->n_inputs = ni;
    r->input_index = malloc((ni + 1) * sizeof *r->input_index);
    r->input_column = calloc(ni + 1, sizeof *r->input_column);
    r->inputs = malloc((r->n_rows * ni + 1) * sizeof *r->inputs);
    if (!r->input_index || !r->input_column || !r->inputs)
        return 0;
    for (size_t k = 0; k < ni; k++) {
        r->input_index[k] = fit->inputs[k].index;
        if (!(r->input_column[k] = zvp_strdup(fit->inputs[k].column)))
            return 0;
        for (size_t i = 0; i < r->n_rows; i++)
            r->inputs[i * ni + k] = fit->row_params[i * np + fit->inputs[k].index];
    }
    return 1;
}

/* Allocate r's arrays and copy the fit's provenance and labels; 0 when out of memory. */
static int result_alloc(const zvp_fit *fit, zvp_fit_result *r)
{
    size_t p = r->p, nm = r->n_match, n = r->n_rows * nm;
    int ok = 1;
    r->fit_path = zvp_fit_dup_opt(fit->path, &ok);
    r->data_path = zvp_fit_dup_opt(fit->data_path, &ok);
    r->join_path = zvp_fit_dup_opt(fit->join_path, &ok);
    r->join_key = zvp_fit_dup_opt(fit->join_key, &ok);
    r->base_path = zvp_fit_dup_opt(fit->base_path, &ok);
    r->where = zvp_fit_dup_opt(fit->where, &ok);
    r->param_index = malloc(p * sizeof *r->param_index);
    r->output_index = malloc(nm * sizeof *r->output_index);
    r->lo = malloc(p * sizeof(double));
    r->hi = malloc(p * sizeof(double));
    r->start = malloc(p * sizeof(double));
    r->flags = calloc(p, sizeof(int));
    r->estimates = malloc(p * sizeof(double));
    r->stderrs = malloc(p * sizeof(double));
    r->covariance = malloc(p * p * sizeof(double));
    r->cov_u = malloc((p * p + 1) * sizeof(double));
    r->measured = malloc(n * sizeof(double));
    r->fitted = malloc(n * sizeof(double));
    r->residual = malloc(n * sizeof(double));
    r->r2 = malloc(nm * sizeof(double));
    r->rmse = malloc(nm * sizeof(double));
    r->mape = malloc(nm * sizeof(double));
    r->pct = malloc((n + 1) * sizeof(double));
    r->no_rel = calloc(nm + 1, sizeof(size_t));
    r->cells = malloc(nm * sizeof(size_t));
    r->labels = calloc(r->n_rows, sizeof(char *));
    if (!ok || !r->param_index || !r->output_index || !r->lo || !r->hi || !r->start ||
        !r->flags || !r->estimates || !r->stderrs || !r->covariance || !r->cov_u || !r->measured ||
        !r->fitted || !r->residual || !r->r2 || !r->rmse || !r->mape || !r->pct || !r->no_rel ||
        !r->cells || !r->labels)
        return 0;
    for (size_t k = 0; k < n; k++)
        r->pct[k] = NAN;
    for (size_t i = 0; i < r->n_rows; i++)
        if (!(r->labels[i] = zvp_strdup(fit->labels[i])))
            return 0;
    return result_alloc_inputs(fit, r);
}

/* Estimates, covariance (s^2 d_a d_b cov_u[a][b]) and standard errors; NaN at a bound and
 * for an unidentified parameter (GSL's covar sets a dropped column's variance to 0). */
static void result_estimates(const zvp_fit *fit, const zvp_fit_solution *sol, zvp_fit_result *r)
{
    size_t p = r->p;
    double s2 = r->dof_eff > 0 ? sol->cost / (double)r->dof_eff : NAN;
    double d[ZVP_FIT_MAX_FREE];
    for (size_t k = 0; k < p; k++) {
        const zvp_fit_free_param *fp = &fit->free[k];
        double th = zvp_fit_theta_of_u(sol->u[k], fp->lo, fp->hi);
        r->param_index[k] = fp->index;
        r->lo[k] = fp->lo;
        r->hi[k] = fp->hi;
        r->start[k] = fp->start;
        r->estimates[k] = th;
        d[k] = (th - fp->lo) * (fp->hi - th) / (fp->hi - fp->lo);
    }
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b < p; b++) {
            /* symmetrised, so the model file's [covariance] is exactly symmetric */
            double c = 0.5 * (sol->cov_u[a * p + b] + sol->cov_u[b * p + a]);
            r->cov_u[a * p + b] = s2 * c;
            r->covariance[a * p + b] = s2 * d[a] * d[b] * c;
        }
    for (size_t k = 0; k < p; k++) {
        if (zvp_fit_at_bound(r->estimates[k], r->lo[k], r->hi[k]))
            r->flags[k] = ZVP_FIT_AT_BOUND;
        else if (!(sol->cov_u[k * p + k] > 0.0))
            r->flags[k] = ZVP_FIT_UNIDENTIFIED;
        if (r->flags[k])
            for (size_t b = 0; b < p; b++)
                r->covariance[k * p + b] = r->covariance[b * p + k] = r->cov_u[k * p + b] =
                    r->cov_u[b * p + k] = NAN;
    }
    for (size_t k = 0; k < p; k++)
        r->stderrs[k] = sqrt(r->covariance[k * p + k]);
}

int zvp_fit_result_build(const zvp_fit *fit, const zvp_fit_parameters *pp, zvp_fit_eval *ev,
                         zvp_fit_solution *sol, zvp_fit_result **out, zvp_error *err)
{
    size_t nm = fit->n_match, n = fit->n_rows * nm;
    int st;
    zvp_fit_result *r = calloc(1, sizeof *r);
    if (!r)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    r->model = fit->model;
    r->residual_absolute = pp->residual == ZVP_FIT_ABSOLUTE;
    r->p = fit->n_free;
    r->n_rows = fit->n_rows;
    r->n_match = nm;
    r->n_measured = fit->n_measured;
    r->n_starts = sol->n_starts;
    r->starts = sol->starts; /* taken */
    sol->starts = NULL;
    r->best_start = sol->best;
    r->cost = sol->cost;
    r->n_independent = zvp_fit_count_independent(fit);
    r->saturated = r->n_independent <= fit->n_free;
    r->dof = fit->n_measured - fit->n_free;
    r->dof_eff = r->saturated ? 0 : r->n_independent - fit->n_free;
    if (!result_alloc(fit, r)) {
        zvp_fit_result_free(r);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    }
    result_estimates(fit, sol, r);
    for (size_t j = 0; j < nm; j++)
        r->output_index[j] = fit->match[j].index;
    zvp_fit_evaluate(ev, sol->u, ev->r, r->fitted);
    for (size_t i = 0; i < n; i++) {
        r->measured[i] = fit->measured[i];
        r->residual[i] = isnan(r->measured[i]) ? NAN : r->fitted[i] - r->measured[i];
    }
    result_stats(fit, r);
    if ((st = result_model_file(fit, r, err))) {
        zvp_fit_result_free(r);
        return st;
    }
    *out = r;
    return ZVP_SUCCESS;
}

/* ---- accessors ---- */

size_t zvp_fit_result_n_free(const zvp_fit_result *res) { return res ? res->p : 0; }

const char *zvp_fit_result_param_name(const zvp_fit_result *res, size_t i)
{
    return res && i < res->p ? res->model->params[res->param_index[i]].name : NULL;
}

const double *zvp_fit_result_estimates(const zvp_fit_result *res) { return res ? res->estimates : NULL; }
const double *zvp_fit_result_stderrs(const zvp_fit_result *res) { return res ? res->stderrs : NULL; }
const double *zvp_fit_result_covariance(const zvp_fit_result *res) { return res ? res->covariance : NULL; }
size_t zvp_fit_result_n_rows(const zvp_fit_result *res) { return res ? res->n_rows : 0; }
size_t zvp_fit_result_n_matched(const zvp_fit_result *res) { return res ? res->n_match : 0; }

const char *zvp_fit_result_output_name(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->model->outputs[res->output_index[j]].name : NULL;
}

const double *zvp_fit_result_measured(const zvp_fit_result *res) { return res ? res->measured : NULL; }
const double *zvp_fit_result_fitted(const zvp_fit_result *res) { return res ? res->fitted : NULL; }

double zvp_fit_result_r2(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->r2[j] : NAN;
}

double zvp_fit_result_rmse(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->rmse[j] : NAN;
}

double zvp_fit_result_mape(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->mape[j] : NAN;
}

double zvp_fit_result_mape_all(const zvp_fit_result *res) { return res ? res->mape_all : NAN; }

const zvp_model_file *zvp_fit_result_model_file(const zvp_fit_result *res)
{
    return res ? res->model_file : NULL;
}

double zvp_fit_result_cost(const zvp_fit_result *res) { return res ? res->cost : NAN; }
size_t zvp_fit_result_dof(const zvp_fit_result *res) { return res ? res->dof : 0; }
size_t zvp_fit_result_dof_effective(const zvp_fit_result *res) { return res ? res->dof_eff : 0; }
size_t zvp_fit_result_n_independent(const zvp_fit_result *res) { return res ? res->n_independent : 0; }
int zvp_fit_result_saturated(const zvp_fit_result *res) { return res ? res->saturated : 0; }

const char *zvp_fit_result_row_label(const zvp_fit_result *res, size_t i)
{
    return res && i < res->n_rows ? res->labels[i] : NULL;
}

size_t zvp_fit_result_iterations(const zvp_fit_result *res)
{
    return res ? res->starts[res->best_start].iterations : 0;
}

int zvp_fit_result_converged(const zvp_fit_result *res)
{
    return res ? res->starts[res->best_start].gsl_status == 0 : 0;
}
