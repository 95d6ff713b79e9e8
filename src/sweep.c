/*
 * src/sweep.c - OpenMP parameter sweeps of a model over a Cartesian grid, written to HDF5.
 *
 * Plan. The grid has n_axes axes with lengths dims[], flattened row-major (last axis
 * fastest). It is cut into blocks, each of which is ONE hyperslab of the N-D datasets and
 * at the same time ONE contiguous range of flat indices: for a "split" axis a, a block is
 *     (fixed indices on the axes before a) x (c consecutive indices on a) x (all of the
 *     axes after a),
 * where a is the first axis whose trailing product S_a = dims[a+1] * ... * dims[n-1] fits
 * in block_points, and c = floor(block_points / S_a) (capped by dims[a]). The datasets'
 * chunks use the same construction with a smaller target (at most 65536 points) and the
 * block count c is rounded to a multiple of the chunk count, so a block write covers
 * whole chunks: HDF5 never re-reads a compressed chunk.
 *
 * For each block, the points are evaluated in parallel (OpenMP, schedule(dynamic, 64))
 * into buffers indexed by the point's offset in the block, never by completion order;
 * then the calling thread writes the block (outside the parallel region). Memory is
 * O(block_points x (n_outputs + 1)) plus one parameter vector per thread. The results do
 * not depend on the number of threads, bit for bit.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hdf5_hl.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "h5util.h"
#include "internal.h"
#include "zvmperf/sweep.h"

#define ZVP_SWEEP_MAX_AXES 8
#define ZVP_SWEEP_DEFAULT_BLOCK 65536u
#define ZVP_SWEEP_CHUNK_TARGET 65536u /* points per HDF5 chunk, at most (512 KiB float64) */
#ifndef ZVP_SWEEP_DEFLATE_LEVEL
#define ZVP_SWEEP_DEFLATE_LEVEL 1 /* with shuffle; higher levels cost time, gain < 1% here */
#endif
#define ZVP_AXIS_MAX_VALUES 1000000000.0 /* 10^9 */
#define ZVP_AXIS_REL_TOL 1e-9
/* Transient per-point status: the model returned something other than success, no steady
 * state or invalid input; the sweep stops after the block (never written to the file). */
#define ZVP_POINT_FAILED 255u

/* ==== Axis parsing ====================================================================== */

/* Trimmed copy of [b, e) into a new string, or NULL (ENOMEM). */
static char *zvp_sweep_trimdup(const char *b, const char *e)
{
    char *s;
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        e--;
    s = malloc((size_t)(e - b) + 1);
    if (s) {
        memcpy(s, b, (size_t)(e - b));
        s[e - b] = '\0';
    }
    return s;
}

/* Parse one number field [b, e) of spec. ZVP_EPARSE if it is not a number, ZVP_EINVAL if
 * it is one but not finite (inf, nan, overflow). */
static int zvp_sweep_number(const char *spec, const char *field, const char *b, const char *e,
                            double *out, zvp_error *err)
{
    char buf[128];
    char *end;
    double v;
    size_t n;
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        e--;
    n = (size_t)(e - b);
    if (n == 0 || n >= sizeof buf)
        return zvp_fail(err, ZVP_EPARSE, "axis \"%s\": %s is %s (expected a number)", spec, field,
                        n == 0 ? "empty" : "too long");
    memcpy(buf, b, n);
    buf[n] = '\0';
    errno = 0;
    v = strtod(buf, &end);
    if (end == buf || *end != '\0')
        return zvp_fail(err, ZVP_EPARSE, "axis \"%s\": %s \"%s\" is not a number", spec, field,
                        buf);
    if (!isfinite(v))
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": %s = %s is not finite", spec, field, buf);
    *out = v;
    return ZVP_SUCCESS;
}

/* A parameter name: [A-Za-z_][A-Za-z0-9_]*. */
static int zvp_sweep_name_ok(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* "LO:HI:STEP" between b and e (exactly two ':'). */
static int zvp_sweep_parse_range(const char *spec, const char *b, const char *e, double **values,
                                 size_t *n_values, zvp_error *err)
{
    const char *c1 = memchr(b, ':', (size_t)(e - b));
    const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(e - c1 - 1)) : NULL;
    double lo, hi, step, q, nd;
    size_t n, i;
    double *v;
    int rc;
    if (!c1 || !c2 || memchr(c2 + 1, ':', (size_t)(e - c2 - 1)))
        return zvp_fail(err, ZVP_EPARSE, "axis \"%s\": a range is LO:HI:STEP (three fields)", spec);
    if ((rc = zvp_sweep_number(spec, "LO", b, c1, &lo, err)) ||
        (rc = zvp_sweep_number(spec, "HI", c1 + 1, c2, &hi, err)) ||
        (rc = zvp_sweep_number(spec, "STEP", c2 + 1, e, &step, err)))
        return rc;
    if (!(step > 0))
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": STEP = %.17g must be > 0", spec, step);
    if (hi < lo)
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": HI = %.17g is below LO = %.17g", spec, hi,
                        lo);
    /* Number of steps, with HI included when it is within 1e-9 x (HI - LO) of a grid value. */
    q = (hi - lo) / step;
    if (!isfinite(q) || q * (1.0 + ZVP_AXIS_REL_TOL) + 1.0 > ZVP_AXIS_MAX_VALUES)
        return zvp_fail(err, ZVP_EINVAL,
                        "axis \"%s\": (HI - LO) / STEP + 1 = %.17g values is more than the "
                        "allowed 1e9",
                        spec, q + 1.0);
    nd = floor(q * (1.0 + ZVP_AXIS_REL_TOL)) + 1.0;
    n = (size_t)nd;
    v = malloc(n * sizeof *v);
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "axis \"%s\": cannot allocate %zu values", spec, n);
    for (i = 0; i < n; i++)
        v[i] = lo + (double)i * step; /* computed, never accumulated */
    if (v[n - 1] > hi)
        v[n - 1] = hi; /* HI reached within the tolerance: use HI itself */
    *values = v;
    *n_values = n;
    return ZVP_SUCCESS;
}

/* "V1,V2,..." (or a single value) between b and e. */
static int zvp_sweep_parse_list(const char *spec, const char *b, const char *e, double **values,
                                size_t *n_values, zvp_error *err)
{
    size_t n = 1, i = 0;
    const char *p, *f;
    double *v;
    int rc;
    for (p = b; p < e; p++)
        if (*p == ',')
            n++;
    if ((double)n > ZVP_AXIS_MAX_VALUES)
        return zvp_fail(err, ZVP_EINVAL, "axis \"%s\": %zu values is more than the allowed 1e9",
                        spec, n);
    v = malloc(n * sizeof *v);
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "axis \"%s\": cannot allocate %zu values", spec, n);
    for (f = b, p = b;; p++) {
        if (p == e || *p == ',') {
            char field[32];
            snprintf(field, sizeof field, "value %zu", i + 1);
            if ((rc = zvp_sweep_number(spec, field, f, p, &v[i], err))) {
                free(v);
                return rc;
            }
            i++;
            f = p + 1;
            if (p == e)
                break;
        }
    }
    *values = v;
    *n_values = n;
    return ZVP_SUCCESS;
}

int zvp_axis_parse(const char *spec, char **name, double **values, size_t *n_values,
                   zvp_error *err)
{
    const char *eq, *e;
    char *nm;
    int rc;
    if (!spec || !name || !values || !n_values)
        return zvp_fail(err, ZVP_EINVAL,
                        "zvp_axis_parse: spec, name, values and n_values must not be NULL");
    *name = NULL;
    *values = NULL;
    *n_values = 0;
    eq = strchr(spec, '=');
    if (!eq)
        return zvp_fail(err, ZVP_EPARSE,
                        "axis \"%s\": expected NAME=LO:HI:STEP or NAME=V1,V2,... (no '=')", spec);
    nm = zvp_sweep_trimdup(spec, eq);
    if (!nm)
        return zvp_fail(err, ZVP_ENOMEM, "axis \"%s\": out of memory", spec);
    if (!zvp_sweep_name_ok(nm)) {
        free(nm);
        return zvp_fail(err, ZVP_EPARSE,
                        "axis \"%s\": the name before '=' must be a parameter name "
                        "([A-Za-z_][A-Za-z0-9_]*)",
                        spec);
    }
    e = eq + 1 + strlen(eq + 1);
    if (memchr(eq + 1, ':', (size_t)(e - eq - 1)))
        rc = memchr(eq + 1, ',', (size_t)(e - eq - 1))
                 ? zvp_fail(err, ZVP_EPARSE, "axis \"%s\": mixes ':' (range) and ',' (list)", spec)
                 : zvp_sweep_parse_range(spec, eq + 1, e, values, n_values, err);
    else
        rc = zvp_sweep_parse_list(spec, eq + 1, e, values, n_values, err);
    if (rc) {
        free(nm);
        return rc;
    }
    *name = nm;
    return ZVP_SUCCESS;
}

void zvp_sweep_options_init(zvp_sweep_options *opt)
{
    if (!opt)
        return;
    opt->threads = 0;
    opt->reserved = 0;
    opt->block_points = ZVP_SWEEP_DEFAULT_BLOCK;
    opt->command = NULL;
}

/* ==== Plan ============================================================================== */

/* Tiling of the grid for a target number of points (see the top of the file): split axis,
 * trailing product S_a and count c along the split axis. target >= 1. */
static void zvp_sweep_tile(const hsize_t *dims, size_t n, uint64_t target, size_t *axis,
                           uint64_t *inner, uint64_t *count)
{
    size_t a = n - 1;
    uint64_t s = 1; /* S_a */
    while (a > 0 && s * dims[a] <= target) {
        s *= dims[a];
        a--;
    }
    *axis = a;
    *inner = s;
    *count = target / s < dims[a] ? target / s : dims[a];
}

typedef struct zvp_sweep_plan {
    const zvp_model *m;
    size_t n_axes;
    hsize_t dims[ZVP_SWEEP_MAX_AXES];
    size_t param[ZVP_SWEEP_MAX_AXES];         /* parameter index of each axis */
    const double *values[ZVP_SWEEP_MAX_AXES]; /* axis values */
    uint64_t points;
    size_t split;             /* block split axis */
    uint64_t inner;           /* points per index step of the split axis */
    uint64_t per_block;       /* indices of the split axis per block */
    uint64_t block_capacity;  /* per_block * inner: points per block buffer */
    hsize_t chunk[ZVP_SWEEP_MAX_AXES];
} zvp_sweep_plan;

/* List the parameter names of m into buf (", "-separated, truncated with "..."). */
static void zvp_sweep_param_list(const zvp_model *m, char *buf, size_t size)
{
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < m->n_params && used + 1 < size; i++) {
        int k = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", m->params[i].name);
        if (k < 0 || (size_t)k >= size - used) {
            if (size > 4)
                memcpy(buf + size - 4, "...", 4);
            return;
        }
        used += (size_t)k;
    }
}

static int zvp_sweep_make_plan(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                               uint64_t block_points, zvp_sweep_plan *pl, zvp_error *err)
{
    const zvp_model *m = zvp_model_file_model(mf);
    size_t k, j, i, ca;
    uint64_t ci, cc;
    memset(pl, 0, sizeof *pl);
    if (!m)
        return zvp_fail(err, ZVP_EINVAL, "sweep: the model file has no model");
    if (n_axes < 1 || n_axes > ZVP_SWEEP_MAX_AXES)
        return zvp_fail(err, ZVP_EINVAL, "sweep: n_axes = %zu is out of range [1, %d]", n_axes,
                        ZVP_SWEEP_MAX_AXES);
    pl->m = m;
    pl->n_axes = n_axes;
    pl->points = 1;
    for (k = 0; k < n_axes; k++) {
        const zvp_axis *ax = &axes[k];
        int found = 0;
        if (!ax->name)
            return zvp_fail(err, ZVP_EINVAL, "sweep: axis %zu has no name", k);
        for (i = 0; i < m->n_params; i++)
            if (strcmp(m->params[i].name, ax->name) == 0) {
                pl->param[k] = i;
                found = 1;
                break;
            }
        if (!found) {
            char list[384];
            zvp_sweep_param_list(m, list, sizeof list);
            return zvp_fail(err, ZVP_ENOTFOUND,
                            "sweep axis '%s' is not a parameter of model '%s' (parameters: %s)",
                            ax->name, m->name, list);
        }
        for (j = 0; j < k; j++)
            if (pl->param[j] == pl->param[k])
                return zvp_fail(err, ZVP_EINVAL,
                                "sweep axis '%s' is given twice (axes %zu and %zu)", ax->name, j,
                                k);
        if (ax->n_values < 1 || !ax->values)
            return zvp_fail(err, ZVP_EINVAL, "sweep axis '%s': n_values = %zu, must be >= 1",
                            ax->name, ax->n_values);
        for (i = 0; i < ax->n_values; i++)
            if (!isfinite(ax->values[i]))
                return zvp_fail(err, ZVP_EINVAL, "sweep axis '%s': value %zu = %g is not finite",
                                ax->name, i, ax->values[i]);
        if ((uint64_t)ax->n_values > UINT64_MAX / pl->points ||
            (uint64_t)ax->n_values * pl->points > (uint64_t)(SIZE_MAX / 2))
            return zvp_fail(err, ZVP_EINVAL, "sweep: too many points (axis '%s' makes the grid "
                            "larger than %zu points)", ax->name, (size_t)(SIZE_MAX / 2));
        {
            const zvp_param_desc *d = &m->params[pl->param[k]];
            for (i = 0; i < ax->n_values; i++)
                if (ax->values[i] < d->min || ax->values[i] > d->max)
                    return zvp_fail(err, ZVP_EINVAL,
                                    "sweep axis '%s': value %.17g is out of range [%.17g, %.17g] "
                                    "(unit %s)",
                                    ax->name, ax->values[i], d->min, d->max, d->unit);
        }
        pl->points *= (uint64_t)ax->n_values;
        if (pl->points > ZVP_SWEEP_MAX_POINTS)
            return zvp_fail(err, ZVP_EINVAL,
                            "sweep: the grid has %llu points or more (axis '%s' brings it there); "
                            "at most %llu points are allowed: split the study into several sweeps",
                            (unsigned long long)pl->points, ax->name,
                            (unsigned long long)ZVP_SWEEP_MAX_POINTS);
        pl->dims[k] = (hsize_t)ax->n_values;
        pl->values[k] = ax->values;
    }
    /* Blocks of fewer points than a chunk would make small chunks (large files, slow
     * writes): a block holds at least one chunk's worth of points. */
    if (block_points < ZVP_SWEEP_CHUNK_TARGET)
        block_points = ZVP_SWEEP_CHUNK_TARGET;
    if (block_points > pl->points)
        block_points = pl->points;
    /* chunks: at most ZVP_SWEEP_CHUNK_TARGET points, aligned with the blocks */
    zvp_sweep_tile(pl->dims, n_axes, block_points < ZVP_SWEEP_CHUNK_TARGET ? block_points
                                                                           : ZVP_SWEEP_CHUNK_TARGET,
                   &ca, &ci, &cc);
    for (k = 0; k < n_axes; k++)
        pl->chunk[k] = k < ca ? 1 : k == ca ? (hsize_t)cc : pl->dims[k];
    zvp_sweep_tile(pl->dims, n_axes, block_points, &pl->split, &pl->inner, &pl->per_block);
    if (pl->split == ca && pl->per_block < pl->dims[ca])
        pl->per_block -= pl->per_block % cc; /* whole chunks per block (per_block >= cc) */
    pl->block_capacity = pl->per_block * pl->inner;
    return ZVP_SUCCESS;
}

/* ==== HDF5 file ========================================================================= */

typedef struct zvp_sweep_file {
    const char *path;
    hid_t file, axes_group, outputs_group, params_group, status;
    hid_t axis[ZVP_SWEEP_MAX_AXES];
    hid_t *output; /* [n_outputs] */
    size_t n_outputs;
} zvp_sweep_file;

static void zvp_sweep_file_init(zvp_sweep_file *f, const char *path)
{
    size_t k;
    f->path = path;
    f->file = f->axes_group = f->outputs_group = f->params_group = f->status = H5I_INVALID_HID;
    for (k = 0; k < ZVP_SWEEP_MAX_AXES; k++)
        f->axis[k] = H5I_INVALID_HID;
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
    if (f->file >= 0 && H5Fclose(f->file) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close (flush) file", f->path);
    if (bad && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close an object of file", f->path);
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
    space = H5Screate_simple((int)pl->n_axes, pl->dims, NULL);
    if (space < 0) {
        rc = zvp_h5_fail(err, f->path, "create the dataspace of", label);
        goto done;
    }
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0 || H5Pset_chunk(dcpl, (int)pl->n_axes, pl->chunk) < 0 ||
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

/* Create the file with its attributes, /axes, /parameters and the empty N-D datasets. */
static int zvp_sweep_file_create(zvp_sweep_file *f, const zvp_model_file *mf,
                                 const zvp_sweep_plan *pl, const zvp_sweep_options *opt,
                                 const double *fixed, zvp_error *err)
{
    const zvp_model *m = pl->m;
    hid_t fapl;
    char created[32], label[160];
    char *axis_list;
    size_t k, i, len = 1;
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
    f->file = H5Fcreate(f->path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (f->file < 0) {
        rc = zvp_h5_fail(err, f->path, "create file", f->path); /* before H5Pclose resets
                                                                   the error stack */
        H5Pclose(fapl);
        return rc;
    }
    if (H5Pclose(fapl) < 0)
        return zvp_h5_fail(err, f->path, "close the file access properties of", f->path);

    /* root attributes */
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
    if (!rc) {
        const char *text = zvp_model_file_text(mf);
        rc = zvp_h5_attr_string(f->file, "/", "model_file", text ? text : "", f->path, err);
    }
    if (!rc)
        rc = zvp_h5_attr_string(f->file, "/", "axes", axis_list, f->path, err);
    free(axis_list);
    if (rc)
        return rc;

    /* /axes: one dimension scale per axis */
    f->axes_group = H5Gcreate2(f->file, "axes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (f->axes_group < 0)
        return zvp_h5_fail(err, f->path, "create group", "/axes");
    for (k = 0; k < pl->n_axes; k++) {
        const zvp_param_desc *d = &m->params[pl->param[k]];
        hsize_t n = pl->dims[k];
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

    /* /parameters: the fixed parameters, <name> (float64) and <name>_units (string) */
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

/* Write one block: flat points [f0, f0 + npts), which is the hyperslab start[]/count[]. */
static int zvp_sweep_write_block(zvp_sweep_file *f, const zvp_sweep_plan *pl, hid_t filespace,
                                 const hsize_t *start, const hsize_t *count, hsize_t npts,
                                 const double *obuf, uint64_t stride, const uint8_t *sbuf,
                                 zvp_error *err)
{
    hid_t mem;
    size_t k;
    int rc = ZVP_SUCCESS;
    char label[160];
    if (H5Sselect_hyperslab(filespace, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
        return zvp_h5_fail(err, f->path, "select a block hyperslab of", "/status");
    mem = H5Screate_simple(1, &npts, NULL);
    if (mem < 0)
        return zvp_h5_fail(err, f->path, "create the memory dataspace of a block of", "/status");
    if (H5Dwrite(f->status, H5T_NATIVE_UINT8, mem, filespace, H5P_DEFAULT, sbuf) < 0)
        rc = zvp_h5_fail(err, f->path, "write a block of", "/status");
    for (k = 0; rc == ZVP_SUCCESS && k < f->n_outputs; k++)
        if (H5Dwrite(f->output[k], H5T_NATIVE_DOUBLE, mem, filespace, H5P_DEFAULT,
                     obuf + k * stride) < 0) {
            snprintf(label, sizeof label, "/outputs/%s", pl->m->outputs[k].name);
            rc = zvp_h5_fail(err, f->path, "write a block of", label);
        }
    if (H5Sclose(mem) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, f->path, "close the memory dataspace of a block of", "/status");
    return rc;
}

/* ==== Evaluation ======================================================================== */

/* Set the axis parameters of flat point `flat` in params. */
static void zvp_sweep_point_params(const zvp_sweep_plan *pl, uint64_t flat, double *params)
{
    size_t k = pl->n_axes;
    while (k-- > 0) {
        uint64_t i = flat % pl->dims[k];
        flat /= pl->dims[k];
        params[pl->param[k]] = pl->values[k][i];
    }
}

/* Evaluate flat points [f0, f0 + npts) in parallel. Output j of point p goes to
 * obuf[j * stride + p], its status to sbuf[p]. work: per-thread vectors, wstride doubles
 * each (params, then outputs), params pre-filled with the fixed values. */
static void zvp_sweep_eval_block(const zvp_sweep_plan *pl, uint64_t f0, uint64_t npts,
                                 double *obuf, uint64_t stride, uint8_t *sbuf, double *work,
                                 size_t wstride, int nthreads)
{
    const zvp_model *m = pl->m;
    const size_t np = m->n_params, no = m->n_outputs;
    const int64_t n = (int64_t)npts;
    int64_t p;
    (void)nthreads;
#pragma omp parallel for schedule(dynamic, 64) num_threads(nthreads)
    for (p = 0; p < n; p++) {
#ifdef _OPENMP
        double *params = work + (size_t)omp_get_thread_num() * wstride;
#else
        double *params = work;
#endif
        double *out = params + np;
        size_t j;
        uint8_t s;
        int rc;
        zvp_sweep_point_params(pl, f0 + (uint64_t)p, params);
        rc = zvp_model_eval(m, params, out, NULL);
        s = rc == ZVP_SUCCESS     ? (uint8_t)ZVP_POINT_OK
            : rc == ZVP_EUNSTABLE ? (uint8_t)ZVP_POINT_UNSTABLE
            : rc == ZVP_EINVAL    ? (uint8_t)ZVP_POINT_INVALID
                                  : (uint8_t)ZVP_POINT_FAILED;
        if (s != ZVP_POINT_OK)
            for (j = 0; j < no; j++)
                out[j] = NAN;
        for (j = 0; j < no; j++)
            obuf[j * stride + (uint64_t)p] = out[j];
        sbuf[p] = s;
    }
}

/* The first failed point of a block: evaluate it again (serially) for the message. */
static int zvp_sweep_point_error(const zvp_sweep_plan *pl, uint64_t flat, double *params,
                                 zvp_error *err)
{
    char where[256];
    size_t k, used = 0;
    zvp_error e;
    int rc;
    zvp_error_clear(&e);
    zvp_sweep_point_params(pl, flat, params);
    rc = zvp_model_eval(pl->m, params, params + pl->m->n_params, &e);
    where[0] = '\0';
    for (k = 0; k < pl->n_axes && used + 1 < sizeof where; k++) {
        int w = snprintf(where + used, sizeof where - used, "%s%s = %.17g", k ? ", " : "",
                         pl->m->params[pl->param[k]].name, params[pl->param[k]]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (rc == ZVP_SUCCESS || rc == ZVP_EUNSTABLE || rc == ZVP_EINVAL) /* not reproducible */
        rc = ZVP_EINVAL;
    return zvp_fail(err, rc, "sweep of model '%s' stopped at point %llu (%s): %s", pl->m->name,
                    (unsigned long long)flat, where, e.message[0] ? e.message : zvp_strerror(rc));
}

static double zvp_sweep_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int zvp_sweep_run(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                  const char *path, const zvp_sweep_options *opt, zvp_sweep_summary *summary,
                  zvp_error *err)
{
    zvp_sweep_options defaults;
    zvp_sweep_plan pl;
    zvp_sweep_file f;
    zvp_sweep_summary sum;
    zvp_h5_quiet quiet;
    const zvp_model *m;
    double *fixed, *work = NULL, *obuf = NULL;
    uint8_t *sbuf = NULL;
    hid_t filespace = H5I_INVALID_HID;
    uint64_t block_points, f0, stride;
    size_t wstride, t, k;
    int nthreads, rc;
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
    fixed = zvp_model_file_params((zvp_model_file *)mf); /* read only: copied per thread */
    if (!fixed)
        return zvp_fail(err, ZVP_EINVAL, "sweep: the model file has no parameter vector");
#ifdef _OPENMP
    nthreads = opt->threads > 0 ? (int)opt->threads : omp_get_max_threads();
#else
    nthreads = 1;
#endif
    if (nthreads < 1)
        nthreads = 1;

    /* buffers: one block, and one (params, outputs) vector per thread, 64-byte apart */
    stride = pl.block_capacity;
    if (m->n_outputs && stride > SIZE_MAX / sizeof(double) / m->n_outputs)
        return zvp_fail(err, ZVP_EINVAL, "sweep: block_points = %llu is too large",
                        (unsigned long long)block_points);
    wstride = (m->n_params + m->n_outputs + 8) / 8 * 8; /* >= 8: never 0 */
    obuf = malloc((size_t)stride * (m->n_outputs ? m->n_outputs : 1) * sizeof *obuf);
    sbuf = malloc((size_t)stride);
    work = aligned_alloc(64, (size_t)nthreads * wstride * sizeof *work);
    if (!obuf || !sbuf || !work) {
        free(obuf);
        free(sbuf);
        free(work);
        return zvp_fail(err, ZVP_ENOMEM,
                        "sweep: cannot allocate the block buffers (%llu points x %zu outputs)",
                        (unsigned long long)stride, m->n_outputs);
    }
    for (t = 0; t < (size_t)nthreads; t++)
        memcpy(work + t * wstride, fixed, m->n_params * sizeof *fixed);

    zvp_h5_quiet_begin(&quiet);
    zvp_sweep_file_init(&f, path);
    rc = zvp_sweep_file_create(&f, mf, &pl, opt, fixed, err);
    if (!rc) {
        filespace = H5Dget_space(f.status);
        if (filespace < 0)
            rc = zvp_h5_fail(err, path, "get the dataspace of", "/status");
    }
    sum.points = pl.points;
    for (f0 = 0; rc == ZVP_SUCCESS && f0 < pl.points;) {
        hsize_t start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES];
        uint64_t row = f0 / pl.inner; /* flat index over the axes up to the split axis */
        uint64_t j = row % pl.dims[pl.split], outer = row / pl.dims[pl.split];
        uint64_t cnt = pl.dims[pl.split] - j < pl.per_block ? pl.dims[pl.split] - j : pl.per_block;
        uint64_t npts = cnt * pl.inner, p, failed = UINT64_MAX;
        for (k = pl.n_axes; k-- > 0;) {
            if (k > pl.split) {
                start[k] = 0;
                count[k] = pl.dims[k];
            } else if (k == pl.split) {
                start[k] = j;
                count[k] = cnt;
            } else {
                start[k] = outer % pl.dims[k];
                outer /= pl.dims[k];
                count[k] = 1;
            }
        }
        zvp_sweep_eval_block(&pl, f0, npts, obuf, stride, sbuf, work, wstride, nthreads);
        for (p = 0; p < npts; p++) {
            switch (sbuf[p]) {
            case ZVP_POINT_OK: sum.ok++; break;
            case ZVP_POINT_UNSTABLE: sum.unstable++; break;
            case ZVP_POINT_INVALID: sum.invalid++; break;
            default:
                if (failed == UINT64_MAX)
                    failed = p;
                sbuf[p] = ZVP_POINT_NOT_COMPUTED;
            }
        }
        rc = zvp_sweep_write_block(&f, &pl, filespace, start, count, (hsize_t)npts, obuf, stride,
                                   sbuf, err);
        if (rc == ZVP_SUCCESS && failed != UINT64_MAX)
            rc = zvp_sweep_point_error(&pl, f0 + failed, work, err);
        f0 += npts;
    }
    if (filespace >= 0 && H5Sclose(filespace) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, path, "close the dataspace of", "/status");
    rc = zvp_sweep_file_close(&f, rc, err);
    zvp_h5_quiet_end(&quiet);
    free(obuf);
    free(sbuf);
    free(work);
    sum.seconds = zvp_sweep_now_s() - t0;
    if (summary)
        *summary = sum;
    return rc;
}
