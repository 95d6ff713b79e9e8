/*
 * tests/test_sweetspot_bounds.c - bounded extrapolation of the sweetspot model (models/README.md,
 * sweetspot): no page-out needed -> no paging ETR and no paging spin; page-out never above what
 * the paging DASD (its closed form, computed here) or the locks (zones / hold: every page written
 * takes one available-list acquisition, other_locks / other_hold) can pass; monotone where the
 * mechanism says so; sweeps to 8 TB and 256 CPUs, both releases, give finite outputs inside
 * their declared ranges.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include "tests.h"
#include "zvmperf/model.h"

/* the z/VM 6.4 release switches of report 000 (models/README.md, sweetspot) */
static void release_64(const zvp_model *m, double *p)
{
    zvp_test_set_param(m, p, "lock_zones", 0);
    zvp_test_set_param(m, p, "zone_max", 64);
    zvp_test_set_param(m, p, "other_locks", 128);
    zvp_test_set_param(m, p, "ibr_check", 1);
}

static double out_of(const zvp_model *m, const double *p, const char *name)
{
    double out[64];
    zvp_error err = {0};
    int st = zvp_model_eval(m, p, out, &err);
    CU_ASSERT_EQUAL(st, ZVP_SUCCESS);
    if (st != ZVP_SUCCESS) {
        fprintf(stderr, "\n  eval failed: %s\n", err.message);
        return NAN;
    }
    return zvp_test_output(m, out, name);
}

/* 8 TB with the 38 GiB users of the 2 TB point (Table 1): 4 x 88 x 0.21 x 36 GiB is far below
 * 8192 GiB, nothing is paged out: ETR, ITR, busy and every paging spin are 0, and CM4 primes
 * as fast as CM1. */
static void test_sweetspot_no_pageout(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], out[64];
    for (int rel = 0; rel < 2; rel++) {
        zvp_model_defaults(m, p);
        if (rel)
            release_64(m, p);
        zvp_test_set_param(m, p, "storage_gb", 8192);
        zvp_test_set_param(m, p, "user_virtual_gb", 38);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(zvp_test_output(m, out, "cm4_pages_written_m"), 0.0);
        CU_ASSERT_EQUAL(zvp_test_output(m, out, "etr"), 0.0);
        CU_ASSERT_EQUAL(zvp_test_output(m, out, "itr"), 0.0);
        CU_ASSERT_EQUAL(zvp_test_output(m, out, "busy_per_cpu_pct"), 0.0);
        CU_ASSERT_EQUAL(zvp_test_output(m, out, "spin_busy_pct"), 0.0);
        CU_ASSERT_EQUAL(zvp_test_output(m, out, "avail_spin_busy_pct"), 0.0);
        ZVP_ASSERT_REL(zvp_test_output(m, out, "cm4_priming_s"),
                       zvp_test_output(m, out, "cm1_priming_s"), 1e-12);
        /* one frame short of paging is still no paging; just past it, paging at the ceiling */
        const double pages = 88 * 0.21 * 36 * 262144.0; /* default touch_fraction 0.21 */
        zvp_test_set_param(m, p, "storage_gb", 4.0 * pages / 262144.0 * 1.001);
        CU_ASSERT_EQUAL(out_of(m, p, "spin_busy_pct"), 0.0);
        zvp_test_set_param(m, p, "storage_gb", 4.0 * pages / 262144.0 * 0.999);
        CU_ASSERT(out_of(m, p, "etr") > 0.0);
    }
}

/* ETR <= the DASD ceiling c b / (t_ov + b t_pg) and <= the lock capacities, over a grid of
 * CPUs, zones, holds and DASD speeds, both releases. */
static void test_sweetspot_throughput_bounds(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    const double cpus[] = {1, 8, 64, 256}, hold[] = {1, 4.4, 20}, xfer[] = {0.001, 0.167, 1.0};
    double p[64], out[64];
    size_t n = 0;
    for (int rel = 0; rel < 2; rel++)
        for (size_t a = 0; a < 4; a++)
            for (size_t b = 0; b < 3; b++)
                for (size_t c = 0; c < 3; c++) {
                    zvp_model_defaults(m, p);
                    if (rel)
                        release_64(m, p);
                    zvp_test_set_param(m, p, "cpus", cpus[a]);
                    zvp_test_set_param(m, p, "avail_hold_us", hold[b]);
                    zvp_test_set_param(m, p, "page_transfer_ms", xfer[c]);
                    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
                    const double etr = 1e3 * zvp_test_output(m, out, "etr");
                    const double dasd = 32.0 * 16.0 / ((0.2 + 16.0 * xfer[c]) * 1e-3);
                    const double zones = zvp_test_output(m, out, "lock_zones_used");
                    const double lock = zones / (hold[b] * 1e-6);
                    const double other = (rel ? 128.0 : 1.0) / 3.5e-6; /* default other hold */
                    CU_ASSERT(etr <= dasd * (1 + 1e-9));
                    CU_ASSERT(etr <= lock * (1 + 1e-9));
                    CU_ASSERT(etr <= other * (1 + 1e-9));
                    CU_ASSERT(etr > 0.0);
                    const double busy = zvp_test_output(m, out, "busy_per_cpu_pct");
                    const double spin = zvp_test_output(m, out, "spin_busy_pct");
                    CU_ASSERT(busy > 0.0 && busy <= 100.0);
                    /* spinning CPUs are busy CPUs */
                    CU_ASSERT(spin <= busy * cpus[a] * (1 + 1e-9));
                    CU_ASSERT(zvp_test_output(m, out, "avail_spin_busy_pct") <= spin * (1 + 1e-12));
                    n++;
                }
    CU_ASSERT_EQUAL(n, 72);
}

/* Monotone where the mechanism says so: available-list spin falls as zones are added; ETR
 * falls as the DASD slows; busy falls as users stay deferred longer; ETR never falls with
 * more CPUs; phase times grow with storage (Table 1's scaled users). */
static void test_sweetspot_monotone(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], prev;
    zvp_model_defaults(m, p);
    prev = INFINITY;
    for (double z = 1; z <= 64; z *= 2) {
        zvp_test_set_param(m, p, "lock_zones", z);
        const double v = out_of(m, p, "avail_spin_busy_pct");
        CU_ASSERT(v < prev);
        prev = v;
    }
    zvp_model_defaults(m, p);
    prev = INFINITY;
    for (double t = 0.05; t <= 2.0; t *= 1.5) {
        zvp_test_set_param(m, p, "page_transfer_ms", t);
        const double v = out_of(m, p, "etr");
        CU_ASSERT(v <= prev);
        prev = v;
    }
    zvp_model_defaults(m, p);
    release_64(m, p);
    prev = INFINITY;
    for (double d = 0; d <= 1000; d += 100) {
        zvp_test_set_param(m, p, "defer_us", d);
        const double v = out_of(m, p, "busy_per_cpu_pct");
        CU_ASSERT(v <= prev * (1 + 1e-12));
        prev = v;
    }
    for (int rel = 0; rel < 2; rel++) {
        zvp_model_defaults(m, p);
        if (rel)
            release_64(m, p);
        zvp_test_set_param(m, p, "page_transfer_ms", 0.001); /* the DASD far from binding */
        prev = 0.0;
        for (double c = 1; c <= 256; c *= 2) {
            zvp_test_set_param(m, p, "cpus", c);
            const double v = out_of(m, p, "etr");
            CU_ASSERT(v >= prev * (1 - 1e-12));
            prev = v;
        }
        zvp_model_defaults(m, p);
        if (rel)
            release_64(m, p);
        const char *times[] = {"cm1_priming_s", "cm4_priming_s", "logoff_s"};
        for (size_t k = 0; k < 3; k++) {
            prev = 0.0;
            for (double s = 256; s <= 2048; s += 256) {
                zvp_test_set_param(m, p, "storage_gb", s);
                const double v = out_of(m, p, times[k]);
                CU_ASSERT(v > prev);
                prev = v;
            }
        }
    }
}

/* Sweeps to 8 TB and 256 CPUs, both releases: every point evaluates, every output is finite
 * and inside its declared range, ITR = ETR / busy, and the 6.4 zones never spin more on the
 * available lists than the single 6.3 lock at the same point. */
static void test_sweetspot_sweep_sane(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], out[64], avail63 = 0.0;
    for (double s = 256; s <= 8192; s *= 2)
        for (double c = 1; c <= 256; c *= 2)
            for (int rel = 0; rel < 2; rel++) {
                zvp_model_defaults(m, p);
                if (rel)
                    release_64(m, p);
                zvp_test_set_param(m, p, "storage_gb", s);
                zvp_test_set_param(m, p, "cpus", c);
                CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
                for (size_t j = 0; j < m->n_outputs; j++) {
                    CU_ASSERT(isfinite(out[j]));
                    CU_ASSERT(out[j] >= m->outputs[j].min && out[j] <= m->outputs[j].max);
                }
                const double etr = zvp_test_output(m, out, "etr");
                const double busy = zvp_test_output(m, out, "busy_per_cpu_pct");
                if (etr > 0) {
                    ZVP_ASSERT_REL(zvp_test_output(m, out, "itr"), etr / (busy / 100.0), 1e-12);
                }
                const double a = zvp_test_output(m, out, "avail_spin_busy_pct");
                if (rel) {
                    CU_ASSERT(a <= avail63 * (1 + 1e-9) + 1e-9);
                } else {
                    avail63 = a;
                }
            }
}

/* The busiest lock group is solved exactly and the others by corrected MVA; where two groups
 * cross (z/VM 6.3 at 52 CPUs: the PTRM lock's demand overtakes the available-list lock's as
 * other_hold_us grows; at 16 CPUs as avail_hold_us falls), choosing one or the other moved the
 * available-list spin 962 -> 3689 % for a 0.1 % step (the simulator: 2296 % at both). Now
 * blended: no 0.1-0.5 % step of the hold may move the available-list spin by more than 3 %,
 * across both crossings (the 6.3 joint calibration's values, rounded). The total spin is not
 * held to it: at other_hold_us 4.39 -> 4.40 it steps 4272 -> 4624 %, and so does the simulator
 * of the same mechanism (`zvmperf simulate`, 10 x 1e7 events: 4323 -> 4618 %), a regime change
 * of the mechanism itself (models/README.md, sweetspot). */
static void test_sweetspot_lock_crossing(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64];
    struct { const char *name; double lo, hi, step; double cpus; } scan[] = {
        {"other_hold_us", 3.0, 8.0, 1.005, 52}, {"avail_hold_us", 2.5, 3.0, 1.001, 16}};
    for (size_t k = 0; k < 2; k++) {
        zvp_model_defaults(m, p);
        zvp_test_set_param(m, p, "touch_fraction", 0.2102);
        zvp_test_set_param(m, p, "avail_hold_us", 4.991);
        zvp_test_set_param(m, p, "hold_scv", 12);
        zvp_test_set_param(m, p, "cp_work_us", 22.92);
        zvp_test_set_param(m, p, "retry_work_us", 200.6);
        zvp_test_set_param(m, p, "defer_us", 172.9);
        zvp_test_set_param(m, p, "other_hold_us", 3.098);
        zvp_test_set_param(m, p, "page_transfer_ms", 0.167);
        zvp_test_set_param(m, p, "frames_per_acq", 6.82);
        zvp_test_set_param(m, p, "cpus", scan[k].cpus);
        double prev_a = NAN, prev_s = NAN;
        int steps = 0, bad = 0;
        for (double h = scan[k].lo; h <= scan[k].hi; h *= scan[k].step) {
            zvp_test_set_param(m, p, scan[k].name, h);
            const double a = out_of(m, p, "avail_spin_busy_pct"), s = out_of(m, p, "spin_busy_pct");
            if (!isnan(prev_a) && fabs(a / prev_a - 1) > 0.03) {
                if (!bad++)
                    fprintf(stderr, "\n  %s %.4f: avail spin %.1f -> %.1f, spin %.1f -> %.1f\n",
                            scan[k].name, h, prev_a, a, prev_s, s);
            }
            prev_a = a;
            prev_s = s;
            steps++;
        }
        CU_ASSERT(steps > 100);
        CU_ASSERT_EQUAL(bad, 0);
    }
    /* one CPU never spins: exactly 0, both releases (it printed 2.8e-15 %) */
    for (int rel = 0; rel < 2; rel++) {
        zvp_model_defaults(m, p);
        if (rel)
            release_64(m, p);
        zvp_test_set_param(m, p, "cpus", 1);
        CU_ASSERT_EQUAL(out_of(m, p, "spin_busy_pct"), 0.0);
        CU_ASSERT_EQUAL(out_of(m, p, "avail_spin_busy_pct"), 0.0);
    }
}

int zvp_test_register_sweetspot_bounds(void)
{
    CU_pSuite s = CU_add_suite("sweetspot_bounds", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "no_pageout", test_sweetspot_no_pageout) ||
        !CU_add_test(s, "throughput_bounds", test_sweetspot_throughput_bounds) ||
        !CU_add_test(s, "monotone", test_sweetspot_monotone) ||
        !CU_add_test(s, "sweep_sane", test_sweetspot_sweep_sane) ||
        !CU_add_test(s, "lock_crossing", test_sweetspot_lock_crossing))
        return (int)CU_get_error();
    return 0;
}
