/* src/queue/qnet.h - private helpers shared by the kernels and network solvers in src/queue/. */
#ifndef ZVP_QUEUE_QNET_H
#define ZVP_QUEUE_QNET_H
#include <math.h>
#include <stddef.h>
#include "internal.h"
#include "zvmperf/queue.h"

/* One output array of a kernel for zvp_qnet_finite: v[0..n) (v may be NULL: not wanted),
 * named `name` in the message. */
typedef struct zvp_qnet_out {
    double *v;
    size_t n;
    const char *name;
} zvp_qnet_out;

/* THE result check of every kernel in src/queue/, run before a successful result is returned:
 * when some value of outs is NaN or infinite, the inputs were too extreme for double
 * arithmetic (a result overflows, or inf - inf / 0 x inf occurred on the way): every value of
 * every out becomes NaN and the call fails with ZVP_EINVAL, message "<kernel>: the inputs
 * (<inputs>) are outside the range double arithmetic can solve (<name>[i] = <value>) ...".
 * Returns ZVP_SUCCESS when all are finite. */
int zvp_qnet_finite(const zvp_qnet_out *outs, size_t n_outs, const char *kernel,
                    const char *inputs, zvp_error *err);

/* zvp_qnet_finite over a single-class closed result (X, response, the [K] arrays). */
int zvp_qnet_mva_finite(zvp_mva_result *res, size_t K, const char *kernel, const char *inputs,
                        zvp_error *err);

/* Result check of the single-station kernels (zvp_qnet_finite over the 8 fields): returns
 * rc unchanged unless rc is ZVP_SUCCESS and a field is not finite. */
static inline int zvp_station_finite(int rc, zvp_station_result *out, const char *kernel,
                                     zvp_error *err)
{
    if (rc != ZVP_SUCCESS || !out)
        return rc;
    const zvp_qnet_out f[8] = {
        {&out->throughput_per_s, 1, "throughput_per_s"}, {&out->utilization, 1, "utilization"},
        {&out->busy_servers, 1, "busy_servers"},         {&out->mean_in_system, 1, "mean_in_system"},
        {&out->mean_in_queue, 1, "mean_in_queue"},       {&out->response_s, 1, "response_s"},
        {&out->wait_s, 1, "wait_s"},                     {&out->pwait, 1, "pwait"}};
    return zvp_qnet_finite(f, 8, kernel, "rates and times", err);
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

/* The servers (MULTI: [1, ZVP_MAX_SERVERS]), replicas (>= 1) and reserved (0) fields of
 * stations[k], whatever its kind. */
int zvp_qnet_check_station_counts(const zvp_station *st, size_t k, zvp_error *err);

/* stations[k].demand_s finite and >= 0 ("stations[k].demand_s = V is out of range"). */
int zvp_qnet_check_station_demand(const zvp_station *st, size_t k, zvp_error *err);

/* The arguments every single-class closed solver takes: stations not NULL when K > 0,
 * think_s in [0, DBL_MAX], customers in [lo, hi]. */
int zvp_qnet_check_closed(const zvp_station *stations, size_t K, double think_s,
                          unsigned long customers, unsigned long lo, unsigned long hi,
                          zvp_error *err);

/* The solution of a closed single-class network with no customers: X = 0, nothing queued or
 * busy, R_k = D_k (the no-contention residence times a first customer would see) and
 * R = sum replicas_k D_k. Arrays of res may be NULL. */
void zvp_qnet_empty(const zvp_station *stations, size_t K, zvp_mva_result *res);

/* Validate a class-major [C*K] demand array: finite, >= 0; named "demands_s[c*K+k]". */
int zvp_qnet_check_demands(const double *d, size_t C, size_t K, zvp_error *err);

/* Servers of an entry as a double: m for MULTI, 1 for QUEUE/LD, +inf for DELAY. */
double zvp_qnet_servers(const zvp_station *st);

/* Check a solved closed class against the asymptotic bounds X <= N/(Z + sum replicas D)
 * and, for every station, total per-server utilization <= 1 (relative slack 1e-9).
 * u_total[K] per-server utilizations summed over classes. Returns ZVP_SUCCESS or records a
 * ZVP_EINTERNAL "internal check failed" message (a bug, never output). Run it after
 * zvp_qnet_finite: a non-finite x or u_total is reported here as an internal failure. */
int zvp_qnet_check_bounds(const zvp_station *st, size_t K, const double *demands_c, double z,
                          double n, double x, const double *u_total, int class_index,
                          zvp_error *err);
#endif
