/* src/status.c - status codes, error records, initialisation and version. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "internal.h"

const char *zvp_strerror(int status)
{
    switch (status) {
    case ZVP_SUCCESS: return "success";
    case ZVP_EINVAL: return "invalid argument";
    case ZVP_EBADLEN: return "array length mismatch";
    case ZVP_EUNSTABLE: return "no steady state (utilization >= 1)";
    case ZVP_ENOMEM: return "out of memory";
    case ZVP_EMAXITER: return "iteration limit reached";
    case ZVP_EIO: return "input/output error";
    case ZVP_ENOTFOUND: return "name not found";
    case ZVP_EPARSE: return "malformed input";
    case ZVP_EFIT: return "calibration failed";
    default: return "unknown status";
    }
}

void zvp_error_clear(zvp_error *err)
{
    if (err) {
        err->status = ZVP_SUCCESS;
        err->message[0] = '\0';
    }
}

int zvp_fail(zvp_error *err, int status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

int zvp_check_range(zvp_error *err, const char *what, double value, double lo, double hi)
{
    if (!(value >= lo && value <= hi) || !isfinite(value))
        return zvp_fail(err, ZVP_EINVAL, "%s = %.17g is out of range [%.17g, %.17g]", what, value,
                        lo, hi);
    return ZVP_SUCCESS;
}

char *zvp_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int zvp_parse_double(const char *s, double *out)
{
    char *end;
    if (!s)
        return -1;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0')
        return -1;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    if (*end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int zvp_init(void)
{
    gsl_set_error_handler_off();
    return ZVP_SUCCESS;
}

const char *zvp_version(void) { return ZVP_VERSION_STRING; }

int zvp_version_number(void) { return ZVP_VERSION_NUMBER; }
