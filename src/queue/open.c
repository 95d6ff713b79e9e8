/*
 * src/queue/open.c - open multiclass product-form networks (Jackson 1963; BCMP 1975;
 * QSP sec. 6.2). Per station: U_k = sum_c lambda_c D_ck / m_k; queue R_ck = D_ck/(1 - U_k);
 * delay R_ck = D_ck; m servers R_ck = D_ck (1 + ErlangC(m, m U_k) / (m (1 - U_k))).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include "queue/qnet.h"

int zvp_open_network(const zvp_station *stations, size_t n_stations, const double *demands_s,
                     const double *arrival_rate_per_s, size_t n_classes, zvp_open_result *res,
                     zvp_error *err)
{
    int rc;
    if (!res)
        return zvp_fail(err, ZVP_EINVAL, "res = NULL: a result record is required");
    res->throughput_per_s = res->response_s = res->mean_in_system = NAN;
    const size_t K = n_stations, C = n_classes;
    if (K < 1 || !stations)
        return zvp_fail(err, ZVP_EINVAL, "n_stations = %zu is out of range [1, %zu] (stations "
                        "must not be NULL)", K, (size_t)SIZE_MAX);
    if (C < 1 || !arrival_rate_per_s)
        return zvp_fail(err, ZVP_EINVAL, "n_classes = %zu is out of range [1, %zu] "
                        "(arrival_rate_per_s must not be NULL)", C, (size_t)SIZE_MAX);
    if (!demands_s && C != 1)
        return zvp_fail(err, ZVP_EINVAL, "demands_s = NULL with n_classes = %zu: NULL is allowed "
                        "only for n_classes in [1, 1]", C);
    for (size_t k = 0; k < K; k++)
        if ((rc = zvp_qnet_check_station(&stations[k], k, 7u, "zvp_open_network", err)))
            return rc;
    if (demands_s) {
        if ((rc = zvp_qnet_check_demands(demands_s, C, K, err)))
            return rc;
    } else {
        for (size_t k = 0; k < K; k++)
            if ((rc = zvp_qnet_check_station_demand(&stations[k], k, err)))
                return rc;
    }
    double lam_total = 0.0;
    for (size_t c = 0; c < C; c++) {
        char name[48];
        snprintf(name, sizeof name, "arrival_rate_per_s[%zu]", c);
        if ((rc = zvp_check_range(err, name, arrival_rate_per_s[c], 0.0, DBL_MAX)))
            return rc;
        lam_total += arrival_rate_per_s[c];
    }
    {
        double work = (double)C * (double)K;
        for (size_t k = 0; k < K; k++)
            if (stations[k].kind == ZVP_STATION_MULTI && stations[k].servers >= 2)
                work += (double)stations[k].servers;
        if (work > (double)ZVP_QUEUE_MAX_WORK)
            return zvp_fail(err, ZVP_EINVAL,
                            "zvp_open_network: estimated work %.3g (%zu classes x %zu stations + "
                            "the servers of the m-server entries, one Erlang C step each) exceeds "
                            "the limit ZVP_QUEUE_MAX_WORK = %.3g: use fewer classes, stations or "
                            "servers",
                            work, C, K, (double)ZVP_QUEUE_MAX_WORK);
    }
#define DEM(c, k) (demands_s ? demands_s[(c) * K + (k)] : stations[k].demand_s)
    /* Utilizations first: any saturated station is an error before anything is written. */
    for (size_t k = 0; k < K; k++) {
        double work = 0.0; /* offered load in Erlangs at one replica */
        for (size_t c = 0; c < C; c++)
            work += arrival_rate_per_s[c] * DEM(c, k);
        const double m = zvp_qnet_servers(&stations[k]);
        /* Within 64 ulps of 1 counts as 1: the inputs' rounding cannot tell them apart
         * (lambda = 1, 3 with D = 0.1, 0.3 sums to 1 - 1.1e-16). */
        if (stations[k].kind != ZVP_STATION_DELAY && !(work < m * (1.0 - 64.0 * DBL_EPSILON)))
            return zvp_fail(err, ZVP_EUNSTABLE,
                            "stations[%zu] is saturated: utilization = %.17g >= 1 (offered load "
                            "%.17g Erlangs on %.0f server(s)); no steady state",
                            k, work / m, work, m);
        if (!isfinite(work))
            return zvp_fail(err, ZVP_EINVAL, "stations[%zu]: offered load %.17g is out of range "
                            "[0, %.17g]", k, work, DBL_MAX);
    }
    double q_total = 0.0, r_weighted = 0.0;
    if (res->class_response_s)
        for (size_t c = 0; c < C; c++)
            res->class_response_s[c] = 0.0;
    /* Station-major: each station's load and Erlang C once (O(C K + sum m_k)). */
    for (size_t k = 0; k < K; k++) {
        const zvp_station *st = &stations[k];
        double work = 0.0;
        for (size_t j = 0; j < C; j++)
            work += arrival_rate_per_s[j] * DEM(j, k);
        double factor; /* R_ck = D_ck x factor */
        if (st->kind == ZVP_STATION_DELAY) {
            factor = 1.0;
        } else if (st->kind == ZVP_STATION_QUEUE || st->servers == 1) {
            factor = 1.0 / (1.0 - work);
        } else {
            const double m = (double)st->servers;
            double pw = 0.0;
            if ((rc = zvp_erlang_c(work, (unsigned long)st->servers, &pw, err)))
                return rc;
            factor = 1.0 + pw / (m * (1.0 - work / m));
        }
        for (size_t c = 0; c < C; c++) {
            const double r = DEM(c, k) * factor;
            if (!isfinite(factor)) /* a finite factor with r overflowing: zvp_qnet_finite */
                return zvp_fail(err, ZVP_EUNSTABLE,
                                "stations[%zu] is saturated: utilization %.17g is too close to 1 "
                                "for a finite residence time", k, work / zvp_qnet_servers(st));
            const double q = arrival_rate_per_s[c] * r;
            if (res->residence_s)
                res->residence_s[c * K + k] = r;
            if (res->queue_length)
                res->queue_length[c * K + k] = q;
            if (res->class_response_s)
                res->class_response_s[c] += (double)st->replicas * r;
            r_weighted += arrival_rate_per_s[c] * (double)st->replicas * r;
            q_total += (double)st->replicas * q;
        }
    }
    if (res->utilization)
        for (size_t k = 0; k < K; k++) {
            double work = 0.0;
            for (size_t c = 0; c < C; c++)
                work += arrival_rate_per_s[c] * DEM(c, k);
            res->utilization[k] = stations[k].kind == ZVP_STATION_DELAY
                                      ? work
                                      : work / zvp_qnet_servers(&stations[k]);
        }
#undef DEM
    res->throughput_per_s = lam_total;
    res->response_s = lam_total > 0.0 ? r_weighted / lam_total : 0.0;
    res->mean_in_system = q_total;
    const zvp_qnet_out o[7] = {{&res->throughput_per_s, 1, "throughput_per_s"},
                               {&res->response_s, 1, "response_s"},
                               {&res->mean_in_system, 1, "mean_in_system"},
                               {res->class_response_s, C, "class_response_s"},
                               {res->residence_s, C * K, "residence_s"},
                               {res->queue_length, C * K, "queue_length"},
                               {res->utilization, K, "utilization"}};
    return zvp_qnet_finite(o, 7, "zvp_open_network", "demands_s, arrival_rate_per_s", err);
}
