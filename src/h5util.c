/* src/h5util.c - small private HDF5 helpers (see h5util.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
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
        const char *sys = strstr(e->desc, "error message = '");
        if (sys) { /* a system call failed: its message, not HDF5's dump of the call */
            sys += strlen("error message = '");
            snprintf(detail, 160, "%.*s", (int)strcspn(sys, "'"), sys);
        } else {
            snprintf(detail, 160, "%.*s", (int)strcspn(e->desc, "\n"), e->desc);
        }
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

/* Attribute `name` of variable-length UTF-8 strings values[n]: a scalar (n = 1) when
 * `scalar`, else a 1-D array. */
static int attr_utf8(hid_t loc, const char *obj, const char *name, const char *const *values,
                     size_t n, int scalar, const char *path, zvp_error *err)
{
    hsize_t dim = (hsize_t)n;
    hid_t type = H5I_INVALID_HID, space = H5I_INVALID_HID;
    int rc;
    type = H5Tcopy(H5T_C_S1);
    if (type < 0 || H5Tset_size(type, H5T_VARIABLE) < 0 || H5Tset_cset(type, H5T_CSET_UTF8) < 0 ||
        (space = scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dim, NULL)) < 0) {
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

/* A float64 dataset with its "units" attribute (attr_utf8 of units[n_units], scalar or not)
 * and, when given, its "description". */
static int dataset_with_units(hid_t loc, const char *name, int rank, const hsize_t *dims,
                              const double *data, const char *const *units, size_t n_units,
                              int scalar, const char *description, const char *path,
                              zvp_error *err)
{
    int rc;
    if (H5LTmake_dataset_double(loc, name, rank, dims, data) < 0)
        return zvp_h5_fail(err, path, "write float64 dataset", name);
    rc = attr_utf8(loc, name, "units", units, n_units, scalar, path, err);
    if (rc == ZVP_SUCCESS && description)
        rc = zvp_h5_attr_string(loc, name, "description", description, path, err);
    return rc;
}

int zvp_h5_attr_string(hid_t loc, const char *obj, const char *name, const char *value,
                       const char *path, zvp_error *err)
{
    const char *v = value ? value : "";
    return attr_utf8(loc, obj, name, &v, 1, 1, path, err);
}

int zvp_h5_attr_double(hid_t loc, const char *obj, const char *name, const double *values,
                       size_t n, const char *path, zvp_error *err)
{
    return zvp_h5_attr_typed(loc, obj, name, H5T_NATIVE_DOUBLE, values, n, path, err);
}

int zvp_h5_dataset_double(hid_t loc, const char *name, int rank, const hsize_t *dims,
                          const double *data, const char *units, const char *description,
                          const char *path, zvp_error *err)
{
    const char *u = units ? units : "1";
    return dataset_with_units(loc, name, rank, dims, data, &u, 1, 1, description, path, err);
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
    return attr_utf8(loc, obj, name, values, n, 0, path, err);
}

int zvp_h5_dataset_double_units(hid_t loc, const char *name, int rank, const hsize_t *dims,
                                const double *data, const char *const *units, size_t n_units,
                                const char *description, const char *path, zvp_error *err)
{
    return dataset_with_units(loc, name, rank, dims, data, units, n_units, 0, description, path,
                              err);
}

/* ---- the guard driver: writes that cannot fail inside HDF5 ------------------------------
 *
 * HDF5 1.10 cannot survive a failed H5Fclose: when the final flush fails (disk full, file
 * size limit), the file's ID stays registered half-destroyed and the library crashes at the
 * next file operation or at exit. This driver is POSIX I/O like the default (sec2) one,
 * except that a failed write or truncate is recorded in the caller's zvp_h5_guard and then
 * every later write is discarded and reported as done: HDF5 never sees an I/O error, its
 * handles always close, and the caller turns the recorded error into ZVP_EIO and removes
 * the (temporary) file. The driver is registered for one file and unregistered after it. */

typedef struct guard_file {
    H5FD_t pub; /* first: HDF5 sees this part */
    int fd;
    haddr_t eoa, eof;
    zvp_h5_guard *guard;
    dev_t dev;
    ino_t ino;
} guard_file;

typedef struct guard_info {
    zvp_h5_guard *guard;
} guard_info;

#define GUARD_MAXADDR ((haddr_t)(((unsigned long long)1 << 62) - 1))

static void guard_record(guard_file *g, int e)
{
    if (!g->guard->io_errno)
        g->guard->io_errno = e ? e : EIO;
}

static H5FD_t *guard_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr)
{
    const guard_info *info = H5Pget_driver_info(fapl);
    int oflags = (flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY;
    struct stat st;
    (void)maxaddr;
    if (!info || !info->guard)
        return NULL;
    if (flags & H5F_ACC_TRUNC)
        oflags |= O_TRUNC;
    if (flags & H5F_ACC_CREAT)
        oflags |= O_CREAT;
    if (flags & H5F_ACC_EXCL)
        oflags |= O_EXCL;
    guard_file *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->fd = open(name, oflags, 0666);
    if (g->fd < 0 || fstat(g->fd, &st) != 0) {
        if (g->fd >= 0)
            close(g->fd);
        free(g);
        return NULL;
    }
    g->eof = (haddr_t)st.st_size;
    g->dev = st.st_dev;
    g->ino = st.st_ino;
    g->guard = info->guard;
    return &g->pub;
}

static herr_t guard_close(H5FD_t *file)
{
    guard_file *g = (guard_file *)file;
    if (close(g->fd) != 0)
        guard_record(g, errno);
    free(g);
    return 0;
}

static int guard_cmp(const H5FD_t *a, const H5FD_t *b)
{
    const guard_file *x = (const guard_file *)a, *y = (const guard_file *)b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    return x->ino == y->ino ? 0 : x->ino < y->ino ? -1 : 1;
}

static herr_t guard_query(const H5FD_t *file, unsigned long *flags)
{
    (void)file;
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA |
             H5FD_FEAT_DATA_SIEVE | H5FD_FEAT_AGGREGATE_SMALLDATA;
    return 0;
}

static haddr_t guard_get_eoa(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const guard_file *)file)->eoa;
}

static herr_t guard_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr)
{
    (void)type;
    ((guard_file *)file)->eoa = addr;
    return 0;
}

static haddr_t guard_get_eof(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const guard_file *)file)->eof;
}

static herr_t guard_get_handle(H5FD_t *file, hid_t fapl, void **handle)
{
    (void)fapl;
    *handle = &((guard_file *)file)->fd;
    return 0;
}

/* Read what is there; zeros past the end of the file. */
static herr_t guard_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                         void *buf)
{
    guard_file *g = (guard_file *)file;
    unsigned char *p = buf;
    (void)type;
    (void)dxpl;
    while (size > 0) {
        ssize_t n = pread(g->fd, p, size, (off_t)addr);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            memset(p, 0, size);
            break;
        }
        p += n;
        addr += (haddr_t)n;
        size -= (size_t)n;
    }
    return 0;
}

/* Write; after the first failure, record it and discard (see above). */
static herr_t guard_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                          const void *buf)
{
    guard_file *g = (guard_file *)file;
    const unsigned char *p = buf;
    haddr_t end = addr + size;
    (void)type;
    (void)dxpl;
    while (size > 0 && !g->guard->io_errno) {
        ssize_t n = pwrite(g->fd, p, size, (off_t)addr);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            guard_record(g, n < 0 ? errno : ENOSPC);
            break;
        }
        p += n;
        addr += (haddr_t)n;
        size -= (size_t)n;
    }
    if (end > g->eof)
        g->eof = end;
    return 0;
}

static herr_t guard_truncate(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    guard_file *g = (guard_file *)file;
    (void)dxpl;
    (void)closing;
    if (g->eoa != g->eof && !g->guard->io_errno && ftruncate(g->fd, (off_t)g->eoa) != 0)
        guard_record(g, errno);
    g->eof = g->eoa;
    return 0;
}

/* H5Fflush reaches here: make what was written durable (a sweep flushes after each block). */
static herr_t guard_flush(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    guard_file *g = (guard_file *)file;
    (void)dxpl;
    if (!closing && !g->guard->io_errno && fsync(g->fd) != 0)
        guard_record(g, errno);
    return 0;
}

static const H5FD_class_t guard_class = {
#ifdef H5FD_CLASS_VERSION /* HDF5 1.14 and later */
    .version = H5FD_CLASS_VERSION,
    .value = (H5FD_class_value_t)(H5_VFD_RESERVED + 77),
#endif
    .name = "zvmperf_guard",
    .maxaddr = GUARD_MAXADDR,
    .fc_degree = H5F_CLOSE_WEAK,
    .fapl_size = sizeof(guard_info),
    .open = guard_open,
    .close = guard_close,
    .cmp = guard_cmp,
    .query = guard_query,
    .get_eoa = guard_get_eoa,
    .set_eoa = guard_set_eoa,
    .get_eof = guard_get_eof,
    .get_handle = guard_get_handle,
    .read = guard_read,
    .write = guard_write,
    .truncate = guard_truncate,
    .flush = guard_flush,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

/* Open or create path through the guard driver (create: flags H5F_ACC_TRUNC, fcpl used). */
static hid_t zvp_h5_guarded(zvp_h5_guard *g, const char *path, int create, unsigned flags,
                            hid_t fcpl, hid_t fapl)
{
    guard_info info;
    hid_t own, f = H5I_INVALID_HID;
    g->io_errno = 0;
    g->driver = H5FDregister(&guard_class);
    if (g->driver < 0)
        return H5I_INVALID_HID;
    own = fapl == H5P_DEFAULT ? H5Pcreate(H5P_FILE_ACCESS) : H5Pcopy(fapl);
    info.guard = g;
    if (own >= 0 && H5Pset_driver(own, g->driver, &info) >= 0)
        f = create ? H5Fcreate(path, flags, fcpl, own) : H5Fopen(path, flags, own);
    if (own >= 0)
        H5Pclose(own);
    if (f < 0) {
        H5FDunregister(g->driver);
        g->driver = H5I_INVALID_HID;
    }
    return f;
}

hid_t zvp_h5_create(zvp_h5_guard *g, const char *path, hid_t fapl)
{
    return zvp_h5_guarded(g, path, 1, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
}

hid_t zvp_h5_create_fcpl(zvp_h5_guard *g, const char *path, hid_t fcpl, hid_t fapl)
{
    return zvp_h5_guarded(g, path, 1, H5F_ACC_TRUNC, fcpl, fapl);
}

hid_t zvp_h5_open_rdwr(zvp_h5_guard *g, const char *path, hid_t fapl)
{
    return zvp_h5_guarded(g, path, 0, H5F_ACC_RDWR, H5P_DEFAULT, fapl);
}

int zvp_h5_check(const zvp_h5_guard *g, const char *path, zvp_error *err)
{
    if (!g->io_errno)
        return ZVP_SUCCESS;
    return zvp_fail(err, ZVP_EIO, "HDF5: cannot write '%s': %s (disk full or file size "
                    "limit?); '%s' is left as it was", path, strerror(g->io_errno), path);
}

int zvp_h5_close(zvp_h5_guard *g, hid_t file, int rc, const char *path, zvp_error *err)
{
    if (file >= 0 && H5Fclose(file) < 0 && rc == ZVP_SUCCESS && !g->io_errno)
        rc = zvp_h5_fail(err, path, "close (flush) file", path);
    if (g->driver >= 0)
        H5FDunregister(g->driver);
    g->driver = H5I_INVALID_HID;
    if (g->io_errno) /* the reason behind any HDF5 error that followed it */
        rc = zvp_h5_check(g, path, err);
    return rc;
}

/* ---- appended for the sweep file, layout 2 (src/sweep/h5write.c) ---- */

int zvp_h5_attr_typed(hid_t loc, const char *obj, const char *name, hid_t type,
                      const void *values, size_t n, const char *path, zvp_error *err)
{
    hsize_t dim = (hsize_t)n;
    hid_t space = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dim, NULL);
    int rc;
    if (space < 0)
        return zvp_h5_fail(err, path, "make the dataspace of attribute", name);
    rc = zvp_h5_attr_write(loc, obj, name, type, space, values, path, err);
    if (H5Sclose(space) < 0 && rc == ZVP_SUCCESS)
        rc = zvp_h5_fail(err, path, "close the dataspace of attribute", name);
    return rc;
}

int zvp_h5_attr_get(hid_t loc, const char *obj, const char *name, hid_t type, void *values,
                    size_t n)
{
    hid_t attr = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT), space;
    hssize_t np;
    int rc = -1;
    if (attr < 0)
        return -1;
    space = H5Aget_space(attr);
    np = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    if (np == (hssize_t)n && H5Aread(attr, type, values) >= 0)
        rc = 0;
    if (space >= 0)
        H5Sclose(space);
    H5Aclose(attr);
    return rc;
}

char *zvp_h5_attr_get_string(hid_t loc, const char *obj, const char *name)
{
    hid_t attr = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    hid_t ftype = H5I_INVALID_HID, mtype = H5I_INVALID_HID;
    char *out = NULL;
    if (attr < 0)
        return NULL;
    ftype = H5Aget_type(attr);
    if (ftype >= 0 && H5Tget_class(ftype) == H5T_STRING && H5Tis_variable_str(ftype) > 0 &&
        (mtype = H5Tcopy(H5T_C_S1)) >= 0 && H5Tset_size(mtype, H5T_VARIABLE) >= 0 &&
        H5Tset_cset(mtype, H5Tget_cset(ftype)) >= 0) {
        char *v = NULL;
        if (H5Aread(attr, mtype, &v) >= 0 && v) {
            size_t len = strlen(v);
            out = malloc(len + 1);
            if (out)
                memcpy(out, v, len + 1);
            H5free_memory(v);
        }
    }
    if (mtype >= 0)
        H5Tclose(mtype);
    if (ftype >= 0)
        H5Tclose(ftype);
    H5Aclose(attr);
    return out;
}
