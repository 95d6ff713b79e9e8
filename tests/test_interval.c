/*
 * tests/test_interval.c - covariance in model files and intervals (zvp_interval_*).
 *
 * Expected values from closed forms computed here: utilization = lambda / mu_i is linear in
 * the free lambda (y_i = theta x_i, x_i = 1 / mu_i), fitted with absolute residuals: theta =
 * sum x y / sum x^2, s^2 = SSR / (n - 1); at a new x0 the exact 90% prediction interval is
 * theta x0 +- t_{0.95, n-1} s sqrt(1 + x0^2 / sum x^2) and the confidence interval drops the
 * 1 (Seber & Wild 1989, sec. 5.1). The delta method in the logistic parametrisation is exact
 * here to first order at the centre (the transform's derivative cancels).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "fit_fixtures.h"
#include "mm1_fit.h"

#define N 4
static const double MU[N] = {2.0, 4.0, 5.0, 8.0}, Y[N] = {0.26, 0.12, 0.11, 0.07};
static const double T95_3 = 2.3533634348018264; /* Student t, 0.95 quantile, 3 dof */

static zvp_fit_result *linear_fit(void)
{
    zvp_fit *fit = zvp_test_mm1_linear(N, MU, Y, 1e-14);
    zvp_fit_result *res = NULL;
    zvp_error err;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(fit, &res, &err), ZVP_SUCCESS);
    zvp_fit_free(fit);
    return res;
}

/* The exact interval at service rate mu0: centre and half widths (prediction, confidence). */
static void exact(double mu0, double *centre, double *half_pred, double *half_conf)
{
    double sxy = 0.0, sxx = 0.0, ssr = 0.0, th, x0 = 1.0 / mu0, s2;
    for (size_t k = 0; k < N; k++) {
        sxy += Y[k] / MU[k];
        sxx += 1.0 / (MU[k] * MU[k]);
    }
    th = sxy / sxx;
    for (size_t k = 0; k < N; k++)
        ssr += (Y[k] - th / MU[k]) * (Y[k] - th / MU[k]);
    s2 = ssr / (N - 1);
    *centre = th * x0;
    *half_pred = T95_3 * sqrt(s2 * (1.0 + x0 * x0 / sxx));
    *half_conf = T95_3 * sqrt(s2 * x0 * x0 / sxx);
}

/* A copy of the calibrated model file through its text (write + read). */
static zvp_model_file *through_file(const zvp_model_file *mf, const char *name)
{
    char path[256];
    zvp_model_file *back = NULL;
    zvp_error err;
    snprintf(path, sizeof path, "/tmp/zvp_test_interval_%s_%d.ini", name, (int)getpid());
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, path, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(path, &back, &err), ZVP_SUCCESS);
    remove(path);
    return back;
}

static void test_roundtrip(void)
{
    zvp_fit_result *res = linear_fit();
    const zvp_model_file *mf = zvp_fit_result_model_file(res);
    zvp_model_file *a = through_file(mf, "a"), *b = through_file(a, "b");
    const zvp_model *m = zvp_model_file_model(mf);
    double lo, hi;
    CU_ASSERT_EQUAL(zvp_model_file_n_covariance(a), 1);
    CU_ASSERT_EQUAL(zvp_model_file_covariance(a)[0], zvp_model_file_covariance(mf)[0]);
    CU_ASSERT_EQUAL(zvp_model_file_transform_at(a, 0, &lo, &hi),
                    (size_t)zvp_model_param_index(m, "arrival_rate_per_s", NULL));
    CU_ASSERT_EQUAL(lo, 0.01);
    CU_ASSERT_EQUAL(hi, 1.9);
    CU_ASSERT_EQUAL(zvp_model_file_dof_effective(a), 3.0);
    for (size_t j = 0; j < m->n_outputs; j++) {
        double x = zvp_model_file_residual_variance(mf, j, NULL),
               y = zvp_model_file_residual_variance(a, j, NULL);
        CU_ASSERT(x == y || (isnan(x) && isnan(y)));
    }
    CU_ASSERT_STRING_EQUAL(zvp_model_file_text(a), zvp_model_file_text(b)); /* exact */
    /* the covariance of u maps to the reported covariance of theta by the delta method */
    double th = zvp_fit_result_estimates(res)[0], d = (th - 0.01) * (1.9 - th) / (1.9 - 0.01);
    CU_ASSERT_DOUBLE_EQUAL(zvp_model_file_covariance(a)[0] * d * d,
                           zvp_fit_result_covariance(res)[0], 1e-15);
    zvp_model_file_free(a);
    zvp_model_file_free(b);
    zvp_fit_result_free(res);
}

static void test_bad_sections(void)
{
    static const char *const bad[] = {
        "[model]\nname = mmc\n[covariance]\narrival_rate_per_s = 1\n", /* no transform */
        "[model]\nname = mmc\n[transform]\narrival_rate_per_s = logistic 1 0\n",
        "[model]\nname = mmc\n[transform]\narrival_rate_per_s = logistic 0 2\n"
        "service_rate_per_s = logistic 0 9\n[covariance]\narrival_rate_per_s = 1 2\n"
        "service_rate_per_s = 3 1\n", /* not symmetric */
        "[model]\nname = mmc\n[residual_variance]\nutilization = 1 sideways\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        zvp_model_file *mf = NULL;
        zvp_error err;
        CU_ASSERT_NOT_EQUAL(zvp_model_file_parse("t", bad[i], strlen(bad[i]), &mf, &err),
                            ZVP_SUCCESS);
        CU_ASSERT_PTR_NULL(mf);
    }
}

static void test_delta_exact(void)
{
    zvp_fit_result *res = linear_fit();
    zvp_model_file *mf = through_file(zvp_fit_result_model_file(res), "d");
    const zvp_model *m = zvp_model_file_model(mf);
    size_t ju = (size_t)zvp_model_output_index(m, "utilization", NULL);
    double *v = calloc(3 * m->n_outputs, sizeof *v), *lo = v + m->n_outputs, *hi = lo + m->n_outputs;
    double c, hp, hc, share = -1;
    zvp_interval_options o = zvp_interval_default_options();
    zvp_error err;
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_set(mf, "service_rate_per_s", 3.0, &err), ZVP_SUCCESS);
    exact(3.0, &c, &hp, &hc);
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, &share, &err), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(v[ju], c, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(lo[ju], c - hp, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(hi[ju], c + hp, 1e-7);
    CU_ASSERT_EQUAL(share, 0.0);
    o.prediction = 0;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, NULL, &err), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(lo[ju], c - hc, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(hi[ju], c + hc, 1e-7);
    /* Monte Carlo: near-linear here, so within MC error of the exact bounds; the interval
     * contains the value; the same bits on 1 and 2 threads */
    o.prediction = 1;
    o.method = ZVP_INTERVAL_MC;
    o.samples = 40000;
    o.threads = 1;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, &share, &err), ZVP_SUCCESS);
    /* the draws treat the covariance and s^2 as known: normal quantiles, not Student t */
    hp *= 1.6448536269514722 / T95_3;
    CU_ASSERT_DOUBLE_EQUAL(lo[ju], c - hp, 0.03 * hp);
    CU_ASSERT_DOUBLE_EQUAL(hi[ju], c + hp, 0.03 * hp);
    CU_ASSERT(lo[ju] < v[ju] && v[ju] < hi[ju]);
    CU_ASSERT_EQUAL(share, 0.0);
    double lo1 = lo[ju], hi1 = hi[ju];
    o.threads = 2;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, NULL, &err), ZVP_SUCCESS);
    CU_ASSERT(memcmp(&lo1, &lo[ju], sizeof lo1) == 0 && memcmp(&hi1, &hi[ju], sizeof hi1) == 0);
    o.seed = 2;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, NULL, &err), ZVP_SUCCESS);
    CU_ASSERT(lo1 != lo[ju]);
    free(v);
    zvp_model_file_free(mf);
    zvp_fit_result_free(res);
}

/* A grid equals its points one by one (seeded by flat index), for 1 and 2 threads. */
static void test_grid_points(void)
{
    zvp_fit_result *res = linear_fit();
    const zvp_model_file *mf = zvp_fit_result_model_file(res);
    const zvp_model *m = zvp_model_file_model(mf);
    static const double rates[5] = {2.5, 3.0, 4.0, 6.0, 9.0};
    zvp_axis ax = {"service_rate_per_s", rates, 5};
    size_t no = m->n_outputs, k = (size_t)zvp_model_param_index(m, "service_rate_per_s", NULL);
    double *g = calloc(6 * no * 5 + 3 * no, sizeof *g), *one = g + 6 * no * 5;
    uint8_t st[10], s1;
    zvp_interval_options o = zvp_interval_default_options();
    zvp_error err;
    for (int method = 0; method < 2; method++) {
        o.method = method;
        o.samples = 300;
        for (int t = 1; t <= 2; t++) {
            double *b = g + (size_t)(t - 1) * 3 * no * 5;
            o.threads = t;
            CU_ASSERT_EQUAL_FATAL(zvp_interval_grid(mf, zvp_model_file_params((zvp_model_file *)mf),
                                                    &ax, 1, 0, 5, &o, b, b + no * 5, b + 2 * no * 5,
                                                    NULL, st + 5 * (t - 1), &err), ZVP_SUCCESS);
        }
        CU_ASSERT(memcmp(g, g + 3 * no * 5, 3 * no * 5 * sizeof *g) == 0);
        for (size_t i = 0; i < 5; i++) {
            CU_ASSERT_EQUAL_FATAL(zvp_interval_points(mf, zvp_model_file_params((zvp_model_file *)mf),
                                                      i, 1, 1, &k, &rates[i], &o, one, one + no,
                                                      one + 2 * no, NULL, &s1, &err), ZVP_SUCCESS);
            for (size_t j = 0; j < no; j++)
                for (size_t q = 0; q < 3; q++) {
                    double x = g[q * no * 5 + j * 5 + i], y = one[q * no + j];
                    CU_ASSERT(memcmp(&x, &y, sizeof x) == 0);
                }
        }
    }
    free(g);
    zvp_fit_result_free(res);
}

static void test_errors(void)
{
    zvp_model_file *mf = zvp_model_file_new(zvp_test_find_model("mmc"));
    zvp_fit_result *res = linear_fit();
    double v[16], lo[16], hi[16];
    zvp_interval_options o = zvp_interval_default_options();
    zvp_interval_range r = {"servers", 1, 4};
    zvp_error err;
    CU_ASSERT_EQUAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, NULL, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "undefined"));
    o.level = 1.0;
    CU_ASSERT_EQUAL(zvp_interval_eval(zvp_fit_result_model_file(res), NULL, &o, v, lo, hi, NULL,
                                      &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "level"));
    o.level = 0.9;
    o.ranges = &r;
    o.n_ranges = 1;
    CU_ASSERT_EQUAL(zvp_interval_eval(zvp_fit_result_model_file(res), NULL, &o, v, lo, hi, NULL,
                                      &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "method mc"));
    o.method = ZVP_INTERVAL_MC;
    o.samples = 200;
    CU_ASSERT_EQUAL(zvp_interval_eval(zvp_fit_result_model_file(res), NULL, &o, v, lo, hi, NULL,
                                      &err), ZVP_SUCCESS);
    /* servers is a whole number: a range with a fractional end would draw other values than
     * the centre the caller set (2.5..4 draws 3..4), so it is refused, naming the range */
    r.lo = 2.5;
    CU_ASSERT_EQUAL(zvp_interval_eval(zvp_fit_result_model_file(res), NULL, &o, v, lo, hi, NULL,
                                      &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "servers = 2.5..4"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "whole"));
    r.lo = 1;
    r.hi = 3.5;
    CU_ASSERT_EQUAL(zvp_interval_eval(zvp_fit_result_model_file(res), NULL, &o, v, lo, hi, NULL,
                                      &err), ZVP_EINVAL);
    zvp_model_file_free(mf);
    zvp_fit_result_free(res);
}

int zvp_test_register_interval(void)
{
    CU_pSuite s = CU_add_suite("interval", NULL, NULL);
    if (!s || !CU_add_test(s, "covariance sections round-trip exactly", test_roundtrip) ||
        !CU_add_test(s, "malformed covariance sections", test_bad_sections) ||
        !CU_add_test(s, "delta = exact interval of a linear fit; MC near it", test_delta_exact) ||
        !CU_add_test(s, "grid = its points, any thread count", test_grid_points) ||
        !CU_add_test(s, "errors", test_errors))
        return -1;
    return 0;
}
