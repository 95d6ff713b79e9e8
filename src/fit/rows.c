/*
 * src/fit/rows.c - the rows of a fit file: every row of every data file, joined to the join
 * table on join_key, kept when the `where` conditions hold, labelled, then added to the fit
 * (zvp_fit_add_row) with their [inputs] values and [match] measured values, each stated cell
 * checked against its output's range. Messages give rows as "row <n> of <file> (line <l>,
 * <label>)": n the 1-based data row (the numbering of the "row <n>" labels), l the file line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/fitfile_impl.h"

/* Candidate rows: every row of every data file, in file order. */
typedef struct ff_rows {
    size_t n;
    size_t *file;      /* [n] data file index */
    size_t *row;       /* [n] row in that file */
    size_t *partner;   /* [n] join table row (0 without a join) */
    size_t *keep;      /* [kept] candidate indices that pass the where filter */
    size_t kept;
    long key_col;      /* join key column in the data (-1 without a join) */
} ff_rows;

static const zvp_table *cell_table(const ff_reader *r, const ff_rows *fr, size_t c, int table,
                                   size_t *row)
{
    *row = table ? fr->partner[c] : fr->row[c];
    return table ? r->join_t : r->tables[fr->file[c]];
}

static int where_holds(const ff_reader *r, const ff_rows *fr, size_t c)
{
    for (size_t k = 0; k < r->n_where; k++) {
        const ff_where *w = &r->wheres[k];
        size_t row;
        const zvp_table *t = cell_table(r, fr, c, w->c.table, &row);
        if (w->numeric ? !(zvp_table_value(t, row, w->c.col) == w->number)
                       : strcmp(zvp_table_text(t, row, w->c.col), w->value) != 0)
            return 0;
    }
    return 1;
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Does column j name every row left apart: no cell empty, no two cells alike? v: scratch room
 * for fr->kept pointers. */
static int column_distinct(const ff_reader *r, const ff_rows *fr, size_t j, const char **v)
{
    for (size_t i = 0; i < fr->kept; i++) {
        size_t row;
        const zvp_table *t = cell_table(r, fr, fr->keep[i], 0, &row);
        if ((v[i] = zvp_table_text(t, row, j))[0] == '\0')
            return 0;
    }
    qsort(v, fr->kept, sizeof *v, cmp_text);
    for (size_t i = 1; i < fr->kept; i++)
        if (strcmp(v[i - 1], v[i]) == 0)
            return 0;
    return 1;
}

/* Label column, among the data columns holding text (a non-empty cell that is not a number)
 * in the rows left and not named in `where` (those are constant over the rows left): the
 * first whose cells tell every row left apart (a run id rather than the release it ran,
 * which two rows may share), else the first of them; -1 if none holds text. */
static long label_column(const ff_reader *r, const ff_rows *fr)
{
    size_t cols = zvp_table_cols(r->tables[0]);
    unsigned char *filtered = calloc(cols + 1, 1);
    const char **scratch = malloc((fr->kept + 1) * sizeof *scratch);
    long first = -1, distinct = -1;
    if (!filtered || !scratch) {
        free(filtered);
        free(scratch);
        return -1; /* out of memory: rows are labelled by number */
    }
    for (size_t k = 0; k < r->n_where; k++)
        if (r->wheres[k].c.table == 0)
            filtered[r->wheres[k].c.col] = 1;
    for (size_t j = 0; j < cols && distinct < 0; j++) {
        int text = 0;
        if (filtered[j])
            continue;
        for (size_t i = 0; i < fr->kept && !text; i++) {
            size_t row;
            const zvp_table *t = cell_table(r, fr, fr->keep[i], 0, &row);
            text = zvp_table_text(t, row, j)[0] != '\0' && isnan(zvp_table_value(t, row, j));
        }
        if (!text)
            continue;
        if (first < 0)
            first = (long)j;
        if (column_distinct(r, fr, j, scratch))
            distinct = (long)j;
    }
    free(filtered);
    free(scratch);
    return distinct >= 0 ? distinct : first;
}

/* A join key and its row in the join table. */
typedef struct key_row {
    double key;
    size_t row;
} key_row;

static int cmp_key_row(const void *a, const void *b)
{
    const key_row *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* The join table's keys sorted (*out, [rows]); they must be distinct numbers. Sorting keeps
 * the join linear-logarithmic in the rows. */
static int sorted_join_keys(const ff_reader *r, size_t kj, key_row **out, zvp_error *err)
{
    const zvp_table *jt = r->join_t;
    const char *key = r->fit->join_key;
    size_t n = zvp_table_rows(jt);
    key_row *v = malloc((n + 1) * sizeof *v);
    *out = v;
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    for (size_t a = 0; a < n; a++) {
        v[a].key = zvp_table_value(jt, a, kj);
        v[a].row = a;
        if (isnan(v[a].key))
            return zvp_fail(err, ZVP_EPARSE, "%s: join key %s = '%s' in row %zu is not a number",
                            r->fit->join_path, key, zvp_table_text(jt, a, kj), a + 1);
    }
    qsort(v, n, sizeof *v, cmp_key_row);
    for (size_t a = 1; a < n; a++)
        if (v[a].key == v[a - 1].key)
            return zvp_fail(err, ZVP_EPARSE, "%s: join key %s = %s appears in rows %zu and %zu",
                            r->fit->join_path, key, zvp_table_text(jt, v[a].row, kj),
                            v[a - 1].row + 1, v[a].row + 1);
    return ZVP_SUCCESS;
}

/* Row of the join table whose key is k, or (size_t)-1. */
static size_t find_key(const key_row *v, size_t n, double k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].key == k ? v[lo].row : (size_t)-1;
}

/* Join partner of every candidate row; a data row whose key the join table lacks is
 * ZVP_EPARSE naming the key value. */
static int join_rows(const ff_reader *r, ff_rows *fr, zvp_error *err)
{
    const zvp_fit *fit = r->fit;
    size_t jr = zvp_table_rows(r->join_t);
    key_row *keys = NULL;
    long kj;
    zvp_error e;
    int st;
    zvp_error_clear(&e);
    fr->key_col = zvp_table_col_index(r->tables[0], fit->join_key, &e);
    if (fr->key_col < 0)
        return zvp_fit_fail_from(err, &e, "%s: [fit] join_key = %s: in %s", r->path,
                                 fit->join_key, fit->data_path);
    kj = zvp_table_col_index(r->join_t, fit->join_key, &e);
    if (kj < 0)
        return zvp_fit_fail_from(err, &e, "%s: [fit] join_key = %s: in %s", r->path,
                                 fit->join_key, fit->join_path);
    st = sorted_join_keys(r, (size_t)kj, &keys, err);
    for (size_t c = 0; c < fr->n && !st; c++) {
        const zvp_table *t = r->tables[fr->file[c]];
        size_t i = fr->row[c], kd = (size_t)fr->key_col, a;
        double k = zvp_table_value(t, i, kd);
        if (isnan(k)) {
            st = zvp_fail(err, ZVP_EPARSE, "%s: join key %s = '%s' in row %zu is not a number",
                          r->data_paths[fr->file[c]], fit->join_key, zvp_table_text(t, i, kd),
                          i + 1);
            break;
        }
        if ((a = find_key(keys, jr, k)) == (size_t)-1) {
            st = zvp_fail(err, ZVP_EPARSE,
                          "%s: [fit] join_key = %s: row %zu of %s has %s = %s, which %s "
                          "does not have", r->path, fit->join_key, i + 1,
                          r->data_paths[fr->file[c]], fit->join_key, zvp_table_text(t, i, kd),
                          fit->join_path);
            break;
        }
        fr->partner[c] = a;
    }
    free(keys);
    return st;
}

/* Candidate rows, joined and filtered into fr. */
static int select_rows(const ff_reader *r, ff_rows *fr, zvp_error *err)
{
    int st;
    for (size_t k = 0; k < r->n_data; k++)
        fr->n += zvp_table_rows(r->tables[k]);
    if (fr->n == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: data = %s has no data rows", r->path,
                        r->fit->data_path);
    fr->file = malloc(fr->n * sizeof *fr->file);
    fr->row = malloc(fr->n * sizeof *fr->row);
    fr->partner = calloc(fr->n, sizeof *fr->partner);
    fr->keep = malloc(fr->n * sizeof *fr->keep);
    if (!fr->file || !fr->row || !fr->partner || !fr->keep)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    for (size_t k = 0, c = 0; k < r->n_data; k++)
        for (size_t i = 0; i < zvp_table_rows(r->tables[k]); i++, c++) {
            fr->file[c] = k;
            fr->row[c] = i;
        }
    if (r->join_t && (st = join_rows(r, fr, err)))
        return st;
    for (size_t c = 0; c < fr->n; c++)
        if (where_holds(r, fr, c))
            fr->keep[fr->kept++] = c;
    if (fr->kept == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: [fit] where = %s leaves no rows (of %zu in %s)",
                        r->path, r->where, fr->n, r->fit->data_path);
    return ZVP_SUCCESS;
}

/* Where candidate c's cell in table `table` (0 data, 1 join) is, for messages: "row <n> of
 * <file> (line <l>, <label>)", n the 1-based data row (header, comment and blank lines not
 * counted; the numbering of the "row <n>" labels), l the line of the file. */
static void cell_where(const ff_reader *r, const ff_rows *fr, size_t c, int table,
                       const char *label, char *buf, size_t size)
{
    size_t row;
    const zvp_table *t = cell_table(r, fr, c, table, &row);
    snprintf(buf, size, "row %zu of %s (line %zu, %s)", row + 1,
             table ? r->fit->join_path : r->data_paths[fr->file[c]], zvp_table_row_line(t, row),
             label);
}

/* Check the stated cell `text` of matched output d against d's range [min, max] and, for
 * relative residuals without a sigma, against ZVP_FIT_REL_MIN: y is its value, z[0..1] its
 * zone (NaN for a point), z[2] its sigma, all in d's unit (k: column unit -> d's unit).
 * A point value (also x +- s) must lie in the range; every finite end of a bound or an
 * interval must lie in it (an interval reaching beyond it is refused, not clipped); a strict
 * bound at the range's edge (< min, > max) leaves no value. where: the cell (cell_where). */
static int check_stated(const ff_reader *r, size_t j, const char *where, const char *text,
                        const char *col_unit, double k, double y, const double *z,
                        zvp_error *err)
{
    const zvp_fit *fit = r->fit;
    const zvp_fit_match *mt = &fit->match[j];
    const zvp_param_desc *d = &fit->model->outputs[mt->index];
    int strict = zvp_measure_strict(text), zone = !isnan(z[0]);
    const char *u = d->unit && strcmp(d->unit, "1") != 0 ? d->unit : "";
    char range[200], why[512];
    why[0] = '\0';
    if (isnan(y))
        return ZVP_SUCCESS; /* an empty cell: not measured */
    if (k == 1.0 || !col_unit || !*col_unit)
        snprintf(range, sizeof range, "[%g, %g]%s%s", d->min, d->max, *u ? " " : "", u);
    else
        snprintf(range, sizeof range, "[%g, %g]%s%s (= [%g, %g] %s in the column's unit)",
                 d->min, d->max, *u ? " " : "", u, d->min / k, d->max / k, col_unit);
    if (!zone) {
        if (!(y >= d->min && y <= d->max))
            snprintf(why, sizeof why, "its value (%g%s%s in the output's unit) is outside the "
                     "output's range %s: no model value can meet it", y, *u ? " " : "", u, range);
    } else {
        for (int e = 0; e < 2 && !why[0]; e++)
            if (isfinite(z[e]) && !(z[e] >= d->min && z[e] <= d->max))
                snprintf(why, sizeof why, "its %s (%g%s%s in the output's unit) is outside the "
                         "output's range %s (every end of a bound or an interval must lie in it)",
                         isinf(z[1 - e]) ? "bound" : e ? "upper end" : "lower end", z[e],
                         *u ? " " : "", u, range);
        if (!why[0] && strict != 0 && z[strict < 0 ? 1 : 0] == (strict < 0 ? d->min : d->max))
            snprintf(why, sizeof why, "a strict bound at the %s end of the output's range %s: "
                     "no model value can meet it", strict < 0 ? "lower" : "upper", range);
    }
    if (why[0])
        return zvp_fail(err, ZVP_EINVAL, "%s: [match] %s = %s: %s, column %s: cell '%s': %s",
                        r->path, d->name, mt->column, where, mt->column, text, why);
    if (fit->params.residual != ZVP_FIT_RELATIVE || !isnan(z[2]))
        return ZVP_SUCCESS;
    if (!zone && y == 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: [match] %s = %s: %s, column %s: cell '%s' measures 0, which a "
                        "relative residual cannot use (set residual = absolute, or give the cell "
                        "a sigma)", r->path, d->name, mt->column, where, mt->column, text);
    for (int e = 0; e < 3; e++) {
        double v = e == 2 ? y : z[e];
        if ((e == 2) == zone || !(fabs(v) < ZVP_FIT_REL_MIN))
            continue;
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: [match] %s = %s: %s, column %s: cell '%s' has %s %g%s%s, below %g "
                        "in magnitude, which a relative residual (f - y) / |y| cannot use: it "
                        "overflows (set residual = absolute, give the cell a sigma, or give the "
                        "column in a larger unit)", r->path, d->name, mt->column, where,
                        mt->column, text, e == 2 ? "the value" : isinf(z[1 - e]) ? "the bound"
                        : e ? "the upper end" : "the lower end", v, *u ? " " : "", u,
                        ZVP_FIT_REL_MIN);
    }
    return ZVP_SUCCESS;
}

/* Inputs and measured values of candidate c (label for messages). */
static int row_values(const ff_reader *r, const ff_rows *fr, size_t c, const char *label,
                      double *in, double *y, double *zone, zvp_error *err)
{
    const zvp_fit *fit = r->fit;
    const zvp_model *m = fit->model;
    char where[1200];
    for (size_t k = 0; k < fit->n_inputs; k++) {
        size_t row;
        if (r->input_cols[k].per_file) { /* [inputs] <param> = per_file v1, v2, ... */
            in[k] = r->input_cols[k].file_value[fr->file[c]];
            continue;
        }
        const zvp_table *t = cell_table(r, fr, c, r->input_cols[k].table, &row);
        in[k] = zvp_table_value(t, row, r->input_cols[k].col) * r->input_cols[k].mul /
                r->input_cols[k].div;
        cell_where(r, fr, c, r->input_cols[k].table, label, where, sizeof where);
        if (isnan(in[k]))
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: [inputs] %s = %s: %s has '%s', not a number",
                            r->path, m->params[fit->inputs[k].index].name, fit->inputs[k].column,
                            where, zvp_table_text(t, row, r->input_cols[k].col));
    }
    for (size_t j = 0; j < fit->n_match; j++) {
        const zvp_fit_match *mt = &fit->match[j];
        size_t row;
        const zvp_table *t = cell_table(r, fr, c, r->match_cols[j].table, &row);
        const char *text = zvp_table_text(t, row, r->match_cols[j].col);
        double k = r->match_cols[j].mul / r->match_cols[j].div, *z = zone + 3 * j;
        int rel, st;
        cell_where(r, fr, c, r->match_cols[j].table, label, where, sizeof where);
        y[j] = zvp_table_value(t, row, r->match_cols[j].col) * k;
        z[0] = z[1] = z[2] = NAN;
        if (isnan(y[j]) && text[0] != '\0') {
            /* a stated measurement: bound, interval, value +- sigma (measure.c) */
            if (zvp_measure_parse(text, &y[j], &z[0], &z[1], &z[2], &rel))
                return zvp_fail(err, ZVP_EPARSE,
                                "%s: [match] %s = %s: %s has '%s', not a number, a bound "
                                "(< X, <= X, > X, >= X), an interval (A..B) or X +- S[%%]",
                                r->path, m->outputs[mt->index].name, mt->column, where, text);
            y[j] *= k;
            z[0] *= k;
            z[1] *= k;
            z[2] *= k;
        }
        if ((st = check_stated(r, j, where, text,
                               zvp_table_col_unit(t, r->match_cols[j].col), k, y[j], z, err)))
            return st;
    }
    return ZVP_SUCCESS;
}

/* Label of candidate c: the label column's cell, else join_key=value, else its row number. */
static void row_label(const ff_reader *r, const ff_rows *fr, size_t c, long label_col,
                      char *buf, size_t size)
{
    const zvp_table *dt = r->tables[fr->file[c]];
    size_t dr = fr->row[c];
    if (label_col >= 0)
        snprintf(buf, size, "%s", zvp_table_text(dt, dr, (size_t)label_col));
    else if (r->join_t)
        snprintf(buf, size, "%s=%s", r->fit->join_key, zvp_table_text(dt, dr, (size_t)fr->key_col));
    else if (r->n_data == 1)
        snprintf(buf, size, "row %zu", dr + 1);
    else
        snprintf(buf, size, "file %zu row %zu", fr->file[c] + 1, dr + 1);
}

int zvp_ff_assemble_rows(ff_reader *r, zvp_error *err)
{
    zvp_fit *fit = r->fit;
    ff_rows fr;
    double *in = malloc((fit->n_inputs + 1) * sizeof *in), *y = malloc((fit->n_match + 1) * sizeof *y);
    double *zone = malloc((3 * fit->n_match + 1) * sizeof *zone);
    long label_col;
    int st;
    zvp_error e;
    memset(&fr, 0, sizeof fr);
    fr.key_col = -1;
    if (!in || !y || !zone)
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    else
        st = select_rows(r, &fr, err);
    label_col = st ? -1 : label_column(r, &fr);
    for (size_t i = 0; i < fr.kept && !st; i++) {
        size_t c = fr.keep[i];
        char label[128];
        row_label(r, &fr, c, label_col, label, sizeof label);
        if ((st = row_values(r, &fr, c, label, in, y, zone, err)))
            break;
        zvp_error_clear(&e);
        if ((st = zvp_fit_add_row(fit, label, in, y, &e)))
            st = zvp_fit_fail_from(err, &e, "%s: %s row %zu", r->path,
                                   r->data_paths[fr.file[c]], fr.row[c] + 1);
        else if (zvp_ff_keep_row(r, fit->n_rows - 1, fr.file[c], fr.row[c], fr.partner[c]))
            st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
        for (size_t j = 0; !st && j < fit->n_match; j++)
            if (!isnan(zone[3 * j]) || !isnan(zone[3 * j + 2]))
                st = zvp_fit_set_cell(fit, fit->n_rows - 1, j, zone[3 * j], zone[3 * j + 1],
                                      zone[3 * j + 2], err);
    }
    if (!st && fit->n_measured < fit->n_free)
        st = zvp_fail(err, ZVP_EINVAL,
                      "%s: %zu measured cells for %zu free parameters: need at least as many "
                      "cells as free parameters", r->path, fit->n_measured, fit->n_free);
    free(fr.file);
    free(fr.row);
    free(fr.partner);
    free(fr.keep);
    free(in);
    free(y);
    free(zone);
    return st;
}
