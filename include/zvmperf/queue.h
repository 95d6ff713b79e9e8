/*
 * zvmperf/queue.h - generic queueing kernels (no z/VM knowledge).
 *
 * All functions are pure: inputs const, outputs last, no global state; safe to call
 * concurrently from OpenMP threads. Every kernel (single stations, networks, bounds, USL)
 * checks its results before returning them: when the inputs are so extreme that a result
 * would leave the double range (inf, or NaN from inf - inf), the call fails with ZVP_EINVAL
 * ("<kernel>: the inputs (...) are outside the range double arithmetic can solve ..."),
 * every output NaN; never an infinite or NaN output with ZVP_SUCCESS, except the documented
 * "no peak" infinities of zvp_usl_peak and the NaN standard errors of a 3-point USL fit. A
 * failed internal consistency check (a bug) is ZVP_EINTERNAL. Times
 * in seconds, rates in 1/s. Erlang and finite-source formulas are computed by recurrence or
 * in log space (never a^c/c!). The methods, in prose: src/queue/README.md.
 *
 * General sources: Kleinrock, "Queueing Systems, Vol. 1", Wiley 1975 (ch. 3, birth-death
 * queues); Gross, Shortle, Thompson & Harris, "Fundamentals of Queueing Theory", 4th ed.
 * 2008 (ch. 2); Lazowska, Zahorjan, Graham & Sevcik, "Quantitative System Performance"
 * (QSP), Prentice-Hall 1984 (ch. 6-8); Reiser & Lavenberg, J. ACM 27(2), 1980 (MVA).
 */
#ifndef ZVMPERF_QUEUE_H
#define ZVMPERF_QUEUE_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest server count accepted by the Erlang and M/M/c kernels. */
#define ZVP_MAX_SERVERS 10000000UL
/* Largest customer / source population accepted by the closed kernels. */
#define ZVP_MAX_CUSTOMERS 100000000UL
/* Largest work a network kernel accepts, in elementary steps (one residence-time or
 * convolution-term update: a few ns each, so the limit is roughly 10 s of CPU). Kernels
 * whose cost the caller controls (customers x servers, customers^2, lattice x classes,
 * iterations x classes x stations, sum of servers) estimate it up front and return
 * ZVP_EINVAL, with the estimate, this limit and the way out, when it is exceeded. */
#define ZVP_QUEUE_MAX_WORK 2000000000UL

/**
 * zvp_erlang_b - Erlang B blocking probability B(c, a).
 * @param[in]  offered_load  a = lambda/mu in Erlangs, finite, >= 0.
 * @param[in]  servers       c, 0 <= c <= ZVP_MAX_SERVERS (c = 0 gives B = 1).
 * @param[out] blocking      B(c, a) in [0, 1].
 * @return ZVP_SUCCESS; ZVP_EINVAL for a NaN/negative/infinite load, c out of range or a
 *         NULL output (message names the argument, its value and the range).
 * Source: recurrence B_0 = 1, B_j = a B_{j-1} / (j + a B_{j-1}) (models/README.md B1;
 *         Gross et al. 2008, sec. 2.5). O(c) time, O(1) memory.
 */
int zvp_erlang_b(double offered_load, unsigned long servers, double *blocking, zvp_error *err);

/**
 * zvp_erlang_c - Erlang C probability of waiting C(c, a) for M/M/c.
 * @param[in]  offered_load  a = lambda/mu in Erlangs, finite, >= 0, and a < c.
 * @param[in]  servers       c, 1 <= c <= ZVP_MAX_SERVERS.
 * @param[out] pwait         C(c, a) = c B / (c - a (1 - B)), B = Erlang B(c, a), in [0, 1];
 *                           not NULL. Written only on success (left unchanged on error).
 * @return ZVP_SUCCESS; ZVP_EUNSTABLE when a >= c (no steady state; the message gives the
 *         utilization a/c); ZVP_EINVAL for a NULL pwait, a NaN, negative or infinite
 *         offered_load, or c outside [1, ZVP_MAX_SERVERS] (message names the argument, its
 *         value and the range). Checked in that order.
 * Source: Gross et al. 2008, eq. (2.33)-(2.36); models/README.md, paging.
 */
int zvp_erlang_c(double offered_load, unsigned long servers, double *pwait, zvp_error *err);

/* Steady-state figures of a single station. Fields that a kind does not define are NaN
 * only where documented for that kind. */
typedef struct zvp_station_result {
    double throughput_per_s;  /* X: completions per second */
    double utilization;       /* per-server utilization, in [0, 1] */
    double busy_servers;      /* mean number of busy servers = utilization * c */
    double mean_in_system;    /* L: mean number at the station (queue + service) */
    double mean_in_queue;     /* Lq: mean number waiting */
    double response_s;        /* R = W + S: mean time at the station, s */
    double wait_s;            /* W: mean wait before service, s */
    double pwait;             /* probability an arrival must wait (M/M/c), or that a
                                 requesting source finds all servers busy (finite source) */
} zvp_station_result;

/**
 * zvp_mmc - M/M/c queue (c = 1 gives M/M/1).
 * @param[in]  arrival_rate_per_s  lambda, finite, >= 0.
 * @param[in]  service_rate_per_s  mu per server, finite, > 0.
 * @param[in]  servers             c, 1 <= c <= ZVP_MAX_SERVERS.
 * @param[out] out                 all fields filled: X = lambda, utilization = lambda/(c mu),
 *                                 busy_servers = a = lambda/mu, pwait = C(c, a),
 *                                 W = Wq, R = Wq + 1/mu, Lq = lambda Wq, L = Lq + a.
 *                                 On any error every field is set to NaN (never to an
 *                                 infinite or negative value), matching the status.
 * @return ZVP_SUCCESS; ZVP_EUNSTABLE when lambda >= c mu, or when the wait is too close to
 *         infinite to be represented (message gives the utilization and says the station
 *         is saturated); ZVP_EINVAL for bad arguments (NULL out, NaN/infinite/negative
 *         lambda, mu <= 0, c out of range).
 * Source: Gross et al. 2008, sec. 2.3 (M/M/c): Wq = C(c,a)/(c mu - lambda), L = Lq + a.
 */
int zvp_mmc(double arrival_rate_per_s, double service_rate_per_s, unsigned long servers,
            zvp_station_result *out, zvp_error *err);

/**
 * zvp_repairman - finite-source M/M/c//N ("machine repairman"): N sources each thinking
 * an exponential time of mean think_s, then requesting service (mean service_s) from c
 * servers. Solved exactly as a birth-death chain, with the state probabilities built in
 * log space and normalised with log-sum-exp, so any N and c are safe.
 * @param[in]  sources    N, 0 <= N <= ZVP_MAX_CUSTOMERS.
 * @param[in]  think_s    Z, finite, >= 0 (Z = 0: all sources always at the station).
 * @param[in]  service_s  S, finite, > 0.
 * @param[in]  servers    c, 1 <= c <= ZVP_MAX_SERVERS.
 * @param[out] out        throughput, per-server utilization, L, Lq, R, W; pwait is the
 *                        probability that an arriving source finds all c servers busy
 *                        (arrival theorem: the chain with N-1 sources).
 *                        X = E[min(k,c)]/S = (N - L)/Z, busy_servers = X S,
 *                        utilization = X S / c, W = Lq / X, R = W + S (so N = X (Z + R)).
 *                        Z = 0 is the limit Z -> 0: X = min(N,c)/S, L = N, pwait = 1 if
 *                        N - 1 >= c else 0. N = 0: X = L = Lq = W = pwait = 0, R = S.
 *                        On error every field is NaN.
 * @return ZVP_SUCCESS or ZVP_EINVAL (NULL out; N, c out of range; Z NaN/negative/infinite;
 *         S not finite and > 0).
 * Source: Kleinrock 1975, sec. 3.8-3.9; models/README.md B1 (p_0 = ErlangB(N, Z/S) for c = 1).
 * Cost O(N) time at most (the walk starts at the mode and stops once terms fall below
 * e^-750 of it), O(1) memory. Thread safety: pure.
 */
int zvp_repairman(unsigned long sources, double think_s, double service_s, unsigned long servers,
                  zvp_station_result *out, zvp_error *err);

/* ---- Closed networks: exact single-class MVA ----------------------------------------- */

typedef enum zvp_station_kind {
    ZVP_STATION_QUEUE = 0, /* single-server FCFS/PS queueing station */
    ZVP_STATION_DELAY = 1, /* infinite-server (pure delay) station */
    ZVP_STATION_MULTI = 2, /* m-server FCFS station, load-dependent rate min(j, m)/D */
    ZVP_STATION_LD = 3     /* general load-dependent station, rate alpha[j]/D with j present
                              (zvp_mva_ld only; rejected by the other solvers) */
} zvp_station_kind;

/* One station entry of a closed network. Plain struct with fixed-width fields so that
 * ctypes can mirror it. `replicas` identical stations share one entry (symmetric stations,
 * e.g. L lock zones chosen uniformly): demand_s is the demand at EACH replica, and the
 * per-station results are per replica. */
typedef struct zvp_station {
    int32_t kind;      /* zvp_station_kind */
    int32_t servers;   /* m for ZVP_STATION_MULTI (>= 1); ignored otherwise */
    uint32_t replicas; /* >= 1 */
    uint32_t reserved; /* must be 0 */
    double demand_s;   /* service demand per job cycle at one replica = visits x service, >= 0 */
} zvp_station;

/* Per-station results of a closed network (arrays of length n_stations, caller-owned). */
typedef struct zvp_mva_result {
    double throughput_per_s;   /* X: system throughput (cycles per second) */
    double response_s;         /* R = N/X - Z: time per cycle excluding think time */
    double *residence_s;       /* [n_stations] R_k: residence time per cycle at one replica */
    double *queue_length;      /* [n_stations] Q_k: mean number at one replica */
    double *utilization;       /* [n_stations] U_k = X D_k / m (per server; delay: X D_k) */
} zvp_mva_result;

/**
 * zvp_mva_exact - exact single-class Mean Value Analysis of a closed product-form network
 * with a think (delay) time, queueing, delay and multi-server stations.
 * @param[in]  stations     [n_stations] entries; may be NULL only when n_stations == 0.
 * @param[in]  n_stations   K >= 0.
 * @param[in]  think_s      Z, finite, >= 0.
 * @param[in]  customers    N, 0 <= N <= ZVP_MAX_CUSTOMERS (N = 0 gives X = 0).
 * @param[out] res          arrays must be caller-allocated with n_stations entries
 *                          (any of them may be NULL if not wanted). response_s is
 *                          sum_k replicas_k R_k (= N/X - Z). N = 0 gives X = 0, Q_k = U_k = 0
 *                          and the no-contention residence R_k = D_k (response = sum of
 *                          replicas x D). On error X and response_s are NaN (when res is
 *                          not NULL) and the arrays are not written.
 * @param[in]  scratch      NULL (the kernel then allocates), or a buffer of at least
 *                          zvp_mva_scratch_doubles(stations, n_stations) doubles. When
 *                          given and N > 0, on success it holds the final state:
 *                          [0, K) Q_k(N), [K, 2K) R_k(N), then for each MULTI entry in
 *                          order with m_k >= 2 a block of 2 m_k doubles whose first m_k
 *                          hold the marginal probabilities p_k(j|N), j = 0..m_k-1, of one
 *                          replica
 *                          (unspecified for an entry with m_k >= N or zero demand, which is
 *                          solved exactly as a delay station); the rest is workspace.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL res; NULL stations with K > 0; bad demand, kind,
 *         servers (MULTI: 1..ZVP_MAX_SERVERS), replicas (>= 1), reserved (!= 0); Z bad;
 *         N out of range; Z + sum replicas x D = 0 with N > 0, or not finite); ZVP_ENOMEM.
 * Multi-server stations: the marginal-probability recursion over j = 0..m-1, with p(0|n)
 * from an exact product (stable near saturation, unlike the utilization-law closure); the
 * formulation and its derivation are in src/queue/README.md, "Multi-server stations". An
 * m-server station with m = 1 gives exactly (bit for bit) the queueing-station answer; with
 * m >= N it is exactly a delay station.
 * Source: Reiser & Lavenberg 1980; QSP ch. 6 (single-server), ch. 8 (load-dependent);
 *         src/queue/README.md; Casale & Serazzi 2005 (instability of p(0|n)).
 * Cost O(N (M + 1) (K + sum_k replicas_k m_k)) time for M m-server entries (O(N K) without
 * them, by a fast path that performs the same operations in the same order, so results are
 * bit-identical), memory as zvp_mva_scratch_doubles. Only entries with 2 <= m < N count
 * (m >= N is a delay station, exactly). Work limit: N (1 + K + sum over those entries k of
 * [2 m_k + K + sum over those entries i of (replicas_i - [i == k]) (m_i + 1)]) must not
 * exceed ZVP_QUEUE_MAX_WORK, else ZVP_EINVAL (message: the estimate, the limit, the way
 * out: fewer customers or servers, or zvp_mva_approx), checked before any work.
 * Every result is checked against the asymptotic bounds X <= N/(Z + sum D) and
 * X D_k/m_k <= 1 (relative slack 1e-9); a violation (a solver bug, never output) returns
 * ZVP_EINTERNAL with a message starting "internal check failed".
 * Thread safety: pure (each thread needs its own scratch).
 */
int zvp_mva_exact(const zvp_station *stations, size_t n_stations, double think_s,
                  unsigned long customers, zvp_mva_result *res, double *scratch, zvp_error *err);

/** zvp_mva_scratch_doubles - doubles of scratch zvp_mva_exact needs for these stations:
 *  2 K + sum_k 2 m_k + sum_k [K + sum_i r_ik (m_i + 1)], the sums over the MULTI entries with
 *  m >= 2, and r_ik = replicas_i - (i == k). stations may be NULL (then 2 K). Does not
 *  validate the entries; returns SIZE_MAX if the count overflows size_t. */
size_t zvp_mva_scratch_doubles(const zvp_station *stations, size_t n_stations);

/* ---- More single stations -------------------------------------------------------------- */

/**
 * zvp_mmck - M/M/c/K queue: c servers, room for K customers in all (K >= c; arrivals that
 * find K present are lost). M/M/1/K is c = 1; Erlang's loss system M/M/c/c is K = c.
 * A steady state exists for every load (lambda >= c mu included).
 * @param[in]  arrival_rate_per_s  lambda, finite, >= 0 (offered).
 * @param[in]  service_rate_per_s  mu per server, finite, > 0.
 * @param[in]  servers             c, 1 <= c <= ZVP_MAX_SERVERS.
 * @param[in]  capacity            K, c <= K <= ZVP_MAX_CUSTOMERS.
 * @param[out] out                 X = lambda (1 - Pblock) (accepted), busy_servers = X/mu,
 *                                 utilization = X/(c mu), L, Lq, R = L/X, W = Lq/X (Little,
 *                                 on accepted customers), pwait = P(an accepted arrival
 *                                 waits) = P(c <= k < K)/(1 - P(K)). lambda = 0: X = L = Lq =
 *                                 W = pwait = 0, R = 1/mu. On error every field is NaN.
 * @param[out] pblock              may be NULL; P(an arrival is lost) = p_K (PASTA).
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL out; lambda NaN/negative/infinite; mu not finite
 *         and > 0; c or K out of range, message names it).
 * Source: Gross et al. 2008, sec. 2.5-2.6 (p_k = p_0 a^k/k! for k <= c, p_c rho^{k-c}
 *         above). Computed as ratios outward from the mode (never a^k or k!), with
 *         compensated sums; terms below 1e-300 of the mode are dropped. O(K) time at most,
 *         O(1) memory. Thread safety: pure.
 */
int zvp_mmck(double arrival_rate_per_s, double service_rate_per_s, unsigned long servers,
             unsigned long capacity, zvp_station_result *out, double *pblock, zvp_error *err);

/**
 * zvp_mminf - M/M/infinity (pure delay): L = busy_servers = lambda/mu, R = 1/mu, W = Lq =
 * pwait = 0, X = lambda, utilization = 0 (per-server utilization with infinitely many
 * servers; documented, not NaN).
 * @param[in]  arrival_rate_per_s  lambda, finite, >= 0.
 * @param[in]  service_rate_per_s  mu, finite, > 0.
 * @param[out] out                 not NULL; every field as above, every field NaN on error.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL out, lambda NaN/negative/infinite, mu not finite
 *         and > 0, lambda/mu overflowing a double). Source: Gross et al. 2008, sec. 2.7.
 * Thread safety: pure.
 */
int zvp_mminf(double arrival_rate_per_s, double service_rate_per_s, zvp_station_result *out,
              zvp_error *err);

/* ---- Open product-form networks (multiclass) ------------------------------------------ */

/* Results of an open network with C classes and K station entries (caller-owned arrays;
 * any may be NULL). Class-major layout: element [c * K + k]. */
typedef struct zvp_open_result {
    double throughput_per_s;   /* sum_c lambda_c */
    double response_s;         /* mean response over all jobs: sum_c lambda_c R_c / sum lambda;
                                  0 when no job arrives */
    double mean_in_system;     /* sum over classes, entries and replicas of Q */
    double *class_response_s;  /* [C] R_c = sum_k replicas_k R_ck */
    double *residence_s;       /* [C*K] R_ck at one replica */
    double *queue_length;      /* [C*K] Q_ck = lambda_c R_ck at one replica */
    double *utilization;       /* [K] per-server utilization of one replica, all classes
                                  (delay: sum_c lambda_c D_ck, as zvp_mva_exact) */
} zvp_open_result;

/**
 * zvp_open_network - open product-form (BCMP / Jackson) network, C classes, K entries.
 * @param[in]  stations          [K] kind QUEUE (single server FCFS/PS), DELAY or MULTI (m
 *                               servers); replicas as for zvp_mva_exact (each replica
 *                               receives every class's full demand); reserved == 0.
 *                               stations[k].demand_s is used only when demands_s is NULL.
 * @param[in]  n_stations        K >= 1.
 * @param[in]  demands_s         [C*K] D_ck >= 0 (s per job of class c at one replica of k),
 *                               or NULL when C == 1 (then stations[k].demand_s).
 * @param[in]  arrival_rate_per_s [C] lambda_c, finite, >= 0.
 * @param[in]  n_classes         C >= 1.
 * @param[out] res               see zvp_open_result.
 * Formulas: U_k = sum_c lambda_c D_ck / m_k; queue: R_ck = D_ck/(1 - U_k); delay: R_ck = D_ck;
 * MULTI: R_ck = D_ck (1 + ErlangC(m_k, m_k U_k) / (m_k (1 - U_k))) (exact for FCFS with a
 * class-independent service time, the BCMP condition).
 * @return ZVP_SUCCESS; ZVP_EUNSTABLE when some U_k >= 1 - 64 DBL_EPSILON (indistinguishable
 *         from 1 after rounding the inputs; the message names stations[k] and its utilization); ZVP_EINVAL for bad arguments (named with value and range).
 * Source: Jackson 1963; Baskett, Chandy, Muntz & Palacios, J. ACM 22(2) 1975; QSP ch. 6.2.
 * O(C K) time plus O(m_k) per MULTI entry (one Erlang C each); C K + sum of m_k over MULTI
 * entries must not exceed ZVP_QUEUE_MAX_WORK (ZVP_EINVAL, message gives both). Thread
 * safety: pure.
 */
int zvp_open_network(const zvp_station *stations, size_t n_stations, const double *demands_s,
                     const double *arrival_rate_per_s, size_t n_classes, zvp_open_result *res,
                     zvp_error *err);

/* ---- Closed networks: multiclass exact, approximate MVA, general load dependence ------- */

/* Results of a closed multiclass network (caller-owned arrays; any may be NULL).
 * Class-major layout: element [c * K + k]. */
typedef struct zvp_mva_multi_result {
    double *throughput_per_s;  /* [C] X_c */
    double *response_s;        /* [C] R_c = N_c/X_c - Z_c (sum_k replicas R_ck); for a class
                                  of zero customers, the response an arriving one would see */
    double *residence_s;       /* [C*K] R_ck at one replica */
    double *queue_length;      /* [C*K] Q_ck at one replica */
    double *utilization;       /* [C*K] per-server utilization X_c D_ck / m_k of one replica */
} zvp_mva_multi_result;

/* Limits of zvp_mva_multi_exact, so that every accepted problem solves in under about 0.5 s
 * (-O2; lattice 1e7 with 2 classes and 1 station: 0.2 s) with at most 80 MB of workspace:
 * the population lattice prod_c (N_c + 1); the work estimate lattice x C x (K + 1); the
 * workspace doubles W x K (W lattice rows kept, see zvp_mva_multi_exact). */
#define ZVP_MVA_MAX_LATTICE 10000000UL
#define ZVP_MVA_MAX_LATTICE_WORK 40000000UL
#define ZVP_MVA_MAX_LATTICE_CELLS 10000000UL

/**
 * zvp_mva_multi_exact - exact multiclass MVA over the whole population lattice.
 * @param[in] stations   [K] QUEUE or DELAY entries, or MULTI with m = 1 (a queue) or with
 *                       m >= sum_c N_c (a delay); a MULTI entry with 2 <= m < sum N_c is
 *                       rejected (ZVP_EINVAL: the exact multiclass multi-server recursion
 *                       is not implemented; the message says so; use zvp_mva_approx, which
 *                       flags its Seidmann treatment). stations[k].demand_s is ignored.
 * @param[in] demands_s  [C*K] D_ck >= 0.    @param[in] think_s [C] Z_c >= 0.
 * @param[in] customers  [C] N_c >= 0.        @param[in] n_classes C >= 1.
 * @param[out] res       see zvp_mva_multi_result.
 * Recursion (Reiser & Lavenberg 1980; QSP sec. 7.3): R_ck(n) = D_ck (1 + Q_k(n - 1_c))
 * (queue) or D_ck (delay); X_c(n) = n_c / (Z_c + sum_k replicas_k R_ck(n)); Q_k(n) =
 * sum_c X_c(n) R_ck(n). Visits the lattice in mixed-radix order (class 0 fastest) and
 * keeps only the last W = prod_{c < c'} (N_c + 1) + 1 lattice rows, c' the last class with
 * N_c' > 0 (for 2 classes W = N_0 + 2).
 * @return ZVP_SUCCESS; ZVP_EINVAL (bad argument; lattice > ZVP_MVA_MAX_LATTICE or
 *         lattice x C x (K + 1) > ZVP_MVA_MAX_LATTICE_WORK or W x K >
 *         ZVP_MVA_MAX_LATTICE_CELLS: the message gives the size and the limit; a class with
 *         N_c > 0 and Z_c + sum D_ck = 0); ZVP_ENOMEM.
 * Cost O(K C prod_c (N_c + 1)) time, K W doubles. Thread safety: pure.
 */
int zvp_mva_multi_exact(const zvp_station *stations, size_t n_stations, const double *demands_s,
                        const double *think_s, const unsigned long *customers, size_t n_classes,
                        zvp_mva_multi_result *res, zvp_error *err);

enum { ZVP_MVA_SCHWEITZER = 1, ZVP_MVA_BARD = 2 };

/* Options of the approximate solvers. */
typedef struct zvp_mva_approx_options {
    int32_t method;          /* ZVP_MVA_SCHWEITZER or ZVP_MVA_BARD */
    uint32_t max_iterations; /* >= 1; 0 selects 100000, or fewer so that iterations x C x
                                (K + 1) <= ZVP_QUEUE_MAX_WORK; a larger explicit value is
                                ZVP_EINVAL (message gives the product and the limit) */
    double tolerance;        /* > 0: stop when max over ALL classes and stations of
                                |Q_ck(new) - Q_ck(old)| / max(N_c, 1) < tolerance; 0 selects 1e-10 */
} zvp_mva_approx_options;

/* What an approximate solve did. */
typedef struct zvp_mva_approx_info {
    uint32_t iterations;        /* iterations used */
    int32_t converged;          /* 1 when the criterion held over all classes and stations */
    int32_t multiserver_seidmann; /* 1 when some MULTI entry (2 <= m) was replaced by the
                                     Seidmann approximation (single server of demand D/m plus
                                     a delay of D (m-1)/m; Seidmann, Schweitzer & Shalev-Oren
                                     1987): then the answer is approximate twice over */
    int32_t reserved;
    double tolerance;           /* the tolerance used */
    double max_change;          /* the last iteration's criterion value */
} zvp_mva_approx_info;

/**
 * zvp_mva_approx - Schweitzer or Bard approximate MVA, multiclass (C = 1 for one class).
 * Arguments as zvp_mva_multi_exact, except that any MULTI entry is accepted (see info).
 * Schweitzer: a class-c arrival sees A_ck = sum_j Q_jk - Q_ck/N_c (Schweitzer 1979);
 * Bard: A_ck = sum_j Q_jk (Bard 1979); R_ck = D_ck (1 + A_ck) at a queue. Start: each
 * class's customers spread evenly over its non-delay entries. QSP sec. 7.4.
 * @param[in]  options  may be NULL (Schweitzer, 1e-10, 100000 or the work-limited default).
 * @param[out] info     may be NULL; filled on success and on ZVP_EMAXITER.
 * @return ZVP_SUCCESS; ZVP_EMAXITER when not converged within max_iterations (res then holds
 *         the last iterate and info->converged = 0); ZVP_EINVAL.
 * Cost O(I C K) for I iterations, O(C K) memory. Thread safety: pure.
 */
int zvp_mva_approx(const zvp_station *stations, size_t n_stations, const double *demands_s,
                   const double *think_s, const unsigned long *customers, size_t n_classes,
                   const zvp_mva_approx_options *options, zvp_mva_multi_result *res,
                   zvp_mva_approx_info *info, zvp_error *err);

/**
 * zvp_mva_ld - exact single-class closed network with general load-dependent stations.
 * @param[in] stations   [K] any kind; an LD entry of demand D serves at rate alpha_k[j]/D
 *                       with j customers present (so alpha = 1 is a queue, alpha = j a delay,
 *                       alpha = min(j, m) an m-server station).
 * @param[in] alpha      [K] pointers; alpha[k] for an LD entry points to N + 1 doubles
 *                       (alpha[k][0] ignored, alpha[k][j] finite and > 0 for j = 1..N);
 *                       ignored (may be NULL) for the other kinds. alpha itself may be NULL
 *                       when no entry is LD.
 * @param[in] think_s, customers, res: as zvp_mva_exact (utilization of an LD entry is its
 *                       busy probability 1 - p_k(0|N); of a MULTI entry X D/m).
 * Method: normalising constants by convolution (Buzen 1973; QSP ch. 8) kept in log space
 * with log-sum-exp, so only sums of positive terms are formed: stable at any load, unlike
 * the textbook p(0|n) = 1 - sum p(j|n) recursion (Casale & Serazzi 2005). X = G(N-1)/G(N);
 * queue: Q_k = sum_{j>=1} D^j G(N-j)/G(N); LD / MULTI: p_k(j|N) = f_k(j) G_{-k}(N-j)/G(N)
 * with G_{-k} the network without one replica of k.
 * @return ZVP_SUCCESS; ZVP_EINVAL (as zvp_mva_exact; bad alpha value named with index;
 *         customers > ZVP_MVA_LD_MAX_CUSTOMERS; work estimate above ZVP_QUEUE_MAX_WORK);
 *         ZVP_ENOMEM.
 * Cost (G + 1) (N Uq + N^2 Ug) + N K elementary steps, for G general entries (LD, and MULTI
 * with 2 <= m < N; MULTI with m >= N is a delay, exactly) holding Ug replica units and Uq
 * single-server queue units; it must not exceed ZVP_QUEUE_MAX_WORK (checked up front,
 * message gives the estimate and the limit). O(K N) memory. Thread safety: pure.
 */
#define ZVP_MVA_LD_MAX_CUSTOMERS 1000000UL
int zvp_mva_ld(const zvp_station *stations, size_t n_stations, const double *const *alpha,
               double think_s, unsigned long customers, zvp_mva_result *res, zvp_error *err);

/* Asymptotic and balanced job bounds on a single-class closed network. */
typedef struct zvp_bounds_result {
    double total_demand_s;       /* D = sum over QUEUE/MULTI entries of replicas x D_k */
    double max_demand_s;         /* D_max = max_k D_k / m_k (per-server demand) */
    double saturation_customers; /* N* = (D + Z')/D_max, Z' = Z + delay demands */
    double x_upper_per_s;        /* ABA: min(N/(D + Z'), 1/D_max) */
    double x_lower_per_s;        /* ABA: N/(N D + Z') */
    double r_lower_s;            /* max(D, N D_max - Z') (+ delay demands) */
    double r_upper_s;            /* N D (+ delay demands) */
    double bjb_x_upper_per_s;    /* balanced job bounds (QSP table 5.3); with MULTI entries  */
    double bjb_x_lower_per_s;    /* (m >= 2) the ABA values are repeated and bjb_valid = 0 */
    int32_t bjb_valid;
    int32_t reserved;
} zvp_bounds_result;

/**
 * zvp_mva_bounds - asymptotic (ABA) and balanced job bounds (BJB) for N customers.
 * Delay entries are folded into the think time Z' = Z + sum replicas x D_delay.
 * ABA: Denning & Buzen 1978, QSP sec. 5.2; BJB: Zahorjan, Sevcik, Eager & Galler 1982,
 * QSP sec. 5.3 table 5.3:  N/(D + Z' + (N-1) D_max/(1 + Z'/(N D))) <= X <=
 * min(1/D_max, N/(D + Z' + (N-1) D_avg/(1 + Z'/D))), D_avg = D / (number of queue units).
 * @param[in]  stations    [n_stations] entries of kind QUEUE, DELAY or MULTI (LD is
 *                         ZVP_EINVAL); demand_s finite, >= 0, s; replicas >= 1; reserved 0;
 *                         MULTI servers in [1, ZVP_MAX_SERVERS]. May be NULL only when
 *                         n_stations = 0 (which then fails: no queueing demand).
 * @param[in]  n_stations  K.
 * @param[in]  think_s     Z, finite, >= 0, s.
 * @param[in]  customers   N, 1 <= N <= ZVP_MAX_CUSTOMERS.
 * @param[out] out         not NULL; all fields above (demands in s, throughputs in 1/s,
 *                         N* in customers); on error every double is NaN and bjb_valid 0.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL out; bad entry, named with its index; Z or N out
 *         of range; no QUEUE/MULTI entry with demand_s > 0, i.e. D_max = 0).
 * Thread safety: pure.
 */
int zvp_mva_bounds(const zvp_station *stations, size_t n_stations, double think_s,
                   unsigned long customers, zvp_bounds_result *out, zvp_error *err);

/* ---- Universal Scalability Law ------------------------------------------------------- */

/**
 * zvp_usl_eval - X(N) = gamma N / (1 + alpha (N - 1) + beta N (N - 1)) (Gunther 2007).
 * Scalars only (one N per call).
 * @param[in]  n           N: load (users, processes or CPUs; dimensionless, need not be
 *                         an integer), finite, >= 0.
 * @param[in]  gamma       throughput of one unit of load, X(1) = gamma, in the caller's
 *                         throughput unit (e.g. 1/s), finite, >= 0.
 * @param[in]  alpha       contention coefficient, dimensionless, finite, >= 0.
 * @param[in]  beta        coherency coefficient, dimensionless, finite, >= 0.
 * @param[out] throughput  X(N) in gamma's unit; not NULL; NaN on any other error.
 * @return ZVP_SUCCESS; ZVP_EINVAL for a NULL throughput, an argument NaN, infinite or
 *         negative, or a denominator 1 + alpha (N - 1) + beta N (N - 1) <= 0, which can
 *         happen only for N < 1 (e.g. N = 0 with alpha >= 1, or N = 0.5 with beta >= 4 -
 *         2 alpha), outside the law's domain. Thread safety: pure.
 */
int zvp_usl_eval(double n, double gamma, double alpha, double beta, double *throughput,
                 zvp_error *err);

/** zvp_usl_peak - the peak of X(N): n_peak = sqrt((1 - alpha)/beta), x_peak = X(n_peak),
 *  when beta > 0 and alpha < 1; n_peak = 1, x_peak = gamma when alpha >= 1 (X does not grow
 *  from N = 1); n_peak = +inf and x_peak = gamma/alpha (+inf when alpha = 0) when beta = 0
 *  and alpha < 1 (Amdahl: no peak). Errors as zvp_usl_eval. Source: Gunther 2007, eq. 4.33. */
int zvp_usl_peak(double gamma, double alpha, double beta, double *n_peak, double *x_peak,
                 zvp_error *err);

typedef struct zvp_usl_fit_result {
    double gamma, alpha, beta;          /* estimates, alpha, beta >= 0 */
    double gamma_se, alpha_se, beta_se; /* standard errors from the Jacobian in (gamma, alpha,
                                           beta) (= the delta method through the
                                           reparametrisation, and defined at a bound too);
                                           NaN when they cannot be computed (len == 3: no
                                           residual degree of freedom), never 0 */
    double n_peak, x_peak;              /* zvp_usl_peak of the estimates */
    double rss;                         /* residual sum of squares */
    uint32_t iterations;
    int32_t gsl_status;                 /* status of gsl_multifit_nlinear_driver */
} zvp_usl_fit_result;

/* Largest number of points zvp_usl_fit accepts (cost O(500 len)). */
#define ZVP_USL_MAX_POINTS 100000UL

/**
 * zvp_usl_fit - least-squares fit of X(N) to points (n_i, x_i) with GSL multifit_nlinear
 * (trust region, Levenberg-Marquardt), alpha = a^2 and beta = b^2 so that alpha, beta >= 0,
 * gamma free. Start: gamma = x at the smallest n divided by that n, a and b from the linear
 * no-intercept fit of n/C - 1 = alpha (n-1) + beta n (n-1) clamped at 0 (src/queue/README.md, USL).
 * Standard errors: sqrt(diag(s^2 (J^T J)^-1)), s^2 = rss/(len - 3), J the Jacobian of X in
 * (gamma, alpha, beta) at the estimates (for a != 0 identical to se(alpha) = 2|a| se(a)).
 * @param[in] n, x  [len] n_i >= 1 finite, x_i >= 0 finite; 3 <= len <= ZVP_USL_MAX_POINTS,
 *                  with at least 3 distinct n_i (len == 3 gives NaN standard errors).
 * @param[out] out  on any error the estimates, standard errors, peak and rss are NaN except
 *                  that a ZVP_EFIT after the solver ran keeps the estimates it reached.
 * @return ZVP_SUCCESS; ZVP_EINVAL (bad, too few, or fewer than 3 distinct n: the data cannot
 *         identify gamma, alpha and beta); ZVP_EFIT (the fit did not converge within 500
 *         iterations; GSL failure, message gives GSL's reason; the column-scaled Jacobian at
 *         the estimates is rank-deficient, singular-value ratio < 1e-10: the data cannot
 *         identify the parameters); ZVP_ENOMEM. Source: Gunther 2007, ch. 4-5.
 */
int zvp_usl_fit(const double *n, const double *x, size_t len, zvp_usl_fit_result *out,
                zvp_error *err);

/* ---- Single-station kernels over arrays (src/queue/batch.c) ------------------------------ */

/* Kernels of zvp_station_batch, with their inputs (each an array [n], in this order) and
 * outputs (rows of the output-major array, in this order). Counts (servers, capacity,
 * sources) are passed as doubles holding whole numbers. */
typedef enum zvp_batch_kernel {
    ZVP_BATCH_ERLANG_B = 0,  /* in: offered_load, servers; out: blocking (1 row) */
    ZVP_BATCH_ERLANG_C = 1,  /* in: offered_load, servers; out: pwait (1 row) */
    ZVP_BATCH_MMC = 2,       /* in: arrival_rate_per_s, service_rate_per_s, servers;
                                out: the 8 zvp_station_result fields (M/M/1: servers = 1) */
    ZVP_BATCH_MMCK = 3,      /* in: arrival_rate_per_s, service_rate_per_s, servers, capacity;
                                out: the 8 zvp_station_result fields, then pblock (9 rows) */
    ZVP_BATCH_MMINF = 4,     /* in: arrival_rate_per_s, service_rate_per_s; out: 8 fields */
    ZVP_BATCH_REPAIRMAN = 5, /* in: sources, think_s, service_s, servers; out: 8 fields */
    ZVP_BATCH_USL = 6,       /* in: n, gamma, alpha, beta; out: throughput (zvp_usl_eval) */
    ZVP_BATCH_N_KERNELS = 7
} zvp_batch_kernel;

/* Rows of the zvp_station_result fields in a batch output, in declaration order:
 * throughput_per_s, utilization, busy_servers, mean_in_system, mean_in_queue, response_s,
 * wait_s, pwait. */
#define ZVP_BATCH_STATION_FIELDS 8

/**
 * zvp_batch_shape - number of input arrays and output rows of a batch kernel.
 * @param[in]  kernel     a zvp_batch_kernel.
 * @param[out] n_inputs   inputs per point (2 to 4); may be NULL.
 * @param[out] n_outputs  output rows (1, 8 or 9); may be NULL.
 * @return ZVP_SUCCESS; ZVP_EINVAL for an unknown kernel (outputs set to 0).
 */
int zvp_batch_shape(int kernel, size_t *n_inputs, size_t *n_outputs, zvp_error *err);

/**
 * zvp_station_batch - evaluate one single-station kernel (zvp_erlang_b, zvp_erlang_c, zvp_mmc,
 * zvp_mmck, zvp_mminf, zvp_repairman; or zvp_usl_eval) at n points, in parallel (OpenMP).
 * Point i is exactly the scalar call with inputs[k][i] (bit for bit, for any thread count).
 * @param[in]  kernel   a zvp_batch_kernel.
 * @param[in]  n        points, 0 <= n (0: nothing to do, success).
 * @param[in]  inputs   [n_inputs] pointers, each to [n] doubles (zvp_batch_shape), units as
 *                      the scalar kernel (rates 1/s, times s, loads in Erlangs). A count must
 *                      be a whole number in [0, 2^53]; otherwise that point fails with
 *                      ZVP_EINVAL ("<name>[i] = <value> is not a whole number ...").
 * @param[out] outputs  [n_outputs * n] doubles, OUTPUT-MAJOR: outputs[j * n + i] is output j
 *                      of point i; NaN where the point failed.
 * @param[out] status   [n] per-point status: the scalar kernel's return code (ZVP_SUCCESS,
 *                      ZVP_EUNSTABLE: no steady state, ZVP_EINVAL: bad input at that point).
 * @param[in]  threads  OpenMP threads, >= 0 (0 = the OpenMP default).
 * @param[out] err      may be NULL. When every point succeeds, err->status = ZVP_SUCCESS and
 *                      the message is empty; when some fail, err gets the status and message of
 *                      the first failed point (lowest i), as the scalar call gives them.
 * @return ZVP_SUCCESS when the arguments are valid, even if points fail (status says which);
 *         ZVP_EINVAL for an unknown kernel, threads < 0, or a NULL inputs, input array,
 *         outputs or status with n > 0 (nothing is written then).
 * Cost: the sum of the scalar calls' costs, over the threads. Thread safety: pure.
 */
int zvp_station_batch(int kernel, size_t n, const double *const *inputs, double *outputs,
                      uint8_t *status, int threads, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_QUEUE_H */
