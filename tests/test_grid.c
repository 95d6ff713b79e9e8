/* tests/test_grid.c - in-memory evaluation: zvp_eval_points and zvp_eval_grid.
 * Each point must equal zvp_model_eval on that point alone, bit for bit (memcmp), with 1 and
 * 2 threads; outputs are output-major (outputs[j * n + i]); the grid is the Cartesian product
 * in C order, its flat index computed here by hand. Expected M/M/1 values are the closed
 * forms rho = lambda/mu, L = rho/(1-rho), R = 1/(mu-lambda), computed here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

/* The point status zvp_eval_* must report for a zvp_model_eval status. */
static uint8_t expected_status(int rc)
{
    return rc == ZVP_SUCCESS     ? (uint8_t)ZVP_POINT_OK
           : rc == ZVP_EUNSTABLE ? (uint8_t)ZVP_POINT_UNSTABLE
           : rc == ZVP_EINVAL    ? (uint8_t)ZVP_POINT_INVALID
                                 : (uint8_t)ZVP_POINT_FAILED;
}

/* Point i of an output-major array of n points equals ref[] (zvp_model_eval of the point
 * alone) byte for byte, and its status is st. Returns 1 when it does. */
static int point_equals(const zvp_model *m, const double *outputs, const uint8_t *status,
                        size_t n, size_t i, const double *ref, int rc)
{
    size_t j;
    if (status[i] != expected_status(rc))
        return 0;
    for (j = 0; j < m->n_outputs; j++)
        if (memcmp(&outputs[j * n + i], &ref[j], sizeof ref[j]) != 0)
            return 0;
    return 1;
}

/* sweetspot with storage_gb and cpus varied over 5000 points, some of them invalid
 * (cpus = 1.5 is not whole, storage_gb = 0 is below the range): with 1 and 2 threads, every
 * point equals zvp_model_eval of that point alone, and the two runs give the same bytes. */
static void test_zvp_eval_points_bitwise(void)
{
    enum { N = 5000 };
    const zvp_model *m = zvp_test_find_model("sweetspot");
    const size_t no = m->n_outputs;
    size_t vary[2], i, t;
    double *base = malloc(m->n_params * sizeof *base), *params = malloc(m->n_params * sizeof *params);
    double *values = malloc(2 * N * sizeof *values), *ref = malloc(no * sizeof *ref);
    double *out[2] = {malloc(no * N * sizeof(double)), malloc(no * N * sizeof(double))};
    uint8_t *st[2] = {malloc(N), malloc(N)};
    size_t n_invalid = 0, n_ok = 0;
    zvp_error err;

    CU_ASSERT_FATAL(base && params && values && ref && out[0] && out[1] && st[0] && st[1]);
    zvp_model_defaults(m, base);
    vary[0] = (size_t)zvp_model_param_index(m, "storage_gb", NULL);
    vary[1] = (size_t)zvp_model_param_index(m, "cpus", NULL);
    for (i = 0; i < N; i++) {
        values[2 * i] = 256.0 + 0.75 * (double)i;       /* GiB */
        values[2 * i + 1] = (double)(16 + (i * 7) % 113); /* 16 .. 128 */
        if (i % 97 == 5)
            values[2 * i + 1] = 1.5; /* not a whole number of CPUs */
        if (i % 101 == 7)
            values[2 * i] = 0.0; /* below storage_gb's minimum 1 */
    }
    for (t = 0; t < 2; t++) {
        int bad = 0;
        memset(st[t], 0xee, N);
        zvp_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(zvp_eval_points(m, base, N, 2, vary, values, out[t], st[t],
                                              (int)t + 1, &err),
                              ZVP_SUCCESS);
        for (i = 0; i < N; i++) {
            int rc;
            memcpy(params, base, m->n_params * sizeof *params);
            params[vary[0]] = values[2 * i];
            params[vary[1]] = values[2 * i + 1];
            rc = zvp_model_eval(m, params, ref, NULL);
            bad += !point_equals(m, out[t], st[t], N, i, ref, rc);
            if (t == 0) {
                n_invalid += st[t][i] == ZVP_POINT_INVALID;
                n_ok += st[t][i] == ZVP_POINT_OK;
            }
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
    /* invalid exactly where a value was made invalid above (counted here) */
    {
        size_t expect = 0;
        for (i = 0; i < N; i++)
            expect += i % 97 == 5 || i % 101 == 7;
        CU_ASSERT_EQUAL(n_invalid, expect);
        CU_ASSERT_EQUAL(n_ok, N - expect);
    }
    CU_ASSERT(memcmp(out[0], out[1], no * N * sizeof(double)) == 0);
    CU_ASSERT(memcmp(st[0], st[1], N) == 0);
    for (t = 0; t < 2; t++) {
        free(out[t]);
        free(st[t]);
    }
    free(base);
    free(params);
    free(values);
    free(ref);
}

/* M/M/1 with mu = 2 at six points (arrival rate, servers): the layout is output-major
 * and the values are the closed forms; unstable and invalid points have NaN outputs. */
static void test_zvp_eval_points_layout_status(void)
{
    enum { N = 6 };
    const zvp_model *m = zvp_test_find_model("mmc");
    const double mu = 2.0;
    /* (lambda, servers): ok, ok, ok, unstable (rho = 1.25), invalid (lambda < 0, out of
     * range), invalid (1.5 servers) */
    const double values[N * 2] = {0.5, 1, 1.0, 1, 1.5, 1, 2.5, 1, -1.0, 1, 0.5, 1.5};
    const uint8_t expect[N] = {ZVP_POINT_OK,       ZVP_POINT_OK,      ZVP_POINT_OK,
                               ZVP_POINT_UNSTABLE, ZVP_POINT_INVALID, ZVP_POINT_INVALID};
    double base[3], out[7 * N];
    uint8_t st[N];
    size_t vary[2], i, j, ju, jl, jr, jx;
    zvp_error err;

    CU_ASSERT_EQUAL_FATAL(m->n_params, 3);
    CU_ASSERT_EQUAL_FATAL(m->n_outputs, 7);
    zvp_model_defaults(m, base);
    zvp_test_set_param(m, base, "service_rate_per_s", mu);
    vary[0] = (size_t)zvp_model_param_index(m, "arrival_rate_per_s", NULL);
    vary[1] = (size_t)zvp_model_param_index(m, "servers", NULL);
    ju = (size_t)zvp_model_output_index(m, "utilization", NULL);
    jl = (size_t)zvp_model_output_index(m, "mean_in_system", NULL);
    jr = (size_t)zvp_model_output_index(m, "response_s", NULL);
    jx = (size_t)zvp_model_output_index(m, "throughput_per_s", NULL);
    for (i = 0; i < 2; i++) {
        zvp_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(
            zvp_eval_points(m, base, N, 2, vary, values, out, st, (int)i + 1, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(err.status, ZVP_SUCCESS);
        for (j = 0; j < N; j++) {
            double lambda = values[2 * j], rho = lambda / mu;
            CU_ASSERT_EQUAL(st[j], expect[j]);
            if (expect[j] == ZVP_POINT_OK) {
                ZVP_ASSERT_REL(out[ju * N + j], rho, 1e-12);
                ZVP_ASSERT_REL(out[jx * N + j], lambda, 1e-12);
                ZVP_ASSERT_REL(out[jl * N + j], zvp_test_mm1_mean_in_system(rho), 1e-12);
                ZVP_ASSERT_REL(out[jr * N + j], 1 / (mu - lambda), 1e-12);
            } else {
                size_t k;
                for (k = 0; k < 7; k++)
                    CU_ASSERT(isnan(out[k * N + j]));
            }
        }
    }

    /* nothing varies: every point is the base vector (lambda = 0.5, mu = 2: rho = 0.25) */
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(zvp_eval_points(m, base, 3, 0, NULL, NULL, out, st, 2, &err),
                          ZVP_SUCCESS);
    for (j = 0; j < 3; j++) {
        CU_ASSERT_EQUAL(st[j], ZVP_POINT_OK);
        ZVP_ASSERT_REL(out[ju * 3 + j], 0.25, 1e-12);
        ZVP_ASSERT_REL(out[jl * 3 + j], zvp_test_mm1_mean_in_system(0.25), 1e-12);
    }
    /* no points: nothing is read or written, NULL arrays are fine */
    CU_ASSERT_EQUAL(zvp_eval_points(m, base, 0, 2, vary, NULL, NULL, NULL, 0, &err),
                    ZVP_SUCCESS);
}

/* Calls zvp_eval_points and checks it fails with ZVP_EINVAL and a message holding needle. */
static void expect_points_einval(const zvp_model *m, const double *base, size_t n_points,
                                 size_t n_vary, const size_t *vary, const double *values,
                                 double *out, uint8_t *st, int threads, const char *needle)
{
    zvp_error err;
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(
        zvp_eval_points(m, base, n_points, n_vary, vary, values, out, st, threads, &err),
        ZVP_EINVAL);
    CU_ASSERT_EQUAL(err.status, ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&err, needle));
    if (!zvp_test_msg_has(&err, needle))
        fprintf(stderr, "\n  expected \"%s\" in: %s\n", needle, err.message);
}

static void test_zvp_eval_points_errors(void)
{
    const zvp_model *m = zvp_test_find_model("mmc");
    double base[3], values[4] = {0.5, 1, 0.25, 1}, out[14];
    uint8_t st[2];
    const size_t vary[2] = {0, 2}, twice[2] = {2, 2}, beyond[2] = {0, 3};
    zvp_model_defaults(m, base);
    expect_points_einval(NULL, base, 2, 2, vary, values, out, st, 1, "NULL");
    expect_points_einval(m, NULL, 2, 2, vary, values, out, st, 1, "NULL");
    expect_points_einval(m, base, 2, 2, vary, values, NULL, st, 1, "NULL");
    expect_points_einval(m, base, 2, 2, vary, values, out, NULL, 1, "NULL");
    expect_points_einval(m, base, 2, 2, NULL, values, out, st, 1, "vary_index");
    expect_points_einval(m, base, 2, 2, vary, NULL, out, st, 1, "vary_values");
    /* a parameter varied twice: the message names both positions and the parameter */
    expect_points_einval(m, base, 2, 2, twice, values, out, st, 1, "servers");
    expect_points_einval(m, base, 2, 2, twice, values, out, st, 1, "vary_index[1] = 2");
    /* an index beyond the model's 3 parameters: value and allowed range */
    expect_points_einval(m, base, 2, 2, beyond, values, out, st, 1, "vary_index[1] = 3");
    expect_points_einval(m, base, 2, 2, beyond, values, out, st, 1, "[0, 2]");
    expect_points_einval(m, base, 2, 2, vary, values, out, st, -1, "threads = -1");
    /* the same arguments with valid ones succeed */
    CU_ASSERT_EQUAL(zvp_eval_points(m, base, 2, 2, vary, values, out, st, 1, NULL),
                    ZVP_SUCCESS);
    CU_ASSERT_EQUAL(st[0], ZVP_POINT_OK);
    CU_ASSERT_EQUAL(st[1], ZVP_POINT_OK);
}

/* The M/M/c grid servers {1, 2, 3} x mu {1, 2} x lambda {0.5, 1, ..., 3.5} (42 points):
 * point (s, u, a) at flat index (s * 2 + u) * 7 + a equals zvp_model_eval of that point
 * alone, for 1 and 2 threads and the default; its status is ok exactly when
 * lambda < c mu (M/M/c stability); any slice [first, first + count) equals the same points
 * of the whole grid. */
static void test_zvp_eval_grid(void)
{
    enum { NS = 3, NU = 2, NA = 7, NP = NS * NU * NA };
    const zvp_model *m = zvp_test_find_model("mmc");
    const double servers[NS] = {1, 2, 3}, mu[NU] = {1, 2};
    double arrival[NA], base[3], params[3], ref[7], full[7 * NP], part[7 * NP];
    uint8_t st[NP], pst[NP];
    zvp_axis axes[3] = {{"servers", servers, NS}, {"service_rate_per_s", mu, NU},
                        {"arrival_rate_per_s", arrival, NA}};
    static const struct { uint64_t first, count; } slices[] = {{0, 42}, {5, 1}, {6, 30}, {41, 1},
                                                               {13, 29}, {42, 0}};
    const int threads[] = {1, 2, 0};
    size_t s, u, a, t, k, j;
    long is = zvp_model_param_index(m, "servers", NULL);
    long iu = zvp_model_param_index(m, "service_rate_per_s", NULL);
    long ia = zvp_model_param_index(m, "arrival_rate_per_s", NULL);
    zvp_error err;

    CU_ASSERT_FATAL(is >= 0 && iu >= 0 && ia >= 0 && m->n_outputs == 7);
    for (a = 0; a < NA; a++)
        arrival[a] = 0.5 * (double)(a + 1);
    zvp_model_defaults(m, base);
    for (t = 0; t < 3; t++) {
        int bad = 0, unstable_bad = 0;
        zvp_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(
            zvp_eval_grid(m, base, axes, 3, 0, NP, full, st, threads[t], &err), ZVP_SUCCESS);
        for (s = 0; s < NS; s++)
            for (u = 0; u < NU; u++)
                for (a = 0; a < NA; a++) {
                    size_t p = (s * NU + u) * NA + a;
                    int rc;
                    memcpy(params, base, sizeof params);
                    params[is] = servers[s];
                    params[iu] = mu[u];
                    params[ia] = arrival[a];
                    rc = zvp_model_eval(m, params, ref, NULL);
                    bad += !point_equals(m, full, st, NP, p, ref, rc);
                    unstable_bad +=
                        (arrival[a] < servers[s] * mu[u]) != (st[p] == ZVP_POINT_OK);
                }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(unstable_bad, 0);
    }
    for (k = 0; k < sizeof slices / sizeof slices[0]; k++) {
        uint64_t f = slices[k].first, c = slices[k].count;
        int same = 1;
        CU_ASSERT_EQUAL_FATAL(zvp_eval_grid(m, base, axes, 3, f, c, part, pst, 2, &err),
                              ZVP_SUCCESS);
        for (j = 0; j < 7; j++) /* output-major: output j of the slice is part[j * c ...] */
            same &= memcmp(part + j * c, full + j * NP + f, (size_t)c * sizeof(double)) == 0;
        same &= memcmp(pst, st + f, (size_t)c) == 0;
        CU_ASSERT(same);
    }

    /* no axes: a grid of one point, the base vector (lambda = 0.5, mu = 1: rho = 0.5) */
    CU_ASSERT_EQUAL_FATAL(zvp_eval_grid(m, base, NULL, 0, 0, 1, full, st, 1, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL(st[0], ZVP_POINT_OK);
    ZVP_ASSERT_REL(zvp_test_output(m, full, "mean_in_system"), 1.0, 1e-12);
}

/* Calls zvp_eval_grid and checks the status and that the message holds needle. */
static void expect_grid_error(const zvp_model *m, const double *base, const zvp_axis *axes,
                              size_t n_axes, uint64_t first, uint64_t count, double *out,
                              uint8_t *st, int threads, int status, const char *needle)
{
    zvp_error err;
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_eval_grid(m, base, axes, n_axes, first, count, out, st, threads, &err),
                    status);
    CU_ASSERT_EQUAL(err.status, status);
    CU_ASSERT(zvp_test_msg_has(&err, needle));
    if (!zvp_test_msg_has(&err, needle))
        fprintf(stderr, "\n  expected \"%s\" in: %s\n", needle, err.message);
}

static void test_zvp_eval_grid_errors(void)
{
    const zvp_model *m = zvp_test_find_model("mmc");
    const double lam[3] = {0.1, 0.2, 0.3}, c[2] = {1, 2};
    double base[3], out[7 * 6];
    uint8_t st[6];
    zvp_axis axes[2] = {{"arrival_rate_per_s", lam, 3}, {"servers", c, 2}};
    zvp_axis bad[2];
    zvp_model_defaults(m, base);
    expect_grid_error(NULL, base, axes, 2, 0, 6, out, st, 1, ZVP_EINVAL, "NULL");
    expect_grid_error(m, NULL, axes, 2, 0, 6, out, st, 1, ZVP_EINVAL, "NULL");
    expect_grid_error(m, base, axes, 2, 0, 6, NULL, st, 1, ZVP_EINVAL, "NULL");
    expect_grid_error(m, base, axes, 2, 0, 6, out, NULL, 1, ZVP_EINVAL, "NULL");
    expect_grid_error(m, base, NULL, 2, 0, 6, out, st, 1, ZVP_EINVAL, "axes");
    expect_grid_error(m, base, axes, 2, 0, 6, out, st, -2, ZVP_EINVAL, "threads = -2");
    /* unknown name: ENOTFOUND naming it and listing the parameters */
    memcpy(bad, axes, sizeof bad);
    bad[1].name = "storage_gb";
    expect_grid_error(m, base, bad, 2, 0, 6, out, st, 1, ZVP_ENOTFOUND, "storage_gb");
    expect_grid_error(m, base, bad, 2, 0, 6, out, st, 1, ZVP_ENOTFOUND, "service_rate_per_s");
    /* the same parameter twice, an axis without values, an axis without a name */
    bad[1].name = "arrival_rate_per_s";
    expect_grid_error(m, base, bad, 2, 0, 6, out, st, 1, ZVP_EINVAL, "given twice");
    memcpy(bad, axes, sizeof bad);
    bad[1].n_values = 0;
    expect_grid_error(m, base, bad, 2, 0, 6, out, st, 1, ZVP_EINVAL, "n_values = 0");
    memcpy(bad, axes, sizeof bad);
    bad[0].name = NULL;
    expect_grid_error(m, base, bad, 2, 0, 6, out, st, 1, ZVP_EINVAL, "no name");
    /* [first, first + count) beyond the 6 points, including a sum that wraps around */
    expect_grid_error(m, base, axes, 2, 6, 1, out, st, 1, ZVP_EINVAL, "6 points");
    expect_grid_error(m, base, axes, 2, 0, 7, out, st, 1, ZVP_EINVAL, "6 points");
    expect_grid_error(m, base, axes, 2, 7, 0, out, st, 1, ZVP_EINVAL, "6 points");
    expect_grid_error(m, base, axes, 2, UINT64_MAX, 2, out, st, 1, ZVP_EINVAL, "6 points");
    /* the end of the grid exactly is fine */
    CU_ASSERT_EQUAL(zvp_eval_grid(m, base, axes, 2, 5, 1, out, st, 1, NULL), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_eval_grid(m, base, axes, 2, 6, 0, NULL, NULL, 1, NULL), ZVP_SUCCESS);
}

int zvp_test_register_grid(void)
{
    CU_pSuite s = CU_add_suite("grid", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "eval_points_bitwise", test_zvp_eval_points_bitwise) ||
        !CU_add_test(s, "eval_points_layout_status", test_zvp_eval_points_layout_status) ||
        !CU_add_test(s, "eval_points_errors", test_zvp_eval_points_errors) ||
        !CU_add_test(s, "eval_grid", test_zvp_eval_grid) ||
        !CU_add_test(s, "eval_grid_errors", test_zvp_eval_grid_errors))
        return (int)CU_get_error();
    return 0;
}
