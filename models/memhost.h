/* models/memhost.h - private core of the z/VM host memory models (models/overcommit.c for
 * report 001, models/fsio.c for report 002): the characteristic-time (Che) residency of page
 * classes in the DPA and in main storage + expanded storage, the paging DASD as an M/M/c
 * service queue, and the steady state of the VMRM-CMM SHRINK/RELEASE loop. Not installed; not
 * part of the public API. Equations: models/README.md, section "memhost". */
#ifndef ZVP_MODELS_MEMHOST_H
#define ZVP_MODELS_MEMHOST_H

#include <stddef.h>
#include "zvmperf/status.h"

#define ZVP_MEMHOST_PAGES_PER_GIB 262144.0
#define ZVP_MEMHOST_MAX_CLASSES 16

/* One page class: size_gb pages (GiB) referenced at rate_per_s (per page, per unit of time or
 * of work; > 0, finite). spread: 0 or 1 = every page at rate_per_s; s > 1 = the pages' rates
 * spread log-uniformly over [rate/s, rate*s] (rate is their geometric mean), which smooths the
 * residency cliff of a single rate. */
typedef struct zvp_memhost_class {
    double size_gb;
    double rate_per_s;
    double spread;
} zvp_memhost_class;

/**
 * zvp_memhost_char_time - characteristic time T of an LRU-like memory of capacity_gb holding
 * the classes plus pinned_gb that is always resident (Che, Tung & Wang 2002):
 *     pinned + sum_i n_i (1 - exp(-lambda_i T)) = capacity
 * T = +INFINITY when everything fits (pinned + sum n_i <= capacity). Resident share of class i:
 * zvp_memhost_hit(lambda_i, T). The left side is increasing and concave in T: safeguarded
 * Newton from T = 0 inside a doubling bracket, relative tolerance 1e-14.
 * @return ZVP_SUCCESS; ZVP_EINVAL when pinned_gb > capacity_gb (the message names both), a
 * size or rate is not finite / negative, or n > ZVP_MEMHOST_MAX_CLASSES.
 */
int zvp_memhost_char_time(const zvp_memhost_class *cls, size_t n, double pinned_gb,
                          double capacity_gb, double *t_out, zvp_error *err);

/* Resident share 1 - exp(-lambda T) of a class (1 when T is infinite). */
double zvp_memhost_hit(double rate_per_s, double t);

/* Resident share of a class with its spread: 1 - (E1(lambda T / s) - E1(lambda T s)) / (2 ln s)
 * (the mean of 1 - exp(-r T) over the log-uniform rates r); zvp_memhost_hit when s <= 1. */
double zvp_memhost_class_hit(const zvp_memhost_class *c, double t);

/* Misses (page-ins) per unit of time of a class: n lambda exp(-lambda T), in pages; with a
 * spread s > 1: n (exp(-lambda T / s) - exp(-lambda T s)) / (2 T ln s). */
double zvp_memhost_misses(const zvp_memhost_class *c, double t);

/* Paging DASD: `volumes` devices as one pooled M/M/c station (models/README.md, paging). It
 * serves reads_per_s one-page reads (read_s each) and writes_per_s pages written in blocks of
 * pages_per_write (write_s per block). */
typedef struct zvp_memhost_dasd {
    unsigned long volumes;
    double read_s, write_s, pages_per_write;
} zvp_memhost_dasd;

/**
 * zvp_memhost_dasd_read - utilization and page read time (M/M/c wait + read service) of the
 * paging DASD at the given page rates. ZVP_EUNSTABLE when the offered load reaches the volumes.
 */
int zvp_memhost_dasd_read(const zvp_memhost_dasd *d, double reads_per_s, double writes_per_s,
                          double *util, double *read_time_s, zvp_error *err);

/* Throughput of a closed network as a function of the paging read time: x = f(read_s). */
typedef int (*zvp_memhost_xfun)(const void *ctx, double read_s, double *x, zvp_error *err);

/**
 * zvp_memhost_paging_fixed_point - consistent throughput when every unit of work reads
 * `reads_per_work` pages from the paging DASD (and writes as many): x = f(R(x)), R the M/M/c
 * page read time at x reads_per_work pages/s. g(x) = f(R(x)) - x is decreasing; regula falsi
 * with the Illinois step inside (0, min(f(read_s), x_saturation)). ZVP_EUNSTABLE when no
 * positive throughput is consistent, and when g stays positive up to the saturation (the read
 * time does not throttle f, e.g. no blocking on a read): the root would be the saturation
 * itself, with an unbounded read time.
 */
int zvp_memhost_paging_fixed_point(const zvp_memhost_dasd *d, double reads_per_work,
                                   zvp_memhost_xfun f, const void *ctx, double *x_out,
                                   double *util, double *read_time_s, zvp_error *err);

/* The VMRM constraint signal as a function of the balloon (per guest, GiB); decreasing. */
typedef int (*zvp_memhost_signal)(const void *ctx, double balloon_gb, double *signal,
                                  zvp_error *err);

/**
 * zvp_memhost_vmrm_steady - steady state of the VMRM-CMM loop: VMRM issues SHRINK while the
 * host's constraint signal s(B) is above `target` and RELEASE while below; starting from no
 * balloon it settles at the first B where s(B) = target: B = 0 when s(0) <= target, b_max
 * when s stays above target on [0, b_max], else the smallest root, bracketed on a 16-step
 * grid from B = 0 up and refined by Illinois regula falsi to 1e-10 b_max (a root pair
 * closer than b_max / 16 may be stepped over).
 */
int zvp_memhost_vmrm_steady(zvp_memhost_signal s, const void *ctx, double target, double b_max,
                            double *b_out, zvp_error *err);

#endif
