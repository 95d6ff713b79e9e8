/*
 * src/cli/validate.c - `zvmperf validate FITFILE [--scheme loo|group:COLUMN] [--threads N]
 * [--json]`: cross-validate a fit (zvp_fit_validate) and list the knife-edges of the
 * calibrated point (zvp_sensitivity at every row).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const char cli_help_validate[] =
    "Usage: zvmperf validate FITFILE [--scheme loo|group:COLUMN] [--threads N] [--json]\n"
    "Cross-validate the fit FITFILE describes: fit it on all rows (in-sample), then refit it\n"
    "with each row (loo) or each group of rows sharing a value of a data column (group:COLUMN,\n"
    "e.g. group:storage_gb) left out, in parallel, and predict what was left out. Prints the\n"
    "in-sample and cross-validated (CV) MAPE per output and overall, the effective degrees of\n"
    "freedom (independent measured cells - free parameters; cells declared in [dependent] are\n"
    "not independent), the coverage of the 90% prediction intervals on the held-out cells (a\n"
    "fold with no degree of freedom has no interval: its cells count as not covered; n/a,\n"
    "JSON null, when no held-out cell has one), every fold with its status (a fold that\n"
    "cannot be fitted is listed, not skipped; a scheme whose one fold holds every row, or\n"
    "whose every fold is too small or fails, is an error, exit 2), every row\n"
    "with its data file and held-out MAPE, the worst held-out cell, and the knife-edges of the\n"
    "calibrated point (|d ln output / d ln parameter| > 3 at a row, for the matched outputs).\n"
    "Writes no file.\n"
    "\n"
    "Options:\n"
    "      --scheme S   loo (default) or group:COLUMN\n"
    "      --threads N  OpenMP threads for the folds, 0..1024 (0: the OpenMP default)\n"
    "      --json       one JSON object: \"fit\", \"model\", \"scheme\", \"in_sample_mape_pct\",\n"
    "                   \"cv_mape_pct\", \"dof_effective\", \"independent_cells\", \"saturated\",\n"
    "                   \"coverage_90_pct\", \"coverage\", \"outputs\" (per output), \"folds\" (each\n"
    "                   with \"status\": ok|too_few_cells|failed), \"rows\" [{\"id\", \"data_file\",\n"
    "                   \"cv_mape_pct\"}], \"worst_cell\", \"knife_edges\", \"status\"\n"
    "  -h, --help       this help\n";

enum { O_SCHEME, O_THREADS, N_OPTS };
static const cli_option opts[N_OPTS] = {{"scheme", 0, 1, 0}, {"threads", 0, 1, 0}};

#define KNIFE_EDGE 3.0

static const char *fold_status_text(int st)
{
    return st == ZVP_FOLD_OK ? "ok" : st == ZVP_FOLD_TOO_FEW ? "too_few_cells" : "failed";
}

/* One knife-edge: row i, model output o, parameter k, elasticity e. */
typedef struct knife {
    size_t row, output, param;
    double e;
} knife;

/* Knife-edges of the calibrated point at every row (matched outputs only). */
static knife *knife_edges(const zvp_fit *fit, const zvp_fit_result *res, size_t *n_out)
{
    const zvp_model *m = zvp_fit_model(fit);
    const zvp_model_file *mf = zvp_fit_result_model_file(res);
    size_t np = m->n_params, no = m->n_outputs, n = 0, cap = 16;
    double *p = malloc((np + 1) * sizeof *p), *el = malloc((no * np + 1) * sizeof *el);
    knife *k = malloc(cap * sizeof *k);
    zvp_error e;
    *n_out = 0;
    for (size_t i = 0; p && el && k && i < zvp_fit_n_rows(fit); i++) {
        zvp_error_clear(&e);
        if (zvp_fit_row_params(fit, i, zvp_model_file_params((zvp_model_file *)mf), p, &e) ||
            zvp_sensitivity(m, p, 0.0, el, NULL, NULL, &e))
            continue;
        for (size_t j = 0; j < zvp_fit_n_matched(fit); j++) {
            size_t o = zvp_fit_matched_output(fit, j);
            for (size_t q = 0; q < np; q++) {
                if (!(fabs(el[o * np + q]) > KNIFE_EDGE))
                    continue;
                if (n == cap) {
                    knife *g = realloc(k, 2 * cap * sizeof *k);
                    if (!g)
                        break;
                    k = g;
                    cap *= 2;
                }
                k[n++] = (knife){i, o, q, el[o * np + q]};
            }
        }
    }
    free(p);
    free(el);
    *n_out = n;
    return k;
}

static json_t *fold_json(const zvp_fit *fit, const zvp_validation *v, size_t f)
{
    const zvp_model *m = zvp_fit_model(fit);
    const double *est = zvp_validation_fold_estimates(v, f);
    int st = zvp_validation_fold_status(v, f);
    json_t *o = json_object(), *e = est ? json_object() : json_null();
    cli_json_set(o, "key", json_string(zvp_validation_fold_key(v, f)));
    cli_json_set(o, "held_out", json_integer((json_int_t)zvp_validation_fold_n_held(v, f)));
    cli_json_set(o, "status", json_string(fold_status_text(st)));
    cli_json_set(o, "message", json_string(zvp_validation_fold_message(v, f)));
    cli_json_set(o, "dof", json_integer(zvp_validation_fold_dof(v, f)));
    for (size_t k = 0; est && k < zvp_fit_n_free(fit); k++) {
        const zvp_param_desc *d = &m->params[zvp_fit_free_param_at(fit, k, NULL, NULL, NULL)];
        cli_json_set(e, d->name, cli_json_qty(est[k], d->unit, NULL));
    }
    cli_json_set(o, "estimates", e);
    return o;
}

static int print_json(const char *path, const zvp_fit *fit, const zvp_validation *v,
                      const knife *kn, size_t n_kn)
{
    const zvp_model *m = zvp_fit_model(fit);
    const zvp_fit_result *res = zvp_validation_full(v);
    const double *pred = zvp_validation_predicted(v);
    size_t nm = zvp_validation_n_matched(v), cells, with, cov, wi, wj;
    double wape;
    const char *nopred = "no held-out prediction (every fold of these cells failed)";
    const char *nocov = "undefined: no held-out cell has a prediction interval";
    json_t *d = cli_json_doc("validate"), *outs = json_array(), *folds = json_array(),
           *rows = json_array(), *knives = json_array();
    zvp_validation_coverage_counts(v, &cells, &with, &cov);
    cli_json_set(d, "status", json_string("ok"));
    cli_json_set(d, "fit", json_string(path));
    cli_json_set(d, "model", json_string(m->name));
    cli_json_set(d, "scheme", json_string(zvp_validation_scheme(v)));
    cli_json_set(d, "in_sample_mape_pct", cli_json_qty(zvp_validation_in_sample_mape_all(v), "%", NULL));
    cli_json_set(d, "cv_mape_pct", cli_json_qty(zvp_validation_cv_mape_all(v), "%", nopred));
    cli_json_set(d, "dof_effective", json_integer(zvp_validation_dof_effective(v)));
    cli_json_set(d, "measured_cells", json_integer((json_int_t)cells));
    cli_json_set(d, "independent_cells", json_integer((json_int_t)zvp_fit_n_independent(fit)));
    cli_json_set(d, "free", json_integer((json_int_t)zvp_fit_n_free(fit)));
    cli_json_set(d, "saturated", json_boolean(zvp_fit_result_saturated(res)));
    if (zvp_fit_result_saturated(res))
        cli_json_set(d, "stderr_note", json_string("saturated: standard errors undefined"));
    cli_json_set(d, "coverage_90_pct", cli_json_qty(zvp_validation_coverage_pct(v), "%", nocov));
    cli_json_set(d, "coverage", json_pack("{s:I, s:I, s:I}", "cells", (json_int_t)cells,
                                          "with_interval", (json_int_t)with, "covered",
                                          (json_int_t)cov));
    for (size_t j = 0; outs && j < nm; j++)
        json_array_append_new(outs, json_pack("{s:s, s:o, s:o}", "name",
                                              m->outputs[zvp_fit_matched_output(fit, j)].name,
                                              "in_sample_mape_pct",
                                              cli_json_qty(zvp_validation_in_sample_mape(v, j), "%", NULL),
                                              "cv_mape_pct",
                                              cli_json_qty(zvp_validation_cv_mape(v, j), "%", nopred)));
    for (size_t f = 0; folds && f < zvp_validation_n_folds(v); f++)
        json_array_append_new(folds, fold_json(fit, v, f));
    for (size_t i = 0; rows && i < zvp_validation_n_rows(v); i++)
        json_array_append_new(rows, json_pack("{s:s, s:s, s:s, s:o}", "id",
                                              zvp_validation_row_id(v, i), "data_file",
                                              zvp_validation_row_data_file(v, i), "fold",
                                              zvp_validation_fold_key(v, zvp_validation_row_fold(v, i)),
                                              "cv_mape_pct",
                                              cli_json_qty(zvp_validation_row_cv_mape(v, i), "%", nopred)));
    for (size_t q = 0; knives && q < n_kn; q++)
        json_array_append_new(knives, json_pack("{s:s, s:s, s:s, s:f}", "row",
                                                zvp_fit_row_label(fit, kn[q].row), "output",
                                                m->outputs[kn[q].output].name, "parameter",
                                                m->params[kn[q].param].name, "elasticity", kn[q].e));
    cli_json_set(d, "outputs", outs);
    cli_json_set(d, "folds", folds);
    cli_json_set(d, "rows", rows);
    if (zvp_validation_worst(v, &wi, &wj, &wape) == 0)
        cli_json_set(d, "worst_cell", json_pack("{s:s, s:s, s:f, s:f, s:o}", "row",
                                                zvp_validation_row_id(v, wi), "output",
                                                m->outputs[zvp_fit_matched_output(fit, wj)].name,
                                                "measured", zvp_fit_measured(fit, wi, wj),
                                                "predicted", pred[wi * nm + wj], "ape_pct",
                                                cli_json_qty(wape, "%", NULL)));
    else
        cli_json_set(d, "worst_cell", json_null());
    cli_json_set(d, "knife_edges", knives);
    return cli_json_print(d);
}

static void print_text(const char *path, const zvp_fit *fit, const zvp_validation *v,
                       const knife *kn, size_t n_kn)
{
    const zvp_model *m = zvp_fit_model(fit);
    const double *pred = zvp_validation_predicted(v);
    size_t nm = zvp_validation_n_matched(v), cells, with, cov, wi, wj;
    double wape;
    zvp_validation_coverage_counts(v, &cells, &with, &cov);
    printf("validate %s (model %s), scheme %s, %zu folds\n", path, m->name,
           zvp_validation_scheme(v), zvp_validation_n_folds(v));
    printf("  in-sample MAPE %.4g %%, CV MAPE %.4g %%\n", zvp_validation_in_sample_mape_all(v),
           zvp_validation_cv_mape_all(v));
    printf("  dof_effective %ld (%zu independent of %zu measured cells, %zu free parameters)\n",
           zvp_validation_dof_effective(v), zvp_fit_n_independent(fit), cells, zvp_fit_n_free(fit));
    if (zvp_fit_result_saturated(zvp_validation_full(v)))
        printf("  saturated: standard errors undefined\n");
    double cpct = zvp_validation_coverage_pct(v);
    char ctext[48] = "n/a";
    if (!isnan(cpct))
        snprintf(ctext, sizeof ctext, "%.4g %%", cpct);
    printf("  coverage of the 90%% prediction intervals %s (%zu of %zu held-out cells; %zu "
           "with an interval)\n", ctext, cov, cells, with);
    printf("\n  %-28s %14s %10s\n", "output", "in-sample MAPE", "CV MAPE");
    for (size_t j = 0; j < nm; j++)
        printf("  %-28s %12.4g %% %8.4g %%\n", m->outputs[zvp_fit_matched_output(fit, j)].name,
               zvp_validation_in_sample_mape(v, j), zvp_validation_cv_mape(v, j));
    printf("\n  %-24s %5s %-14s %5s  %s\n", "fold", "held", "status", "dof", "message");
    for (size_t f = 0; f < zvp_validation_n_folds(v); f++)
        printf("  %-24s %5zu %-14s %5ld  %s\n", zvp_validation_fold_key(v, f),
               zvp_validation_fold_n_held(v, f), fold_status_text(zvp_validation_fold_status(v, f)),
               zvp_validation_fold_dof(v, f), zvp_validation_fold_message(v, f));
    printf("\n  %-24s %10s  %s\n", "row", "CV MAPE %", "data file");
    for (size_t i = 0; i < zvp_validation_n_rows(v); i++)
        printf("  %-24s %10.4g  %s\n", zvp_validation_row_id(v, i),
               zvp_validation_row_cv_mape(v, i), zvp_validation_row_data_file(v, i));
    if (zvp_validation_worst(v, &wi, &wj, &wape) == 0)
        printf("\n  worst held-out cell: row %s, %s: measured %.6g, predicted %.6g (%.4g %%)\n",
               zvp_validation_row_id(v, wi), m->outputs[zvp_fit_matched_output(fit, wj)].name,
               zvp_fit_measured(fit, wi, wj), pred[wi * nm + wj], wape);
    printf("\n  knife-edges of the calibrated point (|elasticity| > %g): %zu\n", KNIFE_EDGE, n_kn);
    for (size_t q = 0; q < n_kn; q++)
        printf("    row %-20s %-24s %-24s %9.4g\n", zvp_fit_row_label(fit, kn[q].row),
               m->outputs[kn[q].output].name, m->params[kn[q].param].name, kn[q].e);
}

static int run(const cli_ctx *c, const char *path, const zvp_validate_options *o)
{
    zvp_fit *fit = NULL;
    zvp_validation *v = NULL;
    zvp_error err;
    knife *kn;
    size_t n_kn;
    zvp_error_clear(&err);
    if (zvp_fit_read(path, &fit, &err) != ZVP_SUCCESS)
        return cli_lib_error(c, &err);
    if (zvp_fit_validate(fit, o, &v, &err) != ZVP_SUCCESS) {
        zvp_fit_free(fit);
        return cli_lib_error(c, &err);
    }
    kn = knife_edges(fit, zvp_validation_full(v), &n_kn);
    int rc = c->json ? print_json(path, fit, v, kn, n_kn) : 0;
    if (!c->json)
        print_text(path, fit, v, kn, n_kn);
    free(kn);
    zvp_validation_free(v);
    zvp_fit_free(fit);
    return rc;
}

int cli_validate(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    zvp_validate_options o = zvp_validate_default_options();
    const char *s, *t;
    double th;
    int rc = cli_parse(&c, argc, argv, opts, N_OPTS, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    s = a.value[O_SCHEME];
    t = a.value[O_THREADS];
    if (a.n_pos != 1)
        rc = a.n_pos == 0 ? cli_error(&c, ZVP_EINVAL, "validate needs a FITFILE (see 'zvmperf "
                                      "validate --help')")
                          : cli_error(&c, ZVP_EINVAL, "validate takes one FITFILE: unknown or "
                                      "repeated argument '%s'", a.pos[1]);
    else if (s && strcmp(s, "loo") != 0 && (strncmp(s, "group:", 6) != 0 || s[6] == '\0'))
        rc = cli_error(&c, ZVP_EINVAL, "--scheme %s: must be loo or group:COLUMN (a data column "
                       "of the fit, e.g. group:storage_gb)", s);
    else if (t && (cli_number(t, &th) || th != floor(th) || th < 0 || th > 1024))
        rc = cli_error(&c, ZVP_EINVAL, "--threads %s: must be a whole number in [0, 1024] (0: "
                       "the OpenMP default)", t);
    if (!rc) {
        if (s && strncmp(s, "group:", 6) == 0) {
            o.scheme = ZVP_VALIDATE_GROUP;
            o.group_column = s + 6;
        }
        o.threads = t ? (int)th : 0;
        rc = run(&c, a.pos[0], &o);
    }
    cli_args_free(&a);
    return rc;
}
