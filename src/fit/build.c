/*
 * src/fit/build.c - a fit in memory: zvp_fit_new, the declarations (fixed, free, inputs,
 * matched outputs), rows, tunables and zvp_fit_subset. The file reader (fitfile.c) builds
 * its fit through these same functions.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/fit_impl.h"

int zvp_fit_fail_from(zvp_error *err, const zvp_error *sub, const char *fmt, ...)
{
    char pre[ZVP_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    return zvp_fail(err, sub->status ? sub->status : ZVP_EINVAL, "%s: %s", pre, sub->message);
}

const char *zvp_fit_name(const zvp_fit *fit)
{
    return fit && fit->path ? fit->path : "in-memory fit";
}

/* ---- tunables ---- */

zvp_fit_parameters zvp_fit_default_parameters(void)
{
    zvp_fit_parameters p;
    memset(&p, 0, sizeof p);
    p.starts = 1;
    p.residual = ZVP_FIT_RELATIVE;
    p.max_iter = 200;
    p.xtol = 1e-10;
    p.gtol = 1e-10;
    p.ftol = 1e-12;
    p.seed = 1;
    p.start_box = 3.0;
    return p;
}

int zvp_fit_check_parameters(const zvp_fit_parameters *p, zvp_error *err)
{
    int st;
    if (!p)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_check_parameters: parameters are NULL");
    if (p->starts < 1 || p->starts > 10000)
        return zvp_fail(err, ZVP_EINVAL, "starts = %zu is out of range [1, 10000]", p->starts);
    if (p->residual != ZVP_FIT_RELATIVE && p->residual != ZVP_FIT_ABSOLUTE)
        return zvp_fail(err, ZVP_EINVAL,
                        "residual = %d: must be ZVP_FIT_RELATIVE (0) or ZVP_FIT_ABSOLUTE (1)",
                        p->residual);
    if (p->max_iter < 1 || p->max_iter > 100000)
        return zvp_fail(err, ZVP_EINVAL, "max_iter = %zu is out of range [1, 100000]",
                        p->max_iter);
    if ((st = zvp_check_range(err, "xtol", p->xtol, 0.0, 0.1)) ||
        (st = zvp_check_range(err, "gtol", p->gtol, 0.0, 0.1)) ||
        (st = zvp_check_range(err, "ftol", p->ftol, 0.0, 0.1)))
        return st;
    if (!(p->start_box > 0.0 && p->start_box <= 50.0))
        return zvp_fail(err, ZVP_EINVAL, "start_box = %g is out of range (0, 50]", p->start_box);
    return ZVP_SUCCESS;
}

int zvp_fit_set_parameters(zvp_fit *fit, const zvp_fit_parameters *p, zvp_error *err)
{
    int st;
    if (!fit)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_set_parameters: fit is NULL");
    if ((st = zvp_fit_check_parameters(p, err)))
        return st;
    fit->params = *p;
    return ZVP_SUCCESS;
}

int zvp_fit_get_parameters(const zvp_fit *fit, zvp_fit_parameters *out)
{
    if (!fit || !out)
        return ZVP_EINVAL;
    *out = fit->params;
    return ZVP_SUCCESS;
}

/* ---- new / free ---- */

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
    free(fit->where);
    for (size_t i = 0; i < fit->n_files; i++)
        free(fit->files[i]);
    free(fit->files);
    free(fit->base_params);
    free(fit->roles);
    free(fit->fixed_index);
    free(fit->fixed_value);
    for (size_t i = 0; i < fit->n_inputs; i++)
        free(fit->inputs[i].column);
    free(fit->inputs);
    free(fit->free);
    for (size_t i = 0; i < fit->n_match; i++) {
        free(fit->match[i].column);
        free(fit->match[i].unit);
    }
    free(fit->match);
    free(fit->row_params);
    free(fit->measured);
    if (fit->labels)
        for (size_t i = 0; i < fit->n_rows; i++)
            free(fit->labels[i]);
    free(fit->labels);
    zvp_fit_extra_free(fit->extra);
    free(fit);
}

/* An empty fit of m with room for every declaration (each parameter takes one role, each
 * output is matched once). */
static zvp_fit *fit_alloc(const zvp_model *m)
{
    size_t np = m->n_params, no = m->n_outputs;
    zvp_fit *fit = calloc(1, sizeof *fit);
    if (!fit)
        return NULL;
    fit->model = m;
    fit->params = zvp_fit_default_parameters();
    fit->base_params = malloc((np + 1) * sizeof *fit->base_params);
    fit->roles = calloc(np + 1, sizeof *fit->roles);
    fit->fixed_index = calloc(np + 1, sizeof *fit->fixed_index);
    fit->fixed_value = calloc(np + 1, sizeof *fit->fixed_value);
    fit->inputs = calloc(np + 1, sizeof *fit->inputs);
    fit->free = calloc(np + 1, sizeof *fit->free);
    fit->match = calloc(no + 1, sizeof *fit->match);
    if (!fit->base_params || !fit->roles || !fit->fixed_index || !fit->fixed_value ||
        !fit->inputs || !fit->free || !fit->match) {
        zvp_fit_free(fit);
        return NULL;
    }
    return fit;
}

int zvp_fit_new(const zvp_model *m, const double *base_params, zvp_fit **out, zvp_error *err)
{
    zvp_fit *fit;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_new: out is NULL");
    *out = NULL;
    if (!m)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_new: model is NULL");
    if (base_params)
        for (size_t k = 0; k < m->n_params; k++)
            if (!isfinite(base_params[k]))
                return zvp_fail(err, ZVP_EINVAL, "zvp_fit_new: base %s = %g is not finite",
                                m->params[k].name, base_params[k]);
    fit = fit_alloc(m);
    if (!fit)
        return zvp_fail(err, ZVP_ENOMEM, "zvp_fit_new: out of memory");
    if (base_params)
        memcpy(fit->base_params, base_params, m->n_params * sizeof *base_params);
    else
        zvp_model_defaults(m, fit->base_params);
    *out = fit;
    return ZVP_SUCCESS;
}

/* ---- declarations ---- */

static const char *const role_text[] = {"", "fixed", "a per-row input", "free"};

/* Checks common to the declarations: fit not NULL, no rows yet; then the parameter's index
 * (ZVP_ENOTFOUND) and that it has no other role. */
static int claim_param(zvp_fit *fit, const char *name, size_t *index, zvp_error *err)
{
    zvp_error e;
    long idx;
    if (!fit || !name)
        return zvp_fail(err, ZVP_EINVAL, "fit and parameter name must not be NULL");
    if (fit->n_rows)
        return zvp_fail(err, ZVP_EINVAL,
                        "parameter '%s': declare fixed, free and input parameters before the "
                        "first row", name);
    zvp_error_clear(&e);
    idx = zvp_model_param_index(fit->model, name, &e);
    if (idx < 0)
        return zvp_fail(err, e.status, "%s", e.message);
    if (fit->roles[idx] != ZVP_ROLE_NONE)
        return zvp_fail(err, ZVP_EINVAL,
                        "parameter '%s' is already %s (a parameter is fixed, a per-row input, "
                        "or free)", name, role_text[fit->roles[idx]]);
    *index = (size_t)idx;
    return ZVP_SUCCESS;
}

int zvp_fit_set_fixed(zvp_fit *fit, const char *name, double value, zvp_error *err)
{
    size_t idx;
    int st = claim_param(fit, name, &idx, err);
    if (st)
        return st;
    const zvp_param_desc *d = &fit->model->params[idx];
    if ((st = zvp_check_range(err, name, value, d->min, d->max)))
        return st;
    if (d->integer && value != floor(value))
        return zvp_fail(err, ZVP_EINVAL, "%s = %.17g must be a whole number", name, value);
    fit->roles[idx] = ZVP_ROLE_FIXED;
    fit->base_params[idx] = value;
    fit->fixed_index[fit->n_fixed] = idx;
    fit->fixed_value[fit->n_fixed++] = value;
    return ZVP_SUCCESS;
}

int zvp_fit_add_free(zvp_fit *fit, const char *name, double start, double lo, double hi,
                     zvp_error *err)
{
    size_t idx;
    int st = claim_param(fit, name, &idx, err);
    if (st)
        return st;
    const zvp_param_desc *d = &fit->model->params[idx];
    if (d->integer)
        return zvp_fail(err, ZVP_EINVAL,
                        "parameter '%s' takes whole numbers only (a count or a switch): it "
                        "cannot be a free parameter; fix it or feed it per row", name);
    if (fit->n_free >= ZVP_FIT_MAX_FREE)
        return zvp_fail(err, ZVP_EINVAL, "free parameter '%s': %zu free parameters is out of "
                        "range [1, %d]", name, fit->n_free + 1, ZVP_FIT_MAX_FREE);
    if (!(lo < hi) || !isfinite(lo) || !isfinite(hi))
        return zvp_fail(err, ZVP_EINVAL, "free parameter %s: lo = %.17g must be < hi = %.17g "
                        "(both finite)", name, lo, hi);
    if (!(lo < start && start < hi))
        return zvp_fail(err, ZVP_EINVAL, "free parameter %s: start = %.17g is outside the open "
                        "bounds (%.17g, %.17g)", name, start, lo, hi);
    if (lo < d->min || hi > d->max)
        return zvp_fail(err, ZVP_EINVAL, "free parameter %s: bounds [%.17g, %.17g] leave the "
                        "parameter's valid range [%.17g, %.17g]", name, lo, hi, d->min, d->max);
    fit->roles[idx] = ZVP_ROLE_FREE;
    fit->free[fit->n_free].index = idx;
    fit->free[fit->n_free].start = start;
    fit->free[fit->n_free].lo = lo;
    fit->free[fit->n_free].hi = hi;
    fit->n_free++;
    return ZVP_SUCCESS;
}

int zvp_fit_add_input(zvp_fit *fit, const char *name, zvp_error *err)
{
    size_t idx;
    int st = claim_param(fit, name, &idx, err);
    if (st)
        return st;
    fit->inputs[fit->n_inputs].column = zvp_strdup(name);
    if (!fit->inputs[fit->n_inputs].column)
        return zvp_fail(err, ZVP_ENOMEM, "out of memory");
    fit->inputs[fit->n_inputs++].index = idx;
    fit->roles[idx] = ZVP_ROLE_INPUT;
    return ZVP_SUCCESS;
}

int zvp_fit_add_match(zvp_fit *fit, const char *output, double weight, zvp_error *err)
{
    zvp_error e;
    long idx;
    zvp_fit_match *mt;
    if (!fit || !output)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_add_match: fit and output must not be NULL");
    if (fit->n_rows)
        return zvp_fail(err, ZVP_EINVAL, "output '%s': declare matched outputs before the "
                        "first row", output);
    zvp_error_clear(&e);
    idx = zvp_model_output_index(fit->model, output, &e);
    if (idx < 0)
        return zvp_fail(err, e.status, "%s", e.message);
    if (!(weight > 0.0) || !isfinite(weight))
        return zvp_fail(err, ZVP_EINVAL, "output %s: weight = %g must be > 0 (and finite)", output,
                        weight);
    for (size_t j = 0; j < fit->n_match; j++)
        if (fit->match[j].index == (size_t)idx)
            return zvp_fail(err, ZVP_EINVAL, "output %s: matched twice", output);
    mt = &fit->match[fit->n_match];
    mt->column = zvp_strdup(output);
    mt->unit = zvp_strdup(fit->model->outputs[idx].unit ? fit->model->outputs[idx].unit : "");
    if (!mt->column || !mt->unit) {
        free(mt->column);
        free(mt->unit);
        mt->column = mt->unit = NULL;
        return zvp_fail(err, ZVP_ENOMEM, "out of memory");
    }
    mt->index = (size_t)idx;
    mt->weight = weight;
    fit->n_match++;
    return ZVP_SUCCESS;
}

int zvp_fit_set_match_column(zvp_fit *fit, size_t j, const char *column, const char *unit)
{
    char *c = zvp_strdup(column), *u = zvp_strdup(unit ? unit : "");
    if (!c || !u) {
        free(c);
        free(u);
        return ZVP_ENOMEM;
    }
    free(fit->match[j].column);
    free(fit->match[j].unit);
    fit->match[j].column = c;
    fit->match[j].unit = u;
    return ZVP_SUCCESS;
}

int zvp_fit_set_input_column(zvp_fit *fit, size_t k, const char *column)
{
    char *c = zvp_strdup(column);
    if (!c)
        return ZVP_ENOMEM;
    free(fit->inputs[k].column);
    fit->inputs[k].column = c;
    return ZVP_SUCCESS;
}

/* ---- rows ---- */

/* Room for one more row. */
static int grow_rows(zvp_fit *fit)
{
    size_t cap = fit->cap_rows ? 2 * fit->cap_rows : 16, np = fit->model->n_params;
    double *rp, *ms;
    char **lb;
    if (fit->n_rows < fit->cap_rows)
        return ZVP_SUCCESS;
    rp = realloc(fit->row_params, cap * (np + 1) * sizeof *rp);
    if (!rp)
        return ZVP_ENOMEM;
    fit->row_params = rp;
    ms = realloc(fit->measured, cap * (fit->n_match + 1) * sizeof *ms);
    if (!ms)
        return ZVP_ENOMEM;
    fit->measured = ms;
    lb = realloc(fit->labels, cap * sizeof *lb);
    if (!lb)
        return ZVP_ENOMEM;
    fit->labels = lb;
    fit->cap_rows = cap;
    return ZVP_SUCCESS;
}

/* Add a row: vec is the row's whole vector before the fixed values and the free starts are
 * set over it (when inputs is not NULL, vec is NULL and the vector is base + inputs). */
static int add_row(zvp_fit *fit, const char *label, const double *vec, const double *inputs,
                   const double *measured, zvp_error *err)
{
    const zvp_model *m = fit->model;
    size_t np = m->n_params, nm = fit->n_match, i = fit->n_rows, nmeas = 0;
    double *p;
    char buf[32];
    zvp_error e;
    if (fit->n_free == 0 || nm == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: declare the free parameters and the matched "
                        "outputs before adding rows (%zu free, %zu matched)", zvp_fit_name(fit),
                        fit->n_free, nm);
    if (nm && !measured)
        return zvp_fail(err, ZVP_EINVAL, "%s: row %zu: measured values are NULL",
                        zvp_fit_name(fit), i + 1);
    if (fit->n_inputs && !vec && !inputs)
        return zvp_fail(err, ZVP_EINVAL, "%s: row %zu: input values are NULL (%zu inputs)",
                        zvp_fit_name(fit), i + 1, fit->n_inputs);
    if (!label) {
        snprintf(buf, sizeof buf, "row %zu", i + 1);
        label = buf;
    }
    for (size_t j = 0; j < nm; j++) {
        if (isinf(measured[j]))
            return zvp_fail(err, ZVP_EINVAL, "%s: row %zu (%s): measured %s = %g is not finite "
                            "(NaN marks a missing cell)", zvp_fit_name(fit), i + 1, label,
                            m->outputs[fit->match[j].index].name, measured[j]);
        nmeas += isnan(measured[j]) ? 0u : 1u;
    }
    if (grow_rows(fit))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    p = fit->row_params + i * np;
    memcpy(p, vec ? vec : fit->base_params, np * sizeof *p);
    for (size_t f = 0; f < fit->n_fixed; f++)
        p[fit->fixed_index[f]] = fit->fixed_value[f];
    for (size_t k = 0; !vec && k < fit->n_inputs; k++)
        p[fit->inputs[k].index] = inputs[k];
    for (size_t k = 0; k < fit->n_free; k++)
        p[fit->free[k].index] = fit->free[k].start;
    zvp_error_clear(&e);
    if (zvp_model_check_params(m, p, &e))
        return zvp_fit_fail_from(err, &e, "row %zu (%s), free parameters at their starts",
                                 i + 1, label);
    if (!(fit->labels[i] = zvp_strdup(label)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    memcpy(fit->measured + i * nm, measured, nm * sizeof *measured);
    fit->n_measured += nmeas;
    fit->n_rows++;
    return ZVP_SUCCESS;
}

int zvp_fit_add_row(zvp_fit *fit, const char *label, const double *inputs,
                    const double *measured, zvp_error *err)
{
    static const double none[1] = {0.0};
    if (!fit)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_add_row: fit is NULL");
    return add_row(fit, label, NULL, fit->n_inputs ? inputs : none, measured, err);
}

int zvp_fit_add_row_params(zvp_fit *fit, const char *label, const double *params,
                           const double *measured, zvp_error *err)
{
    if (!fit || !params)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_add_row_params: fit and params must not be NULL");
    return add_row(fit, label, params, NULL, measured, err);
}

int zvp_fit_add_rows(zvp_fit *fit, size_t n, const char *const *labels, const double *inputs,
                     const double *measured, zvp_error *err)
{
    int st;
    if (!fit || (n && !measured))
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_add_rows: fit and measured must not be NULL");
    for (size_t i = 0; i < n; i++) {
        const double *in = inputs ? inputs + i * fit->n_inputs : NULL;
        if ((st = zvp_fit_add_row(fit, labels ? labels[i] : NULL, in,
                                  measured + i * fit->n_match, err)))
            return st;
    }
    return ZVP_SUCCESS;
}

/* ---- subset ---- */

char *zvp_fit_dup_opt(const char *s, int *ok)
{
    char *d;
    if (!s)
        return NULL;
    d = zvp_strdup(s);
    if (!d)
        *ok = 0;
    return d;
}

/* A copy of fit's declarations, tunables and provenance, without rows. */
static zvp_fit *copy_declarations(const zvp_fit *fit)
{
    const zvp_model *m = fit->model;
    int ok = 1;
    zvp_fit *c = fit_alloc(m);
    if (!c)
        return NULL;
    c->params = fit->params;
    c->path = zvp_fit_dup_opt(fit->path, &ok);
    c->data_path = zvp_fit_dup_opt(fit->data_path, &ok);
    c->join_path = zvp_fit_dup_opt(fit->join_path, &ok);
    c->join_key = zvp_fit_dup_opt(fit->join_key, &ok);
    c->base_path = zvp_fit_dup_opt(fit->base_path, &ok);
    c->output_path = zvp_fit_dup_opt(fit->output_path, &ok);
    c->where = zvp_fit_dup_opt(fit->where, &ok);
    memcpy(c->base_params, fit->base_params, m->n_params * sizeof *c->base_params);
    memcpy(c->roles, fit->roles, m->n_params * sizeof *c->roles);
    memcpy(c->fixed_index, fit->fixed_index, fit->n_fixed * sizeof *c->fixed_index);
    memcpy(c->fixed_value, fit->fixed_value, fit->n_fixed * sizeof *c->fixed_value);
    c->n_fixed = fit->n_fixed;
    memcpy(c->free, fit->free, fit->n_free * sizeof *c->free);
    c->n_free = fit->n_free;
    for (size_t k = 0; k < fit->n_inputs; k++, c->n_inputs++) {
        c->inputs[k].index = fit->inputs[k].index;
        c->inputs[k].column = zvp_fit_dup_opt(fit->inputs[k].column, &ok);
    }
    for (size_t j = 0; j < fit->n_match; j++, c->n_match++) {
        c->match[j] = fit->match[j];
        c->match[j].column = zvp_fit_dup_opt(fit->match[j].column, &ok);
        c->match[j].unit = zvp_fit_dup_opt(fit->match[j].unit, &ok);
    }
    if (!ok) {
        zvp_fit_free(c);
        return NULL;
    }
    return c;
}

int zvp_fit_subset(const zvp_fit *fit, const size_t *rows, size_t n_rows, zvp_fit **out,
                   zvp_error *err)
{
    zvp_fit *c;
    size_t np, nm;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_subset: out is NULL");
    *out = NULL;
    if (!fit || !rows)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_subset: fit and rows must not be NULL");
    if (n_rows == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: subset: n_rows = 0 is out of range [1, %zu]",
                        zvp_fit_name(fit), SIZE_MAX);
    for (size_t i = 0; i < n_rows; i++)
        if (rows[i] >= fit->n_rows)
            return zvp_fail(err, ZVP_EINVAL, "%s: subset: rows[%zu] = %zu is out of range [0, %zu]",
                            zvp_fit_name(fit), i, rows[i], fit->n_rows ? fit->n_rows - 1 : 0);
    if (!(c = copy_declarations(fit)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    np = fit->model->n_params;
    nm = fit->n_match;
    for (size_t i = 0; i < n_rows; i++) {
        size_t r = rows[i];
        if (grow_rows(c) || !(c->labels[i] = zvp_strdup(fit->labels[r]))) {
            zvp_fit_free(c);
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
        }
        memcpy(c->row_params + i * np, fit->row_params + r * np, np * sizeof(double));
        memcpy(c->measured + i * nm, fit->measured + r * nm, nm * sizeof(double));
        for (size_t j = 0; j < nm; j++)
            c->n_measured += isnan(fit->measured[r * nm + j]) ? 0u : 1u;
        c->n_rows++;
    }
    if (zvp_fit_extra_subset(fit, c, rows, n_rows) || zvp_fit_cells_subset(fit, c, rows, n_rows)) {
        zvp_fit_free(c);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    }
    *out = c;
    return ZVP_SUCCESS;
}
