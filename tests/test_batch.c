/*
 * tests/test_batch.c - CUnit tests of zvp_station_batch (src/queue/batch.c): every point of a
 * batch equals the scalar kernel call bit for bit (for 1, 2 and 3 threads), bad points get
 * their own status and NaN outputs while the others are computed, the error record names the
 * first bad point, and bad arguments are refused before anything is written.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/queue.h"

#define NPTS 300 /* above the batch's serial threshold, so the OpenMP loop runs */

/* Bitwise equality of two doubles (NaN equals NaN of the same bits). */
static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Scalar reference for point values x: fills y[n_outputs], returns the status. */
static int scalar(int kernel, const double *x, double *y)
{
    zvp_station_result r;
    int rc;
    for (int j = 0; j < 9; j++)
        y[j] = NAN;
    switch (kernel) {
    case ZVP_BATCH_ERLANG_B:
        return zvp_erlang_b(x[0], (unsigned long)x[1], &y[0], NULL);
    case ZVP_BATCH_ERLANG_C:
        return zvp_erlang_c(x[0], (unsigned long)x[1], &y[0], NULL);
    case ZVP_BATCH_USL:
        return zvp_usl_eval(x[0], x[1], x[2], x[3], &y[0], NULL);
    case ZVP_BATCH_MMC:
        rc = zvp_mmc(x[0], x[1], (unsigned long)x[2], &r, NULL);
        break;
    case ZVP_BATCH_MMCK:
        rc = zvp_mmck(x[0], x[1], (unsigned long)x[2], (unsigned long)x[3], &r, &y[8], NULL);
        break;
    case ZVP_BATCH_MMINF:
        rc = zvp_mminf(x[0], x[1], &r, NULL);
        break;
    default:
        rc = zvp_repairman((unsigned long)x[0], x[1], x[2], (unsigned long)x[3], &r, NULL);
        break;
    }
    if (rc == ZVP_SUCCESS) {
        const double f[8] = {r.throughput_per_s, r.utilization, r.busy_servers,
                             r.mean_in_system, r.mean_in_queue, r.response_s, r.wait_s,
                             r.pwait};
        memcpy(y, f, sizeof f);
    } else {
        for (int j = 0; j < 9; j++)
            y[j] = NAN;
    }
    return rc;
}

/* Inputs of point i for a kernel: a spread of loads, some unstable, all counts whole. */
static void point_inputs(int kernel, size_t i, double *x)
{
    const double t = (double)i;
    const double servers = 1.0 + (double)(i % 17);
    switch (kernel) {
    case ZVP_BATCH_ERLANG_B:
    case ZVP_BATCH_ERLANG_C:
        x[0] = 0.37 * t / 3.0;       /* offered load, up to ~37 Erlangs: some a >= c */
        x[1] = servers + (double)(i % 5) * 3.0;
        break;
    case ZVP_BATCH_MMC:
        x[0] = 0.01 + 0.061 * t;     /* lambda */
        x[1] = 1.0 + 0.1 * (double)(i % 7);
        x[2] = servers;
        break;
    case ZVP_BATCH_MMCK:
        x[0] = 0.01 + 0.11 * t;
        x[1] = 1.0 + 0.1 * (double)(i % 7);
        x[2] = servers;
        x[3] = servers + (double)(i % 23);
        break;
    case ZVP_BATCH_MMINF:
        x[0] = 0.3 * t;
        x[1] = 0.5 + (double)(i % 3);
        break;
    case ZVP_BATCH_USL:
        x[0] = 0.5 * t;              /* n = 0 with alpha >= 1: outside the law's domain */
        x[1] = 10.0 + (double)(i % 3);
        x[2] = (i % 10 == 0) ? 1.5 : 0.02 * (double)(i % 4);
        x[3] = 1e-4 * (double)(i % 5);
        break;
    default:
        x[0] = (double)(i % 200);    /* sources */
        x[1] = 0.5 + 0.01 * t;       /* think */
        x[2] = 0.05 + 0.001 * (double)(i % 11);
        x[3] = servers;
        break;
    }
}

/* Runs kernel over NPTS points with `threads` and compares each point with the scalar call. */
static void check_kernel(int kernel, int threads, size_t *n_ok, size_t *n_unstable)
{
    size_t nin, nout;
    CU_ASSERT_EQUAL_FATAL(zvp_batch_shape(kernel, &nin, &nout, NULL), ZVP_SUCCESS);
    double *in = malloc(4 * NPTS * sizeof *in);
    double *out = malloc(nout * NPTS * sizeof *out);
    uint8_t *st = malloc(NPTS);
    CU_ASSERT_FATAL(in && out && st);
    const double *cols[4];
    for (size_t a = 0; a < 4; a++)
        cols[a] = in + a * NPTS;
    for (size_t i = 0; i < NPTS; i++) {
        double x[4];
        point_inputs(kernel, i, x);
        for (size_t a = 0; a < nin; a++)
            in[a * NPTS + i] = x[a];
    }
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_station_batch(kernel, NPTS, cols, out, st, threads, &e),
                          ZVP_SUCCESS);
    size_t bad = 0;
    for (size_t i = 0; i < NPTS; i++) {
        double x[4], y[9];
        for (size_t a = 0; a < nin; a++)
            x[a] = in[a * NPTS + i];
        int rc = scalar(kernel, x, y);
        CU_ASSERT_EQUAL(st[i], rc);
        for (size_t j = 0; j < nout; j++)
            if (!same_bits(out[j * NPTS + i], y[j]))
                bad++;
        *n_ok += rc == ZVP_SUCCESS;
        *n_unstable += rc == ZVP_EUNSTABLE;
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(in);
    free(out);
    free(st);
}

static void test_batch_equals_scalar_bit_for_bit(void)
{
    for (int kernel = 0; kernel < ZVP_BATCH_N_KERNELS; kernel++) {
        for (int threads = 1; threads <= 3; threads++) {
            size_t ok = 0, unstable = 0;
            check_kernel(kernel, threads, &ok, &unstable);
            CU_ASSERT(ok > NPTS / 4); /* the comparison covers real results */
            if (kernel == ZVP_BATCH_ERLANG_C || kernel == ZVP_BATCH_MMC)
                CU_ASSERT(unstable > 0); /* and saturated points */
            if (kernel == ZVP_BATCH_USL)
                CU_ASSERT(ok < NPTS); /* and the n = 0, alpha >= 1 point */
        }
    }
}

static void test_batch_closed_forms(void)
{
    /* M/M/1 (mmc with one server): L = rho/(1 - rho); Erlang B(3, 2) = 4/19. */
    const double lam[3] = {0.25, 0.5, 0.75}, mu[3] = {1.0, 1.0, 1.0}, c[3] = {1.0, 1.0, 1.0};
    const double *in[3] = {lam, mu, c};
    double out[8 * 3];
    uint8_t st[3];
    CU_ASSERT_EQUAL_FATAL(zvp_station_batch(ZVP_BATCH_MMC, 3, in, out, st, 0, NULL),
                          ZVP_SUCCESS);
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(st[i], ZVP_SUCCESS);
        ZVP_ASSERT_REL(out[3 * 3 + i], zvp_test_mm1_mean_in_system(lam[i]), 1e-13);
        ZVP_ASSERT_REL(out[4 * 3 + i], zvp_test_mm1_mean_in_queue(lam[i]), 1e-13);
    }
    const double a[1] = {2.0}, s[1] = {3.0};
    const double *ein[2] = {a, s};
    double b;
    uint8_t bst;
    CU_ASSERT_EQUAL_FATAL(zvp_station_batch(ZVP_BATCH_ERLANG_B, 1, ein, &b, &bst, 1, NULL),
                          ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 4.0 / 19.0, 1e-15);
    ZVP_ASSERT_REL(b, zvp_test_erlang_b(3, 2.0), 1e-15);
}

static void test_batch_bad_points_have_their_own_status(void)
{
    /* points: ok, unstable, negative lambda, servers 1.5, servers -1, NaN mu, ok */
    const double lam[7] = {0.5, 3.0, -1.0, 0.5, 0.5, 0.5, 0.9};
    const double mu[7] = {1.0, 1.0, 1.0, 1.0, 1.0, NAN, 1.0};
    const double c[7] = {1.0, 2.0, 1.0, 1.5, -1.0, 1.0, 1.0};
    const double *in[3] = {lam, mu, c};
    double out[8 * 7];
    uint8_t st[7];
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_station_batch(ZVP_BATCH_MMC, 7, in, out, st, 2, &e), ZVP_SUCCESS);
    const uint8_t want[7] = {ZVP_SUCCESS, ZVP_EUNSTABLE, ZVP_EINVAL, ZVP_EINVAL, ZVP_EINVAL,
                             ZVP_EINVAL, ZVP_SUCCESS};
    for (size_t i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL(st[i], want[i]);
        for (size_t j = 0; j < 8; j++)
            CU_ASSERT(isnan(out[j * 7 + i]) == (want[i] != ZVP_SUCCESS));
    }
    ZVP_ASSERT_REL(out[3 * 7 + 6], 0.9 / 0.1, 1e-12);
    /* err: the first failed point (index 1, unstable), with the scalar kernel's message */
    CU_ASSERT_EQUAL(e.status, ZVP_EUNSTABLE);
    CU_ASSERT(zvp_test_msg_has(&e, "utilization"));
    /* without the unstable point, the first failure is the negative rate, then the count */
    const double lam2[2] = {-1.0, 0.5}, mu2[2] = {1.0, 1.0}, c2[2] = {1.0, 1.5};
    const double *in2[3] = {lam2, mu2, c2};
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_MMC, 2, in2, out, st, 1, &e), ZVP_SUCCESS);
    CU_ASSERT(e.status == ZVP_EINVAL && zvp_test_msg_has(&e, "arrival_rate_per_s"));
    CU_ASSERT(zvp_test_msg_has(&e, "-1"));
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_MMC, 1, (const double *const[]){lam2 + 1, mu2 + 1,
                                      c2 + 1}, out, st, 1, &e), ZVP_SUCCESS);
    CU_ASSERT(st[0] == ZVP_EINVAL && e.status == ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "servers[0] = 1.5") && zvp_test_msg_has(&e, "whole"));
    /* all ok: err is cleared */
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_MMC, 1, in, out, st, 1, &e), ZVP_SUCCESS);
    CU_ASSERT(e.status == ZVP_SUCCESS && e.message[0] == '\0');
    /* huge or infinite counts are bad points, not undefined conversions */
    const double nn[3] = {1e300, INFINITY, 4.0}, zz[3] = {1.0, 1.0, 1.0}, ss[3] = {0.5, 0.5, 0.5};
    const double cc[3] = {1.0, 1.0, 1e19};
    const double *rin[4] = {nn, zz, ss, cc};
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_REPAIRMAN, 3, rin, out, st, 1, &e), ZVP_SUCCESS);
    CU_ASSERT(st[0] == ZVP_EINVAL && st[1] == ZVP_EINVAL && st[2] == ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "sources[0]"));
}

static void test_batch_bad_arguments(void)
{
    const double x[1] = {1.0};
    const double *in[2] = {x, x};
    double out[9];
    uint8_t st[1] = {77};
    zvp_error e;
    CU_ASSERT_EQUAL(zvp_station_batch(-1, 1, in, out, st, 0, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "kernel = -1"));
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_N_KERNELS, 1, in, out, st, 0, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_ERLANG_B, 1, in, out, st, -2, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "threads = -2"));
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_ERLANG_B, 1, NULL, out, st, 0, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_ERLANG_B, 1, in, NULL, st, 0, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_ERLANG_B, 1, in, out, NULL, 0, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "status = NULL"));
    const double *half[2] = {x, NULL};
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_ERLANG_B, 1, half, out, st, 0, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "inputs[1] (servers)"));
    CU_ASSERT_EQUAL(st[0], 77); /* nothing written */
    /* n = 0 is a no-op, NULL arrays allowed */
    CU_ASSERT_EQUAL(zvp_station_batch(ZVP_BATCH_MMCK, 0, NULL, NULL, NULL, 0, &e), ZVP_SUCCESS);
    size_t ni = 9, no = 9;
    CU_ASSERT_EQUAL(zvp_batch_shape(99, &ni, &no, NULL), ZVP_EINVAL);
    CU_ASSERT(ni == 0 && no == 0);
    CU_ASSERT_EQUAL(zvp_batch_shape(ZVP_BATCH_MMCK, &ni, &no, NULL), ZVP_SUCCESS);
    CU_ASSERT(ni == 4 && no == 9);
    CU_ASSERT_EQUAL(zvp_batch_shape(ZVP_BATCH_REPAIRMAN, &ni, &no, NULL), ZVP_SUCCESS);
    CU_ASSERT(ni == 4 && no == 8);
    CU_ASSERT_EQUAL(zvp_batch_shape(ZVP_BATCH_ERLANG_C, &ni, &no, NULL), ZVP_SUCCESS);
    CU_ASSERT(ni == 2 && no == 1);
    CU_ASSERT_EQUAL(zvp_batch_shape(ZVP_BATCH_USL, &ni, &no, NULL), ZVP_SUCCESS);
    CU_ASSERT(ni == 4 && no == 1);
}

int zvp_test_register_batch(void)
{
    CU_pSuite s = CU_add_suite("batch", NULL, NULL);
    if (!s || !CU_add_test(s, "equals_scalar_bit_for_bit", test_batch_equals_scalar_bit_for_bit) ||
        !CU_add_test(s, "closed_forms", test_batch_closed_forms) ||
        !CU_add_test(s, "bad_points_have_their_own_status",
                     test_batch_bad_points_have_their_own_status) ||
        !CU_add_test(s, "bad_arguments", test_batch_bad_arguments))
        return (int)CU_get_error();
    return 0;
}
