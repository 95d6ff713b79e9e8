/*
 * src/sim/stats.c - the statistics of the simulator: MSER-5 warm-up deletion on the slice
 * means of a run, the figures of a window of slices (from the cumulative snapshots and the
 * tagged reservoirs), and Student-t 95% intervals. src/sim/README.md, "Statistics".
 */
#include <gsl/gsl_cdf.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"

/* Time-average number of jobs at the stations in slice i (the MSER indicator). */
static double slice_jobs(const sim_net *n, const sim_run *r, size_t i)
{
    const double *a = r->snap + i * r->W, *b = a + r->W;
    const double dt = b[r->W - 1] - a[r->W - 1];
    double q = 0.0;
    for (size_t x = 0; x < n->K * n->C; x++)
        q += b[SNAP_CELL * x + SN_AREA_N] - a[SNAP_CELL * x + SN_AREA_N];
    return dt > 0 ? q / dt : 0.0;
}

void sim_batch_series(const sim_net *n, const sim_run *r, double *z)
{
    for (size_t b = 0; b < SIM_MSER_BATCHES; b++) {
        double s = 0.0;
        for (size_t i = 0; i < 5; i++)
            s += slice_jobs(n, r, 5 * b + i);
        z[b] = s / 5.0;
    }
}

size_t sim_mser5(const double *z)
{
    /* MSER(d) = sum_{b >= d} (z_b - mean_d)^2 / (NB - d)^2, d in [0, NB/2] (White 1997;
     * MSER-5: White, Cobb & Spratt 2000) */
    const size_t NB = SIM_MSER_BATCHES;
    size_t best = 0;
    double best_v = INFINITY;
    for (size_t d = 0; d <= NB / 2; d++) {
        double m = 0.0, ss = 0.0;
        for (size_t b = d; b < NB; b++)
            m += z[b];
        m /= (double)(NB - d);
        for (size_t b = d; b < NB; b++)
            ss += (z[b] - m) * (z[b] - m);
        double v = ss / ((double)(NB - d) * (double)(NB - d));
        if (v < best_v) {
            best_v = v;
            best = d;
        }
    }
    return 5 * best;
}

static int cmp_rec(const void *a, const void *b)
{
    double x = ((const sim_sample_rec *)a)->v, y = ((const sim_sample_rec *)b)->v;
    return (x > y) - (x < y);
}

/* p50, p95, p99 (type 7: linear interpolation between order statistics) of the reservoir
 * samples tagged with a slice in [s0[i], s1), for each of the n_s0 starts (out[i * nf + q]);
 * NaN when there are none. One sort; then one pass per start. */
static void percentiles(const sim_reservoir *res, const size_t *s0, size_t n_s0, size_t s1,
                        sim_sample_rec *buf, double *out, size_t nf)
{
    static const double p[3] = {0.50, 0.95, 0.99};
    size_t m = 0;
    for (uint32_t i = 0; i < res->n; i++)
        if (res->s[i].slice < s1)
            buf[m++] = res->s[i];
    qsort(buf, m, sizeof *buf, cmp_rec);
    for (size_t w = 0; w < n_s0; w++) {
        size_t cnt = 0;
        for (size_t i = 0; i < m; i++)
            cnt += buf[i].slice >= s0[w];
        double *o = out + w * nf;
        if (cnt == 0) {
            o[0] = o[1] = o[2] = NAN;
            continue;
        }
        for (int q = 0; q < 3; q++) {
            double h = (double)(cnt - 1) * p[q];
            size_t lo = (size_t)floor(h), rank = 0, i = 0;
            double vlo = NAN, vhi = NAN;
            for (; i < m; i++)
                if (buf[i].slice >= s0[w] && rank++ == lo) {
                    vlo = vhi = buf[i].v;
                    break;
                }
            for (i++; lo + 1 < cnt && i < m; i++)
                if (buf[i].slice >= s0[w]) {
                    vhi = buf[i].v;
                    break;
                }
            o[q] = vlo + (h - (double)lo) * (vhi - vlo);
        }
    }
}

/* The moments (X, U, Q, R) of the window [s0, s1) into f. */
static void moments(const sim_net *n, const sim_run *r, size_t s0, size_t s1, double *f)
{
    const size_t K = n->K, C = n->C, C1 = C + 1, KC = K * C;
    const double *a = r->snap + s0 * r->W, *b = r->snap + s1 * r->W;
    const double T = b[r->W - 1] - a[r->W - 1];
#define D(i) (b[(i)] - a[(i)])
    for (size_t k = 0; k <= K; k++)
        for (size_t c = 0; c <= C; c++) {
            double *g = f + (k * C1 + c) * SIM_NFIG;
            double dep = 0, resp = 0, an = 0, ab = 0, work = 0, wall = 0, lq = 0;
            for (size_t cc = (c == C ? 0 : c); cc < (c == C ? C : c + 1); cc++) {
                if (k == K) {
                    const size_t o = SNAP_CELL * KC + K + 2 * cc;
                    dep += D(o);
                    resp += D(o + 1);
                    for (size_t kk = 0; kk < K; kk++) {
                        const size_t i = SNAP_CELL * (kk * C + cc);
                        an += D(i + SN_AREA_N);
                        work += D(i + SN_RESP) - D(i + SN_WORK); /* waiting, s */
                        lq += f[(kk * C1 + cc) * SIM_NFIG + F_LQ];
                    }
                    continue;
                }
                const size_t i = SNAP_CELL * (k * C + cc);
                dep += D(i + SN_DEP);
                resp += D(i + SN_RESP);
                an += D(i + SN_AREA_N);
                ab += D(i + SN_AREA_B);
                work += D(i + SN_WORK);
            }
            g[F_X] = dep / T;
            g[F_Q] = an / T;
            g[F_R] = dep > 0 ? resp / dep : NAN;
            g[F_U] = NAN;
            g[F_LQ] = lq;
            g[F_W] = dep > 0 ? (k == K ? work : resp - work) / dep : NAN;
            if (k < K) {
                const double m = n->m[k] == LONG_MAX ? 1.0 : (double)n->m[k];
                const double stb = D(SNAP_CELL * KC + k);
                for (size_t cc = 0; cc < C; cc++)
                    wall += D(SNAP_CELL * (k * C + cc) + SN_WORK);
                if (n->disc[k] == ZVP_SIM_PS) {
                    double busy = wall > 0 ? stb * work / wall : 0.0; /* class share */
                    g[F_U] = busy / (m * T);
                    g[F_LQ] = (an - busy) / T;
                } else if (n->m[k] == LONG_MAX) {
                    g[F_U] = an / T;
                    g[F_LQ] = 0.0;
                } else {
                    g[F_U] = ab / (m * T);
                    g[F_LQ] = (an - ab) / T;
                }
            }
        }
#undef D
}

int sim_window(const sim_net *n, const sim_run *r, const size_t *s0, size_t n_s0, size_t s1,
               double *f)
{
    const size_t K = n->K, C = n->C, C1 = C + 1, KC = K * C, nf = (K + 1) * C1 * SIM_NFIG;
    sim_sample_rec *buf = malloc((r->res[0].k ? r->res[0].k : 1) * sizeof *buf);
    if (!buf)
        return -1;
    for (size_t w = 0; w < n_s0; w++)
        moments(n, r, s0[w], s1, f + w * nf);
    for (size_t k = 0; k <= K; k++)
        for (size_t c = 0; c <= C; c++) {
            size_t ri = k < K ? (c < C ? k * C + c : (C > 1 ? KC + k : k * C))
                              : (c < C ? KC + K + c : (C > 1 ? KC + K + C : KC + K));
            percentiles(&r->res[ri], s0, n_s0, s1, buf, f + (k * C1 + c) * SIM_NFIG + F_P50, nf);
        }
    free(buf);
    return 0;
}

void sim_interval(const double *x, size_t n_units, size_t stride, zvp_sim_estimate *e)
{
    size_t n = 0;
    double m = 0.0, ss = 0.0;
    for (size_t u = 0; u < n_units; u++) {
        double v = x[u * stride];
        if (isnan(v))
            continue;
        n++;
        double d = v - m;
        m += d / (double)n;
        ss += d * (v - m);
    }
    e->mean = n ? m : NAN;
    if (n < 2) {
        e->half_width = e->ci_lo = e->ci_hi = NAN;
        return;
    }
    e->half_width = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sqrt(ss / (double)(n - 1)) /
                    sqrt((double)n);
    e->ci_lo = m - e->half_width;
    e->ci_hi = m + e->half_width;
}
