/* src/queue/qnet.h - private helpers shared by the kernels and network solvers in src/queue/. */
#ifndef ZVP_QUEUE_QNET_H
#define ZVP_QUEUE_QNET_H
#include <math.h>
#include <stddef.h>
#include "internal.h"
#include "zvmperf/queue.h"

/* Result check of the single-station kernels: a successful result with an infinite field
 * means the inputs were too extreme for double arithmetic (e.g. a service rate of 1e-309/s):
 * every field becomes NaN and the call fails with ZVP_EINVAL naming the kernel. Returns rc
 * unchanged otherwise. */
static inline int zvp_station_finite(int rc, zvp_station_result *out, const char *kernel,
                                     zvp_error *err)
{
    if (rc != ZVP_SUCCESS || !out)
        return rc;
    const double f[8] = {out->throughput_per_s, out->utilization, out->busy_servers,
                         out->mean_in_system, out->mean_in_queue, out->response_s, out->wait_s,
                         out->pwait};
    for (int i = 0; i < 8; i++)
        if (isinf(f[i])) {
            out->throughput_per_s = out->utilization = out->busy_servers = NAN;
            out->mean_in_system = out->mean_in_queue = out->response_s = out->wait_s = NAN;
            out->pwait = NAN;
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: the inputs are outside the range double arithmetic can solve "
                            "(a result overflows): use rates and times within about 1e-300 .. "
                            "1e300",
                            kernel);
        }
    return rc;
}

/* Neumaier-compensated running sum (Neumaier 1974): add terms with zvp_ksum_add, read the
 * sum with zvp_ksum_value; start from {0, 0}. */
typedef struct zvp_ksum {
    double s, c;
} zvp_ksum;

static inline void zvp_ksum_add(zvp_ksum *k, double x)
{
    double t = k->s + x;
    if (fabs(k->s) >= fabs(x))
        k->c += (k->s - t) + x;
    else
        k->c += (x - t) + k->s;
    k->s = t;
}

static inline double zvp_ksum_value(const zvp_ksum *k) { return k->s + k->c; }

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
