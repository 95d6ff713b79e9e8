/*
 * src/cli/claims.c - `zvmperf claims FILE... [--kind fitted|predicted|identity] [--id ID] [--json]`:
 * evaluate the claims files (include/zvmperf/claims.h; format in calibration/claims/README.md)
 * and report pass or fail per claim, then a summary. Exit 0 when every evaluated claim holds,
 * CLI_EXIT_CHECK when any fails, and the usual statuses for bad input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const char cli_help_claims[] =
    "Usage: zvmperf claims FILE... [--kind fitted|predicted|identity] [--id ID]... [--json]\n"
    "Evaluate claims files: statements of the reports written as relations between model\n"
    "outputs and numbers, and report pass or fail per claim.\n"
    "\n"
    "A claims file is a CSV table with the header\n"
    "  id,kind,source,statement,lhs,relation,rhs,tolerance\n"
    "(calibration/claims/README.md). lhs and rhs are expressions with + - * / and\n"
    "parentheses over numbers and terms MODEL:OUTPUT[NAME=VALUE;...]; MODEL is looked up as\n"
    "'zvmperf eval MODEL' does (a model file, NAME.ini in $ZVMPERF_DATA/params,\n"
    "./calibration/params or the installed share/zvmperf/params, or a registered model with\n"
    "its defaults), each distinct MODEL once. relation is < <= > >= (no tolerance) or ~\n"
    "(|lhs - rhs| <= tolerance; tolerance a number in the unit of lhs or N% of |rhs|).\n"
    "A claim whose point has no steady state, or that divides by zero, fails with the reason.\n"
    "kind is fitted (a calibration behind a model file it evaluates read its numbers),\n"
    "predicted (none did) or identity (the models meet it by construction, whatever their\n"
    "parameters: evaluated, but not a test and not counted as a prediction).\n"
    "\n"
    "Prints one line per claim (PASS or FAIL, id, kind, lhs value, relation, rhs value,\n"
    "tolerance, source; a failing claim's reason below it) and a summary.\n"
    "\n"
    "Options:\n"
    "      --kind K   evaluate only the claims of kind K (fitted, predicted or identity)\n"
    "      --id ID    evaluate only the claim ID (repeatable)\n"
    "      --json     one JSON object {\"command\": \"claims\", \"status\": \"ok\"|\"failed\",\n"
    "                 \"claims\": [{\"id\", \"kind\", \"source\", \"statement\", \"file\", \"line\",\n"
    "                 \"lhs\": {\"expr\", \"value\"}, \"relation\", \"rhs\": {\"expr\", \"value\"},\n"
    "                 \"tolerance\" (as written, or null), \"tolerance_value\", \"pass\",\n"
    "                 \"reason\"}], \"summary\": {\"claims\", \"passed\", \"failed\", \"fitted\",\n"
    "                 \"predicted\", \"identity\", \"models\"}}\n"
    "  -h, --help     this help\n"
    "  --             end of options (a file whose name starts with '-')\n"
    "\n"
    "Exit 4 when any evaluated claim fails; 2 when a FILE holds no claim or --kind/--id\n"
    "select none (an empty selection is an error, not a pass; see below).\n";

enum { O_KIND, O_ID, N_OPTS };
static const cli_option opts[N_OPTS] = {{"kind", 0, 1, 0}, {"id", 0, 1, 1}};

typedef struct tally {
    size_t n, passed, failed, fitted, predicted, identity;
} tally;

static json_t *claim_json(const zvp_claim_info *in, const zvp_claim_result *r)
{
    json_t *o = json_object(), *l = json_object(), *h = json_object();
    const char *nan_why = r->reason[0] ? r->reason : NULL;
    cli_json_set(o, "id", json_string(in->id));
    cli_json_set(o, "kind", json_string(in->kind));
    cli_json_set(o, "source", json_string(in->source));
    cli_json_set(o, "statement", json_string(in->statement));
    cli_json_set(o, "file", json_string(in->file));
    cli_json_set(o, "line", json_integer((json_int_t)in->line));
    cli_json_set(l, "expr", json_string(in->lhs));
    cli_json_set(l, "value", cli_json_num(r->lhs, nan_why));
    cli_json_set(o, "lhs", l);
    cli_json_set(o, "relation", json_string(in->relation));
    cli_json_set(h, "expr", json_string(in->rhs));
    cli_json_set(h, "value", cli_json_num(r->rhs, nan_why));
    cli_json_set(o, "rhs", h);
    cli_json_set(o, "tolerance", in->tolerance[0] ? json_string(in->tolerance) : json_null());
    cli_json_set(o, "tolerance_value",
                 isnan(r->tolerance) ? json_null() : cli_json_num(r->tolerance, NULL));
    cli_json_set(o, "pass", json_boolean(r->pass));
    cli_json_set(o, "reason", r->reason[0] ? json_string(r->reason) : json_null());
    return o;
}

static void claim_text(const zvp_claim_info *in, const zvp_claim_result *r)
{
    printf("%s  %-34s %-9s  lhs %-12.6g %-2s rhs %-12.6g", r->pass ? "PASS" : "FAIL", in->id,
           in->kind, r->lhs + 0.0, in->relation, r->rhs + 0.0);
    printf(" tol %-6s  %s\n", in->tolerance[0] ? in->tolerance : "-", in->source);
    if (!r->pass)
        printf("      %s:%zu: %s\n", in->file, in->line, r->reason);
}

/* Is claim i selected by --kind and --id? */
static int selected(const cli_args *a, const zvp_claim_info *in)
{
    int any_id = 0;
    if (a->value[O_KIND] && strcmp(a->value[O_KIND], in->kind) != 0)
        return 0;
    for (size_t k = 0; k < a->n_items; k++)
        if (a->item_opt[k] == O_ID) {
            any_id = 1;
            if (strcmp(a->item_val[k], in->id) == 0)
                return 1;
        }
    return !any_id;
}

/* Evaluate the selected claims, printing each (text) or collecting them (json). */
static int run(const cli_ctx *c, const cli_args *a, const zvp_claims *set, json_t *list,
               tally *t)
{
    zvp_error err;
    for (size_t i = 0; i < zvp_claims_count(set); i++) {
        zvp_claim_info in;
        zvp_claim_result r;
        if (zvp_claims_info(set, i, &in, &err))
            return cli_lib_error(c, &err);
        if (!selected(a, &in))
            continue;
        if (zvp_claim_eval(set, i, &r, &err))
            return cli_lib_error(c, &err);
        t->n++;
        t->passed += r.pass != 0;
        t->failed += r.pass == 0;
        t->predicted += in.predicted != 0;
        t->identity += strcmp(in.kind, "identity") == 0;
        t->fitted += strcmp(in.kind, "fitted") == 0;
        if (list)
            json_array_append_new(list, claim_json(&in, &r));
        else
            claim_text(&in, &r);
    }
    return 0;
}

/* Every FILE holds a claim, and the filters select at least one: an empty selection would
 * report "0 evaluated" and pass whatever the models do. */
static int check_nonempty(const cli_ctx *c, const cli_args *a, const zvp_claims *set)
{
    zvp_error err;
    zvp_claim_info in;
    size_t n = zvp_claims_count(set), chosen = 0;
    char filters[512] = "", why[512] = "";
    for (size_t f = 0; f < a->n_pos; f++) {
        size_t i = 0;
        for (; i < n; i++)
            if (zvp_claims_info(set, i, &in, &err) == ZVP_SUCCESS &&
                strcmp(in.file, a->pos[f]) == 0)
                break;
        if (i == n)
            return cli_error(c, ZVP_EINVAL, "%s holds no claim (only a header, comments or blank "
                             "lines): nothing to evaluate", a->pos[f]);
    }
    for (size_t i = 0; i < n; i++)
        if (zvp_claims_info(set, i, &in, &err) == ZVP_SUCCESS && selected(a, &in))
            chosen++;
    if (chosen)
        return 0;
    if (a->value[O_KIND])
        snprintf(filters, sizeof filters, "--kind %s", a->value[O_KIND]);
    for (size_t k = 0; k < a->n_items; k++) {
        long i;
        size_t len = strlen(filters), wl = strlen(why);
        if (a->item_opt[k] != O_ID)
            continue;
        snprintf(filters + len, sizeof filters - len, "%s--id %s", len ? " " : "",
                 a->item_val[k]);
        if ((i = zvp_claims_index(set, a->item_val[k], &err)) >= 0 &&
            zvp_claims_info(set, (size_t)i, &in, &err) == ZVP_SUCCESS)
            snprintf(why + wl, sizeof why - wl, "%s%s is %s", wl ? ", " : "", in.id, in.kind);
    }
    return cli_error(c, ZVP_EINVAL, "%s select no claim of the %zu read%s%s%s: nothing to evaluate",
                     filters, n, why[0] ? " (" : "", why, why[0] ? ")" : "");
}

/* --kind and --id must name something. */
static int check_selection(const cli_ctx *c, const cli_args *a, const zvp_claims *set)
{
    zvp_error err;
    const char *k = a->value[O_KIND];
    if (k && strcmp(k, "fitted") != 0 && strcmp(k, "predicted") != 0 && strcmp(k, "identity") != 0)
        return cli_error(c, ZVP_EINVAL, "--kind '%s' is not allowed (fitted, predicted or "
                         "identity)", k);
    for (size_t i = 0; i < a->n_items; i++)
        if (a->item_opt[i] == O_ID && zvp_claims_index(set, a->item_val[i], &err) < 0)
            return cli_lib_error(c, &err);
    return check_nonempty(c, a, set);
}

static int finish(const cli_ctx *c, json_t *doc, json_t *list, const tally *t, size_t models)
{
    int rc = t->failed ? CLI_EXIT_CHECK : CLI_EXIT_OK;
    if (doc) {
        json_t *s = json_object();
        cli_json_set(doc, "status", json_string(t->failed ? "failed" : "ok"));
        cli_json_set(doc, "claims", list);
        cli_json_set(s, "claims", json_integer((json_int_t)t->n));
        cli_json_set(s, "passed", json_integer((json_int_t)t->passed));
        cli_json_set(s, "failed", json_integer((json_int_t)t->failed));
        cli_json_set(s, "fitted", json_integer((json_int_t)t->fitted));
        cli_json_set(s, "predicted", json_integer((json_int_t)t->predicted));
        cli_json_set(s, "identity", json_integer((json_int_t)t->identity));
        cli_json_set(s, "models", json_integer((json_int_t)models));
        cli_json_set(doc, "summary", s);
        if (t->failed)
            cli_json_set(doc, "exit_status", json_integer(rc));
        if (cli_json_print(doc))
            return CLI_EXIT_FAILURE;
    } else {
        printf("claims: %zu evaluated, %zu passed, %zu failed (%zu fitted, %zu predicted, %zu "
               "identities; %zu model files)\n", t->n, t->passed, t->failed, t->fitted,
               t->predicted, t->identity, models);
    }
    if (t->failed)
        fprintf(stderr, "zvmperf %s: %zu of %zu claims fail\n", c->command, t->failed, t->n);
    return rc;
}

int cli_claims(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    zvp_error err;
    zvp_claims *set = NULL;
    char dirs[3][4096];
    const char *dir[3];
    zvp_claims_options o;
    tally t = {0, 0, 0, 0, 0, 0};
    json_t *doc = NULL, *list = NULL;
    int rc = cli_parse(&c, argc, argv, opts, N_OPTS, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    if (a.n_pos == 0) {
        cli_args_free(&a);
        return cli_error(&c, ZVP_EINVAL, "claims needs at least one FILE: usage: zvmperf claims "
                         "FILE... [--kind fitted|predicted|identity] [--id ID] [--json]");
    }
    o.n_search_dirs = cli_search_path(dirs, 3);
    for (size_t i = 0; i < o.n_search_dirs; i++)
        dir[i] = dirs[i];
    o.search_dirs = dir;
    if (zvp_claims_read(a.pos, a.n_pos, &o, &set, &err))
        rc = cli_lib_error(&c, &err);
    if (!rc)
        rc = check_selection(&c, &a, set);
    for (size_t k = 0; !rc && k < zvp_claims_models(set); k++) {
        const char *name, *file;
        if (zvp_claims_model(set, k, &name, &file, &err) == ZVP_SUCCESS && !file[0])
            cli_warn(&c, "'%s' is the registered model with its uncalibrated default "
                     "parameters (no calibrated file %s.ini in the search path)", name, name);
    }
    if (!rc && c.json && (!(doc = cli_json_doc("claims")) || !(list = json_array())))
        rc = cli_error(&c, ZVP_ENOMEM, "out of memory");
    if (!rc)
        rc = run(&c, &a, set, list, &t);
    if (!rc) {
        rc = finish(&c, doc, list, &t, zvp_claims_models(set));
        doc = list = NULL;
    }
    json_decref(list);
    json_decref(doc);
    zvp_claims_free(set);
    cli_args_free(&a);
    return rc;
}
