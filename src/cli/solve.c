/*
 * src/cli/solve.c - `zvmperf solve KIND [options] [--json]`: the analytical queueing
 * solvers of include/zvmperf/queue.h from the command line.
 *
 * KIND: mm1 mmc erlang-b mm1k mmck mminf repairman open mva mva-multi bounds usl.
 * Options (field names and units):
 *   --lambda R[,R...]   arrival rate, 1/s (one per class for `open`)
 *   --mu R              service rate per server, 1/s (or --service S: mu = 1/S)
 *   --servers C         servers of a single station
 *   --capacity K        room in the system (mm1k, mmck), K >= servers
 *   --sources N         finite sources (repairman)
 *   --think Z[,Z...]    think time, s (one per class, or one for all)
 *   --service S         service time, s
 *   --demands D1,D2,... service demand per job at each station, s; classes separated by ';'
 *   --users N[,N...]    closed population (one per class for mva-multi)
 *   --station-servers M1,M2,...  servers per station: 1 queue (default), m >= 2 multi-server,
 *                       `inf` a delay (infinite-server) station
 *   --method exact|schweitzer|bard   --tolerance T   --max-iterations I
 *   --gamma G --alpha A --beta B (usl evaluation at --users N; peak always)
 *   --data N1:X1,N2:X2,...  (usl fit)
 *   --json              one JSON object: X, R (excluding think time), Q, and "stations":
 *                       [{"U","Q","R","X"}] where a kind has stations; single stations add
 *                       W and Pwait or Pblock.
 * Every option at most once; an option that KIND does not take is bad input (exit 2).
 * Exit status: 0 ok (and `solve --help`, printed to stdout); 1 no convergence (approximate
 * MVA: its figures are still printed, and the message says it did not converge; USL fit)
 * or an I/O / memory failure; 2 bad input (message names the option, its value and the
 * allowed range); 3 no steady state (message names the saturated station).
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zvmperf/zvmperf.h"

#define EXIT_BADINPUT 2
#define EXIT_UNSTABLE 3
#define MAX_LIST 100000

typedef struct {
    const char *kind;
    int json;
    const char *lambda, *mu, *servers, *capacity, *sources, *think, *service, *demands, *users,
        *station_servers, *method, *tolerance, *max_iterations, *gamma, *alpha, *beta, *data;
} solve_opts;

static int bad(const char *fmt, const char *opt, const char *value, const char *range)
{
    fprintf(stderr, "zvmperf solve: error: ");
    fprintf(stderr, fmt, opt, value, range);
    fputc('\n', stderr);
    return EXIT_BADINPUT;
}

static int lib_error(const zvp_error *e)
{
    const char *what = zvp_strerror(e->status);
    if (!e->message[0])
        fprintf(stderr, "zvmperf solve: error: %s\n", what);
    else if (strstr(e->message, what) ||
             (e->status == ZVP_EUNSTABLE && strstr(e->message, "no steady state")))
        fprintf(stderr, "zvmperf solve: error: %s\n", e->message);
    else
        fprintf(stderr, "zvmperf solve: error: %s (%s)\n", e->message, what);
    switch (e->status) {
    case ZVP_EUNSTABLE: return EXIT_UNSTABLE;
    case ZVP_EINVAL:
    case ZVP_EBADLEN: return EXIT_BADINPUT;
    default: return 1;
    }
}

static int not_a_number(const char *name, const char *s, const char *range)
{
    fprintf(stderr, "zvmperf solve: error: --%s = '%s' is not a number (allowed range %s)\n",
            name, s, range);
    return EXIT_BADINPUT;
}

static int missing(const char *kind, const char *name, const char *what)
{
    fprintf(stderr, "zvmperf solve: error: option --%s is required by kind %s: %s\n", name, kind,
            what);
    return EXIT_BADINPUT;
}

/* Parse a double option within [lo, hi] (open lower end when lo_open). */
static int opt_double(const char *kind, const char *name, const char *s, double lo, double hi,
                      int lo_open, double *out)
{
    char range[96];
    char *end;
    snprintf(range, sizeof range, "%s%.17g, %.17g]", lo_open ? "(" : "[", lo, hi);
    if (!s) {
        char what[128];
        snprintf(what, sizeof what, "a number in %s", range);
        return missing(kind, name, what);
    }
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || isnan(v))
        return not_a_number(name, s, range);
    if (!isfinite(v) || v < lo || (lo_open && v <= lo) || v > hi)
        return bad("--%s = %s is out of range %s", name, s, range);
    *out = v;
    return 0;
}

static int opt_ulong(const char *kind, const char *name, const char *s, unsigned long lo,
                     unsigned long hi, unsigned long *out)
{
    char range[64];
    char *end;
    snprintf(range, sizeof range, "[%lu, %lu] (an integer)", lo, hi);
    if (!s) {
        char what[96];
        snprintf(what, sizeof what, "an integer in [%lu, %lu]", lo, hi);
        return missing(kind, name, what);
    }
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || isnan(v))
        return not_a_number(name, s, range);
    if (!isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return bad("--%s = %s is out of range %s", name, s, range);
    *out = (unsigned long)v;
    return 0;
}

/* Split s at `sep` into doubles (each within [lo, hi]); *n receives the count. `inf_ok`
 * accepts the word inf (returned as INFINITY). */
static int opt_list(const char *kind, const char *name, const char *s, char sep, double lo,
                    double hi, int inf_ok, double **out, size_t *n)
{
    char range[96];
    *out = NULL;
    *n = 0;
    snprintf(range, sizeof range, "[%.17g, %.17g]%s", lo, hi, inf_ok ? " or inf" : "");
    if (!s) {
        char what[160];
        snprintf(what, sizeof what, "a list separated by '%c', each entry in %s", sep, range);
        return missing(kind, name, what);
    }
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == sep;
    if (cap > MAX_LIST)
        return bad("--%s = %s has too many entries: allowed range %s", name, s, "[1, 100000]");
    double *v = malloc(cap * sizeof(double));
    if (!v)
        return 1;
    const char *p = s;
    size_t i = 0;
    for (;;) {
        char tok[64];
        const char *q = strchr(p, sep);
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len == 0 || len >= sizeof tok) {
            free(v);
            fprintf(stderr, "zvmperf solve: error: --%s = '%s': entry %zu is %s; each entry must "
                    "be a number in %s\n", name, s, i + 1, len ? "too long" : "empty", range);
            return EXIT_BADINPUT;
        }
        memcpy(tok, p, len);
        tok[len] = '\0';
        char *end;
        double x;
        if (inf_ok && (strcmp(tok, "inf") == 0 || strcmp(tok, "delay") == 0)) {
            x = INFINITY;
        } else {
            x = strtod(tok, &end);
            if (end == tok || *end != '\0' || isnan(x)) {
                free(v);
                fprintf(stderr, "zvmperf solve: error: --%s = %s: entry %zu ('%s') is not a "
                        "number (allowed range %s)\n", name, s, i + 1, tok, range);
                return EXIT_BADINPUT;
            }
            if (!isfinite(x) || x < lo || x > hi) {
                char msg[160];
                snprintf(msg, sizeof msg, "--%%s = %%s: entry %zu ('%s') is out of range %%s",
                         i + 1, tok);
                free(v);
                return bad(msg, name, s, range);
            }
        }
        v[i++] = x;
        if (!q)
            break;
        p = q + 1;
    }
    *out = v;
    *n = i;
    return 0;
}

/* --name = value has the wrong number of entries: n are allowed (why: e.g. one per station). */
static int wrong_count(const char *name, const char *value, size_t n, const char *why)
{
    char cnt[128];
    snprintf(cnt, sizeof cnt, "[%zu, %zu] entries (%s)", n, n, why);
    return bad("--%s = %s: wrong number of entries, allowed %s", name, value, cnt);
}

static void jnum(double v)
{
    if (!isfinite(v))
        fputs("null", stdout);
    else
        printf("%.17g", v);
}

static void jfield(int *first, const char *name, double v)
{
    printf("%s\"%s\": ", *first ? "" : ", ", name);
    jnum(v);
    *first = 0;
}

/* Opens one station's JSON object: {"U": u, "Q": q, "R": r, "X": x (left open). */
static void jstation_open(double u, double q, double r, double x)
{
    printf("{\"U\": ");
    jnum(u);
    printf(", \"Q\": ");
    jnum(q);
    printf(", \"R\": ");
    jnum(r);
    printf(", \"X\": ");
    jnum(x);
}

/* The JSON line of a single station (mm1 ... mminf, repairman): the station fields, then
 * "stations" with the one station. busy_servers and Pblock only where the kind has them. */
static void print_single_json(const char *kind, const zvp_station_result *r, int busy,
                              int loss, double pblock)
{
    int f = 1;
    printf("{\"kind\": \"%s\", ", kind);
    jfield(&f, "X", r->throughput_per_s);
    jfield(&f, "R", r->response_s);
    jfield(&f, "Q", r->mean_in_system);
    jfield(&f, "U", r->utilization);
    jfield(&f, "W", r->wait_s);
    jfield(&f, "Lq", r->mean_in_queue);
    if (busy)
        jfield(&f, "busy_servers", r->busy_servers);
    jfield(&f, "Pwait", r->pwait);
    if (loss)
        jfield(&f, "Pblock", pblock);
    printf(", \"stations\": [");
    jstation_open(r->utilization, r->mean_in_system, r->response_s, r->throughput_per_s);
    printf("}]}\n");
}

/* ---- single stations ---------------------------------------------------------------------- */

static int solve_single(const solve_opts *o)
{
    int rc;
    double lambda = 0, mu = 0, service;
    unsigned long c = 1, cap = 0;
    const int is = strcmp(o->kind, "mm1") == 0, ic = strcmp(o->kind, "mmc") == 0,
              ib = strcmp(o->kind, "erlang-b") == 0, i1k = strcmp(o->kind, "mm1k") == 0,
              ick = strcmp(o->kind, "mmck") == 0;
    if ((rc = opt_double(o->kind, "lambda", o->lambda, 0.0, DBL_MAX, 0, &lambda)))
        return rc;
    if (o->mu && o->service)
        return bad("options --%s and --%s are alternatives (mu = 1/service)%s: give one",
                   "mu", "service", "");
    if (o->mu || !o->service) {
        if ((rc = opt_double(o->kind, "mu", o->mu, 0.0, DBL_MAX, 1, &mu)))
            return rc;
    } else {
        if ((rc = opt_double(o->kind, "service", o->service, 0.0, DBL_MAX, 1, &service)))
            return rc;
        mu = 1.0 / service;
    }
    if (ic || ib || ick)
        if ((rc = opt_ulong(o->kind, "servers", o->servers, 1, ZVP_MAX_SERVERS, &c)))
            return rc;
    if (i1k || ick) {
        if ((rc = opt_ulong(o->kind, "capacity", o->capacity, c, ZVP_MAX_CUSTOMERS, &cap)))
            return rc;
    }
    zvp_station_result r;
    zvp_error e;
    double pblock = NAN;
    zvp_error_clear(&e);
    const char *label = is ? "M/M/1" : ic ? "M/M/c" : ib ? "M/M/c/c (Erlang B)" : i1k ? "M/M/1/K"
                                                   : ick ? "M/M/c/K" : "M/M/inf";
    if (is || ic)
        rc = zvp_mmc(lambda, mu, c, &r, &e);
    else if (ib)
        rc = zvp_mmck(lambda, mu, c, c, &r, &pblock, &e);
    else if (i1k || ick)
        rc = zvp_mmck(lambda, mu, c, cap, &r, &pblock, &e);
    else
        rc = zvp_mminf(lambda, mu, &r, &e);
    if (rc == ZVP_EUNSTABLE) {
        fprintf(stderr, "zvmperf solve: error: station 0 (%s) is saturated: %s\n", label,
                e.message);
        return EXIT_UNSTABLE;
    }
    if (rc)
        return lib_error(&e);
    const int loss = ib || i1k || ick;
    if (o->json) {
        print_single_json(o->kind, &r, 1, loss, pblock);
    } else {
        printf("%s: X = %.10g 1/s, U = %.10g, R = %.10g s, W = %.10g s, Q = %.10g, Lq = %.10g, "
               "Pwait = %.10g",
               label, r.throughput_per_s, r.utilization, r.response_s, r.wait_s, r.mean_in_system,
               r.mean_in_queue, r.pwait);
        if (loss)
            printf(", Pblock = %.10g", pblock);
        printf("\n");
    }
    return 0;
}

static int solve_repairman(const solve_opts *o)
{
    int rc;
    unsigned long n, c = 1;
    double z, s;
    if ((rc = opt_ulong(o->kind, "sources", o->sources, 0, ZVP_MAX_CUSTOMERS, &n)) ||
        (rc = opt_double(o->kind, "think", o->think, 0.0, DBL_MAX, 0, &z)) ||
        (rc = opt_double(o->kind, "service", o->service, 0.0, DBL_MAX, 1, &s)))
        return rc;
    if (o->servers && (rc = opt_ulong(o->kind, "servers", o->servers, 1, ZVP_MAX_SERVERS, &c)))
        return rc;
    zvp_station_result r;
    zvp_error e;
    if (zvp_repairman(n, z, s, c, &r, &e))
        return lib_error(&e);
    if (o->json) {
        print_single_json("repairman", &r, 0, 0, NAN);
    } else {
        printf("repairman: X = %.10g 1/s, U = %.10g (per server), R = %.10g s, W = %.10g s, "
               "Q = %.10g, Pwait = %.10g\n",
               r.throughput_per_s, r.utilization, r.response_s, r.wait_s, r.mean_in_system,
               r.pwait);
    }
    return 0;
}

/* ---- networks ----------------------------------------------------------------------------- */

typedef struct {
    size_t C, K;
    double *d;         /* [C*K] */
    zvp_station *st;   /* [K] */
} net;

static void net_free(net *n)
{
    free(n->d);
    free(n->st);
}

/* --demands "a,b;c,d" and --station-servers. */
static int parse_net(const solve_opts *o, net *n)
{
    int rc;
    memset(n, 0, sizeof *n);
    if (!o->demands)
        return missing(o->kind, "demands", "service demands D1,D2,... in s; classes separated by ';'");
    size_t C = 1;
    for (const char *p = o->demands; *p; p++)
        C += *p == ';';
    char *copy = malloc(strlen(o->demands) + 1);
    if (!copy)
        return 1;
    strcpy(copy, o->demands);
    char *save = copy;
    for (size_t c = 0; c < C; c++) {
        char *semi = strchr(save, ';');
        if (semi)
            *semi = '\0';
        double *v;
        size_t k;
        if ((rc = opt_list(o->kind, "demands", save, ',', 0.0, DBL_MAX, 0, &v, &k))) {
            free(copy);
            net_free(n);
            return rc;
        }
        if (c == 0) {
            n->K = k;
            n->d = malloc(C * k * sizeof(double));
            if (!n->d) {
                free(v);
                free(copy);
                return 1;
            }
        } else if (k != n->K) {
            char cnt[64];
            snprintf(cnt, sizeof cnt, "[%zu, %zu] (as class 1)", n->K, n->K);
            free(v);
            free(copy);
            net_free(n);
            return bad("--%s = %s: every class needs the same number of stations, allowed %s",
                       "demands", o->demands, cnt);
        }
        memcpy(n->d + c * n->K, v, k * sizeof(double));
        free(v);
        save = semi ? semi + 1 : save;
    }
    free(copy);
    n->C = C;
    n->st = calloc(n->K, sizeof(zvp_station));
    if (!n->st) {
        net_free(n);
        return 1;
    }
    double *m = NULL;
    size_t nm = 0;
    if (o->station_servers) {
        if ((rc = opt_list(o->kind, "station-servers", o->station_servers, ',', 1.0, ZVP_MAX_SERVERS, 1, &m,
                           &nm))) {
            net_free(n);
            return rc;
        }
        if (nm != n->K) {
            free(m);
            rc = wrong_count("station-servers", o->station_servers, n->K, "one per station");
            net_free(n);
            return rc;
        }
        for (size_t k = 0; k < nm; k++)
            if (isfinite(m[k]) && m[k] != floor(m[k])) {
                free(m);
                net_free(n);
                return bad("--%s = %s: entries must be integers in %s", "station-servers",
                           o->station_servers, "[1, 10000000] or inf");
            }
    }
    for (size_t k = 0; k < n->K; k++) {
        zvp_station *s = &n->st[k];
        s->replicas = 1;
        s->demand_s = n->d[k];
        double mk = m ? m[k] : 1.0;
        if (isinf(mk)) {
            s->kind = ZVP_STATION_DELAY;
        } else if (mk == 1.0) {
            s->kind = ZVP_STATION_QUEUE;
        } else {
            s->kind = ZVP_STATION_MULTI;
            s->servers = (int32_t)mk;
        }
    }
    free(m);
    return 0;
}

static void print_stations(const net *n, const double *u, const double *q, const double *r,
                            const double *x)
{
    printf(", \"stations\": [");
    for (size_t k = 0; k < n->K; k++) {
        printf("%s", k ? ", " : "");
        jstation_open(u[k], q[k], r[k], x[k]);
        printf(", \"servers\": ");
        if (n->st[k].kind == ZVP_STATION_DELAY)
            printf("\"inf\"");
        else
            printf("%d", n->st[k].kind == ZVP_STATION_MULTI ? (int)n->st[k].servers : 1);
        printf("}");
    }
    printf("]");
}

static void print_stations_text(const net *n, const double *u, const double *q, const double *r)
{
    for (size_t k = 0; k < n->K; k++)
        printf("  station %zu: U = %.10g, Q = %.10g, R = %.10g s\n", k, u[k], q[k], r[k]);
}

static int solve_open(const solve_opts *o)
{
    int rc;
    net n;
    if ((rc = parse_net(o, &n)))
        return rc;
    double *lam = NULL;
    size_t nl;
    if ((rc = opt_list(o->kind, "lambda", o->lambda, ',', 0.0, DBL_MAX, 0, &lam, &nl))) {
        net_free(&n);
        return rc;
    }
    if (nl != n.C) {
        rc = wrong_count("lambda", o->lambda, n.C, "one per class of --demands");
        free(lam);
        net_free(&n);
        return rc;
    }
    const size_t K = n.K, C = n.C;
    double *rck = malloc(C * K * sizeof(double)), *qck = malloc(C * K * sizeof(double));
    double *u = malloc(K * sizeof(double)), *rc_ = malloc(C * sizeof(double));
    double *qk = calloc(K, sizeof(double)), *rk = calloc(K, sizeof(double));
    double *xk = calloc(K, sizeof(double));
    zvp_open_result res = {0, 0, 0, rc_, rck, qck, u};
    zvp_error e;
    if (!rck || !qck || !u || !rc_ || !qk || !rk || !xk) {
        rc = 1;
    } else if (zvp_open_network(n.st, K, n.d, lam, C, &res, &e)) {
        rc = lib_error(&e);
    } else {
        for (size_t k = 0; k < K; k++) {
            for (size_t c = 0; c < C; c++)
                qk[k] += qck[c * K + k];
            xk[k] = res.throughput_per_s;
            rk[k] = xk[k] > 0 ? qk[k] / xk[k] : 0.0;
            if (!(xk[k] > 0))
                for (size_t c = 0; c < C; c++)
                    rk[k] += rck[c * K + k] / (double)C;
        }
        if (o->json) {
            int f = 1;
            printf("{\"kind\": \"open\", ");
            jfield(&f, "X", res.throughput_per_s);
            jfield(&f, "R", res.response_s);
            jfield(&f, "Q", res.mean_in_system);
            printf(", \"classes\": [");
            for (size_t c = 0; c < C; c++) {
                printf("%s{\"X\": ", c ? ", " : "");
                jnum(lam[c]);
                printf(", \"R\": ");
                jnum(rc_[c]);
                printf("}");
            }
            printf("]");
            print_stations(&n, u, qk, rk, xk);
            printf("}\n");
        } else {
            printf("open network: X = %.10g 1/s, R = %.10g s, Q = %.10g\n", res.throughput_per_s,
                   res.response_s, res.mean_in_system);
            print_stations_text(&n, u, qk, rk);
        }
    }
    free(rck);
    free(qck);
    free(u);
    free(rc_);
    free(qk);
    free(rk);
    free(xk);
    free(lam);
    net_free(&n);
    return rc;
}

static int parse_method(const solve_opts *o, int *method)
{
    if (!o->method || strcmp(o->method, "exact") == 0)
        *method = 0;
    else if (strcmp(o->method, "schweitzer") == 0)
        *method = ZVP_MVA_SCHWEITZER;
    else if (strcmp(o->method, "bard") == 0)
        *method = ZVP_MVA_BARD;
    else
        return bad("--%s = %s is not one of %s", "method", o->method, "exact|schweitzer|bard");
    return 0;
}

/* mva and mva-multi share this: C classes (mva: exactly 1). */
static int solve_closed(const solve_opts *o, int multi)
{
    int rc, method;
    net n;
    if ((rc = parse_method(o, &method)))
        return rc;
    if ((rc = parse_net(o, &n)))
        return rc;
    const size_t K = n.K, C = n.C;
    double *users = NULL, *think = NULL;
    size_t nu = 0, nz = 0;
    rc = 0;
    if (!multi && C != 1)
        rc = bad("--%s = %s: kind mva takes one class; allowed %s", "demands", o->demands,
                 "[1, 1] classes (use mva-multi)");
    if (!rc)
        rc = opt_list(o->kind, "users", o->users, ',', 0.0, (double)ZVP_MAX_CUSTOMERS, 0, &users, &nu);
    if (!rc) {
        if (o->think)
            rc = opt_list(o->kind, "think", o->think, ',', 0.0, DBL_MAX, 0, &think, &nz);
        else if ((think = calloc(C, sizeof(double))))
            nz = C;
    }
    if (!rc && nu != C)
        rc = wrong_count("users", o->users, C, "one per class of --demands");
    for (size_t c = 0; !rc && c < nu; c++)
        if (users[c] != floor(users[c]))
            rc = bad("--%s = %s: entries must be integers in %s", "users", o->users,
                     "[0, 100000000]");
    if (!rc && nz == 1 && C > 1) {
        double z0 = think[0];
        free(think);
        think = malloc(C * sizeof(double));
        if (think)
            for (size_t c = 0; c < C; c++)
                think[c] = z0;
        nz = C;
    }
    if (!rc && nz != C) {
        char cnt[64];
        snprintf(cnt, sizeof cnt, "[1 or %zu] entries (one per class, or one for all)", C);
        rc = bad("--%s = %s: wrong number of entries, allowed %s", "think", o->think, cnt);
    }
    if (!rc && method == 0 && (o->tolerance || o->max_iterations))
        rc = bad("option --%s applies only to an approximate method (%s), not to --method "
                 "exact%s", o->tolerance ? "tolerance" : "max-iterations",
                 "--method schweitzer or bard", "");
    double tol = 0.0;
    unsigned long maxit = 0;
    if (!rc && o->tolerance)
        rc = opt_double(o->kind, "tolerance", o->tolerance, 0.0, 0.5, 1, &tol);
    if (!rc && o->max_iterations)
        rc = opt_ulong(o->kind, "max-iterations", o->max_iterations, 1, 4294967295UL, &maxit);
    if (rc) {
        free(users);
        free(think);
        net_free(&n);
        return rc;
    }
    unsigned long *nn = malloc(C * sizeof(unsigned long));
    double *x = malloc(C * sizeof(double)), *r = malloc(C * sizeof(double));
    double *rck = malloc(C * K * sizeof(double) + 1), *qck = malloc(C * K * sizeof(double) + 1);
    double *uck = malloc(C * K * sizeof(double) + 1);
    double *qk = calloc(K + 1, sizeof(double)), *rk = calloc(K + 1, sizeof(double));
    double *uk = calloc(K + 1, sizeof(double)), *xk = calloc(K + 1, sizeof(double));
    zvp_error e;
    zvp_error_clear(&e);
    zvp_mva_approx_info info = {0, 1, 0, 0, 0, 0};
    int status = ZVP_SUCCESS;
    if (!nn || !x || !r || !rck || !qck || !uck || !qk || !rk || !uk || !xk) {
        rc = 1;
        goto done;
    }
    for (size_t c = 0; c < C; c++)
        nn[c] = (unsigned long)users[c];
    if (method == 0 && C == 1) {
        /* exact single class, multi-server stations exact (mva.c) */
        zvp_mva_result res = {0, 0, rck, qck, uck};
        status = zvp_mva_exact(n.st, K, think[0], nn[0], &res, NULL, &e);
        x[0] = res.throughput_per_s;
        r[0] = res.response_s;
    } else if (method == 0) {
        zvp_mva_multi_result res = {x, r, rck, qck, uck};
        status = zvp_mva_multi_exact(n.st, K, n.d, think, nn, C, &res, &e);
    } else {
        zvp_mva_multi_result res = {x, r, rck, qck, uck};
        zvp_mva_approx_options opt = {method, (uint32_t)maxit, tol};
        status = zvp_mva_approx(n.st, K, n.d, think, nn, C, &opt, &res, &info, &e);
    }
    if (status != ZVP_SUCCESS && status != ZVP_EMAXITER) {
        rc = lib_error(&e);
        goto done;
    }
    double xs = 0.0, rw = 0.0, qs = 0.0;
    for (size_t c = 0; c < C; c++) {
        xs += x[c];
        rw += x[c] * r[c];
    }
    for (size_t k = 0; k < K; k++) {
        for (size_t c = 0; c < C; c++) {
            qk[k] += qck[c * K + k];
            uk[k] += uck[c * K + k];
        }
        xk[k] = xs;
        rk[k] = xs > 0 ? qk[k] / xs : rck[k];
        qs += qk[k];
    }
    const double rsys = xs > 0 ? rw / xs : r[0];
    const char *mname = method == 0 ? "exact" : method == ZVP_MVA_SCHWEITZER ? "schweitzer" : "bard";
    if (o->json) {
        int f = 1;
        printf("{\"kind\": \"%s\", ", multi ? "mva-multi" : "mva");
        jfield(&f, "X", xs);
        jfield(&f, "R", rsys);
        jfield(&f, "Q", qs);
        printf(", \"method\": \"%s\", \"multiserver\": \"%s\"", mname,
               info.multiserver_seidmann ? "seidmann (approximate)" : "exact");
        if (method != 0)
            printf(", \"iterations\": %u, \"tolerance\": %.17g, \"max_change\": %.17g, "
                   "\"converged\": %s",
                   (unsigned)info.iterations, info.tolerance, info.max_change,
                   info.converged ? "true" : "false");
        printf(", \"classes\": [");
        for (size_t c = 0; c < C; c++) {
            printf("%s{\"N\": %lu, \"X\": ", c ? ", " : "", nn[c]);
            jnum(x[c]);
            printf(", \"R\": ");
            jnum(r[c]);
            printf("}");
        }
        printf("]");
        print_stations(&n, uk, qk, rk, xk);
        printf("}\n");
    } else {
        printf("%s (%s%s): X = %.10g 1/s, R = %.10g s, Q = %.10g\n", multi ? "mva-multi" : "mva",
               mname, info.multiserver_seidmann ? ", multi-server stations by Seidmann" : "", xs,
               rsys, qs);
        if (method != 0)
            printf("  iterations = %u, tolerance = %.3g, max change = %.3g, converged = %s\n",
                   (unsigned)info.iterations, info.tolerance, info.max_change,
                   info.converged ? "yes" : "no");
        print_stations_text(&n, uk, qk, rk);
    }
    if (status == ZVP_EMAXITER) {
        fprintf(stderr, "zvmperf solve: error: %s; the figures printed are the last iterate, not "
                "a solution (exit status 1: no convergence)\n", e.message);
        rc = 1;
    }
done:
    free(nn);
    free(x);
    free(r);
    free(rck);
    free(qck);
    free(uck);
    free(qk);
    free(rk);
    free(uk);
    free(xk);
    free(users);
    free(think);
    net_free(&n);
    return rc;
}

static int solve_bounds(const solve_opts *o)
{
    int rc;
    net n;
    unsigned long users;
    double z = 0.0;
    if ((rc = parse_net(o, &n)))
        return rc;
    if (n.C != 1) {
        net_free(&n);
        return bad("--%s = %s: bounds take one class; allowed %s", "demands", o->demands,
                   "[1, 1] classes");
    }
    if ((rc = opt_ulong(o->kind, "users", o->users, 1, ZVP_MAX_CUSTOMERS, &users)) ||
        (o->think && (rc = opt_double(o->kind, "think", o->think, 0.0, DBL_MAX, 0, &z)))) {
        net_free(&n);
        return rc;
    }
    zvp_bounds_result b;
    zvp_error e;
    if (zvp_mva_bounds(n.st, n.K, z, users, &b, &e)) {
        net_free(&n);
        return lib_error(&e);
    }
    if (o->json) {
        int f = 1;
        printf("{\"kind\": \"bounds\", ");
        jfield(&f, "X_upper", b.x_upper_per_s);
        jfield(&f, "X_lower", b.x_lower_per_s);
        jfield(&f, "R_lower", b.r_lower_s);
        jfield(&f, "R_upper", b.r_upper_s);
        jfield(&f, "X_upper_bjb", b.bjb_x_upper_per_s);
        jfield(&f, "X_lower_bjb", b.bjb_x_lower_per_s);
        jfield(&f, "N_star", b.saturation_customers);
        jfield(&f, "D", b.total_demand_s);
        jfield(&f, "D_max", b.max_demand_s);
        printf(", \"bjb_valid\": %s}\n", b.bjb_valid ? "true" : "false");
    } else {
        printf("bounds (N = %lu): %.10g <= X <= %.10g 1/s (ABA); %.10g <= X <= %.10g (BJB%s); "
               "%.10g <= R <= %.10g s; N* = %.10g\n",
               users, b.x_lower_per_s, b.x_upper_per_s, b.bjb_x_lower_per_s, b.bjb_x_upper_per_s,
               b.bjb_valid ? "" : ", not valid with multi-server stations: ABA repeated",
               b.r_lower_s, b.r_upper_s, b.saturation_customers);
    }
    net_free(&n);
    return 0;
}

static int solve_usl(const solve_opts *o)
{
    int rc;
    zvp_error e;
    if (o->data) {
        size_t np = 1;
        for (const char *p = o->data; *p; p++)
            np += *p == ',';
        double *n = malloc(np * sizeof(double)), *x = malloc(np * sizeof(double));
        if (!n || !x) {
            free(n);
            free(x);
            return 1;
        }
        const char *p = o->data;
        for (size_t i = 0; i < np; i++) {
            char *end;
            n[i] = strtod(p, &end);
            int pair = end != p && *end == ':';
            if (pair) {
                p = end + 1;
                x[i] = strtod(p, &end);
                pair = end != p && (*end == ',' || *end == '\0');
            }
            if (!pair) {
                free(n);
                free(x);
                return bad("--%s = %s: entries must be N:X pairs, N in %s", "data", o->data,
                           "[1, 1.7976931348623157e+308], X in [0, 1.7976931348623157e+308]");
            }
            p = end + 1;
        }
        if (np < 3) {
            free(n);
            free(x);
            fprintf(stderr, "zvmperf solve: error: --data = %s has %zu point%s: at least 3 points "
                    "(N:X pairs with at least 3 distinct N) are needed to fit gamma, alpha and "
                    "beta\n", o->data, np, np == 1 ? "" : "s");
            return EXIT_BADINPUT;
        }
        size_t distinct = 1;
        for (size_t i = 1, j2 = 0; i < np && distinct < 3; i++) {
            if (n[i] == n[0] || (j2 && n[i] == n[j2]))
                continue;
            if (!j2)
                j2 = i;
            distinct++;
        }
        if (distinct < 3) {
            free(n);
            free(x);
            fprintf(stderr, "zvmperf solve: error: --data = %s has %zu distinct N: at least 3 "
                    "distinct N are needed to identify alpha and beta\n", o->data, distinct);
            return EXIT_BADINPUT;
        }
        zvp_usl_fit_result f;
        zvp_error_clear(&e);
        rc = zvp_usl_fit(n, x, np, &f, &e);
        free(n);
        free(x);
        if (rc) {
            fprintf(stderr, "zvmperf solve: error: --data: %s (%s)\n",
                    e.message[0] ? e.message : "fit failed", zvp_strerror(e.status));
            return e.status == ZVP_EINVAL ? EXIT_BADINPUT : 1;
        }
        if (o->json) {
            int fi = 1;
            printf("{\"kind\": \"usl\", ");
            jfield(&fi, "gamma", f.gamma);
            jfield(&fi, "alpha", f.alpha);
            jfield(&fi, "beta", f.beta);
            jfield(&fi, "gamma_se", f.gamma_se);
            jfield(&fi, "alpha_se", f.alpha_se);
            jfield(&fi, "beta_se", f.beta_se);
            jfield(&fi, "N_peak", f.n_peak);
            jfield(&fi, "X_peak", f.x_peak);
            jfield(&fi, "rss", f.rss);
            printf(", \"iterations\": %u}\n", (unsigned)f.iterations);
        } else {
            printf("usl fit: gamma = %.10g +- %.3g, alpha = %.10g +- %.3g, beta = %.10g +- %.3g; "
                   "peak N* = %.10g, X* = %.10g\n",
                   f.gamma, f.gamma_se, f.alpha, f.alpha_se, f.beta, f.beta_se, f.n_peak, f.x_peak);
        }
        return 0;
    }
    double g, a, b, nusers = 1.0, x, np, xp;
    if ((rc = opt_double(o->kind, "gamma", o->gamma, 0.0, DBL_MAX, 0, &g)) ||
        (rc = opt_double(o->kind, "alpha", o->alpha, 0.0, DBL_MAX, 0, &a)) ||
        (rc = opt_double(o->kind, "beta", o->beta, 0.0, DBL_MAX, 0, &b)))
        return rc;
    if (o->users && (rc = opt_double(o->kind, "users", o->users, 1.0, DBL_MAX, 0, &nusers)))
        return rc;
    if (zvp_usl_eval(nusers, g, a, b, &x, &e) || zvp_usl_peak(g, a, b, &np, &xp, &e))
        return lib_error(&e);
    if (o->json) {
        int f = 1;
        printf("{\"kind\": \"usl\", ");
        jfield(&f, "N", nusers);
        jfield(&f, "X", x);
        jfield(&f, "N_peak", np);
        jfield(&f, "X_peak", xp);
        printf("}\n");
    } else {
        printf("usl: X(%.10g) = %.10g; peak N* = %.10g, X* = %.10g\n", nusers, x, np, xp);
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: zvmperf solve KIND [options] [--json]\n"
            "  mm1|mminf       --lambda R (--mu R | --service S)\n"
            "  mmc|erlang-b    --lambda R (--mu R | --service S) --servers C\n"
            "  mm1k            --lambda R (--mu R | --service S) --capacity K\n"
            "  mmck            --lambda R (--mu R | --service S) --servers C --capacity K\n"
            "  repairman       --sources N --think Z --service S [--servers C]\n"
            "  open            --lambda L1[,L2...] --demands D1,D2[;D1,D2...] [--station-servers M1,M2]\n"
            "  mva             --users N [--think Z] --demands D1,D2,... [--station-servers M1,...]\n"
            "                  [--method exact|schweitzer|bard] [--tolerance T] [--max-iterations I]\n"
            "                  (--tolerance and --max-iterations with schweitzer or bard only)\n"
            "  mva-multi       --users N1,N2 [--think Z1,Z2] --demands D11,D12;D21,D22\n"
            "                  [--station-servers M1,...] [--method ...] [--tolerance T] [--max-iterations I]\n"
            "  bounds          --users N [--think Z] --demands D1,... [--station-servers M1,...]\n"
            "  usl             --gamma G --alpha A --beta B [--users N]   |   --data N1:X1,N2:X2,...\n"
            "                  (fit: at least 3 points with at least 3 distinct N)\n"
            "Each option at most once; an option the KIND does not take is an error.\n"
            "Station servers: 1 queue, m >= 2 multi-server, inf delay (an m-server station with\n"
            "m >= users is exactly a delay station). Exact MVA work is limited to %lu steps\n"
            "(users x servers); beyond it use fewer servers or --method schweitzer|bard.\n"
            "Exit status: 0 ok; 1 no convergence (approximate MVA: figures still printed; USL\n"
            "fit) or an I/O or memory failure; 2 bad input (option, value and allowed range named);\n"
            "3 no steady state (the saturated station named).\n",
            ZVP_QUEUE_MAX_WORK);
}

/* Options each KIND takes (besides --json). */
static const struct {
    const char *kind;
    const char *opts; /* space-separated */
} kind_opts[] = {
    {"mm1", "lambda mu service"},
    {"mmc", "lambda mu service servers"},
    {"erlang-b", "lambda mu service servers"},
    {"mm1k", "lambda mu service capacity"},
    {"mmck", "lambda mu service servers capacity"},
    {"mminf", "lambda mu service"},
    {"repairman", "sources think service servers"},
    {"open", "lambda demands station-servers"},
    {"mva", "users think demands station-servers method tolerance max-iterations"},
    {"mva-multi", "users think demands station-servers method tolerance max-iterations"},
    {"bounds", "users think demands station-servers"},
    {"usl", "gamma alpha beta users data"},
};

static int kind_takes(const char *opts, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = opts; *p;) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

static int not_taken(const char *kind, const char *opts, const char *name)
{
    fprintf(stderr, "zvmperf solve: error: option --%s does not apply to kind %s (kind %s takes:",
            name, kind, kind);
    for (const char *p = opts; *p;) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        fprintf(stderr, " --%.*s", (int)len, p);
        if (!e)
            break;
        p = e + 1;
    }
    fprintf(stderr, " --json)\n");
    return EXIT_BADINPUT;
}

int zvp_cli_solve(int argc, char **argv)
{
    solve_opts o;
    memset(&o, 0, sizeof o);
    if (argc < 1) {
        usage(stderr);
        return EXIT_BADINPUT;
    }
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    o.kind = argv[0];
    const char *kopts = NULL;
    for (size_t i = 0; i < sizeof kind_opts / sizeof kind_opts[0]; i++)
        if (strcmp(kind_opts[i].kind, o.kind) == 0)
            kopts = kind_opts[i].opts;
    if (!kopts) {
        fprintf(stderr, "zvmperf solve: error: unknown KIND '%s' (allowed: mm1, mmc, erlang-b, "
                "mm1k, mmck, mminf, repairman, open, mva, mva-multi, bounds, usl)\n", o.kind);
        return EXIT_BADINPUT;
    }
    static const struct {
        const char *name;
        size_t off;
    } table[] = {
        {"lambda", offsetof(solve_opts, lambda)},
        {"mu", offsetof(solve_opts, mu)},
        {"servers", offsetof(solve_opts, servers)},
        {"capacity", offsetof(solve_opts, capacity)},
        {"sources", offsetof(solve_opts, sources)},
        {"think", offsetof(solve_opts, think)},
        {"service", offsetof(solve_opts, service)},
        {"demands", offsetof(solve_opts, demands)},
        {"users", offsetof(solve_opts, users)},
        {"station-servers", offsetof(solve_opts, station_servers)},
        {"method", offsetof(solve_opts, method)},
        {"tolerance", offsetof(solve_opts, tolerance)},
        {"max-iterations", offsetof(solve_opts, max_iterations)},
        {"gamma", offsetof(solve_opts, gamma)},
        {"alpha", offsetof(solve_opts, alpha)},
        {"beta", offsetof(solve_opts, beta)},
        {"data", offsetof(solve_opts, data)},
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0) {
            if (o.json) {
                fprintf(stderr, "zvmperf solve: error: option --json is given twice: give it "
                        "once\n");
                return EXIT_BADINPUT;
            }
            o.json = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "zvmperf solve: error: unexpected argument '%s' (options start with --)\n", a);
            return EXIT_BADINPUT;
        }
        const char *name = a + 2, *val = NULL;
        size_t nlen = strlen(name);
        const char *eq = strchr(name, '=');
        if (eq) {
            nlen = (size_t)(eq - name);
            val = eq + 1;
        }
        size_t t;
        for (t = 0; t < sizeof table / sizeof table[0]; t++)
            if (strlen(table[t].name) == nlen && strncmp(table[t].name, name, nlen) == 0)
                break;
        if (t == sizeof table / sizeof table[0]) {
            fprintf(stderr, "zvmperf solve: error: unknown option '%s'\n", a);
            return EXIT_BADINPUT;
        }
        if (!kind_takes(kopts, table[t].name))
            return not_taken(o.kind, kopts, table[t].name);
        if (!val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "zvmperf solve: error: option --%s needs a value\n", table[t].name);
                return EXIT_BADINPUT;
            }
            val = argv[++i];
        }
        const char **slot = (const char **)((char *)&o + table[t].off);
        if (*slot) {
            fprintf(stderr, "zvmperf solve: error: option --%s is given twice for kind %s "
                    "(first '%s', then '%s'): give it once\n", table[t].name, o.kind, *slot, val);
            return EXIT_BADINPUT;
        }
        *slot = val;
    }
    const char *k = o.kind;
    if (!strcmp(k, "usl") && o.data && (o.gamma || o.alpha || o.beta || o.users)) {
        fprintf(stderr, "zvmperf solve: error: option --%s does not apply to kind usl with --data "
                "(the fit takes only --data; evaluation takes --gamma --alpha --beta [--users])\n",
                o.gamma ? "gamma" : o.alpha ? "alpha" : o.beta ? "beta" : "users");
        return EXIT_BADINPUT;
    }
    if (!strcmp(k, "mm1") || !strcmp(k, "mmc") || !strcmp(k, "erlang-b") || !strcmp(k, "mm1k") ||
        !strcmp(k, "mmck") || !strcmp(k, "mminf"))
        return solve_single(&o);
    if (!strcmp(k, "repairman"))
        return solve_repairman(&o);
    if (!strcmp(k, "open"))
        return solve_open(&o);
    if (!strcmp(k, "mva"))
        return solve_closed(&o, 0);
    if (!strcmp(k, "mva-multi"))
        return solve_closed(&o, 1);
    if (!strcmp(k, "bounds"))
        return solve_bounds(&o);
    return solve_usl(&o);
}
