/*
 * src/queue/single.c - M/M/c/K (and so M/M/1/K, M/M/c/c) and M/M/infinity.
 *
 * M/M/c/K is the birth-death chain on k = 0..K with birth rate lambda and death rate
 * min(k, c) mu (Gross, Shortle, Thompson & Harris 2008, sec. 2.5-2.6). With a = lambda/mu,
 * p_k / p_{k-1} = r_k = a / min(k, c), non-increasing in k, so p is unimodal. The weights are
 * built as products of ratios outward from the mode (weight 1 there), so every weight is
 * in (0, 1]: no a^k, no k!, no overflow for any c or K; the walk stops when a weight falls
 * below 1e-300 (everything beyond adds less than K 1e-300 to any sum).
 */
#include <float.h>
#include <math.h>
#include "queue/qnet.h"

#define WEIGHT_FLOOR 1e-300

static void station_nan(zvp_station_result *out)
{
    out->throughput_per_s = out->utilization = out->busy_servers = NAN;
    out->mean_in_system = out->mean_in_queue = out->response_s = NAN;
    out->wait_s = out->pwait = NAN;
}

static int check_rates(double lambda, double mu, zvp_error *err)
{
    int rc;
    if ((rc = zvp_check_range(err, "arrival_rate_per_s", lambda, 0.0, DBL_MAX)))
        return rc;
    if (!(mu > 0.0) || !isfinite(mu))
        return zvp_fail(err, ZVP_EINVAL, "service_rate_per_s = %.17g is out of range (0, %.17g]",
                        mu, DBL_MAX);
    return ZVP_SUCCESS;
}

/* Ratio p_k/p_{k-1}, k >= 1. */
static double ratio(double a, unsigned long c, unsigned long k)
{
    return a / (double)(k < c ? k : c);
}

static int zvp_mmck_impl(double arrival_rate_per_s, double service_rate_per_s, unsigned long servers,
             unsigned long capacity, zvp_station_result *out, double *pblock, zvp_error *err)
{
    int rc;
    if (pblock)
        *pblock = NAN;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "out = NULL: an output pointer is required");
    station_nan(out);
    if ((rc = check_rates(arrival_rate_per_s, service_rate_per_s, err)))
        return rc;
    if (servers < 1 || servers > ZVP_MAX_SERVERS)
        return zvp_fail(err, ZVP_EINVAL, "servers = %lu is out of range [1, %lu]", servers,
                        ZVP_MAX_SERVERS);
    if (capacity < servers || capacity > ZVP_MAX_CUSTOMERS)
        return zvp_fail(err, ZVP_EINVAL, "capacity = %lu is out of range [servers = %lu, %lu]",
                        capacity, servers, ZVP_MAX_CUSTOMERS);
    const double lambda = arrival_rate_per_s, mu = service_rate_per_s;
    const unsigned long c = servers, K = capacity;
    if (lambda == 0.0) {
        out->throughput_per_s = out->utilization = out->busy_servers = 0.0;
        out->mean_in_system = out->mean_in_queue = out->wait_s = out->pwait = 0.0;
        out->response_s = 1.0 / mu;
        if (pblock)
            *pblock = 0.0;
        return ZVP_SUCCESS;
    }
    const double a = lambda / mu; /* may be +inf only if lambda/mu overflows: treat below */
    unsigned long mode;
    if (!isfinite(a) || a >= (double)c)
        mode = K; /* r_k >= 1 for all k */
    else
        mode = a >= (double)K ? K : (unsigned long)floor(a);
    while (mode < K && ratio(a, c, mode + 1) >= 1.0)
        mode++;
    while (mode > 0 && ratio(a, c, mode) < 1.0)
        mode--;

    zvp_ksum s0 = {0, 0}, s1 = {0, 0}, sb = {0, 0}, sq = {0, 0}, sw = {0, 0};
    double pk_weight = 0.0; /* weight of state K */
    double w = 1.0;
    for (unsigned long k = mode;; k++) {
        if (k > mode)
            w *= ratio(a, c, k);
        if (w < WEIGHT_FLOOR)
            break;
        zvp_ksum_add(&s0, w);
        zvp_ksum_add(&s1, (double)k * w);
        zvp_ksum_add(&sb, (double)(k < c ? k : c) * w);
        if (k > c)
            zvp_ksum_add(&sq, (double)(k - c) * w);
        if (k >= c && k < K)
            zvp_ksum_add(&sw, w);
        if (k == K) {
            pk_weight = w;
            break;
        }
    }
    w = 1.0;
    for (unsigned long k = mode; k > 0; k--) {
        w /= ratio(a, c, k); /* weight of k - 1 */
        if (w < WEIGHT_FLOOR)
            break;
        unsigned long j = k - 1;
        zvp_ksum_add(&s0, w);
        zvp_ksum_add(&s1, (double)j * w);
        zvp_ksum_add(&sb, (double)(j < c ? j : c) * w);
        if (j > c)
            zvp_ksum_add(&sq, (double)(j - c) * w);
        if (j >= c && j < K)
            zvp_ksum_add(&sw, w);
    }
    const double norm = zvp_ksum_value(&s0);
    const double pk = pk_weight / norm;
    const double busy = zvp_ksum_value(&sb) / norm;
    const double l = zvp_ksum_value(&s1) / norm;
    const double lq = zvp_ksum_value(&sq) / norm;
    /* X = lambda (1 - p_K) = busy mu; take the better-conditioned side. */
    const double x = pk < 0.5 ? lambda * (1.0 - pk) : busy * mu;
    out->throughput_per_s = x;
    out->busy_servers = x / mu;
    out->utilization = x / mu / (double)c;
    out->mean_in_system = l;
    out->mean_in_queue = lq;
    out->response_s = l / x;
    out->wait_s = lq / x;
    out->pwait = (1.0 - pk) > 0.0 ? fmin(1.0, zvp_ksum_value(&sw) / norm / (1.0 - pk)) : 1.0;
    if (pblock)
        *pblock = pk;
    return ZVP_SUCCESS;
}

static int zvp_mminf_impl(double arrival_rate_per_s, double service_rate_per_s, zvp_station_result *out,
              zvp_error *err)
{
    int rc;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "out = NULL: an output pointer is required");
    station_nan(out);
    if ((rc = check_rates(arrival_rate_per_s, service_rate_per_s, err)))
        return rc;
    const double a = arrival_rate_per_s / service_rate_per_s;
    if (!isfinite(a))
        return zvp_fail(err, ZVP_EINVAL,
                        "arrival_rate_per_s / service_rate_per_s = %.17g / %.17g overflows: "
                        "the offered load must be in [0, %.17g]",
                        arrival_rate_per_s, service_rate_per_s, DBL_MAX);
    out->throughput_per_s = arrival_rate_per_s;
    out->utilization = 0.0;
    out->busy_servers = a;
    out->mean_in_system = a;
    out->mean_in_queue = 0.0;
    out->response_s = 1.0 / service_rate_per_s;
    out->wait_s = 0.0;
    out->pwait = 0.0;
    return ZVP_SUCCESS;
}

int zvp_mmck(double arrival_rate_per_s, double service_rate_per_s, unsigned long servers,
             unsigned long capacity, zvp_station_result *out, double *pblock, zvp_error *err)
{
    return zvp_station_finite(zvp_mmck_impl(arrival_rate_per_s, service_rate_per_s, servers, capacity, out, pblock, err), out, "zvp_mmck", err);
}

int zvp_mminf(double arrival_rate_per_s, double service_rate_per_s, zvp_station_result *out,
              zvp_error *err)
{
    return zvp_station_finite(zvp_mminf_impl(arrival_rate_per_s, service_rate_per_s, out, err), out, "zvp_mminf", err);
}
