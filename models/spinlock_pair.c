/*
 * models/spinlock_pair.c - the spinlock model for two CPUs and any zones, exactly: a
 * continuous-time Markov chain whose states are "both working", "one holds zone z (hold in
 * phase i), the other works", "one holds z, the other spins on z" and "both hold different
 * zones (phases i, j)", the holds drawn as the simulator draws them (phase type: mixed Erlang
 * for c2 < 1, exponential, H2 for c2 > 1; constant holds and the constant handoff as Erlang-K,
 * extrapolated in 1/K). The zones enter through one linear solve per zone probability class.
 * Derivation: models/README.md, spinlock, "Two CPUs".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_linalg.h>
#include "internal.h"
#include "spinlock.h"

/* Erlang phases for a constant (hold or handoff): K, 2K and 4K, Richardson-extrapolated,
 * K = PAIR_K, or PAIR_K / 4 with many zone classes (one solve of 4K + 4K phases each). */
#ifndef PAIR_K
#define PAIR_K 32
#endif
/* Work budget (phases^3 x zone classes) for the mixed Erlang of c2 < 1: with more phases
 * (c2 < 1/k_cap), linear in c2 between the constant hold and Erlang-k_cap. */
#define PAIR_BUDGET 3e8
/* The same for the Erlang-k_cap end of near-constant holds (c2 < 1/k_cap): k_cap^3 x classes
 * within this (a dense solve of k_cap + handoff stages, three times with a handoff). */
#define PAIR_KCAP_BUDGET 3e7
/* Many skewed zones: a zone class of probability p with p nu < PAIR_TAIL_RHO (nu = the norm of
 * A(0)^{-1} (A(p) - A(0)) / p) takes A(p)^{-1} from its series in p to the p^2 term (error
 * below (p nu)^3 = 1e-9 relative), so the whole tail costs three products, not one solve per
 * zone; used past PAIR_TAIL_MIN classes. */
#define PAIR_TAIL_RHO 1e-3
#define PAIR_TAIL_MIN 64

/* A hold as a phase-type distribution on n phases, upper triangular: T[x][y] the rate from x
 * to y (x < y), d[x] the total rate out of x, t[x] the rate of the end, alpha the first phase
 * of a hold without handoff, alpha_h of a hold after a handoff (handoff phases first). */
typedef struct pair_ph {
    size_t n;
    double *T, *d, *t, *alpha, *alpha_h;
} pair_ph;

/* Fills ph (arrays of n x n + 4 n, n = pair_phases(...)) for hold S, SCV c2, handoff h. */
static size_t hold_phases(double c2, unsigned K)
{
    if (c2 == 0.0)
        return K;
    if (c2 < 1.0)
        return (size_t)ceil(1.0 / c2 - 1e-12);
    return c2 > 1.0 ? 2 : 1;
}

static size_t pair_phases(double c2, double h, unsigned K)
{
    return hold_phases(c2, K) + (h > 0.0 ? K : 0);
}

static void pair_build(double S, double c2, double h, unsigned K, pair_ph *ph)
{
    const size_t nh = h > 0.0 ? K : 0, ns = hold_phases(c2, K), n = nh + ns;
    double *T = ph->T, *al = ph->alpha;
    memset(T, 0, n * n * sizeof *T);
    memset(ph->t, 0, n * sizeof *ph->t);
    memset(al, 0, n * sizeof *al);
    if (c2 > 1.0) { /* H2 as src/sim/dist.c draws it */
        const double p = 0.5 * (1.0 + sqrt((c2 - 1.0) / (c2 + 1.0)));
        al[nh] = p;
        al[nh + 1] = 1.0 - p;
        ph->t[nh] = 2.0 * p / S;
        ph->t[nh + 1] = 2.0 * (1.0 - p) / S;
    } else {
        double r = (double)ns / S, p = 0.0; /* constant: Erlang-K; exponential: ns = 1 */
        if (c2 > 0.0 && c2 < 1.0) { /* k - 1 phases with probability p, else k, rate r */
            const double k = (double)ns;
            p = (k * c2 - sqrt(fmax(0.0, k * (1.0 + c2) - k * k * c2))) / (1.0 + c2);
            p = fmin(fmax(p, 0.0), 1.0);
            r = (k - p) / S;
        }
        al[nh] = 1.0 - p;
        if (ns > 1)
            al[nh + 1] = p;
        for (size_t x = nh; x + 1 < n; x++)
            T[x * n + x + 1] = r;
        ph->t[n - 1] = r;
    }
    for (size_t x = 0; x < nh; x++) { /* the handoff: Erlang-K of mean h, then the hold */
        const double r = (double)nh / h;
        if (x + 1 < nh)
            T[x * n + x + 1] = r;
        else
            for (size_t y = nh; y < n; y++)
                T[x * n + y] = r * al[y];
    }
    for (size_t x = 0; x < n; x++) {
        ph->d[x] = ph->t[x];
        for (size_t y = x + 1; y < n; y++)
            ph->d[x] += T[x * n + y];
        ph->alpha_h[x] = nh ? (x == 0 ? 1.0 : 0.0) : al[x];
    }
    ph->n = n;
}

/* The two-holder block: from older phase i and newer phase alpha, the time spent in each
 * (x, y) solves w (-(T (+) T)) = e_i (x) alpha, forward in (x, y) (T upper triangular). Writes
 * Go[i][y] = a sum_x w[x][y] t[x] (older ends: the newer holds on in y), Gn[i][x] (newer ends)
 * and mv[i] = a sum w (the time both hold); r[x] = (-T)^{-1} 1, the rest of a hold. w: [n n],
 * pl: [n n + n + 1]. */
static void pair_blocks(const pair_ph *ph, double a, int mirror, double *Go, double *Gn,
                        double *mv, double *r, double *w, size_t *pl)
{
    const size_t n = ph->n;
    const double *T = ph->T;
    for (size_t x = n; x-- > 0;) {
        double s = 1.0;
        for (size_t y = x + 1; y < n; y++)
            s += T[x * n + y] * r[y];
        r[x] = s / ph->d[x];
    }
    if (mirror) {
        /* constant holds, no handoff: the newer hold always outlasts the older, and when the
         * older ends the newer has left what the older had done (its age at the arrival):
         * from older phase i (i of the n stages done, n - i left) the newer goes on with i
         * stages left, phase n - i (i = 0: both end together, both CPUs work) */
        memset(Go, 0, n * n * sizeof *Go);
        memset(Gn, 0, n * n * sizeof *Gn);
        for (size_t i = 0; i < n; i++) {
            if (i > 0)
                Go[i * n + n - i] = a;
            mv[i] = a * r[i];
        }
        return;
    }
    size_t *cp = pl, *ri = pl + n + 1, nz = 0; /* T by columns: the phases leading to x */
    for (size_t x = 0; x < n; x++) {
        cp[x] = nz;
        for (size_t u = 0; u < x; u++)
            if (T[u * n + x] != 0.0)
                ri[nz++] = u;
    }
    cp[n] = nz;
    for (size_t i = 0; i < n; i++) {
        double m = 0.0;
        memset(w, 0, n * n * sizeof *w);
        for (size_t x = i; x < n; x++)
            for (size_t y = 0; y < n; y++) {
                double s = x == i ? ph->alpha[y] : 0.0;
                for (size_t k = cp[x]; k < cp[x + 1]; k++)
                    s += w[ri[k] * n + y] * T[ri[k] * n + x];
                for (size_t k = cp[y]; k < cp[y + 1]; k++)
                    s += w[x * n + ri[k]] * T[ri[k] * n + y];
                w[x * n + y] = s / (ph->d[x] + ph->d[y]);
                m += w[x * n + y];
            }
        mv[i] = a * m;
        for (size_t y = 0; y < n; y++) {
            double go = 0.0, gn = 0.0;
            for (size_t x = 0; x < n; x++) { /* w[x][.] = 0 for x < i */
                go += w[x * n + y] * ph->t[x];
                gn += w[y * n + x] * ph->t[x];
            }
            Go[i * n + y] = a * go;
            Gn[i * n + y] = a * gn;
        }
    }
}

/* The tail of small zone probabilities (models/README.md, spinlock, "Two CPUs"): with
 * A(p) = A0 + p M1, A(p)^{-1} = E0 - p E1 + p^2 E2 + O(p^3), E0 = A0^{-1}, E1 = E0 M1 E0,
 * E2 = E0 M1 E1. Marks tail[g] for the classes g > 0 with p_g nu < rho and adds
 * their sum_g m_g p_g A(p_g)^{-1} to B; writes tv[0..4n): the tail's A^{-1}-weighted vectors
 * for lone (1), spin (r), both (mv) and collisions (1), as pair_solve combines them.
 * Returns 0 (none in the tail), 1 (some), or -1 (singular). w: [4 n n]. */
static int pair_tail(const pair_ph *ph, double a, const double *Go, const double *Gn,
                     const double *r, const double *mv, size_t G, const double *mz,
                     const double *pz, double rho, double *B, double *tv, unsigned char *tail,
                     double *w, gsl_matrix *A, gsl_matrix *Ai, gsl_permutation *P)
{
    const size_t n = ph->n;
    double *Km = w, *E0 = w + n * n, *E1 = w + 2 * n * n, *E2 = w + 3 * n * n, S[6] = {0};
    int sg, any = 0;
    for (size_t x = 0; x < n; x++)
        for (size_t y = 0; y < n; y++)
            gsl_matrix_set(A, x, y, ph->T[x * n + y] - (x == y ? a + ph->d[x] : 0.0) +
                                        Gn[x * n + y]);
    if (gsl_linalg_LU_decomp(A, P, &sg) || gsl_linalg_LU_invert(A, P, Ai))
        return -1;
    double nu = 0.0;
    for (size_t x = 0; x < n; x++) {
        double row = 0.0;
        for (size_t y = 0; y < n; y++) {
            double k = 0.0; /* (E0 M1)[x][y], M1 = a 1 alpha_h - Go - Gn */
            for (size_t u = 0; u < n; u++)
                k += gsl_matrix_get(Ai, x, u) *
                     (a * ph->alpha_h[y] - Go[u * n + y] - Gn[u * n + y]);
            Km[x * n + y] = k;
            E0[x * n + y] = gsl_matrix_get(Ai, x, y);
            row += fabs(k);
        }
        nu = fmax(nu, row);
    }
    for (size_t g = 0; g < G; g++) {
        tail[g] = g > 0 && pz[g] * nu < rho;
        if (!tail[g])
            continue;
        any = 1;
        for (int k = 1; k < 6; k++)
            S[k] += mz[g] * pow(pz[g], k);
    }
    if (!any)
        return 0;
    for (size_t x = 0; x < n; x++) /* E1 = (E0 M1) E0, E2 = (E0 M1) E1 */
        for (size_t y = 0; y < n; y++) {
            double e = 0.0;
            for (size_t u = 0; u < n; u++)
                e += Km[x * n + u] * E0[u * n + y];
            E1[x * n + y] = e;
        }
    for (size_t x = 0; x < n; x++)
        for (size_t y = 0; y < n; y++) {
            double e = 0.0;
            for (size_t u = 0; u < n; u++)
                e += Km[x * n + u] * E1[u * n + y];
            E2[x * n + y] = e;
        }
    /* weights of E0, E1, E2: B (p), lone (p, on 1), spin (p^2, on r), both ((1 - p) p, on mv),
     * collisions (p^2, on 1) */
    const double wb[3] = {S[1], -S[2], S[3]}, w2[3] = {S[2], -S[3], S[4]},
                 wm[3] = {S[1] - S[2], -(S[2] - S[3]), S[3] - S[4]};
    const double *E[3] = {E0, E1, E2};
    memset(tv, 0, 4 * n * sizeof *tv);
    for (int k = 0; k < 3; k++)
        for (size_t x = 0; x < n; x++)
            for (size_t y = 0; y < n; y++) {
                const double e = E[k][x * n + y];
                B[x * n + y] += wb[k] * e;
                tv[x] += wb[k] * e;
                tv[n + x] += w2[k] * e * r[y];
                tv[2 * n + x] += wm[k] * e * mv[y];
                tv[3 * n + x] += w2[k] * e;
            }
    return 1;
}

/* The chain at one phase representation (models/README.md, spinlock, "Two CPUs"): with
 * pi0 = 1 (both working), the lone holder of a zone of probability p has the phase vector
 * v = p c A(p)^{-1}, A(p) = T - a I + a p 1 alpha_h - p Go + (1 - p) Gn, and
 * c = -2 a alpha (I + B Go)^{-1}, B = sum_z p_z A(p_z)^{-1}. G classes of m[g] zones of
 * probability p[g]. Writes the five outputs (the model's order and units). */
static int pair_solve(const pair_ph *ph, double Z, int mirror, size_t G, const double *mz,
                      const double *pz, double rho, double *out)
{
    const size_t n = ph->n;
    const double a = 1.0 / Z;
    int rc = ZVP_ENOMEM;
    double *buf = malloc((8 * n * n + 6 * n + 3 * G * n) * sizeof *buf);
    double *tw = G > PAIR_TAIL_MIN && rho > 0.0 ? malloc((4 * n * n + 4 * n) * sizeof *tw) : NULL;
    unsigned char *tail = calloc(G, 1);
    gsl_matrix *A = gsl_matrix_alloc(n, n), *Ai = gsl_matrix_alloc(n, n);
    gsl_permutation *P = gsl_permutation_alloc(n);
    size_t *pl = malloc((n * n + n + 1) * sizeof *pl);
    if (!buf || !A || !Ai || !P || !pl || !tail || (G > PAIR_TAIL_MIN && rho > 0.0 && !tw))
        goto done;
    double *Go = buf, *Gn = Go + n * n, *B = Gn + n * n, *M = B + n * n, *w = M + n * n;
    double *mv = w + 2 * n * n, *r = mv + n, *c = r + n, *V = c + n, *Y = V + 2 * n;
    int sg;
    pair_blocks(ph, a, mirror, Go, Gn, mv, r, w, pl);
    memset(B, 0, n * n * sizeof *B);
    int has_tail = 0;
    if (tw) {
        has_tail = pair_tail(ph, a, Go, Gn, r, mv, G, mz, pz, rho, B, tw + 4 * n * n, tail, tw,
                             A, Ai, P);
        if (has_tail < 0)
            goto fail;
    }
    for (size_t g = 0; g < G; g++) {
        const double p = pz[g];
        if (tail[g])
            continue;
        for (size_t x = 0; x < n; x++)
            for (size_t y = 0; y < n; y++)
                gsl_matrix_set(A, x, y, ph->T[x * n + y] - (x == y ? a + ph->d[x] : 0.0) +
                                            a * p * ph->alpha_h[y] - p * Go[x * n + y] +
                                            (1.0 - p) * Gn[x * n + y]);
        if (gsl_linalg_LU_decomp(A, P, &sg) || gsl_linalg_LU_invert(A, P, Ai))
            goto fail;
        for (size_t x = 0; x < n; x++) {
            double y1 = 0.0, yr = 0.0, ym = 0.0; /* Y = A^{-1} [1, r, mv] */
            for (size_t y = 0; y < n; y++) {
                const double e = gsl_matrix_get(Ai, x, y);
                B[x * n + y] += mz[g] * p * e;
                y1 += e;
                yr += e * r[y];
                ym += e * mv[y];
            }
            Y[(3 * g) * n + x] = y1;
            Y[(3 * g + 1) * n + x] = yr;
            Y[(3 * g + 2) * n + x] = ym;
        }
    }
    /* c (I + B Go) = -2 a alpha: the transposed system */
    for (size_t x = 0; x < n; x++)
        for (size_t y = 0; y < n; y++) {
            double s = x == y ? 1.0 : 0.0;
            for (size_t u = 0; u < n; u++)
                s += B[y * n + u] * Go[u * n + x];
            gsl_matrix_set(A, x, y, s);
        }
    gsl_vector_view cv = gsl_vector_view_array(c, n), bv = gsl_vector_view_array(V + n, n);
    for (size_t x = 0; x < n; x++)
        V[n + x] = -2.0 * a * ph->alpha[x];
    if (gsl_linalg_LU_decomp(A, P, &sg) || gsl_linalg_LU_solve(A, P, &bv.vector, &cv.vector))
        goto fail;
    double Vm = 0.0; /* V mv, V = c B */
    for (size_t y = 0; y < n; y++) {
        double s = 0.0;
        for (size_t x = 0; x < n; x++)
            s += c[x] * B[x * n + y];
        Vm += s * mv[y];
    }
    /* with pi0 = 1 the scale can be huge, even of either sign where both CPUs rarely work at
     * once (pi0 ~ exp(-S / Z)): the ratios are what the solve determines */
    double lone = 0.0, spin = 0.0, both = 0.0, coll = 0.0, umax = -INFINITY, smax = 0.0;
    if (has_tail) { /* the tail's classes (never the busiest: g = 0 is kept) */
        const double *tv = tw + 4 * n * n;
        for (size_t x = 0; x < n; x++) {
            lone += c[x] * tv[x];
            spin += a * c[x] * tv[n + x];
            both += c[x] * tv[2 * n + x];
            coll += a * c[x] * tv[3 * n + x];
        }
    }
    for (size_t g = 0; g < G; g++) {
        const double p = pz[g];
        if (tail[g])
            continue;
        double v1 = 0.0, vr = 0.0, vm = 0.0;
        for (size_t x = 0; x < n; x++) {
            v1 += p * c[x] * Y[(3 * g) * n + x];
            vr += p * c[x] * Y[(3 * g + 1) * n + x];
            vm += p * c[x] * Y[(3 * g + 2) * n + x];
        }
        lone += mz[g] * v1;
        spin += mz[g] * a * p * vr;
        both += mz[g] * (1.0 - p) * vm;
        coll += mz[g] * a * p * v1;
        const double u = v1 + a * p * vr + (1.0 - p) * vm + p * (Vm - vm);
        if (!(fabs(u) <= smax)) { /* the busiest zone: the largest in magnitude */
            smax = fabs(u);
            umax = u;
        }
    }
    const double tot = 1.0 + lone + spin + both, X = (2.0 + lone) / (tot * Z);
    out[0] = 100.0 * spin / tot;
    out[1] = 100.0 * fmin(1.0, fmax(0.0, umax / tot));
    out[2] = X;
    out[3] = 1e6 * spin / tot / X;
    out[4] = coll / tot;
    rc = ZVP_SUCCESS;
    goto done;
fail:
    rc = ZVP_EINTERNAL;
done:
    free(buf);
    free(tw);
    free(tail);
    free(pl);
    gsl_matrix_free(A);
    gsl_matrix_free(Ai);
    gsl_permutation_free(P);
    return rc;
}

/* The outputs with K Erlang phases for each constant. */
static int pair_at(double Z, double S, double c2, double h, unsigned K, size_t G,
                   const double *m, const double *p, double rho, int mirror, double *out)
{
    const size_t n = pair_phases(c2, h, K);
    double *buf = malloc((n * n + 4 * n) * sizeof *buf);
    if (!buf)
        return ZVP_ENOMEM;
    pair_ph ph = {n, buf, buf + n * n, buf + n * n + n, buf + n * n + 2 * n,
                  buf + n * n + 3 * n};
    pair_build(S, c2, h, K, &ph);
    const int rc = pair_solve(&ph, Z, mirror && c2 == 0.0 && h == 0.0, G, m, p, rho, out);
    free(buf);
    return rc;
}

/* Constants (hold c2 = 0, handoff h) by Erlang-K, 2K and 4K, extrapolated to K -> inf (the
 * error is a power series in 1/K: Richardson's weights 1/3, -2, 8/3 remove the 1/K and 1/K^2
 * terms). */
static int pair_rich(double Z, double S, double c2, double h, unsigned K, size_t G,
                     const double *m, const double *p, double rho, int mirror, double *out)
{
    static const double wt[3] = {1.0 / 3.0, -2.0, 8.0 / 3.0};
    double o[5];
    int rc = ZVP_SUCCESS;
    for (int i = 0; i < 5; i++)
        out[i] = 0.0;
    for (unsigned l = 0; !rc && l < 3; l++) {
        rc = pair_at(Z, S, c2, h, K << l, G, m, p, rho, mirror, o);
        for (int i = 0; !rc && i < 5; i++)
            out[i] += wt[l] * o[i];
    }
    return rc;
}

/* spin / X consistent, every output non-negative, the utilization at most 100 %. */
static void pair_tidy(double *out)
{
    for (int i = 0; i < 5; i++)
        out[i] = fmax(0.0, out[i]);
    out[1] = fmin(100.0, out[1]);
    out[3] = out[2] > 0.0 ? 1e4 * out[0] / out[2] : 0.0;
}

static int pair_extrap(double Z, double S, double c2, double h, size_t G, const double *m,
                       const double *p, double rho, double *out)
{
    const unsigned K0 = G > 16 ? PAIR_K / 4 : PAIR_K;
    unsigned K = K0;
    /* constant holds, no handoff: after the mirror the lone hold has the short rest the older
     * had done, and an arrival within it needs stages shorter than the work (S / K < Z):
     * more stages, within the budget (4 K stages at the last level) */
    while (c2 == 0.0 && h == 0.0 && (double)K < S / Z &&
           (double)G * pow(8.0 * K, 3.0) <= PAIR_BUDGET)
        K *= 2;
    if (c2 != 0.0 && h == 0.0)
        return pair_at(Z, S, c2, h, K, G, m, p, rho, 1, out);
    int rc = pair_rich(Z, S, c2, h, K, G, m, p, rho, 1, out);
    if (!rc && c2 == 0.0 && h > 0.0) {
        /* constant holds with a handoff: Erlang stages let two holds cross, which constants
         * never do (an error of the collisions at light work, up to +18 %); the hold's own
         * map (the mirror) has no handoff stages, so the Erlang answer is corrected by its
         * own error at h = 0: E(h) + M(0) - E(0), continuous as h -> 0 */
        double e0[5], m0[5];
        rc = pair_rich(Z, S, 0.0, 0.0, K, G, m, p, rho, 0, e0);
        if (!rc)
            rc = pair_extrap(Z, S, 0.0, 0.0, G, m, p, rho, m0);
        for (int i = 0; !rc && i < 5; i++)
            out[i] += m0[i] - e0[i];
    }
    if (!rc)
        pair_tidy(out);
    return rc;
}

int zvp_spinlock_pair_rho(double Z, double S, double c2, double h, size_t G, const double *m,
                          const double *p, double rho, double *out)
{
    const double kcap = fmin(1024.0, fmax(16.0, floor(cbrt(PAIR_KCAP_BUDGET / (double)G))));
    if (!(c2 > 0.0 && c2 < 1.0 / kcap))
        return pair_extrap(Z, S, c2, h, G, m, p, rho, out);
    /* near-constant: linear in c2 between the constant and Erlang-k_cap */
    double o0[5];
    int rc = pair_extrap(Z, S, 0.0, h, G, m, p, rho, o0);
    if (!rc)
        rc = pair_extrap(Z, S, 1.0 / kcap, h, G, m, p, rho, out);
    const double t = c2 * kcap;
    for (int i = 0; !rc && i < 5; i++)
        out[i] = (1.0 - t) * o0[i] + t * out[i];
    return rc;
}

int zvp_spinlock_pair(double Z, double S, double c2, double h, size_t G, const double *m,
                      const double *p, double *out)
{
    return zvp_spinlock_pair_rho(Z, S, c2, h, G, m, p, PAIR_TAIL_RHO, out);
}
