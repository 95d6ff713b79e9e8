/*
 * src/cli/json.c - the one JSON emitter, on libjansson. Numbers that are NaN or +-inf
 * cannot be JSON: they are written as null, and the document's "nulls" object maps the
 * JSON Pointer (RFC 6901) of each such null to the reason.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* Placeholder key of a non-finite number until cli_json_print replaces it. */
#define NONFINITE_KEY "zvmperf:nonfinite"

json_t *cli_json_doc(const char *command)
{
    json_t *d = json_object();
    if (d && json_object_set_new(d, "command", json_string(command)) != 0) {
        json_decref(d);
        return NULL;
    }
    return d;
}

json_t *cli_json_num(double v, const char *why)
{
    if (isfinite(v))
        return json_real(v);
    if (!why)
        why = isnan(v) ? "NaN: not defined for these inputs"
              : v > 0  ? "+inf: unbounded above"
                       : "-inf: unbounded below";
    return json_pack("{s:s}", NONFINITE_KEY, why);
}

json_t *cli_json_qty(double v, const char *unit, const char *why)
{
    return json_pack("{s:o, s:s}", "value", cli_json_num(v, why), "unit", unit ? unit : "");
}

void cli_json_set(json_t *obj, const char *key, json_t *v)
{
    if (!obj)
        return;
    if (!v || json_object_set_new(obj, key, v) != 0)
        /* remember the failure: cli_json_print then fails instead of printing half a result */
        json_object_set_new(obj, "zvmperf:incomplete", json_true());
}

/* Append one JSON Pointer token to path (escaping ~ and /). */
static void pointer_push(char *path, size_t cap, const char *token)
{
    size_t n = strlen(path);
    if (n + 1 < cap)
        path[n++] = '/';
    for (const char *t = token; *t && n + 2 < cap; t++) {
        if (*t == '~' || *t == '/') {
            path[n++] = '~';
            path[n++] = *t == '~' ? '0' : '1';
        } else {
            path[n++] = *t;
        }
    }
    path[n < cap ? n : cap - 1] = '\0';
}

/* The reason if v is a placeholder, NULL otherwise. */
static const char *placeholder(json_t *v)
{
    json_t *w;
    if (!json_is_object(v) || json_object_size(v) != 1 || !(w = json_object_get(v, NONFINITE_KEY)))
        return NULL;
    return json_string_value(w);
}

/* Replace the placeholders under v by null, recording path -> reason in nulls. */
static int resolve(json_t *v, char *path, size_t cap, json_t *nulls)
{
    size_t len = strlen(path);
    int rc = 0;
    if (json_is_object(v)) {
        for (void *it = json_object_iter(v); it && !rc; it = json_object_iter_next(v, it)) {
            json_t *x = json_object_iter_value(it);
            const char *why;
            pointer_push(path, cap, json_object_iter_key(it));
            if ((why = placeholder(x)) != NULL) {
                rc = json_object_set_new(nulls, path, json_string(why)) ||
                     json_object_iter_set_new(v, it, json_null());
            } else {
                rc = resolve(x, path, cap, nulls);
            }
            path[len] = '\0';
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v) && !rc; i++) {
            json_t *x = json_array_get(v, i);
            const char *why;
            char tok[32];
            snprintf(tok, sizeof tok, "%zu", i);
            pointer_push(path, cap, tok);
            if ((why = placeholder(x)) != NULL)
                rc = json_object_set_new(nulls, path, json_string(why)) ||
                     json_array_set_new(v, i, json_null());
            else
                rc = resolve(x, path, cap, nulls);
            path[len] = '\0';
        }
    }
    return rc;
}

int cli_json_print(json_t *doc)
{
    char path[1024] = "";
    json_t *nulls = json_object();
    int rc = !doc || !nulls || json_object_get(doc, "zvmperf:incomplete") != NULL;
    if (!rc)
        rc = resolve(doc, path, sizeof path, nulls);
    if (!rc && json_object_size(nulls) > 0) {
        rc = json_object_set(doc, "nulls", nulls);
    }
    json_decref(nulls);
    if (!rc) {
        char *s = json_dumps(doc, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
        rc = !s || printf("%s\n", s) < 0 || fflush(stdout) != 0;
        free(s);
    }
    if (rc)
        fprintf(stderr, "zvmperf: error: cannot write the JSON result (out of memory or I/O)\n");
    json_decref(doc);
    return rc ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}
