/* src/util/check.c - the range checks of the engines and kernels (src/internal.h). */
#include <math.h>
#include "internal.h"

int zvp_check_range(zvp_error *err, const char *what, double value, double lo, double hi)
{
    if (!(value >= lo && value <= hi) || !isfinite(value))
        return zvp_fail(err, ZVP_EINVAL, "%s = %.17g is out of range [%.17g, %.17g]", what, value,
                        lo, hi);
    return ZVP_SUCCESS;
}

int zvp_check_param(const char *who, const zvp_param_desc *d, double value, zvp_error *err)
{
    if (!isfinite(value) || value < d->min || value > d->max)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: parameter %s = %.17g is out of range [%.17g, %.17g] (unit %s)", who,
                        d->name, value, d->min, d->max, d->unit);
    if (d->integer && value != floor(value))
        return zvp_fail(err, ZVP_EINVAL, "%s: parameter %s = %.17g is not an integer in [%.17g, %.17g]",
                        who, d->name, value, d->min, d->max);
    return ZVP_SUCCESS;
}
