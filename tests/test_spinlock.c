/*
 * tests/test_spinlock.c - the spinlock model (models/spinlock.c) and the model simulation
 * hook (zvp_model_simulate): the machine-repairman closed form (one zone, exponential
 * holds, no handoff: p0 = Erlang B computed here by its recurrence), no spin as the zones
 * grow, out-of-range parameters refused, and the analytic spin against the simulator of the
 * same network (expected values from the simulator, with its 95% interval).
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/model.h"

enum { CPUS, WORK, HOLD, SCV, ZONES, SKEW, HANDOFF };

static const zvp_model *spin_model(void)
{
    const zvp_model *m = zvp_model_find("spinlock", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

static int spin_eval(double cpus, double work, double hold, double scv, double zones,
                     double skew, double handoff, double *out)
{
    const double p[7] = {cpus, work, hold, scv, zones, skew, handoff};
    zvp_error e;
    return zvp_model_eval(spin_model(), p, out, &e);
}

/* One zone, SCV 1, no handoff: B1 of models/README.md with p0 = B(N, Z/S). */
static void test_spinlock_repairman(void)
{
    const double cases[][3] = {{16, 9, 1}, {64, 45, 5}, {8, 20, 1}, {256, 2000, 1}, {2, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double N = cases[i][0], Z = cases[i][1], S = cases[i][2], a = Z / S;
        double b = 1.0, out[5];
        for (int j = 1; j <= (int)N; j++)
            b = a * b / (j + a * b);
        const double U = 1.0 - b, X = U / (S * 1e-6), Lq = N - U * (1.0 + a);
        CU_ASSERT_EQUAL_FATAL(spin_eval(N, Z, S, 1, 1, 0, 0, out), ZVP_SUCCESS);
        CU_ASSERT_DOUBLE_EQUAL(out[0], 100.0 * Lq, 1e-9 * fmax(1.0, 100.0 * Lq));
        CU_ASSERT_DOUBLE_EQUAL(out[1], 100.0 * U, 1e-9 * 100.0);
        CU_ASSERT_DOUBLE_EQUAL(out[2], X, 1e-9 * X);
        CU_ASSERT_DOUBLE_EQUAL(out[3], 1e6 * Lq / X, 1e-9 * fmax(1.0, 1e6 * Lq / X));
    }
}

/* Spreading the requests over more zones never adds spin, and many zones give none. */
static void test_spinlock_many_zones(void)
{
    const double zones[] = {1, 4, 64, 1024, 65536};
    double prev = INFINITY, out[5];
    for (size_t i = 0; i < sizeof zones / sizeof zones[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(spin_eval(64, 45, 5, 1, zones[i], 0, 0, out), ZVP_SUCCESS);
        CU_ASSERT(out[0] < prev);
        prev = out[0];
    }
    CU_ASSERT(prev < 0.1); /* 65536 zones: under 0.1 % of one CPU (one zone: 5400 %) */
    /* Zipf 1.5 sends 38 % of the requests to zone 1 whatever the zone count: spin stays */
    CU_ASSERT_EQUAL_FATAL(spin_eval(64, 45, 5, 1, 65536, 1.5, 0, out), ZVP_SUCCESS);
    CU_ASSERT(out[0] > 1000.0 && out[0] < 5400.0);
}

static void test_spinlock_out_of_range(void)
{
    double out[5];
    CU_ASSERT_EQUAL(spin_eval(0, 45, 5, 1, 1, 0, 0, out), ZVP_EINVAL);
    CU_ASSERT_EQUAL(spin_eval(64.5, 45, 5, 1, 1, 0, 0, out), ZVP_EINVAL);
    CU_ASSERT_EQUAL(spin_eval(64, -1, 5, 1, 1, 0, 0, out), ZVP_EINVAL);
    CU_ASSERT_EQUAL(spin_eval(64, 45, 0, 1, 1, 0, 0, out), ZVP_EINVAL);
    CU_ASSERT_EQUAL(spin_eval(64, 45, 5, -0.1, 1, 0, 0, out), ZVP_EINVAL);
    CU_ASSERT_EQUAL(spin_eval(64, 45, 5, 1, 0, 0, 0, out), ZVP_EINVAL);
    CU_ASSERT_EQUAL(spin_eval(64, 45, 5, 1, 4, 4.5, 0, out), ZVP_EINVAL);
    CU_ASSERT_EQUAL(spin_eval(64, 45, 5, 1, 4, 0, -1, out), ZVP_EINVAL);
    CU_ASSERT(isnan(out[0]));
}

/* Analytic spin within 5 % of the simulated mean (plus its half-width) on the points where the
 * approximation holds: any SCV with many zones, SCV 1 with any utilization, the handoff.
 * models/README.md (spinlock, "Accuracy") lists where it does not: one zone with
 * non-exponential holds near saturation. */
static void test_spinlock_vs_simulation(void)
{
    const double grid[][7] = {
        {2, 1, 1, 1, 1, 0, 0},       {8, 20, 1, 1, 1, 0, 0},      {256, 2000, 1, 1, 1, 0, 0},
        {256, 200, 1, 1, 1, 0, 0},   {64, 45, 1, 1, 16, 0, 0},    {64, 45, 1, 0, 16, 0, 0},
        {64, 45, 1, 4, 16, 0, 0},    {64, 45, 1, 0, 16, 1.5, 0},  {128, 45, 1, 1, 1024, 1.5, 0},
        {256, 10, 1, 0, 1024, 0, 0}, {256, 10, 1, 4, 1024, 0, 0}, {64, 45, 1, 1, 1, 0, 0.1},
        {16, 100, 1, 1, 4, 1, 0.2},
    };
    const zvp_model *m = spin_model();
    zvp_sim_options o;
    zvp_sim_default_options(&o);
    o.events = 50000;
    o.replications = 5;
    o.threads = 1;
    o.seed = 12;
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++) {
        double out[5];
        zvp_sim_estimate est[5];
        const char *why[5];
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, grid[i], out, &e), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, grid[i], &o, est, why, NULL, &e),
                              ZVP_SUCCESS);
        CU_ASSERT(fabs(out[0] - est[0].mean) <= 0.05 * est[0].mean + est[0].half_width);
        CU_ASSERT(fabs(out[2] - est[2].mean) <= 0.05 * est[2].mean + est[2].half_width);
        CU_ASSERT_PTR_NULL(why[0]);
        CU_ASSERT_PTR_NOT_NULL(why[4]); /* collisions are not simulated */
        CU_ASSERT(isnan(est[4].mean));
    }
}

/* The hook: a model without a network is refused by name; repairman's network agrees with
 * its exact eval; a bad parameter is refused before simulating. */
static void test_model_simulate_hook(void)
{
    zvp_error e;
    zvp_sim_estimate est[16];
    zvp_sim_options o;
    zvp_sim_default_options(&o);
    o.events = 50000;
    o.replications = 5;
    o.threads = 1;
    const zvp_model *sw = zvp_model_find("paging", NULL), *rp = zvp_model_find("repairman", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rp);
    double ps[32], out[7];
    zvp_model_defaults(sw, ps);
    CU_ASSERT_EQUAL(zvp_model_simulate(sw, ps, &o, est, NULL, NULL, &e), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "paging"));
    const double pr[4] = {8, 4, 1, 1};
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(rp, pr, out, &e), ZVP_SUCCESS);
    zvp_sim_result *r = NULL;
    CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(rp, pr, &o, est, NULL, &r, &e), ZVP_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL(r);
    zvp_sim_result_free(r);
    for (int j = 0; j < 6; j++)
        CU_ASSERT(fabs(out[j] - est[j].mean) <= 0.03 * out[j] + est[j].half_width);
    const double bad[4] = {8, 4, 0, 1};
    CU_ASSERT_EQUAL(zvp_model_simulate(rp, bad, &o, est, NULL, NULL, &e), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "service_s"));
}

int zvp_test_register_spinlock(void)
{
    CU_pSuite s = CU_add_suite("spinlock", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "repairman_closed_form", test_spinlock_repairman) ||
        !CU_add_test(s, "many_zones_no_spin", test_spinlock_many_zones) ||
        !CU_add_test(s, "out_of_range", test_spinlock_out_of_range) ||
        !CU_add_test(s, "vs_simulation", test_spinlock_vs_simulation) ||
        !CU_add_test(s, "model_simulate_hook", test_model_simulate_hook))
        return (int)CU_get_error();
    return 0;
}
