/*
 * src/sweep/resume.c - what --resume relies on: the check that a partial sweep file was
 * written for the same sweep (model, axes, fixed parameters, model-file text, interval
 * options), and the lock
 * that keeps two sweeps from writing one partial file. src/sweep/README.md, "Partial
 * files, resume and the lock".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "h5util.h"
#include "internal.h"
#include "sweep/sweep_impl.h"
#include "zvmperf/interval.h"

/* A string attribute of the root equals `want`; else ZVP_EINVAL naming it. */
static int zvp_resume_string(zvp_sweep_file *f, const char *name, const char *want,
                             const char *what, zvp_error *err)
{
    char *have = zvp_h5_attr_get_string(f->h5, "/", name);
    int rc = ZVP_SUCCESS;
    if (!have) {
        f->unreadable = 1;
        return zvp_fail(err, ZVP_EIO, "resume: the partial file '%s' has no readable "
                        "attribute '%s'", f->file, name);
    }
    if (strcmp(have, want) != 0)
        rc = zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' differs from this "
                      "sweep: %s is '%.120s' there, '%.120s' here (run without --resume to "
                      "start again)", f->file, what, have, want);
    free(have);
    return rc;
}

/* The coordinate variable of axis k holds exactly the values of the plan, bit for bit. */
static int zvp_resume_axis(zvp_sweep_file *f, const zvp_sweep_plan *pl, size_t k,
                           zvp_error *err)
{
    const char *name = pl->m->params[pl->param[k]].name;
    hid_t ds = H5Dopen2(f->h5, name, H5P_DEFAULT), sp;
    hssize_t n;
    double *v;
    uint64_t i;
    int rc = ZVP_SUCCESS;
    if (ds < 0) {
        f->unreadable = 1;
        return zvp_h5_fail(err, f->path, "open coordinate variable", name);
    }
    f->axis[k] = ds;
    sp = H5Dget_space(ds);
    n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (n != (hssize_t)pl->dims[k])
        return zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' differs from this "
                        "sweep: axis '%s' has %lld values there, %llu here", f->file, name,
                        (long long)n, (unsigned long long)pl->dims[k]);
    v = malloc((size_t)n * sizeof *v);
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "resume: out of memory");
    if (H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0) {
        f->unreadable = 1;
        rc = zvp_h5_fail(err, f->path, "read coordinate variable", name);
    }
    for (i = 0; rc == ZVP_SUCCESS && i < pl->dims[k]; i++)
        if (memcmp(&v[i], &pl->values[k][i], sizeof *v) != 0)
            rc = zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' differs from this "
                          "sweep: axis '%s' value %llu is %.17g there, %.17g here", f->file,
                          name, (unsigned long long)i, v[i], pl->values[k][i]);
    free(v);
    return rc;
}

/* Every fixed parameter has the same value (bit for bit) in /parameters. */
static int zvp_resume_params(zvp_sweep_file *f, const zvp_sweep_plan *pl, const double *fixed,
                             zvp_error *err)
{
    const zvp_model *m = pl->m;
    size_t i, k;
    for (i = 0; i < m->n_params; i++) {
        double have;
        int swept = 0;
        for (k = 0; k < pl->n_axes; k++)
            swept |= pl->param[k] == i;
        if (swept)
            continue;
        if (zvp_h5_attr_get(f->h5, "parameters", m->params[i].name, H5T_NATIVE_DOUBLE, &have,
                            1) != 0)
            return zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' differs from this "
                            "sweep: it has no fixed parameter '%s'", f->file, m->params[i].name);
        if (memcmp(&have, &fixed[i], sizeof have) != 0)
            return zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' differs from this "
                            "sweep: fixed parameter %s = %.17g there, %.17g here (unit %s)",
                            f->file, m->params[i].name, have, fixed[i], m->params[i].unit);
    }
    return ZVP_SUCCESS;
}

void zvp_sweep_interval_text(const zvp_interval_options *o, char *text, size_t cap)
{
    size_t used;
    snprintf(text, cap, "%g%% %s interval, %s%s", 100.0 * o->level,
             o->prediction ? "prediction" : "confidence",
             o->method == ZVP_INTERVAL_MC ? "Monte Carlo" : "delta method",
             o->method == ZVP_INTERVAL_MC ? "" : " (Student t, effective dof of the fit)");
    used = strlen(text);
    if (o->method == ZVP_INTERVAL_MC)
        used += (size_t)snprintf(text + used, cap - used, " (%zu draws, seed %llu)", o->samples,
                                 (unsigned long long)o->seed);
    for (size_t i = 0; i < o->n_ranges && used < cap; i++)
        used += (size_t)snprintf(text + used, cap - used, "%s %s=%.17g..%.17g",
                                 i ? "," : "; ranges", o->ranges[i].name, o->ranges[i].lo,
                                 o->ranges[i].hi);
}

/* The interval options of this sweep (none, or which: the root attribute `interval`) are
 * those the partial file was written with. */
static int zvp_resume_interval(zvp_sweep_file *f, const zvp_sweep_plan *pl, zvp_error *err)
{
    char want[1024];
    htri_t has = H5Aexists_by_name(f->h5, "/", "interval", H5P_DEFAULT);
    if (has < 0) {
        f->unreadable = 1;
        return zvp_fail(err, ZVP_EIO, "resume: cannot read the attributes of the partial file "
                        "'%s'", f->file);
    }
    if (!pl->interval && !has)
        return ZVP_SUCCESS;
    if (!pl->interval || !has)
        return zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' differs from this "
                        "sweep: it was written %s --interval, this sweep runs %s it (run "
                        "without --resume to start again)", f->file, has ? "with" : "without",
                        pl->interval ? "with" : "without");
    zvp_sweep_interval_text(pl->interval, want, sizeof want);
    return zvp_resume_string(f, "interval", want, "the interval (--interval, --method, "
                             "--samples, --seed, --confidence)", err);
}

int zvp_sweep_check_partial(zvp_sweep_file *f, const zvp_model_file *mf,
                            const zvp_sweep_plan *pl, const double *fixed, zvp_error *err)
{
    const zvp_model *m = pl->m;
    const char *text = zvp_model_file_text(mf);
    int32_t version = 0;
    uint64_t total = 0;
    char axes[ZVP_SWEEP_MAX_AXES * 130];
    size_t k, used = 0;
    int rc;
    if (zvp_h5_attr_get(f->h5, "/", "sweep_layout_version", H5T_NATIVE_INT32, &version, 1) ||
        zvp_h5_attr_get(f->h5, "/", "points_total", H5T_NATIVE_UINT64, &total, 1)) {
        f->unreadable = 1;
        return zvp_fail(err, ZVP_EIO, "resume: '%s' is not a zvmperf sweep file of layout "
                        "version %d", f->file, ZVP_SWEEP_LAYOUT_VERSION);
    }
    if (version != ZVP_SWEEP_LAYOUT_VERSION)
        return zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' has layout version %d, "
                        "this zvmperf writes %d (run without --resume to start again)", f->file,
                        (int)version, ZVP_SWEEP_LAYOUT_VERSION);
    axes[0] = '\0';
    for (k = 0; k < pl->n_axes; k++)
        used += (size_t)snprintf(axes + used, sizeof axes - used, "%s%s", k ? "," : "",
                                 m->params[pl->param[k]].name);
    if ((rc = zvp_resume_string(f, "model", m->name, "the model", err)) ||
        (rc = zvp_resume_string(f, "axes", axes, "the list of axes", err)))
        return rc;
    for (k = 0; k < pl->n_axes; k++)
        if ((rc = zvp_resume_axis(f, pl, k, err)))
            return rc;
    if (total != pl->points)
        return zvp_fail(err, ZVP_EINVAL, "resume: the partial file '%s' differs from this "
                        "sweep: points_total is %llu there, %llu here", f->file,
                        (unsigned long long)total, (unsigned long long)pl->points);
    if ((rc = zvp_resume_params(f, pl, fixed, err)) || (rc = zvp_resume_interval(f, pl, err)))
        return rc;
    return zvp_resume_string(f, "model_file", text ? text : "", "the model-file text", err);
}

int zvp_sweep_lock(const char *lockpath, const char *partial, int *fd, zvp_error *err)
{
    int tries;
    *fd = -1;
    /* the holder removes the lock file when done: lock, then check that the file locked is
     * still the one at lockpath (else it was removed meanwhile: try again) */
    for (tries = 0; tries < 100; tries++) {
        struct stat a, b;
        int d = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (d < 0)
            return zvp_fail(err, ZVP_EIO, "sweep: cannot create the lock file '%s': %s",
                            lockpath, strerror(errno));
        if (flock(d, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(d);
            if (e == EWOULDBLOCK)
                return zvp_fail(err, ZVP_EIO, "sweep: another sweep is writing '%s' (it holds "
                                "the lock '%s'); wait for it to end or stop it", partial,
                                lockpath);
            return zvp_fail(err, ZVP_EIO, "sweep: cannot lock '%s': %s", lockpath,
                            strerror(e));
        }
        if (fstat(d, &a) == 0 && stat(lockpath, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            *fd = d;
            return ZVP_SUCCESS;
        }
        close(d);
    }
    return zvp_fail(err, ZVP_EIO, "sweep: cannot lock '%s' (it keeps being replaced)",
                    lockpath);
}

void zvp_sweep_unlock(const char *lockpath, int fd)
{
    if (fd < 0)
        return;
    unlink(lockpath);
    close(fd);
}
