/*
 * src/fit/solver.c - the calibration engine: GSL multifit_nlinear trust region
 * (Levenberg-Marquardt), multistart, covariance at the optimum; zvp_fit_run.
 *
 * Least-squares problem. For row i and matched output j with measured value y_ij (cells
 * with no measurement are skipped), model value m_ij(theta) and weight w_j:
 *     relative residual  r_ij = w_j (m_ij - y_ij) / |y_ij|
 *     absolute residual  r_ij = w_j (m_ij - y_ij)
 *     with a sigma       r_ij = w_j (m_ij - y_ij) / sigma_ij (either kind)
 * and for a bound or interval m_ij - y_ij is 0 inside and the distance to the nearest end
 * outside (|y_ij| then that end): measure.c, zvp_fit_cell_residual.
 * minimise cost = sum r_ij^2 over theta in the box (lo, hi). Bounds by the logistic map
 *     theta_k = lo_k + (hi_k - lo_k) / (1 + exp(-u_k)),
 * GSL works on the unbounded u. The covariance (J_u^T J_u)^-1 at the optimum is kept for
 * result.c, which scales it by s^2 and maps it to theta (delta method).
 *
 * Multistart: the starts are independent, so they run in parallel (OpenMP, one evaluation
 * scratch and GSL workspace per thread; serial inside an enclosing parallel region such as
 * validate's folds). Each start keeps its end point, cost and covariance; the best is the
 * first start of the smallest cost, as a serial loop keeping the first strict improvement
 * finds it, so the result does not depend on the thread count.
 */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>
#include "fit/fit_impl.h"

int zvp_fit_at_bound(double theta, double lo, double hi)
{
    double tol = ZVP_FIT_BOUND_REL * (hi - lo);
    return theta - lo <= tol || hi - theta <= tol;
}

const char *zvp_fit_start_outcome(const zvp_fit_start_info *s)
{
    if (s->gsl_status == GSL_SUCCESS) {
        switch (s->info) {
        case 1: return "converged (small step, xtol)";
        case 2: return "converged (small gradient, gtol)";
        case 3: return "converged (small cost change, ftol)";
        default: return "converged";
        }
    }
    if (s->gsl_status == GSL_EMAXITER)
        return "stopped at the iteration limit";
    return gsl_strerror(s->gsl_status);
}

size_t zvp_fit_evaluate(zvp_fit_eval *ev, const double *u, double *r, double *fitted)
{
    const zvp_fit *fit = ev->fit;
    const zvp_model *m = fit->model;
    size_t np = m->n_params, nm = fit->n_match, bad = 0;
    ev->bad_row = SIZE_MAX;
    for (size_t i = 0; i < fit->n_rows; i++) {
        zvp_error e;
        int st, ok;
        zvp_error_clear(&e);
        memcpy(ev->params, fit->row_params + i * np, np * sizeof *ev->params);
        for (size_t k = 0; k < fit->n_free; k++)
            ev->params[fit->free[k].index] =
                zvp_fit_theta_of_u(u[k], fit->free[k].lo, fit->free[k].hi);
        st = zvp_model_eval(m, ev->params, ev->outputs, &e);
        ok = st == ZVP_SUCCESS;
        for (size_t j = 0; ok && j < nm; j++)
            if (!isfinite(ev->outputs[fit->match[j].index]))
                ok = 0;
        if (!ok && bad++ == 0) {
            ev->bad_row = i;
            if (st == ZVP_SUCCESS)
                zvp_fail(&ev->row_err, ZVP_EUNSTABLE, "a matched output is not finite");
            else
                ev->row_err = e;
        }
        for (size_t j = 0; j < nm; j++) {
            double y = fit->measured[i * nm + j], v = ev->outputs[fit->match[j].index], res;
            if (fitted)
                fitted[i * nm + j] = ok ? v : NAN;
            if (isnan(y))
                res = 0.0;
            else if (!ok)
                res = ZVP_FIT_PENALTY;
            else
                res = zvp_fit_cell_residual(fit, i, j, v, ev->residual_absolute);
            if (r)
                r[i * nm + j] = res;
        }
    }
    return bad;
}

/* GSL residual callback: never returns a non-zero status. GSL's finite-difference Jacobian
 * hands f as a column of J (stride p), so strides are honoured. */
static int fit_gsl_f(const gsl_vector *u, void *params, gsl_vector *f)
{
    zvp_fit_eval *ev = params;
    size_t p = ev->fit->n_free;
    for (size_t k = 0; k < p; k++)
        ev->u[k] = gsl_vector_get(u, k);
    if (f->stride == 1) {
        zvp_fit_evaluate(ev, ev->u, f->data, NULL);
    } else {
        zvp_fit_evaluate(ev, ev->u, ev->r, NULL);
        for (size_t i = 0; i < f->size; i++)
            gsl_vector_set(f, i, ev->r[i]);
    }
    return GSL_SUCCESS;
}

void zvp_fit_solution_free(zvp_fit_solution *sol)
{
    free(sol->u);
    free(sol->cov_u);
    free(sol->starts);
    memset(sol, 0, sizeof *sol);
}

/* The starts in u: the given one, then draws in a box around it (seeded, deterministic). */
static int draw_starts(const zvp_fit *fit, const zvp_fit_parameters *pp, double *us)
{
    size_t p = fit->n_free;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return ZVP_ENOMEM;
    gsl_rng_set(rng, pp->seed);
    for (size_t k = 0; k < p; k++)
        us[k] = zvp_fit_u_of_theta(fit->free[k].start, fit->free[k].lo, fit->free[k].hi);
    for (size_t s = 1; s < pp->starts; s++)
        for (size_t k = 0; k < p; k++)
            us[s * p + k] = us[k] + pp->start_box * (2.0 * gsl_rng_uniform(rng) - 1.0);
    gsl_rng_free(rng);
    return ZVP_SUCCESS;
}

/* One thread's scratch: an evaluation copy, the GSL problem and workspace, buffers. */
typedef struct start_ws {
    zvp_fit_eval ev;
    gsl_multifit_nlinear_fdf fdf;
    gsl_multifit_nlinear_workspace *w;
    gsl_matrix *covar;
    double *fbuf;
} start_ws;

/* An evaluation scratch for fit (n residuals): 0, or ZVP_ENOMEM (free it with eval_free
 * either way). */
static int eval_init(zvp_fit_eval *ev, const zvp_fit *fit, int residual_absolute, size_t n)
{
    memset(ev, 0, sizeof *ev);
    ev->fit = fit;
    ev->residual_absolute = residual_absolute;
    ev->bad_row = SIZE_MAX;
    ev->params = malloc(fit->model->n_params * sizeof(double) + 1);
    ev->outputs = malloc(fit->model->n_outputs * sizeof(double) + 1);
    ev->u = malloc(fit->n_free * sizeof(double) + 1);
    ev->r = malloc(n * sizeof(double) + 1);
    return ev->params && ev->outputs && ev->u && ev->r ? ZVP_SUCCESS : ZVP_ENOMEM;
}

static void eval_free(zvp_fit_eval *ev)
{
    free(ev->params);
    free(ev->outputs);
    free(ev->u);
    free(ev->r);
}

static void start_ws_free(start_ws *t)
{
    eval_free(&t->ev);
    gsl_multifit_nlinear_free(t->w);
    gsl_matrix_free(t->covar);
    free(t->fbuf);
}

/* A scratch like ev's for the problem of n residuals and p unknowns; 0 or ZVP_ENOMEM. */
static int start_ws_init(start_ws *t, const zvp_fit_eval *ev, size_t n, size_t p)
{
    gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
    memset(t, 0, sizeof *t);
    const int ev_rc = eval_init(&t->ev, ev->fit, ev->residual_absolute, n);
    t->fbuf = malloc(n * sizeof(double) + 1);
    t->covar = gsl_matrix_alloc(p, p);
    t->fdf.f = fit_gsl_f;
    t->fdf.df = NULL;  /* forward-difference Jacobian */
    t->fdf.fvv = NULL; /* no geodesic acceleration */
    t->fdf.n = n;
    t->fdf.p = p;
    t->fdf.params = &t->ev;
    fp.trs = gsl_multifit_nlinear_trs_lm;
    t->w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, n, p);
    return ev_rc == ZVP_SUCCESS && t->fbuf && t->covar && t->w ? ZVP_SUCCESS : ZVP_ENOMEM;
}

/* Run start s from us[s*p..]: its info in sol->starts[s]; its end point into xs[s*p..] and,
 * when it is usable, its covariance into cov[s*p*p..]. Returns 1 when the start's end point
 * was evaluated (it then set t->ev's bad_row), 0 when GSL could not begin. */
static int run_start(const zvp_fit_parameters *pp, start_ws *t, const double *us, size_t s,
                     double *xs, double *cov, zvp_fit_solution *sol)
{
    size_t p = t->fdf.p, n = t->fdf.n, bad;
    zvp_fit_start_info *si = &sol->starts[s];
    gsl_vector_const_view x0 = gsl_vector_const_view_array(us + s * p, p);
    const gsl_vector *xv;
    double *x = xs + s * p, cost = 0.0;
    int gs, info = 0;
    si->cost = INFINITY;
    gs = gsl_multifit_nlinear_init(&x0.vector, &t->fdf, t->w);
    if (gs) {
        si->gsl_status = gs;
        return 0;
    }
    gs = gsl_multifit_nlinear_driver(pp->max_iter, pp->xtol, pp->gtol, pp->ftol, NULL, NULL,
                                     &info, t->w);
    si->gsl_status = gs;
    si->info = info;
    si->iterations = gsl_multifit_nlinear_niter(t->w);
    xv = gsl_multifit_nlinear_position(t->w);
    for (size_t k = 0; k < p; k++)
        x[k] = gsl_vector_get(xv, k);
    bad = zvp_fit_evaluate(&t->ev, x, t->fbuf, NULL);
    for (size_t i = 0; i < n; i++)
        cost += t->fbuf[i] * t->fbuf[i];
    si->usable = bad == 0 && isfinite(cost);
    if (!si->usable)
        return 1;
    si->cost = cost;
    gs = gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(t->w), 0.0, t->covar);
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b < p; b++)
            cov[(s * p + a) * p + b] = gs ? NAN : gsl_matrix_get(t->covar, a, b);
    return 1;
}

/* The starts in parallel: every start's info, end point and covariance; *last is the last
 * start (in order) whose end point was evaluated, or SIZE_MAX. ZVP_ENOMEM if a thread's
 * scratch could not be allocated (no start is then trusted). */
static int run_starts(const zvp_fit_parameters *pp, const zvp_fit_eval *ev, size_t n,
                      size_t p, const double *us, double *xs, double *cov,
                      zvp_fit_solution *sol, size_t *last)
{
    const size_t ns = pp->starts;
    const int mt = omp_get_max_threads();
    const int nt = omp_in_parallel() || ns < 2 ? 1 : (size_t)mt < ns ? mt : (int)ns;
    int failed = 0;
    unsigned char *evaluated = calloc(ns, 1);
    if (!evaluated)
        return ZVP_ENOMEM;
#pragma omp parallel num_threads(nt) reduction(| : failed)
    {
        start_ws t;
        if (start_ws_init(&t, ev, n, p)) {
            failed = 1;
        } else {
#pragma omp for schedule(dynamic, 1)
            for (size_t s = 0; s < ns; s++)
                evaluated[s] = (unsigned char)run_start(pp, &t, us, s, xs, cov, sol);
        }
        start_ws_free(&t);
    }
    *last = SIZE_MAX;
    for (size_t s = 0; s < ns; s++)
        if (evaluated[s])
            *last = s;
    free(evaluated);
    return failed ? ZVP_ENOMEM : ZVP_SUCCESS;
}

int zvp_fit_solve(const zvp_fit *fit, const zvp_fit_parameters *pp, zvp_fit_eval *ev,
                  zvp_fit_solution *sol, zvp_error *err)
{
    size_t p = fit->n_free, n = fit->n_rows * fit->n_match, last = SIZE_MAX;
    double *us = malloc(pp->starts * p * sizeof *us + 1);
    double *xs = malloc(pp->starts * p * sizeof *xs + 1);
    double *cov = malloc(pp->starts * p * p * sizeof *cov + 1);
    int st = ZVP_SUCCESS;

    memset(sol, 0, sizeof *sol);
    sol->n_starts = pp->starts;
    sol->best = SIZE_MAX;
    sol->cost = INFINITY;
    sol->u = malloc(p * sizeof *sol->u + 1);
    sol->cov_u = malloc(p * p * sizeof *sol->cov_u + 1);
    sol->starts = calloc(pp->starts, sizeof *sol->starts);
    if (!us || !xs || !cov || !sol->u || !sol->cov_u || !sol->starts ||
        draw_starts(fit, pp, us) || run_starts(pp, ev, n, p, us, xs, cov, sol, &last)) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory (%zu starts, %zu residuals, %zu "
                      "free parameters)", zvp_fit_name(fit), pp->starts, n, p);
        goto done;
    }
    /* the first start of the smallest cost */
    for (size_t s = 0; s < pp->starts; s++)
        if (sol->starts[s].usable && sol->starts[s].cost < sol->cost) {
            sol->cost = sol->starts[s].cost;
            sol->best = s;
        }
    if (sol->best != SIZE_MAX) {
        memcpy(sol->u, xs + sol->best * p, p * sizeof *sol->u);
        memcpy(sol->cov_u, cov + sol->best * p * p, p * p * sizeof *sol->cov_u);
    } else {
        /* the caller's scratch as the serial loop left it: the last evaluated end point */
        if (last != SIZE_MAX)
            zvp_fit_evaluate(ev, xs + last * p, ev->r, NULL);
        if (last != SIZE_MAX && ev->bad_row != SIZE_MAX)
            st = zvp_fail(err, ZVP_EFIT,
                          "%s: none of %zu start(s) reached a finite cost; the model has no "
                          "result at row %zu (%s): %s", zvp_fit_name(fit), pp->starts,
                          ev->bad_row + 1, fit->labels[ev->bad_row], ev->row_err.message);
        else
            st = zvp_fail(err, ZVP_EFIT, "%s: none of %zu start(s) reached a finite cost (%s)",
                          zvp_fit_name(fit), pp->starts, gsl_strerror(sol->starts[0].gsl_status));
    }
done:
    if (st)
        zvp_fit_solution_free(sol);
    free(us);
    free(xs);
    free(cov);
    return st;
}

/* The checks a run needs beyond the declarations: rows, enough cells, no measured 0 with
 * relative residuals. */
static int check_runnable(const zvp_fit *fit, const zvp_fit_parameters *pp, zvp_error *err)
{
    const char *name = zvp_fit_name(fit);
    if (fit->n_free == 0 || fit->n_match == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: %zu free parameters and %zu matched outputs: need "
                        "at least one of each", name, fit->n_free, fit->n_match);
    if (fit->n_free > ZVP_FIT_MAX_FREE)
        return zvp_fail(err, ZVP_EINVAL, "%s: %zu free parameters is out of range [1, %d]", name,
                        fit->n_free, ZVP_FIT_MAX_FREE);
    if (fit->n_rows == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: no rows to fit", name);
    if (fit->n_measured < fit->n_free)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: %zu measured cells for %zu free parameters: need at least as many "
                        "cells as free parameters", name, fit->n_measured, fit->n_free);
    if (pp->residual == ZVP_FIT_RELATIVE)
        for (size_t i = 0; i < fit->n_rows; i++)
            for (size_t j = 0; j < fit->n_match; j++) {
                double lo, hi, sigma, y = fit->measured[i * fit->n_match + j];
                const char *out = fit->model->outputs[fit->match[j].index].name;
                zvp_fit_cell(fit, i, j, &lo, &hi, &sigma);
                if (isnan(y) || !isnan(sigma))
                    continue;
                /* 0, or below ZVP_FIT_REL_MIN in magnitude: (f - y) / |y| overflows; a bound
                 * or an interval: its finite ends (its midpoint is never divided by) */
                if (isnan(lo) && fabs(y) < ZVP_FIT_REL_MIN)
                    return zvp_fail(err, ZVP_EINVAL,
                                    "%s: row %zu (%s) measures %s = %g, 0 or below %g in "
                                    "magnitude, which a relative residual cannot use (use "
                                    "absolute residuals or give the cell a sigma)", name, i + 1, fit->labels[i], out,
                                    y, ZVP_FIT_REL_MIN);
                if (!isnan(lo) && (fabs(lo) < ZVP_FIT_REL_MIN || fabs(hi) < ZVP_FIT_REL_MIN))
                    return zvp_fail(err, ZVP_EINVAL,
                                    "%s: row %zu (%s) states %s in [%g, %g], an end 0 or below %g "
                                    "in magnitude, which a relative residual cannot use (use "
                                    "absolute residuals or give the cell a sigma)", name, i + 1,
                                    fit->labels[i], out, lo, hi, ZVP_FIT_REL_MIN);
            }
    return ZVP_SUCCESS;
}

int zvp_fit_run_with(const zvp_fit *fit, const zvp_fit_parameters *params,
                     zvp_fit_result **out, zvp_error *err)
{
    zvp_fit_parameters pp;
    zvp_fit_solution sol;
    zvp_fit_eval ev;
    size_t n;
    int st;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_run: out is NULL");
    *out = NULL;
    if (!fit)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_run: fit is NULL");
    pp = params ? *params : fit->params;
    if ((st = zvp_fit_check_parameters(&pp, err)) || (st = check_runnable(fit, &pp, err)))
        return st;
    n = fit->n_rows * fit->n_match;
    if (eval_init(&ev, fit, pp.residual == ZVP_FIT_ABSOLUTE, n))
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    else if (!(st = zvp_fit_solve(fit, &pp, &ev, &sol, err))) {
        st = zvp_fit_result_build(fit, &pp, &ev, &sol, out, err);
        zvp_fit_solution_free(&sol);
    }
    eval_free(&ev);
    return st;
}

int zvp_fit_run(const zvp_fit *fit, zvp_fit_result **out, zvp_error *err)
{
    return zvp_fit_run_with(fit, NULL, out, err);
}
