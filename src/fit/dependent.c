/*
 * src/fit/dependent.c - the [dependent] section of a fit file (calibration/README.md,
 * "Dependent cells"): matched cells that are functions of other cells, so that the degrees of
 * freedom count them once.
 *
 *   [dependent]
 *   itr = etr / busy_per_cpu_pct * 100          ; every row where etr and busy are measured
 *   cmma_vs_5guests.throughput_rel = cmma_vs_zvm53.throughput_rel / ...   ; one row's cell
 *
 * The key is a matched output (every row) or ROW.OUTPUT (ROW = the row's label). The value
 * is the relation as text; its names are matched outputs (same row), ROW.OUTPUT cells or
 * model parameters (numbers and operators are skipped). A cell is dependent when it and every
 * cell the relation names are measured. A relation may not name a dependent cell.
 */
#include <stdlib.h>
#include <string.h>
#include "fit/fitfile_impl.h"

/* A name of a relation: output j (same row) when row is SIZE_MAX, else cell (row, j); or a
 * parameter (j SIZE_MAX). */
typedef struct dep_ref {
    size_t row, j;
} dep_ref;

typedef struct dep_decl {
    const zvp_ini_entry *x;
    size_t row, j;    /* row SIZE_MAX: every row */
    size_t n_ref;
    dep_ref *ref;
} dep_decl;

static size_t matched_index(const zvp_fit *fit, const char *name, size_t len)
{
    for (size_t j = 0; j < fit->n_match; j++) {
        const char *o = fit->model->outputs[fit->match[j].index].name;
        if (strlen(o) == len && strncmp(o, name, len) == 0)
            return j;
    }
    return SIZE_MAX;
}

static size_t row_index(const zvp_fit *fit, const char *label, size_t len)
{
    for (size_t i = 0; i < fit->n_rows; i++)
        if (strlen(fit->labels[i]) == len && strncmp(fit->labels[i], label, len) == 0)
            return i;
    return SIZE_MAX;
}

/* "OUTPUT" or "ROW.OUTPUT" (split at the last '.') into *row, *j; 0, or -1 if unknown. */
static int parse_cell(const zvp_fit *fit, const char *s, size_t len, size_t *row, size_t *j)
{
    const char *dot = NULL;
    *row = SIZE_MAX;
    if ((*j = matched_index(fit, s, len)) != SIZE_MAX)
        return 0;
    for (size_t k = 0; k < len; k++)
        if (s[k] == '.')
            dot = s + k;
    if (!dot)
        return -1;
    *row = row_index(fit, s, (size_t)(dot - s));
    *j = matched_index(fit, dot + 1, len - (size_t)(dot - s) - 1);
    return *row == SIZE_MAX || *j == SIZE_MAX ? -1 : 0;
}

static int is_number(const char *s, size_t len)
{
    char buf[64];
    double v;
    if (len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return zvp_parse_double(buf, &v) == 0;
}

static int is_param(const zvp_fit *fit, const char *s, size_t len)
{
    for (size_t k = 0; k < fit->model->n_params; k++)
        if (strlen(fit->model->params[k].name) == len &&
            strncmp(fit->model->params[k].name, s, len) == 0)
            return 1;
    return 0;
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.';
}

/* The names of d's relation into d->ref. */
static int parse_relation(const ff_reader *r, dep_decl *d, zvp_error *err)
{
    const char *v = d->x->value;
    size_t n = strlen(v);
    if (!(d->ref = malloc((n + 1) * sizeof *d->ref)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    for (size_t a = 0; a < n;) {
        size_t b = a, row, j;
        if (!name_char(v[a])) {
            a++;
            continue;
        }
        while (b < n && name_char(v[b]))
            b++;
        if (parse_cell(r->fit, v + a, b - a, &row, &j) == 0) {
            d->ref[d->n_ref].row = row;
            d->ref[d->n_ref++].j = j;
        } else if (!is_number(v + a, b - a) && !is_param(r->fit, v + a, b - a)) {
            return zvp_fail(err, ZVP_EPARSE,
                            "%s:%zu: [dependent] %s = %s: '%.*s' is neither a matched output, "
                            "a ROW.OUTPUT cell, a model parameter nor a number", r->path,
                            d->x->line, d->x->key, v, (int)(b - a), v + a);
        }
        a = b;
    }
    return ZVP_SUCCESS;
}

/* 1 if the cell (row, j) (row SIZE_MAX: output j in any row) is declared dependent in decl. */
static int declared(const dep_decl *decl, size_t n, size_t row, size_t j)
{
    for (size_t k = 0; k < n; k++)
        if (decl[k].j == j && (decl[k].row == SIZE_MAX || row == SIZE_MAX || decl[k].row == row))
            return 1;
    return 0;
}

static int measured(const zvp_fit *fit, size_t row, size_t j)
{
    return !isnan(fit->measured[row * fit->n_match + j]);
}

/* Mark the cells of d: one row (d->row) or every row where the cell and its names are
 * measured. */
static int apply(const ff_reader *r, const dep_decl *d, zvp_error *err)
{
    zvp_fit *fit = r->fit;
    for (size_t i = 0; i < fit->n_rows; i++) {
        int ok;
        if (d->row != SIZE_MAX && i != d->row)
            continue;
        ok = measured(fit, i, d->j);
        for (size_t k = 0; k < d->n_ref && ok; k++)
            ok = measured(fit, d->ref[k].row == SIZE_MAX ? i : d->ref[k].row, d->ref[k].j);
        if (!ok && d->row != SIZE_MAX)
            return zvp_fail(err, ZVP_EINVAL,
                            "%s:%zu: [dependent] %s = %s: the cell or a cell it names is not "
                            "measured in row %s", r->path, d->x->line, d->x->key, d->x->value,
                            fit->labels[i]);
        if (ok && zvp_fit_set_dependent(fit, i, d->j, err))
            return ZVP_ENOMEM;
    }
    return ZVP_SUCCESS;
}

int zvp_ff_dependent(ff_reader *r, zvp_error *err)
{
    const zvp_ini *ini = r->ini;
    dep_decl *decl = calloc(ini->n_entries + 1, sizeof *decl);
    size_t n = 0;
    int st = ZVP_SUCCESS;
    if (!decl)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    for (size_t i = 0; i < ini->n_entries && !st; i++) {
        const zvp_ini_entry *x = &ini->entries[i];
        dep_decl *d = &decl[n];
        if (strcmp(x->section, "dependent") != 0)
            continue;
        d->x = x;
        n++;
        if (parse_cell(r->fit, x->key, strlen(x->key), &d->row, &d->j))
            st = zvp_fail(err, ZVP_EPARSE,
                          "%s:%zu: [dependent] %s: not a matched output nor ROW.OUTPUT with a row "
                          "label of the data", r->path, x->line, x->key);
        else
            st = parse_relation(r, d, err);
    }
    for (size_t a = 0; a < n && !st; a++)
        for (size_t k = 0; k < decl[a].n_ref && !st; k++)
            if (declared(decl, n, decl[a].ref[k].row, decl[a].ref[k].j))
                st = zvp_fail(err, ZVP_EPARSE,
                              "%s:%zu: [dependent] %s = %s: names a cell that is itself declared "
                              "dependent (define each dependent cell from independent ones)",
                              r->path, decl[a].x->line, decl[a].x->key, decl[a].x->value);
    for (size_t a = 0; a < n && !st; a++)
        st = apply(r, &decl[a], err);
    for (size_t a = 0; a < n; a++)
        free(decl[a].ref);
    free(decl);
    return st;
}
