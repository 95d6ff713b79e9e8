/*
 * tests/test_numerics.c - no silent wrong result (issue 9, items 5, 7, 8, 12): every network
 * kernel refuses a result outside the double range (ZVP_EINVAL naming the inputs, every output
 * NaN); an internal consistency failure is ZVP_EINTERNAL; every model output stays inside its
 * descriptor's range or the evaluation fails; an integer parameter cannot be a free fit
 * parameter; apache accepts its whole advertised cores range.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/queue.h"

/* The shared overflow message: kernel name, "the inputs (...)" and the range words. */
static void expect_overflow(const zvp_error *e, const char *kernel)
{
    CU_ASSERT_EQUAL(e->status, ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(e, kernel));
    CU_ASSERT(zvp_test_msg_has(e, "the inputs ("));
    CU_ASSERT(zvp_test_msg_has(e, "outside the range double arithmetic can solve"));
    if (e->status != ZVP_EINVAL || !zvp_test_msg_has(e, kernel))
        fprintf(stderr, "\n%s: status %d, message '%s'\n", kernel, e->status, e->message);
}

static void test_mva_exact_overflow(void)
{
    /* The example: solve mva --users 10 --demands 1e300,1e300 --think 1 printed NaN.
     * Its true answer is representable (R ~ 1.1e301) and is now given (time scaling): two
     * balanced queues of demand D with Z << D give X = N/((N + 1) D), R_k = (N + 1) D/2,
     * Q_k = N/2, U_k = X D (Z/D = 1e-300 changes nothing at double precision). */
    zvp_station st[2] = {zvp_test_station(0, 0, 1, 1e300), zvp_test_station(0, 0, 1, 1e300)};
    double r[2] = {0, 0}, q[2] = {0, 0}, u[2] = {0, 0};
    zvp_mva_result res = {0, 0, r, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(st, 2, 1.0, 10, &res, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(res.throughput_per_s, 10.0 / (11.0 * 1e300), 1e-12);
    ZVP_ASSERT_REL(res.response_s, 11e300, 1e-12);
    for (int k = 0; k < 2; k++) {
        ZVP_ASSERT_REL(r[k], 5.5e300, 1e-12);
        ZVP_ASSERT_REL(q[k], 5.0, 1e-12);
        ZVP_ASSERT_REL(u[k], 10.0 / 11.0, 1e-12);
    }
    /* neighbours: without result arrays the same X */
    zvp_mva_result bare = {0, 0, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(zvp_mva_exact(st, 2, 1.0, 10, &bare, NULL, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(bare.throughput_per_s, res.throughput_per_s);
    /* a result that truly overflows is still refused: one station, R = N D = 1e309 */
    zvp_station one = zvp_test_station(0, 0, 1, 1e307);
    CU_ASSERT_EQUAL(zvp_mva_exact(&one, 1, 0.0, 100, &bare, NULL, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_exact");
    CU_ASSERT(zvp_test_msg_has(&e, "demand_s"));
    CU_ASSERT(isnan(bare.throughput_per_s) && isnan(bare.response_s));
    zvp_station one_multi = zvp_test_station(2, 2, 1, 1e307); /* the tracked path */
    CU_ASSERT_EQUAL(zvp_mva_exact(&one_multi, 1, 0.0, 100, &bare, NULL, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_exact");
    /* ... with the arrays: every output NaN */
    st[0].demand_s = st[1].demand_s = 1e307;
    CU_ASSERT_EQUAL(zvp_mva_exact(st, 2, 1.0, 100, &res, NULL, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_exact");
    CU_ASSERT(isnan(res.throughput_per_s) && isnan(res.response_s));
    for (int k = 0; k < 2; k++)
        CU_ASSERT(isnan(r[k]) && isnan(q[k]) && isnan(u[k]));
    /* ... and the throughput: demands 1e-320 (subnormal), X = N/(2 D) ~ 1.5e320 */
    st[0].demand_s = st[1].demand_s = 1e-320;
    CU_ASSERT_EQUAL(zvp_mva_exact(st, 2, 0.0, 3, &res, NULL, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_exact");
    CU_ASSERT(zvp_test_msg_has(&e, "throughput_per_s"));
    /* just inside: the same network at 1e150 solves, and scales like 1/D */
    zvp_station ok[2] = {zvp_test_station(0, 0, 1, 1e150), zvp_test_station(0, 0, 1, 1e150)};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(ok, 2, 1e150, 10, &res, NULL, &e), ZVP_SUCCESS);
    zvp_station unit[2] = {zvp_test_station(0, 0, 1, 1.0), zvp_test_station(0, 0, 1, 1.0)};
    zvp_mva_result ru = {0, 0, NULL, NULL, NULL};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(unit, 2, 1.0, 10, &ru, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(res.throughput_per_s * 1e150, ru.throughput_per_s, 1e-12);
}

/* Solve `base` (K entries) with every demand and the think time multiplied by t; the results
 * into res (arrays of K). */
static int mva_times(const zvp_station *base, size_t K, double z, unsigned long n, double t,
                     zvp_mva_result *res, double *scratch, zvp_error *e)
{
    zvp_station st[4];
    for (size_t k = 0; k < K; k++) {
        st[k] = base[k];
        st[k].demand_s *= t;
    }
    return zvp_mva_exact(st, K, z * t, n, res, scratch, e);
}

/* MVA is invariant under a change of time unit: demands and think time x t give times x t,
 * throughputs / t, the same queue lengths and utilizations. Tiny and huge demands (the
 * finding: 1e-300 failed with "internal check failed", 1e300 was refused) solve like 1.0. */
static void test_mva_exact_time_scaling(void)
{
    const zvp_station nets[3][3] = {
        /* two queues (the finding), plain path */
        {zvp_test_station(0, 0, 1, 1.0), zvp_test_station(0, 0, 1, 1.0), zvp_test_station(1, 0, 1, 0.0)},
        /* queue, delay, 4-server station with 3 replicas (tracked path) */
        {zvp_test_station(0, 0, 1, 0.5), zvp_test_station(1, 0, 1, 2.0), zvp_test_station(2, 4, 3, 1.5)},
        /* think time larger than every demand */
        {zvp_test_station(0, 0, 2, 0.25), zvp_test_station(0, 0, 1, 0.125), zvp_test_station(1, 0, 1, 1.0)}};
    const double thinks[3] = {0.0, 1.0, 8.0};
    const double scales[6] = {1e-300, 1e300, 1e-200, 1e200, 1e-306, 1e305};
    for (int i = 0; i < 3; i++) {
        double r1[3], q1[3], u1[3], rt[3], qt[3], ut[3];
        zvp_mva_result one = {0, 0, r1, q1, u1}, scaled = {0, 0, rt, qt, ut};
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(mva_times(nets[i], 3, thinks[i], 100, 1.0, &one, NULL, &e),
                              ZVP_SUCCESS);
        for (int j = 0; j < 6; j++) {
            const double t = scales[j];
            int rc = mva_times(nets[i], 3, thinks[i], 100, t, &scaled, NULL, &e);
            CU_ASSERT_EQUAL(rc, ZVP_SUCCESS);
            if (rc != ZVP_SUCCESS) {
                fprintf(stderr, "\nnet %d, t = %g: %s\n", i, t, e.message);
                continue;
            }
            const double tol = 1e-12;
            ZVP_ASSERT_REL(scaled.throughput_per_s, one.throughput_per_s / t, tol);
            ZVP_ASSERT_REL(scaled.response_s, one.response_s * t, tol);
            for (int k = 0; k < 3; k++) {
                ZVP_ASSERT_REL(rt[k], r1[k] * t, tol);
                ZVP_ASSERT_REL(qt[k], q1[k], tol);
                ZVP_ASSERT_REL(ut[k], u1[k], tol);
            }
        }
        /* powers of two: bit for bit, inside the band (2^200: no scaling) and outside
         * (2^-1000, 2^600: scaled) */
        const int pw[3] = {200, -1000, 600};
        for (int j = 0; j < 3; j++) {
            CU_ASSERT_EQUAL_FATAL(mva_times(nets[i], 3, thinks[i], 100, ldexp(1.0, pw[j]),
                                            &scaled, NULL, &e), ZVP_SUCCESS);
            CU_ASSERT_EQUAL(scaled.throughput_per_s, ldexp(one.throughput_per_s, -pw[j]));
            CU_ASSERT_EQUAL(scaled.response_s, ldexp(one.response_s, pw[j]));
            for (int k = 0; k < 3; k++)
                CU_ASSERT(rt[k] == ldexp(r1[k], pw[j]) && qt[k] == q1[k] && ut[k] == u1[k]);
        }
    }
    /* the CLI example: --users 100 --demands 1e-300,1e-300 --think 0: two balanced queues,
     * X = N/((N + 1) D), and the caller's scratch holds R_k(N) in seconds */
    {
        zvp_station st[2] = {zvp_test_station(0, 0, 1, 1e-300), zvp_test_station(0, 0, 1, 1e-300)};
        double r[2], scratch[4];
        zvp_mva_result res = {0, 0, r, NULL, NULL};
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(st, 2, 0.0, 100, &res, scratch, &e), ZVP_SUCCESS);
        ZVP_ASSERT_REL(res.throughput_per_s, 100.0 / 101.0 * 1e300, 1e-12);
        ZVP_ASSERT_REL(res.response_s, 101e-300, 1e-12);
        CU_ASSERT(scratch[2] == r[0] && scratch[3] == r[1]);
        ZVP_ASSERT_REL(scratch[0], 50.0, 1e-12); /* Q_0(N) */
    }
    /* Z + sum D overflows the double range but R and X do not: N = 1, D = Z = 1e308 gives
     * R = D, X = 1/(Z + D) = 5e-309 */
    {
        zvp_station st = zvp_test_station(0, 0, 1, 1e308);
        zvp_mva_result res = {0, 0, NULL, NULL, NULL};
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(&st, 1, 1e308, 1, &res, NULL, &e), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(res.response_s, 1e308);
        ZVP_ASSERT_REL(res.throughput_per_s, 0.5e-308, 1e-12);
    }
}

/* The other MVA solvers on tiny and huge times: the same scaling relations. */
static void test_mva_others_time_scaling(void)
{
    const double scales[4] = {1.0, 1e-300, 1e300, 1e-200};
    zvp_station st[2] = {zvp_test_station(0, 0, 1, 0.0), zvp_test_station(0, 0, 1, 0.0)};
    double x0[2] = {0, 0}, q0[4] = {0, 0, 0, 0}, xl0 = 0.0, ql0[2] = {0, 0};
    for (int j = 0; j < 4; j++) {
        const double t = scales[j];
        double d[4] = {1.0 * t, 0.5 * t, 0.25 * t, 1.0 * t}, z[2] = {2.0 * t, 0.0};
        unsigned long n[2] = {30, 20};
        double x[2], rc[2], rs[4], q[4], u[4];
        zvp_mva_multi_result res = {x, rc, rs, q, u};
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(st, 2, d, z, n, 2, &res, &e), ZVP_SUCCESS);
        if (j == 0) {
            memcpy(x0, x, sizeof x0);
            memcpy(q0, q, sizeof q0);
        }
        for (int c = 0; c < 2; c++)
            ZVP_ASSERT_REL(x[c] * t, x0[c], 1e-12);
        for (int i = 0; i < 4; i++)
            ZVP_ASSERT_REL(q[i], q0[i], 1e-12);
        for (int method = ZVP_MVA_SCHWEITZER; method <= ZVP_MVA_BARD; method++) {
            zvp_mva_approx_options o = {method, 0, 0.0};
            CU_ASSERT_EQUAL(zvp_mva_approx(st, 2, d, z, n, 2, &o, &res, NULL, &e), ZVP_SUCCESS);
            CU_ASSERT(isfinite(x[0]) && x[0] > 0.0 && isfinite(q[0]));
            ZVP_ASSERT_REL(x[0] * t * (z[0] / t + rc[0] / t), 30.0, 1e-9); /* Little */
        }
        /* load dependent: a queue and a delay, 50 customers */
        zvp_station ld[2] = {zvp_test_station(0, 0, 1, 0.5 * t), zvp_test_station(1, 0, 1, 2.0 * t)};
        double ql[2];
        zvp_mva_result rl = {0, 0, NULL, ql, NULL};
        CU_ASSERT_EQUAL_FATAL(zvp_mva_ld(ld, 2, NULL, 0.0, 50, &rl, &e), ZVP_SUCCESS);
        if (j == 0) {
            xl0 = rl.throughput_per_s;
            memcpy(ql0, ql, sizeof ql0);
        }
        ZVP_ASSERT_REL(rl.throughput_per_s * t, xl0, 1e-9);
        ZVP_ASSERT_REL(ql[0], ql0[0], 1e-9);
    }
}

static void test_mva_ld_overflow(void)
{
    /* one queue of demand 1e307 and 100 customers: R = N D = 1e309 */
    zvp_station st[2] = {zvp_test_station(0, 0, 1, 1e307), zvp_test_station(1, 0, 1, 1.0)};
    double r[2], q[2], u[2];
    zvp_mva_result res = {0, 0, r, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL(zvp_mva_ld(st, 2, NULL, 0.0, 100, &res, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_ld");
    CU_ASSERT(isnan(res.throughput_per_s) && isnan(r[0]) && isnan(q[1]) && isnan(u[0]));
    /* an LD entry (alpha = 1: a queue) overflows the same way */
    double alpha[101];
    for (int j = 0; j <= 100; j++)
        alpha[j] = 1.0;
    const double *al[2] = {alpha, NULL};
    st[0].kind = ZVP_STATION_LD;
    CU_ASSERT_EQUAL(zvp_mva_ld(st, 2, al, 0.0, 100, &res, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_ld");
    /* 1e300 with 100 customers is inside: R = 100 D */
    st[0].demand_s = 1e300;
    CU_ASSERT_EQUAL(zvp_mva_ld(st, 2, al, 0.0, 100, &res, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(res.response_s, 100 * 1e300 + 1.0, 1e-9);
}

static void test_multiclass_overflow(void)
{
    zvp_station st[2] = {zvp_test_station(0, 0, 1, 0), zvp_test_station(0, 0, 1, 0)};
    /* R_c1 = D (1 + Q) reaches 100 x 1e307 = 1e309 */
    double d[4] = {1e307, 1.0, 1e307, 1.0}, z[2] = {0.0, 0.0};
    unsigned long n[2] = {60, 40};
    double x[2], r[2], rs[4], q[4], u[4];
    zvp_mva_multi_result res = {x, r, rs, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(st, 2, d, z, n, 2, &res, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_multi_exact");
    for (int i = 0; i < 4; i++)
        CU_ASSERT(isnan(rs[i]) && isnan(q[i]) && isnan(u[i]));
    CU_ASSERT(isnan(x[0]) && isnan(x[1]) && isnan(r[0]) && isnan(r[1]));
    for (int method = ZVP_MVA_SCHWEITZER; method <= ZVP_MVA_BARD; method++) {
        zvp_mva_approx_options o = {method, 0, 0.0};
        x[0] = 0.0;
        CU_ASSERT_EQUAL(zvp_mva_approx(st, 2, d, z, n, 2, &o, &res, NULL, &e), ZVP_EINVAL);
        expect_overflow(&e, "zvp_mva_approx");
        CU_ASSERT(isnan(x[0]) && isnan(q[3]));
    }
    /* without any result array the solver's own throughputs are still checked */
    zvp_mva_multi_result none = {NULL, NULL, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(st, 2, d, z, n, 2, &none, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_mva_approx(st, 2, d, z, n, 2, NULL, &none, NULL, &e), ZVP_EINVAL);
}

static void test_open_and_bounds_overflow(void)
{
    /* U = 0.99 but R = D/(1 - U) = 1e310: an overflow, not a saturation */
    zvp_station st[1] = {zvp_test_station(0, 0, 1, 1e308)};
    double lam = 0.99e-308, r[1], q[1], u[1], rc;
    zvp_open_result res = {0, 0, 0, &rc, r, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL(zvp_open_network(st, 1, NULL, &lam, 1, &res, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_open_network");
    CU_ASSERT(isnan(res.throughput_per_s) && isnan(rc) && isnan(r[0]) && isnan(u[0]));
    /* a saturated station is still "no steady state" */
    double lam_sat = 2e-308;
    CU_ASSERT_EQUAL(zvp_open_network(st, 1, NULL, &lam_sat, 1, &res, &e), ZVP_EUNSTABLE);
    /* bounds: N D overflows (r_upper_s) */
    zvp_station b[1] = {zvp_test_station(0, 0, 1, 1e305)};
    zvp_bounds_result br;
    CU_ASSERT_EQUAL(zvp_mva_bounds(b, 1, 0.0, 100000, &br, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_mva_bounds");
    CU_ASSERT(isnan(br.r_upper_s) && isnan(br.x_upper_per_s) && br.bjb_valid == 0);
    CU_ASSERT_EQUAL(zvp_mva_bounds(b, 1, 0.0, 1000, &br, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(br.r_upper_s, 1e308, 1e-15);
}

static void test_usl_overflow(void)
{
    zvp_error e;
    double x = 0.0, np = 0.0, xp = 0.0;
    CU_ASSERT_EQUAL(zvp_usl_eval(1e300, 1e300, 0.0, 0.0, &x, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_usl_eval");
    CU_ASSERT(isnan(x));
    CU_ASSERT_EQUAL(zvp_usl_eval(1e10, 1e300, 0.0, 0.0, &x, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_usl_eval(1e10, 1e290, 0.0, 0.0, &x, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(x, 1e300, 1e-15);
    /* x_peak = gamma/alpha overflows; the documented no-peak infinities stay */
    CU_ASSERT_EQUAL(zvp_usl_peak(1e300, 1e-300, 0.0, &np, &xp, &e), ZVP_EINVAL);
    expect_overflow(&e, "zvp_usl_peak");
    CU_ASSERT(isnan(np) && isnan(xp));
    CU_ASSERT_EQUAL(zvp_usl_peak(1.0, 0.0, 0.0, &np, &xp, &e), ZVP_SUCCESS);
    CU_ASSERT(isinf(np) && isinf(xp));
    CU_ASSERT_EQUAL(zvp_usl_peak(2.0, 0.5, 0.0, &np, &xp, &e), ZVP_SUCCESS);
    CU_ASSERT(isinf(np) && xp == 4.0);
}

static void test_internal_status(void)
{
    CU_ASSERT_EQUAL(ZVP_EINTERNAL, 10);
    CU_ASSERT_EQUAL(ZVP_ECANCELED, ZVP_ENUM_STATUS - 1); /* appended after it (issue 10) */
    CU_ASSERT(strstr(zvp_strerror(ZVP_EINTERNAL), "internal") != NULL);
    CU_ASSERT(strcmp(zvp_strerror(ZVP_EINTERNAL), "unknown status") != 0);
}

/* ---- item 12: apache accepts every advertised core count ------------------------------ */
static void test_apache_all_cores(void)
{
    const zvp_model *m = zvp_test_find_model("apache");
    const long ci = zvp_model_param_index(m, "cores", NULL);
    CU_ASSERT_FATAL(ci >= 0);
    CU_ASSERT_EQUAL(m->params[ci].max, 32.0); /* Table 2's line ends at 32 cores, 2 TB */
    const double cores[] = {1, 2, 7, 17, 31, 32};
    for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++) {
        double p[64], o[64];
        zvp_model_defaults(m, p);
        zvp_test_set_param(m, p, "cores", cores[i]);
        zvp_test_eval_ok(m, p, o, "apache cores");
        /* closed forms with the defaults (emul 2.3, alpha 0.02, cp 0.9, size 0.03 ms/TB/core,
         * storage 64 GB per core as in Table 2, think 3 + 0.5 n ms, n/2 clients x 6
         * sessions): ITR = n/D (utilization
         * law), ETR <= min(N/(D + Z), n/D) (asymptotic bounds) */
        const double n = cores[i];
        const double d_ms = 2.3 * (1 + 0.02 * (n - 1)) + 0.9 + 0.03 * (n - 1) * 64 * n / 1024.0;
        const double z_ms = 3 + 0.5 * n, users = ceil(n / 2 * 6);
        ZVP_ASSERT_REL(zvp_test_output(m, o, "itr"), n / (d_ms * 1e-3), 1e-12);
        ZVP_ASSERT_REL(zvp_test_output(m, o, "cpu_per_tx_ms"), d_ms, 1e-12);
        CU_ASSERT(zvp_test_output(m, o, "etr") <=
                  (1 + 1e-9) * fmin(users / ((d_ms + z_ms) * 1e-3), n / (d_ms * 1e-3)));
        CU_ASSERT(zvp_test_output(m, o, "busy_per_cpu_pct") <= 100.0);
    }
    double p[64], o[64];
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "cores", 33);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "cores", NULL);
}

/* ---- item 8: fsio resident memory never exceeds the DPA -------------------------------- */
static void fsio_params(const zvp_model *m, double *p, double page_cache_gb)
{
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "direct_io", 0);
    zvp_test_set_param(m, p, "page_cache_gb", page_cache_gb);
    zvp_test_set_param(m, p, "other_cache_gb", 0.25);
    zvp_test_set_param(m, p, "base_gb", 0.5);
    zvp_test_set_param(m, p, "dirty_pool_gb", 4);
    zvp_test_set_param(m, p, "other_gb", 0); /* the fsio guest alone in the DPA */
    zvp_test_set_param(m, p, "cache_reref_s", 50);
    zvp_test_set_param(m, p, "active_reref_s", 1);
    zvp_test_set_param(m, p, "base_reref_s", 1000);
    zvp_test_set_param(m, p, "real_memory_gb", 64);
    zvp_test_set_param(m, p, "cp_memory_gb", 14);
    /* page reads take no device time: a saturated paging DASD has no steady state
     * (ZVP_EUNSTABLE), and these caches page far beyond any DASD; only residency is tested */
    zvp_test_set_param(m, p, "dasd_read_ms", 0);
}

static void test_fsio_resident_within_dpa(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64];
    /* the example: the calibrated file with a huge page cache */
    zvp_test_read_params("../calibration/params/fsio-cid64-20.ini", "fsio", p, m->n_params);
    zvp_test_set_param(m, p, "page_cache_gb", 1e5);
    zvp_test_expect_eval_error(m, p, o, ZVP_EUNSTABLE, "saturated", NULL); /* 1.3e11 reads/s */
    zvp_test_set_param(m, p, "dasd_read_ms", 0); /* residency alone */
    zvp_test_eval_ok(m, p, o, "fsio huge page cache");
    CU_ASSERT(zvp_test_output(m, o, "dpa_share_pct") <= 100.0);
    CU_ASSERT(zvp_test_output(m, o, "resident_gb") <= zvp_test_output(m, o, "dpa_gb"));
    /* a sweep over the page cache: in range, resident memory and page reads never fall */
    double prev_res = 0.0, prev_reads = 0.0;
    for (double pc = 0.25; pc <= 1e5; pc *= 1.5) {
        fsio_params(m, p, pc);
        zvp_test_eval_ok(m, p, o, "fsio sweep");
        const double res = zvp_test_output(m, o, "resident_gb");
        const double reads = zvp_test_output(m, o, "page_reads_per_s");
        CU_ASSERT(res <= 50.0 && zvp_test_output(m, o, "dpa_share_pct") <= 100.0);
        CU_ASSERT(res >= prev_res * (1 - 1e-12) && reads >= prev_reads * (1 - 1e-12));
        prev_res = res;
        prev_reads = reads;
    }
    /* beyond the DPA: resident = DPA, and the residency time T' solves
     * sum_j S_j (1 - exp(-T'/r_j)) = DPA; page reads = sum_j S_j 262144 exp(-T'/r_j)/r_j.
     * T' found here by Newton's method from 0 (the sum is concave in T', so Newton climbs to
     * the root monotonically; the model bisects). */
    const double pc = 1000.0, cache = pc - 0.25, dirty = 4.0;
    const double S[3] = {dirty, cache - dirty, 0.75}, r[3] = {50.0, 1.0, 1000.0};
    double t = 0.0;
    for (int it = 0; it < 200; it++) {
        double f = -50.0, df = 0.0;
        for (int j = 0; j < 3; j++) {
            f += S[j] * (1 - exp(-t / r[j]));
            df += S[j] * exp(-t / r[j]) / r[j];
        }
        t -= f / df;
    }
    double reads = 0.0;
    for (int j = 0; j < 3; j++)
        reads += S[j] * 262144.0 * exp(-t / r[j]) / r[j];
    fsio_params(m, p, pc);
    zvp_test_eval_ok(m, p, o, "fsio 1000 GiB");
    ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_gb"), 50.0, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "dpa_share_pct"), 100.0, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "page_reads_per_s"), reads, 1e-9);
    /* direct-I/O buffers fixed beyond the DPA: refused, naming the inputs */
    fsio_params(m, p, 0.25);
    zvp_test_set_param(m, p, "direct_io", 1);
    zvp_test_set_param(m, p, "buffer_gb", 1e4);
    zvp_test_set_param(m, p, "device_share", 0.5);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "buffer_gb", "DPA", NULL);
}

/* ---- item 8: the engine checks every output against its descriptor --------------------- */
static const zvp_param_desc fake_params[1] = {{"x", "1", "the output value", -10, 10, 0, 0, 0}};
static const zvp_param_desc fake_outputs[1] = {{"share", "%", "a share", 0, 100, 0, 0, 0}};
static int fake_eval(const double *p, double *out, zvp_error *err)
{
    (void)err;
    out[0] = p[0] == 1.0 ? 100.0 + 1e-11 : p[0] == 2.0 ? -1e-13 : p[0] == 3.0 ? 100.5 : 50.0;
    return ZVP_SUCCESS;
}
static const zvp_model fake_model = {"fake", "test model", "tests", 1, fake_params, 1,
                                     fake_outputs, fake_eval, NULL};

static void test_engine_output_ranges(void)
{
    double p[1], o[1];
    zvp_error e;
    p[0] = 0.0;
    CU_ASSERT_EQUAL(zvp_model_eval(&fake_model, p, o, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(o[0], 50.0);
    p[0] = 1.0; /* rounding above the bound: the bound */
    CU_ASSERT_EQUAL(zvp_model_eval(&fake_model, p, o, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(o[0], 100.0);
    p[0] = 2.0; /* rounding below 0 */
    CU_ASSERT_EQUAL(zvp_model_eval(&fake_model, p, o, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(o[0], 0.0);
    p[0] = 3.0; /* really outside: a model bug, every output NaN */
    CU_ASSERT_EQUAL(zvp_model_eval(&fake_model, p, o, &e), ZVP_EINTERNAL);
    CU_ASSERT(isnan(o[0]));
    CU_ASSERT(zvp_test_msg_has(&e, "share") && zvp_test_msg_has(&e, "100.5") &&
              zvp_test_msg_has(&e, "documented range"));
}

/* Every shipped calibrated file evaluates with every output inside its descriptor range. */
static void test_calibrated_files_in_range(void)
{
    static const char *files[] = {
        "apache-zvm63", "apache-zvm64", "cms-releases", "cms-vmesa240",
        "dump-eckd-zvm62", "dump-eckd-zvm63", "dump-edev-zvm62", "dump-edev-zvm63",
        "fsio-cid64-20", "overcommit-zvm53", "paging-zvm63", "paging-zvm64", "sweetspot-zvm63",
        "sweetspot-zvm64"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "../calibration/params/%s.ini", files[i]);
        zvp_model_file *mf = NULL;
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(path, &mf, &e), ZVP_SUCCESS);
        const zvp_model *m = zvp_model_file_model(mf);
        double o[64];
        CU_ASSERT_EQUAL(zvp_model_eval(m, zvp_model_file_params(mf), o, &e), ZVP_SUCCESS);
        for (size_t j = 0; j < m->n_outputs; j++)
            CU_ASSERT(o[j] >= m->outputs[j].min && o[j] <= m->outputs[j].max);
        zvp_model_file_free(mf);
    }
}

int zvp_test_register_numerics(void)
{
    CU_pSuite s = CU_add_suite("numerics", NULL, NULL);
    if (!s)
        return -1;
    if (!CU_add_test(s, "mva_exact_overflow", test_mva_exact_overflow) ||
        !CU_add_test(s, "mva_exact_time_scaling", test_mva_exact_time_scaling) ||
        !CU_add_test(s, "mva_others_time_scaling", test_mva_others_time_scaling) ||
        !CU_add_test(s, "mva_ld_overflow", test_mva_ld_overflow) ||
        !CU_add_test(s, "multiclass_overflow", test_multiclass_overflow) ||
        !CU_add_test(s, "open_and_bounds_overflow", test_open_and_bounds_overflow) ||
        !CU_add_test(s, "usl_overflow", test_usl_overflow) ||
        !CU_add_test(s, "internal_status", test_internal_status) ||
        !CU_add_test(s, "apache_all_cores", test_apache_all_cores) ||
        !CU_add_test(s, "fsio_resident_within_dpa", test_fsio_resident_within_dpa) ||
        !CU_add_test(s, "engine_output_ranges", test_engine_output_ranges) ||
        !CU_add_test(s, "calibrated_files_in_range", test_calibrated_files_in_range))
        return -1;
    return 0;
}
