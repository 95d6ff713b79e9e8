/*
 * tests/test_validate.c - cross-validation (zvp_fit_validate), dependent cells and the
 * effective degrees of freedom, elasticities (zvp_sensitivity).
 *
 * Expected values come from closed forms computed here, not from the library:
 *  - M/M/1 (model mmc, servers = 1) at mu = 2.5/s: R = 1 / (mu - lambda); exact data give
 *    every fold mu = 2.5 and CV MAPE ~ 0;
 *  - a linear case: utilization = lambda / mu_i is y_i = theta x_i with x_i = 1 / mu_i, fitted
 *    with absolute residuals: least squares through the origin, theta = sum x y / sum x^2; the
 *    leave-one-out prediction of row i is theta_(-i) x_i, its 90% prediction interval
 *    +- t_{0.95, n-2} s_(-i) sqrt(1 + x_i^2 / sum_(-i) x^2), s^2 = SSR / (n - 2);
 *  - elasticities of M/M/1: d ln R / d ln lambda = rho / (1 - rho), d ln R / d ln mu =
 *    -1 / (1 - rho), d ln utilization / d ln lambda = 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "fit_fixtures.h"
#include "mm1_fit.h"

#define N_LAMBDA 6
static const double LAMBDA[N_LAMBDA] = {0.25, 0.5, 1.0, 1.5, 2.0, 2.25};

/* mmc, servers = 1, arrival rate per row, service rate free, response_s matched. */
static zvp_fit *mm1_fit(const double *y, size_t n)
{
    zvp_error err;
    zvp_fit *fit = zvp_test_mm1_declared("arrival_rate_per_s", "service_rate_per_s", 5.0, 2.3,
                                         20.0, "response_s");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, n, NULL, LAMBDA, y, &err), ZVP_SUCCESS);
    return fit;
}

static zvp_validation *validate_ok(const zvp_fit *fit, const zvp_validate_options *o)
{
    zvp_validation *v = NULL;
    zvp_error err;
    int st = zvp_fit_validate(fit, o, &v, &err);
    if (st)
        fprintf(stderr, "\nvalidate: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
    return v;
}

/* Exact M/M/1 data: every fold recovers mu, the held-out predictions are exact. */
static void test_loo_exact(void)
{
    double y[N_LAMBDA];
    for (size_t i = 0; i < N_LAMBDA; i++)
        y[i] = 1.0 / (MU_TRUE - LAMBDA[i]);
    zvp_fit *fit = mm1_fit(y, N_LAMBDA);
    zvp_validation *v = validate_ok(fit, NULL);
    CU_ASSERT_STRING_EQUAL(zvp_validation_scheme(v), "loo");
    CU_ASSERT_EQUAL(zvp_validation_n_folds(v), N_LAMBDA);
    CU_ASSERT_EQUAL(zvp_validation_dof_effective(v), N_LAMBDA - 1);
    for (size_t f = 0; f < N_LAMBDA; f++) {
        CU_ASSERT_EQUAL(zvp_validation_fold_status(v, f), ZVP_FOLD_OK);
        CU_ASSERT_EQUAL(zvp_validation_fold_n_held(v, f), 1);
        CU_ASSERT_EQUAL(zvp_validation_fold_dof(v, f), N_LAMBDA - 2);
        CU_ASSERT_DOUBLE_EQUAL(zvp_validation_fold_estimates(v, f)[0], MU_TRUE, 1e-6);
        CU_ASSERT_EQUAL(zvp_validation_row_fold(v, f), f);
        CU_ASSERT_STRING_EQUAL(zvp_validation_row_data_file(v, f), "");
    }
    CU_ASSERT(zvp_validation_cv_mape_all(v) < 1e-4);
    CU_ASSERT(zvp_validation_in_sample_mape_all(v) < 1e-4);
    CU_ASSERT_STRING_EQUAL(zvp_validation_row_id(v, 2), "row 3");
    zvp_validation_free(v);
    zvp_fit_free(fit);
}

/* Noisy data (the perturbations of tests/data/mm1_noisy.csv): predicting is worse than
 * fitting; every row keeps its data file; the same result for 1 and 2 threads. */
static void test_loo_noisy(void)
{
    zvp_fit *fit = NULL;
    zvp_error err;
    zvp_validate_options o = zvp_validate_default_options();
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("data/fit_mm1_noisy.ini", &fit, &err), ZVP_SUCCESS);
    o.threads = 1;
    zvp_validation *v1 = validate_ok(fit, &o);
    o.threads = 2;
    zvp_validation *v2 = validate_ok(fit, &o);
    size_t n = zvp_validation_n_rows(v1), cells, with, cov;
    CU_ASSERT(zvp_validation_cv_mape_all(v1) > zvp_validation_in_sample_mape_all(v1));
    CU_ASSERT(zvp_validation_cv_mape(v1, 0) > zvp_validation_in_sample_mape(v1, 0));
    CU_ASSERT_EQUAL(memcmp(zvp_validation_predicted(v1), zvp_validation_predicted(v2),
                           n * sizeof(double)), 0);
    CU_ASSERT_EQUAL(memcmp(zvp_validation_lo(v1), zvp_validation_lo(v2), n * sizeof(double)), 0);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_STRING_EQUAL(zvp_validation_row_data_file(v1, i), "data/mm1_noisy.csv");
    zvp_validation_coverage_counts(v1, &cells, &with, &cov);
    CU_ASSERT_EQUAL(cells, n);
    CU_ASSERT_EQUAL(with, n);
    CU_ASSERT_DOUBLE_EQUAL(zvp_validation_coverage_pct(v1), 100.0 * (double)cov / (double)n, 1e-12);
    zvp_validation_free(v1);
    zvp_validation_free(v2);
    zvp_fit_free(fit);
}

/* The linear case by hand: 3 rows, leave-one-out predictions and 90% intervals. */
static void test_loo_linear(void)
{
    static const double mu[3] = {2.0, 4.0, 5.0}, y[3] = {0.26, 0.12, 0.11};
    const double t95_1 = 6.313751514675043; /* Student t, 0.95 quantile, 1 dof */
    zvp_fit *fit = zvp_test_mm1_linear(3, mu, y, 0.0);
    zvp_validation *v = validate_ok(fit, NULL);
    const double *pred = zvp_validation_predicted(v), *lo = zvp_validation_lo(v),
                 *hi = zvp_validation_hi(v);
    double ape = 0.0;
    for (size_t i = 0; i < 3; i++) {
        double sxy = 0.0, sxx = 0.0, ssr = 0.0, th, xi = 1.0 / mu[i], half;
        for (size_t k = 0; k < 3; k++)
            if (k != i) {
                sxy += y[k] / mu[k];
                sxx += 1.0 / (mu[k] * mu[k]);
            }
        th = sxy / sxx;
        for (size_t k = 0; k < 3; k++)
            if (k != i)
                ssr += (y[k] - th / mu[k]) * (y[k] - th / mu[k]);
        half = t95_1 * sqrt(ssr / 1.0 * (1.0 + xi * xi / sxx));
        CU_ASSERT_DOUBLE_EQUAL(zvp_validation_fold_estimates(v, i)[0], th, 1e-7);
        CU_ASSERT_DOUBLE_EQUAL(pred[i], th * xi, 1e-7);
        CU_ASSERT_DOUBLE_EQUAL(lo[i], th * xi - half, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(hi[i], th * xi + half, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(zvp_validation_row_cv_mape(v, i), 100.0 * fabs(th * xi - y[i]) / y[i],
                               1e-5);
        ape += 100.0 * fabs(th * xi - y[i]) / y[i];
    }
    CU_ASSERT_DOUBLE_EQUAL(zvp_validation_cv_mape_all(v), ape / 3.0, 1e-5);
    zvp_validation_free(v);
    zvp_fit_free(fit);
}

/* Group folds from keys: 3 groups of 2 rows; a fit file's data column as the key. */
static void test_group_folds(void)
{
    static const char *const keys[N_LAMBDA] = {"a", "a", "b", "b", "c", "c"};
    double y[N_LAMBDA];
    zvp_validate_options o = zvp_validate_default_options();
    zvp_fit *fit, *ff = NULL;
    zvp_validation *v = NULL;
    zvp_error err;
    for (size_t i = 0; i < N_LAMBDA; i++)
        y[i] = 1.0 / (MU_TRUE - LAMBDA[i]);
    fit = mm1_fit(y, N_LAMBDA);
    o.scheme = ZVP_VALIDATE_GROUP;
    o.group_keys = keys;
    v = validate_ok(fit, &o);
    CU_ASSERT_EQUAL(zvp_validation_n_folds(v), 3);
    for (size_t f = 0; f < 3; f++) {
        CU_ASSERT_EQUAL(zvp_validation_fold_n_held(v, f), 2);
        CU_ASSERT_STRING_EQUAL(zvp_validation_fold_key(v, f), keys[2 * f]);
        CU_ASSERT_EQUAL(zvp_validation_fold_dof(v, f), N_LAMBDA - 2 - 1);
        CU_ASSERT_DOUBLE_EQUAL(zvp_validation_fold_estimates(v, f)[0], MU_TRUE, 1e-6);
    }
    for (size_t i = 0; i < N_LAMBDA; i++)
        CU_ASSERT_EQUAL(zvp_validation_row_fold(v, i), i / 2);
    zvp_validation_free(v);
    /* a column the in-memory fit does not keep */
    o.group_keys = NULL;
    o.group_column = "storage_gb";
    CU_ASSERT_EQUAL(zvp_fit_validate(fit, &o, &v, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "storage_gb"));
    CU_ASSERT_PTR_NULL(v);
    /* one group only: one fold holds every row, nothing is left to refit: refused (no NaN
     * cross-validated error), the message naming the scheme and the one value */
    static const char *const same[N_LAMBDA] = {"x", "x", "x", "x", "x", "x"};
    o.group_keys = same;
    v = NULL;
    CU_ASSERT_EQUAL(zvp_fit_validate(fit, &o, &v, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "scheme group:(keys)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "one value ('x') in all 6 rows"));
    zvp_validation_free(v);
    zvp_fit_free(fit);
    /* from a fit file: the join-key column of tests/data/fit_mm1_join.ini's data */
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("data/fit_mm1_noisy.ini", &ff, &err), ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(zvp_fit_row_column(ff, 0, "runid"), "n1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_row_column(ff, 1, "arrival_rate_per_s"), "0.5");
    CU_ASSERT_PTR_NULL(zvp_fit_row_column(ff, 0, "nope"));
    o.group_keys = NULL;
    o.group_column = "runid";
    v = validate_ok(ff, &o);
    CU_ASSERT_EQUAL(zvp_validation_n_folds(v), zvp_fit_n_rows(ff));
    CU_ASSERT_STRING_EQUAL(zvp_validation_scheme(v), "group:runid");
    zvp_validation_free(v);
    zvp_fit_free(ff);
}

/* Saturated: 2 cells, one declared dependent, 1 parameter -> dof 0, NaN stderr, the report
 * says so; LOO folds with no cell left are reported, not skipped, and have no interval. */
static void test_saturated(void)
{
    double y[2] = {1.0 / (MU_TRUE - LAMBDA[0]), 1.0 / (MU_TRUE - LAMBDA[1])};
    zvp_fit *fit = mm1_fit(y, 2);
    zvp_fit_result *res = NULL;
    zvp_validation *v;
    zvp_error err;
    char buf[8192];
    size_t cells, with, cov;
    CU_ASSERT_EQUAL(zvp_fit_n_independent(fit), 2);
    CU_ASSERT_EQUAL(zvp_fit_set_dependent(fit, 1, 0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_dependent(fit, 1, 0, &err), ZVP_SUCCESS); /* twice: no-op */
    CU_ASSERT_EQUAL(zvp_fit_set_dependent(fit, 2, 0, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_fit_cell_dependent(fit, 1, 0), 1);
    CU_ASSERT_EQUAL(zvp_fit_cell_dependent(fit, 0, 0), 0);
    CU_ASSERT_EQUAL(zvp_fit_n_independent(fit), 1);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(fit, &res, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 1);           /* 2 measured cells - 1 */
    CU_ASSERT_EQUAL(zvp_fit_result_dof_effective(res), 0); /* 1 independent cell - 1 */
    CU_ASSERT_EQUAL(zvp_fit_result_n_independent(res), 1);
    CU_ASSERT_EQUAL(zvp_fit_result_saturated(res), 1);
    CU_ASSERT(isnan(zvp_fit_result_stderrs(res)[0]));
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6); /* the estimate stays */
    FILE *fp = fmemopen(buf, sizeof buf, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    zvp_fit_result_print(res, fp);
    fclose(fp);
    buf[sizeof buf - 1] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "saturated: standard errors undefined"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "1 independent, 1 declared dependent"));
    zvp_fit_result_free(res);
    v = validate_ok(fit, NULL);
    CU_ASSERT_EQUAL(zvp_validation_dof_effective(v), 0);
    /* holding out row 1 leaves row 0 (1 cell, 1 parameter: dof 0, no interval); holding out
     * row 0 leaves the dependent cell only: too few */
    CU_ASSERT_EQUAL(zvp_validation_fold_status(v, 0), ZVP_FOLD_TOO_FEW);
    CU_ASSERT_PTR_NOT_NULL(strstr(zvp_validation_fold_message(v, 0), "0 independent cells"));
    CU_ASSERT_PTR_NULL(zvp_validation_fold_estimates(v, 0));
    CU_ASSERT_EQUAL(zvp_validation_fold_status(v, 1), ZVP_FOLD_OK);
    CU_ASSERT_EQUAL(zvp_validation_fold_dof(v, 1), 0);
    CU_ASSERT(isnan(zvp_validation_predicted(v)[0]));
    CU_ASSERT_DOUBLE_EQUAL(zvp_validation_predicted(v)[1], y[1], 1e-6);
    CU_ASSERT(isnan(zvp_validation_lo(v)[1]));
    zvp_validation_coverage_counts(v, &cells, &with, &cov);
    CU_ASSERT_EQUAL(cells, 2);
    CU_ASSERT_EQUAL(with, 0);
    CU_ASSERT(isnan(zvp_validation_coverage_pct(v))); /* no interval: undefined, not 0 % */
    zvp_validation_free(v);
    zvp_fit_free(fit);
}

/* [dependent] in a fit file: a whole output, errors naming the problem. (mean_in_queue reads
 * the mean_in_system column: a stand-in measurement within the output's range [0, inf).) */
static void test_dependent_file(void)
{
    char path[512];
    zvp_fit *fit = NULL;
    zvp_error err;
    const char *two = "[fit]\nmodel = mmc\ndata = ../data/mm1_exact.csv\n" FIT_FIXED FREE_OK
                      "[match]\nmean_in_system = mean_in_system\nmean_in_queue = mean_in_system\n";
    char text[2048];
    snprintf(text, sizeof text,
             "%s[dependent]\n"
             "mean_in_queue = mean_in_system * mean_in_system / (1 + mean_in_system)\n",
             two);
    zvp_test_write_fit("dep_ok", text, path, sizeof path);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(path, &fit, &err), ZVP_SUCCESS);
    /* both outputs read the mean_in_system column (r4 empty): 2 (n - 1) measured cells, the
     * n - 1 mean_in_queue cells dependent */
    CU_ASSERT_EQUAL(zvp_fit_n_independent(fit), zvp_fit_n_rows(fit) - 1);
    CU_ASSERT_EQUAL(zvp_fit_cell_dependent(fit, 0, 1), 1);
    CU_ASSERT_EQUAL(zvp_fit_cell_dependent(fit, 0, 0), 0);
    zvp_fit_free(fit);
    snprintf(text, sizeof text, "%s[dependent]\nmean_in_queue = mean_in_system / nonsense\n", two);
    zvp_test_write_fit("dep_bad", text, path, sizeof path);
    CU_ASSERT_EQUAL(zvp_fit_read(path, &fit, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'nonsense'"));
    snprintf(text, sizeof text, "%s[dependent]\nmean_in_queue = mean_in_system\n"
             "mean_in_system = mean_in_queue\n", two);
    zvp_test_write_fit("dep_cycle", text, path, sizeof path);
    CU_ASSERT_EQUAL(zvp_fit_read(path, &fit, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "itself declared dependent"));
    snprintf(text, sizeof text, "%s[dependent]\nr2.mean_in_queue = 0.2\nbogus.mean_in_queue = 1\n", two);
    zvp_test_write_fit("dep_row", text, path, sizeof path);
    CU_ASSERT_EQUAL(zvp_fit_read(path, &fit, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bogus.mean_in_queue"));
}

/* M/M/1 elasticities against their closed forms at rho = 0.8. */
static void test_sensitivity_mm1(void)
{
    const zvp_model *m = zvp_test_find_model("mmc");
    double p[16], el[256], y[16], rho = 0.8;
    int why[256];
    zvp_error err;
    long il = zvp_model_param_index(m, "arrival_rate_per_s", &err),
         im = zvp_model_param_index(m, "service_rate_per_s", &err),
         ic = zvp_model_param_index(m, "servers", &err),
         jr = zvp_model_output_index(m, "response_s", &err),
         ju = zvp_model_output_index(m, "utilization", &err);
    size_t np = m->n_params;
    CU_ASSERT_FATAL(il >= 0 && im >= 0 && ic >= 0 && jr >= 0 && ju >= 0 && np <= 16);
    zvp_model_defaults(m, p);
    p[ic] = 1;
    p[im] = 2.5;
    p[il] = rho * 2.5;
    CU_ASSERT_EQUAL_FATAL(zvp_sensitivity(m, p, 0.0, el, why, y, &err), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(y[jr], 1.0 / (2.5 - 2.0), 1e-12);
    /* central differences with h = 1e-4: truncation error ~ e (h / (1 - rho))^2 ~ 1e-6 */
    CU_ASSERT_DOUBLE_EQUAL(el[(size_t)jr * np + (size_t)il], rho / (1 - rho), 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(el[(size_t)jr * np + (size_t)im], -1.0 / (1 - rho), 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(el[(size_t)ju * np + (size_t)il], 1.0, 1e-8);
    CU_ASSERT(fabs(el[(size_t)jr * np + (size_t)il]) > 3.0); /* a knife-edge */
    CU_ASSERT(isnan(el[(size_t)jr * np + (size_t)ic]));
    CU_ASSERT_EQUAL(why[(size_t)jr * np + (size_t)ic], ZVP_SENS_INTEGER);
    /* lambda = 0: no logarithm of the parameter; utilization 0: none of the output */
    p[il] = 0.0;
    CU_ASSERT_EQUAL_FATAL(zvp_sensitivity(m, p, 1e-4, el, why, NULL, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(why[(size_t)jr * np + (size_t)il], ZVP_SENS_ZERO_PARAM);
    CU_ASSERT_EQUAL(why[(size_t)ju * np + (size_t)im], ZVP_SENS_ZERO_OUTPUT);
    CU_ASSERT(isnan(el[(size_t)ju * np + (size_t)im]));
    /* no steady state at the point itself; step out of range */
    p[il] = 3.0;
    CU_ASSERT_EQUAL(zvp_sensitivity(m, p, 0.0, el, why, NULL, &err), ZVP_EUNSTABLE);
    CU_ASSERT_EQUAL(zvp_sensitivity(m, p, 0.5, el, why, NULL, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "rel_step"));
}

/* Arguments. */
static void test_validate_args(void)
{
    double y[N_LAMBDA];
    zvp_validate_options o = zvp_validate_default_options();
    zvp_validation *v = NULL;
    zvp_error err;
    for (size_t i = 0; i < N_LAMBDA; i++)
        y[i] = 1.0 / (MU_TRUE - LAMBDA[i]);
    zvp_fit *fit = mm1_fit(y, N_LAMBDA);
    CU_ASSERT_EQUAL(zvp_fit_validate(NULL, NULL, &v, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_fit_validate(fit, NULL, NULL, &err), ZVP_EINVAL);
    o.threads = -1;
    CU_ASSERT_EQUAL(zvp_fit_validate(fit, &o, &v, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "threads = -1"));
    o = zvp_validate_default_options();
    o.level = 1.0;
    CU_ASSERT_EQUAL(zvp_fit_validate(fit, &o, &v, &err), ZVP_EINVAL);
    o = zvp_validate_default_options();
    o.scheme = ZVP_VALIDATE_GROUP;
    CU_ASSERT_EQUAL(zvp_fit_validate(fit, &o, &v, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT(isnan(zvp_validation_cv_mape_all(NULL)));
    CU_ASSERT_EQUAL(zvp_validation_worst(NULL, NULL, NULL, NULL), -1);
    zvp_validation_free(NULL);
    zvp_fit_free(fit);
}

/* A measured value too small for a relative residual ((f - y) / |y| overflows the cost) is
 * refused before the fit runs, as a measured 0 is; absolute residuals take it. */
static void test_tiny_measured(void)
{
    double y[2] = {1e-200, 1.0 / (MU_TRUE - LAMBDA[1])};
    zvp_fit *fit = mm1_fit(y, 2);
    zvp_fit_result *res = NULL;
    zvp_fit_parameters pp = zvp_fit_default_parameters();
    zvp_error err;
    CU_ASSERT_EQUAL(zvp_fit_run(fit, &res, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NULL(res);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "row 1 (row 1) measures response_s = 1e-200"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "below 1e-100 in magnitude"));
    pp.residual = ZVP_FIT_ABSOLUTE;
    CU_ASSERT_EQUAL(zvp_fit_run_with(fit, &pp, &res, &err), ZVP_SUCCESS);
    zvp_fit_result_free(res);
    zvp_fit_free(fit);
}

int zvp_test_register_validate(void)
{
    CU_pSuite s = CU_add_suite("validate", NULL, NULL);
    if (!s || !CU_add_test(s, "LOO on exact M/M/1 data", test_loo_exact) ||
        !CU_add_test(s, "LOO on noisy data: CV MAPE > in-sample", test_loo_noisy) ||
        !CU_add_test(s, "LOO linear case by hand (predictions, intervals)", test_loo_linear) ||
        !CU_add_test(s, "group folds", test_group_folds) ||
        !CU_add_test(s, "saturated fit and too-few folds", test_saturated) ||
        !CU_add_test(s, "[dependent] in fit files", test_dependent_file) ||
        !CU_add_test(s, "M/M/1 elasticities", test_sensitivity_mm1) ||
        !CU_add_test(s, "arguments", test_validate_args) ||
        !CU_add_test(s, "a measured value below 1e-100 with relative residuals",
                     test_tiny_measured))
        return -1;
    return 0;
}
