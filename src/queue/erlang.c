/*
 * src/queue/erlang.c - Erlang B and C, and the M/M/c queue (M/M/1 for c = 1).
 *
 * Erlang B is computed by the forward recurrence B_0 = 1, B_j = a B_{j-1} / (j + a B_{j-1}),
 * whose every step is a convex combination in [0, 1]: it never overflows and never forms
 * a^c or c! (models/README.md B1; Gross, Shortle, Thompson & Harris 2008, sec. 2.5).
 * Erlang C follows from B: C = c B / (c - a (1 - B)) (Gross et al. 2008, sec. 2.3).
 */
#include <float.h>
#include <math.h>
#include "queue/qnet.h"

/* Record ZVP_EINVAL unless value is finite and > 0. */
static int check_positive(zvp_error *err, const char *what, double value)
{
    if (!(value > 0.0) || !isfinite(value))
        return zvp_fail(err, ZVP_EINVAL, "%s = %.17g is out of range (0, %.17g]", what, value,
                        DBL_MAX);
    return ZVP_SUCCESS;
}

/* Erlang B by recurrence; arguments already validated. */
static double erlang_b_unchecked(double a, unsigned long c)
{
    double b = 1.0;
    for (unsigned long j = 1; j <= c; j++) {
        double ab = a * b;
        b = ab / ((double)j + ab);
    }
    return b;
}

int zvp_erlang_b(double offered_load, unsigned long servers, double *blocking, zvp_error *err)
{
    int rc;
    if (!blocking)
        return zvp_fail(err, ZVP_EINVAL, "blocking = NULL: an output pointer is required");
    if ((rc = zvp_check_range(err, "offered_load", offered_load, 0.0, DBL_MAX)))
        return rc;
    if (servers > ZVP_MAX_SERVERS)
        return zvp_fail(err, ZVP_EINVAL, "servers = %lu is out of range [0, %lu]", servers,
                        ZVP_MAX_SERVERS);
    *blocking = erlang_b_unchecked(offered_load, servers);
    return ZVP_SUCCESS;
}

/* Erlang C from B, for 0 <= a < c (validated by the caller). */
static double erlang_c_unchecked(double a, unsigned long c)
{
    double b = erlang_b_unchecked(a, c);
    double cd = (double)c;
    double p = cd * b / (cd - a * (1.0 - b));
    return p > 1.0 ? 1.0 : p;
}

int zvp_erlang_c(double offered_load, unsigned long servers, double *pwait, zvp_error *err)
{
    int rc;
    if (!pwait)
        return zvp_fail(err, ZVP_EINVAL, "pwait = NULL: an output pointer is required");
    if ((rc = zvp_check_range(err, "offered_load", offered_load, 0.0, DBL_MAX)))
        return rc;
    if (servers < 1 || servers > ZVP_MAX_SERVERS)
        return zvp_fail(err, ZVP_EINVAL, "servers = %lu is out of range [1, %lu]", servers,
                        ZVP_MAX_SERVERS);
    if (!(offered_load < (double)servers))
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "utilization = offered_load / servers = %.17g / %lu = %.6g >= 1: "
                        "the station is saturated (no steady state)",
                        offered_load, servers, offered_load / (double)servers);
    *pwait = erlang_c_unchecked(offered_load, servers);
    return ZVP_SUCCESS;
}

static void station_result_nan(zvp_station_result *out)
{
    out->throughput_per_s = NAN;
    out->utilization = NAN;
    out->busy_servers = NAN;
    out->mean_in_system = NAN;
    out->mean_in_queue = NAN;
    out->response_s = NAN;
    out->wait_s = NAN;
    out->pwait = NAN;
}

static int zvp_mmc_impl(double arrival_rate_per_s, double service_rate_per_s, unsigned long servers,
            zvp_station_result *out, zvp_error *err)
{
    int rc;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "out = NULL: an output pointer is required");
    station_result_nan(out);
    if ((rc = zvp_check_range(err, "arrival_rate_per_s", arrival_rate_per_s, 0.0, DBL_MAX)))
        return rc;
    if ((rc = check_positive(err, "service_rate_per_s", service_rate_per_s)))
        return rc;
    if (servers < 1 || servers > ZVP_MAX_SERVERS)
        return zvp_fail(err, ZVP_EINVAL, "servers = %lu is out of range [1, %lu]", servers,
                        ZVP_MAX_SERVERS);

    const double c = (double)servers;
    const double capacity_per_s = c * service_rate_per_s; /* may be +inf: then rho = 0 */
    const double a = arrival_rate_per_s / service_rate_per_s;
    const double rho = arrival_rate_per_s / capacity_per_s;
    if (!(arrival_rate_per_s < capacity_per_s) || !(a < c))
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "utilization = arrival_rate_per_s / (servers * service_rate_per_s) = "
                        "%.17g / (%lu * %.17g) = %.6g >= 1: the station is saturated "
                        "(no steady state)",
                        arrival_rate_per_s, servers, service_rate_per_s, rho);

    const double pw = erlang_c_unchecked(a, servers);
    /* Wq = C / (c mu - lambda); c mu - lambda > 0 exactly since lambda < c mu. */
    const double wait_s = pw / (capacity_per_s - arrival_rate_per_s);
    const double lq = arrival_rate_per_s * wait_s;
    if (!isfinite(wait_s) || !isfinite(lq))
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "utilization = %.17g is so close to 1 that the wait is not representable: "
                        "the station is saturated (arrival_rate_per_s = %.17g, "
                        "service_rate_per_s = %.17g, servers = %lu)",
                        rho, arrival_rate_per_s, service_rate_per_s, servers);

    out->throughput_per_s = arrival_rate_per_s;
    out->utilization = rho;
    out->busy_servers = a;
    out->pwait = pw;
    out->wait_s = wait_s;
    out->response_s = wait_s + 1.0 / service_rate_per_s;
    out->mean_in_queue = lq;
    out->mean_in_system = lq + a;
    return ZVP_SUCCESS;
}

int zvp_mmc(double arrival_rate_per_s, double service_rate_per_s, unsigned long servers,
            zvp_station_result *out, zvp_error *err)
{
    return zvp_station_finite(zvp_mmc_impl(arrival_rate_per_s, service_rate_per_s, servers, out, err), out, "zvp_mmc", err);
}
