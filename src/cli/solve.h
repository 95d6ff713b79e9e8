/*
 * src/cli/solve.h - `zvmperf solve`: what the kind table (solve.c) and the handlers
 * (solve_station.c, solve_net.c) share: the options, number and list parsers that name the
 * option, its value and the allowed range, and the JSON pieces.
 */
#ifndef ZVMPERF_CLI_SOLVE_H
#define ZVMPERF_CLI_SOLVE_H

#include "cli.h"

/* Every solve option; a kind takes a subset (its bit mask in the kind table). */
enum {
    S_LAMBDA, S_MU, S_SERVICE, S_SERVERS, S_CAPACITY, S_SOURCES, S_THINK, S_DEMANDS, S_USERS,
    S_STATION_SERVERS, S_METHOD, S_TOLERANCE, S_MAX_ITERATIONS, S_GAMMA, S_ALPHA, S_BETA,
    S_DATA, N_SOLVE_OPTS
};

typedef struct solve_opts {
    const cli_ctx *c;
    const char *kind;
    int json;
    const char *v[N_SOLVE_OPTS]; /* option values, NULL when not given */
} solve_opts;

#define MAX_LIST 100000

/* Bad input (exit 2): fmt takes three strings, e.g. option, value, range. */
int solve_bad(const solve_opts *o, const char *fmt, const char *opt, const char *value,
              const char *range);
/* The option `name` is required by the kind (exit 2). */
int solve_missing(const solve_opts *o, const char *name, const char *what);
/* A number in [lo, hi] (open lower end when lo_open); required when s is NULL. */
int solve_double(const solve_opts *o, const char *name, const char *s, double lo, double hi,
                 int lo_open, double *out);
/* A whole number in [lo, hi]. */
int solve_ulong(const solve_opts *o, const char *name, const char *s, unsigned long lo,
                unsigned long hi, unsigned long *out);
/* s split at sep into numbers in [lo, hi] (inf_ok: "inf" or "delay" is INFINITY); *out is
 * malloc'ed, *n the count. */
int solve_list(const solve_opts *o, const char *name, const char *s, char sep, double lo,
               double hi, int inf_ok, double **out, size_t *n);
/* --name = value has the wrong number of entries: n are allowed (why: e.g. one per station). */
/* `zvmperf simulate MODEL ...` (simulate_model.c): argv from the model argument on. */
int cli_simulate_model(const cli_ctx *c, int argc, char **argv);
/* The run statistics of a simulation into its JSON document d: events, seconds, events_per_s,
 * replications, units (when with_units), seed, precision {target, worst, met, event_cap_hit},
 * intervals_clipped (simulate_model.c; also simulate.c). */
void cli_sim_run_json(json_t *d, const zvp_sim_result *r, const zvp_sim_options *so,
                      int with_units);
/* The NOT CONVERGED warning on stderr when n > 0 figures (what: "figure(s)" of a network,
 * "output(s)" of a model) had their interval clipped at 0 over `units` replications or
 * batches (simulate_model.c). */
void cli_sim_warn_clipped(const cli_ctx *c, unsigned n, const char *what, unsigned units);
/* --name = value has the wrong number of entries (solve_wrong_count below). */
int solve_wrong_count(const solve_opts *o, const char *name, const char *value, size_t n,
                      const char *why);

/* A result document {"command": "solve", "kind": kind, "status": "ok"}. */
json_t *solve_doc(const solve_opts *o);
/* One station's object {"U", "Q", "R", "X"} with units. */
json_t *solve_station_json(double u, double q, double r, double x);

/* The handlers (one per kind or family of kinds). */
int solve_single(const solve_opts *o);
int solve_repairman(const solve_opts *o);
int solve_usl(const solve_opts *o);
int solve_open(const solve_opts *o);
int solve_mva(const solve_opts *o);
int solve_mva_multi(const solve_opts *o);
int solve_bounds(const solve_opts *o);

#endif
