/*
 * src/cli/simulate_model.c - `zvmperf simulate MODELFILE|MODEL [NAME=VALUE ...] [options]`:
 * a model's outputs simulated on the network the model describes (its `sim` hook,
 * zvp_model_simulate), each with its 95% confidence interval and the analytic value of the
 * model's eval beside it. `--json` is shaped as `eval --json`, with ci_lo, ci_hi and
 * analytic beside each output's value. The KINDs of simulate.c take precedence over model
 * names (a model file reaches the mmc and repairman models).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solve.h"

enum { M_REPLICATIONS, M_EVENTS, M_MAX_EVENTS, M_PRECISION, M_SEED, M_THREADS, N_MOPTS };

static const cli_option mopts[N_MOPTS] = {
    {"replications", 0, 1, 0}, {"events", 0, 1, 0}, {"max-events", 0, 1, 0},
    {"precision", 0, 1, 0},    {"seed", 0, 1, 0},   {"threads", 0, 1, 0},
};

/* The run options (same names, ranges and defaults as for the KINDs). */
static int model_run_options(const solve_opts *o, const cli_args *a, zvp_sim_options *so)
{
    unsigned long u;
    double p;
    int rc = 0;
    zvp_sim_default_options(so);
    if (a->value[M_REPLICATIONS] &&
        !(rc = solve_ulong(o, "replications", a->value[M_REPLICATIONS], 1, 100000, &u)))
        so->replications = (uint32_t)u;
    if (!rc && a->value[M_EVENTS] &&
        !(rc = solve_double(o, "events", a->value[M_EVENTS], 1000, 1e13, 0, &p)))
        so->events = (uint64_t)p;
    if (!rc && a->value[M_MAX_EVENTS] &&
        !(rc = solve_double(o, "max-events", a->value[M_MAX_EVENTS], 1000, 1e15, 0, &p)))
        so->max_events = (uint64_t)p;
    if (!rc && a->value[M_PRECISION])
        rc = solve_double(o, "precision", a->value[M_PRECISION], 0, 1, 0, &so->precision);
    if (!rc && a->value[M_SEED] &&
        !(rc = solve_double(o, "seed", a->value[M_SEED], 0, 9007199254740992.0, 0, &p))) {
        if (p != floor(p))
            return solve_bad(o, "--%s = %s is not a whole number (allowed: %s)", "seed",
                             a->value[M_SEED], "an integer in [0, 2^53]");
        so->seed = (uint64_t)p;
    }
    if (!rc && a->value[M_THREADS] &&
        !(rc = solve_ulong(o, "threads", a->value[M_THREADS], 0, 4096, &u)))
        so->threads = (int32_t)u;
    return rc;
}

void cli_sim_run_json(json_t *d, const zvp_sim_result *r, const zvp_sim_options *so,
                      int with_units)
{
    cli_json_set(d, "events", json_integer((json_int_t)r->events));
    cli_json_set(d, "seconds", cli_json_qty(r->seconds, "s", NULL));
    cli_json_set(d, "events_per_s", cli_json_qty(r->events_per_s, "1/s", NULL));
    cli_json_set(d, "replications", json_integer(r->replications));
    if (with_units)
        cli_json_set(d, "units", json_integer(r->units));
    cli_json_set(d, "seed", json_integer((json_int_t)r->seed));
    /* "met" is null without a target (--precision 0): nothing was asked to be met */
    cli_json_set(d, "precision", json_pack("{s:o, s:o, s:o, s:b}", "target",
                                           cli_json_num(so->precision, NULL), "worst",
                                           cli_json_num(r->worst_precision, NULL), "met",
                                           so->precision > 0.0 ? json_boolean(r->precision_met)
                                                               : json_null(),
                                           "event_cap_hit", r->event_cap_hit));
    cli_json_set(d, "intervals_clipped", json_integer(r->clipped));
}

/* The units behind an interval disagree by more than its mean (zvp_sim_result.clipped;
 * for a model, its outputs so clipped). */
void cli_sim_warn_clipped(const cli_ctx *c, unsigned n, const char *what, unsigned units)
{
    if (n)
        cli_warn(c, "NOT CONVERGED: for %u %s the %u units (replications or batches) "
                 "disagree by more than their mean, so the 95%% t-interval reached below 0 "
                 "(its lower bound is shown clipped to 0): the runs sit in different states "
                 "(metastable: e.g. a lock that collapses in some runs and not in others) or "
                 "are too short; the means are not a steady state, run longer (--events) or "
                 "more replications", n, what, units);
}

/* A model's outputs whose t-interval reached below 0 and was clipped there (ci_lo 0 with
 * mean - half_width < 0); outputs not simulated are not counted. */
static unsigned outputs_clipped(const zvp_model *m, const zvp_sim_estimate *e,
                                const char *const *why)
{
    unsigned n = 0;
    for (size_t j = 0; j < m->n_outputs; j++)
        if (!why[j] && e[j].ci_lo == 0.0 && e[j].mean - e[j].half_width < 0.0)
            n++;
    return n;
}

/* For a model the warning counts its printed outputs; figures of the network behind them
 * (per station, not printed: e.g. one of 64 lock zones that is rarely contended) whose
 * interval was clipped get a line of their own, naming how many. */
static void model_warn_clipped(const cli_ctx *c, unsigned n_out, const zvp_sim_result *r)
{
    cli_sim_warn_clipped(c, n_out, "output(s)", (unsigned)r->units);
    if (r->clipped)
        cli_warn(c, "%u figure(s) of the simulated network behind the outputs (per "
                 "station, not printed) have a 95%% t-interval that reached below 0 (a rarely "
                 "used station, or runs in different states)%s", (unsigned)r->clipped,
                 n_out ? "" : "; no printed output's interval is clipped");
}

static int model_json(const zvp_model_file *mf, const char *file, const zvp_sim_estimate *e,
                      const char *const *why, const double *an, int an_st,
                      const zvp_error *an_err, const zvp_sim_result *r,
                      const zvp_sim_options *so)
{
    const zvp_model *m = zvp_model_file_model(mf);
    const double *p = zvp_model_file_params((zvp_model_file *)mf);
    json_t *d = cli_json_doc("simulate"), *params = json_object(), *outs = json_object();
    const char *an_why = an_st == ZVP_SUCCESS ? NULL : an_err->message;
    cli_json_set(d, "model", json_string(m->name));
    cli_json_set(d, "model_file", file && *file ? json_string(file) : json_null());
    for (size_t i = 0; i < m->n_params; i++)
        cli_json_set(params, m->params[i].name, cli_json_qty(p[i], m->params[i].unit, NULL));
    for (size_t j = 0; j < m->n_outputs; j++) {
        json_t *x = cli_json_qty(e[j].mean, m->outputs[j].unit, why[j]);
        const char *iv = why[j] ? why[j] : "interval not defined (fewer than 2 units)";
        cli_json_set(x, "ci_lo", cli_json_num(e[j].ci_lo, iv));
        cli_json_set(x, "ci_hi", cli_json_num(e[j].ci_hi, iv));
        cli_json_set(x, "analytic", cli_json_num(an[j], an_why));
        cli_json_set(outs, m->outputs[j].name, x);
    }
    cli_json_set(d, "parameters", params);
    cli_json_set(d, "outputs", outs);
    cli_json_set(d, "status", json_string("ok"));
    cli_json_set(d, "analytic_status", json_string(an_st == ZVP_SUCCESS ? "ok"
                                                   : an_st == ZVP_EUNSTABLE ? "unstable"
                                                                            : "error"));
    cli_sim_run_json(d, r, so, 0);
    cli_json_set(d, "outputs_clipped", json_integer(outputs_clipped(zvp_model_file_model(mf), e,
                                                                    why)));
    return cli_json_print(d);
}

static void model_text(const zvp_model *m, const zvp_sim_estimate *e, const char *const *why,
                       const double *an, const zvp_sim_result *r)
{
    printf("model %s: simulated (%u replications, %llu events, %.3g s, seed %llu); 95%% "
           "interval; analytic = the model's eval\n", m->name, r->replications,
           (unsigned long long)r->events, r->seconds, (unsigned long long)r->seed);
    printf("  %-24s %14s %14s %14s %14s %s\n", "output", "simulated", "ci_lo", "ci_hi",
           "analytic", "unit");
    for (size_t j = 0; j < m->n_outputs; j++) {
        if (why[j])
            printf("  %-24s %14s %14s %14s %14.6g %s (not simulated)\n", m->outputs[j].name,
                   "-", "-", "-", an[j] + 0.0, m->outputs[j].unit);
        else
            printf("  %-24s %14.6g %14.6g %14.6g %14.6g %s\n", m->outputs[j].name,
                   e[j].mean + 0.0, e[j].ci_lo + 0.0, e[j].ci_hi + 0.0, an[j] + 0.0,
                   m->outputs[j].unit);
    }
}

/* The model file and its overrides (as eval), then the simulation. */
static int run_model(const cli_ctx *c, const cli_args *a, const zvp_sim_options *so)
{
    zvp_model_file *mf = NULL;
    zvp_error err, an_err;
    char file[4096];
    size_t src = 0;
    while (src < a->n_pos && strchr(a->pos[src], '='))
        src++;
    if (src == a->n_pos)
        return cli_error(c, ZVP_EINVAL, "simulate needs a KIND or a MODEL (a model file, '-', or "
                         "a name)");
    if (cli_open_model(c, a->pos[src], &mf, file, sizeof file, &err) != ZVP_SUCCESS)
        return cli_error(c, err.status, "unknown KIND '%s' (allowed: mm1, mmc, repairman, open, "
                         "mva) and not a model: %s", a->pos[src], err.message);
    const char **ov = malloc((a->n_pos + 1) * sizeof *ov);
    size_t n_ov = 0;
    for (size_t i = 0; ov && i < a->n_pos; i++)
        if (i != src)
            ov[n_ov++] = a->pos[i];
    int rc = ov ? cli_apply_overrides(c, mf, ov, n_ov, 0, NULL, 0)
                : cli_error(c, ZVP_ENOMEM, "out of memory");
    if (!rc)
        cli_warn_unset(c, mf, file, NULL, 0);
    free(ov);
    const zvp_model *m = zvp_model_file_model(mf);
    const double *p = zvp_model_file_params(mf);
    zvp_sim_estimate *e = rc ? NULL : malloc(m->n_outputs * sizeof *e);
    double *an = rc ? NULL : malloc(m->n_outputs * sizeof *an);
    const char **why = rc ? NULL : malloc(m->n_outputs * sizeof *why);
    zvp_sim_result *r = NULL;
    if (!rc && (!e || !an || !why))
        rc = cli_error(c, ZVP_ENOMEM, "out of memory");
    zvp_error_clear(&err);
    if (!rc && zvp_model_simulate(m, p, so, e, why, &r, &err) != ZVP_SUCCESS)
        rc = cli_lib_error(c, &err);
    if (!rc) {
        model_warn_clipped(c, outputs_clipped(m, e, why), r);
        zvp_error_clear(&an_err);
        int an_st = zvp_model_eval(m, p, an, &an_err);
        if (c->json)
            rc = model_json(mf, file, e, why, an, an_st, &an_err, r, so);
        else
            model_text(m, e, why, an, r);
    }
    zvp_sim_result_free(r);
    free(e);
    free(an);
    free((void *)why);
    zvp_model_file_free(mf);
    return rc;
}

int cli_simulate_model(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    solve_opts o;
    zvp_sim_options so;
    memset(&o, 0, sizeof o);
    o.c = &c;
    o.kind = "MODEL";
    c.error_outputs = 1;
    int rc = cli_parse(&c, argc, argv, mopts, N_MOPTS, " for a model", &a);
    if (rc)
        return rc;
    c.json = o.json = a.json;
    rc = model_run_options(&o, &a, &so);
    if (!rc)
        rc = run_model(&c, &a, &so);
    cli_args_free(&a);
    return rc;
}
