/*
 * models/spinlock_chain.c - the spinlock model's exact one-lock solution: the finite-source
 * M/G/1 queue (N CPUs, a general hold, a handoff growing with the spinners) by its embedded
 * chain at departures, with a constant or a load-dependent arrival rate from the CPUs away
 * from the lock. Derivation: models/README.md, spinlock, "One zone" and "Handoff".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "spinlock.h"

/* The hold distribution as the simulator draws it (src/sim/dist.c): deterministic, mixed
 * Erlang (k - 1 phases with probability p, else k, all of rate r1) for c² < 1, exponential
 * (k = 1, p = 0), H2 (rate r1 with probability p, else r2) for c² > 1. */
typedef struct hold_dist {
    int det, h2;
    unsigned k;
    double p, r1, r2, S;
} hold_dist;

static hold_dist hold_init(double S, double c2)
{
    hold_dist d = {0, 0, 1, 0.0, 1.0 / S, 0.0, S};
    if (c2 == 0.0) {
        d.det = 1;
    } else if (c2 < 1.0) {
        double k = ceil(1.0 / c2 - 1e-12);
        double p = (k * c2 - sqrt(fmax(0.0, k * (1.0 + c2) - k * k * c2))) / (1.0 + c2);
        d.k = (unsigned)k;
        d.p = fmin(fmax(p, 0.0), 1.0);
        d.r1 = (k - d.p) / S;
    } else if (c2 > 1.0) {
        d.h2 = 1;
        d.p = 0.5 * (1.0 + sqrt((c2 - 1.0) / (c2 + 1.0)));
        d.r1 = 2.0 * d.p / S;
        d.r2 = 2.0 * (1.0 - d.p) / S;
    }
    return d;
}

/* log P(no arrival at total rate s (m thinkers: s = m a, or the load-dependent lam[m]) during
 * a hold + d) = -s d + log G*(s). */
static double log_none(const hold_dist *g, double s, double d)
{
    if (s == 0.0)
        return 0.0;
    if (g->det)
        return -s * (g->S + d);
    if (g->h2)
        return -s * d + log(g->p * g->r1 / (g->r1 + s) + (1.0 - g->p) * g->r2 / (g->r2 + s));
    const double lr = -log1p(s / g->r1);
    return -s * d + (double)(g->k - 1) * lr + log(g->p + (1.0 - g->p) * exp(lr));
}

/* Tables of one call of spin_exact, computed once (they depend on the count of thinkers i
 * only, not on the chain state): lg[i] = log i!, and for each exponential phase rate r the
 * end-of-phase probability qr[i] = r / (lam_i + r) and the next-arrival probability
 * ql[i] = lam_i / (lam_i + r) with i thinkers (i = 0..N), lam_i = i a or the load-dependent
 * lam[i]. */
typedef struct chain_tab {
    const double *lg, *qr1, *ql1, *qr2, *ql2;
} chain_tab;

static void rate_tab(size_t N, double a, const double *ld, double r, double *qr, double *ql)
{
    for (size_t i = 0; i <= N; i++) {
        const double lam = ld ? ld[i] : (double)i * a;
        qr[i] = r / (lam + r);
        ql[i] = lam / (lam + r);
    }
}

/* v[0..m] <- Binomial(m, 1 - e^{-a t}), in log space (no overflow for m up to 4096). */
static void binom_pmf(double *v, size_t m, double a, double t, const double *lg)
{
    const double l1q = -a * t, lq = log(-expm1(-a * t)), lm = lg[m];
    for (size_t b = 0; b <= m; b++) {
        double l = lm - lg[b] - lg[m - b];
        l += (b ? (double)b * lq : 0.0) + (b < m ? (double)(m - b) * l1q : 0.0);
        v[b] = exp(l);
    }
}

/* One exponential phase (tables qr, ql of its rate): v[b] = P(b arrivals so far) from m
 * thinkers becomes the distribution at the end of the phase (a pure-birth chain; positive
 * terms only: w(b) = s(b) qr(m-b), s(b) = s(b-1) ql(m-b) + v(b)). */
static void birth_phase(double *v, size_t m, const double *qr, const double *ql)
{
    double s = 0.0;
    for (size_t b = 0; b <= m; b++) {
        s += v[b];
        v[b] = s * qr[m - b];
        s *= ql[m - b];
    }
}

/* v[0..m]: P(A = b arrivals from m thinkers during a hold plus the constant d); w: [m+1]. */
static void arrivals_pmf(const hold_dist *g, const chain_tab *t, size_t m, double a, double d,
                         double *v, double *w)
{
    if (g->det) {
        binom_pmf(v, m, a, g->S + d, t->lg);
        return;
    }
    if (d > 0.0) {
        binom_pmf(v, m, a, d, t->lg);
    } else {
        for (size_t b = 0; b <= m; b++)
            v[b] = b ? 0.0 : 1.0;
    }
    if (g->h2) {
        memcpy(w, v, (m + 1) * sizeof *w);
        birth_phase(v, m, t->qr2, t->ql2); /* probability 1 - p */
        birth_phase(w, m, t->qr1, t->ql1); /* probability p */
    } else {
        for (unsigned i = 1; i < g->k; i++)
            birth_phase(v, m, t->qr1, t->ql1);
        memcpy(w, v, (m + 1) * sizeof *w); /* k - 1 phases */
        birth_phase(v, m, t->qr1, t->ql1);
    }
    for (size_t b = 0; b <= m; b++)
        v[b] = g->p * w[b] + (1.0 - g->p) * v[b];
}

/* Add f P(A >= b) to acc[b + off - 1] for every b >= 1 with b + off >= j + 1 (the cuts at
 * and above j), A the arrivals from m thinkers during a hold plus d. */
static void add_tails(const hold_dist *g, const chain_tab *t, size_t m, double a, double d,
                      size_t j, size_t off, double f, double *acc, double *v, double *u)
{
    if (d == 0.0 && !g->det && (g->h2 || g->k == 1)) {
        /* one exponential phase (rate r1; H2: r1 with probability p, else r2) from no
         * arrival: P(A >= b) = prod_{i<b} ql(m - i), each rate's product carried upwards */
        const double p1 = g->h2 ? g->p : 1.0 - g->p, p2 = g->h2 ? 1.0 - g->p : 0.0;
        const double *ql2 = g->h2 ? t->ql2 : t->ql1;
        double s1 = 1.0, s2 = g->h2 ? 1.0 : 0.0;
        for (size_t b = 1; b <= m; b++) {
            s1 *= t->ql1[m - b + 1];
            s2 *= ql2[m - b + 1];
            if (b + off >= j + 1)
                acc[b + off - 1] += f * (p1 * s1 + p2 * s2);
            if (s1 == 0.0 && s2 == 0.0)
                break; /* every further term is 0 */
        }
        return;
    }
    arrivals_pmf(g, t, m, a, d, v, u);
    /* tail: P(next_j >= k + 1) = P(A >= k + 1 - off), suffix sums from the top */
    double tail = 0.0;
    for (size_t b = m; b + off >= j + 1 && b >= 1; b--) {
        tail += v[b];
        acc[b + off - 1] += f * tail; /* cut k = b + off - 1 >= j */
    }
}

/* The embedded chain at departures (models/README.md, spinlock, "One zone"): state j = CPUs
 * left at the lock, next = A (j = 0, N - 1 thinkers) or j - 1 + A (j >= 1, N - j thinkers,
 * hold + h j). Solved by the cut equations pi(k+1) P(A=0 | k+1) = sum_{j<=k} pi(j)
 * P(next_j > k), every term positive; pi in log space, the running sums acc with a common
 * scale. The CPUs away come at rate i / Z (i of them), or lam[i] when lam is given (then a
 * constant stretch of a hold takes the binomial at the frozen rate lam[m] / m per CPU: see
 * models/README.md, spinlock, "Handoff"). Writes X, the mean hold (with handoff) ET, pi(0)
 * and the mean time at the lock per visit R. w: [ZVP_SPINLOCK_EXACT_SCRATCH(N)]. */
static void exact_chain(unsigned long N, double Z, const double *lam, double S, double c2,
                        double h, int basin, double *w, double *X, double *ET, double *pi0,
                        double *R)
{
    const hold_dist g = hold_init(S, c2);
    const double a = lam ? 0.0 : 1.0 / Z;
    double *lp = w, *acc = w + N, *v = w + 2 * N, *u = w + 3 * N + 1, c = 0.0;
    double *tab = w + 4 * N + 2;
    chain_tab t = {tab, tab + (N + 1), tab + 2 * (N + 1), tab + 3 * (N + 1), tab + 4 * (N + 1)};
    for (size_t i = 0; (g.det || h > 0.0) && i <= N; i++) /* binomial pmfs only */
        tab[i] = lgamma((double)i + 1.0);
    rate_tab(N, a, lam, g.r1, tab + (N + 1), tab + 2 * (N + 1));
    if (g.h2)
        rate_tab(N, a, lam, g.r2, tab + 3 * (N + 1), tab + 4 * (N + 1));
    for (size_t k = 0; k < N; k++)
        acc[k] = 0.0;
    lp[0] = 0.0;
    for (size_t j = 0; j < N; j++) {
        const size_t m = j ? N - j : N - 1, off = j ? j - 1 : 0;
        const double d = j ? h * (double)j : 0.0;
        const double am = lam ? (m ? lam[m] / (double)m : 0.0) : a; /* per CPU away */
        if (j)
            lp[j] = log(acc[j - 1]) + c - log_none(&g, (double)m * am, d);
        if (j + 1 == N || !(lp[j] > -INFINITY))
            continue;
        if (lp[j] - c > 300.0) {
            const double f = exp(c - lp[j]);
            for (size_t k = j; k + 1 < N; k++)
                acc[k] *= f;
            c = lp[j];
        }
        add_tails(&g, &t, m, am, d, j, off, exp(lp[j] - c), acc, v, u);
    }
    size_t top = N; /* the states j >= top weigh theta: the symmetric basin's */
    double theta = 1.0;
    if (basin) {
        size_t ms = 0, mc = N - 1;
        while (ms + 1 < N && lp[ms + 1] >= lp[ms])
            ms++; /* the lowest local maximum */
        while (mc > 0 && lp[mc - 1] >= lp[mc])
            mc--; /* the highest */
        if (ms < mc) { /* two modes: up to the lowest state between them */
            size_t jb = ms;
            for (size_t j = ms + 1; j < mc; j++)
                jb = lp[j] < lp[jb] ? j : jb;
            top = jb + 1;
            /* the states past the barrier weigh e^{-D}, D the upper mode's depth: the full
             * chain where that mode appears (D = 0: excursions, not a state), the basin alone
             * where it is deep (a lock that gets there stays) */
            theta = exp(-(lp[mc] - lp[jb]));
        }
    }
    double mx = -INFINITY, sum = 0.0, st = 0.0, away = 0.0;
    for (size_t j = 0; j < top; j++)
        mx = fmax(mx, lp[j]);
    for (size_t j = top; j < N; j++)
        mx = fmax(mx, lp[j] + log(theta));
    for (size_t j = 0; j < N; j++) {
        const double q = exp(lp[j] - mx + (j < top ? 0.0 : log(theta)));
        sum += q;
        st += q * (S + (j ? h * (double)j : 0.0));
        away += q * (lam ? (double)(N - j) / lam[N - j] : Z); /* (N - n) / rate(N - n) */
    }
    *pi0 = exp(lp[0] - mx) / sum;
    *ET = st / sum;
    /* arrivals see pi: p(n) = X pi(n) / rate(N - n), and U = 1 - p(0) = X E[T] */
    *X = 1.0 / (*ET + (lam ? *pi0 / lam[N] : *pi0 * Z / (double)N));
    *R = (double)N / *X - away / sum; /* Little: N minus the CPUs away, per acquisition */
}

void zvp_spinlock_exact_ld(unsigned long N, double Z, const double *lam, double S, double c2,
                           double h, double *w, double *X, double *ET, double *pi0, double *R)
{
    exact_chain(N, Z, lam, S, c2, h, 0, w, X, ET, pi0, R);
}

void zvp_spinlock_exact_sym(unsigned long N, double Z, const double *lam, double S, double c2,
                            double h, double *w, double *X, double *ET, double *pi0, double *R)
{
    exact_chain(N, Z, lam, S, c2, h, 1, w, X, ET, pi0, R);
}

void zvp_spinlock_exact(unsigned long N, double Z, double S, double c2, double h, double *w,
                        double *X, double *ET, double *pi0)
{
    double R;
    zvp_spinlock_exact_ld(N, Z, NULL, S, c2, h, w, X, ET, pi0, &R);
}

/* Work of spin_exact: (phases + 1) N² / 2 inner steps; above the cap (constant-like holds,
 * c² < 1/200 with thousands of CPUs) the phases are capped (exact_scv), and only when even two
 * do not fit is the MVA approximation used. */
double zvp_spinlock_exact_cost(unsigned long N, double c2)
{
    const double k = c2 > 0.0 && c2 < 1.0 ? ceil(1.0 / c2 - 1e-12) : 2.0;
    return (k + 1.0) * (double)N * (double)N / 2.0;
}

/* The hold SCV the exact chain is run with under a work budget: c2 itself when affordable;
 * for near-constant holds (0 < c2 < 1, k = ceil(1/c2) phases) too many phases for the budget,
 * the Erlang with the most phases the budget allows (SCV 1/k_cap, k_cap >= 2), so the outputs
 * stay continuous and monotone in c2 (a flat stretch below 1/k_cap, where Erlang-k_cap is
 * within 1/k_cap of a constant hold) instead of jumping to the MVA approximation; -1 when
 * even that does not fit (then MVA is used). */
double zvp_spinlock_exact_scv(unsigned long N, double c2, double budget)
{
    if (zvp_spinlock_exact_cost(N, c2) <= budget)
        return c2;
    if (c2 > 0.0 && c2 < 1.0) {
        const double kcap = floor(2.0 * budget / ((double)N * (double)N) - 1.0);
        if (kcap >= 2.0) /* < ceil(1/c2), the cost being over the budget */
            return 1.0 / kcap;
    }
    return -1.0;
}

