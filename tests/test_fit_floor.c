/* tests/test_fit_floor.c - the floor of a fit's residual variance at the printed precision of
 * its cells (src/fit/measure.c zvp_fit_cell_floor, src/fit/result.c; calibration/README.md,
 * "Covariance in model files"): the decimals of a printed number, the floor of a fit that
 * reproduces its data exactly (closed form: the mean over the cells of (10^-d)^2 / 12, a
 * stated sigma's s^2, 0 for a bound; relative: divided by the value squared), and a fit with
 * large residuals left as it was. The data are M/M/1 response times 1 / (mu - lambda) at
 * mu = 5/s, printed in ms. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "fit_fixtures.h"
#include "fit/fit_impl.h"

static void test_floor_decimals(void)
{
    static const struct {
        const char *text;
        long dec;
    } ok[] = {{"5432.05", 2}, {"963", 0}, {"5.", 0}, {" 0.87", 2}, {"-12.3", 1},
              {"1.5e3", -2}, {"2.50e-1", 3}, {"1E2", -2}, {"0.000", 3}, {"1000.00", 2}};
    long d = 99;
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        CU_ASSERT_EQUAL(zvp_measure_decimals(ok[k].text, &d), 0);
        CU_ASSERT_EQUAL(d, ok[k].dec);
    }
    /* extreme exponents (review): no overflow of the decimal count */
    CU_ASSERT_EQUAL(zvp_measure_decimals("0e-99999999999999999999", &d), 0);
    CU_ASSERT_EQUAL(d, 400);
    CU_ASSERT_EQUAL(zvp_measure_decimals("1e308", &d), 0);
    CU_ASSERT_EQUAL(d, -308);
    CU_ASSERT_EQUAL(zvp_measure_decimals("x", &d), -1);
    CU_ASSERT_EQUAL(zvp_measure_decimals("< 5", &d), -1);
    CU_ASSERT_EQUAL(zvp_measure_decimals("5 +- 1", &d), -1);
    /* uniform on +- half a unit of the last digit: variance unit^2 / 12 */
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_rounding_variance("963"), 1.0 / 12.0, 1e-17);
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_rounding_variance("1.08"), 1e-4 / 12.0, 1e-20);
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_rounding_variance("1.5e3"), 1e4 / 12.0, 1e-9);
    CU_ASSERT(isnan(zvp_measure_rounding_variance("2.7..3.0")));
}

/* Calibrate tmp/<name>.ini over tmp/<name>.csv (five rows at lambda = 1, 3, 4, 4.5, 4.75:
 * response 0.25, 0.5, 1, 2, 4 s, in ms as the cells given) and return the residual variance
 * of response_s in the calibrated file (its kind in *kind). */
static double floor_fit(const char *name, const char *cells[5], const char *residual, int *kind,
                        zvp_fit_result **out)
{
    static const char *lam[5] = {"1", "3", "4", "4.5", "4.75"};
    char csv[1024], dpath[256], fit[1024], path[256];
    size_t used;
    zvp_fit *f = NULL;
    zvp_fit_result *res = NULL;
    zvp_error err;
    const zvp_model *m = zvp_test_find_model("mmc");
    long j = zvp_model_output_index(m, "response_s", &err);
    double v;
    used = (size_t)snprintf(csv, sizeof csv, "id, arrival_rate_per_s [1/s], response_s [ms]\n");
    for (int i = 0; i < 5; i++)
        used += (size_t)snprintf(csv + used, sizeof csv - used, "r%d, %s, %s\n", i, lam[i],
                                 cells[i]);
    snprintf(dpath, sizeof dpath, "%s/%s.csv", ZVP_TEST_TMPDIR, name);
    zvp_test_write_text(dpath, csv);
    snprintf(fit, sizeof fit, "[fit]\nmodel = mmc\ndata = %s.csv\nresidual = %s\n" FIT_FIXED
             "[free]\nservice_rate_per_s = 8, 4.9, 20\n[match]\nresponse_s = response_s\n",
             name, residual);
    zvp_test_write_fit(name, fit, path, sizeof path);
    CU_ASSERT_FATAL(j >= 0);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(path, &f, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(f, &res, &err), ZVP_SUCCESS);
    zvp_fit_free(f);
    v = zvp_model_file_residual_variance(zvp_fit_result_model_file(res), (size_t)j, kind);
    if (out)
        *out = res;
    else
        zvp_fit_result_free(res);
    return v;
}

/* A fit that reproduces its data exactly (mu = 5 recovered; residuals about 1e-10) gets the
 * floor, computed here by the closed form. */
static void test_floor_exact_fit(void)
{
    const char *plain[5] = {"250", "500.0", "1000.00", "2000", "4000.0"};
    const char *stated[5] = {"250", "500.0", "1000.00", "2000 +- 40", "< 5000"};
    int kind = -1;
    zvp_fit_result *res = NULL;
    /* relative: mean of (10^-d)^2 / 12 / y^2 over the five cells (the text's values, ms) */
    double want = (1.0 / 12 / (250.0 * 250) + 1e-2 / 12 / (500.0 * 500) +
                   1e-4 / 12 / (1000.0 * 1000) + 1.0 / 12 / (2000.0 * 2000) +
                   1e-2 / 12 / (4000.0 * 4000)) / 5;
    double got = floor_fit("floor_exact", plain, "relative", &kind, &res);
    CU_ASSERT_EQUAL(kind, ZVP_RESVAR_RELATIVE);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_result_estimates(res)[0], 5.0, 1e-7);
    CU_ASSERT(zvp_fit_result_cost(res) < 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(got, want, 1e-12 * want);
    zvp_fit_result_free(res);
    /* absolute, in the output's unit (s): the rounding in ms times (1e-3)^2 */
    want = (1.0 / 12 + 1e-2 / 12 + 1e-4 / 12 + 1.0 / 12 + 1e-2 / 12) / 5 * 1e-6;
    got = floor_fit("floor_exact_abs", plain, "absolute", &kind, NULL);
    CU_ASSERT_EQUAL(kind, ZVP_RESVAR_ABSOLUTE);
    CU_ASSERT_DOUBLE_EQUAL(got, want, 1e-12 * want);
    /* "2000 +- 40" contributes its stated (40 / 2000)^2, the satisfied bound "< 5000" 0 (the
     * model gives 4000 ms), both counted in the mean */
    want = (1.0 / 12 / (250.0 * 250) + 1e-2 / 12 / (500.0 * 500) + 1e-4 / 12 / (1000.0 * 1000) +
            (40.0 / 2000) * (40.0 / 2000) + 0.0) / 5;
    got = floor_fit("floor_stated", stated, "relative", &kind, NULL);
    CU_ASSERT_DOUBLE_EQUAL(got, want, 1e-12 * want);
}

/* Residuals far above the printed precision: the residual variance is the mean squared
 * relative residual scaled by n / dof (here sum / dof), as without the floor. */
static void test_floor_large_residuals(void)
{
    const char *noisy[5] = {"280.00", "450.00", "1120.00", "1800.00", "4400.00"};
    static const double y[5] = {0.28, 0.45, 1.12, 1.8, 4.4};
    zvp_fit_result *res = NULL;
    int kind = -1;
    double got = floor_fit("floor_noisy", noisy, "relative", &kind, &res), ss = 0.0, fl = 0.0;
    const double *fitted = zvp_fit_result_fitted(res);
    for (int i = 0; i < 5; i++) {
        ss += (fitted[i] - y[i]) / y[i] * ((fitted[i] - y[i]) / y[i]);
        fl += 1e-4 / 12 / (1e6 * y[i] * y[i]);
    }
    CU_ASSERT_EQUAL(zvp_fit_result_dof_effective(res), 4);
    CU_ASSERT(ss / 4 > 1e3 * fl / 5); /* far above the floor */
    CU_ASSERT_DOUBLE_EQUAL(got, ss / 4, 1e-12 * ss);
    zvp_fit_result_free(res);
}

/* A fit built in memory has no printed text: no floor (its exact fit's variance stays ~0). */
static void test_floor_in_memory(void)
{
    static const double lam[3] = {1, 3, 4}, y[3] = {0.25, 0.5, 1.0};
    const zvp_model *m = zvp_test_find_model("mmc");
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    zvp_error err;
    long j = zvp_model_output_index(m, "response_s", &err);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_new(m, NULL, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_set_fixed(fit, "servers", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_input(fit, "arrival_rate_per_s", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_free(fit, "service_rate_per_s", 8.0, 4.9, 20.0, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_match(fit, "response_s", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, 3, NULL, lam, y, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(fit, &res, &err), ZVP_SUCCESS);
    CU_ASSERT(zvp_model_file_residual_variance(zvp_fit_result_model_file(res), (size_t)j, NULL) <
              1e-18);
    zvp_fit_result_free(res);
    zvp_fit_free(fit);
}

int zvp_test_register_fit_floor(void)
{
    CU_pSuite s = CU_add_suite("fit_floor", NULL, NULL);
    if (!s)
        return CU_get_error();
    if (!CU_add_test(s, "decimals and rounding variance of printed numbers", test_floor_decimals) ||
        !CU_add_test(s, "an exact fit gets the printed-precision floor", test_floor_exact_fit) ||
        !CU_add_test(s, "large residuals are unchanged", test_floor_large_residuals) ||
        !CU_add_test(s, "a fit in memory has no floor", test_floor_in_memory))
        return CU_get_error();
    return 0;
}
