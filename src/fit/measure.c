/*
 * src/fit/measure.c - measurements as stated: bounds ("< 5", "> 2"), intervals ("2.7..3.0")
 * and sigmas (a cell's "X +- S", [sigma] in fit files, the precision of a printed value),
 * and the residual and percentage error of such a cell (calibration/README.md, "Measurements
 * as stated"); the variance a cell's printed text states (rounding of its last digit, a
 * stated sigma), the floor of a fit's residual variance (calibration/README.md, "Covariance
 * in model files").
 */
#include <stdlib.h>
#include <string.h>
#include "fit/fit_impl.h"

/* The annotation arrays of fit for n_rows rows (NaN-filled), allocated or grown. */
static int cells_grow(zvp_fit *fit, size_t n_rows)
{
    zvp_fit_extra *x = zvp_fit_extra_get(fit);
    size_t nm = fit->n_match, old;
    double **arr[3];
    if (!x)
        return ZVP_ENOMEM;
    if (x->n_cell_rows >= n_rows)
        return ZVP_SUCCESS;
    arr[0] = &x->zlo;
    arr[1] = &x->zhi;
    arr[2] = &x->sigma;
    old = x->n_cell_rows * nm;
    for (int a = 0; a < 3; a++) {
        double *v = realloc(*arr[a], (n_rows * nm + 1) * sizeof *v);
        if (!v)
            return ZVP_ENOMEM;
        for (size_t k = old; k < n_rows * nm; k++)
            v[k] = NAN;
        *arr[a] = v;
    }
    x->n_cell_rows = n_rows;
    return ZVP_SUCCESS;
}

int zvp_fit_set_cell(zvp_fit *fit, size_t i, size_t j, double lo, double hi, double sigma,
                     zvp_error *err)
{
    size_t c;
    if (!fit)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_set_cell: fit is NULL");
    if (i >= fit->n_rows || j >= fit->n_match)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: cell (row %zu, output %zu) is out of range: rows [0, %zu), matched "
                        "outputs [0, %zu)", zvp_fit_name(fit), i, j, fit->n_rows, fit->n_match);
    c = i * fit->n_match + j;
    if (isnan(fit->measured[c]))
        return zvp_fail(err, ZVP_EINVAL, "%s: cell (row %zu (%s), output %s) is not measured",
                        zvp_fit_name(fit), i, fit->labels[i],
                        fit->model->outputs[fit->match[j].index].name);
    if (isnan(lo) != isnan(hi) || (!isnan(lo) && !(lo < hi)) || (isinf(lo) && isinf(hi)))
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: cell (row %zu (%s), output %s): zone [%g, %g] must have lo < hi and "
                        "at least one finite end (both NaN: a point value)", zvp_fit_name(fit),
                        i, fit->labels[i], fit->model->outputs[fit->match[j].index].name, lo, hi);
    if (!isnan(sigma) && !(sigma > 0.0 && isfinite(sigma)))
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: cell (row %zu (%s), output %s): sigma = %g is out of range (0, inf)",
                        zvp_fit_name(fit), i, fit->labels[i],
                        fit->model->outputs[fit->match[j].index].name, sigma);
    if (cells_grow(fit, fit->n_rows))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", zvp_fit_name(fit));
    fit->extra->zlo[c] = lo;
    fit->extra->zhi[c] = hi;
    fit->extra->sigma[c] = sigma;
    return ZVP_SUCCESS;
}

void zvp_fit_cell(const zvp_fit *fit, size_t i, size_t j, double *lo, double *hi, double *sigma)
{
    const zvp_fit_extra *x = fit ? fit->extra : NULL;
    size_t c = fit ? i * fit->n_match + j : 0;
    int ok = x && i < x->n_cell_rows && i < fit->n_rows && j < fit->n_match;
    if (lo)
        *lo = ok ? x->zlo[c] : NAN;
    if (hi)
        *hi = ok ? x->zhi[c] : NAN;
    if (sigma)
        *sigma = ok ? x->sigma[c] : NAN;
}

int zvp_fit_cell_is_zone(const zvp_fit *fit, size_t i, size_t j)
{
    double lo;
    zvp_fit_cell(fit, i, j, &lo, NULL, NULL);
    return !isnan(lo);
}

double zvp_fit_cell_error(const zvp_fit *fit, size_t i, size_t j, double f, double *ref,
                          double *sigma)
{
    double y = fit->measured[i * fit->n_match + j], lo, hi;
    zvp_fit_cell(fit, i, j, &lo, &hi, sigma);
    *ref = NAN;
    if (isnan(y) || isnan(f))
        return NAN;
    if (isnan(lo)) {
        *ref = fabs(y);
        return f - y;
    }
    if (f < lo) {
        *ref = fabs(lo);
        return f - lo;
    }
    if (f > hi) {
        *ref = fabs(hi);
        return f - hi;
    }
    /* inside: the error is 0; ref is the nearer finite end (for the relative checks) */
    *ref = isinf(lo) ? fabs(hi) : isinf(hi) ? fabs(lo) : fmin(fabs(lo), fabs(hi));
    return 0.0;
}

double zvp_fit_cell_residual(const zvp_fit *fit, size_t i, size_t j, double f, int absolute)
{
    double ref, sigma, e = zvp_fit_cell_error(fit, i, j, f, &ref, &sigma);
    double w = fit->match[j].weight;
    if (isnan(e))
        return NAN;
    if (!isnan(sigma))
        return w * e / sigma;
    if (absolute)
        return w * e;
    return e == 0.0 ? 0.0 : w * e / ref;
}

/* Has a cell with reference ref and sigma a relative error (not near zero)? */
static int relative_ok(double ref, double sigma)
{
    return ref >= ZVP_FIT_REL_MIN && (isnan(sigma) || ref > sigma);
}

int zvp_fit_cell_has_relative(const zvp_fit *fit, size_t i, size_t j, double f)
{
    double ref, sigma, e = zvp_fit_cell_error(fit, i, j, f, &ref, &sigma);
    return !isnan(e) && relative_ok(ref, sigma);
}

double zvp_fit_cell_ape(const zvp_fit *fit, size_t i, size_t j, double f)
{
    double ref, sigma, e = zvp_fit_cell_error(fit, i, j, f, &ref, &sigma);
    if (isnan(e) || !relative_ok(ref, sigma))
        return NAN;
    return 100.0 * fabs(e) / ref;
}

double zvp_fit_cell_pct(const zvp_fit *fit, size_t i, size_t j, double f)
{
    double y = fit->measured[i * fit->n_match + j];
    if (!zvp_fit_cell_has_relative(fit, i, j, f) || !(fabs(y) >= ZVP_FIT_REL_MIN))
        return NAN;
    return 100.0 * (f - y) / fabs(y);
}

int zvp_fit_cells_subset(const zvp_fit *src, zvp_fit *dst, const size_t *rows, size_t n)
{
    const zvp_fit_extra *x = src->extra;
    size_t nm = src->n_match;
    if (!x || x->n_cell_rows == 0)
        return ZVP_SUCCESS;
    if (cells_grow(dst, n))
        return ZVP_ENOMEM;
    for (size_t a = 0; a < n; a++) {
        if (rows[a] >= x->n_cell_rows)
            continue;
        memcpy(dst->extra->zlo + a * nm, x->zlo + rows[a] * nm, nm * sizeof(double));
        memcpy(dst->extra->zhi + a * nm, x->zhi + rows[a] * nm, nm * sizeof(double));
        memcpy(dst->extra->sigma + a * nm, x->sigma + rows[a] * nm, nm * sizeof(double));
    }
    return ZVP_SUCCESS;
}

/* ---- parsing ---- */

/* Skip spaces and tabs. */
static const char *skip(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

int zvp_measure_strict(const char *text)
{
    const char *s = skip(text);
    if ((*s == '<' || *s == '>') && s[1] != '=')
        return *s == '<' ? -1 : 1;
    return 0;
}

/* Parse the number in s[0..len) (copied, at most 63 bytes). 0 or -1. */
static int number_n(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return zvp_parse_double(buf, out);
}

int zvp_measure_parse(const char *text, double *y, double *lo, double *hi, double *sigma,
                      int *sigma_rel)
{
    const char *s = skip(text), *dots, *pm;
    double a, b;
    size_t pm_len = 2;
    *lo = *hi = *sigma = NAN;
    *sigma_rel = 0;
    if (*s == '<' || *s == '>') {
        int less = *s == '<';
        s += s[1] == '=' ? 2 : 1;
        if (zvp_parse_double(s, &a))
            return -1;
        *y = a;
        *lo = less ? -INFINITY : a;
        *hi = less ? a : INFINITY;
        return 0;
    }
    if ((dots = strstr(s, "..")) != NULL) {
        if (number_n(s, (size_t)(dots - s), &a) || zvp_parse_double(dots + 2, &b) || !(a < b))
            return -1;
        *lo = a;
        *hi = b;
        *y = 0.5 * (a + b);
        return 0;
    }
    pm = strstr(s, "+-");
    if (!pm && (pm = strstr(s, "\xc2\xb1")) == NULL)
        return -1;
    if (number_n(s, (size_t)(pm - s), &a))
        return -1;
    {
        const char *t = skip(pm + pm_len);
        size_t len = strlen(t);
        while (len > 0 && (t[len - 1] == ' ' || t[len - 1] == '\t'))
            len--;
        if (len > 0 && t[len - 1] == '%') {
            *sigma_rel = 1;
            len--;
        }
        if (number_n(t, len, &b) || !(b > 0.0))
            return -1;
        *y = a;
        *sigma = *sigma_rel ? 0.01 * b * fabs(a) : b;
    }
    return 0;
}

int zvp_measure_decimals(const char *text, long *dec)
{
    const char *s = skip(text), *e, *point;
    double v;
    long ex = 0, frac = 0;
    if (zvp_parse_double(s, &v))
        return -1;
    e = strpbrk(s, "eE");
    if (e) { /* clamped: a finite double's exponent stays within +-400 (0e-99999: 0 decimals
              * either way), and frac - ex must not overflow */
        long x = strtol(e + 1, NULL, 10);
        ex = x < -400 ? -400 : x > 400 ? 400 : x;
    } else {
        e = s + strlen(s);
    }
    point = memchr(s, '.', (size_t)(e - s));
    if (point)
        for (const char *c = point + 1; c < e && *c >= '0' && *c <= '9'; c++)
            frac++;
    *dec = frac - ex;
    return 0;
}

double zvp_measure_half_digit(const char *text)
{
    long d;
    return zvp_measure_decimals(text, &d) ? NAN : 0.5 * pow(10.0, (double)-d);
}

double zvp_measure_rounding_variance(const char *text)
{
    long d;
    double unit;
    if (zvp_measure_decimals(text, &d))
        return NAN;
    unit = pow(10.0, (double)-d); /* a uniform error on +- unit / 2: variance unit^2 / 12 */
    return unit * unit / 12.0;
}

double zvp_fit_cell_floor(const zvp_fit *fit, size_t i, size_t j, int absolute, double k)
{
    const char *t;
    double y, lo, hi, s, v, sd;
    int rel;
    if (i >= fit->n_rows || j >= fit->n_match || isnan(fit->measured[i * fit->n_match + j]) ||
        !(t = zvp_fit_row_column(fit, i, fit->match[j].column)))
        return 0.0;
    if (zvp_measure_parse(t, &y, &lo, &hi, &s, &rel) == 0) {
        if (!isnan(lo))
            return 0.0; /* a bound or an interval: the zone is the statement, no scatter */
        v = s * s;      /* x +- s: the scatter the cell states */
        sd = fabs(s);
    } else if (zvp_parse_double(skip(t), &y) || isnan(v = zvp_measure_rounding_variance(t))) {
        return 0.0;
    } else {
        sd = zvp_measure_half_digit(t) / sqrt(3.0); /* sd of a uniform error on +- half a digit */
    }
    if (absolute)
        v = isfinite(k) ? v * k * k : NAN;
    else
        v = y != 0.0 ? v / (y * y) : NAN;
    /* a huge value and its huge rounding unit (1e308 printed "1e308") overflow the squares:
     * then the ratio first; no floor where it is not finite */
    if (!isfinite(v) && !absolute && y != 0.0)
        v = (sd / fabs(y)) * (sd / fabs(y));
    return isfinite(v) ? v : 0.0;
}
