/*
 * src/cli/eval.c - `zvmperf eval MODEL [NAME=VALUE ...] [--json]`: one point of a model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const char cli_help_eval[] =
    "Usage: zvmperf eval MODEL [NAME=VALUE ...] [--json]\n"
    "Evaluate a model at one point and print its outputs with units.\n"
    "\n"
    "MODEL is a model file (e.g. calibration/params/sweetspot-zvm64.ini), '-' for a model\n"
    "file on standard input, the NAME of a calibrated file (NAME.ini looked up in\n"
    "$ZVMPERF_DATA/params, ./calibration/params and the installed share/zvmperf/params), or a\n"
    "registered model (its uncalibrated defaults; said on stderr). NAME=VALUE sets a\n"
    "parameter (each at most once; 'zvmperf models MODEL' lists names, units and ranges).\n"
    "\n"
    "Options:\n"
    "      --json   one JSON object {\"command\", \"model\", \"model_file\", \"parameters\",\n"
    "               \"outputs\": {NAME: {\"value\", \"unit\"}}, \"status\": ok|unstable|error};\n"
    "               with no steady state the outputs are null and \"nulls\" says why\n"
    "  -h, --help   this help\n"
    "  --           end of options (a model file whose name starts with '-')\n";

/* The JSON result of one evaluation (out may hold NaN: null with the model's message). */
static int print_json(const zvp_model_file *mf, const char *file, const double *out, int st,
                      const zvp_error *err)
{
    const zvp_model *m = zvp_model_file_model(mf);
    const double *p = zvp_model_file_params((zvp_model_file *)mf);
    json_t *d = cli_json_doc("eval"), *params = json_object(), *outs = json_object();
    const char *why = st == ZVP_SUCCESS ? NULL : err->message;
    cli_json_set(d, "model", json_string(m->name));
    cli_json_set(d, "model_file", file && *file ? json_string(file) : json_null());
    for (size_t i = 0; i < m->n_params; i++)
        cli_json_set(params, m->params[i].name, cli_json_qty(p[i], m->params[i].unit, NULL));
    for (size_t j = 0; j < m->n_outputs; j++)
        cli_json_set(outs, m->outputs[j].name, cli_json_qty(out[j], m->outputs[j].unit, why));
    cli_json_set(d, "parameters", params);
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

int cli_eval(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    zvp_error err;
    zvp_model_file *mf = NULL;
    char file[4096];
    size_t src = 0;
    c.error_outputs = 1;
    int rc = cli_parse(&c, argc, argv, NULL, 0, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    while (src < a.n_pos && strchr(a.pos[src], '='))
        src++;
    if (src == a.n_pos) {
        cli_args_free(&a);
        return cli_error(&c, ZVP_EINVAL, "eval needs a MODEL (a model file, '-', or a name): "
                         "usage: zvmperf eval MODEL [NAME=VALUE ...] [--json]");
    }
    if (cli_open_model(&c, a.pos[src], &mf, file, sizeof file, &err) != ZVP_SUCCESS) {
        cli_args_free(&a);
        return cli_lib_error(&c, &err);
    }
    /* the overrides: every positional but the model */
    const char **ov = malloc((a.n_pos + 1) * sizeof *ov);
    size_t n_ov = 0;
    for (size_t i = 0; ov && i < a.n_pos; i++)
        if (i != src)
            ov[n_ov++] = a.pos[i];
    rc = ov ? cli_apply_overrides(&c, mf, ov, n_ov, 0, NULL, 0)
            : cli_error(&c, ZVP_ENOMEM, "out of memory");
    free(ov);
    cli_args_free(&a);
    const zvp_model *m = zvp_model_file_model(mf);
    double *out = rc ? NULL : malloc(m->n_outputs * sizeof *out);
    if (!rc && !out)
        rc = cli_error(&c, ZVP_ENOMEM, "out of memory");
    if (rc) {
        zvp_model_file_free(mf);
        return rc;
    }
    zvp_error_clear(&err);
    int st = zvp_model_eval(m, zvp_model_file_params(mf), out, &err);
    if (c.json) {
        rc = print_json(mf, file, out, st, &err);
        if (st != ZVP_SUCCESS) {
            fprintf(stderr, "zvmperf eval: error: %s\n", err.message);
            rc = cli_exit_code(st);
        }
    } else if (st == ZVP_SUCCESS) {
        printf("model %s\n", m->name);
        for (size_t j = 0; j < m->n_outputs; j++)
            printf("  %-24s %14.6g %-9s %s\n", m->outputs[j].name, out[j], m->outputs[j].unit,
                   m->outputs[j].description);
    } else {
        rc = cli_lib_error(&c, &err);
    }
    free(out);
    zvp_model_file_free(mf);
    return rc;
}
