/*
 * src/queue/bounds.c - asymptotic (Denning & Buzen 1978; QSP sec. 5.2) and balanced job
 * bounds (Zahorjan, Sevcik, Eager & Galler 1982; QSP sec. 5.3, table 5.3) for a
 * single-class closed network. Delay entries are folded into the think time.
 */
#include <float.h>
#include <math.h>
#include "queue/qnet.h"

int zvp_mva_bounds(const zvp_station *stations, size_t n_stations, double think_s,
                   unsigned long customers, zvp_bounds_result *out, zvp_error *err)
{
    int rc;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "out = NULL: a result record is required");
    out->total_demand_s = out->max_demand_s = out->saturation_customers = NAN;
    out->x_upper_per_s = out->x_lower_per_s = out->r_lower_s = out->r_upper_s = NAN;
    out->bjb_x_upper_per_s = out->bjb_x_lower_per_s = NAN;
    out->bjb_valid = 0;
    out->reserved = 0;
    if ((rc = zvp_qnet_check_closed(stations, n_stations, think_s, customers, 1,
                                    ZVP_MAX_CUSTOMERS, err)))
        return rc;
    double d = 0.0, dmax = 0.0, zd = think_s, units = 0.0;
    int multi = 0;
    for (size_t k = 0; k < n_stations; k++) {
        const zvp_station *st = &stations[k];
        if ((rc = zvp_qnet_check_station(st, k, 7u, "zvp_mva_bounds", err)) ||
            (rc = zvp_qnet_check_station_demand(st, k, err)))
            return rc;
        const double rep = (double)st->replicas;
        if (st->kind == ZVP_STATION_DELAY) {
            zd += rep * st->demand_s;
            continue;
        }
        const double m = zvp_qnet_servers(st);
        if (m > 1.0)
            multi = 1;
        d += rep * st->demand_s;
        if (st->demand_s > 0.0)
            units += rep;
        if (st->demand_s / m > dmax)
            dmax = st->demand_s / m;
    }
    if (!(dmax > 0.0) || !isfinite(d + zd))
        return zvp_fail(err, ZVP_EINVAL,
                        "the largest per-server demand D_max = %.17g is out of range (0, %.17g]: "
                        "bounds need at least one queueing station with demand_s > 0",
                        dmax, DBL_MAX);
    const double n = (double)customers;
    out->total_demand_s = d;
    out->max_demand_s = dmax;
    out->saturation_customers = (d + zd) / dmax;
    out->x_upper_per_s = fmin(n / (d + zd), 1.0 / dmax);
    out->x_lower_per_s = n / (n * d + zd);
    const double ddelay = zd - think_s;
    out->r_lower_s = fmax(d + ddelay, n * dmax - think_s);
    out->r_upper_s = n * d + ddelay;
    if (!multi) {
        const double davg = d / units;
        out->bjb_x_upper_per_s =
            fmin(1.0 / dmax, n / (d + zd + (n - 1.0) * davg / (1.0 + zd / d)));
        out->bjb_x_lower_per_s = n / (d + zd + (n - 1.0) * dmax / (1.0 + zd / (n * d)));
        out->bjb_valid = 1;
    } else {
        out->bjb_x_upper_per_s = out->x_upper_per_s;
        out->bjb_x_lower_per_s = out->x_lower_per_s;
    }
    const zvp_qnet_out o[9] = {
        {&out->total_demand_s, 1, "total_demand_s"},
        {&out->max_demand_s, 1, "max_demand_s"},
        {&out->saturation_customers, 1, "saturation_customers"},
        {&out->x_upper_per_s, 1, "x_upper_per_s"},
        {&out->x_lower_per_s, 1, "x_lower_per_s"},
        {&out->r_lower_s, 1, "r_lower_s"},
        {&out->r_upper_s, 1, "r_upper_s"},
        {&out->bjb_x_upper_per_s, 1, "bjb_x_upper_per_s"},
        {&out->bjb_x_lower_per_s, 1, "bjb_x_lower_per_s"}};
    if ((rc = zvp_qnet_finite(o, 9, "zvp_mva_bounds", "stations[].demand_s, think_s, customers",
                              err)))
        out->bjb_valid = 0;
    return rc;
}
