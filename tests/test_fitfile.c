/*
 * tests/test_fitfile.c - reading fit files: every refusal with its status and message, the
 * join, the `where` row filter, concatenated data files, lines of any length, repeated keys.
 *
 * Expected values: synthetic M/M/1 data (tests/data/mm1_*.csv, mu = 2.5/s, closed form
 * L = rho / (1 - rho)). The `where` filter and the concatenation of data files use
 * tests/data/mm1_where.csv (site a: mu = 2.5/s, site b: mu = 4/s, same closed form) and
 * tests/data/mm1_exact_more.csv (mu = 2.5/s): a filter that kept the wrong rows would mix
 * the two service rates and miss both.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "fit_fixtures.h"

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

/* A bad fit file gives `status` and a message containing `needle`. */
static void check_bad_fit(const char *name, const char *text, int status, const char *needle)
{
    char path[256];
    zvp_fit *fit = (zvp_fit *)1;
    zvp_error err;
    zvp_error_clear(&err);
    if (text)
        zvp_test_write_fit(name, text, path, sizeof path);
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
    /* A line longer than 200 bytes (libinih's buffer, which split it) is read whole now:
     * see test_fit_long_lines. */
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

/* Runs fit text (tmp/<name>.ini, zvp_test_run_fit_text): n_rows rows, row `row` labelled
 * `label`, the estimate `estimate` (to 1e-6). The result, for more checks; the caller frees. */
static zvp_fit_result *run_rows(const char *name, const char *text, double estimate,
                                size_t n_rows, size_t row, const char *label)
{
    zvp_fit_result *res = zvp_test_run_fit_text(name, text);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], estimate, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), n_rows);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, row), label);
    return res;
}

/* Text column: site = b keeps the four mu = 4/s rows (b4: lambda = 3.5, L = 7), site = a the
 * three mu = 2.5/s rows. The filtered column (site, the first text column) is constant over
 * the rows left, so the labels come from the next text column, runid. */
static void test_fit_where_text(void)
{
    zvp_fit_result *res =
        run_rows("where_site_b", WHERE_HEAD "where = site = b\n" WHERE_BODY, 4.0, 4, 0, "b1");
    const zvp_model_file *mf = zvp_fit_result_model_file(res);
    const char *out = ZVP_TEST_TMPDIR "/where_site_b-calibrated.ini";
    zvp_error err;
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 3), "b4");
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[3], 7.0, 1e-15);
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[3], 7.0, 1e-5);
    /* provenance: the filter as written */
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, out, &err), ZVP_SUCCESS);
    CU_ASSERT(zvp_test_file_contains(out, "where = site = b\n"));
    zvp_fit_result_free(res);

    res = run_rows("where_site_a", WHERE_HEAD "where = site =   a\n" WHERE_BODY, MU_TRUE, 3, 2,
                   "a3");
    zvp_fit_result_free(res);
}

/* Numeric column: batch = 2.0 matches the cells written "2" (compared as numbers, not as
 * text): rows b1, b2. Two conditions must both hold: batch = 3;site = b -> b3, b4. */
static void test_fit_where_number(void)
{
    /* site (not filtered) is b in both rows left: the labels come from runid, which differs */
    zvp_fit_result *res = run_rows("where_batch", WHERE_HEAD "where = batch = 2.0\n" WHERE_BODY,
                                   4.0, 2, 0, "b1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 1), "b2");
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[1], 1.0, 1e-15);    /* b2 */
    zvp_fit_result_free(res);

    res = run_rows("where_two", WHERE_HEAD "where = batch = 3;site = b\n" WHERE_BODY, 4.0, 2, 0,
                   "b3");
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[1], 7.0, 1e-15);    /* b4 */
    zvp_fit_result_free(res);

    /* a column of the join table, filtered after the join: config 4 (lambda = 2.25) is row j4 */
    res = run_rows("where_join",
                   "[fit]\nmodel = mmc\ndata = ../data/mm1_join_meas.csv\n"
                   "join = ../data/mm1_join_config.csv\njoin_key = config\n"
                   "where = arrival_rate_per_s = 2.25\n" WHERE_BODY,
                   MU_TRUE, 1, 0, "j4");
    zvp_fit_result_free(res);
}

/* data = mm1_exact.csv, mm1_exact_more.csv: the 7 + 3 rows in file order, one fit. */
static void test_fit_data_concat(void)
{
    zvp_fit_result *res = run_rows("concat",
                                   "[fit]\nmodel = mmc\nstarts = 4\n"
                                   "data = ../data/mm1_exact.csv, ../data/mm1_exact_more.csv\n"
                                   WHERE_BODY,
                                   MU_TRUE, 10, 0, "r1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 7), "s1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 9), "s3");
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[9], 23.99999999999998, 1e-15);
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[9], zvp_test_mm1_mean_in_system(2.4 / MU_TRUE), 1e-5);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 8); /* 9 measured cells (r4 empty) - 1 */
    zvp_fit_result_free(res);

    /* filtered across both files; runid is filtered, so no text column is left for labels */
    res = run_rows("concat_where",
                   "[fit]\nmodel = mmc\n"
                   "data = ../data/mm1_exact.csv, ../data/mm1_exact_more.csv\n"
                   "where = runid = s2\n" WHERE_BODY,
                   MU_TRUE, 1, 0, "file 2 row 2");
    zvp_fit_result_free(res);
}

/* The labels of the rows of fit file `text`, in order, are want[0..n). */
static void expect_labels(const char *name, const char *text, size_t n, const char *const *want)
{
    char path[256];
    zvp_fit *fit = NULL;
    zvp_error err;
    zvp_error_clear(&err);
    int st = zvp_fit_read(zvp_test_write_fit(name, text, path, sizeof path), &fit, &err);
    if (st)
        fprintf(stderr, "\n%s: %s\n", name, err.message);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_n_rows(fit), n);
    for (size_t i = 0; i < n && i < zvp_fit_n_rows(fit); i++) {
        CU_ASSERT_STRING_EQUAL(zvp_fit_row_label(fit, i), want[i]);
        if (strcmp(zvp_fit_row_label(fit, i), want[i]) != 0)
            fprintf(stderr, "\n%s: row %zu labelled '%s', want '%s'\n", name, i + 1,
                    zvp_fit_row_label(fit, i), want[i]);
    }
    zvp_fit_free(fit);
}

/* Row labels come from the first text column that tells the rows left apart (tests/data/
 * mm1_labels.csv: release repeats 3.1.0, note is empty in two rows, runid differs in every
 * row), else from the first text column (mm1_labels_shared.csv: release and site repeat). */
static void test_fit_labels(void)
{
    const char *runids[3] = {"R1", "R2", "R3"}, *releases[3] = {"3.1.0", "3.1.0", "2.4.0"};
    expect_labels("labels_runid", "[fit]\nmodel = mmc\ndata = ../data/mm1_labels.csv\n"
                  WHERE_BODY, 3, runids);
    /* release filtered; note is empty in the rows left, so not a text column there */
    expect_labels("labels_where", "[fit]\nmodel = mmc\ndata = ../data/mm1_labels.csv\n"
                  "where = release = 3.1.0\n" WHERE_BODY, 2, runids + 1);
    expect_labels("labels_shared", "[fit]\nmodel = mmc\ndata = ../data/mm1_labels_shared.csv\n"
                  WHERE_BODY, 3, releases);
    /* one row left: every text column tells it apart, so the first one labels it */
    expect_labels("labels_one", "[fit]\nmodel = mmc\ndata = ../data/mm1_labels.csv\n"
                  "where = arrival_rate_per_s = 0.5\n" WHERE_BODY, 1, releases + 2);
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

/* Lines of any length: libinih (the former reader) split lines longer than 200 bytes, and
 * the reader refused them; a fit file is now read whole. The comment line below was refused
 * with ZVP_EPARSE "long_line.ini:4"; a data path and a [match] line longer than 200 bytes
 * name the same file and column. Expected: the fit of tests/data/mm1_exact.csv, mu = 2.5/s. */
static void test_fit_long_lines(void)
{
    char path[256], text[2048], dots[512] = "";
    zvp_fit *fit = NULL;
    zvp_error err;
    zvp_fit_result *res = zvp_test_run_fit_text(
        "long_line", FIT_HEAD "; a comment far longer than the INI reader's line "
        "buffer xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
        FIT_FIXED FREE_OK FIT_MATCH);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 7);
    zvp_fit_result_free(res);

    for (int i = 0; i < 150; i++)
        strcat(dots, "./");
    snprintf(text, sizeof text,
             "[fit]\nmodel = mmc\ndata = ../data/%smm1_exact.csv\n" FIT_FIXED FREE_OK
             "[match]\nmean_in_system = mean_in_system%250s, 1 ; weight\n", dots, "");
    CU_ASSERT_FATAL(strlen(dots) == 300);
    zvp_test_write_fit("long_value", text, path, sizeof path);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(path, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_n_rows(fit), 7);
    CU_ASSERT_STRING_EQUAL(zvp_fit_matched_column(fit, 0), "mean_in_system");
    CU_ASSERT_STRING_EQUAL(zvp_fit_matched_unit(fit, 0), "1");
    ZVP_ASSERT_REL(zvp_fit_measured(fit, 6, 0), 9.0, 1e-15);
    zvp_fit_free(fit);
}

/* A key given twice in a section is refused (the second line is named), in [fit] and in a
 * parameter section. */
static void test_fit_duplicate_key(void)
{
    check_bad_fit("dup_fit_key", FIT_HEAD "model = mmc\n" FIT_FIXED FREE_OK FIT_MATCH, ZVP_EPARSE,
                  "dup_fit_key.ini:4: [fit] model = mmc: key given twice (first at line 2)");
    check_bad_fit("dup_free_key", FIT_HEAD FIT_FIXED FREE_OK "service_rate_per_s = 3, 1, 9\n"
                  FIT_MATCH, ZVP_EPARSE, "service_rate_per_s = 3, 1, 9: key given twice");
    /* the same key in two sections is two keys: servers fixed and servers free are a role
     * conflict, not a duplicate */
    check_bad_fit("fixed_and_free_servers", FIT_HEAD FIT_FIXED FREE_OK "servers = 2, 1, 10\n"
                  FIT_MATCH, ZVP_EINVAL, "servers");
}

/* A whole-number parameter (mmc's servers: a count) cannot be free: refused naming it. */
static void test_fit_integer_free(void)
{
    check_bad_fit("integer_free",
                  FIT_HEAD "[fixed]\nservice_rate_per_s = 2.5\n[inputs]\n"
                  "arrival_rate_per_s = arrival_rate_per_s\n[free]\nservers = 2, 1, 10\n" FIT_MATCH,
                  ZVP_EINVAL, "parameter 'servers' takes whole numbers only");
}

/* "-" reads the fit file from standard input; its paths are relative to the working
 * directory (tests/). */
static void test_fit_stdin(void)
{
    zvp_fit *fit = NULL;
    zvp_error err;
    zvp_test_write_file(ZVP_TEST_TMPDIR "/stdin_fit.ini",
                        "[fit]\nmodel = mmc\ndata = data/mm1_exact.csv\n" FIT_FIXED FREE_OK
                        FIT_MATCH);
    CU_ASSERT_PTR_NOT_NULL_FATAL(freopen(ZVP_TEST_TMPDIR "/stdin_fit.ini", "r", stdin));
    CU_ASSERT_EQUAL(zvp_fit_read("-", &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_n_rows(fit), 7);
    CU_ASSERT_PTR_NULL(zvp_fit_output_path(fit));
    zvp_fit_free(fit);
    CU_ASSERT_PTR_NOT_NULL(freopen("/dev/null", "r", stdin));
}

/* Units in CSV headers (calibration/README.md, "Units"). M/M/1 with mu = 2.5/s: response
 * R = 1 / (mu - lambda) = 0.5, 1, 2, 4 s at lambda = 0.5, 1.5, 2, 2.25/s (closed form, exact
 * in decimal). The same data in ms (and lambda in 1/min, x 60) must fit the same mu; a column
 * in [%] against an output in [1] is converted by 1/100. */
#define RESP_FIT(data, col) "[fit]\nmodel = mmc\ndata = " data "\n[fixed]\nservers = 1\n" \
    "[inputs]\narrival_rate_per_s = lam\n[free]\nservice_rate_per_s = 5, 0.5, 20\n" \
    "[match]\nresponse_s = " col "\n"

static double fit_mu(const char *name, const char *text)
{
    zvp_fit_result *res = zvp_test_run_fit_text(name, text);
    double mu = res ? zvp_fit_result_estimates(res)[0] : NAN;
    zvp_fit_result_free(res);
    return mu;
}

static void test_fit_units(void)
{
    zvp_fit *fit = NULL;
    zvp_error err;
    char path[256];
    double mu_s, mu_ms, mu_none;
    zvp_test_write_file(ZVP_TEST_TMPDIR "/resp_s.csv",
                        "lam [1/s],resp [s]\n0.5,0.5\n1.5,1\n2,2\n2.25,4\n");
    zvp_test_write_file(ZVP_TEST_TMPDIR "/resp_ms.csv",
                        "lam [1/min],resp [ms]\n30,500\n90,1000\n120,2000\n135,4000\n");
    zvp_test_write_file(ZVP_TEST_TMPDIR "/resp_nounit.csv",
                        "lam,resp\n0.5,0.5\n1.5,1\n2,2\n2.25,4\n");
    mu_s = fit_mu("resp_s", RESP_FIT("resp_s.csv", "resp"));
    mu_ms = fit_mu("resp_ms", RESP_FIT("resp_ms.csv", "resp"));
    mu_none = fit_mu("resp_nounit", RESP_FIT("resp_nounit.csv", "resp"));
    ZVP_ASSERT_REL(mu_s, MU_TRUE, 1e-6);
    ZVP_ASSERT_REL(mu_ms, mu_s, 1e-12); /* converted, not fitted silently */
    ZVP_ASSERT_REL(mu_none, mu_s, 1e-12); /* no unit: the descriptor's */
    /* the measured values are in the output's unit, the column's unit is kept as written */
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(zvp_test_write_fit("resp_ms_read",
                          RESP_FIT("resp_ms.csv", "resp"), path, sizeof path), &fit, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_measured(fit, 0, 0), 0.5);
    CU_ASSERT_EQUAL(zvp_fit_measured(fit, 3, 0), 4.0);
    CU_ASSERT_STRING_EQUAL(zvp_fit_matched_unit(fit, 0), "ms");
    CU_ASSERT_EQUAL(zvp_fit_n_rows(fit), 4);
    zvp_fit_free(fit);

    /* incommensurable units are refused naming both, for a match and for an input */
    zvp_test_write_file(ZVP_TEST_TMPDIR "/resp_apples.csv",
                        "lam [1/s],resp [apples],pct [%],kp [kpages/s]\n0.5,1,2,3\n1.5,1,2,3\n");
    check_bad_fit("unit_apples", RESP_FIT("resp_apples.csv", "resp"), ZVP_EINVAL,
                  "[match] response_s = resp: the column's unit [apples] cannot be converted "
                  "to [s]");
    check_bad_fit("unit_pct_vs_s", RESP_FIT("resp_apples.csv", "pct"), ZVP_EINVAL,
                  "unit [%] cannot be converted to [s]");
    check_bad_fit("unit_rate_vs_time",
                  "[fit]\nmodel = mmc\ndata = resp_apples.csv\n[fixed]\nservers = 1\n"
                  "[inputs]\narrival_rate_per_s = pct\n[free]\nservice_rate_per_s = 5, 0.5, 20\n"
                  "[match]\nresponse_s = resp\n", ZVP_EINVAL,
                  "[inputs] arrival_rate_per_s = pct: the column's unit [%] cannot be converted "
                  "to [1/s]");
}

/* The unit table itself: factors stated in the docs (GB = 1e9 bytes, GiB = 2^30). */
static void test_unit_ratio(void)
{
    double mul, div;
    zvp_error err;
#define RATIO(f, t, want)                                                                       \
    do {                                                                                        \
        CU_ASSERT_EQUAL(zvp_unit_ratio(f, t, &mul, &div, &err), ZVP_SUCCESS);                   \
        ZVP_ASSERT_REL(mul / div, (double)(want), 1e-15);                                                \
    } while (0)
    RATIO("ms", "s", 1e-3);
    RATIO("s", "ms", 1e3);
    RATIO("us", "ms", 1e-3);
    RATIO("GB", "GiB", 1e9 / 1073741824.0);
    RATIO("GiB", "GB", 1073741824.0 / 1e9);
    RATIO("MiB", "GiB", 1.0 / 1024);
    RATIO("MB", "GB", 1e-3);
    RATIO("%", "1", 0.01);
    RATIO("1", "%", 100);
    RATIO("kpages/s", "pages/s", 1e3);
    RATIO("pages/s", "1/s", 1);
    RATIO("1/min", "1/s", 1.0 / 60);
    RATIO("", "GiB", 1);           /* no unit: the descriptor's */
    RATIO("tx/s", "tx/s", 1);      /* unknown atoms: only to themselves */
    CU_ASSERT_EQUAL(zvp_unit_ratio("250", "s", &mul, &div, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_unit_ratio("tx/s", "1/s", &mul, &div, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_unit_ratio("GiB", "s", &mul, &div, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "[GiB]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "[s]"));
    CU_ASSERT_EQUAL(zvp_unit_ratio("%", "pages", &mul, &div, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_unit_ratio(NULL, "s", &mul, &div, &err), ZVP_EINVAL);
    /* 250 ms is the double nearest 0.25 s (a division, not a multiplication by 0.001) */
    CU_ASSERT_EQUAL(zvp_unit_ratio("ms", "s", &mul, &div, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(0.3 * 1000 * mul / div, 0.3);
#undef RATIO
}

/* Linear load: a data file with a header of 100,000 columns loads, and its last column is
 * found (no timing assertion). Join keys repeated in the join table are refused naming both
 * rows (found by sorting). */
static void test_fit_wide_header(void)
{
    const size_t n = 100000;
    FILE *fp = fopen(ZVP_TEST_TMPDIR "/wide.csv", "w");
    zvp_fit *fit = NULL;
    zvp_error err;
    char path[256];
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    for (size_t j = 0; j < n - 2; j++)
        fprintf(fp, "c%zu [ms],", j);
    fprintf(fp, "lam [1/s],resp [s]\n");
    for (int r = 0; r < 4; r++) {
        static const char *const tail[] = {"0.5,0.5", "1.5,1", "2,2", "2.25,4"};
        for (size_t j = 0; j < n - 2; j++)
            fputs("1,", fp);
        fprintf(fp, "%s\n", tail[r]);
    }
    CU_ASSERT_EQUAL_FATAL(fclose(fp), 0);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(zvp_test_write_fit("wide", RESP_FIT("wide.csv", "resp"),
                                                          path, sizeof path), &fit, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_n_rows(fit), 4);
    CU_ASSERT_EQUAL(zvp_fit_measured(fit, 3, 0), 4.0);
    zvp_fit_free(fit);

    zvp_test_write_file(ZVP_TEST_TMPDIR "/join_dup.csv", "k,lam [1/s]\n1,0.5\n2,1.5\n3,2\n2,2.25\n");
    zvp_test_write_file(ZVP_TEST_TMPDIR "/join_meas.csv", "k,resp [s]\n1,0.5\n2,1\n");
    check_bad_fit("join_dup", "[fit]\nmodel = mmc\ndata = join_meas.csv\njoin = join_dup.csv\n"
                  "join_key = k\n[fixed]\nservers = 1\n[inputs]\narrival_rate_per_s = lam\n"
                  "[free]\nservice_rate_per_s = 5, 0.5, 20\n[match]\nresponse_s = resp\n",
                  ZVP_EPARSE, "join key k = 2 appears in rows 2 and 4");
}

/* data = a FIFO works; data = /dev/zero fails naming the limit (it is read once, bounded). */
static void test_fit_special_data(void)
{
    check_bad_fit("data_dev_zero", RESP_FIT("/dev/zero", "resp"), ZVP_EIO,
                  "/dev/zero: input is larger than the limit of 67108864 bytes");
}

int zvp_test_register_fitfile(void)
{
    CU_pSuite s = CU_add_suite("fitfile", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "fit_join", test_fit_join) ||
        !CU_add_test(s, "fit_read_errors", test_fit_read_errors_join) ||
        !CU_add_test(s, "fit_where_text", test_fit_where_text) ||
        !CU_add_test(s, "fit_where_number", test_fit_where_number) ||
        !CU_add_test(s, "fit_data_concat", test_fit_data_concat) ||
        !CU_add_test(s, "fit_labels", test_fit_labels) ||
        !CU_add_test(s, "fit_where_errors", test_fit_where_errors) ||
        !CU_add_test(s, "fit_long_lines", test_fit_long_lines) ||
        !CU_add_test(s, "fit_duplicate_key", test_fit_duplicate_key) ||
        !CU_add_test(s, "fit_integer_free", test_fit_integer_free) ||
        !CU_add_test(s, "fit_stdin", test_fit_stdin) ||
        !CU_add_test(s, "fit_units", test_fit_units) ||
        !CU_add_test(s, "unit_ratio", test_unit_ratio) ||
        !CU_add_test(s, "fit_wide_header", test_fit_wide_header) ||
        !CU_add_test(s, "fit_special_data", test_fit_special_data))
        return (int)CU_get_error();
    return 0;
}
