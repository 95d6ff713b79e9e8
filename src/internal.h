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
