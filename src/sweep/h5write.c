/*
 * src/sweep/h5write.c - zvp_sweep_run: a grid evaluated block by block with zvp_eval_grid
 * (in parallel, into buffers) and written as hyperslabs of N-D HDF5 datasets from the
 * calling thread, outside the parallel regions. The file layout, the status codes and the
 * cut into blocks and chunks are described in src/sweep/README.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hdf5_hl.h>
#include "h5util.h"
#include "util/atomic.h"
#include "internal.h"
#include "sweep/sweep_impl.h"

#ifndef ZVP_SWEEP_DEFLATE_LEVEL
#define ZVP_SWEEP_DEFLATE_LEVEL 1 /* with shuffle; higher levels cost time, gain < 1% here */
#endif

void zvp_sweep_options_init(zvp_sweep_options *opt)
{
    if (!opt)
        return;
    opt->threads = 0;
    opt->reserved = 0;
    opt->block_points = ZVP_SWEEP_DEFAULT_BLOCK;
    opt->command = NULL;
}

/* The open objects of a sweep file, and the grid's shape in HDF5's types. */
typedef struct zvp_sweep_file {
    const char *path; /* the target, for messages */
    const char *tmp;  /* the temporary written (renamed over path when complete) */
    zvp_h5_guard guard;
    hid_t file, axes_group, outputs_group, params_group, status;
    hid_t axis[ZVP_SWEEP_MAX_AXES];
    hid_t *output; /* [n_outputs] */
    size_t n_outputs;
    hsize_t dims[ZVP_SWEEP_MAX_AXES], chunk[ZVP_SWEEP_MAX_AXES];
} zvp_sweep_file;

static void zvp_sweep_file_init(zvp_sweep_file *f, const zvp_sweep_plan *pl, const zvp_atomic *a)
{
    size_t k;
    f->path = a->target;
    f->tmp = a->tmp;
    f->file = f->axes_group = f->outputs_group = f->params_group = f->status = H5I_INVALID_HID;
    for (k = 0; k < ZVP_SWEEP_MAX_AXES; k++) {
        f->axis[k] = H5I_INVALID_HID;
        f->dims[k] = k < pl->n_axes ? (hsize_t)pl->dims[k] : 0;
        f->chunk[k] = k < pl->n_axes ? (hsize_t)pl->chunk[k] : 0;
    }
    f->output = NULL;
    f->n_outputs = 0;
}
/* Close every open handle; returns ZVP_EIO if a close failed (the file is then suspect),
 * unless rc already reports an error. */
static int zvp_sweep_file_close(zvp_sweep_file *f, int rc, zvp_error *err)
{
    size_t k;
    int bad = 0;
    for (k = 0; k < f->n_outputs; k++)
        if (f->output[k] >= 0)
            bad |= H5Dclose(f->output[k]) < 0;
    free(f->output);
    f->output = NULL;
    for (k = 0; k < ZVP_SWEEP_MAX_AXES; k++)
        if (f->axis[k] >= 0)
            bad |= H5Dclose(f->axis[k]) < 0;
    if (f->status >= 0)
        bad |= H5Dclose(f->status) < 0;
    if (f->params_group >= 0)
        bad |= H5Gclose(f->params_group) < 0;
    if (f->outputs_group >= 0)
        bad |= H5Gclose(f->outputs_group) < 0;
    if (f->axes_group >= 0)
        bad |= H5Gclose(f->axes_group) < 0;
    if (bad && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close an object of file", f->path);
    if (f->file >= 0)
        rc = zvp_h5_close(&f->guard, f->file, rc, f->path, err);
    f->file = H5I_INVALID_HID;
    return rc;
}

/* Create an N-D chunked, shuffled and deflated dataset of type `type` with fill value
 * *fill, the scales of every axis attached and labelled, and `units`/`description`. */
static int zvp_sweep_create_nd(zvp_sweep_file *f, const zvp_sweep_plan *pl, hid_t loc,
                               const char *name, const char *label, hid_t type, const void *fill,
                               const char *units, const char *description, hid_t *out,
                               zvp_error *err)
{
    hid_t space = H5I_INVALID_HID, dcpl = H5I_INVALID_HID, ds = H5I_INVALID_HID;
    int rc = ZVP_SUCCESS;
    unsigned k;
    *out = H5I_INVALID_HID;
    space = H5Screate_simple((int)pl->n_axes, f->dims, NULL);
    if (space < 0) {
        rc = zvp_h5_fail(err, f->path, "create the dataspace of", label);
        goto done;
    }
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0 || H5Pset_chunk(dcpl, (int)pl->n_axes, f->chunk) < 0 ||
        H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, ZVP_SWEEP_DEFLATE_LEVEL) < 0 ||
        H5Pset_fill_value(dcpl, type, fill) < 0) {
        rc = zvp_h5_fail(err, f->path, "set the chunking/deflate properties of", label);
        goto done;
    }
    ds = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds < 0) {
        rc = zvp_h5_fail(err, f->path, "create dataset", label);
        goto done;
    }
    if ((rc = zvp_h5_attr_string(ds, ".", "units", units, f->path, err)) ||
        (rc = zvp_h5_attr_string(ds, ".", "description", description, f->path, err)))
        goto done;
    for (k = 0; k < pl->n_axes; k++) {
        if (H5DSattach_scale(ds, f->axis[k], k) < 0) {
            rc = zvp_h5_fail(err, f->path, "attach the dimension scale of an axis to", label);
            goto done;
        }
        if (H5DSset_label(ds, k, pl->m->params[pl->param[k]].name) < 0) {
            rc = zvp_h5_fail(err, f->path, "label a dimension of", label);
            goto done;
        }
    }
done:
    if (rc != ZVP_SUCCESS && ds >= 0) {
        H5Dclose(ds);
        ds = H5I_INVALID_HID;
    }
    if (dcpl >= 0 && H5Pclose(dcpl) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the creation properties of", label);
    if (space >= 0 && H5Sclose(space) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the dataspace of", label);
    if (rc != ZVP_SUCCESS) {
        if (ds >= 0)
            H5Dclose(ds);
        return rc;
    }
    *out = ds;
    return ZVP_SUCCESS;
}


/* The root attributes (README.md, "File layout"). */
static int zvp_sweep_root_attrs(zvp_sweep_file *f, const zvp_model_file *mf,
                                const zvp_sweep_plan *pl, const zvp_sweep_options *opt,
                                zvp_error *err)
{
    const zvp_model *m = pl->m;
    const char *text = zvp_model_file_text(mf);
    char created[32];
    char *axis_list;
    size_t k, len = 1;
    int rc;
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
    rc = zvp_h5_iso8601_now(created, sizeof created, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "zvmperf_version", zvp_version(), f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "model", m->name, f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "model_source", m->source ? m->source : "", f->path,
                                err);
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "created", created, f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "command", opt->command ? opt->command : "",
                                f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "model_file", text ? text : "", f->path, err);
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "axes", axis_list, f->path, err);
    free(axis_list);
    return rc;
}

/* /axes (one dimension scale per axis) and /parameters (the fixed parameters). */
static int zvp_sweep_axes_params(zvp_sweep_file *f, const zvp_sweep_plan *pl,
                                 const double *fixed, zvp_error *err)
{
    const zvp_model *m = pl->m;
    char label[160];
    size_t k, i;
    int rc;
    f->axes_group = H5Gcreate2(f->file, "axes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (f->axes_group < 0)
        return zvp_h5_fail(err, f->path, "create group", "/axes");
    for (k = 0; k < pl->n_axes; k++) {
        const zvp_param_desc *d = &m->params[pl->param[k]];
        hsize_t n = f->dims[k];
        snprintf(label, sizeof label, "/axes/%s", d->name);
        if ((rc = zvp_h5_dataset_double(f->axes_group, d->name, 1, &n, pl->values[k], d->unit,
                                        d->description, f->path, err)))
            return rc;
        f->axis[k] = H5Dopen2(f->axes_group, d->name, H5P_DEFAULT);
        if (f->axis[k] < 0)
            return zvp_h5_fail(err, f->path, "open dataset", label);
        if (H5DSset_scale(f->axis[k], d->name) < 0)
            return zvp_h5_fail(err, f->path, "make a dimension scale of", label);
    }

    /* <name> (float64) and <name>_units (string) per fixed parameter */
    f->params_group = H5Gcreate2(f->file, "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (f->params_group < 0)
        return zvp_h5_fail(err, f->path, "create group", "/parameters");
    for (i = 0; i < m->n_params; i++) {
        int swept = 0;
        for (k = 0; k < pl->n_axes; k++)
            swept |= pl->param[k] == i;
        if (swept)
            continue;
        snprintf(label, sizeof label, "%s_units", m->params[i].name);
        if ((rc = zvp_h5_attr_double(f->params_group, ".", m->params[i].name, &fixed[i], 1,
                                     f->path, err)) ||
            (rc = zvp_h5_attr_string(f->params_group, ".", label, m->params[i].unit, f->path,
                                     err)))
            return rc;
    }
    return ZVP_SUCCESS;
}

/* Create the file with its attributes, /axes, /parameters and the empty N-D datasets. */
static int zvp_sweep_file_create(zvp_sweep_file *f, const zvp_model_file *mf,
                                 const zvp_sweep_plan *pl, const zvp_sweep_options *opt,
                                 const double *fixed, zvp_error *err)
{
    const zvp_model *m = pl->m;
    hid_t fapl;
    char label[160];
    size_t i;
    int rc;
    const double nan_fill = NAN;
    const uint8_t status_fill = ZVP_POINT_NOT_COMPUTED;

    /* v1.8 object formats at the least: attributes may then exceed 64 KiB (model_file) */
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0) {
        if (fapl >= 0)
            H5Pclose(fapl);
        return zvp_h5_fail(err, f->path, "set the file access properties of", f->path);
    }
    f->file = zvp_h5_create(&f->guard, f->tmp, fapl);
    if (f->file < 0) {
        rc = zvp_h5_fail(err, f->path, "create file", f->path); /* before H5Pclose resets
                                                                   the error stack */
        H5Pclose(fapl);
        return rc;
    }
    if (H5Pclose(fapl) < 0)
        return zvp_h5_fail(err, f->path, "close the file access properties of", f->path);
    if ((rc = zvp_sweep_root_attrs(f, mf, pl, opt, err)) ||
        (rc = zvp_sweep_axes_params(f, pl, fixed, err)))
        return rc;

    /* /status and /outputs/<name> */
    if ((rc = zvp_sweep_create_nd(f, pl, f->file, "status", "/status", H5T_NATIVE_UINT8,
                                  &status_fill, "1",
                                  "status of each grid point (codes in attribute `codes`)",
                                  &f->status, err)))
        return rc;
    if ((rc = zvp_h5_attr_string(f->status, ".", "codes",
                                 "0 = not computed, 1 = ok, 2 = no steady state (outputs NaN), "
                                 "3 = invalid input (outputs NaN)",
                                 f->path, err)))
        return rc;
    f->outputs_group = H5Gcreate2(f->file, "outputs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (f->outputs_group < 0)
        return zvp_h5_fail(err, f->path, "create group", "/outputs");
    f->output = malloc((m->n_outputs ? m->n_outputs : 1) * sizeof *f->output);
    if (!f->output)
        return zvp_fail(err, ZVP_ENOMEM, "sweep: out of memory");
    for (i = 0; i < m->n_outputs; i++) {
        const zvp_param_desc *d = &m->outputs[i];
        snprintf(label, sizeof label, "/outputs/%s", d->name);
        f->output[i] = H5I_INVALID_HID;
        f->n_outputs = i + 1;
        if ((rc = zvp_sweep_create_nd(f, pl, f->outputs_group, d->name, label, H5T_NATIVE_DOUBLE,
                                      &nan_fill, d->unit, d->description, &f->output[i], err)))
            return rc;
    }
    return ZVP_SUCCESS;
}

/* Write one block of npts points: the hyperslab start[]/count[] of every dataset, from
 * sbuf[npts] and obuf[n_outputs * npts] (output-major). */
static int zvp_sweep_write_block(zvp_sweep_file *f, const zvp_sweep_plan *pl, hid_t filespace,
                                 const uint64_t *start64, const uint64_t *count64,
                                 uint64_t npts, const double *obuf, const uint8_t *sbuf,
                                 zvp_error *err)
{
    hsize_t start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES], n = (hsize_t)npts;
    hid_t mem;
    size_t k;
    int rc = ZVP_SUCCESS;
    char label[160];
    for (k = 0; k < pl->n_axes; k++) {
        start[k] = (hsize_t)start64[k];
        count[k] = (hsize_t)count64[k];
    }
    if (H5Sselect_hyperslab(filespace, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
        return zvp_h5_fail(err, f->path, "select a block hyperslab of", "/status");
    mem = H5Screate_simple(1, &n, NULL);
    if (mem < 0)
        return zvp_h5_fail(err, f->path, "create the memory dataspace of a block of", "/status");
    if (H5Dwrite(f->status, H5T_NATIVE_UINT8, mem, filespace, H5P_DEFAULT, sbuf) < 0)
        rc = zvp_h5_fail(err, f->path, "write a block of", "/status");
    for (k = 0; rc == ZVP_SUCCESS && k < f->n_outputs; k++)
        if (H5Dwrite(f->output[k], H5T_NATIVE_DOUBLE, mem, filespace, H5P_DEFAULT,
                     obuf + k * (size_t)npts) < 0) {
            snprintf(label, sizeof label, "/outputs/%s", pl->m->outputs[k].name);
            rc = zvp_h5_fail(err, f->path, "write a block of", label);
        }
    if (H5Sclose(mem) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the memory dataspace of a block of", "/status");
    return rc;
}

/* The first failed point of a block (flat index `flat`): evaluate it again, serially, for
 * the message that names it (flat index and axis values). */
static int zvp_sweep_point_error(const zvp_sweep_plan *pl, const double *fixed, uint64_t flat,
                                 zvp_error *err)
{
    const zvp_model *m = pl->m;
    char where[256];
    size_t k, used = 0;
    uint64_t rest = flat;
    zvp_error e;
    int rc;
    double *params = malloc((m->n_params + m->n_outputs + 1) * sizeof *params);
    if (!params)
        return zvp_fail(err, ZVP_ENOMEM, "sweep of model '%s' stopped at point %llu: out of "
                        "memory", m->name, (unsigned long long)flat);
    memcpy(params, fixed, m->n_params * sizeof *params);
    for (k = pl->n_axes; k-- > 0;) {
        params[pl->param[k]] = pl->values[k][rest % pl->dims[k]];
        rest /= pl->dims[k];
    }
    zvp_error_clear(&e);
    rc = zvp_model_eval(m, params, params + m->n_params, &e);
    where[0] = '\0';
    for (k = 0; k < pl->n_axes && used + 1 < sizeof where; k++) {
        int w = snprintf(where + used, sizeof where - used, "%s%s = %.17g", k ? ", " : "",
                         m->params[pl->param[k]].name, params[pl->param[k]]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    free(params);
    if (rc == ZVP_SUCCESS || rc == ZVP_EUNSTABLE || rc == ZVP_EINVAL) /* not reproducible */
        rc = ZVP_EINVAL;
    return zvp_fail(err, rc, "sweep of model '%s' stopped at point %llu (%s): %s", m->name,
                    (unsigned long long)flat, where, e.message[0] ? e.message : zvp_strerror(rc));
}

static double zvp_sweep_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Evaluate and write every block of the plan into the created file f; counts in sum. */
static int zvp_sweep_blocks(zvp_sweep_file *f, const zvp_sweep_plan *pl, const zvp_axis *axes,
                            const double *fixed, int threads, double *obuf, uint8_t *sbuf,
                            zvp_sweep_summary *sum, zvp_error *err)
{
    hid_t filespace = H5Dget_space(f->status);
    uint64_t f0;
    int rc = ZVP_SUCCESS;
    if (filespace < 0)
        return zvp_h5_fail(err, f->path, "get the dataspace of", "/status");
    for (f0 = 0; rc == ZVP_SUCCESS && f0 < pl->points;) {
        uint64_t start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES];
        uint64_t npts = zvp_sweep_block(pl, f0, start, count), p, failed = UINT64_MAX;
        rc = zvp_eval_grid(pl->m, fixed, axes, pl->n_axes, f0, npts, obuf, sbuf, threads, err);
        if (rc)
            break;
        for (p = 0; p < npts; p++) {
            switch (sbuf[p]) {
            case ZVP_POINT_OK: sum->ok++; break;
            case ZVP_POINT_UNSTABLE: sum->unstable++; break;
            case ZVP_POINT_INVALID: sum->invalid++; break;
            default: /* ZVP_POINT_FAILED: the sweep stops after this block */
                if (failed == UINT64_MAX)
                    failed = p;
                sbuf[p] = ZVP_POINT_NOT_COMPUTED;
            }
        }
        rc = zvp_sweep_write_block(f, pl, filespace, start, count, npts, obuf, sbuf, err);
        if (rc == ZVP_SUCCESS)
            rc = zvp_h5_check(&f->guard, f->path, err); /* disk full: stop now */
        if (rc == ZVP_SUCCESS && failed != UINT64_MAX)
            rc = zvp_sweep_point_error(pl, fixed, f0 + failed, err);
        f0 += npts;
    }
    if (H5Sclose(filespace) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the dataspace of", "/status");
    return rc;
}

int zvp_sweep_run(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                  const char *path, const zvp_sweep_options *opt, zvp_sweep_summary *summary,
                  zvp_error *err)
{
    zvp_sweep_options defaults;
    zvp_sweep_plan pl;
    zvp_sweep_file f;
    zvp_atomic out;
    zvp_sweep_summary sum;
    zvp_h5_quiet quiet;
    const zvp_model *m;
    double *fixed, *obuf;
    uint8_t *sbuf;
    uint64_t block_points, cap;
    int rc;
    double t0 = zvp_sweep_now_s();

    memset(&sum, 0, sizeof sum);
    if (summary)
        *summary = sum;
    if (!mf || !axes || !path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sweep_run: mf, axes and path must not be NULL");
    if (!opt) {
        zvp_sweep_options_init(&defaults);
        opt = &defaults;
    }
    if (opt->threads < 0)
        return zvp_fail(err, ZVP_EINVAL,
                        "sweep: threads = %d is out of range [0, inf) (0 = the OpenMP default)",
                        (int)opt->threads);
    block_points = opt->block_points ? opt->block_points : ZVP_SWEEP_DEFAULT_BLOCK;
    if ((rc = zvp_sweep_make_plan(mf, axes, n_axes, block_points, &pl, err)))
        return rc;
    m = pl.m;
    fixed = zvp_model_file_params((zvp_model_file *)mf); /* read only */
    if (!fixed)
        return zvp_fail(err, ZVP_EINVAL, "sweep: the model file has no parameter vector");

    /* one block: outputs (output-major) and status */
    cap = pl.block_capacity;
    if (m->n_outputs && cap > SIZE_MAX / sizeof(double) / m->n_outputs)
        return zvp_fail(err, ZVP_EINVAL, "sweep: block_points = %llu is too large",
                        (unsigned long long)block_points);
    obuf = malloc((size_t)cap * (m->n_outputs ? m->n_outputs : 1) * sizeof *obuf);
    sbuf = malloc((size_t)cap);
    if (!obuf || !sbuf) {
        free(obuf);
        free(sbuf);
        return zvp_fail(err, ZVP_ENOMEM,
                        "sweep: cannot allocate the block buffers (%llu points x %zu outputs)",
                        (unsigned long long)cap, m->n_outputs);
    }

    rc = zvp_atomic_begin(&out, path, err);
    sum.points = pl.points;
    if (!rc) {
        zvp_h5_quiet_begin(&quiet);
        zvp_sweep_file_init(&f, &pl, &out);
        rc = zvp_sweep_file_create(&f, mf, &pl, opt, fixed, err);
        if (!rc)
            rc = zvp_sweep_blocks(&f, &pl, axes, fixed, (int)opt->threads, obuf, sbuf, &sum,
                                  err);
        rc = zvp_sweep_file_close(&f, rc, err);
        zvp_h5_quiet_end(&quiet);
        if (!rc)
            rc = zvp_atomic_commit(&out, err);
        else
            zvp_atomic_abort(&out);
    }
    free(obuf);
    free(sbuf);
    sum.seconds = zvp_sweep_now_s() - t0;
    if (summary)
        *summary = sum;
    return rc;
}
