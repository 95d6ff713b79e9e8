/*
 * src/fit/rowinfo.c - per-row extras of a fit: the data file each row came from, the text of
 * its data columns (for validation by group, validate.c), and the matched cells declared
 * dependent (functions of other cells, not counted in the degrees of freedom).
 */
#include <stdlib.h>
#include <string.h>
#include "fit/fitfile_impl.h"

void zvp_fit_extra_free(zvp_fit_extra *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->n_rows; i++)
        free(x->data_file ? x->data_file[i] : NULL);
    for (size_t i = 0; x->cells && i < x->n_rows * x->n_cols; i++)
        free(x->cells[i]);
    for (size_t c = 0; x->col_names && c < x->n_cols; c++)
        free(x->col_names[c]);
    free(x->data_file);
    free(x->cells);
    free(x->col_names);
    free(x->dep);
    free(x->zlo);
    free(x->zhi);
    free(x->sigma);
    free(x);
}

zvp_fit_extra *zvp_fit_extra_get(zvp_fit *fit)
{
    if (!fit->extra)
        fit->extra = calloc(1, sizeof *fit->extra);
    return fit->extra;
}

/* Make room for row sources of the fit's rows (data_file for every row, cells when the
 * columns are known); 0 or ZVP_ENOMEM. */
static int extra_rows(zvp_fit *fit, size_t n_cols)
{
    zvp_fit_extra *x = zvp_fit_extra_get(fit);
    size_t n = fit->n_rows;
    if (!x)
        return ZVP_ENOMEM;
    if (x->n_rows >= n && x->n_cols == n_cols)
        return ZVP_SUCCESS;
    if (x->n_rows > 0 && x->n_cols != n_cols)
        return ZVP_EINVAL;
    char **df = realloc(x->data_file, (n + 1) * sizeof *df);
    if (!df)
        return ZVP_ENOMEM;
    x->data_file = df;
    if (n_cols) {
        char **cells = realloc(x->cells, (n * n_cols + 1) * sizeof *cells);
        if (!cells)
            return ZVP_ENOMEM;
        x->cells = cells;
        for (size_t i = x->n_rows * n_cols; i < n * n_cols; i++)
            cells[i] = NULL;
    }
    for (size_t i = x->n_rows; i < n; i++)
        df[i] = NULL;
    x->n_rows = n;
    x->n_cols = n_cols;
    return ZVP_SUCCESS;
}

int zvp_fit_set_row_source(zvp_fit *fit, size_t i, const char *data_file, zvp_error *err)
{
    zvp_fit_extra *x;
    char *d;
    if (!fit || !data_file)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_set_row_source: fit and data_file must not be NULL");
    if (i >= fit->n_rows)
        return zvp_fail(err, ZVP_EINVAL, "%s: row source: row %zu is out of range [0, %zu)",
                        zvp_fit_name(fit), i, fit->n_rows);
    if (extra_rows(fit, fit->extra ? fit->extra->n_cols : 0) || !(d = zvp_strdup(data_file)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    x = fit->extra;
    free(x->data_file[i]);
    x->data_file[i] = d;
    return ZVP_SUCCESS;
}

/* The header of the data tables and of the join table, as the extras' column names. */
static int keep_columns(ff_reader *r, zvp_fit_extra *x)
{
    size_t nd = zvp_table_cols(r->tables[0]), nj = r->join_t ? zvp_table_cols(r->join_t) : 0;
    if (x->col_names)
        return ZVP_SUCCESS;
    x->col_names = calloc(nd + nj + 1, sizeof *x->col_names);
    if (!x->col_names)
        return ZVP_ENOMEM;
    x->n_cols = 0;
    for (size_t c = 0; c < nd + nj; c++) {
        const char *name = c < nd ? zvp_table_col_name(r->tables[0], c)
                                  : zvp_table_col_name(r->join_t, c - nd);
        if (!(x->col_names[c] = zvp_strdup(name)))
            return ZVP_ENOMEM;
        x->n_cols++;
    }
    return ZVP_SUCCESS;
}

int zvp_ff_keep_row(ff_reader *r, size_t i, size_t file, size_t row, size_t partner)
{
    zvp_fit *fit = r->fit;
    zvp_fit_extra *x = zvp_fit_extra_get(fit);
    size_t nd = zvp_table_cols(r->tables[0]);
    if (!x || keep_columns(r, x) || extra_rows(fit, x->n_cols))
        return ZVP_ENOMEM;
    if (!(x->data_file[i] = zvp_strdup(r->data_paths[file])))
        return ZVP_ENOMEM;
    for (size_t c = 0; c < x->n_cols; c++) {
        const char *t = c < nd ? zvp_table_text(r->tables[file], row, c)
                               : zvp_table_text(r->join_t, partner, c - nd);
        if (!(x->cells[i * x->n_cols + c] = zvp_strdup(t)))
            return ZVP_ENOMEM;
    }
    return ZVP_SUCCESS;
}

const char *zvp_fit_row_data_file(const zvp_fit *fit, size_t i)
{
    if (!fit || i >= fit->n_rows)
        return NULL;
    if (!fit->extra || i >= fit->extra->n_rows || !fit->extra->data_file[i])
        return "";
    return fit->extra->data_file[i];
}

const char *zvp_fit_row_column(const zvp_fit *fit, size_t i, const char *column)
{
    const zvp_fit_extra *x = fit ? fit->extra : NULL;
    if (!x || !column || i >= fit->n_rows || i >= x->n_rows || !x->cells)
        return NULL;
    for (size_t c = 0; c < x->n_cols; c++)
        if (strcmp(x->col_names[c], column) == 0)
            return x->cells[i * x->n_cols + c];
    return NULL;
}

/* ---- dependent cells ---- */

int zvp_fit_set_dependent(zvp_fit *fit, size_t i, size_t j, zvp_error *err)
{
    zvp_fit_extra *x;
    size_t cell;
    if (!fit)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_set_dependent: fit is NULL");
    if (i >= fit->n_rows || j >= fit->n_match)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: dependent cell (row %zu, output %zu) is out of range: rows [0, %zu), "
                        "matched outputs [0, %zu)", zvp_fit_name(fit), i, j, fit->n_rows,
                        fit->n_match);
    if (zvp_fit_cell_dependent(fit, i, j))
        return ZVP_SUCCESS;
    if (!(x = zvp_fit_extra_get(fit)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    cell = i * fit->n_match + j;
    if (x->n_dep == x->cap_dep) {
        size_t cap = x->cap_dep ? 2 * x->cap_dep : 8;
        size_t *d = realloc(x->dep, cap * sizeof *d);
        if (!d)
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
        x->dep = d;
        x->cap_dep = cap;
    }
    x->dep[x->n_dep++] = cell;
    return ZVP_SUCCESS;
}

int zvp_fit_cell_dependent(const zvp_fit *fit, size_t i, size_t j)
{
    size_t cell;
    if (!fit || !fit->extra || i >= fit->n_rows || j >= fit->n_match)
        return 0;
    cell = i * fit->n_match + j;
    for (size_t k = 0; k < fit->extra->n_dep; k++)
        if (fit->extra->dep[k] == cell)
            return 1;
    return 0;
}

size_t zvp_fit_count_independent(const zvp_fit *fit)
{
    size_t n = fit->n_measured;
    if (fit->extra)
        for (size_t k = 0; k < fit->extra->n_dep; k++)
            n -= isnan(fit->measured[fit->extra->dep[k]]) ? 0u : 1u;
    return n;
}

size_t zvp_fit_n_independent(const zvp_fit *fit) { return fit ? zvp_fit_count_independent(fit) : 0; }

/* A dependent cell of src stays dependent in dst when its row is kept; the row sources
 * follow their rows. */
int zvp_fit_extra_subset(const zvp_fit *src, zvp_fit *dst, const size_t *rows, size_t n)
{
    const zvp_fit_extra *x = src->extra;
    zvp_fit_extra *y;
    size_t nm = src->n_match;
    zvp_error e;
    if (!x)
        return ZVP_SUCCESS;
    if (!(y = zvp_fit_extra_get(dst)))
        return ZVP_ENOMEM;
    if (x->n_cols && !(y->col_names = calloc(x->n_cols, sizeof *y->col_names)))
        return ZVP_ENOMEM;
    for (size_t c = 0; c < x->n_cols; c++)
        if (!(y->col_names[c] = zvp_strdup(x->col_names[c])))
            return ZVP_ENOMEM;
    y->n_cols = x->n_cols;
    if (x->n_rows && extra_rows(dst, x->n_cols))
        return ZVP_ENOMEM;
    for (size_t a = 0; a < n && x->n_rows; a++) {
        size_t r = rows[a];
        if (r >= x->n_rows)
            continue;
        if (x->data_file[r] && !(y->data_file[a] = zvp_strdup(x->data_file[r])))
            return ZVP_ENOMEM;
        for (size_t c = 0; c < x->n_cols; c++)
            if (!(y->cells[a * x->n_cols + c] = zvp_strdup(x->cells[r * x->n_cols + c])))
                return ZVP_ENOMEM;
    }
    zvp_error_clear(&e);
    for (size_t k = 0; k < x->n_dep; k++)
        for (size_t a = 0; a < n; a++)
            if (rows[a] == x->dep[k] / nm && zvp_fit_set_dependent(dst, a, x->dep[k] % nm, &e))
                return ZVP_ENOMEM;
    return ZVP_SUCCESS;
}
