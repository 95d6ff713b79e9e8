/*
 * models/spinlock.c - spin-lock contention from a user's own numbers: N CPUs each work
 * work_us outside the lock, then take one of `zones` lock instances (Zipf-chosen), hold it
 * hold_us (SCV hold_scv), and spin while it is held; passing the lock to a spinner costs
 * handoff_us per spinner. Analytic: one zone exactly (the finite-source M/G/1 queue by its
 * departure chain, the handoff in the hold); several zones by MVA with a residual-life
 * correction for non-exponential holds and the handoff from the queue seen at a departure,
 * zone 1 (dominant, or one of uniform zones) then solved exactly with the rest of the cycle
 * as its think time, scaled by its own error at SCV 1 (where MVA is exact); with a handoff
 * halfway between that (the rest frozen) and the rest relaxed (Norton: the CPUs away come back
 * at the rest's throughput), the symmetric state in its own basin; where the collapsed state
 * (one zone holding the CPUs) spins more, the time average over the interval of a lock started
 * symmetric that collapses at the rate the collapsed zone's chain gives; two CPUs with several
 * zones
 * exactly (models/spinlock_pair.c); simulated (the `sim` hook) on the same network,
 * random-order handoff.
 * Equations, derivation and limits: models/README.md, spinlock.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "registry.h"
#include "internal.h"
#include "zvmperf/queue.h"
#include "spinlock.h"

enum { P_CPUS, P_WORK, P_HOLD, P_SCV, P_ZONES, P_SKEW, P_HANDOFF, P_INTERVAL, N_P };
enum { O_SPIN, O_UTIL, O_ACQ, O_SPIN_ACQ, O_COLL, O_BI, O_CTIME, N_O };

/* collapse_time_s where a lock never collapses in practice (no collapsed state, or a mean
 * time to it beyond this) */
#define NEVER_S 1e300

static const zvp_param_desc spinlock_params[N_P] = {
    {"cpus", "1", "CPUs that take the lock (integer)", 1, 4096, 64, 1, 0},
    {"work_us", "us", "mean CPU time between lock requests, outside the lock (exponential)", 0,
     1e9, 45, 0, 0},
    {"hold_us", "us", "mean lock hold time per acquisition", 1e-6, 1e9, 5, 0, 0},
    {"hold_scv", "1", "squared coefficient of variation of the hold time (0 constant, 1 "
     "exponential)", 0, 100, 1, 0, 0},
    {"zones", "1", "lock instances the requests spread over (integer)", 1, 65536, 1, 1, 0},
    {"zone_skew", "1", "Zipf exponent of the zone choice (0 uniform)", 0, 4, 0, 0, 0},
    {"handoff_us", "us", "cost of passing the lock to a spinner, per CPU spinning on it at "
     "the handoff", 0, 1e6, 0, 0, 0},
    {"interval_s", "s", "measurement interval the outputs average over, the lock starting in "
     "the symmetric state (matters only where a collapse is possible: bistable = 1)", 0, 1e9,
     60, 0, 0},
};

static const zvp_param_desc spinlock_outputs[N_O] = {
    {"spin_busy_pct", "%", "time spinning summed over CPUs, in % of one CPU", 0, INFINITY, 0,
     0, 0},
    {"lock_util_pct", "%", "utilization of the busiest zone (hold + handoff)", 0, 100, 0, 0, 0},
    {"acquisitions_per_s", "1/s", "lock acquisitions per second, all zones", 0, INFINITY, 0, 0,
     0},
    {"spin_per_acq_us", "us", "mean spin per acquisition", 0, INFINITY, 0, 0, 0},
    {"collisions_per_s", "1/s", "acquisitions per second that found the lock held", 0, INFINITY,
     0, 0, 0},
    {"bistable", "1", "1 where a handoff lets one zone capture the CPUs and that collapsed "
     "state spins more than the symmetric one: the outputs are then the time average over "
     "interval_s of a lock that starts symmetric and collapses after collapse_time_s on "
     "average; else 0", 0, 1, 0, 0, 0},
    {"collapse_time_s", "s", "mean time for a lock started in the symmetric state to reach the "
     "collapsed one, an estimate (order of magnitude; 1e300: never in practice, e.g. "
     "bistable = 0)", 0, NEVER_S, 0, 0, 0},
};

/* The zone probabilities p_z = z^-s / sum_y y^-s (z = 1..L); uniform when s = 0. */
static void zipf(size_t L, double s, double *p)
{
    double sum = 0.0;
    for (size_t z = 0; z < L; z++)
        sum += p[z] = s > 0 ? pow((double)(z + 1), -s) : 1.0;
    for (size_t z = 0; z < L; z++)
        p[z] /= sum;
}

/* The zone classes: one class of L equal zones (G = 1), or L Zipf zones of their own
 * (G = L): m[g] zones of probability p[g] each. */
static void zone_classes(size_t L, double skew, size_t G, double *m, double *p)
{
    if (G == 1) {
        m[0] = (double)L;
        p[0] = 1.0 / (double)L;
        return;
    }
    zipf(L, skew, p);
    for (size_t g = 0; g < G; g++)
        m[g] = 1.0;
}

/* MVA over the population 1..N with the two corrections (models/README.md, spinlock).
 * G groups of m[g] identical zones of probability p[g]; w: [4 G] scratch. Writes X, the
 * utilizations U[g] and the busy probabilities at arrival B[g] (population N - 1). */
static void spin_mva(unsigned long N, double Z, double S, double c2, double h, size_t G,
                     const double *m, const double *p, double *w, double *X, double *xs)
{
    double *Q = w, *U = w + G, *T = w + 2 * G, *R = w + 3 * G;
    double x = 0.0;
    for (size_t g = 0; g < G; g++)
        Q[g] = U[g] = 0.0;
    for (unsigned long n = 1; n <= N; n++) {
        double at = 0.0, tmax = 0.0; /* at: the time per cycle at the zones */
        for (size_t g = 0; g < G; g++) {
            T[g] = S + h * Q[g];
            double resid = (c2 * S * S + T[g] * T[g]) / (2.0 * T[g]);
            R[g] = T[g] + (Q[g] - U[g]) * T[g] + U[g] * resid;
            if (m[g] > 0.0) {
                at += m[g] * p[g] * R[g];
                tmax = fmax(tmax, p[g] * T[g]);
            }
        }
        const double cyc = Z + at, xc = 1.0 / tmax;
        x = fmin((double)n / cyc, xc);
        if (xs)
            xs[n] = x; /* the throughput at each population (the relaxed rest: "Handoff") */
        if (n == N)
            break; /* keep Q, U of N - 1: the arrival's view */
        /* f = 1 unless the busiest zone caps x: then the zones still hold n - x Z CPUs. Taken
         * as 1 exactly when uncapped: n - x Z and x (cyc - Z) cancel to rounding where the
         * work is 1e14 times the hold (it went 0 / 0, then a NaN throughput) */
        const double f = xc < (double)n / cyc ? ((double)n - x * Z) / (x * at) : 1.0;
        for (size_t g = 0; g < G; g++) {
            /* a group of no zones (the relaxed rest: zone 1 taken out) holds nobody: its
             * queue would otherwise grow unchecked (T = S + h Q feeds Q) and overflow, and
             * 0 x inf in cyc made the throughput NaN, then inf */
            Q[g] = m[g] > 0.0 ? f * x * p[g] * R[g] : 0.0;
            U[g] = m[g] > 0.0 ? x * p[g] * T[g] : 0.0;
        }
    }
    *X = x;
}

#define EXACT_MAX_COST 4e8
#define DOMINANT_ITER 60
#define RELAX_WEIGHT 0.5 /* between the frozen and the relaxed rest (README, "Handoff") */
#define RELAX_NOT_FINITE (-1) /* relaxed_zone: a non-finite rate; the frozen rest stands */
#define COLLAPSE_ONSET 0.05 /* excess spin of the collapsed state, as a share of the smaller of
                              the symmetric spin and the CPUs not spinning, at full weight */

/* One zone: the outputs from the exact chain (work 0: all N CPUs always at the lock). */
static int spinlock_one_zone(unsigned long N, double Z, double S, double c2, double h,
                             double *out, zvp_error *err)
{
    double X, ET, pi0;
    if (Z > 0.0) {
        double *w = malloc(ZVP_SPINLOCK_EXACT_SCRATCH(N) * sizeof *w);
        if (!w)
            return zvp_fail(err, ZVP_ENOMEM, "spinlock: out of memory");
        zvp_spinlock_exact(N, Z, S, c2, h, w, &X, &ET, &pi0);
        free(w);
    } else {
        pi0 = N > 1 ? 0.0 : 1.0;
        ET = S + h * (double)(N - 1);
        X = 1.0 / ET;
    }
    const double busy = fmin(1.0, X * ET), spin = fmax(0.0, (double)N - X * Z - busy);
    out[O_SPIN] = 100.0 * spin;
    out[O_UTIL] = 100.0 * busy;
    out[O_ACQ] = X;
    out[O_SPIN_ACQ] = X > 0 ? 1e6 * spin / X : 0.0;
    out[O_COLL] = X * (1.0 - pi0); /* departures (= arrivals) that leave (find) CPUs waiting */
    return ZVP_SUCCESS;
}

/* Zone 1 (group 0) from its chain: its waiting per visit W, mean hold ET and the share col of
 * its acquisitions that find it held. */
typedef struct zone1 {
    double W, ET, col;
} zone1;

/* Zipf zones: zone 1 (the most requested, group 0) solved exactly as a finite source of N
 * CPUs whose time between its visits, (Z + sum_{z>1} p_z R_z) / p_1 with R from MVA, is
 * taken as exponential (a geometric sum of cycles). For uniform zones (m[0] > 1) the other
 * zones of the group are zone 1's equals, so its response per visit R solves R = g(R), g the
 * exact zone's N / X_1 - Z_1; secant on R - g(R) from MVA's R, safeguarded by a damped step. */
static int dominant_zone(unsigned long N, double Z, double S, double c2, double h, size_t G,
                         const double *m, const double *p, const double *mva, zone1 *o)
{
    double base = Z, R = mva[3 * G], X1 = 0.0, ET = S, pi0 = 1.0, Z1 = Z;
    for (size_t g = 1; g < G; g++)
        base += m[g] * p[g] * mva[3 * G + g];
    double *w = malloc(ZVP_SPINLOCK_EXACT_SCRATCH(N) * sizeof *w);
    if (!w)
        return ZVP_ENOMEM;
    /* f(R) = g(R) - R falls with R (g falls), so the root is unique, and from any R, g(R)
     * lies on the root's other side (f(R) > 0: g(g(R)) <= g(R)): a bracket from the first two
     * solves, then the Illinois variant of regula falsi (the secant alone cycled where zone 1
     * collapses under a handoff) */
    double a = 0.0, fa = 0.0, b = R, fb = 0.0;
    for (int it = 0; it < (m[0] > 1.0 ? DOMINANT_ITER : 1); it++) {
        Z1 = (base + (m[0] - 1.0) * p[0] * R) / p[0];
        double Rz; /* the symmetric basin ("Time to collapse"); one mode without handoff */
        if (h > 0.0)
            zvp_spinlock_exact_sym(N, Z1, NULL, S, c2, h, w, &X1, &ET, &pi0, &Rz);
        else
            zvp_spinlock_exact(N, Z1, S, c2, h, w, &X1, &ET, &pi0);
        const double f = (double)N / X1 - Z1 - R;
        if (fabs(f) <= 1e-10 * R + 1e-14 * Z1) /* N / X_1 - Z_1 carries eps Z_1 */
            break;
        if (it == 0) {
            b = R;
            fb = f;
            R = R + f; /* g(R) */
            continue;
        }
        if (it == 1 || (f > 0.0) != (fb > 0.0)) { /* the bracket moves to [R, b] */
            a = b;
            fa = fb;
        } else {
            fa *= 0.5; /* Illinois: the same end twice */
        }
        b = R;
        fb = f;
        if ((fa > 0.0) == (fb > 0.0) || fabs(b - a) <= 1e-12 * b)
            break; /* no sign change (rounding) or the bracket is closed */
        R = b - fb * (b - a) / (fb - fa);
    }
    free(w);
    o->ET = ET;
    o->W = fmax(0.0, (double)N / X1 - Z1 - ET);
    o->col = 1.0 - pi0;
    return ZVP_SUCCESS;
}

/* Zone 1 with the rest of the network relaxed (models/README.md, spinlock, "Handoff"): the
 * CPUs away from zone 1 come back at the rate the rest (work and the other zones, by MVA with
 * its corrections) passes with that many CPUs, lam[i] = p_1 X_rest(i) (Norton's theorem; exact
 * in product form). Writes zone 1's waiting W and mean hold ET per visit. Returns
 * ZVP_SUCCESS, ZVP_ENOMEM, or RELAX_NOT_FINITE where a rate or the chain's result is not finite and
 * positive (the caller then keeps the frozen rest: the documented fallback). */
static int relaxed_zone(unsigned long N, double Z, double S, double c2, double h, size_t G,
                        const double *m, const double *p, double *W, double *ET)
{
    double *b = malloc((6 * G + N + 1 + ZVP_SPINLOCK_EXACT_SCRATCH(N)) * sizeof *b);
    if (!b)
        return ZVP_ENOMEM;
    double *mr = b, *lam = b + 6 * G, *cw = lam + N + 1, X, X1, pi0, R;
    memcpy(mr, m, G * sizeof *mr);
    mr[0] -= 1.0; /* the rest: zone 1 taken out */
    spin_mva(N, Z, S, c2, h, G, mr, p, b + 2 * G, &X, lam);
    lam[0] = 0.0;
    int ok = 1;
    for (unsigned long i = 1; i <= N; i++) {
        lam[i] *= p[0];
        ok = ok && isfinite(lam[i]) && lam[i] > 0.0;
    }
    if (ok) {
        if (h > 0.0) /* the symmetric basin ("Time to collapse") */
            zvp_spinlock_exact_sym(N, Z, lam, S, c2, h, cw, &X1, ET, &pi0, &R);
        else
            zvp_spinlock_exact_ld(N, Z, lam, S, c2, h, cw, &X1, ET, &pi0, &R);
        ok = isfinite(X1) && X1 > 0.0 && isfinite(*ET) && isfinite(R);
    }
    free(b);
    if (!ok)
        return RELAX_NOT_FINITE;
    *W = fmax(0.0, R - *ET);
    return ZVP_SUCCESS;
}

/* The outputs of several zones from zone 1's (a: W, ET, col; col < 0: MVA's own) and the
 * other zones' MVA values (w: Q, U of population N - 1; T, R at N) by Little's law. */
static int zones_outputs(unsigned long N, double Z, size_t G, const double *m, const double *p,
                         const double *w, double X, zone1 a, double *out)
{
    double busy = 0.0, umax = 0.0, coll = 0.0, wait = 0.0, at = 0.0;
    for (size_t g = 0; g < G; g++) { /* per visit: hold T and waiting R - T at group g */
        const double T = g == 0 && a.col >= 0.0 ? a.ET : w[2 * G + g];
        const double W = g == 0 && a.col >= 0.0 ? a.W : w[3 * G + g] - w[2 * G + g];
        wait += m[g] * p[g] * W;
        at += m[g] * p[g] * (T + W);
    }
    int capped = 0;
    if (a.col >= 0.0) {
        double tmax = p[0] * a.ET;
        for (size_t g = 1; g < G; g++)
            tmax = fmax(tmax, p[g] * w[2 * G + g]);
        capped = 1.0 / tmax < (double)N / (Z + at);
        X = capped ? 1.0 / tmax : (double)N / (Z + at);
    } else {
        capped = X < (double)N / (Z + at) * (1.0 - 1e-12);
    }
    for (size_t g = 0; g < G; g++) {
        const double u = X * p[g] * (g == 0 && a.col >= 0.0 ? a.ET : w[2 * G + g]);
        busy += m[g] * u;
        umax = fmax(umax, u);
        coll += m[g] * p[g] * (g == 0 && a.col >= 0.0 ? a.col : w[G + g]);
    }
    if (!(isfinite(X) && X > 0.0 && isfinite(busy) && isfinite(coll) && isfinite(wait)))
        return ZVP_EINTERNAL; /* not hidden by the fmin / fmax below */
    /* Little's law: the CPUs waiting are X x the waiting per cycle; where the busiest zone
     * caps X, the CPUs at the locks are N - X Z, of which `busy` hold (the direct sum avoids
     * the cancellation of N - X Z - busy at light load: work 1e9 x the hold left 1e-13
     * of noise where the spin is 1e-19) */
    const double spin = capped ? fmax(0.0, (double)N - X * Z - busy) : fmax(0.0, X * wait);
    out[O_SPIN] = 100.0 * spin;
    out[O_UTIL] = 100.0 * fmin(1.0, umax);
    out[O_ACQ] = X;
    out[O_SPIN_ACQ] = X > 0 ? 1e6 * spin / X : 0.0;
    out[O_COLL] = X * fmin(1.0, coll);
    return ZVP_SUCCESS;
}

/* Several zones at a hold SCV c2 the chain can afford (models/README.md, spinlock, "Zone 1
 * exactly"). w: [14 G] scratch. Zone 1's waiting and collisions from its chain, the part
 * without handoff scaled by the chain's own error at c2 = 1 without handoff, where MVA is
 * exact (product form): the exponential time between visits is the one approximation, and its
 * factor is carried to other c2 (so c2 -> 1 and h -> 0 meet exact MVA continuously); the
 * handoff's increment of the waiting is the chain's, unscaled. With a handoff (rel not NULL)
 * also the outputs with the rest relaxed ("Handoff"), scaled by the same factor at h = 0. */
static int zones_eval(unsigned long N, double Z, double S, double c2, double h, size_t G,
                      const double *m, const double *p, int chain, double *w, double *out,
                      double *rel)
{
    double X;
    spin_mva(N, Z, S, c2, h, G, m, p, w, &X, NULL); /* w: Q, U of population N - 1; T, R at N */
    zone1 a = {0.0, 0.0, -1.0}, ar = a;
    if (chain && Z > 0.0 && (c2 != 1.0 || h > 0.0)) {
        double *w1 = w + 4 * G, *w0 = w + 8 * G, X1;
        zone1 r, a0 = {0.0, 0.0, 0.0};
        spin_mva(N, Z, S, 1.0, 0.0, G, m, p, w1, &X1, NULL); /* exact MVA: the reference */
        if (dominant_zone(N, Z, S, c2, h, G, m, p, w, &a) ||
            dominant_zone(N, Z, S, 1.0, 0.0, G, m, p, w1, &r))
            return ZVP_ENOMEM;
        if (h > 0.0) { /* the same without handoff: the part the factor applies to */
            spin_mva(N, Z, S, c2, 0.0, G, m, p, w0, &X1, NULL);
            if (dominant_zone(N, Z, S, c2, 0.0, G, m, p, w0, &a0))
                return ZVP_ENOMEM;
        } else {
            a0 = a;
        }
        const double Wm = w1[3 * G] - S, Um = w1[G], W0 = a0.W * (r.W > 0.0 ? Wm / r.W : 1.0);
        a.W += W0 - a0.W;
        a.col = fmin(1.0, a.col + a0.col * ((r.col > 0.0 ? Um / r.col : 1.0) - 1.0));
        if (h > 0.0 && rel) { /* the relaxed rest, its own error at h = 0 scaled out */
            double Wr0, ETr0;
            int rr = relaxed_zone(N, Z, S, c2, h, G, m, p, &ar.W, &ar.ET);
            if (!rr)
                rr = relaxed_zone(N, Z, S, c2, 0.0, G, m, p, &Wr0, &ETr0);
            if (rr == ZVP_ENOMEM)
                return ZVP_ENOMEM;
            if (!rr) { /* else (RELAX_NOT_FINITE) the frozen rest stands for it */
                ar.col = a.col;
                ar.W = Wr0 > 0.0 ? W0 * ar.W / Wr0 : W0 + ar.W - Wr0;
            }
        }
    }
    int rc = zones_outputs(N, Z, G, m, p, w, X, a, out);
    if (!rc && rel)
        rc = zones_outputs(N, Z, G, m, p, w, X, ar.col >= 0.0 ? ar : a, rel);
    return rc;
}

/* log(e^a + e^b), either may be -inf */
static double log_add(double a, double b)
{
    if (a < b) {
        const double t = a;
        a = b;
        b = t;
    }
    return b == -INFINITY || a == INFINITY ? a : a + log1p(exp(b - a));
}

/* The time to collapse (models/README.md, spinlock, "Time to collapse"), from the departure
 * chain of the collapsed zone (lp[j] = log pi(j) + const, j = 0..N - 1 CPUs left at it by a
 * departure; each of the N - n CPUs away comes at rate 1/Z1). Time-stationary weights
 * q(n) = pi(n) / (N - n) (arrivals see pi; the X Z1 factor cancels); the collapsed mode m_c is
 * the highest local maximum of q, taken where q has two modes or its one mode holds most CPUs
 * (2 m_c > N). A lock crosses the cut between k and k + 1 up and down equally often, X pi(k)
 * per s (down: a departure that leaves k), so the mean time to pass it upward is the time below
 * it over that rate, and summed over the cuts (exact for a birth-death chain: Karlin & Taylor,
 * A First Course in Stochastic Processes, 1975, ch. 4):
 * tau_up = Z1 sum_{k<m_c} (sum_{n<=k} q(n)) / pi(k) from empty to m_c,
 * tau_down = Z1 sum_{1<=k<=m_c} (sum_{n>=k} q(n)) / pi(k-1) back to empty; in log space.
 * lq, ls: [N] scratch. Writes their logs; returns 0 (logs +inf) without a collapsed mode. */
static int chain_times(unsigned long N, const double *lp, double Z1, double *lq, double *ls,
                       double *lup, double *ldown)
{
    *lup = *ldown = INFINITY;
    for (unsigned long n = 0; n < N; n++)
        lq[n] = lp[n] - log((double)(N - n));
    unsigned long mc = N - 1, ms = 0;
    while (mc > 0 && !(lq[mc - 1] < lq[mc]))
        mc--;
    while (ms + 1 < N && lq[ms + 1] >= lq[ms])
        ms++;
    if (mc == 0 || (ms >= mc && 2 * mc <= N))
        return 0;
    ls[N - 1] = lq[N - 1]; /* ls[k] = log sum_{n>=k} q(n) */
    for (unsigned long k = N - 1; k-- > 0;)
        ls[k] = log_add(ls[k + 1], lq[k]);
    double cum = -INFINITY, up = -INFINITY, down = -INFINITY;
    for (unsigned long k = 0; k < mc; k++) {
        cum = log_add(cum, lq[k]);
        up = log_add(up, cum - lp[k]);
        down = log_add(down, ls[k + 1] - lp[k]);
    }
    *lup = up + log(Z1);
    *ldown = down + log(Z1);
    return 1;
}

/* Several zones with a handoff, the collapsed state (models/README.md, spinlock, "Collapse"):
 * the handoff grows a busy zone's holds with its spinners, so one zone (zone 1, probability p1)
 * can keep nearly every CPU spinning on it while the others stay free: zone 1 solved by its
 * chain with N CPUs whose time between its visits is (Z + (1 - p1) S) / p1, the other zones
 * held S without waiting (q2 = sum_{z>1} p_z^2: an acquisition of zone z > 1 finds it held
 * with its utilization X p_z S). */
static int spinlock_collapsed(unsigned long N, double Z, double S, double c2, double h,
                              double p1, double q2, double *out, double *lup, double *ldown,
                              zvp_error *err)
{
    double X1, ET, pi0, Z1 = (Z + (1.0 - p1) * S) / p1;
    double *w = malloc((ZVP_SPINLOCK_EXACT_SCRATCH(N) + 2 * (size_t)N) * sizeof *w);
    if (!w)
        return zvp_fail(err, ZVP_ENOMEM, "spinlock: out of memory");
    zvp_spinlock_exact(N, Z1, S, c2, h, w, &X1, &ET, &pi0);
    double *lq = w + ZVP_SPINLOCK_EXACT_SCRATCH(N);
    chain_times(N, w, Z1, lq, lq + N, lup, ldown); /* w[0..N-1]: log pi ("Time to collapse") */
    free(w);
    const double X = X1 / p1, u1 = fmin(1.0, X1 * ET);
    const double spin = fmax(0.0, (double)N - X * Z - u1 - X * (1.0 - p1) * S);
    out[O_SPIN] = 100.0 * spin;
    out[O_UTIL] = 100.0 * u1;
    out[O_ACQ] = X;
    out[O_SPIN_ACQ] = 1e6 * spin / X;
    out[O_COLL] = X1 * (1.0 - pi0) + X * fmin(X * S * q2, 1.0 - p1);
    return ZVP_SUCCESS;
}

/* The share of an interval H (s) that a two-state switching process started in state 0, rates
 * u (0 -> 1) and d (1 -> 0) per s, spends in state 1 on average:
 * u / (u + d) [1 - (1 - e^{-x}) / x], x = (u + d) H; its series below x = 1e-5. */
static double collapsed_share(double u, double d, double H)
{
    if (!(u > 0.0) || !(H > 0.0))
        return 0.0;
    const double x = (u + d) * H;
    const double g = x < 1e-5 ? x / 2.0 - x * x / 6.0 : 1.0 + expm1(-x) / x;
    return fmin(1.0, fmax(0.0, u / (u + d) * g));
}

/* The weight of the uniform solution for L Zipf zones with zone 1's share p1 (README,
 * spinlock, "Small skew"): e = 1 - (mean share of the others) / p1, the relative distance of
 * an average other zone from zone 1; 1 at e = 0 (skew 0), falling smoothly (a cubic with
 * zero slope at both ends) to 0 at e = NEAR_UNIFORM_E. */
#define NEAR_UNIFORM_E 0.2
static double near_uniform_weight(size_t L, double p1)
{
    if (L < 2)
        return 0.0;
    const double e = 1.0 - (1.0 - p1) / ((double)(L - 1) * p1), x = e / NEAR_UNIFORM_E;
    return zvp_smoothstep(1.0 - x);
}

/* spin_per_acq_us from spin_busy_pct and acquisitions_per_s (Little's law), after a mix of
 * two solutions: the mixture's spin over its acquisitions, not the mix of the ratios. */
static void spin_per_acq(double *out)
{
    out[O_SPIN_ACQ] = out[O_ACQ] > 0.0 ? 1e6 * (out[O_SPIN] / 100.0) / out[O_ACQ] : 0.0;
}

/* The outputs at a hold SCV c2 that the chain affords (c2 < 0: MVA alone). */
static int spinlock_at(unsigned long N, size_t L, double skew, double Z, double S, double c2,
                       double c2mva, double h, double H, double *out, zvp_error *err)
{
    out[O_CTIME] = NEVER_S;
    if (L == 1 && c2 >= 0.0) {
        const int rc1 = spinlock_one_zone(N, Z, S, c2, h, out, err);
        out[O_BI] = 0.0;
        return rc1;
    }
    const size_t G = skew > 0 ? L : 1; /* uniform: one group of L identical zones */
    double *buf = malloc(16 * G * sizeof *buf);
    if (!buf)
        return zvp_fail(err, ZVP_ENOMEM, "spinlock: out of memory");
    double *m = buf, *p = buf + G, u = 0.0, d = 0.0;
    zone_classes(L, skew, G, m, p);
    /* past the budget (c2 < 0) the MVA alone, with the requested SCV */
    double rel[N_O] = {0}, col[N_O] = {0};
    int rc = zones_eval(N, Z, S, c2 >= 0.0 ? c2 : c2mva, h, G, m, p, c2 >= 0.0, buf + 2 * G,
                        out, h > 0.0 ? rel : NULL);
    /* a nearly uniform skewed set as its uniform one ("Small skew"): the other zones, MVA
     * on the skewed path, are zone 1's near-equals there (with a handoff MVA misses its
     * feedback; without one the corrections differ), so the answer is continuous at skew 0 */
    const double theta = G > 1 ? near_uniform_weight(L, p[0]) : 0.0;
    if (!rc && theta > 0.0) {
        double mu = (double)L, pu = 1.0 / (double)L, wu[16], ou[N_O], ru[N_O] = {0};
        rc = zones_eval(N, Z, S, c2 >= 0.0 ? c2 : c2mva, h, 1, &mu, &pu, c2 >= 0.0, wu, ou,
                        h > 0.0 ? ru : NULL);
        /* the busiest zone stays zone 1 of the skewed set: its utilization follows the
         * blended throughput (the uniform set's busiest zone has share 1/L, not p_1) */
        const double uo = out[O_UTIL], xo = out[O_ACQ], ur = rel[O_UTIL], xr = rel[O_ACQ];
        for (int i = 0; !rc && i < O_BI; i++) {
            out[i] += theta * (ou[i] - out[i]);
            rel[i] += theta * (ru[i] - rel[i]);
        }
        if (!rc && xo > 0.0)
            out[O_UTIL] = fmin(100.0, uo * out[O_ACQ] / xo);
        if (!rc && xr > 0.0)
            rel[O_UTIL] = fmin(100.0, ur * rel[O_ACQ] / xr);
    }
    const double p1 = p[0];
    double q2 = 0.0;
    for (size_t g = 1; g < G; g++)
        q2 += p[g] * p[g];
    if (G == 1)
        q2 = (double)(L - 1) * p1 * p1;
    /* the zones that collapse: sum_z (p_z / p_1)^k*, k* the spinners a climb needs (the
     * chance of one per visit goes as rho_z^k*, rho_z proportional to p_z: "Time to
     * collapse"); L for uniform zones, -> 1 as the skew grows */
    double kstar = 1.0;
    if (h > 0.0 && !rc) {
        const double rho1 = out[O_ACQ] * p1 * S; /* zone 1's utilization without handoff */
        kstar = rho1 > 0.0 && rho1 < 1.0 ? fmax(1.0, (1.0 / rho1 - 1.0) * S / h) : 1.0;
    }
    double zsum = 0.0;
    for (size_t g = 0; g < G; g++)
        zsum += m[g] * (g == 0 ? 1.0 : pow(p[g] / p1, kstar));
    free(buf);
    if (rc == ZVP_ENOMEM)
        return zvp_fail(err, rc, "spinlock: out of memory");
    if (rc)
        return zvp_fail(err, rc, "spinlock: internal check failed: a non-finite throughput or "
                        "utilization in the symmetric state (cpus = %lu, zones = %zu, zone_skew "
                        "= %g, hold_scv = %g, handoff_us = %g)", N, L, skew, c2, h * 1e6);
    const double frozen = out[O_SPIN]; /* the symmetric state, the rest frozen */
    for (int i = 0; h > 0.0 && i < O_BI; i++) /* halfway to the relaxed rest ("Handoff") */
        out[i] += RELAX_WEIGHT * (rel[i] - out[i]);
    spin_per_acq(out);
    out[O_BI] = 0.0;
    if (h > 0.0 && N > 1 && c2 >= 0.0) { /* one CPU never collides: no collapse */
        double lup = INFINITY, ldown = INFINITY;
        if ((rc = spinlock_collapsed(N, Z, S, c2, h, p1, q2, col, &lup, &ldown, err)))
            return rc;
        /* a lock started symmetric collapses at any of its zones, zone z at (p_z / p_1)^k*
         * times zone 1's rate 1 / tau_up (L / tau_up for uniform zones) */
        if (lup <= log(NEVER_S / zsum)) {
            u = zsum * exp(-lup);
            d = ldown <= log(NEVER_S) ? exp(-ldown) : 0.0;
        }
        /* bistable: a collapsed state exists that spins more than the symmetric one; the
         * answer is the larger of the two ("Collapse") */
        out[O_BI] = col[O_SPIN] > frozen ? 1.0 : 0.0;
        if (out[O_BI] == 1.0) {
            /* the time average over the interval of a lock started symmetric that collapses
             * at rate u and comes back at rate d ("Time to collapse") */
            /* weighted by how much more the collapsed state spins than the symmetric answer
             * it replaces, from 0 where they spin alike to 1 at COLLAPSE_ONSET more, relative
             * to the smaller of that spin and the CPUs the collapsed state leaves not spinning
             * (near saturation both spin almost all CPUs, yet differ in everything else): the
             * other outputs of the two states differ where the spins meet (lock utilization
             * 74 against 100 %), and the switch made them jump there. Where bistable itself
             * turns on (col crossing frozen while the mixed answer is below both) the step
             * stays: the simulator takes the collapsed side there (README, "Collapse onset") */
            const double ref = out[O_SPIN];
            const double scale = fmin(ref, 100.0 * (double)N - col[O_SPIN]);
            const double x = scale > 0.0 ? (col[O_SPIN] - ref) / (COLLAPSE_ONSET * scale) : 1.0;
            const double w = zvp_smoothstep(x) * collapsed_share(u, d, H);
            for (int i = 0; i < O_BI; i++)
                out[i] += w * (col[i] - out[i]);
            spin_per_acq(out); /* the interval's spin over its acquisitions (Little's law) */
            out[O_CTIME] = u > 0.0 ? fmin(NEVER_S, 1.0 / u) : NEVER_S;
        }
    }
    return ZVP_SUCCESS;
}

/* Two CPUs, several zones: the exact chain (models/spinlock_pair.c). */
static int spinlock_two(size_t L, double skew, double Z, double S, double c2, double h,
                        double *out, zvp_error *err)
{
    const size_t G = skew > 0 ? L : 1;
    double *buf = malloc(2 * G * sizeof *buf), *m = buf, *p = buf + G;
    if (!buf)
        return zvp_fail(err, ZVP_ENOMEM, "spinlock: out of memory");
    zone_classes(L, skew, G, m, p);
    const int rc = zvp_spinlock_pair(Z, S, c2, h, G, m, p, out);
    free(buf);
    out[O_BI] = 0.0; /* the exact chain: one state */
    if (rc)
        return zvp_fail(err, rc, "spinlock: two-CPU chain failed (cpus = 2, zones = %zu)", L);
    return ZVP_SUCCESS;
}

static int spinlock_eval(const double *pr, double *out, zvp_error *err)
{
    const unsigned long N = (unsigned long)pr[P_CPUS];
    const size_t L = (size_t)pr[P_ZONES];
    const double Zin = pr[P_WORK] * 1e-6, S = pr[P_HOLD] * 1e-6, h = pr[P_HANDOFF] * 1e-6;
    const double c2 = pr[P_SCV], budget = EXACT_MAX_COST / (L > 1 ? 8.0 : 1.0);
    const double H = pr[P_INTERVAL];
    out[O_CTIME] = NEVER_S;
    if (N == 2 && L > 1) /* work 0 as its limit (the chain needs a finite request rate) */
        return spinlock_two(L, pr[P_SKEW], Zin > 0.0 ? Zin : 1e-7 * S, S, pr[P_SCV], h, out,
                            err);
    /* several zones: work 0 as its limit, as for two CPUs (zone 1's chain and the collapsed
     * state need a finite request rate; continuous as work_us -> 0) */
    const double Z = Zin > 0.0 || L == 1 || N == 1 ? Zin : 1e-7 * S;
    const double c2x = zvp_spinlock_exact_scv(N, c2, budget);
    if (c2x > 0.0 && c2x != c2) {
        /* near-constant holds past the budget: linear in c2 between the constant hold (whose
         * chain costs a binomial per state) and Erlang-k_cap (SCV c2x = 1/k_cap) */
        double o0[N_O];
        int rc = spinlock_at(N, L, pr[P_SKEW], Z, S, 0.0, 0.0, h, H, o0, err);
        if (!rc)
            rc = spinlock_at(N, L, pr[P_SKEW], Z, S, c2x, c2x, h, H, out, err);
        const double t = c2 / c2x;
        for (int i = 0; !rc && i < O_BI; i++)
            out[i] = (1.0 - t) * o0[i] + t * out[i];
        if (!rc) {
            /* a flag, not interpolated: set when either end is bistable; the time to
             * collapse, spanning decades (and 1e300, never), geometric in c2 */
            out[O_BI] = fmax(o0[O_BI], out[O_BI]);
            out[O_CTIME] = fmin(NEVER_S, exp((1.0 - t) * log(o0[O_CTIME]) +
                                             t * log(out[O_CTIME])));
            spin_per_acq(out);
        }
        return rc;
    }
    int rc = spinlock_at(N, L, pr[P_SKEW], Z, S, c2x, c2, h, H, out, err);
    if (!rc && N == 1)
        out[O_SPIN] = out[O_SPIN_ACQ] = 0.0; /* one CPU never waits */
    return rc;
}

/* ---- the network for the simulator -------------------------------------------------------- */

/* One block: L stations, demands [L], visits [L], customers, think. */
typedef struct spin_net {
    unsigned long customers;
    double think;
    double *demands, *visits;
    zvp_sim_station st[];
} spin_net;

static int spinlock_network(const double *pr, zvp_sim_network *net, void **storage,
                            zvp_error *err)
{
    const size_t L = (size_t)pr[P_ZONES];
    *storage = NULL;
    if (L > ZVP_SIM_MAX_STATIONS) /* one station per zone */
        return zvp_fail(err, ZVP_EINVAL,
                        "spinlock: zones = %zu is out of range [1, %lu] for the simulator (one "
                        "station per zone; the analytic model takes up to 65536)",
                        L, (unsigned long)ZVP_SIM_MAX_STATIONS);
    spin_net *b = malloc(sizeof *b + L * sizeof b->st[0] + 2 * L * sizeof(double));
    *storage = b;
    if (!b)
        return zvp_fail(err, ZVP_ENOMEM, "spinlock: out of memory");
    b->demands = (double *)(void *)(b->st + L);
    b->visits = b->demands + L;
    zipf(L, pr[P_SKEW], b->visits);
    for (size_t z = 0; z < L; z++) {
        zvp_sim_station s = {ZVP_STATION_QUEUE, 1, ZVP_SIM_ROS, ZVP_SIM_DIST_PHASE, pr[P_SCV],
                             0.0, pr[P_HANDOFF] * 1e-6};
        b->st[z] = s;
        b->demands[z] = b->visits[z] * pr[P_HOLD] * 1e-6;
    }
    b->customers = (unsigned long)pr[P_CPUS];
    b->think = pr[P_WORK] * 1e-6;
    zvp_sim_network n = {b->st, L, 1, b->demands, b->visits, 0, 1, NULL, &b->customers,
                         &b->think, NULL};
    *net = n;
    return ZVP_SUCCESS;
}

static const char not_counted[] = "not measured by the simulator (it does not count the "
                                  "arrivals that find the server busy)";

static const char one_state[] = "an analytic flag: the simulator's figures are the state its "
                                "runs reached (started empty: the symmetric one unless a "
                                "fluctuation collapsed it)";

static const char no_time[] = "an analytic estimate: one run shows at most one collapse, not its "
                              "mean time";

static int spinlock_sim_outputs(const double *pr, const zvp_sim_result *r, zvp_sim_estimate *o,
                                const char **why, zvp_error *err)
{
    const size_t L = r->n_stations;
    const zvp_sim_figures *net = zvp_sim_cell(r, L, 1);
    zvp_sim_estimate u = zvp_sim_cell(r, 0, 1)->utilization; /* zone 1: the largest p */
    for (size_t z = 1; pr[P_SKEW] == 0 && z < L; z++)
        if (zvp_sim_cell(r, z, 1)->utilization.mean > u.mean)
            u = zvp_sim_cell(r, z, 1)->utilization; /* uniform: the busiest as simulated */
    const double c[4] = {100.0, 100.0, 1.0, 1e6};
    const zvp_sim_estimate *e[4] = {&net->mean_in_queue, &u, &net->throughput_per_s,
                                    &net->wait_s};
    for (int i = 0; i < 4; i++) {
        o[i].mean = c[i] * e[i]->mean;
        o[i].half_width = c[i] * e[i]->half_width;
        o[i].ci_lo = c[i] * e[i]->ci_lo;
        o[i].ci_hi = c[i] * e[i]->ci_hi;
    }
    o[O_COLL].mean = o[O_COLL].half_width = o[O_COLL].ci_lo = o[O_COLL].ci_hi = NAN;
    why[O_COLL] = not_counted;
    o[O_BI].mean = o[O_BI].half_width = o[O_BI].ci_lo = o[O_BI].ci_hi = NAN;
    why[O_BI] = one_state;
    o[O_CTIME].mean = o[O_CTIME].half_width = o[O_CTIME].ci_lo = o[O_CTIME].ci_hi = NAN;
    why[O_CTIME] = no_time;
    return ZVP_SUCCESS;
}

static const zvp_model_sim spinlock_sim = {spinlock_network, spinlock_sim_outputs};

const zvp_model zvp_model_spinlock = {
    "spinlock",
    "Spin-lock contention from your own numbers: cpus CPUs each work work_us, then take one "
    "of `zones` locks (Zipf exponent zone_skew), hold it hold_us (SCV hold_scv) and spin "
    "while it is held; handing the lock to a spinner costs handoff_us x the CPUs spinning on "
    "it. One zone exact (finite-source M/G/1 departure chain, handoff included), two CPUs "
    "exact with any zones (a Markov chain of the two CPUs); several "
    "zones by MVA with a residual-life correction, the busiest zone solved exactly with the "
    "rest of the cycle as its think time (scaled by its error at SCV 1, where MVA is exact; "
    "with a handoff halfway to the rest relaxed by Norton's theorem); where a handoff's "
    "collapsed state spins more, the time average over interval_s of a lock started "
    "symmetric that collapses after collapse_time_s (first-passage times of the collapsed "
    "zone's chain); `zvmperf simulate spinlock` simulates it.",
    "Finite-source M/G/1 embedded chain (Takagi, Queueing Analysis vol. 2, 1993); closed "
    "queueing network (Reiser & Lavenberg 1980 MVA; residual-life correction as in Lazowska "
    "et al., Quantitative System Performance, 1984; Norton's theorem: Chandy, Herzog & Woo, "
    "IBM J. Res. Dev. 19, 1975); models/README.md, spinlock",
    N_P, spinlock_params,
    N_O, spinlock_outputs,
    spinlock_eval,
    &spinlock_sim,
};
