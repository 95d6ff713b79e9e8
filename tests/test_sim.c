/*
 * tests/test_sim.c - the discrete-event simulator (include/zvmperf/sim.h) against queueing
 * theory. Every expected value is an independent closed form, written out beside its test (not
 * the library's kernels), and every run also checks Little's law (Q = X R per cell of the
 * means, within 1%). Runs are short (a few hundred thousand events) with fixed seeds, so the
 * results are deterministic; the tolerances allow for the simulation error: the exact value
 * must lie within 4 half-widths of the 95% interval and within a few percent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/sim.h"

static zvp_sim_station station(int kind, int servers, int disc, double scv)
{
    zvp_sim_station s = {kind, servers, disc, ZVP_SIM_DIST_PHASE, scv, 0.0, 0.0};
    return s;
}

static zvp_sim_result *run(const zvp_sim_network *net, uint64_t events, uint32_t reps,
                           uint64_t seed)
{
    zvp_sim_options o;
    zvp_sim_result *r = NULL;
    zvp_error e;
    zvp_sim_default_options(&o);
    o.events = events;
    o.replications = reps;
    o.seed = seed;
    int rc = zvp_sim_run(net, &o, &r, &e);
    CU_ASSERT_EQUAL_FATAL(rc, ZVP_SUCCESS);
    if (rc)
        fprintf(stderr, "zvp_sim_run: %s\n", e.message);
    /* Little's law on every run */
    CU_ASSERT(r->little_max_rel < 0.01);
    return r;
}

/* sim within 4 half-widths and within rel of exact */
static void near(const zvp_sim_estimate *e, double exact, double rel, const char *what)
{
    int ok = fabs(e->mean - exact) <= 4.0 * e->half_width + 1e-12 &&
             fabs(e->mean - exact) <= rel * fabs(exact);
    CU_ASSERT(ok);
    if (!ok || getenv("ZVP_TEST_VERBOSE"))
        fprintf(stderr, "%s%s: simulated %.6g [%.6g, %.6g], exact %.6g\n", ok ? "" : "FAILED ",
                what, e->mean, e->ci_lo, e->ci_hi, exact);
}

/* ---- one open station ------------------------------------------------------------------ */

static zvp_sim_result *open1(zvp_sim_station st, double lambda, double s, uint64_t events,
                             uint32_t reps, uint64_t seed)
{
    zvp_sim_network net = {&st, 1, 1, &s, NULL, 1, 0, &lambda, NULL, NULL, NULL};
    return run(&net, events, reps, seed);
}

static void test_mm1(void)
{
    /* M/M/1, lambda 0.5, S 1: R = S/(1 - rho) = 2, L = rho/(1 - rho) = 1, U = 0.5; the
     * response time is exponential with rate mu - lambda = 0.5: p_q = -ln(1 - q)/0.5 */
    zvp_sim_result *r = open1(station(ZVP_STATION_QUEUE, 1, ZVP_SIM_FCFS, 1.0), 0.5, 1.0,
                              200000, 8, 11);
    const zvp_sim_figures *g = zvp_sim_cell(r, 0, 0);
    near(&g->response_s, 2.0, 0.03, "M/M/1 R");
    near(&g->queue_length, 1.0, 0.03, "M/M/1 L");
    near(&g->utilization, 0.5, 0.01, "M/M/1 U");
    near(&g->throughput_per_s, 0.5, 0.01, "M/M/1 X");
    /* Lq = rho^2/(1 - rho) = 0.5, W = rho/(mu - lambda) = 1 */
    near(&g->mean_in_queue, zvp_test_mm1_mean_in_queue(0.5), 0.04, "M/M/1 Lq");
    near(&g->wait_s, 1.0, 0.04, "M/M/1 W");
    near(&g->p50_s, log(2.0) / 0.5, 0.05, "M/M/1 p50");
    near(&g->p95_s, log(20.0) / 0.5, 0.05, "M/M/1 p95");
    near(&g->p99_s, log(100.0) / 0.5, 0.08, "M/M/1 p99");
    CU_ASSERT(g->response_s.ci_lo < g->response_s.mean && g->response_s.mean < g->response_s.ci_hi);
    CU_ASSERT_EQUAL(r->replications, 8);
    CU_ASSERT_EQUAL(r->events, 8 * 200000);
    /* the network cell of one station: the same response, jobs in system */
    near(&zvp_sim_cell(r, 1, 0)->response_s, 2.0, 0.03, "M/M/1 cycle R");
    zvp_sim_result_free(r);
}

/* Erlang C by the Erlang B recurrence B_0 = 1, B_j = a B_{j-1}/(j + a B_{j-1});
 * C = c B/(c - a (1 - B)). */
static double erlang_c(unsigned c, double a)
{
    double b = 1.0;
    for (unsigned j = 1; j <= c; j++)
        b = a * b / (j + a * b);
    return c * b / (c - a * (1.0 - b));
}

static void test_mmc(void)
{
    /* M/M/3, lambda 2.4, S 1 (a = 2.4): Wq = C(3, a) S/(c - a), R = Wq + S, L = lambda R */
    const double a = 2.4, wq = erlang_c(3, a) / (3.0 - a);
    zvp_sim_result *r = open1(station(ZVP_STATION_MULTI, 3, ZVP_SIM_FCFS, 1.0), a, 1.0, 200000,
                              8, 12);
    const zvp_sim_figures *g = zvp_sim_cell(r, 0, 0);
    near(&g->response_s, wq + 1.0, 0.03, "M/M/3 R");
    near(&g->queue_length, a * (wq + 1.0), 0.03, "M/M/3 L");
    near(&g->utilization, a / 3.0, 0.01, "M/M/3 U");
    zvp_sim_result_free(r);
}

static void test_mg1(void)
{
    /* M/G/1 (Pollaczek-Khinchine): Wq = rho S (1 + SCV) / (2 (1 - rho)), rho = 0.6, S = 1,
     * for deterministic (SCV 0: M/D/1), mixed Erlang (0.3), Erlang-4 (0.25), H2 (3) and a
     * lognormal (2) service; FCFS and random order have the same mean. */
    const double rho = 0.6;
    static const struct { double scv; int dist, disc; } cases[] = {
        {0.0, ZVP_SIM_DIST_PHASE, ZVP_SIM_FCFS},  {0.3, ZVP_SIM_DIST_PHASE, ZVP_SIM_FCFS},
        {0.25, ZVP_SIM_DIST_PHASE, ZVP_SIM_ROS},  {3.0, ZVP_SIM_DIST_PHASE, ZVP_SIM_FCFS},
        {2.0, ZVP_SIM_DIST_LOGNORMAL, ZVP_SIM_FCFS}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zvp_sim_station st = station(ZVP_STATION_QUEUE, 1, cases[i].disc, cases[i].scv);
        st.dist = cases[i].dist;
        zvp_sim_result *r = open1(st, rho, 1.0, 200000, 8, 20 + i);
        const double w = rho * (1.0 + cases[i].scv) / (2.0 * (1.0 - rho));
        near(&zvp_sim_cell(r, 0, 0)->response_s, w + 1.0, 0.04, "M/G/1 R");
        zvp_sim_result_free(r);
    }
    /* M/G/1-PS is insensitive: R = S/(1 - rho) for any SCV (here H2, SCV 4) */
    zvp_sim_result *r = open1(station(ZVP_STATION_QUEUE, 1, ZVP_SIM_PS, 4.0), rho, 1.0, 200000,
                              8, 30);
    near(&zvp_sim_cell(r, 0, 0)->response_s, 1.0 / (1.0 - rho), 0.04, "M/G/1-PS R");
    near(&zvp_sim_cell(r, 0, 0)->utilization, rho, 0.02, "M/G/1-PS U");
    zvp_sim_result_free(r);
}

/* ---- the repairman (finite source) ------------------------------------------------------ */

static void test_repairman(void)
{
    /* N = 8 sources, think Z = 4, hold S = 1, one server: p_k = p_0 N!/(N-k)! (S/Z)^k,
     * U = 1 - p_0 (= 1 - ErlangB(N, Z/S)), X = U/S, L = sum k p_k, R = L/X; the mean is the
     * same under FCFS and random order (the order does not change the number present). */
    const unsigned N = 8;
    double p[9], sum = 0.0, L = 0.0;
    p[0] = 1.0;
    for (unsigned k = 1; k <= N; k++)
        p[k] = p[k - 1] * (double)(N - k + 1) * (1.0 / 4.0);
    for (unsigned k = 0; k <= N; k++)
        sum += p[k];
    for (unsigned k = 0; k <= N; k++)
        L += k * p[k] / sum;
    const double U = 1.0 - p[0] / sum, X = U;
    /* independent check of the chain: 1 - U is Erlang B(8, 4) */
    ZVP_ASSERT_REL(p[0] / sum, zvp_test_erlang_b(8, 4.0), 1e-12);
    for (int disc = ZVP_SIM_FCFS; disc <= ZVP_SIM_PS; disc++) {
        zvp_sim_station st = station(ZVP_STATION_QUEUE, 1, disc, 1.0);
        double d = 1.0, z = 4.0;
        unsigned long n = N;
        zvp_sim_network net = {&st, 1, 1, &d, NULL, 0, 0, NULL, &n, &z, NULL};
        zvp_sim_result *r = run(&net, 200000, 8, 40 + (uint64_t)disc);
        const zvp_sim_figures *g = zvp_sim_cell(r, 0, 0);
        near(&g->utilization, U, 0.02, "repairman U");
        near(&g->throughput_per_s, X, 0.02, "repairman X");
        near(&g->queue_length, L, 0.03, "repairman L");
        near(&g->response_s, L / X, 0.03, "repairman R");
        /* the spinning sources: Lq = L - U (one server) */
        near(&g->mean_in_queue, L - U, 0.03, "repairman Lq");
        zvp_sim_result_free(r);
    }
}

/* ---- a product-form closed network against exact MVA (written out here) ----------------- */

static void test_closed_network(void)
{
    /* think Z = 2 (exponential); a FCFS queue (exponential, D 0.3), a PS queue (H2, SCV 3,
     * D 0.2: insensitive), a delay (deterministic, D 0.5: insensitive); N = 5. Exact MVA
     * (Reiser & Lavenberg 1980): R_k(n) = D_k (1 + Q_k(n-1)) at a queue, D_k at a delay;
     * X(n) = n / (Z + sum R_k(n)); Q_k(n) = X(n) R_k(n). */
    const double D[3] = {0.3, 0.2, 0.5}, Z = 2.0;
    const int delay[3] = {0, 0, 1};
    double Q[3] = {0, 0, 0}, R[3], X = 0;
    for (int n = 1; n <= 5; n++) {
        double s = Z;
        for (int k = 0; k < 3; k++)
            s += R[k] = delay[k] ? D[k] : D[k] * (1.0 + Q[k]);
        X = n / s;
        for (int k = 0; k < 3; k++)
            Q[k] = X * R[k];
    }
    zvp_sim_station st[3] = {station(ZVP_STATION_QUEUE, 1, ZVP_SIM_FCFS, 1.0),
                             station(ZVP_STATION_QUEUE, 1, ZVP_SIM_PS, 3.0),
                             station(ZVP_STATION_DELAY, 1, ZVP_SIM_FCFS, 0.0)};
    unsigned long n = 5;
    zvp_sim_network net = {st, 3, 1, D, NULL, 0, 0, NULL, &n, &Z, NULL};
    zvp_sim_result *r = run(&net, 200000, 8, 50);
    near(&zvp_sim_cell(r, 3, 0)->throughput_per_s, X, 0.02, "MVA X");
    near(&zvp_sim_cell(r, 3, 0)->response_s, 5.0 / X - Z, 0.03, "MVA R");
    for (size_t k = 0; k < 3; k++) {
        near(&zvp_sim_cell(r, k, 0)->queue_length, Q[k], 0.04, "MVA Q_k");
        near(&zvp_sim_cell(r, k, 1)->utilization, X * D[k], 0.03, "MVA U_k");
    }
    zvp_sim_result_free(r);
}

/* ---- an open multiclass network (BCMP, PS stations) ------------------------------------- */

static void test_open_multiclass(void)
{
    /* two classes, lambda = (0.3, 0.2), demands D = [[1, 0.5], [0.5, 2]] (class-major) on two
     * PS stations: U_k = sum_c lambda_c D_ck, R_ck = D_ck/(1 - U_k) (BCMP 1975) */
    const double lam[2] = {0.3, 0.2}, D[4] = {1.0, 0.5, 0.5, 2.0};
    const double U[2] = {0.3 * 1.0 + 0.2 * 0.5, 0.3 * 0.5 + 0.2 * 2.0};
    zvp_sim_station st[2] = {station(ZVP_STATION_QUEUE, 1, ZVP_SIM_PS, 1.0),
                             station(ZVP_STATION_QUEUE, 1, ZVP_SIM_PS, 1.0)};
    zvp_sim_network net = {st, 2, 2, D, NULL, 1, 0, lam, NULL, NULL, NULL};
    zvp_sim_result *r = run(&net, 200000, 8, 60);
    for (size_t k = 0; k < 2; k++) {
        near(&zvp_sim_cell(r, k, 2)->utilization, U[k], 0.02, "open U_k");
        for (size_t c = 0; c < 2; c++) {
            near(&zvp_sim_cell(r, k, c)->response_s, D[c * 2 + k] / (1.0 - U[k]), 0.04,
                 "open R_ck");
            near(&zvp_sim_cell(r, k, c)->utilization, lam[c] * D[c * 2 + k], 0.04, "open U_ck");
        }
    }
    zvp_sim_result_free(r);
}

/* ---- handoff cost, thread independence, stopping rule, batch means, coverage ------------ */

static void test_handoff(void)
{
    /* N = 2, Z = 0, deterministic hold 1: one holds, one waits, always; every handoff finds
     * n_waiting = 1, so each hold is 1 + h0 + h1 and X = 1/(1 + h0 + h1) = 1/1.75 exactly
     * (up to the first, uncontended acquisition). With N = 1 nobody waits: X = 1/(Z + S). */
    zvp_sim_station st = station(ZVP_STATION_QUEUE, 1, ZVP_SIM_ROS, 0.0);
    st.handoff0_s = 0.5;
    st.handoff1_s = 0.25;
    double d = 1.0, z = 0.0;
    unsigned long n = 2;
    zvp_sim_network net = {&st, 1, 1, &d, NULL, 0, 0, NULL, &n, &z, NULL};
    zvp_sim_result *r = run(&net, 10000, 4, 70);
    ZVP_ASSERT_REL(zvp_sim_cell(r, 0, 0)->throughput_per_s.mean, 1.0 / 1.75, 1e-3);
    zvp_sim_result_free(r);
    n = 1;
    z = 3.0;
    r = run(&net, 20000, 4, 71);
    near(&zvp_sim_cell(r, 0, 0)->throughput_per_s, 1.0 / 4.0, 0.02, "handoff N=1 X");
    ZVP_ASSERT_REL(zvp_sim_cell(r, 0, 0)->response_s.mean, 1.0, 1e-12);
    zvp_sim_result_free(r);
}

static void test_threads(void)
{
    /* the same seed gives bit-identical results on 1 and 2 threads */
    zvp_sim_station st = station(ZVP_STATION_QUEUE, 1, ZVP_SIM_ROS, 0.5);
    double d = 1.0, z = 5.0;
    unsigned long n = 10;
    zvp_sim_network net = {&st, 1, 1, &d, NULL, 0, 0, NULL, &n, &z, NULL};
    zvp_sim_result *r[2];
    for (int t = 0; t < 2; t++) {
        zvp_sim_options o;
        zvp_sim_default_options(&o);
        o.events = 20000;
        o.replications = 6;
        o.seed = 99;
        o.threads = t + 1;
        CU_ASSERT_EQUAL_FATAL(zvp_sim_run(&net, &o, &r[t], NULL), ZVP_SUCCESS);
    }
    CU_ASSERT(memcmp(r[0]->cells, r[1]->cells, 4 * sizeof(zvp_sim_figures)) == 0);
    zvp_sim_result_free(r[0]);
    zvp_sim_result_free(r[1]);
}

static void test_precision_and_batches(void)
{
    zvp_sim_station st = station(ZVP_STATION_QUEUE, 1, ZVP_SIM_FCFS, 1.0);
    double d = 1.0, lam = 0.5;
    zvp_sim_network net = {&st, 1, 1, &d, NULL, 1, 0, &lam, NULL, NULL, NULL};
    zvp_sim_options o;
    zvp_sim_result *r = NULL;
    zvp_sim_default_options(&o);
    o.events = 20000;
    o.replications = 4;
    o.precision = 0.05;
    CU_ASSERT_EQUAL_FATAL(zvp_sim_run(&net, &o, &r, NULL), ZVP_SUCCESS);
    CU_ASSERT(r->precision_met == 1 && r->event_cap_hit == 0);
    CU_ASSERT(r->worst_precision <= 0.05);
    CU_ASSERT(r->replications % 4 == 0 && r->replications > 4);
    zvp_sim_result_free(r);
    /* an event cap of one more round stops it */
    o.precision = 1e-4;
    o.max_events = 2 * 4 * 20000;
    CU_ASSERT_EQUAL_FATAL(zvp_sim_run(&net, &o, &r, NULL), ZVP_SUCCESS);
    CU_ASSERT(r->precision_met == 0 && r->event_cap_hit == 1);
    CU_ASSERT_EQUAL(r->events, 8 * 20000);
    zvp_sim_result_free(r);
    /* one long run: batch means (M/M/1 at 0.5: R = 2) */
    r = run(&net, 400000, 1, 5);
    CU_ASSERT_EQUAL(r->units, 20);
    near(&zvp_sim_cell(r, 0, 0)->response_s, 2.0, 0.04, "batch means R");
    zvp_sim_result_free(r);
}

static void test_coverage(void)
{
    /* 200 independent short simulations of M/M/1 at rho = 0.5 (10 replications of 4000
     * events): the 95% interval of R covers the exact R = 2 in 90% to 99% of them */
    zvp_sim_station st = station(ZVP_STATION_QUEUE, 1, ZVP_SIM_FCFS, 1.0);
    double d = 1.0, lam = 0.5;
    zvp_sim_network net = {&st, 1, 1, &d, NULL, 1, 0, &lam, NULL, NULL, NULL};
    int cover = 0;
    for (uint64_t s = 0; s < 200; s++) {
        zvp_sim_options o;
        zvp_sim_result *r = NULL;
        zvp_sim_default_options(&o);
        o.events = 4000;
        o.replications = 10;
        o.seed = 1000 + s;
        o.reservoir = 64;
        CU_ASSERT_EQUAL_FATAL(zvp_sim_run(&net, &o, &r, NULL), ZVP_SUCCESS);
        const zvp_sim_estimate *e = &zvp_sim_cell(r, 0, 0)->response_s;
        cover += e->ci_lo <= 2.0 && 2.0 <= e->ci_hi;
        zvp_sim_result_free(r);
    }
    CU_ASSERT(cover >= 180 && cover <= 198);
    if (cover < 180 || cover > 198 || getenv("ZVP_TEST_VERBOSE"))
        fprintf(stderr, "coverage: %d of 200\n", cover);
}

static void test_draw(void)
{
    /* each family hits its mean and SCV (sample of 400000) */
    static const struct { int dist; double scv; } c[] = {
        {ZVP_SIM_DIST_PHASE, 0.0},  {ZVP_SIM_DIST_PHASE, 0.3}, {ZVP_SIM_DIST_PHASE, 0.25},
        {ZVP_SIM_DIST_PHASE, 1.0},  {ZVP_SIM_DIST_PHASE, 5.0}, {ZVP_SIM_DIST_LOGNORMAL, 0.5},
        {ZVP_SIM_DIST_LOGNORMAL, 2.0}};
    const size_t n = 400000;
    double *x = malloc(n * sizeof *x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(zvp_sim_draw(c[i].dist, 2.0, c[i].scv, 7 + i, n, x, NULL), 0);
        double m = 0, v = 0;
        for (size_t j = 0; j < n; j++)
            m += x[j];
        m /= (double)n;
        for (size_t j = 0; j < n; j++)
            v += (x[j] - m) * (x[j] - m);
        v /= (double)(n - 1);
        ZVP_ASSERT_REL(m, 2.0, 0.01);
        CU_ASSERT(fabs(v / (m * m) - c[i].scv) <= 0.05 * c[i].scv + 1e-12);
    }
    free(x);
}

static void test_errors(void)
{
    zvp_sim_station st = station(ZVP_STATION_QUEUE, 1, ZVP_SIM_FCFS, 1.0);
    double d = 1.0, lam = 1.5;
    zvp_sim_network net = {&st, 1, 1, &d, NULL, 1, 0, &lam, NULL, NULL, NULL};
    zvp_sim_result *r = (zvp_sim_result *)&net;
    zvp_error e;
    CU_ASSERT_EQUAL(zvp_sim_run(&net, NULL, &r, &e), ZVP_EUNSTABLE);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0]") && zvp_test_msg_has(&e, "1.5"));
    lam = 0.5;
    st.scv = -1;
    CU_ASSERT_EQUAL(zvp_sim_run(&net, NULL, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0].scv = -1"));
    st.scv = 1;
    st.discipline = 7;
    CU_ASSERT_EQUAL(zvp_sim_run(&net, NULL, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "discipline = 7"));
    st.discipline = 0;
    zvp_sim_options o;
    zvp_sim_default_options(&o);
    o.events = 10;
    CU_ASSERT_EQUAL(zvp_sim_run(&net, &o, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "events = 10"));
    zvp_sim_default_options(&o);
    o.replications = 1;
    o.precision = 0.01;
    CU_ASSERT_EQUAL(zvp_sim_run(&net, &o, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "replications"));
    CU_ASSERT_EQUAL(zvp_sim_draw(5, 1.0, 1.0, 1, 0, NULL, &e), ZVP_EINVAL);
}

int zvp_test_register_sim(void)
{
    CU_pSuite s = CU_add_suite("sim", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "mm1", test_mm1) || !CU_add_test(s, "mmc", test_mmc) ||
        !CU_add_test(s, "mg1", test_mg1) || !CU_add_test(s, "repairman", test_repairman) ||
        !CU_add_test(s, "closed_network", test_closed_network) ||
        !CU_add_test(s, "open_multiclass", test_open_multiclass) ||
        !CU_add_test(s, "handoff", test_handoff) || !CU_add_test(s, "threads", test_threads) ||
        !CU_add_test(s, "precision_and_batches", test_precision_and_batches) ||
        !CU_add_test(s, "coverage", test_coverage) || !CU_add_test(s, "draw", test_draw) ||
        !CU_add_test(s, "errors", test_errors))
        return (int)CU_get_error();
    return 0;
}
