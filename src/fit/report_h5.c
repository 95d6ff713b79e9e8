/*
 * src/fit/report_h5.c - the calibration report as HDF5, report layout 2: a netCDF-4 / CF-1.8
 * file (xarray.open_dataset(engine="h5netcdf") and ncdump open it). Every variable lives in
 * the root group beside its dimension scales:
 *   dimensions  row [rows] (int32 0..), parameter [free], output [matched] (strings),
 *               start_number [starts] (int32 1..)
 *   coordinates label[row], input_<name>[row] (each row's inputs), parameter_units[parameter],
 *               output_units[output]
 *   /measured, /fitted, /residual, /residual_pct   [row, output]
 *   /estimate, /stderr, /lo, /hi, /start, /estimate_flag   [parameter]
 *   /covariance [parameter, parameter];  /r2, /rmse, /mape, /cells [output]
 *   /start_cost, /start_iterations, /start_status  [start_number]
 * plus the global attributes. Layout and reasons: calibration/README.md, "HDF5".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hdf5_hl.h>
#include "fit/fit_impl.h"
#include "h5util.h"
#include "util/atomic.h"

#define REPORT_LAYOUT_VERSION 2

static const char *unit_or_1(const char *u) { return u && u[0] ? u : "1"; }

/* The dimensions. */
enum { D_ROW, D_PAR, D_OUT, D_START, D_N };
static const char *const DIM_NAME[D_N] = {"row", "parameter", "output", "start_number"};

/* Scratch of one report: names and units, residual %, integer copies, coordinates lists. */
typedef struct h5_scratch {
    const char **pnames, **punits, **onames, **ounits, **inames;
    double *pct;
    int32_t *row, *startno, *sit, *sst, *flag;
    int64_t *cells;
    char *coords_rows; /* "label output_units input_<a> ..." */
} h5_scratch;

/* One report being written. */
typedef struct rep {
    hid_t f, str; /* the file; the variable-length UTF-8 string type */
    hsize_t n[D_N];
    hid_t scale[D_N];
    const char *path;
    zvp_error *err;
} rep;

static void scratch_free(h5_scratch *s)
{
    free(s->pnames);
    free(s->punits);
    free(s->onames);
    free(s->ounits);
    if (s->inames)
        for (size_t k = 0; s->inames[k]; k++)
            free((char *)s->inames[k]);
    free(s->inames);
    free(s->pct);
    free(s->row);
    free(s->startno);
    free(s->sit);
    free(s->sst);
    free(s->flag);
    free(s->cells);
    free(s->coords_rows);
}

static char *input_var_name(const zvp_fit_result *res, size_t k)
{
    const char *name = res->model->params[res->input_index[k]].name;
    size_t len = strlen(name) + sizeof "input_";
    char *v = malloc(len);
    if (v)
        snprintf(v, len, "input_%s", name);
    return v;
}

/* Names, units, inputs and the coordinates list; 0 when out of memory. */
static int scratch_names(const zvp_fit_result *res, h5_scratch *s)
{
    const zvp_model *m = res->model;
    size_t p = res->p, nm = res->n_match, ni = res->n_inputs, len = sizeof "label output_units";
    s->pnames = malloc((p + 1) * sizeof *s->pnames);
    s->punits = malloc((p + 1) * sizeof *s->punits);
    s->onames = malloc((nm + 1) * sizeof *s->onames);
    s->ounits = malloc((nm + 1) * sizeof *s->ounits);
    s->inames = calloc(ni + 1, sizeof *s->inames);
    if (!s->pnames || !s->punits || !s->onames || !s->ounits || !s->inames)
        return 0;
    for (size_t k = 0; k < p; k++) {
        s->pnames[k] = m->params[res->param_index[k]].name;
        s->punits[k] = unit_or_1(m->params[res->param_index[k]].unit);
    }
    for (size_t j = 0; j < nm; j++) {
        s->onames[j] = m->outputs[res->output_index[j]].name;
        s->ounits[j] = unit_or_1(m->outputs[res->output_index[j]].unit);
    }
    for (size_t k = 0; k < ni; k++) {
        if (!(s->inames[k] = input_var_name(res, k)))
            return 0;
        len += strlen(s->inames[k]) + 1;
    }
    if (!(s->coords_rows = malloc(len)))
        return 0;
    strcpy(s->coords_rows, "label output_units");
    for (size_t k = 0; k < ni; k++) {
        strcat(s->coords_rows, " ");
        strcat(s->coords_rows, s->inames[k]);
    }
    return 1;
}

static int scratch_fill(const zvp_fit_result *res, h5_scratch *s)
{
    size_t p = res->p, nm = res->n_match, n = res->n_rows * nm, ns = res->n_starts;
    memset(s, 0, sizeof *s);
    if (!scratch_names(res, s))
        return ZVP_ENOMEM;
    s->pct = malloc((n + 1) * sizeof *s->pct);
    s->row = malloc((res->n_rows + 1) * sizeof *s->row);
    s->startno = malloc((ns + 1) * sizeof *s->startno);
    s->sit = malloc((ns + 1) * sizeof *s->sit);
    s->sst = malloc((ns + 1) * sizeof *s->sst);
    s->flag = malloc((p + 1) * sizeof *s->flag);
    s->cells = malloc((nm + 1) * sizeof *s->cells);
    if (!s->pct || !s->row || !s->startno || !s->sit || !s->sst || !s->flag || !s->cells)
        return ZVP_ENOMEM;
    for (size_t i = 0; i < n; i++)
        s->pct[i] = res->pct[i]; /* NaN: not measured, or near zero (no relative error) */
    for (size_t i = 0; i < res->n_rows; i++)
        s->row[i] = (int32_t)i;
    for (size_t k = 0; k < ns; k++) {
        s->startno[k] = (int32_t)(k + 1);
        s->sit[k] = (int32_t)res->starts[k].iterations;
        s->sst[k] = (int32_t)res->starts[k].gsl_status;
    }
    for (size_t k = 0; k < p; k++)
        s->flag[k] = (int32_t)res->flags[k];
    for (size_t j = 0; j < nm; j++)
        s->cells[j] = (int64_t)res->cells[j];
    return ZVP_SUCCESS;
}

/* Variable `name` of `type` over the dimensions d[0..rank), data written (all of it), the
 * scales attached (unless it is the scale itself), attributes long_name and units (when not
 * NULL). Attribute creation order is tracked, as netCDF-4 writes it. */
static int rep_var(rep *r, const char *name, hid_t type, int rank, const int *d,
                   const void *data, const char *long_name, const char *units)
{
    hsize_t dims[2];
    hid_t space = H5I_INVALID_HID, dcpl = H5I_INVALID_HID, ds = H5I_INVALID_HID;
    int rc = ZVP_SUCCESS;
    for (int k = 0; k < rank; k++)
        dims[k] = r->n[d[k]];
    space = H5Screate_simple(rank, dims, NULL);
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (space < 0 || dcpl < 0 ||
        H5Pset_attr_creation_order(dcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0 ||
        (ds = H5Dcreate2(r->f, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0) {
        rc = zvp_h5_fail(r->err, r->path, "create variable", name);
    } else if (H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
        rc = zvp_h5_fail(r->err, r->path, "write variable", name);
    }
    for (int k = 0; rc == ZVP_SUCCESS && k < rank; k++)
        if (r->scale[d[k]] >= 0 && H5DSattach_scale(ds, r->scale[d[k]], (unsigned)k) < 0)
            rc = zvp_h5_fail(r->err, r->path, "attach a dimension scale to", name);
    if (ds >= 0 && H5Dclose(ds) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(r->err, r->path, "close variable", name);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (rc == ZVP_SUCCESS && long_name)
        rc = zvp_h5_attr_string(r->f, name, "long_name", long_name, r->path, r->err);
    if (rc == ZVP_SUCCESS && units)
        rc = zvp_h5_attr_string(r->f, name, "units", units, r->path, r->err);
    return rc;
}

/* The dimension scales (coordinate variables), kept open in r->scale. */
static int write_scales(rep *r, const h5_scratch *s)
{
    static const char *const LONG[D_N] = {
        "row of the fit (0-based, in the order of the text report)", "free parameter",
        "matched model output", "start of the multistart (1 = the given start)"};
    const void *data[D_N] = {s->row, s->pnames, s->onames, s->startno};
    const hid_t type[D_N] = {H5T_NATIVE_INT32, r->str, r->str, H5T_NATIVE_INT32};
    for (int k = 0; k < D_N; k++) {
        int rc = rep_var(r, DIM_NAME[k], type[k], 1, &k, data[k], LONG[k], NULL);
        if (rc)
            return rc;
        r->scale[k] = H5Dopen2(r->f, DIM_NAME[k], H5P_DEFAULT);
        if (r->scale[k] < 0 || H5DSset_scale(r->scale[k], DIM_NAME[k]) < 0)
            return zvp_h5_fail(r->err, r->path, "make a dimension scale of", DIM_NAME[k]);
    }
    return ZVP_SUCCESS;
}

/* The auxiliary coordinates: labels, units, each row's inputs. */
static int write_coords(rep *r, const zvp_fit_result *res, const h5_scratch *s)
{
    const int d_row = D_ROW, d_par = D_PAR, d_out = D_OUT;
    size_t ni = res->n_inputs;
    double *col = malloc((res->n_rows + 1) * sizeof *col);
    int rc;
    if (!col)
        return zvp_fail(r->err, ZVP_ENOMEM, "%s: out of memory", r->path);
    rc = rep_var(r, "label", r->str, 1, &d_row, res->labels, "row label", NULL);
    if (!rc)
        rc = rep_var(r, "parameter_units", r->str, 1, &d_par, s->punits,
                     "unit of the free parameter", NULL);
    if (!rc)
        rc = rep_var(r, "output_units", r->str, 1, &d_out, s->ounits,
                     "unit of the matched output", NULL);
    for (size_t k = 0; !rc && k < ni; k++) {
        const zvp_param_desc *pd = &res->model->params[res->input_index[k]];
        for (size_t i = 0; i < res->n_rows; i++)
            col[i] = res->inputs[i * ni + k];
        rc = rep_var(r, s->inames[k], H5T_NATIVE_DOUBLE, 1, &d_row, col,
                     pd->description && pd->description[0] ? pd->description : pd->name,
                     unit_or_1(pd->unit));
        if (!rc)
            rc = zvp_h5_attr_string(r->f, s->inames[k], "parameter", pd->name, r->path, r->err);
        if (!rc)
            rc = zvp_h5_attr_string(r->f, s->inames[k], "data_column", res->input_column[k],
                                    r->path, r->err);
    }
    free(col);
    return rc;
}

/* A string attribute of variable `var`, unless an earlier step failed. */
static int var_attr(rep *r, int rc, const char *var, const char *name, const char *value)
{
    return rc ? rc : zvp_h5_attr_string(r->f, var, name, value, r->path, r->err);
}

/* The [row, output] variables. */
static int write_rows(rep *r, const zvp_fit_result *res, const h5_scratch *s)
{
    static const char *const NAME[4] = {"measured", "fitted", "residual", "residual_pct"};
    static const char *const LONG[4] = {"measured value (NaN: not measured)",
                                        "model value at the estimates", "residual",
                                        "residual in percent of |measured|"};
    const int d[2] = {D_ROW, D_OUT};
    const double *data[4] = {res->measured, res->fitted, res->residual, s->pct};
    int rc = ZVP_SUCCESS;
    for (int k = 0; k < 4 && !rc; k++) {
        rc = rep_var(r, NAME[k], H5T_NATIVE_DOUBLE, 2, d, data[k], LONG[k],
                     k == 3 ? "%" : NULL);
        rc = var_attr(r, rc, NAME[k], "coordinates", s->coords_rows);
        if (k < 3)
            rc = var_attr(r, rc, NAME[k], "units_variable", "output_units");
    }
    if (!rc)
        rc = zvp_h5_attr_string(r->f, "residual", "description",
                                "fitted - measured (NaN: not measured)", r->path, r->err);
    if (!rc)
        rc = zvp_h5_attr_string(r->f, "residual_pct", "description",
                                "100 (fitted - measured) / |measured| (NaN: not measured, or "
                                "near zero: |measured| < 1e-100 or within its sigma of 0)",
                                r->path, r->err);
    return rc;
}

/* The [parameter] and [parameter, parameter] variables. */
static int write_params(rep *r, const zvp_fit_result *res, const h5_scratch *s)
{
    static const char *const NAME[5] = {"estimate", "stderr", "lo", "hi", "start"};
    static const char *const LONG[5] = {
        "estimate of the free parameter",
        "standard error of the estimate (NaN: saturated, at a bound or not identified)",
        "lower bound of the fit", "upper bound of the fit", "start value of the fit"};
    const int d[2] = {D_PAR, D_PAR};
    const double *data[5] = {res->estimates, res->stderrs, res->lo, res->hi, res->start};
    const int32_t flag_values[3] = {0, ZVP_FIT_AT_BOUND, ZVP_FIT_UNIDENTIFIED};
    int rc = ZVP_SUCCESS;
    for (int k = 0; k < 5 && !rc; k++) {
        rc = rep_var(r, NAME[k], H5T_NATIVE_DOUBLE, 1, d, data[k], LONG[k], NULL);
        rc = var_attr(r, rc, NAME[k], "coordinates", "parameter_units");
        rc = var_attr(r, rc, NAME[k], "units_variable", "parameter_units");
    }
    if (!rc)
        rc = rep_var(r, "estimate_flag", H5T_NATIVE_INT32, 1, d, s->flag,
                     "condition of the estimate", NULL);
    if (!rc)
        rc = zvp_h5_attr_typed(r->f, "estimate_flag", "flag_values", H5T_NATIVE_INT32,
                               flag_values, 3, r->path, r->err);
    rc = var_attr(r, rc, "estimate_flag", "flag_meanings", "estimated at_bound not_identified");
    if (!rc)
        rc = rep_var(r, "covariance", H5T_NATIVE_DOUBLE, 2, d, res->covariance,
                     "covariance of the estimates (NaN: row and column of a parameter at a "
                     "bound or not identified)", NULL);
    rc = var_attr(r, rc, "covariance", "description",
                  "unit of covariance[i, j]: parameter_units[i] x parameter_units[j]");
    return rc;
}

/* The [output] and [start_number] variables. */
static int write_stats(rep *r, const zvp_fit_result *res, const h5_scratch *s)
{
    const int d_out = D_OUT, d_st = D_START;
    double *cost = malloc((res->n_starts + 1) * sizeof *cost);
    int rc;
    if (!cost)
        return zvp_fail(r->err, ZVP_ENOMEM, "%s: out of memory", r->path);
    for (size_t k = 0; k < res->n_starts; k++)
        cost[k] = res->starts[k].cost;
    rc = rep_var(r, "r2", H5T_NATIVE_DOUBLE, 1, &d_out, res->r2,
                 "coefficient of determination R^2 over the measured cells", "1");
    if (!rc)
        rc = rep_var(r, "rmse", H5T_NATIVE_DOUBLE, 1, &d_out, res->rmse,
                     "root mean square of fitted - measured", NULL);
    rc = var_attr(r, rc, "rmse", "coordinates", "output_units");
    rc = var_attr(r, rc, "rmse", "units_variable", "output_units");
    if (!rc)
        rc = rep_var(r, "mape", H5T_NATIVE_DOUBLE, 1, &d_out, res->mape,
                     "mean absolute percentage error over the measured cells", "%");
    if (!rc)
        rc = rep_var(r, "cells", H5T_NATIVE_INT64, 1, &d_out, s->cells,
                     "number of measured cells", "1");
    if (!rc)
        rc = rep_var(r, "start_cost", H5T_NATIVE_DOUBLE, 1, &d_st, cost,
                     "sum of squared weighted residuals at the end of the start", "1");
    if (!rc)
        rc = rep_var(r, "start_iterations", H5T_NATIVE_INT32, 1, &d_st, s->sit,
                     "iterations of the start", "1");
    if (!rc)
        rc = rep_var(r, "start_status", H5T_NATIVE_INT32, 1, &d_st, s->sst,
                     "GSL status of the start", NULL);
    rc = var_attr(r, rc, "start_status", "description",
                  "GSL status of gsl_multifit_nlinear_driver: 0 converged, 11 iteration limit, "
                  "27 no progress");
    free(cost);
    return rc;
}

/* The fit's name (the fit file's base name without .ini, "" in memory) and release (the
 * name after "<model>-", else "-"), as zvmperf calibrate's summary says them. */
static void fit_name_release(const zvp_fit_result *res, char *name, size_t nsize,
                             char *release, size_t rsize)
{
    const char *path = res->fit_path ? res->fit_path : "";
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = strlen(base), mlen = strlen(res->model->name);
    if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    snprintf(name, nsize, "%.*s", (int)len, base);
    snprintf(release, rsize, "%s",
             strncmp(name, res->model->name, mlen) == 0 && name[mlen] == '-' ? name + mlen + 1
                                                                             : "-");
}

/* The global attributes: CF, provenance, the fit's figures (integers as int64). */
static int write_root_attrs(rep *r, const zvp_fit_result *res, const h5_scratch *s)
{
    const zvp_fit_start_info *best = &res->starts[res->best_start];
    const int32_t layout = REPORT_LAYOUT_VERSION, saturated = res->saturated ? 1 : 0;
    const int64_t ints[7] = {(int64_t)res->dof,          (int64_t)res->dof_eff,
                             (int64_t)(res->best_start + 1), (int64_t)best->iterations,
                             (int64_t)res->n_rows,       (int64_t)res->n_measured,
                             (int64_t)res->n_independent};
    static const char *const INT_NAME[7] = {"dof",  "dof_effective",  "best_start",
                                            "iterations", "rows", "measured_cells",
                                            "independent_cells"};
    const char *method = zvp_model_file_provenance(res->model_file, "method");
    char created[32] = "", title[160], name[128], release[128];
    int st = ZVP_SUCCESS;
    if (zvp_h5_iso8601_now(created, sizeof created, NULL) != ZVP_SUCCESS)
        created[0] = '\0';
    fit_name_release(res, name, sizeof name, release, sizeof release);
    snprintf(title, sizeof title, "zvmperf calibration of %s%s%s", res->model->name,
             name[0] ? ": " : "", name);
#define AS(name, v) st = var_attr(r, st, "/", (name), (v))
#define AL(name, v, n)                                                                         \
    do {                                                                                       \
        if (!st && (n) > 0)                                                                    \
            st = zvp_h5_attr_strings(r->f, "/", (name), (v), (n), r->path, r->err);            \
    } while (0)
    AS("Conventions", "CF-1.8");
    AS("title", title);
    AL("param_names", s->pnames, res->p);
    AL("param_units", s->punits, res->p);
    AL("output_names", s->onames, res->n_match);
    AL("output_units", s->ounits, res->n_match);
    AL("row_labels", (const char *const *)res->labels, res->n_rows);
    AL("input_variables", s->inames, res->n_inputs);
    AS("zvmperf_version", zvp_version());
    AS("model", res->model->name);
    AS("model_source", res->model->source ? res->model->source : "");
    AS("fit", name);
    AS("release", release);
    AS("fit_file", res->fit_path ? res->fit_path : "");
    AS("data_file", res->data_path ? res->data_path : "");
    if (res->where)
        AS("where", res->where);
    if (res->join_path) {
        AS("join_file", res->join_path);
        AS("join_key", res->join_key);
    }
    if (res->base_path)
        AS("base_file", res->base_path);
    AS("created", created);
    AS("method", method ? method : "");
    AS("residual", res->residual_absolute ? "absolute" : "relative");
    AS("outcome", zvp_fit_start_outcome(best));
#undef AS
#undef AL
    if (!st)
        st = zvp_h5_attr_typed(r->f, "/", "report_layout_version", H5T_NATIVE_INT32, &layout,
                               1, r->path, r->err);
    if (!st)
        st = zvp_h5_attr_double(r->f, "/", "cost", &res->cost, 1, r->path, r->err);
    for (int k = 0; k < 7 && !st; k++)
        st = zvp_h5_attr_typed(r->f, "/", INT_NAME[k], H5T_NATIVE_INT64, &ints[k], 1, r->path,
                               r->err);
    if (!st)
        st = zvp_h5_attr_typed(r->f, "/", "saturated", H5T_NATIVE_INT32, &saturated, 1,
                               r->path, r->err);
    if (!st)
        st = zvp_h5_attr_double(r->f, "/", "mape_all_pct", &res->mape_all, 1, r->path, r->err);
    return st;
}

/* Create the file (creation order tracked, HDF5 1.8 formats) and write everything. */
static int write_report(rep *r, zvp_h5_guard *guard, const char *tmp,
                        const zvp_fit_result *res, const h5_scratch *s)
{
    const unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE), fapl = H5Pcreate(H5P_FILE_ACCESS);
    int st = ZVP_SUCCESS;
    if (fcpl < 0 || fapl < 0 || H5Pset_link_creation_order(fcpl, order) < 0 ||
        H5Pset_attr_creation_order(fcpl, order) < 0 ||
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0)
        st = zvp_h5_fail(r->err, r->path, "set the file properties of", r->path);
    else if ((r->f = zvp_h5_create_fcpl(guard, tmp, fcpl, fapl)) < 0)
        st = zvp_h5_fail(r->err, r->path, "create", r->path);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (st)
        return zvp_h5_close(guard, r->f, st, r->path, r->err);
    r->str = H5Tcopy(H5T_C_S1);
    if (r->str < 0 || H5Tset_size(r->str, H5T_VARIABLE) < 0 ||
        H5Tset_cset(r->str, H5T_CSET_UTF8) < 0)
        st = zvp_h5_fail(r->err, r->path, "make the string type of", r->path);
    if (!st)
        st = write_root_attrs(r, res, s);
    if (!st)
        st = write_scales(r, s);
    if (!st)
        st = write_coords(r, res, s);
    if (!st)
        st = write_rows(r, res, s);
    if (!st)
        st = write_params(r, res, s);
    if (!st)
        st = write_stats(r, res, s);
    for (int k = 0; k < D_N; k++)
        if (r->scale[k] >= 0)
            H5Dclose(r->scale[k]);
    if (r->str >= 0)
        H5Tclose(r->str);
    return zvp_h5_close(guard, r->f, st, r->path, r->err);
}

int zvp_fit_result_write_h5_tmp(const zvp_fit_result *res, const zvp_atomic *a,
                                zvp_error *err)
{
    h5_scratch s;
    zvp_h5_guard guard;
    zvp_h5_quiet quiet;
    rep r;
    int st;
    if (!res || !a || !a->tmp)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_result_write_h5: result or path is NULL");
    const char *path = a->target; /* messages name the target */
    if (scratch_fill(res, &s)) {
        scratch_free(&s);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    }
    memset(&r, 0, sizeof r);
    r.f = r.str = H5I_INVALID_HID;
    r.n[D_ROW] = res->n_rows;
    r.n[D_PAR] = res->p;
    r.n[D_OUT] = res->n_match;
    r.n[D_START] = res->n_starts;
    for (int k = 0; k < D_N; k++)
        r.scale[k] = H5I_INVALID_HID;
    r.path = path;
    r.err = err;
    memset(&guard, 0, sizeof guard);
    guard.driver = H5I_INVALID_HID;
    zvp_h5_quiet_begin(&quiet); /* restored below: no process-wide side effect */
    st = write_report(&r, &guard, a->tmp, res, &s);
    zvp_h5_quiet_end(&quiet);
    scratch_free(&s);
    return st;
}

int zvp_fit_result_write_h5(const zvp_fit_result *res, const char *path, zvp_error *err)
{
    zvp_atomic a;
    if (!res || !path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_result_write_h5: result or path is NULL");
    int st = zvp_atomic_begin(&a, path, err);
    if (st != ZVP_SUCCESS)
        return st;
    st = zvp_fit_result_write_h5_tmp(res, &a, err);
    if (st == ZVP_SUCCESS)
        return zvp_atomic_commit(&a, err);
    zvp_atomic_abort(&a);
    return st;
}
