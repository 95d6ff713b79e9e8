/*
 * src/fit.c - fit files (INI, parsed with libinih) and the calibration engine (GSL
 * multifit_nlinear trust region, Levenberg-Marquardt, multistart).
 *
 * Least-squares problem. For row i (after the optional join) and matched output j with
 * measured value y_ij (cells with no measurement are skipped), model value m_ij(theta) and
 * weight w_j:
 *     relative residual  r_ij = w_j (m_ij - y_ij) / |y_ij|
 *     absolute residual  r_ij = w_j (m_ij - y_ij)
 * minimise cost = sum r_ij^2 over theta in the box (lo, hi). Bounds by the logistic map
 *     theta_k = lo_k + (hi_k - lo_k) / (1 + exp(-u_k)),
 * GSL works on the unbounded u. Standard errors: C_u = s^2 (J_u^T J_u)^-1 with
 * s^2 = cost / (n - p) (Bates & Watts 1988, sec. 2.3; GSL manual, "Nonlinear Least-Squares
 * Fitting", covariance of best-fit parameters), mapped to theta by the delta method with
 * d theta_k / d u_k = (theta_k - lo_k)(hi_k - theta_k) / (hi_k - lo_k).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ini.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>
#include "internal.h"
#include "fit_impl.h"

/* Longest fit-file line accepted, including the line end (libinih's INI_MAX_LINE = 200
 * must exceed it by 3 for '\r', '\n' and '\0'; see <ini.h>). */
#define ZVP_FIT_MAX_LINE 197

/* ---- small helpers -------------------------------------------------------------------- */

/* Fail with sub->status and "<formatted prefix>: <sub->message>". */
static int fail_from(zvp_error *err, const zvp_error *sub, const char *fmt, ...) ZVP_PRINTF(3, 4);
static int fail_from(zvp_error *err, const zvp_error *sub, const char *fmt, ...)
{
    char pre[ZVP_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    return zvp_fail(err, sub->status ? sub->status : ZVP_EINVAL, "%s: %s", pre, sub->message);
}

/* Resolve `rel` against the directory of `base_file` (absolute paths are kept). */
static char *resolve_path(const char *base_file, const char *rel)
{
    const char *slash = strrchr(base_file, '/');
    size_t dlen, rlen = strlen(rel);
    char *s;
    if (rel[0] == '/' || !slash)
        return zvp_strdup(rel);
    dlen = (size_t)(slash - base_file) + 1; /* keep the '/' */
    s = malloc(dlen + rlen + 1);
    if (!s)
        return NULL;
    memcpy(s, base_file, dlen);
    memcpy(s + dlen, rel, rlen + 1);
    return s;
}

int zvp_fit_at_bound(double theta, double lo, double hi)
{
    double tol = ZVP_FIT_BOUND_REL * (hi - lo);
    return theta - lo <= tol || hi - theta <= tol;
}

static double theta_of_u(double u, double lo, double hi)
{
    return lo + (hi - lo) / (1.0 + exp(-u));
}

static double u_of_theta(double theta, double lo, double hi)
{
    return log((theta - lo) / (hi - theta));
}

/* ---- INI collection ------------------------------------------------------------------- */

typedef struct ini_entry {
    char *section, *name, *value;
} ini_entry;

typedef struct ini_ctx {
    ini_entry *e;
    size_t n, cap;
    int nomem;
} ini_ctx;

static int ini_collect(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx *c = user;
    if (c->nomem)
        return 0;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 32;
        ini_entry *e = realloc(c->e, cap * sizeof *e);
        if (!e) {
            c->nomem = 1;
            return 0;
        }
        c->e = e;
        c->cap = cap;
    }
    ini_entry *x = &c->e[c->n];
    x->section = zvp_strdup(section ? section : "");
    x->name = zvp_strdup(name ? name : "");
    x->value = zvp_strdup(value ? value : "");
    if (!x->section || !x->name || !x->value) {
        free(x->section);
        free(x->name);
        free(x->value);
        c->nomem = 1;
        return 0;
    }
    c->n++;
    return 1;
}

static void ini_ctx_free(ini_ctx *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->e[i].section);
        free(c->e[i].name);
        free(c->e[i].value);
    }
    free(c->e);
}

/* ---- zvp_fit ---------------------------------------------------------------------------- */

void zvp_fit_free(zvp_fit *fit)
{
    if (!fit)
        return;
    free(fit->path);
    free(fit->data_path);
    free(fit->join_path);
    free(fit->join_key);
    free(fit->base_path);
    free(fit->output_path);
    for (size_t k = 0; k < fit->n_data; k++) {
        if (fit->data_paths)
            free(fit->data_paths[k]);
        if (fit->data)
            zvp_table_free(fit->data[k]);
    }
    free(fit->data_paths);
    free(fit->data);
    zvp_table_free(fit->join);
    free(fit->where);
    for (size_t k = 0; k < fit->n_where; k++) {
        free(fit->wheres[k].column);
        free(fit->wheres[k].value);
    }
    free(fit->wheres);
    free(fit->fixed_index);
    free(fit->fixed_value);
    for (size_t i = 0; i < fit->n_inputs; i++)
        free(fit->inputs[i].column);
    free(fit->inputs);
    free(fit->free);
    for (size_t i = 0; i < fit->n_match; i++)
        free(fit->match[i].column);
    free(fit->match);
    free(fit->base_params);
    free(fit->row_params);
    free(fit->measured);
    if (fit->labels)
        for (size_t i = 0; i < fit->n_rows; i++)
            free(fit->labels[i]);
    free(fit->labels);
    free(fit);
}

const char *zvp_fit_output_path(const zvp_fit *fit) { return fit ? fit->output_path : NULL; }

/* ---- accessors of a parsed fit (calibrate.h) ---- */
#define ZVP_NO_INDEX ((size_t)-1)
const zvp_model *zvp_fit_model(const zvp_fit *fit) { return fit ? fit->model : NULL; }
const char *zvp_fit_base_path(const zvp_fit *fit) { return fit ? fit->base_path : NULL; }
size_t zvp_fit_n_rows(const zvp_fit *fit) { return fit ? fit->n_rows : 0; }
const char *zvp_fit_row_label(const zvp_fit *fit, size_t i)
{
    return fit && i < fit->n_rows ? fit->labels[i] : NULL;
}
size_t zvp_fit_n_matched(const zvp_fit *fit) { return fit ? fit->n_match : 0; }
size_t zvp_fit_matched_output(const zvp_fit *fit, size_t j)
{
    return fit && j < fit->n_match ? fit->match[j].index : ZVP_NO_INDEX;
}
const char *zvp_fit_matched_column(const zvp_fit *fit, size_t j)
{
    return fit && j < fit->n_match ? fit->match[j].column : NULL;
}
const char *zvp_fit_matched_unit(const zvp_fit *fit, size_t j)
{
    if (!fit || j >= fit->n_match)
        return NULL;
    return zvp_table_col_unit(fit->match[j].table ? fit->join : fit->data[0], fit->match[j].col);
}
double zvp_fit_measured(const zvp_fit *fit, size_t i, size_t j)
{
    return fit && i < fit->n_rows && j < fit->n_match ? fit->measured[i * fit->n_match + j] : NAN;
}
size_t zvp_fit_n_free(const zvp_fit *fit) { return fit ? fit->n_free : 0; }
size_t zvp_fit_free_param_at(const zvp_fit *fit, size_t k, double *start, double *lo, double *hi)
{
    if (!fit || k >= fit->n_free)
        return ZVP_NO_INDEX;
    if (start)
        *start = fit->free[k].start;
    if (lo)
        *lo = fit->free[k].lo;
    if (hi)
        *hi = fit->free[k].hi;
    return fit->free[k].index;
}
size_t zvp_fit_n_fixed(const zvp_fit *fit) { return fit ? fit->n_fixed : 0; }
size_t zvp_fit_fixed_param_at(const zvp_fit *fit, size_t f, double *value)
{
    if (!fit || f >= fit->n_fixed)
        return ZVP_NO_INDEX;
    if (value)
        *value = fit->fixed_value[f];
    return fit->fixed_index[f];
}
size_t zvp_fit_n_inputs(const zvp_fit *fit) { return fit ? fit->n_inputs : 0; }
size_t zvp_fit_input_param_at(const zvp_fit *fit, size_t k, const char **column)
{
    if (!fit || k >= fit->n_inputs)
        return ZVP_NO_INDEX;
    if (column)
        *column = fit->inputs[k].column;
    return fit->inputs[k].index;
}

int zvp_fit_row_params(const zvp_fit *fit, size_t i, const double *params_in, double *params_out,
                       zvp_error *err)
{
    if (!fit || !params_out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_row_params: fit and params_out must not be NULL");
    if (i >= fit->n_rows)
        return zvp_fail(err, ZVP_EINVAL, "%s: row %zu is out of range [0, %zu]", fit->path, i,
                        fit->n_rows ? fit->n_rows - 1 : 0);
    const size_t np = fit->model->n_params;
    const double *row = fit->row_params + i * np;
    if (!params_in) {
        memmove(params_out, row, np * sizeof(double));
        return ZVP_SUCCESS;
    }
    memmove(params_out, params_in, np * sizeof(double));
    for (size_t f = 0; f < fit->n_fixed; f++)
        params_out[fit->fixed_index[f]] = fit->fixed_value[f];
    for (size_t k = 0; k < fit->n_inputs; k++)
        params_out[fit->inputs[k].index] = row[fit->inputs[k].index];
    return ZVP_SUCCESS;
}

/* Look a column up in the data table, then in the join table. */
static int find_column(const zvp_fit *fit, const char *section, const char *key,
                       const char *column, int *table, size_t *col, zvp_error *err)
{
    zvp_error e1, e2;
    long j;
    zvp_error_clear(&e1);
    zvp_error_clear(&e2);
    j = zvp_table_col_index(fit->data[0], column, &e1);
    if (j >= 0) {
        *table = 0;
        *col = (size_t)j;
        return ZVP_SUCCESS;
    }
    if (fit->join) {
        j = zvp_table_col_index(fit->join, column, &e2);
        if (j >= 0) {
            *table = 1;
            *col = (size_t)j;
            return ZVP_SUCCESS;
        }
        return zvp_fail(err, ZVP_ENOTFOUND, "%s: [%s] %s = %s: in %s: %s; in %s: %s", fit->path,
                        section, key, column, fit->data_path, e1.message, fit->join_path,
                        e2.message);
    }
    return zvp_fail(err, ZVP_ENOTFOUND, "%s: [%s] %s = %s: in %s: %s", fit->path, section, key,
                    column, fit->data_path, e1.message);
}

/* Parse "a, b, c" into up to max numbers; returns the count, or -1 if a token is not a
 * finite number or there are more than max. */
static int parse_number_list(const char *s, double *v, int max)
{
    int n = 0;
    const char *p = s;
    char tok[128];
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n >= max || len >= sizeof tok)
            return -1;
        memcpy(tok, p, len);
        tok[len] = '\0';
        if (zvp_parse_double(tok, &v[n]))
            return -1;
        n++;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

enum { ROLE_NONE = 0, ROLE_FIXED, ROLE_INPUT, ROLE_FREE };
static const char *const role_name[] = {"", "[fixed]", "[inputs]", "[free]"};

/* Claim parameter `index` for a role; EINVAL if another section already has it. */
static int claim_param(const zvp_fit *fit, int *roles, size_t index, int role, const char *name,
                       zvp_error *err)
{
    if (roles[index] != ROLE_NONE && roles[index] != role)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: parameter '%s' is in both %s and %s (a parameter is fixed, fed per "
                        "row, or free)", fit->path, name, role_name[roles[index]], role_name[role]);
    roles[index] = role;
    return ZVP_SUCCESS;
}

/* [fit] keys. */
static int parse_fit_section(zvp_fit *fit, const ini_ctx *c, const char **model_name,
                             const char **data, const char **join, const char **join_key,
                             const char **base, const char **output, const char **where,
                             zvp_error *err)
{
    const char *starts = NULL, *residual = NULL;
    for (size_t i = 0; i < c->n; i++) {
        const ini_entry *x = &c->e[i];
        const char **slot = NULL;
        if (strcmp(x->section, "fit") != 0)
            continue;
        if (!strcmp(x->name, "model"))
            slot = model_name;
        else if (!strcmp(x->name, "data"))
            slot = data;
        else if (!strcmp(x->name, "join"))
            slot = join;
        else if (!strcmp(x->name, "join_key"))
            slot = join_key;
        else if (!strcmp(x->name, "base"))
            slot = base;
        else if (!strcmp(x->name, "output"))
            slot = output;
        else if (!strcmp(x->name, "starts"))
            slot = &starts;
        else if (!strcmp(x->name, "residual"))
            slot = &residual;
        else if (!strcmp(x->name, "where"))
            slot = where;
        else
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] %s = %s: unknown key (model, data, join, join_key, where, "
                            "base, output, starts, residual)", fit->path, x->name, x->value);
        if (*slot)
            return zvp_fail(err, ZVP_EPARSE, "%s: [fit] %s = %s: key given twice", fit->path,
                            x->name, x->value);
        if (x->value[0] == '\0')
            return zvp_fail(err, ZVP_EPARSE, "%s: [fit] %s has an empty value", fit->path, x->name);
        *slot = x->value;
    }
    if (!*model_name)
        return zvp_fail(err, ZVP_EPARSE, "%s: [fit] model = <name> is missing", fit->path);
    if (!*data)
        return zvp_fail(err, ZVP_EPARSE, "%s: [fit] data = <csv file> is missing", fit->path);
    if ((*join == NULL) != (*join_key == NULL))
        return zvp_fail(err, ZVP_EPARSE, "%s: [fit] join and join_key must be given together",
                        fit->path);
    fit->starts = 1;
    if (starts) {
        double v;
        if (zvp_parse_double(starts, &v) || v != floor(v))
            return zvp_fail(err, ZVP_EPARSE, "%s: [fit] starts = %s: not an integer", fit->path,
                            starts);
        if (v < 1 || v > 10000)
            return zvp_fail(err, ZVP_EINVAL, "%s: [fit] starts = %s is out of range [1, 10000]",
                            fit->path, starts);
        fit->starts = (size_t)v;
    }
    fit->residual_absolute = 0;
    if (residual) {
        if (!strcmp(residual, "absolute"))
            fit->residual_absolute = 1;
        else if (strcmp(residual, "relative") != 0)
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: [fit] residual = %s: must be relative or absolute", fit->path,
                            residual);
    }
    return ZVP_SUCCESS;
}

/* [fixed], [inputs], [free], [match]. */
static int parse_param_sections(zvp_fit *fit, const ini_ctx *c, int *roles, zvp_error *err)
{
    const zvp_model *m = fit->model;
    size_t nf = 0, ni = 0, nfree = 0, nm = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *s = c->e[i].section;
        if (!strcmp(s, "fit"))
            continue;
        else if (!strcmp(s, "fixed"))
            nf++;
        else if (!strcmp(s, "inputs"))
            ni++;
        else if (!strcmp(s, "free"))
            nfree++;
        else if (!strcmp(s, "match"))
            nm++;
        else
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [%s] %s = %s: unknown section (fit, fixed, inputs, free, match)",
                            fit->path, s, c->e[i].name, c->e[i].value);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(c->e[k].section, s) && !strcmp(c->e[k].name, c->e[i].name))
                return zvp_fail(err, ZVP_EPARSE, "%s: [%s] %s = %s: key given twice", fit->path,
                                s, c->e[i].name, c->e[i].value);
    }
    if (nfree == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: [free] is empty: nothing to fit", fit->path);
    if (nm == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: [match] is empty: nothing to fit against",
                        fit->path);
    fit->fixed_index = calloc(nf + 1, sizeof *fit->fixed_index);
    fit->fixed_value = calloc(nf + 1, sizeof *fit->fixed_value);
    fit->inputs = calloc(ni + 1, sizeof *fit->inputs);
    fit->free = calloc(nfree, sizeof *fit->free);
    fit->match = calloc(nm, sizeof *fit->match);
    if (!fit->fixed_index || !fit->fixed_value || !fit->inputs || !fit->free || !fit->match)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);

    for (size_t i = 0; i < c->n; i++) {
        const ini_entry *x = &c->e[i];
        zvp_error e;
        long idx;
        int st;
        zvp_error_clear(&e);
        if (!strcmp(x->section, "fit"))
            continue;
        if (!strcmp(x->section, "match")) {
            zvp_fit_match *mt = &fit->match[fit->n_match];
            const char *comma = strchr(x->value, ',');
            size_t clen = comma ? (size_t)(comma - x->value) : strlen(x->value);
            idx = zvp_model_output_index(m, x->name, &e);
            if (idx < 0)
                return fail_from(err, &e, "%s: [match] %s = %s", fit->path, x->name, x->value);
            while (clen > 0 && (x->value[clen - 1] == ' ' || x->value[clen - 1] == '\t'))
                clen--;
            if (clen == 0)
                return zvp_fail(err, ZVP_EPARSE, "%s: [match] %s = %s: expected <column> [, <weight>]",
                                fit->path, x->name, x->value);
            mt->column = malloc(clen + 1);
            if (!mt->column)
                return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
            memcpy(mt->column, x->value, clen);
            mt->column[clen] = '\0';
            mt->index = (size_t)idx;
            mt->weight = 1.0;
            fit->n_match++;
            if (comma) {
                if (zvp_parse_double(comma + 1, &mt->weight))
                    return zvp_fail(err, ZVP_EPARSE,
                                    "%s: [match] %s = %s: weight '%s' is not a number", fit->path,
                                    x->name, x->value, comma + 1);
                if (!(mt->weight > 0))
                    return zvp_fail(err, ZVP_EINVAL,
                                    "%s: [match] %s = %s: weight = %g must be > 0", fit->path,
                                    x->name, x->value, mt->weight);
            }
            for (size_t k = 0; k + 1 < fit->n_match; k++)
                if (fit->match[k].index == mt->index)
                    return zvp_fail(err, ZVP_EPARSE, "%s: [match] %s: output matched twice",
                                    fit->path, x->name);
            st = find_column(fit, "match", x->name, mt->column, &mt->table, &mt->col, err);
            if (st)
                return st;
            continue;
        }
        idx = zvp_model_param_index(m, x->name, &e);
        if (idx < 0)
            return fail_from(err, &e, "%s: [%s] %s = %s", fit->path, x->section, x->name, x->value);
        const zvp_param_desc *d = &m->params[idx];
        if (!strcmp(x->section, "fixed")) {
            double v;
            if ((st = claim_param(fit, roles, (size_t)idx, ROLE_FIXED, x->name, err)))
                return st;
            if (zvp_parse_double(x->value, &v))
                return zvp_fail(err, ZVP_EPARSE, "%s: [fixed] %s = %s: not a number", fit->path,
                                x->name, x->value);
            if (zvp_check_range(&e, x->name, v, d->min, d->max))
                return fail_from(err, &e, "%s: [fixed]", fit->path);
            fit->fixed_index[fit->n_fixed] = (size_t)idx;
            fit->fixed_value[fit->n_fixed++] = v;
        } else if (!strcmp(x->section, "inputs")) {
            zvp_fit_input *in = &fit->inputs[fit->n_inputs];
            if ((st = claim_param(fit, roles, (size_t)idx, ROLE_INPUT, x->name, err)))
                return st;
            in->column = zvp_strdup(x->value);
            if (!in->column)
                return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
            in->index = (size_t)idx;
            fit->n_inputs++;
            st = find_column(fit, "inputs", x->name, in->column, &in->table, &in->col, err);
            if (st)
                return st;
        } else { /* free */
            zvp_fit_free_param *fp = &fit->free[fit->n_free];
            double v[3];
            if ((st = claim_param(fit, roles, (size_t)idx, ROLE_FREE, x->name, err)))
                return st;
            if (parse_number_list(x->value, v, 3) != 3)
                return zvp_fail(err, ZVP_EPARSE,
                                "%s: [free] %s = %s: expected <start>, <lo>, <hi> (three numbers)",
                                fit->path, x->name, x->value);
            if (!(v[1] < v[2]))
                return zvp_fail(err, ZVP_EINVAL,
                                "%s: [free] %s = %s: lo = %.17g must be < hi = %.17g", fit->path,
                                x->name, x->value, v[1], v[2]);
            if (!(v[1] < v[0] && v[0] < v[2]))
                return zvp_fail(err, ZVP_EINVAL,
                                "%s: [free] %s = %s: start = %.17g is outside the open bounds "
                                "(%.17g, %.17g)", fit->path, x->name, x->value, v[0], v[1], v[2]);
            if (v[1] < d->min || v[2] > d->max)
                return zvp_fail(err, ZVP_EINVAL,
                                "%s: [free] %s = %s: bounds [%.17g, %.17g] leave the parameter's "
                                "valid range [%.17g, %.17g]", fit->path, x->name, x->value, v[1],
                                v[2], d->min, d->max);
            fp->index = (size_t)idx;
            fp->start = v[0];
            fp->lo = v[1];
            fp->hi = v[2];
            fit->n_free++;
        }
    }
    return ZVP_SUCCESS;
}

/* Copy of s[0..len) without leading and trailing spaces and tabs; NULL if out of memory. */
static char *dup_trimmed(const char *s, size_t len)
{
    char *out;
    while (len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    out = malloc(len + 1);
    if (!out)
        return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

/* [fit] data = a.csv[, b.csv ...]: fit->data_paths (resolved) and fit->data_path (the
 * resolved paths joined with ", "). */
static int parse_data_list(zvp_fit *fit, const char *data, zvp_error *err)
{
    size_t n = 1, len = 0;
    const char *p = data;
    for (const char *q = data; *q; q++)
        n += *q == ',';
    fit->data_paths = calloc(n, sizeof *fit->data_paths);
    fit->data = calloc(n, sizeof *fit->data);
    if (!fit->data_paths || !fit->data)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
    fit->n_data = n;
    for (size_t k = 0; k < n; k++) {
        const char *comma = strchr(p, ',');
        char *name = dup_trimmed(p, comma ? (size_t)(comma - p) : strlen(p));
        if (!name)
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        if (name[0] == '\0') {
            free(name);
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] data = %s: file %zu of the list is empty (expected "
                            "<csv file>[, <csv file> ...])", fit->path, data, k + 1);
        }
        fit->data_paths[k] = resolve_path(fit->path, name);
        free(name);
        if (!fit->data_paths[k])
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        len += strlen(fit->data_paths[k]) + 2;
        p = comma ? comma + 1 : p;
    }
    fit->data_path = malloc(len + 1);
    if (!fit->data_path)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
    fit->data_path[0] = '\0';
    for (size_t k = 0; k < n; k++) {
        if (k)
            strcat(fit->data_path, ", ");
        strcat(fit->data_path, fit->data_paths[k]);
    }
    return ZVP_SUCCESS;
}

/* Read the data files; a second or later file must have the first one's header (same column
 * names and units, in order): the tables are concatenated. */
static int load_data(zvp_fit *fit, const char *data, zvp_error *err)
{
    zvp_error e;
    zvp_error_clear(&e);
    for (size_t k = 0; k < fit->n_data; k++) {
        const zvp_table *a = fit->data[0], *b;
        if (zvp_table_read(fit->data_paths[k], &fit->data[k], &e))
            return fail_from(err, &e, "%s: [fit] data = %s", fit->path, data);
        b = fit->data[k];
        if (k == 0)
            continue;
        if (zvp_table_cols(a) != zvp_table_cols(b))
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] data = %s: %s has %zu columns and %s has %zu; "
                            "concatenated tables need identical headers", fit->path, data,
                            fit->data_paths[0], zvp_table_cols(a), fit->data_paths[k],
                            zvp_table_cols(b));
        for (size_t j = 0; j < zvp_table_cols(a); j++)
            if (strcmp(zvp_table_col_name(a, j), zvp_table_col_name(b, j)) != 0 ||
                strcmp(zvp_table_col_unit(a, j), zvp_table_col_unit(b, j)) != 0)
                return zvp_fail(err, ZVP_EPARSE,
                                "%s: [fit] data = %s: column %zu is '%s [%s]' in %s but '%s [%s]' "
                                "in %s; concatenated tables need identical headers", fit->path,
                                data, j + 1, zvp_table_col_name(a, j), zvp_table_col_unit(a, j),
                                fit->data_paths[0], zvp_table_col_name(b, j),
                                zvp_table_col_unit(b, j), fit->data_paths[k]);
    }
    return ZVP_SUCCESS;
}

/* A column is numeric when it has a non-empty cell and every non-empty cell is a number (in
 * every data file for a data column). */
static int column_is_numeric(const zvp_fit *fit, int table, size_t col)
{
    size_t nt = table ? 1 : fit->n_data, filled = 0;
    for (size_t k = 0; k < nt; k++) {
        const zvp_table *t = table ? fit->join : fit->data[k];
        for (size_t i = 0; i < zvp_table_rows(t); i++) {
            if (zvp_table_text(t, i, col)[0] == '\0')
                continue;
            if (isnan(zvp_table_value(t, i, col)))
                return 0;
            filled++;
        }
    }
    return filled > 0;
}

/* [fit] where = <column> = <value>[; <column> = <value> ...] -> fit->wheres. */
static int parse_where(zvp_fit *fit, zvp_error *err)
{
    const char *w = fit->where, *p = w;
    size_t n = 1;
    for (const char *q = w; *q; q++)
        n += *q == ';';
    fit->wheres = calloc(n, sizeof *fit->wheres);
    if (!fit->wheres)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
    for (size_t k = 0; k < n; k++) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        zvp_fit_where *c = &fit->wheres[k];
        int st;
        if (!eq)
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] where = %s: condition %zu '%.*s' is not <column> = <value> "
                            "(conditions are separated by ';')", fit->path, w, k + 1, (int)len, p);
        c->column = dup_trimmed(p, (size_t)(eq - p));
        c->value = dup_trimmed(eq + 1, len - (size_t)(eq - p) - 1);
        fit->n_where++;
        if (!c->column || !c->value)
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        if (c->column[0] == '\0' || c->value[0] == '\0')
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] where = %s: condition %zu '%.*s' has an empty %s", fit->path,
                            w, k + 1, (int)len, p, c->column[0] == '\0' ? "column" : "value");
        st = find_column(fit, "fit", "where", c->column, &c->table, &c->col, err);
        if (st)
            return st;
        c->numeric = column_is_numeric(fit, c->table, c->col);
        if (c->numeric && zvp_parse_double(c->value, &c->number))
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: [fit] where = %s: column %s holds numbers, '%s' is not a number",
                            fit->path, w, c->column, c->value);
        p = semi ? semi + 1 : p;
    }
    return ZVP_SUCCESS;
}

/* Candidate rows: every row of every data file, in file order. */
typedef struct fit_rows {
    size_t n;
    size_t *file;      /* [n] data file index */
    size_t *row;       /* [n] row in that file */
    size_t *partner;   /* [n] join table row (0 without a join) */
    size_t *keep;      /* [kept] candidate indices that pass the where filter */
    size_t kept;
} fit_rows;

static const zvp_table *cell_table(const zvp_fit *fit, const fit_rows *fr, size_t c, int table,
                                   size_t *row)
{
    *row = table ? fr->partner[c] : fr->row[c];
    return table ? fit->join : fit->data[fr->file[c]];
}

static int where_holds(const zvp_fit *fit, const fit_rows *fr, size_t c)
{
    for (size_t k = 0; k < fit->n_where; k++) {
        const zvp_fit_where *w = &fit->wheres[k];
        size_t r;
        const zvp_table *t = cell_table(fit, fr, c, w->table, &r);
        if (w->numeric ? !(zvp_table_value(t, r, w->col) == w->number)
                       : strcmp(zvp_table_text(t, r, w->col), w->value) != 0)
            return 0;
    }
    return 1;
}

/* Label column: the first data column holding text (a non-empty cell that is not a number)
 * in the rows left, among the columns not named in `where` (those are constant over the rows
 * left); -1 if none. */
static long label_column(const zvp_fit *fit, const fit_rows *fr)
{
    for (size_t j = 0; j < zvp_table_cols(fit->data[0]); j++) {
        int filtered = 0;
        for (size_t k = 0; k < fit->n_where; k++)
            filtered |= fit->wheres[k].table == 0 && fit->wheres[k].col == j;
        if (filtered)
            continue;
        for (size_t i = 0; i < fr->kept; i++) {
            size_t r;
            const zvp_table *t = cell_table(fit, fr, fr->keep[i], 0, &r);
            if (zvp_table_text(t, r, j)[0] != '\0' && isnan(zvp_table_value(t, r, j)))
                return (long)j;
        }
    }
    return -1;
}

/* Join every data row, apply the where filter, then build the per-row parameter vectors,
 * measured values and labels of the rows left. Messages give rows as <file> row <n>. */
static int assemble_rows(zvp_fit *fit, zvp_error *err)
{
    const zvp_model *m = fit->model;
    size_t np = m->n_params;
    fit_rows fr;
    long kd = -1, kj = -1, label_col;
    int st = ZVP_SUCCESS;
    zvp_error e;
    zvp_error_clear(&e);
    memset(&fr, 0, sizeof fr);

    for (size_t k = 0; k < fit->n_data; k++)
        fr.n += zvp_table_rows(fit->data[k]);
    if (fr.n == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: data = %s has no data rows", fit->path,
                        fit->data_path);
    fr.file = malloc(fr.n * sizeof *fr.file);
    fr.row = malloc(fr.n * sizeof *fr.row);
    fr.partner = calloc(fr.n, sizeof *fr.partner);
    fr.keep = malloc(fr.n * sizeof *fr.keep);
    if (!fr.file || !fr.row || !fr.partner || !fr.keep) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        goto done;
    }
    for (size_t k = 0, c = 0; k < fit->n_data; k++)
        for (size_t i = 0; i < zvp_table_rows(fit->data[k]); i++, c++) {
            fr.file[c] = k;
            fr.row[c] = i;
        }

    if (fit->join) {
        size_t jr = zvp_table_rows(fit->join);
        kd = zvp_table_col_index(fit->data[0], fit->join_key, &e);
        if (kd < 0) {
            st = fail_from(err, &e, "%s: [fit] join_key = %s: in %s", fit->path, fit->join_key,
                           fit->data_path);
            goto done;
        }
        kj = zvp_table_col_index(fit->join, fit->join_key, &e);
        if (kj < 0) {
            st = fail_from(err, &e, "%s: [fit] join_key = %s: in %s", fit->path, fit->join_key,
                           fit->join_path);
            goto done;
        }
        for (size_t a = 0; a < jr; a++) {
            double ka = zvp_table_value(fit->join, a, (size_t)kj);
            if (isnan(ka)) {
                st = zvp_fail(err, ZVP_EPARSE, "%s: join key %s = '%s' in row %zu is not a number",
                              fit->join_path, fit->join_key, zvp_table_text(fit->join, a, (size_t)kj),
                              a + 1);
                goto done;
            }
            for (size_t b = 0; b < a; b++)
                if (zvp_table_value(fit->join, b, (size_t)kj) == ka) {
                    st = zvp_fail(err, ZVP_EPARSE, "%s: join key %s = %s appears in rows %zu and %zu",
                                  fit->join_path, fit->join_key,
                                  zvp_table_text(fit->join, a, (size_t)kj), b + 1, a + 1);
                    goto done;
                }
        }
        for (size_t c = 0; c < fr.n; c++) {
            const zvp_table *t = fit->data[fr.file[c]];
            size_t i = fr.row[c], a;
            double k = zvp_table_value(t, i, (size_t)kd);
            if (isnan(k)) {
                st = zvp_fail(err, ZVP_EPARSE, "%s: join key %s = '%s' in row %zu is not a number",
                              fit->data_paths[fr.file[c]], fit->join_key,
                              zvp_table_text(t, i, (size_t)kd), i + 1);
                goto done;
            }
            for (a = 0; a < jr; a++)
                if (zvp_table_value(fit->join, a, (size_t)kj) == k)
                    break;
            if (a == jr) {
                st = zvp_fail(err, ZVP_EPARSE,
                              "%s: [fit] join_key = %s: row %zu of %s has %s = %s, which %s "
                              "does not have", fit->path, fit->join_key, i + 1,
                              fit->data_paths[fr.file[c]], fit->join_key,
                              zvp_table_text(t, i, (size_t)kd), fit->join_path);
                goto done;
            }
            fr.partner[c] = a;
        }
    }

    for (size_t c = 0; c < fr.n; c++)
        if (where_holds(fit, &fr, c))
            fr.keep[fr.kept++] = c;
    if (fr.kept == 0) {
        st = zvp_fail(err, ZVP_EINVAL, "%s: [fit] where = %s leaves no rows (of %zu in %s)",
                      fit->path, fit->where, fr.n, fit->data_path);
        goto done;
    }
    label_col = label_column(fit, &fr);

    fit->row_params = malloc(fr.kept * np * sizeof *fit->row_params);
    fit->measured = malloc(fr.kept * fit->n_match * sizeof *fit->measured);
    fit->labels = calloc(fr.kept, sizeof *fit->labels);
    if (!fit->row_params || !fit->measured || !fit->labels) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        goto done;
    }
    fit->n_rows = fr.kept;

    for (size_t i = 0; i < fr.kept; i++) {
        size_t c = fr.keep[i], dr = fr.row[c];
        const zvp_table *dt = fit->data[fr.file[c]];
        const char *dfile = fit->data_paths[fr.file[c]];
        double *p = fit->row_params + i * np;
        char buf[128];
        if (label_col >= 0)
            snprintf(buf, sizeof buf, "%s", zvp_table_text(dt, dr, (size_t)label_col));
        else if (fit->join)
            snprintf(buf, sizeof buf, "%s=%s", fit->join_key, zvp_table_text(dt, dr, (size_t)kd));
        else if (fit->n_data == 1)
            snprintf(buf, sizeof buf, "row %zu", dr + 1);
        else
            snprintf(buf, sizeof buf, "file %zu row %zu", fr.file[c] + 1, dr + 1);
        fit->labels[i] = zvp_strdup(buf);
        if (!fit->labels[i]) {
            st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
            goto done;
        }
        memcpy(p, fit->base_params, np * sizeof *p);
        for (size_t k = 0; k < fit->n_inputs; k++) {
            const zvp_fit_input *in = &fit->inputs[k];
            size_t r;
            const zvp_table *t = cell_table(fit, &fr, c, in->table, &r);
            double v = zvp_table_value(t, r, in->col);
            if (isnan(v)) {
                st = zvp_fail(err, ZVP_EINVAL,
                              "%s: [inputs] %s = %s: row %zu of %s (%s) has '%s', not a number",
                              fit->path, m->params[in->index].name, in->column, dr + 1, dfile,
                              fit->labels[i], zvp_table_text(t, r, in->col));
                goto done;
            }
            p[in->index] = v;
        }
        for (size_t k = 0; k < fit->n_free; k++)
            p[fit->free[k].index] = fit->free[k].start;
        if (zvp_model_check_params(m, p, &e)) {
            st = fail_from(err, &e, "%s: row %zu of %s (%s), free parameters at their starts",
                           fit->path, dr + 1, dfile, fit->labels[i]);
            goto done;
        }
        for (size_t j = 0; j < fit->n_match; j++) {
            const zvp_fit_match *mt = &fit->match[j];
            size_t r;
            const zvp_table *t = cell_table(fit, &fr, c, mt->table, &r);
            double y = zvp_table_value(t, r, mt->col);
            if (isnan(y) && zvp_table_text(t, r, mt->col)[0] != '\0') {
                st = zvp_fail(err, ZVP_EPARSE,
                              "%s: [match] %s = %s: row %zu of %s (%s) has '%s', not a number",
                              fit->path, m->outputs[mt->index].name, mt->column, dr + 1, dfile,
                              fit->labels[i], zvp_table_text(t, r, mt->col));
                goto done;
            }
            if (!fit->residual_absolute && y == 0.0) {
                st = zvp_fail(err, ZVP_EINVAL,
                              "%s: [match] %s = %s: row %zu of %s (%s) measures 0, which a "
                              "relative residual cannot use (set residual = absolute)", fit->path,
                              m->outputs[mt->index].name, mt->column, dr + 1, dfile,
                              fit->labels[i]);
                goto done;
            }
            fit->measured[i * fit->n_match + j] = y;
            if (!isnan(y))
                fit->n_measured++;
        }
    }
    if (fit->n_measured < fit->n_free)
        st = zvp_fail(err, ZVP_EINVAL,
                      "%s: %zu measured cells for %zu free parameters: need at least as many "
                      "cells as free parameters", fit->path, fit->n_measured, fit->n_free);
done:
    free(fr.file);
    free(fr.row);
    free(fr.partner);
    free(fr.keep);
    return st;
}

int zvp_fit_read(const char *path, zvp_fit **out, zvp_error *err)
{
    ini_ctx c = {0};
    zvp_fit *fit;
    zvp_error e;
    int st, rc, *roles = NULL;
    const char *model_name = NULL, *data = NULL, *join = NULL, *join_key = NULL, *base = NULL,
               *output = NULL, *where = NULL;
    FILE *fp;

    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_read: out is NULL");
    *out = NULL;
    if (!path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_read: path is NULL");
    zvp_error_clear(&e);
    fp = fopen(path, "r");
    if (!fp)
        return zvp_fail(err, ZVP_EIO, "%s: cannot open fit file: %s", path, strerror(errno));
    /* libinih reads lines into a fixed buffer (INI_MAX_LINE, 200 bytes in Debian's build)
     * and splits longer ones; refuse them with a clear message instead. It also ends a value
     * at a ';' that follows a blank (inline comment), which would silently drop the rest of
     * a `where` condition list: refuse that too. */
    {
        char *line = NULL;
        size_t cap = 0, lineno = 0;
        ssize_t len;
        int in_fit = 0;
        while ((len = getline(&line, &cap, fp)) != -1) {
            const char *s = line, *eq;
            lineno++;
            if (len > ZVP_FIT_MAX_LINE) {
                free(line);
                fclose(fp);
                return zvp_fail(err, ZVP_EPARSE,
                                "%s:%zu: line of %zd bytes is longer than the INI reader's limit "
                                "of %d", path, lineno, len, ZVP_FIT_MAX_LINE);
            }
            while (*s == ' ' || *s == '\t')
                s++;
            if (*s == '[') {
                in_fit = !strncmp(s, "[fit]", 5);
                continue;
            }
            eq = s + strcspn(s, "=:");
            if (!in_fit || *eq == '\0' || *s == ';' || *s == '#')
                continue;
            {
                size_t klen = (size_t)(eq - s);
                while (klen > 0 && (s[klen - 1] == ' ' || s[klen - 1] == '\t'))
                    klen--;
                if (klen != 5 || strncmp(s, "where", 5) != 0)
                    continue;
            }
            for (const char *q = eq + 1; *q; q++)
                if (*q == ';' && (q[-1] == ' ' || q[-1] == '\t')) {
                    free(line);
                    fclose(fp);
                    return zvp_fail(err, ZVP_EPARSE,
                                    "%s:%zu: [fit] where: a ';' after a blank starts an INI "
                                    "comment and would drop the rest of the conditions; write "
                                    "'a = 1; b = 2' (no blank before ';') and put comments on "
                                    "their own line", path, lineno);
                }
        }
        free(line);
        if (ferror(fp) || fseek(fp, 0L, SEEK_SET) != 0) {
            fclose(fp);
            return zvp_fail(err, ZVP_EIO, "%s: cannot read fit file", path);
        }
    }
    rc = ini_parse_file(fp, ini_collect, &c);
    fclose(fp);
    if (c.nomem || rc == -2) {
        ini_ctx_free(&c);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    }
    if (rc != 0) {
        ini_ctx_free(&c);
        if (rc < 0)
            return zvp_fail(err, ZVP_EIO, "%s: cannot read fit file", path);
        return zvp_fail(err, ZVP_EPARSE,
                        "%s:%d: malformed line (expected [section], key = value or a comment)",
                        path, rc);
    }
    for (size_t i = 0; i < c.n; i++)
        if (c.e[i].section[0] == '\0') {
            st = zvp_fail(err, ZVP_EPARSE, "%s: %s = %s: key outside any section", path,
                          c.e[i].name, c.e[i].value);
            ini_ctx_free(&c);
            return st;
        }

    fit = calloc(1, sizeof *fit);
    if (!fit || !(fit->path = zvp_strdup(path))) {
        free(fit);
        ini_ctx_free(&c);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    }
    st = parse_fit_section(fit, &c, &model_name, &data, &join, &join_key, &base, &output, &where,
                           err);
    if (st)
        goto fail;
    fit->model = zvp_model_find(model_name, &e);
    if (!fit->model) {
        st = fail_from(err, &e, "%s: [fit] model = %s", path, model_name);
        goto fail;
    }
    st = parse_data_list(fit, data, err);
    if (st)
        goto fail;
    fit->where = where ? zvp_strdup(where) : NULL;
    fit->join_path = join ? resolve_path(path, join) : NULL;
    fit->join_key = join_key ? zvp_strdup(join_key) : NULL;
    fit->base_path = base ? resolve_path(path, base) : NULL;
    fit->output_path = output ? resolve_path(path, output) : NULL;
    fit->base_params = malloc(fit->model->n_params * sizeof *fit->base_params + 1);
    roles = calloc(fit->model->n_params + 1, sizeof *roles);
    if ((where && !fit->where) || (join && (!fit->join_path || !fit->join_key)) ||
        (base && !fit->base_path) || (output && !fit->output_path) || !fit->base_params ||
        !roles) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
        goto fail;
    }
    zvp_model_defaults(fit->model, fit->base_params);
    if (base) {
        zvp_model_file *mf = NULL;
        st = zvp_model_file_read(fit->base_path, &mf, &e);
        if (st) {
            st = fail_from(err, &e, "%s: [fit] base = %s", path, base);
            goto fail;
        }
        if (zvp_model_file_model(mf) != fit->model) {
            st = zvp_fail(err, ZVP_EINVAL, "%s: [fit] base = %s: is a model file for '%s', the "
                          "fit is for '%s'", path, base, zvp_model_file_model(mf)->name,
                          fit->model->name);
            zvp_model_file_free(mf);
            goto fail;
        }
        memcpy(fit->base_params, zvp_model_file_params(mf),
               fit->model->n_params * sizeof *fit->base_params);
        zvp_model_file_free(mf);
    }
    st = load_data(fit, data, err);
    if (st)
        goto fail;
    if (join) {
        st = zvp_table_read(fit->join_path, &fit->join, &e);
        if (st) {
            st = fail_from(err, &e, "%s: [fit] join = %s", path, join);
            goto fail;
        }
    }
    if (where) {
        st = parse_where(fit, err);
        if (st)
            goto fail;
    }
    st = parse_param_sections(fit, &c, roles, err);
    if (st)
        goto fail;
    for (size_t k = 0; k < fit->n_fixed; k++)
        fit->base_params[fit->fixed_index[k]] = fit->fixed_value[k];
    st = assemble_rows(fit, err);
    if (st)
        goto fail;
    free(roles);
    ini_ctx_free(&c);
    *out = fit;
    return ZVP_SUCCESS;
fail:
    free(roles);
    ini_ctx_free(&c);
    zvp_fit_free(fit);
    return st;
}

/* ---- the least-squares problem ------------------------------------------------------- */

typedef struct fit_eval {
    const zvp_fit *fit;
    double *params;   /* [n_params] scratch */
    double *outputs;  /* [n_outputs] scratch */
    double *u;        /* [p] scratch */
    double *r;        /* [n] scratch residuals */
    size_t bad_row;   /* first row without a model result in the last evaluation, or SIZE_MAX */
    zvp_error row_err;
} fit_eval;

/*
 * Evaluate the model at every row for unbounded variables u[p]. Writes the weighted
 * residuals r[n_rows*n_match] (0 where not measured; ZVP_FIT_PENALTY per measured cell at a
 * row where the model has no finite result) and, if fitted is not NULL, the model outputs
 * fitted[n_rows*n_match]. Returns the number of rows without a model result.
 */
static size_t fit_evaluate(fit_eval *ev, const double *u, double *r, double *fitted)
{
    const zvp_fit *fit = ev->fit;
    const zvp_model *m = fit->model;
    size_t np = m->n_params, nm = fit->n_match, bad = 0;
    ev->bad_row = SIZE_MAX;
    for (size_t i = 0; i < fit->n_rows; i++) {
        zvp_error e;
        int st, ok;
        zvp_error_clear(&e);
        memcpy(ev->params, fit->row_params + i * np, np * sizeof *ev->params);
        for (size_t k = 0; k < fit->n_free; k++)
            ev->params[fit->free[k].index] = theta_of_u(u[k], fit->free[k].lo, fit->free[k].hi);
        st = zvp_model_eval(m, ev->params, ev->outputs, &e);
        ok = st == ZVP_SUCCESS;
        for (size_t j = 0; ok && j < nm; j++)
            if (!isfinite(ev->outputs[fit->match[j].index]))
                ok = 0;
        if (!ok) {
            if (bad++ == 0) {
                ev->bad_row = i;
                if (st == ZVP_SUCCESS)
                    zvp_fail(&ev->row_err, ZVP_EUNSTABLE, "a matched output is not finite");
                else
                    ev->row_err = e;
            }
        }
        for (size_t j = 0; j < nm; j++) {
            const zvp_fit_match *mt = &fit->match[j];
            double y = fit->measured[i * nm + j], v = ev->outputs[mt->index], res;
            if (fitted)
                fitted[i * nm + j] = ok ? v : NAN;
            if (isnan(y))
                res = 0.0;
            else if (!ok)
                res = ZVP_FIT_PENALTY;
            else if (fit->residual_absolute)
                res = mt->weight * (v - y);
            else
                res = mt->weight * (v - y) / fabs(y);
            if (r)
                r[i * nm + j] = res;
        }
    }
    return bad;
}

/* GSL residual callback: never returns a non-zero status (STYLE.md 9). GSL's finite-
 * difference Jacobian hands f as a column of J (stride p), so strides are honoured. */
static int fit_gsl_f(const gsl_vector *u, void *params, gsl_vector *f)
{
    fit_eval *ev = params;
    size_t p = ev->fit->n_free;
    for (size_t k = 0; k < p; k++)
        ev->u[k] = gsl_vector_get(u, k);
    if (f->stride == 1) {
        fit_evaluate(ev, ev->u, f->data, NULL);
    } else {
        fit_evaluate(ev, ev->u, ev->r, NULL);
        for (size_t i = 0; i < f->size; i++)
            gsl_vector_set(f, i, ev->r[i]);
    }
    return GSL_SUCCESS;
}

static void result_free_arrays(zvp_fit_result *r)
{
    free(r->fit_path);
    free(r->data_path);
    free(r->join_path);
    free(r->join_key);
    free(r->base_path);
    free(r->where);
    free(r->param_index);
    free(r->output_index);
    free(r->lo);
    free(r->hi);
    free(r->start);
    free(r->flags);
    free(r->estimates);
    free(r->stderrs);
    free(r->covariance);
    free(r->measured);
    free(r->fitted);
    free(r->residual);
    free(r->r2);
    free(r->rmse);
    free(r->mape);
    free(r->cells);
    if (r->labels)
        for (size_t i = 0; i < r->n_rows; i++)
            free(r->labels[i]);
    free(r->labels);
    free(r->starts);
}

void zvp_fit_result_free(zvp_fit_result *res)
{
    if (!res)
        return;
    result_free_arrays(res);
    zvp_model_file_free(res->model_file);
    free(res);
}

/* R^2, RMSE, MAPE per output and overall. */
static void result_stats(zvp_fit_result *r)
{
    size_t nm = r->n_match, all_n = 0;
    double all_ape = 0.0;
    for (size_t j = 0; j < nm; j++) {
        double mean = 0.0, ss_res = 0.0, ss_tot = 0.0, ape = 0.0;
        size_t n = 0, n_ape = 0;
        for (size_t i = 0; i < r->n_rows; i++) {
            double y = r->measured[i * nm + j];
            if (!isnan(y)) {
                mean += y;
                n++;
            }
        }
        r->cells[j] = n;
        if (n == 0) {
            r->r2[j] = r->rmse[j] = r->mape[j] = NAN;
            continue;
        }
        mean /= (double)n;
        for (size_t i = 0; i < r->n_rows; i++) {
            double y = r->measured[i * nm + j], f = r->fitted[i * nm + j];
            if (isnan(y))
                continue;
            ss_res += (f - y) * (f - y);
            ss_tot += (y - mean) * (y - mean);
            if (y != 0.0) {
                ape += fabs((f - y) / y);
                n_ape++;
            }
        }
        r->r2[j] = ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : NAN;
        r->rmse[j] = sqrt(ss_res / (double)n);
        r->mape[j] = n_ape ? 100.0 * ape / (double)n_ape : NAN;
        all_ape += ape;
        all_n += n_ape;
    }
    r->mape_all = all_n ? 100.0 * all_ape / (double)all_n : NAN;
}

/* Text for a driver outcome. */
static const char *start_outcome(const zvp_fit_start_info *s)
{
    if (s->gsl_status == GSL_SUCCESS) {
        switch (s->info) {
        case 1: return "converged (small step, xtol)";
        case 2: return "converged (small gradient, gtol)";
        case 3: return "converged (small cost change, ftol)";
        default: return "converged";
        }
    }
    if (s->gsl_status == GSL_EMAXITER)
        return "stopped at the iteration limit";
    return gsl_strerror(s->gsl_status);
}

const char *zvp_fit_start_outcome(const zvp_fit_start_info *s) { return start_outcome(s); }

/* Build the calibrated model file with provenance. */
static int result_model_file(const zvp_fit *fit, zvp_fit_result *r, zvp_error *err)
{
    const zvp_model *m = fit->model;
    char key[160], val[1024];
    zvp_error e;
    time_t now = time(NULL);
    struct tm tmv;
    int st = ZVP_SUCCESS;
    zvp_error_clear(&e);

    r->model_file = zvp_model_file_new(m);
    if (!r->model_file)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
    if (fit->base_path)
        memcpy(zvp_model_file_params(r->model_file), fit->base_params,
               m->n_params * sizeof(double));
    for (size_t k = 0; k < fit->n_fixed && !st; k++)
        st = zvp_model_file_set(r->model_file, m->params[fit->fixed_index[k]].name,
                                fit->fixed_value[k], &e);
    for (size_t k = 0; k < r->p && !st; k++) {
        st = zvp_model_file_set(r->model_file, m->params[r->param_index[k]].name,
                                r->estimates[k], &e);
        if (!st && isfinite(r->stderrs[k]))
            zvp_model_file_set_stderr(r->model_file, r->param_index[k], r->stderrs[k]);
    }
    if (st)
        return fail_from(err, &e, "%s: writing the calibrated parameters", fit->path);

#define PROV(k, v)                                                                             \
    do {                                                                                       \
        if (!st && (st = zvp_model_file_set_provenance(r->model_file, (k), (v), &e)))           \
            return fail_from(err, &e, "%s: provenance %s", fit->path, (k));                    \
    } while (0)

    PROV("fit_file", fit->path);
    PROV("data_file", fit->data_path);
    if (fit->join_path) {
        PROV("join_file", fit->join_path);
        PROV("join_key", fit->join_key);
    }
    if (fit->where)
        PROV("where", fit->where);
    if (fit->base_path)
        PROV("base_file", fit->base_path);
    if (gmtime_r(&now, &tmv) && strftime(val, sizeof val, "%Y-%m-%dT%H:%M:%SZ", &tmv) > 0)
        PROV("fitted_at", val);
    PROV("zvmperf_version", zvp_version());
    snprintf(val, sizeof val, "%zu", r->n_rows);
    PROV("rows", val);
    snprintf(val, sizeof val, "%zu", r->n_measured);
    PROV("measured_cells", val);
    snprintf(val, sizeof val, "%.6g", r->mape_all);
    PROV("mape_pct", val);
    for (size_t j = 0; j < r->n_match; j++) {
        snprintf(key, sizeof key, "r2_%s", m->outputs[r->output_index[j]].name);
        snprintf(val, sizeof val, "%.6g", r->r2[j]);
        PROV(key, val);
    }
    snprintf(val, sizeof val, "%.6g", r->cost);
    PROV("cost", val);
    snprintf(val, sizeof val, "GSL multifit_nlinear trust region (Levenberg-Marquardt), %s "
             "residuals, %zu start(s); best start %zu: %zu iterations, %s",
             r->residual_absolute ? "absolute" : "relative", r->n_starts, r->best_start + 1,
             r->starts[r->best_start].iterations, start_outcome(&r->starts[r->best_start]));
    PROV("method", val);
    if (fit->n_inputs) {
        size_t used = 0;
        val[0] = '\0';
        for (size_t k = 0; k < fit->n_inputs && used < sizeof val; k++) {
            int w = snprintf(val + used, sizeof val - used, "%s%s from column %s", k ? "; " : "",
                             m->params[fit->inputs[k].index].name, fit->inputs[k].column);
            if (w < 0)
                break;
            used += (size_t)w;
        }
        PROV("inputs", val);
        PROV("inputs_note", "per-row parameters: the values in [parameters] are not fitted");
    }
#undef PROV
    return st;
}

int zvp_fit_run(const zvp_fit *fit, zvp_fit_result **out, zvp_error *err)
{
    const zvp_model *m;
    size_t p, n, nm, best = SIZE_MAX;
    double *u0 = NULL, *us = NULL, *fbuf = NULL, *best_u = NULL, *best_cov = NULL;
    double best_cost = INFINITY;
    fit_eval ev;
    gsl_multifit_nlinear_workspace *w = NULL;
    gsl_multifit_nlinear_fdf fdf;
    gsl_multifit_nlinear_parameters fdf_params;
    gsl_matrix *covar = NULL;
    gsl_rng *rng = NULL;
    zvp_fit_result *r = NULL;
    int st = ZVP_SUCCESS;

    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_run: out is NULL");
    *out = NULL;
    if (!fit)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_run: fit is NULL");
    m = fit->model;
    p = fit->n_free;
    nm = fit->n_match;
    n = fit->n_rows * nm;
    if (p > 64)
        return zvp_fail(err, ZVP_EINVAL, "%s: %zu free parameters is out of range [1, 64]",
                        fit->path, p);

    memset(&ev, 0, sizeof ev);
    ev.fit = fit;
    ev.params = malloc(m->n_params * sizeof(double) + 1);
    ev.outputs = malloc(m->n_outputs * sizeof(double) + 1);
    ev.u = malloc(p * sizeof(double));
    ev.r = malloc(n * sizeof(double));
    u0 = malloc(p * sizeof *u0);
    us = malloc(fit->starts * p * sizeof *us);
    best_u = malloc(p * sizeof *best_u);
    best_cov = malloc(p * p * sizeof *best_cov);
    fbuf = malloc(n * sizeof *fbuf);
    covar = gsl_matrix_alloc(p, p);
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    r = calloc(1, sizeof *r);
    if (!ev.params || !ev.outputs || !ev.u || !ev.r || !u0 || !us || !best_u || !best_cov || !fbuf || !covar ||
        !rng || !r) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        goto done;
    }
    r->n_starts = fit->starts;
    r->starts = calloc(fit->starts, sizeof *r->starts);
    if (!r->starts) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        goto done;
    }

    /* starts: the given one, then deterministic draws in a box around it (seed 1) */
    gsl_rng_set(rng, 1);
    for (size_t k = 0; k < p; k++)
        u0[k] = u_of_theta(fit->free[k].start, fit->free[k].lo, fit->free[k].hi);
    for (size_t s = 0; s < fit->starts; s++)
        for (size_t k = 0; k < p; k++)
            us[s * p + k] = s == 0 ? u0[k]
                                   : u0[k] + ZVP_FIT_START_BOX * (2.0 * gsl_rng_uniform(rng) - 1.0);

    fdf.f = fit_gsl_f;
    fdf.df = NULL;  /* forward-difference Jacobian */
    fdf.fvv = NULL; /* no geodesic acceleration */
    fdf.n = n;
    fdf.p = p;
    fdf.params = &ev;
    fdf_params = gsl_multifit_nlinear_default_parameters();
    fdf_params.trs = gsl_multifit_nlinear_trs_lm;
    w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fdf_params, n, p);
    if (!w) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: cannot allocate the GSL workspace (n = %zu, p = %zu)",
                      fit->path, n, p);
        goto done;
    }

    for (size_t s = 0; s < fit->starts; s++) {
        zvp_fit_start_info *si = &r->starts[s];
        gsl_vector_view x0 = gsl_vector_view_array(us + s * p, p);
        const gsl_vector *x;
        int gs, info = 0;
        double cost = 0.0;
        size_t bad;
        si->cost = INFINITY;
        gs = gsl_multifit_nlinear_init(&x0.vector, &fdf, w);
        if (gs) {
            si->gsl_status = gs;
            continue;
        }
        gs = gsl_multifit_nlinear_driver(ZVP_FIT_MAXITER, ZVP_FIT_XTOL, ZVP_FIT_GTOL, ZVP_FIT_FTOL,
                                         NULL, NULL, &info, w);
        si->gsl_status = gs;
        si->info = info;
        si->iterations = gsl_multifit_nlinear_niter(w);
        x = gsl_multifit_nlinear_position(w);
        for (size_t k = 0; k < p; k++)
            u0[k] = gsl_vector_get(x, k);
        bad = fit_evaluate(&ev, u0, fbuf, NULL);
        for (size_t i = 0; i < n; i++)
            cost += fbuf[i] * fbuf[i];
        si->usable = bad == 0 && isfinite(cost);
        if (!si->usable)
            continue;
        si->cost = cost;
        if (cost < best_cost) {
            best_cost = cost;
            best = s;
            memcpy(best_u, u0, p * sizeof *best_u);
            gs = gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar);
            for (size_t a = 0; a < p; a++)
                for (size_t b = 0; b < p; b++)
                    best_cov[a * p + b] = gs ? NAN : gsl_matrix_get(covar, a, b);
        }
    }
    if (best == SIZE_MAX) {
        if (ev.bad_row != SIZE_MAX)
            st = zvp_fail(err, ZVP_EFIT,
                          "%s: none of %zu start(s) reached a finite cost; the model has no "
                          "result at row %zu (%s): %s", fit->path, fit->starts, ev.bad_row + 1,
                          fit->labels[ev.bad_row], ev.row_err.message);
        else
            st = zvp_fail(err, ZVP_EFIT, "%s: none of %zu start(s) reached a finite cost (%s)",
                          fit->path, fit->starts, gsl_strerror(r->starts[0].gsl_status));
        goto done;
    }

    /* ---- the result ---- */
    r->model = m;
    r->residual_absolute = fit->residual_absolute;
    r->p = p;
    r->n_rows = fit->n_rows;
    r->n_match = nm;
    r->n_measured = fit->n_measured;
    r->best_start = best;
    r->cost = best_cost;
    r->dof = fit->n_measured - p;
    r->fit_path = zvp_strdup(fit->path);
    r->data_path = zvp_strdup(fit->data_path);
    r->join_path = fit->join_path ? zvp_strdup(fit->join_path) : NULL;
    r->join_key = fit->join_key ? zvp_strdup(fit->join_key) : NULL;
    r->base_path = fit->base_path ? zvp_strdup(fit->base_path) : NULL;
    r->where = fit->where ? zvp_strdup(fit->where) : NULL;
    r->param_index = malloc(p * sizeof *r->param_index);
    r->output_index = malloc(nm * sizeof *r->output_index);
    r->lo = malloc(p * sizeof(double));
    r->hi = malloc(p * sizeof(double));
    r->start = malloc(p * sizeof(double));
    r->flags = calloc(p, sizeof(int));
    r->estimates = malloc(p * sizeof(double));
    r->stderrs = malloc(p * sizeof(double));
    r->covariance = malloc(p * p * sizeof(double));
    r->measured = malloc(n * sizeof(double));
    r->fitted = malloc(n * sizeof(double));
    r->residual = malloc(n * sizeof(double));
    r->r2 = malloc(nm * sizeof(double));
    r->rmse = malloc(nm * sizeof(double));
    r->mape = malloc(nm * sizeof(double));
    r->cells = malloc(nm * sizeof(size_t));
    r->labels = calloc(fit->n_rows, sizeof(char *));
    if (!r->fit_path || !r->data_path || (fit->join_path && (!r->join_path || !r->join_key)) ||
        (fit->base_path && !r->base_path) || (fit->where && !r->where) || !r->param_index ||
        !r->output_index || !r->lo ||
        !r->hi || !r->start || !r->flags || !r->estimates || !r->stderrs || !r->covariance || !r->measured ||
        !r->fitted || !r->residual || !r->r2 || !r->rmse || !r->mape || !r->cells || !r->labels) {
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
        goto done;
    }
    for (size_t i = 0; i < fit->n_rows; i++)
        if (!(r->labels[i] = zvp_strdup(fit->labels[i]))) {
            st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", fit->path);
            goto done;
        }
    {
        double s2 = r->dof > 0 ? best_cost / (double)r->dof : NAN;
        double d[64];
        for (size_t k = 0; k < p; k++) {
            const zvp_fit_free_param *fp = &fit->free[k];
            double th = theta_of_u(best_u[k], fp->lo, fp->hi);
            r->param_index[k] = fp->index;
            r->lo[k] = fp->lo;
            r->hi[k] = fp->hi;
            r->start[k] = fp->start;
            r->estimates[k] = th;
            d[k] = (th - fp->lo) * (fp->hi - th) / (fp->hi - fp->lo);
        }
        for (size_t a = 0; a < p; a++)
            for (size_t b = 0; b < p; b++)
                r->covariance[a * p + b] = s2 * d[a] * d[b] * best_cov[a * p + b];
        for (size_t k = 0; k < p; k++) {
            /* A zero variance would claim certainty: at a bound (the delta method gives 0)
             * and for a column of J that GSL's covar drops as linearly dependent (an
             * unidentified parameter: variance set to 0) report NaN instead. */
            if (zvp_fit_at_bound(r->estimates[k], r->lo[k], r->hi[k]))
                r->flags[k] = ZVP_FIT_AT_BOUND;
            else if (!(best_cov[k * p + k] > 0.0))
                r->flags[k] = ZVP_FIT_UNIDENTIFIED;
            if (r->flags[k])
                for (size_t b = 0; b < p; b++)
                    r->covariance[k * p + b] = r->covariance[b * p + k] = NAN;
        }
        for (size_t k = 0; k < p; k++)
            r->stderrs[k] = sqrt(r->covariance[k * p + k]);
    }
    for (size_t j = 0; j < nm; j++)
        r->output_index[j] = fit->match[j].index;
    fit_evaluate(&ev, best_u, fbuf, r->fitted);
    for (size_t i = 0; i < n; i++) {
        r->measured[i] = fit->measured[i];
        r->residual[i] = isnan(r->measured[i]) ? NAN : r->fitted[i] - r->measured[i];
    }
    result_stats(r);
    st = result_model_file(fit, r, err);
    if (st)
        goto done;
    *out = r;
    r = NULL;
done:
    zvp_fit_result_free(r);
    gsl_multifit_nlinear_free(w);
    gsl_matrix_free(covar);
    gsl_rng_free(rng);
    free(ev.params);
    free(ev.outputs);
    free(ev.u);
    free(ev.r);
    free(u0);
    free(us);
    free(best_u);
    free(best_cov);
    free(fbuf);
    return st;
}
