/*
 * tests/test_sweep_resume.c - the sweep file of issue 10: layout version 2 (netCDF-4 / CF),
 * the partial file, cancellation through the progress callback, --resume (bit-identical to
 * an uninterrupted run, refused for another sweep), an unreadable partial file restarted,
 * the lock, and the registry rule that outputs and parameters never share a name.
 */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"
#include "sweep_fixtures.h"

#define N_SERVERS 3
#define N_ARRIVAL 60000 /* 3 x 60000 points: three blocks of 60000 (one server value each) */
#define POINTS ((size_t)N_SERVERS * N_ARRIVAL)

typedef struct grid {
    double servers[N_SERVERS];
    double *arrival;
    zvp_axis axes[2];
} grid;

static void grid_init(grid *g)
{
    size_t i;
    for (i = 0; i < N_SERVERS; i++)
        g->servers[i] = (double)(i + 1);
    g->arrival = malloc(N_ARRIVAL * sizeof *g->arrival);
    for (i = 0; g->arrival && i < N_ARRIVAL; i++)
        g->arrival[i] = 0.0001 * (double)(i + 1); /* up to 6/s: some points unstable */
    g->axes[0] = (zvp_axis){"servers", g->servers, N_SERVERS};
    g->axes[1] = (zvp_axis){"arrival_rate_per_s", g->arrival, N_ARRIVAL};
}

static void path_of(char *buf, size_t size, const char *name, const char *suffix)
{
    snprintf(buf, size, "%s/%s_%ld.h5%s", ZVP_TEST_TMPDIR, name, (long)getpid(), suffix);
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* Progress callback: records the calls; asks to stop at call number stop_at (1 = the call
 * at the start). */
typedef struct progress_log {
    int calls, stop_at;
    uint64_t first, last, total, prev;
    int monotonic;
} progress_log;

static int on_progress(uint64_t done, uint64_t total, void *user)
{
    progress_log *p = user;
    if (p->calls == 0) {
        p->first = done;
        p->monotonic = 1;
    } else if (done < p->prev) {
        p->monotonic = 0;
    }
    p->calls++;
    p->prev = p->last = done;
    p->total = total;
    return p->calls == p->stop_at;
}

typedef struct notices {
    int n;
    char last[1024];
} notices;

static void on_notice(const char *message, void *user)
{
    notices *n = user;
    n->n++;
    snprintf(n->last, sizeof n->last, "%s", message);
}

static int run(zvp_model_file *mf, grid *g, const char *out, int resume, progress_log *p,
               notices *n, zvp_sweep_summary *sum, zvp_error *err)
{
    zvp_sweep_options opt;
    zvp_sweep_options_init(&opt);
    opt.threads = 2;
    opt.resume = resume;
    opt.progress = p ? on_progress : NULL;
    opt.progress_user = p;
    zvp_error_clear(err);
    return zvp_sweep_run_notify(mf, g->axes, 2, out, &opt, sum, n ? on_notice : NULL, n, err);
}

static int file_says(const char *path, const char *text)
{
    char buf[64] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return strcmp(buf, text) == 0;
}

/* Layout version 2: global attributes, coordinate variables as dimension scales, no
 * /axes or /outputs group, status flags; nothing left beside the file. */
static void test_sweep_layout_v2(void)
{
    zvp_model_file *mf = zvp_test_mmc_file(2.0);
    const double servers[2] = {1, 2}, rates[3] = {0.5, 1, 1.5};
    zvp_axis axes[2] = {{"servers", servers, 2}, {"arrival_rate_per_s", rates, 3}};
    char out[512], partial[512], lock[512], name[64];
    int32_t version = -1, complete = -1;
    uint64_t total = 0;
    uint8_t flags[4] = {9, 9, 9, 9}, fill = 9;
    double dfill = 0;
    zvp_error err;
    hid_t f, ds;
    path_of(out, sizeof out, "layout2", "");
    path_of(partial, sizeof partial, "layout2", ".partial");
    path_of(lock, sizeof lock, "layout2", ".partial.lock");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_EQUAL_FATAL(zvp_sweep_run(mf, axes, 2, out, NULL, NULL, &err), ZVP_SUCCESS);
    CU_ASSERT(!exists(partial) && !exists(lock));
    f = H5Fopen(out, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    CU_ASSERT(H5LTget_attribute_int(f, "/", "sweep_layout_version", &version) >= 0);
    CU_ASSERT_EQUAL(version, 2);
    CU_ASSERT(H5LTget_attribute_int(f, "/", "sweep_complete", &complete) >= 0);
    CU_ASSERT_EQUAL(complete, 1);
    CU_ASSERT(H5LTget_attribute_ulong(f, "/", "points_total", (unsigned long *)&total) >= 0);
    CU_ASSERT_EQUAL(total, 6);
    CU_ASSERT(H5LTget_attribute_uchar(f, "/status", "flag_values", flags) >= 0);
    CU_ASSERT(flags[0] == 0 && flags[1] == 1 && flags[2] == 2 && flags[3] == 3);
    CU_ASSERT(H5LTget_attribute_uchar(f, "/status", "_FillValue", &fill) >= 0);
    CU_ASSERT_EQUAL(fill, 0);
    CU_ASSERT(H5LTget_attribute_double(f, "/utilization", "_FillValue", &dfill) >= 0);
    CU_ASSERT(isnan(dfill));
    CU_ASSERT(H5Lexists(f, "axes", H5P_DEFAULT) == 0 && H5Lexists(f, "outputs", H5P_DEFAULT) == 0);
    CU_ASSERT(H5Aexists(f, "Conventions") > 0 && H5Aexists(f, "title") > 0);
    /* the coordinate variables are dimension scales named after the axis */
    ds = H5Dopen2(f, "servers", H5P_DEFAULT);
    CU_ASSERT_FATAL(ds >= 0);
    CU_ASSERT(H5DSis_scale(ds) > 0);
    CU_ASSERT(H5DSget_scale_name(ds, name, sizeof name) > 0 && strcmp(name, "servers") == 0);
    H5Dclose(ds);
    H5Fclose(f);
    remove(out);
    zvp_model_file_free(mf);
}

/* Cancel after the first block: ZVP_ECANCELED, the old file untouched, a readable partial
 * file with the first block's points; resume computes the rest, and every variable equals
 * an uninterrupted run's byte for byte. */
static void test_sweep_cancel_resume(void)
{
    zvp_model_file *mf = zvp_test_mmc_file(2.0);
    grid g;
    char ref[512], out[512], partial[512];
    unsigned char *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    progress_log p;
    notices n;
    zvp_sweep_summary sum, refsum;
    zvp_error err;
    int32_t complete = -1;
    hid_t f;
    grid_init(&g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g.arrival);
    path_of(ref, sizeof ref, "resume_ref", "");
    path_of(out, sizeof out, "resume_out", "");
    path_of(partial, sizeof partial, "resume_out", ".partial");
    CU_ASSERT_EQUAL_FATAL(run(mf, &g, ref, 0, NULL, NULL, &refsum, &err), ZVP_SUCCESS);

    zvp_test_write_file(out, "previous file");
    memset(&p, 0, sizeof p);
    p.stop_at = 2; /* the start, then after the first block */
    CU_ASSERT_EQUAL(run(mf, &g, out, 0, &p, NULL, &sum, &err), ZVP_ECANCELED);
    CU_ASSERT(zvp_test_msg_has(&err, partial));
    CU_ASSERT(zvp_test_msg_has(&err, "resume"));
    CU_ASSERT_EQUAL(p.first, 0);
    CU_ASSERT_EQUAL(p.last, N_ARRIVAL); /* one block */
    CU_ASSERT(file_says(out, "previous file"));
    CU_ASSERT_FATAL(exists(partial));
    f = H5Fopen(partial, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    CU_ASSERT(H5LTget_attribute_int(f, "/", "sweep_complete", &complete) >= 0);
    CU_ASSERT_EQUAL(complete, 0);
    H5Fclose(f);

    memset(&p, 0, sizeof p);
    memset(&n, 0, sizeof n);
    CU_ASSERT_EQUAL(run(mf, &g, out, 1, &p, &n, &sum, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(p.first, N_ARRIVAL); /* the block already computed */
    CU_ASSERT_EQUAL(p.last, (uint64_t)N_SERVERS * N_ARRIVAL);
    CU_ASSERT_EQUAL(p.calls, 1 + (N_SERVERS - 1)); /* start + the two blocks computed */
    CU_ASSERT(p.monotonic);
    CU_ASSERT(strstr(n.last, "resuming") != NULL);
    CU_ASSERT(!exists(partial));
    CU_ASSERT_EQUAL(sum.ok, refsum.ok);
    CU_ASSERT_EQUAL(sum.unstable, refsum.unstable);
    CU_ASSERT(sum.ok > 0 && sum.unstable > 0);
    a = zvp_test_sweep_bytes(ref, zvp_model_file_model(mf), POINTS, &la);
    b = zvp_test_sweep_bytes(out, zvp_model_file_model(mf), POINTS, &lb);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT(la == lb && memcmp(a, b, la) == 0);
    free(b);

    /* an unreadable partial file (cut by a crash) is said and replaced; same result */
    zvp_test_write_file(partial, "HDF5 cut short");
    memset(&n, 0, sizeof n);
    CU_ASSERT_EQUAL(run(mf, &g, out, 1, NULL, &n, &sum, &err), ZVP_SUCCESS);
    CU_ASSERT(strstr(n.last, "cannot be read") != NULL && strstr(n.last, partial) != NULL);
    b = zvp_test_sweep_bytes(out, zvp_model_file_model(mf), POINTS, &lb);
    CU_ASSERT(b && la == lb && memcmp(a, b, la) == 0);
    free(a);
    free(b);
    remove(ref);
    remove(out);
    free(g.arrival);
    zvp_model_file_free(mf);
}

/* Resume refuses a partial file of another sweep and names the difference; a stale partial
 * file without resume is replaced, saying so. */
static void test_sweep_resume_mismatch(void)
{
    zvp_model_file *mf = zvp_test_mmc_file(2.0), *other = zvp_test_mmc_file(3.0);
    grid g;
    char out[512], partial[512];
    progress_log p;
    notices n;
    zvp_sweep_summary sum;
    zvp_error err;
    grid_init(&g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(other);
    path_of(out, sizeof out, "mismatch", "");
    path_of(partial, sizeof partial, "mismatch", ".partial");
    memset(&p, 0, sizeof p);
    p.stop_at = 1; /* stop at the start: an empty partial file */
    CU_ASSERT_EQUAL(run(mf, &g, out, 0, &p, NULL, &sum, &err), ZVP_ECANCELED);
    CU_ASSERT_FATAL(exists(partial));
    CU_ASSERT(!exists(out));
    CU_ASSERT_EQUAL(run(other, &g, out, 1, NULL, NULL, &sum, &err), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&err, "service_rate_per_s"));
    g.arrival[7] = 0.5;
    CU_ASSERT_EQUAL(run(mf, &g, out, 1, NULL, NULL, &sum, &err), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&err, "arrival_rate_per_s"));
    CU_ASSERT(zvp_test_msg_has(&err, "value 7"));
    CU_ASSERT(exists(partial)); /* kept after a refused resume */
    memset(&n, 0, sizeof n);
    CU_ASSERT_EQUAL(run(mf, &g, out, 0, NULL, &n, &sum, &err), ZVP_SUCCESS);
    CU_ASSERT(strstr(n.last, "replacing") != NULL);
    CU_ASSERT(!exists(partial) && exists(out));
    remove(out);
    free(g.arrival);
    zvp_model_file_free(mf);
    zvp_model_file_free(other);
}

/* A second sweep to the same output fails at once while the first holds the lock, naming
 * the partial file, and touches nothing. */
static void test_sweep_lock(void)
{
    zvp_model_file *mf = zvp_test_mmc_file(2.0);
    const double servers[2] = {1, 2};
    zvp_axis axes[1] = {{"servers", servers, 2}};
    char out[512], partial[512], lock[512];
    zvp_error err;
    int fd;
    path_of(out, sizeof out, "lock", "");
    path_of(partial, sizeof partial, "lock", ".partial");
    path_of(lock, sizeof lock, "lock", ".partial.lock");
    zvp_test_write_file(out, "previous file");
    fd = open(lock, O_RDWR | O_CREAT, 0666);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(flock(fd, LOCK_EX | LOCK_NB) == 0); /* as a running sweep holds it */
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, out, NULL, NULL, &err), ZVP_EIO);
    CU_ASSERT(zvp_test_msg_has(&err, "another sweep"));
    CU_ASSERT(zvp_test_msg_has(&err, partial));
    CU_ASSERT(file_says(out, "previous file"));
    CU_ASSERT(!exists(partial));
    close(fd);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, out, NULL, NULL, &err), ZVP_SUCCESS);
    CU_ASSERT(!exists(lock));
    remove(out);
    zvp_model_file_free(mf);
}

/* Layout 2 puts outputs and coordinate variables side by side: no registered model has an
 * output named like one of its parameters, or "status" / "parameters". */
static void test_registry_names_distinct(void)
{
    size_t i, j, k;
    for (i = 0; i < zvp_model_count(); i++) {
        const zvp_model *m = zvp_model_at(i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        for (j = 0; j < m->n_outputs; j++) {
            const char *o = m->outputs[j].name;
            CU_ASSERT(strcmp(o, "status") != 0 && strcmp(o, "parameters") != 0);
            for (k = 0; k < m->n_params; k++)
                if (strcmp(o, m->params[k].name) == 0)
                    CU_FAIL("an output has the name of a parameter");
        }
        for (k = 0; k < m->n_params; k++)
            CU_ASSERT(strcmp(m->params[k].name, "status") != 0 &&
                      strcmp(m->params[k].name, "parameters") != 0);
    }
    CU_ASSERT_EQUAL(ZVP_ECANCELED, 11);
    CU_ASSERT_STRING_EQUAL(zvp_strerror(ZVP_ECANCELED), "canceled by the caller");
}

int zvp_test_register_sweep_resume(void)
{
    CU_pSuite s = CU_add_suite("sweep_resume", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "sweep_layout_v2", test_sweep_layout_v2) ||
        !CU_add_test(s, "sweep_cancel_resume", test_sweep_cancel_resume) ||
        !CU_add_test(s, "sweep_resume_mismatch", test_sweep_resume_mismatch) ||
        !CU_add_test(s, "sweep_lock", test_sweep_lock) ||
        !CU_add_test(s, "registry_names_distinct", test_registry_names_distinct))
        return (int)CU_get_error();
    return 0;
}
