/*
 * src/interval/interval.c - intervals at points: delta method (central differences in the
 * fitted u) and Monte Carlo (multivariate normal draws of u, counter-based seeding), in
 * parallel over points (or over the draws of a single point); zvp_interval_eval,
 * zvp_interval_points, zvp_interval_grid. src/interval/README.md.
 */
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <omp.h>
#include "interval/interval_impl.h"
#include "sweep/sweep_impl.h"

/* Per-thread scratch. */
typedef struct iv_scratch {
    double *q, *out, *up, *dn, *grad, *samples; /* samples [n_outputs * draws] */
    gsl_rng *rng;
    gsl_vector *mu, *x;
} iv_scratch;

static void scratch_free(iv_scratch *s)
{
    free(s->q);
    free(s->samples);
    if (s->rng)
        gsl_rng_free(s->rng);
    if (s->mu)
        gsl_vector_free(s->mu);
    if (s->x)
        gsl_vector_free(s->x);
    memset(s, 0, sizeof *s);
}

/* 0, or -1 when out of memory. draws: sample slots (0: none). */
static int scratch_alloc(const zvp_iv_plan *pl, size_t draws, iv_scratch *s)
{
    size_t np = pl->m->n_params, no = pl->m->n_outputs, n = pl->n;
    memset(s, 0, sizeof *s);
    s->q = malloc((np + 3 * no + n * no + 1) * sizeof *s->q);
    s->samples = draws ? malloc((no * draws + 1) * sizeof *s->samples) : NULL;
    s->rng = gsl_rng_alloc(zvp_interval_rng_type());
    s->mu = gsl_vector_alloc(n);
    s->x = gsl_vector_alloc(n);
    if (!s->q || (draws && !s->samples) || !s->rng || !s->mu || !s->x) {
        scratch_free(s);
        return -1;
    }
    s->out = s->q + np;
    s->up = s->out + no;
    s->dn = s->up + no;
    s->grad = s->dn + no;
    return 0;
}

static int eval_ok(const zvp_model *m, const double *q, double *out)
{
    zvp_error e;
    zvp_error_clear(&e);
    return zvp_model_eval(m, q, out, &e);
}

/* Delta method at params (value y0 known): lo/hi at stride `stride`. */
static void delta_point(const zvp_iv_plan *pl, const double *params, const double *u0,
                        const double *y0, iv_scratch *s, double *lo, double *hi, size_t stride)
{
    const zvp_model *m = pl->m;
    size_t n = pl->n, no = m->n_outputs;
    memcpy(s->q, params, m->n_params * sizeof *s->q);
    for (size_t a = 0; a < n; a++) {
        size_t k = pl->idx[a];
        double h = 1e-5 * fmax(1.0, fabs(u0[a])), w = pl->thi[a] - pl->tlo[a];
        int okp, okm;
        s->q[k] = pl->tlo[a] + w / (1.0 + exp(-(u0[a] + h)));
        okp = eval_ok(m, s->q, s->up) == ZVP_SUCCESS;
        s->q[k] = pl->tlo[a] + w / (1.0 + exp(-(u0[a] - h)));
        okm = eval_ok(m, s->q, s->dn) == ZVP_SUCCESS;
        s->q[k] = params[k];
        for (size_t j = 0; j < no; j++)
            s->grad[a * no + j] = okp && okm ? (s->up[j] - s->dn[j]) / (2.0 * h)
                                  : okp      ? (s->up[j] - y0[j]) / h
                                  : okm      ? (y0[j] - s->dn[j]) / h
                                             : NAN;
    }
    for (size_t j = 0; j < no; j++) {
        double extra = pl->resvar[j] * (pl->relative[j] ? y0[j] * y0[j] : 1.0);
        if (m->outputs[j].integer) { /* a step function: its derivative is 0 almost
                                        everywhere, so the delta method has no interval */
            lo[j * stride] = hi[j * stride] = NAN;
            continue;
        }
        zvp_delta_bounds(y0[j], s->grad + j, no, pl->cov, n, extra, pl->q, &lo[j * stride],
                         &hi[j * stride]);
        if (!isnan(lo[j * stride])) /* within the output's valid range */
            lo[j * stride] = fmax(lo[j * stride], m->outputs[j].min);
        if (!isnan(hi[j * stride]))
            hi[j * stride] = fmin(hi[j * stride], m->outputs[j].max);
    }
}

/* Monte Carlo draw d of point `point`: its outputs into samples[j * draws + d] (NaN when the
 * model has no result); 1 when it has one. */
static int mc_draw(const zvp_iv_plan *pl, const double *params, uint64_t point, size_t d,
                   size_t draws, iv_scratch *s)
{
    const zvp_model *m = pl->m;
    size_t no = m->n_outputs;
    int ok;
    gsl_rng_set(s->rng, (unsigned long)zvp_interval_key(pl->o.seed, point, d));
    gsl_ran_multivariate_gaussian(s->rng, s->mu, pl->chol, s->x);
    memcpy(s->q, params, m->n_params * sizeof *s->q);
    for (size_t a = 0; a < pl->n; a++)
        s->q[pl->idx[a]] = pl->tlo[a] + (pl->thi[a] - pl->tlo[a]) /
                                            (1.0 + exp(-gsl_vector_get(s->x, a)));
    for (size_t r = 0; r < pl->o.n_ranges; r++) {
        const zvp_interval_range *g = &pl->o.ranges[r];
        double u = gsl_rng_uniform(s->rng), v = g->lo + (g->hi - g->lo) * u;
        if (m->params[pl->rng_idx[r]].integer) /* whole values ceil(lo)..floor(hi) */
            v = fmin(ceil(g->lo) + floor((floor(g->hi) - ceil(g->lo) + 1.0) * u), floor(g->hi));
        s->q[pl->rng_idx[r]] = v;
    }
    ok = eval_ok(m, s->q, s->out) == ZVP_SUCCESS;
    for (size_t j = 0; j < no; j++) {
        double y = s->out[j];
        if (ok && pl->resvar[j] > 0.0) {
            double e = gsl_ran_gaussian(s->rng, sqrt(pl->resvar[j]));
            y = pl->relative[j] ? y * (1.0 + e) : y + e;
        }
        s->samples[j * draws + d] = ok ? y : NAN;
    }
    return ok;
}

/* Quantile bounds of each output from the draws with a result; NaN when fewer than `need`
 * draws have one (an unstable centre: src/interval/README.md, "No steady state at the
 * centre"). */
static void mc_bounds(const zvp_iv_plan *pl, size_t draws, size_t stable, size_t need,
                      double *samples, double *lo, double *hi, size_t stride)
{
    double pl_lo = 0.5 - 0.5 * pl->o.level, pl_hi = 0.5 + 0.5 * pl->o.level;
    for (size_t j = 0; j < pl->m->n_outputs; j++) {
        double *x = samples + j * draws;
        size_t n = 0;
        if (stable < need) {
            lo[j * stride] = hi[j * stride] = NAN;
            continue;
        }
        for (size_t d = 0; d < draws; d++)
            if (!isnan(x[d]))
                x[n++] = x[d];
        gsl_sort(x, 1, n);
        lo[j * stride] = n ? gsl_stats_quantile_from_sorted_data(x, 1, n, pl_lo) : NAN;
        hi[j * stride] = n ? gsl_stats_quantile_from_sorted_data(x, 1, n, pl_hi) : NAN;
        /* the residual scatter added to a draw can leave the output's valid range (a share
         * above 100 %): the bounds are kept within it, as the delta method's are */
        if (n) {
            const double omin = pl->m->outputs[j].min, omax = pl->m->outputs[j].max;
            lo[j * stride] = fmin(fmax(lo[j * stride], omin), omax);
            hi[j * stride] = fmax(fmin(hi[j * stride], omax), omin);
            if (pl->m->outputs[j].integer) { /* a whole-number output: whole bounds, outward
                                                (the quantile interpolates between draws) */
                lo[j * stride] = floor(lo[j * stride]);
                hi[j * stride] = ceil(hi[j * stride]);
            }
        }
    }
}

/* The point status of a model status. */
static uint8_t point_code(int st)
{
    return st == ZVP_SUCCESS     ? ZVP_POINT_OK
           : st == ZVP_EUNSTABLE ? ZVP_POINT_UNSTABLE
           : st == ZVP_EINVAL    ? ZVP_POINT_INVALID
                                 : ZVP_POINT_FAILED;
}

/* Whether the draws of a point are taken, given the model status st at its centre: always
 * at a centre with a result; at a centre without a steady state only for Monte Carlo and
 * when the share of draws without one is asked for (no_res): bounds from the stable draws
 * mean nothing without that share. */
static int draws_taken(const zvp_iv_plan *pl, int st, const double *no_res)
{
    return st == ZVP_SUCCESS ||
           (st == ZVP_EUNSTABLE && pl->o.method == ZVP_INTERVAL_MC && no_res != NULL);
}

size_t zvp_interval_min_stable_draws(double level)
{
    if (!(level > 0.0 && level < 1.0))
        return 0;
    /* 2 x ZVP_INTERVAL_MIN_TAIL_DRAWS / (1 - level), rounded up but not for rounding noise
     * (level 0.9: 100) */
    return (size_t)ceil(2.0 * ZVP_INTERVAL_MIN_TAIL_DRAWS / (1.0 - level) * (1.0 - 1e-12));
}

/* One point with its scratch (draws serial). Returns the point status (that of the value). */
static uint8_t one_point(const zvp_iv_plan *pl, const double *params, uint64_t point,
                         iv_scratch *s, double *value, double *lo, double *hi, double *no_res,
                         size_t stride)
{
    const zvp_model *m = pl->m;
    double u0[ZVP_IV_MAX_COV];
    size_t no = m->n_outputs, fails = 0;
    int st = eval_ok(m, params, s->out);
    for (size_t j = 0; j < no; j++)
        value[j * stride] = lo[j * stride] = hi[j * stride] = NAN;
    if (no_res)
        *no_res = NAN;
    if (!draws_taken(pl, st, no_res))
        return point_code(st);
    if (zvp_iv_centre(pl, params, u0, NULL))
        return ZVP_POINT_INVALID;
    for (size_t j = 0; j < no && st == ZVP_SUCCESS; j++)
        value[j * stride] = s->out[j];
    if (pl->o.method == ZVP_INTERVAL_DELTA) {
        delta_point(pl, params, u0, s->out, s, lo, hi, stride); /* s->out is kept */
        if (no_res)
            *no_res = 0.0;
        return ZVP_POINT_OK;
    }
    for (size_t a = 0; a < pl->n; a++)
        gsl_vector_set(s->mu, a, u0[a]);
    for (size_t d = 0; d < pl->o.samples; d++)
        fails += !mc_draw(pl, params, point, d, pl->o.samples, s);
    mc_bounds(pl, pl->o.samples, pl->o.samples - fails,
              st == ZVP_SUCCESS ? 0 : zvp_interval_min_stable_draws(pl->o.level), s->samples, lo,
              hi, stride);
    if (no_res)
        *no_res = (double)fails / (double)pl->o.samples;
    return point_code(st);
}

/* A single Monte Carlo point with its draws spread over the threads (each draw is seeded
 * by its index, so the result is that of the serial loop). */
static int single_point_mc(const zvp_iv_plan *pl, const double *params, uint64_t point,
                           int nt, double *value, double *lo, double *hi, double *no_res,
                           uint8_t *status, zvp_error *err)
{
    const zvp_model *m = pl->m;
    size_t S = pl->o.samples, fails = 0;
    double u0[ZVP_IV_MAX_COV];
    double *samples = malloc((m->n_outputs * S + 1) * sizeof *samples);
    int nomem = 0, st;
    if (!samples)
        return zvp_fail(err, ZVP_ENOMEM, "interval: out of memory (%zu draws)", S);
    double *y = samples; /* the value first (the samples are written after) */
    st = eval_ok(m, params, y);
    for (size_t j = 0; j < m->n_outputs; j++) {
        value[j] = st == ZVP_SUCCESS ? y[j] : NAN;
        lo[j] = hi[j] = NAN;
    }
    if (no_res)
        *no_res = NAN;
    *status = point_code(st);
    if (!draws_taken(pl, st, no_res) || zvp_iv_centre(pl, params, u0, NULL)) {
        if (draws_taken(pl, st, no_res))
            *status = ZVP_POINT_INVALID;
        free(samples);
        return ZVP_SUCCESS;
    }
#pragma omp parallel num_threads(nt) reduction(+ : fails)
    {
        iv_scratch s;
        int bad = scratch_alloc(pl, 0, &s);
        if (bad) {
#pragma omp atomic write
            nomem = 1;
        } else {
            s.samples = samples;
            for (size_t a = 0; a < pl->n; a++)
                gsl_vector_set(s.mu, a, u0[a]);
        }
#pragma omp for schedule(static)
        for (size_t d = 0; d < S; d++)
            if (!bad)
                fails += !mc_draw(pl, params, point, d, S, &s);
        s.samples = NULL;
        scratch_free(&s);
    }
    if (nomem) {
        free(samples);
        return zvp_fail(err, ZVP_ENOMEM, "interval: out of memory");
    }
    mc_bounds(pl, S, S - fails, st == ZVP_SUCCESS ? 0 : zvp_interval_min_stable_draws(pl->o.level),
              samples, lo, hi, 1);
    if (no_res)
        *no_res = (double)fails / (double)S;
    free(samples);
    return ZVP_SUCCESS;
}

static int check_points(const zvp_model *m, size_t n_points, size_t n_vary,
                        const size_t *vary_index, const double *vary_values, const double *value,
                        const double *lo, const double *hi, const uint8_t *status, zvp_error *err)
{
    if (n_points && (!value || !lo || !hi || !status))
        return zvp_fail(err, ZVP_EINVAL, "interval: value, lo, hi and status must not be NULL");
    if (n_vary && n_points && (!vary_index || !vary_values))
        return zvp_fail(err, ZVP_EINVAL, "interval: vary_index and vary_values must not be NULL "
                        "(n_vary = %zu)", n_vary);
    for (size_t a = 0; a < n_vary; a++) {
        if (vary_index[a] >= m->n_params)
            return zvp_fail(err, ZVP_EINVAL, "interval: vary_index[%zu] = %zu is out of range "
                            "[0, %zu)", a, vary_index[a], m->n_params);
        for (size_t b = 0; b < a; b++)
            if (vary_index[b] == vary_index[a])
                return zvp_fail(err, ZVP_EINVAL, "interval: parameter %s varies twice",
                                m->params[vary_index[a]].name);
    }
    return ZVP_SUCCESS;
}

int zvp_interval_points(const zvp_model_file *mf, const double *base_params,
                        uint64_t first_index, size_t n_points, size_t n_vary,
                        const size_t *vary_index, const double *vary_values,
                        const zvp_interval_options *opt, double *value, double *lo, double *hi,
                        double *no_result, uint8_t *status, zvp_error *err)
{
    zvp_iv_plan pl;
    int st = zvp_iv_plan_make(mf, opt, &pl, err), nt, nomem = 0;
    if (st == ZVP_SUCCESS && !base_params)
        st = zvp_fail(err, ZVP_EINVAL, "interval: base_params must not be NULL");
    if (st == ZVP_SUCCESS)
        st = check_points(pl.m, n_points, n_vary, vary_index, vary_values, value, lo, hi, status,
                          err);
    if (st != ZVP_SUCCESS || n_points == 0) {
        zvp_iv_plan_free(&pl);
        return st;
    }
    nt = pl.o.threads > 0 ? pl.o.threads : omp_get_max_threads();
    if (n_points == 1 && pl.o.method == ZVP_INTERVAL_MC && n_vary == 0) {
        st = single_point_mc(&pl, base_params, first_index, nt, value, lo, hi, no_result, status,
                             err);
        zvp_iv_plan_free(&pl);
        return st;
    }
#pragma omp parallel num_threads(nt)
    {
        iv_scratch s;
        size_t np = pl.m->n_params;
        double *q = malloc((np + 1) * sizeof *q);
        int bad = !q || scratch_alloc(&pl, pl.o.method == ZVP_INTERVAL_MC ? pl.o.samples : 0, &s);
        if (bad) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 4)
        for (size_t i = 0; i < n_points; i++) {
            if (bad)
                continue;
            memcpy(q, base_params, np * sizeof *q);
            for (size_t a = 0; a < n_vary; a++)
                q[vary_index[a]] = vary_values[i * n_vary + a];
            status[i] = one_point(&pl, q, first_index + i, &s, value + i, lo + i, hi + i,
                                  no_result ? no_result + i : NULL, n_points);
        }
        if (!bad)
            scratch_free(&s);
        free(q);
    }
    zvp_iv_plan_free(&pl);
    return nomem ? zvp_fail(err, ZVP_ENOMEM, "interval: out of memory") : ZVP_SUCCESS;
}

/* err (holding the model's message at a centre without a steady state) with what the interval
 * did there: the centre of the ranges, and the share of stable draws behind the bounds. */
static void unstable_message(const zvp_model *m, const zvp_interval_options *o,
                             const double *params, const double *no_result, zvp_error *err)
{
    char model_msg[ZVP_ERRMSG_MAX], where[192] = "", *w = where;
    size_t need = zvp_interval_min_stable_draws(o->level), room = sizeof where;
    memcpy(model_msg, err->message, sizeof model_msg);
    for (size_t r = 0; r < o->n_ranges && room > 1; r++) { /* the centre of the ranges */
        long k = zvp_model_param_index(m, o->ranges[r].name, NULL);
        int n = snprintf(w, room, "%s%s = %g of %g..%g%s", r ? ", " : " (",
                         o->ranges[r].name, k >= 0 ? params[k] : NAN, o->ranges[r].lo,
                         o->ranges[r].hi, r + 1 == o->n_ranges ? ")" : "");
        if (n < 0 || (size_t)n >= room)
            break;
        w += n;
        room -= (size_t)n;
    }
    if (o->method == ZVP_INTERVAL_DELTA)
        zvp_fail(err, ZVP_EUNSTABLE, "interval (delta method): no steady state at the point, so "
                 "no derivatives and no interval (method mc draws around it): %s", model_msg);
    else if (!no_result)
        zvp_fail(err, ZVP_EUNSTABLE, "interval: no steady state at the centre%s; Monte Carlo "
                 "bounds there are given only with the share of draws without a steady state "
                 "(no_result): %s", where, model_msg);
    else {
        size_t stable = (size_t)llround((1.0 - *no_result) * (double)o->samples);
        if (stable >= need)
            zvp_fail(err, ZVP_EUNSTABLE, "interval: no steady state at the centre%s, so no "
                     "value; Monte Carlo: %zu of %zu draws (%.3g %%) have one, the bounds are "
                     "their quantiles: %s", where, stable, o->samples, 100.0 * (1.0 - *no_result),
                     model_msg);
        else
            zvp_fail(err, ZVP_EUNSTABLE, "interval: no steady state at the centre%s, so no "
                     "value; Monte Carlo: %zu of %zu draws (%.3g %%) have one, fewer than the %zu "
                     "needed for bounds at level %g (%d beyond each bound): lo, hi are NaN "
                     "(more samples or narrower ranges): %s", where, stable, o->samples,
                     100.0 * (1.0 - *no_result), need, o->level, ZVP_INTERVAL_MIN_TAIL_DRAWS,
                     model_msg);
    }
}

int zvp_interval_eval(const zvp_model_file *mf, const double *params,
                      const zvp_interval_options *opt, double *value, double *lo, double *hi,
                      double *no_result, zvp_error *err)
{
    zvp_iv_plan pl;
    zvp_interval_options o;
    double u0[ZVP_IV_MAX_COV];
    uint8_t status = 0;
    int st = zvp_iv_plan_make(mf, opt, &pl, err);
    o = pl.o;
    if (st == ZVP_SUCCESS && !params)
        params = zvp_model_file_params((zvp_model_file *)mf);
    if (st == ZVP_SUCCESS && (!value || !lo || !hi))
        st = zvp_fail(err, ZVP_EINVAL, "interval: value, lo and hi must not be NULL");
    if (st == ZVP_SUCCESS) /* the point itself: its error message */
        st = zvp_model_check_params(pl.m, params, err);
    if (st == ZVP_SUCCESS)
        st = zvp_iv_centre(&pl, params, u0, err);
    zvp_iv_plan_free(&pl);
    if (st != ZVP_SUCCESS)
        return st;
    st = zvp_interval_points(mf, params, 0, 1, 0, NULL, NULL, opt, value, lo, hi, no_result,
                             &status, err);
    if (st == ZVP_SUCCESS && status != ZVP_POINT_OK) { /* the model's status and message */
        const zvp_model *m = zvp_model_file_model(mf);
        double *out = malloc((m->n_outputs + 1) * sizeof *out);
        st = out ? zvp_model_eval(m, params, out, err)
                 : zvp_fail(err, ZVP_ENOMEM, "interval: out of memory");
        if (st == ZVP_SUCCESS)
            st = zvp_fail(err, ZVP_EINTERNAL, "interval: the point evaluates only sometimes");
        else if (st == ZVP_EUNSTABLE && err)
            unstable_message(m, &o, params, no_result, err);
        free(out);
    }
    return st;
}

int zvp_interval_grid(const zvp_model_file *mf, const double *base_params,
                      const zvp_axis *axes, size_t n_axes, uint64_t first, uint64_t count,
                      const zvp_interval_options *opt, double *value, double *lo, double *hi,
                      double *no_result, uint8_t *status, zvp_error *err)
{
    const zvp_model *m = zvp_model_file_model(mf);
    size_t param[ZVP_SWEEP_MAX_AXES];
    uint64_t points = 1;
    double *vv;
    int st;
    if (!m || (n_axes && !axes) || n_axes > ZVP_SWEEP_MAX_AXES)
        return zvp_fail(err, ZVP_EINVAL, "zvp_interval_grid: mf and axes must not be NULL, "
                        "n_axes = %zu in [0, %d]", n_axes, ZVP_SWEEP_MAX_AXES);
    for (size_t k = 0; k < n_axes; k++) {
        if ((st = zvp_grid_resolve_axis(m, axes, k, param, "zvp_interval_grid", err)))
            return st;
        points *= (uint64_t)axes[k].n_values;
    }
    if (first > points || count > points - first || count > SIZE_MAX / (n_axes + 1))
        return zvp_fail(err, ZVP_EINVAL, "zvp_interval_grid: points [%llu, %llu + %llu) go "
                        "beyond the grid of %llu points", (unsigned long long)first,
                        (unsigned long long)first, (unsigned long long)count,
                        (unsigned long long)points);
    if (!(vv = malloc(((size_t)count * n_axes + 1) * sizeof *vv)))
        return zvp_fail(err, ZVP_ENOMEM, "zvp_interval_grid: out of memory");
    for (uint64_t i = 0; i < count; i++) {
        uint64_t rest = first + i;
        for (size_t k = n_axes; k-- > 0;) {
            vv[i * n_axes + k] = axes[k].values[rest % axes[k].n_values];
            rest /= axes[k].n_values;
        }
    }
    st = zvp_interval_points(mf, base_params, first, (size_t)count, n_axes, param, vv, opt,
                             value, lo, hi, no_result, status, err);
    free(vv);
    return st;
}
