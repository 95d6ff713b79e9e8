/*
 * tests/test_mva.c - exact single-class MVA (zvp_mva_exact) with queueing, delay and
 * m-server stations, and the general load-dependent solver (zvp_mva_ld).
 *
 * Reference values come from independent scripts run with /usr/bin/python3 (exact rational
 * arithmetic with fractions.Fraction; numpy in log space for large m), whose output was typed
 * in here:
 *
 * --- conv.py (closed networks and the repairman chain) ---------------------------------
 *   from fractions import Fraction as F
 *   def factors(kind, D, N, m=1):        # product-form factor f(j) = D^j / prod mu(i)
 *       f = [F(1)]
 *       for j in range(1, N + 1):
 *           mu = 1 if kind == 'queue' else (j if kind == 'delay' else min(j, m))
 *           f.append(f[-1] * D / mu)
 *       return f
 *   def conv(a, b, N): return [sum(a[i] * b[n - i] for i in range(n + 1)) for n in range(N + 1)]
 *   def solve(stations, Z, N):           # normalising constant by convolution (Buzen)
 *       fs = [factors(kind, D, N, m) for (kind, D, m) in stations]
 *       think = factors('delay', Z, N); G = think
 *       for f in fs: G = conv(G, f, N)
 *       X = G[N - 1] / G[N]; Q = []
 *       for k, fk in enumerate(fs):
 *           Gk = think
 *           for i, f in enumerate(fs):
 *               if i != k: Gk = conv(Gk, f, N)
 *           Q.append(sum(j * fk[j] * Gk[N - j] for j in range(N + 1)) / G[N])
 *       return X, Q
 *   st = [('queue', F(2,5), 1), ('queue', F(3,10), 1), ('queue', F(3,10), 1),
 *         ('multi', F(6,5), 3), ('delay', F(7,10), 1)];  X, Q = solve(st, F(5), 10)
 *   def repair(N, c, Z, S):              # birth-death chain with exact rationals
 *       p = [F(1)]
 *       for k in range(1, N + 1): p.append(p[-1] * F(N - k + 1) / Z * S / min(k, c))
 *       s = sum(p); p = [x / s for x in p]
 *       L = sum(k * x for k, x in enumerate(p)); busy = sum(min(k, c) * x for k, x in enumerate(p))
 *       Lq = sum(max(k - c, 0) * x for k, x in enumerate(p)); return p, L, busy, Lq
 *   repair(30, 3, 10, 1) and pwait = sum(repair(29, 3, 10, 1)[0][3:]).
 *   st2 = [('multi', F(3,2), 3), ('multi', F(3,2), 3), ('multi', F(4,5), 2), ('queue', F(1,2), 1)]
 *   solve(st2, F(2), 12) and solve(st2, F(2), 60)
 *
 * --- logconv.py (large m, where exact rationals are too slow; numpy in log space) -------
 *   def lf(kind, D, N, m=1):             # log product-form factors
 *       j = np.arange(N + 1)
 *       if kind == 'delay': return j * math.log(D) - np.array([math.lgamma(x + 1) for x in j])
 *       if kind == 'queue': return j * math.log(D)
 *       mu = np.minimum(j[1:], m).astype(float)
 *       return np.concatenate([[0.0], np.cumsum(math.log(D) - np.log(mu))])
 *   def lconv(a, b, N): return np.array([np.logaddexp.reduce(a[:n + 1] + b[n::-1]) for n in range(N + 1)])
 *   f = [lf('multi', 1000., N, 1000), lf('multi', 1000., N, 1000), lf('queue', .5, N), lf('delay', 100., N)]
 *   G = f[0]; for x in f[1:]: G = lconv(G, x, N);   X = exp(G[N-1] - G[N])
 *   N = 2100: X = 0.987287989995942;  N = 3000: X = 0.998978138733162
 * --- ref2.py (exact rationals with fractions.Fraction) -----------------------------------
 *   LD station alpha(j) = 1/(1 + (j-1)/10), D = 1/4, with a queue D = 1/10 and Z = 5,
 *     N = 20, convolution of exact rational factors: X = 2.317169612163964,
 *     Q_ld = 8.10653943665269, U_ld = 1 - p(0) = 0.9520901309495273
 *   Seidmann for 4 sources, Z = 2, one 2-server station S = 1: exact MVA on a queue of
 *     demand 1/2 plus a delay 1/2: X = 1888/1569 = 1.2033142128744423
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/queue.h"

/* ---- MVA ---------------------------------------------------------------------------------- */

#define MAXK 128
typedef struct {
    double r[MAXK], q[MAXK], u[MAXK];
    zvp_mva_result res;
} mva_out;

/* zvp_mva_exact into o, with the caller's scratch (NULL: the kernel allocates). */
static int run_mva_scratch(const zvp_station *st, size_t k, double z, unsigned long n,
                           mva_out *o, double *scratch, zvp_error *e)
{
    o->res.residence_s = o->r;
    o->res.queue_length = o->q;
    o->res.utilization = o->u;
    return zvp_mva_exact(st, k, z, n, &o->res, scratch, e);
}

static int run_mva(const zvp_station *st, size_t k, double z, unsigned long n, mva_out *o,
                   zvp_error *e)
{
    return run_mva_scratch(st, k, z, n, o, NULL, e);
}

/* The caller-scratch path (zvp_mva_scratch_doubles() doubles) gives the same bits as the
 * allocating one, o (its throughput and queue length q[i]). */
static void check_scratch_same(const zvp_station *st, size_t k, double z, unsigned long n,
                               const mva_out *o, size_t i)
{
    mva_out s;
    zvp_error e;
    double *scratch = malloc(zvp_mva_scratch_doubles(st, k) * sizeof *scratch);
    CU_ASSERT_PTR_NOT_NULL_FATAL(scratch);
    CU_ASSERT_EQUAL(run_mva_scratch(st, k, z, n, &s, scratch, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(s.res.throughput_per_s, o->res.throughput_per_s);
    CU_ASSERT_EQUAL(s.q[i], o->q[i]);
    free(scratch);
}

static void test_zvp_mva_single_customer(void)
{
    /* N = 1: no contention, R = sum replicas x D, X = 1/(Z + R) (QSP ch. 6). */
    zvp_station st[4] = {zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.2), zvp_test_station(ZVP_STATION_DELAY, 0, 1, 0.5),
                         zvp_test_station(ZVP_STATION_MULTI, 4, 1, 0.8), zvp_test_station(ZVP_STATION_QUEUE, 0, 3, 0.1)};
    mva_out o;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(st, 4, 1.0, 1, &o, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.res.response_s, 0.2 + 0.5 + 0.8 + 3 * 0.1, 1e-15);
    ZVP_ASSERT_REL(o.res.throughput_per_s, 1.0 / 2.8, 1e-15);
    ZVP_ASSERT_REL(o.r[2], 0.8, 1e-15);
    ZVP_ASSERT_REL(o.u[2], 0.8 / 2.8 / 4.0, 1e-15);
}

static void test_zvp_mva_vs_repairman(void)
{
    /* One single-server queue + think time = repairman with c = 1 (a birth-death chain, an
     * independent algorithm); an m-server station = repairman with c = m. */
    zvp_station_result rr;
    zvp_error e;
    mva_out o;
    zvp_station q = zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.4);
    CU_ASSERT_EQUAL_FATAL(run_mva(&q, 1, 3.0, 25, &o, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(25, 3.0, 0.4, 1, &rr, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.res.throughput_per_s, rr.throughput_per_s, 1e-12);
    ZVP_ASSERT_REL(o.res.response_s, rr.response_s, 1e-12);
    ZVP_ASSERT_REL(o.q[0], rr.mean_in_system, 1e-12);
    zvp_station m = zvp_test_station(ZVP_STATION_MULTI, 4, 1, 2.0);
    CU_ASSERT_EQUAL_FATAL(run_mva(&m, 1, 20.0, 50, &o, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(50, 20.0, 2.0, 4, &rr, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.res.throughput_per_s, rr.throughput_per_s, 1e-12);
    ZVP_ASSERT_REL(o.res.response_s, rr.response_s, 1e-11);
    ZVP_ASSERT_REL(o.u[0], rr.utilization, 1e-12);
}

static void test_zvp_mva_multi_exact_small(void)
{
    /* 4 customers, think 2 s, one 2-server station of demand 1 s: X = 110/87 exactly
     * (birth-death chain by hand, see test_zvp_repairman_exact_small). The Seidmann
     * approximation would give about 1.2033 instead. */
    zvp_station st = zvp_test_station(ZVP_STATION_MULTI, 2, 1, 1.0);
    mva_out o;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(&st, 1, 2.0, 4, &o, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.res.throughput_per_s, 110.0 / 87.0, 1e-14);
    ZVP_ASSERT_REL(o.u[0], 110.0 / 87.0 / 2.0, 1e-14);
    ZVP_ASSERT_REL(o.q[0], 128.0 / 87.0, 1e-14);
    ZVP_ASSERT_REL(o.res.response_s, 4.0 / (110.0 / 87.0) - 2.0, 1e-14);
}

static void test_zvp_mva_multi_m1_equals_queue(void)
{
    zvp_station a[3] = {zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.3), zvp_test_station(ZVP_STATION_QUEUE, 0, 2, 0.7),
                        zvp_test_station(ZVP_STATION_DELAY, 0, 1, 1.1)};
    zvp_station b[3];
    memcpy(b, a, sizeof a);
    b[1].kind = ZVP_STATION_MULTI;
    b[1].servers = 1;
    mva_out oa, ob;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(a, 3, 4.0, 200, &oa, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(run_mva(b, 3, 4.0, 200, &ob, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(oa.res.throughput_per_s, ob.res.throughput_per_s);
    CU_ASSERT_EQUAL(oa.res.response_s, ob.res.response_s);
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(oa.r[k], ob.r[k]);
        CU_ASSERT_EQUAL(oa.q[k], ob.q[k]);
        CU_ASSERT_EQUAL(oa.u[k], ob.u[k]);
    }
}

static void test_zvp_mva_convolution(void)
{
    /* conv.py: normalising constant by convolution with exact rationals, N = 10, Z = 5:
     * queue 0.4; queue 0.3 (two replicas: separate entries in conv.py); 3-server 1.2;
     * delay 0.7. */
    zvp_station st[4] = {zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.4), zvp_test_station(ZVP_STATION_QUEUE, 0, 2, 0.3),
                         zvp_test_station(ZVP_STATION_MULTI, 3, 1, 1.2), zvp_test_station(ZVP_STATION_DELAY, 0, 1, 0.7)};
    mva_out o;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(st, 4, 5.0, 10, &o, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.res.throughput_per_s, 1.1743404402736959, 1e-13);
    ZVP_ASSERT_REL(o.res.response_s, 3.5154182356773527, 1e-13);
    ZVP_ASSERT_REL(o.q[0], 0.78444221560042937, 1e-13);
    ZVP_ASSERT_REL(o.q[1], 0.50854399230752156, 1e-13);
    ZVP_ASSERT_REL(o.q[2], 1.5047292902244616, 1e-13);
    ZVP_ASSERT_REL(o.q[3], 0.82203830819158707, 1e-13);
    ZVP_ASSERT_REL(o.r[0], 0.66798535475590415, 1e-13);
    ZVP_ASSERT_REL(o.r[2], 1.2813399237735219, 1e-13);
    ZVP_ASSERT_REL(o.r[3], 0.7, 1e-15);
    ZVP_ASSERT_REL(o.u[2], 1.1743404402736959 * 1.2 / 3.0, 1e-13);
}

static void test_zvp_mva_replicas(void)
{
    /* replicas = L equals L separate identical entries (sum_k R_k counts each replica). */
    const unsigned L = 5;
    zvp_station a[2] = {zvp_test_station(ZVP_STATION_QUEUE, 0, L, 0.05), zvp_test_station(ZVP_STATION_MULTI, 2, 1, 0.3)};
    zvp_station b[6];
    for (unsigned i = 0; i < L; i++)
        b[i] = zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.05);
    b[L] = a[1];
    mva_out oa, ob;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(a, 2, 1.5, 64, &oa, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(run_mva(b, L + 1, 1.5, 64, &ob, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(oa.res.throughput_per_s, ob.res.throughput_per_s, 1e-13);
    ZVP_ASSERT_REL(oa.res.response_s, ob.res.response_s, 1e-13);
    for (unsigned i = 0; i < L; i++) {
        ZVP_ASSERT_REL(oa.q[0], ob.q[i], 1e-13);
        ZVP_ASSERT_REL(oa.r[0], ob.r[i], 1e-13);
        ZVP_ASSERT_REL(oa.u[0], ob.u[i], 1e-13);
    }
    ZVP_ASSERT_REL(oa.q[1], ob.q[L], 1e-13);
}

static void test_zvp_mva_large(void)
{
    /* N = 1e5 customers, 100 stations: asymptotic bounds X <= min(N/(Z + D), 1/D_max)
     * (QSP ch. 5; src/queue/README.md, exact MVA) and X -> 1/D_max far beyond N* = (D + Z)/D_max. */
    enum { K = 100 };
    const unsigned long n = 100000;
    zvp_station st[K];
    double dsum = 0.0, dmax = 0.0;
    for (int k = 0; k < K; k++) {
        double d = 0.001 * (1 + (k * 37) % 50); /* 1..50 ms */
        if (k == 17)
            d = 0.08; /* the bottleneck */
        st[k] = zvp_test_station(k % 10 == 3 ? ZVP_STATION_DELAY : ZVP_STATION_QUEUE, 0, 1, d);
        if (k == 42)
            st[k] = zvp_test_station(ZVP_STATION_MULTI, 8, 1, 0.32); /* capacity 25/s, not a bottleneck */
        dsum += st[k].demand_s;
        double per = st[k].kind == ZVP_STATION_MULTI ? st[k].demand_s / 8 :
                     st[k].kind == ZVP_STATION_DELAY ? 0.0 : st[k].demand_s;
        dmax = fmax(dmax, per);
    }
    const double z = 30.0;
    mva_out o;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(st, K, z, n, &o, &e), ZVP_SUCCESS);
    const double x = o.res.throughput_per_s;
    CU_ASSERT(isfinite(x));
    CU_ASSERT(x <= fmin((double)n / (z + dsum), 1.0 / dmax) * (1.0 + 1e-12));
    ZVP_ASSERT_REL(x, 1.0 / dmax, 1e-9);
    ZVP_ASSERT_REL((double)n, x * (z + o.res.response_s), 1e-9);
    for (int k = 0; k < K; k++) {
        CU_ASSERT(isfinite(o.r[k]) && isfinite(o.q[k]) && isfinite(o.u[k]));
        CU_ASSERT(o.u[k] >= 0.0 && o.u[k] <= 1.0 + 1e-12);
    }
    ZVP_ASSERT_REL(o.u[17], 1.0, 1e-9);
}

static void test_zvp_mva_multi_near_saturation(void)
{
    /* m = 8 servers of demand 1 s (capacity 8/s), Z = 240 s: N* = (Z + D) m / D = 1928.
     * The utilization-law closure of p(0|n) (src/queue/README.md, m-server stations) is unstable here: it gives
     * X(2000) = 7.49 (even with 60-digit arithmetic) against the exact 7.98. Checked
     * against the repairman chain (exact, independent algorithm); the marginals p(j|N) are
     * read from the documented scratch layout (q[1], r[1], p(0..7|N), ...) and must satisfy
     * p >= 0, sum <= 1, and the utilization law U = 1 - sum_{j<8} (1 - j/8) p(j), which the
     * kernel does not use. */
    const unsigned long ns[] = {1500, 1900, 2000, 2050, 4000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        zvp_station st = zvp_test_station(ZVP_STATION_MULTI, 8, 1, 1.0);
        size_t need = zvp_mva_scratch_doubles(&st, 1);
        CU_ASSERT_EQUAL_FATAL(need, 19); /* 2 K + 2 m + complement (K) */
        double scratch[19];
        double r, q, u;
        zvp_mva_result res = {0, 0, &r, &q, &u};
        zvp_station_result rr;
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(&st, 1, 240.0, ns[i], &res, scratch, &e), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(zvp_repairman(ns[i], 240.0, 1.0, 8, &rr, &e), ZVP_SUCCESS);
        CU_ASSERT(res.throughput_per_s <= 8.0 && res.throughput_per_s > 0.0);
        ZVP_ASSERT_REL(res.throughput_per_s, rr.throughput_per_s, 1e-11);
        ZVP_ASSERT_REL(q, rr.mean_in_system, 1e-9);
        double psum = 0.0, idle = 0.0;
        for (int j = 0; j < 8; j++) {
            CU_ASSERT(scratch[2 + j] >= 0.0 && scratch[2 + j] <= 1.0);
            psum += scratch[2 + j];
            idle += (1.0 - j / 8.0) * scratch[2 + j];
        }
        CU_ASSERT(psum <= 1.0 + 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(1.0 - idle, u, 1e-10);
        /* N = 2050: exact product form by convolution in rationals (/usr/bin/python3,
         * fractions.Fraction): g(n) = Z^n/n!, f(j) = D^j / prod_{i<=j} min(i, 8),
         * G(N) = sum_j f(j) g(N - j), X = G(N-1)/G(N) = 7.998698158790147,
         * U = X D / 8 = 0.99983726984876842 (the auditor's 0.9998372698 agrees). */
        if (ns[i] == 2050)
            ZVP_ASSERT_REL(u, 0.99983726984876842, 1e-9);
    }
    /* Many servers, heavily saturated: still finite, X <= m/D and Little's law. */
    zvp_station st = zvp_test_station(ZVP_STATION_MULTI, 64, 1, 6.4);
    mva_out o;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(&st, 1, 1.0, 20000, &o, &e), ZVP_SUCCESS);
    CU_ASSERT(o.res.throughput_per_s <= 10.0 && isfinite(o.res.response_s));
    ZVP_ASSERT_REL(o.res.throughput_per_s, 10.0, 1e-12);
    ZVP_ASSERT_REL(20000.0, o.res.throughput_per_s * (1.0 + o.res.response_s), 1e-12);
}

static void test_zvp_mva_two_multi(void)
{
    /* Two m-server entries (one with 2 replicas) and a queue, Z = 2: conv.py network st2
     * (normalising constant by convolution, exact rationals). */
    zvp_station st[3] = {zvp_test_station(ZVP_STATION_MULTI, 3, 2, 1.5), zvp_test_station(ZVP_STATION_MULTI, 2, 1, 0.8),
                         zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.5)};
    mva_out o;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(run_mva(st, 3, 2.0, 12, &o, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.res.throughput_per_s, 1.4281696193740077, 1e-13);
    ZVP_ASSERT_REL(o.q[0], 2.844366093479695, 1e-12);
    ZVP_ASSERT_REL(o.q[1], 1.54719115144287, 1e-12);
    ZVP_ASSERT_REL(o.q[2], 1.9077374228497241, 1e-12);
    CU_ASSERT_EQUAL_FATAL(run_mva(st, 3, 2.0, 60, &o, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.res.throughput_per_s, 1.9228344673371995, 1e-12);
    ZVP_ASSERT_REL(o.q[0], 17.839916861969204, 1e-11);
    ZVP_ASSERT_REL(o.q[1], 3.7244975157408415, 1e-11);
    ZVP_ASSERT_REL(o.q[2], 16.749999825646352, 1e-11);
    check_scratch_same(st, 3, 2.0, 60, &o, 0);
}

static void test_zvp_mva_many_servers(void)
{
    /* Two replicas of a 1000-server station (D = 1000 s) + a queue (0.5 s), Z = 100 s:
     * p(0|n) falls to ~e^-700 and below while p(900|n) is O(0.01), so the marginals must not
     * underflow. X against logconv.py (log-space convolution, error ~1e-12), and the
     * utilization law U = 1 - sum_{j<m} (1 - j/m) p(j|N), not used by the kernel. */
    const unsigned long ns[] = {2100, 3000};
    const double x_ref[] = {0.987287989995942, 0.998978138733162};
    zvp_station st[2] = {zvp_test_station(ZVP_STATION_MULTI, 1000, 2, 1000.0),
                         zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.5)};
    size_t need = zvp_mva_scratch_doubles(st, 2);
    CU_ASSERT_EQUAL_FATAL(need, 2 * 2 + 2 * 1000 + 2 + 1 * 1001); /* one P stage in the complement */
    double *scratch = malloc(need * sizeof *scratch);
    CU_ASSERT_PTR_NOT_NULL_FATAL(scratch);
    for (int i = 0; i < 2; i++) {
        double r[2], q[2], u[2];
        zvp_mva_result res = {0, 0, r, q, u};
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(st, 2, 100.0, ns[i], &res, scratch, &e), ZVP_SUCCESS);
        ZVP_ASSERT_REL(res.throughput_per_s, x_ref[i], 1e-10);
        double idle = 0.0, psum = 0.0;
        for (int j = 0; j < 1000; j++) {
            CU_ASSERT(scratch[4 + j] >= 0.0);
            idle += (1.0 - j / 1000.0) * scratch[4 + j];
            psum += scratch[4 + j];
        }
        CU_ASSERT(psum <= 1.0 + 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(1.0 - idle, u[0], 1e-10);
        ZVP_ASSERT_REL((double)ns[i], res.throughput_per_s * (100.0 + res.response_s), 1e-12);
    }
    free(scratch);
}

static void test_zvp_mva_edge_cases(void)
{
    zvp_station st[3] = {zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.0), zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.5),
                         zvp_test_station(ZVP_STATION_MULTI, 100, 1, 2.0)};
    mva_out o;
    zvp_error e;
    /* N = 0: X = 0, nothing queued. */
    CU_ASSERT_EQUAL_FATAL(run_mva(st, 3, 1.0, 0, &o, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(o.res.throughput_per_s, 0.0);
    CU_ASSERT_EQUAL(o.q[1], 0.0);
    CU_ASSERT_EQUAL(o.u[1], 0.0);
    /* Zero demand: R = 0; 100-server station with N = 10 acts as a delay: R = D. */
    CU_ASSERT_EQUAL_FATAL(run_mva(st, 3, 1.0, 10, &o, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(o.r[0], 0.0);
    CU_ASSERT_EQUAL(o.q[0], 0.0);
    ZVP_ASSERT_REL(o.r[2], 2.0, 1e-15);
    /* Same with a caller scratch of zvp_mva_scratch_doubles() doubles: same answer. */
    /* 2 K + 2 m + complement (K) */
    CU_ASSERT_EQUAL(zvp_mva_scratch_doubles(st, 3), 2 * 3 + 200 + 3);
    check_scratch_same(st, 3, 1.0, 10, &o, 1);
    /* Arrays may be NULL; no stations at all: X = N/Z. */
    zvp_mva_result bare = {0, 0, NULL, NULL, NULL};
    CU_ASSERT_EQUAL(zvp_mva_exact(NULL, 0, 4.0, 8, &bare, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(bare.throughput_per_s, 2.0, 1e-15);
    CU_ASSERT_EQUAL(bare.response_s, 0.0);
}

static void test_zvp_mva_invalid(void)
{
    zvp_station good = zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.5);
    zvp_station st;
    mva_out o;
    zvp_error e;
    st = good;
    st.kind = 7;
    CU_ASSERT_EQUAL(run_mva(&st, 1, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0].kind") && zvp_test_msg_has(&e, "7"));
    st = zvp_test_station(ZVP_STATION_MULTI, 0, 1, 0.5);
    CU_ASSERT_EQUAL(run_mva(&st, 1, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0].servers"));
    st = good;
    st.replicas = 0;
    CU_ASSERT_EQUAL(run_mva(&st, 1, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0].replicas"));
    st = good;
    st.reserved = 1;
    CU_ASSERT_EQUAL(run_mva(&st, 1, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[0].reserved"));
    zvp_station two[2] = {good, good};
    two[1].demand_s = NAN;
    CU_ASSERT_EQUAL(run_mva(two, 2, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[1].demand_s"));
    two[1].demand_s = -0.25;
    CU_ASSERT_EQUAL(run_mva(two, 2, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[1].demand_s") && zvp_test_msg_has(&e, "-0.25"));
    two[1].demand_s = INFINITY;
    CU_ASSERT_EQUAL(run_mva(two, 2, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations[1].demand_s"));
    CU_ASSERT_EQUAL(run_mva(&good, 1, -1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "think_s"));
    CU_ASSERT_EQUAL(run_mva(&good, 1, NAN, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "think_s"));
    CU_ASSERT_EQUAL(run_mva(&good, 1, 1.0, ZVP_MAX_CUSTOMERS + 1, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "customers"));
    st = zvp_test_station(ZVP_STATION_QUEUE, 0, 1, 0.0);
    CU_ASSERT_EQUAL(run_mva(&st, 1, 0.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "think_s") && zvp_test_msg_has(&e, "demand_s"));
    CU_ASSERT_EQUAL(zvp_mva_exact(&good, 1, 1.0, 5, NULL, NULL, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "res"));
    CU_ASSERT_EQUAL(run_mva(NULL, 2, 1.0, 5, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "stations"));
    CU_ASSERT(isnan(o.res.throughput_per_s)); /* errors never leave a stale number */
}

/* ---- Multi-server / load-dependent --------------------------------------------------------- */

static void test_multiserver_exact_vs_seidmann(void)
{
    /* 4 sources, Z = 2, one 2-server station S = 1: X = 110/87 exactly (birth-death chain,
     * by hand in test_queue.c), per-server U = X S/2. Seidmann: 1888/1569 (ref2.py). */
    zvp_station m2 = zvp_test_station(2, 2, 1, 1.0);
    /* res arrays hold n_stations entries: 2 for the sd network below. */
    double r[2], q[2], u[2];
    zvp_mva_result res = {0, 0, r, q, u};
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(&m2, 1, 2.0, 4, &res, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(res.throughput_per_s, 110.0 / 87.0, 1e-14);
    ZVP_ASSERT_REL(u[0], 110.0 / 87.0 / 2.0, 1e-14);
    CU_ASSERT_EQUAL_FATAL(zvp_mva_ld(&m2, 1, NULL, 2.0, 4, &res, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(res.throughput_per_s, 110.0 / 87.0, 1e-13);
    ZVP_ASSERT_REL(u[0], 110.0 / 87.0 / 2.0, 1e-13);
    zvp_station sd[2] = {zvp_test_station(0, 0, 1, 0.5), zvp_test_station(1, 0, 1, 0.5)};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(sd, 2, 2.0, 4, &res, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(res.throughput_per_s, 1888.0 / 1569.0, 1e-14);
    CU_ASSERT(fabs(res.throughput_per_s - 110.0 / 87.0) > 0.05); /* it IS different */
}

static void test_ld_general(void)
{
    zvp_error e;
    /* Lock-like rate function, ref2.py (exact rationals). */
    enum { N = 20 };
    double alpha[N + 1];
    for (int j = 1; j <= N; j++)
        alpha[j] = 1.0 / (1.0 + 0.1 * (j - 1));
    alpha[0] = 0.0;
    const double *al[2] = {alpha, NULL};
    zvp_station st[2] = {zvp_test_station(ZVP_STATION_LD, 0, 1, 0.25), zvp_test_station(0, 0, 1, 0.1)};
    double r[2], q[2], u[2];
    zvp_mva_result res = {0, 0, r, q, u};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_ld(st, 2, al, 5.0, N, &res, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(res.throughput_per_s, 2.317169612163964, 1e-12);
    ZVP_ASSERT_REL(q[0], 8.10653943665269, 1e-12);
    ZVP_ASSERT_REL(u[0], 0.9520901309495273, 1e-12);
    ZVP_ASSERT_REL((double)N, res.throughput_per_s * (5.0 + res.response_s), 1e-12);
    /* alpha = 1 is a queue, alpha = j a delay: compare with zvp_mva_exact */
    double one[101], jj[101];
    for (int j = 0; j <= 100; j++) {
        one[j] = 1.0;
        jj[j] = j;
    }
    const double *al2[3] = {one, jj, NULL};
    zvp_station a[3] = {zvp_test_station(ZVP_STATION_LD, 0, 1, 0.3), zvp_test_station(ZVP_STATION_LD, 0, 1, 0.7),
                        zvp_test_station(0, 0, 2, 0.2)};
    zvp_station b[3] = {zvp_test_station(0, 0, 1, 0.3), zvp_test_station(1, 0, 1, 0.7), zvp_test_station(0, 0, 2, 0.2)};
    double r2[3], q2[3], u2[3], r3[3], q3[3], u3[3];
    zvp_mva_result ra = {0, 0, r2, q2, u2}, rb = {0, 0, r3, q3, u3};
    CU_ASSERT_EQUAL_FATAL(zvp_mva_ld(a, 3, al2, 1.0, 100, &ra, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(b, 3, 1.0, 100, &rb, NULL, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(ra.throughput_per_s, rb.throughput_per_s, 1e-11);
    for (int k = 0; k < 3; k++)
        ZVP_ASSERT_REL(q2[k], q3[k], 1e-9);
    /* bad alpha */
    one[7] = 0.0;
    CU_ASSERT_EQUAL(zvp_mva_ld(a, 3, al2, 1.0, 100, &ra, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "alpha[0][7]"));
    CU_ASSERT_EQUAL(zvp_mva_ld(a, 3, NULL, 1.0, 100, &ra, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "alpha[0] = NULL"));
    CU_ASSERT_EQUAL(zvp_mva_exact(a, 3, 1.0, 100, &ra, NULL, &e), ZVP_EINVAL);
}

static void test_ld_near_saturation(void)
{
    /* A multi-server station at utilization 0.999 in a closed network: 8 servers, D = 1,
     * Z = 240, N = 2000 (mva.c's stable formulation vs the log-space convolution, two
     * independent algorithms), and as an LD station with alpha = min(j, 8). */
    enum { N = 2000 };
    static double alpha[N + 1];
    for (int j = 1; j <= N; j++)
        alpha[j] = j < 8 ? j : 8;
    const double *al[2] = {alpha, NULL};
    zvp_station multi[2] = {zvp_test_station(2, 8, 1, 1.0), zvp_test_station(0, 0, 1, 0.01)};
    zvp_station ld[2] = {zvp_test_station(ZVP_STATION_LD, 0, 1, 1.0), zvp_test_station(0, 0, 1, 0.01)};
    double r[2], q[2], u[2], r2[2], q2[2], u2[2], r3[2], q3[2], u3[2];
    zvp_mva_result a = {0, 0, r, q, u}, b = {0, 0, r2, q2, u2}, c = {0, 0, r3, q3, u3};
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_mva_exact(multi, 2, 240.0, N, &a, NULL, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_mva_ld(multi, 2, NULL, 240.0, N, &b, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_mva_ld(ld, 2, al, 240.0, N, &c, &e), ZVP_SUCCESS);
    /* Exact product form by convolution in rationals (/usr/bin/python3, fractions.Fraction,
     * Dq = 1/100): g(n) = Z^n/n!, then g(n) += Dq g(n-1) for the queue, f(j) = D^j /
     * prod_{i<=j} min(i, 8), G(N) = sum_j f(j) g(N - j): X = G(N-1)/G(N) = 7.982507882795783,
     * U = X D / 8 = 0.9978134853494729. */
    ZVP_ASSERT_REL(a.throughput_per_s, 7.982507882795783, 1e-10);
    ZVP_ASSERT_REL(u[0], 0.9978134853494729, 1e-10);
    ZVP_ASSERT_REL(u2[0], 0.9978134853494729, 1e-10);
    ZVP_ASSERT_REL(b.throughput_per_s, a.throughput_per_s, 1e-10);
    ZVP_ASSERT_REL(c.throughput_per_s, a.throughput_per_s, 1e-10);
    ZVP_ASSERT_REL(q2[0], q[0], 1e-8);
    ZVP_ASSERT_REL(q3[0], q[0], 1e-8);
    CU_ASSERT(q[0] >= 0.0 && q2[0] >= 0.0 && r2[0] >= 1.0);
}

int zvp_test_register_mva(void)
{
    CU_pSuite s = CU_add_suite("mva", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "mva_single_customer", test_zvp_mva_single_customer) ||
        !CU_add_test(s, "mva_vs_repairman", test_zvp_mva_vs_repairman) ||
        !CU_add_test(s, "mva_multi_exact_small", test_zvp_mva_multi_exact_small) ||
        !CU_add_test(s, "mva_multi_m1_equals_queue", test_zvp_mva_multi_m1_equals_queue) ||
        !CU_add_test(s, "mva_convolution", test_zvp_mva_convolution) ||
        !CU_add_test(s, "mva_replicas", test_zvp_mva_replicas) ||
        !CU_add_test(s, "mva_large", test_zvp_mva_large) ||
        !CU_add_test(s, "mva_multi_near_saturation", test_zvp_mva_multi_near_saturation) ||
        !CU_add_test(s, "mva_two_multi", test_zvp_mva_two_multi) ||
        !CU_add_test(s, "mva_many_servers", test_zvp_mva_many_servers) ||
        !CU_add_test(s, "mva_edge_cases", test_zvp_mva_edge_cases) ||
        !CU_add_test(s, "mva_invalid", test_zvp_mva_invalid) ||
        !CU_add_test(s, "multiserver_exact_vs_seidmann", test_multiserver_exact_vs_seidmann) ||
        !CU_add_test(s, "ld_general", test_ld_general) ||
        !CU_add_test(s, "ld_near_saturation", test_ld_near_saturation))
        return (int)CU_get_error();
    return 0;
}
