/* models/spinlock.h - private to the models (not installed): the spinlock model's exact
 * one-lock solution, for other models whose networks contain a single spin lock (sweetspot).
 * Derivation: models/README.md, spinlock, "One zone". */
#ifndef ZVP_MODELS_SPINLOCK_H
#define ZVP_MODELS_SPINLOCK_H

#include <stddef.h>

/*
 * zvp_spinlock_exact - N CPUs (N >= 1) each think Z > 0 seconds (exponential), then take one
 * lock held S seconds (SCV c2, drawn as the simulator draws it), plus h seconds per CPU
 * spinning at the handoff: the finite-source M/G/1 queue by its departure chain. Writes the
 * lock's acquisition rate X (1/s), the mean hold with handoff ET (s) and the share pi0 of
 * departures that leave nobody waiting. w: scratch of ZVP_SPINLOCK_EXACT_SCRATCH(N) doubles;
 * on return w[0..N-1] holds log pi(j) + a constant, pi the departure distribution (j = 0..N-1
 * CPUs left at the lock; the time to collapse reads it: models/README.md, spinlock). Pure.
 */
void zvp_spinlock_exact(unsigned long N, double Z, double S, double c2, double h, double *w,
                        double *X, double *ET, double *pi0);

/*
 * zvp_spinlock_exact_ld - the same chain with the CPUs away from the lock coming at the
 * load-dependent rate lam[i] when i are away (lam: [N + 1], lam[i] > 0 for i >= 1; NULL: i / Z,
 * zvp_spinlock_exact). Also writes R, the mean time at the lock (spin + hold) per acquisition.
 * Pure.
 */
void zvp_spinlock_exact_ld(unsigned long N, double Z, const double *lam, double S, double c2,
                           double h, double *w, double *X, double *ET, double *pi0, double *R);

/*
 * zvp_spinlock_exact_sym - zvp_spinlock_exact_ld in the symmetric basin: where the chain's
 * departure distribution has two modes (a handoff's positive feedback: models/README.md,
 * spinlock, "Time to collapse"), the outputs of the distribution conditioned on the states up
 * to the least likely one between the modes (the state a lock started empty stays in until it
 * collapses); with one mode the same as zvp_spinlock_exact_ld. Same arguments. Pure.
 */
void zvp_spinlock_exact_sym(unsigned long N, double Z, const double *lam, double S, double c2,
                            double h, double *w, double *X, double *ET, double *pi0, double *R);

/* Scratch size (doubles) and work ((phases + 1) N^2 / 2 inner steps) of zvp_spinlock_exact. */
#define ZVP_SPINLOCK_EXACT_SCRATCH(N) (9 * (size_t)(N) + 7)
double zvp_spinlock_exact_cost(unsigned long N, double c2);
/* The SCV to run zvp_spinlock_exact with for hold SCV c2 within `budget` inner steps: c2 when
 * affordable, 1/k_cap (the most Erlang phases the budget allows) for 0 < c2 < 1 when not, -1
 * when neither fits (use MVA). */
double zvp_spinlock_exact_scv(unsigned long N, double c2, double budget);

/*
 * zvp_spinlock_pair - two CPUs that think Z > 0 s (exponential), then take one of the zones
 * (G classes of m[g] zones of probability p[g], sum m p = 1), hold it S s (SCV c2, as the
 * simulator draws it) plus h s when it is handed to the other, spinning CPU: the exact chain
 * (models/README.md, spinlock, "Two CPUs"). out: the spinlock outputs (spin_busy_pct,
 * lock_util_pct of the busiest zone, acquisitions_per_s, spin_per_acq_us, collisions_per_s).
 * Returns ZVP_SUCCESS, ZVP_ENOMEM or ZVP_EINTERNAL (a singular system). Pure.
 */
int zvp_spinlock_pair(double Z, double S, double c2, double h, size_t G, const double *m,
                      const double *p, double *out);
/* The same with the tail threshold rho: past 64 classes, the classes g > 0 with p_g nu < rho
 * (nu = |A(0)^{-1} dA/dp|) take A(p)^{-1} from its series in p to p^2 (relative error below
 * rho^3); zvp_spinlock_pair uses rho = 1e-3, rho = 0 solves every class (tests). */
int zvp_spinlock_pair_rho(double Z, double S, double c2, double h, size_t G, const double *m,
                          const double *p, double rho, double *out);

#endif
