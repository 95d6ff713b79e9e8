/*
 * tests/mm1_fit.h - the in-memory M/M/1 fits (model mmc, servers = 1 fixed) that several
 * suites build (test_fit_memory.c, test_validate.c, test_interval.c, test_report_h5.c): one
 * input per row, one free parameter, matched outputs. The data stay in each suite (closed
 * forms computed there).
 */
#ifndef ZVP_TEST_MM1_FIT_H
#define ZVP_TEST_MM1_FIT_H
#include "tests.h"

/* mmc with servers = 1 fixed, `input` given per row, `free_name` free in (lo, hi) from
 * `start`, `match` matched with weight 1; no rows yet. */
static inline zvp_fit *zvp_test_mm1_declared(const char *input, const char *free_name,
                                             double start, double lo, double hi,
                                             const char *match)
{
    zvp_fit *fit = NULL;
    zvp_error err;
    const zvp_model *m = zvp_test_find_model("mmc");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_new(m, NULL, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_set_fixed(fit, "servers", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_input(fit, input, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_free(fit, free_name, start, lo, hi, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_match(fit, match, 1.0, &err), ZVP_SUCCESS);
    return fit;
}

/* The linear case: utilization = lambda / mu is y = theta x with x = 1 / mu. The n rows give
 * service_rate_per_s = mu[i] and utilization y[i]; arrival_rate_per_s is free in (0.01, 1.9)
 * from 1, residuals absolute; tol > 0 sets xtol = gtol = tol (else the defaults). */
static inline zvp_fit *zvp_test_mm1_linear(size_t n, const double *mu, const double *y,
                                           double tol)
{
    zvp_error err;
    zvp_fit_parameters pp = zvp_fit_default_parameters();
    zvp_fit *fit = zvp_test_mm1_declared("service_rate_per_s", "arrival_rate_per_s", 1.0, 0.01,
                                         1.9, "utilization");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, n, NULL, mu, y, &err), ZVP_SUCCESS);
    pp.residual = ZVP_FIT_ABSOLUTE;
    if (tol > 0.0)
        pp.xtol = pp.gtol = tol;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_set_parameters(fit, &pp, &err), ZVP_SUCCESS);
    return fit;
}
#endif
