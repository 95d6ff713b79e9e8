/*
 * src/sweep/axis.c - sweep axes from text: "NAME=LO:HI:STEP", "NAME=V1,V2,..." or "NAME=V"
 * (zvp_axis_parse). Numbers follow the library's one number grammar (zvp_parse_double).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/decimal.h"
#include "zvmperf/sweep.h"

#define ZVP_AXIS_MAX_VALUES 1000000000.0 /* 10^9 */
#define ZVP_AXIS_REL_TOL 1e-9

/* Trimmed copy of [b, e) into a new string, or NULL (ENOMEM). */
static char *zvp_axis_trimdup(const char *b, const char *e)
{
    char *s;
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        e--;
    s = malloc((size_t)(e - b) + 1);
    if (s) {
        memcpy(s, b, (size_t)(e - b));
        s[e - b] = '\0';
    }
    return s;
}

/* Case-insensitive test: s starts with the lower-case word; returns what follows, or NULL. */
static const char *zvp_axis_word(const char *s, const char *word)
{
    for (; *word; s++, word++)
        if (*s == '\0' || (*s | 0x20) != *word)
            return NULL;
    return s;
}

/* Is s (trimmed) an infinity or a NaN as strtod spells them: [sign] inf, infinity, nan or
 * nan(...)? The library's grammar refuses them as not finite rather than as not a number. */
static int zvp_axis_inf_nan(const char *s)
{
    const char *w;
    if (*s == '+' || *s == '-')
        s++;
    if ((w = zvp_axis_word(s, "inf")) != NULL)
        return *w == '\0' || ((w = zvp_axis_word(w, "inity")) != NULL && *w == '\0');
    if ((w = zvp_axis_word(s, "nan")) != NULL)
        return *w == '\0' || (*w == '(' && strchr(w, ')') == w + strlen(w) - 1);
    return 0;
}

/* Parse one number field [b, e) of spec. ZVP_EPARSE if it is not a number, ZVP_EINVAL if
 * it is one but not finite (inf, nan, overflow) or nonzero yet read as 0 (underflow). */
static int zvp_axis_number(const char *spec, const char *field, const char *b, const char *e,
                           double *out, zvp_error *err)
{
    char buf[128];
    double v;
    size_t n;
    zvp_decimal_kind k;
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        e--;
    n = (size_t)(e - b);
    if (n == 0 || n >= sizeof buf)
        return zvp_fail(err, ZVP_EPARSE, "axis \"%s\": %s is %s (expected a number)", spec, field,
                        n == 0 ? "empty" : "too long");
    memcpy(buf, b, n);
    buf[n] = '\0';
    k = zvp_decimal_read(buf, &v);
    if (k == ZVP_DECIMAL_UNDERFLOW)
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": %s = %s %s: not a number", spec, field,
                        buf, zvp_decimal_phrase(k));
    if (k == ZVP_DECIMAL_OVERFLOW || (k != ZVP_DECIMAL_OK && zvp_axis_inf_nan(buf)))
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": %s = %s is not finite", spec, field, buf);
    if (k != ZVP_DECIMAL_OK)
        return zvp_fail(err, ZVP_EPARSE, "axis \"%s\": %s \"%s\" is not a number", spec, field,
                        buf);
    *out = v;
    return ZVP_SUCCESS;
}
/* A parameter name: [A-Za-z_][A-Za-z0-9_]*. */
static int zvp_axis_name_ok(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* "LO:HI:STEP" between b and e (exactly two ':'). */
static int zvp_axis_parse_range(const char *spec, const char *b, const char *e, double **values,
                                 size_t *n_values, zvp_error *err)
{
    const char *c1 = memchr(b, ':', (size_t)(e - b));
    const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(e - c1 - 1)) : NULL;
    double lo, hi, step, q, nd;
    size_t n, i;
    double *v;
    int rc;
    if (!c1 || !c2 || memchr(c2 + 1, ':', (size_t)(e - c2 - 1)))
        return zvp_fail(err, ZVP_EPARSE, "axis \"%s\": a range is LO:HI:STEP (three fields)", spec);
    if ((rc = zvp_axis_number(spec, "LO", b, c1, &lo, err)) ||
        (rc = zvp_axis_number(spec, "HI", c1 + 1, c2, &hi, err)) ||
        (rc = zvp_axis_number(spec, "STEP", c2 + 1, e, &step, err)))
        return rc;
    if (!(step > 0))
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": STEP = %.17g must be > 0", spec, step);
    if (hi < lo)
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": HI = %.17g is below LO = %.17g", spec, hi,
                        lo);
    /* Number of steps, with HI included when it is within 1e-9 x (HI - LO) of a grid value,
     * at most half a step (beyond 5e8 steps 1e-9 x (HI - LO) would reach the next step). */
    q = (hi - lo) / step;
    nd = q * (1.0 + ZVP_AXIS_REL_TOL);
    if (nd - q > 0.5)
        nd = q + 0.5;
    nd = isfinite(q) ? floor(nd) + 1.0 : INFINITY;
    if (nd > ZVP_AXIS_MAX_VALUES)
        return zvp_fail(err, ZVP_EINVAL,
                        "axis \"%s\": (HI - LO) / STEP + 1 = %.17g values; more than 10^9 "
                        "values are refused",
                        spec, nd);
    n = (size_t)nd;
    v = malloc(n * sizeof *v);
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "axis \"%s\": cannot allocate %zu values", spec, n);
    for (i = 0; i < n; i++)
        v[i] = lo + (double)i * step; /* computed, never accumulated */
    if (v[n - 1] > hi)
        v[n - 1] = hi; /* HI reached within the tolerance: use HI itself */
    *values = v;
    *n_values = n;
    return ZVP_SUCCESS;
}

/* "V1,V2,..." (or a single value) between b and e. */
static int zvp_axis_parse_list(const char *spec, const char *b, const char *e, double **values,
                                size_t *n_values, zvp_error *err)
{
    size_t n = 1, i = 0;
    const char *p, *f;
    double *v;
    int rc;
    for (p = b; p < e; p++)
        if (*p == ',')
            n++;
    if ((double)n > ZVP_AXIS_MAX_VALUES)
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": %zu values; more than 10^9 values are "
                        "refused", spec, n);
    v = malloc(n * sizeof *v);
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "axis \"%s\": cannot allocate %zu values", spec, n);
    for (f = b, p = b;; p++) {
        if (p == e || *p == ',') {
            char field[32];
            snprintf(field, sizeof field, "value %zu", i + 1);
            if ((rc = zvp_axis_number(spec, field, f, p, &v[i], err))) {
                free(v);
                return rc;
            }
            i++;
            f = p + 1;
            if (p == e)
                break;
        }
    }
    *values = v;
    *n_values = n;
    return ZVP_SUCCESS;
}

int zvp_axis_parse(const char *spec, char **name, double **values, size_t *n_values,
                   zvp_error *err)
{
    const char *eq, *e;
    char *nm;
    int rc;
    if (!spec || !name || !values || !n_values)
        return zvp_fail(err, ZVP_EINVAL,
                        "zvp_axis_parse: spec, name, values and n_values must not be NULL");
    *name = NULL;
    *values = NULL;
    *n_values = 0;
    eq = strchr(spec, '=');
    if (!eq)
        return zvp_fail(err, ZVP_EPARSE,
                        "axis \"%s\": expected NAME=LO:HI:STEP or NAME=V1,V2,... (no '=')", spec);
    nm = zvp_axis_trimdup(spec, eq);
    if (!nm)
        return zvp_fail(err, ZVP_ENOMEM, "axis \"%s\": out of memory", spec);
    if (!zvp_axis_name_ok(nm)) {
        free(nm);
        return zvp_fail(err, ZVP_EPARSE,
                        "axis \"%s\": the name before '=' must be a parameter name "
                        "([A-Za-z_][A-Za-z0-9_]*)",
                        spec);
    }
    e = eq + 1 + strlen(eq + 1);
    if (memchr(eq + 1, ':', (size_t)(e - eq - 1)))
        rc = memchr(eq + 1, ',', (size_t)(e - eq - 1))
                 ? zvp_fail(err, ZVP_EPARSE, "axis \"%s\": mixes ':' (range) and ',' (list)", spec)
                 : zvp_axis_parse_range(spec, eq + 1, e, values, n_values, err);
    else
        rc = zvp_axis_parse_list(spec, eq + 1, e, values, n_values, err);
    if (rc) {
        free(nm);
        return rc;
    }
    *name = nm;
    return ZVP_SUCCESS;
}

