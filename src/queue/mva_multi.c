/*
 * src/queue/mva_multi.c - multiclass closed networks: exact MVA over the population lattice
 * (Reiser & Lavenberg 1980; QSP sec. 7.3) and the Schweitzer (1979) / Bard (1979)
 * approximations (QSP sec. 7.4), with the Seidmann et al. (1987) treatment of m-server
 * stations in the approximate solver only (flagged in its info record).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "queue/qnet.h"

static void multi_nan(zvp_mva_multi_result *res, size_t C, size_t K)
{
    for (size_t c = 0; c < C; c++) {
        if (res->throughput_per_s)
            res->throughput_per_s[c] = NAN;
        if (res->response_s)
            res->response_s[c] = NAN;
        for (size_t k = 0; k < K; k++) {
            if (res->residence_s)
                res->residence_s[c * K + k] = NAN;
            if (res->queue_length)
                res->queue_length[c * K + k] = NAN;
            if (res->utilization)
                res->utilization[c * K + k] = NAN;
        }
    }
}

/* Common validation; *total_n receives sum_c N_c. */
static int check_common(const zvp_station *st, size_t K, const double *d, const double *z,
                        const unsigned long *n, size_t C, zvp_mva_multi_result *res,
                        const char *who, unsigned long *total_n, zvp_error *err)
{
    int rc;
    if (!res)
        return zvp_fail(err, ZVP_EINVAL, "res = NULL: a result record is required");
    if (C < 1 || !d || !z || !n)
        return zvp_fail(err, ZVP_EINVAL,
                        "n_classes = %zu is out of range [1, %zu] (demands_s, think_s and "
                        "customers must not be NULL)", C, (size_t)SIZE_MAX);
    multi_nan(res, C, K);
    if (K > 0 && !st)
        return zvp_fail(err, ZVP_EINVAL, "stations = NULL with n_stations = %zu (> 0)", K);
    for (size_t k = 0; k < K; k++)
        if ((rc = zvp_qnet_check_station(&st[k], k, 7u, who, err)))
            return rc;
    if ((rc = zvp_qnet_check_demands(d, C, K, err)))
        return rc;
    unsigned long tot = 0;
    for (size_t c = 0; c < C; c++) {
        char name[40];
        snprintf(name, sizeof name, "think_s[%zu]", c);
        if ((rc = zvp_check_range(err, name, z[c], 0.0, DBL_MAX)))
            return rc;
        if (n[c] > ZVP_MAX_CUSTOMERS)
            return zvp_fail(err, ZVP_EINVAL, "customers[%zu] = %lu is out of range [0, %lu]", c,
                            n[c], ZVP_MAX_CUSTOMERS);
        if (tot + n[c] > ZVP_MAX_CUSTOMERS)
            return zvp_fail(err, ZVP_EINVAL,
                            "customers[%zu] = %lu brings the total population over classes 0..%zu "
                            "to %lu, above the limit ZVP_MAX_CUSTOMERS = %lu on the total", c,
                            n[c], c, tot + n[c], ZVP_MAX_CUSTOMERS);
        tot += n[c];
        double cyc = z[c];
        for (size_t k = 0; k < K; k++)
            cyc += (double)st[k].replicas * d[c * K + k];
        if (!isfinite(cyc))
            return zvp_fail(err, ZVP_EINVAL, "class %zu: think_s + sum replicas x demand_s = "
                            "%.17g is out of range [0, %.17g]", c, cyc, DBL_MAX);
        if (n[c] > 0 && !(cyc > 0.0))
            return zvp_fail(err, ZVP_EINVAL,
                            "class %zu: think_s + sum replicas x demand_s = 0 with customers = "
                            "%lu: the cycle time must be in (0, %.17g] when customers > 0",
                            c, n[c], DBL_MAX);
    }
    *total_n = tot;
    return ZVP_SUCCESS;
}

/* Station treatment for a total population: 0 queue, 1 delay, 2 multi (m >= 2, m < N). */
static int effective_kind(const zvp_station *st, unsigned long total_n)
{
    if (st->kind == ZVP_STATION_DELAY)
        return 1;
    if (st->kind == ZVP_STATION_QUEUE || st->servers == 1)
        return 0;
    return (unsigned long)st->servers >= total_n ? 1 : 2;
}

/* zvp_qnet_finite over a multiclass result and the solver's own throughputs x[C]. */
static int multi_finite(zvp_mva_multi_result *res, size_t C, size_t K, double *x,
                        const char *kernel, zvp_error *err)
{
    const zvp_qnet_out o[6] = {{res->throughput_per_s, C, "throughput_per_s"},
                               {res->response_s, C, "response_s"},
                               {res->residence_s, C * K, "residence_s"},
                               {res->queue_length, C * K, "queue_length"},
                               {res->utilization, C * K, "utilization"},
                               {x, C, "throughput_per_s"}};
    return zvp_qnet_finite(o, 6, kernel, "demands_s, think_s, customers", err);
}

/* Fill utilization, check finiteness, then the asymptotic bounds. */
static int finish(const zvp_station *st, size_t K, const double *d, const double *z,
                  const unsigned long *n, size_t C, double *x, zvp_mva_multi_result *res,
                  double *u_total, const char *kernel, zvp_error *err)
{
    int rc;
    for (size_t k = 0; k < K; k++)
        u_total[k] = 0.0;
    for (size_t c = 0; c < C; c++)
        for (size_t k = 0; k < K; k++) {
            double m = zvp_qnet_servers(&st[k]);
            double u = st[k].kind == ZVP_STATION_DELAY ? x[c] * d[c * K + k]
                                                       : x[c] * d[c * K + k] / m;
            if (res->utilization)
                res->utilization[c * K + k] = u;
            if (st[k].kind != ZVP_STATION_DELAY)
                u_total[k] += u;
        }
    if ((rc = multi_finite(res, C, K, x, kernel, err)))
        return rc;
    for (size_t c = 0; c < C; c++)
        if ((rc = zvp_qnet_check_bounds(st, K, d + c * K, z[c], (double)n[c], x[c], u_total,
                                        (int)c, err)))
            return rc;
    return ZVP_SUCCESS;
}

int zvp_mva_multi_exact(const zvp_station *stations, size_t n_stations, const double *demands_s,
                        const double *think_s, const unsigned long *customers, size_t n_classes,
                        zvp_mva_multi_result *res, zvp_error *err)
{
    int rc;
    unsigned long total_n = 0;
    const size_t K = n_stations, C = n_classes;
    if ((rc = check_common(stations, K, demands_s, think_s, customers, C, res,
                           "zvp_mva_multi_exact", &total_n, err)))
        return rc;
    for (size_t k = 0; k < K; k++)
        if (effective_kind(&stations[k], total_n) == 2)
            return zvp_fail(err, ZVP_EINVAL,
                            "stations[%zu].servers = %d: an m-server station with 2 <= m < "
                            "total customers (%lu) is not supported by the exact multiclass "
                            "solver (allowed: servers = 1 or servers >= %lu); use zvp_mva_approx "
                            "(Seidmann, flagged) or one class with zvp_mva_exact",
                            k, (int)stations[k].servers, total_n, total_n);
    /* Lattice size, with overflow checks. */
    double lattice = 1.0;
    for (size_t c = 0; c < C; c++)
        lattice *= (double)customers[c] + 1.0;
    if (lattice > (double)ZVP_MVA_MAX_LATTICE)
        return zvp_fail(err, ZVP_EINVAL,
                        "population lattice prod_c (customers[c] + 1) = %.*g exceeds the limit "
                        "ZVP_MVA_MAX_LATTICE = %lu of the exact multiclass solver: use fewer "
                        "customers or zvp_mva_approx (Schweitzer/Bard) for large populations",
                        lattice < 1e15 ? 15 : 6, lattice, ZVP_MVA_MAX_LATTICE);
    size_t P = (size_t)lattice;
    const double work = lattice * (double)C * ((double)K + 1.0);
    if (work > (double)ZVP_MVA_MAX_LATTICE_WORK)
        return zvp_fail(err, ZVP_EINVAL,
                        "exact multiclass MVA: estimated work lattice %.6g x %zu classes x "
                        "(%zu stations + 1) = %.3g exceeds the limit ZVP_MVA_MAX_LATTICE_WORK = "
                        "%.3g: use fewer customers, classes or stations, or zvp_mva_approx",
                        lattice, C, K, work, (double)ZVP_MVA_MAX_LATTICE_WORK);
    /* Q(n) needs only Q(n - 1_c), stride[c] cells back in mixed-radix order: keep a ring of
     * W = (largest stride of a class with N_c > 0) + 1 rows. */
    size_t W = 1, span = 1;
    for (size_t c = 0; c < C; c++) {
        if (customers[c] > 0)
            W = span + 1;
        span *= (size_t)customers[c] + 1;
    }
    if ((double)W * (double)(K ? K : 1) > (double)ZVP_MVA_MAX_LATTICE_CELLS)
        return zvp_fail(err, ZVP_EINVAL,
                        "exact multiclass MVA: workspace of %zu lattice rows x %zu stations = "
                        "%.6g doubles exceeds the limit ZVP_MVA_MAX_LATTICE_CELLS = %lu: use "
                        "fewer customers or stations, or zvp_mva_approx",
                        W, K, (double)W * (double)(K ? K : 1), ZVP_MVA_MAX_LATTICE_CELLS);
    size_t cells = W * (K ? K : 1);
    double *q = malloc(cells * sizeof(double));
    unsigned char *isq = malloc(K + 1); /* station k is a queue (else a delay) */
    size_t *stride = malloc(C * sizeof(size_t));
    unsigned long *nv = calloc(C, sizeof(unsigned long));
    double *x = malloc(C * sizeof(double));
    double *r = malloc((C * K + 1) * sizeof(double));
    double *ut = malloc((K + 1) * sizeof(double));
    if (!q || !isq || !stride || !nv || !x || !r || !ut) {
        rc = zvp_fail(err, ZVP_ENOMEM, "exact multiclass MVA: %zu doubles could not be allocated",
                      cells);
        goto out;
    }
    /* Per-class "is a queue" flags via effective kind. */
    stride[0] = 1;
    for (size_t c = 1; c < C; c++)
        stride[c] = stride[c - 1] * ((size_t)customers[c - 1] + 1);
    for (size_t k = 0; k < K; k++) {
        q[k] = 0.0;
        isq[k] = effective_kind(&stations[k], total_n) == 0;
    }
    for (size_t c = 0; c < C; c++)
        x[c] = 0.0;
    for (size_t idx = 1; idx < P; idx++) {
        /* advance the mixed-radix counter */
        for (size_t c = 0; c < C; c++) {
            if (nv[c] < customers[c]) {
                nv[c]++;
                break;
            }
            nv[c] = 0;
        }
        double *qn = q + (idx % W) * K;
        for (size_t k = 0; k < K; k++)
            qn[k] = 0.0;
        for (size_t c = 0; c < C; c++) {
            if (nv[c] == 0)
                continue;
            const double *qp = q + ((idx - stride[c]) % W) * K;
            const double *dc = demands_s + c * K;
            double cycle = think_s[c];
            for (size_t k = 0; k < K; k++) {
                double rk = isq[k] ? dc[k] * (1.0 + qp[k]) : dc[k];
                r[c * K + k] = rk;
                cycle += (double)stations[k].replicas * rk;
            }
            double xc = (double)nv[c] / cycle;
            for (size_t k = 0; k < K; k++)
                qn[k] += xc * r[c * K + k];
            if (idx == P - 1)
                x[c] = xc;
        }
    }
    /* Results at the full population: recompute R_ck from Q(N - 1_c) (or Q(N) for an
     * empty class: what an arriving customer of that class would see). */
    {
        const double *qN = q + ((P - 1) % W) * K;
        for (size_t c = 0; c < C; c++) {
            const double *qp = customers[c] > 0 ? q + ((P - 1 - stride[c]) % W) * K : qN;
            const double *dc = demands_s + c * K;
            double rsum = 0.0;
            for (size_t k = 0; k < K; k++) {
                double rk = isq[k] ? dc[k] * (1.0 + qp[k]) : dc[k];
                r[c * K + k] = rk;
                rsum += (double)stations[k].replicas * rk;
            }
            if (res->response_s)
                res->response_s[c] = rsum;
            if (res->throughput_per_s)
                res->throughput_per_s[c] = x[c];
            for (size_t k = 0; k < K; k++) {
                if (res->residence_s)
                    res->residence_s[c * K + k] = r[c * K + k];
                if (res->queue_length)
                    res->queue_length[c * K + k] = x[c] * r[c * K + k];
            }
        }
    }
    rc = finish(stations, K, demands_s, think_s, customers, C, x, res, ut, "zvp_mva_multi_exact",
                err);
out:
    free(q);
    free(isq);
    free(stride);
    free(nv);
    free(x);
    free(r);
    free(ut);
    return rc;
}

/* The iteration limits: method, max_iterations (capped by ZVP_QUEUE_MAX_WORK) and tolerance. */
static int approx_options(const zvp_mva_approx_options *options, size_t C, size_t K,
                          int *method_out, unsigned long *max_it_out, double *tol_out,
                          zvp_error *err)
{
    int method = options ? options->method : ZVP_MVA_SCHWEITZER;
    const double per_iteration = (double)C * ((double)K + 1.0);
    unsigned long max_it = options && options->max_iterations ? options->max_iterations : 100000;
    if (options && options->max_iterations) {
        if ((double)max_it * per_iteration > (double)ZVP_QUEUE_MAX_WORK)
            return zvp_fail(err, ZVP_EINVAL,
                            "options->max_iterations = %lu: max_iterations x %zu classes x "
                            "(%zu stations + 1) = %.3g exceeds the limit ZVP_QUEUE_MAX_WORK = "
                            "%.3g: allowed range [1, %.0f]",
                            max_it, C, K, (double)max_it * per_iteration,
                            (double)ZVP_QUEUE_MAX_WORK,
                            floor((double)ZVP_QUEUE_MAX_WORK / per_iteration));
    } else if ((double)max_it * per_iteration > (double)ZVP_QUEUE_MAX_WORK) {
        max_it = (unsigned long)floor((double)ZVP_QUEUE_MAX_WORK / per_iteration);
        if (max_it < 1)
            return zvp_fail(err, ZVP_EINVAL,
                            "approximate MVA: one iteration over %zu classes x (%zu stations + "
                            "1) = %.3g steps exceeds the limit ZVP_QUEUE_MAX_WORK = %.3g",
                            C, K, per_iteration, (double)ZVP_QUEUE_MAX_WORK);
    }
    double tol = options && options->tolerance != 0.0 ? options->tolerance : 1e-10;
    if (method != ZVP_MVA_SCHWEITZER && method != ZVP_MVA_BARD)
        return zvp_fail(err, ZVP_EINVAL,
                        "options->method = %d is out of range [1, 2] (1 Schweitzer, 2 Bard)",
                        (int)method);
    if (!(tol > 0.0) || !isfinite(tol) || tol >= 1.0)
        return zvp_fail(err, ZVP_EINVAL, "options->tolerance = %.17g is out of range (0, 1)", tol);
    *method_out = method;
    *max_it_out = max_it;
    *tol_out = tol;
    return ZVP_SUCCESS;
}

/* One approximate-MVA problem and its iterates q[C*K], qs[K], r[C*K], x[C]. */
typedef struct {
    const zvp_station *st;
    const double *d, *z;
    const unsigned long *n;
    size_t K, C;
    unsigned long total_n;
    int method;
    double *q, *qs, *r, *x;
} approx_state;

/* Start: each class spread evenly over its non-delay entries with positive demand. */
static void approx_start(const approx_state *a)
{
    const size_t K = a->K;
    for (size_t c = 0; c < a->C; c++) {
        size_t cnt = 0;
        for (size_t k = 0; k < K; k++)
            if (effective_kind(&a->st[k], a->total_n) != 1 && a->d[c * K + k] > 0.0)
                cnt += a->st[k].replicas;
        for (size_t k = 0; k < K; k++)
            if (cnt && effective_kind(&a->st[k], a->total_n) != 1 && a->d[c * K + k] > 0.0)
                a->q[c * K + k] = (double)a->n[c] / (double)cnt;
    }
}

/* One fixed-point iteration Q -> R -> X -> Q; returns the largest change of a queue length
 * relative to its class population. */
static double approx_iterate(const approx_state *a)
{
    const size_t K = a->K, C = a->C;
    double *q = a->q, *r = a->r, *x = a->x;
    for (size_t k = 0; k < K; k++) {
        double s = 0.0;
        for (size_t c = 0; c < C; c++)
            s += q[c * K + k];
        a->qs[k] = s;
    }
    for (size_t c = 0; c < C; c++) {
        const double nc = (double)a->n[c];
        const double *dc = a->d + c * K;
        double cycle = a->z[c];
        for (size_t k = 0; k < K; k++) {
            double seen = a->qs[k];
            if (a->method == ZVP_MVA_SCHWEITZER && a->n[c] > 0)
                seen -= q[c * K + k] / nc;
            if (seen < 0.0)
                seen = 0.0;
            double rk;
            switch (effective_kind(&a->st[k], a->total_n)) {
            case 0: rk = dc[k] * (1.0 + seen); break;
            case 1: rk = dc[k]; break;
            default: {
                double m = (double)a->st[k].servers;
                rk = dc[k] / m * (1.0 + seen) + dc[k] * (m - 1.0) / m;
            }
            }
            r[c * K + k] = rk;
            cycle += (double)a->st[k].replicas * rk;
        }
        x[c] = a->n[c] > 0 ? nc / cycle : 0.0;
    }
    double change = 0.0;
    for (size_t c = 0; c < C; c++) {
        double scale = a->n[c] > 0 ? (double)a->n[c] : 1.0;
        for (size_t k = 0; k < K; k++) {
            /* Seidmann: only the single-server part (demand D/m) queues; its delay part
             * D (m-1)/m holds customers that no arrival waits behind. */
            double rq = r[c * K + k];
            if (effective_kind(&a->st[k], a->total_n) == 2) {
                double m = (double)a->st[k].servers;
                rq -= a->d[c * K + k] * (m - 1.0) / m;
            }
            double qn = x[c] * rq;
            double dlt = fabs(qn - q[c * K + k]) / scale;
            if (dlt > change)
                change = dlt;
            q[c * K + k] = qn;
        }
    }
    return change;
}

/* Throughputs, responses, residences and queue lengths into res. An empty class's residence
 * is what an arrival would see (the others' queues). */
static void approx_output(const approx_state *a, zvp_mva_multi_result *res)
{
    const size_t K = a->K;
    for (size_t c = 0; c < a->C; c++) {
        double rsum = 0.0;
        for (size_t k = 0; k < K; k++)
            rsum += (double)a->st[k].replicas * a->r[c * K + k];
        if (res->throughput_per_s)
            res->throughput_per_s[c] = a->x[c];
        if (res->response_s)
            res->response_s[c] = rsum;
        for (size_t k = 0; k < K; k++) {
            if (res->residence_s)
                res->residence_s[c * K + k] = a->r[c * K + k];
            if (res->queue_length)
                res->queue_length[c * K + k] = a->x[c] * a->r[c * K + k];
        }
    }
}

int zvp_mva_approx(const zvp_station *stations, size_t n_stations, const double *demands_s,
                   const double *think_s, const unsigned long *customers, size_t n_classes,
                   const zvp_mva_approx_options *options, zvp_mva_multi_result *res,
                   zvp_mva_approx_info *info, zvp_error *err)
{
    int rc, method = 0;
    unsigned long total_n = 0, max_it = 0;
    double tol = 0.0;
    const size_t K = n_stations, C = n_classes;
    if ((rc = check_common(stations, K, demands_s, think_s, customers, C, res, "zvp_mva_approx",
                           &total_n, err)))
        return rc;
    if ((rc = approx_options(options, C, K, &method, &max_it, &tol, err)))
        return rc;
    int seidmann = 0;
    for (size_t k = 0; k < K; k++)
        if (effective_kind(&stations[k], total_n) == 2)
            seidmann = 1;

    approx_state a = {stations, demands_s, think_s, customers, K, C, total_n, method,
                      calloc(C * K + 1, sizeof(double)), calloc(K + 1, sizeof(double)),
                      calloc(C * K + 1, sizeof(double)), calloc(C + 1, sizeof(double))};
    double *ut = calloc(K + 1, sizeof(double));
    if (!a.q || !a.qs || !a.r || !a.x || !ut) {
        rc = zvp_fail(err, ZVP_ENOMEM, "approximate MVA: out of memory");
        goto out;
    }
    approx_start(&a);
    unsigned long it = 0;
    double change = INFINITY;
    int converged = 0;
    while (it < max_it) {
        it++;
        change = approx_iterate(&a);
        if (isnan(change))
            break; /* overflowed: reported by multi_finite below */
        if (change < tol) {
            converged = 1;
            break;
        }
    }
    approx_output(&a, res);
    if (info) {
        info->iterations = (uint32_t)it;
        info->converged = converged;
        info->multiserver_seidmann = seidmann;
        info->reserved = 0;
        info->tolerance = tol;
        info->max_change = change;
    }
    if (!converged) {
        /* The last iterate is no solution: fill utilizations, skip the bound check (an
         * overflowing iterate is reported as such, not as a convergence failure). */
        for (size_t c = 0; c < C; c++)
            for (size_t k = 0; k < K && res->utilization; k++)
                res->utilization[c * K + k] =
                    stations[k].kind == ZVP_STATION_DELAY
                        ? a.x[c] * demands_s[c * K + k]
                        : a.x[c] * demands_s[c * K + k] / zvp_qnet_servers(&stations[k]);
        if ((rc = multi_finite(res, C, K, a.x, "zvp_mva_approx", err)) == ZVP_SUCCESS)
            rc = zvp_fail(err, ZVP_EMAXITER,
                          "approximate MVA did not converge: max_iterations = %lu reached with "
                          "max change %.3g >= tolerance %.3g over all classes and stations",
                          max_it, change, tol);
    } else {
        rc = finish(stations, K, demands_s, think_s, customers, C, a.x, res, ut, "zvp_mva_approx",
                    err);
    }
out:
    free(a.q);
    free(a.qs);
    free(a.r);
    free(a.x);
    free(ut);
    return rc;
}
