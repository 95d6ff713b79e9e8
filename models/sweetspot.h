/* models/sweetspot.h - private to the sweetspot model (models/sweetspot*.c): the lock network
 * of one phase and the paging (CM4) phase's frame-shortfall solution. Not installed.
 * Equations and derivation: models/README.md, sweetspot. */
#ifndef ZVP_MODELS_SWEETSPOT_H
#define ZVP_MODELS_SWEETSPOT_H

#include <stddef.h>

/* A group of m identical spin locks (zones) that a pass visits v times in all (spread
 * uniformly: v / m per lock), each visit holding the lock S seconds. */
typedef struct ss_group {
    double m, S, v;
} ss_group;

#define SS_GROUPS 3 /* available-list zones, the other (PTRM) locks, the IBR aging-list lock */

/* The closed network of one phase solved at a (possibly fractional) population. */
typedef struct ss_net_sol {
    double x_per_s;           /* passes per second */
    double spin[SS_GROUPS];   /* CPUs spinning on the group (summed over its locks) */
    double util[SS_GROUPS];   /* utilization of one lock of the group */
} ss_net_sol;

/*
 * ss_mva - n CPUs (n >= 1, real: linear in n between floor(n) and floor(n) + 1) loop: work
 * Z seconds (exponential), then the G groups' locks in turn. MVA with the residual-life
 * correction for holds of squared coefficient of variation c2 (exact for c2 = 1); for c2 != 1
 * the busiest lock group is then solved by the spinlock model's exact finite-source M/G/1
 * chain, and the locks fed by a lock every pass takes get the variability of its departures.
 * Pure.
 */
void ss_mva(double n, double Z, double c2, const ss_group *g, size_t G, ss_net_sol *o);

/* The paging (CM4) phase: inputs. */
typedef struct ss_cm4_in {
    double cpus, users;        /* CPUs; users priming (one virtual CPU each) */
    double zones;              /* available-list locks */
    double avail_hold_s, c2;   /* their hold, and the hold SCV of every lock */
    double cp_work_s;          /* CP work per page written (a pass that gets a frame) */
    double retry_work_s;       /* CP work per pass that finds no frame */
    double defer_s;            /* time deferred (off the CPU) per pass that finds no frame */
    double other_hold_s;       /* other-lock hold per page written */
    double other_locks;        /* instances the other-lock traffic spreads over */
    double ibr_visits;         /* IBR aging-list lock visits per pass that finds no frame */
    double ibr_hold_s;
    double pageout_per_s;      /* paging DASD ceiling */
} ss_cm4_in;

/* ... and its solution. */
typedef struct ss_cm4 {
    double n;        /* CPUs on the frame-request path (the rest idle: their users deferred) */
    double phi;      /* share of passes that get a frame (a page written) */
    double etr;      /* pages written per second */
    ss_net_sol net;  /* the network at (n, phi) */
    double think_s;  /* mean work per pass at phi */
    ss_group g[SS_GROUPS];
} ss_cm4;

/* Solve the paging phase (models/README.md, sweetspot, "Paging phase"). Pure. */
void ss_cm4_solve(const ss_cm4_in *in, ss_cm4 *s);

/* The groups and the work per pass at (phi) for the inputs. */
void ss_cm4_groups(const ss_cm4_in *in, double phi, ss_group *g, double *think_s);

#endif
