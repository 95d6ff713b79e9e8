/*
 * src/fit_report.c - fit result accessors, the text report and the HDF5 report.
 *
 * HDF5 layout (written with the high-level H5LT API plus variable-length string
 * attributes, which h5py reads as str):
 *   /measured, /fitted, /residual, /residual_pct   [rows x matched]  (residual = fitted - measured)
 *   /estimates, /stderrs, /lo, /hi, /start         [free]
 *   /covariance                                    [free x free]
 *   /r2, /rmse, /mape                              [matched]
 *   /start_cost, /start_iterations, /start_status  [starts]
 * Attributes: "units" on every dataset (a string, or a string array per column/element);
 * on /: zvmperf_version, model, fit_file, data_file (join_file, join_key, base_file),
 * created (ISO 8601 UTC), residual, param_names, param_units, output_names, output_units,
 * row_labels (string arrays), cost, dof, mape_all_pct, best_start, iterations, outcome.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "internal.h"
#include "fit_impl.h"
#include "h5util.h"

/* ---- accessors ------------------------------------------------------------------------- */

size_t zvp_fit_result_n_free(const zvp_fit_result *res) { return res ? res->p : 0; }

const char *zvp_fit_result_param_name(const zvp_fit_result *res, size_t i)
{
    return res && i < res->p ? res->model->params[res->param_index[i]].name : NULL;
}

const double *zvp_fit_result_estimates(const zvp_fit_result *res) { return res ? res->estimates : NULL; }
const double *zvp_fit_result_stderrs(const zvp_fit_result *res) { return res ? res->stderrs : NULL; }
const double *zvp_fit_result_covariance(const zvp_fit_result *res) { return res ? res->covariance : NULL; }
size_t zvp_fit_result_n_rows(const zvp_fit_result *res) { return res ? res->n_rows : 0; }
size_t zvp_fit_result_n_matched(const zvp_fit_result *res) { return res ? res->n_match : 0; }

const char *zvp_fit_result_output_name(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->model->outputs[res->output_index[j]].name : NULL;
}

const double *zvp_fit_result_measured(const zvp_fit_result *res) { return res ? res->measured : NULL; }
const double *zvp_fit_result_fitted(const zvp_fit_result *res) { return res ? res->fitted : NULL; }

double zvp_fit_result_r2(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->r2[j] : NAN;
}

double zvp_fit_result_rmse(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->rmse[j] : NAN;
}

double zvp_fit_result_mape(const zvp_fit_result *res, size_t j)
{
    return res && j < res->n_match ? res->mape[j] : NAN;
}

double zvp_fit_result_mape_all(const zvp_fit_result *res) { return res ? res->mape_all : NAN; }

const zvp_model_file *zvp_fit_result_model_file(const zvp_fit_result *res)
{
    return res ? res->model_file : NULL;
}

double zvp_fit_result_cost(const zvp_fit_result *res) { return res ? res->cost : NAN; }
size_t zvp_fit_result_dof(const zvp_fit_result *res) { return res ? res->dof : 0; }

const char *zvp_fit_result_row_label(const zvp_fit_result *res, size_t i)
{
    return res && i < res->n_rows ? res->labels[i] : NULL;
}

size_t zvp_fit_result_iterations(const zvp_fit_result *res)
{
    return res ? res->starts[res->best_start].iterations : 0;
}

int zvp_fit_result_converged(const zvp_fit_result *res)
{
    return res ? res->starts[res->best_start].gsl_status == 0 : 0;
}

/* ---- text report ----------------------------------------------------------------------- */

static const char *unit_or_1(const char *u) { return u && u[0] ? u : "1"; }

void zvp_fit_result_print(const zvp_fit_result *res, FILE *fp)
{
    const zvp_model *m;
    size_t nm, usable = 0;
    if (!res || !fp)
        return;
    m = res->model;
    nm = res->n_match;
    for (size_t s = 0; s < res->n_starts; s++)
        usable += (size_t)res->starts[s].usable;

    fprintf(fp, "zvmperf %s calibration report\n", zvp_version());
    fprintf(fp, "  model      %s\n", m->name);
    fprintf(fp, "  fit file   %s\n", res->fit_path);
    fprintf(fp, "  data       %s\n", res->data_path);
    if (res->where)
        fprintf(fp, "  where      %s\n", res->where);
    if (res->join_path)
        fprintf(fp, "  join       %s (on %s)\n", res->join_path, res->join_key);
    if (res->base_path)
        fprintf(fp, "  base       %s\n", res->base_path);
    fprintf(fp, "  rows       %zu, measured cells %zu, free parameters %zu, dof %zu\n", res->n_rows,
            res->n_measured, res->p, res->dof);
    fprintf(fp, "  residual   %s; cost (sum of squared weighted residuals) %.6g\n",
            res->residual_absolute ? "absolute" : "relative", res->cost);
    fprintf(fp, "  starts     %zu (%zu usable); best start %zu: %zu iterations, %s\n",
            res->n_starts, usable, res->best_start + 1, res->starts[res->best_start].iterations,
            zvp_fit_start_outcome(&res->starts[res->best_start]));

    fprintf(fp, "\nfree parameters\n");
    fprintf(fp, "  %-28s %15s %12s %10s %-10s %12s %12s\n", "name", "estimate", "stderr", "stderr%",
            "unit", "lo", "hi");
    for (size_t k = 0; k < res->p; k++) {
        const zvp_param_desc *d = &m->params[res->param_index[k]];
        double est = res->estimates[k], se = res->stderrs[k];
        fprintf(fp, "  %-28s %15.8g %12.4g %10.3g %-10s %12.6g %12.6g%s\n", d->name, est, se,
                est != 0.0 ? 100.0 * se / fabs(est) : NAN, unit_or_1(d->unit), res->lo[k],
                res->hi[k],
                res->flags[k] == ZVP_FIT_AT_BOUND ? "  (at a bound: no stderr)"
                : res->flags[k] == ZVP_FIT_UNIDENTIFIED
                    ? "  (not identified: the fitted outputs do not depend on it here)"
                    : "");
    }
    if (res->dof == 0)
        fprintf(fp, "  (stderr not available: as many measured cells as free parameters)\n");

    fprintf(fp, "\ngoodness of fit\n");
    fprintf(fp, "  %-28s %6s %12s %12s %-10s %10s\n", "output", "cells", "R^2", "RMSE", "unit",
            "MAPE %");
    for (size_t j = 0; j < nm; j++) {
        const zvp_param_desc *d = &m->outputs[res->output_index[j]];
        fprintf(fp, "  %-28s %6zu %12.6g %12.4g %-10s %10.4g\n", d->name, res->cells[j],
                res->r2[j], res->rmse[j], unit_or_1(d->unit), res->mape[j]);
    }
    fprintf(fp, "  overall MAPE %.4g %%\n", res->mape_all);

    fprintf(fp, "\nrows (measured / fitted / residual %%)\n");
    fprintf(fp, "  %-20s", "row");
    for (size_t j = 0; j < nm; j++)
        fprintf(fp, " | %-36.36s", m->outputs[res->output_index[j]].name);
    fputc('\n', fp);
    for (size_t i = 0; i < res->n_rows; i++) {
        fprintf(fp, "  %-20s", res->labels[i]);
        for (size_t j = 0; j < nm; j++) {
            double y = res->measured[i * nm + j], f = res->fitted[i * nm + j];
            if (isnan(y))
                fprintf(fp, " | %11s %11.5g %12s", "-", f, "-");
            else
                fprintf(fp, " | %11.5g %11.5g %11.3f%%", y, f,
                        y != 0.0 ? 100.0 * (f - y) / fabs(y) : NAN);
        }
        fputc('\n', fp);
    }
}

/* ---- HDF5 report ----------------------------------------------------------------------- */

/* Variable-length UTF-8 string attribute `name` on object `obj` (h5py reads it as str): a
 * scalar when dims is NULL, else a 1-D array of dims[0] strings. buf points at the char *
 * value(s). */
static herr_t set_attr_utf8(hid_t loc, const char *obj, const char *name, const hsize_t *dims,
                            const void *buf)
{
    hid_t t = -1, s = -1, o = -1, a = -1;
    herr_t rc = -1;
    if ((o = H5Oopen(loc, obj, H5P_DEFAULT)) < 0)
        goto done;
    if ((t = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(t, H5T_VARIABLE) < 0 ||
        H5Tset_cset(t, H5T_CSET_UTF8) < 0)
        goto done;
    if ((s = dims ? H5Screate_simple(1, dims, NULL) : H5Screate(H5S_SCALAR)) < 0)
        goto done;
    if ((a = H5Acreate2(o, name, t, s, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto done;
    rc = H5Awrite(a, t, buf);
done:
    if (a >= 0)
        H5Aclose(a);
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    if (o >= 0)
        H5Oclose(o);
    return rc;
}

/* Variable-length UTF-8 string array attribute on object `obj`. */
static herr_t set_attr_strings(hid_t loc, const char *obj, const char *name, const char **v,
                               size_t n)
{
    hsize_t dims[1] = {n};
    return set_attr_utf8(loc, obj, name, dims, v);
}

/* Scalar variable-length UTF-8 string attribute. */
static herr_t set_attr_string(hid_t loc, const char *obj, const char *name, const char *v)
{
    return set_attr_utf8(loc, obj, name, NULL, &v);
}

/* Scalar double attribute (h5py reads a float, not a 1-element array). */
static herr_t set_attr_double(hid_t loc, const char *name, double v)
{
    hid_t s = -1, a = -1;
    herr_t rc = -1;
    if ((s = H5Screate(H5S_SCALAR)) < 0)
        goto done;
    if ((a = H5Acreate2(loc, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto done;
    rc = H5Awrite(a, H5T_NATIVE_DOUBLE, &v);
done:
    if (a >= 0)
        H5Aclose(a);
    if (s >= 0)
        H5Sclose(s);
    return rc;
}

static herr_t make_1d(hid_t f, const char *name, const double *v, size_t n, const char *units)
{
    hsize_t dims[1] = {n};
    if (H5LTmake_dataset_double(f, name, 1, dims, v) < 0)
        return -1;
    return units ? set_attr_string(f, name, "units", units) : 0;
}

static herr_t make_2d(hid_t f, const char *name, const double *v, size_t n0, size_t n1)
{
    hsize_t dims[2] = {n0, n1};
    return H5LTmake_dataset_double(f, name, 2, dims, v);
}

/* Frees the scratch arrays of zvp_fit_result_write_h5 (any may be NULL). */
static void free_scratch(const char **pnames, const char **punits, const char **onames,
                         const char **ounits, double *pct, double *sc, double *sit, double *sst)
{
    free(pnames);
    free(punits);
    free(onames);
    free(ounits);
    free(pct);
    free(sc);
    free(sit);
    free(sst);
}

int zvp_fit_result_write_h5(const zvp_fit_result *res, const char *path, zvp_error *err)
{
    const zvp_model *m;
    size_t p, nm, n, ns;
    hid_t f = -1;
    herr_t rc = 0;
    const char **pnames = NULL, **punits = NULL, **onames = NULL, **ounits = NULL;
    double *pct = NULL, *sc = NULL, *sit = NULL, *sst = NULL;
    char created[32] = "", buf[256];
    time_t now = time(NULL);
    struct tm tmv;
    const char *where = "";
    zvp_h5_quiet quiet;

    if (!res || !path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_result_write_h5: result or path is NULL");
    m = res->model;
    p = res->p;
    nm = res->n_match;
    n = res->n_rows * nm;
    ns = res->n_starts;
    pnames = malloc(p * sizeof *pnames);
    punits = malloc(p * sizeof *punits);
    onames = malloc(nm * sizeof *onames);
    ounits = malloc(nm * sizeof *ounits);
    pct = malloc(n * sizeof *pct);
    sc = malloc(ns * sizeof *sc);
    sit = malloc(ns * sizeof *sit);
    sst = malloc(ns * sizeof *sst);
    if (!pnames || !punits || !onames || !ounits || !pct || !sc || !sit || !sst) {
        free_scratch(pnames, punits, onames, ounits, pct, sc, sit, sst);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    }
    for (size_t k = 0; k < p; k++) {
        pnames[k] = m->params[res->param_index[k]].name;
        punits[k] = unit_or_1(m->params[res->param_index[k]].unit);
    }
    for (size_t j = 0; j < nm; j++) {
        onames[j] = m->outputs[res->output_index[j]].name;
        ounits[j] = unit_or_1(m->outputs[res->output_index[j]].unit);
    }
    for (size_t i = 0; i < n; i++)
        pct[i] = (isnan(res->measured[i]) || res->measured[i] == 0.0)
                     ? NAN
                     : 100.0 * res->residual[i] / fabs(res->measured[i]);
    for (size_t s = 0; s < ns; s++) {
        sc[s] = res->starts[s].cost;
        sit[s] = (double)res->starts[s].iterations;
        sst[s] = (double)res->starts[s].gsl_status;
    }
    if (gmtime_r(&now, &tmv))
        strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tmv);

    zvp_h5_quiet_begin(&quiet); /* restored at done: (no process-wide side effect) */
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) {
        where = "the file (create)";
        rc = -1;
        goto done;
    }
#define STEP(what, call)                                                                       \
    do {                                                                                       \
        if ((call) < 0) {                                                                      \
            where = (what);                                                                    \
            rc = -1;                                                                           \
            goto done;                                                                         \
        }                                                                                      \
    } while (0)

    STEP("/measured", make_2d(f, "measured", res->measured, res->n_rows, nm));
    STEP("/measured units", set_attr_strings(f, "measured", "units", ounits, nm));
    STEP("/fitted", make_2d(f, "fitted", res->fitted, res->n_rows, nm));
    STEP("/fitted units", set_attr_strings(f, "fitted", "units", ounits, nm));
    STEP("/residual", make_2d(f, "residual", res->residual, res->n_rows, nm));
    STEP("/residual units", set_attr_strings(f, "residual", "units", ounits, nm));
    STEP("/residual description",
         set_attr_string(f, "residual", "description", "fitted - measured (NaN: not measured)"));
    STEP("/residual_pct", make_2d(f, "residual_pct", pct, res->n_rows, nm));
    STEP("/residual_pct units", set_attr_string(f, "residual_pct", "units", "%"));
    STEP("/residual_pct description",
         set_attr_string(f, "residual_pct", "description",
                         "100 (fitted - measured) / |measured| (NaN: not measured)"));
    STEP("/estimates", make_1d(f, "estimates", res->estimates, p, NULL));
    STEP("/estimates units", set_attr_strings(f, "estimates", "units", punits, p));
    STEP("/stderrs", make_1d(f, "stderrs", res->stderrs, p, NULL));
    STEP("/stderrs units", set_attr_strings(f, "stderrs", "units", punits, p));
    STEP("/lo", make_1d(f, "lo", res->lo, p, NULL));
    STEP("/lo units", set_attr_strings(f, "lo", "units", punits, p));
    STEP("/hi", make_1d(f, "hi", res->hi, p, NULL));
    STEP("/hi units", set_attr_strings(f, "hi", "units", punits, p));
    STEP("/start", make_1d(f, "start", res->start, p, NULL));
    STEP("/start units", set_attr_strings(f, "start", "units", punits, p));
    STEP("/covariance", make_2d(f, "covariance", res->covariance, p, p));
    STEP("/covariance units",
         set_attr_string(f, "covariance", "units",
                         "unit of param_names[i] x unit of param_names[j]"));
    STEP("/r2", make_1d(f, "r2", res->r2, nm, "1"));
    STEP("/rmse", make_1d(f, "rmse", res->rmse, nm, NULL));
    STEP("/rmse units", set_attr_strings(f, "rmse", "units", ounits, nm));
    STEP("/mape", make_1d(f, "mape", res->mape, nm, "%"));
    STEP("/start_cost", make_1d(f, "start_cost", sc, ns, "1"));
    STEP("/start_iterations", make_1d(f, "start_iterations", sit, ns, "1"));
    STEP("/start_status", make_1d(f, "start_status", sst, ns, "1"));
    STEP("/start_status description",
         set_attr_string(f, "start_status", "description",
                         "GSL status of gsl_multifit_nlinear_driver: 0 converged, 11 iteration "
                         "limit, 27 no progress"));

    STEP("/ param_names", set_attr_strings(f, "/", "param_names", pnames, p));
    STEP("/ param_units", set_attr_strings(f, "/", "param_units", punits, p));
    STEP("/ output_names", set_attr_strings(f, "/", "output_names", onames, nm));
    STEP("/ output_units", set_attr_strings(f, "/", "output_units", ounits, nm));
    STEP("/ row_labels",
         set_attr_strings(f, "/", "row_labels", (const char **)res->labels, res->n_rows));
    STEP("/ zvmperf_version", set_attr_string(f, "/", "zvmperf_version", zvp_version()));
    STEP("/ model", set_attr_string(f, "/", "model", m->name));
    STEP("/ fit_file", set_attr_string(f, "/", "fit_file", res->fit_path));
    STEP("/ data_file", set_attr_string(f, "/", "data_file", res->data_path));
    if (res->where)
        STEP("/ where", set_attr_string(f, "/", "where", res->where));
    if (res->join_path) {
        STEP("/ join_file", set_attr_string(f, "/", "join_file", res->join_path));
        STEP("/ join_key", set_attr_string(f, "/", "join_key", res->join_key));
    }
    if (res->base_path)
        STEP("/ base_file", set_attr_string(f, "/", "base_file", res->base_path));
    STEP("/ created", set_attr_string(f, "/", "created", created));
    STEP("/ residual", set_attr_string(f, "/", "residual",
                                       res->residual_absolute ? "absolute" : "relative"));
    STEP("/ outcome",
         set_attr_string(f, "/", "outcome", zvp_fit_start_outcome(&res->starts[res->best_start])));
    STEP("/ cost", set_attr_double(f, "cost", res->cost));
    STEP("/ dof", set_attr_double(f, "dof", (double)res->dof));
    STEP("/ best_start", set_attr_double(f, "best_start", (double)(res->best_start + 1)));
    STEP("/ iterations",
         set_attr_double(f, "iterations", (double)res->starts[res->best_start].iterations));
    STEP("/ mape_all_pct", set_attr_double(f, "mape_all_pct", res->mape_all));
#undef STEP
done:
    if (f >= 0 && H5Fclose(f) < 0 && rc == 0) {
        where = "the file (close)";
        rc = -1;
    }
    zvp_h5_quiet_end(&quiet);
    free_scratch(pnames, punits, onames, ounits, pct, sc, sit, sst);
    if (rc < 0) {
        snprintf(buf, sizeof buf, "%s", where);
        return zvp_fail(err, ZVP_EIO, "%s: HDF5 error: could not write %s", path, buf); /* where: an object or "the file (...)" */
    }
    return ZVP_SUCCESS;
}
