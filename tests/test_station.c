/*
 * tests/test_station.c - the single-station kernels (include/zvmperf/queue.h): Erlang B and
 * C, M/M/c, the finite-source M/M/c//N (repairman), M/M/c/K and M/M/inf.
 *
 * Reference values come from closed forms, textbook values, or independent scripts run with
 * /usr/bin/python3 (exact rational arithmetic with fractions.Fraction; math.lgamma and
 * math.fsum log-sum-exp for large c), whose output was typed in here. The scripts:
 *
 * --- ref.py (Erlang B/C) ---------------------------------------------------------------
 *   from fractions import Fraction as F
 *   import math
 *   def erlang_b_exact(c, a):            # (a^c/c!) / sum_{k<=c} a^k/k!, exact rationals
 *       a = F(a); terms = [F(1)]
 *       for k in range(1, c + 1): terms.append(terms[-1] * a / k)
 *       return terms[-1] / sum(terms)
 *   def erlang_b_lgamma(c, a):           # log a^k/k! = k log a - lgamma(k+1), log-sum-exp
 *       la = math.log(a); logs = [k * la - math.lgamma(k + 1) for k in range(c + 1)]
 *       m = max(logs); s = math.fsum(math.exp(l - m) for l in logs)
 *       return math.exp(logs[-1] - m) / s
 *   def erlang_c_from_b(c, a, b): return c * b / (c - a * (1 - b))
 *   B(10,5) = 0.018384570336648132          B(100,80) = 0.003992028604553197
 *   B(1000,950) = 0.0036492936889424097     B(10000,9000) = 2.0916197944303886e-26 (lgamma)
 *   B(100000,100000) = 0.002518893423460888 (lgamma)
 *   B(16,20) = 0.29203347319926587          B(15,20) = 0.3299969274185329
 *   C(200,150) = 6.015192773541632e-05      C(1000,950) = 0.06825341537714143
 *
 * --- repair() of conv.py (the whole script is in tests/test_mva.c) ---------------------
 *   from fractions import Fraction as F
 *   def repair(N, c, Z, S):              # birth-death chain with exact rationals
 *       p = [F(1)]
 *       for k in range(1, N + 1): p.append(p[-1] * F(N - k + 1) / Z * S / min(k, c))
 *       s = sum(p); p = [x / s for x in p]
 *       L = sum(k * x for k, x in enumerate(p)); busy = sum(min(k, c) * x for k, x in enumerate(p))
 *       Lq = sum(max(k - c, 0) * x for k, x in enumerate(p)); return p, L, busy, Lq
 *   repair(30, 3, 10, 1) and pwait = sum(repair(29, 3, 10, 1)[0][3:]).
 *
 * --- ref2.py (exact rationals with fractions.Fraction) -----------------------------------
 *   mmck(lam, mu, c, K): p_k = p_{k-1} lam/(mu min(k,c)), normalised; X = lam (1 - p_K),
 *     L, Lq, R = L/X, W = Lq/X, pwait = sum(p[c:K])/(1 - p_K)
 *     mmck(4, 3/2, 3, 7): X 3.603042213883411 L 3.526418824845939 Lq 1.1243906822569987
 *        R 0.978733696557253 W 0.31206702989058627 pb 0.09923944652914726 pw 0.5967253109914374
 *     mmck(30, 1, 20, 40): X 19.99963008130251 L 38.00089741452667 pb 0.333345663956583
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/queue.h"

/* No field is infinite or negative (NaN is allowed: it goes with an error status). */
static int result_not_inf_or_negative(const zvp_station_result *r)
{
    const double v[] = {r->throughput_per_s, r->utilization, r->busy_servers, r->mean_in_system,
                        r->mean_in_queue,    r->response_s,  r->wait_s,       r->pwait};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (isinf(v[i]) || v[i] < 0.0)
            return 0;
    return 1;
}

/* ---- Erlang B ----------------------------------------------------------------------------- */

static void test_zvp_erlang_b_values(void)
{
    zvp_error e;
    double b = -1.0;
    /* Textbook: B(10, 5) = 0.018384 (Gross et al. 2008, Erlang loss tables); exact value
     * from ref.py (fractions). */
    CU_ASSERT_EQUAL(zvp_erlang_b(5.0, 10, &b, &e), ZVP_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(b, 0.018384, 1e-6); /* table value, 6 decimals */
    ZVP_ASSERT_REL(b, 0.018384570336648132, 1e-13);
    /* Closed forms: B(1, a) = a/(1+a); B(2, 1) = (1/2)/(1 + 1 + 1/2) = 1/5; B(0, a) = 1. */
    CU_ASSERT_EQUAL(zvp_erlang_b(1.0, 1, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 0.5, 1e-15);
    CU_ASSERT_EQUAL(zvp_erlang_b(1.0, 2, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 0.2, 1e-15);
    CU_ASSERT_EQUAL(zvp_erlang_b(3.5, 0, &b, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(b, 1.0);
    CU_ASSERT_EQUAL(zvp_erlang_b(0.0, 7, &b, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(b, 0.0);
    /* ref.py: exact rationals for moderate c, lgamma sums for large c (where a^c/c!
     * overflows a double from c ~ 170 on). */
    CU_ASSERT_EQUAL(zvp_erlang_b(80.0, 100, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 0.003992028604553197, 1e-12);
    CU_ASSERT_EQUAL(zvp_erlang_b(950.0, 1000, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 0.0036492936889424097, 1e-11);
    CU_ASSERT_EQUAL(zvp_erlang_b(9000.0, 10000, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 2.0916197944303886e-26, 1e-8);
    CU_ASSERT_EQUAL(zvp_erlang_b(100000.0, 100000, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(b, 0.002518893423460888, 1e-8);
}

static void test_zvp_erlang_b_invalid(void)
{
    zvp_error e;
    double b = 0.0;
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_erlang_b(NAN, 3, &b, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "offered_load"));
    CU_ASSERT_EQUAL(e.status, ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_erlang_b(-1.0, 3, &b, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "offered_load") && zvp_test_msg_has(&e, "-1"));
    CU_ASSERT_EQUAL(zvp_erlang_b(INFINITY, 3, &b, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "offered_load"));
    CU_ASSERT_EQUAL(zvp_erlang_b(1.0, ZVP_MAX_SERVERS + 1, &b, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "servers") && zvp_test_msg_has(&e, "10000001"));
    CU_ASSERT_EQUAL(zvp_erlang_b(1.0, 3, NULL, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "blocking"));
    CU_ASSERT_EQUAL(zvp_erlang_b(1.0, 3, NULL, NULL), ZVP_EINVAL); /* err may be NULL */
}

/* ---- Erlang C and M/M/c ------------------------------------------------------------------- */

static void test_zvp_erlang_c_values(void)
{
    zvp_error e;
    double c = -1.0;
    /* Values from ref.py (above) with exact rationals. */
    CU_ASSERT_EQUAL(zvp_erlang_c(150.0, 200, &c, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(c, 6.015193e-05, 1e-6);
    ZVP_ASSERT_REL(c, 6.015192773541632e-05, 1e-11);
    CU_ASSERT_EQUAL(zvp_erlang_c(950.0, 1000, &c, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(c, 6.825342e-02, 1e-6);
    ZVP_ASSERT_REL(c, 0.06825341537714143, 1e-11);
    /* M/M/1: P(wait) = rho. */
    CU_ASSERT_EQUAL(zvp_erlang_c(0.3, 1, &c, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(c, 0.3, 1e-15);
    /* a >= c: no steady state. */
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_erlang_c(4.0, 4, &c, &e), ZVP_EUNSTABLE);
    CU_ASSERT(zvp_test_msg_has(&e, "utilization") && zvp_test_msg_has(&e, "saturated"));
    CU_ASSERT_EQUAL(zvp_erlang_c(1.0, 0, &c, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "servers"));
    CU_ASSERT_EQUAL(zvp_erlang_c(NAN, 2, &c, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "offered_load"));
    CU_ASSERT_EQUAL(zvp_erlang_c(1.0, 2, NULL, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "pwait"));
}

static void test_zvp_mmc_mm1_closed_form(void)
{
    /* M/M/1 closed forms (Gross et al. 2008, sec. 2.2): L = rho/(1-rho),
     * Wq = lambda s^2/(1 - lambda s), R = s/(1 - rho), Lq = rho^2/(1-rho), P(wait) = rho. */
    const double s = 0.004; /* service time, s */
    const double rhos[] = {0.0, 0.1, 0.5, 0.9, 0.999, 0.999999};
    for (size_t i = 0; i < sizeof rhos / sizeof rhos[0]; i++) {
        const double rho = rhos[i], lambda = rho / s;
        zvp_station_result r;
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mmc(lambda, 1.0 / s, 1, &r, &e), ZVP_SUCCESS);
        CU_ASSERT_DOUBLE_EQUAL(r.mean_in_system, zvp_test_mm1_mean_in_system(rho),
                               1e-9 * (1.0 + zvp_test_mm1_mean_in_system(rho)));
        CU_ASSERT_DOUBLE_EQUAL(r.wait_s, lambda * s * s / (1.0 - lambda * s), 1e-9 * s / (1.0 - rho));
        ZVP_ASSERT_REL(r.response_s, s / (1.0 - rho), 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(r.mean_in_queue, zvp_test_mm1_mean_in_queue(rho), 1e-9 / (1.0 - rho));
        CU_ASSERT_DOUBLE_EQUAL(r.pwait, rho, 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(r.utilization, rho, 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(r.throughput_per_s, lambda, 1e-15 * lambda);
    }
}

static void test_zvp_mmc_values(void)
{
    zvp_station_result r;
    zvp_error e;
    /* M/M/2 closed form (Gross et al. 2008, sec. 2.3 with c = 2): rho = lambda/(2 mu),
     * L = 2 rho / (1 - rho^2), Lq = 2 rho^3 / (1 - rho^2), P(wait) = 2 rho^2 / (1 + rho). */
    const double lambda = 1.5, mu = 1.0, rho = lambda / (2.0 * mu);
    CU_ASSERT_EQUAL_FATAL(zvp_mmc(lambda, mu, 2, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.mean_in_system, 2.0 * rho / (1.0 - rho * rho), 1e-13);
    ZVP_ASSERT_REL(r.mean_in_queue, 2.0 * rho * rho * rho / (1.0 - rho * rho), 1e-13);
    ZVP_ASSERT_REL(r.pwait, 2.0 * rho * rho / (1.0 + rho), 1e-13);
    ZVP_ASSERT_REL(r.utilization, rho, 1e-15);
    ZVP_ASSERT_REL(r.busy_servers, lambda / mu, 1e-15);
    /* Little's law L = lambda R and R = W + 1/mu. */
    ZVP_ASSERT_REL(r.mean_in_system, lambda * r.response_s, 1e-13);
    ZVP_ASSERT_REL(r.response_s, r.wait_s + 1.0 / mu, 1e-15);
    /* 200 servers at 150 Erlangs: Wq = C/(c mu - lambda), C from ref.py. */
    CU_ASSERT_EQUAL_FATAL(zvp_mmc(150.0, 1.0, 200, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.wait_s, 6.015192773541632e-05 / 50.0, 1e-11);
    ZVP_ASSERT_REL(r.mean_in_system, 150.0 * 6.015192773541632e-05 / 50.0 + 150.0, 1e-13);
}

static void test_zvp_mmc_unstable(void)
{
    zvp_station_result r;
    zvp_error e;
    /* c = 2, lambda = 3, mu = 1: utilization 1.5. */
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_mmc(3.0, 1.0, 2, &r, &e), ZVP_EUNSTABLE);
    CU_ASSERT_EQUAL(e.status, ZVP_EUNSTABLE);
    CU_ASSERT(zvp_test_msg_has(&e, "utilization") && zvp_test_msg_has(&e, "saturated") && zvp_test_msg_has(&e, "1.5"));
    CU_ASSERT(result_not_inf_or_negative(&r));
    /* M/M/1 with lambda = mu: utilization exactly 1. */
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_mmc(2.0, 2.0, 1, &r, &e), ZVP_EUNSTABLE);
    CU_ASSERT(zvp_test_msg_has(&e, "utilization") && zvp_test_msg_has(&e, "saturated"));
    CU_ASSERT(result_not_inf_or_negative(&r));
    /* Just below saturation: finite, non-negative, and W = rho s/(1-rho). */
    const double lambda = nextafter(1.0, 0.0);
    CU_ASSERT_EQUAL(zvp_mmc(lambda, 1.0, 1, &r, &e), ZVP_SUCCESS);
    CU_ASSERT(isfinite(r.wait_s) && r.wait_s > 0.0 && result_not_inf_or_negative(&r));
    ZVP_ASSERT_REL(r.wait_s, lambda / (1.0 - lambda), 1e-12);
}

static void test_zvp_mmc_invalid(void)
{
    zvp_station_result r;
    zvp_error e;
    CU_ASSERT_EQUAL(zvp_mmc(NAN, 1.0, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "arrival_rate_per_s"));
    CU_ASSERT(result_not_inf_or_negative(&r));
    CU_ASSERT_EQUAL(zvp_mmc(-0.5, 1.0, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "arrival_rate_per_s") && zvp_test_msg_has(&e, "-0.5"));
    CU_ASSERT_EQUAL(zvp_mmc(0.5, 0.0, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "service_rate_per_s"));
    CU_ASSERT_EQUAL(zvp_mmc(0.5, INFINITY, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "service_rate_per_s"));
    CU_ASSERT_EQUAL(zvp_mmc(0.5, 1.0, 0, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "servers") && zvp_test_msg_has(&e, "[1, 10000000]"));
    CU_ASSERT_EQUAL(zvp_mmc(0.5, 1.0, 1, NULL, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "out"));
}

/* ---- Finite source (repairman) ------------------------------------------------------------ */

static void test_zvp_repairman_c1_erlang_b(void)
{
    zvp_station_result r;
    zvp_error e;
    double b;
    /* models/README.md B1: p_0 = ErlangB(N, Z/S); N = 16, Z/S = 20: B(16, 20) from ref.py
     * (fractions). U = 1 - p_0, X = U/S; pwait = U with N - 1 sources = 1 - B(15, 20). */
    const double s = 0.5, z = 10.0;
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(16, z, s, 1, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(1.0 - r.utilization, 0.29203347319926587, 1e-13);
    ZVP_ASSERT_REL(r.throughput_per_s, (1.0 - 0.29203347319926587) / s, 1e-13);
    ZVP_ASSERT_REL(r.pwait, 1.0 - 0.3299969274185329, 1e-13);
    ZVP_ASSERT_REL(16.0, r.throughput_per_s * (z + r.response_s), 1e-13); /* Little */
    /* N = 1e5 sources at Z/S = 1e5: B(1e5, 1e5) from ref.py (lgamma sums). */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(100000, 1e5, 1.0, 1, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(1.0 - r.utilization, 0.002518893423460888, 1e-8);
    /* N = 1e7 at Z/S = 1e7 against the (independent) Erlang B recurrence. */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(10000000, 2e7, 2.0, 1, &r, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_erlang_b(1e7, 10000000, &b, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(1.0 - r.utilization, b, 1e-8);
    ZVP_ASSERT_REL(r.throughput_per_s, (1.0 - b) / 2.0, 1e-10);
}

static void test_zvp_repairman_exact_small(void)
{
    zvp_station_result r;
    zvp_error e;
    /* 4 sources, think 2 s, 2 servers, service 1 s. By hand: p_k ∝ 1, 2, 3/2, 3/4, 3/16
     * (sum 87/16), X = sum min(k,2) p_k / S = (2 + 3 + 3/2 + 3/8) * 16/87 = 110/87. */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(4, 2.0, 1.0, 2, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 110.0 / 87.0, 1e-14);
    ZVP_ASSERT_REL(r.utilization, 110.0 / 87.0 * 1.0 / 2.0, 1e-14);
    /* L = sum k p_k = (2 + 3 + 9/4 + 3/4) * 16/87 = 128/87. */
    ZVP_ASSERT_REL(r.mean_in_system, 128.0 / 87.0, 1e-14);
    /* N = 30, c = 3, Z = 10, S = 1 from conv.py repair() (exact rationals). */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(30, 10.0, 1.0, 3, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 2.539219396938468, 1e-13);
    ZVP_ASSERT_REL(r.mean_in_system, 4.6078060306153219, 1e-13);
    ZVP_ASSERT_REL(r.mean_in_queue, 2.0685866336768544, 1e-13);
    ZVP_ASSERT_REL(r.wait_s, 0.81465454941425908, 1e-13);
    ZVP_ASSERT_REL(r.response_s, 1.81465454941425908, 1e-13);
    ZVP_ASSERT_REL(r.pwait, 0.67540111880140441, 1e-13);
    /* One source never waits: X = 1/(Z + S). */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(1, 3.0, 1.0, 1, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 0.25, 1e-15);
    CU_ASSERT_EQUAL(r.pwait, 0.0);
    CU_ASSERT_EQUAL(r.wait_s, 0.0);
}

static void test_zvp_repairman_saturated(void)
{
    zvp_station_result r;
    zvp_error e;
    /* 200 sources on 8 servers, Z = 1e-3 S: every server is busy all the time, X -> 8/S
     * (P(k < 8) is below 1e-300 here), Little's law N = X (Z + R). */
    const double s = 0.25, z = 2.5e-4;
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(200, z, s, 8, &r, &e), ZVP_SUCCESS);
    CU_ASSERT(isfinite(r.throughput_per_s) && isfinite(r.response_s) && isfinite(r.wait_s));
    ZVP_ASSERT_REL(r.throughput_per_s, 8.0 / s, 1e-12);
    ZVP_ASSERT_REL(r.utilization, 1.0, 1e-12);
    ZVP_ASSERT_REL(200.0, r.throughput_per_s * (z + r.response_s), 1e-12);
    ZVP_ASSERT_REL(r.pwait, 1.0, 1e-12);
    /* Limit Z = 0: X = min(N, c)/S, L = N, R = N S / c. */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(200, 0.0, s, 8, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 8.0 / s, 1e-15);
    ZVP_ASSERT_REL(r.mean_in_system, 200.0, 1e-15);
    ZVP_ASSERT_REL(r.response_s, 200.0 * s / 8.0, 1e-15);
    CU_ASSERT_EQUAL(r.pwait, 1.0);
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(5, 0.0, s, 8, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 5.0 / s, 1e-15);
    CU_ASSERT_EQUAL(r.wait_s, 0.0);
    CU_ASSERT_EQUAL(r.pwait, 0.0);
    /* N = 0: nothing flows. */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(0, 1.0, s, 8, &r, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(r.throughput_per_s, 0.0);
    CU_ASSERT_EQUAL(r.mean_in_system, 0.0);
}

static void test_zvp_repairman_large(void)
{
    zvp_station_result r;
    zvp_error e;
    /* N = 1e8 sources (the maximum), 1e6 servers, at the knee N/(Z + S) = c/S = 1e6.
     * Reference: an independent birth-death sum in log space at 40 digits (/usr/bin/python3
     * with mpmath, mp.dps = 40): log p_k - log p_{k-1} = log((N - k + 1) S / (Z min(k, c))),
     * accumulated in mpf from the mode k = c up and down until 120 below it (169481 terms,
     * k in [984624, 1154104]), X = sum min(k, c) p_k / (S sum p_k), L = sum k p_k / sum p_k:
     *   X = 999927.8303627721719127839, L = 1007144.79408555498063439,
     *   R = N/X - Z = 1.007217484606028523233851. */
    const double n = 1e8, z = 99.0, s = 1.0;
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(100000000UL, z, s, 1000000, &r, &e), ZVP_SUCCESS);
    CU_ASSERT(isfinite(r.throughput_per_s) && isfinite(r.response_s));
    CU_ASSERT(r.throughput_per_s <= fmin(n / (z + s), 1e6 / s) * (1.0 + 1e-12));
    ZVP_ASSERT_REL(r.throughput_per_s, 999927.8303627721719127839, 1e-10);
    ZVP_ASSERT_REL(r.utilization, 0.9999278303627721719127839, 1e-10);
    ZVP_ASSERT_REL(r.mean_in_system, 1007144.79408555498063439, 1e-10);
    ZVP_ASSERT_REL(r.response_s, 1.007217484606028523233851, 1e-9);
    ZVP_ASSERT_REL(n, r.throughput_per_s * (z + r.response_s), 1e-9);
    CU_ASSERT(r.pwait >= 0.0 && r.pwait <= 1.0);
    /* Extreme light load: X = N/(Z + S) to first order, no underflow to 0. */
    CU_ASSERT_EQUAL_FATAL(zvp_repairman(1000, 1e300, 1e-300, 1, &r, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(r.throughput_per_s, 1000.0 / 1e300, 1e-12);
    CU_ASSERT_EQUAL(r.pwait, 0.0);
    CU_ASSERT(r.mean_in_system >= 0.0 && r.wait_s >= 0.0);
}

static void test_zvp_repairman_invalid(void)
{
    zvp_station_result r;
    zvp_error e;
    CU_ASSERT_EQUAL(zvp_repairman(ZVP_MAX_CUSTOMERS + 1, 1.0, 1.0, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "sources") && zvp_test_msg_has(&e, "100000001"));
    CU_ASSERT_EQUAL(zvp_repairman(4, NAN, 1.0, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "think_s"));
    CU_ASSERT_EQUAL(zvp_repairman(4, -1.0, 1.0, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "think_s") && zvp_test_msg_has(&e, "-1"));
    CU_ASSERT_EQUAL(zvp_repairman(4, 1.0, 0.0, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "service_s"));
    CU_ASSERT_EQUAL(zvp_repairman(4, 1.0, INFINITY, 1, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "service_s"));
    CU_ASSERT_EQUAL(zvp_repairman(4, 1.0, 1.0, 0, &r, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "servers"));
    CU_ASSERT_EQUAL(zvp_repairman(4, 1.0, 1.0, 1, NULL, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "out"));
}

/* ---- M/M/c/K, M/M/inf --------------------------------------------------------------------- */

static void test_mm1k_closed_form(void)
{
    /* M/M/1/K (Gross et al. 2008, sec. 2.5): p_n = (1-r) r^n / (1 - r^{K+1}),
     * L = r/(1-r) - (K+1) r^{K+1}/(1 - r^{K+1}); r = 1: L = K/2, p_K = 1/(K+1). */
    const double rs[] = {0.3, 0.9, 1.5, 4.0};
    const unsigned long K = 10;
    for (size_t i = 0; i < 4; i++) {
        const double r = rs[i], mu = 2.0, lam = r * mu;
        zvp_station_result o;
        double pb;
        zvp_error e;
        CU_ASSERT_EQUAL_FATAL(zvp_mmck(lam, mu, 1, K, &o, &pb, &e), ZVP_SUCCESS);
        double rk1 = pow(r, (double)K + 1.0);
        ZVP_ASSERT_REL(pb, (1.0 - r) * pow(r, (double)K) / (1.0 - rk1), 1e-12);
        ZVP_ASSERT_REL(o.mean_in_system, r / (1.0 - r) - ((double)K + 1.0) * rk1 / (1.0 - rk1), 1e-12);
        ZVP_ASSERT_REL(o.throughput_per_s, lam * (1.0 - pb), 1e-13);
        ZVP_ASSERT_REL(o.mean_in_system, o.throughput_per_s * o.response_s, 1e-13); /* Little */
        ZVP_ASSERT_REL(o.utilization, o.throughput_per_s / mu, 1e-13);
    }
    zvp_station_result o;
    double pb;
    CU_ASSERT_EQUAL_FATAL(zvp_mmck(1.0, 1.0, 1, 9, &o, &pb, NULL), ZVP_SUCCESS); /* r = 1 */
    ZVP_ASSERT_REL(o.mean_in_system, 4.5, 1e-13);
    ZVP_ASSERT_REL(pb, 0.1, 1e-13);
}

static void test_mmck_values(void)
{
    zvp_station_result o;
    double pb, b;
    zvp_error e;
    /* ref2.py, exact rationals. */
    CU_ASSERT_EQUAL_FATAL(zvp_mmck(4.0, 1.5, 3, 7, &o, &pb, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.throughput_per_s, 3.603042213883411, 1e-13);
    ZVP_ASSERT_REL(o.mean_in_system, 3.526418824845939, 1e-13);
    ZVP_ASSERT_REL(o.mean_in_queue, 1.1243906822569987, 1e-13);
    ZVP_ASSERT_REL(o.response_s, 0.978733696557253, 1e-13);
    ZVP_ASSERT_REL(o.wait_s, 0.31206702989058627, 1e-13);
    ZVP_ASSERT_REL(pb, 0.09923944652914726, 1e-13);
    ZVP_ASSERT_REL(o.pwait, 0.5967253109914374, 1e-13);
    ZVP_ASSERT_REL(o.utilization, 3.603042213883411 / (3 * 1.5), 1e-13);
    /* Overloaded (lambda > c mu) still has a steady state. */
    CU_ASSERT_EQUAL_FATAL(zvp_mmck(30.0, 1.0, 20, 40, &o, &pb, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.throughput_per_s, 19.99963008130251, 1e-12);
    ZVP_ASSERT_REL(o.mean_in_system, 38.00089741452667, 1e-12);
    ZVP_ASSERT_REL(pb, 0.333345663956583, 1e-12);
    /* K = c is Erlang's loss system: P(block) = Erlang B (an independent recurrence). */
    const unsigned long cs[] = {1, 10, 1000, 100000};
    const double as[] = {0.5, 5.0, 950.0, 99999.9999};
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL_FATAL(zvp_mmck(as[i], 1.0, cs[i], cs[i], &o, &pb, &e), ZVP_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(zvp_erlang_b(as[i], cs[i], &b, &e), ZVP_SUCCESS);
        ZVP_ASSERT_REL(pb, b, 1e-9);
        CU_ASSERT_EQUAL(o.pwait, 0.0);
        CU_ASSERT_EQUAL(o.wait_s, 0.0);
    }
    /* Large K approaches M/M/c (pb -> 0): 1e5 servers at utilization 0.99. */
    zvp_station_result m;
    CU_ASSERT_EQUAL_FATAL(zvp_mmc(99000.0, 1.0, 100000, &m, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_mmck(99000.0, 1.0, 100000, 200000, &o, &pb, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.mean_in_system, m.mean_in_system, 1e-10);
    ZVP_ASSERT_REL(o.pwait, m.pwait, 1e-9);
    CU_ASSERT(pb < 1e-100);
    /* lambda = 0 */
    CU_ASSERT_EQUAL_FATAL(zvp_mmck(0.0, 2.0, 2, 5, &o, &pb, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(o.throughput_per_s, 0.0);
    CU_ASSERT_EQUAL(pb, 0.0);
    ZVP_ASSERT_REL(o.response_s, 0.5, 1e-15);
    /* bad input */
    CU_ASSERT_EQUAL(zvp_mmck(1.0, 1.0, 4, 3, &o, &pb, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "capacity = 3") && zvp_test_msg_has(&e, "servers = 4"));
    CU_ASSERT(isnan(o.throughput_per_s) && isnan(pb));
    CU_ASSERT_EQUAL(zvp_mmck(1.0, 1.0, 0, 3, &o, &pb, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "servers = 0"));
    CU_ASSERT_EQUAL(zvp_mmck(-1.0, 1.0, 1, 3, &o, &pb, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "arrival_rate_per_s"));
}

static void test_mminf_and_stress(void)
{
    zvp_station_result o;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_mminf(3.0, 0.5, &o, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.mean_in_system, 6.0, 1e-15);
    ZVP_ASSERT_REL(o.response_s, 2.0, 1e-15);
    CU_ASSERT_EQUAL(o.wait_s, 0.0);
    CU_ASSERT_EQUAL(zvp_mminf(3.0, 0.0, &o, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "service_rate_per_s"));
    /* M/M/c at utilization 1 - 1e-9 with 1e5 servers, mu = 1: W = C/(c mu - lambda).
     * lambda = 1e5 (1 - 1e-9) = 99999.99990000001 as a double (not the double nearest
     * 99999.9999 used in tests/solve_test.sh: c - lambda differs at 1e-7 relative).
     * Independent reference (/usr/bin/python3), the same script as in tests/solve_test.sh
     * with a = 100000.0 * (1.0 - 1e-9): log-space terms k log a - lgamma(k + 1), k < c, and
     * the tail c log a - lgamma(c + 1) + log(c/(c - a)), normalised by the largest and
     * summed with math.fsum: C = 0.9999996040003691, W = 9999.99702022041; mpmath at 50
     * digits (Erlang B recursion, C = B/(1 - rho (1 - B))): C = 0.99999960400036922395,
     * W = 9999.9970202204099392 (used here). */
    const double c = 100000.0, lam = c * (1.0 - 1e-9);
    CU_ASSERT_EQUAL_FATAL(zvp_mmc(lam, 1.0, 100000, &o, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.pwait, 0.99999960400036922395, 1e-12);
    ZVP_ASSERT_REL(o.wait_s, 9999.9970202204099392, 1e-12);
    ZVP_ASSERT_REL(o.response_s, 9999.9970202204099392 + 1.0, 1e-12);
    ZVP_ASSERT_REL(o.wait_s, o.pwait / (c - lam), 1e-14);
    ZVP_ASSERT_REL(o.mean_in_system, lam * o.response_s, 1e-9);
    /* State probabilities of M/M/1000 at lambda = 950 stay finite: the M/M/c/K chain with a
     * huge K holds them; its L equals M/M/c's (ref value C(1000,950) = 0.06825341537714143). */
    double pb;
    CU_ASSERT_EQUAL_FATAL(zvp_mmck(950.0, 1.0, 1000, 100000, &o, &pb, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(o.pwait, 0.06825341537714143, 1e-10);
    ZVP_ASSERT_REL(o.mean_in_queue, 950.0 * 0.06825341537714143 / 50.0, 1e-10);
}

int zvp_test_register_station(void)
{
    CU_pSuite s = CU_add_suite("station", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "erlang_b_values", test_zvp_erlang_b_values) ||
        !CU_add_test(s, "erlang_b_invalid", test_zvp_erlang_b_invalid) ||
        !CU_add_test(s, "erlang_c_values", test_zvp_erlang_c_values) ||
        !CU_add_test(s, "mmc_mm1_closed_form", test_zvp_mmc_mm1_closed_form) ||
        !CU_add_test(s, "mmc_values", test_zvp_mmc_values) ||
        !CU_add_test(s, "mmc_unstable", test_zvp_mmc_unstable) ||
        !CU_add_test(s, "mmc_invalid", test_zvp_mmc_invalid) ||
        !CU_add_test(s, "repairman_c1_erlang_b", test_zvp_repairman_c1_erlang_b) ||
        !CU_add_test(s, "repairman_exact_small", test_zvp_repairman_exact_small) ||
        !CU_add_test(s, "repairman_saturated", test_zvp_repairman_saturated) ||
        !CU_add_test(s, "repairman_large", test_zvp_repairman_large) ||
        !CU_add_test(s, "repairman_invalid", test_zvp_repairman_invalid) ||
        !CU_add_test(s, "mm1k_closed_form", test_mm1k_closed_form) ||
        !CU_add_test(s, "mmck_values", test_mmck_values) ||
        !CU_add_test(s, "mminf_and_stress", test_mminf_and_stress))
        return (int)CU_get_error();
    return 0;
}
