/*
 * models/sweetspot_net.c - the lock network of the sweetspot model and the paging (CM4)
 * phase's frame shortfall: when page-out to DASD is the bottleneck, the CPUs that find no
 * frame go round the frame-request path again (retry, or defer and come back), and every
 * pass takes an available-list lock. Derivation: models/README.md, sweetspot.
 */
#include <math.h>
#include "sweetspot.h"

void ss_mva(double n, double Z, double c2, const ss_group *g, size_t G, ss_net_sol *o)
{
    double Q[SS_GROUPS] = {0}, U[SS_GROUPS] = {0}, R[SS_GROUPS] = {0}, at[SS_GROUPS] = {0};
    double at0[SS_GROUPS] = {0}, x0 = 0.0, x = 0.0, cap = INFINITY;
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
        const double f = cyc > Z ? ((double)k - x * Z) / (x * (cyc - Z)) : 1.0;
        for (size_t j = 0; j < G; j++) {
            at[j] = f * x * g[j].v * R[j];
            Q[j] = g[j].m > 0 ? at[j] / g[j].m : 0.0;
            U[j] = g[j].m > 0 ? x * g[j].v * g[j].S / g[j].m : 0.0;
        }
        if ((double)k == n0) {
            x0 = x;
            for (size_t j = 0; j < G; j++)
                at0[j] = at[j];
        }
    }
    const double t = n - n0;
    o->x_per_s = x0 + t * (x - x0);
    for (size_t j = 0; j < SS_GROUPS; j++) {
        if (j >= G) {
            o->spin[j] = o->util[j] = 0.0;
            continue;
        }
        const double busy = o->x_per_s * g[j].v * g[j].S;
        o->spin[j] = fmax(0.0, at0[j] + t * (at[j] - at0[j]) - busy);
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

#define BISECT 64

/* The share phi of passes that get a frame at n CPUs: every pass does (phi = 1) when the
 * CPUs and locks cannot write faster than the DASD; else phi X(phi) = the DASD ceiling
 * (phi X rises with phi: a pass that gets a frame only adds work). Bisection. */
static void solve_phi(const ss_cm4_in *in, double n, ss_cm4 *s)
{
    at_phi(in, n, 1.0, s);
    if (s->etr <= in->pageout_per_s)
        return;
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < BISECT && hi - lo > 1e-16; i++) {
        const double mid = 0.5 * (lo + hi);
        at_phi(in, n, mid, s);
        if (s->etr > in->pageout_per_s)
            hi = mid;
        else
            lo = mid;
    }
    at_phi(in, n, 0.5 * (lo + hi), s);
}

/* CPUs left on the path: min(cpus, users - deferred), deferred = failed passes x defer_s
 * (Little's law); the deferred count grows with n, so h(n) falls: bisection on [1, nmax]. */
void ss_cm4_solve(const ss_cm4_in *in, ss_cm4 *s)
{
    const double nmax = fmin(in->cpus, in->users);
    solve_phi(in, nmax, s);
    double h = fmin(in->cpus, in->users - (1.0 - s->phi) * s->net.x_per_s * in->defer_s);
    if (h >= nmax || in->defer_s <= 0.0)
        return;
    solve_phi(in, 1.0, s);
    if (fmin(in->cpus, in->users - (1.0 - s->phi) * s->net.x_per_s * in->defer_s) <= 1.0)
        return;
    double lo = 1.0, hi = nmax;
    for (int i = 0; i < BISECT && hi - lo > 1e-13 * nmax; i++) {
        const double mid = 0.5 * (lo + hi);
        solve_phi(in, mid, s);
        h = fmin(in->cpus, in->users - (1.0 - s->phi) * s->net.x_per_s * in->defer_s) - mid;
        if (h > 0)
            lo = mid;
        else
            hi = mid;
    }
    solve_phi(in, 0.5 * (lo + hi), s);
}
