/* tests/test_fsio.c - the fsio model (models/fsio.c): calibrated file against report 002's
 * stated percentages, mechanism invariants and the report's qualitative statements, a
 * closed-form point and bad input. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define DATA "../calibration/data/"
#define PARAMS "../calibration/params/"

/* Load the committed calibrated parameters into p. */
static void load_calibrated(const zvp_model *m, double *p)
{
    zvp_test_read_params(PARAMS "fsio-cid64-20.ini", "fsio", p, m->n_params);
}

/* Set the calibrated parameters to one level/variant. */
static void variant(const zvp_model *m, double *p, int direct, int high)
{
    load_calibrated(m, p);
    zvp_test_set_param(m, p, "direct_io", direct);
    zvp_test_set_param(m, p, "page_cache_gb", direct ? 0.29296875 : (high ? 10.0 : 6.0));
    zvp_test_set_param(m, p, "io_intensity", high ? 10.0 / 6.0 : 1.0);
}

/* (1) The calibrated file reproduces 002_fit_fsio.csv: every one of the 12 stated cells.
 * The cells printed without "about" (71, 8.5, 14.5, 9.8, 0.05, 0.14 %) within 4 % (relative;
 * the fit's largest residual is 1.8 %, on 0.05 %, which is rounded +- 10 %). The "about"
 * cells are written as their words state them, "X +- S" (66, 2.3, 3.4, 3.6 % +- 10 %; 0.4
 * and 0.3 % +- 0.05, half their last digit): each within its S. Before the data stated them
 * so they were checked within 4 % too; the refit weights every cell by its stated precision
 * (calibration/README.md, "Measurements as stated"), so the loosely stated paged-in shares
 * (0.4 and 0.3 %, one digit) now give way to the precise ones (0.354 and 0.347 %, within
 * +- 0.05). */
static int fsio_cell_met(const char *text, double fit)
{
    double x, s;
    char pct = 0;
    int n = sscanf(text, "%lf +- %lf%c", &x, &s, &pct);
    if (n >= 2)
        return fabs(fit - x) <= (pct == '%' ? 0.01 * s * fabs(x) : s);
    if (sscanf(text, "%lf", &x) == 1)
        return fabs(fit - x) <= 0.04 * fabs(x);
    return -1;
}

static void test_fsio_calibrated_rows(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    zvp_table *t = NULL;
    zvp_error err = {0};
    double p[64], o[64];
    static const char *cols[] = {"resident_share_pct", "dpa_share_pct", "page_read_share_pct",
                                 "paged_in_share_pct"};
    size_t checked = 0;
    CU_ASSERT_EQUAL_FATAL(zvp_table_read(DATA "002_fit_fsio.csv", &t, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_table_rows(t), 4);
    long c_dio = zvp_table_col_index(t, "direct_io", NULL);
    long c_pc = zvp_table_col_index(t, "page_cache_gb", NULL);
    long c_int = zvp_table_col_index(t, "io_intensity", NULL);
    CU_ASSERT_FATAL(c_dio >= 0 && c_pc >= 0 && c_int >= 0);
    for (size_t i = 0; i < zvp_table_rows(t); i++) {
        double dio = zvp_table_value(t, i, (size_t)c_dio);
        load_calibrated(m, p);
        zvp_test_set_param(m, p, "direct_io", dio);
        zvp_test_set_param(m, p, "page_cache_gb", zvp_table_value(t, i, (size_t)c_pc));
        zvp_test_set_param(m, p, "io_intensity", zvp_table_value(t, i, (size_t)c_int));
        zvp_test_eval_ok(m, p, o, "fsio");
        for (size_t c = 0; c < 4; c++) {
            long j = zvp_table_col_index(t, cols[c], &err);
            CU_ASSERT_FATAL(j >= 0);
            const char *text = zvp_table_text(t, i, (size_t)j);
            if (text[0] == '\0')
                continue;
            double fit = zvp_test_output(m, o, cols[c]);
            int met = fsio_cell_met(text, fit);
            if (met != 1)
                fprintf(stderr, "\n  fsio row %zu %s: model %g, report %s", i + 1, cols[c], fit,
                        text);
            CU_ASSERT_EQUAL(met, 1);
            checked++;
        }
    }
    CU_ASSERT_EQUAL(checked, 12);
    zvp_table_free(t);
}

/* (2) Invariants and the report's qualitative statements: direct I/O causes no significant
 * z/VM paging (page-read share far below the page-cached 2.3%) and keeps its throughput
 * under constraint while page-cached loses; the paged-in share falls from the medium to the
 * high level (report: about 0.4% and 0.3%); the direct-I/O resident memory grows faster than
 * the I/O rate (report: 0.05% -> 0.14% of the DPA, x2.8, for an I/O ratio of 10/6) and its
 * buffers stay resident however short z/VM's residency time; a longer residency time (more
 * memory) never lowers resident memory or throughput; resident <= instantiated; the high
 * level instantiates and keeps resident more than the medium one. */
static void test_fsio_invariants(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64], pc[64], dio[64];
    variant(m, p, 0, 0);
    zvp_test_eval_ok(m, p, pc, "fsio");
    variant(m, p, 1, 0);
    zvp_test_eval_ok(m, p, dio, "fsio");
    CU_ASSERT(zvp_test_output(m, dio, "page_read_share_pct") < 0.1);
    /* direct I/O has no file cache (C = 0: no dirty pool, no active cache, so no cache
     * references and P_miss = 0; buffers never miss): throughput_rel = 1 / (1 + 0) = 1 */
    ZVP_ASSERT_REL(zvp_test_output(m, dio, "throughput_rel"), 1.0, 1e-15);
    CU_ASSERT(zvp_test_output(m, pc, "throughput_rel") < zvp_test_output(m, dio, "throughput_rel"));
    CU_ASSERT(zvp_test_output(m, dio, "resident_share_pct") <
              zvp_test_output(m, pc, "resident_share_pct"));

    variant(m, p, 0, 1);
    zvp_test_eval_ok(m, p, o, "fsio");
    CU_ASSERT(zvp_test_output(m, o, "instantiated_gb") > zvp_test_output(m, pc, "instantiated_gb"));
    CU_ASSERT(zvp_test_output(m, o, "resident_gb") > zvp_test_output(m, pc, "resident_gb"));
    CU_ASSERT(zvp_test_output(m, o, "paged_in_share_pct") <
              zvp_test_output(m, pc, "paged_in_share_pct"));

    variant(m, p, 1, 1);
    zvp_test_eval_ok(m, p, o, "fsio");
    CU_ASSERT(zvp_test_output(m, o, "resident_gb") >
              (10.0 / 6.0) * zvp_test_output(m, dio, "resident_gb"));
    {
        /* report 002: direct-I/O resident memory 0.05 % (medium) and 0.14 % (high) of the
         * DPA, rounded to the shown digits: the ratio high/medium lies in
         * [0.135 / 0.055, 0.145 / 0.045] = [2.4545..., 3.2222...] (same DPA in both) */
        double ratio =
            zvp_test_output(m, o, "dpa_share_pct") / zvp_test_output(m, dio, "dpa_share_pct");
        CU_ASSERT(ratio >= 0.135 / 0.055 && ratio <= 0.145 / 0.045);
        ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_gb") /
                           zvp_test_output(m, dio, "resident_gb"),
                       ratio, 1e-14);
        if (!(ratio >= 0.135 / 0.055 && ratio <= 0.145 / 0.045))
            fprintf(stderr, "\n  fsio direct-I/O resident high/medium = %g", ratio);
    }
    CU_ASSERT(zvp_test_output(m, o, "io_in_progress") >
              (10.0 / 6.0) * zvp_test_output(m, dio, "io_in_progress"));
    {
        /* residency time -> 0: only the fixed buffers stay resident */
        double buffers = zvp_test_output(m, o, "io_in_progress") *
                         p[zvp_model_param_index(m, "buffer_gb", NULL)];
        zvp_test_set_param(m, p, "residency_s", 1e-6);
        zvp_test_eval_ok(m, p, o, "fsio");
        CU_ASSERT(zvp_test_output(m, o, "resident_gb") >= buffers);
        ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_gb"), buffers, 1e-6);
    }

    for (int direct = 0; direct <= 1; direct++) {
        double prev_res = 0.0, prev_thr = 0.0;
        for (double t = 1; t <= 1e5; t *= 3) {
            variant(m, p, direct, 1);
            zvp_test_set_param(m, p, "residency_s", t);
            zvp_test_eval_ok(m, p, o, "fsio");
            CU_ASSERT(zvp_test_output(m, o, "resident_gb") >= prev_res);
            CU_ASSERT(zvp_test_output(m, o, "throughput_rel") >= prev_thr);
            CU_ASSERT(zvp_test_output(m, o, "resident_gb") <=
                      zvp_test_output(m, o, "instantiated_gb") * (1 + 1e-15));
            prev_res = zvp_test_output(m, o, "resident_gb");
            prev_thr = zvp_test_output(m, o, "throughput_rel");
        }
    }
}

/* (3) Closed form at chosen points, computed independently with /usr/bin/python3 from the
 * header's equations (Che residency per class, M/M/1 L = rho / (1 - rho)).
 * Page-cached: page_cache 6, other 0.25, base 0.5, dirty pool 4 GiB (so 4 GiB dirty at
 * 50 s, 1.75 GiB active at 1 s, 0.75 GiB base at 1000 s), T = 100 s, other reads 1e4
 * pages/s, DPA 64 - 14 = 50 GiB, io_page 0.5 ms, page_read 5 ms: inst 6.5, resident
 * 5.2800308035265795, share 81.23124313117816, DPA share 10.56006160705316, page-read share
 * 23.171982230761028, paged-in 0.21790499242488118, throughput 0.9441417729991858.
 * Direct I/O, same otherwise, page_cache 0.25, storage_util 0.5, intensity 1.2 (rho 0.6,
 * L 1.5), buffer 0.1 GiB: inst 0.9, resident 0.22137193647303036, share 24.596881830336706,
 * DPA share 0.4427438729460607, page-read share 1.7478881226460725, paged-in
 * 0.3065555979403228, throughput 1. */
static void closed_form_params(const zvp_model *m, double *p)
{
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "direct_io", 0);
    zvp_test_set_param(m, p, "page_cache_gb", 6);
    zvp_test_set_param(m, p, "other_cache_gb", 0.25);
    zvp_test_set_param(m, p, "base_gb", 0.5);
    zvp_test_set_param(m, p, "dirty_pool_gb", 4);
    zvp_test_set_param(m, p, "residency_s", 100);
    zvp_test_set_param(m, p, "cache_reref_s", 50);
    zvp_test_set_param(m, p, "active_reref_s", 1);
    zvp_test_set_param(m, p, "base_reref_s", 1000);
    zvp_test_set_param(m, p, "other_page_reads_per_s", 1e4);
    zvp_test_set_param(m, p, "real_memory_gb", 64);
    zvp_test_set_param(m, p, "cp_memory_gb", 14);
    zvp_test_set_param(m, p, "io_page_ms", 0.5);
    zvp_test_set_param(m, p, "page_read_ms", 5);
    zvp_test_set_param(m, p, "storage_util", 0.5);
    zvp_test_set_param(m, p, "io_intensity", 1.2);
    zvp_test_set_param(m, p, "buffer_gb", 0.1);
}

static void test_fsio_closed_form(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64];
    closed_form_params(m, p);
    zvp_test_eval_ok(m, p, o, "fsio");
    ZVP_ASSERT_REL(zvp_test_output(m, o, "instantiated_gb"), 6.5, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_gb"), 5.2800308035265795, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_share_pct"), 81.23124313117816, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "dpa_share_pct"), 10.56006160705316, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "page_read_share_pct"), 23.171982230761028, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "paged_in_share_pct"), 0.21790499242488118, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "throughput_rel"), 0.9441417729991858, 1e-12);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "io_in_progress"), 0.0);

    closed_form_params(m, p);
    zvp_test_set_param(m, p, "direct_io", 1);
    zvp_test_set_param(m, p, "page_cache_gb", 0.25);
    zvp_test_eval_ok(m, p, o, "fsio");
    ZVP_ASSERT_REL(zvp_test_output(m, o, "io_in_progress"), 1.5, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "instantiated_gb"), 0.9, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_gb"), 0.22137193647303036, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "resident_share_pct"), 24.596881830336706, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "dpa_share_pct"), 0.4427438729460607, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "page_read_share_pct"), 1.7478881226460725, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "paged_in_share_pct"), 0.3065555979403228, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "throughput_rel"), 1.0, 1e-15);
}

/* (4) Bad input, and no steady state when the direct-I/O storage path saturates. */
static void test_fsio_bad_input(void)
{
    const zvp_model *m = zvp_test_find_model("fsio");
    double p[64], o[64];
    zvp_error err = {0};
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "direct_io", 0.5);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, o, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "direct_io"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "0.5"));
    CU_ASSERT(isnan(o[0]));

    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "cp_memory_gb", 64);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, o, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cp_memory_gb"));

    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "residency_s", -1);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, o, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "residency_s"));

    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "storage_util", 1.5);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, o, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "storage_util"));

    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "page_cache_gb", 0.1);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, o, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "page_cache_gb"));

    /* rho = 0.5 x 2 = 1: the M/M/1 storage path has no steady state */
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "direct_io", 1);
    zvp_test_set_param(m, p, "page_cache_gb", 0.29296875);
    zvp_test_set_param(m, p, "storage_util", 0.5);
    zvp_test_set_param(m, p, "io_intensity", 2);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, o, &err), ZVP_EUNSTABLE);
    CU_ASSERT(isnan(o[0]));
}

int zvp_test_register_fsio(void)
{
    CU_pSuite s = CU_add_suite("fsio", NULL, NULL);
    if (!s)
        return CU_get_error();
    if (!CU_add_test(s, "calibrated file reproduces report 002 rows", test_fsio_calibrated_rows) ||
        !CU_add_test(s, "invariants and qualitative statements", test_fsio_invariants) ||
        !CU_add_test(s, "closed form", test_fsio_closed_form) ||
        !CU_add_test(s, "bad input", test_fsio_bad_input))
        return CU_get_error();
    return 0;
}
