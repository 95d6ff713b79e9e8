/* src/queue/qnet.h - private helpers shared by the network solvers in src/queue/. */
#ifndef ZVP_QUEUE_QNET_H
#define ZVP_QUEUE_QNET_H
#include <stddef.h>
#include "internal.h"

/* Validate stations[k] (reserved, replicas, servers for MULTI) and that kind is one of the
 * kinds whose bit is set in kinds_mask (bit i = kind i). `who` names the solver. */
int zvp_qnet_check_station(const zvp_station *st, size_t k, unsigned kinds_mask, const char *who,
                           zvp_error *err);

/* Validate a class-major [C*K] demand array: finite, >= 0; named "demands_s[c*K+k]". */
int zvp_qnet_check_demands(const double *d, size_t C, size_t K, zvp_error *err);

/* Servers of an entry as a double: m for MULTI, 1 for QUEUE/LD, +inf for DELAY. */
double zvp_qnet_servers(const zvp_station *st);

/* Check a solved closed class against the asymptotic bounds X <= N/(Z + sum replicas D)
 * and, for every station, total per-server utilization <= 1 (relative slack 1e-9).
 * u_total[K] per-server utilizations summed over classes. Returns ZVP_SUCCESS or records a
 * ZVP_EUNSTABLE "internal check failed" message (a bug, never output). */
int zvp_qnet_check_bounds(const zvp_station *st, size_t K, const double *demands_c, double z,
                          double n, double x, const double *u_total, int class_index,
                          zvp_error *err);
#endif
