/* tests/test_model.c - status codes, the registry, model files and the sweetspot model. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

/* ---- status ------------------------------------------------------------------------------ */

static void test_zvp_strerror_all_codes(void)
{
    for (int s = 0; s < ZVP_ENUM_STATUS; s++) {
        CU_ASSERT_PTR_NOT_NULL(zvp_strerror(s));
        CU_ASSERT(strcmp(zvp_strerror(s), "unknown status") != 0);
    }
    CU_ASSERT_STRING_EQUAL(zvp_strerror(12345), "unknown status");
}

static void test_zvp_version_matches_header(void)
{
    CU_ASSERT_EQUAL(zvp_version_number(), ZVP_VERSION_NUMBER);
    CU_ASSERT_STRING_EQUAL(zvp_version(), ZVP_VERSION_STRING);
}

int zvp_test_register_status(void)
{
    CU_pSuite s = CU_add_suite("status", NULL, NULL);
    if (!s || !CU_add_test(s, "strerror_all_codes", test_zvp_strerror_all_codes) ||
        !CU_add_test(s, "version_matches_header", test_zvp_version_matches_header))
        return 1;
    return 0;
}

/* ---- helpers ------------------------------------------------------------------------------ */

/* Sweetspot parameters for a pure lock experiment: N CPUs, one lock station only in the
 * paging cycle (other lock off), no page-out cap. */
static void lock_only(const zvp_model *m, double *p, double cpus, double zones, double z_over_s)
{
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "cpus", cpus);
    zvp_test_set_param(m, p, "lock_zones", zones);
    zvp_test_set_param(m, p, "avail_hold_us", 1.0);
    zvp_test_set_param(m, p, "cp_work_us", z_over_s);
    zvp_test_set_param(m, p, "other_hold_us", 0.0);
    zvp_test_set_param(m, p, "hold_scv", 1.0); /* exponential holds: MVA is exact */
    zvp_test_set_param(m, p, "users_per_phase", 1e6); /* every CPU has a user to run */
    zvp_test_set_param(m, p, "paging_volumes", 1e5); /* page-out capacity 1e14 pages/s: never binding */
    zvp_test_set_param(m, p, "io_overhead_ms", 0);
    zvp_test_set_param(m, p, "page_transfer_ms", 1e-6);
}

/* ---- registry and model files ------------------------------------------------------------- */

static void test_zvp_model_find_known_and_unknown(void)
{
    zvp_error err = {0};
    CU_ASSERT(zvp_model_count() >= 3);
    CU_ASSERT_PTR_NOT_NULL(zvp_model_find("sweetspot", &err));
    CU_ASSERT_PTR_NOT_NULL(zvp_model_find("mmc", &err));
    CU_ASSERT_PTR_NULL(zvp_model_find("nosuchmodel", &err));
    CU_ASSERT_EQUAL(err.status, ZVP_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nosuchmodel"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "sweetspot"));
    CU_ASSERT_PTR_NULL(zvp_model_at(zvp_model_count()));
}

static void test_zvp_model_descriptors_well_formed(void)
{
    for (size_t k = 0; k < zvp_model_count(); k++) {
        const zvp_model *m = zvp_model_at(k);
        double p[64];
        CU_ASSERT_FATAL(m->n_params <= 64);
        zvp_model_defaults(m, p);
        CU_ASSERT_EQUAL(zvp_model_check_params(m, p, NULL), ZVP_SUCCESS);
        for (size_t i = 0; i < m->n_params; i++) {
            CU_ASSERT(m->params[i].min <= m->params[i].default_value);
            CU_ASSERT(m->params[i].default_value <= m->params[i].max);
            CU_ASSERT(m->params[i].unit && m->params[i].description);
        }
        for (size_t i = 0; i < m->n_outputs; i++)
            CU_ASSERT(m->outputs[i].unit && m->outputs[i].unit[0]);
    }
}

static void test_zvp_model_eval_rejects_bad_input(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], out[64];
    zvp_error err = {0};
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "cpus", -4);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, out, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cpus"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "-4"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "[1, 4096]"));
    CU_ASSERT(isnan(out[0]));
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "storage_gb", NAN);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, out, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "storage_gb"));
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "cpus", 63.5);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, out, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "integer"));
}

static void test_zvp_model_file_round_trip(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    zvp_error err = {0};
    zvp_model_file *a = zvp_model_file_new(m), *b = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(zvp_model_file_set(a, "storage_gb", 1536, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_model_file_set(a, "avail_hold_us", 5.123456789012, &err), ZVP_SUCCESS);
    zvp_model_file_set_stderr(a, 7, 0.25);
    CU_ASSERT_EQUAL(zvp_model_file_set_provenance(a, "data_file", "x.csv", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_model_file_set_provenance(a, NULL, "x", &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_model_file_set_provenance(a, "k=v", "x", &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_model_file_set_provenance(a, "k", "two\nlines", &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_model_file_write(a, ZVP_TEST_TMPDIR "/rt.ini", &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/rt.ini", &b, &err), ZVP_SUCCESS);
    for (size_t i = 0; i < m->n_params; i++)
        CU_ASSERT_EQUAL(zvp_model_file_params(b)[i], zvp_model_file_params(a)[i]); /* exact */
    CU_ASSERT_DOUBLE_EQUAL(zvp_model_file_stderr(b, 7), 0.25, 1e-12);
    CU_ASSERT(isnan(zvp_model_file_stderr(b, 0)));
    CU_ASSERT_PTR_NOT_NULL(strstr(zvp_model_file_text(b), "data_file = x.csv"));
    zvp_model_file_free(a);
    zvp_model_file_free(b);
    zvp_model_file_free(NULL);
}

static void test_zvp_model_file_errors(void)
{
    zvp_error err = {0};
    zvp_model_file *mf = NULL;
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/does-not-exist.ini", &mf, &err), ZVP_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "does-not-exist.ini"));
    CU_ASSERT_PTR_NULL(mf);

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad1.ini", "[model]\nname = sweetspot\n[parameters]\nthis line is broken\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad1.ini", &mf, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, ":4:"));

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad2.ini", "[model]\nname = sweetspot\n[parameters]\nbogus_gb = 3\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad2.ini", &mf, &err), ZVP_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bogus_gb"));

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad3.ini", "[model]\nname = sweetspot\n[parameters]\nstorage_gb = -5\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad3.ini", &mf, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "storage_gb = -5"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "[1, 65536]"));

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad4.ini", "[model]\nname = sweetspot\n[parameters]\ncpus = lots\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad4.ini", &mf, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "lots"));

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad5.ini", "[model]\nname = nosuch\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad5.ini", &mf, &err), ZVP_ENOTFOUND);

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad7.ini", "[model]\nname = sweetspot\n[parameters]\ncpus = 4.5\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad7.ini", &mf, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cpus = 4.5 is not an integer"));

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad8.ini",
               "[model]\nname = sweetspot\n[parameters]\ncpus = 4\nstorage_gb = 8\ncpus = 8\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad8.ini", &mf, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cpus is given twice"));

    zvp_test_write_file(ZVP_TEST_TMPDIR "/bad6.ini", "[parameters]\ncpus = 4\n");
    CU_ASSERT_EQUAL(zvp_model_file_read(ZVP_TEST_TMPDIR "/bad6.ini", &mf, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(mf);
}

/* ---- sweetspot: the lock mechanism against independent closed forms ---------------------- */

/* One global lock, no cap, no other lock: the CM4 cycle is the machine-repairman model of
 * models/README.md B1: p0 = ErlangB(N, Z/S), U = 1 - p0, spinning CPUs Lq = N - U (1 + Z/S). */
static void test_zvp_sweetspot_single_lock_is_repairman(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], out[64];
    const unsigned cpus[] = {2, 8, 16, 64, 128};
    const double r[] = {3.0, 9.0, 40.0};
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
        for (size_t j = 0; j < 3; j++) {
            lock_only(m, p, cpus[i], 1, r[j]);
            CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
            double u = 1.0 - zvp_test_erlang_b(cpus[i], r[j]);
            double lq = cpus[i] - u * (1.0 + r[j]);
            ZVP_ASSERT_REL(zvp_test_output(m, out, "avail_spin_busy_pct"), 100.0 * lq, 1e-9);
            ZVP_ASSERT_REL(zvp_test_output(m, out, "etr"), u / 1e-6 / 1e3, 1e-9);
            ZVP_ASSERT_REL(zvp_test_output(m, out, "avail_lock_util_pct"), 100.0 * u, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(zvp_test_output(m, out, "busy_per_cpu_pct"), 100.0, 1e-12);
        }
}

/* models/README.md B2 worked example: N = 64, Z/S = 9: total spin 5400% on one lock, and with L
 * uniform zones 4443, 2760, 1012, 354, 148, 68 % (rounded there; 1% tolerance). */
static void test_zvp_sweetspot_zones_worked_example(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], out[64];
    const double zones[] = {1, 2, 4, 8, 16, 32, 64};
    const double spin[] = {5400, 4443, 2760, 1012, 354, 148, 68};
    for (size_t i = 0; i < 7; i++) {
        lock_only(m, p, 64, zones[i], 9.0);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        ZVP_ASSERT_REL(zvp_test_output(m, out, "avail_spin_busy_pct"), spin[i], 0.01);
        CU_ASSERT_EQUAL(zvp_test_output(m, out, "lock_zones_used"), zones[i]);
    }
}

/* Invariants: ITR = ETR / busy; spin grows with CPUs and shrinks with zones; more storage
 * with the same users never shortens a phase that pages. */
static void test_zvp_sweetspot_invariants(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], out[64], prev = -1;
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "users_per_phase", 1024); /* more users than CPUs: all CPUs run */
    for (double cpus = 8; cpus <= 256; cpus *= 2) {
        zvp_test_set_param(m, p, "cpus", cpus);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        ZVP_ASSERT_REL(zvp_test_output(m, out, "itr"),
                       zvp_test_output(m, out, "etr") / (zvp_test_output(m, out, "busy_per_cpu_pct") / 100),
                       1e-12);
        CU_ASSERT(zvp_test_output(m, out, "spin_busy_pct") > prev);
        CU_ASSERT(zvp_test_output(m, out, "spin_busy_pct") >= zvp_test_output(m, out, "avail_spin_busy_pct"));
        prev = zvp_test_output(m, out, "spin_busy_pct");
    }
    zvp_model_defaults(m, p);
    prev = INFINITY;
    for (double z = 1; z <= 128; z *= 2) {
        zvp_test_set_param(m, p, "lock_zones", z);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, out, "avail_spin_busy_pct") < prev);
        prev = zvp_test_output(m, out, "avail_spin_busy_pct");
    }
    /* zone rule of z/VM 6.4: lock_zones = 0 means min(cpus, zone_max) */
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "lock_zones", 0);
    zvp_test_set_param(m, p, "cpus", 16);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_test_output(m, out, "lock_zones_used"), 16);
    zvp_test_set_param(m, p, "cpus", 128);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_test_output(m, out, "lock_zones_used"), 64);
}

/* The page-out cap: with a cap below the lock/CPU limit, ETR equals the cap; the CPUs short
 * of frames retry unless their users defer; pages written in CM4 follow the frame count 4P - F
 * (3P <= F). */
static void test_zvp_sweetspot_paging_cap_and_frames(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], out[64];
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "storage_gb", 256);
    zvp_test_set_param(m, p, "users_per_phase", 88);
    zvp_test_set_param(m, p, "user_virtual_gb", 6.5);
    zvp_test_set_param(m, p, "touch_fraction", 0.21);
    /* one volume, one page per I/O of 1/150 ms: 150 kpages/s */
    zvp_test_set_param(m, p, "paging_volumes", 1);
    zvp_test_set_param(m, p, "pages_per_io", 1);
    zvp_test_set_param(m, p, "io_overhead_ms", 0);
    zvp_test_set_param(m, p, "page_transfer_ms", 1.0 / 150.0);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "etr"), 150.0, 1e-9);
    /* the CPUs short of frames retry (busy 100 %); users deferred free CPUs (busy < 100 %) */
    zvp_test_set_param(m, p, "defer_us", 0);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(zvp_test_output(m, out, "busy_per_cpu_pct"), 100.0, 1e-12);
    zvp_test_set_param(m, p, "defer_us", 2000);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT(zvp_test_output(m, out, "busy_per_cpu_pct") < 100.0);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "etr"), 150.0, 1e-9);
    double pages = 88 * 0.21 * 4.5 * 262144.0, frames = 256 * 262144.0;
    ZVP_ASSERT_REL(zvp_test_output(m, out, "cm4_pages_written_m"), (4 * pages - frames) / 1e6, 1e-12);
    /* CM4 takes at least its writes at the cap */
    CU_ASSERT(zvp_test_output(m, out, "cm4_priming_s") >= (4 * pages - frames) / 150e3);
    /* without any paging (lots of storage) CM1..CM4 take the same time */
    zvp_test_set_param(m, p, "storage_gb", 4096);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(zvp_test_output(m, out, "cm4_pages_written_m"), 0.0, 0.0);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "cm4_priming_s"), zvp_test_output(m, out, "cm1_priming_s"), 1e-12);
}

/* user_virtual_gb = 0 follows Table 1 of report 000: 6.5, 11, ..., 38 GiB at 256..2048 GiB. */
static void test_zvp_sweetspot_virtual_size_rule(void)
{
    const zvp_model *m = zvp_test_find_model("sweetspot");
    double p[64], a[64], b[64];
    const double storage[] = {256, 512, 768, 1024, 1280, 1536, 1792, 2048};
    const double virt[] = {6.5, 11, 15.5, 20, 24.5, 29, 33.5, 38}; /* Table 1 */
    zvp_error err = {0};
    for (size_t i = 0; i < 8; i++) {
        zvp_model_defaults(m, p);
        zvp_test_set_param(m, p, "storage_gb", storage[i]);
        zvp_test_set_param(m, p, "user_virtual_gb", 0);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, a, NULL), ZVP_SUCCESS);
        zvp_test_set_param(m, p, "user_virtual_gb", virt[i]);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, b, NULL), ZVP_SUCCESS);
        for (size_t j = 0; j < m->n_outputs; j++)
            CU_ASSERT_EQUAL(a[j], b[j]);
    }
    zvp_test_set_param(m, p, "user_virtual_gb", 1.5);
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, a, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "user_virtual_gb = 1.5"));
}

int zvp_test_register_model(void)
{
    CU_pSuite s = CU_add_suite("model", NULL, NULL);
    if (!s || !CU_add_test(s, "find_known_and_unknown", test_zvp_model_find_known_and_unknown) ||
        !CU_add_test(s, "descriptors_well_formed", test_zvp_model_descriptors_well_formed) ||
        !CU_add_test(s, "eval_rejects_bad_input", test_zvp_model_eval_rejects_bad_input) ||
        !CU_add_test(s, "model_file_round_trip", test_zvp_model_file_round_trip) ||
        !CU_add_test(s, "model_file_errors", test_zvp_model_file_errors) ||
        !CU_add_test(s, "sweetspot_single_lock_is_repairman", test_zvp_sweetspot_single_lock_is_repairman) ||
        !CU_add_test(s, "sweetspot_zones_worked_example", test_zvp_sweetspot_zones_worked_example) ||
        !CU_add_test(s, "sweetspot_invariants", test_zvp_sweetspot_invariants) ||
        !CU_add_test(s, "sweetspot_paging_cap_and_frames", test_zvp_sweetspot_paging_cap_and_frames) ||
        !CU_add_test(s, "sweetspot_virtual_size_rule", test_zvp_sweetspot_virtual_size_rule))
        return 1;
    return 0;
}
