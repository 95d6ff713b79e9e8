/*
 * tests/test_calibrate.c - measurement tables (CSV) and calibration (fit files, GSL fits,
 * reports).
 *
 * Expected values: the table fixture is typed in by hand; the fits use synthetic M/M/1 data
 * (tests/data/mm1_*.csv) computed from the closed form L = rho / (1 - rho), rho = lambda/mu,
 * with mu = 2.5/s, by /usr/bin/python3 (not by the library). The noisy fit is checked against
 * an independent scipy.optimize.least_squares fit (see test_fit_noisy). The `where` filter and
 * the concatenation of data files use tests/data/mm1_where.csv (site a: mu = 2.5/s, site b:
 * mu = 4/s, same closed form) and tests/data/mm1_exact_more.csv (mu = 2.5/s): a filter that
 * kept the wrong rows would mix the two service rates and miss both.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define MU_TRUE 2.5

/* ---- tables ---------------------------------------------------------------------------- */

static void test_table_read_basic(void)
{
    zvp_table *t = NULL;
    zvp_error err;
    int st = zvp_table_read("data/table_basic.csv", &t, &err);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(zvp_table_rows(t), 3);
    CU_ASSERT_EQUAL(zvp_table_cols(t), 4);
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 0), "runid");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_unit(t, 0), "");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 1), "storage_gb");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_unit(t, 1), "GiB");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 2), "rate");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_unit(t, 2), "1/s");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 3), "note");
    /* text cells */
    CU_ASSERT(isnan(zvp_table_value(t, 0, 0)));
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 0, 0), "A1");
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 2, 0), "C3");
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 0, 3), "hello, world");
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 2, 3), "x"); /* CR removed */
    /* numbers */
    CU_ASSERT_EQUAL(zvp_table_value(t, 0, 1), 256.0);
    CU_ASSERT_EQUAL(zvp_table_value(t, 1, 1), 512.0);
    CU_ASSERT_EQUAL(zvp_table_value(t, 2, 1), 1024.0);
    CU_ASSERT_EQUAL(zvp_table_value(t, 0, 2), 1.5);
    CU_ASSERT_EQUAL(zvp_table_value(t, 2, 2), 2500.0);
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 2, 2), "2.5e3");
    /* empty cell */
    CU_ASSERT(isnan(zvp_table_value(t, 1, 2)));
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 1, 2), "");
    /* out of range */
    CU_ASSERT(isnan(zvp_table_value(t, 3, 0)));
    CU_ASSERT(isnan(zvp_table_value(t, 0, 4)));
    CU_ASSERT_PTR_NULL(zvp_table_text(t, 0, 4));
    CU_ASSERT_PTR_NULL(zvp_table_text(t, 3, 0));
    CU_ASSERT_PTR_NULL(zvp_table_col_name(t, 4));
    CU_ASSERT_PTR_NULL(zvp_table_col_unit(t, 4));
    /* NULL table (calibrate.h): 0 rows and columns, NULL / NaN cells */
    CU_ASSERT_EQUAL(zvp_table_rows(NULL), 0);
    CU_ASSERT_EQUAL(zvp_table_cols(NULL), 0);
    CU_ASSERT(isnan(zvp_table_value(NULL, 0, 0)));
    CU_ASSERT_PTR_NULL(zvp_table_text(NULL, 0, 0));
    CU_ASSERT_PTR_NULL(zvp_table_col_name(NULL, 0));
    /* column lookup */
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "rate", &err), 2);
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "nosuch_column", &err), -1);
    CU_ASSERT_EQUAL(err.status, ZVP_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nosuch_column"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "storage_gb")); /* lists the columns */
    zvp_table_free(t);
    zvp_table_free(NULL);
}

static void test_table_read_ragged(void)
{
    zvp_table *t = (zvp_table *)1;
    zvp_error err;
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_table_read("data/table_ragged.csv", &t, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_EQUAL(err.status, ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "data/table_ragged.csv:4"));
}

static void test_table_read_missing(void)
{
    zvp_table *t = (zvp_table *)1;
    zvp_error err;
    CU_ASSERT_EQUAL(zvp_table_read("data/no_such_table.csv", &t, &err), ZVP_EIO);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "data/no_such_table.csv"));
}

static void test_table_read_no_header(void)
{
    zvp_table *t = NULL;
    zvp_error err;
    zvp_test_write_file(ZVP_TEST_TMPDIR "/only_comments.csv", "# nothing but a comment\n\n");
    CU_ASSERT_EQUAL(zvp_table_read(ZVP_TEST_TMPDIR "/only_comments.csv", &t, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(t);
}

/* ---- fits ------------------------------------------------------------------------------ */

static int file_contains(const char *path, const char *needle)
{
    char buf[16384];
    size_t n;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

static void test_fit_recover_exact(void)
{
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    zvp_error err;
    const double lambda[7] = {0.25, 0.5, 1.0, 1.25, 1.5, 2.0, 2.25};
    const zvp_model_file *mf;
    const char *out;
    FILE *fp;

    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("data/fit_mm1.ini", &fit, &err), ZVP_SUCCESS);
    out = zvp_fit_output_path(fit);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_STRING_EQUAL(out, "data/../tmp/mm1-calibrated.ini");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(fit, &res, &err), ZVP_SUCCESS);

    CU_ASSERT_EQUAL(zvp_fit_result_n_free(res), 1);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_param_name(res, 0), "service_rate_per_s");
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    CU_ASSERT(zvp_fit_result_stderrs(res)[0] >= 0.0);
    CU_ASSERT(zvp_fit_result_stderrs(res)[0] < 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 7);
    CU_ASSERT_EQUAL(zvp_fit_result_n_matched(res), 1);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_output_name(res, 0), "mean_in_system");
    CU_ASSERT(zvp_fit_result_r2(res, 0) > 1.0 - 1e-10);
    CU_ASSERT(zvp_fit_result_mape(res, 0) < 1e-4);
    CU_ASSERT(zvp_fit_result_mape_all(res) < 1e-4);
    CU_ASSERT(zvp_fit_result_rmse(res, 0) < 1e-5);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 5); /* 6 measured cells - 1 */
    CU_ASSERT(zvp_fit_result_cost(res) < 1e-12);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "r1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 6), "r7");
    /* measured and fitted per row; r4 (row 3) is not measured */
    for (size_t i = 0; i < 7; i++)
        ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[i], zvp_test_mm1_mean_in_system(lambda[i] / MU_TRUE), 1e-5);
    CU_ASSERT(isnan(zvp_fit_result_measured(res)[3]));
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[6], 9.0, 1e-15);
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[3], 1.0, 1e-5); /* rho = 0.5 */

    /* the calibrated model file: fitted + fixed values and the standard error */
    mf = zvp_fit_result_model_file(res);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_STRING_EQUAL(zvp_model_file_model(mf)->name, "mmc");
    CU_ASSERT_EQUAL(zvp_model_file_params((zvp_model_file *)mf)[1],
                    zvp_fit_result_estimates(res)[0]);
    CU_ASSERT_EQUAL(zvp_model_file_params((zvp_model_file *)mf)[2], 1.0);
    CU_ASSERT_EQUAL(zvp_model_file_stderr(mf, 1), zvp_fit_result_stderrs(res)[0]);
    CU_ASSERT(isnan(zvp_model_file_stderr(mf, 2)));
    /* model.h: an index >= n_params (mmc has 3) and a NULL handle give NaN / NULL */
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_model(mf)->n_params, 3);
    CU_ASSERT(isnan(zvp_model_file_stderr(mf, 3)));
    CU_ASSERT(isnan(zvp_model_file_stderr(NULL, 0)));
    CU_ASSERT_PTR_NULL(zvp_model_file_model(NULL));
    CU_ASSERT_PTR_NULL(zvp_model_file_params(NULL));
    CU_ASSERT_PTR_NULL(zvp_model_file_text(NULL));
    zvp_model_file_set_stderr(NULL, 0, 1.0); /* no-op, no crash */
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, out, &err), ZVP_SUCCESS);
    CU_ASSERT(file_contains(out, "fit_file"));
    CU_ASSERT(file_contains(out, "r2_mean_in_system"));
    CU_ASSERT(file_contains(out, "arrival_rate_per_s from column arrival_rate_per_s"));
    CU_ASSERT(file_contains(out, "fitted_at"));

    /* the text report */
    fp = fopen(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    zvp_fit_result_print(res, fp);
    fclose(fp);
    CU_ASSERT(file_contains(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "service_rate_per_s"));
    CU_ASSERT(file_contains(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "mean_in_system"));
    CU_ASSERT(file_contains(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "r7"));

    zvp_fit_result_free(res);
    zvp_fit_free(fit);
    zvp_fit_free(NULL);
    zvp_fit_result_free(NULL);
}

/*
 * Noisy data: independent reference from /usr/bin/python3 with scipy 1.10:
 *   least_squares(lambda m: (L(m, lam) - y) / |y|, [3.0], xtol=ftol=gtol=1e-15)
 *   -> mu = 2.50168441431541; cost = sum r^2 = 0.00352336693303156;
 *   se = sqrt(cost / (6 - 1) / sum(J^2)), J = -lam / (mu - lam)^2 / |y| (analytic)
 *   -> 0.00570616312673316.
 */
static void test_fit_noisy(void)
{
    zvp_fit_result *res = zvp_test_run_fit("data/fit_mm1_noisy.ini");
    double mu = zvp_fit_result_estimates(res)[0], se = zvp_fit_result_stderrs(res)[0];
    ZVP_ASSERT_REL(mu, 2.50168441431541, 1e-6);
    ZVP_ASSERT_REL(zvp_fit_result_cost(res), 0.00352336693303156, 1e-6);
    ZVP_ASSERT_REL(se, 0.00570616312673316, 1e-3);
    CU_ASSERT(se > 0.0);
    CU_ASSERT(fabs(mu - MU_TRUE) < 3.0 * se);
    ZVP_ASSERT_REL(zvp_fit_result_covariance(res)[0], se * se, 1e-12);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 5);
    /* Goodness of fit at the optimum, from an independent computation (/usr/bin/python3,
     * mpmath at 40 digits): mu* solves d/dmu sum ((L(mu, lam) - y)/|y|)^2 = 0 with
     * mpmath.findroot, mu* = 2.501684414343899307 (scipy's 2.50168441431541 above agrees
     * to 1e-11); then with the absolute residuals L(mu*, lam_i) - y_i:
     *   R^2 = 1 - SSres/SStot = 0.9997787104212207764 (1 - R^2 = 2.212895787792236e-4),
     *   RMSE = sqrt(SSres/6) = 0.046562702832150363427,
     *   MAPE = 100/6 sum |L - y|/|y| = 2.1094823694181258442 %.
     * An error e in mu moves these by ~10 e relative (dL/L = mu/(mu - lam) dmu/mu at
     * lam = 2.25), hence the tolerances. */
    ZVP_ASSERT_REL(mu, 2.501684414343899307, 1e-9);
    ZVP_ASSERT_REL(1.0 - zvp_fit_result_r2(res, 0), 2.212895787792236e-4, 1e-6);
    ZVP_ASSERT_REL(zvp_fit_result_r2(res, 0), 0.9997787104212207764, 1e-12);
    ZVP_ASSERT_REL(zvp_fit_result_rmse(res, 0), 0.046562702832150363427, 1e-8);
    ZVP_ASSERT_REL(zvp_fit_result_mape(res, 0), 2.1094823694181258442, 1e-8);
    ZVP_ASSERT_REL(zvp_fit_result_mape_all(res), 2.1094823694181258442, 1e-8); /* one output */
    /* one matched output: j = 1 is out of range, NaN; so is a NULL result */
    CU_ASSERT(isnan(zvp_fit_result_r2(res, 1)) && isnan(zvp_fit_result_rmse(res, 1)) &&
              isnan(zvp_fit_result_mape(res, 1)));
    CU_ASSERT(isnan(zvp_fit_result_r2(NULL, 0)) && isnan(zvp_fit_result_mape_all(NULL)));
    zvp_fit_result_free(res);
}

/* Same inputs, same output, bit for bit (the multistart draws are seeded). */
static void test_fit_deterministic(void)
{
    zvp_fit_result *a = zvp_test_run_fit("data/fit_mm1_noisy.ini");
    zvp_fit_result *b = zvp_test_run_fit("data/fit_mm1_noisy.ini");
    CU_ASSERT_EQUAL(zvp_fit_result_estimates(a)[0], zvp_fit_result_estimates(b)[0]);
    CU_ASSERT_EQUAL(zvp_fit_result_stderrs(a)[0], zvp_fit_result_stderrs(b)[0]);
    zvp_fit_result_free(a);
    zvp_fit_result_free(b);
}

static void test_fit_bounds(void)
{
    zvp_fit_result *res = zvp_test_run_fit("data/fit_mm1_bounds.ini");
    double mu = zvp_fit_result_estimates(res)[0];
    CU_ASSERT(mu >= 3.0 && mu <= 10.0);
    /* the cost falls monotonically towards the unconstrained optimum 2.5 < lo: the estimate
     * is the lower bound itself, to 1e-6 of the interval width (hi - lo = 7) */
    CU_ASSERT(fabs(mu - 3.0) <= 1e-6 * (10.0 - 3.0));
    /* at a bound the delta-method stderr would be 0: reported as NaN instead */
    CU_ASSERT(isnan(zvp_fit_result_stderrs(res)[0]));
    zvp_fit_result_free(res);
}

static void test_fit_join(void)
{
    zvp_fit_result *res = zvp_test_run_fit("data/fit_mm1_join.ini");
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 6);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 5), "j4");
    /* row j4 joins config 4, lambda = 2.25 (config 7 comes between in the config table) */
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[5], 9.0, 1e-5);
    zvp_fit_result_free(res);
}

/* Write tmp/<name>.ini (data paths are relative to tmp/). */
static const char *write_fit(const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s.ini", ZVP_TEST_TMPDIR, name);
    zvp_test_write_text(path, text);
    return path;
}

#define FIT_HEAD "[fit]\nmodel = mmc\ndata = ../data/mm1_exact.csv\n"
#define FIT_FIXED "[fixed]\nservers = 1\n[inputs]\narrival_rate_per_s = arrival_rate_per_s\n"
#define FIT_MATCH "[match]\nmean_in_system = mean_in_system\n"

/* A start at mu = 0.6, where the rows with lambda >= 0.6 have no steady state: the fit must
 * not stop there (large residuals, not a GSL error) and the multistart finds mu. */
static void test_fit_unstable_start(void)
{
    char path[256];
    zvp_fit_result *res;
    write_fit("unstable_start",
              FIT_HEAD "starts = 8\n" FIT_FIXED "[free]\nservice_rate_per_s = 0.6, 0.5, 20\n" FIT_MATCH,
              path, sizeof path);
    res = zvp_test_run_fit(path);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    zvp_fit_result_free(res);
}

/* Two free parameters (the GSL Jacobian hands f as a strided column of J) and as many
 * measured cells as parameters (dof = 0: no standard errors). M/M/1 closed forms:
 * throughput X = lambda, response R = 1 / (mu - lambda); X = 2/s and R = 2 s give
 * lambda = 2/s, mu = 2.5/s. */
static void test_fit_two_params_dof0(void)
{
    char path[256];
    zvp_fit_result *res;
    zvp_test_write_file(ZVP_TEST_TMPDIR "/p2.csv", "label, throughput_per_s [1/s], response_s [s]\nonly, 2, 2\n");
    write_fit("p2",
              "[fit]\nmodel = mmc\ndata = p2.csv\nstarts = 4\n[fixed]\nservers = 1\n"
              "[free]\narrival_rate_per_s = 1, 0.1, 10\nservice_rate_per_s = 5, 0.5, 20\n"
              "[match]\nthroughput_per_s = throughput_per_s\nresponse_s = response_s\n",
              path, sizeof path);
    res = zvp_test_run_fit(path);
    CU_ASSERT_EQUAL(zvp_fit_result_n_free(res), 2);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_param_name(res, 0), "arrival_rate_per_s");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_param_name(res, 1), "service_rate_per_s");
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], 2.0, 1e-8);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[1], 2.5, 1e-8);
    CU_ASSERT_EQUAL(zvp_fit_result_n_matched(res), 2);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_output_name(res, 1), "response_s");
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[1], 2.0, 1e-8);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 0);
    CU_ASSERT(isnan(zvp_fit_result_stderrs(res)[0]));
    CU_ASSERT(isnan(zvp_fit_result_covariance(res)[1]));
    CU_ASSERT(isnan(zvp_fit_result_r2(res, 0))); /* one cell: SStot = 0 */
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "only");
    zvp_fit_result_free(res);
}

/* Bounds that keep the model unstable at row r7 for every mu: no usable start -> EFIT. */
static void test_fit_no_usable_start(void)
{
    char path[256];
    zvp_fit *fit = NULL;
    zvp_fit_result *res = (zvp_fit_result *)1;
    zvp_error err;
    write_fit("never_stable",
              FIT_HEAD "starts = 2\n" FIT_FIXED "[free]\nservice_rate_per_s = 1, 0.5, 2\n" FIT_MATCH,
              path, sizeof path);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(path, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_run(fit, &res, &err), ZVP_EFIT);
    CU_ASSERT_PTR_NULL(res);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "row"));
    zvp_fit_free(fit);
}

/* A bad fit file gives `status` and a message containing `needle`. */
static void check_bad_fit(const char *name, const char *text, int status, const char *needle)
{
    char path[256];
    zvp_fit *fit = (zvp_fit *)1;
    zvp_error err;
    zvp_error_clear(&err);
    if (text)
        write_fit(name, text, path, sizeof path);
    else
        snprintf(path, sizeof path, "%s/%s.ini", ZVP_TEST_TMPDIR, name);
    int st = zvp_fit_read(path, &fit, &err);
    CU_ASSERT_EQUAL(st, status);
    CU_ASSERT_EQUAL(err.status, status);
    CU_ASSERT_PTR_NULL(fit);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, needle));
    if (st != status || !strstr(err.message, needle))
        fprintf(stderr, "\n%s: status %d (want %d): %s\n", name, st, status, err.message);
}

#define FREE_OK "[free]\nservice_rate_per_s = 5, 0.5, 20\n"

static void test_fit_read_errors(void)
{
    check_bad_fit("no_such_fit_file", NULL, ZVP_EIO, "no_such_fit_file.ini");
    check_bad_fit("unknown_model", "[fit]\nmodel = nosuchmodel\ndata = ../data/mm1_exact.csv\n"
                  FIT_FIXED FREE_OK FIT_MATCH, ZVP_ENOTFOUND, "nosuchmodel");
    check_bad_fit("unknown_free_param", FIT_HEAD FIT_FIXED
                  "[free]\nnosuch_param = 5, 0.5, 20\n" FIT_MATCH, ZVP_ENOTFOUND, "nosuch_param");
    check_bad_fit("unknown_fixed_param", FIT_HEAD "[fixed]\nnosuch_fixed = 1\n" FREE_OK FIT_MATCH,
                  ZVP_ENOTFOUND, "nosuch_fixed");
    check_bad_fit("unknown_output", FIT_HEAD FIT_FIXED FREE_OK
                  "[match]\nnosuch_output = mean_in_system\n", ZVP_ENOTFOUND, "nosuch_output");
    check_bad_fit("unknown_match_column", FIT_HEAD FIT_FIXED FREE_OK
                  "[match]\nmean_in_system = nosuch_column\n", ZVP_ENOTFOUND, "nosuch_column");
    check_bad_fit("unknown_input_column", FIT_HEAD "[inputs]\narrival_rate_per_s = nosuch_input\n"
                  FREE_OK FIT_MATCH, ZVP_ENOTFOUND, "nosuch_input");
    check_bad_fit("start_outside", FIT_HEAD FIT_FIXED "[free]\nservice_rate_per_s = 25, 0.5, 20\n"
                  FIT_MATCH, ZVP_EINVAL, "start = 25");
    check_bad_fit("start_on_bound", FIT_HEAD FIT_FIXED "[free]\nservice_rate_per_s = 20, 0.5, 20\n"
                  FIT_MATCH, ZVP_EINVAL, "start = 20");
    check_bad_fit("lo_ge_hi", FIT_HEAD FIT_FIXED "[free]\nservice_rate_per_s = 5, 20, 0.5\n"
                  FIT_MATCH, ZVP_EINVAL, "lo = 20");
    check_bad_fit("lo_eq_hi", FIT_HEAD FIT_FIXED "[free]\nservice_rate_per_s = 5, 5, 5\n"
                  FIT_MATCH, ZVP_EINVAL, "lo = 5");
    check_bad_fit("bounds_outside_range", FIT_HEAD FIT_FIXED
                  "[free]\nservice_rate_per_s = 5, -1, 20\n" FIT_MATCH, ZVP_EINVAL, "-1");
    check_bad_fit("free_not_three", FIT_HEAD FIT_FIXED "[free]\nservice_rate_per_s = 5, 0.5\n"
                  FIT_MATCH, ZVP_EPARSE, "5, 0.5");
    check_bad_fit("malformed_line", FIT_HEAD "this line has no equals sign\n" FIT_FIXED FREE_OK
                  FIT_MATCH, ZVP_EPARSE, "malformed_line.ini:4");
    check_bad_fit("long_line", FIT_HEAD "; a comment far longer than the INI reader's line "
                  "buffer xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
                  FIT_FIXED FREE_OK FIT_MATCH, ZVP_EPARSE, "long_line.ini:4");
    check_bad_fit("starts_zero", FIT_HEAD "starts = 0\n" FIT_FIXED FREE_OK FIT_MATCH, ZVP_EINVAL,
                  "starts = 0");
    check_bad_fit("starts_text", FIT_HEAD "starts = many\n" FIT_FIXED FREE_OK FIT_MATCH,
                  ZVP_EPARSE, "starts = many");
    check_bad_fit("residual_bad", FIT_HEAD "residual = squared\n" FIT_FIXED FREE_OK FIT_MATCH,
                  ZVP_EINVAL, "squared");
    check_bad_fit("unknown_key", FIT_HEAD "colour = blue\n" FIT_FIXED FREE_OK FIT_MATCH,
                  ZVP_EPARSE, "colour");
    check_bad_fit("unknown_section", FIT_HEAD FIT_FIXED FREE_OK FIT_MATCH "[extra]\na = 1\n",
                  ZVP_EPARSE, "extra");
    check_bad_fit("no_model", "[fit]\ndata = ../data/mm1_exact.csv\n" FIT_FIXED FREE_OK FIT_MATCH,
                  ZVP_EPARSE, "model");
    check_bad_fit("missing_data", "[fit]\nmodel = mmc\ndata = ../data/nosuch_data.csv\n" FIT_FIXED
                  FREE_OK FIT_MATCH, ZVP_EIO, "nosuch_data.csv");
    check_bad_fit("no_free", FIT_HEAD FIT_FIXED FIT_MATCH, ZVP_EINVAL, "[free]");
    check_bad_fit("no_match", FIT_HEAD FIT_FIXED FREE_OK, ZVP_EINVAL, "[match]");
    check_bad_fit("fixed_and_free", FIT_HEAD "[fixed]\nservers = 1\nservice_rate_per_s = 3\n"
                  "[inputs]\narrival_rate_per_s = arrival_rate_per_s\n" FREE_OK FIT_MATCH,
                  ZVP_EINVAL, "service_rate_per_s");
    check_bad_fit("fixed_out_of_range", FIT_HEAD "[fixed]\nservers = 0\n" FREE_OK FIT_MATCH,
                  ZVP_EINVAL, "servers");
    check_bad_fit("bad_weight", FIT_HEAD FIT_FIXED FREE_OK
                  "[match]\nmean_in_system = mean_in_system, -2\n", ZVP_EINVAL, "-2");
    check_bad_fit("join_missing_partner",
                  "[fit]\nmodel = mmc\ndata = ../data/mm1_join_meas.csv\n"
                  "join = join_partial.csv\njoin_key = config\n" FIT_FIXED FREE_OK FIT_MATCH,
                  ZVP_EPARSE, "config = 6");
    check_bad_fit("join_without_key", FIT_HEAD "join = ../data/mm1_join_config.csv\n" FIT_FIXED
                  FREE_OK FIT_MATCH, ZVP_EPARSE, "join_key");
}

/* The partial join table used by join_missing_partner (configs 1-5 only). */
static void write_join_partial(void)
{
    zvp_test_write_text(ZVP_TEST_TMPDIR "/join_partial.csv",
                        "config, arrival_rate_per_s [1/s]\n1, 0.25\n2, 0.5\n3, 1.0\n4, 2.25\n5, 1.5\n");
}

static void test_fit_read_errors_join(void)
{
    write_join_partial();
    test_fit_read_errors();
}

/* ---- where (row filter) and data = a.csv, b.csv (concatenation) ------------------------- */

#define WHERE_HEAD "[fit]\nmodel = mmc\ndata = ../data/mm1_where.csv\nstarts = 4\n"
#define WHERE_BODY FIT_FIXED "[free]\nservice_rate_per_s = 5, 0.5, 20\n" FIT_MATCH

/* Write tmp/<name>.ini and run it. */
static zvp_fit_result *run_fit_text(const char *name, const char *text)
{
    char path[256];
    write_fit(name, text, path, sizeof path);
    return zvp_test_run_fit(path);
}

/* Text column: site = b keeps the four mu = 4/s rows (b4: lambda = 3.5, L = 7), site = a the
 * three mu = 2.5/s rows. The filtered column (site, the first text column) is constant over
 * the rows left, so the labels come from the next text column, runid. */
static void test_fit_where_text(void)
{
    zvp_fit_result *res = run_fit_text("where_site_b", WHERE_HEAD "where = site = b\n" WHERE_BODY);
    const zvp_model_file *mf = zvp_fit_result_model_file(res);
    const char *out = ZVP_TEST_TMPDIR "/where_site_b-calibrated.ini";
    zvp_error err;
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], 4.0, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 4);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "b1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 3), "b4");
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[3], 7.0, 1e-15);
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[3], 7.0, 1e-5);
    /* provenance: the filter as written */
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, out, &err), ZVP_SUCCESS);
    CU_ASSERT(file_contains(out, "where = site = b\n"));
    zvp_fit_result_free(res);

    res = run_fit_text("where_site_a", WHERE_HEAD "where = site =   a\n" WHERE_BODY);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 3);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 2), "a3");
    zvp_fit_result_free(res);
}

/* Numeric column: batch = 2.0 matches the cells written "2" (compared as numbers, not as
 * text): rows b1, b2. Two conditions must both hold: batch = 3;site = b -> b3, b4. */
static void test_fit_where_number(void)
{
    zvp_fit_result *res =
        run_fit_text("where_batch", WHERE_HEAD "where = batch = 2.0\n" WHERE_BODY);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], 4.0, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 2);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "b");  /* site: not filtered */
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[1], 1.0, 1e-15);    /* b2 */
    zvp_fit_result_free(res);

    res = run_fit_text("where_two", WHERE_HEAD "where = batch = 3;site = b\n" WHERE_BODY);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], 4.0, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 2);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "b3");
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[1], 7.0, 1e-15);    /* b4 */
    zvp_fit_result_free(res);

    /* a column of the join table, filtered after the join: config 4 (lambda = 2.25) is row j4 */
    res = run_fit_text("where_join",
                       "[fit]\nmodel = mmc\ndata = ../data/mm1_join_meas.csv\n"
                       "join = ../data/mm1_join_config.csv\njoin_key = config\n"
                       "where = arrival_rate_per_s = 2.25\n" WHERE_BODY);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 1);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "j4");
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    zvp_fit_result_free(res);
}

/* data = mm1_exact.csv, mm1_exact_more.csv: the 7 + 3 rows in file order, one fit. */
static void test_fit_data_concat(void)
{
    zvp_fit_result *res = run_fit_text("concat",
                                       "[fit]\nmodel = mmc\nstarts = 4\n"
                                       "data = ../data/mm1_exact.csv, ../data/mm1_exact_more.csv\n"
                                       WHERE_BODY);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 10);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "r1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 7), "s1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 9), "s3");
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[9], 23.99999999999998, 1e-15);
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[9], zvp_test_mm1_mean_in_system(2.4 / MU_TRUE), 1e-5);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 8); /* 9 measured cells (r4 empty) - 1 */
    zvp_fit_result_free(res);

    /* filtered across both files; runid is filtered, so no text column is left for labels */
    res = run_fit_text("concat_where",
                       "[fit]\nmodel = mmc\n"
                       "data = ../data/mm1_exact.csv, ../data/mm1_exact_more.csv\n"
                       "where = runid = s2\n" WHERE_BODY);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 1);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "file 2 row 2");
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    zvp_fit_result_free(res);
}

static void test_fit_where_errors(void)
{
    check_bad_fit("where_no_rows", WHERE_HEAD "where = site = c\n" WHERE_BODY, ZVP_EINVAL,
                  "where = site = c leaves no rows");
    check_bad_fit("where_no_rows_two", WHERE_HEAD "where = site = b;batch = 1\n" WHERE_BODY,
                  ZVP_EINVAL, "where = site = b;batch = 1 leaves no rows");
    check_bad_fit("where_unknown_column", WHERE_HEAD "where = nosuch_col = 1\n" WHERE_BODY,
                  ZVP_ENOTFOUND, "nosuch_col");
    check_bad_fit("where_not_number", WHERE_HEAD "where = batch = two\n" WHERE_BODY, ZVP_EINVAL,
                  "'two' is not a number");
    check_bad_fit("where_no_equals", WHERE_HEAD "where = site\n" WHERE_BODY, ZVP_EPARSE,
                  "'site' is not <column> = <value>");
    check_bad_fit("where_empty_value", WHERE_HEAD "where = site =\n" WHERE_BODY, ZVP_EPARSE,
                  "empty value");
    check_bad_fit("where_empty_condition", WHERE_HEAD "where = site = a;\n" WHERE_BODY,
                  ZVP_EPARSE, "condition 2");
    check_bad_fit("where_blank_semicolon", WHERE_HEAD "where = site = b ; batch = 2\n" WHERE_BODY,
                  ZVP_EPARSE, "where_blank_semicolon.ini:5");
    check_bad_fit("data_header_mismatch",
                  "[fit]\nmodel = mmc\ndata = ../data/mm1_exact.csv, ../data/mm1_where.csv\n"
                  WHERE_BODY, ZVP_EPARSE, "identical headers");
    check_bad_fit("data_empty_item", "[fit]\nmodel = mmc\ndata = ../data/mm1_exact.csv,\n"
                  WHERE_BODY, ZVP_EPARSE, "file 2 of the list is empty");
    check_bad_fit("data_second_missing",
                  "[fit]\nmodel = mmc\ndata = ../data/mm1_exact.csv, ../data/nosuch2.csv\n"
                  WHERE_BODY, ZVP_EIO, "nosuch2.csv");
}

static void test_fit_write_h5(void)
{
    const char *path = ZVP_TEST_TMPDIR "/fit_mm1.h5";
    zvp_fit_result *res = zvp_test_run_fit("data/fit_mm1.ini");
    size_t rows = zvp_fit_result_n_rows(res), nm = zvp_fit_result_n_matched(res);
    double est[1] = {NAN}, resid[16];
    hsize_t dims[2] = {0, 0};
    H5T_class_t cls;
    size_t tsize;
    hid_t f;
    zvp_error err;
    /* The writer must leave HDF5's process-wide automatic error printing as it found it. */
    H5E_auto2_t auto0, auto1;
    void *auto0_data, *auto1_data;
    CU_ASSERT_FATAL(H5Eget_auto2(H5E_DEFAULT, &auto0, &auto0_data) >= 0);
    CU_ASSERT_FATAL(H5Eset_auto2(H5E_DEFAULT, (H5E_auto2_t)H5Eprint2, stderr) >= 0);

    CU_ASSERT_EQUAL_FATAL(zvp_fit_result_write_h5(res, path, &err), ZVP_SUCCESS);
    CU_ASSERT_FATAL(rows * nm <= 16);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    CU_ASSERT(H5LTread_dataset_double(f, "/estimates", est) >= 0);
    CU_ASSERT_EQUAL(est[0], zvp_fit_result_estimates(res)[0]);
    CU_ASSERT(H5LTget_dataset_info(f, "/residual", dims, &cls, &tsize) >= 0);
    CU_ASSERT_EQUAL(dims[0], rows);
    CU_ASSERT_EQUAL(dims[1], nm);
    CU_ASSERT(H5LTread_dataset_double(f, "/residual", resid) >= 0);
    for (size_t i = 0; i < rows * nm; i++) {
        double y = zvp_fit_result_measured(res)[i], fv = zvp_fit_result_fitted(res)[i];
        if (isnan(y)) {
            CU_ASSERT(isnan(resid[i]));
        } else {
            CU_ASSERT_EQUAL(resid[i], fv - y);
        }
    }
    H5Fclose(f);

    /* a directory that does not exist: EIO naming the path */
    CU_ASSERT_EQUAL(zvp_fit_result_write_h5(res, ZVP_TEST_TMPDIR "/no/such/dir/x.h5", &err),
                    ZVP_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no/such/dir/x.h5"));
    CU_ASSERT(H5Eget_auto2(H5E_DEFAULT, &auto1, &auto1_data) >= 0);
    CU_ASSERT(auto1 == (H5E_auto2_t)H5Eprint2 && auto1_data == (void *)stderr);
    H5Eset_auto2(H5E_DEFAULT, auto0, auto0_data);
    zvp_fit_result_free(res);
}

int zvp_test_register_calibrate(void)
{
    CU_pSuite s = CU_add_suite("calibrate", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "table_read_basic", test_table_read_basic) ||
        !CU_add_test(s, "table_read_ragged", test_table_read_ragged) ||
        !CU_add_test(s, "table_read_missing", test_table_read_missing) ||
        !CU_add_test(s, "table_read_no_header", test_table_read_no_header) ||
        !CU_add_test(s, "fit_recover_exact", test_fit_recover_exact) ||
        !CU_add_test(s, "fit_noisy", test_fit_noisy) ||
        !CU_add_test(s, "fit_deterministic", test_fit_deterministic) ||
        !CU_add_test(s, "fit_bounds", test_fit_bounds) ||
        !CU_add_test(s, "fit_join", test_fit_join) ||
        !CU_add_test(s, "fit_unstable_start", test_fit_unstable_start) ||
        !CU_add_test(s, "fit_no_usable_start", test_fit_no_usable_start) ||
        !CU_add_test(s, "fit_two_params_dof0", test_fit_two_params_dof0) ||
        !CU_add_test(s, "fit_read_errors", test_fit_read_errors_join) ||
        !CU_add_test(s, "fit_where_text", test_fit_where_text) ||
        !CU_add_test(s, "fit_where_number", test_fit_where_number) ||
        !CU_add_test(s, "fit_data_concat", test_fit_data_concat) ||
        !CU_add_test(s, "fit_where_errors", test_fit_where_errors) ||
        !CU_add_test(s, "fit_write_h5", test_fit_write_h5))
        return (int)CU_get_error();
    return 0;
}
