/* tests/test_sweep_h5.c - sweeps of the "mmc" model into HDF5 (zvp_sweep_run), read back
 * with the HDF5 API; determinism across thread counts and block sizes; the datasets equal
 * zvp_eval_grid's arrays; error paths.
 * Expected values: M/M/1 closed forms (rho = lambda/mu, L = rho/(1-rho),
 * R = 1/(mu-lambda), Lq = rho^2/(1-rho)), computed here, not by the library. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"
#include "sweep_fixtures.h"

/* Scratch file tmp/<name>_<pid>.h5: concurrent runs of the suite in the same tree must
 * not share a file (HDF5 locks open files). Removed at the end of each test. */
static const char *tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s_%ld.h5", ZVP_TEST_TMPDIR, name, (long)getpid());
    return buf;
}

static void test_zvp_sweep_options_init(void)
{
    zvp_sweep_options o;
    memset(&o, 0x5a, sizeof o);
    zvp_sweep_options_init(&o);
    CU_ASSERT_EQUAL(o.threads, 0);
    CU_ASSERT_EQUAL(o.block_points, 65536);
    CU_ASSERT_PTR_NULL(o.command);
    CU_ASSERT_PTR_NULL(o.progress);
    CU_ASSERT_PTR_NULL(o.progress_user);
    CU_ASSERT_EQUAL(o.resume, 0);
}

/* ---- sweeps ------------------------------------------------------------------------- */

/* A scalar string attribute (fixed or variable length) as a malloc'ed string, or NULL. */
static char *attr_string(hid_t loc, const char *obj, const char *name)
{
    hid_t attr = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    hid_t ftype = attr >= 0 ? H5Aget_type(attr) : H5I_INVALID_HID;
    hid_t mtype = H5I_INVALID_HID;
    char *out = NULL;
    if (ftype >= 0 && H5Tget_class(ftype) == H5T_STRING) {
        mtype = H5Tcopy(H5T_C_S1);
        H5Tset_cset(mtype, H5Tget_cset(ftype)); /* HDF5 1.10 converts no cset to another */
        if (H5Tis_variable_str(ftype) > 0) {
            char *v = NULL;
            if (H5Tset_size(mtype, H5T_VARIABLE) >= 0 && H5Aread(attr, mtype, &v) >= 0 && v) {
                out = malloc(strlen(v) + 1);
                if (out)
                    strcpy(out, v);
                H5free_memory(v);
            }
        } else {
            size_t n = H5Tget_size(ftype);
            out = calloc(n + 1, 1);
            if (out && (H5Tset_size(mtype, n + 1) < 0 || H5Aread(attr, mtype, out) < 0)) {
                free(out);
                out = NULL;
            }
        }
    }
    if (mtype >= 0)
        H5Tclose(mtype);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (attr >= 0)
        H5Aclose(attr);
    return out;
}

/* The attribute exists, is a string, and equals `expected` (when not NULL). */
static int attr_string_equals(hid_t loc, const char *obj, const char *name, const char *expected)
{
    char *v = attr_string(loc, obj, name);
    int ok = v && (!expected || strcmp(v, expected) == 0);
    free(v);
    return ok;
}

/* The 2 x 6 datasets of test_zvp_sweep_mmc: every output (shape, units, description,
 * scales ax[] attached, chunked and deflated) and /status (uint8, same shape and scales,
 * codes described). */
static void check_mmc_datasets(hid_t file, const zvp_model *m, const hid_t *ax)
{
    hid_t ds, sp;
    hsize_t dims[2];
    int rank;
    size_t k;

    /* every output: shape, units, description, scales attached, chunked and deflated */
    for (k = 0; k < m->n_outputs; k++) {
        char p[128];
        hid_t dcpl;
        int nf, f, deflated = 0;
        snprintf(p, sizeof p, "/%s", m->outputs[k].name);
        ds = H5Dopen2(file, p, H5P_DEFAULT);
        CU_ASSERT_FATAL(ds >= 0);
        CU_ASSERT(attr_string_equals(file, p, "units", m->outputs[k].unit));
        CU_ASSERT(attr_string_equals(file, p, "long_name", m->outputs[k].description));
        CU_ASSERT(H5DSis_attached(ds, ax[0], 0) > 0);
        CU_ASSERT(H5DSis_attached(ds, ax[1], 1) > 0);
        CU_ASSERT(H5DSis_attached(ds, ax[0], 1) == 0);
        dcpl = H5Dget_create_plist(ds);
        CU_ASSERT(H5Pget_layout(dcpl) == H5D_CHUNKED);
        nf = H5Pget_nfilters(dcpl);
        for (f = 0; f < nf; f++) {
            unsigned flags, cd[8];
            size_t ncd = 8;
            if (H5Pget_filter2(dcpl, (unsigned)f, &flags, &ncd, cd, 0, NULL, NULL) ==
                H5Z_FILTER_DEFLATE)
                deflated = 1;
        }
        CU_ASSERT(deflated);
        H5Pclose(dcpl);
        sp = H5Dget_space(ds);
        rank = H5Sget_simple_extent_dims(sp, dims, NULL);
        CU_ASSERT(rank == 2 && dims[0] == 2 && dims[1] == 6);
        H5Sclose(sp);
        H5Dclose(ds);
    }

    /* /status: uint8 [2][6], scales attached, codes described */
    ds = H5Dopen2(file, "/status", H5P_DEFAULT);
    CU_ASSERT_FATAL(ds >= 0);
    {
        hid_t t = H5Dget_type(ds);
        CU_ASSERT(H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) == 1 &&
                  H5Tget_sign(t) == H5T_SGN_NONE);
        H5Tclose(t);
    }
    sp = H5Dget_space(ds);
    rank = H5Sget_simple_extent_dims(sp, dims, NULL);
    CU_ASSERT(rank == 2 && dims[0] == 2 && dims[1] == 6);
    H5Sclose(sp);
    CU_ASSERT(H5DSis_attached(ds, ax[0], 0) > 0);
    CU_ASSERT(H5DSis_attached(ds, ax[1], 1) > 0);
    CU_ASSERT(attr_string_equals(file, "/status", "flag_meanings",
                                 "not_computed ok no_steady_state invalid_input"));
    H5Dclose(ds);
}

/* servers = {2, 1} x arrival_rate_per_s = 0.5:3:0.5 with service_rate_per_s = 2: with two
 * servers (M/M/2, rho = lambda / 4 <= 0.75) every point is stable; with one server,
 * rho = lambda / 2 = 0.25, 0.5, 0.75 are stable and 1, 1.25, 1.5 are not. (servers = 1.5,
 * not whole, is refused before anything is written: test_sweep_stop.c.) */
static void test_zvp_sweep_mmc(void)
{
    char path[256];
    const double mu = 2.0;
    const double servers[] = {2.0, 1.0};
    double arrival[6];
    zvp_axis axes[2];
    zvp_sweep_options opt;
    zvp_sweep_summary sum;
    zvp_model_file *mf = zvp_test_mmc_file(mu);
    const zvp_model *m;
    zvp_error err;
    hid_t file, ax[2];
    double L[12], R[12], U[12], Lq[12], v;
    uint8_t st[12];
    int i;
    char *created;
    ssize_t open_ids;

    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    tmp_path(path, sizeof path, "sweep_mmc");
    m = zvp_model_file_model(mf);
    for (i = 0; i < 6; i++)
        arrival[i] = 0.5 * (i + 1);
    axes[0] = (zvp_axis){"servers", servers, 2};
    axes[1] = (zvp_axis){"arrival_rate_per_s", arrival, 6};
    zvp_sweep_options_init(&opt);
    opt.command = "zvmperf sweep test";
    /* below one chunk: raised to 65536 (sweep.h), so this 12-point grid is one block;
     * the multi-block path is tested in test_zvp_sweep_deterministic */
    opt.block_points = 4;
    zvp_error_clear(&err);
    open_ids = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
    CU_ASSERT_EQUAL_FATAL(zvp_sweep_run(mf, axes, 2, path, &opt, &sum, &err), ZVP_SUCCESS);
    /* every HDF5 handle closed */
    CU_ASSERT_EQUAL(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), open_ids);
    CU_ASSERT_EQUAL(sum.points, 12);
    CU_ASSERT_EQUAL(sum.ok, 9);
    CU_ASSERT_EQUAL(sum.unstable, 3);
    CU_ASSERT_EQUAL(sum.invalid, 0);
    CU_ASSERT(sum.seconds >= 0);

    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(file >= 0);
    /* root attributes */
    CU_ASSERT(attr_string_equals(file, "/", "zvmperf_version", zvp_version()));
    CU_ASSERT(attr_string_equals(file, "/", "model", "mmc"));
    CU_ASSERT(attr_string_equals(file, "/", "command", "zvmperf sweep test"));
    CU_ASSERT(attr_string_equals(file, "/", "model_file", NULL));
    CU_ASSERT(attr_string_equals(file, "/", "axes", "servers,arrival_rate_per_s"));
    CU_ASSERT(attr_string_equals(file, "/", "created", NULL));
    created = attr_string(file, "/", "created");
    if (created) { /* YYYY-MM-DDTHH:MM:SSZ */
        CU_ASSERT_EQUAL(strlen(created), 20);
        CU_ASSERT_EQUAL(created[10], 'T');
        CU_ASSERT_EQUAL(created[19], 'Z');
        free(created);
    }
    /* fixed parameters with units; swept ones absent */
    v = 0;
    CU_ASSERT(H5LTget_attribute_double(file, "/parameters", "service_rate_per_s", &v) >= 0);
    CU_ASSERT_EQUAL(v, mu);
    CU_ASSERT(attr_string_equals(file, "/parameters", "service_rate_per_s_units", "1/s"));
    CU_ASSERT_EQUAL(H5Aexists_by_name(file, "/parameters", "servers", H5P_DEFAULT), 0);

    /* axes: dimension scales with units and the values given */
    ax[0] = H5Dopen2(file, "/servers", H5P_DEFAULT);
    ax[1] = H5Dopen2(file, "/arrival_rate_per_s", H5P_DEFAULT);
    CU_ASSERT_FATAL(ax[0] >= 0 && ax[1] >= 0);
    CU_ASSERT(H5DSis_scale(ax[0]) > 0);
    CU_ASSERT(H5DSis_scale(ax[1]) > 0);
    CU_ASSERT(attr_string_equals(file, "/arrival_rate_per_s", "units", "1/s"));
    CU_ASSERT(attr_string_equals(file, "/servers", "units", "1"));
    {
        double a[6];
        CU_ASSERT(H5LTread_dataset_double(file, "/arrival_rate_per_s", a) >= 0);
        CU_ASSERT(memcmp(a, arrival, sizeof a) == 0);
    }

    check_mmc_datasets(file, m, ax);
    H5Dclose(ax[0]);
    H5Dclose(ax[1]);

    CU_ASSERT(H5LTread_dataset(file, "/status", H5T_NATIVE_UINT8, st) >= 0);
    CU_ASSERT(H5LTread_dataset_double(file, "/mean_in_system", L) >= 0);
    CU_ASSERT(H5LTread_dataset_double(file, "/mean_in_queue", Lq) >= 0);
    CU_ASSERT(H5LTread_dataset_double(file, "/response_s", R) >= 0);
    CU_ASSERT(H5LTread_dataset_double(file, "/utilization", U) >= 0);
    H5Fclose(file);

    for (i = 0; i < 6; i++) { /* two servers: M/M/2, L = 2 rho / (1 - rho^2), R = L / lambda
                                 (Little), Lq = L - 2 rho */
        double lambda = arrival[i], rho = lambda / (2 * mu), l2 = 2 * rho / (1 - rho * rho);
        CU_ASSERT_EQUAL(st[i], ZVP_POINT_OK);
        ZVP_ASSERT_REL(U[i], rho, 1e-12);
        ZVP_ASSERT_REL(L[i], l2, 1e-12);
        ZVP_ASSERT_REL(Lq[i], l2 - 2 * rho, 1e-12);
        ZVP_ASSERT_REL(R[i], l2 / lambda, 1e-12);
    }
    for (i = 0; i < 6; i++) { /* one server: M/M/1 */
        double lambda = arrival[i], rho = lambda / mu;
        int p = 6 + i;
        if (rho < 1) {
            CU_ASSERT_EQUAL(st[p], ZVP_POINT_OK);
            ZVP_ASSERT_REL(U[p], rho, 1e-12);
            ZVP_ASSERT_REL(L[p], zvp_test_mm1_mean_in_system(rho), 1e-12);
            ZVP_ASSERT_REL(Lq[p], zvp_test_mm1_mean_in_queue(rho), 1e-12);
            ZVP_ASSERT_REL(R[p], 1 / (mu - lambda), 1e-12);
        } else {
            CU_ASSERT_EQUAL(st[p], ZVP_POINT_UNSTABLE);
            CU_ASSERT(isnan(L[p]) && isnan(R[p]) && isnan(U[p]) && isnan(Lq[p]));
        }
    }
    remove(path);
    zvp_model_file_free(mf);
}

/* The same 3-axis sweep of 3 x 5 x 5000 = 75000 points, with 1, 2 and 3 threads and two
 * block sizes, gives the same bytes; every point equals a direct evaluation at that grid
 * point (row-major order).
 * Blocks (src/sweep/README.md): block_points below 65536 are raised to 65536, so a grid
 * must have more than 65536 points to be cut at all. Here the trailing product of the
 * last two axes is 5 x 5000 = 25000 points, so
 *   block_points = 65536  -> split axis 0, floor(65536 / 25000) = 2 server indices per
 *                            block: two blocks, flat points [0, 50000) and [50000, 75000);
 *   block_points = 200000 -> capped at the grid size 75000: one block of all 3 indices;
 *   block_points = 0      -> the default 65536: two blocks.
 * The chunk shape is 2 x 5 x 5000 in every run (chunk target 65536), so only the block
 * cut and the thread count differ between the runs. */
static void test_zvp_sweep_deterministic(void)
{
    enum { N_SERVERS = 3, N_MU = 5, N_ARRIVAL = 5000 };
    static const struct { int threads; uint64_t block; const char *name; } runs[] = {
        {1, 200000, "sweep_det_t1_one_block"}, {1, 65536, "sweep_det_t1_two_blocks"},
        {2, 65536, "sweep_det_t2_two_blocks"}, {2, 200000, "sweep_det_t2_one_block"},
        {3, 0, "sweep_det_t3_default"},
    };
    char path[256];
    const size_t nruns = sizeof runs / sizeof runs[0];
    double servers[N_SERVERS] = {1, 2, 3}, mu[N_MU], *arrival = malloc(N_ARRIVAL * sizeof(double));
    zvp_axis axes[3];
    zvp_model_file *mf = zvp_test_mmc_file(1.0);
    const zvp_model *m;
    unsigned char *ref = NULL;
    size_t ref_len = 0, r, i, points = (size_t)N_SERVERS * N_MU * N_ARRIVAL;
    zvp_error err;

    CU_ASSERT_FATAL(points > 65536); /* more than one block is possible at all */
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arrival);
    m = zvp_model_file_model(mf);
    for (i = 0; i < N_MU; i++)
        mu[i] = 1.0 + 0.25 * (double)i;
    for (i = 0; i < N_ARRIVAL; i++)
        arrival[i] = 0.001 * (double)(i + 1); /* up to 5: stable and unstable points */
    axes[0] = (zvp_axis){"servers", servers, N_SERVERS};
    axes[1] = (zvp_axis){"service_rate_per_s", mu, N_MU};
    axes[2] = (zvp_axis){"arrival_rate_per_s", arrival, N_ARRIVAL};

    for (r = 0; r < nruns; r++) {
        zvp_sweep_options opt;
        zvp_sweep_summary sum;
        unsigned char *got;
        size_t len = 0;
        zvp_sweep_options_init(&opt);
        opt.threads = runs[r].threads;
        opt.block_points = runs[r].block;
        tmp_path(path, sizeof path, runs[r].name);
        zvp_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(zvp_sweep_run(mf, axes, 3, path, &opt, &sum, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(sum.points, points);
        CU_ASSERT_EQUAL(sum.ok + sum.unstable, points);
        CU_ASSERT(sum.unstable > 0 && sum.ok > 0);
        got = zvp_test_sweep_bytes(path, m, points, &len);
        remove(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(got);
        if (!ref) {
            ref = got;
            ref_len = len;
            continue;
        }
        CU_ASSERT_EQUAL(len, ref_len);
        CU_ASSERT(memcmp(got, ref, len) == 0);
        if (len != ref_len || memcmp(got, ref, len) != 0)
            fprintf(stderr, "\n  sweep run '%s' differs from run '%s'\n", runs[r].name,
                    runs[0].name);
        free(got);
    }

    /* point (s, u, a) sits at flat index (s * N_MU + u) * N_ARRIVAL + a */
    if (ref) {
        size_t per = points * sizeof(double), s, u, a, k;
        const uint8_t *st = ref + m->n_outputs * per;
        double params[3], *out = malloc(m->n_outputs * sizeof *out);
        long is = zvp_model_param_index(m, "servers", NULL);
        long iu = zvp_model_param_index(m, "service_rate_per_s", NULL);
        long ia = zvp_model_param_index(m, "arrival_rate_per_s", NULL);
        int bad = 0;
        CU_ASSERT_FATAL(out && is >= 0 && iu >= 0 && ia >= 0);
        for (s = 0; s < N_SERVERS; s++)
            for (u = 0; u < N_MU; u++)
                for (a = 0; a < N_ARRIVAL; a++) {
                    size_t p = (s * N_MU + u) * N_ARRIVAL + a;
                    int rc;
                    params[is] = servers[s];
                    params[iu] = mu[u];
                    params[ia] = arrival[a];
                    rc = zvp_model_eval(m, params, out, NULL);
                    /* stability of M/M/c: lambda < c mu */
                    bad |= (arrival[a] < servers[s] * mu[u]) != (st[p] == ZVP_POINT_OK);
                    bad |= (rc == ZVP_SUCCESS ? ZVP_POINT_OK : ZVP_POINT_UNSTABLE) != st[p];
                    for (k = 0; k < m->n_outputs; k++) {
                        double g;
                        memcpy(&g, ref + k * per + p * sizeof(double), sizeof g);
                        bad |= rc == ZVP_SUCCESS ? g != out[k] : !isnan(g);
                    }
                }
        CU_ASSERT_EQUAL(bad, 0);
        free(out);
    }
    free(ref);
    free(arrival);
    zvp_model_file_free(mf);
}

static void test_zvp_sweep_errors(void)
{
    const double one[] = {0.5}, two[] = {0.25, 0.5}, bad[] = {0.5, NAN};
    zvp_model_file *mf = zvp_test_mmc_file(1.0);
    zvp_axis axes[9];
    zvp_sweep_options opt;
    zvp_sweep_summary sum;
    zvp_error err;
    size_t k;
    ssize_t open_ids;
    char path[256];

    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    tmp_path(path, sizeof path, "sweep_err");
    for (k = 0; k < 9; k++) {
        axes[k].name = "arrival_rate_per_s";
        axes[k].values = one;
        axes[k].n_values = 1;
    }
    /* unknown axis name */
    axes[0].name = "storage_gb";
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, path, NULL, &sum, &err),
                    ZVP_ENOTFOUND);
    CU_ASSERT_EQUAL(err.status, ZVP_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "storage_gb"));
    CU_ASSERT_EQUAL(sum.points, 0);
    /* duplicate axis */
    axes[0].name = "arrival_rate_per_s";
    axes[1].values = two;
    axes[1].n_values = 2;
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 2, path, NULL, NULL, &err),
                    ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "arrival_rate_per_s"));
    /* axis count out of [1, 8] */
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 0, path, NULL, NULL, &err),
                    ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 9, path, NULL, NULL, &err),
                    ZVP_EINVAL);
    /* empty axis, non-finite value */
    axes[0].n_values = 0;
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, path, NULL, NULL, &err),
                    ZVP_EINVAL);
    axes[0].values = bad;
    axes[0].n_values = 2;
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, path, NULL, NULL, &err),
                    ZVP_EINVAL);
    axes[0].values = two;
    /* negative thread count */
    zvp_sweep_options_init(&opt);
    opt.threads = -1;
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, path, &opt, NULL, &err),
                    ZVP_EINVAL);
    /* NULL arguments */
    CU_ASSERT_EQUAL(zvp_sweep_run(NULL, axes, 1, path, NULL, NULL, &err),
                    ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, NULL, NULL, NULL, NULL), ZVP_EINVAL);
    /* unwritable path: HDF5 failure -> ZVP_EIO naming the path */
    zvp_error_clear(&err);
    open_ids = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
    CU_ASSERT_EQUAL(
        zvp_sweep_run(mf, axes, 1, ZVP_TEST_TMPDIR "/nonexistent_dir/x.h5", NULL, NULL, &err),
        ZVP_EIO);
    CU_ASSERT_EQUAL(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), open_ids);
    CU_ASSERT_EQUAL(err.status, ZVP_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nonexistent_dir/x.h5"));
    /* and it still works afterwards (rho = 0.25 and 0.5: both stable) */
    CU_ASSERT_EQUAL(zvp_sweep_run(mf, axes, 1, path, NULL, &sum, &err),
                    ZVP_SUCCESS);
    CU_ASSERT_EQUAL(sum.points, 2);
    CU_ASSERT_EQUAL(sum.ok, 2);
    remove(path);
    zvp_model_file_free(mf);
}


/* A sweep's /outputs and /status hold exactly zvp_eval_grid's arrays for the same grid
 * (zvp_test_sweep_bytes's buffer is output-major like them): servers {1, 3, 2} x
 * mu {0.5, 1} x lambda 0.0001 .. 3 (stable and unstable points), 3 x 2 x 30000 = 180000
 * points. The sweep cuts it into three blocks of 2 x 30000 points (the trailing product
 * 60000 fits in the default 65536, floor(65536 / 60000) = 1 server index per block) and
 * evaluates them with 2 threads; zvp_eval_grid runs the whole grid at once on 1 thread. */
static void test_zvp_sweep_equals_eval_grid(void)
{
    enum { N_S = 3, N_MU = 2, N_A = 30000 };
    const double servers[N_S] = {1, 3, 2}, mu[N_MU] = {0.5, 1};
    double *arrival = malloc(N_A * sizeof(double)), *out = NULL, *fixed;
    const size_t points = (size_t)N_S * N_MU * N_A;
    zvp_model_file *mf = zvp_test_mmc_file(1.0);
    const zvp_model *m;
    zvp_sweep_options opt;
    zvp_sweep_summary sum;
    zvp_axis axes[3];
    zvp_error err;
    uint8_t *st = malloc(points);
    unsigned char *file_bytes;
    size_t len = 0, i, per = points * sizeof(double), n_unstable = 0;
    char path[256];

    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arrival);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    m = zvp_model_file_model(mf);
    fixed = zvp_model_file_params(mf);
    out = malloc(per * m->n_outputs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    for (i = 0; i < N_A; i++)
        arrival[i] = 0.0001 * (double)(i + 1);
    axes[0] = (zvp_axis){"servers", servers, N_S};
    axes[1] = (zvp_axis){"service_rate_per_s", mu, N_MU};
    axes[2] = (zvp_axis){"arrival_rate_per_s", arrival, N_A};
    zvp_sweep_options_init(&opt);
    opt.threads = 2;
    tmp_path(path, sizeof path, "sweep_eq_grid");
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(zvp_sweep_run(mf, axes, 3, path, &opt, &sum, &err), ZVP_SUCCESS);
    file_bytes = zvp_test_sweep_bytes(path, m, points, &len);
    remove(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(file_bytes);
    CU_ASSERT_EQUAL_FATAL(len, per * m->n_outputs + points);

    CU_ASSERT_EQUAL_FATAL(zvp_eval_grid(m, fixed, axes, 3, 0, points, out, st, 1, &err),
                          ZVP_SUCCESS);
    CU_ASSERT(memcmp(file_bytes, out, per * m->n_outputs) == 0);
    CU_ASSERT(memcmp(file_bytes + per * m->n_outputs, st, points) == 0);
    for (i = 0; i < points; i++)
        n_unstable += st[i] == ZVP_POINT_UNSTABLE;
    CU_ASSERT_EQUAL(sum.unstable, n_unstable);
    CU_ASSERT_EQUAL(sum.invalid, 0);
    CU_ASSERT(sum.ok > 0 && sum.unstable > 0);
    CU_ASSERT_EQUAL(sum.ok + sum.unstable + sum.invalid, points);
    free(file_bytes);
    free(out);
    free(st);
    free(arrival);
    zvp_model_file_free(mf);
}

int zvp_test_register_sweep_h5(void)
{
    CU_pSuite s = CU_add_suite("sweep_h5", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "sweep_options_init", test_zvp_sweep_options_init) ||
        !CU_add_test(s, "sweep_mmc", test_zvp_sweep_mmc) ||
        !CU_add_test(s, "sweep_deterministic", test_zvp_sweep_deterministic) ||
        !CU_add_test(s, "sweep_equals_eval_grid", test_zvp_sweep_equals_eval_grid) ||
        !CU_add_test(s, "sweep_errors", test_zvp_sweep_errors))
        return (int)CU_get_error();
    return 0;
}
