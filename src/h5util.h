/*
 * src/h5util.h - small private HDF5 helpers shared by the engines that write HDF5
 * (sweeps, calibration reports). Not installed.
 *
 * Conventions: every helper takes the file path (only for messages) and a zvp_error; an
 * HDF5 failure (herr_t < 0 or hid_t < 0) becomes ZVP_EIO with a message that names the
 * file, the object and, when HDF5 recorded one, the innermost HDF5 error description.
 * Helpers close every handle they open, on every path. Call them from one thread only
 * (the default HDF5 build is not thread-safe).
 */
#ifndef ZVMPERF_H5UTIL_H
#define ZVMPERF_H5UTIL_H

#include <stddef.h>
#include <hdf5.h>
#include "zvmperf/status.h"

/* HDF5's automatic error printing, saved by zvp_h5_quiet_begin and restored by
 * zvp_h5_quiet_end (caller-owned, on the stack). */
typedef struct zvp_h5_quiet {
    H5E_auto2_t func;
    void *client_data;
    int saved;
} zvp_h5_quiet;

/** zvp_h5_quiet_begin - switch HDF5's automatic error printing off (saving the current
 *  handler in q); zvp_h5_quiet_end restores it. The library never prints. */
void zvp_h5_quiet_begin(zvp_h5_quiet *q);
void zvp_h5_quiet_end(const zvp_h5_quiet *q);

/**
 * zvp_h5_fail - record ZVP_EIO: "HDF5: cannot <what> '<object>' in '<path>' (<detail>)"
 * ("HDF5: cannot <what> '<path>' (<detail>)" when object is the path itself), where detail
 * is the innermost message on HDF5's default error stack, if any. Call it right after the
 * failing HDF5 call: any later HDF5 call (even a close) clears that stack.
 * @return ZVP_EIO.
 */
int zvp_h5_fail(zvp_error *err, const char *path, const char *what, const char *object);

/**
 * zvp_h5_attr_string - set (create or replace) a scalar string attribute `name` on the
 * object `obj` (path relative to loc, "." for loc itself): variable-length, UTF-8, as
 * h5py writes Python str (h5py reads it back as str). value NULL is written as "".
 * @return ZVP_SUCCESS or ZVP_EIO.
 */
int zvp_h5_attr_string(hid_t loc, const char *obj, const char *name, const char *value,
                       const char *path, zvp_error *err);

/**
 * zvp_h5_attr_double - set (create or replace) a float64 attribute of n values (n >= 1)
 * on `obj`; n == 1 gives a scalar attribute (h5py: numpy.float64), n > 1 a 1-D one.
 * @return ZVP_SUCCESS or ZVP_EIO.
 */
int zvp_h5_attr_double(hid_t loc, const char *obj, const char *name, const double *values,
                       size_t n, const char *path, zvp_error *err);

/**
 * zvp_h5_dataset_double - write a contiguous float64 dataset `name` under loc, of rank
 * `rank` and shape dims[rank] (row-major data), with the string attributes `units` and,
 * when description is not NULL, `description`.
 * @return ZVP_SUCCESS or ZVP_EIO.
 */
int zvp_h5_dataset_double(hid_t loc, const char *name, int rank, const hsize_t *dims,
                          const double *data, const char *units, const char *description,
                          const char *path, zvp_error *err);

/**
 * zvp_h5_iso8601_now - current UTC time as "YYYY-MM-DDTHH:MM:SSZ" in buf (>= 21 bytes).
 * @return ZVP_SUCCESS or ZVP_EIO (clock unavailable).
 */
int zvp_h5_iso8601_now(char *buf, size_t size, zvp_error *err);

/* ---- appended for the calibration report (src/fit/report_h5.c) ---- */

/**
 * zvp_h5_attr_strings - set (create or replace) a 1-D attribute of n variable-length UTF-8
 * strings on `obj` (h5py reads a numpy array of str); no entry may be NULL.
 * @return ZVP_SUCCESS or ZVP_EIO.
 */
int zvp_h5_attr_strings(hid_t loc, const char *obj, const char *name, const char *const *values,
                        size_t n, const char *path, zvp_error *err);

/**
 * zvp_h5_dataset_double_units - as zvp_h5_dataset_double, with `units` a 1-D string
 * attribute of n_units entries (one unit per column or element).
 * @return ZVP_SUCCESS or ZVP_EIO.
 */
int zvp_h5_dataset_double_units(hid_t loc, const char *name, int rank, const hsize_t *dims,
                                const double *data, const char *const *units, size_t n_units,
                                const char *description, const char *path, zvp_error *err);

/* ---- files written through the guard driver (h5util.c): HDF5 never sees an I/O error, so
 * every handle closes even when the disk is full; the first I/O error is kept here. */
typedef struct zvp_h5_guard {
    hid_t driver; /* the driver registered for this file */
    int io_errno; /* first failed write or truncate, 0 = none */
} zvp_h5_guard;

/**
 * zvp_h5_create - H5Fcreate(path, H5F_ACC_TRUNC) with fapl's properties (H5P_DEFAULT or a
 * file access list, not modified) and the guard driver recording into g (caller-owned; it
 * must stay at this address until zvp_h5_close). @return the file, or < 0 (no file, g
 * released; call zvp_h5_fail next).
 */
hid_t zvp_h5_create(zvp_h5_guard *g, const char *path, hid_t fapl);

/** zvp_h5_create_fcpl - as zvp_h5_create with a file creation list fcpl (not modified).
 *  zvp_h5_open_rdwr - H5Fopen(path, H5F_ACC_RDWR) through the guard driver, likewise (a
 *  file that is missing or that HDF5 cannot read gives < 0). The guard driver fsyncs the
 *  file on every H5Fflush. */
hid_t zvp_h5_create_fcpl(zvp_h5_guard *g, const char *path, hid_t fcpl, hid_t fapl);
hid_t zvp_h5_open_rdwr(zvp_h5_guard *g, const char *path, hid_t fapl);

/** zvp_h5_check - ZVP_EIO naming path and the system's reason when a write failed so far,
 *  else ZVP_SUCCESS. Call it after each large write to stop early. */
int zvp_h5_check(const zvp_h5_guard *g, const char *path, zvp_error *err);

/**
 * zvp_h5_close - close a file made by zvp_h5_create (its objects must be closed) and
 * release g. @return rc when it reports an error and no write failed; ZVP_EIO from a
 * failed write (that is the reason, whatever HDF5 said after it) or from the close;
 * else ZVP_SUCCESS.
 */
int zvp_h5_close(zvp_h5_guard *g, hid_t file, int rc, const char *path, zvp_error *err);

/* ---- appended for the sweep file, layout 2 (src/sweep/h5write.c) ---- */

/** zvp_h5_attr_typed - set (create or replace) an attribute of n values (n >= 1) of the
 *  native type `type` (H5T_NATIVE_INT32, _UINT64, _UINT8, ...) on obj: scalar when n == 1,
 *  else 1-D. @return ZVP_SUCCESS or ZVP_EIO. */
int zvp_h5_attr_typed(hid_t loc, const char *obj, const char *name, hid_t type,
                      const void *values, size_t n, const char *path, zvp_error *err);

/** zvp_h5_attr_get - read attribute `name` of obj, which must hold exactly n values, as the
 *  native type `type` into values[n]. @return 0, or -1 (missing, other size, unreadable). */
int zvp_h5_attr_get(hid_t loc, const char *obj, const char *name, hid_t type, void *values,
                    size_t n);

/** zvp_h5_attr_get_string - a variable-length string attribute of obj, malloc'ed (free()),
 *  or NULL (missing, another type, out of memory). */
char *zvp_h5_attr_get_string(hid_t loc, const char *obj, const char *name);

#endif
