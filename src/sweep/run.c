/*
 * src/sweep/run.c - zvp_sweep_run: a grid evaluated block by block with zvp_eval_grid (in
 * parallel, into buffers) and written by the file layer (h5write.c) from the calling thread,
 * into OUT.partial, flushed after each block and renamed to OUT when complete; resumable,
 * locked, with a progress callback that can cancel. src/sweep/README.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "h5util.h"
#include "util/atomic.h"
#include "internal.h"
#include "sweep/sweep_impl.h"
#include "zvmperf/interval.h"

void zvp_sweep_options_init(zvp_sweep_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->threads = 0;
    opt->reserved = 0;
    opt->block_points = ZVP_SWEEP_DEFAULT_BLOCK;
    opt->command = NULL;
    opt->progress = NULL;
    opt->progress_user = NULL;
    opt->resume = 0;
    opt->interval = NULL;
}

static double zvp_sweep_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Evaluate the point at flat index `flat` again, serially: its axis values as text in
 * where[] and the model's message in *e; returns the model's status. */
static int zvp_sweep_describe_point(const zvp_sweep_plan *pl, const double *fixed, uint64_t flat,
                                    char *where, size_t cap, zvp_error *e)
{
    const zvp_model *m = pl->m;
    size_t k, used = 0;
    uint64_t rest = flat;
    int rc;
    double *params = malloc((m->n_params + m->n_outputs + 1) * sizeof *params);
    where[0] = '\0';
    zvp_error_clear(e);
    if (!params)
        return zvp_fail(e, ZVP_ENOMEM, "out of memory");
    memcpy(params, fixed, m->n_params * sizeof *params);
    for (k = pl->n_axes; k-- > 0;) {
        params[pl->param[k]] = pl->values[k][rest % pl->dims[k]];
        rest /= pl->dims[k];
    }
    rc = zvp_model_eval(m, params, params + m->n_params, e);
    for (k = 0; k < pl->n_axes && used + 1 < cap; k++) {
        int w = snprintf(where + used, cap - used, "%s%s = %.17g", k ? ", " : "",
                         m->params[pl->param[k]].name, params[pl->param[k]]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    free(params);
    return rc;
}

/* The first failed point of a block (flat index `flat`): evaluate it again, serially, for
 * the message that names it (flat index and axis values). */
int zvp_sweep_point_error(const zvp_sweep_plan *pl, const double *fixed, uint64_t flat,
                          zvp_error *err)
{
    char where[256];
    zvp_error e;
    int rc = zvp_sweep_describe_point(pl, fixed, flat, where, sizeof where, &e);
    if (rc == ZVP_SUCCESS || rc == ZVP_EUNSTABLE || rc == ZVP_EINVAL) /* not reproducible */
        rc = ZVP_EINVAL;
    return zvp_fail(err, rc, "sweep of model '%s' stopped at point %llu (%s): %s", pl->m->name,
                    (unsigned long long)flat, where, e.message[0] ? e.message : zvp_strerror(rc));
}

int zvp_sweep_all_invalid(const zvp_sweep_plan *pl, const double *fixed, const char *path,
                          zvp_error *err)
{
    char where[256];
    zvp_error e;
    zvp_sweep_describe_point(pl, fixed, 0, where, sizeof where, &e);
    return zvp_fail(err, ZVP_EINVAL, "no point of the sweep is valid input: model '%s' refuses "
                    "all %llu points; the first, point 0 (%s): %s; %s is left as it was",
                    pl->m->name, (unsigned long long)pl->points, where,
                    e.message[0] ? e.message : "refused by the model", path);
}

/* Add status code c to the counts of sum: 1 for a point computed (codes 1..3), else 0. */
static int zvp_sweep_tally(uint8_t c, zvp_sweep_summary *sum)
{
    switch (c) {
    case ZVP_POINT_OK: sum->ok++; return 1;
    case ZVP_POINT_UNSTABLE: sum->unstable++; return 1;
    case ZVP_POINT_INVALID: sum->invalid++; return 1;
    default: return 0;
    }
}

/* The state of one run: plan, file, buffers, the blocks already done (resume). */
typedef struct zvp_sweep_run_state {
    const zvp_sweep_plan *pl;
    const zvp_axis *axes;
    const double *fixed;
    const zvp_model_file *mf;
    const zvp_sweep_options *opt;
    zvp_sweep_file *f;
    double *obuf;
    uint8_t *sbuf;
    double *tbuf;        /* one interval slice: [(3 * n_outputs + 1) * ZVP_SWEEP_SLICE_MAX]:
                          * value, lo, hi, then the share of draws (Monte Carlo) */
    uint8_t *tsb;        /* [ZVP_SWEEP_SLICE_MAX] (with intervals) */
    unsigned char *done; /* bit per block: complete in the partial file */
    unsigned char *part; /* bit per block: some points computed in the partial file */
    uint64_t n_blocks, done_points, slice, min_slice;
    int stopped;         /* *opt->stop was seen */
    zvp_sweep_summary *sum;
} zvp_sweep_run_state;

static int zvp_sweep_stop_asked(zvp_sweep_run_state *s)
{
    if (s->opt->stop && *s->opt->stop)
        s->stopped = 1;
    return s->stopped;
}

/* Resume bookkeeping: read the status of every block; the points at codes 1..3 are computed
 * (counted in the summary); a block without a point at 0 is done, a block with some is
 * partly done (a stop cut it short): only its points at 0 (or at a code above 3) are
 * computed again. */
static int zvp_sweep_scan(zvp_sweep_run_state *s, zvp_error *err)
{
    uint64_t b, start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES];
    for (b = 0; b < s->n_blocks; b++) {
        uint64_t f0 = zvp_sweep_block_start(s->pl, b), p, computed = 0;
        uint64_t npts = zvp_sweep_block(s->pl, f0, start, count);
        int rc = zvp_sweep_file_read_status(s->f, H5P_DEFAULT, start, count, npts, s->sbuf, err);
        if (rc)
            return rc;
        for (p = 0; p < npts; p++)
            computed += (uint64_t)zvp_sweep_tally(s->sbuf[p], s->sum);
        s->done_points += computed;
        if (computed == npts)
            s->done[b / 8] |= (unsigned char)(1u << (b % 8));
        else if (computed > 0)
            s->part[b / 8] |= (unsigned char)(1u << (b % 8));
    }
    return ZVP_SUCCESS;
}

static int zvp_sweep_cancel(const zvp_sweep_run_state *s, zvp_error *err)
{
    return zvp_fail(err, ZVP_ECANCELED, "sweep %s after %llu of %llu points; the partial "
                    "file '%s' keeps them: run the same sweep again with resume on "
                    "(zvmperf sweep ... --resume) to continue",
                    s->stopped ? "stopped" : "canceled", (unsigned long long)s->done_points,
                    (unsigned long long)s->pl->points, s->f->file);
}

/* The buffers of block b (npts points): a block partly done in a resumed file is read back
 * (a code above 3 becomes 0, to compute again); any other starts at status 0, outputs NaN. */
static int zvp_sweep_load(zvp_sweep_run_state *s, uint64_t b, const uint64_t *start,
                          const uint64_t *count, uint64_t npts, zvp_error *err)
{
    size_t groups = zvp_sweep_groups(s->pl), g;
    uint64_t p;
    int rc;
    if (!(s->part[b / 8] & (1u << (b % 8)))) {
        for (g = 0; g < groups * (size_t)npts; g++)
            s->obuf[g] = NAN;
        memset(s->sbuf, ZVP_POINT_NOT_COMPUTED, (size_t)npts);
        return ZVP_SUCCESS;
    }
    if ((rc = zvp_sweep_file_read_block(s->f, H5P_DEFAULT, start, count, npts, s->obuf, s->sbuf,
                                        err)))
        return rc;
    for (p = 0; p < npts; p++)
        if (s->sbuf[p] > ZVP_POINT_INVALID) {
            s->sbuf[p] = ZVP_POINT_NOT_COMPUTED;
            for (g = 0; g < groups; g++)
                s->obuf[g * (size_t)npts + p] = NAN;
        }
    return ZVP_SUCCESS;
}

/* Evaluate flat points [f0 + p, f0 + e) of the block (npts points): without intervals in
 * place, in the block buffers, with the stop flag read before each point; with intervals
 * into the slice buffers, copied into the block's. */
static int zvp_sweep_eval_run(zvp_sweep_run_state *s, uint64_t f0, uint64_t npts, uint64_t p,
                              uint64_t e, zvp_error *err)
{
    const zvp_sweep_plan *pl = s->pl;
    size_t len = (size_t)(e - p), nb = pl->m->n_outputs * len;
    int rc;
    if (!pl->interval) {
        return zvp_eval_grid_strided(pl->m, s->fixed, s->axes, pl->n_axes, f0 + p, e - p,
                                     s->obuf + p, (size_t)npts, s->sbuf + p,
                                     (int)s->opt->threads, s->opt->stop, err);
    }
    /* value, lo, hi blocks (src/interval), with Monte Carlo the share of draws without a
     * result after them; the stop is read between slices */
    const int share = zvp_sweep_has_share(pl);
    double *nores = share ? s->tbuf + 3 * nb : NULL;
    rc = zvp_interval_grid(s->mf, s->fixed, s->axes, pl->n_axes, f0 + p, e - p, pl->interval,
                           s->tbuf, s->tbuf + nb, s->tbuf + 2 * nb, nores, s->tsb, err);
    if (rc)
        return rc;
    for (size_t i = 0; share && i < len; i++) {
        /* the share of stable draws; a centre without a steady state keeps NaN bounds (the
         * status contract: NaN in OUT, OUT_lo, OUT_hi where status != 1) */
        nores[i] = s->tsb[i] == ZVP_POINT_OK || s->tsb[i] == ZVP_POINT_UNSTABLE
                       ? 1.0 - nores[i] : NAN;
        if (s->tsb[i] != ZVP_POINT_OK)
            for (size_t j = 0; j < pl->m->n_outputs; j++)
                s->tbuf[nb + j * len + i] = s->tbuf[2 * nb + j * len + i] = NAN;
    }
    for (size_t g = 0; g < zvp_sweep_groups(pl); g++)
        memcpy(s->obuf + g * (size_t)npts + p, s->tbuf + g * len, len * sizeof *s->obuf);
    memcpy(s->sbuf + p, s->tsb, len);
    return ZVP_SUCCESS;
}

/* Compute the points of the block at status 0, run by run. Without intervals a run is
 * evaluated whole (the stop flag is read before each point); with intervals in slices of
 * s->slice points sized by time (about 0.05 to 0.25 s each), the flag read between them.
 * *failed: the first point (index in the block) with another model status
 * (ZVP_POINT_FAILED, stored as 0), or UINT64_MAX; *computed: the points done. */
static int zvp_sweep_eval_block(zvp_sweep_run_state *s, uint64_t f0, uint64_t npts,
                                uint64_t *failed, uint64_t *computed, zvp_error *err)
{
    uint64_t p = 0, e, i, cap = s->pl->interval ? 0 : npts;
    *failed = UINT64_MAX;
    *computed = 0;
    while (p < npts) {
        double t0;
        int rc;
        while (p < npts && s->sbuf[p] != ZVP_POINT_NOT_COMPUTED)
            p++;
        if (p == npts || zvp_sweep_stop_asked(s))
            break;
        if (s->pl->interval)
            cap = s->slice;
        for (e = p + 1; e < npts && e - p < cap && s->sbuf[e] == ZVP_POINT_NOT_COMPUTED;)
            e++;
        t0 = zvp_sweep_now_s();
        if ((rc = zvp_sweep_eval_run(s, f0, npts, p, e, err)))
            return rc;
        for (i = p; i < e; i++) {
            if (s->sbuf[i] == ZVP_POINT_FAILED) { /* the sweep stops after this block */
                if (*failed == UINT64_MAX)
                    *failed = i;
                s->sbuf[i] = ZVP_POINT_NOT_COMPUTED;
            }
            *computed += (uint64_t)zvp_sweep_tally(s->sbuf[i], s->sum);
        }
        if (zvp_sweep_stop_asked(s))
            break; /* points of [p, e) may be left at 0: the block is not complete */
        t0 = zvp_sweep_now_s() - t0;
        if (!s->pl->interval)
            ;
        else if (t0 < 0.05 && s->slice < ZVP_SWEEP_SLICE_MAX)
            s->slice = s->slice * 2 < ZVP_SWEEP_SLICE_MAX ? s->slice * 2 : ZVP_SWEEP_SLICE_MAX;
        else if (t0 > 0.25 && s->slice / 2 >= s->min_slice)
            s->slice /= 2;
        p = e;
    }
    return ZVP_SUCCESS;
}

/* Evaluate and write every block not done yet, flushing after each. */
static int zvp_sweep_blocks(zvp_sweep_run_state *s, zvp_error *err)
{
    const zvp_sweep_plan *pl = s->pl;
    const zvp_sweep_options *opt = s->opt;
    uint64_t b, start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES];
    int rc = ZVP_SUCCESS;
    if (opt->progress && opt->progress(s->done_points, pl->points, opt->progress_user))
        return zvp_sweep_cancel(s, err);
    for (b = 0; rc == ZVP_SUCCESS && b < s->n_blocks; b++) {
        uint64_t f0 = zvp_sweep_block_start(pl, b), failed, computed;
        uint64_t npts = zvp_sweep_block(pl, f0, start, count);
        if (s->done[b / 8] & (1u << (b % 8)))
            continue;
        if ((rc = zvp_sweep_load(s, b, start, count, npts, err)) ||
            (rc = zvp_sweep_eval_block(s, f0, npts, &failed, &computed, err)))
            break;
        if (computed == 0 && s->stopped)
            return zvp_sweep_cancel(s, err); /* nothing new in this block: not written */
        rc = zvp_sweep_file_write_block(s->f, H5P_DEFAULT, start, count, npts, s->obuf, s->sbuf,
                                        err);
        if (rc == ZVP_SUCCESS)
            rc = zvp_sweep_file_flush(s->f, err);
        if (rc == ZVP_SUCCESS)
            s->done_points += computed;
        if (rc == ZVP_SUCCESS && failed != UINT64_MAX)
            rc = zvp_sweep_point_error(pl, s->fixed, f0 + failed, err);
        if (rc == ZVP_SUCCESS && opt->progress &&
            opt->progress(s->done_points, pl->points, opt->progress_user) &&
            s->done_points < pl->points)
            rc = zvp_sweep_cancel(s, err);
        if (rc == ZVP_SUCCESS && s->stopped && s->done_points < pl->points)
            rc = zvp_sweep_cancel(s, err);
    }
    return rc;
}

/* "<path><suffix>", malloc'ed. */
static char *zvp_sweep_path(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    char *p = malloc(n + m + 1);
    if (p) {
        memcpy(p, path, n);
        memcpy(p + n, suffix, m + 1);
    }
    return p;
}

static void zvp_sweep_say(zvp_sweep_notice_fn notice, void *user, const char *fmt,
                          const char *a, const char *b)
{
    char msg[3 * ZVP_ERRMSG_MAX];
    if (!notice)
        return;
    snprintf(msg, sizeof msg, fmt, a, b);
    notice(msg, user);
}

/* Open the partial file to resume it, or create it (replacing a stale or unreadable one,
 * saying so). *created = 1 when this run made the file. */
static int zvp_sweep_start(zvp_sweep_run_state *s, const zvp_model_file *mf,
                           zvp_sweep_notice_fn notice, void *user, zvp_error *err)
{
    struct stat st;
    zvp_error e;
    int exists = stat(s->f->file, &st) == 0, rc;
    if (s->opt->resume && exists) {
        zvp_error_clear(&e);
        rc = zvp_sweep_file_open(s->f, mf, s->pl, s->fixed, H5P_DEFAULT, &e);
        if (rc == ZVP_SUCCESS)
            rc = zvp_sweep_scan(s, &e);
        if (rc == ZVP_SUCCESS && notice) {
            char msg[ZVP_ERRMSG_MAX + 128];
            snprintf(msg, sizeof msg, "resuming '%s': %llu of %llu points are already computed",
                     s->f->file, (unsigned long long)s->done_points,
                     (unsigned long long)s->pl->points);
            notice(msg, user);
        }
        if (rc == ZVP_SUCCESS || !s->f->unreadable)
            return rc ? zvp_fail(err, rc, "%s", e.message) : rc;
        zvp_sweep_say(notice, user, "the partial file '%s' cannot be read (%s): it was cut by "
                      "a crash; starting the sweep again from the beginning", s->f->file,
                      e.message);
        zvp_sweep_file_close(s->f, ZVP_EIO, NULL);
        memset(s->done, 0, (size_t)(s->n_blocks / 8 + 1));
        memset(s->part, 0, (size_t)(s->n_blocks / 8 + 1));
        s->done_points = 0;
        s->sum->ok = s->sum->unstable = s->sum->invalid = 0;
    } else if (s->opt->resume) {
        zvp_sweep_say(notice, user, "no partial file '%s' to resume: starting the sweep from "
                      "the beginning%s", s->f->file, "");
    } else if (exists) {
        zvp_sweep_say(notice, user, "replacing the partial file '%s' of an earlier sweep (%s)",
                      s->f->file, "--resume would continue it");
    }
    return zvp_sweep_file_create(s->f, mf, s->pl, s->opt->command, NULL, s->fixed,
                                 H5P_DEFAULT, err);
}

/* Run the sweep into the locked partial file and rename it when complete. */
static int zvp_sweep_file_run(zvp_sweep_run_state *s, const zvp_model_file *mf,
                              const char *path, zvp_sweep_notice_fn notice, void *user,
                              zvp_error *err)
{
    zvp_h5_quiet quiet;
    zvp_atomic out;
    int rc;
    int none_valid = 0;
    zvp_h5_quiet_begin(&quiet);
    rc = zvp_sweep_start(s, mf, notice, user, err);
    if (rc == ZVP_SUCCESS)
        rc = zvp_sweep_blocks(s, err);
    if (rc == ZVP_SUCCESS && s->sum->invalid == s->pl->points) {
        none_valid = 1; /* nothing to keep: the partial file goes, `path` stays as it was */
        rc = zvp_sweep_all_invalid(s->pl, s->fixed, path, err);
    }
    if (rc == ZVP_SUCCESS)
        rc = zvp_sweep_file_finish(s->f, err);
    rc = zvp_sweep_file_close(s->f, rc, err);
    zvp_h5_quiet_end(&quiet);
    if (none_valid)
        remove(s->f->file);
    if (rc != ZVP_SUCCESS)
        return rc; /* the partial file stays (valid up to its last flush) */
    out.target = zvp_sweep_path(path, "");
    out.tmp = zvp_sweep_path(s->f->file, "");
    if (!out.target || !out.tmp) {
        free(out.target);
        free(out.tmp);
        return zvp_fail(err, ZVP_ENOMEM, "sweep: out of memory");
    }
    return zvp_atomic_commit(&out, err); /* fsync, rename over path, fsync the directory */
}

static int sweep_run_at(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                        const char *path, const zvp_sweep_options *opt,
                        zvp_sweep_summary *summary, zvp_sweep_notice_fn notice,
                        void *notice_user, zvp_error *err);

/* The output is written where `path` leads: a symbolic link's target (its .partial beside
 * it), so the rename replaces that file, not the link. */
int zvp_sweep_run_notify(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                         const char *path, const zvp_sweep_options *opt,
                         zvp_sweep_summary *summary, zvp_sweep_notice_fn notice,
                         void *notice_user, zvp_error *err)
{
    char *target = NULL;
    int rc;
    if (summary)
        memset(summary, 0, sizeof *summary);
    if (path && (rc = zvp_atomic_resolve(path, &target, err)) != ZVP_SUCCESS)
        return rc;
    rc = sweep_run_at(mf, axes, n_axes, target, opt, summary, notice, notice_user, err);
    free(target);
    return rc;
}

static int sweep_run_at(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                        const char *path, const zvp_sweep_options *opt,
                        zvp_sweep_summary *summary, zvp_sweep_notice_fn notice,
                        void *notice_user, zvp_error *err)
{
    zvp_sweep_options defaults;
    zvp_sweep_plan pl;
    zvp_sweep_file f;
    zvp_sweep_summary sum;
    zvp_sweep_run_state s;
    zvp_atomic chk;
    char *partial = NULL, *lockpath = NULL;
    int rc, lockfd = -1;
    double t0 = zvp_sweep_now_s();

    memset(&sum, 0, sizeof sum);
    memset(&s, 0, sizeof s);
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
    if ((rc = zvp_sweep_make_plan(mf, axes, n_axes,
                                  opt->block_points ? opt->block_points : ZVP_SWEEP_DEFAULT_BLOCK,
                                  &pl, err)))
        return rc;
    pl.interval = opt->interval;
    s.pl = &pl;
    s.mf = mf;
    s.axes = axes;
    s.opt = opt;
    s.f = &f;
    s.sum = &sum;
    s.fixed = zvp_model_file_params((zvp_model_file *)mf); /* read only */
    if (!s.fixed)
        return zvp_fail(err, ZVP_EINVAL, "sweep: the model file has no parameter vector");
    if (pl.block_capacity > SIZE_MAX / sizeof(double) / (zvp_sweep_groups(&pl) + 1))
        return zvp_fail(err, ZVP_EINVAL, "sweep: block_points = %llu is too large",
                        (unsigned long long)opt->block_points);
    /* the target's directory must be writable (the message names it) */
    if ((rc = zvp_atomic_begin(&chk, path, err)))
        return rc;
    zvp_atomic_abort(&chk);

    s.n_blocks = zvp_sweep_n_blocks(&pl);
    s.obuf = malloc((size_t)pl.block_capacity * (zvp_sweep_groups(&pl) + 1) * sizeof *s.obuf);
    s.sbuf = malloc((size_t)pl.block_capacity);
    s.done = calloc((size_t)(s.n_blocks / 8 + 1), 1);
    s.part = calloc((size_t)(s.n_blocks / 8 + 1), 1);
    s.tbuf = malloc((size_t)(pl.interval ? ZVP_SWEEP_SLICE_MAX : 1) *
                    (pl.m->n_outputs * 3 + 1) * sizeof *s.tbuf);
    s.tsb = malloc(pl.interval ? ZVP_SWEEP_SLICE_MAX : 1);
#ifdef _OPENMP
    s.min_slice = (uint64_t)(opt->threads > 0 ? opt->threads : omp_get_max_threads());
#endif
    if (s.min_slice < 1)
        s.min_slice = 1;
    if (s.min_slice > ZVP_SWEEP_SLICE_MAX)
        s.min_slice = ZVP_SWEEP_SLICE_MAX;
    s.slice = s.min_slice;
    partial = zvp_sweep_path(path, ".partial");
    lockpath = zvp_sweep_path(path, ".partial.lock");
    if (!s.obuf || !s.sbuf || !s.done || !s.part || !s.tbuf || !s.tsb || !partial || !lockpath)
        rc = zvp_fail(err, ZVP_ENOMEM, "sweep: cannot allocate the block buffers (%llu points "
                      "x %zu outputs)", (unsigned long long)pl.block_capacity, pl.m->n_outputs);
    sum.points = pl.points;
    if (rc == ZVP_SUCCESS)
        rc = zvp_sweep_lock(lockpath, partial, &lockfd, err);
    if (rc == ZVP_SUCCESS) {
        zvp_sweep_file_init(&f, &pl, path, partial, 1);
        rc = zvp_sweep_file_run(&s, mf, path, notice, notice_user, err);
        zvp_sweep_unlock(lockpath, lockfd);
    }
    free(s.obuf);
    free(s.sbuf);
    free(s.done);
    free(s.part);
    free(s.tbuf);
    free(s.tsb);
    free(partial);
    free(lockpath);
    sum.seconds = zvp_sweep_now_s() - t0;
    if (summary)
        *summary = sum;
    return rc;
}

int zvp_sweep_run(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                  const char *path, const zvp_sweep_options *opt, zvp_sweep_summary *summary,
                  zvp_error *err)
{
    return zvp_sweep_run_notify(mf, axes, n_axes, path, opt, summary, NULL, NULL, err);
}
