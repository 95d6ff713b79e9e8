/*
 * src/cli/eval.c - `zvmperf eval MODEL [NAME=VALUE ...] [--interval LEVEL ...] [--json]`: one
 * point of a model, optionally with an interval on every output (include/zvmperf/interval.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "internal.h"

const char cli_help_eval[] =
    "Usage: zvmperf eval MODEL [NAME=VALUE ...] [--interval LEVEL [--method delta|mc]\n"
    "                   [--samples N] [--seed S] [--confidence]] [--json]\n"
    "Evaluate a model at one point and print its outputs with units.\n"
    "\n"
    "MODEL is a model file (e.g. calibration/params/sweetspot-zvm64.ini), '-' for a model\n"
    "file on standard input, the NAME of a calibrated file (NAME.ini looked up in\n"
    "$ZVMPERF_DATA/params, ./calibration/params and the installed share/zvmperf/params), or a\n"
    "registered model (its uncalibrated defaults; said on stderr). NAME=VALUE sets a\n"
    "parameter (each at most once; 'zvmperf models MODEL' lists names, units and ranges).\n"
    "With --interval and --method mc, NAME=LO..HI samples an uncalibrated input uniformly\n"
    "(the value column is at the middle of the range; for a whole-number parameter, whose\n"
    "ends must be whole, the whole number at or below it). If the middle has no steady state,\n"
    "the value column says 'unstable', lo and hi are the quantiles of the draws that have\n"
    "one (at least 2 x 5 / (1 - LEVEL) of them, else none), a NOTE gives their share, and\n"
    "the exit status is 3.\n"
    "\n"
    "Options:\n"
    "      --interval LEVEL  each output as value, lo, hi: a LEVEL (e.g. 0.9) prediction\n"
    "                        interval (parameter uncertainty from the file's covariance plus\n"
    "                        the output's residual scatter); the file must be calibrated\n"
    "      --method M        delta (default: linearised, Student t with the fit's effective\n"
    "                        dof) or mc (Monte Carlo draws of the fitted parameters)\n"
    "      --samples N       Monte Carlo draws (default 1000)\n"
    "      --seed S          Monte Carlo seed (default 1): the same numbers on any thread count\n"
    "      --confidence      a confidence interval (parameter uncertainty only)\n"
    "      --json            one JSON object {\"command\", \"model\", \"model_file\",\n"
    "                        \"parameters\", \"outputs\": {NAME: {\"value\", \"unit\"}},\n"
    "                        \"status\": ok|unstable|error}; with --interval each output\n"
    "                        also has \"lo\", \"hi\" and \"kind\", and \"interval\" says level,\n"
    "                        kind, method, samples, seed, dof_effective and\n"
    "                        no_steady_state_share (mc: stable_draws, and note when the\n"
    "                        value has no steady state: its values are null, lo and hi\n"
    "                        kept); with no steady state the outputs are null and \"nulls\"\n"
    "                        says why\n"
    "  -h, --help            this help\n"
    "  --                    end of options (a model file whose name starts with '-')\n";

enum { O_INTERVAL, O_METHOD, O_SAMPLES, O_SEED, O_CONFIDENCE, N_OPTS };
static const cli_option opts[N_OPTS] = {{"interval", 0, 1, 0}, {"method", 0, 1, 0},
                                        {"samples", 0, 1, 0}, {"seed", 0, 1, 0},
                                        {"confidence", 0, 0, 0}};

/* What an interval request holds besides the library options. */
typedef struct ivreq {
    int on;
    zvp_interval_options o;
    zvp_interval_range rng[64];
    char names[64][128];
    double *lo, *hi, no_result;
    int centre_unstable; /* Monte Carlo: no steady state at the centre, the draws taken */
} ivreq;

/* Draws with a steady state (Monte Carlo). */
static size_t stable_draws(const ivreq *iv)
{
    return (size_t)llround((1.0 - iv->no_result) * (double)iv->o.samples);
}

/* The NOTE on a value without a steady state whose draws were taken (src/interval/README.md,
 * "No steady state at the centre"). */
static void centre_note(const zvp_model_file *mf, const ivreq *iv, char *buf, size_t cap)
{
    const zvp_model *m = zvp_model_file_model(mf);
    const double *p = zvp_model_file_params((zvp_model_file *)mf);
    size_t k = stable_draws(iv), need = zvp_interval_min_stable_draws(iv->o.level), len;
    len = (size_t)snprintf(buf, cap, "no steady state at the centre");
    for (size_t r = 0; r < iv->o.n_ranges && len < cap; r++) {
        long i = zvp_model_param_index(m, iv->rng[r].name, NULL);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s = %g, the middle of %g..%g%s",
                                r ? "; " : " (", iv->rng[r].name, i >= 0 ? p[i] : NAN,
                                iv->rng[r].lo, iv->rng[r].hi,
                                i >= 0 && m->params[i].integer &&
                                        0.5 * (iv->rng[r].lo + iv->rng[r].hi) != p[i]
                                    ? " rounded down"
                                    : "");
    }
    if (len < cap && iv->o.n_ranges)
        len += (size_t)snprintf(buf + len, cap - len, ")");
    if (len >= cap)
        return;
    if (k >= need)
        snprintf(buf + len, cap - len, ": no value; lo and hi are the %g and %g quantiles of "
                 "the %zu of %zu draws (%.3g %%) that have a steady state", 0.5 - 0.5 * iv->o.level,
                 0.5 + 0.5 * iv->o.level, k, iv->o.samples, 100.0 * (1.0 - iv->no_result));
    else
        snprintf(buf + len, cap - len, ": no value; only %zu of %zu draws (%.3g %%) have a "
                 "steady state, fewer than the %zu needed for bounds at level %g (%d beyond "
                 "each bound): no bounds (more --samples or narrower ranges)", k, iv->o.samples,
                 100.0 * (1.0 - iv->no_result), need, iv->o.level, ZVP_INTERVAL_MIN_TAIL_DRAWS);
}

/* The interval kind of output j: "prediction" unless the output has no residual variance. */
static const char *kind_of(const zvp_model_file *mf, const ivreq *iv, size_t j)
{
    if (!iv->o.prediction)
        return "confidence";
    return isnan(zvp_model_file_residual_variance(mf, j, NULL))
               ? "confidence (the fit did not match this output: no residual variance)"
               : "prediction";
}

static json_t *interval_json(const zvp_model_file *mf, const ivreq *iv)
{
    json_t *o = json_object();
    double dof = zvp_model_file_dof_effective(mf);
    cli_json_set(o, "level", json_real(iv->o.level));
    cli_json_set(o, "kind", json_string(iv->o.prediction ? "prediction" : "confidence"));
    cli_json_set(o, "method", json_string(iv->o.method == ZVP_INTERVAL_MC ? "mc" : "delta"));
    if (iv->o.method == ZVP_INTERVAL_MC) {
        cli_json_set(o, "samples", json_integer((json_int_t)iv->o.samples));
        cli_json_set(o, "seed", json_integer((json_int_t)iv->o.seed));
        if (!isnan(iv->no_result))
            cli_json_set(o, "stable_draws", json_integer((json_int_t)stable_draws(iv)));
        cli_json_set(o, "min_stable_draws_unstable_centre",
                     json_integer((json_int_t)zvp_interval_min_stable_draws(iv->o.level)));
    }
    cli_json_set(o, "dof_effective", cli_json_num(dof, "unknown: normal quantiles"));
    cli_json_set(o, "no_steady_state_share", cli_json_num(iv->no_result, NULL));
    if (iv->centre_unstable) {
        char note[1024];
        centre_note(mf, iv, note, sizeof note);
        cli_json_set(o, "note", json_string(note));
    }
    return o;
}

/* The JSON result of one evaluation (out may hold NaN: null with the model's message). */
static int print_json(const zvp_model_file *mf, const char *file, const double *out, int st,
                      const zvp_error *err, const ivreq *iv)
{
    const zvp_model *m = zvp_model_file_model(mf);
    const double *p = zvp_model_file_params((zvp_model_file *)mf);
    json_t *d = cli_json_doc("eval"), *params = json_object(), *outs = json_object();
    const char *why = st == ZVP_SUCCESS ? NULL : err->message;
    cli_json_set(d, "model", json_string(m->name));
    cli_json_set(d, "model_file", file && *file ? json_string(file) : json_null());
    for (size_t i = 0; i < m->n_params; i++)
        cli_json_set(params, m->params[i].name, cli_json_qty(p[i], m->params[i].unit, NULL));
    for (size_t j = 0; j < m->n_outputs; j++) {
        json_t *q = cli_json_qty(out[j], m->outputs[j].unit, why);
        if (iv->on) {
            const char *nb = iv->centre_unstable ? "no bounds: too few draws with a steady state "
                                                   "(interval.note)"
                             : why ? why
                             : cli_step_no_interval(m, j, iv->o.method)
                                 ? CLI_STEP_NO_INTERVAL
                                 : "no interval: no draw or derivative with a result";
            cli_json_set(q, "lo", cli_json_num(iv->lo[j], nb));
            cli_json_set(q, "hi", cli_json_num(iv->hi[j], nb));
            cli_json_set(q, "kind", json_string(kind_of(mf, iv, j)));
        }
        cli_json_set(outs, m->outputs[j].name, q);
    }
    cli_json_set(d, "parameters", params);
    if (iv->on)
        cli_json_set(d, "interval", interval_json(mf, iv));
    cli_json_set(d, "outputs", outs);
    cli_json_set(d, "status", json_string(st == ZVP_SUCCESS    ? "ok"
                                          : st == ZVP_EUNSTABLE ? "unstable"
                                                                : "error"));
    if (st != ZVP_SUCCESS) {
        cli_json_set(d, "error", json_string(zvp_strerror(st)));
        cli_json_set(d, "exit_status", json_integer(cli_exit_code(st)));
        cli_json_set(d, "message", json_string(err->message));
    }
    return cli_json_print(d);
}

static void print_text(const zvp_model_file *mf, const double *out, const ivreq *iv)
{
    const zvp_model *m = zvp_model_file_model(mf);
    printf("model %s\n", m->name);
    if (iv->on) {
        double dof = zvp_model_file_dof_effective(mf);
        printf("%g%% %s interval, %s", 100.0 * iv->o.level,
               iv->o.prediction ? "prediction" : "confidence",
               iv->o.method == ZVP_INTERVAL_MC ? "Monte Carlo" : "delta method");
        if (iv->o.method == ZVP_INTERVAL_MC)
            printf(" (%zu draws, seed %llu; %.3g%% without a steady state)", iv->o.samples,
                   (unsigned long long)iv->o.seed, 100.0 * iv->no_result);
        else if (isfinite(dof))
            printf(" (Student t, %g effective dof)", dof);
        printf("\n  %-24s %14s %14s %14s %-9s\n", "output", "value", "lo", "hi", "unit");
    }
    for (size_t j = 0; j < m->n_outputs; j++) {
        char v[32];
        snprintf(v, sizeof v, iv->centre_unstable ? "unstable" : "%.6g", out[j] + 0.0);
        if (iv->on)
            printf("  %-24s %14s %14.6g %14.6g %-9s %s%s\n", m->outputs[j].name, v,
                   iv->lo[j] + 0.0, iv->hi[j] + 0.0, m->outputs[j].unit,
                   m->outputs[j].description,
                   cli_step_no_interval(m, j, iv->o.method) ? " [" CLI_STEP_NO_INTERVAL "]"
                   : strcmp(kind_of(mf, iv, j), "prediction") && iv->o.prediction
                       ? " [confidence only: not fitted]" : "");
        else
            printf("  %-24s %14.6g %-9s %s\n", m->outputs[j].name, out[j] + 0.0 /* -0: 0 */,
                   m->outputs[j].unit, m->outputs[j].description);
    }
    if (iv->centre_unstable) {
        char note[1024];
        centre_note(mf, iv, note, sizeof note);
        printf("NOTE: %s\n", note);
    }
}

/* --interval and its companions into iv; 0 or an exit status (reported). */
static int parse_interval(const cli_ctx *c, const cli_args *a, ivreq *iv)
{
    return cli_interval_options(c, a->value[O_INTERVAL], a->value[O_METHOD], a->value[O_SAMPLES],
                                a->value[O_SEED], a->value[O_CONFIDENCE] != NULL, &iv->o, &iv->on);
}

/* Split NAME=LO..HI arguments from the overrides: ranges go to iv (the parameter set to the
 * middle of the range), the others to ov. 0 or an exit status. */
static int split_ranges(const cli_ctx *c, zvp_model_file *mf, const char **pos, size_t n,
                        const char **ov, size_t *n_ov, ivreq *iv)
{
    const zvp_model *m = zvp_model_file_model(mf);
    *n_ov = 0;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(pos[i], '='), *dots = eq ? strstr(eq, "..") : NULL;
        char lo_s[64], hi_s[64];
        zvp_interval_range *g;
        zvp_error e;
        long k;
        if (!dots) {
            ov[(*n_ov)++] = pos[i];
            continue;
        }
        if (!iv->on || iv->o.method != ZVP_INTERVAL_MC)
            return cli_error(c, ZVP_EINVAL, "'%s': a range NAME=LO..HI is sampled by "
                             "--interval LEVEL --method mc only%s", pos[i],
                             iv->on ? " (not by --method delta)" : "");
        if (iv->o.n_ranges == 64 || (size_t)(eq - pos[i]) >= sizeof iv->names[0] ||
            (size_t)(dots - eq) > sizeof lo_s || strlen(dots + 2) >= sizeof hi_s)
            return cli_error(c, ZVP_EINVAL, "'%.100s': too many or too long ranges", pos[i]);
        g = &iv->rng[iv->o.n_ranges];
        snprintf(iv->names[iv->o.n_ranges], sizeof iv->names[0], "%.*s", (int)(eq - pos[i]),
                 pos[i]);
        snprintf(lo_s, sizeof lo_s, "%.*s", (int)(dots - eq - 1), eq + 1);
        snprintf(hi_s, sizeof hi_s, "%s", dots + 2);
        g->name = iv->names[iv->o.n_ranges];
        if (cli_number(lo_s, &g->lo) || cli_number(hi_s, &g->hi)) {
            const char *bad = cli_number(lo_s, &g->lo) ? lo_s : hi_s;
            return cli_error(c, ZVP_EPARSE, "'%s': %s %s (a range is NAME=LO..HI with numbers "
                             "LO < HI)", pos[i], bad, cli_number_why(bad));
        }
        if (!(g->lo < g->hi))
            return cli_error(c, ZVP_EPARSE, "'%s': a range is NAME=LO..HI with numbers LO < HI",
                             pos[i]);
        zvp_error_clear(&e);
        if ((k = zvp_model_param_index(m, g->name, &e)) < 0)
            return cli_lib_error(c, &e);
        if (g->lo < m->params[k].min || g->hi > m->params[k].max) {
            char a[32], b[32];
            return cli_error(c, ZVP_EINVAL, "%s: parameter %s = %s is out of range [%s, %s] "
                             "(unit %s; both ends of a range must lie in it)", m->name, g->name,
                             eq + 1, zvp_fmt_num(m->params[k].min, a, sizeof a),
                             zvp_fmt_num(m->params[k].max, b, sizeof b),
                             m->params[k].unit);
        }
        if (zvp_model_file_set(mf, g->name, m->params[k].integer ? floor(0.5 * (g->lo + g->hi))
                                                                  : 0.5 * (g->lo + g->hi), &e))
            return cli_lib_error(c, &e);
        iv->o.n_ranges++;
    }
    /* a value and a range for one parameter: the value would be the printed centre while
     * the draws come from the range (a value outside its own interval) */
    for (size_t r = 0; r < iv->o.n_ranges; r++) {
        const size_t len = strlen(iv->names[r]);
        for (size_t j = 0; j < *n_ov; j++)
            if (strncmp(ov[j], iv->names[r], len) == 0 && ov[j][len] == '=')
                return cli_error(c, ZVP_EINVAL, "parameter %s is given both a value ('%s') and "
                                 "a range: give one (the range's middle is the printed value)",
                                 iv->names[r], ov[j]);
    }
    iv->o.ranges = iv->rng;
    return 0;
}

/* Evaluate (with the interval when asked) and print. */
static int evaluate(const cli_ctx *c, zvp_model_file *mf, const char *file, ivreq *iv)
{
    const zvp_model *m = zvp_model_file_model(mf);
    double *out = malloc((3 * m->n_outputs + 1) * sizeof *out);
    zvp_error err;
    int st, rc = 0;
    if (!out)
        return cli_error(c, ZVP_ENOMEM, "out of memory");
    iv->lo = out + m->n_outputs;
    iv->hi = iv->lo + m->n_outputs;
    iv->no_result = NAN;
    zvp_error_clear(&err);
    st = iv->on ? zvp_interval_eval(mf, NULL, &iv->o, out, iv->lo, iv->hi, &iv->no_result, &err)
                : zvp_model_eval(m, zvp_model_file_params(mf), out, &err);
    iv->centre_unstable = iv->on && iv->o.method == ZVP_INTERVAL_MC && st == ZVP_EUNSTABLE &&
                          !isnan(iv->no_result);
    if (iv->on && st != ZVP_SUCCESS && st != ZVP_EUNSTABLE)
        rc = cli_lib_error(c, &err); /* no interval: the reason (e.g. a saturated file) */
    else if (c->json) {
        if (st != ZVP_SUCCESS) /* the bounds of the stable draws stay (centre_unstable) */
            for (size_t j = 0; j < (iv->centre_unstable ? 1 : 3) * m->n_outputs; j++)
                out[j] = NAN;
        rc = print_json(mf, file, out, st, &err, iv);
        if (st != ZVP_SUCCESS) {
            fprintf(stderr, "zvmperf eval: error: %s\n", err.message);
            rc = cli_exit_code(st);
        }
    } else if (st == ZVP_SUCCESS) {
        print_text(mf, out, iv);
    } else if (iv->centre_unstable) { /* the table, then the status (exit 3) */
        print_text(mf, out, iv);
        fflush(stdout);
        rc = cli_lib_error(c, &err);
    } else {
        rc = cli_lib_error(c, &err);
    }
    free(out);
    return rc;
}

int cli_eval(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    zvp_error err;
    zvp_model_file *mf = NULL;
    ivreq *iv = calloc(1, sizeof *iv);
    char file[4096];
    size_t src = 0, n_ov = 0;
    c.error_outputs = 1;
    int rc = iv ? cli_parse(&c, argc, argv, opts, N_OPTS, "", &a)
                : cli_error(&c, ZVP_ENOMEM, "out of memory");
    if (rc) {
        free(iv);
        return rc;
    }
    c.json = a.json;
    while (src < a.n_pos && strchr(a.pos[src], '='))
        src++;
    if ((rc = parse_interval(&c, &a, iv)) == 0 && src == a.n_pos)
        rc = cli_error(&c, ZVP_EINVAL, "eval needs a MODEL (a model file, '-', or a name): "
                       "usage: zvmperf eval MODEL [NAME=VALUE ...] [--interval LEVEL] [--json]");
    if (!rc && cli_open_model(&c, a.pos[src], &mf, file, sizeof file, &err) != ZVP_SUCCESS)
        rc = cli_lib_error(&c, &err);
    /* the overrides: every positional but the model; ranges NAME=LO..HI apart */
    const char **pos = rc ? NULL : malloc((a.n_pos + 1) * sizeof *pos);
    const char **ov = pos ? malloc((a.n_pos + 1) * sizeof *ov) : NULL;
    size_t n_pos = 0;
    if (!rc && (!pos || !ov))
        rc = cli_error(&c, ZVP_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < a.n_pos; i++)
        if (i != src)
            pos[n_pos++] = a.pos[i];
    if (!rc)
        rc = split_ranges(&c, mf, pos, n_pos, ov, &n_ov, iv);
    if (!rc)
        rc = cli_apply_overrides(&c, mf, ov, n_ov, 0, NULL, 0);
    if (!rc)
        cli_warn_unset(&c, mf, file, NULL, 0);
    if (!rc)
        rc = evaluate(&c, mf, file, iv);
    free(pos);
    free(ov);
    cli_args_free(&a);
    zvp_model_file_free(mf);
    free(iv);
    return rc;
}
