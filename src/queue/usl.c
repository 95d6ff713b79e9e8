/*
 * src/queue/usl.c - Universal Scalability Law (Gunther, "Guerrilla Capacity Planning",
 * Springer 2007, ch. 4-5; src/queue/README.md, USL): X(N) = gamma N / (1 + alpha (N-1) + beta N (N-1)),
 * evaluation, peak and a bounded nonlinear least-squares fit with GSL multifit_nlinear.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include "queue/qnet.h"

/* Smallest ratio of singular values of the column-scaled Jacobian (gamma, alpha, beta) for
 * which the fit counts as identified; below it the standard errors would be amplified
 * beyond 1e10 and the fit is reported as ZVP_EFIT. */
#define ZVP_USL_RANK_TOL 1e-10

static int check_params(double gamma, double alpha, double beta, zvp_error *err)
{
    int rc;
    if ((rc = zvp_check_range(err, "gamma", gamma, 0.0, DBL_MAX)) ||
        (rc = zvp_check_range(err, "alpha", alpha, 0.0, DBL_MAX)) ||
        (rc = zvp_check_range(err, "beta", beta, 0.0, DBL_MAX)))
        return rc;
    return ZVP_SUCCESS;
}

static double usl(double n, double g, double a, double b)
{
    return g * n / (1.0 + a * (n - 1.0) + b * n * (n - 1.0));
}

int zvp_usl_eval(double n, double gamma, double alpha, double beta, double *throughput,
                 zvp_error *err)
{
    int rc;
    if (!throughput)
        return zvp_fail(err, ZVP_EINVAL, "throughput = NULL: an output pointer is required");
    *throughput = NAN;
    if ((rc = zvp_check_range(err, "n", n, 0.0, DBL_MAX)) ||
        (rc = check_params(gamma, alpha, beta, err)))
        return rc;
    double den = 1.0 + alpha * (n - 1.0) + beta * n * (n - 1.0);
    if (!(den > 0.0)) /* only for n < 1 with alpha > 1: outside the law's domain */
        return zvp_fail(err, ZVP_EINVAL,
                        "n = %.17g with alpha = %.17g gives a non-positive denominator: n must "
                        "be in [1, %.17g] when alpha > 1", n, alpha, DBL_MAX);
    *throughput = gamma * n / den;
    const zvp_qnet_out o = {throughput, 1, "throughput"};
    return zvp_qnet_finite(&o, 1, "zvp_usl_eval", "n, gamma, alpha, beta", err);
}

int zvp_usl_peak(double gamma, double alpha, double beta, double *n_peak, double *x_peak,
                 zvp_error *err)
{
    int rc;
    if (!n_peak || !x_peak)
        return zvp_fail(err, ZVP_EINVAL, "n_peak or x_peak = NULL: output pointers are required");
    *n_peak = *x_peak = NAN;
    if ((rc = check_params(gamma, alpha, beta, err)))
        return rc;
    if (alpha >= 1.0) {
        *n_peak = 1.0;
        *x_peak = gamma;
    } else if (beta == 0.0) {
        *n_peak = INFINITY;
        *x_peak = alpha > 0.0 ? gamma / alpha : INFINITY;
    } else {
        double np = sqrt((1.0 - alpha) / beta);
        if (np < 1.0)
            np = 1.0;
        *n_peak = np;
        *x_peak = usl(np, gamma, alpha, beta);
    }
    /* n_peak = +inf (beta = 0, alpha < 1) and x_peak = +inf (alpha = beta = 0) are the
     * documented "no peak" answers; everything else must be finite. */
    const int no_peak = beta == 0.0 && alpha < 1.0;
    const zvp_qnet_out o[2] = {{n_peak, no_peak ? 0 : 1, "n_peak"},
                               {x_peak, no_peak && alpha == 0.0 ? 0 : 1, "x_peak"}};
    if ((rc = zvp_qnet_finite(o, 2, "zvp_usl_peak", "gamma, alpha, beta", err)))
        *n_peak = *x_peak = NAN;
    return rc;
}

typedef struct {
    const double *n, *x;
    size_t len;
} usl_data;

static int usl_f(const gsl_vector *p, void *vd, gsl_vector *f)
{
    const usl_data *d = vd;
    double g = gsl_vector_get(p, 0), a = gsl_vector_get(p, 1), b = gsl_vector_get(p, 2);
    for (size_t i = 0; i < d->len; i++)
        gsl_vector_set(f, i, usl(d->n[i], g, a * a, b * b) - d->x[i]);
    return GSL_SUCCESS;
}

static int usl_df(const gsl_vector *p, void *vd, gsl_matrix *J)
{
    const usl_data *d = vd;
    double g = gsl_vector_get(p, 0), a = gsl_vector_get(p, 1), b = gsl_vector_get(p, 2);
    for (size_t i = 0; i < d->len; i++) {
        double n = d->n[i];
        double den = 1.0 + a * a * (n - 1.0) + b * b * n * (n - 1.0);
        gsl_matrix_set(J, i, 0, n / den);
        gsl_matrix_set(J, i, 1, -g * n * (n - 1.0) * 2.0 * a / (den * den));
        gsl_matrix_set(J, i, 2, -g * n * n * (n - 1.0) * 2.0 * b / (den * den));
    }
    return GSL_SUCCESS;
}

/* The data: 3 <= len <= ZVP_USL_MAX_POINTS, n >= 1, x >= 0, finite, at least 3 distinct n.
 * *imin: the index of the smallest n. */
static int check_fit_data(const double *n, const double *x, size_t len, size_t *imin,
                          zvp_error *err)
{
    if (!n || !x)
        return zvp_fail(err, ZVP_EINVAL, "n or x = NULL: the data arrays are required");
    if (len < 3)
        return zvp_fail(err, ZVP_EINVAL,
                        "len = %zu points: at least 3 points (with at least 3 distinct n) are "
                        "needed to fit gamma, alpha and beta", len);
    if (len > ZVP_USL_MAX_POINTS)
        return zvp_fail(err, ZVP_EINVAL, "len = %zu is out of range [3, %lu] (ZVP_USL_MAX_POINTS)",
                        len, ZVP_USL_MAX_POINTS);
    *imin = 0;
    for (size_t i = 0; i < len; i++) {
        if (!(n[i] >= 1.0) || !isfinite(n[i]))
            return zvp_fail(err, ZVP_EINVAL, "n[%zu] = %.17g is out of range [1, %.17g]", i, n[i],
                            DBL_MAX);
        if (!(x[i] >= 0.0) || !isfinite(x[i]))
            return zvp_fail(err, ZVP_EINVAL, "x[%zu] = %.17g is out of range [0, %.17g]", i, x[i],
                            DBL_MAX);
        if (n[i] < n[*imin])
            *imin = i;
    }
    /* Three parameters need three distinct n (X(n) at one or two n fits any alpha, beta on a
     * curve): count distinct values up to 3, O(len). */
    double v1 = n[0], v2 = NAN;
    size_t distinct = 1;
    for (size_t i = 1; i < len && distinct < 3; i++) {
        if (n[i] == v1 || (distinct == 2 && n[i] == v2))
            continue;
        if (distinct == 1)
            v2 = n[i];
        distinct++;
    }
    if (distinct == 1)
        return zvp_fail(err, ZVP_EINVAL,
                        "n has 1 distinct value (%.17g): at least 3 distinct n are needed "
                        "to identify gamma, alpha and beta", v1);
    if (distinct == 2)
        return zvp_fail(err, ZVP_EINVAL,
                        "n has 2 distinct values (%.17g, %.17g): at least 3 distinct n are "
                        "needed to identify gamma, alpha and beta", v1, v2);
    return ZVP_SUCCESS;
}

/* Start values: alpha, beta (as their square roots a0, b0) from the linear no-intercept fit of
 * y = n/C - 1 = alpha (n-1) + beta n (n-1), C = x/gamma, with gamma = g0. */
static void start_values(const double *n, const double *x, size_t len, double g0, double *a0,
                         double *b0)
{
    double s11 = 0, s12 = 0, s22 = 0, t1 = 0, t2 = 0;
    for (size_t i = 0; i < len; i++) {
        if (!(x[i] > 0.0))
            continue;
        double u1 = n[i] - 1.0, u2 = n[i] * (n[i] - 1.0), y = n[i] * g0 / x[i] - 1.0;
        s11 += u1 * u1;
        s12 += u1 * u2;
        s22 += u2 * u2;
        t1 += u1 * y;
        t2 += u2 * y;
    }
    double det = s11 * s22 - s12 * s12, a = 0.01, b = 1e-4;
    if (det > 0.0) {
        a = (t1 * s22 - t2 * s12) / det;
        b = (s11 * t2 - s12 * t1) / det;
    }
    *a0 = sqrt(fmax(a, 1e-6));
    *b0 = sqrt(fmax(b, 1e-10));
}

/* Standard errors from the Jacobian in (gamma, alpha, beta) itself: equal to the delta method
 * 2|a| se(a) for a != 0, and still defined at the bound a = 0, where the reparametrised
 * Jacobian has a zero column. Columns scaled to unit norm, then an SVD: a (near)
 * rank-deficient Jacobian means the data cannot identify the parameters. Reads out->gamma,
 * alpha, beta, rss; writes the *_se fields. */
static int standard_errors(const double *n, size_t len, zvp_usl_fit_result *out, zvp_error *err)
{
    const double g = out->gamma;
    int rc = ZVP_SUCCESS;
    gsl_matrix *Jo = gsl_matrix_alloc(len, 3), *V = gsl_matrix_alloc(3, 3);
    gsl_vector *sv = gsl_vector_alloc(3), *work = gsl_vector_alloc(3);
    if (!Jo || !V || !sv || !work) {
        rc = zvp_fail(err, ZVP_ENOMEM, "zvp_usl_fit: out of memory");
        goto done;
    }
    double norm[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < len; i++) {
        const double ni = n[i];
        const double den = 1.0 + out->alpha * (ni - 1.0) + out->beta * ni * (ni - 1.0);
        const double col[3] = {ni / den, -g * ni * (ni - 1.0) / (den * den),
                               -g * ni * ni * (ni - 1.0) / (den * den)};
        for (int j = 0; j < 3; j++) {
            gsl_matrix_set(Jo, i, (size_t)j, col[j]);
            norm[j] += col[j] * col[j];
        }
    }
    for (int j = 0; j < 3; j++) {
        norm[j] = sqrt(norm[j]);
        if (!(norm[j] > 0.0) || !isfinite(norm[j])) {
            rc = zvp_fail(err, ZVP_EFIT, "zvp_usl_fit: the data cannot identify %s: its "
                          "Jacobian column is %s (rank-deficient fit)",
                          j == 0 ? "gamma" : j == 1 ? "alpha" : "beta",
                          isfinite(norm[j]) ? "zero" : "not finite");
            goto done;
        }
        for (size_t i = 0; i < len; i++)
            gsl_matrix_set(Jo, i, (size_t)j, gsl_matrix_get(Jo, i, (size_t)j) / norm[j]);
    }
    if (gsl_linalg_SV_decomp(Jo, V, sv, work) != GSL_SUCCESS) {
        rc = zvp_fail(err, ZVP_EFIT, "zvp_usl_fit: SVD of the Jacobian failed");
        goto done;
    }
    const double smax = gsl_vector_get(sv, 0), smin = gsl_vector_get(sv, 2);
    if (!(smin > ZVP_USL_RANK_TOL * smax)) {
        rc = zvp_fail(err, ZVP_EFIT,
                      "zvp_usl_fit: the data cannot identify gamma, alpha and beta: the "
                      "Jacobian at the estimates is rank-deficient (scaled singular values "
                      "%.3g / %.3g < %.0e)", smin, smax, ZVP_USL_RANK_TOL);
        goto done;
    }
    /* With len == 3 there is no residual degree of freedom: s^2 and the standard errors are
     * undefined (NaN). */
    const double s2 = len > 3 ? out->rss / (double)(len - 3) : NAN;
    double se[3];
    for (int j = 0; j < 3; j++) {
        double c = 0.0; /* (J^T J)^-1 of the scaled columns: V diag(1/s^2) V^T */
        for (int l = 0; l < 3; l++) {
            const double v = gsl_matrix_get(V, (size_t)j, (size_t)l);
            const double sl = gsl_vector_get(sv, (size_t)l);
            c += v * v / (sl * sl);
        }
        se[j] = sqrt(s2 * c) / norm[j];
    }
    out->gamma_se = se[0];
    out->alpha_se = se[1];
    out->beta_se = se[2];
done:
    gsl_matrix_free(Jo);
    gsl_matrix_free(V);
    gsl_vector_free(sv);
    gsl_vector_free(work);
    return rc;
}

/* The nonlinear least-squares fit in (gamma, sqrt(alpha), sqrt(beta)) from p0; fills gamma,
 * alpha, beta, rss, iterations and gsl_status of out. */
static int solve_nlinear(const double *n, const double *x, size_t len, const double p0v[3],
                         zvp_usl_fit_result *out, zvp_error *err)
{
    int rc = ZVP_SUCCESS;
    usl_data dat = {n, x, len};
    gsl_multifit_nlinear_fdf fdf;
    fdf.f = usl_f;
    fdf.df = usl_df;
    fdf.fvv = NULL;
    fdf.n = len;
    fdf.p = 3;
    fdf.params = &dat;
    gsl_multifit_nlinear_parameters prm = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &prm, len, 3);
    gsl_vector *p0 = gsl_vector_alloc(3);
    if (!w || !p0) {
        rc = zvp_fail(err, ZVP_ENOMEM, "zvp_usl_fit: out of memory");
        goto done;
    }
    for (size_t j = 0; j < 3; j++)
        gsl_vector_set(p0, j, p0v[j]);
    gsl_multifit_nlinear_init(p0, &fdf, w);
    int info = 0;
    int gs = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 1e-12, NULL, NULL, &info, w);
    out->gsl_status = gs;
    out->iterations = (uint32_t)gsl_multifit_nlinear_niter(w);
    if (gs == GSL_EMAXITER) {
        rc = zvp_fail(err, ZVP_EFIT, "zvp_usl_fit: the fit did not converge within 500 "
                      "iterations (GSL: %s)", gsl_strerror(gs));
        goto done;
    }
    if (gs != GSL_SUCCESS) {
        rc = zvp_fail(err, ZVP_EFIT, "zvp_usl_fit: GSL multifit_nlinear failed: %s",
                      gsl_strerror(gs));
        goto done;
    }
    const gsl_vector *p = gsl_multifit_nlinear_position(w);
    const double g = gsl_vector_get(p, 0), a = gsl_vector_get(p, 1), b = gsl_vector_get(p, 2);
    double rss;
    gsl_blas_ddot(gsl_multifit_nlinear_residual(w), gsl_multifit_nlinear_residual(w), &rss);
    out->gamma = g;
    out->alpha = a * a;
    out->beta = b * b;
    out->rss = rss;
    if (!(g > 0.0) || !isfinite(g))
        rc = zvp_fail(err, ZVP_EFIT, "zvp_usl_fit: fitted gamma = %.17g is out of range "
                      "(0, %.17g]", g, DBL_MAX);
done:
    gsl_multifit_nlinear_free(w);
    gsl_vector_free(p0);
    return rc;
}

int zvp_usl_fit(const double *n, const double *x, size_t len, zvp_usl_fit_result *out,
                zvp_error *err)
{
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "out = NULL: a result record is required");
    out->gamma = out->alpha = out->beta = NAN;
    out->gamma_se = out->alpha_se = out->beta_se = NAN;
    out->n_peak = out->x_peak = out->rss = NAN;
    out->iterations = 0;
    out->gsl_status = 0;
    size_t imin = 0;
    int rc = check_fit_data(n, x, len, &imin, err);
    if (rc != ZVP_SUCCESS)
        return rc;
    /* gamma starts from the smallest n */
    double p0[3] = {x[imin] / n[imin], 0.0, 0.0};
    if (!(p0[0] > 0.0))
        return zvp_fail(err, ZVP_EINVAL,
                        "x[%zu] = %.17g at the smallest n must be in (0, %.17g] to start the fit",
                        imin, x[imin], DBL_MAX);
    start_values(n, x, len, p0[0], &p0[1], &p0[2]);
    if ((rc = solve_nlinear(n, x, len, p0, out, err)) != ZVP_SUCCESS)
        return rc;
    if ((rc = standard_errors(n, len, out, err)) != ZVP_SUCCESS)
        return rc;
    const zvp_qnet_out o[7] = {{&out->gamma, 1, "gamma"},         {&out->alpha, 1, "alpha"},
                               {&out->beta, 1, "beta"},           {&out->rss, 1, "rss"},
                               {&out->gamma_se, len > 3, "gamma_se"},
                               {&out->alpha_se, len > 3, "alpha_se"},
                               {&out->beta_se, len > 3, "beta_se"}};
    if ((rc = zvp_qnet_finite(o, 7, "zvp_usl_fit", "n, x", err)) != ZVP_SUCCESS)
        return rc;
    return zvp_usl_peak(out->gamma, out->alpha, out->beta, &out->n_peak, &out->x_peak, err);
}
