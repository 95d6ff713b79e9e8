/*
 * src/fit/sensitivity.c - elasticities of a model's outputs to its parameters at one point
 * (zvp_sensitivity): e = d ln y / d ln theta = (dy / dtheta) (theta / y), by central
 * differences theta (1 +- h), one-sided when a side leaves the parameter's valid range or has
 * no model result. |e| > 3 is what the CLI calls a knife-edge (calibration/README.md).
 */
#include <stdlib.h>
#include <string.h>
#include "fit/fit_impl.h"

const char *zvp_sensitivity_reason(int reason)
{
    switch (reason) {
    case ZVP_SENS_OK:
        return "ok";
    case ZVP_SENS_ZERO_OUTPUT:
        return "the output is 0 at this point (no logarithm)";
    case ZVP_SENS_ZERO_PARAM:
        return "the parameter is 0 at this point (no logarithm)";
    case ZVP_SENS_INTEGER:
        return "integer parameter (a count or a switch): no derivative";
    case ZVP_SENS_FAILED:
        return "no model result on either side of the point";
    default:
        return "unknown reason";
    }
}

/* Outputs at params with params[k] = x; 1 if they are all finite. */
static int eval_at(const zvp_model *m, double *params, size_t k, double x, double *out)
{
    const zvp_param_desc *d = &m->params[k];
    double keep = params[k];
    zvp_error e;
    int ok;
    if (!(x >= d->min && x <= d->max))
        return 0;
    zvp_error_clear(&e);
    params[k] = x;
    ok = zvp_model_eval(m, params, out, &e) == ZVP_SUCCESS;
    params[k] = keep;
    for (size_t j = 0; ok && j < m->n_outputs; j++)
        ok = isfinite(out[j]);
    return ok;
}

/* Column k of the elasticities. */
static void column(const zvp_model *m, double *params, size_t k, double h, const double *y0,
                   double *yp, double *ym, double *el, int *why)
{
    size_t np = m->n_params;
    double th = params[k], step = h * fabs(th);
    int okp = 0, okm = 0, r0 = ZVP_SENS_OK;
    if (m->params[k].integer)
        r0 = ZVP_SENS_INTEGER;
    else if (th == 0.0)
        r0 = ZVP_SENS_ZERO_PARAM;
    else {
        okp = eval_at(m, params, k, th + step, yp);
        okm = eval_at(m, params, k, th - step, ym);
        if (!okp && !okm)
            r0 = ZVP_SENS_FAILED;
    }
    for (size_t j = 0; j < m->n_outputs; j++) {
        int r = r0;
        double d = NAN;
        if (r == ZVP_SENS_OK && y0[j] == 0.0)
            r = ZVP_SENS_ZERO_OUTPUT;
        if (r == ZVP_SENS_OK)
            d = okp && okm ? (yp[j] - ym[j]) / (2.0 * step)
                : okp      ? (yp[j] - y0[j]) / step
                           : (y0[j] - ym[j]) / step;
        el[j * np + k] = r == ZVP_SENS_OK ? d * th / y0[j] : NAN;
        why[j * np + k] = r;
    }
}

int zvp_sensitivity(const zvp_model *m, const double *params, double rel_step, double *elasticity,
                    int *reason, double *outputs, zvp_error *err)
{
    double *p, *y0, *yp, *ym;
    int *why;
    int st;
    if (!m || !params || !elasticity)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sensitivity: m, params and elasticity must not be "
                        "NULL");
    if (rel_step == 0.0)
        rel_step = 1e-4;
    if (!(rel_step > 0.0 && rel_step <= 0.1))
        return zvp_fail(err, ZVP_EINVAL, "zvp_sensitivity: rel_step = %g is out of range (0, 0.1]",
                        rel_step);
    p = malloc((m->n_params + 1) * sizeof *p);
    y0 = malloc((3 * m->n_outputs + 1) * sizeof *y0);
    why = reason ? reason : malloc((m->n_outputs * m->n_params + 1) * sizeof *why);
    if (!p || !y0 || !why) {
        st = zvp_fail(err, ZVP_ENOMEM, "zvp_sensitivity: out of memory");
        goto out;
    }
    yp = y0 + m->n_outputs;
    ym = yp + m->n_outputs;
    memcpy(p, params, m->n_params * sizeof *p);
    if ((st = zvp_model_eval(m, p, y0, err)) != ZVP_SUCCESS)
        goto out;
    for (size_t k = 0; k < m->n_params; k++)
        column(m, p, k, rel_step, y0, yp, ym, elasticity, why);
    if (outputs)
        memcpy(outputs, y0, m->n_outputs * sizeof *outputs);
out:
    free(p);
    free(y0);
    if (why != reason)
        free(why);
    return st;
}
