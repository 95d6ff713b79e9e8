/*
 * bench/bench_sweep.c - sweep engine benchmark: the sweetspot model over a grid of 10^5
 * points (storage_gb = 256:4096:4 -> 961 values, x cpus = 16..128 -> 113 values: 108,593
 * points; the grid was 10 x finer while a point cost microseconds: since issue 13 a point
 * solves the exact lock chain, about 0.2 ms), written to HDF5 in /tmp with 1 and then 2
 * OpenMP threads, and
 * the same grid evaluated in memory with zvp_eval_grid (slices of 65536 points into reused
 * arrays, no file) with 1 and 2 threads. Prints points per second of both, the speed-ups,
 * the peak resident memory (getrusage ru_maxrss), whether both files hold the same bytes in
 * every output dataset and in /status, and whether the in-memory arrays of 1 and 2 threads
 * hash the same.
 * Issue 10: the cost of the crash safety (flush + fsync after every block: the default
 * blocks against one block for the whole grid), of the resume bookkeeping (a resume that
 * finds every block done: reading /status block by block, then the rename), as a share of
 * the 1-thread sweep; and the peak memory of a sweep (in a child process) for a grid 4 x
 * smaller and for the full grid.
 * Fixed parameters: calibration/params/sweetspot-zvm64.ini when it exists, else the
 * model's defaults. Nothing is asserted on time.
 *
 * usage: bench_sweep [model-file.ini] [output-dir]   (defaults: as above, /tmp)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hdf5.h>
#include "zvmperf/zvmperf.h"

#define DEFAULT_PARAMS "calibration/params/sweetspot-zvm64.ini"
#define SLICE_POINTS 65536u /* points per zvp_eval_grid call in memory */

/* User + system CPU seconds of this process so far. */
static double cpu_s(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static long peak_rss_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* FNV-1a over n bytes, continuing from h. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The whole grid in memory with zvp_eval_grid, SLICE_POINTS points per call into the same
 * arrays. Returns the wall seconds (-1 on error, message on stderr); *hash covers every
 * output and status byte in grid order. */
static double eval_in_memory(const zvp_model *m, const double *fixed, const zvp_axis *axes,
                             size_t n_axes, uint64_t points, int threads, uint64_t *hash)
{
    double *out = malloc((size_t)SLICE_POINTS * (m->n_outputs ? m->n_outputs : 1) * sizeof *out);
    uint8_t *st = malloc(SLICE_POINTS);
    uint64_t first, h = 1469598103934665603ULL;
    double t0, t = -1;
    zvp_error err;
    if (!out || !st) {
        fprintf(stderr, "bench_sweep: out of memory\n");
        goto done;
    }
    t0 = wall_s();
    for (first = 0; first < points; first += SLICE_POINTS) {
        uint64_t n = points - first < SLICE_POINTS ? points - first : SLICE_POINTS;
        if (zvp_eval_grid(m, fixed, axes, n_axes, first, n, out, st, threads, &err) !=
            ZVP_SUCCESS) {
            fprintf(stderr, "bench_sweep: %s\n", err.message);
            goto done;
        }
        h = fnv1a(h, out, (size_t)n * m->n_outputs * sizeof *out);
        h = fnv1a(h, st, (size_t)n);
    }
    t = wall_s() - t0;
    *hash = h;
done:
    free(out);
    free(st);
    return t;
}

/* Compare one dataset of two files, one index of the first axis at a time (bounded
 * memory). 1 = same bytes, 0 = different, -1 = HDF5 error. */
static int same_dataset(hid_t fa, hid_t fb, const char *name)
{
    hid_t da = H5Dopen2(fa, name, H5P_DEFAULT), db = H5Dopen2(fb, name, H5P_DEFAULT);
    hid_t sa = -1, sb = -1, ta = -1, mem = -1;
    hsize_t da_dims[8], db_dims[8], start[8] = {0}, count[8], row = 1, i;
    size_t esize = 0;
    unsigned char *ba = NULL, *bb = NULL;
    int rank = -1, rankb, k, same = -1;
    if (da < 0 || db < 0)
        goto done;
    sa = H5Dget_space(da);
    sb = H5Dget_space(db);
    ta = H5Dget_type(da);
    if (sa < 0 || sb < 0 || ta < 0)
        goto done;
    rank = H5Sget_simple_extent_dims(sa, da_dims, NULL);
    rankb = H5Sget_simple_extent_dims(sb, db_dims, NULL);
    if (rank < 1 || rank > 8 || rankb != rank)
        goto done;
    same = memcmp(da_dims, db_dims, (size_t)rank * sizeof da_dims[0]) == 0;
    if (!same)
        goto done;
    for (k = 1; k < rank; k++)
        row *= da_dims[k];
    esize = H5Tget_size(ta);
    ba = malloc((size_t)row * esize);
    bb = malloc((size_t)row * esize);
    mem = H5Screate_simple(1, &row, NULL);
    if (!ba || !bb || mem < 0 || esize == 0) {
        same = -1;
        goto done;
    }
    count[0] = 1;
    for (k = 1; k < rank; k++)
        count[k] = da_dims[k];
    for (i = 0; i < da_dims[0] && same == 1; i++) {
        start[0] = i;
        if (H5Sselect_hyperslab(sa, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
            H5Sselect_hyperslab(sb, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
            H5Dread(da, ta, mem, sa, H5P_DEFAULT, ba) < 0 ||
            H5Dread(db, ta, mem, sb, H5P_DEFAULT, bb) < 0) {
            same = -1;
            break;
        }
        same = memcmp(ba, bb, (size_t)row * esize) == 0;
    }
done:
    free(ba);
    free(bb);
    if (mem >= 0)
        H5Sclose(mem);
    if (ta >= 0)
        H5Tclose(ta);
    if (sa >= 0)
        H5Sclose(sa);
    if (sb >= 0)
        H5Sclose(sb);
    if (da >= 0)
        H5Dclose(da);
    if (db >= 0)
        H5Dclose(db);
    return same;
}

/* Every output variable /<name> of the model and /status: 1 all same, 0 some differ, -1 error. */
static int same_results(const char *a, const char *b, const zvp_model *m)
{
    hid_t fa = H5Fopen(a, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t fb = H5Fopen(b, H5F_ACC_RDONLY, H5P_DEFAULT);
    int same = fa >= 0 && fb >= 0 ? same_dataset(fa, fb, "/status") : -1;
    size_t k;
    for (k = 0; same == 1 && k < m->n_outputs; k++) {
        char p[256];
        snprintf(p, sizeof p, "/%s", m->outputs[k].name);
        same = same_dataset(fa, fb, p);
    }
    if (fa >= 0)
        H5Fclose(fa);
    if (fb >= 0)
        H5Fclose(fb);
    return same;
}

/* Peak RSS (KiB) of a child process that runs the sweep of `axes` with 1 thread into
 * path; -1 on failure. */
static long child_sweep_rss(const zvp_model_file *mf, const zvp_axis *axes, const char *path)
{
    struct rusage ru;
    int st = 0;
    pid_t pid = fork();
    if (pid == 0) {
        zvp_sweep_options opt;
        zvp_error err;
        zvp_sweep_options_init(&opt);
        opt.threads = 1;
        _exit(zvp_sweep_run(mf, axes, 2, path, &opt, NULL, &err) == ZVP_SUCCESS ? 0 : 1);
    }
    /* RUSAGE_CHILDREN: the largest child so far (the smaller grid runs first) */
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
        getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return -1;
    remove(path);
    return ru.ru_maxrss;
}

/* Issue 10 figures: flush per block, resume bookkeeping, memory against the grid size.
 * done = the finished 1-thread sweep file (consumed), t1 its seconds. 0, or 1 on failure. */
static int crash_safety(const zvp_model_file *mf, const zvp_axis *axes, const char *dir,
                        const char *done, double t1)
{
    zvp_sweep_options opt;
    zvp_sweep_summary sum;
    zvp_error err;
    zvp_axis quarter[2];
    char path[512], partial[600];
    double *qv, t0;
    long rss_q, rss_f;
    size_t i, nq = (axes[0].n_values + 3) / 4;
    uint64_t points = (uint64_t)axes[0].n_values * axes[1].n_values;

    /* one block for the whole grid: one flush instead of one per block */
    snprintf(path, sizeof path, "%s/zvp_bench_sweep_%ld_one.h5", dir, (long)getpid());
    zvp_sweep_options_init(&opt);
    opt.threads = 1;
    opt.block_points = points;
    if (zvp_sweep_run(mf, axes, 2, path, &opt, &sum, &err) != ZVP_SUCCESS) {
        fprintf(stderr, "bench_sweep: %s\n", err.message);
        return 1;
    }
    remove(path);
    printf("bench_sweep: crash safety: %llu blocks of <= 65536 points, each flushed and "
           "fsynced: %.3f s; one block (one flush): %.3f s; flushing per block costs %.3f s = "
           "%.1f%% of the sweep (goal < 3%%; a wall-clock difference of two runs: on a loaded "
           "machine, noise of this size dominates)\n",
           (unsigned long long)((points + 65535) / 65536), t1, sum.seconds, t1 - sum.seconds,
           100.0 * (t1 - sum.seconds) / t1);

    /* resume of a partial file whose blocks are all done: the bookkeeping alone */
    snprintf(partial, sizeof partial, "%s.partial", path);
    if (rename(done, partial) != 0) {
        perror("bench_sweep: rename");
        return 1;
    }
    zvp_sweep_options_init(&opt);
    opt.threads = 1;
    opt.resume = 1;
    t0 = wall_s();
    if (zvp_sweep_run(mf, axes, 2, path, &opt, &sum, &err) != ZVP_SUCCESS) {
        fprintf(stderr, "bench_sweep: %s\n", err.message);
        return 1;
    }
    t0 = wall_s() - t0;
    remove(path);
    printf("bench_sweep: resume bookkeeping (check the partial file, read /status of every "
           "block, rename): %.3f s = %.2f%% of the 1-thread sweep (goal < 3%%)\n", t0,
           100.0 * t0 / t1);

    /* memory: the same sweep on a grid 4 x smaller (every 4th storage_gb value) */
    qv = malloc(nq * sizeof *qv);
    if (!qv)
        return 1;
    for (i = 0; i < nq; i++)
        qv[i] = axes[0].values[4 * i];
    quarter[0] = axes[0];
    quarter[0].values = qv;
    quarter[0].n_values = nq;
    quarter[1] = axes[1];
    rss_q = child_sweep_rss(mf, quarter, path);
    rss_f = child_sweep_rss(mf, axes, path);
    free(qv);
    printf("bench_sweep: peak RSS of a 1-thread sweep (child process): %zu points %ld KiB, "
           "%llu points %ld KiB (ratio %.2f for 4 x the points)\n", nq * axes[1].n_values,
           rss_q, (unsigned long long)points, rss_f, rss_q > 0 ? (double)rss_f / (double)rss_q : 0);
    return rss_q < 0 || rss_f < 0;
}

int main(int argc, char **argv)
{
    const char *params = argc > 1 ? argv[1] : DEFAULT_PARAMS;
    const char *dir = argc > 2 ? argv[2] : "/tmp";
    char *names[2] = {NULL, NULL};
    double *values[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    const char *specs[2] = {"storage_gb=256:4096:4", "cpus=16:128:1"};
    char paths[2][512], command[256];
    double pps[2] = {0, 0}, mem_pps[2] = {0, 0};
    uint64_t hash[2] = {0, 0};
    zvp_axis axes[2];
    zvp_model_file *mf = NULL;
    const zvp_model *m;
    zvp_error err;
    int t, k, status = 1, same;

    zvp_init();
    zvp_error_clear(&err);
    if (access(params, R_OK) == 0) {
        if (zvp_model_file_read(params, &mf, &err) == ZVP_SUCCESS)
            printf("bench_sweep: fixed parameters from %s\n", params);
        else
            printf("bench_sweep: warning: cannot use %s (%s); sweetspot model defaults\n",
                   params, err.message);
    } else {
        printf("bench_sweep: %s not found; sweetspot model defaults\n", params);
    }
    if (!mf) {
        m = zvp_model_find("sweetspot", &err);
        mf = m ? zvp_model_file_new(m) : NULL;
        if (!mf) {
            fprintf(stderr, "bench_sweep: %s\n", m ? "out of memory" : err.message);
            return 1;
        }
    }
    m = zvp_model_file_model(mf);
    for (k = 0; k < 2; k++) {
        if (zvp_axis_parse(specs[k], &names[k], &values[k], &n[k], &err) != ZVP_SUCCESS) {
            fprintf(stderr, "bench_sweep: %s\n", err.message);
            goto out;
        }
        axes[k].name = names[k];
        axes[k].values = values[k];
        axes[k].n_values = n[k];
    }
    printf("bench_sweep: model %s, grid %s x %s = %zu x %zu = %zu points, %zu outputs\n",
           m->name, specs[0], specs[1], n[0], n[1], n[0] * n[1], m->n_outputs);

    for (t = 0; t < 2; t++) {
        zvp_sweep_options opt;
        zvp_sweep_summary sum;
        double cpu0;
        zvp_sweep_options_init(&opt);
        opt.threads = t + 1;
        snprintf(command, sizeof command, "bench_sweep (threads=%d)", t + 1);
        opt.command = command;
        snprintf(paths[t], sizeof paths[t], "%s/zvp_bench_sweep_%ld_t%d.h5", dir, (long)getpid(),
                 t + 1);
        cpu0 = cpu_s();
        if (zvp_sweep_run(mf, axes, 2, paths[t], &opt, &sum, &err) != ZVP_SUCCESS) {
            fprintf(stderr, "bench_sweep: %s (%s)\n", err.message, zvp_strerror(err.status));
            goto out;
        }
        pps[t] = (double)sum.points / sum.seconds;
        cpu0 = cpu_s() - cpu0;
        printf("bench_sweep: threads %d: %.3f s wall, %.0f points/s, CPU %.3f s (%.2f CPUs busy); "
               "ok %llu, unstable %llu, invalid %llu; peak RSS so far %ld KiB\n",
               t + 1, sum.seconds, pps[t], cpu0, cpu0 / sum.seconds, (unsigned long long)sum.ok,
               (unsigned long long)sum.unstable, (unsigned long long)sum.invalid, peak_rss_kib());
    }
    printf("bench_sweep: speed-up 2 threads / 1 thread: %.2f (online CPUs: %ld)\n",
           pps[1] / pps[0], sysconf(_SC_NPROCESSORS_ONLN));
    printf("bench_sweep: peak resident memory (ru_maxrss): %ld KiB\n", peak_rss_kib());
    same = same_results(paths[0], paths[1], m);
    printf("bench_sweep: outputs and /status identical for 1 and 2 threads: %s\n",
           same == 1 ? "yes" : same == 0 ? "no" : "error (cannot read the files)");
    status = same == 1 ? 0 : 1;

    /* the same grid in memory: zvp_eval_grid, no file */
    for (t = 0; t < 2; t++) {
        uint64_t points = (uint64_t)n[0] * n[1];
        double cpu0 = cpu_s(), s = eval_in_memory(m, zvp_model_file_params(mf), axes, 2, points,
                                                  t + 1, &hash[t]);
        if (s < 0) {
            status = 1;
            break;
        }
        mem_pps[t] = (double)points / s;
        cpu0 = cpu_s() - cpu0;
        printf("bench_sweep: in memory (zvp_eval_grid, %u-point slices), threads %d: %.3f s "
               "wall, %.0f points/s (%.2f x the HDF5 sweep's), CPU %.3f s\n",
               SLICE_POINTS, t + 1, s, mem_pps[t], mem_pps[t] / pps[t], cpu0);
    }
    if (mem_pps[0] > 0 && mem_pps[1] > 0) {
        printf("bench_sweep: in memory, speed-up 2 threads / 1 thread: %.2f\n",
               mem_pps[1] / mem_pps[0]);
        printf("bench_sweep: in-memory arrays identical for 1 and 2 threads (FNV-1a): %s\n",
               hash[0] == hash[1] ? "yes" : "no");
        if (hash[0] != hash[1])
            status = 1;
    }
    if (crash_safety(mf, axes, dir, paths[0], (double)n[0] * (double)n[1] / pps[0]))
        status = 1;
    for (t = 0; t < 2; t++)
        remove(paths[t]);
out:
    for (k = 0; k < 2; k++) {
        free(names[k]);
        free(values[k]);
    }
    zvp_model_file_free(mf);
    return status;
}
