/* src/model.c - registry look-ups, parameter checks and checked evaluation (the only caller
 * of a model's eval function). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

const zvp_model *zvp_model_find(const char *name, zvp_error *err)
{
    char names[256] = "";
    size_t i, used = 0;
    for (i = 0; name && i < zvp_model_count(); i++)
        if (strcmp(zvp_model_at(i)->name, name) == 0)
            return zvp_model_at(i);
    for (i = 0; i < zvp_model_count() && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                 zvp_model_at(i)->name);
    zvp_fail(err, ZVP_ENOTFOUND, "model '%s' is not registered (models: %s)",
             name ? name : "(null)", names);
    return NULL;
}

static long find_desc(const zvp_model *m, const zvp_param_desc *d, size_t n, const char *what,
                      const char *name, zvp_error *err)
{
    char names[1024] = "";
    size_t i, used = 0;
    for (i = 0; name && i < n; i++)
        if (strcmp(d[i].name, name) == 0)
            return (long)i;
    for (i = 0; i < n && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                 d[i].name);
    zvp_fail(err, ZVP_ENOTFOUND, "model '%s' has no %s '%s' (%ss: %s)", m->name, what,
             name ? name : "(null)", what, names);
    return -1;
}

long zvp_model_param_index(const zvp_model *m, const char *name, zvp_error *err)
{
    return find_desc(m, m->params, m->n_params, "parameter", name, err);
}

long zvp_model_output_index(const zvp_model *m, const char *name, zvp_error *err)
{
    return find_desc(m, m->outputs, m->n_outputs, "output", name, err);
}

void zvp_model_defaults(const zvp_model *m, double *params)
{
    for (size_t i = 0; i < m->n_params; i++)
        params[i] = m->params[i].default_value;
}

int zvp_model_check_params(const zvp_model *m, const double *params, zvp_error *err)
{
    for (size_t i = 0; i < m->n_params; i++) {
        int st = zvp_check_param(m->name, &m->params[i], params[i], err);
        if (st != ZVP_SUCCESS)
            return st;
    }
    return ZVP_SUCCESS;
}

/* One output against its descriptor: finite, and in [min, max] up to rounding (within
 * 1e-12 x max(1, |min|, |max|) of a bound, then set to the bound). */
static int check_output(const zvp_model *m, const zvp_param_desc *d, double *v, zvp_error *err)
{
    if (!isfinite(*v))
        return zvp_fail(err, ZVP_EUNSTABLE, "%s: output %s is not finite (%g)", m->name, d->name,
                        *v);
    if (*v >= d->min && *v <= d->max)
        return ZVP_SUCCESS;
    const double scale = fmax(1.0, fmax(fabs(d->min), isfinite(d->max) ? fabs(d->max) : 0.0));
    if (*v < d->min && *v >= d->min - 1e-12 * scale) {
        *v = d->min;
        return ZVP_SUCCESS;
    }
    if (*v > d->max && *v <= d->max + 1e-12 * scale) {
        *v = d->max;
        return ZVP_SUCCESS;
    }
    /* the model should have refused these inputs itself with a status: a model bug */
    return zvp_fail(err, ZVP_EINTERNAL,
                    "%s: output %s = %.17g is outside its documented range [%.17g, %.17g] (unit "
                    "%s): the model does not hold for these inputs (a model bug; please report)",
                    m->name, d->name, *v, d->min, d->max, d->unit);
}

/* The only call of a model's eval: every evaluation is checked first, every output after. */
int zvp_model_eval(const zvp_model *m, const double *params, double *outputs, zvp_error *err)
{
    int st = zvp_model_check_params(m, params, err);
    if (st == ZVP_SUCCESS)
        st = m->eval(params, outputs, err);
    for (size_t j = 0; st == ZVP_SUCCESS && j < m->n_outputs; j++)
        st = check_output(m, &m->outputs[j], &outputs[j], err);
    if (st != ZVP_SUCCESS)
        for (size_t j = 0; j < m->n_outputs; j++)
            outputs[j] = NAN;
    return st;
}
