/*
 * tests/test_sweetspot_solve.c - the paging (CM4) phase's solution of the sweetspot model
 * (models/README.md, sweetspot, "Paging phase") against the equations it solves, evaluated
 * here directly and slowly: at the (n, phi) ss_cm4_solve returns, the network (ss_mva) must
 * give phi X = D (the DASD ceiling) unless phi = 1, and the CPU residual
 * r(n) = min(cpus, users - (1 - phi(n)) X defer) - n, with phi(n) found here by plain
 * bisection on phi X(n, phi) = D (the first version's nested solution, no shortcut), must
 * change sign at n (or hold at the bounds n = min(cpus, users), n = 1). The fast solver
 * (bisection on whole n by the sign of phi_n X - D, then one root in phi along n(phi)) is
 * not used by the check. Points: the joint calibration's workload values (rounded) on both
 * releases, few and many CPUs, few users, long deferral, hold SCV 0.5, 1 and 12.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include "tests.h"
#include "../models/sweetspot.h"

#define D_PAGEOUT 178256.0 /* pages/s: 32 volumes x 16 pages / (0.2 ms + 16 x 0.167 ms) */

static ss_cm4_in point(int rel64, double cpus, double users, double defer_us, double c2)
{
    ss_cm4_in in = {0};
    in.cpus = cpus;
    in.users = users;
    in.zones = rel64 ? fmin(cpus, 64.0) : 1.0;
    in.avail_hold_s = 5.0e-6;
    in.c2 = c2;
    in.cp_work_s = 23e-6;
    in.retry_work_s = 200e-6;
    in.defer_s = defer_us * 1e-6;
    in.other_hold_s = 3.1e-6;
    in.other_locks = rel64 ? 128.0 : 1.0;
    in.ibr_visits = rel64 ? 1.0 : 0.0;
    in.ibr_hold_s = 3.9e-6;
    in.pageout_per_s = D_PAGEOUT;
    return in;
}

/* The network at (n, phi): pages written per second phi X, and X. */
static double written(const ss_cm4_in *in, double n, double phi, double *x)
{
    ss_group g[SS_GROUPS];
    ss_net_sol sol;
    double think;
    ss_cm4_groups(in, phi, g, &think);
    ss_mva(n, think, in->c2, g, SS_GROUPS, &sol);
    *x = sol.x_per_s;
    return phi * sol.x_per_s;
}

/* r(n) with phi(n) by bisection (80 halvings of [0, 1]). */
static double residual_slow(const ss_cm4_in *in, double n)
{
    double x, lo = 0.0, hi = 1.0, phi = 1.0;
    if (written(in, n, 1.0, &x) > in->pageout_per_s) {
        for (int i = 0; i < 80; i++) {
            phi = 0.5 * (lo + hi);
            if (written(in, n, phi, &x) > in->pageout_per_s)
                hi = phi;
            else
                lo = phi;
        }
        phi = 0.5 * (lo + hi);
        written(in, n, phi, &x);
    }
    return fmin(in->cpus, in->users - (1.0 - phi) * x * in->defer_s) - n;
}

static void check(const ss_cm4_in *in, const char *what)
{
    ss_cm4 s;
    double x;
    ss_cm4_solve(in, &s);
    const double nmax = fmin(in->cpus, in->users);
    const double w = written(in, s.n, s.phi, &x);
    int ok = s.n >= 1.0 && s.n <= nmax && s.phi > 0.0 && s.phi <= 1.0;
    /* the frame shortfall: phi X = D, or every pass gets a frame below the ceiling */
    ok = ok && (s.phi < 1.0 ? fabs(w - in->pageout_per_s) <= 1e-9 * in->pageout_per_s
                            : w <= in->pageout_per_s * (1.0 + 1e-12));
    /* the CPUs on the path: a sign change of r at n, or a bound */
    const double dn = 1e-6 * s.n;
    if (s.n >= nmax - 1e-12)
        ok = ok && residual_slow(in, nmax) >= -1e-9 * nmax;
    else if (s.n <= 1.0 + 1e-12)
        ok = ok && residual_slow(in, 1.0) <= 1e-9;
    else
        ok = ok && residual_slow(in, s.n - dn) > 0.0 && residual_slow(in, s.n + dn) < 0.0;
    if (!ok)
        fprintf(stderr, "\n  %s: n = %.15g, phi = %.15g, phi X = %.15g (D %.15g)\n", what, s.n,
                s.phi, w, in->pageout_per_s);
    CU_ASSERT(ok);
}

static void test_solution_solves_equations(void)
{
    static const struct {
        int rel64;
        double cpus, users, defer_us, c2;
    } pts[] = {
        {0, 64, 88, 173, 12}, {1, 64, 88, 173, 12}, {1, 2, 88, 173, 12},
        {1, 16, 88, 173, 12}, {1, 128, 88, 173, 12}, {0, 256, 300, 173, 12},
        {1, 64, 30, 173, 12}, {1, 64, 88, 5000, 12}, {0, 64, 88, 5000, 12},
        {1, 64, 88, 173, 0.5}, {0, 64, 88, 173, 0.5}, {1, 64, 88, 173, 1},
        {1, 48, 88, 1e5, 12}, {1, 1, 88, 173, 12},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        char what[128];
        ss_cm4_in in = point(pts[i].rel64, pts[i].cpus, pts[i].users, pts[i].defer_us, pts[i].c2);
        snprintf(what, sizeof what, "z/VM 6.%d, %g CPUs, %g users, defer %g us, SCV %g",
                 pts[i].rel64 ? 4 : 3, pts[i].cpus, pts[i].users, pts[i].defer_us, pts[i].c2);
        check(&in, what);
    }
}

int zvp_test_register_sweetspot_solve(void)
{
    CU_pSuite s = CU_add_suite("sweetspot_solve", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "solution_solves_equations", test_solution_solves_equations))
        return (int)CU_get_error();
    return 0;
}
