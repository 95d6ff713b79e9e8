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

/* The virtual CPUs as a finite-source M/M/c (the model) against exact MVA of the same network
 * (a multi-server station and the think time): 4 guests x 3 vCPUs on 4 processors, think
 * 0.5 s per CPU-second, nothing pages (no XSTOR, no file reads, 1000 GiB): demand 1 s. */
static void test_overcommit_network_mva(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    const zvp_station st = {ZVP_STATION_MULTI, 4, 1, 0, 1.0};
    double p[64], o[64], q, r, u;
    zvp_mva_result res = {0, 0, &r, &q, &u};
    zvp_error err = {0};
    zvp_model_defaults(m, p);
    zvp_test_set_param(m, p, "guests", 4);
    zvp_test_set_param(m, p, "processors", 4);
    zvp_test_set_param(m, p, "real_memory_gb", 1000);
    zvp_test_set_param(m, p, "xstor_gb", 0);
    zvp_test_set_param(m, p, "file_reads_per_s", 0);
    zvp_test_set_param(m, p, "think_s", 0.5);
    zvp_test_set_param(m, p, "balloon_churn", 0);
    zvp_test_eval_ok(m, p, o, "network against MVA");
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(&st, 1, 0.5, 12, &res, NULL, &err), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, o, "throughput_per_s"), res.throughput_per_s, 1e-9);
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

/* The calibrated file with one configuration changed (cmm, cmma, guests, working set, paging
 * volumes, real memory); guest_virtual_gb stays 16 GiB (the balloon's room). */
static int eval_at(const zvp_model *m, double cmm, double cmma, double guests, double ws,
                   double volumes, double mem, double *o)
{
    double p[64];
    zvp_error err = {0};
    int st;
    zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
    zvp_test_set_param(m, p, "cmm", cmm);
    zvp_test_set_param(m, p, "cmma", cmma);
    zvp_test_set_param(m, p, "guests", guests);
    zvp_test_set_param(m, p, "working_set_gb", ws);
    zvp_test_set_param(m, p, "paging_volumes", volumes);
    zvp_test_set_param(m, p, "real_memory_gb", mem);
    st = zvp_model_eval(m, p, o, &err);
    if (st != ZVP_SUCCESS)
        fprintf(stderr, "\n  overcommit cmm %g cmma %g guests %g ws %g volumes %g mem %g: %s", cmm,
                cmma, guests, ws, volumes, mem, err.message);
    return st;
}

/* The review's two cases (VMRM-CMM, one paging volume, real memory 48 -> 64 GiB): 100 guests
 * with 1 GiB working sets and 20 guests with 4 GiB. The old loop held its per-work signal and
 * released balloon into a saturated paging DASD (7.63/s -> 2.54/s; -13 %). More memory must
 * not lower the throughput or raise the host's paging (per unit of work and per second), and
 * VMRM must not release into a saturated paging DASD. */
static void test_overcommit_review_cases(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    const double cases[2][2] = {{100, 1}, {20, 4}};
    for (int c = 0; c < 2; c++) {
        double lo[64], hi[64];
        CU_ASSERT_EQUAL_FATAL(eval_at(m, 1, 0, cases[c][0], cases[c][1], 1, 48, lo), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(eval_at(m, 1, 0, cases[c][0], cases[c][1], 1, 64, hi), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, hi, "throughput_per_s") >=
                  zvp_test_output(m, lo, "throughput_per_s") * (1 - 1e-9));
        CU_ASSERT(zvp_test_output(m, hi, "page_ins_per_work") <=
                  zvp_test_output(m, lo, "page_ins_per_work") * (1 + 1e-9));
        CU_ASSERT(zvp_test_output(m, hi, "host_page_ins_per_s") <=
                  zvp_test_output(m, lo, "host_page_ins_per_s") * (1 + 1e-9));
        CU_ASSERT(zvp_test_output(m, hi, "paging_util_pct") <=
                  zvp_test_output(m, lo, "paging_util_pct") * (1 + 1e-9));
        fprintf(stderr, "\n  review case %d: X %g -> %g /s, paging %g -> %g %%", c,
                zvp_test_output(m, lo, "throughput_per_s"),
                zvp_test_output(m, hi, "throughput_per_s"),
                zvp_test_output(m, lo, "paging_util_pct"),
                zvp_test_output(m, hi, "paging_util_pct"));
    }
}

/* Sweeps of real memory (8 -> 512 GiB, x 1.5) at guests 2..100 (working sets 8.9 GiB down to
 * 1 GiB), 1, 4 and 16 paging volumes, CMM and CMMA on and off: throughput never falls; paging
 * never rises: page reads from the paging DASD per unit of work and per second, the paging
 * DASD's utilization and, without CMM, all host page-ins per unit of work and the DASD page
 * space (with CMM, XSTOR
 * page-ins per unit of work may rise: VMRM's signal is the DASD page wait; models/README.md);
 * CMM never raises DASD page space (against the same point without CMM). Host page-ins per
 * second (XSTOR included) are not bounded: where the paging DASD is the bottleneck its reads per
 * second stay near its capacity while the throughput, and the XSTOR page-ins with it, grow. */
static void test_overcommit_memory_sweep(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    const double cfg[5][2] = {{2, 8.9375}, {10, 8.9375}, {20, 4}, {40, 2}, {100, 1}};
    const double vols[3] = {1, 4, 16};
    int bad = 0;
    for (int g = 0; g < 5; g++)
        for (int v = 0; v < 3; v++)
            for (int mode = 0; mode < 4; mode++) {
                const double cmm = mode & 1, cmma = mode >> 1;
                double px = 0.0, pv[5] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY},
                       o[64], o0[64];
                for (double mem = 8.0; mem <= 512.0; mem *= 1.5) {
                    double x, v4[5];
                    if (eval_at(m, cmm, cmma, cfg[g][0], cfg[g][1], vols[v], mem, o) !=
                        ZVP_SUCCESS) {
                        bad++;
                        continue;
                    }
                    x = zvp_test_output(m, o, "throughput_per_s");
                    v4[0] = zvp_test_output(m, o, "page_ins_per_work");
                    v4[1] = zvp_test_output(m, o, "xstor_to_dasd_per_s") / x;
                    v4[2] = zvp_test_output(m, o, "xstor_to_dasd_per_s");
                    v4[3] = zvp_test_output(m, o, "paging_util_pct");
                    v4[4] = cmm == 1.0 ? 0.0 : zvp_test_output(m, o, "dasd_page_space_gb");
                    for (int k = cmm == 1.0 ? 1 : 0; k < 5; k++)
                        if (v4[k] > pv[k] * (1 + 1e-7) + 1e-12) {
                            bad++;
                            fprintf(stderr,
                                    "\n  guests %g volumes %g cmm %g cmma %g mem %g: paging "
                                    "measure %d %.9g (prev %.9g)",
                                    cfg[g][0], vols[v], cmm, cmma, mem, k, v4[k], pv[k]);
                        }
                    if (x < px * (1 - 1e-7)) {
                        bad++;
                        fprintf(stderr,
                                "\n  guests %g volumes %g cmm %g cmma %g mem %g: X %.9g (prev "
                                "%.9g)",
                                cfg[g][0], vols[v], cmm, cmma, mem, x, px);
                    }
                    px = x;
                    memcpy(pv, v4, sizeof pv);
                    if (cmm == 1.0 &&
                        eval_at(m, 0, cmma, cfg[g][0], cfg[g][1], vols[v], mem, o0) == ZVP_SUCCESS &&
                        zvp_test_output(m, o, "dasd_page_space_gb") >
                            zvp_test_output(m, o0, "dasd_page_space_gb") * (1 + 1e-9) + 1e-9) {
                        bad++;
                        fprintf(stderr, "\n  guests %g volumes %g cmma %g mem %g: CMM page space "
                                        "%g GiB > %g without CMM",
                                cfg[g][0], vols[v], cmma, mem,
                                zvp_test_output(m, o, "dasd_page_space_gb"),
                                zvp_test_output(m, o0, "dasd_page_space_gb"));
                    }
                }
            }
    CU_ASSERT_EQUAL(bad, 0);
}

/* The VMRM steady state is continuous in the inputs (the review's cases: working set, real
 * memory at 5 guests, 40 processors with slow DASD, XSTOR): on a 40-step grid the largest
 * change of the balloon, the DASD page space and the throughput is located, and that step is
 * cut into 16 sub-steps; a jump (a steady state switching branch) would keep most of the change
 * in one sub-step, a continuous steep stretch spreads it (no sub-step above 35 %). */
static void test_overcommit_continuity(void)
{
    static const struct {
        const char *name, *set1, *set2, *set3;
        double v1, v2, v3, lo, hi;
    } cs[] = {
        {"working_set_gb", "guests", "guests", "guests", 10, 10, 10, 7.9, 8.9375},
        {"real_memory_gb", "guests", "guests", "guests", 5, 5, 5, 43, 46},
        {"real_memory_gb", "processors", "vcpus_per_guest", "dasd_read_ms", 40, 8, 20, 92, 94},
        {"xstor_gb", "guests", "guests", "guests", 10, 10, 10, 10.5, 10.8},
    };
    static const char *outs[] = {"balloon_gb", "dasd_page_space_gb", "throughput_rel"};
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o[64];
    for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
        for (size_t k = 0; k < 3; k++) {
            double prev = 0.0, worst = -1.0, at = cs[c].lo, whole, sub = 0.0;
            const double h = (cs[c].hi - cs[c].lo) / 40.0;
            zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
            zvp_test_set_param(m, p, "cmm", 1);
            zvp_test_set_param(m, p, cs[c].set1, cs[c].v1);
            zvp_test_set_param(m, p, cs[c].set2, cs[c].v2);
            zvp_test_set_param(m, p, cs[c].set3, cs[c].v3);
            for (int i = 0; i <= 40; i++) {
                double y;
                zvp_test_set_param(m, p, cs[c].name, cs[c].lo + h * i);
                zvp_test_eval_ok(m, p, o, "overcommit continuity");
                y = zvp_test_output(m, o, outs[k]);
                if (i > 0 && fabs(y - prev) > worst) {
                    worst = fabs(y - prev);
                    at = cs[c].lo + h * (i - 1);
                }
                prev = y;
            }
            whole = worst;
            for (int j = 0; j <= 16; j++) {
                double y;
                zvp_test_set_param(m, p, cs[c].name, at + h * j / 16.0);
                zvp_test_eval_ok(m, p, o, "overcommit continuity");
                y = zvp_test_output(m, o, outs[k]);
                if (j > 0)
                    sub = fmax(sub, fabs(y - prev));
                prev = y;
            }
            if (!(sub <= 0.35 * whole + 1e-9))
                printf("\n  %s over %s at %.6g: sub-step %.6g of step %.6g\n", outs[k],
                       cs[c].name, at, sub, whole);
            CU_ASSERT(sub <= 0.35 * whole + 1e-9);
        }
    }
}

/* 64,000 virtual CPUs on 1000 processors and one paging volume: the closed loop holds the
 * paging DASD below saturation (every vCPU that waits for a page is not asking for more), so a
 * steady state exists (status ok, utilization below 100 %). */
static void test_overcommit_large(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o[64];
    zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
    zvp_test_set_param(m, p, "cmm", 1);
    zvp_test_set_param(m, p, "guests", 1000);
    zvp_test_set_param(m, p, "vcpus_per_guest", 64);
    zvp_test_set_param(m, p, "processors", 1000);
    zvp_test_set_param(m, p, "paging_volumes", 1);
    zvp_test_eval_ok(m, p, o, "overcommit 64,000 vCPUs");
    CU_ASSERT(zvp_test_output(m, o, "paging_util_pct") < 100.0);
    CU_ASSERT(zvp_test_output(m, o, "cpu_util_pct") <= 100000.0);
}

/* Review: the baseline configuration itself moves no pages at 200 GiB (everything fits), so
 * page_moves_rel is 1 and the decrease 0, not 0/0 read as 0 and 100 %; with CMM, page moves
 * fall to 0 as memory grows and the ratio stays continuous (1 on both sides). */
static void test_overcommit_no_moves(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double o[64], prev = -1.0;
    CU_ASSERT_EQUAL_FATAL(eval_at(m, 0, 0, 10, 8.9375, 8, 200, o), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "page_moves_per_s"), 0.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "page_moves_rel"), 1.0);
    CU_ASSERT_EQUAL(zvp_test_output(m, o, "page_moves_decrease_pct"), 0.0);
    for (double mem = 158.0; mem <= 166.0; mem += 0.25) {
        CU_ASSERT_EQUAL_FATAL(eval_at(m, 1, 0, 10, 8.9375, 8, mem, o), ZVP_SUCCESS);
        const double r = zvp_test_output(m, o, "page_moves_rel");
        if (prev >= 0.0)
            CU_ASSERT(fabs(r - prev) < 0.05);
        prev = r;
    }
}

/* fault_blocking = 0: the page reads block nothing, so the virtual CPUs' throughput does not
 * depend on the paging DASD. With the shipped 8 volumes that throughput offers more reads than
 * the DASD can serve: no steady state (ZVP_EUNSTABLE naming fault_blocking), not a utilization
 * of 1 - 1e-14 with a read time of years. With enough volumes it is a steady state whose
 * throughput is the same for any volume count. */
static void test_overcommit_no_blocking(void)
{
    const zvp_model *m = zvp_test_find_model("overcommit");
    double p[64], o[64], x1;
    /* with CMM it is refused outright: VMRM's signal, the page wait, is 0 */
    zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
    zvp_test_set_param(m, p, "cmm", 1);
    zvp_test_set_param(m, p, "fault_blocking", 0);
    zvp_test_set_param(m, p, "paging_volumes", 250);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "cmm = 1 needs fault_blocking > 0", NULL);
    for (int cmma = 0; cmma <= 1; cmma++) {
        zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
        zvp_test_set_param(m, p, "cmma", cmma);
        zvp_test_set_param(m, p, "fault_blocking", 0);
        zvp_test_expect_eval_error(m, p, o, ZVP_EUNSTABLE, "fault_blocking = 0", "saturates",
                                   NULL);
        zvp_test_set_param(m, p, "paging_volumes", 250);
        zvp_test_eval_ok(m, p, o, "overcommit fault_blocking 0, 250 volumes");
        x1 = zvp_test_output(m, o, "throughput_per_s");
        CU_ASSERT(zvp_test_output(m, o, "paging_util_pct") < 100.0);
        zvp_test_set_param(m, p, "paging_volumes", 1000);
        zvp_test_eval_ok(m, p, o, "overcommit fault_blocking 0, 1000 volumes");
        CU_ASSERT_DOUBLE_EQUAL(zvp_test_output(m, o, "throughput_per_s"), x1, 1e-12 * x1);
        /* the unthrottled work keeps busy = util(1000) x 1000 volumes whatever their number
         * (M/M/c offered load): v volumes have a steady state iff v > busy, and then the
         * throughput is the unthrottled one; near v = busy rounding must not turn saturation
         * into an ok answer with a read time of centuries (it did at 7, 11 and 14 volumes).
         * Without CMMA the configuration is its own baseline (baseline = 1), so nothing else
         * decides the status. */
        const double busy = zvp_test_output(m, o, "paging_util_pct") / 100.0 * 1000.0;
        for (int v = 1; v <= 40 && cmma == 0; v++) {
            zvp_test_set_param(m, p, "paging_volumes", v);
            const int st = zvp_model_eval(m, p, o, NULL);
            if ((double)v < busy * (1.0 - 1e-9))
                CU_ASSERT_EQUAL(st, ZVP_EUNSTABLE);
            if ((double)v > busy * (1.0 + 1e-9)) {
                CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
                CU_ASSERT_DOUBLE_EQUAL(zvp_test_output(m, o, "throughput_per_s"), x1, 1e-9 * x1);
                CU_ASSERT(zvp_test_output(m, o, "paging_util_pct") < 100.0 * busy / v * (1 + 1e-9));
            }
        }
    }
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
    /* five 16 GiB guests in 80 GiB with no CP storage fit whole: the baseline moves no pages
     * while ten guests do, so page_moves_rel is undefined; the message names the baseline's
     * configuration and the inputs that change it */
    zvp_test_read_params(PARAMS "overcommit-zvm53.ini", "overcommit", p, m->n_params);
    zvp_test_set_param(m, p, "cmm", 1);
    zvp_test_set_param(m, p, "baseline", 2);
    zvp_test_set_param(m, p, "cp_memory_gb", 0);
    zvp_test_expect_eval_error(m, p, o, ZVP_EINVAL, "page_moves_rel is undefined",
                               "baseline = 2: 5 guests", "cp_memory_gb = 0", "baseline_guests",
                               NULL);
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
        !CU_add_test(s, "review cases: more memory, one paging volume",
                     test_overcommit_review_cases) ||
        !CU_add_test(s, "memory sweeps: throughput up, paging down, CMM page space",
                     test_overcommit_memory_sweep) ||
        !CU_add_test(s, "finite-source M/M/c against exact MVA", test_overcommit_network_mva) ||
        !CU_add_test(s, "VMRM steady state continuous (review cases)",
                     test_overcommit_continuity) ||
        !CU_add_test(s, "64,000 virtual CPUs: closed loop below saturation",
                     test_overcommit_large) ||
        !CU_add_test(s, "no page moves: ratio 1, continuous", test_overcommit_no_moves) ||
        !CU_add_test(s, "fault_blocking 0: no steady state on a saturated DASD",
                     test_overcommit_no_blocking) ||
        !CU_add_test(s, "bad input", test_overcommit_bad_input))
        return CU_get_error();
    return 0;
}
