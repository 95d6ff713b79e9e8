/*
 * tests/test_sweetspot_sim.c - the simulation hook of the sweetspot model (models/sweetspot.c,
 * models/README.md, sweetspot "Simulated"): the paging (CM4) network simulated with exponential
 * holds is product form (probabilistic visits), so the exact MVA of the model's eval is the
 * expected value there (within the 95% half-width + 3 %), with and without the frame shortfall
 * (retry passes), zones, the other (PTRM) locks and the IBR aging-list lock; one lock and no
 * other lock is the machine repairman, checked against its closed form (Erlang B by its
 * recurrence, computed here); the outputs the network does not give are NaN with a reason;
 * every valid parameter corner gives a network, or a refusal naming why.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/model.h"

enum {
    STORAGE, CPUS, USERS, VIRT, TOUCH, ZONES, ZONE_MAX, AVAIL_HOLD, HOLD_SCV, CP_WORK,
    RETRY_WORK, DEFER, OTHER_HOLD, OTHER_LOCKS, IBR_CHECK, IBR_HOLD, VOLUMES, PAGES_PER_IO,
    IO_OVERHEAD, PAGE_TRANSFER, FRAMES, RETURN_HOLD, LOGOFF_WORK, NP
};
enum {
    ETR, ITR, BUSY, SPIN, AVAIL_SPIN, CM1, CM2, CM3, CM4, LOGOFF, AVAIL_UTIL, NZONES, WRITTEN,
    NO
};

static const zvp_model *ss_model(void)
{
    const zvp_model *m = zvp_model_find("sweetspot", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->n_params, NP);
    CU_ASSERT_EQUAL_FATAL(m->n_outputs, NO);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m->sim);
    return m;
}

static void sim_options(zvp_sim_options *o, uint64_t events)
{
    zvp_sim_default_options(o);
    o->events = events;
    o->replications = 8;
    o->threads = 1;
    o->seed = 7;
}

/* |simulated - expected| <= 3 % of expected + the half-width */
static int agrees(const zvp_sim_estimate *e, double expected)
{
    return fabs(e->mean - expected) <= 0.03 * fabs(expected) + e->half_width;
}

/* Small points (8 to 16 CPUs, 8 to 24 users), exponential holds, no deferral (the CPUs on the
 * path are a whole number): simulated = exact MVA (product form). The points cover one lock +
 * the other lock, zones + the other locks + the IBR aging-list lock, zones alone, and the
 * paging ceiling binding (passes that find no frame: retries) with fewer users than CPUs
 * (busy < 100 %). */
static void test_sweetspot_sim_vs_mva(void)
{
    /* cpus, users, lock_zones, avail_hold_us, cp_work_us, retry_work_us, other_hold_us,
     * other_locks, ibr_check, ibr_hold_us, page_transfer_ms */
    const double pts[][11] = {
        {8, 88, 1, 5.6, 43.4, 20, 4.9, 1, 0, 0, 0.01},    /* no ceiling: every pass pages */
        {8, 88, 4, 20, 40, 40, 4, 2, 1, 3, 0.01},
        {8, 88, 4, 25, 20, 20, 0, 1, 0, 0, 0.01},
        {16, 88, 1, 3, 40, 30, 2, 1, 0, 0, 1.0},          /* ceiling 3.2 kpages/s: retries */
        {16, 12, 4, 8, 30, 10, 2, 4, 1, 4, 1.0},          /* retries, 12 of 16 CPUs */
    };
    const zvp_model *m = ss_model();
    zvp_sim_options o;
    sim_options(&o, 200000);
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double p[NP], out[NO];
        zvp_sim_estimate e[NO];
        const char *why[NO];
        zvp_error err;
        zvp_model_defaults(m, p);
        p[CPUS] = pts[i][0];
        p[USERS] = pts[i][1];
        p[ZONES] = pts[i][2];
        p[AVAIL_HOLD] = pts[i][3];
        p[CP_WORK] = pts[i][4];
        p[RETRY_WORK] = pts[i][5];
        p[OTHER_HOLD] = pts[i][6];
        p[OTHER_LOCKS] = pts[i][7];
        p[IBR_CHECK] = pts[i][8];
        p[IBR_HOLD] = pts[i][9];
        p[PAGE_TRANSFER] = pts[i][10];
        p[HOLD_SCV] = 1.0;
        p[DEFER] = 0.0;
        p[STORAGE] = 1; /* the CM4 phase pages */
        p[VIRT] = 6.5;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, p, &o, e, why, NULL, &err), ZVP_SUCCESS);
        CU_ASSERT(out[SPIN] > 10.0); /* the points have contention to measure */
        const int cmp[] = {ETR, ITR, BUSY, SPIN, AVAIL_SPIN, AVAIL_UTIL, NZONES};
        for (size_t j = 0; j < sizeof cmp / sizeof cmp[0]; j++) {
            CU_ASSERT_PTR_NULL(why[cmp[j]]);
            CU_ASSERT(e[cmp[j]].ci_lo <= e[cmp[j]].mean && e[cmp[j]].mean <= e[cmp[j]].ci_hi);
            if (!agrees(&e[cmp[j]], out[cmp[j]]))
                fprintf(stderr, "\n  point %zu output %d: simulated %.6g +- %.3g, MVA %.6g\n", i,
                        cmp[j], e[cmp[j]].mean, e[cmp[j]].half_width, out[cmp[j]]);
            CU_ASSERT(agrees(&e[cmp[j]], out[cmp[j]]));
        }
        if (i >= 3) /* the ceiling binds: ETR is the DASD's 16 / (0.2 + 16) ms x 32 volumes */
            ZVP_ASSERT_REL(out[ETR], 32.0 * 16.0 / 16.2, 1e-9);
        if (i == 4) /* 12 users on 16 CPUs: 75 % busy */
            ZVP_ASSERT_REL(out[BUSY], 75.0, 1e-12);
        for (int j = CM1; j <= LOGOFF; j++) {
            CU_ASSERT(isnan(e[j].mean));
            CU_ASSERT_PTR_NOT_NULL(why[j]);
        }
        CU_ASSERT(isnan(e[WRITTEN].mean));
        CU_ASSERT_PTR_NOT_NULL(why[WRITTEN]);
    }
}

/* Holds of SCV 12 at the joint calibration (calibration/params/sweetspot-zvm63.ini and -zvm64.ini,
 * rounded), 1024 GB: the eval's busiest single lock is the exact finite-source M/G/1 chain
 * (models/README.md, sweetspot); it agrees with the simulator of the same network within 5 % +
 * the 95 % half-width for ETR, total and available-list spin, on z/VM 6.3 (one saturated global
 * lock, the PTRM lock after it) and 6.4 (64 zones, 128 PTRM locks, the IBR aging-list lock). The
 * residual-life MVA the model used before was 15 % (6.3 RSA2GLCK spin) and 31 % (6.4 spin) off. */
static void test_sweetspot_sim_calibrated(void)
{
    const zvp_model *m = ss_model();
    zvp_sim_options o;
    sim_options(&o, 250000);
    o.seed = 11;
    for (int rel = 0; rel < 2; rel++) {
        double p[NP], out[NO];
        zvp_sim_estimate e[NO];
        zvp_error err;
        zvp_model_defaults(m, p);
        p[STORAGE] = 1024;
        p[TOUCH] = 0.2102;
        p[AVAIL_HOLD] = 4.99;
        p[HOLD_SCV] = 12;
        p[CP_WORK] = 22.9;
        p[RETRY_WORK] = 200.6;
        p[DEFER] = 172.9;
        p[OTHER_HOLD] = 3.10;
        p[IBR_HOLD] = 3.93;
        p[FRAMES] = 6.82;
        p[ZONES] = rel ? 0 : 1;
        p[OTHER_LOCKS] = rel ? 128 : 1;
        p[IBR_CHECK] = rel ? 1 : 0;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, p, &o, e, NULL, NULL, &err), ZVP_SUCCESS);
        CU_ASSERT(out[SPIN] > (rel ? 300.0 : 3000.0)); /* heavy contention on both */
        const int cmp[] = {ETR, SPIN, AVAIL_SPIN};
        for (size_t j = 0; j < sizeof cmp / sizeof cmp[0]; j++) {
            const zvp_sim_estimate *s = &e[cmp[j]];
            const int ok = fabs(s->mean - out[cmp[j]]) <= 0.05 * fabs(s->mean) + s->half_width;
            if (!ok)
                fprintf(stderr, "\n  release %d output %d: simulated %.6g +- %.3g, eval %.6g\n",
                        rel, cmp[j], s->mean, s->half_width, out[cmp[j]]);
            CU_ASSERT(ok);
        }
    }
}

/* One lock, no other lock, no paging ceiling: the machine repairman with N CPUs, think Z =
 * cp_work, service S = avail_hold. p0 = B(N, Z/S) (Erlang B recurrence), U = 1 - p0,
 * spin Lq = N - U (1 + Z/S), X = U / S. */
static void test_sweetspot_sim_repairman(void)
{
    const double N = 8, Z = 20, S = 4, a = Z / S;
    double b = 1.0;
    for (int j = 1; j <= (int)N; j++)
        b = a * b / (j + a * b);
    const double U = 1.0 - b, Lq = N - U * (1.0 + a), X = U / (S * 1e-6);
    const zvp_model *m = ss_model();
    double p[NP];
    zvp_sim_estimate e[NO];
    zvp_error err;
    zvp_sim_options o;
    sim_options(&o, 200000);
    zvp_model_defaults(m, p);
    p[CPUS] = N;
    p[ZONES] = 1;
    p[CP_WORK] = Z;
    p[AVAIL_HOLD] = S;
    p[OTHER_HOLD] = 0;
    p[HOLD_SCV] = 1;
    p[PAGE_TRANSFER] = 0.01; /* the paging ceiling far above X */
    CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, p, &o, e, NULL, NULL, &err), ZVP_SUCCESS);
    CU_ASSERT(agrees(&e[SPIN], 100.0 * Lq));
    CU_ASSERT(agrees(&e[AVAIL_SPIN], 100.0 * Lq));
    CU_ASSERT(agrees(&e[AVAIL_UTIL], 100.0 * U));
    CU_ASSERT(agrees(&e[ETR], X / 1e3));
    CU_ASSERT_DOUBLE_EQUAL(e[BUSY].mean, 100.0, 1e-12); /* no idle time */
}

/* Every parameter at its minimum and its maximum (the others at their defaults): when the
 * model's eval accepts the point, the network is built (and a short run succeeds), except
 * more zones than the simulator's station limit, refused by name; a point the eval refuses
 * (user_virtual_gb in (0, 2)) is refused too. */
static void test_sweetspot_sim_corners(void)
{
    const zvp_model *m = ss_model();
    zvp_sim_options o;
    sim_options(&o, 2000);
    o.replications = 2;
    for (size_t i = 0; i < NP; i++) {
        for (int hi = 0; hi < 2; hi++) {
            double p[NP], out[NO];
            zvp_sim_estimate e[NO];
            zvp_error err;
            zvp_model_defaults(m, p);
            p[i] = hi ? m->params[i].max : m->params[i].min;
            if (zvp_model_eval(m, p, out, &err) != ZVP_SUCCESS)
                continue;
            zvp_sim_network net;
            void *storage = NULL;
            int st = m->sim->network(p, &net, &storage, &err);
            free(storage);
            if ((i == ZONES || i == OTHER_LOCKS) && p[i] > (double)ZVP_SIM_MAX_STATIONS - 1) {
                CU_ASSERT_EQUAL(st, ZVP_EINVAL);
                CU_ASSERT_PTR_NOT_NULL(strstr(err.message, m->params[i].name));
                continue;
            }
            if (zvp_test_output(m, out, "cm4_pages_written_m") == 0.0) {
                /* nothing paged out (much storage, few pages touched): no paging network */
                CU_ASSERT_EQUAL(st, ZVP_EINVAL);
                CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nothing to page out"));
                continue;
            }
            if (st != ZVP_SUCCESS)
                fprintf(stderr, "\n  %s = %g: %s\n", m->params[i].name, p[i], err.message);
            CU_ASSERT_EQUAL(st, ZVP_SUCCESS);
            st = zvp_model_simulate(m, p, &o, e, NULL, NULL, &err);
            CU_ASSERT_EQUAL(st, ZVP_SUCCESS);
            CU_ASSERT(st != ZVP_SUCCESS || (isfinite(e[SPIN].mean) && isfinite(e[ETR].mean)));
        }
    }
    double p[NP];
    zvp_sim_estimate e[NO];
    zvp_error err;
    zvp_model_defaults(m, p);
    p[VIRT] = 1.0;
    CU_ASSERT_EQUAL(zvp_model_simulate(m, p, &o, e, NULL, NULL, &err), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "user_virtual_gb"));
}

int zvp_test_register_sweetspot_sim(void)
{
    CU_pSuite s = CU_add_suite("sweetspot_sim", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "vs_mva", test_sweetspot_sim_vs_mva) ||
        !CU_add_test(s, "calibrated_scv12", test_sweetspot_sim_calibrated) ||
        !CU_add_test(s, "repairman_closed_form", test_sweetspot_sim_repairman) ||
        !CU_add_test(s, "corners", test_sweetspot_sim_corners))
        return (int)CU_get_error();
    return 0;
}
