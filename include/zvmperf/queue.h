/*
 * zvmperf/queue.h - generic queueing kernels (no z/VM knowledge).
 *
 * All functions are pure: inputs const, outputs last, no global state; safe to call
 * concurrently from OpenMP threads. Times in seconds, rates in 1/s. Erlang and
 * finite-source formulas are computed by recurrence or in log space (never a^c/c!).
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

/**
 * zvp_erlang_b - Erlang B blocking probability B(c, a).
 * @param[in]  offered_load  a = lambda/mu in Erlangs, finite, >= 0.
 * @param[in]  servers       c, 0 <= c <= ZVP_MAX_SERVERS (c = 0 gives B = 1).
 * @param[out] blocking      B(c, a) in [0, 1].
 * @return ZVP_SUCCESS; ZVP_EINVAL for a NaN/negative/infinite load, c out of range or a
 *         NULL output (message names the argument, its value and the range).
 * Source: recurrence B_0 = 1, B_j = a B_{j-1} / (j + a B_{j-1}) (MODELS.md 1.2;
 *         Gross et al. 2008, sec. 2.5). O(c) time, O(1) memory.
 */
int zvp_erlang_b(double offered_load, unsigned long servers, double *blocking, zvp_error *err);

/**
 * zvp_erlang_c - Erlang C probability of waiting C(c, a) for M/M/c.
 * @param[in]  offered_load  a = lambda/mu in Erlangs, finite, >= 0, and a < c.
 * @param[in]  servers       c, 1 <= c <= ZVP_MAX_SERVERS.
 * @param[out] pwait         C(c, a) = c B / (c - a (1 - B)), B = Erlang B(c, a).
 * @return ZVP_SUCCESS; ZVP_EUNSTABLE when a >= c (no steady state); ZVP_EINVAL otherwise bad.
 * Source: Gross et al. 2008, eq. (2.33)-(2.36); MODELS.md section 2.
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
 * Source: Kleinrock 1975, sec. 3.8-3.9; MODELS.md 1.2 (p_0 = ErlangB(N, Z/S) for c = 1).
 * Cost O(N) time at most (the walk starts at the mode and stops once terms fall below
 * e^-750 of it), O(1) memory. Thread safety: pure.
 */
int zvp_repairman(unsigned long sources, double think_s, double service_s, unsigned long servers,
                  zvp_station_result *out, zvp_error *err);

/* ---- Closed networks: exact single-class MVA ----------------------------------------- */

typedef enum zvp_station_kind {
    ZVP_STATION_QUEUE = 0, /* single-server FCFS/PS queueing station */
    ZVP_STATION_DELAY = 1, /* infinite-server (pure delay) station */
    ZVP_STATION_MULTI = 2  /* m-server FCFS station, load-dependent rate min(j, m)/D */
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
 * Multi-server stations use the marginal-probability recursion over j = 0..m-1 only:
 * R_k(n) = (D_k/m)[1 + Q_k(n-1) + sum_{j=0}^{m-2} (m-1-j) p_k(j|n-1)],
 * p_k(j|n) = X(n) D_k / j p_k(j-1|n-1) for j = 1..m-1. p_k(0|n) is NOT taken from the
 * utilization law (1 - U - sum ...), which is numerically unstable near saturation (errors
 * grow geometrically in n: m = 8, D = 1, Z = 240, N = 2000 gives X = 7.49 instead of 7.98),
 * but from the exact product p_k(0|n) = p_k(0|n-1) X(n) / X_{-k}(n), with X_{-k} the
 * throughput of the network without one replica of entry k. X_{-k} is obtained with positive
 * operations only, from the identity "m-server station = single-server queue of demand D/m
 * convolved with the polynomial sum_{j<m} (D^j/j!)(1 - j/m) z^j" (see src/queue/mva.c).
 * An m-server station with m = 1 gives exactly (bit for bit) the queueing-station answer;
 * with m >= N it is exactly a delay station.
 * Source: Reiser & Lavenberg 1980; QSP ch. 6 (single-server), ch. 8 (load-dependent);
 *         MODELS.md 4.1, 4.3; Casale & Serazzi 2005 (instability of p(0|n)).
 * Cost O(N (M + 1) (K + sum_k replicas_k m_k)) time for M m-server entries (O(N K) without
 * them), memory as zvp_mva_scratch_doubles.
 * Thread safety: pure (each thread needs its own scratch).
 */
int zvp_mva_exact(const zvp_station *stations, size_t n_stations, double think_s,
                  unsigned long customers, zvp_mva_result *res, double *scratch, zvp_error *err);

/** zvp_mva_scratch_doubles - doubles of scratch zvp_mva_exact needs for these stations:
 *  2 K + sum_k 2 m_k + sum_k [K + sum_i r_ik (m_i + 1)], the sums over the MULTI entries with
 *  m >= 2, and r_ik = replicas_i - (i == k). stations may be NULL (then 2 K). Does not
 *  validate the entries; returns SIZE_MAX if the count overflows size_t. */
size_t zvp_mva_scratch_doubles(const zvp_station *stations, size_t n_stations);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_QUEUE_H */
