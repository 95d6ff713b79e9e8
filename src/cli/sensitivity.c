/*
 * src/cli/sensitivity.c - `zvmperf sensitivity MODEL [NAME=VALUE ...] [--json]`: elasticities
 * d ln output / d ln parameter at one point (zvp_sensitivity), knife-edges |e| > 3.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const char cli_help_sensitivity[] =
    "Usage: zvmperf sensitivity MODEL [NAME=VALUE ...] [--json]\n"
    "Print the elasticity of every output to every parameter at one point, d ln output /\n"
    "d ln parameter (the % change of the output per 1 % change of the parameter), by central\n"
    "differences with a relative step of 1e-4 (one-sided at a range bound), and flag\n"
    "|elasticity| > 3 as a knife-edge: there a small error in the parameter is a large error in\n"
    "the answer. Not defined (n/a, JSON null with the reason) for integer parameters (counts,\n"
    "switches) and where the output or the parameter is 0.\n"
    "\n"
    "MODEL and NAME=VALUE as for 'zvmperf eval'.\n"
    "\n"
    "Options:\n"
    "      --json   one JSON object {\"command\", \"model\", \"model_file\", \"rel_step\",\n"
    "               \"threshold\", \"elasticity\": {OUTPUT: {PARAM: e}}, \"knife_edges\":\n"
    "               [{\"output\", \"parameter\", \"elasticity\"}], \"status\"}\n"
    "  -h, --help   this help\n"
    "  --           end of options\n";

#define KNIFE_EDGE 3.0

static int print_json(const zvp_model *m, const char *file, const double *el, const int *why)
{
    size_t np = m->n_params;
    json_t *d = cli_json_doc("sensitivity"), *all = json_object(), *knives = json_array();
    cli_json_set(d, "status", json_string("ok"));
    cli_json_set(d, "model", json_string(m->name));
    cli_json_set(d, "model_file", file && *file ? json_string(file) : json_null());
    cli_json_set(d, "rel_step", json_real(1e-4));
    cli_json_set(d, "threshold", json_real(KNIFE_EDGE));
    for (size_t j = 0; j < m->n_outputs; j++) {
        json_t *row = json_object();
        for (size_t k = 0; k < np; k++) {
            double e = el[j * np + k];
            cli_json_set(row, m->params[k].name,
                         cli_json_num(e, zvp_sensitivity_reason(why[j * np + k])));
            if (fabs(e) > KNIFE_EDGE && knives)
                json_array_append_new(knives, json_pack("{s:s, s:s, s:f}", "output",
                                                        m->outputs[j].name, "parameter",
                                                        m->params[k].name, "elasticity", e));
        }
        cli_json_set(all, m->outputs[j].name, row);
    }
    cli_json_set(d, "elasticity", all);
    cli_json_set(d, "knife_edges", knives);
    return cli_json_print(d);
}

static void print_text(const zvp_model *m, const double *y, const double *el, const int *why)
{
    size_t np = m->n_params, knives = 0;
    printf("model %s: elasticity d ln output / d ln parameter (|e| > %g: knife-edge)\n", m->name,
           KNIFE_EDGE);
    for (size_t j = 0; j < m->n_outputs; j++) {
        printf("%s = %.6g %s\n", m->outputs[j].name, y[j] + 0.0, m->outputs[j].unit);
        for (size_t k = 0; k < np; k++) {
            double e = el[j * np + k];
            if (isnan(e))
                printf("  %-28s %12s  (%s)\n", m->params[k].name, "n/a",
                       zvp_sensitivity_reason(why[j * np + k]));
            else
                printf("  %-28s %12.4g%s\n", m->params[k].name, e + 0.0,
                       fabs(e) > KNIFE_EDGE ? "  knife-edge" : "");
            knives += fabs(e) > KNIFE_EDGE;
        }
    }
    printf("knife-edges: %zu\n", knives);
}

int cli_sensitivity(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    zvp_error err;
    zvp_model_file *mf = NULL;
    char file[4096];
    size_t src = 0, n_ov = 0;
    int rc = cli_parse(&c, argc, argv, NULL, 0, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    while (src < a.n_pos && strchr(a.pos[src], '='))
        src++;
    if (src == a.n_pos) {
        cli_args_free(&a);
        return cli_error(&c, ZVP_EINVAL, "sensitivity needs a MODEL (a model file, '-', or a "
                         "name): usage: zvmperf sensitivity MODEL [NAME=VALUE ...] [--json]");
    }
    if (cli_open_model(&c, a.pos[src], &mf, file, sizeof file, &err) != ZVP_SUCCESS) {
        cli_args_free(&a);
        return cli_lib_error(&c, &err);
    }
    const char **ov = malloc((a.n_pos + 1) * sizeof *ov);
    for (size_t i = 0; ov && i < a.n_pos; i++)
        if (i != src)
            ov[n_ov++] = a.pos[i];
    rc = ov ? cli_apply_overrides(&c, mf, ov, n_ov, 0, NULL, 0)
            : cli_error(&c, ZVP_ENOMEM, "out of memory");
    if (!rc)
        cli_warn_unset(&c, mf, file, NULL, 0);
    free(ov);
    cli_args_free(&a);
    const zvp_model *m = zvp_model_file_model(mf);
    size_t n = m->n_outputs * m->n_params;
    double *el = rc ? NULL : malloc((n + m->n_outputs + 1) * sizeof *el);
    int *why = rc ? NULL : malloc((n + 1) * sizeof *why);
    if (!rc && (!el || !why))
        rc = cli_error(&c, ZVP_ENOMEM, "out of memory");
    if (!rc) {
        zvp_error_clear(&err);
        if (zvp_sensitivity(m, zvp_model_file_params(mf), 0.0, el, why, el + n, &err))
            rc = cli_lib_error(&c, &err);
        else if (c.json)
            rc = print_json(m, file, el, why);
        else
            print_text(m, el + n, el, why);
    }
    free(el);
    free(why);
    zvp_model_file_free(mf);
    return rc;
}
