/* tests/test_fsio.c - the fsio model (models/fsio.c): the closed direct-I/O loop against
 * exact MVA by hand, the characteristic time of the DPA against an independent computation,
 * and bad input. Sweeps over real memory: tests/test_memhost.c; the report's statements:
 * calibration/claims/002_fsio.csv. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define PARAMS "../calibration/params/"

/* A page-cached guest alone with the rest of the workload set (other_gb = 50, re-referenced
 * every 200 s) on a DPA of 40 GiB: T solves sum_j S_j (1 - e^{-T/r_j}) = 40 (bisection here),
 * resident share and page reads follow. */
static void test_fsio_char_time(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64];
    const double S[4] = {4.0, 1.7070, 0.4 + 0.29296875, 50.0}, r[4] = {100.0, 0.2, 1e9, 200.0};
    double lo = 0.0, hi = 1e12, t, res = 0.0, inst = 0.0, reads = 0.0;
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "page_cache_gb", 4.0 + 1.7070 + 0.29296875);
    zvp_test_set_param(m, p, "dirty_pool_gb", 4.0);
    zvp_test_set_param(m, p, "cache_reref_s", 100);
    zvp_test_set_param(m, p, "other_gb", 50);
    zvp_test_set_param(m, p, "other_reref_s", 200);
    zvp_test_set_param(m, p, "real_memory_gb", 52);
    zvp_test_set_param(m, p, "cp_memory_gb", 12);
    zvp_test_eval_ok(m, p, o, "fsio page-cached");
    for (int i = 0; i < 300; i++) {
        const double mid = 0.5 * (lo + hi);
        double f = 0.0;
        for (int j = 0; j < 4; j++)
            f += S[j] * (1 - exp(-mid / r[j]));
        if (f < 40.0)
            lo = mid;
        else
            hi = mid;
    }
    t = 0.5 * (lo + hi);
    for (int j = 0; j < 3; j++) {
        inst += S[j];
        res += S[j] * (1 - exp(-t / r[j]));
        reads += S[j] * 262144.0 * exp(-t / r[j]) / r[j];
    }
    ZVP_ASSERT_REL(zvp_test_output(m, o, "char_time_s"), t, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_share_pct"), 100.0 * res / inst, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "dpa_share_pct"), 100.0 * res / 40.0, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "page_reads_per_s"), reads, 1e-8);
}

/* Direct I/O: N = 6 jobs, device demand 0.3, rest of the cycle 0.7 (device_share 0.3); exact
 * MVA by hand for the mean number at the device; the buffers in flight are that times
 * buffer_gb. Unconstrained memory: throughput_rel = 1. */
static void test_fsio_closed_loop(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64], q = 0.0, x = 0.0;
    for (int n = 1; n <= 6; n++) {
        const double rdev = 0.3 * (1.0 + q);
        x = n / (rdev + 0.7);
        q = x * rdev;
    }
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "direct_io", 1);
    zvp_test_set_param(m, p, "queue_depth", 6);
    zvp_test_set_param(m, p, "device_share", 0.3);
    zvp_test_set_param(m, p, "real_memory_gb", 1e5);
    zvp_test_eval_ok(m, p, o, "fsio direct I/O");
    ZVP_ASSERT_REL(zvp_test_output(m, o, "io_in_progress"), q, 1e-12);
    CU_ASSERT(zvp_test_output(m, o, "io_in_progress") <= 6.0);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "throughput_rel"), 1.0, 1e-12);
}

/* Hand MVA of the closed loop: mean jobs at the device (demand sh, rest of the cycle 1 - sh). */
static double fsio_hand_l(int n, double sh)
{
    double q = 0.0;
    for (int k = 1; k <= n; k++) {
        const double rdev = sh * (1.0 + q);
        q = k / (rdev + 1.0 - sh) * rdev;
    }
    return q;
}

/* Identification of device_share (calibration/fits/fsio-cid64-20.ini): the buffers in flight
 * grow L(10) / L(6) from the medium to the high level (6 -> 10 jobs). Over device_share the
 * ratio has one maximum, 2.69 near 0.13, below the 0.14 / 0.05 = 2.8 the report's DPA shares
 * give (2.55 at their rounding ends): a fit sits at the flat top, where device_share is not
 * identified; over the text's bracket 0.1..1/6 (knee between 6 and 10 jobs) the ratio stays
 * within 3.6 % of the top. The model's io_in_progress against the hand MVA at every point. */
static void test_fsio_loop_ratio(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64], top = 0.0, top_sh = 0.0;
    for (int i = 1; i < 100; i++) {
        const double sh = i / 100.0;
        double l6, l10;
        zvp_model_defaults(m, p);
        zvp_test_set_param(m, p, "direct_io", 1);
        zvp_test_set_param(m, p, "queue_depth", 6);
        zvp_test_set_param(m, p, "device_share", sh);
        zvp_test_set_param(m, p, "real_memory_gb", 1e5);
        zvp_test_eval_ok(m, p, o, "fsio loop medium");
        l6 = zvp_test_output(m, o, "io_in_progress");
        zvp_test_set_param(m, p, "io_intensity", 10.0 / 6.0);
        zvp_test_eval_ok(m, p, o, "fsio loop high");
        l10 = zvp_test_output(m, o, "io_in_progress");
        ZVP_ASSERT_REL(l6, fsio_hand_l(6, sh), 1e-12);
        ZVP_ASSERT_REL(l10, fsio_hand_l(10, sh), 1e-9);
        if (l10 / l6 > top) {
            top = l10 / l6;
            top_sh = sh;
        }
    }
    CU_ASSERT(top < 2.8 && top > 2.6);
    CU_ASSERT(top_sh >= 0.12 && top_sh <= 0.14);
    CU_ASSERT(fsio_hand_l(10, 0.1) / fsio_hand_l(6, 0.1) > 0.964 * top);
    CU_ASSERT(fsio_hand_l(10, 1.0 / 6.0) / fsio_hand_l(6, 1.0 / 6.0) > 0.964 * top);
}

/* The calibrated point has no knife-edge (issue 14; `zvmperf sensitivity`): at each of the
 * fit's four rows, every fitted output's elasticity to every parameter stays within 3 in
 * magnitude. The largest, paged_in_share_pct to real_memory_gb (about -3.0 at the medium
 * page-cached row), is Che's: a paged-in fraction falls as -lambda T / (1 - exp(-lambda T))
 * with T, and T moves 1.3-1.7 % per 1 % of real memory; it must stay negative. */
static void test_fsio_no_knife_edge(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    static const double rows[4][3] = {{0, 6, 1}, {0, 10, 10.0 / 6.0}, {1, 0.29296875, 1},
                                      {1, 0.29296875, 10.0 / 6.0}};
    static const char *const fitted[] = {"resident_share_pct", "dpa_share_pct",
                                         "page_read_share_pct", "paged_in_share_pct"};
    double p[64], e[64 * 64];
    zvp_error err;
    CU_ASSERT_FATAL(m->n_params <= 64 && m->n_outputs <= 64);
    for (int r = 0; r < 4; r++) {
        zvp_test_read_params(PARAMS "fsio-cid64-20.ini", "fsio", p, m->n_params);
        zvp_test_set_param(m, p, "direct_io", rows[r][0]);
        zvp_test_set_param(m, p, "page_cache_gb", rows[r][1]);
        zvp_test_set_param(m, p, "io_intensity", rows[r][2]);
        CU_ASSERT_EQUAL_FATAL(zvp_sensitivity(m, p, 0.0, e, NULL, NULL, &err), ZVP_SUCCESS);
        for (size_t j = 0; j < m->n_outputs; j++) {
            int is_fitted = 0;
            for (int f = 0; f < 4; f++)
                is_fitted |= strcmp(m->outputs[j].name, fitted[f]) == 0;
            /* the direct-I/O rows fit only the two shares (no page reads stated) */
            if (!is_fitted || (rows[r][0] == 1 && strstr(m->outputs[j].name, "page") != NULL))
                continue;
            for (size_t k = 0; k < m->n_params; k++) {
                const double x = e[j * m->n_params + k];
                if (!isnan(x) && fabs(x) > 3.0) {
                    fprintf(stderr, "\nknife-edge: row %d, %s to %s: %g\n", r,
                            m->outputs[j].name, m->params[k].name, x);
                    CU_FAIL("knife-edge at the calibrated point");
                }
            }
        }
        if (r == 0) {
            const size_t j = 5, k = 3; /* paged_in_share_pct, real_memory_gb */
            CU_ASSERT_STRING_EQUAL(m->outputs[j].name, "paged_in_share_pct");
            CU_ASSERT_STRING_EQUAL(m->params[k].name, "real_memory_gb");
            CU_ASSERT(e[j * m->n_params + k] < -1.0);
        }
    }
}

/* Che's characteristic time falls from the medium to the high page-cached level by at least
 * (res_high - res_medium) / (DPA - res_medium): the rest of the workload set gives up what the
 * guest gains, and its resident memory R(T) = sum n_j (1 - e^{-T / r_j}) is concave with
 * R(0) = 0, so R(T_h) >= R(T_m) T_h / T_m. With the report's two DPA shares (8.5, 14.5 %)
 * that bound is (14.5 - 8.5) / (100 - 8.5) = 6.6 %, whatever the parameters: the fall of T
 * that lowers the high level's resident fraction is implied by the data, not by other_gb
 * (models/README.md, fsio: why the dirty pool is a knee). Checked at the calibrated point and
 * with the rest of the workload set at the ends of its range. */
static void test_fsio_t_fall(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    static const double other[3] = {0.0, 64.0, 256.0}; /* 0: as calibrated */
    double p[64], o[64], t[2], res[2], dpa = 0.0;
    for (int g = 0; g < 3; g++) {
        for (int lv = 0; lv < 2; lv++) {
            zvp_test_read_params(PARAMS "fsio-cid64-20.ini", "fsio", p, m->n_params);
            if (other[g] > 0.0)
                zvp_test_set_param(m, p, "other_gb", other[g]);
            zvp_test_set_param(m, p, "direct_io", 0);
            zvp_test_set_param(m, p, "page_cache_gb", lv ? 10.0 : 6.0);
            zvp_test_set_param(m, p, "io_intensity", lv ? 10.0 / 6.0 : 1.0);
            zvp_test_eval_ok(m, p, o, "fsio page-cached level");
            t[lv] = zvp_test_output(m, o, "char_time_s");
            res[lv] = zvp_test_output(m, o, "resident_gb");
            dpa = zvp_test_output(m, o, "dpa_gb");
        }
        CU_ASSERT(res[1] > res[0]);
        CU_ASSERT(1.0 - t[1] / t[0] >= (res[1] - res[0]) / (dpa - res[0]) * (1.0 - 1e-9));
        /* the calibrated point: the guest gains about 6 % of the DPA */
        if (g == 0)
            CU_ASSERT(1.0 - t[1] / t[0] > 0.05);
    }
}

/* A parameter's value by name. */
static double fsio_param(const zvp_model *m, const double *p, const char *name)
{
    for (size_t k = 0; k < m->n_params; k++)
        if (strcmp(m->params[k].name, name) == 0)
            return p[k];
    CU_FAIL("no such fsio parameter");
    return NAN;
}

/* A saturated paging DASD has no steady state (the model contract): the page reads are an open
 * demand, so at an offered load >= paging_volumes the model returns ZVP_EUNSTABLE naming the
 * load, not throughput 0 with status ok (issue 14 review, item 4). The review's cases: the
 * calibrated point on 256 volumes at 2 ms (the rest of the workload set alone offers about 354
 * busy volumes), the same for the direct-I/O high level (its page-cached companion saturates),
 * and a 20 GiB cache at half the intensity on 24 GiB. Just below, at 24.45 GiB, the model is
 * ok and its throughput is checked against M/M/c by hand (Erlang C from Erlang B): with the
 * total reads from the guest's reads and its share, p_miss = e^(-T / cache_reref_s). */
static void test_fsio_saturated_paging(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64], reads, lambda, a, b, c_wait, w, pm, thr;
    const double c = 1024.0, s = 0.5e-3;
    zvp_test_read_params(PARAMS "fsio-cid64-20.ini", "fsio", p, m->n_params);
    zvp_test_set_param(m, p, "paging_volumes", 256);
    zvp_test_set_param(m, p, "dasd_read_ms", 2);
    zvp_test_expect_eval_error(m, p, o, ZVP_EUNSTABLE, "saturated", "paging_volumes = 256",
                               NULL);
    zvp_test_set_param(m, p, "direct_io", 1);
    zvp_test_set_param(m, p, "page_cache_gb", 0.29296875);
    zvp_test_set_param(m, p, "io_intensity", 10.0 / 6.0);
    zvp_test_expect_eval_error(m, p, o, ZVP_EUNSTABLE, "saturated", "paging_volumes = 256",
                               NULL);
    zvp_test_read_params(PARAMS "fsio-cid64-20.ini", "fsio", p, m->n_params);
    CU_ASSERT_EQUAL(fsio_param(m, p, "paging_volumes"), c);
    zvp_test_set_param(m, p, "page_cache_gb", 20);
    zvp_test_set_param(m, p, "io_intensity", 0.5);
    zvp_test_set_param(m, p, "real_memory_gb", 24);
    zvp_test_expect_eval_error(m, p, o, ZVP_EUNSTABLE, "saturated", "real_memory_gb = 24",
                               NULL);
    zvp_test_set_param(m, p, "real_memory_gb", 24.45);
    zvp_test_eval_ok(m, p, o, "fsio near saturation");
    reads = zvp_test_output(m, o, "page_reads_per_s");
    lambda = reads / (zvp_test_output(m, o, "page_read_share_pct") / 100.0);
    a = lambda * s;
    CU_ASSERT(a < c);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "paging_util_pct"), 100.0 * a / c, 1e-9);
    b = zvp_test_erlang_b(1024, a);
    c_wait = b / (1.0 - a / c * (1.0 - b));
    w = s + c_wait / (c / s - lambda);
    pm = exp(-zvp_test_output(m, o, "char_time_s") / fsio_param(m, p, "cache_reref_s"));
    thr = 1.0 / (1.0 + pm * w * 1e3 / fsio_param(m, p, "io_page_ms"));
    ZVP_ASSERT_REL(zvp_test_output(m, o, "throughput_rel"), thr, 1e-6);
    CU_ASSERT(thr > 0.3 && thr < 0.7);
}

static void test_fsio_bad_input(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64];
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "cp_memory_gb", 100);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "cp_memory_gb", "100", NULL);
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "page_cache_gb", 0.1);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "page_cache_gb", NULL);
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "direct_io", 1);
    zvp_test_set_param(m, p, "buffer_gb", 1e4);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "buffer_gb", "DPA", NULL);
}

int zvp_test_register_fsio(void)
{
    CU_pSuite s = CU_add_suite("fsio", NULL, NULL);
    if (!s)
        return CU_get_error();
    if (!CU_add_test(s, "characteristic time of the DPA", test_fsio_char_time) ||
        !CU_add_test(s, "direct I/O closed loop (exact MVA)", test_fsio_closed_loop) ||
        !CU_add_test(s, "closed-loop ratio 10 / 6 jobs: one flat maximum", test_fsio_loop_ratio) ||
        !CU_add_test(s, "no knife-edge at the calibrated point", test_fsio_no_knife_edge) ||
        !CU_add_test(s, "T falls from the medium to the high level (Che, concave)",
                     test_fsio_t_fall) ||
        !CU_add_test(s, "saturated paging DASD: no steady state", test_fsio_saturated_paging) ||
        !CU_add_test(s, "bad input", test_fsio_bad_input))
        return CU_get_error();
    return 0;
}
