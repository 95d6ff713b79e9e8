/* tests/test_memhost.c - the shared host-memory core (models/memhost.c) against closed forms
 * and independent computations, and sweeps of the two models built on it (overcommit, fsio):
 * more real memory never lowers throughput or raises paging, CMM never raises DASD page
 * space, shares stay within 0-100 %. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"
#include "../models/memhost.h"

#define PARAMS "../calibration/params/"

/* One class: n (1 - e^{-lambda T}) = C gives T = -ln(1 - C/n) / lambda. */
static void test_memhost_one_class(void)
{
    zvp_memhost_class c = {40.0, 0.01, 0};
    zvp_error err = {0};
    double t;
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_char_time(&c, 1, 0.0, 10.0, &t, &err), ZVP_SUCCESS);
    ZVP_ASSERT_REL(t, -log(1.0 - 10.0 / 40.0) / 0.01, 1e-12);
    /* with 4 GiB pinned the pageable part has 6 GiB */
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_char_time(&c, 1, 4.0, 10.0, &t, &err), ZVP_SUCCESS);
    ZVP_ASSERT_REL(t, -log(1.0 - 6.0 / 40.0) / 0.01, 1e-12);
    /* everything fits: infinite time, hit 1, no misses */
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_char_time(&c, 1, 0.0, 40.0, &t, &err), ZVP_SUCCESS);
    CU_ASSERT(isinf(t));
    CU_ASSERT_EQUAL(zvp_memhost_hit(0.01, t), 1.0);
    CU_ASSERT_EQUAL(zvp_memhost_misses(&c, t), 0.0);
    /* pinned memory beyond the capacity: refused, naming both */
    CU_ASSERT_EQUAL(zvp_memhost_char_time(&c, 1, 12.0, 10.0, &t, &err), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&err, "12") && zvp_test_msg_has(&err, "10"));
}

/* Three classes against an independent bisection on T (200 halvings of [0, 1e9]). */
static void test_memhost_three_classes(void)
{
    const zvp_memhost_class c[3] = {{8.0, 1.0, 0}, {30.0, 0.02, 0}, {100.0, 1e-4, 0}};
    zvp_error err = {0};
    double t, lo = 0.0, hi = 1e9, res = 0.0;
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_char_time(c, 3, 1.0, 30.0, &t, &err), ZVP_SUCCESS);
    for (int i = 0; i < 200; i++) {
        const double mid = 0.5 * (lo + hi);
        const double f = 1.0 + 8.0 * (1 - exp(-mid)) + 30.0 * (1 - exp(-0.02 * mid)) +
                         100.0 * (1 - exp(-1e-4 * mid));
        if (f < 30.0)
            lo = mid;
        else
            hi = mid;
    }
    ZVP_ASSERT_REL(t, 0.5 * (lo + hi), 1e-10);
    for (int i = 0; i < 3; i++)
        res += c[i].size_gb * zvp_memhost_hit(c[i].rate_per_s, t);
    ZVP_ASSERT_REL(res + 1.0, 30.0, 1e-10);
    /* misses = n lambda e^{-lambda T} pages */
    ZVP_ASSERT_REL(zvp_memhost_misses(&c[1], t), 30.0 * 262144.0 * 0.02 * exp(-0.02 * t), 1e-12);
}

/* A class whose rates spread log-uniformly over [lambda/s, lambda s]: its resident share and
 * misses against an independent midpoint quadrature over u = ln(r / lambda) in [-ln s, ln s]
 * (20,000 nodes), at several T around and across the rates; the characteristic time of two
 * spread classes against a bisection on the quadrature; spread 1 equals the single rate. */
static void test_memhost_spread(void)
{
    const zvp_memhost_class one = {10.0, 0.01, 1.0};
    const zvp_memhost_class sp[2] = {{10.0, 0.01, 3.0}, {20.0, 0.0005, 5.0}};
    const double ts[5] = {0.5, 30.0, 100.0, 700.0, 3000.0};
    zvp_error err = {0};
    double t, lo = 0.0, hi = 1e9;
    ZVP_ASSERT_REL(zvp_memhost_class_hit(&one, 70.0), 1.0 - exp(-0.7), 1e-14);
    for (int j = 0; j < 5; j++) {
        const double l = log(3.0), h = 2.0 * l / 20000.0;
        double hit = 0.0, miss = 0.0;
        for (int i = 0; i < 20000; i++) {
            const double r = 0.01 * exp(-l + (i + 0.5) * h);
            hit += (1.0 - exp(-r * ts[j])) * h / (2.0 * l);
            miss += r * exp(-r * ts[j]) * h / (2.0 * l);
        }
        ZVP_ASSERT_REL(zvp_memhost_class_hit(&sp[0], ts[j]), hit, 1e-7);
        ZVP_ASSERT_REL(zvp_memhost_misses(&sp[0], ts[j]), 10.0 * 262144.0 * miss, 1e-7);
    }
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_char_time(sp, 2, 2.0, 15.0, &t, &err), ZVP_SUCCESS);
    for (int k = 0; k < 200; k++) {
        const double mid = 0.5 * (lo + hi);
        double f = 2.0;
        for (int c = 0; c < 2; c++) {
            const double l = log(sp[c].spread), h = 2.0 * l / 20000.0;
            for (int i = 0; i < 20000; i++) {
                const double r = sp[c].rate_per_s * exp(-l + (i + 0.5) * h);
                f += sp[c].size_gb * (1.0 - exp(-r * mid)) * h / (2.0 * l);
            }
        }
        if (f < 15.0)
            lo = mid;
        else
            hi = mid;
    }
    ZVP_ASSERT_REL(t, 0.5 * (lo + hi), 1e-6);
}

/* The paging DASD with one volume and reads only is M/M/1: read time S / (1 - rho). */
static void test_memhost_dasd(void)
{
    const zvp_memhost_dasd d = {1, 0.005, 0.008, 16};
    zvp_error err = {0};
    double u, r;
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_dasd_read(&d, 100.0, 0.0, &u, &r, &err), ZVP_SUCCESS);
    ZVP_ASSERT_REL(u, 0.5, 1e-12);
    ZVP_ASSERT_REL(r, 0.005 / (1.0 - 0.5), 1e-9);
    CU_ASSERT_EQUAL(zvp_memhost_dasd_read(&d, 200.0, 0.0, &u, &r, &err), ZVP_EUNSTABLE);
    /* a subnormal service time (1e-313 s, from dasd_read_ms = 1e-310): the service rate
     * overflows, but the load is 181,406 x 1e-313 = 1.8e-308 busy volumes, far from
     * saturation: the read takes its service time, status ok */
    const zvp_memhost_dasd tiny = {1024, 1e-313, 0.0, 16};
    CU_ASSERT_EQUAL(zvp_memhost_dasd_read(&tiny, 181406.0, 0.0, &u, &r, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(r, 1e-313);
    CU_ASSERT(u > 0.0 && u < 1e-300);
}

static int linear_signal(const void *ctx, double b, double *s, zvp_error *err)
{
    (void)ctx;
    (void)err;
    *s = 100.0 - 8.0 * b;
    return ZVP_SUCCESS;
}

/* VMRM loop: s(B) = 100 - 8 B settles at s = target, B = (100 - target) / 8; clamped. */
static void test_memhost_vmrm(void)
{
    zvp_error err = {0};
    double b;
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_vmrm_steady(linear_signal, NULL, 20.0, 16.0, &b, &err),
                          ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 10.0, 1e-10);
    CU_ASSERT_EQUAL(zvp_memhost_vmrm_steady(linear_signal, NULL, 120.0, 16.0, &b, &err), 0);
    CU_ASSERT_EQUAL(b, 0.0);
    CU_ASSERT_EQUAL(zvp_memhost_vmrm_steady(linear_signal, NULL, 20.0, 5.0, &b, &err), 0);
    CU_ASSERT_EQUAL(b, 5.0);
}

#define WAVY_PI 3.14159265358979323846

/* s(B) = 40 - 30 sin(B pi / 8): crosses 20 downward at B = 8 asin(2/3) / pi = 1.8578 and again
 * at B = 8 (pi + asin(2/3)) / pi = 9.8578 after rising above it: the loop, starting from no
 * balloon and shrinking while constrained, stops at the first crossing, the smallest root. */
static int wavy_signal(const void *ctx, double b, double *s, zvp_error *err)
{
    (void)ctx;
    (void)err;
    *s = 40.0 - 30.0 * sin(b * WAVY_PI / 8.0);
    return ZVP_SUCCESS;
}

static void test_memhost_vmrm_smallest_root(void)
{
    zvp_error err = {0};
    double b;
    CU_ASSERT_EQUAL_FATAL(zvp_memhost_vmrm_steady(wavy_signal, NULL, 20.0, 16.0, &b, &err),
                          ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 8.0 * asin(2.0 / 3.0) / WAVY_PI, 1e-9);
}

/* overcommit, calibrated: sweeps over real memory (40..400 GiB) and guests (2..40, with and
 * without XSTOR). Paging is
 * measured per unit of work (page-ins per CPU-second of guest work) and as DASD page space:
 * page-ins per second can rise with memory where the paging DASD bounds the throughput. */
static void test_memhost_overcommit_sweeps(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o[64], q[64];
    for (int cfg = 0; cfg < 3; cfg++) {
        double prev_x = 0.0, prev_pg = INFINITY;
        for (double mem = 40.0; mem <= 400.0; mem *= 1.25) {
            zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
            zvp_test_set_param(m, p, "cmm", cfg == 1);
            zvp_test_set_param(m, p, "cmma", cfg == 2);
            zvp_test_set_param(m, p, "real_memory_gb", mem);
            zvp_test_eval_ok(m, p, o, "overcommit memory sweep");
            const double x = zvp_test_output(m, o, "throughput_per_s");
            /* with CMM the VMRM loop holds the DASD page wait and releases balloon as memory
             * grows, so page space may grow: per-work page-ins only */
            const double pg = zvp_test_output(m, o, "page_ins_per_work") +
                              (cfg == 1 ? 0.0 : zvp_test_output(m, o, "dasd_page_space_gb"));
            CU_ASSERT(x >= prev_x * (1 - 1e-9));
            CU_ASSERT(pg <= prev_pg * (1 + 1e-9) + 1e-9);
            CU_ASSERT(zvp_test_output(m, o, "paging_util_pct") >= 0 &&
                      zvp_test_output(m, o, "paging_util_pct") <= 100);
            if (x < prev_x * (1 - 1e-9) || pg > prev_pg * (1 + 1e-9) + 1e-9)
                fprintf(stderr, "\n  overcommit cfg %d mem %g: X %g (prev %g), page-ins %g (prev %g)",
                        cfg, mem, x, prev_x, pg, prev_pg);
            prev_x = x;
            prev_pg = pg;
        }
    }
    for (double g = 2; g <= 40; g += 2) {
        zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
        zvp_test_set_param(m, p, "guests", g);
        zvp_test_set_param(m, p, "xstor_gb", fmod(g, 4.0) == 0.0 ? 0.0 : 2.0);
        zvp_test_eval_ok(m, p, o, "overcommit guests, no CMM");
        zvp_test_set_param(m, p, "cmm", 1);
        zvp_test_eval_ok(m, p, q, "overcommit guests, CMM");
        CU_ASSERT(zvp_test_output(m, q, "dasd_page_space_gb") <=
                  zvp_test_output(m, o, "dasd_page_space_gb") * (1 + 1e-12) + 1e-12);
        CU_ASSERT(zvp_test_output(m, q, "balloon_gb") >= 0 &&
                  zvp_test_output(m, q, "balloon_gb") <= 16);
        /* no page space on DASD without page movement to DASD */
        if (zvp_test_output(m, o, "dasd_page_space_gb") > 1.0)
            CU_ASSERT(zvp_test_output(m, o, "xstor_to_dasd_per_s") > 0.0);
    }
}

/* fsio, calibrated: real memory 32 -> 1024 GiB drives residency; shares within 0-100 %. */
static void test_memhost_fsio_sweeps(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64];
    for (int direct = 0; direct <= 1; direct++) {
        double prev_res = 0.0, prev_reads = INFINITY, prev_thr = direct ? INFINITY : 0.0;
        for (double mem = 32.0; mem <= 1024.0; mem *= 2.0) {
            zvp_test_read_params(PARAMS "fsio-cid64-20.ini", "fsio", p, m->n_params);
            zvp_test_set_param(m, p, "direct_io", direct);
            zvp_test_set_param(m, p, "page_cache_gb", direct ? 0.29296875 : 6.0);
            zvp_test_set_param(m, p, "real_memory_gb", mem);
            zvp_test_eval_ok(m, p, o, "fsio memory sweep");
            const double res = zvp_test_output(m, o, "resident_gb");
            const double reads = zvp_test_output(m, o, "page_reads_per_s");
            const double thr = zvp_test_output(m, o, "throughput_rel");
            for (const char *const *k = (const char *const[]){"resident_share_pct", "dpa_share_pct",
                                                              "page_read_share_pct", NULL};
                 *k; k++)
                CU_ASSERT(zvp_test_output(m, o, *k) >= 0 && zvp_test_output(m, o, *k) <= 100);
            CU_ASSERT(res >= prev_res * (1 - 1e-12));
            CU_ASSERT(reads <= prev_reads * (1 + 1e-12) + 1e-12);
            /* page-cached throughput never falls with memory; direct I/O never rises */
            CU_ASSERT(direct ? thr <= prev_thr * (1 + 1e-12) : thr >= prev_thr * (1 - 1e-12));
            prev_res = res;
            prev_reads = reads;
            prev_thr = thr;
        }
        /* residency depends on real memory: 32 GiB holds less than 1024 GiB */
        zvp_test_read_params(PARAMS "fsio-cid64-20.ini", "fsio", p, m->n_params);
        zvp_test_set_param(m, p, "real_memory_gb", 32);
        zvp_test_eval_ok(m, p, o, "fsio 32");
        const double r32 = zvp_test_output(m, o, "resident_share_pct");
        zvp_test_set_param(m, p, "real_memory_gb", 1024);
        zvp_test_eval_ok(m, p, o, "fsio 1024");
        CU_ASSERT(zvp_test_output(m, o, "resident_share_pct") > r32 + 1.0);
    }
}

int zvp_test_register_memhost(void)
{
    CU_pSuite s = CU_add_suite("memhost", NULL, NULL);
    if (!s)
        return CU_get_error();
    if (!CU_add_test(s, "characteristic time, one class (closed form)", test_memhost_one_class) ||
        !CU_add_test(s, "characteristic time, three classes (bisection)",
                     test_memhost_three_classes) ||
        !CU_add_test(s, "spread rates (quadrature)", test_memhost_spread) ||
        !CU_add_test(s, "paging DASD is M/M/1 with one volume", test_memhost_dasd) ||
        !CU_add_test(s, "VMRM loop steady state (linear signal)", test_memhost_vmrm) ||
        !CU_add_test(s, "VMRM loop: smallest root of a non-monotone signal",
                     test_memhost_vmrm_smallest_root) ||
        !CU_add_test(s, "overcommit sweeps: memory, guests, CMM", test_memhost_overcommit_sweeps) ||
        !CU_add_test(s, "fsio sweeps: memory 32 -> 1024 GiB", test_memhost_fsio_sweeps))
        return CU_get_error();
    return 0;
}
