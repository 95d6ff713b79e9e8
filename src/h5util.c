/* src/h5util.c - small private HDF5 helpers (see h5util.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <hdf5_hl.h>
#include "h5util.h"
#include "internal.h"

void zvp_h5_quiet_begin(zvp_h5_quiet *q)
{
    q->saved = H5Eget_auto2(H5E_DEFAULT, &q->func, &q->client_data) >= 0;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void zvp_h5_quiet_end(const zvp_h5_quiet *q)
{
    if (q->saved)
        H5Eset_auto2(H5E_DEFAULT, q->func, q->client_data);
}

/* H5Ewalk2 callback: keep the description of the innermost error (walk from the top). */
static herr_t zvp_h5_walk_cb(unsigned n, const H5E_error2_t *e, void *client_data)
{
    char *detail = client_data;
    if (n == 0 && e && e->desc) {
        snprintf(detail, 160, "%s", e->desc);
    }
    return 0;
}

int zvp_h5_fail(zvp_error *err, const char *path, const char *what, const char *object)
{
    char detail[160] = "";
    const char *file = path ? path : "?";
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, zvp_h5_walk_cb, detail);
    if (object && strcmp(object, file) == 0) /* the file itself */
        return zvp_fail(err, ZVP_EIO, "HDF5: cannot %s '%s'%s%s%s", what, file,
                        detail[0] ? " (" : "", detail, detail[0] ? ")" : "");
    return zvp_fail(err, ZVP_EIO, "HDF5: cannot %s '%s' in '%s'%s%s%s", what,
                    object ? object : "?", file, detail[0] ? " (" : "", detail,
                    detail[0] ? ")" : "");
}

/* Create (replacing an existing one) attribute `name` of type `type` and dataspace `space`
 * on obj, and write buf. Closes nothing it did not open. */
static int zvp_h5_attr_write(hid_t loc, const char *obj, const char *name, hid_t type,
                             hid_t space, const void *buf, const char *path, zvp_error *err)
{
    hid_t attr;
    htri_t exists = H5Aexists_by_name(loc, obj, name, H5P_DEFAULT);
    if (exists < 0)
        return zvp_h5_fail(err, path, "look up attribute", name);
    if (exists > 0 && H5Adelete_by_name(loc, obj, name, H5P_DEFAULT) < 0)
        return zvp_h5_fail(err, path, "replace attribute", name);
    attr = H5Acreate_by_name(loc, obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0)
        return zvp_h5_fail(err, path, "create attribute", name);
    if (H5Awrite(attr, type, buf) < 0) {
        int rc = zvp_h5_fail(err, path, "write attribute", name); /* before H5Aclose */
        H5Aclose(attr);
        return rc;
    }
    if (H5Aclose(attr) < 0)
        return zvp_h5_fail(err, path, "close attribute", name);
    return ZVP_SUCCESS;
}

int zvp_h5_attr_string(hid_t loc, const char *obj, const char *name, const char *value,
                       const char *path, zvp_error *err)
{
    const char *v = value ? value : "";
    hid_t type = H5I_INVALID_HID, space = H5I_INVALID_HID;
    int rc;
    type = H5Tcopy(H5T_C_S1);
    if (type < 0 || H5Tset_size(type, H5T_VARIABLE) < 0 || H5Tset_cset(type, H5T_CSET_UTF8) < 0 ||
        (space = H5Screate(H5S_SCALAR)) < 0) {
        rc = zvp_h5_fail(err, path, "make the string type of attribute", name);
    } else {
        rc = zvp_h5_attr_write(loc, obj, name, type, space, &v, path, err);
    }
    if (space >= 0 && H5Sclose(space) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, path, "close the dataspace of attribute", name);
    if (type >= 0 && H5Tclose(type) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, path, "close the string type of attribute", name);
    return rc;
}

int zvp_h5_attr_double(hid_t loc, const char *obj, const char *name, const double *values,
                       size_t n, const char *path, zvp_error *err)
{
    hsize_t dim = (hsize_t)n;
    hid_t space = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dim, NULL);
    int rc;
    if (space < 0)
        return zvp_h5_fail(err, path, "make the dataspace of attribute", name);
    rc = zvp_h5_attr_write(loc, obj, name, H5T_NATIVE_DOUBLE, space, values, path, err);
    if (H5Sclose(space) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, path, "close the dataspace of attribute", name);
    return rc;
}

int zvp_h5_dataset_double(hid_t loc, const char *name, int rank, const hsize_t *dims,
                          const double *data, const char *units, const char *description,
                          const char *path, zvp_error *err)
{
    int rc;
    if (H5LTmake_dataset_double(loc, name, rank, dims, data) < 0)
        return zvp_h5_fail(err, path, "write float64 dataset", name);
    rc = zvp_h5_attr_string(loc, name, "units", units ? units : "1", path, err);
    if (rc == ZVP_SUCCESS && description)
        rc = zvp_h5_attr_string(loc, name, "description", description, path, err);
    return rc;
}

int zvp_h5_iso8601_now(char *buf, size_t size, zvp_error *err)
{
    struct tm tm;
    time_t t = time(NULL);
    if (t == (time_t)-1 || !gmtime_r(&t, &tm) ||
        strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        return zvp_fail(err, ZVP_EIO, "cannot read the UTC clock for the `created` attribute");
    return ZVP_SUCCESS;
}

/* ---- appended for the calibration report (src/fit/report_h5.c) ---- */

int zvp_h5_attr_strings(hid_t loc, const char *obj, const char *name, const char *const *values,
                        size_t n, const char *path, zvp_error *err)
{
    hsize_t dim = (hsize_t)n;
    hid_t type = H5I_INVALID_HID, space = H5I_INVALID_HID;
    int rc;
    type = H5Tcopy(H5T_C_S1);
    if (type < 0 || H5Tset_size(type, H5T_VARIABLE) < 0 || H5Tset_cset(type, H5T_CSET_UTF8) < 0 ||
        (space = H5Screate_simple(1, &dim, NULL)) < 0) {
        rc = zvp_h5_fail(err, path, "make the string type of attribute", name);
    } else {
        rc = zvp_h5_attr_write(loc, obj, name, type, space, values, path, err);
    }
    if (space >= 0 && H5Sclose(space) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, path, "close the dataspace of attribute", name);
    if (type >= 0 && H5Tclose(type) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, path, "close the string type of attribute", name);
    return rc;
}

int zvp_h5_dataset_double_units(hid_t loc, const char *name, int rank, const hsize_t *dims,
                                const double *data, const char *const *units, size_t n_units,
                                const char *description, const char *path, zvp_error *err)
{
    int rc;
    if (H5LTmake_dataset_double(loc, name, rank, dims, data) < 0)
        return zvp_h5_fail(err, path, "write float64 dataset", name);
    rc = zvp_h5_attr_strings(loc, name, "units", units, n_units, path, err);
    if (rc == ZVP_SUCCESS && description)
        rc = zvp_h5_attr_string(loc, name, "description", description, path, err);
    return rc;
}
