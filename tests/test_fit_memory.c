/*
 * tests/test_fit_memory.c - fits built in memory (fit.h): from arrays without a file, the same
 * fit from arrays and from a file, zvp_fit_subset, the tunables and argument errors.
 *
 * Expected values: M/M/1 (model mmc with servers = 1) at mu = 2.5/s. The measured response
 * times come from the closed form R = 1 / (mu - lambda), computed here (not by the library);
 * the mean numbers in system of tests/data/mm1_exact.csv from L = rho / (1 - rho).
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

/* M/M/1 response time, closed form. */
static double mm1_response(double lambda, double mu) { return 1.0 / (mu - lambda); }

/* mmc with servers = 1 fixed, arrival_rate_per_s per row, service_rate_per_s free in
 * (0.5, 20) from 5, response_s matched; no rows. */
static zvp_fit *mm1_declared(void)
{
    return zvp_test_mm1_declared("arrival_rate_per_s", "service_rate_per_s", 5.0, 0.5, 20.0,
                                 "response_s");
}

/* The same with the N_LAMBDA exact rows (labels NULL: "row <n>"). */
static zvp_fit *mm1_from_arrays(void)
{
    zvp_fit *fit = mm1_declared();
    double y[N_LAMBDA];
    zvp_error err;
    for (size_t i = 0; i < N_LAMBDA; i++)
        y[i] = mm1_response(LAMBDA[i], MU_TRUE);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, N_LAMBDA, NULL, LAMBDA, y, &err), ZVP_SUCCESS);
    return fit;
}

static zvp_fit_result *run_ok(const zvp_fit *fit, const zvp_fit_parameters *pp)
{
    zvp_fit_result *res = NULL;
    zvp_error err;
    int st = zvp_fit_run_with(fit, pp, &res, &err);
    if (st)
        fprintf(stderr, "\nrun: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
    return res;
}

/* From arrays, no file: the estimate is the true mu and the fitted values the closed form. */
static void test_memory_recover(void)
{
    zvp_fit *fit = mm1_from_arrays();
    zvp_fit_result *res = run_ok(fit, NULL);
    const zvp_model_file *mf = zvp_fit_result_model_file(res);
    const char *txt = ZVP_TEST_TMPDIR "/memory_report.txt";
    zvp_error err;
    FILE *fp;
    CU_ASSERT_EQUAL(zvp_fit_n_rows(fit), N_LAMBDA);
    CU_ASSERT_STRING_EQUAL(zvp_fit_row_label(fit, 0), "row 1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_matched_column(fit, 0), "response_s");
    CU_ASSERT_STRING_EQUAL(zvp_fit_matched_unit(fit, 0), "s");
    CU_ASSERT_PTR_NULL(zvp_fit_output_path(fit));
    CU_ASSERT_PTR_NULL(zvp_fit_base_path(fit));
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-7);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), N_LAMBDA - 1);
    CU_ASSERT(zvp_fit_result_stderrs(res)[0] < 1e-6);
    for (size_t i = 0; i < N_LAMBDA; i++)
        ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[i], mm1_response(LAMBDA[i], MU_TRUE), 1e-6);
    CU_ASSERT(zvp_fit_result_converged(res));
    /* the model file: fixed and fitted values */
    CU_ASSERT_EQUAL(zvp_model_file_params((zvp_model_file *)mf)[1],
                    zvp_fit_result_estimates(res)[0]);
    CU_ASSERT_EQUAL(zvp_model_file_params((zvp_model_file *)mf)[2], 1.0);
    /* reports work without files behind the fit */
    fp = fopen(txt, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    zvp_fit_result_print(res, fp);
    fclose(fp);
    CU_ASSERT(zvp_test_file_contains(txt, "(built in memory)"));
    CU_ASSERT(zvp_test_file_contains(txt, "row 6"));
    CU_ASSERT_EQUAL(zvp_fit_result_write_h5(res, ZVP_TEST_TMPDIR "/memory_report.h5", &err),
                    ZVP_SUCCESS);
    zvp_fit_result_free(res);
    zvp_fit_free(fit);
}

/* Rows given as whole parameter vectors: the same vectors, hence the same fit bit for bit. */
static void test_memory_row_params(void)
{
    zvp_fit *a = mm1_from_arrays(), *b = mm1_declared();
    const zvp_model *m = zvp_fit_model(b);
    double p[8], y;
    zvp_error err;
    zvp_fit_result *ra, *rb;
    CU_ASSERT_FATAL(m->n_params <= 8);
    for (size_t i = 0; i < N_LAMBDA; i++) {
        zvp_model_defaults(m, p);
        zvp_test_set_param(m, p, "arrival_rate_per_s", LAMBDA[i]);
        zvp_test_set_param(m, p, "service_rate_per_s", 123.0); /* overwritten by the start */
        y = mm1_response(LAMBDA[i], MU_TRUE);
        CU_ASSERT_EQUAL_FATAL(zvp_fit_add_row_params(b, NULL, p, &y, &err), ZVP_SUCCESS);
    }
    for (size_t i = 0; i < N_LAMBDA; i++) {
        double pa[8], pb[8];
        CU_ASSERT_EQUAL(zvp_fit_row_params(a, i, NULL, pa, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(zvp_fit_row_params(b, i, NULL, pb, &err), ZVP_SUCCESS);
        CU_ASSERT(memcmp(pa, pb, m->n_params * sizeof(double)) == 0);
    }
    ra = run_ok(a, NULL);
    rb = run_ok(b, NULL);
    CU_ASSERT_EQUAL(zvp_fit_result_estimates(ra)[0], zvp_fit_result_estimates(rb)[0]);
    zvp_fit_result_free(ra);
    zvp_fit_result_free(rb);
    zvp_fit_free(a);
    zvp_fit_free(b);
}

/* tests/data/fit_mm1.ini rebuilt from arrays (its CSV read with the table reader): identical
 * rows, identical estimates, standard errors, cost and fitted values. */
static void test_memory_equals_file(void)
{
    zvp_fit *ff = NULL, *fm = NULL;
    zvp_table *t = NULL;
    zvp_error err;
    zvp_fit_parameters pp = zvp_fit_default_parameters();
    zvp_fit_result *rf, *rm;
    const zvp_model *m = zvp_test_find_model("mmc");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("data/fit_mm1.ini", &ff, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_table_read("data/mm1_exact.csv", &t, &err), ZVP_SUCCESS);
    fm = zvp_test_mm1_declared("arrival_rate_per_s", "service_rate_per_s", 5.0, 0.5, 20.0,
                               "mean_in_system");
    pp.starts = 4; /* the file's starts = 4, residual = relative */
    CU_ASSERT_EQUAL(zvp_fit_set_parameters(fm, &pp, &err), ZVP_SUCCESS);
    for (size_t i = 0; i < zvp_table_rows(t); i++) {
        double lambda = zvp_table_value(t, i, 1), y = zvp_table_value(t, i, 2);
        CU_ASSERT_EQUAL_FATAL(zvp_fit_add_row(fm, zvp_table_text(t, i, 0), &lambda, &y, &err),
                              ZVP_SUCCESS);
    }
    CU_ASSERT_EQUAL_FATAL(zvp_fit_n_rows(fm), zvp_fit_n_rows(ff));
    for (size_t i = 0; i < zvp_fit_n_rows(ff); i++) {
        double pf[8], pm[8], yf = zvp_fit_measured(ff, i, 0), ym = zvp_fit_measured(fm, i, 0);
        CU_ASSERT_STRING_EQUAL(zvp_fit_row_label(ff, i), zvp_fit_row_label(fm, i));
        CU_ASSERT((isnan(yf) && isnan(ym)) || yf == ym);
        zvp_fit_row_params(ff, i, NULL, pf, &err);
        zvp_fit_row_params(fm, i, NULL, pm, &err);
        CU_ASSERT(memcmp(pf, pm, m->n_params * sizeof(double)) == 0);
    }
    rf = run_ok(ff, NULL);
    rm = run_ok(fm, NULL);
    CU_ASSERT_EQUAL(zvp_fit_result_estimates(rf)[0], zvp_fit_result_estimates(rm)[0]);
    CU_ASSERT_EQUAL(zvp_fit_result_stderrs(rf)[0], zvp_fit_result_stderrs(rm)[0]);
    CU_ASSERT_EQUAL(zvp_fit_result_cost(rf), zvp_fit_result_cost(rm));
    CU_ASSERT_EQUAL(zvp_fit_result_iterations(rf), zvp_fit_result_iterations(rm));
    for (size_t i = 0; i < zvp_fit_result_n_rows(rf); i++)
        CU_ASSERT_EQUAL(zvp_fit_result_fitted(rf)[i], zvp_fit_result_fitted(rm)[i]);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(rm)[0], MU_TRUE, 1e-6);
    zvp_fit_result_free(rf);
    zvp_fit_result_free(rm);
    zvp_table_free(t);
    zvp_fit_free(ff);
    zvp_fit_free(fm);
}

/* zvp_fit_subset keeps the chosen rows in the order given, with everything else. */
static void test_memory_subset(void)
{
    zvp_fit *fit = NULL, *sub = NULL, *boot = NULL;
    zvp_error err;
    const size_t rows[3] = {6, 0, 2}, twice[2] = {0, 0}, bad[2] = {0, 7};
    double start, lo, hi;
    zvp_fit_result *res;
    zvp_fit_parameters pp;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("data/fit_mm1.ini", &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_subset(fit, rows, 3, &sub, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_n_rows(sub), 3);
    for (size_t i = 0; i < 3; i++) {
        double a[8], b[8];
        CU_ASSERT_STRING_EQUAL(zvp_fit_row_label(sub, i), zvp_fit_row_label(fit, rows[i]));
        CU_ASSERT_EQUAL(zvp_fit_measured(sub, i, 0), zvp_fit_measured(fit, rows[i], 0));
        zvp_fit_row_params(sub, i, NULL, a, &err);
        zvp_fit_row_params(fit, rows[i], NULL, b, &err);
        CU_ASSERT(memcmp(a, b, zvp_fit_model(fit)->n_params * sizeof(double)) == 0);
    }
    CU_ASSERT_STRING_EQUAL(zvp_fit_row_label(sub, 0), "r7");
    CU_ASSERT_STRING_EQUAL(zvp_fit_row_label(sub, 1), "r1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_output_path(sub), zvp_fit_output_path(fit));
    CU_ASSERT_EQUAL(zvp_fit_free_param_at(sub, 0, &start, &lo, &hi),
                    zvp_fit_free_param_at(fit, 0, NULL, NULL, NULL));
    CU_ASSERT(start == 5.0 && lo == 0.5 && hi == 20.0);
    CU_ASSERT_EQUAL(zvp_fit_get_parameters(sub, &pp), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(pp.starts, 4);
    res = run_ok(sub, NULL);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 2);
    zvp_fit_result_free(res);
    /* an index may repeat (bootstrap) */
    CU_ASSERT_EQUAL(zvp_fit_subset(fit, twice, 2, &boot, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_n_rows(boot), 2);
    CU_ASSERT_STRING_EQUAL(zvp_fit_row_label(boot, 1), "r1");
    zvp_fit_free(sub);
    sub = NULL;
    /* errors */
    CU_ASSERT_EQUAL(zvp_fit_subset(fit, bad, 2, &sub, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NULL(sub);
    CU_ASSERT(zvp_test_msg_has(&err, "rows[1] = 7"));
    CU_ASSERT_EQUAL(zvp_fit_subset(fit, rows, 0, &sub, &err), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&err, "n_rows = 0"));
    CU_ASSERT_EQUAL(zvp_fit_subset(NULL, rows, 1, &sub, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_fit_subset(fit, rows, 1, NULL, &err), ZVP_EINVAL);
    zvp_fit_free(boot);
    zvp_fit_free(fit);
}

/* Expect status and a message containing needle. */
static void expect(int st, const zvp_error *err, int status, const char *needle)
{
    CU_ASSERT_EQUAL(st, status);
    CU_ASSERT(zvp_test_msg_has(err, needle));
    if (st != status || !zvp_test_msg_has(err, needle))
        fprintf(stderr, "\nwant %d '%s', got %d: %s\n", status, needle, st, err->message);
}

/* The defaults (GSL-style) and the range of each field. */
static void test_memory_parameters(void)
{
    zvp_fit_parameters p = zvp_fit_default_parameters(), q;
    zvp_fit *fit = mm1_from_arrays();
    zvp_fit_result *res;
    zvp_error err;
    CU_ASSERT_EQUAL(p.starts, 1);
    CU_ASSERT_EQUAL(p.residual, ZVP_FIT_RELATIVE);
    CU_ASSERT_EQUAL(p.max_iter, 200);
    CU_ASSERT_EQUAL(p.xtol, 1e-10);
    CU_ASSERT_EQUAL(p.gtol, 1e-10);
    CU_ASSERT_EQUAL(p.ftol, 1e-12);
    CU_ASSERT_EQUAL(p.seed, 1);
    CU_ASSERT_EQUAL(p.start_box, 3.0);
    CU_ASSERT_EQUAL(zvp_fit_check_parameters(&p, &err), ZVP_SUCCESS);
    q = p, q.starts = 0;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "starts = 0");
    q = p, q.starts = 10001;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "starts = 10001");
    q = p, q.residual = 2;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "residual = 2");
    q = p, q.max_iter = 0;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "max_iter = 0");
    q = p, q.xtol = -1.0;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "xtol");
    q = p, q.gtol = NAN;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "gtol");
    q = p, q.ftol = 0.5;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "ftol");
    q = p, q.start_box = 0.0;
    expect(zvp_fit_check_parameters(&q, &err), &err, ZVP_EINVAL, "start_box = 0");
    expect(zvp_fit_check_parameters(NULL, &err), &err, ZVP_EINVAL, "NULL");
    /* a refused set leaves the fit's tunables as they were; a run refuses them too */
    q = p, q.starts = 0;
    expect(zvp_fit_set_parameters(fit, &q, &err), &err, ZVP_EINVAL, "starts = 0");
    CU_ASSERT_EQUAL(zvp_fit_get_parameters(fit, &q), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(q.starts, 1);
    q.starts = 0;
    res = (zvp_fit_result *)1;
    expect(zvp_fit_run_with(fit, &q, &res, &err), &err, ZVP_EINVAL, "starts = 0");
    CU_ASSERT_PTR_NULL(res);
    CU_ASSERT_EQUAL(zvp_fit_get_parameters(NULL, &q), ZVP_EINVAL);
    /* absolute residuals, several starts, another seed: still the true mu (exact data) */
    q = p, q.residual = ZVP_FIT_ABSOLUTE, q.starts = 3, q.seed = 7;
    res = run_ok(fit, &q);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-7);
    zvp_fit_result_free(res);
    /* the iteration limit is honoured: one iteration from mu = 5 does not converge */
    q = p, q.max_iter = 1;
    res = run_ok(fit, &q);
    CU_ASSERT_EQUAL(zvp_fit_result_iterations(res), 1);
    CU_ASSERT_EQUAL(zvp_fit_result_converged(res), 0);
    zvp_fit_result_free(res);
    zvp_fit_free(fit);
}

/* Declarations: unknown names, bounds, integer parameters, roles, order. */
static void test_memory_declaration_errors(void)
{
    const zvp_model *m = zvp_test_find_model("mmc");
    zvp_fit *fit = NULL;
    zvp_error err;
    expect(zvp_fit_new(NULL, NULL, &fit, &err), &err, ZVP_EINVAL, "model");
    expect(zvp_fit_new(m, NULL, NULL, &err), &err, ZVP_EINVAL, "out");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_new(m, NULL, &fit, &err), ZVP_SUCCESS);
    expect(zvp_fit_add_free(fit, "nosuch_param", 5, 0.5, 20, &err), &err, ZVP_ENOTFOUND,
           "nosuch_param");
    expect(zvp_fit_set_fixed(fit, "nosuch_fixed", 1, &err), &err, ZVP_ENOTFOUND, "nosuch_fixed");
    expect(zvp_fit_add_input(fit, "nosuch_input", &err), &err, ZVP_ENOTFOUND, "nosuch_input");
    expect(zvp_fit_add_match(fit, "nosuch_output", 1, &err), &err, ZVP_ENOTFOUND,
           "nosuch_output");
    expect(zvp_fit_add_free(fit, "service_rate_per_s", 5, 20, 0.5, &err), &err, ZVP_EINVAL,
           "lo = 20");
    expect(zvp_fit_add_free(fit, "service_rate_per_s", 5, 5, 5, &err), &err, ZVP_EINVAL, "lo = 5");
    expect(zvp_fit_add_free(fit, "service_rate_per_s", 25, 0.5, 20, &err), &err, ZVP_EINVAL,
           "start = 25");
    expect(zvp_fit_add_free(fit, "service_rate_per_s", 20, 0.5, 20, &err), &err, ZVP_EINVAL,
           "start = 20");
    expect(zvp_fit_add_free(fit, "service_rate_per_s", 5, -1, 20, &err), &err, ZVP_EINVAL, "-1");
    expect(zvp_fit_add_free(fit, "servers", 2, 1, 10, &err), &err, ZVP_EINVAL,
           "parameter 'servers' takes whole numbers only");
    expect(zvp_fit_set_fixed(fit, "servers", 0, &err), &err, ZVP_EINVAL, "servers");
    expect(zvp_fit_set_fixed(fit, "servers", 1.5, &err), &err, ZVP_EINVAL, "servers = 1.5");
    expect(zvp_fit_add_match(fit, "response_s", 0, &err), &err, ZVP_EINVAL, "weight = 0");
    expect(zvp_fit_add_match(fit, "response_s", NAN, &err), &err, ZVP_EINVAL, "weight");
    /* rows need the declarations first */
    expect(zvp_fit_add_row(fit, "early", NULL, NULL, &err), &err, ZVP_EINVAL, "declare");
    CU_ASSERT_EQUAL(zvp_fit_add_free(fit, "service_rate_per_s", 5, 0.5, 20, &err), ZVP_SUCCESS);
    expect(zvp_fit_set_fixed(fit, "service_rate_per_s", 3, &err), &err, ZVP_EINVAL,
           "'service_rate_per_s' is already free");
    expect(zvp_fit_add_input(fit, "service_rate_per_s", &err), &err, ZVP_EINVAL, "already free");
    CU_ASSERT_EQUAL(zvp_fit_add_match(fit, "response_s", 1, &err), ZVP_SUCCESS);
    expect(zvp_fit_add_match(fit, "response_s", 1, &err), &err, ZVP_EINVAL, "matched twice");
    CU_ASSERT_EQUAL(zvp_fit_set_fixed(fit, "servers", 1, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_fixed(fit, "arrival_rate_per_s", 1, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_n_fixed(fit), 2);
    {
        double y = mm1_response(1.0, MU_TRUE), v;
        CU_ASSERT_EQUAL(zvp_fit_add_row(fit, "one", NULL, &y, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(zvp_fit_fixed_param_at(fit, 1, &v), 0); /* arrival_rate_per_s */
        CU_ASSERT_EQUAL(v, 1.0);
    }
    expect(zvp_fit_add_free(fit, "arrival_rate_per_s", 1, 0.1, 2, &err), &err, ZVP_EINVAL,
           "before the first row");
    expect(zvp_fit_add_match(fit, "throughput_per_s", 1, &err), &err, ZVP_EINVAL,
           "before the first row");
    zvp_fit_free(fit);
}

/* Rows and runs: invalid rows, measured 0 with relative residuals, too few cells. */
static void test_memory_row_errors(void)
{
    zvp_fit *fit = mm1_declared(), *empty = mm1_declared();
    zvp_fit_result *res = NULL;
    zvp_fit_parameters p = zvp_fit_default_parameters();
    zvp_error err;
    double lam = -1.0, y = 1.0, nan_y = NAN, inf_y = INFINITY, zero = 0.0;
    expect(zvp_fit_add_row(fit, "neg", &lam, &y, &err), &err, ZVP_EINVAL, "arrival_rate_per_s");
    lam = 1.0;
    expect(zvp_fit_add_row(fit, "inf", &lam, &inf_y, &err), &err, ZVP_EINVAL, "inf");
    expect(zvp_fit_add_row(fit, "nul", NULL, &y, &err), &err, ZVP_EINVAL, "input values");
    CU_ASSERT_EQUAL(zvp_fit_n_rows(fit), 0);
    expect(zvp_fit_run(empty, &res, &err), &err, ZVP_EINVAL, "no rows");
    /* one unmeasured row: 0 cells for 1 free parameter */
    CU_ASSERT_EQUAL(zvp_fit_add_row(fit, "unmeasured", &lam, &nan_y, &err), ZVP_SUCCESS);
    expect(zvp_fit_run(fit, &res, &err), &err, ZVP_EINVAL, "0 measured cells for 1 free");
    /* a measured 0: relative residuals refuse it naming the row and the output */
    lam = 0.5;
    CU_ASSERT_EQUAL(zvp_fit_add_row(fit, "zero", &lam, &zero, &err), ZVP_SUCCESS);
    expect(zvp_fit_run(fit, &res, &err), &err, ZVP_EINVAL, "row 2 (zero) measures response_s = 0");
    CU_ASSERT_PTR_NULL(res);
    p.residual = ZVP_FIT_ABSOLUTE;
    CU_ASSERT_EQUAL(zvp_fit_run_with(fit, &p, &res, &err), ZVP_SUCCESS);
    zvp_fit_result_free(res);
    expect(zvp_fit_run(NULL, &res, &err), &err, ZVP_EINVAL, "fit is NULL");
    zvp_fit_free(fit);
    zvp_fit_free(empty);
}

int zvp_test_register_fit_memory(void)
{
    CU_pSuite s = CU_add_suite("fit_memory", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "memory_recover", test_memory_recover) ||
        !CU_add_test(s, "memory_row_params", test_memory_row_params) ||
        !CU_add_test(s, "memory_equals_file", test_memory_equals_file) ||
        !CU_add_test(s, "memory_subset", test_memory_subset) ||
        !CU_add_test(s, "memory_parameters", test_memory_parameters) ||
        !CU_add_test(s, "memory_declaration_errors", test_memory_declaration_errors) ||
        !CU_add_test(s, "memory_row_errors", test_memory_row_errors))
        return (int)CU_get_error();
    return 0;
}
