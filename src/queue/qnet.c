/* src/queue/qnet.c - private helpers shared by the network solvers (see qnet.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include "queue/qnet.h"

int zvp_qnet_check_station(const zvp_station *st, size_t k, unsigned kinds_mask, const char *who,
                           zvp_error *err)
{
    if (st->kind < 0 || st->kind > 3 || !(kinds_mask & (1u << st->kind)))
        return zvp_fail(err, ZVP_EINVAL,
                        "stations[%zu].kind = %d is not accepted by %s (allowed: %s%s%s%s)", k,
                        (int)st->kind, who, (kinds_mask & 1u) ? "0 QUEUE " : "",
                        (kinds_mask & 2u) ? "1 DELAY " : "", (kinds_mask & 4u) ? "2 MULTI " : "",
                        (kinds_mask & 8u) ? "3 LD" : "");
    return zvp_qnet_check_station_counts(st, k, err);
}

int zvp_qnet_check_station_counts(const zvp_station *st, size_t k, zvp_error *err)
{
    if (st->kind == ZVP_STATION_MULTI &&
        (st->servers < 1 || (unsigned long)st->servers > ZVP_MAX_SERVERS))
        return zvp_fail(err, ZVP_EINVAL, "stations[%zu].servers = %d is out of range [1, %lu]", k,
                        (int)st->servers, ZVP_MAX_SERVERS);
    if (st->replicas < 1)
        return zvp_fail(err, ZVP_EINVAL, "stations[%zu].replicas = %u is out of range [1, %u]", k,
                        (unsigned)st->replicas, 4294967295u);
    if (st->reserved != 0)
        return zvp_fail(err, ZVP_EINVAL, "stations[%zu].reserved = %u is out of range [0, 0]", k,
                        (unsigned)st->reserved);
    return ZVP_SUCCESS;
}

int zvp_qnet_check_station_demand(const zvp_station *st, size_t k, zvp_error *err)
{
    if (!(st->demand_s >= 0.0) || !isfinite(st->demand_s))
        return zvp_fail(err, ZVP_EINVAL, "stations[%zu].demand_s = %.17g is out of range "
                        "[0, %.17g]", k, st->demand_s, DBL_MAX);
    return ZVP_SUCCESS;
}

int zvp_qnet_check_closed(const zvp_station *stations, size_t K, double think_s,
                          unsigned long customers, unsigned long lo, unsigned long hi,
                          zvp_error *err)
{
    int rc;
    if (K > 0 && !stations)
        return zvp_fail(err, ZVP_EINVAL, "stations = NULL with n_stations = %zu (> 0)", K);
    if ((rc = zvp_check_range(err, "think_s", think_s, 0.0, DBL_MAX)))
        return rc;
    if (customers < lo || customers > hi)
        return zvp_fail(err, ZVP_EINVAL, "customers = %lu is out of range [%lu, %lu]", customers,
                        lo, hi);
    return ZVP_SUCCESS;
}

void zvp_qnet_empty(const zvp_station *stations, size_t K, zvp_mva_result *res)
{
    double r = 0.0;
    for (size_t k = 0; k < K; k++) {
        r += (double)stations[k].replicas * stations[k].demand_s;
        if (res->residence_s)
            res->residence_s[k] = stations[k].demand_s;
        if (res->queue_length)
            res->queue_length[k] = 0.0;
        if (res->utilization)
            res->utilization[k] = 0.0;
    }
    res->throughput_per_s = 0.0;
    res->response_s = r;
}

int zvp_qnet_check_demands(const double *d, size_t C, size_t K, zvp_error *err)
{
    for (size_t c = 0; c < C; c++)
        for (size_t k = 0; k < K; k++) {
            double v = d[c * K + k];
            if (!(v >= 0.0) || !isfinite(v))
                return zvp_fail(err, ZVP_EINVAL,
                                "demands_s[%zu] (class %zu, station %zu) = %.17g is out of range "
                                "[0, %.17g]",
                                c * K + k, c, k, v, DBL_MAX);
        }
    return ZVP_SUCCESS;
}

double zvp_qnet_servers(const zvp_station *st)
{
    if (st->kind == ZVP_STATION_DELAY)
        return INFINITY;
    if (st->kind == ZVP_STATION_MULTI)
        return (double)st->servers;
    return 1.0;
}

int zvp_qnet_check_bounds(const zvp_station *st, size_t K, const double *demands_c, double z,
                          double n, double x, const double *u_total, int class_index,
                          zvp_error *err)
{
    const double slack = 1.0 + 1e-9;
    double cycle = z;
    for (size_t k = 0; k < K; k++)
        cycle += (double)st[k].replicas * demands_c[k];
    if (!(x >= 0.0) || (cycle > 0.0 && x > slack * n / cycle))
        return zvp_fail(err, ZVP_EINTERNAL,
                        "internal check failed: class %d throughput %.17g breaks the asymptotic "
                        "bound N/(Z + sum D) = %.17g (a solver bug; please report)",
                        class_index, x, n / cycle);
    if (u_total)
        for (size_t k = 0; k < K; k++)
            if (!(u_total[k] >= 0.0) || u_total[k] > slack)
                return zvp_fail(err, ZVP_EINTERNAL,
                                "internal check failed: stations[%zu] per-server utilization "
                                "%.17g is outside [0, 1] (bound X <= m/D broken; a solver bug)",
                                k, u_total[k]);
    return ZVP_SUCCESS;
}

int zvp_qnet_finite(const zvp_qnet_out *outs, size_t n_outs, const char *kernel,
                    const char *inputs, zvp_error *err)
{
    for (size_t i = 0; i < n_outs; i++)
        for (size_t j = 0; outs[i].v && j < outs[i].n; j++) {
            if (isfinite(outs[i].v[j]))
                continue;
            char at[24] = "";
            if (outs[i].n > 1)
                snprintf(at, sizeof at, "[%zu]", j);
            const double bad = outs[i].v[j];
            for (size_t a = 0; a < n_outs; a++)
                for (size_t b = 0; outs[a].v && b < outs[a].n; b++)
                    outs[a].v[b] = NAN;
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: the inputs (%s) are outside the range double arithmetic can "
                            "solve (a result overflows: %s%s = %s): use values within about "
                            "1e-300 .. 1e300 whose products and sums stay in that range",
                            kernel, inputs, outs[i].name, at,
                            isnan(bad) ? "NaN" : bad > 0.0 ? "+inf" : "-inf");
        }
    return ZVP_SUCCESS;
}

int zvp_qnet_mva_finite(zvp_mva_result *res, size_t K, const char *kernel, const char *inputs,
                        zvp_error *err)
{
    const zvp_qnet_out o[5] = {{&res->throughput_per_s, 1, "throughput_per_s"},
                               {&res->response_s, 1, "response_s"},
                               {res->residence_s, K, "residence_s"},
                               {res->queue_length, K, "queue_length"},
                               {res->utilization, K, "utilization"}};
    return zvp_qnet_finite(o, 5, kernel, inputs, err);
}
