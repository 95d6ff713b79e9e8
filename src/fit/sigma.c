/*
 * src/fit/sigma.c - the [sigma] section of a fit file (calibration/README.md, "Measurements
 * as stated"): the uncertainty of matched cells.
 *
 *   [sigma]
 *   etr = 2%                       ; every measured cell of output etr: 2 % of its value
 *   resp = 3 ms                    ; absolute, converted to the output's unit
 *   busy = 0.5                     ; absolute, in the data column's unit
 *   itr = digits                   ; half a unit of the cell's last printed digit
 *   etr_sd_col = column etr_sd     ; (key an output) each row's sigma from a data column
 *   pc_high.resident_share_pct = 1 ; one cell (ROW.OUTPUT, split at the last '.')
 *
 * A cell's own "X +- S" wins over ROW.OUTPUT, which wins over OUTPUT. Bounds and intervals
 * take an absolute or relative sigma (it scales their distance) but not `digits`.
 */
#include <stdlib.h>
#include <string.h>
#include "fit/fitfile_impl.h"

/* Matched output named s[0..len), or SIZE_MAX. */
static size_t out_index(const zvp_fit *fit, const char *s, size_t len)
{
    for (size_t j = 0; j < fit->n_match; j++) {
        const char *o = fit->model->outputs[fit->match[j].index].name;
        if (strlen(o) == len && strncmp(o, s, len) == 0)
            return j;
    }
    return SIZE_MAX;
}

/* "OUTPUT" or "ROW.OUTPUT" into *row (SIZE_MAX: every row) and *j; 0 or -1. */
static int sigma_key(const zvp_fit *fit, const char *key, size_t *row, size_t *j)
{
    const char *dot = strrchr(key, '.');
    *row = SIZE_MAX;
    if ((*j = out_index(fit, key, strlen(key))) != SIZE_MAX)
        return 0;
    if (!dot || (*j = out_index(fit, dot + 1, strlen(dot + 1))) == SIZE_MAX)
        return -1;
    for (size_t i = 0; i < fit->n_rows; i++)
        if (strlen(fit->labels[i]) == (size_t)(dot - key) &&
            strncmp(fit->labels[i], key, (size_t)(dot - key)) == 0) {
            *row = i;
            return 0;
        }
    return -1;
}

/* One [sigma] value for output j. */
typedef struct sigma_spec {
    int kind;          /* 0 absolute (value, model unit), 1 relative (fraction), 2 digits, 3 column */
    double value;
    const char *column;
} sigma_spec;

static int parse_spec(const ff_reader *r, const zvp_ini_entry *x, size_t j, sigma_spec *sp,
                      zvp_error *err)
{
    const zvp_fit *fit = r->fit;
    const char *v = x->value, *unit;
    const char *oname = fit->model->outputs[fit->match[j].index].name;
    const char *ounit = fit->model->outputs[fit->match[j].index].unit;
    char num[64];
    size_t len;
    double mul = r->match_cols[j].mul, div = r->match_cols[j].div;
    memset(sp, 0, sizeof *sp);
    if (strcmp(v, "digits") == 0) {
        sp->kind = 2;
        return ZVP_SUCCESS;
    }
    if (strncmp(v, "column ", 7) == 0) {
        ff_col c;
        sp->kind = 3;
        sp->column = v + 7;
        while (*sp->column == ' ')
            sp->column++;
        return zvp_ff_find_column(r, "sigma", x->key, sp->column, &c, err);
    }
    len = strcspn(v, " \t%");
    unit = v + len;
    while (*unit == ' ' || *unit == '\t')
        unit++;
    if (len >= sizeof num)
        len = sizeof num - 1;
    memcpy(num, v, len);
    num[len] = '\0';
    if (zvp_parse_double(num, &sp->value) || !(sp->value > 0.0))
        goto bad;
    if (strcmp(unit, "%") == 0) {
        sp->kind = 1;
        sp->value *= 0.01;
        return ZVP_SUCCESS;
    }
    if (*unit) {
        zvp_error e;
        zvp_error_clear(&e);
        if (zvp_unit_ratio(unit, ounit, &mul, &div, &e))
            return zvp_fail(err, ZVP_EINVAL, "%s:%zu: [sigma] %s = %s: %s", r->path, x->line,
                            x->key, v, e.message);
    }
    sp->value *= mul / div;
    return ZVP_SUCCESS;
bad:
    return zvp_fail(err, ZVP_EINVAL,
                    "%s:%zu: [sigma] %s = %s: not a sigma of %s (a number > 0 with an optional "
                    "unit, N%%, digits or column NAME)", r->path, x->line, x->key, v, oname);
}

/* Sigma of cell (i, j) by spec, or NaN (digits of a cell that is not a plain number). */
static double spec_sigma(const ff_reader *r, const sigma_spec *sp, size_t i, size_t j)
{
    const zvp_fit *fit = r->fit;
    double y = fit->measured[i * fit->n_match + j], k = r->match_cols[j].mul / r->match_cols[j].div;
    const char *t;
    double s;
    switch (sp->kind) {
    case 1: return sp->value * fabs(y);
    case 2:
        t = zvp_fit_row_column(fit, i, fit->match[j].column);
        return t ? zvp_measure_half_digit(t) * k : NAN;
    case 3:
        t = zvp_fit_row_column(fit, i, sp->column);
        return t && !zvp_parse_double(t, &s) ? s * k : NAN;
    default: return sp->value;
    }
}

/* Apply the entries of [sigma] for one-output keys (pass 0) or one-cell keys (pass 1). */
static int apply_pass(ff_reader *r, int pass, const unsigned char *own, zvp_error *err)
{
    zvp_fit *fit = r->fit;
    for (size_t e = 0; e < r->ini->n_entries; e++) {
        const zvp_ini_entry *x = &r->ini->entries[e];
        size_t row, j;
        sigma_spec sp;
        int st;
        if (strcmp(x->section, "sigma") != 0)
            continue;
        if (sigma_key(fit, x->key, &row, &j))
            return zvp_fail(err, ZVP_EINVAL,
                            "%s:%zu: [sigma] %s: not a matched output nor ROW.OUTPUT of a row",
                            r->path, x->line, x->key);
        if ((row == SIZE_MAX) != (pass == 0))
            continue;
        if ((st = parse_spec(r, x, j, &sp, err)))
            return st;
        for (size_t i = 0; i < fit->n_rows; i++) {
            double lo, hi, s;
            if ((row != SIZE_MAX && i != row) || isnan(fit->measured[i * fit->n_match + j]) ||
                own[i * fit->n_match + j])
                continue;
            zvp_fit_cell(fit, i, j, &lo, &hi, NULL);
            if (sp.kind == 2 && !isnan(lo)) {
                if (row == SIZE_MAX)
                    continue;
                return zvp_fail(err, ZVP_EINVAL, "%s:%zu: [sigma] %s = digits: the cell is a "
                                "bound or interval", r->path, x->line, x->key);
            }
            s = spec_sigma(r, &sp, i, j);
            if (isnan(s) && row == SIZE_MAX)
                continue;
            if ((st = zvp_fit_set_cell(fit, i, j, lo, hi, s, err)))
                return st;
        }
    }
    return ZVP_SUCCESS;
}

int zvp_ff_sigma(ff_reader *r, zvp_error *err)
{
    zvp_fit *fit = r->fit;
    size_t n = fit->n_rows * fit->n_match;
    unsigned char *own = calloc(n + 1, 1);
    int st;
    if (!own)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    for (size_t c = 0; c < n; c++) {
        double s;
        zvp_fit_cell(fit, c / fit->n_match, c % fit->n_match, NULL, NULL, &s);
        own[c] = (unsigned char)!isnan(s); /* the cell's own "X +- S" */
    }
    if (!(st = apply_pass(r, 0, own, err)))
        st = apply_pass(r, 1, own, err);
    free(own);
    return st;
}
