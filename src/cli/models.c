/*
 * src/cli/models.c - `zvmperf models [NAME] [--json]`: the registered models with their
 * parameters and outputs (units, ranges, defaults).
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

const char cli_help_models[] =
    "Usage: zvmperf models [NAME] [--json]\n"
    "List the registered models (or only NAME): description, source, and every parameter\n"
    "and output with its unit, range and default.\n"
    "\n"
    "Options:\n"
    "      --json   one JSON object {\"command\", \"status\", \"models\": [...]}; each\n"
    "               parameter and output has \"name\", \"unit\", \"description\", \"integer\" and\n"
    "               \"min\", \"max\", \"default\" as {\"value\", \"unit\"} (an unbounded max is\n"
    "               null, explained in \"nulls\")\n"
    "  -h, --help   this help\n";

static json_t *desc_json(const zvp_param_desc *d, size_t n, int output)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        json_t *o = json_object();
        cli_json_set(o, "name", json_string(d[i].name));
        cli_json_set(o, "unit", json_string(d[i].unit));
        cli_json_set(o, "description", json_string(d[i].description));
        cli_json_set(o, "min", cli_json_qty(d[i].min, d[i].unit, NULL));
        cli_json_set(o, "max", cli_json_qty(d[i].max, d[i].unit, NULL));
        if (!output) {
            cli_json_set(o, "default", cli_json_qty(d[i].default_value, d[i].unit, NULL));
            cli_json_set(o, "integer", json_boolean(d[i].integer));
        }
        if (!o || json_array_append_new(a, o) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *model_json(const zvp_model *m)
{
    json_t *o = json_object();
    cli_json_set(o, "name", json_string(m->name));
    cli_json_set(o, "description", json_string(m->description));
    cli_json_set(o, "source", json_string(m->source));
    cli_json_set(o, "parameters", desc_json(m->params, m->n_params, 0));
    cli_json_set(o, "outputs", desc_json(m->outputs, m->n_outputs, 1));
    return o;
}

static void model_text(const zvp_model *m)
{
    printf("%s\n  %s\n  source: %s\n  parameters:\n", m->name, m->description, m->source);
    for (size_t i = 0; i < m->n_params; i++)
        printf("    %-26s %-9s [%g, %g]%s default %g  %s\n", m->params[i].name, m->params[i].unit,
               m->params[i].min, m->params[i].max, m->params[i].integer ? " integer" : "",
               m->params[i].default_value, m->params[i].description);
    printf("  outputs:\n");
    for (size_t i = 0; i < m->n_outputs; i++)
        printf("    %-26s %-9s [%g, %g]  %s\n", m->outputs[i].name, m->outputs[i].unit,
               m->outputs[i].min, m->outputs[i].max, m->outputs[i].description);
    printf("\n");
}

int cli_models(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    zvp_error err;
    int rc = cli_parse(&c, argc, argv, NULL, 0, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    const char *only = a.n_pos > 0 ? a.pos[0] : NULL;
    if (a.n_pos > 1) {
        rc = cli_error(&c, ZVP_EINVAL, "models takes at most one NAME: unknown or repeated "
                       "argument '%s' (after '%s')", a.pos[1], a.pos[0]);
        cli_args_free(&a);
        return rc;
    }
    cli_args_free(&a);
    zvp_error_clear(&err);
    if (only && !zvp_model_find(only, &err))
        return cli_lib_error(&c, &err);
    json_t *doc = c.json ? cli_json_doc("models") : NULL, *list = c.json ? json_array() : NULL;
    for (size_t k = 0; k < zvp_model_count(); k++) {
        const zvp_model *m = zvp_model_at(k);
        if (only && strcmp(only, m->name) != 0)
            continue;
        if (!c.json)
            model_text(m);
        else if (!list || json_array_append_new(list, model_json(m)) != 0)
            cli_json_set(doc, "models", NULL);
    }
    if (!c.json)
        return CLI_EXIT_OK;
    cli_json_set(doc, "status", json_string("ok"));
    cli_json_set(doc, "models", list);
    return cli_json_print(doc);
}
