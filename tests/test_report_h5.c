/*
 * tests/test_report_h5.c - the calibration report .h5, layout 2 (calibration/README.md,
 * "HDF5"): netCDF-4 dimension scales row / parameter / output / start_number attached to
 * every variable, each row's inputs, integers stored as integers, CF attributes, and every
 * value equal to the in-memory result. Read back with the HDF5 library only (not with the
 * writer's helpers).
 *
 * Expected values: an M/M/1 fit (model mmc, servers = 1) built in memory whose measured
 * response times and mean numbers in system come from the closed forms R = 1 / (mu - lambda)
 * and L = rho / (1 - rho) at mu = 2.5/s, perturbed by +-1 % so that the residuals are not 0;
 * the residual in percent is recomputed here from the result's measured and fitted values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "tests.h"
#include "fit_fixtures.h"
#include "mm1_fit.h"

#define N_ROWS 5
#define N_STARTS 3
static const double LAMBDA[N_ROWS] = {0.5, 1.0, 1.5, 2.0, 2.25};
/* repeated labels: the row dimension is an index, the labels a coordinate */
static const char *const LABEL[N_ROWS] = {"low", "low", "mid", "high", "high"};

/* The fit: response_s and mean_in_system matched, row 2's mean_in_system not measured. */
static zvp_fit_result *report_fit(void)
{
    zvp_fit *fit;
    zvp_fit_result *res = NULL;
    zvp_fit_parameters pp = zvp_fit_default_parameters();
    double y[N_ROWS * 2];
    zvp_error err;
    for (size_t i = 0; i < N_ROWS; i++) {
        double rho = LAMBDA[i] / MU_TRUE, e = (i % 2 ? 1.01 : 0.99);
        y[2 * i] = e / (MU_TRUE - LAMBDA[i]);
        y[2 * i + 1] = i == 2 ? NAN : e * rho / (1.0 - rho);
    }
    fit = zvp_test_mm1_declared("arrival_rate_per_s", "service_rate_per_s", 5.0, 0.5, 20.0,
                                "response_s");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_match(fit, "mean_in_system", 1.0, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_add_rows(fit, N_ROWS, LABEL, LAMBDA, y, &err),
                          ZVP_SUCCESS);
    pp.starts = N_STARTS;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run_with(fit, &pp, &res, &err), ZVP_SUCCESS);
    zvp_fit_free(fit);
    return res;
}

/* Dimension scale names of dataset `name`, in dimension order, joined with "," (a scale:
 * its own name); and its type class. */
static void dims_of(hid_t f, const char *name, char *out, size_t size, H5T_class_t *cls)
{
    hid_t ds = H5Dopen2(f, name, H5P_DEFAULT), space, type;
    int rank;
    out[0] = '\0';
    CU_ASSERT_FATAL(ds >= 0);
    space = H5Dget_space(ds);
    rank = H5Sget_simple_extent_ndims(space);
    type = H5Dget_type(ds);
    *cls = H5Tget_class(type);
    if (H5DSis_scale(ds) > 0) { /* a dimension scale: its own (netCDF dimension) name */
        CU_ASSERT(rank == 1 && H5DSget_scale_name(ds, out, size) > 0);
        rank = 0;
    }
    for (int k = 0; k < rank; k++) {
        char scale[64] = "";
        hid_t ss[1];
        /* the scale attached to dimension k: look for it among the four */
        static const char *const DIMS[4] = {"row", "parameter", "output", "start_number"};
        for (int d = 0; d < 4; d++) {
            ss[0] = H5Dopen2(f, DIMS[d], H5P_DEFAULT);
            if (ss[0] >= 0 && H5DSis_attached(ds, ss[0], (unsigned)k) > 0)
                snprintf(scale, sizeof scale, "%s", DIMS[d]);
            if (ss[0] >= 0)
                H5Dclose(ss[0]);
        }
        if (k)
            strncat(out, ",", size - strlen(out) - 1);
        strncat(out, scale[0] ? scale : "?", size - strlen(out) - 1);
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(ds);
}

static void check_dims(hid_t f, const char *name, const char *want, H5T_class_t want_cls)
{
    char got[128];
    H5T_class_t cls;
    dims_of(f, name, got, sizeof got, &cls);
    if (strcmp(got, want) != 0 || cls != want_cls)
        fprintf(stderr, "\n%s: dims %s class %d (want %s class %d)\n", name, got, (int)cls, want,
                (int)want_cls);
    CU_ASSERT_STRING_EQUAL(got, want);
    CU_ASSERT_EQUAL(cls, want_cls);
}

/* Every variable of layout 2: its dimensions (joined with ",") and type class. */
static const struct {
    const char *name, *dims;
    H5T_class_t cls;
} VARS[] = {
    {"row", "row", H5T_INTEGER},
    {"parameter", "parameter", H5T_STRING},
    {"output", "output", H5T_STRING},
    {"start_number", "start_number", H5T_INTEGER},
    {"label", "row", H5T_STRING},
    {"input_arrival_rate_per_s", "row", H5T_FLOAT},
    {"parameter_units", "parameter", H5T_STRING},
    {"output_units", "output", H5T_STRING},
    {"measured", "row,output", H5T_FLOAT},
    {"fitted", "row,output", H5T_FLOAT},
    {"residual", "row,output", H5T_FLOAT},
    {"residual_pct", "row,output", H5T_FLOAT},
    {"estimate", "parameter", H5T_FLOAT},
    {"stderr", "parameter", H5T_FLOAT},
    {"lo", "parameter", H5T_FLOAT},
    {"hi", "parameter", H5T_FLOAT},
    {"start", "parameter", H5T_FLOAT},
    {"estimate_flag", "parameter", H5T_INTEGER},
    {"covariance", "parameter,parameter", H5T_FLOAT},
    {"r2", "output", H5T_FLOAT},
    {"rmse", "output", H5T_FLOAT},
    {"mape", "output", H5T_FLOAT},
    {"cells", "output", H5T_INTEGER},
    {"start_cost", "start_number", H5T_FLOAT},
    {"start_iterations", "start_number", H5T_INTEGER},
    {"start_status", "start_number", H5T_INTEGER},
};

/* String dataset `name` [n] equals want[0..n). */
static void check_strings(hid_t f, const char *name, const char *const *want, size_t n)
{
    char *got[16] = {0};
    hid_t ds = H5Dopen2(f, name, H5P_DEFAULT), mt = H5Tcopy(H5T_C_S1), space;
    CU_ASSERT_FATAL(ds >= 0 && n <= 16);
    H5Tset_size(mt, H5T_VARIABLE);
    H5Tset_cset(mt, H5T_CSET_UTF8);
    space = H5Dget_space(ds);
    CU_ASSERT_EQUAL(H5Sget_simple_extent_npoints(space), (hssize_t)n);
    CU_ASSERT_FATAL(H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT(got[i] && strcmp(got[i], want[i]) == 0);
    H5Dvlen_reclaim(mt, space, H5P_DEFAULT, got);
    H5Sclose(space);
    H5Tclose(mt);
    H5Dclose(ds);
}

/* Same bits, NaN equal to NaN. */
static int same(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

static char *attr_string(hid_t loc, const char *obj, const char *name)
{
    static char buf[512];
    char *v = NULL;
    hid_t a = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT), mt;
    buf[0] = '\0';
    if (a < 0)
        return NULL;
    mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, H5T_VARIABLE);
    H5Tset_cset(mt, H5T_CSET_UTF8);
    if (H5Aread(a, mt, &v) >= 0 && v) {
        snprintf(buf, sizeof buf, "%s", v);
        H5free_memory(v);
    }
    H5Tclose(mt);
    H5Aclose(a);
    return buf;
}

/* Integer attribute: its type class must be integer. */
static long long attr_int(hid_t f, const char *name)
{
    long long v = -1;
    hid_t a = H5Aopen_by_name(f, "/", name, H5P_DEFAULT, H5P_DEFAULT), t;
    CU_ASSERT_FATAL(a >= 0);
    t = H5Aget_type(a);
    CU_ASSERT_EQUAL(H5Tget_class(t), H5T_INTEGER);
    CU_ASSERT(H5Aread(a, H5T_NATIVE_LLONG, &v) >= 0);
    H5Tclose(t);
    H5Aclose(a);
    return v;
}

static void test_report_h5_layout(void)
{
    const char *path = ZVP_TEST_TMPDIR "/report_layout.h5";
    zvp_fit_result *res = report_fit();
    size_t nm = zvp_fit_result_n_matched(res), p = zvp_fit_result_n_free(res);
    const double *meas = zvp_fit_result_measured(res), *fit = zvp_fit_result_fitted(res);
    double buf[16], lam[N_ROWS];
    int ibuf[16];
    long long lbuf[4];
    const char *pn[1], *on[2], *ou[2] = {"s", "1"}, *pu[1] = {"1/s"};
    zvp_error err;
    hid_t f;
    CU_ASSERT_FATAL(nm == 2 && p == 1 && zvp_fit_result_n_rows(res) == N_ROWS);
    pn[0] = zvp_fit_result_param_name(res, 0);
    on[0] = zvp_fit_result_output_name(res, 0);
    on[1] = zvp_fit_result_output_name(res, 1);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_result_write_h5(res, path, &err), ZVP_SUCCESS);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);

    /* dimensions of every variable, and their types */
    for (size_t k = 0; k < sizeof VARS / sizeof VARS[0]; k++)
        check_dims(f, VARS[k].name, VARS[k].dims, VARS[k].cls);

    /* coordinates */
    CU_ASSERT(H5LTread_dataset_int(f, "row", ibuf) >= 0);
    for (int i = 0; i < N_ROWS; i++)
        CU_ASSERT_EQUAL(ibuf[i], i);
    CU_ASSERT(H5LTread_dataset_int(f, "start_number", ibuf) >= 0);
    for (int i = 0; i < N_STARTS; i++)
        CU_ASSERT_EQUAL(ibuf[i], i + 1);
    check_strings(f, "label", LABEL, N_ROWS);
    check_strings(f, "parameter", pn, 1);
    CU_ASSERT_STRING_EQUAL(pn[0], "service_rate_per_s");
    check_strings(f, "output", on, 2);
    check_strings(f, "output_units", ou, 2);
    check_strings(f, "parameter_units", pu, 1);
    CU_ASSERT(H5LTread_dataset_double(f, "input_arrival_rate_per_s", lam) >= 0);
    for (int i = 0; i < N_ROWS; i++)
        CU_ASSERT_EQUAL(lam[i], LAMBDA[i]);
    CU_ASSERT_STRING_EQUAL(attr_string(f, "input_arrival_rate_per_s", "units"), "1/s");
    CU_ASSERT_STRING_EQUAL(attr_string(f, "input_arrival_rate_per_s", "parameter"),
                           "arrival_rate_per_s");
    CU_ASSERT_PTR_NOT_NULL(attr_string(f, "input_arrival_rate_per_s", "long_name"));
    CU_ASSERT_PTR_NOT_NULL(strstr(attr_string(f, "measured", "coordinates"),
                                  "input_arrival_rate_per_s"));

    /* values: those of the result in memory */
    CU_ASSERT(H5LTread_dataset_double(f, "measured", buf) >= 0);
    for (size_t i = 0; i < N_ROWS * nm; i++)
        CU_ASSERT(same(buf[i], meas[i]));
    CU_ASSERT(isnan(buf[2 * 2 + 1])); /* row 2, mean_in_system: not measured */
    CU_ASSERT(H5LTread_dataset_double(f, "fitted", buf) >= 0);
    for (size_t i = 0; i < N_ROWS * nm; i++)
        CU_ASSERT_EQUAL(buf[i], fit[i]);
    CU_ASSERT(H5LTread_dataset_double(f, "residual_pct", buf) >= 0);
    for (size_t i = 0; i < N_ROWS * nm; i++) {
        if (isnan(meas[i])) {
            CU_ASSERT(isnan(buf[i]));
        } else {
            ZVP_ASSERT_REL(buf[i], 100.0 * (fit[i] - meas[i]) / fabs(meas[i]), 1e-12);
        }
    }
    CU_ASSERT(fabs(buf[0]) > 0.1); /* the +-1 % perturbation shows */
    CU_ASSERT(H5LTread_dataset_double(f, "estimate", buf) >= 0);
    CU_ASSERT_EQUAL(buf[0], zvp_fit_result_estimates(res)[0]);
    CU_ASSERT(H5LTread_dataset_double(f, "stderr", buf) >= 0);
    CU_ASSERT(same(buf[0], zvp_fit_result_stderrs(res)[0]));
    CU_ASSERT(isfinite(buf[0]) && buf[0] > 0.0);
    CU_ASSERT(H5LTread_dataset_double(f, "covariance", buf) >= 0);
    CU_ASSERT(same(buf[0], zvp_fit_result_covariance(res)[0]));
    CU_ASSERT(H5LTread_dataset_double(f, "lo", buf) >= 0 && buf[0] == 0.5);
    CU_ASSERT(H5LTread_dataset_double(f, "hi", buf) >= 0 && buf[0] == 20.0);
    CU_ASSERT(H5LTread_dataset_double(f, "start", buf) >= 0 && buf[0] == 5.0);
    CU_ASSERT(H5LTread_dataset_double(f, "rmse", buf) >= 0);
    for (size_t j = 0; j < nm; j++)
        CU_ASSERT(same(buf[j], zvp_fit_result_rmse(res, j)));
    CU_ASSERT(H5LTread_dataset(f, "cells", H5T_NATIVE_LLONG, lbuf) >= 0);
    CU_ASSERT(lbuf[0] == N_ROWS && lbuf[1] == N_ROWS - 1);
    CU_ASSERT(H5LTread_dataset_int(f, "estimate_flag", ibuf) >= 0 && ibuf[0] == 0);
    CU_ASSERT(H5LTread_dataset_int(f, "start_iterations", ibuf) >= 0);
    CU_ASSERT(H5LTread_dataset_int(f, "start_status", ibuf) >= 0);

    /* global attributes */
    CU_ASSERT_STRING_EQUAL(attr_string(f, "/", "Conventions"), "CF-1.8");
    CU_ASSERT_STRING_EQUAL(attr_string(f, "/", "model"), "mmc");
    CU_ASSERT_STRING_EQUAL(attr_string(f, "/", "fit_file"), "");
    CU_ASSERT_PTR_NOT_NULL(strstr(attr_string(f, "/", "method"), "3 start(s)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(attr_string(f, "/", "title"), "mmc"));
    CU_ASSERT_EQUAL(attr_int(f, "report_layout_version"), 2);
    CU_ASSERT_EQUAL(attr_int(f, "dof"), (long long)zvp_fit_result_dof(res));
    CU_ASSERT_EQUAL(attr_int(f, "dof"), 2 * N_ROWS - 1 - 1);
    CU_ASSERT_EQUAL(attr_int(f, "rows"), N_ROWS);
    CU_ASSERT_EQUAL(attr_int(f, "measured_cells"), 2 * N_ROWS - 1);
    CU_ASSERT_EQUAL(attr_int(f, "iterations"), (long long)zvp_fit_result_iterations(res));
    CU_ASSERT(attr_int(f, "best_start") >= 1 && attr_int(f, "best_start") <= N_STARTS);
    H5Fclose(f);
    zvp_fit_result_free(res);
}

int zvp_test_register_report_h5(void)
{
    CU_pSuite s = CU_add_suite("report_h5", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "report_h5_layout", test_report_h5_layout))
        return (int)CU_get_error();
    return 0;
}
