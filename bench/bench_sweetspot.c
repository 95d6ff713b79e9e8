/*
 * bench/bench_sweetspot.c - the cost of one sweetspot point (issue 13): zvp_model_eval at the
 * calibrated points of calibration/params/sweetspot-zvm63.ini and -zvm64.ini (Table 1: 256 to
 * 1536 GiB, 64 CPUs, the file's other parameters), repeated, in ms per point; then each file
 * over a sweep grid (storage_gb = 256:8192:64, cpus = 2, 4, 8, 16, 32, 64, 128, 256: 1000
 * points) with zvp_eval_grid on one thread, in points per second. Nothing is asserted on
 * time; exits 1 when a file cannot be read or a point is not ok.
 *
 * usage: bench_sweetspot [params-dir]   (default calibration/params)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zvmperf/zvmperf.h"

#define REPEAT 20

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long param_index(const zvp_model *m, const char *name)
{
    for (size_t i = 0; i < m->n_params; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* ms per point at the calibrated points (REPEAT passes); < 0 on failure. */
static double calibrated_ms(const zvp_model *m, const double *base)
{
    double p[64], out[64];
    const long is = param_index(m, "storage_gb"), ic = param_index(m, "cpus");
    zvp_error err;
    int n = 0;
    if (is < 0 || ic < 0 || m->n_params > 64 || m->n_outputs > 64)
        return -1.0;
    memcpy(p, base, m->n_params * sizeof *p);
    const double t0 = wall_s();
    for (int r = 0; r < REPEAT; r++)
        for (int s = 256; s <= 1536; s += 256, n++) {
            p[is] = s;
            p[ic] = 64;
            if (zvp_model_eval(m, p, out, &err) != ZVP_SUCCESS)
                return -1.0;
        }
    return 1e3 * (wall_s() - t0) / n;
}

/* points per second over the sweep grid on one thread; < 0 on failure. */
static double sweep_pps(const zvp_model *m, const double *base)
{
    static const double cpus[] = {2, 4, 8, 16, 32, 64, 128, 256};
    enum { NS = 125, NC = sizeof cpus / sizeof cpus[0], N = NS * NC };
    double storage[NS];
    for (int i = 0; i < NS; i++)
        storage[i] = 256.0 + 64.0 * i;
    zvp_axis axes[2] = {{"storage_gb", storage, NS}, {"cpus", cpus, NC}};
    double *out = malloc(m->n_outputs * N * sizeof *out);
    uint8_t st[N];
    zvp_error err;
    if (!out)
        return -1.0;
    const double t0 = wall_s();
    int rc = zvp_eval_grid(m, base, axes, 2, 0, N, out, st, 1, &err);
    const double t = wall_s() - t0;
    free(out);
    for (int i = 0; rc == ZVP_SUCCESS && i < N; i++)
        if (st[i] != ZVP_POINT_OK)
            rc = ZVP_EINVAL;
    return rc == ZVP_SUCCESS ? N / t : -1.0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "calibration/params";
    const char *files[2] = {"sweetspot-zvm63.ini", "sweetspot-zvm64.ini"};
    int rc = 0;
    zvp_init();
    for (int f = 0; f < 2; f++) {
        char path[1024];
        zvp_model_file *mf = NULL;
        zvp_error err;
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        if (zvp_model_file_read(path, &mf, &err) != ZVP_SUCCESS) {
            fprintf(stderr, "bench_sweetspot: %s\n", err.message);
            rc = 1;
            continue;
        }
        const zvp_model *m = zvp_model_file_model(mf);
        const double ms = calibrated_ms(m, zvp_model_file_params(mf));
        const double pps = sweep_pps(m, zvp_model_file_params(mf));
        if (ms < 0 || pps < 0)
            rc = 1;
        printf("bench_sweetspot: %s: eval at the calibrated points %.3f ms/point (%.0f "
               "points/s); sweep 256..8192 GiB x 2..256 CPUs (1000 points, 1 thread) %.0f "
               "points/s\n",
               files[f], ms, ms > 0 ? 1e3 / ms : 0.0, pps);
        zvp_model_file_free(mf);
    }
    return rc;
}
