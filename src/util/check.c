/* src/util/check.c - the range checks of the engines and kernels (src/internal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

const char *zvp_fmt_num(double v, char *buf, size_t n)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (!isfinite(v) || strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

int zvp_check_range(zvp_error *err, const char *what, double value, double lo, double hi)
{
    char a[32], b[32], c[32];
    if (!(value >= lo && value <= hi) || !isfinite(value))
        return zvp_fail(err, ZVP_EINVAL, "%s = %s is out of range [%s, %s]", what,
                        zvp_fmt_num(value, a, sizeof a), zvp_fmt_num(lo, b, sizeof b),
                        zvp_fmt_num(hi, c, sizeof c));
    return ZVP_SUCCESS;
}

int zvp_check_param(const char *who, const zvp_param_desc *d, double value, zvp_error *err)
{
    char a[32], b[32], c[32];
    if (!isfinite(value) || value < d->min || value > d->max)
        return zvp_fail(err, ZVP_EINVAL, "%s: parameter %s = %s is out of range [%s, %s] (unit %s)",
                        who, d->name, zvp_fmt_num(value, a, sizeof a),
                        zvp_fmt_num(d->min, b, sizeof b), zvp_fmt_num(d->max, c, sizeof c),
                        d->unit);
    if (d->integer && value != floor(value))
        return zvp_fail(err, ZVP_EINVAL, "%s: parameter %s = %s is not an integer in [%s, %s]", who,
                        d->name, zvp_fmt_num(value, a, sizeof a), zvp_fmt_num(d->min, b, sizeof b),
                        zvp_fmt_num(d->max, c, sizeof c));
    return ZVP_SUCCESS;
}
