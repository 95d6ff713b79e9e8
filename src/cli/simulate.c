/*
 * src/cli/simulate.c - `zvmperf simulate KIND [options]`: the networks of `solve` (kinds mm1,
 * mmc, repairman, open, mva) simulated by the discrete-event simulator (include/zvmperf/sim.h),
 * each figure with its 95% confidence interval, and the analytic value beside it where a
 * kernel applies. The options of a kind are those of `solve` for that kind (parsed with the
 * same helpers, solve.h) plus the simulation options. src/sim/README.md describes the model.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solve.h"

enum {
    O_LAMBDA, O_MU, O_SERVICE, O_SERVERS, O_SOURCES, O_THINK, O_DEMANDS, O_USERS, O_STATION_SERVERS,
    O_SCV, O_DISCIPLINE, O_HANDOFF, O_DIST, O_REPLICATIONS, O_EVENTS, O_MAX_EVENTS, O_PRECISION,
    O_SEED, O_THREADS, N_OPTS
};

/* The solve options first (same names as solve.c's), then the simulation options. */
static const cli_option options[N_OPTS] = {
    {"lambda", 0, 1, 0},      {"mu", 0, 1, 0},          {"service", 0, 1, 0},
    {"servers", 0, 1, 0},     {"sources", 0, 1, 0},     {"think", 0, 1, 0},
    {"demands", 0, 1, 0},     {"users", 0, 1, 0},       {"station-servers", 0, 1, 0},
    {"scv", 0, 1, 0},         {"discipline", 0, 1, 0},  {"handoff", 0, 1, 0},
    {"dist", 0, 1, 0},        {"replications", 0, 1, 0}, {"events", 0, 1, 0},
    {"max-events", 0, 1, 0},  {"precision", 0, 1, 0},   {"seed", 0, 1, 0},
    {"threads", 0, 1, 0},
};
/* where each solve option lives in solve_opts.v */
static const int solve_index[O_SCV] = {S_LAMBDA,  S_MU,     S_SERVICE, S_SERVERS,
                                       S_SOURCES, S_THINK,  S_DEMANDS, S_USERS,
                                       S_STATION_SERVERS};

#define B(x) (1u << (x))
#define SIMOPTS (B(O_SCV) | B(O_DISCIPLINE) | B(O_HANDOFF) | B(O_DIST) | B(O_REPLICATIONS) | \
                 B(O_EVENTS) | B(O_MAX_EVENTS) | B(O_PRECISION) | B(O_SEED) | B(O_THREADS))
#define RATE (B(O_LAMBDA) | B(O_MU) | B(O_SERVICE))

static const struct sim_kind {
    const char *kind;
    unsigned opts;
    const char *usage;
} kinds[] = {
    {"mm1", RATE | SIMOPTS, "--lambda R (--mu R | --service S)"},
    {"mmc", RATE | B(O_SERVERS) | SIMOPTS, "--lambda R (--mu R | --service S) --servers C"},
    {"repairman", B(O_SERVICE) | B(O_SERVERS) | B(O_SOURCES) | B(O_THINK) | SIMOPTS,
     "--sources N --think Z --service S [--servers C]"},
    {"open", B(O_LAMBDA) | B(O_DEMANDS) | B(O_STATION_SERVERS) | SIMOPTS,
     "--lambda L1[,L2...] --demands D1,D2[;D1,D2...] [--station-servers M1,M2]"},
    {"mva", B(O_THINK) | B(O_USERS) | B(O_DEMANDS) | B(O_STATION_SERVERS) | SIMOPTS,
     "--users N [--think Z] --demands D1,D2,... [--station-servers M1,...]"},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

const char cli_help_simulate[] =
    "Usage: zvmperf simulate KIND [options of solve KIND] [simulation options] [--json]\n"
    "  mm1             --lambda R (--mu R | --service S)\n"
    "  mmc             --lambda R (--mu R | --service S) --servers C\n"
    "  repairman       --sources N --think Z --service S [--servers C]\n"
    "  open            --lambda L1[,L2...] --demands D1,D2[;D1,D2...] [--station-servers M1,M2]\n"
    "  mva             --users N [--think Z] --demands D1,D2,... [--station-servers M1,...]\n"
    "   or: zvmperf simulate MODELFILE|MODEL [NAME=VALUE ...] [--replications R] [--events N]\n"
    "       [--max-events N] [--precision P] [--seed S] [--threads T] [--json]\n"
    "  the outputs of a model that describes its network (spinlock; mmc and repairman through\n"
    "  a model file, their names being KINDs), each with its 95% interval and the analytic\n"
    "  value of eval beside it; --json as eval --json plus ci_lo, ci_hi, analytic per output\n"
    "Simulation options (a LIST is one value for every station or one per station):\n"
    "  --scv LIST          squared coefficient of variation of each station's service time\n"
    "                      (default 1: exponential; 0 deterministic; < 1 mixed Erlang; > 1 H2)\n"
    "  --dist LIST         phase (default: the family above) or lognormal\n"
    "  --discipline LIST   fcfs (default), ros (random order: how a spin lock is handed\n"
    "                      over) or ps (processor sharing)\n"
    "  --handoff LIST      H0[:H1] s: a customer that starts after waiting gets H0 + H1 x the\n"
    "                      number waiting added to its service (default 0)\n"
    "  --replications R    replications (default 10; 1: one run, batch means)\n"
    "  --events N          events per replication (default 1000000)\n"
    "  --precision P       add rounds of R replications until every mean's 95% half-width is\n"
    "                      <= P |mean| (throughput, utilization, queue length, response) or\n"
    "                      the events of all replications reach --max-events\n"
    "  --max-events N      the event limit of --precision (default 100 x R x events)\n"
    "  --seed S            seed (default 1); the same seed gives the same numbers on any\n"
    "                      thread count\n"
    "  --threads T         OpenMP threads (default 0: the OpenMP default)\n"
    "Think times and open arrivals are exponential. The analytic value is printed beside the\n"
    "simulated one where a kernel is exact: every SCV 1, or PS / delay stations (insensitive),\n"
    "or M/G/1 FCFS/ROS (Pollaczek-Khinchine); never with a handoff cost.\n"
    "--json: each figure {\"value\", \"ci_lo\", \"ci_hi\", \"unit\"}, \"stations\": [...], \"events\",\n"
    "\"seconds\", \"events_per_s\", \"replications\", \"seed\", \"precision\", \"analytic\" (or null).\n";

typedef struct simnet {
    size_t K, C;
    int open;
    zvp_sim_station *st;
    double *d;         /* [C*K] */
    double *lam;       /* [C] */
    unsigned long n;   /* closed: customers (one class) */
    double z;
} simnet;

static void simnet_free(simnet *s)
{
    free(s->st);
    free(s->d);
    free(s->lam);
}

/* --station-servers: 1 queue, m multi-server, inf delay. */
static int parse_station_servers(const solve_opts *o, const char *v, simnet *s)
{
    double *m = NULL;
    size_t nm = 0;
    int rc = 0;
    for (size_t k = 0; k < s->K; k++)
        s->st[k].kind = ZVP_STATION_QUEUE;
    if (!v)
        return 0;
    if ((rc = solve_list(o, "station-servers", v, ',', 1.0, ZVP_SIM_MAX_SERVERS, 1, &m, &nm)))
        return rc;
    if (nm != s->K)
        rc = solve_wrong_count(o, "station-servers", v, s->K, "one per station");
    for (size_t k = 0; !rc && k < s->K; k++) {
        if (isinf(m[k]))
            s->st[k].kind = ZVP_STATION_DELAY;
        else if (m[k] != floor(m[k]))
            rc = solve_bad(o, "--%s = %s: entries must be integers in %s", "station-servers", v,
                           "[1, 1000000] or inf");
        else if (m[k] > 1) {
            s->st[k].kind = ZVP_STATION_MULTI;
            s->st[k].servers = (int32_t)m[k];
        }
    }
    free(m);
    return rc;
}

/* --demands "a,b;c,d" into s->d (C classes x K stations). */
static int parse_demands(const solve_opts *o, const char *v, simnet *s)
{
    if (!v)
        return solve_missing(o, "demands", "service demands D1,D2,... in s; classes separated "
                             "by ';'");
    size_t C = 1;
    for (const char *p = v; *p; p++)
        C += *p == ';';
    int rc = 0;
    const char *part = v;
    for (size_t c = 0; !rc && c < C; c++) {
        const char *semi = strchr(part, ';');
        size_t len = semi ? (size_t)(semi - part) : strlen(part), k;
        char *buf = malloc(len + 1);
        double *x = NULL;
        if (!buf)
            return cli_error(o->c, ZVP_ENOMEM, "out of memory");
        memcpy(buf, part, len);
        buf[len] = '\0';
        rc = solve_list(o, "demands", buf, ',', 0.0, 1e300, 0, &x, &k);
        free(buf);
        if (!rc && c == 0) {
            s->K = k;
            s->C = C;
            s->d = malloc(C * k * sizeof *s->d);
            if (!s->d)
                rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
        } else if (!rc && k != s->K) {
            rc = solve_wrong_count(o, "demands", v, s->K, "every class as many as class 1");
        }
        if (!rc)
            memcpy(s->d + c * s->K, x, k * sizeof *x);
        free(x);
        part = semi ? semi + 1 : part;
    }
    if (!rc && (s->st = calloc(s->K, sizeof *s->st)) == NULL)
        rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
    return rc;
}

/* The network of the kind, from the solve options. */
static int build(const solve_opts *o, simnet *s)
{
    int rc = 0;
    const int single = strcmp(o->kind, "mm1") == 0 || strcmp(o->kind, "mmc") == 0;
    memset(s, 0, sizeof *s);
    if (single || strcmp(o->kind, "repairman") == 0) {
        double lam = 0, mu = 0, svc = 0;
        unsigned long c = 1;
        s->K = s->C = 1;
        s->open = single;
        s->st = calloc(1, sizeof *s->st);
        s->d = malloc(sizeof *s->d);
        s->lam = calloc(1, sizeof *s->lam);
        if (!s->st || !s->d || !s->lam)
            return cli_error(o->c, ZVP_ENOMEM, "out of memory");
        if (single && o->v[S_MU] && o->v[S_SERVICE])
            return solve_bad(o, "options --%s and --%s are alternatives (mu = 1/service)%s: give "
                             "one", "mu", "service", "");
        if (single && (rc = solve_double(o, "lambda", o->v[S_LAMBDA], 0.0, DBL_MAX, 0, &lam)))
            return rc;
        if (single && !o->v[S_SERVICE]) {
            if ((rc = solve_double(o, "mu", o->v[S_MU], 0.0, DBL_MAX, 1, &mu)))
                return rc;
            svc = 1.0 / mu;
        } else if ((rc = solve_double(o, "service", o->v[S_SERVICE], 0.0, DBL_MAX, 1, &svc))) {
            return rc;
        }
        if (!single && ((rc = solve_ulong(o, "sources", o->v[S_SOURCES], 1, ZVP_SIM_MAX_CUSTOMERS,
                                          &s->n)) ||
                        (rc = solve_double(o, "think", o->v[S_THINK], 0.0, DBL_MAX, 0, &s->z))))
            return rc;
        if ((strcmp(o->kind, "mmc") == 0 || o->v[S_SERVERS]) &&
            (rc = solve_ulong(o, "servers", o->v[S_SERVERS], 1, ZVP_SIM_MAX_SERVERS, &c)))
            return rc;
        s->st[0].kind = c > 1 ? ZVP_STATION_MULTI : ZVP_STATION_QUEUE;
        s->st[0].servers = (int32_t)c;
        s->d[0] = svc;
        s->lam[0] = lam;
        return 0;
    }
    if ((rc = parse_demands(o, o->v[S_DEMANDS], s)) ||
        (rc = parse_station_servers(o, o->v[S_STATION_SERVERS], s)))
        return rc;
    if (strcmp(o->kind, "open") == 0) {
        size_t nl;
        s->open = 1;
        if ((rc = solve_list(o, "lambda", o->v[S_LAMBDA], ',', 0.0, DBL_MAX, 0, &s->lam, &nl)))
            return rc;
        return nl == s->C ? 0 : solve_wrong_count(o, "lambda", o->v[S_LAMBDA], s->C,
                                                  "one per class of --demands");
    }
    if (s->C != 1)
        return solve_bad(o, "--%s = %s: kind mva takes one class%s (no ';')", "demands",
                         o->v[S_DEMANDS], "");
    if ((rc = solve_ulong(o, "users", o->v[S_USERS], 1, ZVP_SIM_MAX_CUSTOMERS, &s->n)))
        return rc;
    if (o->v[S_THINK])
        rc = solve_double(o, "think", o->v[S_THINK], 0.0, DBL_MAX, 0, &s->z);
    return rc;
}

/* One entry of a per-station list into station k. */
static int station_entry(const solve_opts *o, int which, const char *name, const char *list,
                         const char *tok, zvp_sim_station *st)
{
    double v, h1 = 0.0;
    if (which == O_DISCIPLINE) {
        st->discipline = strcmp(tok, "fcfs") == 0 ? ZVP_SIM_FCFS : strcmp(tok, "ros") == 0
                             ? ZVP_SIM_ROS : strcmp(tok, "ps") == 0 ? ZVP_SIM_PS : -1;
        return st->discipline < 0 ? solve_bad(o, "--%s = %s: allowed %s", name, list,
                                              "fcfs, ros or ps") : 0;
    }
    if (which == O_DIST) {
        st->dist = strcmp(tok, "phase") == 0 ? ZVP_SIM_DIST_PHASE
                   : strcmp(tok, "lognormal") == 0 ? ZVP_SIM_DIST_LOGNORMAL : -1;
        return st->dist < 0 ? solve_bad(o, "--%s = %s: allowed %s", name, list,
                                        "phase or lognormal") : 0;
    }
    const char *colon = which == O_HANDOFF ? strchr(tok, ':') : NULL;
    char h0s[64];
    snprintf(h0s, sizeof h0s, "%.*s", colon ? (int)(colon - tok) : (int)strlen(tok), tok);
    const double hi = which == O_SCV ? ZVP_SIM_MAX_SCV : 1e300;
    if (cli_number(h0s, &v) != 0 || v < 0 || v > hi ||
        (colon && (cli_number(colon + 1, &h1) != 0 || h1 < 0 || h1 > hi)))
        return solve_bad(o, "--%s = %s: each entry must be %s", name, list,
                         which == O_SCV ? "a number in [0, 10000]"
                                        : "H0 or H0:H1, numbers >= 0 (s)");
    if (which == O_SCV)
        st->scv = v;
    else {
        st->handoff0_s = v;
        st->handoff1_s = h1;
    }
    return 0;
}

/* --scv, --discipline, --handoff, --dist: one entry, or one per station. */
static int station_lists(const solve_opts *o, const cli_args *a, simnet *s)
{
    static const int which[4] = {O_SCV, O_DISCIPLINE, O_HANDOFF, O_DIST};
    for (size_t k = 0; k < s->K; k++)
        s->st[k].scv = 1.0;
    for (int w = 0; w < 4; w++) {
        const char *list = a->value[which[w]], *name = options[which[w]].name;
        if (!list)
            continue;
        size_t n = 1;
        for (const char *p = list; *p; p++)
            n += *p == ',';
        if (n != 1 && n != s->K)
            return solve_wrong_count(o, name, list, s->K, "one, or one per station");
        const char *p = list;
        for (size_t i = 0; i < n; i++) {
            const char *q = strchr(p, ',');
            char tok[64];
            snprintf(tok, sizeof tok, "%.*s", q ? (int)(q - p) : (int)strlen(p), p);
            for (size_t k = (n == 1 ? 0 : i); k < (n == 1 ? s->K : i + 1); k++) {
                int rc = station_entry(o, which[w], name, list, tok, &s->st[k]);
                if (rc)
                    return rc;
            }
            p = q ? q + 1 : p;
        }
    }
    return 0;
}

/* --replications ... --threads into the options. */
static int run_options(const solve_opts *o, const cli_args *a, zvp_sim_options *so)
{
    unsigned long u;
    double p;
    int rc;
    zvp_sim_default_options(so);
    if (a->value[O_REPLICATIONS] &&
        (rc = solve_ulong(o, "replications", a->value[O_REPLICATIONS], 1, 100000, &u)) == 0)
        so->replications = (uint32_t)u;
    else if (a->value[O_REPLICATIONS])
        return rc;
    if (a->value[O_EVENTS] &&
        (rc = solve_double(o, "events", a->value[O_EVENTS], 1000, 1e13, 0, &p)) == 0)
        so->events = (uint64_t)p;
    else if (a->value[O_EVENTS])
        return rc;
    if (a->value[O_MAX_EVENTS] &&
        (rc = solve_double(o, "max-events", a->value[O_MAX_EVENTS], 1000, 1e15, 0, &p)) == 0)
        so->max_events = (uint64_t)p;
    else if (a->value[O_MAX_EVENTS])
        return rc;
    if (a->value[O_PRECISION] &&
        (rc = solve_double(o, "precision", a->value[O_PRECISION], 0, 1, 0, &so->precision)))
        return rc;
    if (a->value[O_SEED] &&
        (rc = solve_double(o, "seed", a->value[O_SEED], 0, 9007199254740992.0, 0, &p)) == 0) {
        if (p != floor(p))
            return solve_bad(o, "--%s = %s is not a whole number (allowed: %s)", "seed",
                             a->value[O_SEED], "an integer in [0, 2^53]");
        so->seed = (uint64_t)p;
    } else if (a->value[O_SEED]) {
        return rc;
    }
    if (a->value[O_THREADS] &&
        (rc = solve_ulong(o, "threads", a->value[O_THREADS], 0, 4096, &u)) == 0)
        so->threads = (int32_t)u;
    else if (a->value[O_THREADS])
        return rc;
    return 0;
}

/* ---- the analytic values ------------------------------------------------------------ */

typedef struct analytic {
    const char *why;                /* NULL when the values below are exact */
    double X, R, Q, U, W, Lq;
    double *su, *sq, *sr, *sx;      /* [K] per station */
} analytic;

/* Exact when no handoff, and every FCFS/ROS queueing station exponential (SCV 1) with the
 * same service time for every class; PS single-server and delay stations at any SCV. */
static const char *product_form(const simnet *s)
{
    for (size_t k = 0; k < s->K; k++) {
        const zvp_sim_station *st = &s->st[k];
        if (st->kind == ZVP_STATION_DELAY)
            continue;
        if (st->handoff0_s > 0 || st->handoff1_s > 0)
            return "a handoff cost: no analytic value";
        if (st->discipline == ZVP_SIM_PS && st->kind == ZVP_STATION_QUEUE)
            continue;
        if (st->scv != 1.0)
            return "an FCFS/ROS (or multi-server PS) station with SCV != 1: no exact analytic "
                   "value";
        for (size_t c = 1; c < s->C; c++)
            if (s->d[c * s->K + k] != s->d[k] && s->d[c * s->K + k] > 0 && s->d[k] > 0)
                return "an FCFS/ROS station with class-dependent service times (not BCMP)";
    }
    return NULL;
}

static int analytic_single(const solve_opts *o, const simnet *s, analytic *a)
{
    const zvp_sim_station *st = &s->st[0];
    const double S = s->d[0], m = st->kind == ZVP_STATION_MULTI ? st->servers : 1;
    zvp_station_result r;
    zvp_error e;
    if (st->handoff0_s > 0 || st->handoff1_s > 0) {
        a->why = "a handoff cost: no analytic value";
        return 0;
    }
    if (s->open && m == 1 && (st->scv != 1.0 || st->discipline != ZVP_SIM_FCFS)) {
        /* M/G/1: Pollaczek-Khinchine Wq = rho S (1 + SCV)/(2 (1 - rho)) for FCFS and ROS;
         * PS: R = S/(1 - rho) whatever the SCV */
        const double rho = s->lam[0] * S;
        a->R = st->discipline == ZVP_SIM_PS ? S / (1 - rho)
                                            : S + rho * S * (1 + st->scv) / (2 * (1 - rho));
        a->X = s->lam[0];
        a->U = rho;
        a->Q = a->X * a->R;
        a->W = a->R - S;
        a->Lq = a->X * a->W;
        return 0;
    }
    if ((a->why = product_form(s)) != NULL)
        return 0;
    int rc = s->open ? zvp_mmc(s->lam[0], 1.0 / S, (unsigned long)m, &r, &e)
                     : zvp_repairman(s->n, s->z, S, (unsigned long)m, &r, &e);
    if (rc)
        return cli_lib_error(o->c, &e);
    a->X = r.throughput_per_s;
    a->R = r.response_s;
    a->Q = r.mean_in_system;
    a->U = r.utilization;
    a->W = r.wait_s;
    a->Lq = r.mean_in_queue;
    return 0;
}

static int analytic_net(const solve_opts *o, const simnet *s, analytic *a)
{
    zvp_station *st = calloc(s->K, sizeof *st);
    double *qck = calloc(s->C * s->K, sizeof *qck), *rck = calloc(s->C * s->K, sizeof *rck);
    zvp_error e;
    int rc = 0;
    if (!st || !qck || !rck)
        rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
    for (size_t k = 0; !rc && k < s->K; k++) {
        st[k].kind = s->st[k].kind;
        st[k].servers = s->st[k].kind == ZVP_STATION_MULTI ? s->st[k].servers : 1;
        st[k].replicas = 1;
        st[k].demand_s = s->d[k];
    }
    if (!rc && s->open) {
        zvp_open_result r = {0, 0, 0, NULL, rck, qck, a->su};
        if (zvp_open_network(st, s->K, s->d, s->lam, s->C, &r, &e))
            rc = cli_lib_error(o->c, &e);
        a->X = r.throughput_per_s;
        a->R = r.response_s;
        a->Q = r.mean_in_system;
        for (size_t k = 0; !rc && k < s->K; k++) {
            a->sq[k] = 0;
            for (size_t c = 0; c < s->C; c++)
                a->sq[k] += qck[c * s->K + k];
            a->sx[k] = 0;
            for (size_t c = 0; c < s->C; c++)
                a->sx[k] += s->d[c * s->K + k] > 0 ? s->lam[c] : 0.0;
            a->sr[k] = a->sx[k] > 0 ? a->sq[k] / a->sx[k] : NAN;
        }
    } else if (!rc) {
        zvp_mva_result r = {0, 0, a->sr, a->sq, a->su};
        if (zvp_mva_exact(st, s->K, s->z, s->n, &r, NULL, &e))
            rc = cli_lib_error(o->c, &e);
        a->X = r.throughput_per_s;
        a->R = r.response_s;
        a->Q = 0;
        for (size_t k = 0; !rc && k < s->K; k++) {
            a->Q += a->sq[k];
            a->sx[k] = s->d[k] > 0 ? a->X : 0.0;
        }
    }
    a->U = a->W = a->Lq = NAN;
    free(st);
    free(qck);
    free(rck);
    return rc;
}

static int compute_analytic(const solve_opts *o, const simnet *s, analytic *a)
{
    a->X = a->R = a->Q = a->U = a->W = a->Lq = NAN;
    a->su = calloc(4 * s->K, sizeof(double));
    if (!a->su)
        return cli_error(o->c, ZVP_ENOMEM, "out of memory");
    a->sq = a->su + s->K;
    a->sr = a->sq + s->K;
    a->sx = a->sr + s->K;
    if (strcmp(o->kind, "open") != 0 && strcmp(o->kind, "mva") != 0) {
        int rc = analytic_single(o, s, a);
        a->su[0] = a->U;
        a->sq[0] = a->Q;
        a->sr[0] = a->R;
        a->sx[0] = a->X;
        return rc;
    }
    if ((a->why = product_form(s)) != NULL)
        return 0;
    return analytic_net(o, s, a);
}

/* ---- output ------------------------------------------------------------------------- */

static json_t *est_json(const zvp_sim_estimate *e, const char *unit)
{
    json_t *j = json_object();
    cli_json_set(j, "value", cli_json_num(e->mean, NULL));
    cli_json_set(j, "ci_lo", cli_json_num(e->ci_lo, "interval not defined (fewer than 2 units)"));
    cli_json_set(j, "ci_hi", cli_json_num(e->ci_hi, "interval not defined (fewer than 2 units)"));
    cli_json_set(j, "unit", json_string(unit));
    return j;
}

/* The figures of one cell into obj (U only when `with_u`). */
static void cell_json(json_t *obj, const zvp_sim_figures *g, int with_u)
{
    cli_json_set(obj, "X", est_json(&g->throughput_per_s, "1/s"));
    cli_json_set(obj, "R", est_json(&g->response_s, "s"));
    cli_json_set(obj, "Q", est_json(&g->queue_length, "1"));
    if (with_u)
        cli_json_set(obj, "U", est_json(&g->utilization, "1"));
    cli_json_set(obj, "W", est_json(&g->wait_s, "s"));
    cli_json_set(obj, "Lq", est_json(&g->mean_in_queue, "1"));
    cli_json_set(obj, "p50", est_json(&g->p50_s, "s"));
    cli_json_set(obj, "p95", est_json(&g->p95_s, "s"));
    cli_json_set(obj, "p99", est_json(&g->p99_s, "s"));
}

static json_t *analytic_json(const simnet *s, const analytic *a, int single)
{
    json_t *j = json_object(), *st = json_array();
    cli_json_set(j, "X", cli_json_qty(a->X, "1/s", NULL));
    cli_json_set(j, "R", cli_json_qty(a->R, "s", NULL));
    cli_json_set(j, "Q", cli_json_qty(a->Q, "1", NULL));
    if (single) {
        cli_json_set(j, "U", cli_json_qty(a->U, "1", NULL));
        cli_json_set(j, "W", cli_json_qty(a->W, "s", NULL));
        cli_json_set(j, "Lq", cli_json_qty(a->Lq, "1", NULL));
    }
    for (size_t k = 0; st && k < s->K; k++)
        json_array_append_new(st, solve_station_json(a->su[k], a->sq[k], a->sr[k], a->sx[k]));
    cli_json_set(j, "stations", st);
    return j;
}

static int print_json(const solve_opts *o, const simnet *s, const zvp_sim_result *r,
                      const zvp_sim_options *so, const analytic *a)
{
    const int single = s->K == 1 && s->C == 1 && strcmp(o->kind, "open") && strcmp(o->kind, "mva");
    json_t *d = cli_json_doc("simulate"), *st = json_array(), *cl = json_array();
    cli_json_set(d, "kind", json_string(o->kind));
    cli_json_set(d, "status", json_string("ok"));
    cell_json(d, zvp_sim_cell(r, s->K, s->C), 0);
    if (single)
        cli_json_set(d, "U", est_json(&zvp_sim_cell(r, 0, 1)->utilization, "1"));
    for (size_t k = 0; st && k < s->K; k++) {
        json_t *x = json_object();
        cell_json(x, zvp_sim_cell(r, k, s->C), 1);
        if (s->st[k].kind == ZVP_STATION_DELAY)
            cli_json_set(x, "servers", json_string("inf"));
        else
            cli_json_set(x, "servers", json_integer(s->st[k].kind == ZVP_STATION_MULTI
                                                        ? s->st[k].servers : 1));
        json_array_append_new(st, x);
    }
    cli_json_set(d, "stations", st);
    for (size_t c = 0; s->C > 1 && cl && c < s->C; c++) {
        json_t *x = json_object();
        cell_json(x, zvp_sim_cell(r, s->K, c), 0);
        json_array_append_new(cl, x);
    }
    cli_json_set(d, "classes", cl);
    cli_sim_run_json(d, r, so, 1);
    cli_json_set(d, "warmup_fraction", cli_json_qty(r->warmup_fraction, "1", NULL));
    cli_json_set(d, "little_max_rel", cli_json_qty(r->little_max_rel, "1", NULL));
    cli_json_set(d, "analytic", a->why ? json_null() : analytic_json(s, a, single));
    cli_json_set(d, "analytic_note", a->why ? json_string(a->why) : json_null());
    return cli_json_print(d);
}

static void line(const char *name, const char *unit, const zvp_sim_estimate *e, double exact)
{
    printf("  %-4s %-4s %14.8g  [%.8g, %.8g]", name, unit, e->mean, e->ci_lo, e->ci_hi);
    if (!isnan(exact))
        printf("  analytic %.8g", exact);
    printf("\n");
}

static void print_text(const solve_opts *o, const simnet *s, const zvp_sim_result *r,
                       const zvp_sim_options *so, const analytic *a)
{
    const zvp_sim_figures *g = zvp_sim_cell(r, s->K, s->C);
    printf("simulate %s: %u replications (%u units), %llu events in %.3g s (%.3g events/s), "
           "seed %llu\n", o->kind, r->replications, r->units, (unsigned long long)r->events,
           r->seconds, r->events_per_s, (unsigned long long)r->seed);
    printf("MSER-5 deleted %.3g %% of each run; Little's law max |Q - X R|/Q = %.2g\n",
           100 * r->warmup_fraction, r->little_max_rel);
    if (so->precision > 0)
        printf("precision %g: worst half-width/|mean| = %.3g, %s\n", so->precision,
               r->worst_precision, r->precision_met ? "met" : "not met: event cap hit");
    if (a->why)
        printf("analytic: %s\n", a->why);
    printf("  mean      simulated       95%% confidence interval\n");
    line("X", "1/s", &g->throughput_per_s, a->why ? NAN : a->X);
    line("R", "s", &g->response_s, a->why ? NAN : a->R);
    line("Q", "", &g->queue_length, a->why ? NAN : a->Q);
    if (s->K == 1 && s->C == 1)
        line("U", "", &zvp_sim_cell(r, 0, 1)->utilization, a->why ? NAN : a->U);
    line("W", "s", &g->wait_s, a->why ? NAN : a->W);
    line("Lq", "", &g->mean_in_queue, a->why ? NAN : a->Lq);
    line("p50", "s", &g->p50_s, NAN);
    line("p95", "s", &g->p95_s, NAN);
    line("p99", "s", &g->p99_s, NAN);
    for (size_t k = 0; s->K > 1 && k < s->K; k++) {
        const zvp_sim_figures *h = zvp_sim_cell(r, k, s->C);
        printf("  station %zu: U = %.6g [%.6g, %.6g], Q = %.6g [%.6g, %.6g], R = %.6g s",
               k, h->utilization.mean, h->utilization.ci_lo, h->utilization.ci_hi,
               h->queue_length.mean, h->queue_length.ci_lo, h->queue_length.ci_hi,
               h->response_s.mean);
        if (!a->why)
            printf(" (analytic U = %.6g, Q = %.6g, R = %.6g s)", a->su[k], a->sq[k], a->sr[k]);
        printf("\n");
    }
}

/* "option --NAME does not apply to kind K (kind K takes: ...)" */
static int not_taken(const cli_ctx *c, const struct sim_kind *k, int opt)
{
    char takes[768] = "";
    for (int i = 0; i < N_OPTS; i++)
        if (k->opts & B(i))
            snprintf(takes + strlen(takes), sizeof takes - strlen(takes), " --%s",
                     options[i].name);
    return cli_error(c, ZVP_EINVAL, "option --%s does not apply to kind %s (kind %s takes:%s "
                     "--json)", options[opt].name, k->kind, k->kind, takes);
}

static int simulate_kind(const solve_opts *o, const cli_args *a)
{
    simnet s;
    zvp_sim_options so;
    analytic an;
    zvp_sim_result *r = NULL;
    zvp_error e;
    memset(&an, 0, sizeof an);
    int rc = build(o, &s);
    if (!rc)
        rc = station_lists(o, a, &s);
    if (!rc)
        rc = run_options(o, a, &so);
    if (!rc)
        rc = compute_analytic(o, &s, &an);
    if (!rc) {
        zvp_sim_network net = {s.st, s.K, s.C, s.d, NULL, s.open, 0, s.lam, &s.n, &s.z, NULL};
        zvp_error_clear(&e);
        if (zvp_sim_run(&net, &so, &r, &e))
            rc = cli_lib_error(o->c, &e);
        else
            cli_sim_warn_clipped(o->c, r->clipped, "figure(s)", r->units);
    }
    if (!rc && o->json)
        rc = print_json(o, &s, r, &so, &an);
    else if (!rc)
        print_text(o, &s, r, &so, &an);
    zvp_sim_result_free(r);
    free(an.su);
    simnet_free(&s);
    return rc;
}

int cli_simulate(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    solve_opts o;
    const struct sim_kind *k = NULL;
    char context[96];
    int rc;
    memset(&o, 0, sizeof o);
    o.c = &c;
    if (argc < 1 || argv[0][0] == '-') {
        fputs(cli_help_simulate, stderr);
        return cli_error(&c, ZVP_EINVAL, "simulate needs a KIND first (see 'zvmperf simulate "
                         "--help')");
    }
    o.kind = argv[0];
    for (size_t i = 0; i < N_KINDS; i++)
        if (strcmp(kinds[i].kind, o.kind) == 0)
            k = &kinds[i];
    if (!k) /* not a KIND: a model file or a model name (simulate_model.c) */
        return cli_simulate_model(c0, argc, argv);
    snprintf(context, sizeof context, " for kind %s", o.kind);
    if ((rc = cli_parse(&c, argc - 1, argv + 1, options, N_OPTS, context, &a)))
        return rc;
    c.json = o.json = a.json;
    for (size_t i = 0; !rc && i < a.n_items; i++)
        if (a.item_opt[i] < N_OPTS && !(k->opts & B(a.item_opt[i])))
            rc = not_taken(&c, k, a.item_opt[i]);
    if (!rc && a.n_pos > 0)
        rc = cli_error(&c, ZVP_EINVAL, "unexpected argument '%s' (options start with --)",
                       a.pos[0]);
    for (int i = 0; i < O_SCV; i++)
        o.v[solve_index[i]] = a.value[i];
    if (!rc)
        rc = simulate_kind(&o, &a);
    cli_args_free(&a);
    return rc;
}
