/*
 * tests/test_sweep_stop.c - review 4 of the sweep: a stop flag honoured inside a block
 * (zvp_eval_grid_stop, zvp_sweep_options.stop; a one-block sweep could not be stopped), a
 * stopped block resumed by computing only its missing points; a failed sweep keeps the file
 * at `path` (non-whole values of an integer axis refused up front, a grid with no valid
 * point refused naming its first point); the attributes of the interval bounds; the axis
 * limit of exactly 10^9 values.
 * Expected values: the test model's closed form y = 2 x + 1, computed here; counts of model
 * evaluations made by the test model itself.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"
#include "sweep_fixtures.h"

/* ---- a test model that raises the stop flag at its k-th evaluation ------------------ */

/* Test state (tests only; the library has none): evaluations so far (counted atomically),
 * the one that sets the flag (0: never), and the flag itself. The stopped runs use one
 * thread, so the points computed before the stop are exactly the first ones. */
static unsigned long evals, stop_at;
static volatile sig_atomic_t stop_flag;

static int counting_eval(const double *p, double *out, zvp_error *err)
{
    if (p[0] > 5000000) {
        if (err) {
            err->status = ZVP_EINVAL;
            snprintf(err->message, sizeof err->message, "counting: x = %g must be at most 5e6",
                     p[0]);
        }
        return ZVP_EINVAL;
    }
    out[0] = 2 * p[0] + 1;
    if (__atomic_add_fetch(&evals, 1, __ATOMIC_SEQ_CST) == stop_at) /* threads > 1 too */
        stop_flag = 1;
    return ZVP_SUCCESS;
}

static const zvp_param_desc counting_params[] = {
    {"x", "1", "the input", 0, 1e7, 0, 0, 0}};
static const zvp_param_desc counting_outputs[] = {
    {"y", "1", "2 x + 1", -INFINITY, INFINITY, 0, 0, 0}};
static const zvp_model counting = {"counting", "y = 2 x + 1, counting its evaluations",
                                   "test", 1, counting_params, 1, counting_outputs,
                                   counting_eval, NULL};

static const char *tmp(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/stop_%s_%ld.h5", ZVP_TEST_TMPDIR, name, (long)getpid());
    return buf;
}

static void arm(unsigned long at)
{
    evals = 0;
    stop_at = at;
    stop_flag = 0;
}

/* x = 0, 1, ..., n - 1 */
static double *xs(size_t n)
{
    double *v = malloc(n * sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        v[i] = (double)i;
    return v;
}

static int file_equals(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return f && strcmp(buf, text) == 0;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* zvp_eval_grid_stop: the flag raised at evaluation 300 of 1000 on one thread: points
 * 0..299 computed (y = 2x + 1), 300.. not computed (status 0, NaN); NULL flag: all. */
static void test_eval_grid_stop(void)
{
    enum { N = 1000 };
    double *x = xs(N), y[N];
    uint8_t st[N];
    zvp_axis ax = {"x", x, N};
    double base[1] = {0};
    zvp_error err;
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    arm(300);
    CU_ASSERT_EQUAL(zvp_eval_grid_stop(&counting, base, &ax, 1, 0, N, y, st, 1, &stop_flag, &err),
                    ZVP_SUCCESS);
    CU_ASSERT_EQUAL(evals, 300);
    for (int i = 0; i < N; i++) {
        if (i < 300) {
            CU_ASSERT_EQUAL(st[i], ZVP_POINT_OK);
            CU_ASSERT_EQUAL(y[i], 2.0 * i + 1);
        } else {
            CU_ASSERT_EQUAL(st[i], ZVP_POINT_NOT_COMPUTED);
            CU_ASSERT(isnan(y[i]));
        }
    }
    arm(0);
    CU_ASSERT_EQUAL(zvp_eval_grid_stop(&counting, base, &ax, 1, 0, N, y, st, 2, NULL, &err),
                    ZVP_SUCCESS);
    CU_ASSERT_EQUAL(evals, N);
    CU_ASSERT_EQUAL(st[N - 1], ZVP_POINT_OK);
    CU_ASSERT_EQUAL(y[N - 1], 2.0 * (N - 1) + 1);
    free(x);
}

/* A sweep of n points stopped at evaluation `at`: ZVP_ECANCELED, an existing file at path
 * untouched, the partial file holding exactly the first `at` points; --resume computes
 * exactly the n - at others and the file equals an uninterrupted sweep's, byte for byte. */
static void stop_and_resume(size_t n, unsigned long at, const char *name)
{
    char path[256], ref[300], partial[300];
    double *x = xs(n);
    zvp_axis ax = {"x", x, n};
    zvp_model_file *mf = zvp_model_file_new(&counting);
    zvp_sweep_options opt;
    zvp_sweep_summary sum;
    zvp_error err;
    unsigned char *a, *b;
    size_t la = 0, lb = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    tmp(path, sizeof path, name);
    snprintf(ref, sizeof ref, "%s.ref", path);
    snprintf(partial, sizeof partial, "%s.partial", path);
    remove(partial);
    write_text(path, "previous sweep");
    zvp_sweep_options_init(&opt);
    CU_ASSERT_PTR_NULL(opt.stop);
    opt.threads = 1;
    opt.stop = &stop_flag;
    arm(at);
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, &ax, 1, path, &opt, &sum, &err), ZVP_ECANCELED);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "stopped after"));
    CU_ASSERT_EQUAL(evals, at);
    CU_ASSERT_EQUAL(sum.ok, at);
    CU_ASSERT(file_equals(path, "previous sweep"));
    {
        hid_t f = H5Fopen(partial, H5F_ACC_RDONLY, H5P_DEFAULT);
        uint8_t *st = malloc(n);
        double *y = malloc(n * sizeof *y);
        size_t bad = 0;
        CU_ASSERT_FATAL(f >= 0 && st && y);
        CU_ASSERT(H5LTread_dataset(f, "/status", H5T_NATIVE_UINT8, st) >= 0);
        CU_ASSERT(H5LTread_dataset_double(f, "/y", y) >= 0);
        for (size_t i = 0; i < n; i++)
            bad += i < at ? st[i] != ZVP_POINT_OK || y[i] != 2.0 * (double)i + 1
                          : st[i] != ZVP_POINT_NOT_COMPUTED || !isnan(y[i]);
        CU_ASSERT_EQUAL(bad, 0);
        H5Fclose(f);
        free(st);
        free(y);
    }
    opt.resume = 1;
    arm(0);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, &ax, 1, path, &opt, &sum, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(evals, n - at); /* only the points not computed */
    CU_ASSERT_EQUAL(sum.ok, n);
    opt.resume = 0;
    opt.threads = 2;
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, &ax, 1, ref, &opt, &sum, &err), ZVP_SUCCESS);
    a = zvp_test_sweep_bytes(path, &counting, n, &la);
    b = zvp_test_sweep_bytes(ref, &counting, n, &lb);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT(la == lb && memcmp(a, b, la) == 0);
    CU_ASSERT(access(partial, F_OK) != 0);
    free(a);
    free(b);
    remove(path);
    remove(ref);
    free(x);
    zvp_model_file_free(mf);
}

/* One block (1000 points; the README demo sweep is one block): stopped at point 300. */
static void test_sweep_stop_one_block(void) { stop_and_resume(1000, 300, "one"); }

/* Three blocks of 65536: stopped inside the second, at point 100000. */
static void test_sweep_stop_three_blocks(void) { stop_and_resume(150000, 100000, "three"); }

/* A failed sweep leaves the file at path as it was and no partial file: an integer axis
 * with a value that is not whole is refused before anything runs, naming it; a grid the
 * model refuses everywhere is ZVP_EINVAL naming the first point and the model's message. */
static void test_sweep_failure_keeps_file(void)
{
    char path[256], partial[300];
    const double servers[2] = {2, 1.5}, x[2] = {6e6, 7e6};
    zvp_axis ax_s = {"servers", servers, 2}, ax_x = {"x", x, 2};
    zvp_model_file *mmc = zvp_test_mmc_file(2.0), *cnt = zvp_model_file_new(&counting);
    zvp_sweep_summary sum;
    zvp_error err;
    CU_ASSERT_FATAL(mmc && cnt);
    tmp(path, sizeof path, "fail");
    snprintf(partial, sizeof partial, "%s.partial", path);
    write_text(path, "previous sweep");
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_sweep_run(mmc, &ax_s, 1, path, NULL, &sum, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'servers': value 1.5 is not a whole number"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "must be whole"));
    CU_ASSERT(file_equals(path, "previous sweep"));
    CU_ASSERT(access(partial, F_OK) != 0);
    arm(0);
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_sweep_run(cnt, &ax_x, 1, path, NULL, &sum, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no point of the sweep is valid input"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "point 0 (x = 6000000)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "counting: x = 6e+06 must be at most 5e6"));
    CU_ASSERT_EQUAL(sum.invalid, 2);
    CU_ASSERT(file_equals(path, "previous sweep"));
    CU_ASSERT(access(partial, F_OK) != 0);
    remove(path);
    zvp_model_file_free(mmc);
    zvp_model_file_free(cnt);
}

/* A string attribute (variable length, as the sweep writes them) of object obj, or ""
 * (static buffer). */
static const char *attr(hid_t f, const char *obj, const char *name)
{
    static char buf[1024];
    hid_t a = H5Aexists_by_name(f, obj, name, H5P_DEFAULT) > 0
                  ? H5Aopen_by_name(f, obj, name, H5P_DEFAULT, H5P_DEFAULT)
                  : H5I_INVALID_HID;
    hid_t ft = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID, mt = H5I_INVALID_HID;
    char *v = NULL;
    buf[0] = '\0';
    if (ft >= 0 && H5Tis_variable_str(ft) > 0) {
        mt = H5Tcopy(H5T_C_S1);
        H5Tset_cset(mt, H5Tget_cset(ft));
        if (H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(a, mt, &v) >= 0 && v) {
            snprintf(buf, sizeof buf, "%s", v);
            H5free_memory(v);
        }
    }
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (a >= 0)
        H5Aclose(a);
    return buf;
}

/* --interval: the bounds of an output the fit did not match say "confidence", and a
 * whole-number output without a delta-method interval (NaN bounds) says why in the file. */
static void test_sweep_interval_attrs(void)
{
    char path[256];
    const double users[2] = {1000, 2000};
    zvp_axis ax = {"users", users, 2};
    zvp_model_file *mf = NULL;
    zvp_interval_options iv = zvp_interval_default_options();
    zvp_sweep_options opt;
    zvp_error err;
    hid_t f;
    double lo[2];
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read("../calibration/params/cms-releases.ini", &mf,
                                              &err), ZVP_SUCCESS);
    tmp(path, sizeof path, "iv");
    zvp_sweep_options_init(&opt);
    opt.interval = &iv;
    CU_ASSERT_EQUAL_FATAL(zvp_sweep_run(mf, &ax, 1, path, &opt, NULL, &err), ZVP_SUCCESS);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    CU_ASSERT(H5LTread_dataset_double(f, "/users_at_limit_lo", lo) >= 0);
    CU_ASSERT(isnan(lo[0]) && isnan(lo[1]));
    CU_ASSERT_PTR_NOT_NULL(strstr(attr(f, "users_at_limit_lo", "no_interval_reason"),
                                  "whole-number output"));
    CU_ASSERT_PTR_NOT_NULL(strstr(attr(f, "users_at_limit_hi", "no_interval_reason"),
                                  "--method mc"));
    CU_ASSERT_STRING_EQUAL(attr(f, "users_at_limit_lo", "interval_kind"), "confidence");
    CU_ASSERT_PTR_NOT_NULL(strstr(attr(f, "users_at_limit_hi", "long_name"),
                                  "upper bound of the 90% confidence interval"));
    CU_ASSERT_STRING_EQUAL(attr(f, "etr_lo", "interval_kind"), "prediction");
    CU_ASSERT_PTR_NOT_NULL(strstr(attr(f, "etr_lo", "long_name"), "90% prediction interval"));
    CU_ASSERT_EQUAL(H5Aexists_by_name(f, "etr_lo", "no_interval_reason", H5P_DEFAULT), 0);
    H5Fclose(f);
    /* Monte Carlo gives the whole-number output bounds: no reason attribute */
    iv.method = ZVP_INTERVAL_MC;
    iv.samples = 50;
    CU_ASSERT_EQUAL_FATAL(zvp_sweep_run(mf, &ax, 1, path, &opt, NULL, &err), ZVP_SUCCESS);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    CU_ASSERT_EQUAL(H5Aexists_by_name(f, "users_at_limit_lo", "no_interval_reason",
                                      H5P_DEFAULT), 0);
    H5Fclose(f);
    remove(path);
    zvp_model_file_free(mf);
}

/* "more than 10^9 values are refused": 10^9 + 1 values are refused with their count (10^9
 * itself, 8 GB of values, is checked by tests/cli_test.sh under a memory limit). */
static void test_axis_limit(void)
{
    char *name = NULL;
    double *v = NULL;
    size_t n = 0;
    zvp_error err;
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_axis_parse("x=0:1e9:1", &name, &v, &n, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "1000000001 values; more than 10^9"));
    CU_ASSERT_EQUAL(zvp_axis_parse("x=1:1.5e9:1", &name, &v, &n, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "1500000000 values; more than 10^9"));
    CU_ASSERT_PTR_NULL(v);
}

int zvp_test_register_sweep_stop(void)
{
    CU_pSuite s = CU_add_suite("sweep_stop", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "eval_grid_stop", test_eval_grid_stop) ||
        !CU_add_test(s, "sweep_stop_one_block", test_sweep_stop_one_block) ||
        !CU_add_test(s, "sweep_stop_three_blocks", test_sweep_stop_three_blocks) ||
        !CU_add_test(s, "sweep_failure_keeps_file", test_sweep_failure_keeps_file) ||
        !CU_add_test(s, "sweep_interval_attrs", test_sweep_interval_attrs) ||
        !CU_add_test(s, "axis_limit", test_axis_limit))
        return (int)CU_get_error();
    return 0;
}
