/*
 * src/sim/run.c - zvp_sim_run: the replications in parallel (OpenMP; replication r always
 * uses the generator of (seed, r) and the results are combined in replication order, so any
 * thread count gives the same numbers), batch means for a single run, the precision stopping
 * rule, and the result. src/sim/README.md, "Statistics" and "Stopping rule".
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"
#include "sim_impl.h"

/* Batches of a single run (after the MSER-5 truncation). */
#define SIM_BATCHES 20

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Candidate truncation points of the first round: slices 0, 5, ..., SIM_SLICES / 2. */
#define SIM_N_STARTS (SIM_MSER_BATCHES / 2 + 1)

typedef struct round_ctx {
    const sim_net *n;
    const zvp_sim_options *o;
    size_t nf;        /* doubles of figures per unit */
    int batch;        /* one run, batch means */
    size_t start;     /* the first slice kept (replications), SIZE_MAX until the first round
                         has chosen it */
    double *figs;     /* [units * nf] */
    double *cand;     /* first round: [replications * SIM_N_STARTS * nf] */
    double *z;        /* [replications * SIM_MSER_BATCHES] the MSER indicator of each run */
    uint64_t *events; /* [replications] */
} round_ctx;

/* Replication r into its units of figures: one run with batch means (MSER-5 on the run
 * itself); a first-round replication at every candidate start; a later one at the start
 * chosen. */
static int one_replication(const round_ctx *x, sim_run *run, uint64_t r, zvp_error *e)
{
    gsl_rng *g = sim_rng_new(x->o->seed, r);
    if (!g)
        return zvp_fail(e, ZVP_ENOMEM, "zvp_sim_run: out of memory");
    int rc = sim_replicate(x->n, x->o->events, g, run, e);
    gsl_rng_free(g);
    if (rc)
        return rc;
    double *z = x->z + r * SIM_MSER_BATCHES;
    sim_batch_series(x->n, run, z);
    x->events[r] = run->events;
    if (x->batch) {
        const size_t d = sim_mser5(z);
        const size_t bs = (SIM_SLICES - d) / SIM_BATCHES, s0 = SIM_SLICES - SIM_BATCHES * bs;
        for (size_t b = 0; !rc && b < SIM_BATCHES; b++) {
            size_t first = s0 + b * bs;
            rc = sim_window(x->n, run, &first, 1, first + bs, x->figs + b * x->nf);
        }
    } else if (x->start == SIZE_MAX) {
        size_t starts[SIM_N_STARTS];
        for (size_t i = 0; i < SIM_N_STARTS; i++)
            starts[i] = 5 * i;
        rc = sim_window(x->n, run, starts, SIM_N_STARTS, SIM_SLICES,
                        x->cand + r * SIM_N_STARTS * x->nf);
    } else {
        rc = sim_window(x->n, run, &x->start, 1, SIM_SLICES, x->figs + r * x->nf);
    }
    return rc ? zvp_fail(e, ZVP_ENOMEM, "zvp_sim_run: out of memory") : ZVP_SUCCESS;
}

/* After the first round: MSER-5 on the replications' average indicator series chooses the
 * start for every replication (an average over runs, so the choice does not select against
 * the congested stretches of one run); each replication's figures at that start. */
static void choose_start(round_ctx *x, size_t reps)
{
    double zbar[SIM_MSER_BATCHES];
    for (size_t b = 0; b < SIM_MSER_BATCHES; b++) {
        zbar[b] = 0.0;
        for (size_t r = 0; r < reps; r++)
            zbar[b] += x->z[r * SIM_MSER_BATCHES + b] / (double)reps;
    }
    x->start = sim_mser5(zbar);
    for (size_t r = 0; r < reps; r++)
        memcpy(x->figs + r * x->nf, x->cand + (r * SIM_N_STARTS + x->start / 5) * x->nf,
               x->nf * sizeof(double));
    free(x->cand);
    x->cand = NULL;
}

/* Replications [r0, r1) on the threads; the error of the lowest failing index is kept. */
static int run_round(const round_ctx *x, uint64_t r0, uint64_t r1, int threads, zvp_error *err)
{
    int status = ZVP_SUCCESS;
    uint64_t bad = UINT64_MAX;
    zvp_error first;
    zvp_error_clear(&first);
#pragma omp parallel num_threads(threads)
    {
        sim_run run;
        zvp_error e;
        const int ok = sim_run_alloc(&run, x->n, x->o->reservoir) == 0;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t r = r0; r < r1; r++) {
            zvp_error_clear(&e);
            int rc = ok ? one_replication(x, &run, r, &e)
                        : zvp_fail(&e, ZVP_ENOMEM, "zvp_sim_run: out of memory");
            if (rc) {
#pragma omp critical(zvp_sim_error)
                if (r < bad) {
                    bad = r;
                    status = rc;
                    first = e;
                }
            }
        }
        sim_run_free(&run);
    }
    if (status && err)
        *err = first;
    return status;
}

static zvp_sim_estimate *field(zvp_sim_figures *g, int f)
{
    zvp_sim_estimate *all[SIM_NFIG] = {&g->throughput_per_s, &g->utilization, &g->queue_length,
                                       &g->response_s,       &g->mean_in_queue, &g->wait_s,
                                       &g->p50_s,            &g->p95_s,       &g->p99_s};
    return all[f];
}

/* The smallest of the n units' values of one figure (NaN units skipped; +inf when none). */
static double units_min(const double *x, size_t n, size_t stride)
{
    double m = INFINITY;
    for (size_t u = 0; u < n; u++)
        if (!isnan(x[u * stride]))
            m = fmin(m, x[u * stride]);
    return m;
}

/* Intervals of every figure over the units; the worst relative half-width of the means
 * (throughput, utilization, queue length, response) that are finite and not 0. A figure with
 * no negative unit whose t-interval reaches below 0 has its ci_lo set to 0 and is counted in
 * res->clipped (the units disagree by more than their mean: not converged or metastable). */
static double intervals(zvp_sim_result *res, const double *figs, size_t units, size_t nf)
{
    double worst = 0.0;
    res->clipped = 0;
    for (size_t i = 0; i < nf / SIM_NFIG; i++)
        for (int f = 0; f < SIM_NFIG; f++) {
            zvp_sim_estimate *e = field(&res->cells[i], f);
            sim_interval(figs + i * SIM_NFIG + (size_t)f, units, nf, e);
            if (e->ci_lo < 0.0 && units_min(figs + i * SIM_NFIG + (size_t)f, units, nf) >= 0.0) {
                e->ci_lo = 0.0;
                res->clipped++;
            }
            if (f <= F_R && isfinite(e->mean) && e->mean != 0.0) {
                double q = e->half_width / fabs(e->mean);
                worst = isnan(q) ? INFINITY : fmax(worst, q);
            }
        }
    return worst;
}

static double little(const zvp_sim_result *res)
{
    double worst = 0.0;
    const size_t n = (res->n_stations + 1) * (res->n_classes + 1);
    for (size_t i = 0; i < n; i++) {
        const zvp_sim_figures *g = &res->cells[i];
        double q = g->queue_length.mean, xr = g->throughput_per_s.mean * g->response_s.mean;
        if (q > 0 && isfinite(xr))
            worst = fmax(worst, fabs(q - xr) / q);
    }
    return worst;
}

static int check_options(const zvp_sim_options *o, zvp_error *err)
{
    if (o->events < 1000 || o->events > (uint64_t)1e13)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: events = %llu is out of range [1000, 1e13]",
                        (unsigned long long)o->events);
    if (o->replications < 1 || o->replications > 100000)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: replications = %u is out of range "
                        "[1, 100000]", (unsigned)o->replications);
    if (o->reservoir < 64 || o->reservoir > 1048576)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: reservoir = %u is out of range "
                        "[64, 1048576]", (unsigned)o->reservoir);
    if (zvp_check_range(err, "zvp_sim_run: precision", o->precision, 0.0, 1.0))
        return ZVP_EINVAL;
    if (o->precision > 0 && o->replications < 2)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: precision = %g needs replications in "
                        "[2, 100000] (replications = 1: one run with batch means)", o->precision);
    if (o->threads < 0 || o->reserved != 0)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: threads = %d (allowed >= 0), reserved = %d"
                        " (must be 0)", (int)o->threads, (int)o->reserved);
    if (o->max_events && o->max_events < o->events * o->replications)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: max_events = %llu is below one round of "
                        "replications x events = %llu (allowed 0 or >= that)",
                        (unsigned long long)o->max_events,
                        (unsigned long long)(o->events * o->replications));
    return ZVP_SUCCESS;
}

static zvp_sim_result *result_new(size_t K, size_t C)
{
    zvp_sim_result *r = calloc(1, sizeof *r);
    if (r && !(r->cells = calloc((K + 1) * (C + 1), sizeof *r->cells))) {
        free(r);
        r = NULL;
    }
    if (r) {
        r->n_stations = K;
        r->n_classes = C;
    }
    return r;
}

/* Grow the per-replication arrays to hold `reps` replications. */
static int grow(round_ctx *x, size_t reps)
{
    const size_t units = x->batch ? SIM_BATCHES : reps;
    double *f = realloc(x->figs, units * x->nf * sizeof *f);
    if (f)
        x->figs = f;
    double *z = realloc(x->z, reps * SIM_MSER_BATCHES * sizeof *z);
    if (z)
        x->z = z;
    uint64_t *e = realloc(x->events, reps * sizeof *e);
    if (e)
        x->events = e;
    if (!x->batch && x->start == SIZE_MAX && !x->cand)
        x->cand = malloc(reps * SIM_N_STARTS * x->nf * sizeof *x->cand);
    return f && z && e && (x->batch || x->start != SIZE_MAX || x->cand) ? 0 : -1;
}

static int simulate(const sim_net *n, const zvp_sim_options *o, zvp_sim_result *res,
                    zvp_error *err)
{
    round_ctx x = {n, o, (n->K + 1) * (n->C + 1) * SIM_NFIG, o->replications == 1, SIZE_MAX,
                   NULL, NULL, NULL, NULL};
    const int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    const double cap = o->max_events ? (double)o->max_events
                                     : 100.0 * (double)o->replications * (double)o->events;
    uint64_t reps = 0;
    int rc = ZVP_SUCCESS;
    for (;;) {
        const uint64_t r0 = reps;
        reps += o->replications;
        if (grow(&x, (size_t)reps)) {
            rc = zvp_fail(err, ZVP_ENOMEM, "zvp_sim_run: out of memory");
            break;
        }
        if ((rc = run_round(&x, r0, reps, threads, err)))
            break;
        if (x.batch)
            res->warmup_fraction = (double)sim_mser5(x.z) / SIM_SLICES;
        else if (x.start == SIZE_MAX)
            choose_start(&x, (size_t)reps);
        for (uint64_t r = r0; r < reps; r++)
            res->events += x.events[r];
        if (!x.batch)
            res->warmup_fraction = (double)x.start / SIM_SLICES;
        res->replications = (uint32_t)reps;
        res->units = (uint32_t)(x.batch ? SIM_BATCHES : reps);
        res->worst_precision = intervals(res, x.figs, res->units, x.nf);
        if (o->precision == 0.0 || res->worst_precision <= o->precision) {
            res->precision_met = 1;
            break;
        }
        if ((double)res->events + (double)o->replications * (double)o->events > cap ||
            reps + o->replications > 100000) {
            res->event_cap_hit = 1;
            break;
        }
    }
    free(x.figs);
    free(x.cand);
    free(x.z);
    free(x.events);
    return rc;
}

int zvp_sim_run(const zvp_sim_network *net, const zvp_sim_options *opt, zvp_sim_result **out,
                zvp_error *err)
{
    zvp_sim_options o;
    sim_net n;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: out is NULL");
    *out = NULL;
    if (opt)
        o = *opt;
    else
        zvp_sim_default_options(&o);
    if (check_options(&o, err))
        return ZVP_EINVAL;
    int rc = sim_net_build(net, &n, err);
    zvp_sim_result *res = rc ? NULL : result_new(n.K, n.C);
    if (!rc && !res)
        rc = zvp_fail(err, ZVP_ENOMEM, "zvp_sim_run: out of memory");
    if (!rc) {
        const double t0 = now_s();
        rc = simulate(&n, &o, res, err);
        res->seconds = now_s() - t0;
        res->events_per_s = res->seconds > 0 ? (double)res->events / res->seconds : NAN;
        res->seed = o.seed;
        res->little_max_rel = little(res);
    }
    sim_net_free(&n);
    if (rc) {
        zvp_sim_result_free(res);
        return rc;
    }
    *out = res;
    return ZVP_SUCCESS;
}

const zvp_sim_figures *zvp_sim_cell(const zvp_sim_result *r, size_t station, size_t cls)
{
    if (!r || station > r->n_stations || cls > r->n_classes)
        return NULL;
    return &r->cells[station * (r->n_classes + 1) + cls];
}

void zvp_sim_result_free(zvp_sim_result *r)
{
    if (!r)
        return;
    free(r->cells);
    free(r);
}
