/*
 * src/cli/calibrate.c - `zvmperf calibrate FITFILE [-o MODELFILE] [--h5 REPORT.h5]`: run a
 * fit, print its report and one summary line (or the summary as JSON), and write the
 * calibrated model file and the HDF5 report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "fit/fit_impl.h"
#include "internal.h"
#include "util/atomic.h"
#include "util/ini.h"

const char cli_help_calibrate[] =
    "Usage: zvmperf calibrate FITFILE [-o MODELFILE] [--h5 REPORT.h5] [--json]\n"
    "Fit a model's free parameters to measured data as FITFILE describes (e.g.\n"
    "calibration/fits/sweetspot-zvm64.ini), print the report (estimates with standard errors,\n"
    "R^2, RMSE and MAPE per output, every row with its residual) and a 'summary:' line (fit,\n"
    "model, release, rows, free parameters, the smallest R^2 of any output, MAPE %, the worst\n"
    "cell, and the output whose R^2 is the smallest: one flat in the data can have R^2 near or\n"
    "below 0 at a small MAPE, so read MAPE first), and\n"
    "write the calibrated model file and the same report as HDF5: both or neither (each goes\n"
    "to a temporary file first), never over an input (fit, data, join or base file). A model\n"
    "file that would not change but for its fitted_at line is left as it is (the summary says\n"
    "[unchanged]).\n"
    "A free parameter that ends on a bound of its [free] interval (within 1e-9 of it,\n"
    "relative to max(|bound|, hi - lo)) is a warning on stderr naming it, its value and the\n"
    "bound: the data call for a value at or beyond it, so the fit may be misspecified (units\n"
    "of the data, starting value, bounds). The files are written and the exit status is 0.\n"
    "\n"
    "Options:\n"
    "  -o, --output MODELFILE  the model file to write (default: 'output' in [fit])\n"
    "      --h5 REPORT.h5      the HDF5 report (default: MODELFILE with .report.h5)\n"
    "      --json              instead of the text report, one JSON object: \"fit\", \"model\",\n"
    "                          \"release\", \"rows\", \"free\", \"r2_min\", \"mape_pct\", \"worst\",\n"
    "                          \"parameters\" (estimate and stderr as {\"value\", \"unit\"}),\n"
    "                          \"outputs\" (r2, rmse, mape), \"model_file\", \"model_file_unchanged\",\n"
    "                          \"report_h5\", \"status\"\n"
    "  -h, --help              this help\n";

enum { O_OUTPUT, O_H5, N_OPTS };
static const cli_option opts[N_OPTS] = {{"output", 'o', 1, 0}, {"h5", 0, 1, 0}};

/* What the summary line says: fit name, release, smallest R^2, worst cell. */
typedef struct summary {
    char name[128], release[128];
    double r2min, worst_pct;
    size_t wi, wj, r2j; /* r2j: the output with the smallest R^2 (when r2min is a number) */
    int has_worst;
    int unchanged; /* the model file already holds this content (but fitted_at): not rewritten */
} summary;

static void summarize(const char *fitpath, const zvp_fit *fitd, const zvp_fit_result *res,
                      summary *s)
{
    const zvp_model *m = zvp_model_file_model(zvp_fit_result_model_file(res));
    const char *base = strrchr(fitpath, '/') ? strrchr(fitpath, '/') + 1 : fitpath;
    size_t rows = zvp_fit_result_n_rows(res), k = zvp_fit_result_n_matched(res);
    const double *fit = zvp_fit_result_fitted(res);
    size_t mlen = strlen(m->name);
    double worst = -1.0;
    snprintf(s->name, sizeof s->name, "%s", base);
    if (strlen(s->name) > 4 && strcmp(s->name + strlen(s->name) - 4, ".ini") == 0)
        s->name[strlen(s->name) - 4] = '\0';
    snprintf(s->release, sizeof s->release, "%s",
             strncmp(s->name, m->name, mlen) == 0 && s->name[mlen] == '-' ? s->name + mlen + 1
                                                                           : "-");
    s->r2min = INFINITY;
    s->r2j = 0;
    for (size_t j = 0; j < k; j++) {
        double r2 = zvp_fit_result_r2(res, j);
        if (r2 == r2 && r2 < s->r2min) {
            s->r2min = r2;
            s->r2j = j;
        }
    }
    if (!isfinite(s->r2min))
        s->r2min = NAN; /* no output with a defined R^2 (one row, or flat data) */
    s->wi = s->wj = 0;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < k; j++) {
            /* the residual % of the report; NaN for a cell near zero (no relative error) */
            double pct = zvp_fit_cell_pct(fitd, i, j, fit[i * k + j]);
            if (pct == pct && fabs(pct) > worst) {
                worst = fabs(pct);
                s->wi = i;
                s->wj = j;
                s->worst_pct = pct;
            }
        }
    s->has_worst = worst >= 0;
    if (!s->has_worst)
        s->worst_pct = 0.0;
}

static void print_summary(const zvp_fit_result *res, const summary *s)
{
    const zvp_model *m = zvp_model_file_model(zvp_fit_result_model_file(res));
    printf("\nsummary: %-22s %-10s %-14s %5zu %5zu %9.4f %8.3f  %s (%s, %+.1f%%); R2(min) of %s%s\n",
           s->name, m->name, s->release, zvp_fit_result_n_rows(res), zvp_fit_result_n_free(res),
           s->r2min, zvp_fit_result_mape_all(res),
           s->has_worst ? zvp_fit_result_row_label(res, s->wi) : "-",
           s->has_worst ? zvp_fit_result_output_name(res, s->wj) : "-", s->worst_pct,
           s->r2min == s->r2min ? zvp_fit_result_output_name(res, s->r2j) : "-",
           s->unchanged ? " [unchanged]" : "");
}

/* The unit of a model parameter or output by name ("" when not found). */
static const char *unit_of(const zvp_param_desc *d, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(d[i].name, name) == 0)
            return d[i].unit;
    return "";
}

static int print_json(const zvp_fit_result *res, const summary *s, const char *out,
                      const char *h5)
{
    const zvp_model *m = zvp_model_file_model(zvp_fit_result_model_file(res));
    const double *est = zvp_fit_result_estimates(res), *se = zvp_fit_result_stderrs(res);
    json_t *d = cli_json_doc("calibrate"), *params = json_array(), *outs = json_array();
    const char *no_r2 = "R^2 not defined: one row, or flat data";
    cli_json_set(d, "status", json_string("ok"));
    cli_json_set(d, "fit", json_string(s->name));
    cli_json_set(d, "model", json_string(m->name));
    cli_json_set(d, "release", json_string(s->release));
    cli_json_set(d, "rows", json_integer((json_int_t)zvp_fit_result_n_rows(res)));
    cli_json_set(d, "free", json_integer((json_int_t)zvp_fit_result_n_free(res)));
    cli_json_set(d, "r2_min", cli_json_qty(s->r2min, "1", no_r2));
    cli_json_set(d, "r2_min_output", s->r2min == s->r2min
                                         ? json_string(zvp_fit_result_output_name(res, s->r2j))
                                         : json_null());
    cli_json_set(d, "mape_pct", cli_json_qty(zvp_fit_result_mape_all(res), "%", NULL));
    if (zvp_fit_result_saturated(res))
        cli_json_set(d, "stderr_note", json_string("saturated: standard errors undefined"));
    cli_json_set(d, "worst", s->has_worst ? json_pack("{s:s, s:s, s:o}", "row",
                                                      zvp_fit_result_row_label(res, s->wi),
                                                      "output", zvp_fit_result_output_name(res, s->wj),
                                                      "residual_pct", cli_json_qty(s->worst_pct, "%", NULL))
                                          : json_null());
    for (size_t i = 0; params && i < zvp_fit_result_n_free(res); i++) {
        const char *name = zvp_fit_result_param_name(res, i);
        const char *unit = unit_of(m->params, m->n_params, name);
        json_array_append_new(params, json_pack("{s:s, s:o, s:o}", "name", name, "estimate",
                                                cli_json_qty(est[i], unit, NULL), "stderr",
                                                cli_json_qty(se[i], unit, "standard error not defined (no residual degree of freedom or a singular Jacobian)")));
    }
    for (size_t j = 0; outs && j < zvp_fit_result_n_matched(res); j++) {
        const char *name = zvp_fit_result_output_name(res, j);
        const char *unit = unit_of(m->outputs, m->n_outputs, name);
        json_array_append_new(outs, json_pack("{s:s, s:o, s:o, s:o}", "name", name, "r2",
                                              cli_json_qty(zvp_fit_result_r2(res, j), "1", no_r2),
                                              "rmse", cli_json_qty(zvp_fit_result_rmse(res, j), unit, NULL),
                                              "mape_pct", cli_json_qty(zvp_fit_result_mape(res, j), "%", NULL)));
    }
    cli_json_set(d, "parameters", params);
    cli_json_set(d, "outputs", outs);
    cli_json_set(d, "iterations", json_integer((json_int_t)zvp_fit_result_iterations(res)));
    cli_json_set(d, "converged", json_boolean(zvp_fit_result_converged(res)));
    cli_json_set(d, "model_file", json_string(out));
    cli_json_set(d, "model_file_unchanged", json_boolean(s->unchanged));
    cli_json_set(d, "report_h5", json_string(h5));
    return cli_json_print(d);
}

/* An estimate within BOUND_REL_TOL x max(|bound|, hi - lo) of a bound has ended on it: the
 * logistic map reaches a bound only as its u runs off to +-infinity, so the optimiser stops
 * just short of it (where the gradient in u, proportional to the distance, falls below its
 * tolerance). The width keeps a bound at 0 in scale; |bound| a narrow interval far from 0. */
#define BOUND_REL_TOL 1e-9

/* A warning on stderr for every free parameter that ended on a bound: the least-squares
 * optimum lies at or beyond it, which a well-posed fit does not do (wrong units in the data,
 * a poor start, or bounds that exclude the value the data call for). Returns how many. */
static size_t warn_at_bounds(const cli_ctx *c, const char *fitpath, const zvp_fit *fit,
                             const zvp_fit_result *res)
{
    const zvp_model *m = zvp_model_file_model(zvp_fit_result_model_file(res));
    const double *est = zvp_fit_result_estimates(res);
    size_t n = 0;
    for (size_t k = 0; k < zvp_fit_result_n_free(res) && k < zvp_fit_n_free(fit); k++) {
        double lo = NAN, hi = NAN;
        size_t idx = zvp_fit_free_param_at(fit, k, NULL, &lo, &hi);
        const char *name = zvp_fit_result_param_name(res, k), *which = NULL;
        char v[32], b[32], l[32], h[32];
        if (idx >= m->n_params || !name || strcmp(m->params[idx].name, name) != 0 ||
            !(hi > lo) || !isfinite(hi - lo))
            continue;
        if (fabs(est[k] - lo) <= BOUND_REL_TOL * fmax(fabs(lo), hi - lo))
            which = "lower";
        else if (fabs(hi - est[k]) <= BOUND_REL_TOL * fmax(fabs(hi), hi - lo))
            which = "upper";
        if (!which)
            continue;
        cli_warn(c, "%s: free parameter %s = %s %s ends at its %s bound %s ([free] interval "
                 "(%s, %s)): the data call for a value at or beyond it, so the fit may be "
                 "misspecified (check the units of the data columns, the starting value and "
                 "the bounds)", fitpath, name, zvp_fmt_num(est[k], v, sizeof v),
                 m->params[idx].unit, which, zvp_fmt_num(which[0] == 'l' ? lo : hi, b, sizeof b),
                 zvp_fmt_num(lo, l, sizeof l), zvp_fmt_num(hi, h, sizeof h));
        n++;
    }
    return n;
}

/* p moved past any lines that set `fitted_at` ("fitted_at = ..."). */
static const char *skip_fitted_at(const char *p)
{
    static const char key[] = "fitted_at";
    while (strncmp(p, key, sizeof key - 1) == 0 &&
           p[sizeof key - 1 + strspn(p + sizeof key - 1, " \t")] == '=')
        p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
    return p;
}

/* Text equality line by line, skipping the lines that set `fitted_at` (the only line a refit
 * of unchanged inputs changes). */
static int same_but_fitted_at(const char *a, const char *b)
{
    for (;;) {
        a = skip_fitted_at(a);
        b = skip_fitted_at(b);
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0 || (a[la] == '\0') != (b[lb] == '\0'))
            return 0;
        if (a[la] == '\0')
            return 1;
        a += la + 1;
        b += lb + 1;
    }
}

/* 1 when the regular file `out` already holds what writing mf would give, but for the
 * `fitted_at` line: the caller then leaves it alone (no churn of calibrated files). Any
 * doubt (no such file, not a regular file, a read or write failure) gives 0: write. The new
 * text is written to a private temporary file and read back, so it is exactly what
 * zvp_model_file_write produces. */
static int model_file_unchanged(const zvp_model_file *mf, const char *out)
{
    struct stat sb;
    char tmp[] = "/tmp/zvmperf-calibrate-XXXXXX";
    char *old = NULL, *neu = NULL;
    size_t lo = 0, ln = 0;
    int fd, same = 0;
    if (stat(out, &sb) != 0 || !S_ISREG(sb.st_mode) || (fd = mkstemp(tmp)) < 0)
        return 0;
    close(fd);
    if (zvp_model_file_write(mf, tmp, NULL) == ZVP_SUCCESS &&
        zvp_read_input(tmp, ZVP_INI_MAX_BYTES, &neu, &ln, NULL) == ZVP_SUCCESS &&
        zvp_read_input(out, ZVP_INI_MAX_BYTES, &old, &lo, NULL) == ZVP_SUCCESS)
        same = strlen(old) == lo && strlen(neu) == ln && same_but_fitted_at(old, neu);
    unlink(tmp);
    free(old);
    free(neu);
    return same;
}

/* REPORT path beside the model file: foo.ini -> foo.report.h5 */
static void report_path(const char *model_path, char *buf, size_t n)
{
    size_t len = strlen(model_path);
    if (len > 4 && strcmp(model_path + len - 4, ".ini") == 0)
        len -= 4;
    snprintf(buf, n, "%.*s.report.h5", (int)len, model_path);
}

/* Refuse outputs that are inputs of the fit or the same file twice (exit 2). */
static int check_outputs(const cli_ctx *c, const zvp_fit *fit, const char *out, const char *h5)
{
    const char *outs[2] = {out, h5}, *out_what[2] = {"model file", "HDF5 report"};
    size_t n = zvp_fit_n_input_files(fit);
    const char **in = calloc(2 * n + 1, sizeof *in), **in_what = in + n;
    zvp_error err;
    int rc = 0;
    if (!in)
        return cli_error(c, ZVP_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        in[i] = zvp_fit_input_file(fit, i, &in_what[i]);
    zvp_error_clear(&err);
    if (zvp_check_outputs(in, in_what, n, outs, out_what, 2, &err) != ZVP_SUCCESS)
        rc = cli_lib_error(c, &err);
    free(in);
    return rc;
}

/* Both outputs to their temporaries first; both renamed only when both are complete. */
static int write_outputs(const zvp_fit_result *res, const char *out, const char *h5,
                         zvp_error *err)
{
    zvp_atomic a[2] = {{NULL, NULL}, {NULL, NULL}};
    int st = zvp_atomic_begin(&a[0], out, err);
    if (st == ZVP_SUCCESS)
        st = zvp_atomic_begin(&a[1], h5, err);
    if (st == ZVP_SUCCESS)
        st = zvp_model_file_write_tmp(zvp_fit_result_model_file(res), &a[0], err);
    if (st == ZVP_SUCCESS)
        st = zvp_fit_result_write_h5_tmp(res, &a[1], err);
    if (st == ZVP_SUCCESS)
        return zvp_atomic_commit_all(a, 2, err);
    zvp_atomic_abort(&a[0]);
    zvp_atomic_abort(&a[1]);
    return st;
}

static int run(const cli_ctx *c, const char *fitpath, const char *out, const char *h5)
{
    zvp_error err;
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    char h5buf[4096];
    summary s;
    int st, rc = 0;
    zvp_error_clear(&err);
    if (zvp_fit_read(fitpath, &fit, &err) != ZVP_SUCCESS)
        return cli_lib_error(c, &err);
    if (!out)
        out = zvp_fit_output_path(fit);
    if (!out) {
        zvp_fit_free(fit);
        return cli_error(c, ZVP_EINVAL, "%s has no 'output' in [fit]; give -o MODELFILE", fitpath);
    }
    if (!h5) {
        report_path(out, h5buf, sizeof h5buf);
        h5 = h5buf;
    }
    if ((rc = check_outputs(c, fit, out, h5))) {
        zvp_fit_free(fit);
        return rc;
    }
    /* refuse an output that cannot be written (a directory, a device, a missing or read-only
     * directory) before the fit runs, not after */
    for (int k = 0; k < 2; k++) {
        zvp_atomic probe = {NULL, NULL};
        if (zvp_atomic_begin(&probe, k ? h5 : out, &err) != ZVP_SUCCESS) {
            zvp_fit_free(fit);
            return cli_lib_error(c, &err);
        }
        zvp_atomic_abort(&probe);
    }
    st = zvp_fit_run(fit, &res, &err);
    if (st == ZVP_SUCCESS) {
        warn_at_bounds(c, fitpath, fit, res);
        summarize(fitpath, fit, res, &s);
        s.unchanged = model_file_unchanged(zvp_fit_result_model_file(res), out);
        if (!c->json) {
            zvp_fit_result_print(res, stdout);
            print_summary(res, &s);
        }
        /* an unchanged model file is left alone: only the report is (atomically) written */
        st = s.unchanged ? zvp_fit_result_write_h5(res, h5, &err)
                         : write_outputs(res, out, h5, &err);
    }
    if (st != ZVP_SUCCESS)
        rc = cli_lib_error(c, &err);
    else if (c->json)
        rc = print_json(res, &s, out, h5);
    else if (s.unchanged)
        printf("\nunchanged %s (only fitted_at would differ: not rewritten); wrote %s\n", out, h5);
    else
        printf("\nwrote %s and %s\n", out, h5);
    zvp_fit_result_free(res);
    zvp_fit_free(fit);
    return rc;
}

int cli_calibrate(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    int rc = cli_parse(&c, argc, argv, opts, N_OPTS, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    if (a.n_pos != 1)
        rc = a.n_pos == 0 ? cli_error(&c, ZVP_EINVAL, "calibrate needs a FITFILE (see 'zvmperf "
                                      "calibrate --help')")
                          : cli_error(&c, ZVP_EINVAL, "calibrate takes one FITFILE: unknown or "
                                      "repeated argument '%s'", a.pos[1]);
    else
        rc = run(&c, a.pos[0], a.value[O_OUTPUT], a.value[O_H5]);
    cli_args_free(&a);
    return rc;
}
