/*
 * src/queue/mva.c - exact single-class Mean Value Analysis with delay, single-server and
 * m-server stations and `replicas` identical stations per entry (zvp_mva_exact). The
 * recursion, the stable p(0|n) by complement networks and the cost are derived in
 * src/queue/README.md, "Exact MVA" and "Multi-server stations".
 */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "queue/qnet.h"

/* gamma is rescaled by 2^-GAMMA_SHIFT when a term grows past 2^GAMMA_SHIFT. */
#define GAMMA_SHIFT 900

/* Does entry st need the m-server recursion for population N? (MULTI, m >= 2, m < N,
 * D > 0). N == 0 means "for any N" (the layout of a caller's scratch). */
static int is_tracked(const zvp_station *st, unsigned long customers)
{
    if (st->kind != ZVP_STATION_MULTI || st->servers < 2)
        return 0;
    if (customers == 0)
        return 1;
    return (unsigned long)st->servers < customers && st->demand_s > 0.0;
}

/* The marginals p_k(j|n) of a tracked entry span hundreds of orders of magnitude (p(0|n)
 * of a 1000-server station can be e^-500 while p(900|n) is 0.01, and p(900|n) is built
 * from p(0|n-900)), so each one is kept as a mantissa and a binary exponent. */
#define PAIR_RENORM 0x1p600

static void pair_renorm(double *mant, double *ex)
{
    double a = fabs(*mant);
    if (a != 0.0 && (a > PAIR_RENORM || a < 1.0 / PAIR_RENORM)) {
        int e;
        *mant = frexp(*mant, &e);
        *ex += (double)e;
    }
}

static double pair_value(double mant, double ex)
{
    if (ex < -2200.0)
        return 0.0;
    if (ex > 2200.0)
        ex = 2200.0;
    return ldexp(mant, (int)ex);
}

/* Saturating size_t arithmetic (the result SIZE_MAX means "too large"). */
static size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }
static size_t mul_sat(size_t a, size_t b) { return (b != 0 && a > SIZE_MAX / b) ? SIZE_MAX : a * b; }

/* Doubles of one complement network's workspace (entry kk has one replica fewer):
 * qH[K], then per layout-tracked entry i and per replica copy a stage of m_i + 1 doubles
 * (ring buffer of m_i - 1 throughputs, gamma mantissa, gamma exponent). */
static size_t complement_doubles(const zvp_station *st, size_t K, size_t kk,
                                 unsigned long customers)
{
    size_t total = K;
    for (size_t i = 0; i < K; i++) {
        if (!is_tracked(&st[i], customers))
            continue;
        size_t copies = (size_t)st[i].replicas - (i == kk ? 1 : 0);
        total = add_sat(total, mul_sat(copies, (size_t)st[i].servers + 1));
    }
    return total;
}

/* Total scratch for the layout predicate `customers` (0: every MULTI entry with m >= 2). */
static size_t scratch_layout_doubles(const zvp_station *st, size_t K, unsigned long customers)
{
    size_t total = mul_sat(2, K);
    for (size_t k = 0; k < K; k++)
        if (is_tracked(&st[k], customers))
            total = add_sat(total, mul_sat(2, (size_t)st[k].servers));
    for (size_t k = 0; k < K; k++)
        if (is_tracked(&st[k], customers))
            total = add_sat(total, complement_doubles(st, K, k, customers));
    return total;
}

size_t zvp_mva_scratch_doubles(const zvp_station *stations, size_t n_stations)
{
    if (!stations)
        return mul_sat(2, n_stations);
    return scratch_layout_doubles(stations, n_stations, 0);
}

static int check_station(const zvp_station *st, size_t k, zvp_error *err)
{
    char name[64];
    if (st->kind != ZVP_STATION_QUEUE && st->kind != ZVP_STATION_DELAY &&
        st->kind != ZVP_STATION_MULTI)
        return zvp_fail(err, ZVP_EINVAL,
                        "stations[%zu].kind = %d is out of range [0, 2] "
                        "(ZVP_STATION_QUEUE, ZVP_STATION_DELAY, ZVP_STATION_MULTI)",
                        k, (int)st->kind);
    int rc = zvp_qnet_check_station_counts(st, k, err);
    if (rc)
        return rc;
    if (st->demand_s >= 0.0 && st->demand_s <= DBL_MAX)
        return ZVP_SUCCESS; /* the common case formats no message */
    snprintf(name, sizeof name, "stations[%zu].demand_s", k);
    return zvp_check_range(err, name, st->demand_s, 0.0, DBL_MAX);
}

/* Residence time of one replica of a non-tracked entry given Q(n-1). */
static double simple_residence(const zvp_station *st, double q_prev)
{
    if (st->kind == ZVP_STATION_QUEUE || (st->kind == ZVP_STATION_MULTI && st->servers == 1))
        return st->demand_s * (1.0 + q_prev);
    return st->demand_s; /* delay, or m-server with m >= N, or zero demand */
}

/* Shared, read-only description of one solve. */
typedef struct {
    const zvp_station *st;
    size_t K;
    double think_s;
    unsigned long customers; /* N: decides which entries are tracked */
    unsigned long layout;    /* 0 (caller's scratch) or N (own allocation): block sizes */
} mva_ctx;

/* The replicas of entry i in the complement of kk whose stages (m + 1 doubles each, from
 * *stage on) are to be updated: 0 for an entry without stages, and 0 for one with stages in
 * the layout but not tracked at this N (*stage is then moved past them at once). */
static size_t complement_copies(const mva_ctx *c, size_t kk, size_t i, double **stage)
{
    const zvp_station *st = &c->st[i];
    if (!is_tracked(st, c->layout))
        return 0;
    size_t copies = (size_t)st->replicas - (i == kk ? 1 : 0);
    if (!is_tracked(st, c->customers)) { /* layout only: skip its stages at once */
        *stage += copies * ((size_t)st->servers + 1);
        return 0;
    }
    return copies;
}

/* Initialise the workspace of the complement of entry kk (state n = 0). */
static void complement_init(const mva_ctx *c, size_t kk, double *ws)
{
    for (size_t i = 0; i < c->K; i++)
        ws[i] = 0.0;
    double *stage = ws + c->K;
    for (size_t i = 0; i < c->K; i++) {
        size_t copies = complement_copies(c, kk, i, &stage), m = (size_t)c->st[i].servers;
        for (size_t cp = 0; cp < copies; cp++, stage += m + 1) {
            for (size_t j = 0; j + 1 < m; j++)
                stage[j] = 0.0;
            stage[m - 1] = 1.0; /* gamma(0) = c_0 = 1 */
            stage[m] = 0.0;     /* its binary exponent */
        }
    }
}

/* Advance the complement of entry kk from n-1 to n; return X_{-kk}(n) (+inf when the
 * complement has a zero cycle time: then G_{-kk}(n) = 0 for n >= 1). */
static double complement_step(const mva_ctx *c, size_t kk, double *ws, unsigned long n)
{
    double *qh = ws;
    double cycle = c->think_s;
    /* H: tracked m-server entries become single-server queues of demand D/m. */
    for (size_t i = 0; i < c->K; i++) {
        const zvp_station *st = &c->st[i];
        double copies = (double)st->replicas - (i == kk ? 1.0 : 0.0);
        double r;
        if (is_tracked(st, c->customers))
            r = st->demand_s / (double)st->servers * (1.0 + qh[i]);
        else
            r = simple_residence(st, qh[i]);
        qh[i] = r; /* holds R until X is known */
        cycle += copies * r;
    }
    if (!(cycle > 0.0))
        return INFINITY;
    double x = (double)n / cycle;
    for (size_t i = 0; i < c->K; i++)
        qh[i] *= x;

    /* Convolve with P of every tracked replica, in ratio form. */
    double *stage = ws + c->K;
    for (size_t i = 0; i < c->K; i++) {
        const zvp_station *st = &c->st[i];
        size_t copies = complement_copies(c, kk, i, &stage), m = (size_t)st->servers;
        for (size_t cp = 0; cp < copies; cp++, stage += m + 1) {
            const size_t nb = m - 1; /* ring buffer of X_S(n-l), l = 0..m-2 */
            const double d = st->demand_s, md = (double)m;
            stage[n % nb] = x;
            double t = 1.0, s = 1.0;
            int e = 0;
            size_t jmax = (n < (unsigned long)nb) ? (size_t)n : nb;
            for (size_t j = 1; j <= jmax; j++) {
                t *= stage[(n - (j - 1)) % nb] * d / (double)j;
                s += t * ((md - (double)j) / md);
                if (t > 0x1p900) {
                    t = ldexp(t, -GAMMA_SHIFT);
                    s = ldexp(s, -GAMMA_SHIFT);
                    e += GAMMA_SHIFT;
                }
            }
            double g_prev = stage[nb], e_prev = stage[nb + 1];
            x *= ldexp(g_prev / s, (int)e_prev - e);
            stage[nb] = s;
            stage[nb + 1] = (double)e;
        }
    }
    return x;
}

/* Work of a solve, in ZVP_QUEUE_MAX_WORK units (one station update of one customer step):
 * N (1 + K + sum over tracked k of [2 m_k + K + sum over tracked i of r_ik (m_i + 1)]),
 * r_ik = replicas_i - (i == k). O(K) to evaluate. */
static double mva_work(const zvp_station *st, size_t K, unsigned long N)
{
    double stages = 0.0; /* sum over tracked i of replicas_i (m_i + 1) */
    for (size_t i = 0; i < K; i++)
        if (is_tracked(&st[i], N))
            stages += (double)st[i].replicas * ((double)st[i].servers + 1.0);
    double per_step = 1.0 + (double)K;
    for (size_t k = 0; k < K; k++)
        if (is_tracked(&st[k], N)) {
            const double m = (double)st[k].servers;
            per_step += 2.0 * m + (double)K + stages - (m + 1.0);
        }
    return (double)N * per_step;
}

/* Time scaling (src/queue/README.md, "Time scaling"): MVA is invariant under multiplying
 * every demand and the think time by t (times scale by t, throughputs by 1/t, queue lengths
 * and utilizations stay). The binary exponent s that brings the largest time T into
 * [1/2, 1) is used when T is outside [2^-(SCALE_BAND+1), 2^SCALE_BAND); inside it s = 0 and
 * the solve is untouched. SCALE_BAND = 256 keeps the fast recursion's products
 * D_k R_k ~ N (sum D)^2 inside the double range for every accepted N and replicas. */
#define SCALE_BAND 256
static int time_scale_exponent(const zvp_station *st, size_t K, double think_s)
{
    double mx = think_s;
    for (size_t k = 0; k < K; k++)
        if (st[k].demand_s > mx)
            mx = st[k].demand_s;
    int e = 0;
    if (!(mx > 0.0))
        return 0;
    (void)frexp(mx, &e); /* mx = f 2^e, f in [1/2, 1) */
    return (e >= -SCALE_BAND && e <= SCALE_BAND) ? 0 : -e;
}

/* Step 1: the arguments. On success *total_demand = Z + sum_k replicas_k D_k. */
static int check_inputs(const zvp_station *stations, size_t K, double think_s,
                        unsigned long customers, double *total_demand, zvp_error *err)
{
    int rc = zvp_qnet_check_closed(stations, K, think_s, customers, 0, ZVP_MAX_CUSTOMERS, err);
    if (rc)
        return rc;
    double total = think_s;
    for (size_t k = 0; k < K; k++) {
        if ((rc = check_station(&stations[k], k, err)))
            return rc;
        total += (double)stations[k].replicas * stations[k].demand_s;
    }
    if (!isfinite(total)) { /* fine if the scaled solve (below) can represent it */
        const int s = time_scale_exponent(stations, K, think_s);
        double scaled = ldexp(think_s, s);
        for (size_t k = 0; k < K; k++)
            scaled += (double)stations[k].replicas * ldexp(stations[k].demand_s, s);
        if (s == 0 || !isfinite(scaled))
            return zvp_fail(err, ZVP_EINVAL,
                            "think_s + sum of replicas x demand_s = %.17g is out of range "
                            "[0, %.17g]", total, DBL_MAX);
    }
    if (customers > 0 && !(total > 0.0))
        return zvp_fail(err, ZVP_EINVAL,
                        "think_s + sum of replicas x demand_s = 0 with customers = %lu: the "
                        "cycle time must be in (0, %.17g] when customers > 0",
                        customers, DBL_MAX);
    const double work = mva_work(stations, K, customers);
    if (work > (double)ZVP_QUEUE_MAX_WORK) {
        double msum = 0.0;
        for (size_t k = 0; k < K; k++)
            if (is_tracked(&stations[k], customers))
                msum += (double)stations[k].replicas * (double)stations[k].servers;
        return zvp_fail(err, ZVP_EINVAL,
                        "zvp_mva_exact: estimated work %.3g (customers %lu x (1 + %zu stations + "
                        "the m-server recursions over %.0f servers)) exceeds the limit "
                        "ZVP_QUEUE_MAX_WORK = %.3g: use fewer customers or fewer servers (an "
                        "m-server station with m >= customers is exactly a delay station and "
                        "costs nothing extra), or an approximate method (zvp_mva_approx, "
                        "Schweitzer/Bard)",
                        work, customers, K, msum, (double)ZVP_QUEUE_MAX_WORK);
    }
    *total_demand = total;
    return ZVP_SUCCESS;
}

/* The workspace of one solve. Layout: q[K], r[K], a block of 2 m doubles per layout-tracked
 * entry (mantissas and binary exponents of p(0..m-1)), then one complement workspace per
 * such entry. */
typedef struct {
    double *q, *r;
    double *pblock; /* first marginal block */
    double *comp;   /* first complement workspace */
} mva_work_area;

/* Step 2: lay out the workspace w and set the state n = 0. */
static void workspace_init(const mva_ctx *c, double *w, mva_work_area *a)
{
    const zvp_station *stations = c->st;
    const size_t K = c->K;
    a->q = w;
    a->r = w + K;
    a->pblock = w + 2 * K;
    a->comp = a->pblock;
    for (size_t k = 0; k < K; k++)
        if (is_tracked(&stations[k], c->layout))
            a->comp += 2 * (size_t)stations[k].servers;

    double *p = a->pblock, *cw = a->comp;
    for (size_t k = 0; k < K; k++) {
        a->q[k] = 0.0;
        a->r[k] = 0.0;
        if (!is_tracked(&stations[k], c->layout))
            continue;
        size_t m = (size_t)stations[k].servers;
        if (is_tracked(&stations[k], c->customers)) {
            p[0] = 1.0;
            for (size_t j = 1; j < 2 * m; j++)
                p[j] = 0.0;
            complement_init(c, k, cw);
        }
        p += 2 * m;
        cw += complement_doubles(stations, K, k, c->layout);
    }
}

/* Step 3a: the recursion without m-server stations; returns X(N), leaves R(N) in r and Q(N)
 * in q. For a queueing station
 *     R_k(n) = D_k (1 + Q_k(n-1)) = D_k (1 + X(n-1) R_k(n-1)),
 * so the cycle time is  Z + sum_k rep_k D_k + X(n-1) B(n-1)  with
 * B(n-1) = sum_queue rep_k D_k R_k(n-1) (delay stations: R_k = D_k). The chain from X(n-1) to
 * X(n) is one multiply, one add and one division; R(n) and B(n) are computed beside it (four
 * partial sums, combined in a fixed order). This is the textbook recursion rearranged, not an
 * approximation. While it runs, q[k] holds the weight rep_k D_k of a queueing station and -1
 * for a delay station. */
#define ZVP_MVA_STEP(k, acc)                                                                \
    do {                                                                                   \
        if (q[k] >= 0.0) {                                                                 \
            r[k] = stations[k].demand_s * (1.0 + xprev * r[k]);                            \
            acc += q[k] * r[k];                                                            \
        }                                                                                  \
    } while (0)
static double solve_plain(const mva_ctx *c, double *q, double *r)
{
    const zvp_station *stations = c->st;
    const size_t K = c->K;
    double x = 0.0, a = c->think_s, b = 0.0, xprev = 0.0;
    for (size_t k = 0; k < K; k++) {
        const zvp_station *st = &stations[k];
        const int queueing = st->kind == ZVP_STATION_QUEUE ||
                             (st->kind == ZVP_STATION_MULTI && st->servers == 1);
        a += (double)st->replicas * st->demand_s;
        q[k] = queueing ? (double)st->replicas * st->demand_s : -1.0;
        r[k] = st->demand_s;
    }
    for (unsigned long n = 1; n <= c->customers; n++) {
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        size_t k = 0;
        x = (double)n / (a + xprev * b);
        for (; k + 4 <= K; k += 4) { /* R(n), B(n) from X(n-1) = xprev */
            ZVP_MVA_STEP(k, s0);
            ZVP_MVA_STEP(k + 1, s1);
            ZVP_MVA_STEP(k + 2, s2);
            ZVP_MVA_STEP(k + 3, s3);
        }
        for (; k < K; k++)
            ZVP_MVA_STEP(k, s0);
        b = (s0 + s1) + (s2 + s3);
        xprev = x;
    }
    /* x = X(N), r = R(N): Q_k(N) = X(N) R_k(N) */
    for (size_t k = 0; k < K; k++)
        q[k] = x * r[k];
    return x;
}
#undef ZVP_MVA_STEP

/* Step 3b, first half of one step n: residence times R_k(n) from Q(n-1) and the marginals
 * p(j|n-1); returns the cycle time Z + sum_k replicas_k R_k(n). */
static double tracked_residences(const mva_ctx *c, const mva_work_area *a)
{
    const zvp_station *stations = c->st;
    double cycle = c->think_s;
    double *p = a->pblock;
    for (size_t k = 0; k < c->K; k++) {
        const zvp_station *st = &stations[k];
        double rk;
        if (is_tracked(st, c->customers)) {
            const size_t m = (size_t)st->servers;
            double extra = 0.0; /* sum_{j=0}^{m-2} (m-1-j) p(j|n-1) */
            for (size_t j = 0; j + 1 < m; j++)
                extra += (double)(m - 1 - j) * pair_value(p[j], p[m + j]);
            rk = (st->demand_s / (double)m) * (1.0 + a->q[k] + extra);
        } else {
            rk = simple_residence(st, a->q[k]);
        }
        a->r[k] = rk;
        cycle += (double)st->replicas * rk;
        if (is_tracked(st, c->layout))
            p += 2 * (size_t)st->servers;
    }
    return cycle;
}

/* Step 3b, second half: Q(n) = X(n) R(n), and the marginals p(j|n) of every tracked entry
 * (p(0|n) by the complement-network ratio). */
static void tracked_update(const mva_ctx *c, const mva_work_area *a, double x, unsigned long n)
{
    const zvp_station *stations = c->st;
    double *p = a->pblock, *cw = a->comp;
    for (size_t k = 0; k < c->K; k++) {
        const zvp_station *st = &stations[k];
        a->q[k] = x * a->r[k];
        if (!is_tracked(st, c->layout))
            continue;
        const size_t m = (size_t)st->servers;
        if (is_tracked(st, c->customers)) {
            const double x_without = complement_step(c, k, cw, n);
            const double xd = x * st->demand_s;
            double *pe = p + m;
            for (size_t j = m - 1; j >= 1; j--) {
                p[j] = xd / (double)j * p[j - 1];
                pe[j] = pe[j - 1];
                pair_renorm(&p[j], &pe[j]);
            }
            p[0] *= x / x_without; /* G_{-k}(n)/G(n); 0 when x_without = +inf */
            pair_renorm(&p[0], &pe[0]);
        }
        p += 2 * m;
        cw += complement_doubles(stations, c->K, k, c->layout);
    }
}

/* Step 3b: the recursion with m-server stations; returns X(N). Afterwards the first m doubles
 * of each marginal block hold the plain p(0..m-1 | N) (documented for callers). */
static double solve_tracked(const mva_ctx *c, const mva_work_area *a)
{
    double x = 0.0;
    for (unsigned long n = 1; n <= c->customers; n++) {
        x = (double)n / tracked_residences(c, a);
        tracked_update(c, a, x, n);
    }
    double *p = a->pblock;
    for (size_t k = 0; k < c->K; k++) {
        if (!is_tracked(&c->st[k], c->layout))
            continue;
        size_t m = (size_t)c->st[k].servers;
        if (is_tracked(&c->st[k], c->customers))
            for (size_t j = 0; j < m; j++)
                p[j] = pair_value(p[j], p[m + j]);
        p += 2 * m;
    }
    return x;
}

/* Step 4: the result record, then the asymptotic bounds X <= N/(Z + sum D) and X <= m_k/D_k
 * (QSP sec. 5.2): a result that breaks them is a bug, never output. */
static int finish(const mva_ctx *c, const double *q, const double *r, double x,
                  double total_demand, zvp_mva_result *res, zvp_error *err)
{
    const zvp_station *stations = c->st;
    const size_t K = c->K;
    double resp = 0.0;
    for (size_t k = 0; k < K; k++)
        resp += (double)stations[k].replicas * r[k];
    res->throughput_per_s = x;
    res->response_s = resp;
    for (size_t k = 0; k < K; k++) {
        const zvp_station *st = &stations[k];
        double servers = st->kind == ZVP_STATION_MULTI ? (double)st->servers : 1.0;
        if (res->residence_s)
            res->residence_s[k] = r[k];
        if (res->queue_length)
            res->queue_length[k] = q[k];
        if (res->utilization)
            res->utilization[k] = x * st->demand_s / servers;
    }
    int rc = zvp_qnet_mva_finite(res, K, "zvp_mva_exact", "stations[].demand_s, think_s, customers",
                                 err);
    if (rc != ZVP_SUCCESS)
        return rc;
    for (size_t k = 0; k < K; k++) {
        const zvp_station *st = &stations[k];
        if (st->kind == ZVP_STATION_DELAY)
            continue;
        double m = st->kind == ZVP_STATION_MULTI ? (double)st->servers : 1.0;
        if (x * st->demand_s / m > 1.0 + 1e-9) {
            res->throughput_per_s = res->response_s = NAN;
            return zvp_fail(err, ZVP_EINTERNAL,
                            "internal check failed: stations[%zu] utilization %.17g > 1 breaks "
                            "the bound X <= m/D (a solver bug; please report)",
                            k, x * st->demand_s / m);
        }
    }
    if (x > (1.0 + 1e-9) * (double)c->customers / total_demand) {
        res->throughput_per_s = res->response_s = NAN;
        return zvp_fail(err, ZVP_EINTERNAL,
                        "internal check failed: X = %.17g breaks the bound N/(Z + sum D) = %.17g "
                        "(a solver bug; please report)",
                        x, (double)c->customers / total_demand);
    }
    return ZVP_SUCCESS;
}

/* Steps 2-4 on checked inputs with N > 0 (total_demand = Z + sum replicas D). */
static int solve_checked(const zvp_station *stations, size_t K, double think_s,
                         unsigned long customers, double total_demand, zvp_mva_result *res,
                         double *scratch, zvp_error *err)
{
    mva_ctx c = {stations, K, think_s, customers, scratch ? 0 : customers};
    double *own = NULL;
    double *w = scratch;
    if (!w) {
        size_t need = scratch_layout_doubles(stations, K, customers);
        if (need == 0)
            need = 1;
        if (need == SIZE_MAX || need > SIZE_MAX / sizeof(double) ||
            !(own = malloc(need * sizeof(double))))
            return zvp_fail(err, ZVP_ENOMEM,
                            "mva scratch of %zu doubles could not be allocated", need);
        w = own;
    }
    mva_work_area a;
    workspace_init(&c, w, &a);
    int any_tracked = 0;
    for (size_t k = 0; k < K; k++)
        any_tracked |= is_tracked(&stations[k], customers);
    const double x = any_tracked ? solve_tracked(&c, &a) : solve_plain(&c, a.q, a.r);
    int rc = finish(&c, a.q, a.r, x, total_demand, res, err);
    free(own);
    return rc;
}

/* Solve with every time multiplied by 2^s (exact in binary floating point), then scale the
 * times back (x 2^-s) and the throughput (x 2^s) and check that they are still finite. */
static int solve_scaled(const zvp_station *stations, size_t K, double think_s,
                        unsigned long customers, int s, zvp_mva_result *res, double *scratch,
                        zvp_error *err)
{
    zvp_station *sc = calloc(K ? K : 1, sizeof *sc);
    if (!sc)
        return zvp_fail(err, ZVP_ENOMEM, "zvp_mva_exact: %zu scaled stations could not be "
                        "allocated", K);
    const double z = ldexp(think_s, s);
    double total = z;
    for (size_t k = 0; k < K; k++) {
        sc[k] = stations[k];
        sc[k].demand_s = ldexp(stations[k].demand_s, s);
        total += (double)sc[k].replicas * sc[k].demand_s;
    }
    int rc = solve_checked(sc, K, z, customers, total, res, scratch, err);
    free(sc);
    if (rc != ZVP_SUCCESS)
        return rc;
    res->throughput_per_s = ldexp(res->throughput_per_s, s);
    res->response_s = ldexp(res->response_s, -s);
    for (size_t k = 0; k < K; k++) {
        if (res->residence_s)
            res->residence_s[k] = ldexp(res->residence_s[k], -s);
        if (scratch) /* [K, 2K): R_k(N) */
            scratch[K + k] = ldexp(scratch[K + k], -s);
    }
    return zvp_qnet_mva_finite(res, K, "zvp_mva_exact", "stations[].demand_s, think_s, customers",
                               err);
}

int zvp_mva_exact(const zvp_station *stations, size_t n_stations, double think_s,
                  unsigned long customers, zvp_mva_result *res, double *scratch, zvp_error *err)
{
    double total_demand = 0.0;
    if (!res)
        return zvp_fail(err, ZVP_EINVAL, "res = NULL: a result record is required");
    res->throughput_per_s = NAN;
    res->response_s = NAN;
    int rc = check_inputs(stations, n_stations, think_s, customers, &total_demand, err);
    if (rc != ZVP_SUCCESS)
        return rc;
    if (customers == 0) {
        zvp_qnet_empty(stations, n_stations, res);
        return ZVP_SUCCESS;
    }
    const int s = time_scale_exponent(stations, n_stations, think_s);
    if (s != 0)
        return solve_scaled(stations, n_stations, think_s, customers, s, res, scratch, err);
    return solve_checked(stations, n_stations, think_s, customers, total_demand, res, scratch,
                         err);
}
