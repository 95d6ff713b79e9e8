/* src/status.c - status codes, error records, initialisation and version. */
#include <stdio.h>
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
    case ZVP_EINTERNAL: return "internal error (a consistency check failed)";
    case ZVP_ECANCELED: return "canceled by the caller";
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

int zvp_init(void)
{
    gsl_set_error_handler_off();
    return ZVP_SUCCESS;
}

const char *zvp_version(void) { return ZVP_VERSION_STRING; }

int zvp_version_number(void) { return ZVP_VERSION_NUMBER; }
