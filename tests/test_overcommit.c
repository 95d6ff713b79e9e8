/* tests/test_overcommit.c - the overcommit model (models/overcommit.c): mechanism invariants
 * of the CMMA page states and the VMRM-CMM loop, a no-overcommitment closed form and bad
 * input. The report's statements are claims (calibration/claims/001_overcommit.csv); the
 * shared core and the sweeps are in tests/test_memhost.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define PARAMS "../calibration/params/"

static void eval_cfg(const zvp_model *m, double cmm, double cmma, double *o)
{
    double p[64];
    zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
    zvp_test_set_param(m, p, "cmm", cmm);
    zvp_test_set_param(m, p, "cmma", cmma);
    zvp_test_eval_ok(m, p, o, "overcommit");
}

/* CMMA states: discards and fresh-frame (unused) faults exist only with CMMA; the VMRM loop
 * balloons only with CMM; CMMA lowers VMRM's paging signal, so the combined balloon is not
 * larger than VMRM-CMM's alone. */
static void test_overcommit_states(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double o53[64], ocmm[64], ocmma[64], oboth[64];
    eval_cfg(m, 0, 0, o53);
    eval_cfg(m, 1, 0, ocmm);
    eval_cfg(m, 0, 1, ocmma);
    eval_cfg(m, 1, 1, oboth);
    CU_ASSERT_EQUAL(zvp_test_output(m, o53, "discard_faults_per_s"), 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, o53, "unused_faults_per_s"), 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, ocmm, "discard_faults_per_s"), 0.0);
    CU_ASSERT(zvp_test_output(m, ocmma, "discard_faults_per_s") > 0.0);
    CU_ASSERT(zvp_test_output(m, ocmma, "unused_faults_per_s") > 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, o53, "balloon_gb"), 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, ocmma, "balloon_gb"), 0.0);
    CU_ASSERT(zvp_test_output(m, oboth, "balloon_gb") <=
              zvp_test_output(m, ocmm, "balloon_gb") * (1 + 1e-12));
    /* the baseline is itself: ratio 1 */
    ZVP_ASSERT_REL(zvp_test_output(m, o53, "throughput_rel"), 1.0, 1e-12);
}

/* CMMA steals before it discards: fresh frames (reallocated free pages whose frame CP stole)
 * cannot exceed the free pages' reallocation rate, the discarded classes never reach DASD (page
 * space not above z/VM 5.3's), and with main storage for everything there is no fresh frame at
 * all. The virtual CPUs wait for guest reads, so 30 of them on 10 processors stay below 1000 %. */
static void test_overcommit_cmma_steal(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o53[64], oc[64], ocmm[64], o[64];
    long iu, iv, ir;
    zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
    iu = zvp_model_param_index(m, "unused_share", NULL);
    iv = zvp_model_param_index(m, "guest_virtual_gb", NULL);
    ir = zvp_model_param_index(m, "unused_reref_s", NULL);
    CU_ASSERT_FATAL(iu >= 0 && iv >= 0 && ir >= 0);
    eval_cfg(m, 0, 0, o53);
    eval_cfg(m, 0, 1, oc);
    eval_cfg(m, 1, 0, ocmm);
    CU_ASSERT(zvp_test_output(m, oc, "unused_faults_per_s") <=
              zvp_test_output(m, oc, "throughput_per_s") * p[iu] * p[iv] * 262144.0 / p[ir]);
    CU_ASSERT(zvp_test_output(m, oc, "dasd_page_space_gb") <=
              zvp_test_output(m, o53, "dasd_page_space_gb"));
    ZVP_ASSERT_REL(zvp_test_output(m, oc, "page_moves_decrease_pct"),
                   100.0 * (1.0 - zvp_test_output(m, oc, "page_moves_rel")), 1e-12);
    CU_ASSERT(zvp_test_output(m, ocmm, "cpu_util_pct") < 1000.0);
    zvp_test_set_param(m, p, "cmma", 1);
    zvp_test_set_param(m, p, "guests", 4);
    zvp_test_eval_ok(m, p, o, "4 guests fit");
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "unused_faults_per_s"), 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "discard_faults_per_s"), 0.0);
}

/* No overcommitment: 2 guests of 16 GiB on 80 GiB, no XSTOR: nothing pages, and with no guest
 * I/O and no think time the 6 virtual CPUs on 10 processors run flat out: X = 6 CPU-s/s. */
static void test_overcommit_closed_form(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o[64];
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "guests", 2);
    zvp_test_set_param(m, p, "xstor_gb", 0);
    zvp_test_set_param(m, p, "file_reads_per_s", 0);
    zvp_test_set_param(m, p, "think_s", 0);
    zvp_test_set_param(m, p, "cmm", 1);
    zvp_test_set_param(m, p, "balloon_churn", 0);
    zvp_test_eval_ok(m, p, o, "no overcommitment");
    ZVP_ASSERT_REL(zvp_test_output(m, o, "throughput_per_s"), 6.0, 1e-9);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "host_page_ins_per_s"), 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "dasd_page_space_gb"), 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "balloon_gb"), 0.0);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "cpu_util_pct"), 600.0, 1e-9);
}

/* The guest's own page replacement (Che inside the guest): one guest that the host backs whole
 * (1000 GiB), a tiny hot working set and a file set of 64 GiB read uniformly at 100 pages per
 * CPU-second. The guest keeps 5 % of its 16 GiB free, so its page cache holds
 * c = 15.2 - 0.001 GiB of the file set and, with one re-reference rate, a read hits with
 * probability c / 64 (uniform access): guest reads per unit of work = 100 (1 - c / 64). */
static void test_overcommit_guest_lru(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o[64];
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "guests", 1);
    zvp_test_set_param(m, p, "real_memory_gb", 1000);
    zvp_test_set_param(m, p, "working_set_gb", 0.001);
    zvp_test_set_param(m, p, "file_set_gb", 64);
    zvp_test_set_param(m, p, "file_reads_per_s", 100);
    zvp_test_set_param(m, p, "reref_spread", 1);
    zvp_test_eval_ok(m, p, o, "guest LRU");
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "host_page_ins_per_s"), 0.0);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "guest_io_per_s") /
                       zvp_test_output(m, o, "throughput_per_s"),
                   100.0 * (1.0 - (0.95 * 16.0 - 0.001) / 64.0), 1e-9);
}

static void test_overcommit_bad_input(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o[64];
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "guests", 2.5);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "guests", "2.5", NULL);
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "cp_memory_gb", 90);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "cp_memory_gb", "90", NULL);
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "unused_share", 0.5);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "unused_share", NULL);
}

int zvp_test_register_overcommit(void)
{
    CU_pSuite s = CU_add_suite("overcommit", NULL, NULL);
    if (!s)
        return CU_get_error();
    if (!CU_add_test(s, "CMMA states and the VMRM loop", test_overcommit_states) ||
        !CU_add_test(s, "CMMA steals before it discards; CPU below the processors",
                     test_overcommit_cmma_steal) ||
        !CU_add_test(s, "closed form without overcommitment", test_overcommit_closed_form) ||
        !CU_add_test(s, "the guest's own LRU: uniform file access", test_overcommit_guest_lru) ||
        !CU_add_test(s, "bad input", test_overcommit_bad_input))
        return CU_get_error();
    return 0;
}
