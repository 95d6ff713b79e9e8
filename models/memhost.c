/*
 * models/memhost.c - shared core of the z/VM host memory models (overcommit, fsio): Che's
 * characteristic-time residency, the paging DASD as an M/M/c queue with the throughput fixed
 * point, and the VMRM-CMM loop's steady state.
 *
 * Equations and sources: models/README.md, section "memhost".
 */

#include <math.h>
#include <stddef.h>
#include "memhost.h"
#include "zvmperf/queue.h"
#include "internal.h"

double zvp_memhost_hit(double rate_per_s, double t)
{
    if (isinf(t))
        return 1.0;
    return -expm1(-rate_per_s * t);
}

/* e^x E1(x), x > 0: the series of E1 for x <= 1, the continued fraction (modified Lentz)
 * beyond (Abramowitz & Stegun 5.1.11 and 5.1.22). */
static double e1_scaled(double x)
{
    if (x <= 1.0) {
        double sum = 0.0, term = 1.0;
        for (int k = 1; k < 60; k++) {
            term *= -x / k;
            sum += term / k;
            if (fabs(term) < 1e-17 * fabs(sum))
                break;
        }
        return exp(x) * (-0.57721566490153286061 - log(x) - sum);
    }
    {
        double b = x + 1.0, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
        for (int i = 1; i < 300; i++) {
            const double an = -(double)i * i;
            b += 2.0;
            d = 1.0 / (an * d + b);
            c = b + an / c;
            h *= c * d;
            if (fabs(c * d - 1.0) < 1e-16)
                break;
        }
        return h;
    }
}

/* (E1(a) - E1(b)) for 0 < a < b, without overflow or cancellation of the scaled parts. */
static double e1_diff(double a, double b)
{
    return exp(-a) * e1_scaled(a) - exp(-b) * e1_scaled(b);
}

static int spread_of(const zvp_memhost_class *c)
{
    return c->spread > 1.0 && isfinite(c->spread);
}

double zvp_memhost_class_hit(const zvp_memhost_class *c, double t)
{
    double a, b;
    if (!spread_of(c))
        return zvp_memhost_hit(c->rate_per_s, t);
    if (isinf(t))
        return 1.0;
    if (!(t > 0.0))
        return 0.0;
    a = c->rate_per_s * t / c->spread;
    b = c->rate_per_s * t * c->spread;
    return fmin(1.0, fmax(0.0, 1.0 - e1_diff(a, b) / (2.0 * log(c->spread))));
}

/* misses per page per unit of time (the derivative of the resident share in T) */
static double miss_rate(const zvp_memhost_class *c, double t)
{
    if (!spread_of(c))
        return c->rate_per_s * exp(-c->rate_per_s * t);
    if (!(t > 0.0)) /* the mean rate of the log-uniform spread */
        return c->rate_per_s * (c->spread - 1.0 / c->spread) / (2.0 * log(c->spread));
    return (exp(-c->rate_per_s * t / c->spread) - exp(-c->rate_per_s * t * c->spread)) /
           (2.0 * t * log(c->spread));
}

double zvp_memhost_misses(const zvp_memhost_class *c, double t)
{
    if (isinf(t))
        return 0.0;
    return c->size_gb * ZVP_MEMHOST_PAGES_PER_GIB * miss_rate(c, t);
}

/* f(T) = pinned + sum n_i (1 - e^{-lambda_i T}) - capacity and its derivative. */
static double che_gap(const zvp_memhost_class *cls, size_t n, double pinned, double cap,
                      double t, double *df)
{
    double f = pinned - cap, d = 0.0;
    for (size_t i = 0; i < n; i++) {
        f += cls[i].size_gb * zvp_memhost_class_hit(&cls[i], t);
        d += cls[i].size_gb * miss_rate(&cls[i], t);
    }
    *df = d;
    return f;
}

int zvp_memhost_char_time(const zvp_memhost_class *cls, size_t n, double pinned_gb,
                          double capacity_gb, double *t_out, zvp_error *err)
{
    double total = pinned_gb, lo = 0.0, hi, t, df, rmax = 0.0;
    if (n > ZVP_MEMHOST_MAX_CLASSES)
        return zvp_fail(err, ZVP_EINVAL, "memhost: %zu page classes, at most %d", n,
                        ZVP_MEMHOST_MAX_CLASSES);
    if (!(pinned_gb >= 0.0) || !isfinite(pinned_gb) || !(capacity_gb >= 0.0) ||
        !isfinite(capacity_gb))
        return zvp_fail(err, ZVP_EINVAL,
                        "memhost: pinned memory %.17g GiB and capacity %.17g GiB must be finite "
                        "and >= 0",
                        pinned_gb, capacity_gb);
    for (size_t i = 0; i < n; i++) {
        if (!(cls[i].size_gb >= 0.0) || !isfinite(cls[i].size_gb) || !(cls[i].rate_per_s > 0.0) ||
            !isfinite(cls[i].rate_per_s))
            return zvp_fail(err, ZVP_EINVAL,
                            "memhost: page class %zu: size %.17g GiB must be finite and >= 0, "
                            "reference rate %.17g must be finite and > 0",
                            i, cls[i].size_gb, cls[i].rate_per_s);
        total += cls[i].size_gb;
        if (cls[i].size_gb > 0.0)
            rmax = fmax(rmax, cls[i].rate_per_s * (spread_of(&cls[i]) ? cls[i].spread : 1.0));
    }
    if (total <= capacity_gb) {
        *t_out = INFINITY;
        return ZVP_SUCCESS;
    }
    if (pinned_gb >= capacity_gb)
        return zvp_fail(err, ZVP_EINVAL,
                        "memhost: pinned (fixed) memory %.17g GiB fills the capacity %.17g GiB: "
                        "no frames left for pageable pages",
                        pinned_gb, capacity_gb);
    hi = 1.0 / rmax;
    for (int i = 0; i < 2100 && che_gap(cls, n, pinned_gb, capacity_gb, hi, &df) < 0.0; i++) {
        lo = hi;
        hi *= 2.0;
    }
    t = lo;
    for (int i = 0; i < 400 && hi - lo > 1e-14 * hi; i++) {
        const double f = che_gap(cls, n, pinned_gb, capacity_gb, t, &df);
        double next;
        if (f == 0.0) {
            lo = hi = t;
            break;
        }
        if (f < 0.0)
            lo = t;
        else
            hi = t;
        next = df > 0.0 ? t - f / df : 0.5 * (lo + hi);
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        t = next;
    }
    *t_out = 0.5 * (lo + hi);
    return ZVP_SUCCESS;
}

int zvp_memhost_dasd_read(const zvp_memhost_dasd *d, double reads_per_s, double writes_per_s,
                          double *util, double *read_time_s, zvp_error *err)
{
    const double blocks = writes_per_s / d->pages_per_write, io = reads_per_s + blocks;
    const double a = reads_per_s * d->read_s + blocks * d->write_s;
    zvp_station_result q;
    int st;
    *util = a / (double)d->volumes;
    *read_time_s = d->read_s;
    /* no load, or a service time so short (subnormal) that the service rate io / a
     * overflows: no queueing that a double resolves, the read takes its service time */
    if (io <= 0.0 || a <= 0.0 || !isfinite(io / a))
        return ZVP_SUCCESS;
    if (a >= (double)d->volumes)
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "memhost: paging DASD utilization %.6g >= 1 (%.6g page reads/s, %.6g "
                        "page writes/s on paging_volumes = %lu): saturated",
                        *util, reads_per_s, writes_per_s, d->volumes);
    if ((st = zvp_mmc(io, io / a, d->volumes, &q, err)) != ZVP_SUCCESS)
        return st;
    *read_time_s = q.wait_s + d->read_s;
    return ZVP_SUCCESS;
}

/* g(x) = f(R(x)) - x; -x where the DASD saturates (*sat = 1 there, else 0). */
static int fp_gap(const zvp_memhost_dasd *d, double r, zvp_memhost_xfun f, const void *ctx,
                  double x, double *g, int *sat, zvp_error *err)
{
    double u, rt, xm;
    int st;
    *sat = zvp_memhost_dasd_read(d, x * r, x * r, &u, &rt, NULL) != ZVP_SUCCESS;
    if (*sat) {
        *g = -x;
        return ZVP_SUCCESS;
    }
    if ((st = f(ctx, rt, &xm, err)) != ZVP_SUCCESS)
        return st;
    *g = xm - x;
    return ZVP_SUCCESS;
}

/* No steady state: the reads do not throttle the work that offers them up to saturation. */
static int fp_unthrottled(const zvp_memhost_dasd *d, double r, double x_sat, double x_free,
                          zvp_error *err)
{
    return zvp_fail(err, ZVP_EUNSTABLE,
                    "memhost: the paging DASD saturates: %.9g page reads (and as many page "
                    "writes, in blocks of pages_per_write) per unit of work on paging_volumes = "
                    "%lu allow at most %.9g units of work/s, the work offers %.9g/s at the "
                    "unloaded read time and the read time does not throttle it (no steady state "
                    "with a finite read time)",
                    r, d->volumes, x_sat, x_free);
}

int zvp_memhost_paging_fixed_point(const zvp_memhost_dasd *d, double r, zvp_memhost_xfun f,
                                   const void *ctx, double *x_out, double *util,
                                   double *read_time_s, zvp_error *err)
{
    double lo = 0.0, hi, glo, ghi, x_sat, x_free;
    int st, side = 0, sat, hi_sat;
    if ((st = f(ctx, d->read_s, &hi, err)) != ZVP_SUCCESS)
        return st;
    glo = x_free = hi;
    x_sat = r > 0.0 ? (double)d->volumes / (r * (d->read_s + d->write_s / d->pages_per_write))
                    : INFINITY;
    const int capped = hi >= x_sat;
    if (capped)
        hi = x_sat;
    if ((st = fp_gap(d, r, f, ctx, hi, &ghi, &hi_sat, err)) != ZVP_SUCCESS)
        return st;
    /* at x_sat the DASD is saturated, or (rounding) one ulp below it with a read time of
     * centuries: if the work still offers at least x_sat there, nothing throttles it */
    if (capped && ghi >= 0.0)
        return fp_unthrottled(d, r, x_sat, x_free, err);
    if (ghi >= 0.0) {
        lo = hi;
        glo = ghi;
    }
    for (int i = 0; i < 200 && ghi < 0.0 && hi - lo > 1e-13 * hi; i++) {
        double x = hi - ghi * (hi - lo) / (ghi - glo), gx;
        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        if ((st = fp_gap(d, r, f, ctx, x, &gx, &sat, err)) != ZVP_SUCCESS)
            return st;
        if (gx == 0.0) {
            lo = hi = x;
            hi_sat = 0;
            break;
        }
        if (gx > 0.0) {
            lo = x;
            glo = gx;
            if (side == 1)
                ghi *= 0.5;
            side = 1;
        } else {
            hi = x;
            ghi = gx;
            hi_sat = sat;
            if (side == -1)
                glo *= 0.5;
            side = -1;
        }
    }
    /* Every throughput below the bracket's upper end still reads pages faster than the
     * throughput it gets back (g > 0) and the upper end saturates the DASD: the root is the
     * saturation itself, where the page reads throttle nothing (no blocking on a read, or one so
     * small that the read time consistent with it exceeds what a double resolves). No steady
     * state with a finite read time. */
    if (ghi < 0.0 && hi_sat)
        return fp_unthrottled(d, r, x_sat, x_free, err);
    *x_out = 0.5 * (lo + hi);
    if (zvp_memhost_dasd_read(d, *x_out * r, *x_out * r, util, read_time_s, NULL) != ZVP_SUCCESS)
        *x_out = lo;
    if (!(*x_out > 0.0))
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "memhost: paging DASD saturated at any positive throughput");
    return zvp_memhost_dasd_read(d, *x_out * r, *x_out * r, util, read_time_s, err);
}

/* Illinois regula falsi for s(B) = target on [lo, hi] with s(lo) > target >= s(hi). */
static int vmrm_root(zvp_memhost_signal s, const void *ctx, double target, double lo, double slo,
                     double hi, double shi, double tol, double *b_out, zvp_error *err)
{
    double glo = slo - target, ghi = shi - target;
    int st, side = 0;
    for (int i = 0; i < 200 && hi - lo > tol && ghi < 0.0; i++) {
        double b = hi - ghi * (hi - lo) / (ghi - glo), v;
        if (!(b > lo && b < hi))
            b = 0.5 * (lo + hi);
        if ((st = s(ctx, b, &v, err)) != ZVP_SUCCESS)
            return st;
        v -= target;
        if (v > 0.0) {
            lo = b;
            glo = v;
            if (side == 1)
                ghi *= 0.5;
            side = 1;
        } else {
            hi = b;
            ghi = v;
            if (side == -1)
                glo *= 0.5;
            side = -1;
        }
    }
    *b_out = ghi == 0.0 ? hi : 0.5 * (lo + hi);
    return ZVP_SUCCESS;
}

int zvp_memhost_vmrm_steady(zvp_memhost_signal s, const void *ctx, double target, double b_max,
                            double *b_out, zvp_error *err)
{
    enum { SCAN = 16 };
    double lo = 0.0, slo, v;
    int st;
    if ((st = s(ctx, 0.0, &slo, err)) != ZVP_SUCCESS)
        return st;
    if (slo <= target || b_max <= 0.0) {
        *b_out = 0.0;
        return ZVP_SUCCESS;
    }
    /* VMRM starts from no balloon and SHRINKs while constrained: the steady state is the first
     * B with s(B) <= target, bracketed on a grid from B = 0 up, then Illinois inside */
    for (int k = 1; k <= SCAN; k++) {
        const double b = b_max * (double)k / SCAN;
        if ((st = s(ctx, b, &v, err)) != ZVP_SUCCESS)
            return st;
        if (v <= target)
            return vmrm_root(s, ctx, target, lo, slo, b, v, 1e-10 * b_max, b_out, err);
        lo = b;
        slo = v;
    }
    *b_out = b_max;
    return ZVP_SUCCESS;
}
