/*
 * src/queue/mva_ld.c - exact single-class closed networks with general load-dependent
 * stations, by normalising constants (Buzen 1973; QSP ch. 8) in log space.
 *
 * Product form: G(N) = sum over states of prod_k f_k(n_k) x Z^{n_0}/n_0!, with
 * f_k(j) = D_k^j / prod_{i<=j} alpha_k(i). Every sequence is kept as its logarithm and
 * convolutions use log-sum-exp (a maximum, then a sum of exp of non-positive numbers), so
 * only sums of positive terms are ever formed: the result is accurate at any load, where
 * the marginal recursion with p(0|n) = 1 - sum_j p(j|n) loses all digits (Casale &
 * Serazzi 2005). Delay entries are merged into the think time (a Poisson factor), queueing
 * entries use the O(N) geometric recurrence g'(n) = g(n) (+) D g'(n-1), and LD / MULTI
 * entries the O(N^2) convolution.
 *   X = G(N-1)/G(N);  queue: Q_k = sum_{j>=1} D^j G(N-j)/G(N);
 *   LD / MULTI: p_k(j|N) = f_k(j) G_{-k}(N-j)/G(N), Q_k = sum_j j p_k(j|N).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "queue/qnet.h"

/* log(exp(a) + exp(b)) for a, b possibly -inf. */
static double lse2(double a, double b)
{
    if (a == -INFINITY)
        return b;
    if (b == -INFINITY)
        return a;
    return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

/* 0 ignore (zero demand), 1 delay (merged into think), 2 queue, 3 general (LD / MULTI). */
static int treat(const zvp_station *st, unsigned long n)
{
    if (!(st->demand_s > 0.0))
        return 0;
    switch (st->kind) {
    case ZVP_STATION_DELAY: return 1;
    case ZVP_STATION_QUEUE: return 2;
    case ZVP_STATION_MULTI:
        if (st->servers == 1)
            return 2;
        return (unsigned long)st->servers >= n ? 1 : 3;
    default: return 3;
    }
}

/* Log factors f(0..N) of a general entry. */
static void log_factors(const zvp_station *st, const double *alpha, unsigned long N, double *f)
{
    const double ld = log(st->demand_s);
    f[0] = 0.0;
    for (unsigned long j = 1; j <= N; j++) {
        double a = st->kind == ZVP_STATION_MULTI
                       ? (double)(j < (unsigned long)st->servers ? j : (unsigned long)st->servers)
                       : alpha[j];
        f[j] = f[j - 1] + ld - log(a);
    }
}

/* g <- g (*) f in log space, O(N^2); tmp has N + 1 doubles. */
static void conv_general(double *g, const double *f, unsigned long N, double *tmp)
{
    for (unsigned long n = 0; n <= N; n++) {
        double mx = -INFINITY;
        for (unsigned long j = 0; j <= n; j++) {
            double v = f[j] + g[n - j];
            if (v > mx)
                mx = v;
        }
        if (mx == -INFINITY) {
            tmp[n] = -INFINITY;
            continue;
        }
        double s = 0.0;
        for (unsigned long j = 0; j <= n; j++)
            s += exp(f[j] + g[n - j] - mx);
        tmp[n] = mx + log(s);
    }
    for (unsigned long n = 0; n <= N; n++)
        g[n] = tmp[n];
}

/* g <- g (*) geometric(D): g'(n) = g(n) (+) log D + g'(n-1). */
static void conv_geometric(double *g, double logd, unsigned long N)
{
    for (unsigned long n = 1; n <= N; n++)
        g[n] = lse2(g[n], logd + g[n - 1]);
}

/* Build log G of the network, leaving out one replica of entry skip (skip = K: none). */
static void build_g(const zvp_station *st, size_t K, double think_total, unsigned long N,
                    const double *fac, size_t skip, double *g, double *tmp)
{
    if (think_total > 0.0) {
        double lz = log(think_total);
        for (unsigned long n = 0; n <= N; n++)
            g[n] = (double)n * lz - lgamma((double)n + 1.0);
    } else {
        g[0] = 0.0;
        for (unsigned long n = 1; n <= N; n++)
            g[n] = -INFINITY;
    }
    for (size_t k = 0; k < K; k++) {
        int t = treat(&st[k], N);
        if (t < 2)
            continue;
        uint32_t copies = st[k].replicas - (k == skip ? 1u : 0u);
        for (uint32_t cp = 0; cp < copies; cp++) {
            if (t == 2)
                conv_geometric(g, log(st[k].demand_s), N);
            else
                conv_general(g, fac + k * (N + 1), N, tmp);
        }
    }
}

/* The arguments; on success *think_total = Z + the demand of the entries treated as delays. */
static int ld_check_inputs(const zvp_station *stations, size_t K, const double *const *alpha,
                           double think_s, unsigned long N, double *think_total, zvp_error *err)
{
    int rc = zvp_qnet_check_closed(stations, K, think_s, N, 0, ZVP_MVA_LD_MAX_CUSTOMERS, err);
    if (rc)
        return rc;
    double total = think_s, tt = think_s;
    for (size_t k = 0; k < K; k++) {
        const zvp_station *st = &stations[k];
        if ((rc = zvp_qnet_check_station(st, k, 15u, "zvp_mva_ld", err)) ||
            (rc = zvp_qnet_check_station_demand(st, k, err)))
            return rc;
        if (st->kind == ZVP_STATION_LD) {
            if (!alpha || !alpha[k])
                return zvp_fail(err, ZVP_EINVAL,
                                "alpha[%zu] = NULL for an LD station: N + 1 = %lu rate "
                                "multipliers are required", k, N + 1);
            for (unsigned long j = 1; j <= N; j++)
                if (!(alpha[k][j] > 0.0) || !isfinite(alpha[k][j]))
                    return zvp_fail(err, ZVP_EINVAL,
                                    "alpha[%zu][%lu] = %.17g is out of range (0, %.17g]", k, j,
                                    alpha[k][j], DBL_MAX);
        }
        total += (double)st->replicas * st->demand_s;
        if (treat(st, N) == 1)
            tt += (double)st->replicas * st->demand_s;
    }
    if (!isfinite(total) || !isfinite(tt))
        return zvp_fail(err, ZVP_EINVAL, "think_s + sum of replicas x demand_s = %.17g is out of "
                        "range [0, %.17g]", total, DBL_MAX);
    if (N > 0 && !(total > 0.0))
        return zvp_fail(err, ZVP_EINVAL,
                        "think_s + sum of replicas x demand_s = 0 with customers = %lu: the "
                        "cycle time must be in (0, %.17g] when customers > 0", N, DBL_MAX);
    *think_total = tt;
    return ZVP_SUCCESS;
}

/* The work limit; *general = number of entries needing their own normalising constant. */
static int ld_check_work(const zvp_station *stations, size_t K, unsigned long N, size_t *general,
                         zvp_error *err)
{
    size_t gen = 0;
    double units_q = 0.0, units_g = 0.0; /* queue and general replica units */
    for (size_t k = 0; k < K; k++) {
        int t = treat(&stations[k], N);
        if (t == 3) {
            gen++;
            units_g += (double)stations[k].replicas;
        } else if (t == 2) {
            units_q += (double)stations[k].replicas;
        }
    }
    const double nd = (double)N;
    const double work = ((double)gen + 1.0) * (nd * units_q + nd * nd * units_g) + nd * (double)K;
    if (work > (double)ZVP_QUEUE_MAX_WORK)
        return zvp_fail(err, ZVP_EINVAL,
                        "zvp_mva_ld: estimated work %.3g ((%zu general entries + 1) x "
                        "(customers %lu x %.0f queue units + customers^2 x %.0f general "
                        "units)) exceeds the limit ZVP_QUEUE_MAX_WORK = %.3g: use fewer "
                        "customers, or zvp_mva_exact for m-server stations (O(N m)), or "
                        "zvp_mva_approx (an m-server station with m >= customers is a delay "
                        "station exactly and costs O(1))",
                        work, gen, N, units_q, units_g, (double)ZVP_QUEUE_MAX_WORK);
    *general = gen;
    return ZVP_SUCCESS;
}

/* Buffers of one solve. */
typedef struct {
    double *fac, *g, *gk, *tmp, *q, *u;
} ld_bufs;

/* Queue length and utilization of entry k at population N from the normalising constants
 * g (all entries) and, for a general entry, gk (entry k removed, built here). */
static void ld_station(const zvp_station *stations, size_t K, size_t k, double think_total,
                       unsigned long N, double x, const ld_bufs *b, double *qk, double *uk)
{
    const zvp_station *st = &stations[k];
    const size_t len = (size_t)N + 1;
    const double gN = b->g[N];
    switch (treat(st, N)) {
    case 0: *qk = 0.0; *uk = 0.0; break;
    case 1:
        *qk = x * st->demand_s;
        *uk = st->kind == ZVP_STATION_MULTI ? *qk / (double)st->servers : *qk;
        break;
    case 2: {
        const double ld = log(st->demand_s);
        double s = 0.0;
        for (unsigned long j = 1; j <= N; j++)
            s += exp((double)j * ld + b->g[N - j] - gN);
        *qk = s;
        *uk = x * st->demand_s;
        break;
    }
    default: {
        build_g(stations, K, think_total, N, b->fac, k, b->gk, b->tmp);
        const double *f = b->fac + k * len;
        double s = 0.0, p0 = exp(f[0] + b->gk[N] - gN);
        for (unsigned long j = 1; j <= N; j++)
            s += (double)j * exp(f[j] + b->gk[N - j] - gN);
        *qk = s;
        *uk = st->kind == ZVP_STATION_MULTI ? x * st->demand_s / (double)st->servers : 1.0 - p0;
        if (*uk < 0.0)
            *uk = 0.0;
    }
    }
}

/* The asymptotic bounds on the solution (a bug if broken). */
static int ld_bounds(const zvp_station *stations, size_t K, double think_s, unsigned long N,
                     double x, const ld_bufs *b, zvp_error *err)
{
    const size_t len = (size_t)N + 1;
    double *dk = b->tmp; /* reuse: demands as an array (len >= 1; K may exceed len) */
    double *own = NULL;
    if (K > len) {
        own = malloc(K * sizeof(double));
        if (!own)
            return zvp_fail(err, ZVP_ENOMEM, "zvp_mva_ld: out of memory");
        dk = own;
    }
    for (size_t k = 0; k < K; k++) {
        dk[k] = stations[k].demand_s;
        /* LD utilization is a busy probability; the bound applies to MULTI/QUEUE only */
        if (stations[k].kind == ZVP_STATION_DELAY || stations[k].kind == ZVP_STATION_LD)
            b->u[k] = 0.0;
    }
    int rc = zvp_qnet_check_bounds(stations, K, dk, think_s, (double)N, x, b->u, 0, err);
    free(own);
    return rc;
}

int zvp_mva_ld(const zvp_station *stations, size_t n_stations, const double *const *alpha,
               double think_s, unsigned long customers, zvp_mva_result *res, zvp_error *err)
{
    if (!res)
        return zvp_fail(err, ZVP_EINVAL, "res = NULL: a result record is required");
    res->throughput_per_s = res->response_s = NAN;
    const size_t K = n_stations;
    const unsigned long N = customers;
    double think_total = think_s;
    size_t general = 0;
    int rc = ld_check_inputs(stations, K, alpha, think_s, N, &think_total, err);
    if (rc != ZVP_SUCCESS)
        return rc;
    if (N == 0) {
        zvp_qnet_empty(stations, K, res);
        return ZVP_SUCCESS;
    }
    if ((rc = ld_check_work(stations, K, N, &general, err)) != ZVP_SUCCESS)
        return rc;
    const size_t len = (size_t)N + 1;
    ld_bufs b;
    b.fac = general ? malloc(K * len * sizeof(double)) : NULL;
    b.g = malloc(len * sizeof(double));
    b.gk = malloc(len * sizeof(double));
    b.tmp = malloc(len * sizeof(double));
    b.q = malloc((K + 1) * sizeof(double));
    b.u = malloc((K + 1) * sizeof(double));
    if ((general && !b.fac) || !b.g || !b.gk || !b.tmp || !b.q || !b.u) {
        rc = zvp_fail(err, ZVP_ENOMEM, "zvp_mva_ld: %zu doubles could not be allocated",
                      (K + 3) * len);
        goto out;
    }
    for (size_t k = 0; k < K; k++)
        if (treat(&stations[k], N) == 3)
            log_factors(&stations[k], alpha ? alpha[k] : NULL, N, b.fac + k * len);
    build_g(stations, K, think_total, N, b.fac, K, b.g, b.tmp);
    const double x = exp(b.g[N - 1] - b.g[N]);
    double resp = 0.0;
    for (size_t k = 0; k < K; k++) {
        const zvp_station *st = &stations[k];
        double qk, uk;
        ld_station(stations, K, k, think_total, N, x, &b, &qk, &uk);
        b.q[k] = qk;
        b.u[k] = uk;
        double rk = treat(st, N) == 0 ? 0.0 : qk / x;
        if (treat(st, N) == 1)
            rk = st->demand_s;
        resp += (double)st->replicas * rk;
        if (res->residence_s)
            res->residence_s[k] = rk;
        if (res->queue_length)
            res->queue_length[k] = qk;
        if (res->utilization)
            res->utilization[k] = uk;
    }
    res->throughput_per_s = x;
    res->response_s = resp;
    {
        const zvp_qnet_out o[7] = {{&res->throughput_per_s, 1, "throughput_per_s"},
                                   {&res->response_s, 1, "response_s"},
                                   {res->residence_s, K, "residence_s"},
                                   {res->queue_length, K, "queue_length"},
                                   {res->utilization, K, "utilization"},
                                   {b.q, K, "queue_length"},
                                   {b.u, K, "utilization"}};
        rc = zvp_qnet_finite(o, 7, "zvp_mva_ld", "stations[].demand_s, alpha, think_s, customers",
                             err);
        if (rc != ZVP_SUCCESS)
            goto out;
    }
    rc = ld_bounds(stations, K, think_s, N, x, &b, err);
out:
    free(b.fac);
    free(b.g);
    free(b.gk);
    free(b.tmp);
    free(b.q);
    free(b.u);
    return rc;
}
