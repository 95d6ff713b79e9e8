/*
 * zvmperf/sim.h - discrete-event simulation of the queueing networks of queue.h, with
 * confidence intervals: closed and open networks, delay and queueing stations (single- and
 * multi-server), FCFS, random order (ROS) and processor sharing, general service times
 * given by mean and squared coefficient of variation (SCV), several classes, and a handoff
 * cost that grows with the number waiting. The model, the statistics (MSER-5 warm-up
 * deletion, replications or batch means, Student-t intervals, the precision stopping rule,
 * percentiles) and what is not simulated: src/sim/README.md.
 *
 * No global state: each replication owns its GSL generator (mt19937), seeded from the seed
 * and the replication index, so results do not depend on the thread count. Times in s.
 */
#ifndef ZVMPERF_SIM_H
#define ZVMPERF_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Order in which waiting customers are served (queueing stations; a delay ignores it). */
typedef enum zvp_sim_discipline {
    ZVP_SIM_FCFS = 0, /* first come, first served */
    ZVP_SIM_ROS = 1,  /* random order: the next one uniformly among those waiting */
    ZVP_SIM_PS = 2    /* processor sharing: n present share the m servers, rate min(1, m/n) */
} zvp_sim_discipline;

/* Family of a service-time distribution of given mean and SCV. */
typedef enum zvp_sim_dist {
    ZVP_SIM_DIST_PHASE = 0,    /* SCV 0 deterministic; 0 < SCV < 1 mixed Erlang (Tijms): Erlang
                                  k-1 or k, k = ceil(1/SCV), one rate, exact SCV (SCV = 1/k is
                                  Erlang-k); SCV 1 exponential; SCV > 1 H2 with balanced means */
    ZVP_SIM_DIST_LOGNORMAL = 1 /* lognormal, sigma^2 = ln(1 + SCV) (SCV 0: deterministic) */
} zvp_sim_dist;

/* Largest SCV, servers of a station, customers of a closed network, jobs present in an
 * open network (more: ZVP_EUNSTABLE), classes and stations accepted. */
#define ZVP_SIM_MAX_SCV 10000.0
#define ZVP_SIM_MAX_SERVERS 1000000L
#define ZVP_SIM_MAX_CUSTOMERS 10000000UL
#define ZVP_SIM_MAX_JOBS 10000000UL
#define ZVP_SIM_MAX_CLASSES 64UL
#define ZVP_SIM_MAX_STATIONS 10000UL

/* One station. Plain struct with fixed-width fields (ctypes can mirror it). */
typedef struct zvp_sim_station {
    int32_t kind;       /* ZVP_STATION_QUEUE, ZVP_STATION_DELAY or ZVP_STATION_MULTI (queue.h) */
    int32_t servers;    /* MULTI: 1..ZVP_SIM_MAX_SERVERS; ignored otherwise */
    int32_t discipline; /* zvp_sim_discipline; ignored at a delay station */
    int32_t dist;       /* zvp_sim_dist */
    double scv;         /* SCV of the service time per visit, [0, ZVP_SIM_MAX_SCV] */
    double handoff0_s;  /* h0 >= 0: when a customer starts service after waiting (FCFS, ROS),
                           h0 + h1 n_waiting is added to its service, n_waiting the number
                           waiting just before it leaves the line (>= 1); not at PS or delay */
    double handoff1_s;  /* h1 >= 0, s per waiting customer */
} zvp_sim_station;

/* A network: K stations, C classes. Each class's job passes the stations in index order on
 * every cycle, visiting station k n times, n = floor(v_ck) + Bernoulli(frac(v_ck)) (mean
 * v_ck), each visit a service of mean D_ck / v_ck (route_one: one station per cycle). A closed class then thinks (a delay of
 * mean Z_c) and starts its next cycle; an open job leaves. */
typedef struct zvp_sim_network {
    const zvp_sim_station *stations;  /* [K] */
    size_t n_stations;                /* K, 1..ZVP_SIM_MAX_STATIONS */
    size_t n_classes;                 /* C, 1..ZVP_SIM_MAX_CLASSES */
    const double *demands_s;          /* [C*K] D_ck >= 0, finite, class-major [c * K + k] */
    const double *visits;             /* [C*K] v_ck >= 0 (0 only with D_ck = 0), or NULL: 1
                                         where D_ck > 0, else 0 */
    int32_t open;                     /* 1: open (Poisson arrivals), 0: closed */
    int32_t route_one;                /* 0: the visits above; 1: each cycle visits exactly one
                                         station, k with probability v_ck (every class's
                                         visits must sum to 1 within 1e-9): a random choice
                                         among alternatives, e.g. lock zones */
    const double *arrival_rate_per_s; /* [C] lambda_c >= 0 (open; ignored when closed) */
    const unsigned long *customers;   /* [C] N_c (closed; ignored when open) */
    const double *think_s;            /* [C] Z_c >= 0 (closed), or NULL: 0 */
    const double *think_scv;          /* [C] SCV of the think times (phase family), or NULL: 1 */
} zvp_sim_network;

/* Run control. Fill with zvp_sim_default_options, then change fields. */
typedef struct zvp_sim_options {
    uint64_t seed;          /* replication r uses a generator seeded from (seed, r) */
    uint64_t events;        /* events per replication (a run), >= 1000; default 1000000 */
    uint64_t max_events;    /* cap on the events of all replications with precision > 0;
                               0: 100 x replications x events */
    uint32_t replications;  /* first (or only) round of replications, 1..100000; 1 = one run,
                               intervals by batch means; default 10 */
    uint32_t reservoir;     /* response-time samples kept per station and class for the
                               percentiles (64..1048576); default 4096 */
    double precision;       /* 0: off; else add rounds of `replications` replications until
                               every mean's half-width <= precision |mean| (or max_events) */
    int32_t threads;        /* OpenMP threads, >= 0 (0 = the OpenMP default) */
    int32_t reserved;
} zvp_sim_options;

/* A mean with its 95% confidence interval (Student t over the replications or batches). */
typedef struct zvp_sim_estimate {
    double mean, half_width, ci_lo, ci_hi;
} zvp_sim_estimate;

/* The figures of one (station, class) cell. At a station: per-visit response time (arrival to
 * departure) and its percentiles, throughput (departures/s), per-server utilization (busy
 * servers / m; a delay station: mean number present, as zvp_mva_exact), mean number present,
 * mean number waiting (present - busy servers; for a spin lock the CPUs spinning), mean wait
 * per visit (response - service received, handoff counted as service). In the network cell
 * (station index K): cycles completed per second (open: departures), cycle response (end of
 * think or arrival to the end of the cycle, think excluded), its percentiles, jobs in the
 * stations and waiting there (think excluded), wait per cycle; utilization NaN there. */
typedef struct zvp_sim_figures {
    zvp_sim_estimate throughput_per_s, utilization, queue_length, response_s;
    zvp_sim_estimate mean_in_queue, wait_s;
    zvp_sim_estimate p50_s, p95_s, p99_s;
} zvp_sim_figures;

typedef struct zvp_sim_result {
    size_t n_stations, n_classes;
    zvp_sim_figures *cells;  /* [(K + 1) * (C + 1)], [k * (C + 1) + c]; k = K: the network,
                                c = C: all classes together (zvp_sim_cell) */
    uint64_t seed;
    uint64_t events;         /* events simulated, all replications */
    uint32_t replications;   /* replications run */
    uint32_t units;          /* replications, or batches of the one run, behind each interval */
    int32_t precision_met;   /* 1 when precision > 0 and met (or precision 0) */
    int32_t event_cap_hit;   /* 1 when precision > 0 and max_events stopped the rounds */
    double seconds;          /* wall time */
    double events_per_s;     /* events / seconds */
    double warmup_fraction;  /* share of each run deleted by MSER-5 (replications: one start
                                for all, from their average series; one run: its own) */
    double little_max_rel;   /* max over cells with Q > 0 of |Q - X R| / Q (Little's law) */
    double worst_precision;  /* max over the checked means of half_width / |mean| */
    uint32_t clipped;        /* figures whose t-interval crossed 0 although none of the units
                                behind it was negative: the units disagree by more than their
                                mean (not converged, or replications in different metastable
                                states); ci_lo of those is set to 0 (the figure cannot be
                                negative), the mean and half_width are kept */
} zvp_sim_result;

/** zvp_sim_default_options - seed 1, 1e6 events, 10 replications, reservoir 4096, precision 0,
 *  threads 0, max_events 0. o may not be NULL. */
void zvp_sim_default_options(zvp_sim_options *o);

/**
 * zvp_sim_run - simulate a network.
 * @param[in]  net   the network (see zvp_sim_network); validated first.
 * @param[in]  opt   run control; NULL = defaults.
 * @param[out] out   *out: a new result (free with zvp_sim_result_free); NULL on error.
 * @return ZVP_SUCCESS; ZVP_EINVAL (bad field, named with its value and range); ZVP_EUNSTABLE
 *         (open network: some station's load sum_c lambda_c D_ck / m_k >= 1, named; or more
 *         than ZVP_SIM_MAX_JOBS jobs present); ZVP_ENOMEM.
 * Memory per thread O(jobs + K C (reservoir + 250)), independent of the run length.
 * Thread safety: pure (runs its own OpenMP team).
 */
int zvp_sim_run(const zvp_sim_network *net, const zvp_sim_options *opt, zvp_sim_result **out,
                zvp_error *err);

/** zvp_sim_cell - the figures of station k (k = K: the network) and class c (c = C: all
 *  classes); NULL when r is NULL or k > K or c > C. */
const zvp_sim_figures *zvp_sim_cell(const zvp_sim_result *r, size_t station, size_t cls);

/** zvp_sim_result_free - free a result (NULL is a no-op). */
void zvp_sim_result_free(zvp_sim_result *r);

/**
 * zvp_sim_draw - n service times of the family dist with this mean and SCV, from a generator
 * seeded with seed (for checking the samplers).
 * @return ZVP_SUCCESS; ZVP_EINVAL (unknown dist; mean not finite or < 0; SCV outside
 *         [0, ZVP_SIM_MAX_SCV]; NULL out with n > 0); ZVP_ENOMEM.
 */
int zvp_sim_draw(int dist, double mean, double scv, uint64_t seed, size_t n, double *out,
                 zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_SIM_H */
