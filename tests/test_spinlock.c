/*
 * tests/test_spinlock.c - the spinlock model (models/spinlock.c) and the model simulation
 * hook (zvp_model_simulate): the machine-repairman closed form (one zone, exponential
 * holds, no handoff: p0 = Erlang B computed here by its recurrence), no spin as the zones
 * grow, out-of-range parameters refused, and the analytic spin against the simulator of the
 * same network (expected values from the simulator, with its 95% interval).
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/model.h"
#include "../models/spinlock.h"

enum { CPUS, WORK, HOLD, SCV, ZONES, SKEW, HANDOFF, INTERVAL };

static const zvp_model *spin_model(void)
{
    const zvp_model *m = zvp_model_find("spinlock", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

/* The model at interval_s = iv (s); out: [7]. */
static int spin_eval_iv(double cpus, double work, double hold, double scv, double zones,
                        double skew, double handoff, double iv, double *out)
{
    const double p[8] = {cpus, work, hold, scv, zones, skew, handoff, iv};
    zvp_error e;
    return zvp_model_eval(spin_model(), p, out, &e);
}

/* The model at the default interval_s, 60 s. */
static int spin_eval(double cpus, double work, double hold, double scv, double zones,
                     double skew, double handoff, double *out)
{
    return spin_eval_iv(cpus, work, hold, scv, zones, skew, handoff, 60.0, out);
}

/* Simulator options of the tests: one thread, `events` per replication, `reps` runs. */
static zvp_sim_options sim_opts(uint64_t events, uint32_t reps, uint64_t seed)
{
    zvp_sim_options o;
    zvp_sim_default_options(&o);
    o.events = events;
    o.replications = reps;
    o.threads = 1;
    o.seed = seed;
    return o;
}

/* One zone, SCV 1, no handoff: B1 of models/README.md with p0 = B(N, Z/S). */
static void test_spinlock_repairman(void)
{
    const double cases[][3] = {{16, 9, 1}, {64, 45, 5}, {8, 20, 1}, {256, 2000, 1}, {2, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double N = cases[i][0], Z = cases[i][1], S = cases[i][2], a = Z / S;
        double b = 1.0, out[7];
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

/* The hold's Laplace-Stieltjes transform at s, for the distributions the simulator draws
 * (src/sim/README.md): constant, mixed Erlang (c2 < 1), exponential, H2 (c2 > 1). */
static double hold_lst(double S, double c2, double s)
{
    if (c2 == 0.0)
        return exp(-s * S);
    if (c2 > 1.0) {
        const double p = 0.5 * (1.0 + sqrt((c2 - 1.0) / (c2 + 1.0)));
        const double r1 = 2.0 * p / S, r2 = 2.0 * (1.0 - p) / S;
        return p * r1 / (r1 + s) + (1.0 - p) * r2 / (r2 + s);
    }
    const double k = ceil(1.0 / c2 - 1e-12);
    const double p = (k * c2 - sqrt(fmax(0.0, k * (1.0 + c2) - k * k * c2))) / (1.0 + c2);
    const double r = (k - p) / S, f = r / (r + s);
    return p * pow(f, k - 1.0) + (1.0 - p) * pow(f, k);
}

/* Two CPUs, one zone, any hold distribution, with the handoff: the departure chain has two
 * states; from either, the one other CPU is thinking during the hold, so with g = G*(1/Z)
 * pi1 g e^{-h/Z} = pi0 (1 - g), E[T] = S + h pi1, X = 1 / (E[T] + pi0 Z / 2) (time average
 * from departures: p(0) = X pi0 Z / N and 1 - p(0) = X E[T]), spin = 2 - X (Z + E[T]). */
static void test_spinlock_two_cpus(void)
{
    const double cases[][4] = {{1, 1, 4, 0},   {1, 1, 0, 0},    {7, 2, 0.5, 0},
                               {3, 1, 0.3, 0.4}, {1, 1, 4, 0.25}, {2, 1, 0, 0.5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double Z = cases[i][0], S = cases[i][1], c2 = cases[i][2], h = cases[i][3];
        const double g = hold_lst(S, c2, 1.0 / Z), r = (1.0 - g) / (g * exp(-h / Z));
        const double pi0 = 1.0 / (1.0 + r), pi1 = r / (1.0 + r), ET = S + h * pi1;
        const double X = 1.0 / (ET + pi0 * Z / 2.0), spin = 2.0 - X * (Z + ET);
        double out[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(2, Z, S, c2, 1, 0, h, out), ZVP_SUCCESS);
        CU_ASSERT_DOUBLE_EQUAL(out[0], 100.0 * spin, 1e-9 * 100.0 * spin);
        CU_ASSERT_DOUBLE_EQUAL(out[1], 100.0 * X * ET, 1e-9 * 100.0);
        CU_ASSERT_DOUBLE_EQUAL(out[2], 1e6 * X, 1e-9 * 1e6 * X);
        CU_ASSERT_DOUBLE_EQUAL(out[4], 1e6 * X * pi1, 1e-9 * 1e6 * X);
    }
}

/* M/D/1//N, no handoff, computed here independently: the departure chain by its balance
 * equations solved forward (pi(k+1) a_{k+1}(0) = pi(k) - pi(0) a_0(k) - sum_{j=1..k} pi(j)
 * a_j(k-j+1), a_j = Binomial(N - max(j,1), 1 - e^{-S/Z}); fine for small N), then
 * X = 1 / (S + pi0 Z / N), spin = N - X (Z + S). */
static void test_spinlock_md1n(void)
{
    const double cases[][3] = {{8, 7, 1}, {8, 20, 1}, {16, 12, 1}, {4, 2, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int N = (int)cases[i][0];
        const double Z = cases[i][1], S = cases[i][2], q = 1.0 - exp(-S / Z);
        double a[17][17] = {{0}}, pi[17] = {1.0}, sum = 1.0;
        for (int j = 0; j < N; j++) {
            const int m = j ? N - j : N - 1;
            double c = 1.0;
            for (int b = 0; b <= m; b++) {
                a[j][b] = c * pow(q, b) * pow(1.0 - q, m - b);
                c = c * (m - b) / (b + 1);
            }
        }
        for (int k = 0; k + 1 < N; k++) {
            double r = pi[k] - pi[0] * a[0][k];
            for (int j = 1; j <= k; j++)
                r -= pi[j] * a[j][k - j + 1];
            pi[k + 1] = r / a[k + 1][0];
            sum += pi[k + 1];
        }
        const double pi0 = 1.0 / sum, X = 1.0 / (S + pi0 * Z / N), spin = N - X * (Z + S);
        double out[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(N, Z, S, 0, 1, 0, 0, out), ZVP_SUCCESS);
        CU_ASSERT_DOUBLE_EQUAL(out[0], 100.0 * spin, 1e-8 * 100.0 * spin);
        CU_ASSERT_DOUBLE_EQUAL(out[2], 1e6 * X, 1e-9 * 1e6 * X);
    }
}

/* Thousands of CPUs stay finite and exact: the repairman at 4096 CPUs (Erlang B) to 1e-9,
 * and deep saturation (X -> 1/S, spin -> N - Z/S - 1) for constant and H2 holds. */
static void test_spinlock_many_cpus(void)
{
    const double N = 4096, Z = 3000, S = 1;
    double b = 1.0, out[7];
    for (int j = 1; j <= (int)N; j++)
        b = (Z / S) * b / (j + (Z / S) * b);
    const double U = 1.0 - b, Lq = N - U * (1.0 + Z / S);
    CU_ASSERT_EQUAL_FATAL(spin_eval(N, Z, S, 1, 1, 0, 0, out), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(out[0], 100.0 * Lq, 1e-9 * 100.0 * Lq);
    const double scv[] = {0, 0.5, 4};
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL_FATAL(spin_eval(4096, 45, 1, scv[i], 1, 0, 0, out), ZVP_SUCCESS);
        CU_ASSERT_DOUBLE_EQUAL(out[0], 100.0 * (4096 - 45 - 1), 1e-6 * 100.0 * 4096);
        CU_ASSERT_DOUBLE_EQUAL(out[2], 1e6, 1e-6 * 1e6);
        CU_ASSERT(out[1] <= 100.0);
    }
}

/* Near-constant holds with thousands of CPUs, where the exact chain's Erlang phases exceed its
 * work budget: spin must not fall as the hold variability grows (mean waiting grows with the
 * service SCV: Pollaczek-Khinchine for one server, the finite-source chain alike) and must not
 * jump where the budget binds (it once fell 1.9 % to the MVA approximation between SCV 0 and
 * 0.01 at 4096 CPUs, and 17 % between 0.005 and 0.007 at 200). */
static void test_spinlock_budget_continuous(void)
{
    const double cpus[] = {200, 4096}, work[] = {2000, 20000};
    const double scv[] = {0, 1e-4, 1e-3, 0.003, 0.005, 0.007, 0.01, 0.03, 0.1, 0.3};
    for (size_t c = 0; c < 2; c++) {
        double prev = -1.0, first = 0.0, out[7];
        for (size_t i = 0; i < sizeof scv / sizeof scv[0]; i++) {
            CU_ASSERT_EQUAL_FATAL(spin_eval(cpus[c], work[c], 5, scv[i], 1, 0, 0, out),
                                  ZVP_SUCCESS);
            if (i == 0)
                first = out[0];
            CU_ASSERT(out[0] >= prev * (1.0 - 1e-12));
            /* over c2 in [0, 0.01] the waiting grows by at most the factor (1 + c2) of
             * Pollaczek-Khinchine's (1 + c2) / 2: 1 % of the spin */
            if (scv[i] <= 0.01)
                CU_ASSERT(fabs(out[0] - first) <= 0.01 * first);
            prev = out[0];
        }
    }
}

/* Physical bounds of the symmetric state (interval_s = 0) with skew and a handoff: every
 * acquisition takes a work and a hold, so X (Z + S) <= N, and the CPUs spinning, working and
 * holding are at most N. The three points of a random set (seed 20261202) where the rest's
 * throughput had overflowed, then 40 random points (an LCG here) with skew and handoff. */
static void spin_check_bounds(const double *pt)
{
    double out[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval_iv(pt[0], pt[1], pt[2], pt[3], pt[4], pt[5], pt[6], 0.0,
                                       out),
                          ZVP_SUCCESS);
    const double N = pt[0], ZS = (pt[1] + pt[2]) * 1e-6, X = out[2], spin = out[0] / 100.0;
    CU_ASSERT(X * ZS <= N * (1.0 + 1e-9));
    CU_ASSERT(spin + X * ZS <= N * (1.0 + 1e-9));
    if (!(spin + X * ZS <= N * (1.0 + 1e-9)))
        printf("\n  bounds broken: cpus %g work %g scv %g zones %g skew %g handoff %g: "
               "X(Z+S)/N %g, (spin + X(Z+S))/N %g\n", pt[0], pt[1], pt[3], pt[4], pt[5],
               pt[6], X * ZS / N, (spin + X * ZS) / N);
}

static void test_spinlock_bounds_skew_handoff(void)
{
    static const double pts[3][7] = {{92, 22.2203, 1, 1.879, 14, 0.279, 0.945},
                                     {85, 26.6593, 1, 0.286, 12, 0.539, 0.927},
                                     {148, 7.432, 1, 2.673, 53, 0.248, 0.328}};
    for (int i = 0; i < 3; i++)
        spin_check_bounds(pts[i]);
    unsigned long long st = 20261202ULL;
#define SPIN_U01()                                                                         \
    ((double)((st = st * 6364136223846793005ULL + 1442695040888963407ULL) >> 11) * 0x1p-53)
    for (int i = 0; i < 40; i++) {
        double pt[7];
        pt[0] = 3.0 + floor(158.0 * SPIN_U01());
        pt[4] = 2.0 + floor(63.0 * SPIN_U01());
        pt[5] = 0.01 + SPIN_U01();
        pt[3] = 3.0 * SPIN_U01();
        pt[6] = 0.05 + 0.95 * SPIN_U01();
        pt[2] = 1.0;
        double sum = 0.0;
        for (double z = 1.0; z <= pt[4]; z += 1.0)
            sum += pow(z, -pt[5]);
        const double u = 0.2 + 0.6 * SPIN_U01(); /* zone 1's utilization without handoff */
        pt[1] = pt[0] / (sum * u) - 1.0;
        if (pt[1] > 0.0)
            spin_check_bounds(pt);
    }
#undef SPIN_U01
}

/* Little's law after a mix of two solutions: spin_busy_pct / 100 = acquisitions_per_s x
 * spin_per_acq_us 1e-6, at points partly collapsed (the spin strictly between interval_s 0
 * and 1e9: 0 < w < 1), at the handoff's frozen / relaxed blend (bistable = 0 and the onset)
 * and at a near-constant hold past the chain's budget (the blend in c2). */
static void spin_check_little(const double *pt, double iv)
{
    double out[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval_iv(pt[0], pt[1], pt[2], pt[3], pt[4], pt[5], pt[6], iv,
                                       out),
                          ZVP_SUCCESS);
    CU_ASSERT(out[0] > 0.0);
    CU_ASSERT(fabs(out[2] * out[3] * 1e-6 - out[0] / 100.0) <= 1e-9 * out[0] / 100.0);
}

static void test_spinlock_little_mixed(void)
{
    static const double mixed[2][7] = {{256, 45, 1, 1, 16, 0, 0.1},
                                       {122, 2.8412, 1, 0.782, 52, 0, 0.308}};
    static const double iv[2] = {1.0, 1e-5};
    for (int i = 0; i < 2; i++) {
        const double *pt = mixed[i];
        double o0[7], o1[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval_iv(pt[0], pt[1], pt[2], pt[3], pt[4], pt[5], pt[6],
                                           0.0, o0),
                              ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(spin_eval_iv(pt[0], pt[1], pt[2], pt[3], pt[4], pt[5], pt[6],
                                           1e9, o1),
                              ZVP_SUCCESS);
        double om[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval_iv(pt[0], pt[1], pt[2], pt[3], pt[4], pt[5], pt[6],
                                           iv[i], om),
                              ZVP_SUCCESS);
        /* w strictly between 0 and 1 */
        CU_ASSERT(om[0] > fmin(o0[0], o1[0]) * (1.0 + 1e-6) &&
                  om[0] < fmax(o0[0], o1[0]) * (1.0 - 1e-6));
        spin_check_little(pt, iv[i]);
        spin_check_little(pt, 0.0);
    }
    static const double blend[3][7] = {{16, 6, 1, 1, 4, 0, 0.3},
                                       {64, 0, 1, 1, 16, 0, 0.3},
                                       {32, 1.4745, 1, 1, 47, 0.024, 0.374}};
    for (int i = 0; i < 3; i++)
        spin_check_little(blend[i], 60.0);
    /* past the chain's budget (1024 CPUs, several zones: 1 / k_cap = 0.0106) */
    static const double nc[7] = {1024, 45, 1, 0.005, 64, 0, 0.05};
    CU_ASSERT(zvp_spinlock_exact_scv(1024, 0.005, 4e8 / 8.0) > 0.005);
    spin_check_little(nc, 0.01);
}

/* collapse_time_s past the chain's budget: geometric in c2 between the constant hold and
 * Erlang-k_cap (SCV c2x), a time scale over decades; the linear blend reads far from both
 * in log terms. Expected: ct(0)^(1 - t) ct(c2x)^t, t = c2 / c2x, from the two ends. */
static void test_spinlock_ctime_blend(void)
{
    const double c2 = 0.005, c2x = zvp_spinlock_exact_scv(1024, c2, 4e8 / 8.0);
    CU_ASSERT_FATAL(c2x > c2 && c2x < 1.0);
    double o0[7], ox[7], o[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval_iv(1024, 45, 1, 0.0, 64, 0, 0.05, 0.01, o0), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval_iv(1024, 45, 1, c2x, 64, 0, 0.05, 0.01, ox), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval_iv(1024, 45, 1, c2, 64, 0, 0.05, 0.01, o), ZVP_SUCCESS);
    CU_ASSERT(o0[5] == 1.0 && ox[5] == 1.0);
    const double t = c2 / c2x, want = exp((1.0 - t) * log(o0[6]) + t * log(ox[6]));
    /* the ends differ enough that the linear blend is off by more than the tolerance */
    CU_ASSERT(fabs(((1.0 - t) * o0[6] + t * ox[6]) / want - 1.0) > 1e-5);
    CU_ASSERT(fabs(o[6] / want - 1.0) <= 1e-9);
}

/* Continuity in the skew: skew 1e-9 is the network of skew 0 (the simulator's numbers are
 * bit-identical), so the collapse rate, which counts every zone a lock can collapse at
 * (sum_z (p_z / p_1)^k*: L uniform), must meet L / tau_up, and the symmetric state must meet
 * the uniform one: collapse_time_s and the spin at skew 0, 1e-9 and 1e-6 agree (before,
 * collapse_time_s 16x apart at 256 CPUs, the spin 548 % against 409 % at 16 CPUs, 4 zones). */
static void test_spinlock_skew_continuous(void)
{
    static const double skew[3] = {0.0, 1e-9, 1e-6};
    static const double pts[5][8] = {{256, 45, 1, 1, 16, 0, 0.1, 0.182},
                                     {16, 6, 1, 1, 4, 0, 0.3, 60},
                                     {32, 1.4745, 1, 1, 47, 0, 0.374, 60},
                                     /* no handoff, c2 != 1 (before: -2.1 % and +2.5 %) */
                                     {64, 20, 1, 0, 16, 0, 0, 60},
                                     {64, 20, 1, 4, 16, 0, 0, 60}};
    for (int k = 0; k < 5; k++) {
        const double *q = pts[k];
        double o[3][7];
        for (int i = 0; i < 3; i++)
            CU_ASSERT_EQUAL_FATAL(spin_eval_iv(q[0], q[1], q[2], q[3], q[4], skew[i], q[6],
                                               q[7], o[i]),
                                  ZVP_SUCCESS);
        for (int i = 1; i < 3; i++) {
            CU_ASSERT(o[i][5] == o[0][5]);
            CU_ASSERT(fabs(o[i][6] / o[0][6] - 1.0) <= 1e-4);
            CU_ASSERT(fabs(o[i][0] / o[0][0] - 1.0) <= 1e-4);
            CU_ASSERT(fabs(o[i][2] / o[0][2] - 1.0) <= 1e-4);
        }
    }
}

/* The model and its simulation at the point pt (cpus, work, hold, c2, zones, skew, handoff;
 * interval_s 60): out[7] and est[7]; each output of mask (bit j = output j) within 5 % of the
 * simulated mean plus its half-width; why[4] (collisions) is returned for the caller. */
static void eval_vs_sim(const double pt[7], const zvp_sim_options *o, unsigned mask,
                        double *out, zvp_sim_estimate *est, const char **why)
{
    const zvp_model *m = spin_model();
    double pr[8] = {0, 0, 0, 0, 0, 0, 0, 60.0};
    zvp_error e;
    memcpy(pr, pt, 7 * sizeof *pt);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, pr, out, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, pr, o, est, why, NULL, &e), ZVP_SUCCESS);
    for (int j = 0; j < 7; j++)
        if (mask & (1u << j))
            CU_ASSERT(fabs(out[j] - est[j].mean) <= 0.05 * est[j].mean + est[j].half_width);
}

/* A small skew without handoff (models/README.md, spinlock, "Small skew"): spin and the
 * busiest zone's utilization within 5 % of the simulated mean (plus its half-width). The
 * uniform solution enters the blend, but the busiest zone is still zone 1 of the skewed set
 * (share p_1 > 1/L): blending its utilization with the uniform set's put it 4.9 % low at
 * skew 0.05 (70.3 % against 73.9 % simulated). */
static void test_spinlock_small_skew(void)
{
    const double pts[][7] = {{64, 20, 1, 0, 16, 0.05, 0}, {64, 20, 1, 4, 16, 0.05, 0},
                             {64, 20, 1, 0, 16, 0.1, 0},  {64, 20, 1, 4, 16, 0.1, 0}};
    const zvp_sim_options o = sim_opts(100000, 5, 7);
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double out[7];
        zvp_sim_estimate est[7];
        const char *why[7];
        eval_vs_sim(pts[i], &o, 1u << 0 | 1u << 1, out, est, why); /* spin, utilization */
    }
}

/* Very light load with skew (work 3e8 us, hold 1e-6 us, 64 zones): MVA's ratio n - X Z over
 * X (cycle - Z) cancelled to 0 / 0 and the evaluation failed with an internal error (the
 * sweep over work_us stopped); the spin, the waiting summed directly, is of the order of
 * N^2 (S / Z)^2 S / S (here below 1e-20 %), not the 1e-13 % of rounding that N - X Z - busy
 * left. */
static void test_spinlock_light_load(void)
{
    const double works[] = {1e6, 2.43e8, 3e8, 1e9};
    for (size_t i = 0; i < sizeof works / sizeof works[0]; i++) {
        double out[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(64, works[i], 1e-6, 1, 64, 0.01, 0, out), ZVP_SUCCESS);
        CU_ASSERT(out[0] >= 0.0 && out[0] < 1e-15);
        CU_ASSERT(out[2] > 0.0 && fabs(out[2] / (64.0 / (works[i] * 1e-6)) - 1.0) < 1e-9);
    }
}

/* Where a collapsed state spins about as much as the symmetric one, the two differ in their
 * other outputs (lock utilization 100 % against 74 %): the collapsed state now enters with a
 * weight rising from 0 (README, "Time to collapse"), so a step of 1e-9 in hold_scv no longer
 * moves lock_util_pct by 26 % (16 CPUs, 4 zones, skew 0.02, handoff 0.3 us, work 6 us). */
static void test_spinlock_collapse_onset(void)
{
    double prev[7] = {0}, out[7];
    for (int i = 0; i <= 40; i++) {
        const double c2 = 0.0676910565 + 1e-11 * i;
        CU_ASSERT_EQUAL_FATAL(spin_eval(16, 6, 1, c2, 4, 0.02, 0.3, out), ZVP_SUCCESS);
        if (i > 0)
            for (int j = 0; j < 5; j++)
                CU_ASSERT(fabs(out[j] - prev[j]) <= 1e-4 * fabs(prev[j]) + 1e-12);
        memcpy(prev, out, sizeof out);
    }
    /* near saturation both states spin almost every CPU and the weight is measured against
     * the CPUs left not spinning: the collapsed state keeps its full weight, as simulated
     * (zvmperf simulate, 4 x 2e6 events, seed 1): 256 CPUs, 4 zones, skew 0.2, c2 0, work
     * 0.2571 us, handoff 0.3 us: 44,342 [44,274, 44,409] acquisitions/s (a weight measured
     * against the spin itself gave 1.74e6); 128 CPUs, 16 zones, skew 0.2, c2 2, work 4.6494 us:
     * spin 12,536 [12,517, 12,555] % (it gave 9,580) */
    CU_ASSERT_EQUAL_FATAL(spin_eval(256, 0.2571, 1, 0, 4, 0.2, 0.3, out), ZVP_SUCCESS);
    CU_ASSERT(fabs(out[2] / 44342.0 - 1.0) <= 0.05);
    CU_ASSERT_EQUAL_FATAL(spin_eval(128, 4.6494, 1, 2, 16, 0.2, 0.3, out), ZVP_SUCCESS);
    CU_ASSERT(fabs(out[0] / 12536.0 - 1.0) <= 0.05);
}

/* Spreading the requests over more zones never adds spin, and many zones give none. */
static void test_spinlock_many_zones(void)
{
    const double zones[] = {1, 4, 64, 1024, 65536};
    double prev = INFINITY, out[7];
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

/* Collisions of uniform zones: at c2 = 1 without handoff the network is product form, and an
 * acquisition finds its zone held with the probability U(N-1) of the population N - 1 (arrival
 * theorem), so collisions = X(N) U(N-1), X and U from exact MVA computed here (L single-server
 * stations of visit ratio 1/L, demand S/L each, and the delay Z). At c2 = 0.999 and with a
 * vanishing handoff (zone 1 solved by its chain) the answer must stay within 1 % of it (it was
 * L times too small: one zone's share of the collisions for the whole group). */
static void test_spinlock_collisions_uniform(void)
{
    const double cases[][4] = {{8, 4, 1, 4}, {16, 10, 1, 2}, {64, 45, 1, 16}, {256, 10, 1, 1024}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double N = cases[i][0], Z = cases[i][1] * 1e-6, S = cases[i][2] * 1e-6;
        const double L = cases[i][3], D = S / L;
        double Q = 0.0, X = 0.0, Uprev = 0.0, out[7];
        for (int n = 1; n <= (int)N; n++) {
            const double R = D * (1.0 + Q); /* per zone, visit ratio folded into D */
            Uprev = X * D;                  /* U(n-1) of one zone */
            X = n / (Z + L * R);
            Q = X * R;
        }
        const double coll = X * Uprev;
        CU_ASSERT_EQUAL_FATAL(spin_eval(N, cases[i][1], cases[i][2], 1, L, 0, 0, out),
                              ZVP_SUCCESS);
        CU_ASSERT_DOUBLE_EQUAL(out[4], coll, 1e-9 * coll);
        CU_ASSERT_EQUAL_FATAL(spin_eval(N, cases[i][1], cases[i][2], 0.999, L, 0, 0, out),
                              ZVP_SUCCESS);
        CU_ASSERT(fabs(out[4] - coll) <= 0.01 * coll);
        CU_ASSERT_EQUAL_FATAL(spin_eval(N, cases[i][1], cases[i][2], 1, L, 0, 1e-6, out),
                              ZVP_SUCCESS);
        CU_ASSERT(fabs(out[4] - coll) <= 0.01 * coll);
    }
}

/* The answer is continuous in the hold SCV: across c2 = 1 (exact MVA on one side, zone 1 by
 * its chain on the other: it jumped 2 % at 256 CPUs, 16 zones) and from constant holds to
 * near-constant ones past the chain's work budget (4096 CPUs, 4 zones: +23 % between c2 = 0
 * and 1e-6, then flat to 0.2). A 0.001 change of c2 moves the spin by under 0.5 %. */
static void test_spinlock_scv_continuous(void)
{
    const double sizes[][6] = {{8, 4, 1, 4, 0, 0},     {16, 10, 1, 2, 0, 0},
                               {256, 10, 1, 16, 0, 0}, {64, 45, 1, 16, 1.5, 0},
                               {4096, 1126, 1, 4, 0, 0}, {4096, 20000, 5, 1, 0, 0},
                               {64, 45, 1, 16, 0, 0.1}};
    const double pairs[][2] = {{0.999, 1.0}, {1.0, 1.001}, {0.0, 0.001}, {0.001, 0.002}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (size_t j = 0; j < sizeof pairs / sizeof pairs[0]; j++) {
            const double *c = sizes[i];
            double a[7], b[7];
            CU_ASSERT_EQUAL_FATAL(spin_eval(c[0], c[1], c[2], pairs[j][0], c[3], c[4], c[5], a),
                                  ZVP_SUCCESS);
            CU_ASSERT_EQUAL_FATAL(spin_eval(c[0], c[1], c[2], pairs[j][1], c[3], c[4], c[5], b),
                                  ZVP_SUCCESS);
            CU_ASSERT(fabs(a[0] - b[0]) <= 0.005 * b[0]);
            CU_ASSERT(fabs(a[4] - b[4]) <= 0.005 * b[4]);
        }
    }
    /* and in the handoff at 0 (product form on one side) */
    double a[7], b[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval(64, 45, 1, 1, 16, 0, 0, a), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval(64, 45, 1, 1, 16, 0, 1e-6, b), ZVP_SUCCESS);
    CU_ASSERT(fabs(a[0] - b[0]) <= 0.005 * a[0]);
}

/* Thousands of CPUs, several zones, near-constant holds (the chain's phases capped by its
 * budget, linear in c2 from the constant hold): 4096 CPUs, work 1126 us, hold 1 us, 4 zones,
 * c2 = 0.1: `zvmperf simulate spinlock` (5 replications x 2e6 events) gives 1856 % [1822,
 * 1890] (95 % interval); the analytic spin must be within 5 % of it (it was +12.8 %, 2093 %). */
static void test_spinlock_4096_near_constant(void)
{
    double out[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval(4096, 1126, 1, 0.1, 4, 0, 0, out), ZVP_SUCCESS);
    CU_ASSERT(fabs(out[0] - 1856.0) <= 0.05 * 1856.0);
}

/* Several zones with a handoff that grows with the spinners: the simulator settles where one
 * zone has captured nearly every CPU (its holds lengthen with its spinners), which the
 * symmetric MVA misses by 25-66 %; where the collapsed state spins more the analytic is the
 * time average over interval_s (60 s here) of a lock that starts symmetric and collapses
 * (microseconds to milliseconds at these points: the collapsed state). Expected values: `zvmperf simulate spinlock` (hold 1 us, c2 1, 5 replications x 2e5 events,
 * seed 1; 95 % intervals), spin within 5 % + the half-width. */
static void test_spinlock_handoff_collapse(void)
{
    const double pts[][10] = {
        /* cpus, work, hold, c2, zones, skew, handoff, sim mean, ci_lo, ci_hi */
        {64, 12.33, 1, 1, 16, 0, 0.3, 4978, 4961, 4994},
        {64, 4.714, 1, 1, 16, 0, 0.1, 4704, 4657, 4752},
        {64, 44.71, 1, 1, 2, 0, 0.1, 4734, 4717, 4751},
        {64, 52.33, 1, 1, 4, 0, 0.3, 4973, 4964, 4981},
        {16, 10.43, 1, 1, 2, 0, 0.3, 890.5, 882.9, 898},
        /* no collapse: the symmetric solution */
        {64, 12.33, 1, 1, 16, 0, 0.1, 218.3, 213.6, 223.1},
        {16, 12.33, 1, 1, 4, 0, 0.3, 64.97, 63.9, 66.05},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        const double *c = pts[i], hw = 0.5 * (c[9] - c[8]);
        double out[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(c[0], c[1], c[2], c[3], c[4], c[5], c[6], out),
                              ZVP_SUCCESS);
        CU_ASSERT(fabs(out[0] - c[7]) <= 0.05 * c[7] + hw);
        /* bistable: the first five settle collapsed in the simulator, the last two not */
        CU_ASSERT_EQUAL(out[5], i < 5 ? 1.0 : 0.0);
    }
    /* the collapse exists but a run started empty stays symmetric (256 CPUs, 28 zones, handoff
     * 0.1 us: simulated 148 % [147.9, 149.0], 4 x 2e6 events): flagged, and a lock takes far
     * longer than the default 60 s to collapse, so the answer is the symmetric state (it was
     * the collapsed one, 19,108 %); 32 zones have no collapsed state (simulated 124.06
     * [123.6, 124.5]) */
    double b[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval(256, 45, 1, 1, 28, 0, 0.1, b), ZVP_SUCCESS);
    CU_ASSERT(b[5] == 1.0 && fabs(b[0] - 148.0) <= 0.05 * 148.0 + 0.55);
    CU_ASSERT(b[6] > 60.0 && b[6] < 1e300);
    CU_ASSERT_EQUAL_FATAL(spin_eval(256, 45, 1, 1, 32, 0, 0.1, b), ZVP_SUCCESS);
    CU_ASSERT(b[5] == 0.0 && fabs(b[0] - 124.06) <= 0.05 * 124.06 + 0.45);
    CU_ASSERT(b[6] == 1e300); /* never */
    /* without a handoff there is one state at every size */
    const double nh[][4] = {{2, 1, 0, 4}, {8, 5, 1, 16}, {64, 45, 4, 1024}, {256, 200, 0.5, 4}};
    for (size_t i = 0; i < sizeof nh / sizeof nh[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(spin_eval(nh[i][0], nh[i][1], 1, nh[i][2], nh[i][3], 0, 0, b),
                              ZVP_SUCCESS);
        CU_ASSERT_EQUAL(b[5], 0.0);
    }
    /* one CPU never collides, whatever the handoff (review: the collapsed state won on rounding
     * noise, bistable 1 and 78,583 collisions/s at handoff 1e-9 us) */
    CU_ASSERT_EQUAL_FATAL(spin_eval(1, 0.12754866279626625, 0.031076911470425277, 4, 4, 1.5, 1e-9,
                                    b), ZVP_SUCCESS);
    CU_ASSERT(b[5] == 0.0 && b[4] == 0.0 && b[0] == 0.0);
    /* work 0 is the limit of work -> 0 (review: 1236 % symmetric at 0, 1445 % collapsed at
     * 1e-9 us); simulated at work 0 (16 CPUs, 4 zones, handoff 0.3 us, 4 x 4e5 events):
     * 1442.15 % [1441.92, 1442.37] */
    double b0[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval(16, 0, 1, 1, 4, 0, 0.3, b0), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval(16, 1e-9, 1, 1, 4, 0, 0.3, b), ZVP_SUCCESS);
    for (int k = 0; k < 7; k++)
        CU_ASSERT(fabs(b0[k] - b[k]) <= 1e-6 * fabs(b[k]) + 1e-12);
    CU_ASSERT(fabs(b0[0] - 1442.15) <= 0.05 * 1442.15 + 0.23);
    /* one CPU never waits: spin exactly 0, several zones and a handoff included */
    double out[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval(1, 3, 1, 0.5, 4, 0, 0.2, out), ZVP_SUCCESS);
    CU_ASSERT(out[0] == 0.0 && out[3] == 0.0 && out[4] == 0.0);
    CU_ASSERT_EQUAL_FATAL(spin_eval(1, 3, 1, 4, 1, 0, 0, out), ZVP_SUCCESS);
    CU_ASSERT(out[0] == 0.0 && out[3] == 0.0);
    CU_ASSERT_DOUBLE_EQUAL(out[2], 1e6 / 4.0, 1e-9 * 1e6);
}

/* The time to collapse (models/README.md, spinlock, "Time to collapse"): the outputs are the
 * time average over interval_s of a lock started symmetric that collapses at rate
 * 1 / collapse_time_s. (1) 256 CPUs, work 45 us, handoff 0.1 us, 28 and 30 zones: a collapsed
 * state exists (bistable) but a run started empty does not reach it; against the simulator
 * (4 x 2.5e5 events, seed 3) with interval_s the simulated time of one replication, events /
 * (2 X) (two events per acquisition), the spin within 5 % + the half-width (before: 19,108 %
 * and 7,001 %, the collapsed state). (2) collapse_time_s finite and positive where bistable,
 * 1e300 (never) where not, one zone and two CPUs included. (3) interval_s -> 0: the symmetric
 * state (the lock starts there), continuously; a long interval where the collapse takes
 * microseconds: the settled collapse the simulator shows (64 CPUs, 16 zones, work 12.33 us,
 * handoff 0.3 us: 4978 [4961, 4994], 5 x 2e5 events), reached monotonically. (4) spin is
 * continuous in the handoff across the points where the answer's make-up changes (16 CPUs,
 * 4 zones, work 6 us: the collapsed state appearing at 0.2790 us, a second mode of zone 1's
 * chain at about 0.337 us, the collapsed state spinning more at about 0.352 us): no step
 * larger than three times its neighbours'. */
static void test_spinlock_collapse_time(void)
{
    const zvp_model *m = spin_model();
    const zvp_sim_options o = sim_opts(250000, 4, 3);
    const double zones[] = {28, 30};
    for (size_t i = 0; i < 2; i++) {
        double pr[8] = {256, 45, 1, 1, zones[i], 0, 0.1, 60}, out[7];
        zvp_sim_estimate est[7];
        const char *why[7];
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, pr, &o, est, why, NULL, &e), ZVP_SUCCESS);
        pr[7] = 250000.0 / (2.0 * est[2].mean);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, pr, out, &e), ZVP_SUCCESS);
        CU_ASSERT(out[5] == 1.0);
        CU_ASSERT(fabs(out[0] - est[0].mean) <= 0.05 * est[0].mean + est[0].half_width);
        CU_ASSERT(fabs(out[2] - est[2].mean) <= 0.05 * est[2].mean + est[2].half_width);
        CU_ASSERT(isnan(est[6].mean) && why[6] != NULL); /* analytic only */
    }
    /* (2) */
    const double bi[][7] = {{256, 45, 1, 1, 16, 0, 0.1},   {64, 12.33, 1, 1, 16, 0, 0.3},
                            {16, 0.43, 1, 1, 16, 0, 0.3},  {16, 6, 1, 1, 4, 0, 0.3},
                            {64, 4.714, 1, 0, 16, 0, 0.1}, {1024, 45, 1, 1, 64, 0, 0.05}};
    double a[7], b[7];
    for (size_t i = 0; i < sizeof bi / sizeof bi[0]; i++) {
        const double *c = bi[i];
        CU_ASSERT_EQUAL_FATAL(spin_eval(c[0], c[1], c[2], c[3], c[4], c[5], c[6], a),
                              ZVP_SUCCESS);
        CU_ASSERT(a[5] == 1.0 && a[6] > 0.0 && a[6] < 1e300);
    }
    const double never[][7] = {{64, 45, 1, 1, 16, 0, 0},  {64, 12.33, 1, 1, 16, 0, 0.1},
                               {64, 45, 1, 1, 1, 0, 0.3}, {2, 0.01, 1, 1, 16, 0, 1},
                               {1, 3, 1, 1, 4, 0, 0.2}};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) {
        const double *c = never[i];
        CU_ASSERT_EQUAL_FATAL(spin_eval(c[0], c[1], c[2], c[3], c[4], c[5], c[6], a),
                              ZVP_SUCCESS);
        CU_ASSERT(a[5] == 0.0 && a[6] == 1e300);
    }
    /* (3) */
    CU_ASSERT_EQUAL_FATAL(spin_eval_iv(64, 12.33, 1, 1, 16, 0, 0.3, 0.0, a), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval_iv(64, 12.33, 1, 1, 16, 0, 0.3, 1e-15, b), ZVP_SUCCESS);
    CU_ASSERT(a[6] < 1e-2); /* the collapse takes about a millisecond here */
    for (int k = 0; k < 5; k++)
        CU_ASSERT(fabs(a[k] - b[k]) <= 1e-6 * fabs(a[k]));
    CU_ASSERT(a[0] < 0.5 * 4961.0); /* the symmetric state, far from the collapse */
    double prev = a[0];
    const double ivs[] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1.0, 60.0, 1e9};
    for (size_t i = 0; i < sizeof ivs / sizeof ivs[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(spin_eval_iv(64, 12.33, 1, 1, 16, 0, 0.3, ivs[i], b), ZVP_SUCCESS);
        CU_ASSERT(b[0] >= prev);
        prev = b[0];
    }
    CU_ASSERT(fabs(b[0] - 4978.0) <= 0.05 * 4978.0 + 17.0);
    /* (4) */
    double last = -1.0, step = -1.0;
    for (int i = 0; i <= 40; i++) {
        const double h = 0.27 + 0.0025 * i;
        CU_ASSERT_EQUAL_FATAL(spin_eval(16, 6, 1, 1, 4, 0, h, a), ZVP_SUCCESS);
        if (last >= 0.0) {
            const double s = fabs(a[0] - last);
            if (step >= 0.0)
                CU_ASSERT(s <= 3.0 * step + 1e-9 * a[0]);
            step = s;
        }
        last = a[0];
    }
    /* every output across the flag's flip at 0.2790 us: the step across it no larger than
     * twice the step before it */
    double z[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval(16, 6, 1, 1, 4, 0, 0.2787, z), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval(16, 6, 1, 1, 4, 0, 0.2789, a), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval(16, 6, 1, 1, 4, 0, 0.2791, b), ZVP_SUCCESS);
    CU_ASSERT(a[5] == 0.0 && b[5] == 1.0);
    for (int k = 0; k < 5; k++)
        CU_ASSERT(fabs(b[k] - a[k]) <= 2.0 * fabs(a[k] - z[k]) + 1e-9 * fabs(a[k]));
}

/* Several zones with a handoff in the symmetric state: fluctuations that put several spinners
 * on one zone lengthen its holds, and the CPUs they hold elsewhere come back faster, which zone
 * 1's chain with the rest of the cycle frozen (exponential between visits) misses (it was
 * -13 to -19 % on the first seven points); halfway to the rest relaxed (models/README.md,
 * spinlock, "Handoff"). Expected values: `zvmperf simulate spinlock cpus=N work_us=Z hold_us=1
 * hold_scv=C zones=L zone_skew=0 handoff_us=H --replications 4 --events 400000 --threads 1`
 * (95 % interval); the analytic spin within the interval widened by 5 % of the mean. The first
 * seven are the handoff grid's (the weight was chosen on it), the rest are held out. */
static void test_spinlock_handoff_symmetric(void)
{
    const double pts[][10] = {
        /* cpus, work, c2, zones, handoff, sim mean, ci_lo, ci_hi, bistable, before */
        {8, 1.857, 0, 4, 0.3, 232.8, 231.7, 234.0, 0, 197.6},
        {8, 5.667, 0, 4, 1, 96.18, 95.12, 97.23, 0, 77.9},
        {8, 1.857, 1, 4, 0.3, 274.7, 273.4, 276.0, 0, 238.6},
        {8, 5.667, 1, 4, 1, 123.8, 120.2, 127.3, 0, 99.9},
        {8, 0.6667, 0, 16, 1, 159.6, 157.7, 161.5, 0, 132.4},
        {8, 0.6667, 1, 16, 1, 200.2, 197.2, 203.2, 0, 169.4},
        {16, 4.714, 1, 4, 0.1, 355.4, 353.7, 357.1, 0, 334.2},
        /* held out */
        {4, 1, 0, 4, 1, 101.884, 101.273, 102.495, 0, 80.67},
        {6, 3, 0.5, 3, 0.7, 151.588, 149.922, 153.254, 0, 121.0},
        {8, 1.5, 4, 8, 0.5, 249.464, 247.11, 251.819, 0, 223.0},
        /* a collapsed state exists (bistable), the symmetric answer spins more */
        {12, 5, 1, 4, 0.5, 437.199, 434.19, 440.208, 1, 352.8},
        {12, 2, 0, 8, 0.5, 403.27, 396.528, 410.012, 1, 315.9},
        {16, 6, 1, 4, 0.3, 556.365, 549.789, 562.941, 1, 447.7},
        {16, 6, 0, 4, 0.3, 477.067, 464.347, 489.787, 1, 383.9},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        const double *c = pts[i];
        double out[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(c[0], c[1], 1, c[2], c[3], 0, c[4], out), ZVP_SUCCESS);
        CU_ASSERT(out[0] >= c[6] - 0.05 * c[5] && out[0] <= c[7] + 0.05 * c[5]);
        CU_ASSERT(c[9] < c[6] - 0.05 * c[5]); /* the earlier answer fails the same criterion */
        CU_ASSERT_EQUAL(out[5], c[8]);
    }
    /* continuous in the handoff at 0 where the correction is large, and growing with it */
    double a[7], b[7];
    CU_ASSERT_EQUAL_FATAL(spin_eval(8, 1.857, 1, 0, 4, 0, 0, a), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spin_eval(8, 1.857, 1, 0, 4, 0, 1e-7, b), ZVP_SUCCESS);
    for (int i = 0; i < 5; i++)
        CU_ASSERT(fabs(a[i] - b[i]) <= 1e-4 * fabs(a[i]));
    const double hs[] = {1e-4, 0.01, 0.1, 0.3, 0.5, 1.0};
    for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(spin_eval(8, 1.857, 1, 0, 4, 0, hs[i], b), ZVP_SUCCESS);
        CU_ASSERT(b[0] > a[0]);
        a[0] = b[0];
    }
    /* continuous where the collapsed state overtakes (8 CPUs, 4 zones, handoff = hold, work
     * about 4.2 us): steps of 0.01 us in work move the spin by under 1.5 % */
    CU_ASSERT_EQUAL_FATAL(spin_eval(8, 3.8, 1, 0, 4, 0, 1, a), ZVP_SUCCESS);
    int flips = 0;
    for (int k = 1; k <= 80; k++) {
        CU_ASSERT_EQUAL_FATAL(spin_eval(8, 3.8 + 0.01 * k, 1, 0, 4, 0, 1, b), ZVP_SUCCESS);
        CU_ASSERT(fabs(b[0] - a[0]) <= 0.015 * a[0]);
        flips += b[5] != a[5];
        memcpy(a, b, sizeof a);
    }
    CU_ASSERT_EQUAL(flips, 1); /* the sweep crosses the onset once */
}

/* collisions_per_s against an independent discrete-event simulation of the same network
 * written for the review (it counts the acquisitions that find their zone held, which
 * `zvmperf simulate` does not): mean ± 95 % half-width of 4 replications x 2e5 events, hold
 * 1 us; within 5 % + the half-width. Constant and H2 holds (uniform zones, where the group's
 * collisions were once one zone's share), skew, and the collapsed state with a handoff. */
static void test_spinlock_collisions_des(void)
{
    const double pts[][9] = {
        /* cpus, work, hold, c2, zones, skew, handoff, DES mean, half-width */
        {8, 4, 1, 0, 4, 0, 0, 5.240e5, 4.0e3},
        {8, 4, 1, 4, 4, 0, 0, 4.017e5, 4.7e3},
        {32, 20, 1, 4, 4, 0, 0, 4.954e5, 5.8e3},
        {16, 10, 1, 0, 4, 1.5, 0, 7.423e5, 4.8e3},
        {16, 6, 1, 1, 4, 0.5, 0.3, 3.087e5, 7.2e3},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        const double *c = pts[i];
        double out[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(c[0], c[1], c[2], c[3], c[4], c[5], c[6], out),
                              ZVP_SUCCESS);
        CU_ASSERT(fabs(out[4] - c[7]) <= 0.05 * c[7] + c[8]);
    }
}

/* Two CPUs, several zones, c2 = 1, no handoff: the network has product form, so exact MVA is
 * exact. With two customers (computed here): X1 = 1 / (Z + S), R_z = S (1 + X1 p_z S),
 * X = 2 / (Z + sum p_z R_z), spin = X sum p_z (R_z - S), U_z = X p_z S, and by the arrival
 * theorem an acquisition finds zone z held with U_z at one customer, X1 p_z S. Uniform and
 * Zipf zones (p_z = z^-s / sum y^-s). */
static void test_spinlock_pair_mva(void)
{
    const double cases[][4] = {/* work, zones, skew, hold */
                               {1, 2, 0, 1},   {0.01, 4, 0, 1},   {5, 16, 0, 2},
                               {0.3, 1024, 0, 1}, {0.5, 16, 1.5, 1}, {0.01, 1024, 1.5, 1},
                               {3, 4, 0.7, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double Z = cases[i][0], L = cases[i][1], sk = cases[i][2], S = cases[i][3];
        double norm = 0.0, rsum = 0.0, p2 = 0.0, pmax = 0.0, out[7];
        for (int z = 1; z <= (int)L; z++)
            norm += pow(z, -sk);
        const double X1 = 1.0 / (Z + S);
        for (int z = 1; z <= (int)L; z++) {
            const double p = pow(z, -sk) / norm;
            rsum += p * S * (1.0 + X1 * p * S);
            p2 += p * p;
            pmax = fmax(pmax, p);
        }
        const double X = 2.0 / (Z + rsum), spin = X * (rsum - S), coll = X * X1 * S * p2;
        CU_ASSERT_EQUAL_FATAL(spin_eval(2, Z, S, 1, L, sk, 0, out), ZVP_SUCCESS);
        CU_ASSERT_DOUBLE_EQUAL(out[0], 100.0 * spin, 1e-9 * 100.0 * spin);
        CU_ASSERT_DOUBLE_EQUAL(out[1], 100.0 * X * pmax * S, 1e-9 * 100.0);
        CU_ASSERT_DOUBLE_EQUAL(out[2], 1e6 * X, 1e-9 * 1e6 * X);
        CU_ASSERT_DOUBLE_EQUAL(out[3], spin / X, 1e-9 * spin / X);
        CU_ASSERT_DOUBLE_EQUAL(out[4], 1e6 * coll, 1e-9 * 1e6 * coll);
    }
}

/* The two-CPU chain with one zone against the one-zone departure chain (an independent
 * solution of the same queue): to 1e-6 for constant holds and the handoff (Erlang-K
 * extrapolated; the difference measured is at most 5e-7), to 1e-12 for the phase-type holds
 * (mixed Erlang, exponential, H2), which both represent exactly. */
static void test_spinlock_pair_one_zone(void)
{
    const double cases[][4] = {/* work, c2, handoff, hold (us) */
                               {1, 0, 0, 1},      {0.01, 0, 0, 1}, {2, 0, 0.5, 1},
                               {3, 0.3, 0.4, 1},  {7, 0.5, 0, 1},  {1, 1, 0, 1},
                               {1, 4, 0.25, 1},   {0.05, 4, 0, 1}, {1, 0.01, 0, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double Z = cases[i][0] * 1e-6, c2 = cases[i][1], h = cases[i][2] * 1e-6;
        const double S = cases[i][3] * 1e-6, one = 1.0;
        double w[ZVP_SPINLOCK_EXACT_SCRATCH(2)], X, ET, pi0, out[7];
        zvp_spinlock_exact(2, Z, S, c2, h, w, &X, &ET, &pi0);
        CU_ASSERT_EQUAL_FATAL(zvp_spinlock_pair(Z, S, c2, h, 1, &one, &one, out), ZVP_SUCCESS);
        const double spin = 100.0 * (2.0 - X * (Z + ET));
        const double tol = c2 == 0.0 || h > 0.0 ? 1e-6 : 1e-12;
        CU_ASSERT_DOUBLE_EQUAL(out[0], spin, tol * spin);
        CU_ASSERT_DOUBLE_EQUAL(out[1], 100.0 * X * ET, tol * 100.0);
        CU_ASSERT_DOUBLE_EQUAL(out[2], X, tol * X);
        CU_ASSERT_DOUBLE_EQUAL(out[4], X * (1.0 - pi0), tol * X);
    }
}

/* Two CPUs, constant holds, a small handoff (review): the Erlang stages of the handoff let two
 * holds cross, which constants never do, and put the collisions 17 % above the h = 0 answer at
 * h = 1e-6 us; the correction by the Erlang error at h = 0 keeps every output continuous in h
 * and the collisions near an independent discrete-event simulation of two CPUs (review,
 * 4 seeds x 1.5e5 acquisitions, hold 1 us, standard error about 0.2 %): 4 zones, work 0.01 us,
 * h = 0.001 us: 356,200 /s; 300 Zipf zones (skew 1), work 0.05 us, h = 0.001 us: 69,850 /s. */
static void test_spinlock_pair_small_handoff(void)
{
    const double cases[][4] = {/* zones, skew, work, simulated collisions at h = 0.001 */
                               {4, 0, 0.01, 356200}, {300, 1, 0.05, 69850}};
    for (size_t i = 0; i < 2; i++) {
        double a[7], b[7], c[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(2, cases[i][2], 1, 0, cases[i][0], cases[i][1], 0, a), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(spin_eval(2, cases[i][2], 1, 0, cases[i][0], cases[i][1], 1e-6, b), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(spin_eval(2, cases[i][2], 1, 0, cases[i][0], cases[i][1], 0.001, c), ZVP_SUCCESS);
        for (int k = 0; k < 5; k++)
            CU_ASSERT_DOUBLE_EQUAL(b[k], a[k], 1e-3 * fabs(a[k]) + 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(c[4], cases[i][3], 0.02 * cases[i][3]);
    }
}

/* Many skewed zones: the tail series (the small zone probabilities take A(p)^{-1} to p^2)
 * against the same chain solved zone by zone (rho = 0), 1e-7 relative on every output. */
static void test_spinlock_pair_tail(void)
{
    const double cases[][5] = {/* zones, skew, c2, handoff, work (us); hold 1 us */
                               {300, 1.0, 0, 0, 1},     {300, 0.5, 4, 0.1, 0.2},
                               {2000, 1.5, 0.5, 0, 0.05}, {1000, 1.0, 1, 0.3, 2},
                               {5000, 0.2, 0, 0.1, 0.5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const size_t L = (size_t)cases[i][0];
        double *m = malloc(2 * L * sizeof *m), *p = m + L, sum = 0.0, a[5], b[5];
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        for (size_t z = 0; z < L; z++) {
            m[z] = 1.0;
            sum += p[z] = pow((double)(z + 1), -cases[i][1]);
        }
        for (size_t z = 0; z < L; z++)
            p[z] /= sum;
        const double Z = cases[i][4] * 1e-6, S = 1e-6, c2 = cases[i][2], h = cases[i][3] * 1e-6;
        CU_ASSERT_EQUAL_FATAL(zvp_spinlock_pair_rho(Z, S, c2, h, L, m, p, 1e-3, a), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(zvp_spinlock_pair_rho(Z, S, c2, h, L, m, p, 0.0, b), ZVP_SUCCESS);
        for (int k = 0; k < 5; k++)
            CU_ASSERT_DOUBLE_EQUAL(a[k], b[k], 1e-7 * fabs(b[k]) + 1e-300);
        free(m);
    }
}

/* Two CPUs, several zones, against `zvmperf simulate spinlock` (5 replications x 1e6 events,
 * seed 1, hold 1 us; mean and 95 % half-width of spin_busy_pct, run for this test): the points
 * where the earlier approximation (zone 1 with an exponential time between visits) was off
 * by 4-8 %: constant holds at light work, 2 and 4 uniform zones (49.33 +- 0.08, 24.57 +-
 * 0.10), 16 Zipf zones (31.64 +- 0.14), H2 holds with 1024 Zipf zones (39.60 +- 0.16),
 * plus 2 zones at c2 = 4, near-constant Erlang (c2 = 0.01), handoffs and work 0 (25.00 +-
 * 0.08, where MVA gave 22.22). Within the half-width + 1 %. */
static void test_spinlock_pair_vs_simulation(void)
{
    const double pts[][8] = {
        /* work, c2, zones, skew, handoff, simulated mean, half-width, earlier analytic */
        {0.03, 0, 2, 0, 0, 47.977, 0.080, 50.81},
        {0.01, 0, 2, 0, 0, 49.333, 0.079, 52.54},
        {0.01, 0, 4, 0, 0, 24.571, 0.101, 26.36},
        {0.01, 0, 16, 1.5, 0, 31.636, 0.139, 30.47},
        {0.01, 4, 1024, 1.5, 0, 39.601, 0.157, 42.20},
        {1, 4, 2, 0, 0, 32.026, 0.086, 31.76},
        {0.01, 0.01, 4, 0, 0, 25.135, 0.082, 26.53},
        {0.01, 0, 4, 0, 0.1, 25.230, 0.095, 26.32},
        {1, 0, 4, 0, 0.3, 7.012, 0.048, 7.00},
        {0.3, 0.5, 16, 1, 0.2, 12.888, 0.063, 12.45},
        {1, 1, 2, 0, 0.5, 24.126, 0.105, 23.08},
        {0, 0, 4, 0, 0, 25.003, 0.080, 22.22}, /* work 0: the limit */
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        const double *c = pts[i];
        double out[7];
        CU_ASSERT_EQUAL_FATAL(spin_eval(2, c[0], 1, c[1], c[2], c[3], c[4], out), ZVP_SUCCESS);
        CU_ASSERT(fabs(out[0] - c[5]) <= c[6] + 0.01 * c[5]);
    }
}

static void test_spinlock_out_of_range(void)
{
    double out[7];
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

/* Analytic spin within 5 % of the simulated mean (plus its half-width): one zone (the exact
 * departure chain, any SCV and utilization, with the handoff), any SCV with many zones, SCV 1
 * with any zones. Not every region meets 5 %: models/README.md (spinlock, "Validity range")
 * gives the measured grids; outside it are 2 CPUs with several zones and c2 far from 1 (up to
 * +7.2 %), and several zones with a handoff in the transition to the collapsed state (bistable:
 * 16 CPUs, 16 zones, handoff 0.3 us, work 0.43 us: +26 %), which this grid does not contain. */
static void test_spinlock_vs_simulation(void)
{
    const double grid[][7] = {
        {2, 1, 1, 1, 1, 0, 0},       {8, 20, 1, 1, 1, 0, 0},      {256, 2000, 1, 1, 1, 0, 0},
        {256, 200, 1, 1, 1, 0, 0},   {64, 45, 1, 1, 16, 0, 0},    {64, 45, 1, 0, 16, 0, 0},
        {64, 45, 1, 4, 16, 0, 0},    {64, 45, 1, 0, 16, 1.5, 0},  {128, 45, 1, 1, 1024, 1.5, 0},
        {256, 10, 1, 0, 1024, 0, 0}, {256, 10, 1, 4, 1024, 0, 0}, {64, 45, 1, 1, 1, 0, 0.1},
        {16, 100, 1, 1, 4, 1, 0.2},
        /* one zone, non-exponential holds, high utilization: the exact departure chain */
        {2, 1, 1, 4, 1, 0, 0},       {8, 7, 1, 0, 1, 0, 0},       {8, 20, 1, 4, 1, 0, 0},
        {32, 31, 1, 4, 1, 0, 0},     {16, 20, 1, 4, 1, 0, 0},     {12, 20, 1, 4, 1, 0, 0},
        {16, 20, 1, 0.5, 1, 0, 0.1}, {16, 20, 1, 4, 1, 0, 0.1},   {256, 200, 1, 4, 1, 0, 0},
        /* a few zones or a dominant zone, non-exponential holds: zone 1 exactly */
        {64, 45, 1, 4, 16, 1.5, 0},  {32, 20, 1, 4, 4, 1, 0},     {16, 10, 1, 0, 4, 1.5, 0},
        {16, 10, 1, 4, 2, 0, 0},     {32, 20, 1, 4, 4, 0, 0},     {64, 45, 1, 1, 16, 0, 0.1},
    };
    const zvp_sim_options o = sim_opts(50000, 5, 12);
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++) {
        double out[7];
        zvp_sim_estimate est[7];
        const char *why[7];
        eval_vs_sim(grid[i], &o, 1u << 0 | 1u << 2, out, est, why); /* spin, acquisitions */
        CU_ASSERT_PTR_NULL(why[0]);
        CU_ASSERT_PTR_NOT_NULL(why[4]); /* collisions are not simulated */
        CU_ASSERT(isnan(est[4].mean));
    }
}

/* Replications that disagree by more than their mean (here: spin is rare, 2 CPUs each
 * requesting a 1 us lock every 1000 us, 5 runs of 2000 events: a few runs see some spin, the
 * others none) give a t-interval reaching below 0 for a figure that cannot be negative: the
 * simulator clips ci_lo to 0 and counts the figure in zvp_sim_result.clipped (the CLI prints a
 * NOT CONVERGED warning). A converged run clips nothing. */
static void test_spinlock_sim_clipped(void)
{
    const zvp_model *m = spin_model();
    zvp_sim_options o = sim_opts(2000, 5, 12);
    const double rare[8] = {2, 1000, 1, 1, 1, 0, 0, 60}, busy[8] = {8, 20, 1, 1, 1, 0, 0, 60};
    zvp_sim_estimate est[7];
    const char *why[7];
    zvp_sim_result *r = NULL;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, rare, &o, est, why, &r, &e), ZVP_SUCCESS);
    CU_ASSERT(r->clipped > 0);
    CU_ASSERT(est[0].mean > 0.0 && est[0].mean < est[0].half_width); /* crossed 0 */
    CU_ASSERT(est[0].ci_lo == 0.0);
    CU_ASSERT_DOUBLE_EQUAL(est[0].ci_hi, est[0].mean + est[0].half_width, 1e-12);
    zvp_sim_result_free(r);
    r = NULL;
    o.events = 50000;
    CU_ASSERT_EQUAL_FATAL(zvp_model_simulate(m, busy, &o, est, why, &r, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(r->clipped, 0);
    CU_ASSERT(est[0].ci_lo > 0.0);
    zvp_sim_result_free(r);
}

/* The hook: a model without a network is refused by name; repairman's network agrees with
 * its exact eval; a bad parameter is refused before simulating. */
static void test_model_simulate_hook(void)
{
    zvp_error e;
    zvp_sim_estimate est[16];
    zvp_sim_options o = sim_opts(50000, 5, 1); /* seed 1: the default */
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
        !CU_add_test(s, "two_cpus_closed_form", test_spinlock_two_cpus) ||
        !CU_add_test(s, "md1n_exact", test_spinlock_md1n) ||
        !CU_add_test(s, "many_cpus_exact", test_spinlock_many_cpus) ||
        !CU_add_test(s, "budget_continuous", test_spinlock_budget_continuous) ||
        !CU_add_test(s, "many_zones_no_spin", test_spinlock_many_zones) ||
        !CU_add_test(s, "collisions_uniform", test_spinlock_collisions_uniform) ||
        !CU_add_test(s, "scv_continuous", test_spinlock_scv_continuous) ||
        !CU_add_test(s, "near_constant_4096", test_spinlock_4096_near_constant) ||
        !CU_add_test(s, "handoff_collapse", test_spinlock_handoff_collapse) ||
        !CU_add_test(s, "handoff_symmetric", test_spinlock_handoff_symmetric) ||
        !CU_add_test(s, "collapse_time", test_spinlock_collapse_time) ||
        !CU_add_test(s, "bounds_skew_handoff", test_spinlock_bounds_skew_handoff) ||
        !CU_add_test(s, "little_mixed", test_spinlock_little_mixed) ||
        !CU_add_test(s, "ctime_blend", test_spinlock_ctime_blend) ||
        !CU_add_test(s, "skew_continuous", test_spinlock_skew_continuous) ||
        !CU_add_test(s, "small_skew", test_spinlock_small_skew) ||
        !CU_add_test(s, "light_load", test_spinlock_light_load) ||
        !CU_add_test(s, "collapse_onset", test_spinlock_collapse_onset) ||
        !CU_add_test(s, "collisions_des", test_spinlock_collisions_des) ||
        !CU_add_test(s, "pair_mva_exact", test_spinlock_pair_mva) ||
        !CU_add_test(s, "pair_one_zone", test_spinlock_pair_one_zone) ||
        !CU_add_test(s, "pair_tail", test_spinlock_pair_tail) ||
        !CU_add_test(s, "pair_small_handoff", test_spinlock_pair_small_handoff) ||
        !CU_add_test(s, "pair_vs_simulation", test_spinlock_pair_vs_simulation) ||
        !CU_add_test(s, "out_of_range", test_spinlock_out_of_range) ||
        !CU_add_test(s, "vs_simulation", test_spinlock_vs_simulation) ||
        !CU_add_test(s, "sim_clipped", test_spinlock_sim_clipped) ||
        !CU_add_test(s, "model_simulate_hook", test_model_simulate_hook))
        return (int)CU_get_error();
    return 0;
}
