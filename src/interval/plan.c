/*
 * src/interval/plan.c - the options of an interval computation checked once against the
 * model file (covariance, transforms, residual variances, ranges), the Cholesky factor of
 * the covariance, the counter-based random generator and the delta-method helpers.
 * src/interval/README.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include "interval/interval_impl.h"

zvp_interval_options zvp_interval_default_options(void)
{
    zvp_interval_options o;
    memset(&o, 0, sizeof o);
    o.level = 0.9;
    o.method = ZVP_INTERVAL_DELTA;
    o.prediction = 1;
    o.samples = 1000;
    o.seed = 1;
    return o;
}

double zvp_interval_quantile(double level, double dof)
{
    double p = 0.5 + 0.5 * level;
    if (isnan(dof) || isinf(dof))
        return gsl_cdf_ugaussian_Pinv(p);
    return dof > 0.0 ? gsl_cdf_tdist_Pinv(p, dof) : NAN;
}

void zvp_delta_bounds(double y, const double *g, size_t stride, const double *cov, size_t p,
                      double extra, double q, double *lo, double *hi)
{
    double var = 0.0, sd;
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b < p; b++)
            if (!isnan(cov[a * p + b]))
                var += g[a * stride] * g[b * stride] * cov[a * p + b];
    var += extra;
    sd = sqrt(var);
    *lo = isfinite(sd) ? y - q * sd : NAN;
    *hi = isfinite(sd) ? y + q * sd : NAN;
}

/* ---- splitmix64 as a GSL generator (Steele, Lea & Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014): the whole 64-bit seed is the state, so seeding per draw
 * costs nothing and draws of different (seed, point, draw) keys do not share a stream. */
typedef struct { uint64_t s; } sm_state;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t sm_next(sm_state *st) { return mix64(st->s += 0x9e3779b97f4a7c15ULL); }
static void sm_set(void *vs, unsigned long seed) { ((sm_state *)vs)->s = (uint64_t)seed; }
static unsigned long sm_get(void *vs) { return (unsigned long)(sm_next(vs) >> 32); }
static double sm_get_double(void *vs) { return (double)(sm_next(vs) >> 11) * 0x1.0p-53; }

static const gsl_rng_type sm_type = {"zvmperf-splitmix64", 0xffffffffUL, 0, sizeof(sm_state),
                                     &sm_set, &sm_get, &sm_get_double};

const gsl_rng_type *zvp_interval_rng_type(void) { return &sm_type; }

uint64_t zvp_interval_key(uint64_t seed, uint64_t point, uint64_t draw)
{
    uint64_t k = mix64(seed + 0x9e3779b97f4a7c15ULL);
    k = mix64(k ^ (point + 0x632be59bd9b4e019ULL));
    return mix64(k ^ (draw + 0x85ebca6b27d4eb4fULL));
}

/* ---- the plan ---- */

static int check_options(const zvp_interval_options *o, zvp_error *err)
{
    if (!(o->level > 0.0 && o->level < 1.0))
        return zvp_fail(err, ZVP_EINVAL, "interval: level = %g is out of range (0, 1)", o->level);
    if (o->method != ZVP_INTERVAL_DELTA && o->method != ZVP_INTERVAL_MC)
        return zvp_fail(err, ZVP_EINVAL, "interval: method = %d is not ZVP_INTERVAL_DELTA (0) or "
                        "ZVP_INTERVAL_MC (1)", o->method);
    if (o->prediction != 0 && o->prediction != 1)
        return zvp_fail(err, ZVP_EINVAL, "interval: prediction = %d is not 0 or 1", o->prediction);
    if (o->method == ZVP_INTERVAL_MC && (o->samples < 2 || o->samples > ZVP_IV_MAX_SAMPLES))
        return zvp_fail(err, ZVP_EINVAL, "interval: samples = %zu is out of range [2, %u]",
                        o->samples, ZVP_IV_MAX_SAMPLES);
    if (o->threads < 0 || o->threads > 1024)
        return zvp_fail(err, ZVP_EINVAL, "interval: threads = %d is out of range [0, 1024]",
                        o->threads);
    if (o->n_ranges && !o->ranges)
        return zvp_fail(err, ZVP_EINVAL, "interval: ranges is NULL with n_ranges = %zu",
                        o->n_ranges);
    if (o->n_ranges && o->method != ZVP_INTERVAL_MC)
        return zvp_fail(err, ZVP_EINVAL, "interval: %zu input range(s) (%s = %g..%g) need the "
                        "Monte Carlo method (method mc): the delta method has no distribution "
                        "for them", o->n_ranges, o->ranges[0].name ? o->ranges[0].name : "?",
                        o->ranges[0].lo, o->ranges[0].hi);
    return ZVP_SUCCESS;
}

static int plan_ranges(const zvp_model_file *mf, zvp_iv_plan *pl, zvp_error *err)
{
    const zvp_model *m = pl->m;
    for (size_t r = 0; r < pl->o.n_ranges; r++) {
        const zvp_interval_range *g = &pl->o.ranges[r];
        zvp_error e;
        long k;
        zvp_error_clear(&e);
        if (!g->name || (k = zvp_model_param_index(m, g->name, &e)) < 0)
            return zvp_fail(err, ZVP_ENOTFOUND, "interval: range %zu: '%s' is not a parameter "
                            "of model '%s'", r + 1, g->name ? g->name : "(NULL)", m->name);
        const zvp_param_desc *d = &m->params[k];
        if (!(g->lo < g->hi && g->lo >= d->min && g->hi <= d->max)) {
            char a[32], b[32], c[32], f[32];
            return zvp_fail(err, ZVP_EINVAL, "interval: range %s = %s..%s is out of range "
                            "[%s, %s] (need lo < hi, both in the parameter's range)", g->name,
                            zvp_fmt_num(g->lo, a, sizeof a), zvp_fmt_num(g->hi, b, sizeof b),
                            zvp_fmt_num(d->min, c, sizeof c), zvp_fmt_num(d->max, f, sizeof f));
        }
        if (d->integer && (g->lo != floor(g->lo) || g->hi != floor(g->hi))) {
            char a[32], b[32], c[32], f[32];
            return zvp_fail(err, ZVP_EINVAL, "interval: range %s = %s..%s: %s takes whole "
                            "numbers in [%s, %s], so both ends of its range must be whole (the "
                            "draws are the whole numbers lo..hi)", g->name,
                            zvp_fmt_num(g->lo, a, sizeof a), zvp_fmt_num(g->hi, b, sizeof b),
                            g->name, zvp_fmt_num(d->min, c, sizeof c),
                            zvp_fmt_num(d->max, f, sizeof f));
        }
        for (size_t a = 0; a < pl->n; a++)
            if (pl->idx[a] == (size_t)k)
                return zvp_fail(err, ZVP_EINVAL, "interval: range %s = %g..%g: %s is a fitted "
                                "parameter (its spread comes from the covariance); ranges are "
                                "for uncalibrated inputs", g->name, g->lo, g->hi, g->name);
        for (size_t q = 0; q < r; q++)
            if (pl->rng_idx[q] == (size_t)k)
                return zvp_fail(err, ZVP_EINVAL, "interval: range %s is given twice", g->name);
        pl->rng_idx[r] = (size_t)k;
        (void)mf;
    }
    return ZVP_SUCCESS;
}

/* Lower Cholesky factor of the covariance, with a small diagonal jitter when rounding makes
 * a nearly singular covariance (correlations of -1.00) fail. */
static int plan_cholesky(zvp_iv_plan *pl, zvp_error *err)
{
    size_t n = pl->n;
    double dmax = 0.0;
    gsl_error_handler_t *old;
    int st = 1;
    if (!(pl->chol = gsl_matrix_alloc(n, n)))
        return zvp_fail(err, ZVP_ENOMEM, "interval: out of memory");
    for (size_t a = 0; a < n; a++)
        dmax = fmax(dmax, pl->cov[a * n + a]);
    old = gsl_set_error_handler_off();
    for (int t = 0; t < 6 && st; t++) {
        double jitter = t ? dmax * pow(10.0, -14.0 + 2.0 * t) : 0.0;
        for (size_t a = 0; a < n; a++)
            for (size_t b = 0; b < n; b++)
                gsl_matrix_set(pl->chol, a, b, pl->cov[a * n + b] + (a == b ? jitter : 0.0));
        st = gsl_linalg_cholesky_decomp1(pl->chol);
    }
    gsl_set_error_handler(old);
    if (st)
        return zvp_fail(err, ZVP_EINVAL, "interval: the covariance of the model file is not "
                        "positive definite (Cholesky failed)");
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            gsl_matrix_set(pl->chol, a, b, 0.0);
    return ZVP_SUCCESS;
}

int zvp_iv_plan_make(const zvp_model_file *mf, const zvp_interval_options *opt,
                     zvp_iv_plan *pl, zvp_error *err)
{
    const size_t *ci;
    const double *cov;
    int st;
    memset(pl, 0, sizeof *pl);
    if (!mf)
        return zvp_fail(err, ZVP_EINVAL, "interval: the model file is NULL");
    pl->m = zvp_model_file_model(mf);
    pl->o = opt ? *opt : zvp_interval_default_options();
    if ((st = check_options(&pl->o, err)))
        return st;
    pl->n = zvp_model_file_n_covariance(mf);
    if (pl->n == 0)
        return zvp_fail(err, ZVP_EINVAL, "interval: the model file of '%s' has no covariance of "
                        "fitted parameters (%s): intervals are undefined", pl->m->name,
                        zvp_model_file_provenance(mf, "stderr_note")
                            ? zvp_model_file_provenance(mf, "stderr_note")
                            : "not a calibrated file, or calibrated before covariances were kept");
    if (pl->n > ZVP_IV_MAX_COV)
        return zvp_fail(err, ZVP_EINVAL, "interval: %zu parameters with covariance is out of "
                        "range [1, %d]", pl->n, ZVP_IV_MAX_COV);
    ci = zvp_model_file_covariance_params(mf);
    cov = zvp_model_file_covariance(mf);
    memcpy(pl->cov, cov, pl->n * pl->n * sizeof *cov);
    for (size_t a = 0; a < pl->n; a++) {
        pl->idx[a] = ci[a];
        for (size_t t = 0; t < zvp_model_file_n_transforms(mf); t++)
            if (zvp_model_file_transform_at(mf, t, &pl->tlo[a], &pl->thi[a]) == ci[a])
                break;
    }
    pl->resvar = calloc(pl->m->n_outputs + 1, sizeof *pl->resvar);
    pl->relative = calloc(pl->m->n_outputs + 1, sizeof *pl->relative);
    pl->rng_idx = calloc(pl->o.n_ranges + 1, sizeof *pl->rng_idx);
    if (!pl->resvar || !pl->relative || !pl->rng_idx)
        return zvp_fail(err, ZVP_ENOMEM, "interval: out of memory");
    for (size_t j = 0; j < pl->m->n_outputs; j++) {
        int kind = ZVP_RESVAR_RELATIVE;
        double v = zvp_model_file_residual_variance(mf, j, &kind);
        pl->resvar[j] = pl->o.prediction && !isnan(v) ? v : 0.0;
        pl->relative[j] = kind == ZVP_RESVAR_RELATIVE;
    }
    pl->q = zvp_interval_quantile(pl->o.level, zvp_model_file_dof_effective(mf));
    if ((st = plan_ranges(mf, pl, err)))
        return st;
    return pl->o.method == ZVP_INTERVAL_MC ? plan_cholesky(pl, err) : ZVP_SUCCESS;
}

void zvp_iv_plan_free(zvp_iv_plan *pl)
{
    if (pl->chol)
        gsl_matrix_free(pl->chol);
    free(pl->resvar);
    free(pl->relative);
    free(pl->rng_idx);
    memset(pl, 0, sizeof *pl);
}

int zvp_iv_centre(const zvp_iv_plan *pl, const double *params, double *u, zvp_error *err)
{
    for (size_t a = 0; a < pl->n; a++) {
        double th = params[pl->idx[a]];
        if (!(th > pl->tlo[a] && th < pl->thi[a]))
            return zvp_fail(err, ZVP_EINVAL, "interval: fitted parameter %s = %g is outside the "
                            "range (%g, %g) of its fitted parametrisation: its covariance does "
                            "not apply there", pl->m->params[pl->idx[a]].name, th, pl->tlo[a],
                            pl->thi[a]);
        u[a] = log((th - pl->tlo[a]) / (pl->thi[a] - th));
    }
    return ZVP_SUCCESS;
}
