/*
 * tests/test_networks.c - open multiclass networks, exact multiclass MVA, Schweitzer/Bard
 * approximate MVA, asymptotic and balanced job bounds, and the work limits of the solvers.
 *
 * Independent references (typed in from /usr/bin/python3 scripts, not from this code):
 * --- ref2.py (exact rationals with fractions.Fraction) -----------------------------------
 *   multiclass closed network by brute-force enumeration of all states (normalising
 *     constant with the multinomial factor at queues, D^n/n! at delays and think):
 *     D = [[1/2, 3/10, 1/5], [1/5, 7/10, 2/5]], kinds queue, queue, delay, Z = [3, 1],
 *     N = (3, 2): X_0 = G(N-1_0)/G(N) = 0.6578115086955592, X_1 = 0.6948479296909962,
 *     mean total at station 0 = 0.7153558577503621, station 1 = 1.2068602128564538
 *   Seidmann for 4 sources, Z = 2, one 2-server station S = 1: exact MVA on a queue of
 *     demand 1/2 plus a delay 1/2: X = 1888/1569 = 1.2033142128744423
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/queue.h"

/* ---- Open networks ------------------------------------------------------------------------- */

static void test_open_single_class(void)
{
    /* QSP sec. 6.2 formulas by hand: lambda = 2; D = 0.2 (queue), 0.3 (queue), 1.0 (delay),
     * 0.8 on 2 servers. U = 0.4, 0.6, -, 0.8. R = 0.2/0.6, 0.3/0.4, 1.0,
     * 0.8 (1 + C(2, 1.6)/(2 * 0.2)) with C(2,a) = a^2/(2+a) ... / closed M/M/2:
     * P(wait) = 2 rho^2/(1 + rho) = 1.28/1.8. */
    zvp_station st[4] = {zvp_test_station(0, 0, 1, 0.2), zvp_test_station(0, 0, 1, 0.3), zvp_test_station(1, 0, 1, 1.0), zvp_test_station(2, 2, 1, 0.8)};
    double lam = 2.0, r[4], q[4], u[4], rc;
    zvp_open_result res = {0, 0, 0, &rc, r, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_open_network(st, 4, NULL, &lam, 1, &res, &e), ZVP_SUCCESS);
    const double pw = 2 * 0.64 / 1.8, r3 = 0.8 * (1.0 + pw / (2 * 0.2));
    ZVP_ASSERT_REL(r[0], 0.2 / 0.6, 1e-14);
    ZVP_ASSERT_REL(r[1], 0.3 / 0.4, 1e-14);
    ZVP_ASSERT_REL(r[2], 1.0, 1e-15);
    ZVP_ASSERT_REL(r[3], r3, 1e-13);
    ZVP_ASSERT_REL(u[0], 0.4, 1e-15);
    ZVP_ASSERT_REL(u[3], 0.8, 1e-15);
    ZVP_ASSERT_REL(rc, 0.2 / 0.6 + 0.75 + 1.0 + r3, 1e-13);
    ZVP_ASSERT_REL(res.mean_in_system, lam * rc, 1e-13); /* Little */
    /* The m-server entry agrees with zvp_mmc (visit count 1, S = 0.8). */
    zvp_station_result m;
    CU_ASSERT_EQUAL_FATAL(zvp_mmc(2.0, 1.0 / 0.8, 2, &m, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r[3], m.response_s, 1e-13);
    /* zero arrival rate: R = D, Q = 0 */
    double zero = 0.0;
    CU_ASSERT_EQUAL_FATAL(zvp_open_network(st, 4, NULL, &zero, 1, &res, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r[0], 0.2, 1e-15);
    CU_ASSERT_EQUAL(res.mean_in_system, 0.0);
    CU_ASSERT_EQUAL(res.response_s, 0.0);
}

static void test_open_multiclass_and_saturation(void)
{
    /* Two classes, two queues: U_k = sum_c lam_c D_ck; R_ck = D_ck/(1 - U_k). */
    zvp_station st[2] = {zvp_test_station(0, 0, 1, 0), zvp_test_station(0, 0, 1, 0)};
    double d[4] = {0.1, 0.2, 0.3, 0.05}, lam[2] = {1.0, 2.0};
    double r[4], q[4], u[2], rc[2];
    zvp_open_result res = {0, 0, 0, rc, r, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_open_network(st, 2, d, lam, 2, &res, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(u[0], 0.7, 1e-14);
    ZVP_ASSERT_REL(u[1], 0.3, 1e-14);
    ZVP_ASSERT_REL(r[0], 0.1 / 0.3, 1e-13);
    ZVP_ASSERT_REL(r[3], 0.05 / 0.7, 1e-13);
    ZVP_ASSERT_REL(rc[1], 0.3 / 0.3 + 0.05 / 0.7, 1e-13);
    /* permuting the classes permutes the answers */
    double d2[4] = {0.3, 0.05, 0.1, 0.2}, lam2[2] = {2.0, 1.0}, r2[4], rc2[2];
    zvp_open_result res2 = {0, 0, 0, rc2, r2, NULL, NULL};
    CU_ASSERT_EQUAL_FATAL(zvp_open_network(st, 2, d2, lam2, 2, &res2, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(rc2[0], rc[1]);
    CU_ASSERT_EQUAL(rc2[1], rc[0]);
    CU_ASSERT_EQUAL(res2.response_s, res.response_s);
    /* saturated: the message names the station */
    double lam3[2] = {2.0, 3.0}; /* U_0 = 1.1 */
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_open_network(st, 2, d, lam3, 2, &res, &e), ZVP_EUNSTABLE);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0]") && zvp_test_msg_has(&e, "saturated"));
    CU_ASSERT(isnan(res.throughput_per_s));
    /* M/M/2 with lambda = 3, mu = 1 as an open network */
    zvp_station m2 = zvp_test_station(2, 2, 1, 1.0);
    double l3 = 3.0;
    CU_ASSERT_EQUAL(zvp_open_network(&m2, 1, NULL, &l3, 1, &res, &e), ZVP_EUNSTABLE);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0]") && zvp_test_msg_has(&e, "1.5"));
    /* zero servers, negative rate */
    zvp_station m0 = zvp_test_station(2, 0, 1, 1.0);
    CU_ASSERT_EQUAL(zvp_open_network(&m0, 1, NULL, &lam[0], 1, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "servers = 0"));
    double neg = -1.0;
    CU_ASSERT_EQUAL(zvp_open_network(&m2, 1, NULL, &neg, 1, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "arrival_rate_per_s[0]"));
}

/* ---- Exact multiclass MVA ---------------------------------------------------------------- */

static void test_multiclass_exact(void)
{
    zvp_station st[3] = {zvp_test_station(0, 0, 1, 0), zvp_test_station(0, 0, 1, 0), zvp_test_station(1, 0, 1, 0)};
    double d[6] = {0.5, 0.3, 0.2, 0.2, 0.7, 0.4}, z[2] = {3.0, 1.0};
    unsigned long n[2] = {3, 2};
    double x[2], r[2], rk[6], q[6], u[6];
    zvp_mva_multi_result res = {x, r, rk, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(st, 3, d, z, n, 2, &res, &e), ZVP_SUCCESS);
    /* ref2.py brute-force enumeration */
    ZVP_ASSERT_REL(x[0], 0.6578115086955592, 1e-13);
    ZVP_ASSERT_REL(x[1], 0.6948479296909962, 1e-13);
    ZVP_ASSERT_REL(q[0] + q[3], 0.7153558577503621, 1e-13);
    ZVP_ASSERT_REL(q[1] + q[4], 1.2068602128564538, 1e-13);
    /* response-time law and utilization law */
    ZVP_ASSERT_REL(r[0], 3.0 / x[0] - z[0], 1e-13);
    ZVP_ASSERT_REL(u[4], x[1] * 0.7, 1e-15);
    /* permuting classes and stations permutes the answers only */
    zvp_station sp[3] = {st[2], st[0], st[1]};
    double dp[6] = {0.4, 0.2, 0.7, 0.2, 0.5, 0.3}, zp[2] = {1.0, 3.0};
    unsigned long np_[2] = {2, 3};
    double xp[2], rp[2], rkp[6], qp[6], up[6];
    zvp_mva_multi_result resp = {xp, rp, rkp, qp, up};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(sp, 3, dp, zp, np_, 2, &resp, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(xp[0], x[1], 1e-14);
    ZVP_ASSERT_REL(xp[1], x[0], 1e-14);
    ZVP_ASSERT_REL(qp[4], q[0], 1e-14);
    ZVP_ASSERT_REL(qp[2], q[4], 1e-14);
    /* A class of zero customers leaves the others' answers unchanged, and one class equals
     * the single-class exact MVA (a different code path). */
    unsigned long n0[2] = {3, 0};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(st, 3, d, z, n0, 2, &res, &e), ZVP_SUCCESS);
    zvp_station s1[3] = {zvp_test_station(0, 0, 1, 0.5), zvp_test_station(0, 0, 1, 0.3), zvp_test_station(1, 0, 1, 0.2)};
    double r1[3], q1[3], u1[3];
    zvp_mva_result one = {0, 0, r1, q1, u1};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(s1, 3, 3.0, 3, &one, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(x[0], one.throughput_per_s, 1e-14);
    ZVP_ASSERT_REL(q[0], q1[0], 1e-14);
    CU_ASSERT_EQUAL(x[1], 0.0);
    ZVP_ASSERT_REL(rk[3], 0.2 * (1.0 + q1[0]), 1e-14); /* what an arrival would see */
    /* N = 1 per class alone: R = sum of demands */
    unsigned long n10[2] = {1, 0};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(st, 3, d, z, n10, 2, &res, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r[0], 1.0, 1e-15);
    /* multi-server with 2 <= m < N is refused (exact must be exact) */
    zvp_station sm[1] = {zvp_test_station(2, 2, 1, 1.0)};
    double dm[2] = {1.0, 1.0};
    unsigned long nm[2] = {2, 2};
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(sm, 1, dm, z, nm, 2, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "not supported") && zvp_test_msg_has(&e, "stations[0].servers = 2"));
    /* lattice limit */
    unsigned long big[2] = {100000, 100000};
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(st, 3, d, z, big, 2, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "ZVP_MVA_MAX_LATTICE"));
}

/* The lattice limits at their boundaries (issue 9: a clear error, fast; the largest accepted
 * lattice solves in well under a second with bounded memory). One queue D = 1, Z = 0, class 1
 * empty: R_0(n) = D (1 + Q(n-1)) gives Q(n) = n, so X_0 = 1/D and R_0 = N_0 D exactly. */
static void test_multiclass_lattice_boundary(void)
{
    zvp_station q = zvp_test_station(0, 0, 1, 0.0);
    /* per-station arrays sized for the two-station call at the end (classes x stations) */
    double d[2] = {1.0, 1.0}, z[2] = {0.0, 0.0}, x[2], r[2], rk[4], ql[4], u[4];
    zvp_mva_multi_result res = {x, r, rk, ql, u};
    zvp_error e;
    unsigned long at[2] = {ZVP_MVA_MAX_LATTICE - 1, 0}; /* lattice = the limit */
    CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(&q, 1, d, z, at, 2, &res, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(x[0], 1.0);
    CU_ASSERT_EQUAL(r[0], (double)(ZVP_MVA_MAX_LATTICE - 1));
    CU_ASSERT_EQUAL(ql[0], (double)(ZVP_MVA_MAX_LATTICE - 1));
    CU_ASSERT_EQUAL(x[1], 0.0);
    /* one more population: refused, naming the lattice size and the limit */
    unsigned long over[2] = {ZVP_MVA_MAX_LATTICE, 0};
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(&q, 1, d, z, over, 2, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "= 10000001 exceeds the limit ZVP_MVA_MAX_LATTICE = 10000000"));
    CU_ASSERT(isnan(x[0]) && isnan(r[0]));
    /* the examples of the finding: lattices 5e7 and 2.9e7 */
    unsigned long big1[2] = {49999999, 0}, big2[2] = {2537, 11615};
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(&q, 1, d, z, big1, 2, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "= 50000000 exceeds the limit ZVP_MVA_MAX_LATTICE"));
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(&q, 1, d, z, big2, 2, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "= 29481408 exceeds the limit ZVP_MVA_MAX_LATTICE"));
    /* the largest ring (class 1 has one customer: W = N_0 + 2 rows) at the work limit:
     * lattice 1e7 x 2 classes x 2 = ZVP_MVA_MAX_LATTICE_WORK. Class 1 alone (N_0 = 0)
     * would see X_1 = 1; with both classes the queue is shared and stays saturated:
     * X_0 + X_1 = 1/D (utilization law at a saturated single queue, Z = 0). */
    unsigned long ring[2] = {ZVP_MVA_MAX_LATTICE / 2 - 1, 1};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(&q, 1, d, z, ring, 2, &res, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(x[0] + x[1], 1.0, 1e-12);
    ZVP_ASSERT_REL(u[0] + u[1], 1.0, 1e-12);
    ZVP_ASSERT_REL(x[1], 1.0 / (double)(ZVP_MVA_MAX_LATTICE / 2), 1e-9);
    /* one more station: the same lattice is over the work limit, named */
    zvp_station q2[2] = {q, q};
    double d2[4] = {1.0, 1.0, 1.0, 1.0};
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(q2, 2, d2, z, ring, 2, &res, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "ZVP_MVA_MAX_LATTICE_WORK = 4e+07"));
}

/* ---- Approximate MVA ---------------------------------------------------------------------- */

static void test_schweitzer_converges(void)
{
    /* Balanced network, 4 queues D = 1, Z = 4: the relative error of Schweitzer's X against
     * exact MVA falls as N grows past the knee (QSP sec. 7.4). With Z = 0 a balanced network
     * is solved exactly by Schweitzer (X = N/(N + 3), checked too). */
    zvp_station st[4] = {zvp_test_station(0, 0, 1, 1), zvp_test_station(0, 0, 1, 1), zvp_test_station(0, 0, 1, 1), zvp_test_station(0, 0, 1, 1)};
    double d[4] = {1, 1, 1, 1}, z = 4.0, z0 = 0.0, x0;
    const unsigned long ns[] = {10, 30, 100, 1000};
    {
        unsigned long n7 = 7;
        zvp_mva_multi_result r0 = {&x0, NULL, NULL, NULL, NULL};
        CU_ASSERT_EQUAL(zvp_mva_approx(st, 4, d, &z0, &n7, 1, NULL, &r0, NULL, NULL), ZVP_SUCCESS);
        ZVP_ASSERT_REL(x0, 7.0 / 10.0, 1e-9);
    }
    double prev = INFINITY;
    for (size_t i = 0; i < 4; i++) {
        double x;
        zvp_mva_multi_result res = {&x, NULL, NULL, NULL, NULL};
        zvp_mva_approx_info info;
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mva_approx(st, 4, d, &z, &ns[i], 1, NULL, &res, &info, &e),
                              ZVP_SUCCESS);
        CU_ASSERT_EQUAL(info.converged, 1);
        CU_ASSERT(info.iterations >= 1);
        CU_ASSERT_EQUAL(info.tolerance, 1e-10);
        CU_ASSERT_EQUAL(info.multiserver_seidmann, 0);
        zvp_mva_result ex = {0, 0, NULL, NULL, NULL};
        CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(st, 4, z, ns[i], &ex, NULL, &e), ZVP_SUCCESS);
        double exact = ex.throughput_per_s;
        double rel = fabs(x - exact) / exact;
        CU_ASSERT(rel < prev);
        prev = rel;
    }
    CU_ASSERT(prev < 1e-5);
}

static void test_approx_multiclass(void)
{
    zvp_station st[3] = {zvp_test_station(0, 0, 1, 0), zvp_test_station(0, 0, 1, 0), zvp_test_station(1, 0, 1, 0)};
    double d[6] = {0.5, 0.3, 0.2, 0.2, 0.7, 0.4}, z[2] = {3.0, 1.0};
    unsigned long n[2] = {30, 20};
    double x[2], r[2], q[6];
    zvp_mva_multi_result res = {x, r, NULL, q, NULL};
    double xe[2];
    zvp_mva_multi_result ex = {xe, NULL, NULL, NULL, NULL};
    zvp_mva_approx_info info;
    zvp_error e;
    /* Fixed points from an independent script (/usr/bin/python3), iterated (Jacobi) until
     * max |Q_new - Q_old| < 1e-15:
     *   def approx(D, delay, Z, N, bard):
     *       C, K = len(D), len(D[0]); Q = [[N[c] / K] * K for c in range(C)]
     *       while True:
     *           R = [[D[c][k] if delay[k] else D[c][k] * (1 + sum(Q[j][k] for j in range(C))
     *                 - (0 if bard else Q[c][k] / N[c])) for k in range(K)] for c in range(C)]
     *           X = [N[c] / (Z[c] + sum(R[c])) for c in range(C)]
     *           Qn = [[X[c] * R[c][k] for k in range(K)] for c in range(C)]
     *           if max(abs(Qn[c][k] - Q[c][k]) for c in range(C) for k in range(K)) < 1e-15:
     *               return X, R
     *           Q = Qn
     *   approx([[0.5, 0.3, 0.2], [0.2, 0.7, 0.4]], [0, 0, 1], [3.0, 1.0], [30, 20], bard)
     * Schweitzer: X = (1.5769530888451364, 0.7400473779349332),
     *             R = (16.0240281795384, 26.02529675303903);
     * Bard:       X = (1.544341668210669, 0.7246693722981048),
     *             R = (16.42575313321637, 26.598793000696414). */
    static const double xref[2][2] = {{1.5769530888451364, 0.7400473779349332},
                                      {1.544341668210669, 0.7246693722981048}};
    static const double rref[2][2] = {{16.0240281795384, 26.02529675303903},
                                      {16.42575313321637, 26.598793000696414}};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_multi_exact(st, 3, d, z, n, 2, &ex, &e), ZVP_SUCCESS);
    for (int m = ZVP_MVA_SCHWEITZER; m <= ZVP_MVA_BARD; m++) {
        zvp_mva_approx_options o = {m, 0, 1e-12};
        const int im = m == ZVP_MVA_SCHWEITZER ? 0 : 1;
        CU_ASSERT_EQUAL_FATAL(zvp_mva_approx(st, 3, d, z, n, 2, &o, &res, &info, &e), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(info.converged, 1);
        CU_ASSERT_EQUAL(info.tolerance, 1e-12);
        CU_ASSERT(info.max_change < 1e-12);
        ZVP_ASSERT_REL(x[0], xref[im][0], 1e-9);
        ZVP_ASSERT_REL(x[1], xref[im][1], 1e-9);
        ZVP_ASSERT_REL(r[0], rref[im][0], 1e-9);
        ZVP_ASSERT_REL(r[1], rref[im][1], 1e-9);
        /* an approximation: not the exact answer, within a few per cent of it here
         * (Schweitzer), Bard cruder */
        CU_ASSERT(x[0] != xe[0]);
        CU_ASSERT(fabs(x[0] - xe[0]) / xe[0] < (m == ZVP_MVA_SCHWEITZER ? 0.03 : 0.15));
        CU_ASSERT(fabs(x[1] - xe[1]) / xe[1] < (m == ZVP_MVA_SCHWEITZER ? 0.03 : 0.15));
        /* Little's law over the cycle: N_c = X_c (Z_c + R_c) */
        ZVP_ASSERT_REL(30.0, x[0] * (z[0] + r[0]), 1e-9);
    }
    /* iteration limit: reported, not silent */
    zvp_mva_approx_options o1 = {ZVP_MVA_SCHWEITZER, 2, 1e-12};
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_mva_approx(st, 3, d, z, n, 2, &o1, &res, &info, &e), ZVP_EMAXITER);
    CU_ASSERT_EQUAL(info.converged, 0);
    CU_ASSERT_EQUAL(info.iterations, 2);
    CU_ASSERT(zvp_test_msg_has(&e, "max_iterations = 2"));
    zvp_mva_approx_options bad = {7, 0, 0};
    CU_ASSERT_EQUAL(zvp_mva_approx(st, 3, d, z, n, 2, &bad, &res, &info, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "method = 7"));
    /* Seidmann is flagged */
    zvp_station sm[1] = {zvp_test_station(2, 2, 1, 1.0)};
    double dm = 1.0, zm = 2.0, xm;
    unsigned long nm = 4;
    zvp_mva_multi_result rm = {&xm, NULL, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(zvp_mva_approx(sm, 1, &dm, &zm, &nm, 1, NULL, &rm, &info, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(info.multiserver_seidmann, 1);
    /* ... and equals Schweitzer on the explicit Seidmann network (queue D/m + delay
     * D (m-1)/m); GNU Octave qncsmvaap on that network gives 1.1779784 (its tolerance 1e-5) */
    zvp_station sd[2] = {zvp_test_station(0, 0, 1, 0.5), zvp_test_station(1, 0, 1, 0.5)};
    double dd[2] = {0.5, 0.5}, xs;
    zvp_mva_multi_result rs = {&xs, NULL, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(zvp_mva_approx(sd, 2, dd, &zm, &nm, 1, NULL, &rs, &info, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(info.multiserver_seidmann, 0);
    ZVP_ASSERT_REL(xm, xs, 1e-9);
    ZVP_ASSERT_REL(xm, 1.1779784, 1e-5);
}

/* ---- Bounds, identities, stress ------------------------------------------------------------ */

static void test_bounds(void)
{
    zvp_station st[3] = {zvp_test_station(0, 0, 1, 0.4), zvp_test_station(0, 0, 1, 0.2), zvp_test_station(1, 0, 1, 1.0)};
    zvp_bounds_result b;
    zvp_error e;
    /* by hand: D = 0.6, Dmax = 0.4, Z' = 5 + 1 = 6; N = 10: X <= min(10/6.6, 2.5) = 1.51515;
     * X >= 10/(6 + 6) = 0.8333; N* = 6.6/0.4 = 16.5 */
    CU_ASSERT_EQUAL_FATAL(zvp_mva_bounds(st, 3, 5.0, 10, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(b.x_upper_per_s, 10.0 / 6.6, 1e-14);
    ZVP_ASSERT_REL(b.x_lower_per_s, 10.0 / 12.0, 1e-14);
    ZVP_ASSERT_REL(b.saturation_customers, 16.5, 1e-14);
    CU_ASSERT_EQUAL(b.bjb_valid, 1);
    /* Exact MVA lies within ABA and BJB for every N (Zahorjan et al. 1982). */
    for (unsigned long n = 1; n <= 60; n += 7) {
        zvp_mva_result r = {0, 0, NULL, NULL, NULL};
        CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(st, 3, 5.0, n, &r, NULL, &e), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(zvp_mva_bounds(st, 3, 5.0, n, &b, &e), ZVP_SUCCESS);
        const double x = r.throughput_per_s;
        CU_ASSERT(x <= b.x_upper_per_s * (1 + 1e-12) && x >= b.x_lower_per_s * (1 - 1e-12));
        CU_ASSERT(x <= b.bjb_x_upper_per_s * (1 + 1e-12));
        CU_ASSERT(x >= b.bjb_x_lower_per_s * (1 - 1e-12));
        CU_ASSERT(b.bjb_x_upper_per_s <= b.x_upper_per_s * (1 + 1e-15));
        CU_ASSERT(b.bjb_x_lower_per_s >= b.x_lower_per_s * (1 - 1e-15));
        CU_ASSERT(r.response_s >= b.r_lower_s * (1 - 1e-12) && r.response_s <= b.r_upper_s * (1 + 1e-12));
    }
    zvp_station onlyd = zvp_test_station(1, 0, 1, 1.0);
    CU_ASSERT_EQUAL(zvp_mva_bounds(&onlyd, 1, 1.0, 3, &b, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "D_max"));
}

static void test_stress_and_edges(void)
{
    zvp_error e;
    /* 1e6 customers, 10 stations (exact MVA): finite, within bounds, Little over the cycle. */
    zvp_station st[10];
    for (int k = 0; k < 10; k++)
        st[k] = zvp_test_station(0, 0, 1, 0.001 * (k + 1));
    zvp_mva_result r = {0, 0, NULL, NULL, NULL};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(st, 10, 1.0, 1000000, &r, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 100.0, 1e-9); /* 1/Dmax */
    ZVP_ASSERT_REL(1e6, r.throughput_per_s * (1.0 + r.response_s), 1e-10);
    /* single station, zero demands, zero think */
    zvp_station zs[2] = {zvp_test_station(0, 0, 1, 0.0), zvp_test_station(0, 0, 1, 2.0)};
    double q[2];
    zvp_mva_result rz = {0, 0, NULL, q, NULL};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_ld(zs, 2, NULL, 0.0, 5, &rz, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(rz.throughput_per_s, 0.5, 1e-14);
    CU_ASSERT_EQUAL(q[0], 0.0);
    ZVP_ASSERT_REL(q[1], 5.0, 1e-14);
    /* all demands zero and no think: a clear error */
    zvp_station z0 = zvp_test_station(0, 0, 1, 0.0);
    CU_ASSERT_EQUAL(zvp_mva_ld(&z0, 1, NULL, 0.0, 5, &rz, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "cycle time"));
    double d0 = 0.0, zz = 0.0;
    unsigned long n5 = 5;
    double x;
    zvp_mva_multi_result rm = {&x, NULL, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(zvp_mva_multi_exact(&z0, 1, &d0, &zz, &n5, 1, &rm, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "cycle time"));
}

static void test_work_limits(void)
{
    zvp_error e;
    /* m-server station with m < N: N x m = 1.1e7 x 1e7 steps. */
    zvp_station st[2] = {zvp_test_station(ZVP_STATION_MULTI, 10000000, 1, 0.1), zvp_test_station(0, 0, 1, 0.2)};
    zvp_mva_result r = {0, 0, NULL, NULL, NULL};
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_mva_exact(st, 2, 0.0, 11000000, &r, NULL, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "ZVP_QUEUE_MAX_WORK") && zvp_test_msg_has(&e, "delay station") &&
              zvp_test_msg_has(&e, "zvp_mva_approx"));
    CU_ASSERT(isnan(r.throughput_per_s));
    /* m >= N: exactly a delay station, cheap. Delay 0.1 + queue 0.2, Z = 0, N = 1e7: far
     * beyond N* = 1.5, so X = 1/D_max = 5 (QSP sec. 5.2) up to a term of order 5 (1/3)^N. */
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(st, 2, 0.0, 10000000, &r, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 5.0, 1e-12);
    /* zvp_mva_ld: one LD entry with N = 1e6 costs 2 N^2 = 2e12 steps. */
    {
        const unsigned long n = 1000000;
        double *alpha = malloc((n + 1) * sizeof *alpha);
        CU_ASSERT_PTR_NOT_NULL_FATAL(alpha);
        for (unsigned long j = 0; j <= n; j++)
            alpha[j] = 1.0;
        const double *al[2] = {alpha, NULL};
        zvp_station ld[2] = {zvp_test_station(ZVP_STATION_LD, 0, 1, 0.1), zvp_test_station(0, 0, 1, 0.2)};
        CU_ASSERT_EQUAL(zvp_mva_ld(ld, 2, al, 1.0, n, &r, &e), ZVP_EINVAL);
        CU_ASSERT(zvp_test_msg_has(&e, "ZVP_QUEUE_MAX_WORK"));
        free(alpha);
    }
    /* Exact multiclass: lattice 1e6 + 1 within its limits, but 2000 classes x 2 per cell. */
    {
        enum { C = 2000 };
        static double d[C], z[C];
        static unsigned long cust[C];
        for (int c = 0; c < C; c++) {
            d[c] = 0.1;
            z[c] = 1.0;
            cust[c] = 0;
        }
        cust[0] = 1000000;
        zvp_station q = zvp_test_station(0, 0, 1, 0.0);
        zvp_mva_multi_result rm = {NULL, NULL, NULL, NULL, NULL};
        CU_ASSERT_EQUAL(zvp_mva_multi_exact(&q, 1, d, z, cust, C, &rm, &e), ZVP_EINVAL);
        CU_ASSERT(zvp_test_msg_has(&e, "ZVP_MVA_MAX_LATTICE_WORK"));
        /* the total population over classes is the limit that applies: say so */
        unsigned long two[2] = {100000000, 100000000};
        CU_ASSERT_EQUAL(zvp_mva_multi_exact(&q, 1, d, z, two, 2, &rm, &e), ZVP_EINVAL);
        CU_ASSERT(zvp_test_msg_has(&e, "200000000") && zvp_test_msg_has(&e, "total"));
        /* approximate: an explicit max_iterations beyond the work limit */
        zvp_mva_approx_options opt = {ZVP_MVA_SCHWEITZER, 4000000000u, 0.0};
        unsigned long ten = 10;
        CU_ASSERT_EQUAL(zvp_mva_approx(&q, 1, d, z, &ten, 1, &opt, &rm, NULL, &e), ZVP_EINVAL);
        CU_ASSERT(zvp_test_msg_has(&e, "max_iterations") && zvp_test_msg_has(&e, "ZVP_QUEUE_MAX_WORK"));
    }
    /* Open network: 300 entries of 1e7 servers = 3e9 Erlang C steps. */
    {
        enum { K = 300 };
        static zvp_station big[K];
        for (int k = 0; k < K; k++)
            big[k] = zvp_test_station(ZVP_STATION_MULTI, 10000000, 1, 0.001);
        const double lam = 1.0;
        zvp_open_result ro = {0, 0, 0, NULL, NULL, NULL, NULL};
        CU_ASSERT_EQUAL(zvp_open_network(big, K, NULL, &lam, 1, &ro, &e), ZVP_EINVAL);
        CU_ASSERT(zvp_test_msg_has(&e, "ZVP_QUEUE_MAX_WORK"));
    }
}

int zvp_test_register_networks(void)
{
    CU_pSuite s = CU_add_suite("networks", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "open_single_class", test_open_single_class) ||
        !CU_add_test(s, "open_multiclass_and_saturation", test_open_multiclass_and_saturation) ||
        !CU_add_test(s, "multiclass_exact", test_multiclass_exact) ||
        !CU_add_test(s, "schweitzer_converges", test_schweitzer_converges) ||
        !CU_add_test(s, "approx_multiclass", test_approx_multiclass) ||
        !CU_add_test(s, "bounds", test_bounds) ||
        !CU_add_test(s, "stress_and_edges", test_stress_and_edges) ||
        !CU_add_test(s, "work_limits", test_work_limits) ||
        !CU_add_test(s, "multiclass_lattice_boundary", test_multiclass_lattice_boundary))
        return (int)CU_get_error();
    return 0;
}
