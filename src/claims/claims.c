/*
 * src/claims/claims.c - reading claims files (include/zvmperf/claims.h): the CSV table
 * (zvp_table_read), the checks of every cell, the expressions (parse.c) and the model cache
 * (each distinct MODEL of the terms loaded once, by zvp_model_file_open).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "claims/claims_impl.h"
#include "zvmperf/table.h"

static const char *const columns[8] = {"id",  "kind",     "source", "statement",
                                       "lhs", "relation", "rhs",    "tolerance"};
enum { C_ID, C_KIND, C_SOURCE, C_STATEMENT, C_LHS, C_RELATION, C_RHS, C_TOLERANCE };
static const char *const relations[5] = {"<", "<=", ">", ">=", "~"};

static const char *const default_dirs[1] = {"calibration/params"};

int cl_model_load(zvp_claims *set, const char *name, size_t *index, zvp_error *err)
{
    char found[4096];
    cl_model *m;
    int st;
    for (size_t i = 0; i < set->n_models; i++)
        if (strcmp(set->models[i].name, name) == 0) {
            *index = i;
            return ZVP_SUCCESS;
        }
    if (ZVP_GROW(set->models, set->cap_models, set->n_models + 1))
        return zvp_fail(err, ZVP_ENOMEM, "out of memory");
    m = &set->models[set->n_models];
    memset(m, 0, sizeof *m);
    if ((st = zvp_model_file_open(name, set->dirs, set->n_dirs, &m->mf, found, sizeof found,
                                  err)))
        return st;
    m->name = zvp_strdup(name);
    m->file = zvp_strdup(found);
    if (!m->name || !m->file) {
        free(m->name);
        free(m->file);
        zvp_model_file_free(m->mf);
        return zvp_fail(err, ZVP_ENOMEM, "out of memory");
    }
    *index = set->n_models++;
    return ZVP_SUCCESS;
}

static void claim_free(cl_claim *c)
{
    for (size_t k = 0; k < 8; k++)
        free(c->cell[k]);
    cl_node_free(c->lhs);
    cl_node_free(c->rhs);
}

void zvp_claims_free(zvp_claims *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        claim_free(&c->claims[i]);
    for (size_t i = 0; i < c->n_models; i++) {
        free(c->models[i].name);
        free(c->models[i].file);
        zvp_model_file_free(c->models[i].mf);
    }
    for (size_t i = 0; i < c->n_files; i++)
        free(c->files[i]);
    free(c->claims);
    free(c->models);
    free(c->files);
    free(c);
}

/* "FILE:LINE: claim ID: " + the formatted text, as status. */
static int claim_fail(zvp_error *err, int status, const cl_claim *c, const char *fmt, ...)
    ZVP_PRINTF(4, 5);
static int claim_fail(zvp_error *err, int status, const cl_claim *c, const char *fmt, ...)
{
    char msg[ZVP_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->cell[C_ID] && *c->cell[C_ID])
        return zvp_fail(err, status, "%s:%zu: claim %s: %s", c->file, c->line, c->cell[C_ID],
                        msg);
    return zvp_fail(err, status, "%s:%zu: %s", c->file, c->line, msg);
}

/* The header must be ZVP_CLAIMS_HEADER exactly. */
static int check_header(const zvp_table *t, const char *path, zvp_error *err)
{
    int ok = zvp_table_cols(t) == 8;
    for (size_t j = 0; ok && j < 8; j++)
        ok = strcmp(zvp_table_col_name(t, j), columns[j]) == 0 &&
             zvp_table_col_unit(t, j)[0] == '\0';
    if (ok)
        return ZVP_SUCCESS;
    return zvp_fail(err, ZVP_EPARSE, "%s: the header must be exactly '%s' (%zu columns read%s%s)",
                    path, ZVP_CLAIMS_HEADER, zvp_table_cols(t), zvp_table_cols(t) ? ", first " : "",
                    zvp_table_cols(t) ? zvp_table_col_name(t, 0) : "");
}

/* id: NNN-name (three digits, '-', then letters, digits, '-', '_' or '.'). */
static int check_id(const char *id)
{
    size_t n = strlen(id);
    if (n < 5 || !isdigit((unsigned char)id[0]) || !isdigit((unsigned char)id[1]) ||
        !isdigit((unsigned char)id[2]) || id[3] != '-')
        return -1;
    for (size_t k = 4; k < n; k++)
        if (!isalnum((unsigned char)id[k]) && !strchr("-_.", id[k]))
            return -1;
    return 0;
}

/* The tolerance cell against the relation. */
static int check_tolerance(cl_claim *c, zvp_error *err)
{
    const char *t = c->cell[C_TOLERANCE];
    size_t n = strlen(t);
    char buf[64];
    if (c->relation != CL_APPROX) {
        if (n == 0)
            return ZVP_SUCCESS;
        return claim_fail(err, ZVP_EPARSE, c, "tolerance '%s' given for the inequality '%s' "
                          "(a tolerance belongs to '~' only; leave the cell empty)", t,
                          c->cell[C_RELATION]);
    }
    if (n == 0)
        return claim_fail(err, ZVP_EPARSE, c, "relation '~' needs a tolerance (a number >= 0 in "
                          "the unit of lhs, or N%% of |rhs|)");
    c->tol_pct = t[n - 1] == '%';
    if (n - (size_t)c->tol_pct >= sizeof buf)
        return claim_fail(err, ZVP_EPARSE, c, "tolerance '%.24s...' is too long", t);
    memcpy(buf, t, n - (size_t)c->tol_pct);
    buf[n - (size_t)c->tol_pct] = '\0';
    if (zvp_parse_double(buf, &c->tol) != 0 || !(c->tol >= 0))
        return claim_fail(err, ZVP_EPARSE, c, "tolerance '%s' is not allowed (a number >= 0 in "
                          "the unit of lhs, or N%% of |rhs| with N >= 0)", t);
    if (c->tol == 0)
        c->tol = 0; /* -0 reads as 0 */
    return ZVP_SUCCESS;
}

/* Check the cells of claim c (its cells and file/line set) and parse its expressions. */
static int check_claim(zvp_claims *set, cl_claim *c, zvp_error *err)
{
    cl_where w = {c->file, c->line, c->cell[C_ID], "lhs"};
    int st;
    for (size_t k = 0; k < 7; k++)
        if (c->cell[k][0] == '\0')
            return claim_fail(err, ZVP_EPARSE, c, "the %s cell is empty (required)", columns[k]);
    if (check_id(c->cell[C_ID]))
        return claim_fail(err, ZVP_EPARSE, c, "id '%s' is not allowed (NNN-name: the report "
                          "number, '-', then letters, digits, '-', '_' or '.')", c->cell[C_ID]);
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->claims[i].cell[C_ID], c->cell[C_ID]) == 0)
            return claim_fail(err, ZVP_EINVAL, c, "duplicate id (also %s:%zu; ids are unique "
                              "over all claims files)", set->claims[i].file, set->claims[i].line);
    if (strcmp(c->cell[C_KIND], "fitted") != 0 && strcmp(c->cell[C_KIND], "predicted") != 0 &&
        strcmp(c->cell[C_KIND], "identity") != 0)
        return claim_fail(err, ZVP_EPARSE, c, "kind '%s' is not allowed (fitted, predicted or "
                          "identity)", c->cell[C_KIND]);
    c->predicted = strcmp(c->cell[C_KIND], "predicted") == 0;
    c->relation = -1;
    for (int r = 0; r < 5; r++)
        if (strcmp(c->cell[C_RELATION], relations[r]) == 0)
            c->relation = r;
    if (c->relation < 0)
        return claim_fail(err, ZVP_EPARSE, c, "relation '%s' is not allowed (< <= > >= or ~)",
                          c->cell[C_RELATION]);
    if ((st = check_tolerance(c, err)))
        return st;
    if ((st = cl_parse_expr(set, &w, c->cell[C_LHS], &c->lhs, err)))
        return st;
    w.column = "rhs";
    return cl_parse_expr(set, &w, c->cell[C_RHS], &c->rhs, err);
}

/* Append the claims of one table. */
static int add_table(zvp_claims *set, const zvp_table *t, const char *file, zvp_error *err)
{
    for (size_t i = 0; i < zvp_table_rows(t); i++) {
        cl_claim *c;
        int st;
        if (ZVP_GROW(set->claims, set->cap, set->n + 1))
            return zvp_fail(err, ZVP_ENOMEM, "out of memory");
        c = &set->claims[set->n];
        memset(c, 0, sizeof *c);
        c->file = file;
        c->line = zvp_table_row_line(t, i);
        for (size_t k = 0; k < 8; k++)
            if (!(c->cell[k] = zvp_strdup(zvp_table_text(t, i, k)))) {
                claim_free(c);
                return zvp_fail(err, ZVP_ENOMEM, "out of memory");
            }
        if ((st = check_claim(set, c, err))) {
            claim_free(c);
            return st;
        }
        set->n++;
    }
    return ZVP_SUCCESS;
}

int zvp_claims_read(const char *const *paths, size_t n_paths, const zvp_claims_options *opt,
                    zvp_claims **out, zvp_error *err)
{
    zvp_claims *set;
    int st = ZVP_SUCCESS;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claims_read: out is NULL");
    *out = NULL;
    if (!paths || n_paths == 0)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claims_read: no claims file given (n_paths = %zu)",
                        n_paths);
    if (!(set = calloc(1, sizeof *set)) || !(set->files = calloc(n_paths, sizeof *set->files))) {
        free(set);
        return zvp_fail(err, ZVP_ENOMEM, "out of memory");
    }
    set->dirs = opt && opt->search_dirs ? opt->search_dirs : default_dirs;
    set->n_dirs = opt && opt->search_dirs ? opt->n_search_dirs : 1;
    for (size_t f = 0; f < n_paths && !st; f++) {
        zvp_table *t = NULL;
        if (!paths[f]) {
            st = zvp_fail(err, ZVP_EINVAL, "zvp_claims_read: paths[%zu] is NULL", f);
            break;
        }
        if (!(set->files[f] = zvp_strdup(strcmp(paths[f], "-") == 0 ? "<stdin>" : paths[f]))) {
            st = zvp_fail(err, ZVP_ENOMEM, "out of memory");
            break;
        }
        set->n_files = f + 1;
        if (!(st = zvp_table_read(paths[f], &t, err)) &&
            !(st = check_header(t, set->files[f], err)))
            st = add_table(set, t, set->files[f], err);
        zvp_table_free(t);
    }
    set->dirs = NULL;
    set->n_dirs = 0;
    if (st) {
        zvp_claims_free(set);
        return st;
    }
    *out = set;
    return ZVP_SUCCESS;
}

size_t zvp_claims_count(const zvp_claims *c) { return c ? c->n : 0; }
size_t zvp_claims_models(const zvp_claims *c) { return c ? c->n_models : 0; }

int zvp_claims_model(const zvp_claims *c, size_t k, const char **name, const char **file,
                     zvp_error *err)
{
    if (!c)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claims_model: claims is NULL");
    if (k >= c->n_models)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claims_model: model index %zu is out of range "
                        "[0, %zu)", k, c->n_models);
    if (name)
        *name = c->models[k].name;
    if (file)
        *file = c->models[k].file;
    return ZVP_SUCCESS;
}

int zvp_claims_info(const zvp_claims *c, size_t i, zvp_claim_info *out, zvp_error *err)
{
    const cl_claim *k;
    if (!c || !out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claims_info: claims or out is NULL");
    if (i >= c->n)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claims_info: claim index %zu is out of range "
                        "[0, %zu)", i, c->n);
    k = &c->claims[i];
    out->id = k->cell[C_ID];
    out->kind = k->cell[C_KIND];
    out->source = k->cell[C_SOURCE];
    out->statement = k->cell[C_STATEMENT];
    out->lhs = k->cell[C_LHS];
    out->relation = k->cell[C_RELATION];
    out->rhs = k->cell[C_RHS];
    out->tolerance = k->cell[C_TOLERANCE];
    out->file = k->file;
    out->line = k->line;
    out->predicted = k->predicted;
    return ZVP_SUCCESS;
}

long zvp_claims_index(const zvp_claims *c, const char *id, zvp_error *err)
{
    if (!c || !id) {
        zvp_fail(err, ZVP_EINVAL, "zvp_claims_index: claims or id is NULL");
        return -1;
    }
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->claims[i].cell[C_ID], id) == 0)
            return (long)i;
    zvp_fail(err, ZVP_ENOTFOUND, "no claim with id '%s' (the files hold %zu claims)", id, c->n);
    return -1;
}
