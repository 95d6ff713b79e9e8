/* tests/test_measure.c - measurements as stated (src/fit/measure.c, src/fit/sigma.c): cell
 * syntax, the precision of printed digits, residuals and percentage errors of bounds,
 * intervals and sigmas (hand computations), and [sigma] in a fit file. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "fit_fixtures.h"
#include "fit/fit_impl.h"

static void test_measure_parse(void)
{
    double y, lo, hi, s;
    int rel;
    CU_ASSERT_EQUAL(zvp_measure_parse("< 5", &y, &lo, &hi, &s, &rel), 0);
    CU_ASSERT(y == 5.0 && isinf(lo) && lo < 0 && hi == 5.0 && isnan(s));
    CU_ASSERT_EQUAL(zvp_measure_parse(">=2", &y, &lo, &hi, &s, &rel), 0);
    CU_ASSERT(lo == 2.0 && isinf(hi) && hi > 0);
    CU_ASSERT_EQUAL(zvp_measure_parse("2.7..3.0", &y, &lo, &hi, &s, &rel), 0);
    CU_ASSERT(lo == 2.7 && hi == 3.0 && y == 0.5 * (2.7 + 3.0));
    CU_ASSERT_EQUAL(zvp_measure_parse("5 +- 10%", &y, &lo, &hi, &s, &rel), 0);
    CU_ASSERT(y == 5.0 && isnan(lo) && rel == 1);
    CU_ASSERT_DOUBLE_EQUAL(s, 0.5, 1e-15);
    CU_ASSERT_EQUAL(zvp_measure_parse("0.4 \xc2\xb1 0.05", &y, &lo, &hi, &s, &rel), 0);
    CU_ASSERT(y == 0.4 && s == 0.05 && rel == 0);
    CU_ASSERT_EQUAL(zvp_measure_parse("3.0..2.7", &y, &lo, &hi, &s, &rel), -1);
    CU_ASSERT_EQUAL(zvp_measure_parse("5 +- 0", &y, &lo, &hi, &s, &rel), -1);
    CU_ASSERT_EQUAL(zvp_measure_parse("about 5", &y, &lo, &hi, &s, &rel), -1);
    CU_ASSERT_EQUAL(zvp_measure_parse("< x", &y, &lo, &hi, &s, &rel), -1);
    /* half a unit of the last printed digit */
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_half_digit("5.0"), 0.05, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_half_digit("5"), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_half_digit("1.08"), 0.005, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_half_digit("963"), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(zvp_measure_half_digit("1.5e3"), 50.0, 1e-12);
    CU_ASSERT(isnan(zvp_measure_half_digit("x")));
}

/* M/M/1 (mmc, one server), response_s = 1 / (mu - lambda) at lambda = 1; three rows whose
 * cells are a point 0.5 with sigma 0.05, an interval 0.3..0.6 and a bound < 0.4; residuals
 * at model values chosen by hand. */
static zvp_fit *three_cells(void)
{
    static const double lam[3] = {1, 1, 1}, y[3] = {0.5, 0.45, 0.4};
    const zvp_model *m = zvp_test_find_model("mmc");
    zvp_fit *fit = NULL;
    zvp_error err;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_new(m, NULL, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_set_fixed(fit, "servers", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_input(fit, "arrival_rate_per_s", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_free(fit, "service_rate_per_s", 5.0, 1.5, 20.0, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_match(fit, "response_s", 2.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, 3, NULL, lam, y, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 0, 0, NAN, NAN, 0.05, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 1, 0, 0.3, 0.6, NAN, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 2, 0, -INFINITY, 0.4, NAN, &err), ZVP_SUCCESS);
    return fit;
}

static void test_measure_residuals(void)
{
    zvp_fit *fit = three_cells();
    zvp_error err;
    /* point with sigma: w (m - y) / s in both kinds: 2 (0.6 - 0.5) / 0.05 = 4 */
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 0, 0, 0.6, 0), 4.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 0, 0, 0.6, 1), 4.0, 1e-12);
    /* interval: 0 inside; outside relative 2 (0.9 - 0.6) / 0.6 = 1, absolute 2 x 0.3 */
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 1, 0, 0.45, 0), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 1, 0, 0.9, 0), 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 1, 0, 0.9, 1), 0.6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 1, 0, 0.15, 0), 2.0 * -0.15 / 0.3, 1e-12);
    /* bound < 0.4: 0 below, 2 (0.5 - 0.4) / 0.4 = 0.5 above */
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 2, 0, 0.1, 0), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_residual(fit, 2, 0, 0.5, 0), 0.5, 1e-12);
    /* percentage errors: point |0.6 - 0.5| / 0.5; zone 0 inside, 25 % beyond 0.4 */
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_ape(fit, 0, 0, 0.6), 20.0, 1e-10);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_ape(fit, 1, 0, 0.59), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_ape(fit, 2, 0, 0.5), 25.0, 1e-10);
    /* the zones follow their rows into a subset */
    {
        size_t rows[1] = {2};
        zvp_fit *sub = NULL;
        double lo, hi, s;
        CU_ASSERT_EQUAL_FATAL(zvp_fit_subset(fit, rows, 1, &sub, &err), ZVP_SUCCESS);
        zvp_fit_cell(sub, 0, 0, &lo, &hi, &s);
        CU_ASSERT(isinf(lo) && hi == 0.4 && isnan(s));
        zvp_fit_free(sub);
    }
    /* bad declarations */
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 0, 0, 1.0, 0.5, NAN, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 0, 0, NAN, NAN, -1.0, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "sigma"));
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 5, 0, NAN, NAN, 1.0, &err), ZVP_EINVAL);
    zvp_fit_free(fit);
}

/* A fit whose only cells are a point 0.5 +- 0.05 at lambda = 1 (mu = 3) and a satisfied
 * interval: the fit recovers mu = 3 (cost 0), MAPE 0 %. */
static void test_measure_fit(void)
{
    zvp_fit *fit = three_cells();
    zvp_fit_result *res = NULL;
    zvp_error err;
    size_t rows[2] = {0, 1};
    zvp_fit *sub = NULL;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_subset(fit, rows, 2, &sub, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(sub, &res, &err), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_result_estimates(res)[0], 3.0, 1e-6);
    CU_ASSERT(zvp_fit_result_mape_all(res) < 1e-4);
    zvp_fit_result_free(res);
    zvp_fit_free(sub);
    zvp_fit_free(fit);
}

/* [sigma] in a fit file: digits, percent, a unit, ROW.OUTPUT, and the cell's own +- wins. */
static void test_measure_fitfile(void)
{
    char path[256], dpath[256];
    zvp_fit *fit = NULL;
    zvp_error err;
    double lo, hi, s;
    snprintf(dpath, sizeof dpath, "%s/measure.csv", ZVP_TEST_TMPDIR);
    zvp_test_write_text(dpath, "id, arrival_rate_per_s [1/s], response_s [ms]\n"
                               "a, 1, 500\nb, 1.5, 1000.0\nc, 1, 400 +- 20\nd, 1, < 600\n");
    zvp_test_write_fit("measure", "[fit]\nmodel = mmc\ndata = measure.csv\n" FIT_FIXED
                       "[free]\nservice_rate_per_s = 5, 1.6, 20\n[match]\nresponse_s = response_s\n"
                       "[sigma]\nresponse_s = digits\nb.response_s = 2%\n", path, sizeof path);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(path, &fit, &err), ZVP_SUCCESS);
    zvp_fit_cell(fit, 0, 0, &lo, &hi, &s);
    CU_ASSERT_DOUBLE_EQUAL(s, 0.5e-3, 1e-15); /* "500" ms: +- 0.5 ms */
    zvp_fit_cell(fit, 1, 0, &lo, &hi, &s);
    CU_ASSERT_DOUBLE_EQUAL(s, 0.02, 1e-15); /* 2 % of 1 s (ROW.OUTPUT wins) */
    zvp_fit_cell(fit, 2, 0, &lo, &hi, &s);
    CU_ASSERT_DOUBLE_EQUAL(s, 0.02, 1e-15); /* the cell's own +- 20 ms */
    zvp_fit_cell(fit, 3, 0, &lo, &hi, &s);
    CU_ASSERT(isinf(lo) && fabs(hi - 0.6) < 1e-15 && isnan(s)); /* digits skip a bound */
    zvp_fit_free(fit);
    zvp_test_write_fit("measure", "[fit]\nmodel = mmc\ndata = measure.csv\n" FIT_FIXED
                       "[free]\nservice_rate_per_s = 5, 1.6, 20\n[match]\nresponse_s = response_s\n"
                       "[sigma]\nresponse_s = 3 apples\n", path, sizeof path);
    CU_ASSERT_EQUAL(zvp_fit_read(path, &fit, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "apples"));
}

/* Read a fit of mmc (one server) whose data's second data row (line 4: a comment line
 * precedes it) has response cell `r` and utilization cell `u` (in %), residual `kind`;
 * the status, the message in err. */
static int read_cells(const char *r, const char *u, const char *kind, zvp_error *err)
{
    char path[256], dpath[256], data[512], fitt[512];
    zvp_fit *fit = NULL;
    int st;
    snprintf(dpath, sizeof dpath, "%s/range.csv", ZVP_TEST_TMPDIR);
    snprintf(data, sizeof data, "id, arrival_rate_per_s [1/s], response_s [s], u [%%]\n"
                                "a, 1, 0.5, 50\n# a comment line\nb, 0.5, %s, %s\n", r, u);
    zvp_test_write_text(dpath, data);
    snprintf(fitt, sizeof fitt, "[fit]\nmodel = mmc\ndata = range.csv\nresidual = %s\n" FIT_FIXED
             "[free]\nservice_rate_per_s = 3, 1.5, 20\n[match]\nresponse_s = response_s\n"
             "utilization = u\n", kind);
    zvp_test_write_fit("range", fitt, path, sizeof path);
    zvp_error_clear(err);
    st = zvp_fit_read(path, &fit, err);
    zvp_fit_free(fit);
    return st;
}

/* Every word of the NULL-terminated list is in msg. */
static int has_all(const char *msg, const char *const *words)
{
    for (; *words; words++)
        if (!strstr(msg, *words)) {
            printf("\n  missing '%s' in: %s\n", *words, msg);
            return 0;
        }
    return 1;
}

/* Stated cells against the output's range, checked when the fit file is read: a value, both
 * ends of an interval and a bound must lie in the range (utilization [0, 1], response_s
 * [0, inf]); a strict bound at its edge leaves no value; with relative residuals no end may
 * be 0. The message names the file, the data row and the file line, the column, the cell and
 * the range (in the output's and the column's unit). */
static void test_measure_range(void)
{
    zvp_error err;
    static const char *const interval[] = {"range.csv", "row 2 of", "line 4", "column u",
                                           "'0..200'", "upper end", "[0, 1]", "[0, 100] %", NULL};
    static const char *const straddle[] = {"column response_s", "'-3..2'", "lower end",
                                           "[0, inf] s", NULL};
    static const char *const strict_hi[] = {"'> 100'", "strict bound", "[0, 1]", NULL};
    static const char *const strict_lo[] = {"'< 0'", "strict bound", "[0, inf] s", NULL};
    static const char *const zero_end[] = {"'0..100'", "lower end 0", "relative", "line 4",
                                           NULL};
    CU_ASSERT_EQUAL(read_cells("0.7", "0..200", "relative", &err), ZVP_EINVAL);
    CU_ASSERT(has_all(err.message, interval));
    /* an interval reaching outside the range is refused (not clipped) */
    CU_ASSERT_EQUAL(read_cells("-3..2", "20", "absolute", &err), ZVP_EINVAL);
    CU_ASSERT(has_all(err.message, straddle));
    CU_ASSERT_EQUAL(read_cells("0.7", "> 100", "relative", &err), ZVP_EINVAL);
    CU_ASSERT(has_all(err.message, strict_hi));
    CU_ASSERT_EQUAL(read_cells("< 0", "20", "absolute", &err), ZVP_EINVAL);
    CU_ASSERT(has_all(err.message, strict_lo));
    /* a bound beyond the range (a unit slip: < 500 % of a fraction) */
    CU_ASSERT_EQUAL(read_cells("0.7", "< 500", "relative", &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'< 500'"));
    /* an end at 0: refused up front for relative residuals, fine for absolute ones */
    CU_ASSERT_EQUAL(read_cells("0.7", "0..100", "relative", &err), ZVP_EINVAL);
    CU_ASSERT(has_all(err.message, zero_end));
    CU_ASSERT_EQUAL(read_cells("0.7", "0..100", "absolute", &err), ZVP_SUCCESS);
    /* non-strict bounds at the edges and intervals inside are accepted */
    CU_ASSERT_EQUAL(read_cells("<= 0.9", ">= 100", "relative", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(read_cells("0.1..0.9", "1..100", "relative", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(read_cells("<= 0", "20", "absolute", &err), ZVP_SUCCESS);
}

/* A cell near zero has no relative error: two rows at lambda = 1 measure response_s
 * 0.5 +- 0.05 and 1e-101 +- 1 (weight 2). Both see the same model value m = 1 / (mu - 1);
 * the cost 4 ((m - 0.5) / 0.05)^2 + 4 (m - 1e-101)^2 is least at m = (0.5 / 0.05^2) /
 * (1 / 0.05^2 + 1) = 200 / 401. The MAPE counts the first cell only: 100 |m - 0.5| / 0.5 =
 * 100 / 401 %; the second (|y| below 1e-100, and within its sigma of 0) has none. */
static void test_measure_near_zero(void)
{
    static const double lam[2] = {1, 1}, y[2] = {0.5, 1e-101};
    const zvp_model *m = zvp_test_find_model("mmc");
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    zvp_error err;
    double ms = 200.0 / 401.0;
    char buf[8192] = "";
    FILE *fp;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_new(m, NULL, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_set_fixed(fit, "servers", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_input(fit, "arrival_rate_per_s", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_free(fit, "service_rate_per_s", 5.0, 1.5, 20.0, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_match(fit, "response_s", 2.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, 2, NULL, lam, y, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 0, 0, NAN, NAN, 0.05, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 1, 0, NAN, NAN, 1.0, &err), ZVP_SUCCESS);
    /* the cell functions: no relative error near zero, the ordinary one unchanged */
    CU_ASSERT(isnan(zvp_fit_cell_ape(fit, 1, 0, 0.5)));
    CU_ASSERT(isnan(zvp_fit_cell_pct(fit, 1, 0, 0.5)));
    CU_ASSERT(!zvp_fit_cell_has_relative(fit, 1, 0, 0.5));
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_cell_pct(fit, 0, 0, 0.6), 20.0, 1e-10);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(fit, &res, &err), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_result_estimates(res)[0], 1.0 + 1.0 / ms, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_result_mape_all(res), 100.0 / 401.0, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(zvp_fit_result_mape(res, 0), 100.0 / 401.0, 1e-5);
    /* the text report: the cell's error is absolute, and a note says why */
    if ((fp = tmpfile()) != NULL) {
        size_t n;
        zvp_fit_result_print(res, fp);
        rewind(fp);
        n = fread(buf, 1, sizeof buf - 1, fp);
        buf[n] = '\0';
        fclose(fp);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "no relative error"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, " abs"));
    CU_ASSERT_PTR_NULL(strstr(buf, "e+10")); /* no 1e+101 % anywhere */
    zvp_fit_result_free(res);
    /* a value within its sigma of 0 has none either: 0.3 +- 1 */
    fit->measured[1] = 0.3;
    CU_ASSERT(isnan(zvp_fit_cell_ape(fit, 1, 0, 0.5)));
    zvp_fit_free(fit);
}

/* The fit-time check of an in-memory fit names a zone by its ends, not its midpoint. */
static void test_measure_zone_check(void)
{
    static const double lam[2] = {1, 1}, y[2] = {0.5, 0.5};
    const zvp_model *m = zvp_test_find_model("mmc");
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    zvp_error err;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_new(m, NULL, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_set_fixed(fit, "servers", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_input(fit, "arrival_rate_per_s", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_free(fit, "service_rate_per_s", 5.0, 1.5, 20.0, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_match(fit, "response_s", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, 2, NULL, lam, y, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_set_cell(fit, 1, 0, 0.0, 1.0, NAN, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_run(fit, &res, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "row 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "[0, 1]"));
    zvp_fit_result_free(res);
    zvp_fit_free(fit);
}

int zvp_test_register_measure(void)
{
    CU_pSuite s = CU_add_suite("measure", NULL, NULL);
    if (!s)
        return CU_get_error();
    if (!CU_add_test(s, "cell syntax and printed precision", test_measure_parse) ||
        !CU_add_test(s, "residuals and percentage errors", test_measure_residuals) ||
        !CU_add_test(s, "a fit with a sigma and an interval", test_measure_fit) ||
        !CU_add_test(s, "[sigma] in a fit file", test_measure_fitfile) ||
        !CU_add_test(s, "stated cells against the output's range", test_measure_range) ||
        !CU_add_test(s, "a cell near zero has no relative error", test_measure_near_zero) ||
        !CU_add_test(s, "fit-time check names a zone by its ends", test_measure_zone_check))
        return CU_get_error();
    return 0;
}
