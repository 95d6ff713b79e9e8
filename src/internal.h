/* src/internal.h - private helpers shared by the library's sources (not installed). */
#ifndef ZVMPERF_INTERNAL_H
#define ZVMPERF_INTERNAL_H

#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include "zvmperf/zvmperf.h"

#if defined(__GNUC__)
#define ZVP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ZVP_PRINTF(a, b)
#endif

/* Record status and a formatted message in err (if not NULL); return status. */
int zvp_fail(zvp_error *err, int status, const char *fmt, ...) ZVP_PRINTF(3, 4);

/* Check lo <= value <= hi and isfinite(value); on failure record ZVP_EINVAL with
 * "<what> = <value> is out of range [lo, hi]" and return ZVP_EINVAL. */
int zvp_check_range(zvp_error *err, const char *what, double value, double lo, double hi);

/* Duplicate a string with malloc (NULL on failure). */
char *zvp_strdup(const char *s);

/* Parse a whole string as a finite double; 0 on success, -1 otherwise. */
int zvp_parse_double(const char *s, double *out);

/* Result check of the single-station kernels: a successful result with an infinite field
 * means the inputs were too extreme for double arithmetic (e.g. a service rate of 1e-309/s):
 * every field becomes NaN and the call fails with ZVP_EINVAL naming the kernel. Returns rc
 * unchanged otherwise. */
static inline int zvp_station_finite(int rc, zvp_station_result *out, const char *kernel,
                                     zvp_error *err)
{
    if (rc != ZVP_SUCCESS || !out)
        return rc;
    const double f[8] = {out->throughput_per_s, out->utilization, out->busy_servers,
                         out->mean_in_system, out->mean_in_queue, out->response_s, out->wait_s,
                         out->pwait};
    for (int i = 0; i < 8; i++)
        if (isinf(f[i])) {
            out->throughput_per_s = out->utilization = out->busy_servers = NAN;
            out->mean_in_system = out->mean_in_queue = out->response_s = out->wait_s = NAN;
            out->pwait = NAN;
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: the inputs are outside the range double arithmetic can solve "
                            "(a result overflows): use rates and times within about 1e-300 .. "
                            "1e300",
                            kernel);
        }
    return rc;
}

/* Neumaier-compensated running sum (Neumaier 1974): add terms with zvp_ksum_add, read the
 * sum with zvp_ksum_value; start from {0, 0}. */
typedef struct zvp_ksum {
    double s, c;
} zvp_ksum;

static inline void zvp_ksum_add(zvp_ksum *k, double x)
{
    double t = k->s + x;
    if (fabs(k->s) >= fabs(x))
        k->c += (k->s - t) + x;
    else
        k->c += (x - t) + k->s;
    k->s = t;
}

static inline double zvp_ksum_value(const zvp_ksum *k) { return k->s + k->c; }

#endif
