/*
 * models/sweetspot_net.c - the lock network of the sweetspot model and the paging (CM4)
 * phase's frame shortfall: when page-out to DASD is the bottleneck, the CPUs that find no
 * frame go round the frame-request path again (retry, or defer and come back), and every
 * pass takes an available-list lock. Derivation: models/README.md, sweetspot.
 */
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include "internal.h"
#include "spinlock.h"
#include "sweetspot.h"

/* Work cap of the exact one-lock chain per population: near-constant holds run with the most
 * Erlang phases it allows (zvp_spinlock_exact_scv); above it even so (thousands of CPUs at the
 * lock), MVA's residual-life approximation is kept. */
#define SS_EXACT_MAX_COST 4e6
#define SS_EXACT_ITER 200

/* Uniform zones (group d of m > 1 locks): one zone solved exactly with the group's other
 * m - 1 zones, its equals, in its think time, so its response per visit R solves R = g(R),
 * g(R) = max(S, k / X_1 - Z_1(R)) with Z_1(R) = (base + (m - 1) (v / m) R) / (v / m). g falls
 * as R grows (more time at the other zones, less load on this one): R - g(R) rises and has one
 * root. Secant from MVA's R inside the bracket the signs give (bisection when a step leaves
 * it, the damped step R + (g(R) - R) / 2 until both sides are known), to |g(R) - R| <=
 * 1e-13 R. w: the chain's scratch. */
static void zone_fixed_point(unsigned long k, double Z, double c2, const ss_group *g, size_t G,
                             size_t d, double *R, double *w)
{
    const double vz = g[d].v / g[d].m;
    double base = Z, lo = g[d].S, hi = INFINITY, Rp = 0.0, fp = 0.0, r = R[d];
    for (size_t j = 0; j < G; j++)
        if (j != d && g[j].v > 0 && g[j].S > 0)
            base += g[j].v * R[j];
    for (int it = 0; it < SS_EXACT_ITER; it++) {
        double X1, ET, pi0;
        const double Z1 = (base + (g[d].m - 1.0) * vz * r) / vz;
        zvp_spinlock_exact(k, Z1, g[d].S, c2, 0.0, w, &X1, &ET, &pi0);
        const double f = fmax(g[d].S, (double)k / X1 - Z1) - r; /* g(R) - R, falling */
        R[d] = r;
        if (fabs(f) <= 1e-13 * r)
            break;
        if (f > 0.0)
            lo = fmax(lo, r);
        else
            hi = fmin(hi, r);
        double next = r + 0.5 * f;
        if (it > 0 && f != fp)
            next = r - f * (r - Rp) / (f - fp);
        if (!(next > lo && next < hi))
            next = isfinite(hi) ? 0.5 * (lo + hi) : r + 0.5 * f;
        if (!(next > lo && next < hi) || next == r)
            break; /* the bracket is as small as the doubles allow */
        Rp = r;
        fp = f;
        r = next;
    }
}

/* The CPUs at each group's locks (at[], holding or spinning) at population k, from MVA's
 * responses per visit R at its pass rate x (f: its saturation factor). The busiest single lock
 * (m = 1: the global available-list lock on z/VM 6.3, the IBR aging-list lock on 6.4) is solved
 * exactly: the spinlock model's finite-source M/G/1 departure chain with the rest of the pass
 * (work + the other locks' responses) as its think time per visit (taken as exponential: a
 * geometric number of passes). When every pass takes that lock (v >= 1), the other locks see
 * its departures, whose SCV is rho^2 c2 + (1 - rho^2) (Marshall's approximation, Poisson
 * arrivals), thinned to their share p of it: their MVA waiting time is scaled by the
 * Allen-Cunneen factor (c_a^2 + c2) / (1 + c2), c_a^2 = p c_d^2 + 1 - p (1 for exponential
 * holds). The two in turn to a fixed point. Returns the pass rate. */
static double at_locks_d(unsigned long k, double Z, double c2, const ss_group *g, size_t G,
                         double *R, double x, double f, double *at, size_t d)
{
    double *w = NULL, Rm[SS_GROUPS];
    for (size_t j = 0; j < G; j++)
        Rm[j] = R[j];
    /* exponential holds: the network is product form and MVA exact (nothing to correct) */
    const double cx = zvp_spinlock_exact_scv(k, c2, SS_EXACT_MAX_COST);
    if (c2 != 1.0 && Z > 0.0 && cx >= 0.0)
        w = malloc(ZVP_SPINLOCK_EXACT_SCRATCH(k) * sizeof *w);
    if (!w) { /* no single lock (or out of memory): MVA */
        for (size_t j = 0; j < G; j++)
            at[j] = g[j].v > 0 && g[j].S > 0 ? f * x * g[j].v * R[j] : 0.0;
        return x;
    }
    /* one lock of the group d: its visits v / m per pass; the group's other m - 1 locks, its
     * equals, are part of its think time (the spinlock model's uniform zones) */
    const double vz = g[d].v / g[d].m;
    if (g[d].m > 1.0) {
        zone_fixed_point(k, Z, cx, g, G, d, R, w);
    } else {
        for (int it = 0; it < SS_EXACT_ITER; it++) {
            double base = Z, X1, ET, pi0;
            for (size_t j = 0; j < G; j++)
                if (j != d && g[j].v > 0 && g[j].S > 0)
                    base += g[j].v * R[j];
            const double Z1 = base / vz;
            zvp_spinlock_exact(k, Z1, g[d].S, cx, 0.0, w, &X1, &ET, &pi0);
            const double Rd = fmax(g[d].S, (double)k / X1 - Z1);
            double change = fabs(Rd - R[d]) / Rd;
            R[d] = Rd;
            /* a lock not taken on every pass leaves the others' R (and so Z1) as they are:
             * one solution is the fixed point */
            if (!(g[d].v >= 1.0))
                break;
            const double rho = fmin(1.0, X1 * g[d].S);
            const double cd2 = rho * rho * c2 + (1.0 - rho * rho);
            for (size_t j = 0; j < G; j++) {
                if (j == d || !(g[j].v > 0 && g[j].S > 0))
                    continue;
                const double p = fmin(1.0, g[j].v / (g[j].m * g[d].v));
                const double ca2 = p * cd2 + 1.0 - p;
                const double Rj = g[j].S + (Rm[j] - g[j].S) * (ca2 + c2) / (1.0 + c2);
                change = fmax(change, fabs(Rj - R[j]) / Rj);
                R[j] = Rj;
            }
            if (change <= 1e-10)
                break;
        }
    }
    free(w);
    double cyc = Z;
    for (size_t j = 0; j < G; j++)
        if (g[j].v > 0 && g[j].S > 0)
            cyc += g[j].v * R[j];
    x = (double)k / cyc;
    for (size_t j = 0; j < G; j++)
        at[j] = g[j].v > 0 && g[j].S > 0 ? x * g[j].v * R[j] : 0.0;
    return x;
}

/* Where two lock groups carry nearly the same demand per lock, which of them is "the busiest"
 * (solved exactly, the other by corrected MVA) is a choice the physics does not make: at the
 * crossing the two choices put most of the spin on different locks (z/VM 6.3 at 52 CPUs,
 * other_hold_us 4.99 -> 4.995: available-list spin 962 -> 3689 %, the simulator 2296 % at
 * both). So the two solutions are blended with weight w(r) on the second, r = its demand
 * over the first's: 0 for r <= SS_BLEND_R0, rising smoothly (smoothstep) to 1/2 at r = 1,
 * where the choice is symmetric. The outputs are then continuous in every hold and in phi
 * (the outer root's variable). Below SS_BLEND_R0 one group is clearly the busiest and the
 * answer is the single solution, as before (the calibrated points lie there: z/VM 6.3 r =
 * 0.55, 6.4 r < 0.1). */
#define SS_BLEND_R0 0.6
static double at_locks(unsigned long k, double Z, double c2, const ss_group *g, size_t G,
                       double *R, double x, double f, double *at)
{
    double dem[SS_GROUPS] = {0};
    size_t d = SS_GROUPS, e = SS_GROUPS;
    for (size_t j = 0; j < G; j++) {
        if (!(g[j].m >= 1.0 && g[j].v > 0 && g[j].S > 0))
            continue;
        dem[j] = g[j].v * g[j].S / g[j].m;
        if (d == SS_GROUPS || dem[j] > dem[d]) {
            e = d;
            d = j;
        } else if (e == SS_GROUPS || dem[j] > dem[e]) {
            e = j;
        }
    }
    if (d == SS_GROUPS) { /* no lock: MVA as it stands */
        for (size_t j = 0; j < G; j++)
            at[j] = g[j].v > 0 && g[j].S > 0 ? f * x * g[j].v * R[j] : 0.0;
        return x;
    }
    const double r = e == SS_GROUPS ? 0.0 : dem[e] / dem[d];
    if (!(r > SS_BLEND_R0))
        return at_locks_d(k, Z, c2, g, G, R, x, f, at, d);
    const double wt = 0.5 * zvp_smoothstep((r - SS_BLEND_R0) / (1.0 - SS_BLEND_R0));
    double R2[SS_GROUPS], at2[SS_GROUPS];
    for (size_t j = 0; j < G; j++)
        R2[j] = R[j];
    const double x1 = at_locks_d(k, Z, c2, g, G, R, x, f, at, d);
    const double x2 = at_locks_d(k, Z, c2, g, G, R2, x, f, at2, e);
    for (size_t j = 0; j < G; j++) {
        at[j] = (1.0 - wt) * at[j] + wt * at2[j];
        R[j] = (1.0 - wt) * R[j] + wt * R2[j];
    }
    return (1.0 - wt) * x1 + wt * x2;
}

void ss_mva(double n, double Z, double c2, const ss_group *g, size_t G, ss_net_sol *o)
{
    double Q[SS_GROUPS] = {0}, U[SS_GROUPS] = {0}, R[SS_GROUPS] = {0}, at[SS_GROUPS] = {0};
    double R0[SS_GROUPS] = {0}, at0[SS_GROUPS] = {0}, x0 = 0.0, f0 = 1.0, x = 0.0, f = 1.0;
    double cap = INFINITY;
    const double n0 = floor(n);
    const unsigned long k1 = n0 < n ? (unsigned long)n0 + 1 : (unsigned long)n0;
    for (size_t j = 0; j < G; j++)
        if (g[j].v > 0 && g[j].S > 0)
            cap = fmin(cap, g[j].m / (g[j].v * g[j].S));
    for (unsigned long k = 1; k <= k1; k++) {
        double cyc = Z;
        for (size_t j = 0; j < G; j++) {
            if (!(g[j].v > 0 && g[j].S > 0)) {
                R[j] = 0.0;
                continue;
            }
            const double S = g[j].S, resid = 0.5 * S * (1.0 + c2);
            R[j] = S + (Q[j] - U[j]) * S + U[j] * resid;
            cyc += g[j].v * R[j];
        }
        x = fmin((double)k / cyc, cap);
        /* f = 1 unless a saturated lock caps x: then the locks still hold k - x Z CPUs */
        f = cyc > Z ? ((double)k - x * Z) / (x * (cyc - Z)) : 1.0;
        for (size_t j = 0; j < G; j++) {
            at[j] = f * x * g[j].v * R[j];
            Q[j] = g[j].m > 0 ? at[j] / g[j].m : 0.0;
            U[j] = g[j].m > 0 ? x * g[j].v * g[j].S / g[j].m : 0.0;
        }
        if ((double)k == n0) {
            x0 = x;
            f0 = f;
            for (size_t j = 0; j < G; j++)
                R0[j] = R[j];
        }
    }
    /* the populations floor(n) and floor(n) + 1 with the busiest single lock exact */
    x0 = at_locks((unsigned long)n0, Z, c2, g, G, R0, x0, f0, at0);
    x = k1 == (unsigned long)n0 ? x0 : at_locks(k1, Z, c2, g, G, R, x, f, at);
    if (k1 == (unsigned long)n0)
        for (size_t j = 0; j < G; j++)
            at[j] = at0[j];
    const double t = n - n0;
    o->x_per_s = x0 + t * (x - x0);
    for (size_t j = 0; j < SS_GROUPS; j++) {
        if (j >= G) {
            o->spin[j] = o->util[j] = 0.0;
            continue;
        }
        const double busy = o->x_per_s * g[j].v * g[j].S;
        /* one CPU never spins (at - busy is then rounding noise, ~1e-17 CPUs) */
        o->spin[j] = n <= 1.0 ? 0.0 : fmax(0.0, at0[j] + t * (at[j] - at0[j]) - busy);
        o->util[j] = g[j].m > 0 ? fmin(1.0, busy / g[j].m) : 0.0;
    }
}

void ss_cm4_groups(const ss_cm4_in *in, double phi, ss_group *g, double *think_s)
{
    g[0] = (ss_group){in->zones, in->avail_hold_s, 1.0};
    g[1] = (ss_group){in->other_locks, in->other_hold_s, phi};
    g[2] = (ss_group){1.0, in->ibr_hold_s, in->ibr_visits * (1.0 - phi)};
    *think_s = phi * in->cp_work_s + (1.0 - phi) * in->retry_work_s;
}

static void at_phi(const ss_cm4_in *in, double n, double phi, ss_cm4 *s)
{
    s->n = n;
    s->phi = phi;
    ss_cm4_groups(in, phi, s->g, &s->think_s);
    ss_mva(n, s->think_s, in->c2, s->g, SS_GROUPS, &s->net);
    s->etr = phi * s->net.x_per_s;
}

/* A root of a continuous f on [lo, hi] with f(lo) >= 0 >= f(hi) (GSL's Brent; at most 100
 * iterations to an interval of 1e-14 relative). Without a solver (out of memory) bisection. */
typedef struct root_ctx {
    const ss_cm4_in *in;
    double n;
    ss_cm4 *s;
} root_ctx;

static double brent(double (*f)(double, void *), void *ctx, double lo, double hi)
{
    gsl_function F = {f, ctx};
    gsl_root_fsolver *r = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    double x = 0.5 * (lo + hi);
    if (r && gsl_root_fsolver_set(r, &F, lo, hi) == GSL_SUCCESS) {
        for (int i = 0; i < 100; i++) {
            if (gsl_root_fsolver_iterate(r) != GSL_SUCCESS)
                break;
            x = gsl_root_fsolver_root(r);
            if (gsl_root_test_interval(gsl_root_fsolver_x_lower(r), gsl_root_fsolver_x_upper(r),
                                       0.0, 1e-14) == GSL_SUCCESS)
                break;
        }
    } else {
        for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
            x = 0.5 * (lo + hi);
            if (f(x, ctx) > 0)
                lo = x;
            else
                hi = x;
        }
    }
    gsl_root_fsolver_free(r);
    return x;
}

static double phi_residual(double phi, void *p)
{
    root_ctx *c = p;
    at_phi(c->in, c->n, phi, c->s);
    return c->in->pageout_per_s - c->s->etr;
}

/* The share phi of passes that get a frame at n CPUs: every pass does (phi = 1) when the
 * CPUs and locks cannot write faster than the DASD; else phi X(phi) = the DASD ceiling
 * (phi X rises with phi: a pass that gets a frame only adds work). */
static void solve_phi(const ss_cm4_in *in, double n, ss_cm4 *s)
{
    at_phi(in, n, 1.0, s);
    if (s->etr <= in->pageout_per_s)
        return;
    root_ctx c = {in, n, s};
    at_phi(in, n, brent(phi_residual, &c, 0.0, 1.0), s);
    s->etr = in->pageout_per_s; /* phi X = D at the root: exact, not to the solver's tolerance */
}

/* The share of passes that get a frame at which n CPUs stay on the path when the DASD runs
 * at its ceiling D: phi X = D makes the failed passes (1 - phi) X = D (1 / phi - 1), and the
 * users off the path users - n = D defer (1 / phi - 1) (Little's law) give
 * phi_n = D defer / (D defer + users - n), rising with n. */
static double phi_at(const ss_cm4_in *in, double n)
{
    const double dd = in->pageout_per_s * in->defer_s;
    return dd / (dd + (in->users - n));
}

/* ... and its inverse: the CPUs on the path at phi, n(phi) = users - D defer (1 / phi - 1). */
static double n_at(const ss_cm4_in *in, double phi)
{
    return in->users - in->pageout_per_s * in->defer_s * (1.0 / phi - 1.0);
}

/* Is the residual min(cpus, users - deferred) - n of n CPUs (n <= min(cpus, users)) >= 0?
 * The deferred count (1 - phi) X defer falls as phi rises, and phi X rises with phi: so the
 * residual is >= 0 exactly when the phi solving phi X = D (or 1) is >= phi_n, i.e. when
 * phi_n X(n, phi_n) <= D: one network solution, no root in phi. */
static int holds_n(const ss_cm4_in *in, double n, ss_cm4 *s)
{
    if (!(in->defer_s > 0.0))
        return 1; /* nobody deferred */
    at_phi(in, n, phi_at(in, n), s);
    return s->etr <= in->pageout_per_s;
}

typedef struct path_ctx {
    const ss_cm4_in *in;
    double lo, hi; /* the CPUs on the path: the root lies in [lo, hi] */
    ss_cm4 *s;
} path_ctx;

/* D - phi X(n(phi), phi): falls as phi rises (n(phi) rises with it). */
static double path_residual(double phi, void *p)
{
    path_ctx *c = p;
    const double n = fmin(c->hi, fmax(c->lo, n_at(c->in, phi)));
    at_phi(c->in, n, phi, c->s);
    return c->in->pageout_per_s - c->s->etr;
}

/* CPUs left on the path: n = min(cpus, users - deferred), deferred = failed passes x defer_s
 * (Little's law), with phi solving phi X(n, phi) = D (or 1): the deferred count grows with n,
 * so the residual min(cpus, users - deferred) - n falls: a root in [1, nmax] unless nmax
 * (nobody deferred beyond the spare users) or 1 already holds. The residual's sign at whole
 * n takes one network solution (holds_n): bisection on whole n finds the unit interval
 * [k, k + 1] of the root, where the network is linear in n between its two populations; on
 * it the root is (n(phi), phi) with phi solving phi X(n(phi), phi) = D (Brent). */
void ss_cm4_solve(const ss_cm4_in *in, ss_cm4 *s)
{
    const double nmax = fmin(in->cpus, in->users);
    if (nmax <= 1.0 || holds_n(in, nmax, s)) {
        solve_phi(in, nmax, s); /* always so without deferral */
        return;
    }
    if (!holds_n(in, 1.0, s)) {
        solve_phi(in, 1.0, s);
        return;
    }
    double lo = 1.0, hi = nmax; /* holds at lo, not at hi */
    while (hi - lo > 1.0) {
        const double mid = floor(0.5 * (lo + hi));
        if (holds_n(in, mid, s))
            lo = mid;
        else
            hi = mid;
    }
    path_ctx c = {in, lo, hi, s};
    const double phi = brent(path_residual, &c, phi_at(in, lo), phi_at(in, hi));
    at_phi(in, fmin(hi, fmax(lo, n_at(in, phi))), phi, s);
    s->etr = in->pageout_per_s; /* phi X = D at the root: exact, not to the solver's tolerance */
}
