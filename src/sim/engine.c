/*
 * src/sim/engine.c - one replication of the discrete-event simulation: the state of the
 * stations and jobs, the event loop over the binary heap (sim_impl.h), and the cumulative
 * snapshots at SIM_SLICES slice boundaries (fixed numbers of events) from which stats.c
 * computes every figure. The model: src/sim/README.md.
 *
 * Entities in the heap: 0..K-1 the processor-sharing stations (their next departure),
 * K..K+C-1 the open classes' arrival streams, K+C+j job j (end of think, of a delay, or of
 * an FCFS/ROS service).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "sim_impl.h"

typedef struct job {
    int32_t cls, st;   /* class; station (-1 thinking or between cycles) */
    uint32_t left;     /* visits left at st after the current one */
    uint32_t pad;
    double t_arr;      /* arrival at st */
    double t_cyc;      /* start of the cycle */
    double svc;        /* service requirement of the current visit */
} job;

/* One (station, class) cell, integrated lazily: areas up to time t. */
typedef struct cell {
    double n, b, t;              /* present, busy servers, last update */
    double an, ab, dep, resp, work;
} cell;

typedef struct stn {
    long n, busy;                /* present, busy servers */
    double t, ab;                /* last update, area of busy servers */
    uint32_t *q;                 /* waiting line: ring (FCFS) or bag (ROS) */
    size_t qcap, qhead, qlen;
    double V, tv;                /* PS: attained service of a customer present since 0 */
    double *pf;                  /* PS: min-heap of finishing virtual times */
    uint32_t *pj;
    size_t pn, pcap;
} stn;

typedef struct rep {
    const sim_net *net;
    gsl_rng *g;
    sim_run *run;
    job *jobs;
    size_t n_jobs, cap_jobs;
    uint32_t *free_ids;
    size_t n_free, cap_free;
    unsigned long present;
    cell *cells;
    stn *st;
    sim_heap h;
    double *cyc;                 /* [2C] cycles, sum of cycle responses */
    uint32_t slice, E0;
    int oom, too_many;
} rep;

static inline void cell_touch(cell *x, double t)
{
    double dt = t - x->t;
    x->an += x->n * dt;
    x->ab += x->b * dt;
    x->t = t;
}

static inline void st_touch(stn *s, double t)
{
    s->ab += (double)s->busy * (t - s->t);
    s->t = t;
}

/* ---- growth of the job pool and the per-station queues -------------------------------- */

static int grow_entities(rep *r, size_t need_jobs)
{
    size_t cap = r->cap_jobs ? r->cap_jobs : 64;
    while (cap < need_jobs)
        cap *= 2;
    if (cap == r->cap_jobs)
        return 0;
    size_t ent = (size_t)r->E0 + cap;
    job *j = realloc(r->jobs, cap * sizeof *j);
    if (j)
        r->jobs = j;
    double *k = realloc(r->h.key, ent * sizeof *k);
    if (k)
        r->h.key = k;
    uint32_t *id = realloc(r->h.id, ent * sizeof *id);
    if (id)
        r->h.id = id;
    int32_t *pos = realloc(r->h.pos, ent * sizeof *pos);
    if (pos)
        r->h.pos = pos;
    if (!j || !k || !id || !pos)
        return -1;
    for (size_t e = r->h.n_ent; e < ent; e++)
        r->h.pos[e] = -1;
    r->h.cap = r->h.n_ent = ent;
    r->cap_jobs = cap;
    return 0;
}

static int new_job(rep *r, uint32_t *out)
{
    if (r->n_free > 0) {
        *out = r->free_ids[--r->n_free];
        return 0;
    }
    if (r->n_jobs >= ZVP_SIM_MAX_JOBS) {
        r->too_many = 1;
        return -1;
    }
    if (r->n_jobs == r->cap_jobs && grow_entities(r, r->n_jobs + 1)) {
        r->oom = 1;
        return -1;
    }
    *out = (uint32_t)r->n_jobs++;
    return 0;
}

static int q_push(rep *r, stn *s, uint32_t j)
{
    if (s->qlen == s->qcap) {
        size_t cap = s->qcap ? 2 * s->qcap : 16;
        uint32_t *q = malloc(cap * sizeof *q);
        if (!q) {
            r->oom = 1;
            return -1;
        }
        for (size_t i = 0; i < s->qlen; i++)
            q[i] = s->q[(s->qhead + i) % (s->qcap ? s->qcap : 1)];
        free(s->q);
        s->q = q;
        s->qcap = cap;
        s->qhead = 0;
    }
    s->q[(s->qhead + s->qlen) % s->qcap] = j;
    s->qlen++;
    return 0;
}

/* The next customer of the waiting line: the head (FCFS) or a uniform one (ROS; the last
 * one takes its place). */
static uint32_t q_take(rep *r, stn *s, int disc)
{
    uint32_t j;
    if (disc == ZVP_SIM_ROS && s->qlen > 1) {
        size_t i = (s->qhead + gsl_rng_uniform_int(r->g, s->qlen)) % s->qcap;
        size_t last = (s->qhead + s->qlen - 1) % s->qcap;
        j = s->q[i];
        s->q[i] = s->q[last];
    } else {
        j = s->q[s->qhead];
        s->qhead = (s->qhead + 1) % s->qcap;
    }
    s->qlen--;
    return j;
}

/* ---- processor sharing: virtual time and the heap of finishing virtual times ----------- */

static inline double ps_rate(const stn *s, long m)
{
    return s->n <= m ? 1.0 : (double)m / (double)s->n;
}

static inline void ps_advance(stn *s, long m, double t)
{
    if (s->n > 0)
        s->V += (t - s->tv) * ps_rate(s, m);
    s->tv = t;
}

static int ps_push(rep *r, stn *s, double f, uint32_t j)
{
    if (s->pn == s->pcap) {
        size_t cap = s->pcap ? 2 * s->pcap : 16;
        double *pf = realloc(s->pf, cap * sizeof *pf);
        if (pf)
            s->pf = pf;
        uint32_t *pj = realloc(s->pj, cap * sizeof *pj);
        if (pj)
            s->pj = pj;
        if (!pf || !pj) {
            r->oom = 1;
            return -1;
        }
        s->pcap = cap;
    }
    size_t i = s->pn++;
    while (i > 0 && f < s->pf[(i - 1) / 2]) {
        s->pf[i] = s->pf[(i - 1) / 2];
        s->pj[i] = s->pj[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->pf[i] = f;
    s->pj[i] = j;
    return 0;
}

static uint32_t ps_pop(stn *s)
{
    uint32_t top = s->pj[0];
    double f = s->pf[--s->pn];
    uint32_t j = s->pj[s->pn];
    size_t i = 0, n = s->pn;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->pf[c + 1] < s->pf[c])
            c++;
        if (!(s->pf[c] < f))
            break;
        s->pf[i] = s->pf[c];
        s->pj[i] = s->pj[c];
        i = c;
    }
    if (n > 0) {
        s->pf[i] = f;
        s->pj[i] = j;
    }
    return top;
}

static void ps_resched(rep *r, size_t k, double t)
{
    stn *s = &r->st[k];
    if (s->pn == 0) {
        heap_remove(&r->h, (uint32_t)k);
        return;
    }
    double left = s->pf[0] - s->V;
    heap_set(&r->h, (uint32_t)k, t + (left > 0 ? left : 0.0) / ps_rate(s, r->net->m[k]));
}

/* ---- arrivals, service, departures, routing -------------------------------------------- */

static void start_service(rep *r, uint32_t j, size_t k, double t, size_t waiting)
{
    const sim_net *n = r->net;
    job *J = &r->jobs[j];
    double s = sim_sample(&n->svc[(size_t)J->cls * n->K + k], r->g);
    if (waiting)
        s += n->h0[k] + n->h1[k] * (double)waiting;
    J->svc = s;
    cell *x = &r->cells[k * n->C + (size_t)J->cls];
    cell_touch(x, t);
    x->b += 1.0;
    heap_set(&r->h, r->E0 + j, t + s);
}

static void arrive(rep *r, uint32_t j, double t)
{
    const sim_net *n = r->net;
    job *J = &r->jobs[j];
    const size_t k = (size_t)J->st;
    stn *s = &r->st[k];
    cell *x = &r->cells[k * n->C + (size_t)J->cls];
    cell_touch(x, t);
    x->n += 1.0;
    J->t_arr = t;
    if (n->disc[k] == ZVP_SIM_PS) {
        ps_advance(s, n->m[k], t);
        st_touch(s, t);
        s->n++;
        s->busy = s->n < n->m[k] ? s->n : n->m[k];
        J->svc = sim_sample(&n->svc[(size_t)J->cls * n->K + k], r->g);
        if (ps_push(r, s, s->V + J->svc, j) == 0)
            ps_resched(r, k, t);
        return;
    }
    st_touch(s, t);
    s->n++;
    if (s->busy < n->m[k]) {
        s->busy++;
        start_service(r, j, k, t, 0);
    } else {
        q_push(r, s, j);
    }
}

/* The statistics of a departure of job j from its station at time t. */
static void record_departure(rep *r, uint32_t j, double t)
{
    const sim_net *n = r->net;
    job *J = &r->jobs[j];
    const size_t k = (size_t)J->st, c = (size_t)J->cls;
    cell *x = &r->cells[k * n->C + c];
    cell_touch(x, t);
    x->n -= 1.0;
    x->dep += 1.0;
    x->resp += t - J->t_arr;
    x->work += J->svc;
    sim_reservoir_add(&r->run->res[k * n->C + c], t - J->t_arr, r->slice, r->g);
    if (n->C > 1)
        sim_reservoir_add(&r->run->res[n->K * n->C + k], t - J->t_arr, r->slice, r->g);
}

static void route(rep *r, uint32_t j, double t);

/* route_one: the first station k with u < cum[k] (cum: the running sums of the visits, the
 * last one set to 1 by net.c, so some k qualifies for u in [0, 1)); binary search, O(log K). */
static size_t pick_one(const double *cum, size_t K, double u)
{
    size_t lo = 0, hi = K - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u < cum[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static void begin_cycle(rep *r, uint32_t j, double t)
{
    job *J = &r->jobs[j];
    J->t_cyc = t;
    J->st = -1;
    J->left = 0;
    route(r, j, t);
}

static void end_cycle(rep *r, uint32_t j, double t)
{
    const sim_net *n = r->net;
    const size_t c = (size_t)r->jobs[j].cls, KC = n->K * n->C;
    const double resp = t - r->jobs[j].t_cyc;
    r->cyc[2 * c] += 1.0;
    r->cyc[2 * c + 1] += resp;
    sim_reservoir_add(&r->run->res[KC + n->K + c], resp, r->slice, r->g);
    if (n->C > 1)
        sim_reservoir_add(&r->run->res[KC + n->K + n->C], resp, r->slice, r->g);
}

/* After a visit (or at the start of a cycle): the next visit, or the end of the cycle (then
 * think, or leave). A cycle with no visit and no think repeats at once. */
static void route(rep *r, uint32_t j, double t)
{
    const sim_net *n = r->net;
    for (;;) {
        job *J = &r->jobs[j];
        if (J->st >= 0 && J->left > 0) {
            J->left--;
            arrive(r, j, t);
            return;
        }
        const double *v = n->vis + (size_t)J->cls * n->K;
        if (n->route_one && J->st < 0) {
            J->st = (int32_t)pick_one(n->cum + (size_t)J->cls * n->K, n->K, gsl_rng_uniform(r->g));
            J->left = 0;
            arrive(r, j, t);
            return;
        }
        for (size_t k = n->route_one ? n->K : (size_t)(J->st + 1); k < n->K; k++) {
            double fl = floor(v[k]);
            unsigned nv = (unsigned)fl + (v[k] > fl && gsl_rng_uniform(r->g) < v[k] - fl);
            if (nv > 0) {
                J->st = (int32_t)k;
                J->left = nv - 1;
                arrive(r, j, t);
                return;
            }
        }
        end_cycle(r, j, t);
        J->st = -1;
        if (n->open) {
            r->free_ids[r->n_free++] = j;
            r->present--;
            return;
        }
        double z = sim_sample(&n->think[J->cls], r->g);
        if (z > 0) {
            heap_set(&r->h, r->E0 + j, t + z);
            return;
        }
        J->t_cyc = t;
    }
}

/* End of the service of job j at an FCFS, ROS or delay station. */
static void depart(rep *r, uint32_t j, double t)
{
    const sim_net *n = r->net;
    const size_t k = (size_t)r->jobs[j].st;
    stn *s = &r->st[k];
    record_departure(r, j, t);
    cell *x = &r->cells[k * n->C + (size_t)r->jobs[j].cls];
    x->b -= 1.0;
    st_touch(s, t);
    s->n--;
    if (s->qlen > 0) {
        size_t waiting = s->qlen;
        uint32_t next = q_take(r, s, n->disc[k]);
        start_service(r, next, k, t, waiting);
    } else {
        s->busy--;
    }
    route(r, j, t);
}

static void ps_depart(rep *r, size_t k, double t)
{
    const sim_net *n = r->net;
    stn *s = &r->st[k];
    ps_advance(s, n->m[k], t);
    uint32_t j = ps_pop(s);
    record_departure(r, j, t);
    st_touch(s, t);
    s->n--;
    s->busy = s->n < n->m[k] ? s->n : n->m[k];
    ps_resched(r, k, t);
    route(r, j, t);
}

static void arrival(rep *r, size_t c, double t)
{
    uint32_t j;
    const sim_net *n = r->net;
    heap_set(&r->h, (uint32_t)(n->K + c), t + sim_sample(&n->think[c], r->g));
    if (new_job(r, &j))
        return;
    r->present++;
    /* room for the job in the free list when it leaves */
    if (r->cap_free < r->n_jobs) {
        uint32_t *f = realloc(r->free_ids, r->cap_jobs * sizeof *f);
        if (!f) {
            r->oom = 1;
            return;
        }
        r->free_ids = f;
        r->cap_free = r->cap_jobs;
    }
    r->jobs[j].cls = (int32_t)c;
    begin_cycle(r, j, t);
}

/* ---- snapshots -------------------------------------------------------------------------- */

size_t sim_snap_width(const sim_net *n)
{
    return SNAP_CELL * n->K * n->C + n->K + 2 * n->C + 1;
}

static void snapshot(rep *r, size_t s, double t)
{
    const sim_net *n = r->net;
    double *p = r->run->snap + s * r->run->W;
    for (size_t i = 0; i < n->K * n->C; i++) {
        cell *x = &r->cells[i];
        cell_touch(x, t);
        double *q = p + SNAP_CELL * i;
        q[SN_AREA_N] = x->an;
        q[SN_AREA_B] = x->ab;
        q[SN_DEP] = x->dep;
        q[SN_RESP] = x->resp;
        q[SN_WORK] = x->work;
    }
    p += SNAP_CELL * n->K * n->C;
    for (size_t k = 0; k < n->K; k++) {
        st_touch(&r->st[k], t);
        p[k] = r->st[k].ab;
    }
    p += n->K;
    for (size_t c = 0; c < 2 * n->C; c++)
        p[c] = r->cyc[c];
    p[2 * n->C] = t;
}

/* ---- the replication -------------------------------------------------------------------- */

static void rep_free(rep *r)
{
    for (size_t k = 0; r->st && k < r->net->K; k++) {
        free(r->st[k].q);
        free(r->st[k].pf);
        free(r->st[k].pj);
    }
    free(r->st);
    free(r->cells);
    free(r->cyc);
    free(r->jobs);
    free(r->free_ids);
    free(r->h.key);
    free(r->h.id);
    free(r->h.pos);
}

static int rep_init(rep *r, const sim_net *n, gsl_rng *g, sim_run *run)
{
    memset(r, 0, sizeof *r);
    r->net = n;
    r->g = g;
    r->run = run;
    r->E0 = (uint32_t)(n->K + n->C);
    r->st = calloc(n->K, sizeof *r->st);
    r->cells = calloc(n->K * n->C, sizeof *r->cells);
    r->cyc = calloc(2 * n->C, sizeof *r->cyc);
    if (!r->st || !r->cells || !r->cyc || grow_entities(r, n->open ? 64 : n->jobs))
        return -1;
    if (!n->open) {
        r->n_jobs = n->jobs;
        size_t j = 0;
        for (size_t c = 0; c < n->C; c++)
            for (unsigned long i = 0; i < n->n_c[c]; i++)
                r->jobs[j++].cls = (int32_t)c;
    }
    return 0;
}

int sim_replicate(const sim_net *n, uint64_t events, gsl_rng *g, sim_run *run, zvp_error *err)
{
    rep r;
    if (rep_init(&r, n, g, run)) {
        rep_free(&r);
        return zvp_fail(err, ZVP_ENOMEM, "zvp_sim_run: out of memory");
    }
    memset(run->snap, 0, run->W * sizeof(double));
    for (size_t i = 0; i < run->n_res; i++)
        run->res[i].n = 0, run->res[i].seen = 0;
    if (n->open) {
        for (size_t c = 0; c < n->C; c++)
            if (n->lambda[c] > 0)
                heap_set(&r.h, (uint32_t)(n->K + c), sim_sample(&n->think[c], g));
    } else {
        for (size_t j = 0; j < r.n_jobs; j++) {
            r.jobs[j].st = -1;
            r.jobs[j].t_cyc = 0;
            double z = sim_sample(&n->think[r.jobs[j].cls], g);
            if (z > 0)
                heap_set(&r.h, r.E0 + (uint32_t)j, z);
            else
                begin_cycle(&r, (uint32_t)j, 0.0);
        }
    }
    uint64_t ev = 0, next_snap = events / SIM_SLICES;
    double t = 0.0;
    while (ev < events && r.h.n > 0 && !r.oom && !r.too_many) {
        uint32_t e = r.h.id[0];
        t = r.h.key[0];
        if (e >= r.E0) {
            uint32_t j = e - r.E0;
            heap_remove(&r.h, e);
            if (r.jobs[j].st < 0)
                begin_cycle(&r, j, t);
            else
                depart(&r, j, t);
        } else if (e < n->K) {
            ps_depart(&r, e, t);
        } else {
            arrival(&r, e - n->K, t);
        }
        if (++ev == next_snap) {
            snapshot(&r, ++r.slice, t);
            next_snap = (uint64_t)((double)events * (r.slice + 1) / SIM_SLICES);
            if (r.slice + 1 == SIM_SLICES)
                next_snap = events;
        }
    }
    int rc = ZVP_SUCCESS;
    if (r.oom)
        rc = zvp_fail(err, ZVP_ENOMEM, "zvp_sim_run: out of memory");
    else if (r.too_many)
        rc = zvp_fail(err, ZVP_EUNSTABLE, "zvp_sim_run: more than %lu jobs present in the open "
                      "network: no steady state within the run (load too close to 1)",
                      (unsigned long)ZVP_SIM_MAX_JOBS);
    else if (ev < events)
        rc = zvp_fail(err, ZVP_EINTERNAL, "zvp_sim_run: internal check failed: the event list "
                      "ran empty after %llu events", (unsigned long long)ev);
    run->events = ev;
    rep_free(&r);
    return rc;
}
