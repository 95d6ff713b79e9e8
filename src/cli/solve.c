/*
 * src/cli/solve.c - `zvmperf solve KIND [options] [--json]`: the analytical queueing
 * solvers of include/zvmperf/queue.h from the command line. The kind table below is the
 * one place that says which options a kind takes, how its usage reads, and which handler
 * solves it; the handlers are in solve_station.c and solve_net.c.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solve.h"

#define B(x) (1u << (x))
#define RATE (B(S_LAMBDA) | B(S_MU) | B(S_SERVICE))
#define NET (B(S_DEMANDS) | B(S_STATION_SERVERS))
#define APPROX (B(S_METHOD) | B(S_TOLERANCE) | B(S_MAX_ITERATIONS))

/* The one kind table: {kind, options taken (besides --json), usage, handler}. Kinds with the
 * same usage text share one line of the help. */
static const struct solve_kind {
    const char *kind;
    unsigned opts;
    const char *usage;
    int (*run)(const solve_opts *o);
} kinds[] = {
    {"mm1", RATE, "--lambda R (--mu R | --service S)", solve_single},
    {"mmc", RATE | B(S_SERVERS), "--lambda R (--mu R | --service S) --servers C", solve_single},
    {"erlang-b", RATE | B(S_SERVERS), "--lambda R (--mu R | --service S) --servers C",
     solve_single},
    {"mm1k", RATE | B(S_CAPACITY), "--lambda R (--mu R | --service S) --capacity K", solve_single},
    {"mmck", RATE | B(S_SERVERS) | B(S_CAPACITY),
     "--lambda R (--mu R | --service S) --servers C --capacity K", solve_single},
    {"mminf", RATE, "--lambda R (--mu R | --service S)", solve_single},
    {"repairman", B(S_SERVICE) | B(S_SERVERS) | B(S_SOURCES) | B(S_THINK),
     "--sources N --think Z --service S [--servers C]", solve_repairman},
    {"open", B(S_LAMBDA) | NET,
     "--lambda L1[,L2...] --demands D1,D2[;D1,D2...] [--station-servers M1,M2]", solve_open},
    {"mva", B(S_THINK) | B(S_USERS) | NET | APPROX,
     "--users N [--think Z] --demands D1,D2,... [--station-servers M1,...]\n"
     "                  [--method exact|schweitzer|bard] [--tolerance T] [--max-iterations I]\n"
     "                  (--tolerance and --max-iterations with schweitzer or bard only)",
     solve_mva},
    {"mva-multi", B(S_THINK) | B(S_USERS) | NET | APPROX,
     "--users N1,N2 [--think Z1,Z2] --demands D11,D12;D21,D22\n"
     "                  [--station-servers M1,...] [--method ...] [--tolerance T] "
     "[--max-iterations I]",
     solve_mva_multi},
    {"bounds", B(S_THINK) | B(S_USERS) | NET,
     "--users N [--think Z] --demands D1,... [--station-servers M1,...]", solve_bounds},
    {"usl", B(S_USERS) | B(S_GAMMA) | B(S_ALPHA) | B(S_BETA) | B(S_DATA),
     "--gamma G --alpha A --beta B [--users N]   |   --data N1:X1,N2:X2,...\n"
     "                  (fit: at least 3 points with at least 3 distinct N)",
     solve_usl},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

/* The options, in the order of the S_* enumeration. */
static const cli_option options[N_SOLVE_OPTS] = {
    {"lambda", 0, 1, 0},  {"mu", 0, 1, 0},          {"service", 0, 1, 0},
    {"servers", 0, 1, 0}, {"capacity", 0, 1, 0},    {"sources", 0, 1, 0},
    {"think", 0, 1, 0},   {"demands", 0, 1, 0},     {"users", 0, 1, 0},
    {"station-servers", 0, 1, 0}, {"method", 0, 1, 0}, {"tolerance", 0, 1, 0},
    {"max-iterations", 0, 1, 0},  {"gamma", 0, 1, 0},  {"alpha", 0, 1, 0},
    {"beta", 0, 1, 0},    {"data", 0, 1, 0},
};

void cli_solve_help(FILE *f)
{
    fprintf(f, "Usage: zvmperf solve KIND [options] [--json]\n");
    for (size_t i = 0; i < N_KINDS; i++) {
        char names[64] = "";
        int first_of_line = 1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(kinds[j].usage, kinds[i].usage) == 0)
                first_of_line = 0;
        if (!first_of_line)
            continue;
        for (size_t j = i; j < N_KINDS; j++)
            if (strcmp(kinds[j].usage, kinds[i].usage) == 0)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         j == i ? "" : "|", kinds[j].kind);
        fprintf(f, "  %-15s %s\n", names, kinds[i].usage);
    }
    fprintf(f,
            "Each option at most once ('--opt value' or '--opt=value'); an option the KIND does\n"
            "not take is an error. Units: rates in 1/s, times in s.\n"
            "Station servers: 1 queue, m >= 2 multi-server, inf delay (an m-server station with\n"
            "m >= users is exactly a delay station). Exact MVA work is limited to %lu steps\n"
            "(users x servers); beyond it use fewer servers or --method schweitzer|bard.\n"
            "--json: one object: \"kind\", \"status\", X, R (excluding think time), Q, ... as\n"
            "{\"value\", \"unit\"}, and \"stations\": [{\"U\", \"Q\", \"R\", \"X\"}] where a kind has\n"
            "stations (a figure that is not defined is null, explained in \"nulls\").\n"
            "Exit status: 0 ok; 1 no convergence (approximate MVA: figures still printed; USL\n"
            "fit) or an I/O or memory failure; 2 bad input (option, value and allowed range named);\n"
            "3 no steady state (the saturated station named).\n",
            (unsigned long)ZVP_QUEUE_MAX_WORK);
}

/* ---- shared by the handlers ---------------------------------------------------------- */

int solve_bad(const solve_opts *o, const char *fmt, const char *opt, const char *value,
              const char *range)
{
    char msg[ZVP_ERRMSG_MAX];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    snprintf(msg, sizeof msg, fmt, opt, value, range);
#pragma GCC diagnostic pop
    return cli_error(o->c, ZVP_EINVAL, "%s", msg);
}

int solve_missing(const solve_opts *o, const char *name, const char *what)
{
    return cli_error(o->c, ZVP_EINVAL, "option --%s is required by kind %s: %s", name, o->kind,
                     what);
}

int solve_double(const solve_opts *o, const char *name, const char *s, double lo, double hi,
                 int lo_open, double *out)
{
    char range[96];
    double v;
    snprintf(range, sizeof range, "%s%.17g, %.17g]", lo_open ? "(" : "[", lo, hi);
    if (!s) {
        char what[128];
        snprintf(what, sizeof what, "a number in %s", range);
        return solve_missing(o, name, what);
    }
    if (cli_number(s, &v) != 0)
        return cli_error(o->c, ZVP_EINVAL, "--%s = '%s' %s (allowed range %s)", name, s,
                         cli_number_why(s), range);
    if (v < lo || (lo_open && v <= lo) || v > hi)
        return solve_bad(o, "--%s = %s is out of range %s", name, s, range);
    *out = v;
    return 0;
}

int solve_ulong(const solve_opts *o, const char *name, const char *s, unsigned long lo,
                unsigned long hi, unsigned long *out)
{
    char range[64];
    double v;
    snprintf(range, sizeof range, "[%lu, %lu] (an integer)", lo, hi);
    if (!s) {
        char what[96];
        snprintf(what, sizeof what, "an integer in [%lu, %lu]", lo, hi);
        return solve_missing(o, name, what);
    }
    if (cli_number(s, &v) != 0)
        return cli_error(o->c, ZVP_EINVAL, "--%s = '%s' %s (allowed range %s)", name, s,
                         cli_number_why(s), range);
    if (v < (double)lo || v > (double)hi)
        return solve_bad(o, "--%s = %s is out of range %s", name, s, range);
    if (v != floor(v)) {
        snprintf(range, sizeof range, "an integer in [%lu, %lu]", lo, hi);
        return solve_bad(o, "--%s = %s is not a whole number (allowed: %s)", name, s, range);
    }
    *out = (unsigned long)v;
    return 0;
}

/* One entry of a list: a number in [lo, hi] (or inf / delay when inf_ok). */
static int list_entry(const solve_opts *o, const char *name, const char *s, const char *tok,
                      size_t i, double lo, double hi, int inf_ok, const char *range, double *x)
{
    if (inf_ok && (strcmp(tok, "inf") == 0 || strcmp(tok, "delay") == 0)) {
        *x = INFINITY;
        return 0;
    }
    if (cli_number(tok, x) != 0)
        return cli_error(o->c, ZVP_EINVAL, "--%s = %s: entry %zu ('%s') %s (allowed range %s)",
                         name, s, i + 1, tok, cli_number_why(tok), range);
    if (*x < lo || *x > hi)
        return cli_error(o->c, ZVP_EINVAL, "--%s = %s: entry %zu ('%s') is out of range %s", name,
                         s, i + 1, tok, range);
    return 0;
}

int solve_list(const solve_opts *o, const char *name, const char *s, char sep, double lo,
               double hi, int inf_ok, double **out, size_t *n)
{
    char range[96];
    size_t cap = 1, i = 0;
    int rc = 0;
    *out = NULL;
    *n = 0;
    snprintf(range, sizeof range, "[%.17g, %.17g]%s", lo, hi, inf_ok ? " or inf" : "");
    if (!s) {
        char what[160];
        snprintf(what, sizeof what, "a list separated by '%c', each entry in %s", sep, range);
        return solve_missing(o, name, what);
    }
    for (const char *p = s; *p; p++)
        cap += *p == sep;
    if (cap > MAX_LIST)
        return solve_bad(o, "--%s = %s has too many entries: allowed range %s", name, s,
                         "[1, 100000]");
    double *v = malloc(cap * sizeof(double));
    if (!v)
        return cli_error(o->c, ZVP_ENOMEM, "out of memory");
    for (const char *p = s; !rc;) {
        char tok[64];
        const char *q = strchr(p, sep);
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len == 0 || len >= sizeof tok) {
            rc = cli_error(o->c, ZVP_EINVAL, "--%s = '%s': entry %zu is %s; each entry must be a "
                           "number in %s", name, s, i + 1, len ? "too long" : "empty", range);
            break;
        }
        memcpy(tok, p, len);
        tok[len] = '\0';
        rc = list_entry(o, name, s, tok, i, lo, hi, inf_ok, range, &v[i]);
        i++;
        if (!q)
            break;
        p = q + 1;
    }
    if (rc) {
        free(v);
        return rc;
    }
    *out = v;
    *n = i;
    return 0;
}

int solve_wrong_count(const solve_opts *o, const char *name, const char *value, size_t n,
                      const char *why)
{
    char cnt[128];
    snprintf(cnt, sizeof cnt, "[%zu, %zu] entries (%s)", n, n, why);
    return solve_bad(o, "--%s = %s: wrong number of entries, allowed %s", name, value, cnt);
}

json_t *solve_doc(const solve_opts *o)
{
    json_t *d = cli_json_doc("solve");
    cli_json_set(d, "kind", json_string(o->kind));
    cli_json_set(d, "status", json_string("ok"));
    return d;
}

json_t *solve_station_json(double u, double q, double r, double x)
{
    json_t *s = json_object();
    cli_json_set(s, "U", cli_json_qty(u, "1", NULL));
    cli_json_set(s, "Q", cli_json_qty(q, "1", NULL));
    cli_json_set(s, "R", cli_json_qty(r, "s", NULL));
    cli_json_set(s, "X", cli_json_qty(x, "1/s", NULL));
    return s;
}

/* ---- the command ----------------------------------------------------------------------- */

/* "option --NAME does not apply to kind K (kind K takes: --a --b --json)" */
static int not_taken(const solve_opts *o, const struct solve_kind *k, int opt)
{
    char takes[512] = "";
    for (int i = 0; i < N_SOLVE_OPTS; i++)
        if (k->opts & B(i))
            snprintf(takes + strlen(takes), sizeof takes - strlen(takes), " --%s",
                     options[i].name);
    return cli_error(o->c, ZVP_EINVAL, "option --%s does not apply to kind %s (kind %s takes:%s "
                     "--json)", options[opt].name, k->kind, k->kind, takes);
}

int cli_solve(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    solve_opts o;
    const struct solve_kind *k = NULL;
    char context[96];
    int rc;
    memset(&o, 0, sizeof o);
    o.c = &c;
    if (argc < 1 || argv[0][0] == '-') {
        cli_solve_help(stderr);
        return cli_error(&c, ZVP_EINVAL, "solve needs a KIND first (see 'zvmperf solve --help')");
    }
    o.kind = argv[0];
    for (size_t i = 0; i < N_KINDS; i++)
        if (strcmp(kinds[i].kind, o.kind) == 0)
            k = &kinds[i];
    if (!k)
        return cli_error(&c, ZVP_EINVAL, "unknown KIND '%s' (allowed: mm1, mmc, erlang-b, mm1k, "
                         "mmck, mminf, repairman, open, mva, mva-multi, bounds, usl)", o.kind);
    snprintf(context, sizeof context, " for kind %s", o.kind);
    if ((rc = cli_parse(&c, argc - 1, argv + 1, options, N_SOLVE_OPTS, context, &a)))
        return rc;
    c.json = o.json = a.json;
    for (size_t i = 0; !rc && i < a.n_items; i++)
        if (a.item_opt[i] < N_SOLVE_OPTS && !(k->opts & B(a.item_opt[i])))
            rc = not_taken(&o, k, a.item_opt[i]);
    if (!rc && a.n_pos > 0)
        rc = cli_error(&c, ZVP_EINVAL, "unexpected argument '%s' (options start with --)",
                       a.pos[0]);
    for (int i = 0; i < N_SOLVE_OPTS; i++)
        o.v[i] = a.value[i];
    cli_args_free(&a);
    if (rc)
        return rc;
    return k->run(&o);
}
