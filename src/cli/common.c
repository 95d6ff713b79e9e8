/*
 * src/cli/common.c - what every command shares: the one exit-code map, error and warning
 * reports (text on stderr, and one JSON error object on stdout with --json), numbers in
 * the library's grammar, NAME=VALUE parameter overrides, and the sweep's setup and summary
 * (zvmperf sweep and zvmperf-mpi).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "internal.h"
#include "util/atomic.h"
#include "util/decimal.h"

int cli_exit_code(int status)
{
    switch (status) {
    case ZVP_SUCCESS: return CLI_EXIT_OK;
    case ZVP_EUNSTABLE: return CLI_EXIT_UNSTABLE;
    case ZVP_EINVAL:
    case ZVP_EBADLEN:
    case ZVP_ENOTFOUND:
    case ZVP_EPARSE: return CLI_EXIT_BADINPUT;
    case ZVP_EINTERNAL: return CLI_EXIT_FAILURE; /* a failed consistency check: a bug */
    case ZVP_ECANCELED: return 130; /* interrupted: 128 + SIGINT (sweep: 143 for SIGTERM) */
    default: return CLI_EXIT_FAILURE; /* EIO, ENOMEM, EMAXITER, EFIT, unknown */
    }
}

/* The JSON error object: {"command", "status": "error" | "unstable", "error", "exit_status",
 * "message"} (+ "outputs": {} for eval). */
static void json_error(const cli_ctx *c, int status, int exit_code, const char *msg)
{
    json_t *d = cli_json_doc(c->command);
    cli_json_set(d, "status", json_string(status == ZVP_EUNSTABLE ? "unstable" : "error"));
    cli_json_set(d, "error", json_string(zvp_strerror(status)));
    cli_json_set(d, "exit_status", json_integer(exit_code));
    cli_json_set(d, "message", json_string(msg));
    if (c->error_outputs)
        cli_json_set(d, "outputs", json_object());
    cli_json_print(d);
}

static int emit_exit(const cli_ctx *c, int status, int exit_code, const char *msg)
{
    fprintf(stderr, "zvmperf %s: error: %s\n", c->command, msg);
    if (c->json)
        json_error(c, status, exit_code, msg);
    return exit_code;
}

static int emit(const cli_ctx *c, int status, const char *msg)
{
    return emit_exit(c, status, cli_exit_code(status), msg);
}

int cli_error_exit(const cli_ctx *c, int status, int exit_code, const char *fmt, ...)
{
    char msg[2 * ZVP_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return emit_exit(c, status, exit_code, msg);
}

int cli_error(const cli_ctx *c, int status, const char *fmt, ...)
{
    char msg[2 * ZVP_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return emit(c, status, msg);
}

/* Does msg already say what the status means? The status text up to its first " (" (so
 * "no steady state" for "no steady state (utilization >= 1)"), case-insensitively. */
static int says_status(const char *msg, const char *what)
{
    size_t n = strcspn(what, "(");
    while (n > 0 && what[n - 1] == ' ')
        n--;
    for (const char *p = msg; *p; p++)
        if (strncasecmp(p, what, n) == 0)
            return 1;
    return 0;
}

/* A library error: its message, with the status's meaning appended once, only when the
 * message does not already say it (so nothing is said twice). */
int cli_lib_error(const cli_ctx *c, const zvp_error *e)
{
    int status = e->status ? e->status : ZVP_EINVAL;
    const char *what = zvp_strerror(status);
    if (!e->message[0])
        return emit(c, status, what);
    if (says_status(e->message, what))
        return emit(c, status, e->message);
    return cli_error(c, status, "%s (%s)", e->message, what);
}

void cli_warn(const cli_ctx *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "zvmperf %s: warning: ", c->command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The library's one number grammar (decimal only: no hex, inf or nan), as in model files,
 * fit files, CSV cells and sweep axes. */
int cli_number(const char *s, double *out)
{
    return s ? zvp_parse_double(s, out) : -1;
}

/* Why s is refused: the library's phrase (src/util/decimal.h), shared with the sweep axes
 * and the claims parser. */
const char *cli_number_why(const char *s) { return zvp_decimal_why(s); }

/* NAME=VALUE: split into name (buffer) and value; -1 when arg is not of that form. */
static int split_override(const char *arg, char *name, size_t n, const char **value)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= n)
        return -1;
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    *value = eq + 1;
    return 0;
}

int cli_apply_overrides(const cli_ctx *c, zvp_model_file *mf, const char **pos, size_t n_pos,
                        size_t first, const char *const *skip, size_t n_skip)
{
    for (size_t i = first; i < n_pos; i++) {
        char name[128], prev[128];
        const char *val, *pval;
        double v;
        zvp_error e;
        if (split_override(pos[i], name, sizeof name, &val) != 0)
            return cli_error(c, ZVP_EPARSE,
                             "argument '%s' is not NAME=VALUE (a parameter assignment)", pos[i]);
        for (size_t j = first; j < i; j++)
            if (split_override(pos[j], prev, sizeof prev, &pval) == 0 && strcmp(prev, name) == 0)
                return cli_error(c, ZVP_EPARSE, "parameter %s is given twice ('%s' and '%s')",
                                 name, pos[j], pos[i]);
        for (size_t k = 0; k < n_skip; k++)
            if (strcmp(skip[k], name) == 0)
                return cli_error(c, ZVP_EINVAL,
                                 "parameter %s is both swept (--axis) and fixed ('%s')", name,
                                 pos[i]);
        if (cli_number(val, &v) != 0 && strstr(val, ".."))
            return cli_error(c, ZVP_EPARSE, "parameter %s = %s: a range NAME=LO..HI is sampled "
                             "by 'zvmperf eval ... --interval LEVEL --method mc' only; here give "
                             "one value (or sweep it with --axis %s=LO:HI:STEP)", name, val, name);
        if (cli_number(val, &v) != 0) {
            const zvp_model *m = zvp_model_file_model(mf);
            for (size_t k = 0; m && k < m->n_params; k++)
                if (strcmp(m->params[k].name, name) == 0) {
                    char lo[32], hi[32];
                    return cli_error(c, ZVP_EPARSE,
                                     "parameter %s = %s %s (a finite decimal number in [%s, %s], "
                                     "unit %s)", name, val, cli_number_why(val),
                                     zvp_fmt_num(m->params[k].min, lo, sizeof lo),
                                     zvp_fmt_num(m->params[k].max, hi, sizeof hi),
                                     m->params[k].unit);
                }
            return cli_error(c, ZVP_EPARSE, "parameter %s = %s %s (a decimal number within the "
                             "parameter's range; 'zvmperf models' lists them)", name, val,
                             cli_number_why(val));
        }
        zvp_error_clear(&e);
        if (zvp_model_file_set(mf, name, v, &e) != ZVP_SUCCESS)
            return cli_lib_error(c, &e);
    }
    return 0;
}

/* --NAME = s as a whole number in [lo, hi] into *out; 0 or an exit status (reported). */
static int count_option(const cli_ctx *c, const char *name, const char *s, double lo, double hi,
                        double *out)
{
    double v;
    if (cli_number(s, &v) != 0 || v != floor(v) || v < lo || v > hi)
        return cli_error(c, ZVP_EINVAL, "--%s = '%s' is not an integer in [%.0f, %.0f]", name, s,
                         lo, hi);
    *out = v;
    return 0;
}

int cli_sweep_counts(const cli_ctx *c, const char *threads, const char *block,
                     zvp_sweep_options *o)
{
    double v;
    int rc;
    if (threads && (rc = count_option(c, "threads", threads, 0, 4096, &v)))
        return rc;
    if (threads)
        o->threads = (int32_t)v;
    if (block && (rc = count_option(c, "block", block, 1, 1073741824.0, &v)))
        return rc;
    if (block)
        o->block_points = (uint64_t)v;
    return 0;
}

int cli_sweep_parse_axes(const cli_ctx *c, const cli_args *a, int axis_opt, cli_sweep_axes *x)
{
    zvp_error err;
    for (size_t i = 0; i < a->n_items; i++) {
        if (a->item_opt[i] != axis_opt)
            continue;
        if (x->n_axes == CLI_MAX_AXES)
            return cli_error(c, ZVP_EINVAL, "at most %d axes (--axis %s)", CLI_MAX_AXES,
                             a->item_val[i]);
        size_t k = x->n_axes;
        zvp_error_clear(&err);
        if (zvp_axis_parse(a->item_val[i], &x->names[k], &x->vals[k], &x->axes[k].n_values,
                           &err) != ZVP_SUCCESS)
            return cli_lib_error(c, &err);
        x->axes[k].name = x->names[k];
        x->axes[k].values = x->vals[k];
        x->n_axes++;
    }
    return 0;
}

void cli_sweep_axes_free(cli_sweep_axes *x)
{
    for (size_t k = 0; k < x->n_axes; k++) {
        free(x->names[k]);
        free(x->vals[k]);
    }
    x->n_axes = 0;
}

int cli_sweep_model(const cli_ctx *c, const cli_args *a, size_t src, const char *out,
                    const cli_sweep_axes *x, zvp_model_file **mf)
{
    zvp_error err;
    char file[4096];
    int rc;
    if (cli_open_model(c, a->pos[src], mf, file, sizeof file, &err) != ZVP_SUCCESS)
        return cli_lib_error(c, &err);
    const char *in[1] = {file[0] ? file : NULL}, *in_what[1] = {"model file"};
    const char *outs[1] = {out}, *out_what[1] = {"HDF5 file (-o)"};
    zvp_error_clear(&err);
    if (zvp_check_outputs(in, in_what, 1, outs, out_what, 1, &err) != ZVP_SUCCESS)
        return cli_lib_error(c, &err);
    const char **ov = malloc((a->n_pos + 1) * sizeof *ov);
    const char *skip[CLI_MAX_AXES];
    size_t n_ov = 0;
    for (size_t k = 0; k < x->n_axes; k++)
        skip[k] = x->axes[k].name;
    for (size_t i = 0; ov && i < a->n_pos; i++)
        if (i != src)
            ov[n_ov++] = a->pos[i];
    rc = ov ? cli_apply_overrides(c, *mf, ov, n_ov, 0, skip, x->n_axes)
            : cli_error(c, ZVP_ENOMEM, "out of memory");
    if (!rc)
        cli_warn_unset(c, *mf, file, skip, x->n_axes);
    free(ov);
    return rc;
}

/* The summary of a finished sweep, shared by `zvmperf sweep` and `zvmperf-mpi sweep` (ranks
 * > 0 adds "on N ranks" and a "ranks" key). Invalid points are bad input the model rejected
 * at those points (for example a non-integer count): warn, and fail when no point is valid. */
int cli_sweep_summary(const cli_ctx *c, const zvp_model *m, const zvp_axis *axes, size_t n_axes,
                      const char *out, const zvp_sweep_summary *s, int ranks)
{
    int rc = CLI_EXIT_OK;
    char on[32] = "";
    if (s->invalid > 0)
        cli_warn(c, "%llu of %llu points are invalid input (status 3 in /status); check the "
                 "axis values against 'zvmperf models %s'", (unsigned long long)s->invalid,
                 (unsigned long long)s->points, m->name);
    if (s->invalid == s->points) {
        fprintf(stderr, "zvmperf sweep: error: no point of the sweep is valid input; evaluate "
                "one point with 'zvmperf eval' to see the model's message\n");
        rc = CLI_EXIT_BADINPUT;
    }
    if (ranks > 0)
        snprintf(on, sizeof on, " on %d ranks", ranks);
    if (!c->json) {
        printf("sweep %s: %llu points (%llu ok, %llu no steady state, %llu invalid) in %.3f s"
               "%s -> %s\n", m->name, (unsigned long long)s->points, (unsigned long long)s->ok,
               (unsigned long long)s->unstable, (unsigned long long)s->invalid, s->seconds, on,
               out);
        return rc;
    }
    json_t *d = cli_json_doc("sweep"), *ja = json_array();
    cli_json_set(d, "status", json_string(rc ? "error" : "ok"));
    if (rc)
        cli_json_set(d, "message", json_string("no point of the sweep is valid input"));
    cli_json_set(d, "model", json_string(m->name));
    cli_json_set(d, "output", json_string(out));
    cli_json_set(d, "points", json_integer((json_int_t)s->points));
    cli_json_set(d, "ok", json_integer((json_int_t)s->ok));
    cli_json_set(d, "unstable", json_integer((json_int_t)s->unstable));
    cli_json_set(d, "invalid", json_integer((json_int_t)s->invalid));
    cli_json_set(d, "seconds", cli_json_qty(s->seconds, "s", NULL));
    if (ranks > 0)
        cli_json_set(d, "ranks", json_integer(ranks));
    for (size_t k = 0; ja && k < n_axes; k++) {
        const char *unit = "";
        for (size_t p = 0; p < m->n_params; p++)
            if (strcmp(m->params[p].name, axes[k].name) == 0)
                unit = m->params[p].unit;
        json_array_append_new(ja, json_pack("{s:s, s:s, s:I}", "name", axes[k].name, "unit",
                                            unit, "n_values", (json_int_t)axes[k].n_values));
    }
    cli_json_set(d, "axes", ja);
    int prc = cli_json_print(d);
    return rc ? rc : prc;
}
