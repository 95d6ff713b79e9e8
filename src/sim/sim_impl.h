/*
 * src/sim/sim_impl.h - private interfaces of the simulator: the samplers (dist.c), the event
 * heap (inline here), one replication (engine.c) and the statistics (stats.c).
 * The model and the statistics in prose: src/sim/README.md.
 */
#ifndef ZVMPERF_SIM_IMPL_H
#define ZVMPERF_SIM_IMPL_H

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>
#include "zvmperf/queue.h"
#include "zvmperf/sim.h"

/* ---- samplers (dist.c) ---------------------------------------------------------------- */
enum { SMP_ZERO, SMP_DET, SMP_EXP, SMP_MERL, SMP_H2, SMP_LOGN };

typedef struct sim_sampler {
    int type;
    unsigned k;      /* SMP_MERL: Erlang k-1 with probability p, else Erlang k */
    double mean;     /* SMP_DET: the value; SMP_EXP: the mean */
    double p;        /* SMP_MERL, SMP_H2: branch probability */
    double r1, r2;   /* SMP_MERL: rate of each phase (r1); SMP_H2: the two rates */
    double mu, sigma; /* SMP_LOGN */
} sim_sampler;

/* Set up a sampler of the family dist with mean >= 0 and scv >= 0 (validated by the caller). */
void sim_sampler_init(sim_sampler *s, int dist, double mean, double scv);
/* One draw. */
double sim_sample(const sim_sampler *s, gsl_rng *r);
/* The generator of replication `rep` of `seed` (counter-based: splitmix64 of both); NULL on
 * out of memory. */
gsl_rng *sim_rng_new(uint64_t seed, uint64_t rep);

/* ---- the event heap: a binary min-heap of (time, entity) with positions ------------------ */
typedef struct sim_heap {
    double *key;    /* [cap] event times in heap order */
    uint32_t *id;   /* [cap] entity ids in heap order */
    int32_t *pos;   /* [n_entities] position in the heap, -1 when not scheduled */
    size_t n, cap, n_ent;
} sim_heap;

static inline void heap_place(sim_heap *h, size_t i, double k, uint32_t e)
{
    h->key[i] = k;
    h->id[i] = e;
    h->pos[e] = (int32_t)i;
}

static inline void heap_up(sim_heap *h, size_t i, double k, uint32_t e)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!(k < h->key[p]))
            break;
        heap_place(h, i, h->key[p], h->id[p]);
        i = p;
    }
    heap_place(h, i, k, e);
}

static inline void heap_down(sim_heap *h, size_t i, double k, uint32_t e)
{
    const size_t n = h->n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h->key[c + 1] < h->key[c])
            c++;
        if (!(h->key[c] < k))
            break;
        heap_place(h, i, h->key[c], h->id[c]);
        i = c;
    }
    heap_place(h, i, k, e);
}

/* Schedule entity e at time t (insert, or move an existing event). Room is guaranteed by the
 * caller (cap >= entities). */
static inline void heap_set(sim_heap *h, uint32_t e, double t)
{
    int32_t p = h->pos[e];
    if (p < 0) {
        h->n++;
        heap_up(h, h->n - 1, t, e);
    } else if (t < h->key[p]) {
        heap_up(h, (size_t)p, t, e);
    } else {
        heap_down(h, (size_t)p, t, e);
    }
}

/* Remove entity e's event (if scheduled). */
static inline void heap_remove(sim_heap *h, uint32_t e)
{
    int32_t p = h->pos[e];
    if (p < 0)
        return;
    h->pos[e] = -1;
    h->n--;
    if ((size_t)p == h->n)
        return;
    double k = h->key[h->n];
    uint32_t last = h->id[h->n];
    if (p > 0 && k < h->key[(p - 1) / 2])
        heap_up(h, (size_t)p, k, last);
    else
        heap_down(h, (size_t)p, k, last);
}

/* ---- one replication (engine.c) --------------------------------------------------------- */

/* Snapshot layout: W doubles per slice boundary, cumulative from time 0:
 *   per cell (k, c), k < K, c < C, at SNAP_CELL * (k * C + c): area of n, area of busy
 *   servers, departures, sum of responses, work served;
 *   then per station k at SNAP_CELL * K * C + k: area of busy servers (all classes);
 *   then per class c at base2 + 2 c: cycles, sum of cycle responses; then the time. */
enum { SN_AREA_N, SN_AREA_B, SN_DEP, SN_RESP, SN_WORK, SNAP_CELL };
#define SIM_SLICES 250

typedef struct sim_sample_rec {
    double v;
    uint32_t slice;
    uint32_t pad;
} sim_sample_rec;

/* A bounded uniform reservoir over a stream (Li's algorithm L: O(k log(n/k)) draws). */
typedef struct sim_reservoir {
    sim_sample_rec *s;
    uint64_t seen, next; /* samples offered; 1-based index of the next one taken */
    double w;
    uint32_t k, n;       /* capacity, filled */
} sim_reservoir;

/* The validated network as the engine uses it. */
typedef struct sim_net {
    size_t K, C;
    int open;
    int route_one;       /* each cycle visits one station, k with probability vis[c*K+k] */
    long *m;             /* [K] servers (delay: LONG_MAX) */
    int *kind, *disc;    /* [K] */
    double *h0, *h1;     /* [K] */
    sim_sampler *svc;    /* [C*K] per-visit service */
    sim_sampler *think;  /* [C] closed: think; open: interarrival */
    double *vis;         /* [C*K] visits */
    double *cum;         /* [C*K] route_one: running sums of vis per class, last = 1; else NULL */
    unsigned long *n_c;  /* [C] closed population */
    double *lambda;      /* [C] */
    unsigned long jobs;  /* closed: sum N_c */
} sim_net;

/* The record of one replication: snapshots and reservoirs. */
typedef struct sim_run {
    size_t W;            /* doubles per snapshot */
    double *snap;        /* [(SIM_SLICES + 1) * W] */
    sim_reservoir *res;  /* [K*C + K + C + 1]: cells, station totals (C > 1), class cycles,
                            network total (C > 1) */
    size_t n_res;
    uint64_t events;
} sim_run;

/* Validate w and build n from it (net.c); on error n holds what to free. */
int sim_net_build(const zvp_sim_network *w, sim_net *n, zvp_error *err);
void sim_net_free(sim_net *n);

size_t sim_snap_width(const sim_net *n);
/* Allocate a run record for n with reservoirs of k samples; -1 on out of memory. */
int sim_run_alloc(sim_run *r, const sim_net *n, uint32_t k);
void sim_run_free(sim_run *r);
/* Simulate one replication of `events` events with generator rng into r. ZVP_SUCCESS,
 * ZVP_ENOMEM or ZVP_EUNSTABLE (too many jobs; message in err). */
int sim_replicate(const sim_net *n, uint64_t events, gsl_rng *rng, sim_run *r, zvp_error *err);
/* Offer x to a reservoir (slice tag s). */
void sim_reservoir_add(sim_reservoir *r, double x, uint32_t s, gsl_rng *rng);

/* ---- statistics (stats.c) ------------------------------------------------------------- */

/* Figures per unit: (K + 1) (C + 1) cells x SIM_NFIG. */
enum { F_X, F_U, F_Q, F_R, F_LQ, F_W, F_P50, F_P95, F_P99, SIM_NFIG };

/* The MSER indicator of a run: time-average jobs at the stations in batches of 5 slices,
 * z [SIM_MSER_BATCHES]. */
#define SIM_MSER_BATCHES (SIM_SLICES / 5)
void sim_batch_series(const sim_net *n, const sim_run *r, double *z);
/* MSER-5 truncation of a batch series: the first slice kept (a multiple of 5, at most half). */
size_t sim_mser5(const double *z);
/* The figures of the windows [s0[i], s1) of a run into f + i nf, nf = (K+1)(C+1) SIM_NFIG;
 * returns 0, or -1 on out of memory. */
int sim_window(const sim_net *n, const sim_run *r, const size_t *s0, size_t n_s0, size_t s1,
               double *f);
/* Student-t 95% interval of the units' values x[u * stride] (u < n_units) into e. */
void sim_interval(const double *x, size_t n_units, size_t stride, zvp_sim_estimate *e);

#endif /* ZVMPERF_SIM_IMPL_H */
