/*
 * src/queue/repairman.c - finite-source M/M/c//N ("machine repairman").
 *
 * Birth-death chain on k = number of sources at the station (waiting or in service):
 * birth rate (N - k)/Z, death rate min(k, c)/S (Kleinrock 1975, sec. 3.8-3.9). With
 * l_k = log p_k - log p_mode,
 *     l_k = l_{k-1} + log r_k,   r_k = (N - k + 1) S / (Z min(k, c)),
 * and r_k decreases in k, so p_k is unimodal. The walk starts at the mode (l = 0, the
 * maximum: that is the log-sum-exp shift) and goes outwards in both directions until the
 * terms drop below e^-750 relative to the mode; everything beyond contributes less than
 * N^2 e^-750 < 1e-300 to any sum. Cost O(N) in the worst case (far less in practice),
 * O(1) memory, exact for any N <= ZVP_MAX_CUSTOMERS: no factorial or power is formed.
 */
#include <float.h>
#include <math.h>
#include "queue/qnet.h"

/* Terms with log weight below this (relative to the mode) are dropped. */
#define LOG_WEIGHT_FLOOR (-750.0)

/* Moments of the chain with n sources (n >= 1), c servers, log(S/Z) = lsz (finite). */
typedef struct {
    double mean_in_system; /* E[k] */
    double busy_servers;   /* E[min(k, c)] */
    double mean_in_queue;  /* E[max(k - c, 0)] */
    double p_all_busy;     /* P(k >= c) */
} chain_moments;

static double log_ratio(unsigned long n, unsigned long c, double lsz, unsigned long k)
{
    unsigned long busy = k < c ? k : c;
    return log((double)(n - k + 1) / (double)busy) + lsz;
}

static void chain_solve(unsigned long n, unsigned long c, double lsz, double z_over_s,
                        chain_moments *m)
{
    /* Mode estimate from r_k >= 1: k <= (n+1)/(1 + Z/S) while k <= c; then k <= n+1 - c Z/S. */
    double nd = (double)n, cd = (double)c;
    double ka = floor((nd + 1.0) / (1.0 + z_over_s));
    unsigned long mode;
    if (ka < cd) {
        mode = ka <= 0.0 ? 0 : (ka >= nd ? n : (unsigned long)ka);
    } else if (c >= n) {
        mode = n;
    } else {
        double kb = floor(nd + 1.0 - cd * z_over_s);
        mode = kb >= nd ? n : (kb <= cd ? c : (unsigned long)kb);
    }
    if (mode > n)
        mode = n;
    /* Exact correction of the estimate (a few steps at most). */
    while (mode < n && log_ratio(n, c, lsz, mode + 1) >= 0.0)
        mode++;
    while (mode > 0 && log_ratio(n, c, lsz, mode) < 0.0)
        mode--;

    zvp_ksum s0 = {0, 0}, s1 = {0, 0}, sb = {0, 0}, sq = {0, 0}, sp = {0, 0};
    /* upward from the mode (inclusive) */
    double l = 0.0;
    for (unsigned long k = mode;; k++) {
        if (k > mode)
            l += log_ratio(n, c, lsz, k);
        if (l < LOG_WEIGHT_FLOOR)
            break;
        double w = exp(l);
        zvp_ksum_add(&s0, w);
        zvp_ksum_add(&s1, (double)k * w);
        zvp_ksum_add(&sb, (double)(k < c ? k : c) * w);
        if (k >= c) {
            zvp_ksum_add(&sq, (double)(k - c) * w);
            zvp_ksum_add(&sp, w);
        }
        if (k == n)
            break;
    }
    /* downward from mode - 1 */
    l = 0.0;
    for (unsigned long k = mode; k > 0; k--) {
        l -= log_ratio(n, c, lsz, k); /* l_{k-1} = l_k - log r_k */
        if (l < LOG_WEIGHT_FLOOR)
            break;
        unsigned long j = k - 1;
        double w = exp(l);
        zvp_ksum_add(&s0, w);
        zvp_ksum_add(&s1, (double)j * w);
        zvp_ksum_add(&sb, (double)(j < c ? j : c) * w);
        if (j >= c) {
            zvp_ksum_add(&sq, (double)(j - c) * w);
            zvp_ksum_add(&sp, w);
        }
    }
    double norm = zvp_ksum_value(&s0); /* >= 1 (the mode's own weight) */
    m->mean_in_system = zvp_ksum_value(&s1) / norm;
    m->busy_servers = zvp_ksum_value(&sb) / norm;
    m->mean_in_queue = zvp_ksum_value(&sq) / norm;
    m->p_all_busy = zvp_ksum_value(&sp) / norm;
}

static int zvp_repairman_impl(unsigned long sources, double think_s, double service_s, unsigned long servers,
                  zvp_station_result *out, zvp_error *err)
{
    int rc;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "out = NULL: an output pointer is required");
    out->throughput_per_s = out->utilization = out->busy_servers = NAN;
    out->mean_in_system = out->mean_in_queue = out->response_s = NAN;
    out->wait_s = out->pwait = NAN;
    if (sources > ZVP_MAX_CUSTOMERS)
        return zvp_fail(err, ZVP_EINVAL, "sources = %lu is out of range [0, %lu]", sources,
                        ZVP_MAX_CUSTOMERS);
    if ((rc = zvp_check_range(err, "think_s", think_s, 0.0, DBL_MAX)))
        return rc;
    if (!(service_s > 0.0) || !isfinite(service_s))
        return zvp_fail(err, ZVP_EINVAL, "service_s = %.17g is out of range (0, %.17g]",
                        service_s, DBL_MAX);
    if (servers < 1 || servers > ZVP_MAX_SERVERS)
        return zvp_fail(err, ZVP_EINVAL, "servers = %lu is out of range [1, %lu]", servers,
                        ZVP_MAX_SERVERS);

    const unsigned long n = sources, c = servers;
    if (n == 0) {
        /* No source: nothing arrives; a hypothetical arrival is served at once. */
        out->throughput_per_s = 0.0;
        out->utilization = 0.0;
        out->busy_servers = 0.0;
        out->mean_in_system = 0.0;
        out->mean_in_queue = 0.0;
        out->wait_s = 0.0;
        out->response_s = service_s;
        out->pwait = 0.0;
        return ZVP_SUCCESS;
    }

    double x, busy, l, lq, pw;
    if (think_s == 0.0) {
        /* Limit Z -> 0: all N sources are always at the station. */
        unsigned long b = n < c ? n : c;
        busy = (double)b;
        x = busy / service_s;
        l = (double)n;
        lq = (double)(n - b);
        pw = (n - 1 >= c) ? 1.0 : 0.0; /* the other N - 1 sources are all present */
    } else {
        const double lsz = log(service_s) - log(think_s);
        const double z_over_s = think_s / service_s; /* may overflow to inf: handled */
        chain_moments m;
        chain_solve(n, c, lsz, z_over_s, &m);
        l = m.mean_in_system;
        lq = m.mean_in_queue;
        /* Throughput by flow balance, taking the better-conditioned side:
         * X = E[min(k,c)]/S = (N - L)/Z. The second one avoids underflow at light load. */
        if (l < 0.5 * (double)n)
            x = ((double)n - l) / think_s;
        else
            x = m.busy_servers / service_s;
        busy = x * service_s;
        if (n - 1 == 0) {
            pw = 0.0; /* a lone source never finds the servers busy (c >= 1) */
        } else {
            chain_moments m1;
            chain_solve(n - 1, c, lsz, z_over_s, &m1);
            pw = m1.p_all_busy;
        }
    }
    double w = (x > 0.0 && lq > 0.0) ? lq / x : 0.0;
    out->throughput_per_s = x;
    out->busy_servers = busy;
    out->utilization = busy / (double)c;
    out->mean_in_system = l;
    out->mean_in_queue = lq;
    out->wait_s = w;
    out->response_s = w + service_s;
    out->pwait = pw;
    return ZVP_SUCCESS;
}

int zvp_repairman(unsigned long sources, double think_s, double service_s, unsigned long servers,
                  zvp_station_result *out, zvp_error *err)
{
    return zvp_station_finite(zvp_repairman_impl(sources, think_s, service_s, servers, out, err), out, "zvp_repairman", err);
}
