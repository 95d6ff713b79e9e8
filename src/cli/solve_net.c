/*
 * src/cli/solve_net.c - solve kinds of queueing networks: open (multiclass open network),
 * mva and mva-multi (closed networks: exact or approximate MVA), bounds (ABA and BJB).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solve.h"

typedef struct net {
    size_t C, K;
    double *d;       /* [C*K] demands, s */
    zvp_station *st; /* [K] */
} net;

static void net_free(net *n)
{
    free(n->d);
    free(n->st);
    n->d = NULL;
    n->st = NULL;
}

/* The demands of one class (one ';'-separated part of --demands) into n->d. */
static int parse_class(const solve_opts *o, net *n, size_t c, const char *part)
{
    double *v;
    size_t k;
    int rc = solve_list(o, "demands", part, ',', 0.0, DBL_MAX, 0, &v, &k);
    if (rc)
        return rc;
    if (c == 0) {
        n->K = k;
        n->d = malloc(n->C * k * sizeof(double));
        if (!n->d)
            rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
    } else if (k != n->K) {
        char cnt[64];
        snprintf(cnt, sizeof cnt, "[%zu, %zu] (as class 1)", n->K, n->K);
        rc = solve_bad(o, "--%s = %s: every class needs the same number of stations, allowed %s",
                       "demands", o->v[S_DEMANDS], cnt);
    }
    if (!rc)
        memcpy(n->d + c * n->K, v, k * sizeof(double));
    free(v);
    return rc;
}

/* --station-servers into the station kinds (default: every station a queue). */
static int parse_servers(const solve_opts *o, net *n)
{
    double *m = NULL;
    size_t nm = 0;
    int rc = 0;
    const char *ss = o->v[S_STATION_SERVERS];
    if (ss && (rc = solve_list(o, "station-servers", ss, ',', 1.0, ZVP_MAX_SERVERS, 1, &m, &nm)))
        return rc;
    if (ss && nm != n->K)
        rc = solve_wrong_count(o, "station-servers", ss, n->K, "one per station");
    for (size_t k = 0; !rc && ss && k < nm; k++)
        if (isfinite(m[k]) && m[k] != floor(m[k]))
            rc = solve_bad(o, "--%s = %s: entries must be integers in %s", "station-servers", ss,
                           "[1, 10000000] or inf");
    for (size_t k = 0; !rc && k < n->K; k++) {
        zvp_station *s = &n->st[k];
        double mk = m ? m[k] : 1.0;
        s->replicas = 1;
        s->demand_s = n->d[k];
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
    return rc;
}

/* --demands "a,b;c,d" and --station-servers. */
static int parse_net(const solve_opts *o, net *n)
{
    int rc = 0;
    memset(n, 0, sizeof *n);
    if (!o->v[S_DEMANDS])
        return solve_missing(o, "demands", "service demands D1,D2,... in s; classes separated by "
                             "';'");
    n->C = 1;
    for (const char *p = o->v[S_DEMANDS]; *p; p++)
        n->C += *p == ';';
    char *copy = malloc(strlen(o->v[S_DEMANDS]) + 1);
    if (!copy)
        return cli_error(o->c, ZVP_ENOMEM, "out of memory");
    strcpy(copy, o->v[S_DEMANDS]);
    char *part = copy;
    for (size_t c = 0; !rc && c < n->C; c++) {
        char *semi = strchr(part, ';');
        if (semi)
            *semi = '\0';
        rc = parse_class(o, n, c, part);
        part = semi ? semi + 1 : part;
    }
    free(copy);
    if (!rc && (n->st = calloc(n->K, sizeof(zvp_station))) == NULL)
        rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
    if (!rc)
        rc = parse_servers(o, n);
    if (rc)
        net_free(n);
    return rc;
}

/* "stations": [{"U", "Q", "R", "X", "servers"}] */
static json_t *stations_json(const net *n, const double *u, const double *q, const double *r,
                             const double *x)
{
    json_t *a = json_array();
    for (size_t k = 0; a && k < n->K; k++) {
        json_t *s = solve_station_json(u[k], q[k], r[k], x[k]);
        if (n->st[k].kind == ZVP_STATION_DELAY)
            cli_json_set(s, "servers", json_string("inf"));
        else
            cli_json_set(s, "servers", json_integer(n->st[k].kind == ZVP_STATION_MULTI
                                                        ? (json_int_t)n->st[k].servers
                                                        : 1));
        json_array_append_new(a, s);
    }
    return a;
}

static void print_stations_text(const net *n, const double *u, const double *q, const double *r)
{
    for (size_t k = 0; k < n->K; k++)
        printf("  station %zu: U = %.10g, Q = %.10g, R = %.10g s\n", k, u[k], q[k], r[k]);
}

/* Per-class results and per-station totals of a solved network: arrays of one block. */
typedef struct figures {
    double *x, *r;              /* [C] per class */
    double *rck, *qck, *uck;    /* [C*K] */
    double *qk, *rk, *uk, *xk;  /* [K] station totals */
    double *block;
} figures;

static int figures_alloc(figures *f, size_t C, size_t K)
{
    size_t n = 2 * C + 3 * C * K + 4 * K + 1;
    f->block = calloc(n, sizeof(double));
    if (!f->block)
        return -1;
    f->x = f->block;
    f->r = f->x + C;
    f->rck = f->r + C;
    f->qck = f->rck + C * K;
    f->uck = f->qck + C * K;
    f->qk = f->uck + C * K;
    f->rk = f->qk + K;
    f->uk = f->rk + K;
    f->xk = f->uk + K;
    return 0;
}

int solve_open(const solve_opts *o)
{
    int rc;
    net n;
    figures f;
    double *lam = NULL;
    size_t nl;
    zvp_error e;
    if ((rc = parse_net(o, &n)))
        return rc;
    if ((rc = solve_list(o, "lambda", o->v[S_LAMBDA], ',', 0.0, DBL_MAX, 0, &lam, &nl)) == 0 &&
        nl != n.C)
        rc = solve_wrong_count(o, "lambda", o->v[S_LAMBDA], n.C, "one per class of --demands");
    const size_t K = n.K, C = n.C;
    if (!rc && figures_alloc(&f, C, K) != 0)
        rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
    if (rc) {
        free(lam);
        net_free(&n);
        return rc;
    }
    zvp_open_result res = {0, 0, 0, f.r, f.rck, f.qck, f.uk};
    zvp_error_clear(&e);
    if (zvp_open_network(n.st, K, n.d, lam, C, &res, &e)) {
        rc = cli_lib_error(o->c, &e);
    } else {
        for (size_t k = 0; k < K; k++) {
            for (size_t c = 0; c < C; c++)
                f.qk[k] += f.qck[c * K + k];
            f.xk[k] = res.throughput_per_s;
            f.rk[k] = f.xk[k] > 0 ? f.qk[k] / f.xk[k] : 0.0;
            if (!(f.xk[k] > 0))
                for (size_t c = 0; c < C; c++)
                    f.rk[k] += f.rck[c * K + k] / (double)C;
        }
        if (o->json) {
            json_t *d = solve_doc(o), *cl = json_array();
            cli_json_set(d, "X", cli_json_qty(res.throughput_per_s, "1/s", NULL));
            cli_json_set(d, "R", cli_json_qty(res.response_s, "s", NULL));
            cli_json_set(d, "Q", cli_json_qty(res.mean_in_system, "1", NULL));
            for (size_t c = 0; cl && c < C; c++)
                json_array_append_new(cl, json_pack("{s:o, s:o}", "X",
                                                    cli_json_qty(lam[c], "1/s", NULL), "R",
                                                    cli_json_qty(f.r[c], "s", NULL)));
            cli_json_set(d, "classes", cl);
            cli_json_set(d, "stations", stations_json(&n, f.uk, f.qk, f.rk, f.xk));
            rc = cli_json_print(d);
        } else {
            printf("open network: X = %.10g 1/s, R = %.10g s, Q = %.10g\n", res.throughput_per_s,
                   res.response_s, res.mean_in_system);
            print_stations_text(&n, f.uk, f.qk, f.rk);
        }
    }
    free(f.block);
    free(lam);
    net_free(&n);
    return rc;
}

/* ---- closed networks ------------------------------------------------------------------- */

typedef struct closed_in {
    int method;            /* 0 exact, ZVP_MVA_SCHWEITZER, ZVP_MVA_BARD */
    double *users, *think; /* [C] */
    unsigned long *nn;     /* [C] users as integers */
    double tol;
    unsigned long maxit;
} closed_in;

static void closed_in_free(closed_in *in)
{
    free(in->users);
    free(in->think);
    free(in->nn);
}

static int parse_method(const solve_opts *o, int *method)
{
    const char *m = o->v[S_METHOD];
    if (!m || strcmp(m, "exact") == 0)
        *method = 0;
    else if (strcmp(m, "schweitzer") == 0)
        *method = ZVP_MVA_SCHWEITZER;
    else if (strcmp(m, "bard") == 0)
        *method = ZVP_MVA_BARD;
    else
        return solve_bad(o, "--%s = %s is not one of %s", "method", m, "exact|schweitzer|bard");
    return 0;
}

/* --users, --think, --tolerance, --max-iterations of a closed network with C classes. */
static int parse_closed(const solve_opts *o, size_t C, closed_in *in)
{
    size_t nu = 0, nz = 0;
    int rc = solve_list(o, "users", o->v[S_USERS], ',', 0.0, (double)ZVP_MAX_CUSTOMERS, 0,
                        &in->users, &nu);
    if (!rc && o->v[S_THINK])
        rc = solve_list(o, "think", o->v[S_THINK], ',', 0.0, DBL_MAX, 0, &in->think, &nz);
    else if (!rc && (in->think = calloc(C, sizeof(double))) != NULL)
        nz = C;
    if (!rc && nu != C)
        rc = solve_wrong_count(o, "users", o->v[S_USERS], C, "one per class of --demands");
    for (size_t c = 0; !rc && c < nu; c++)
        if (in->users[c] != floor(in->users[c]))
            rc = solve_bad(o, "--%s = %s: entries must be integers in %s", "users", o->v[S_USERS],
                           "[0, 100000000]");
    if (!rc && nz == 1 && C > 1) {
        double *t = realloc(in->think, C * sizeof(double));
        if (!t)
            return cli_error(o->c, ZVP_ENOMEM, "out of memory");
        in->think = t;
        for (size_t c = 1; c < C; c++)
            t[c] = t[0];
        nz = C;
    }
    if (!rc && nz != C) {
        char cnt[64];
        snprintf(cnt, sizeof cnt, "[1 or %zu] entries (one per class, or one for all)", C);
        rc = solve_bad(o, "--%s = %s: wrong number of entries, allowed %s", "think",
                       o->v[S_THINK], cnt);
    }
    if (!rc && in->method == 0 && (o->v[S_TOLERANCE] || o->v[S_MAX_ITERATIONS]))
        rc = solve_bad(o, "option --%s applies only to an approximate method (%s), not to "
                       "--method exact%s", o->v[S_TOLERANCE] ? "tolerance" : "max-iterations",
                       "--method schweitzer or bard", "");
    if (!rc && o->v[S_TOLERANCE])
        rc = solve_double(o, "tolerance", o->v[S_TOLERANCE], 0.0, 0.5, 1, &in->tol);
    if (!rc && o->v[S_MAX_ITERATIONS])
        rc = solve_ulong(o, "max-iterations", o->v[S_MAX_ITERATIONS], 1, 4294967295UL, &in->maxit);
    if (!rc && (in->nn = malloc(C * sizeof(unsigned long))) == NULL)
        rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
    for (size_t c = 0; !rc && c < C; c++)
        in->nn[c] = (unsigned long)in->users[c];
    return rc;
}

static const char *method_name(int method)
{
    return method == 0 ? "exact" : method == ZVP_MVA_SCHWEITZER ? "schweitzer" : "bard";
}

/* Print a solved closed network (JSON or text); returns the exit status. */
static int print_closed(const solve_opts *o, const net *n, const closed_in *in, figures *f,
                        const zvp_mva_approx_info *info)
{
    const size_t K = n->K, C = n->C;
    double xs = 0.0, rw = 0.0, qs = 0.0;
    for (size_t c = 0; c < C; c++) {
        xs += f->x[c];
        rw += f->x[c] * f->r[c];
    }
    for (size_t k = 0; k < K; k++) {
        for (size_t c = 0; c < C; c++) {
            f->qk[k] += f->qck[c * K + k];
            f->uk[k] += f->uck[c * K + k];
        }
        f->xk[k] = xs;
        f->rk[k] = xs > 0 ? f->qk[k] / xs : f->rck[k];
        qs += f->qk[k];
    }
    const double rsys = xs > 0 ? rw / xs : f->r[0];
    const char *mname = method_name(in->method);
    if (!o->json) {
        printf("%s (%s%s): X = %.10g 1/s, R = %.10g s, Q = %.10g\n", o->kind, mname,
               info->multiserver_seidmann ? ", multi-server stations by Seidmann" : "", xs, rsys,
               qs);
        if (in->method != 0)
            printf("  iterations = %u, tolerance = %.3g, max change = %.3g, converged = %s\n",
                   (unsigned)info->iterations, info->tolerance, info->max_change,
                   info->converged ? "yes" : "no");
        print_stations_text(n, f->uk, f->qk, f->rk);
        return 0;
    }
    json_t *d = solve_doc(o), *cl = json_array();
    if (in->method != 0 && !info->converged)
        cli_json_set(d, "status", json_string("not converged"));
    cli_json_set(d, "X", cli_json_qty(xs, "1/s", NULL));
    cli_json_set(d, "R", cli_json_qty(rsys, "s", NULL));
    cli_json_set(d, "Q", cli_json_qty(qs, "1", NULL));
    cli_json_set(d, "method", json_string(mname));
    cli_json_set(d, "multiserver", json_string(info->multiserver_seidmann
                                                   ? "seidmann (approximate)" : "exact"));
    if (in->method != 0) {
        cli_json_set(d, "iterations", json_integer((json_int_t)info->iterations));
        cli_json_set(d, "tolerance", cli_json_qty(info->tolerance, "1", NULL));
        cli_json_set(d, "max_change", cli_json_qty(info->max_change, "1", NULL));
        cli_json_set(d, "converged", json_boolean(info->converged));
    }
    for (size_t c = 0; cl && c < C; c++)
        json_array_append_new(cl, json_pack("{s:I, s:o, s:o}", "N", (json_int_t)in->nn[c], "X",
                                            cli_json_qty(f->x[c], "1/s", NULL), "R",
                                            cli_json_qty(f->r[c], "s", NULL)));
    cli_json_set(d, "classes", cl);
    cli_json_set(d, "stations", stations_json(n, f->uk, f->qk, f->rk, f->xk));
    return cli_json_print(d);
}

/* mva and mva-multi share this: C classes (mva: exactly 1). */
static int solve_closed(const solve_opts *o, int multi)
{
    int rc, status;
    net n;
    closed_in in;
    figures f = {0};
    zvp_error e;
    zvp_mva_approx_info info = {0, 1, 0, 0, 0, 0};
    memset(&in, 0, sizeof in);
    if ((rc = parse_method(o, &in.method)) || (rc = parse_net(o, &n)))
        return rc;
    const size_t K = n.K, C = n.C;
    if (!multi && C != 1)
        rc = solve_bad(o, "--%s = %s: kind mva takes one class; allowed %s", "demands",
                       o->v[S_DEMANDS], "[1, 1] classes (use mva-multi)");
    if (!rc)
        rc = parse_closed(o, C, &in);
    if (!rc && figures_alloc(&f, C, K) != 0)
        rc = cli_error(o->c, ZVP_ENOMEM, "out of memory");
    if (rc)
        goto done;
    zvp_error_clear(&e);
    if (in.method == 0 && C == 1) {
        /* exact single class, multi-server stations exact */
        zvp_mva_result res = {0, 0, f.rck, f.qck, f.uck};
        status = zvp_mva_exact(n.st, K, in.think[0], in.nn[0], &res, NULL, &e);
        f.x[0] = res.throughput_per_s;
        f.r[0] = res.response_s;
    } else if (in.method == 0) {
        zvp_mva_multi_result res = {f.x, f.r, f.rck, f.qck, f.uck};
        status = zvp_mva_multi_exact(n.st, K, n.d, in.think, in.nn, C, &res, &e);
    } else {
        zvp_mva_multi_result res = {f.x, f.r, f.rck, f.qck, f.uck};
        zvp_mva_approx_options opt = {in.method, (uint32_t)in.maxit, in.tol};
        status = zvp_mva_approx(n.st, K, n.d, in.think, in.nn, C, &opt, &res, &info, &e);
    }
    if (status != ZVP_SUCCESS && status != ZVP_EMAXITER) {
        rc = cli_lib_error(o->c, &e);
        goto done;
    }
    rc = print_closed(o, &n, &in, &f, &info);
    if (status == ZVP_EMAXITER) {
        fprintf(stderr, "zvmperf solve: error: %s; the figures printed are the last iterate, not "
                "a solution (exit status 1: no convergence)\n", e.message);
        rc = cli_exit_code(ZVP_EMAXITER);
    }
done:
    free(f.block);
    closed_in_free(&in);
    net_free(&n);
    return rc;
}

int solve_mva(const solve_opts *o) { return solve_closed(o, 0); }
int solve_mva_multi(const solve_opts *o) { return solve_closed(o, 1); }

int solve_bounds(const solve_opts *o)
{
    int rc;
    net n;
    unsigned long users;
    double z = 0.0;
    zvp_bounds_result b;
    zvp_error e;
    if ((rc = parse_net(o, &n)))
        return rc;
    if (n.C != 1)
        rc = solve_bad(o, "--%s = %s: bounds take one class; allowed %s", "demands",
                       o->v[S_DEMANDS], "[1, 1] classes");
    if (!rc)
        rc = solve_ulong(o, "users", o->v[S_USERS], 1, ZVP_MAX_CUSTOMERS, &users);
    if (!rc && o->v[S_THINK])
        rc = solve_double(o, "think", o->v[S_THINK], 0.0, DBL_MAX, 0, &z);
    zvp_error_clear(&e);
    if (!rc && zvp_mva_bounds(n.st, n.K, z, users, &b, &e))
        rc = cli_lib_error(o->c, &e);
    net_free(&n);
    if (rc)
        return rc;
    if (!o->json) {
        printf("bounds (N = %lu): %.10g <= X <= %.10g 1/s (ABA); %.10g <= X <= %.10g (BJB%s); "
               "%.10g <= R <= %.10g s; N* = %.10g\n",
               users, b.x_lower_per_s, b.x_upper_per_s, b.bjb_x_lower_per_s, b.bjb_x_upper_per_s,
               b.bjb_valid ? "" : ", not valid with multi-server stations: ABA repeated",
               b.r_lower_s, b.r_upper_s, b.saturation_customers);
        return 0;
    }
    json_t *d = solve_doc(o);
    cli_json_set(d, "X_upper", cli_json_qty(b.x_upper_per_s, "1/s", NULL));
    cli_json_set(d, "X_lower", cli_json_qty(b.x_lower_per_s, "1/s", NULL));
    cli_json_set(d, "R_lower", cli_json_qty(b.r_lower_s, "s", NULL));
    cli_json_set(d, "R_upper", cli_json_qty(b.r_upper_s, "s", NULL));
    cli_json_set(d, "X_upper_bjb", cli_json_qty(b.bjb_x_upper_per_s, "1/s", NULL));
    cli_json_set(d, "X_lower_bjb", cli_json_qty(b.bjb_x_lower_per_s, "1/s", NULL));
    cli_json_set(d, "N_star", cli_json_qty(b.saturation_customers, "1", NULL));
    cli_json_set(d, "D", cli_json_qty(b.total_demand_s, "s", NULL));
    cli_json_set(d, "D_max", cli_json_qty(b.max_demand_s, "s", NULL));
    cli_json_set(d, "bjb_valid", json_boolean(b.bjb_valid));
    return cli_json_print(d);
}
