/*
 * src/cli/solve_station.c - solve kinds of one station (mm1, mmc, erlang-b, mm1k, mmck,
 * mminf, repairman) and the Universal Scalability Law (usl: evaluation or fit).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solve.h"

/* The JSON of a single station: the station fields, then "stations" with the one station.
 * busy_servers and Pblock only where the kind has them. */
static int print_single_json(const solve_opts *o, const zvp_station_result *r, int busy,
                             int loss, double pblock)
{
    json_t *d = solve_doc(o), *st = json_array();
    cli_json_set(d, "X", cli_json_qty(r->throughput_per_s, "1/s", NULL));
    cli_json_set(d, "R", cli_json_qty(r->response_s, "s", NULL));
    cli_json_set(d, "Q", cli_json_qty(r->mean_in_system, "1", NULL));
    cli_json_set(d, "U", cli_json_qty(r->utilization, "1", NULL));
    cli_json_set(d, "W", cli_json_qty(r->wait_s, "s", NULL));
    cli_json_set(d, "Lq", cli_json_qty(r->mean_in_queue, "1", NULL));
    if (busy)
        cli_json_set(d, "busy_servers", cli_json_qty(r->busy_servers, "1", NULL));
    cli_json_set(d, "Pwait", cli_json_qty(r->pwait, "1", NULL));
    if (loss)
        cli_json_set(d, "Pblock", cli_json_qty(pblock, "1", NULL));
    if (st)
        json_array_append_new(st, solve_station_json(r->utilization, r->mean_in_system,
                                                     r->response_s, r->throughput_per_s));
    cli_json_set(d, "stations", st);
    return cli_json_print(d);
}

/* The service rate: --mu, or --service S as mu = 1/S. */
static int service_rate(const solve_opts *o, double *mu)
{
    double service;
    int rc;
    if (o->v[S_MU] && o->v[S_SERVICE])
        return solve_bad(o, "options --%s and --%s are alternatives (mu = 1/service)%s: give one",
                         "mu", "service", "");
    if (o->v[S_MU] || !o->v[S_SERVICE])
        return solve_double(o, "mu", o->v[S_MU], 0.0, DBL_MAX, 1, mu);
    if ((rc = solve_double(o, "service", o->v[S_SERVICE], 0.0, DBL_MAX, 1, &service)))
        return rc;
    *mu = 1.0 / service;
    return 0;
}

int solve_single(const solve_opts *o)
{
    int rc;
    double lambda = 0, mu = 0;
    unsigned long c = 1, cap = 0;
    const int is = strcmp(o->kind, "mm1") == 0, ic = strcmp(o->kind, "mmc") == 0,
              ib = strcmp(o->kind, "erlang-b") == 0, i1k = strcmp(o->kind, "mm1k") == 0,
              ick = strcmp(o->kind, "mmck") == 0;
    if ((rc = solve_double(o, "lambda", o->v[S_LAMBDA], 0.0, DBL_MAX, 0, &lambda)) ||
        (rc = service_rate(o, &mu)))
        return rc;
    if ((ic || ib || ick) &&
        (rc = solve_ulong(o, "servers", o->v[S_SERVERS], 1, ZVP_MAX_SERVERS, &c)))
        return rc;
    if ((i1k || ick) &&
        (rc = solve_ulong(o, "capacity", o->v[S_CAPACITY], c, ZVP_MAX_CUSTOMERS, &cap)))
        return rc;
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
    if (rc == ZVP_EUNSTABLE)
        return cli_error(o->c, ZVP_EUNSTABLE, "station 0 (%s) is saturated: %s", label, e.message);
    if (rc)
        return cli_lib_error(o->c, &e);
    const int loss = ib || i1k || ick;
    if (o->json)
        return print_single_json(o, &r, 1, loss, pblock);
    printf("%s: X = %.10g 1/s, U = %.10g, R = %.10g s, W = %.10g s, Q = %.10g, Lq = %.10g, "
           "Pwait = %.10g",
           label, r.throughput_per_s, r.utilization, r.response_s, r.wait_s, r.mean_in_system,
           r.mean_in_queue, r.pwait);
    if (loss)
        printf(", Pblock = %.10g", pblock);
    printf("\n");
    return 0;
}

int solve_repairman(const solve_opts *o)
{
    int rc;
    unsigned long n, c = 1;
    double z, s;
    if ((rc = solve_ulong(o, "sources", o->v[S_SOURCES], 0, ZVP_MAX_CUSTOMERS, &n)) ||
        (rc = solve_double(o, "think", o->v[S_THINK], 0.0, DBL_MAX, 0, &z)) ||
        (rc = solve_double(o, "service", o->v[S_SERVICE], 0.0, DBL_MAX, 1, &s)))
        return rc;
    if (o->v[S_SERVERS] &&
        (rc = solve_ulong(o, "servers", o->v[S_SERVERS], 1, ZVP_MAX_SERVERS, &c)))
        return rc;
    zvp_station_result r;
    zvp_error e;
    zvp_error_clear(&e);
    if (zvp_repairman(n, z, s, c, &r, &e))
        return cli_lib_error(o->c, &e);
    if (o->json)
        return print_single_json(o, &r, 0, 0, NAN);
    printf("repairman: X = %.10g 1/s, U = %.10g (per server), R = %.10g s, W = %.10g s, "
           "Q = %.10g, Pwait = %.10g\n",
           r.throughput_per_s, r.utilization, r.response_s, r.wait_s, r.mean_in_system, r.pwait);
    return 0;
}

/* ---- USL ------------------------------------------------------------------------------- */

/* The reason of a null peak: with beta = 0 the throughput has no maximum. */
#define NO_PEAK(n) (isinf(n) ? "+inf: no peak (beta = 0: throughput grows without bound)" : NULL)

/* --data N1:X1,N2:X2,...: *n and *x malloc'ed, *np the count; at least 3 distinct N. */
static int parse_usl_data(const solve_opts *o, double **n, double **x, size_t *np)
{
    const char *data = o->v[S_DATA];
    size_t cnt = 1, distinct = 1;
    for (const char *p = data; *p; p++)
        cnt += *p == ',';
    *n = malloc(cnt * sizeof(double));
    *x = malloc(cnt * sizeof(double));
    *np = cnt;
    if (!*n || !*x)
        return cli_error(o->c, ZVP_ENOMEM, "out of memory");
    const char *p = data;
    for (size_t i = 0; i < cnt; i++) {
        char tok[128];
        const char *q = strchr(p, ','), *colon;
        size_t len = q ? (size_t)(q - p) : strlen(p);
        int pair = len > 0 && len < sizeof tok;
        if (pair) {
            memcpy(tok, p, len);
            tok[len] = '\0';
            colon = strchr(tok, ':');
            pair = colon != NULL;
            if (pair) {
                tok[colon - tok] = '\0';
                pair = cli_number(tok, &(*n)[i]) == 0 && cli_number(colon + 1, &(*x)[i]) == 0;
            }
        }
        if (!pair)
            return solve_bad(o, "--%s = %s: entries must be N:X pairs, N in %s", "data", data,
                             "[1, 1.7976931348623157e+308], X in [0, 1.7976931348623157e+308]");
        p = q ? q + 1 : p + len;
    }
    if (cnt < 3)
        return cli_error(o->c, ZVP_EINVAL, "--data = %s has %zu point%s: at least 3 points (N:X "
                         "pairs with at least 3 distinct N) are needed to fit gamma, alpha and "
                         "beta", data, cnt, cnt == 1 ? "" : "s");
    for (size_t i = 1, j2 = 0; i < cnt && distinct < 3; i++) {
        if ((*n)[i] == (*n)[0] || (j2 && (*n)[i] == (*n)[j2]))
            continue;
        if (!j2)
            j2 = i;
        distinct++;
    }
    if (distinct < 3)
        return cli_error(o->c, ZVP_EINVAL, "--data = %s has %zu distinct N: at least 3 distinct N "
                         "are needed to identify alpha and beta", data, distinct);
    return 0;
}

static int solve_usl_fit(const solve_opts *o)
{
    double *n = NULL, *x = NULL;
    size_t np = 0;
    zvp_usl_fit_result f;
    zvp_error e;
    int rc = parse_usl_data(o, &n, &x, &np);
    zvp_error_clear(&e);
    if (!rc && zvp_usl_fit(n, x, np, &f, &e) != ZVP_SUCCESS)
        rc = cli_error(o->c, e.status == ZVP_EINVAL ? ZVP_EINVAL : ZVP_EFIT, "--data: %s (%s)",
                       e.message[0] ? e.message : "fit failed", zvp_strerror(e.status));
    free(n);
    free(x);
    if (rc)
        return rc;
    if (!o->json) {
        printf("usl fit: gamma = %.10g +- %.3g, alpha = %.10g +- %.3g, beta = %.10g +- %.3g; "
               "peak N* = %.10g, X* = %.10g\n",
               f.gamma, f.gamma_se, f.alpha, f.alpha_se, f.beta, f.beta_se, f.n_peak, f.x_peak);
        return 0;
    }
    const char *no_se = "standard error not defined: no residual degree of freedom (as many "
                        "distinct points as parameters) or a singular fit";
    json_t *d = solve_doc(o);
    cli_json_set(d, "gamma", cli_json_qty(f.gamma, "1/s", NULL));
    cli_json_set(d, "alpha", cli_json_qty(f.alpha, "1", NULL));
    cli_json_set(d, "beta", cli_json_qty(f.beta, "1", NULL));
    cli_json_set(d, "gamma_se", cli_json_qty(f.gamma_se, "1/s", no_se));
    cli_json_set(d, "alpha_se", cli_json_qty(f.alpha_se, "1", no_se));
    cli_json_set(d, "beta_se", cli_json_qty(f.beta_se, "1", no_se));
    cli_json_set(d, "N_peak", cli_json_qty(f.n_peak, "1", NO_PEAK(f.n_peak)));
    cli_json_set(d, "X_peak", cli_json_qty(f.x_peak, "1/s", NO_PEAK(f.n_peak)));
    cli_json_set(d, "rss", cli_json_qty(f.rss, "1/s^2", NULL));
    cli_json_set(d, "iterations", json_integer((json_int_t)f.iterations));
    return cli_json_print(d);
}

int solve_usl(const solve_opts *o)
{
    int rc;
    zvp_error e;
    double g, a, b, nusers = 1.0, x, np, xp;
    if (o->v[S_DATA]) {
        const char *other = o->v[S_GAMMA]   ? "gamma"
                            : o->v[S_ALPHA] ? "alpha"
                            : o->v[S_BETA]  ? "beta"
                            : o->v[S_USERS] ? "users"
                                            : NULL;
        if (other)
            return cli_error(o->c, ZVP_EINVAL, "option --%s does not apply to kind usl with --data "
                             "(the fit takes only --data; evaluation takes --gamma --alpha --beta "
                             "[--users])", other);
        return solve_usl_fit(o);
    }
    if ((rc = solve_double(o, "gamma", o->v[S_GAMMA], 0.0, DBL_MAX, 0, &g)) ||
        (rc = solve_double(o, "alpha", o->v[S_ALPHA], 0.0, DBL_MAX, 0, &a)) ||
        (rc = solve_double(o, "beta", o->v[S_BETA], 0.0, DBL_MAX, 0, &b)))
        return rc;
    if (o->v[S_USERS] && (rc = solve_double(o, "users", o->v[S_USERS], 1.0, DBL_MAX, 0, &nusers)))
        return rc;
    zvp_error_clear(&e);
    if (zvp_usl_eval(nusers, g, a, b, &x, &e) || zvp_usl_peak(g, a, b, &np, &xp, &e))
        return cli_lib_error(o->c, &e);
    if (!o->json) {
        printf("usl: X(%.10g) = %.10g; peak N* = %.10g, X* = %.10g\n", nusers, x, np, xp);
        return 0;
    }
    json_t *d = solve_doc(o);
    cli_json_set(d, "N", cli_json_qty(nusers, "1", NULL));
    cli_json_set(d, "X", cli_json_qty(x, "1/s", NULL));
    cli_json_set(d, "N_peak", cli_json_qty(np, "1", NO_PEAK(np)));
    cli_json_set(d, "X_peak", cli_json_qty(xp, "1/s", NO_PEAK(np)));
    return cli_json_print(d);
}
