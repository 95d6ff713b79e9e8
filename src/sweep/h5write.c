/*
 * src/sweep/h5write.c - the sweep file, layout version 2 (netCDF-4 / CF-1.8): created with
 * its coordinate variables, data variables and attributes, then written block by block as
 * hyperslabs, flushed, and marked complete. The functions take HDF5 property lists so that
 * the MPI driver reuses them (sweep_impl.h). Layout: src/sweep/README.md, "File layout".
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hdf5_hl.h>
#include "h5util.h"
#include "internal.h"
#include "sweep/sweep_impl.h"
#include "zvmperf/interval.h"

#ifndef ZVP_SWEEP_DEFLATE_LEVEL
#define ZVP_SWEEP_DEFLATE_LEVEL 1 /* with shuffle; higher levels cost time, gain < 1% here */
#endif

void zvp_sweep_file_init(zvp_sweep_file *f, const zvp_sweep_plan *pl, const char *target,
                         const char *file, int guard)
{
    size_t k;
    memset(f, 0, sizeof *f);
    f->path = target;
    f->file = file;
    f->guard = guard;
    f->g.driver = H5I_INVALID_HID;
    f->h5 = f->status = f->space = H5I_INVALID_HID;
    for (k = 0; k < ZVP_SWEEP_MAX_AXES; k++) {
        f->axis[k] = H5I_INVALID_HID;
        f->dims[k] = k < pl->n_axes ? (hsize_t)pl->dims[k] : 0;
        f->chunk[k] = k < pl->n_axes ? (hsize_t)pl->chunk[k] : 0;
    }
    f->output = NULL;
    f->n_outputs = 0;
}

int zvp_sweep_file_close(zvp_sweep_file *f, int rc, zvp_error *err)
{
    size_t k;
    int bad = 0;
    for (k = 0; k < f->n_outputs; k++)
        if (f->output[k] >= 0)
            bad |= H5Dclose(f->output[k]) < 0;
    free(f->output);
    f->output = NULL;
    f->n_outputs = 0;
    for (k = 0; k < ZVP_SWEEP_MAX_AXES; k++)
        if (f->axis[k] >= 0)
            bad |= H5Dclose(f->axis[k]) < 0;
    if (f->status >= 0)
        bad |= H5Dclose(f->status) < 0;
    if (f->space >= 0)
        bad |= H5Sclose(f->space) < 0;
    f->status = f->space = H5I_INVALID_HID;
    for (k = 0; k < ZVP_SWEEP_MAX_AXES; k++)
        f->axis[k] = H5I_INVALID_HID;
    if (bad && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close an object of file", f->file);
    if (f->guard) {
        if (f->h5 >= 0 || f->g.driver >= 0)
            rc = zvp_h5_close(&f->g, f->h5, rc, f->path, err);
    } else if (f->h5 >= 0 && H5Fclose(f->h5) < 0 && rc == ZVP_SUCCESS) {
        rc = zvp_h5_fail(err, f->path, "close (flush) file", f->file);
    }
    f->h5 = H5I_INVALID_HID;
    return rc;
}

/* Create an N-D chunked, shuffled and deflated variable of type `type` with fill value
 * *fill (also its _FillValue attribute), the coordinate variables attached as dimension
 * scales (netCDF dimensions), and units / long_name. */
static int zvp_sweep_create_nd(zvp_sweep_file *f, const zvp_sweep_plan *pl, const char *name,
                               hid_t type, const void *fill, const char *units,
                               const char *long_name, hid_t *out, zvp_error *err)
{
    hid_t space = H5I_INVALID_HID, dcpl = H5I_INVALID_HID, ds = H5I_INVALID_HID;
    int rc = ZVP_SUCCESS;
    unsigned k;
    *out = H5I_INVALID_HID;
    space = H5Screate_simple((int)pl->n_axes, f->dims, NULL);
    if (space < 0) {
        rc = zvp_h5_fail(err, f->path, "create the dataspace of", name);
        goto done;
    }
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0 || H5Pset_chunk(dcpl, (int)pl->n_axes, f->chunk) < 0 ||
        H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, ZVP_SWEEP_DEFLATE_LEVEL) < 0 ||
        H5Pset_fill_value(dcpl, type, fill) < 0 ||
        H5Pset_attr_creation_order(dcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0) {
        rc = zvp_h5_fail(err, f->path, "set the chunking/deflate properties of", name);
        goto done;
    }
    ds = H5Dcreate2(f->h5, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds < 0) {
        rc = zvp_h5_fail(err, f->path, "create variable", name);
        goto done;
    }
    if ((rc = zvp_h5_attr_string(ds, ".", "units", units, f->path, err)) ||
        (rc = zvp_h5_attr_string(ds, ".", "long_name", long_name, f->path, err)) ||
        (rc = zvp_h5_attr_typed(ds, ".", "_FillValue", type, fill, 1, f->path, err)))
        goto done;
    for (k = 0; k < pl->n_axes; k++)
        if (H5DSattach_scale(ds, f->axis[k], k) < 0) {
            rc = zvp_h5_fail(err, f->path, "attach the dimension scale of an axis to", name);
            goto done;
        }
done:
    if (dcpl >= 0 && H5Pclose(dcpl) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the creation properties of", name);
    if (space >= 0 && H5Sclose(space) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the dataspace of", name);
    if (rc != ZVP_SUCCESS) {
        if (ds >= 0)
            H5Dclose(ds);
        return rc;
    }
    *out = ds;
    return ZVP_SUCCESS;
}

/* The global attributes (README.md, "File layout"). */
static int zvp_sweep_root_attrs(zvp_sweep_file *f, const zvp_model_file *mf,
                                const zvp_sweep_plan *pl, const char *command,
                                const char *created, zvp_error *err)
{
    const zvp_model *m = pl->m;
    const char *text = zvp_model_file_text(mf);
    const int32_t version = ZVP_SWEEP_LAYOUT_VERSION, complete = 0;
    const uint64_t total = pl->points;
    char now[32], title[192];
    char *axis_list;
    size_t k, len = 1;
    int rc = ZVP_SUCCESS;
    for (k = 0; k < pl->n_axes; k++)
        len += strlen(m->params[pl->param[k]].name) + 1;
    axis_list = malloc(len);
    if (!axis_list)
        return zvp_fail(err, ZVP_ENOMEM, "sweep: out of memory");
    axis_list[0] = '\0';
    for (k = 0; k < pl->n_axes; k++) {
        if (k)
            strcat(axis_list, ",");
        strcat(axis_list, m->params[pl->param[k]].name);
    }
    if (!created) {
        rc = zvp_h5_iso8601_now(now, sizeof now, err);
        created = now;
    }
    snprintf(title, sizeof title, "zvmperf sweep of %s", m->name);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "Conventions", "CF-1.8", f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "title", title, f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "zvmperf_version", zvp_version(), f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "model", m->name, f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "model_source", m->source ? m->source : "",
                                f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "created", created, f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "command", command ? command : "", f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "model_file", text ? text : "", f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->h5, "/", "axes", axis_list, f->path, err);
    if (!rc)
        rc = zvp_h5_attr_typed(f->h5, "/", "sweep_layout_version", H5T_NATIVE_INT32, &version,
                               1, f->path, err);
    if (!rc)
        rc = zvp_h5_attr_typed(f->h5, "/", "sweep_complete", H5T_NATIVE_INT32, &complete, 1,
                               f->path, err);
    if (!rc)
        rc = zvp_h5_attr_typed(f->h5, "/", "points_total", H5T_NATIVE_UINT64, &total, 1,
                               f->path, err);
    free(axis_list);
    return rc;
}

/* One coordinate variable per axis (a dimension scale named after it) and /parameters
 * (the fixed parameters). */
static int zvp_sweep_coords_params(zvp_sweep_file *f, const zvp_sweep_plan *pl,
                                   const double *fixed, zvp_error *err)
{
    const zvp_model *m = pl->m;
    char label[160];
    hid_t group;
    size_t k, i;
    int rc = ZVP_SUCCESS;
    for (k = 0; k < pl->n_axes; k++) {
        const zvp_param_desc *d = &m->params[pl->param[k]];
        hsize_t n = f->dims[k];
        if (H5LTmake_dataset_double(f->h5, d->name, 1, &n, pl->values[k]) < 0)
            return zvp_h5_fail(err, f->path, "write coordinate variable", d->name);
        f->axis[k] = H5Dopen2(f->h5, d->name, H5P_DEFAULT);
        if (f->axis[k] < 0)
            return zvp_h5_fail(err, f->path, "open coordinate variable", d->name);
        if (H5DSset_scale(f->axis[k], d->name) < 0)
            return zvp_h5_fail(err, f->path, "make a dimension scale of", d->name);
        if ((rc = zvp_h5_attr_string(f->axis[k], ".", "units", d->unit, f->path, err)) ||
            (rc = zvp_h5_attr_string(f->axis[k], ".", "long_name", d->description, f->path,
                                     err)))
            return rc;
    }
    /* <name> (float64) and <name>_units (string) per fixed parameter */
    group = H5Gcreate2(f->h5, "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (group < 0)
        return zvp_h5_fail(err, f->path, "create group", "/parameters");
    for (i = 0; rc == ZVP_SUCCESS && i < m->n_params; i++) {
        int swept = 0;
        for (k = 0; k < pl->n_axes; k++)
            swept |= pl->param[k] == i;
        if (swept)
            continue;
        snprintf(label, sizeof label, "%s_units", m->params[i].name);
        rc = zvp_h5_attr_double(group, ".", m->params[i].name, &fixed[i], 1, f->path, err);
        if (rc == ZVP_SUCCESS)
            rc = zvp_h5_attr_string(group, ".", label, m->params[i].unit, f->path, err);
    }
    if (H5Gclose(group) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close group", "/parameters");
    return rc;
}

/* The file itself: link and attribute creation order tracked (as netCDF-4 writes them),
 * object formats of HDF5 1.8 at the least (attributes may then exceed 64 KiB). */
static int zvp_sweep_h5create(zvp_sweep_file *f, hid_t fapl0, zvp_error *err)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    hid_t fapl = fapl0 == H5P_DEFAULT ? H5Pcreate(H5P_FILE_ACCESS) : H5Pcopy(fapl0);
    int rc = ZVP_SUCCESS;
    unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
    if (fcpl < 0 || fapl < 0 || H5Pset_link_creation_order(fcpl, order) < 0 ||
        H5Pset_attr_creation_order(fcpl, order) < 0 ||
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0) {
        rc = zvp_h5_fail(err, f->path, "set the file properties of", f->file);
    } else {
        f->h5 = f->guard ? zvp_h5_create_fcpl(&f->g, f->file, fcpl, fapl)
                         : H5Fcreate(f->file, H5F_ACC_TRUNC, fcpl, fapl);
        if (f->h5 < 0)
            rc = zvp_h5_fail(err, f->path, "create file", f->file); /* before H5Pclose */
    }
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
    return rc;
}

/* Open /status, the outputs and a file dataspace (after create or open). */
static int zvp_sweep_open_vars(zvp_sweep_file *f, const zvp_sweep_plan *pl, zvp_error *err)
{
    const zvp_model *m = pl->m;
    size_t i;
    if (f->status < 0 && (f->status = H5Dopen2(f->h5, "status", H5P_DEFAULT)) < 0)
        return zvp_h5_fail(err, f->path, "open variable", "status");
    f->space = H5Dget_space(f->status);
    if (f->space < 0)
        return zvp_h5_fail(err, f->path, "get the dataspace of", "status");
    if (f->output)
        return ZVP_SUCCESS;
    /* the outputs, then with intervals every OUT_lo, then every OUT_hi, then with Monte
     * Carlo the share of stable draws (the block order) */
    size_t n = zvp_sweep_groups(pl);
    f->output = malloc((n ? n : 1) * sizeof *f->output);
    if (!f->output)
        return zvp_fail(err, ZVP_ENOMEM, "sweep: out of memory");
    for (i = 0; i < n; i++) {
        char name[256];
        if (i == 3 * m->n_outputs)
            snprintf(name, sizeof name, "%s", ZVP_SWEEP_SHARE_NAME);
        else
            snprintf(name, sizeof name, "%s%s", m->outputs[i % m->n_outputs].name,
                     i < m->n_outputs ? "" : i < 2 * m->n_outputs ? "_lo" : "_hi");
        f->n_outputs = i + 1;
        f->output[i] = H5Dopen2(f->h5, name, H5P_DEFAULT);
        if (f->output[i] < 0)
            return zvp_h5_fail(err, f->path, "open variable", name);
    }
    return ZVP_SUCCESS;
}

/* What the bounds of output j are (src/sweep/README.md, "Interval bounds"): the long_name
 * of OUT_lo (lo = 1) or OUT_hi into text, with the interval's kind, which is returned:
 * "confidence" when asked for, or when the fit did not match the output (no residual
 * variance: the parameters' uncertainty only), else "prediction". */
static const char *zvp_sweep_bound_text(const zvp_model_file *mf, const zvp_sweep_plan *pl,
                                        size_t j, int lo, char *text, size_t cap)
{
    const zvp_interval_options *o = pl->interval;
    int matched = !isnan(zvp_model_file_residual_variance(mf, j, NULL));
    const char *kind = o->prediction && matched ? "prediction" : "confidence";
    snprintf(text, cap, "%s: %s bound of the %g%% %s interval%s", pl->m->outputs[j].description,
             lo ? "lower" : "upper", 100.0 * o->level, kind,
             o->prediction && !matched ? " (the fit did not match this output: no residual "
                                         "variance, the parameters' uncertainty only)" : "");
    return kind;
}

size_t zvp_sweep_groups(const zvp_sweep_plan *pl)
{
    return pl->m->n_outputs * (pl->interval ? 3u : 1u) + (size_t)zvp_sweep_has_share(pl);
}

int zvp_sweep_has_share(const zvp_sweep_plan *pl)
{
    return pl->interval && pl->interval->method == ZVP_INTERVAL_MC;
}

/* With intervals: OUT_lo for every output, then OUT_hi (the order of the block buffers),
 * each with units, long_name, interval_kind and, for an output the method gives no bounds
 * (NaN at every point), no_interval_reason; and the root attribute `interval` saying which
 * interval (src/sweep/README.md). */
static int zvp_sweep_create_bounds(zvp_sweep_file *f, const zvp_model_file *mf,
                                   const zvp_sweep_plan *pl, zvp_error *err)
{
    const zvp_model *m = pl->m;
    const zvp_interval_options *o = pl->interval;
    const double nan_fill = NAN;
    char name[256], text[1024];
    int rc;
    hid_t ds;
    zvp_sweep_interval_text(o, text, sizeof text);
    if ((rc = zvp_h5_attr_string(f->h5, ".", "interval", text, f->path, err)))
        return rc;
    for (size_t i = 0; i < 2 * m->n_outputs; i++) {
        size_t j = i % m->n_outputs;
        const zvp_param_desc *d = &m->outputs[j];
        int lo = i < m->n_outputs;
        const char *kind = zvp_sweep_bound_text(mf, pl, j, lo, text, sizeof text);
        snprintf(name, sizeof name, "%s%s", d->name, lo ? "_lo" : "_hi");
        if ((rc = zvp_sweep_create_nd(f, pl, name, H5T_NATIVE_DOUBLE, &nan_fill, d->unit, text,
                                      &ds, err)))
            return rc;
        rc = zvp_h5_attr_string(ds, ".", "interval_kind", kind, f->path, err);
        if (rc == ZVP_SUCCESS && d->integer && o->method == ZVP_INTERVAL_DELTA)
            rc = zvp_h5_attr_string(ds, ".", "no_interval_reason", ZVP_SWEEP_NO_DELTA_REASON,
                                    f->path, err);
        if (H5Dclose(ds) < 0 && rc == ZVP_SUCCESS)
            rc = zvp_h5_fail(err, f->path, "close variable", name);
        if (rc)
            return rc;
    }
    if (!zvp_sweep_has_share(pl))
        return ZVP_SUCCESS;
    /* Monte Carlo: the share of each point's draws that have a steady state */
    if ((rc = zvp_sweep_create_nd(f, pl, ZVP_SWEEP_SHARE_NAME, H5T_NATIVE_DOUBLE, &nan_fill, "1",
                                  "share of the Monte Carlo draws with a steady state", &ds,
                                  err)))
        return rc;
    rc = zvp_h5_attr_string(ds, ".", "description", ZVP_SWEEP_SHARE_TEXT, f->path, err);
    if (H5Dclose(ds) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close variable", ZVP_SWEEP_SHARE_NAME);
    return rc;
}

int zvp_sweep_file_create(zvp_sweep_file *f, const zvp_model_file *mf, const zvp_sweep_plan *pl,
                          const char *command, const char *created, const double *fixed,
                          hid_t fapl, zvp_error *err)
{
    const zvp_model *m = pl->m;
    const double nan_fill = NAN;
    const uint8_t status_fill = ZVP_POINT_NOT_COMPUTED, flags[4] = {0, 1, 2, 3};
    size_t i;
    hid_t ds;
    int rc;
    if ((rc = zvp_sweep_h5create(f, fapl, err)) ||
        (rc = zvp_sweep_root_attrs(f, mf, pl, command, created, err)) ||
        (rc = zvp_sweep_coords_params(f, pl, fixed, err)))
        return rc;
    /* one variable per output, in the model's order, then status */
    for (i = 0; i < m->n_outputs; i++) {
        const zvp_param_desc *d = &m->outputs[i];
        if ((rc = zvp_sweep_create_nd(f, pl, d->name, H5T_NATIVE_DOUBLE, &nan_fill, d->unit,
                                      d->description, &ds, err)))
            return rc;
        if (H5Dclose(ds) < 0)
            return zvp_h5_fail(err, f->path, "close variable", d->name);
    }
    if (pl->interval && (rc = zvp_sweep_create_bounds(f, mf, pl, err)))
        return rc;
    if ((rc = zvp_sweep_create_nd(f, pl, "status", H5T_NATIVE_UINT8, &status_fill, "1",
                                  "point status", &f->status, err)) ||
        (rc = zvp_h5_attr_typed(f->status, ".", "flag_values", H5T_NATIVE_UINT8, flags, 4,
                                f->path, err)) ||
        (rc = zvp_h5_attr_string(f->status, ".", "flag_meanings",
                                 "not_computed ok no_steady_state invalid_input", f->path,
                                 err)))
        return rc;
    if ((rc = zvp_sweep_open_vars(f, pl, err)))
        return rc;
    return zvp_sweep_file_flush(f, err);
}

int zvp_sweep_file_open(zvp_sweep_file *f, const zvp_model_file *mf, const zvp_sweep_plan *pl,
                        const double *fixed, hid_t fapl, zvp_error *err)
{
    int rc;
    f->unreadable = 0;
    f->h5 = f->guard ? zvp_h5_open_rdwr(&f->g, f->file, fapl)
                     : H5Fopen(f->file, H5F_ACC_RDWR, fapl);
    if (f->h5 < 0) {
        f->unreadable = 1;
        return zvp_h5_fail(err, f->path, "open the partial file", f->file);
    }
    if ((rc = zvp_sweep_check_partial(f, mf, pl, fixed, err)))
        return rc;
    if ((rc = zvp_sweep_open_vars(f, pl, err)))
        f->unreadable = rc == ZVP_EIO;
    return rc;
}

/* Select the block start[]/count[] (npts points; 0: none) in f->space and make the
 * matching memory dataspace in *mem. */
static int zvp_sweep_select(zvp_sweep_file *f, const uint64_t *start64, const uint64_t *count64,
                            uint64_t npts, hid_t *mem, zvp_error *err)
{
    hsize_t start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES], n = npts ? (hsize_t)npts : 1;
    int k, rank = H5Sget_simple_extent_ndims(f->space);
    *mem = H5Screate_simple(1, &n, NULL);
    if (*mem < 0 || rank < 1)
        return zvp_h5_fail(err, f->path, "create the memory dataspace of a block of", "status");
    if (npts == 0) {
        if (H5Sselect_none(f->space) < 0 || H5Sselect_none(*mem) < 0)
            return zvp_h5_fail(err, f->path, "select an empty block of", "status");
        return ZVP_SUCCESS;
    }
    for (k = 0; k < rank; k++) {
        start[k] = (hsize_t)start64[k];
        count[k] = (hsize_t)count64[k];
    }
    if (H5Sselect_hyperslab(f->space, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
        return zvp_h5_fail(err, f->path, "select a block hyperslab of", "status");
    return ZVP_SUCCESS;
}

int zvp_sweep_file_write_block(zvp_sweep_file *f, hid_t dxpl, const uint64_t *start,
                               const uint64_t *count, uint64_t npts, const double *obuf,
                               const uint8_t *sbuf, zvp_error *err)
{
    hid_t mem = H5I_INVALID_HID;
    size_t k;
    char name[32];
    int rc = zvp_sweep_select(f, start, count, npts, &mem, err);
    for (k = 0; rc == ZVP_SUCCESS && k < f->n_outputs; k++)
        if (H5Dwrite(f->output[k], H5T_NATIVE_DOUBLE, mem, f->space, dxpl,
                     obuf ? obuf + k * (size_t)npts : NULL) < 0) {
            snprintf(name, sizeof name, "output %zu", k);
            rc = zvp_h5_fail(err, f->path, "write a block of", name);
        }
    /* status last: a point is marked computed only once its outputs are written */
    if (rc == ZVP_SUCCESS && H5Dwrite(f->status, H5T_NATIVE_UINT8, mem, f->space, dxpl, sbuf) < 0)
        rc = zvp_h5_fail(err, f->path, "write a block of", "status");
    if (mem >= 0 && H5Sclose(mem) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the memory dataspace of a block of", "status");
    if (rc == ZVP_SUCCESS && f->guard)
        rc = zvp_h5_check(&f->g, f->path, err); /* disk full: stop now */
    return rc;
}

int zvp_sweep_file_read_status(zvp_sweep_file *f, hid_t dxpl, const uint64_t *start,
                               const uint64_t *count, uint64_t npts, uint8_t *sbuf,
                               zvp_error *err)
{
    hid_t mem = H5I_INVALID_HID;
    int rc = zvp_sweep_select(f, start, count, npts, &mem, err);
    if (rc == ZVP_SUCCESS && H5Dread(f->status, H5T_NATIVE_UINT8, mem, f->space, dxpl, sbuf) < 0) {
        rc = zvp_h5_fail(err, f->path, "read a block of", "status");
        f->unreadable = 1;
    }
    if (mem >= 0 && H5Sclose(mem) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the memory dataspace of a block of", "status");
    return rc;
}

int zvp_sweep_file_read_block(zvp_sweep_file *f, hid_t dxpl, const uint64_t *start,
                              const uint64_t *count, uint64_t npts, double *obuf, uint8_t *sbuf,
                              zvp_error *err)
{
    hid_t mem = H5I_INVALID_HID;
    size_t k;
    char name[32];
    int rc = zvp_sweep_file_read_status(f, dxpl, start, count, npts, sbuf, err);
    if (rc == ZVP_SUCCESS)
        rc = zvp_sweep_select(f, start, count, npts, &mem, err);
    for (k = 0; rc == ZVP_SUCCESS && k < f->n_outputs; k++)
        if (H5Dread(f->output[k], H5T_NATIVE_DOUBLE, mem, f->space, dxpl,
                    obuf + k * (size_t)npts) < 0) {
            snprintf(name, sizeof name, "output %zu", k);
            rc = zvp_h5_fail(err, f->path, "read a block of", name);
            f->unreadable = 1;
        }
    if (mem >= 0 && H5Sclose(mem) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the memory dataspace of a block of", "status");
    return rc;
}

int zvp_sweep_file_flush(zvp_sweep_file *f, zvp_error *err)
{
    if (H5Fflush(f->h5, H5F_SCOPE_LOCAL) < 0)
        return zvp_h5_fail(err, f->path, "flush file", f->file);
    return f->guard ? zvp_h5_check(&f->g, f->path, err) : ZVP_SUCCESS;
}

int zvp_sweep_file_finish(zvp_sweep_file *f, zvp_error *err)
{
    const int32_t complete = 1;
    int rc = zvp_h5_attr_typed(f->h5, "/", "sweep_complete", H5T_NATIVE_INT32, &complete, 1,
                               f->path, err);
    return rc ? rc : zvp_sweep_file_flush(f, err);
}
