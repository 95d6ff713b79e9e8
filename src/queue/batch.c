/*
 * src/queue/batch.c - the single-station kernels (and the USL) over arrays: zvp_station_batch.
 *
 * Each point is one call of the scalar kernel (zvp_erlang_b, zvp_erlang_c, zvp_mmc, zvp_mmck,
 * zvp_mminf, zvp_repairman, zvp_usl_eval) with the point's inputs, so a batch gives exactly
 * the scalar results, bit for bit, whatever the thread count. Points are independent: the
 * loop is an OpenMP loop with a dynamic schedule (the Erlang and finite-source kernels cost
 * O(c) or O(N), so points differ in cost). Per-point failures are recorded in `status`; the
 * message of the first failed point is recomputed afterwards on the calling thread (one
 * scalar call), so no error record is shared between threads.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <omp.h>
#include "internal.h"
#include "zvmperf/queue.h"

/* Counts passed as doubles must be whole numbers in [0, 2^53] (exact in a double). */
#define COUNT_MAX 9007199254740992.0
/* Below this many points the loop runs on the calling thread only. */
#define SERIAL_POINTS 64

typedef struct kernel_info {
    const char *name;          /* for messages */
    size_t n_inputs, n_outputs;
    const char *inputs[4];     /* input names, for messages */
    int counts[4];             /* 1 where the input is a count (unsigned long) */
} kernel_info;

static const kernel_info KERNELS[ZVP_BATCH_N_KERNELS] = {
    [ZVP_BATCH_ERLANG_B] = {"erlang_b", 2, 1, {"offered_load", "servers"}, {0, 1}},
    [ZVP_BATCH_ERLANG_C] = {"erlang_c", 2, 1, {"offered_load", "servers"}, {0, 1}},
    [ZVP_BATCH_MMC] = {"mmc", 3, ZVP_BATCH_STATION_FIELDS,
                       {"arrival_rate_per_s", "service_rate_per_s", "servers"}, {0, 0, 1}},
    [ZVP_BATCH_MMCK] = {"mmck", 4, ZVP_BATCH_STATION_FIELDS + 1,
                        {"arrival_rate_per_s", "service_rate_per_s", "servers", "capacity"},
                        {0, 0, 1, 1}},
    [ZVP_BATCH_MMINF] = {"mminf", 2, ZVP_BATCH_STATION_FIELDS,
                         {"arrival_rate_per_s", "service_rate_per_s"}, {0, 0}},
    [ZVP_BATCH_REPAIRMAN] = {"repairman", 4, ZVP_BATCH_STATION_FIELDS,
                             {"sources", "think_s", "service_s", "servers"}, {1, 0, 0, 1}},
    [ZVP_BATCH_USL] = {"usl", 4, 1, {"n", "gamma", "alpha", "beta"}, {0, 0, 0, 0}},
};

int zvp_batch_shape(int kernel, size_t *n_inputs, size_t *n_outputs, zvp_error *err)
{
    if (n_inputs)
        *n_inputs = 0;
    if (n_outputs)
        *n_outputs = 0;
    if (kernel < 0 || kernel >= ZVP_BATCH_N_KERNELS)
        return zvp_fail(err, ZVP_EINVAL, "kernel = %d is out of range [0, %d]", kernel,
                        ZVP_BATCH_N_KERNELS - 1);
    if (n_inputs)
        *n_inputs = KERNELS[kernel].n_inputs;
    if (n_outputs)
        *n_outputs = KERNELS[kernel].n_outputs;
    return ZVP_SUCCESS;
}

/* One point: inputs x[0..n_inputs), outputs y[0..n_outputs) (NaN on failure). */
static int eval_point(int kernel, size_t i, const double *x, double *y, zvp_error *err)
{
    const kernel_info *k = &KERNELS[kernel];
    unsigned long u[4] = {0, 0, 0, 0};
    for (size_t j = 0; j < k->n_outputs; j++)
        y[j] = NAN;
    for (size_t a = 0; a < k->n_inputs; a++) {
        if (!k->counts[a])
            continue;
        if (!(x[a] >= 0.0 && x[a] <= COUNT_MAX && x[a] == floor(x[a])))
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: %s[%zu] = %.17g is not a whole number in [0, %.17g]", k->name,
                            k->inputs[a], i, x[a], COUNT_MAX);
        u[a] = (unsigned long)x[a];
    }
    zvp_station_result r;
    int rc;
    switch (kernel) {
    case ZVP_BATCH_ERLANG_B:
        return zvp_erlang_b(x[0], u[1], &y[0], err);
    case ZVP_BATCH_ERLANG_C:
        return zvp_erlang_c(x[0], u[1], &y[0], err);
    case ZVP_BATCH_USL:
        return zvp_usl_eval(x[0], x[1], x[2], x[3], &y[0], err);
    case ZVP_BATCH_MMC:
        rc = zvp_mmc(x[0], x[1], u[2], &r, err);
        break;
    case ZVP_BATCH_MMCK:
        rc = zvp_mmck(x[0], x[1], u[2], u[3], &r, &y[ZVP_BATCH_STATION_FIELDS], err);
        break;
    case ZVP_BATCH_MMINF:
        rc = zvp_mminf(x[0], x[1], &r, err);
        break;
    default: /* ZVP_BATCH_REPAIRMAN */
        rc = zvp_repairman(u[0], x[1], x[2], u[3], &r, err);
        break;
    }
    if (rc != ZVP_SUCCESS) {
        y[ZVP_BATCH_STATION_FIELDS] = NAN; /* pblock of mmck; the spare slot otherwise */
        return rc;
    }
    y[0] = r.throughput_per_s;
    y[1] = r.utilization;
    y[2] = r.busy_servers;
    y[3] = r.mean_in_system;
    y[4] = r.mean_in_queue;
    y[5] = r.response_s;
    y[6] = r.wait_s;
    y[7] = r.pwait;
    return ZVP_SUCCESS;
}

/* Gathers point i's inputs, evaluates it and scatters its outputs (output-major). */
static int run_point(int kernel, size_t n, size_t i, const double *const *inputs,
                     double *outputs, zvp_error *err)
{
    const kernel_info *k = &KERNELS[kernel];
    double x[4], y[ZVP_BATCH_STATION_FIELDS + 1];
    for (size_t a = 0; a < k->n_inputs; a++)
        x[a] = inputs[a][i];
    int rc = eval_point(kernel, i, x, y, err);
    for (size_t j = 0; j < k->n_outputs; j++)
        outputs[j * n + i] = rc == ZVP_SUCCESS ? y[j] : NAN;
    return rc;
}

int zvp_station_batch(int kernel, size_t n, const double *const *inputs, double *outputs,
                      uint8_t *status, int threads, zvp_error *err)
{
    int rc;
    if ((rc = zvp_batch_shape(kernel, NULL, NULL, err)))
        return rc;
    if (threads < 0)
        return zvp_fail(err, ZVP_EINVAL,
                        "threads = %d is out of range [0, %d] (0 = the OpenMP default)", threads,
                        INT32_MAX);
    if (n == 0) {
        zvp_error_clear(err);
        return ZVP_SUCCESS;
    }
    const kernel_info *k = &KERNELS[kernel];
    if (!inputs || !outputs || !status)
        return zvp_fail(err, ZVP_EINVAL, "%s batch: %s = NULL with n = %zu points", k->name,
                        !inputs ? "inputs" : !outputs ? "outputs" : "status", n);
    for (size_t a = 0; a < k->n_inputs; a++)
        if (!inputs[a])
            return zvp_fail(err, ZVP_EINVAL, "%s batch: inputs[%zu] (%s) = NULL with n = %zu "
                            "points", k->name, a, k->inputs[a], n);
    const int nthreads = threads > 0 ? threads : omp_get_max_threads();
    const long long npts = (long long)n;
#pragma omp parallel for schedule(dynamic, 256) num_threads(nthreads) if (n > SERIAL_POINTS)
    for (long long i = 0; i < npts; i++)
        status[i] = (uint8_t)run_point(kernel, n, (size_t)i, inputs, outputs, NULL);
    zvp_error_clear(err);
    for (size_t i = 0; i < n; i++)
        if (status[i] != ZVP_SUCCESS) {
            (void)run_point(kernel, n, i, inputs, outputs, err); /* same result, with message */
            break;
        }
    return ZVP_SUCCESS;
}
