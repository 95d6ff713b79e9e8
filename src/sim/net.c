/*
 * src/sim/net.c - the simulator's network: validation of a zvp_sim_network (every error names
 * the field, its value and the allowed range), the engine's view of it (sim_net), and the
 * run records (snapshots and reservoirs). src/sim/README.md.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "sim_impl.h"

void zvp_sim_default_options(zvp_sim_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->events = 1000000;
    o->replications = 10;
    o->reservoir = 4096;
}

/* ---- validation and the engine's network -------------------------------------------- */

void sim_net_free(sim_net *n)
{
    free(n->m);
    free(n->kind);
    free(n->disc);
    free(n->h0);
    free(n->h1);
    free(n->svc);
    free(n->think);
    free(n->vis);
    free(n->cum);
    free(n->n_c);
    free(n->lambda);
}

static int check_station(const zvp_sim_station *s, size_t k, zvp_error *err)
{
    char what[96];
    if (s->kind != ZVP_STATION_QUEUE && s->kind != ZVP_STATION_DELAY &&
        s->kind != ZVP_STATION_MULTI)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: stations[%zu].kind = %d is not allowed "
                        "(0 queue, 1 delay, 2 multi-server)", k, (int)s->kind);
    if (s->kind == ZVP_STATION_MULTI && (s->servers < 1 || s->servers > ZVP_SIM_MAX_SERVERS))
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: stations[%zu].servers = %d is out of "
                        "range [1, %ld]", k, (int)s->servers, ZVP_SIM_MAX_SERVERS);
    if (s->discipline < ZVP_SIM_FCFS || s->discipline > ZVP_SIM_PS)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: stations[%zu].discipline = %d is out of "
                        "range [0, 2] (0 FCFS, 1 ROS, 2 PS)", k, (int)s->discipline);
    if (s->dist != ZVP_SIM_DIST_PHASE && s->dist != ZVP_SIM_DIST_LOGNORMAL)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: stations[%zu].dist = %d is out of range "
                        "[0, 1] (0 phase-type, 1 lognormal)", k, (int)s->dist);
    snprintf(what, sizeof what, "zvp_sim_run: stations[%zu].scv", k);
    if (zvp_check_range(err, what, s->scv, 0.0, ZVP_SIM_MAX_SCV))
        return ZVP_EINVAL;
    snprintf(what, sizeof what, "zvp_sim_run: stations[%zu].handoff0_s", k);
    if (zvp_check_range(err, what, s->handoff0_s, 0.0, 1e300))
        return ZVP_EINVAL;
    snprintf(what, sizeof what, "zvp_sim_run: stations[%zu].handoff1_s", k);
    return zvp_check_range(err, what, s->handoff1_s, 0.0, 1e300);
}

static int check_classes(const zvp_sim_network *w, zvp_error *err)
{
    const size_t K = w->n_stations, C = w->n_classes;
    char what[96];
    for (size_t i = 0; i < C * K; i++) {
        snprintf(what, sizeof what, "zvp_sim_run: demands_s[%zu]", i);
        if (zvp_check_range(err, what, w->demands_s[i], 0.0, 1e300))
            return ZVP_EINVAL;
        if (w->visits) {
            snprintf(what, sizeof what, "zvp_sim_run: visits[%zu]", i);
            if (zvp_check_range(err, what, w->visits[i], 0.0, 1e9))
                return ZVP_EINVAL;
            if (w->visits[i] == 0 && w->demands_s[i] > 0)
                return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: visits[%zu] = 0 with demands_s[%zu]"
                                " = %.17g > 0 (a demand needs visits)", i, i, w->demands_s[i]);
        }
    }
    for (size_t c = 0; w->route_one && c < C; c++) {
        double sum = 0.0;
        for (size_t k = 0; k < K; k++)
            sum += w->visits ? w->visits[c * K + k] : (w->demands_s[c * K + k] > 0);
        if (!(fabs(sum - 1.0) <= 1e-9))
            return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: route_one: class %zu's visits sum to "
                            "%.17g (must be 1 within 1e-9)", c, sum);
    }
    unsigned long total = 0;
    for (size_t c = 0; c < C; c++) {
        if (w->open) {
            snprintf(what, sizeof what, "zvp_sim_run: arrival_rate_per_s[%zu]", c);
            if (zvp_check_range(err, what, w->arrival_rate_per_s[c], 0.0, 1e300))
                return ZVP_EINVAL;
            total += w->arrival_rate_per_s[c] > 0;
            continue;
        }
        double z = w->think_s ? w->think_s[c] : 0.0, d = z;
        snprintf(what, sizeof what, "zvp_sim_run: think_s[%zu]", c);
        if (zvp_check_range(err, what, z, 0.0, 1e300))
            return ZVP_EINVAL;
        snprintf(what, sizeof what, "zvp_sim_run: think_scv[%zu]", c);
        if (w->think_scv && zvp_check_range(err, what, w->think_scv[c], 0.0, ZVP_SIM_MAX_SCV))
            return ZVP_EINVAL;
        if (w->customers[c] > ZVP_SIM_MAX_CUSTOMERS - total)
            return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: customers (sum %lu + %lu) out of "
                            "range [1, %lu]", total, w->customers[c], ZVP_SIM_MAX_CUSTOMERS);
        total += w->customers[c];
        for (size_t k = 0; k < K; k++)
            d += w->demands_s[c * K + k];
        if (w->customers[c] > 0 && !(d > 0))
            return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: class %zu has customers[%zu] = %lu but "
                            "think_s + sum of demands = 0 (nothing to simulate)", c, c,
                            w->customers[c]);
    }
    if (total == 0)
        return zvp_fail(err, ZVP_EINVAL, w->open ? "zvp_sim_run: every arrival_rate_per_s is 0 "
                        "(at least one must be > 0)" : "zvp_sim_run: customers sum to 0 (allowed "
                        "range [1, %lu])", ZVP_SIM_MAX_CUSTOMERS);
    return ZVP_SUCCESS;
}

static int check_network(const zvp_sim_network *w, zvp_error *err)
{
    if (!w)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: net is NULL");
    if (w->n_stations < 1 || w->n_stations > ZVP_SIM_MAX_STATIONS)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: n_stations = %zu is out of range [1, %lu]",
                        w->n_stations, ZVP_SIM_MAX_STATIONS);
    if (w->n_classes < 1 || w->n_classes > ZVP_SIM_MAX_CLASSES)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: n_classes = %zu is out of range [1, %lu]",
                        w->n_classes, ZVP_SIM_MAX_CLASSES);
    if (!w->stations || !w->demands_s || (w->open && !w->arrival_rate_per_s) ||
        (!w->open && !w->customers))
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: stations, demands_s and %s may not be NULL",
                        w->open ? "arrival_rate_per_s (open)" : "customers (closed)");
    if ((w->open != 0 && w->open != 1) || (w->route_one != 0 && w->route_one != 1))
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_run: open = %d, route_one = %d (allowed 0 or 1)",
                        (int)w->open, (int)w->route_one);
    for (size_t k = 0; k < w->n_stations; k++)
        if (check_station(&w->stations[k], k, err))
            return ZVP_EINVAL;
    return check_classes(w, err);
}

int sim_net_build(const zvp_sim_network *w, sim_net *n, zvp_error *err)
{
    memset(n, 0, sizeof *n);
    if (check_network(w, err))
        return ZVP_EINVAL;
    const size_t K = w->n_stations, C = w->n_classes;
    n->K = K;
    n->C = C;
    n->open = w->open;
    n->route_one = w->route_one;
    n->m = malloc(K * sizeof *n->m);
    n->kind = malloc(K * sizeof *n->kind);
    n->disc = malloc(K * sizeof *n->disc);
    n->h0 = malloc(K * sizeof *n->h0);
    n->h1 = malloc(K * sizeof *n->h1);
    n->svc = malloc(C * K * sizeof *n->svc);
    n->think = malloc(C * sizeof *n->think);
    n->vis = malloc(C * K * sizeof *n->vis);
    n->n_c = calloc(C, sizeof *n->n_c);
    n->lambda = calloc(C, sizeof *n->lambda);
    if (!n->m || !n->kind || !n->disc || !n->h0 || !n->h1 || !n->svc || !n->think || !n->vis ||
        !n->n_c || !n->lambda)
        return zvp_fail(err, ZVP_ENOMEM, "zvp_sim_run: out of memory");
    for (size_t k = 0; k < K; k++) {
        const zvp_sim_station *s = &w->stations[k];
        n->kind[k] = s->kind;
        n->m[k] = s->kind == ZVP_STATION_DELAY ? LONG_MAX
                  : s->kind == ZVP_STATION_MULTI ? (long)s->servers : 1;
        n->disc[k] = s->kind == ZVP_STATION_DELAY ? ZVP_SIM_FCFS : s->discipline;
        n->h0[k] = s->kind == ZVP_STATION_DELAY ? 0.0 : s->handoff0_s;
        n->h1[k] = s->kind == ZVP_STATION_DELAY ? 0.0 : s->handoff1_s;
        double load = 0.0;
        for (size_t c = 0; c < C; c++) {
            const size_t i = c * K + k;
            double d = w->demands_s[i];
            n->vis[i] = w->visits ? w->visits[i] : (d > 0 ? 1.0 : 0.0);
            sim_sampler_init(&n->svc[i], s->dist, n->vis[i] > 0 ? d / n->vis[i] : 0.0, s->scv);
            load += w->open ? w->arrival_rate_per_s[c] * d : 0.0;
        }
        if (w->open && n->m[k] != LONG_MAX && load / (double)n->m[k] >= 1.0)
            return zvp_fail(err, ZVP_EUNSTABLE, "zvp_sim_run: stations[%zu] has utilization %.6g "
                            ">= 1 (sum of arrival rate x demand over %ld server(s)): no steady "
                            "state", k, load / (double)n->m[k], n->m[k]);
    }
    if (n->route_one && (n->cum = malloc(C * K * sizeof *n->cum)) == NULL)
        return zvp_fail(err, ZVP_ENOMEM, "zvp_sim_run: out of memory");
    for (size_t c = 0; n->route_one && c < C; c++) {
        double run = 0.0;
        size_t last = 0;
        for (size_t k = 0; k < K; k++) {
            run += n->vis[c * K + k];
            n->cum[c * K + k] = run;
            last = n->vis[c * K + k] > 0 ? k : last;
        }
        for (size_t k = last; k < K; k++)
            n->cum[c * K + k] = 2.0; /* past the last station that is visited: never beyond it */
    }
    for (size_t c = 0; c < C; c++) {
        if (w->open) {
            n->lambda[c] = w->arrival_rate_per_s[c];
            sim_sampler_init(&n->think[c], ZVP_SIM_DIST_PHASE,
                             n->lambda[c] > 0 ? 1.0 / n->lambda[c] : 0.0, 1.0);
        } else {
            n->n_c[c] = w->customers[c];
            n->jobs += w->customers[c];
            sim_sampler_init(&n->think[c], ZVP_SIM_DIST_PHASE, w->think_s ? w->think_s[c] : 0.0,
                             w->think_scv ? w->think_scv[c] : 1.0);
        }
    }
    return ZVP_SUCCESS;
}

/* ---- run records ----------------------------------------------------------------------- */

int sim_run_alloc(sim_run *r, const sim_net *n, uint32_t k)
{
    memset(r, 0, sizeof *r);
    r->W = sim_snap_width(n);
    r->n_res = n->K * n->C + n->K + n->C + 1;
    r->snap = malloc((SIM_SLICES + 1) * r->W * sizeof *r->snap);
    r->res = calloc(r->n_res, sizeof *r->res);
    if (!r->snap || !r->res)
        return -1;
    for (size_t i = 0; i < r->n_res; i++) {
        r->res[i].k = k;
        if ((r->res[i].s = malloc(k * sizeof *r->res[i].s)) == NULL)
            return -1;
    }
    return 0;
}

void sim_run_free(sim_run *r)
{
    for (size_t i = 0; r->res && i < r->n_res; i++)
        free(r->res[i].s);
    free(r->res);
    free(r->snap);
    memset(r, 0, sizeof *r);
}
