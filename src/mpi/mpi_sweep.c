/*
 * src/mpi/mpi_sweep.c - zvp_mpi_sweep_run: the sweep's blocks shared by the ranks of a
 * communicator, written into one file with parallel HDF5 (src/mpi/README.md).
 *
 * The plan (blocks and chunks) and the file layer are the serial sweep's (src/sweep/
 * sweep_impl.h); only the file-access list (H5Pset_fapl_mpio) and the transfer list
 * (H5FD_MPIO_COLLECTIVE) differ. The grid's blocks are handed out in rounds of
 * ZVP_MPI_ROUND x ranks blocks: each rank takes the next block index from a counter on rank
 * 0 (MPI_Fetch_and_op) until the round's blocks are gone or it holds ZVP_MPI_HOLD blocks,
 * evaluates each with zvp_eval_grid (its OpenMP threads), and then every rank writes the
 * union of its blocks with one collective write per dataset (a rank without a block writes
 * an empty selection), and the file is flushed. A fast rank thus takes more blocks of a round
 * than a slow one. Every point is computed alone by zvp_model_eval and written at its place,
 * so the datasets are the serial sweep's, bit for bit.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <hdf5.h>
#include "util/atomic.h"
#include "h5util.h"
#include "internal.h"
#include "mpi/mpi_sweep.h"
#include "sweep/sweep_impl.h"

#define ZVP_MPI_ROUND 2 /* blocks per rank and round, on average */
#define ZVP_MPI_HOLD 4  /* blocks one rank may hold in a round (memory: 4 block buffers) */

/* Everything a run holds; the same on every rank but the buffers' contents. */
typedef struct mpi_run {
    MPI_Comm comm;
    int rank, ranks;
    const zvp_mpi_options *opt;
    zvp_sweep_plan pl;
    const double *fixed;
    const zvp_axis *axes;
    zvp_sweep_file f;
    hid_t fapl, dxpl;
    MPI_Win win;      /* the block counter, on rank 0 */
    uint64_t *counter;
    uint64_t n_blocks;
    uint8_t *needs;   /* [n_blocks] 1: the block still has points with status 0 */
    double *obuf;     /* [ZVP_MPI_HOLD][n_outputs * block_capacity] */
    uint8_t *sbuf;    /* [ZVP_MPI_HOLD][block_capacity] */
    uint64_t held[ZVP_MPI_HOLD]; /* block indices held in this round */
    uint64_t counts[4];          /* this rank's: points done, ok, unstable, invalid */
    double t0;
} mpi_run;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One status and message on every rank: those of the lowest rank that failed (rc != 0 on
 * it), or ZVP_SUCCESS everywhere. */
static int agree(const mpi_run *r, int rc, zvp_error *err)
{
    int mine = rc ? r->rank : r->ranks, first;
    zvp_error e;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, r->comm);
    if (first == r->ranks)
        return ZVP_SUCCESS;
    zvp_error_clear(&e);
    if (r->rank == first && err)
        e = *err;
    e.status = r->rank == first ? rc : 0;
    MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, first, r->comm);
    if (err)
        *err = e;
    return e.status ? e.status : ZVP_EINTERNAL;
}

/* The progress line on rank 0: percent, points per second, ETA. */
static void progress(const mpi_run *r, uint64_t done, uint64_t at_start, int last)
{
    double dt = now_s() - r->t0, rate = dt > 0 ? (double)(done - at_start) / dt : 0;
    double pct = r->pl.points ? 100.0 * (double)done / (double)r->pl.points : 100.0;
    if (!r->opt->progress || r->rank != 0 || (done == r->pl.points && !last))
        return; /* 100% once, with the newline */
    if (rate > 0 && done < r->pl.points) {
        double eta = (double)(r->pl.points - done) / rate;
        fprintf(stderr, "\rsweep: %5.1f%%  %.3g points/s on %d ranks  ETA %d:%02d:%02d   ", pct,
                rate, r->ranks, (int)(eta / 3600), (int)(eta / 60) % 60, (int)eta % 60);
    } else {
        fprintf(stderr, "\rsweep: %5.1f%%  %.3g points/s on %d ranks                 ", pct,
                rate, r->ranks);
    }
    if (last)
        fputc('\n', stderr);
    fflush(stderr);
}

/* The next block index from the counter on rank 0 (every index goes to one rank once). */
static uint64_t next_block(mpi_run *r)
{
    const uint64_t one = 1;
    uint64_t got = 0;
    MPI_Fetch_and_op(&one, &got, MPI_UINT64_T, 0, 0, MPI_SUM, r->win);
    MPI_Win_flush(0, r->win);
    return got;
}

/* Evaluate block b into slot s of the buffers; the first failed point (flat index) is kept
 * in *failed (status 4 points become status 0, as in the serial sweep). */
static int eval_block(mpi_run *r, uint64_t b, int s, uint64_t *failed, zvp_error *err)
{
    const zvp_sweep_plan *pl = &r->pl;
    uint64_t start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES], f0, npts, p;
    size_t nout = pl->m->n_outputs ? pl->m->n_outputs : 1;
    double *o = r->obuf + (size_t)s * nout * (size_t)pl->block_capacity;
    uint8_t *st = r->sbuf + (size_t)s * (size_t)pl->block_capacity;
    int rc;
    f0 = zvp_sweep_block_start(pl, b);
    npts = zvp_sweep_block(pl, f0, start, count);
    rc = zvp_eval_grid(pl->m, r->fixed, r->axes, pl->n_axes, f0, npts, o, st,
                       (int)r->opt->sweep.threads, err);
    if (rc)
        return rc;
    for (p = 0; p < npts; p++) {
        if (st[p] >= ZVP_POINT_OK && st[p] <= ZVP_POINT_INVALID) {
            r->counts[st[p]]++;
            r->counts[0]++;
        } else {
            if (f0 + p < *failed)
                *failed = f0 + p;
            st[p] = ZVP_POINT_NOT_COMPUTED;
        }
    }
    return ZVP_SUCCESS;
}

/* One round: blocks [lo, hi) handed out; *pending is an index this rank took beyond the
 * round (kept for the next one), UINT64_MAX when none. Sets *held. */
static int take_blocks(mpi_run *r, uint64_t hi, uint64_t *pending, int *held, uint64_t *failed,
                       zvp_error *err)
{
    int rc = ZVP_SUCCESS;
    *held = 0;
    while (rc == ZVP_SUCCESS && *held < ZVP_MPI_HOLD && !(r->opt->stop && *r->opt->stop)) {
        uint64_t b = *pending != UINT64_MAX ? *pending : next_block(r);
        *pending = UINT64_MAX;
        if (b >= r->n_blocks)
            break;
        if (b >= hi) {
            *pending = b;
            break;
        }
        if (!r->needs[b])
            continue; /* complete in the partial file (--resume) */
        r->held[*held] = b;
        rc = eval_block(r, b, *held, failed, err);
        if (rc == ZVP_SUCCESS)
            (*held)++;
    }
    return rc;
}

/* Select this rank's held blocks: their union in the file dataspace f.space, and in mem
 * (1-D, the slots of the buffers: slot s holds points at s * stride + offset(s) +
 * [0, npts_s) for output `k` (offset = k * npts_s; status: k = 0, stride = capacity)).
 * Blocks are held in increasing index order, so the memory order of the union is its
 * order in the file (C order). held = 0: empty selections. */
static int select_held(mpi_run *r, int held, size_t k, size_t stride, hid_t mem, zvp_error *err)
{
    const zvp_sweep_plan *pl = &r->pl;
    int i;
    size_t a;
    if (held == 0 && (H5Sselect_none(r->f.space) < 0 || H5Sselect_none(mem) < 0))
        return zvp_h5_fail(err, r->f.path, "select an empty block of", "status");
    for (i = 0; i < held; i++) {
        uint64_t start64[ZVP_SWEEP_MAX_AXES], count64[ZVP_SWEEP_MAX_AXES];
        hsize_t start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES], m0, mn;
        H5S_seloper_t op = i == 0 ? H5S_SELECT_SET : H5S_SELECT_OR;
        uint64_t npts = zvp_sweep_block(pl, zvp_sweep_block_start(pl, r->held[i]), start64,
                                        count64);
        for (a = 0; a < pl->n_axes; a++) {
            start[a] = (hsize_t)start64[a];
            count[a] = (hsize_t)count64[a];
        }
        m0 = (hsize_t)((size_t)i * stride + k * (size_t)npts);
        mn = (hsize_t)npts;
        if (H5Sselect_hyperslab(r->f.space, op, start, NULL, count, NULL) < 0 ||
            H5Sselect_hyperslab(mem, op, &m0, NULL, &mn, NULL) < 0)
            return zvp_h5_fail(err, r->f.path, "select the blocks of a round in", "status");
    }
    return ZVP_SUCCESS;
}

/* Write the held blocks: one collective write per dataset (outputs first, /status last, as
 * the serial writer does), then flush. Every rank makes the same calls. */
static int write_blocks(mpi_run *r, int held, zvp_error *err)
{
    const zvp_sweep_plan *pl = &r->pl;
    size_t nout = pl->m->n_outputs ? pl->m->n_outputs : 1, k;
    size_t ostride = nout * (size_t)pl->block_capacity;
    hsize_t on = (hsize_t)(ZVP_MPI_HOLD * ostride), sn = (hsize_t)(ZVP_MPI_HOLD * pl->block_capacity);
    hid_t omem = H5Screate_simple(1, &on, NULL), smem = H5Screate_simple(1, &sn, NULL);
    int rc = omem < 0 || smem < 0 ? zvp_h5_fail(err, r->f.path, "create the memory dataspace "
                                                "of a round of", "status") : ZVP_SUCCESS;
    for (k = 0; rc == ZVP_SUCCESS && k < r->f.n_outputs; k++) {
        rc = select_held(r, held, k, ostride, omem, err);
        if (rc == ZVP_SUCCESS && H5Dwrite(r->f.output[k], H5T_NATIVE_DOUBLE, omem, r->f.space,
                                          r->dxpl, r->obuf) < 0)
            rc = zvp_h5_fail(err, r->f.path, "write a round of", pl->m->outputs[k].name);
    }
    if (rc == ZVP_SUCCESS)
        rc = select_held(r, held, 0, (size_t)pl->block_capacity, smem, err);
    if (rc == ZVP_SUCCESS &&
        H5Dwrite(r->f.status, H5T_NATIVE_UINT8, smem, r->f.space, r->dxpl, r->sbuf) < 0)
        rc = zvp_h5_fail(err, r->f.path, "write a round of", "status");
    if (omem >= 0)
        H5Sclose(omem);
    if (smem >= 0)
        H5Sclose(smem);
    if (rc == ZVP_SUCCESS)
        rc = zvp_sweep_file_flush(&r->f, err);
    return rc;
}

/* *all = the maximum of *mine over the ranks. A rank that finished its blocks early waits
 * here for the others: it polls every 0.5 ms instead of spinning in MPI, leaving the core
 * to the ranks and threads still computing (nodes shared or oversubscribed). */
static void max_gently(const mpi_run *r, const int *mine, int *all)
{
    const struct timespec nap = {0, 500000};
    MPI_Request req;
    int done = 0;
    MPI_Iallreduce(mine, all, 1, MPI_INT, MPI_MAX, r->comm, &req);
    for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE))
        nanosleep(&nap, NULL);
}

/* Every round until the grid is done, a stop is asked for, or a rank fails. */
static int rounds(mpi_run *r, uint64_t at_start, zvp_error *err)
{
    uint64_t per = (uint64_t)ZVP_MPI_ROUND * (uint64_t)r->ranks, lo, pending = UINT64_MAX;
    uint64_t tot[4];
    int rc = ZVP_SUCCESS;
    for (lo = 0; lo < r->n_blocks; lo += per) {
        uint64_t hi = lo + per < r->n_blocks ? lo + per : r->n_blocks, failed = UINT64_MAX;
        int held = 0, stop, any;
        rc = take_blocks(r, hi, &pending, &held, &failed, err);
        /* a stop asked on any rank stops every rank after this round */
        stop = r->opt->stop && *r->opt->stop;
        max_gently(r, &stop, &any);
        if ((rc = agree(r, rc, err)))
            return rc;
        rc = agree(r, write_blocks(r, held, err), err);
        if (rc)
            return rc;
        MPI_Allreduce(r->counts, tot, 4, MPI_UINT64_T, MPI_SUM, r->comm);
        progress(r, at_start + tot[0], at_start, 0);
        /* a point the model failed on stops the sweep after its round (the lowest one) */
        uint64_t first;
        MPI_Allreduce(&failed, &first, 1, MPI_UINT64_T, MPI_MIN, r->comm);
        if (first != UINT64_MAX) {
            rc = first == failed ? zvp_sweep_point_error(&r->pl, r->fixed, first, err) : ZVP_SUCCESS;
            return agree(r, rc, err);
        }
        if (any)
            return ZVP_ECANCELED;
    }
    return ZVP_SUCCESS;
}

/* --resume: which blocks still have points with status 0 (each rank reads the status of
 * every ranks-th block, independently), and the counts of the complete blocks in base[4]. */
static int scan_partial(mpi_run *r, uint64_t base[4], zvp_error *err)
{
    const zvp_sweep_plan *pl = &r->pl;
    uint64_t b, mine[4] = {0, 0, 0, 0};
    int rc = ZVP_SUCCESS;
    memset(r->needs, 0, (size_t)r->n_blocks);
    for (b = (uint64_t)r->rank; rc == ZVP_SUCCESS && b < r->n_blocks; b += (uint64_t)r->ranks) {
        uint64_t start[ZVP_SWEEP_MAX_AXES], count[ZVP_SWEEP_MAX_AXES], npts, p, c[4] = {0};
        npts = zvp_sweep_block(pl, zvp_sweep_block_start(pl, b), start, count);
        rc = zvp_sweep_file_read_status(&r->f, H5P_DEFAULT, start, count, npts, r->sbuf, err);
        for (p = 0; rc == ZVP_SUCCESS && p < npts; p++)
            c[r->sbuf[p] <= ZVP_POINT_INVALID ? r->sbuf[p] : 0]++;
        if (c[0])
            r->needs[b] = 1;
        else
            for (p = 0; p < 4; p++)
                mine[p] += p ? c[p] : npts;
    }
    if ((rc = agree(r, rc, err)))
        return rc;
    MPI_Allreduce(MPI_IN_PLACE, r->needs, (int)r->n_blocks, MPI_UINT8_T, MPI_MAX, r->comm);
    MPI_Allreduce(mine, base, 4, MPI_UINT64_T, MPI_SUM, r->comm);
    return ZVP_SUCCESS;
}

/* The partial file: reopened and checked (--resume; an unreadable one is started again),
 * or created. Notes on rank 0's stderr say which. *resumed = 1 when reopened. */
static int open_partial(mpi_run *r, const zvp_model_file *mf, const char *partial, int *resumed,
                        zvp_error *err)
{
    char created[32] = "";
    int exists = 0, rc = ZVP_SUCCESS, bad;
    *resumed = 0;
    if (r->rank == 0)
        exists = access(partial, F_OK) == 0;
    MPI_Bcast(&exists, 1, MPI_INT, 0, r->comm);
    if (r->opt->sweep.resume && exists) {
        rc = zvp_sweep_file_open(&r->f, mf, &r->pl, r->fixed, r->fapl, err);
        bad = r->f.unreadable;
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, r->comm);
        rc = agree(r, rc, err);
        if (rc == ZVP_SUCCESS) {
            *resumed = 1;
            return ZVP_SUCCESS;
        }
        zvp_sweep_file_close(&r->f, ZVP_SUCCESS, NULL);
        if (!bad)
            return rc;
        if (r->rank == 0)
            fprintf(stderr, "zvmperf sweep: note: the partial file %s cannot be read (%s): "
                    "starting the sweep again\n", partial, err ? err->message : "");
    } else if (r->rank == 0 && r->opt->sweep.resume) {
        fprintf(stderr, "zvmperf sweep: note: no partial file %s to resume: starting the "
                "sweep\n", partial);
    } else if (r->rank == 0 && exists) {
        fprintf(stderr, "zvmperf sweep: note: replacing the partial file %s of an earlier "
                "sweep (--resume continues it instead)\n", partial);
    }
    if (r->rank == 0)
        rc = zvp_h5_iso8601_now(created, sizeof created, err);
    if ((rc = agree(r, rc, err)))
        return rc;
    MPI_Bcast(created, (int)sizeof created, MPI_CHAR, 0, r->comm);
    zvp_sweep_file_init(&r->f, &r->pl, r->f.path, partial, 0);
    rc = zvp_sweep_file_create(&r->f, mf, &r->pl, r->opt->sweep.command, created, r->fixed,
                               r->fapl, err);
    return agree(r, rc, err);
}

/* The property lists, the counter window and the buffers. */
static int setup(mpi_run *r, zvp_error *err)
{
    const zvp_sweep_plan *pl = &r->pl;
    size_t nout = pl->m->n_outputs ? pl->m->n_outputs : 1;
    uint64_t *base = NULL;
    int rc = ZVP_SUCCESS;
    r->fapl = H5Pcreate(H5P_FILE_ACCESS);
    r->dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (r->fapl < 0 || r->dxpl < 0 || H5Pset_fapl_mpio(r->fapl, r->comm, MPI_INFO_NULL) < 0 ||
        H5Pset_libver_bounds(r->fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0 ||
        
        H5Pset_dxpl_mpio(r->dxpl, H5FD_MPIO_COLLECTIVE) < 0)
        rc = zvp_h5_fail(err, r->f.path, "set the MPI-IO properties of", r->f.path);
    r->n_blocks = zvp_sweep_n_blocks(pl);
    if (!rc && (r->n_blocks > INT_MAX ||
                pl->block_capacity > SIZE_MAX / ZVP_MPI_HOLD / sizeof(double) / nout))
        rc = zvp_fail(err, ZVP_EINVAL, "sweep: block_points = %llu is too large",
                      (unsigned long long)pl->block_capacity);
    if (!rc) {
        r->needs = malloc((size_t)r->n_blocks);
        r->obuf = malloc(ZVP_MPI_HOLD * nout * (size_t)pl->block_capacity * sizeof *r->obuf);
        r->sbuf = malloc(ZVP_MPI_HOLD * (size_t)pl->block_capacity);
        if (!r->needs || !r->obuf || !r->sbuf)
            rc = zvp_fail(err, ZVP_ENOMEM, "sweep: cannot allocate the block buffers (%d x %llu "
                          "points x %zu outputs)", ZVP_MPI_HOLD,
                          (unsigned long long)pl->block_capacity, nout);
        else
            memset(r->needs, 1, (size_t)r->n_blocks);
    }
    if ((rc = agree(r, rc, err)))
        return rc;
    MPI_Win_allocate(r->rank == 0 ? (MPI_Aint)sizeof(uint64_t) : 0, (int)sizeof(uint64_t),
                     MPI_INFO_NULL, r->comm, &base, &r->win);
    MPI_Win_lock_all(0, r->win);
    if (r->rank == 0) {
        *base = 0;
        MPI_Win_sync(r->win);
    }
    r->counter = base;
    MPI_Barrier(r->comm);
    return ZVP_SUCCESS;
}

static void teardown(mpi_run *r)
{
    if (r->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(r->win);
        MPI_Win_free(&r->win);
    }
    if (r->fapl >= 0)
        H5Pclose(r->fapl);
    if (r->dxpl >= 0)
        H5Pclose(r->dxpl);
    free(r->needs);
    free(r->obuf);
    free(r->sbuf);
}

/* Rank 0: the complete partial file becomes path (renamed, directory synced). */
static int commit(const char *partial, const char *path, zvp_error *err)
{
    char *dir = strdup(path), *slash;
    int fd, rc = ZVP_SUCCESS;
    if (rename(partial, path) != 0)
        rc = zvp_fail(err, ZVP_EIO, "sweep: cannot rename '%s' to '%s': %s", partial, path,
                      strerror(errno));
    if (dir) {
        slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir] = '\0';
        fd = open(slash ? dir : ".", O_RDONLY);
        if (fd >= 0) {
            (void)fsync(fd);
            close(fd);
        }
    }
    free(dir);
    return rc;
}

static int run(mpi_run *r, const zvp_model_file *mf, const char *path, const char *partial,
               zvp_sweep_summary *sum, zvp_error *err)
{
    uint64_t base[4] = {0, 0, 0, 0}, tot[4];
    int resumed = 0, rc, rc2;
    if ((rc = setup(r, err)))
        return rc;
    if ((rc = open_partial(r, mf, partial, &resumed, err)))
        return zvp_sweep_file_close(&r->f, rc, err);
    if (resumed)
        rc = scan_partial(r, base, err);
    r->t0 = now_s();
    if (!rc) {
        progress(r, base[0], base[0], 0);
        rc = rounds(r, base[0], err);
    }
    MPI_Allreduce(r->counts, tot, 4, MPI_UINT64_T, MPI_SUM, r->comm);
    sum->ok = base[1] + tot[1];
    sum->unstable = base[2] + tot[2];
    sum->invalid = base[3] + tot[3];
    progress(r, base[0] + tot[0], base[0], 1);
    /* every point refused by the model (the counts are global, so every rank agrees): an
     * input error, the partial file removed and the file at path left as it was, as the
     * serial sweep does (src/sweep/README.md) */
    const int none_valid = rc == ZVP_SUCCESS && sum->ok == 0 && sum->unstable == 0 &&
                           sum->invalid > 0;
    if (none_valid) /* the serial sweep's message: the first point and the model's reason */
        rc = zvp_sweep_all_invalid(&r->pl, r->fixed, path, err);
    if (rc == ZVP_SUCCESS)
        rc = agree(r, zvp_sweep_file_finish(&r->f, err), err);
    rc2 = zvp_sweep_file_close(&r->f, rc, err);
    if (none_valid && r->rank == 0)
        (void)unlink(partial);
    if (rc == ZVP_SUCCESS)
        rc = agree(r, rc2, err);
    if (rc == ZVP_SUCCESS)
        rc = agree(r, r->rank == 0 ? commit(partial, path, err) : ZVP_SUCCESS, err);
    return rc;
}

static int mpi_sweep_run_at(MPI_Comm comm, const zvp_model_file *mf, const zvp_axis *axes,
                            size_t n_axes, const char *path, const zvp_mpi_options *opt,
                            zvp_sweep_summary *summary, zvp_error *err);

/* As zvp_sweep_run: a symbolic link is written through (every rank resolves the same link,
 * and an unresolvable one fails on every rank alike). */
int zvp_mpi_sweep_run(MPI_Comm comm, const zvp_model_file *mf, const zvp_axis *axes,
                      size_t n_axes, const char *path, const zvp_mpi_options *opt,
                      zvp_sweep_summary *summary, zvp_error *err)
{
    char *target = NULL;
    int rc = path ? zvp_atomic_resolve(path, &target, err) : ZVP_SUCCESS;
    if (rc == ZVP_SUCCESS)
        rc = mpi_sweep_run_at(comm, mf, axes, n_axes, target ? target : path, opt, summary, err);
    free(target);
    return rc;
}

static int mpi_sweep_run_at(MPI_Comm comm, const zvp_model_file *mf, const zvp_axis *axes,
                            size_t n_axes, const char *path, const zvp_mpi_options *opt,
                            zvp_sweep_summary *summary, zvp_error *err)
{
    mpi_run r;
    zvp_sweep_summary sum;
    zvp_h5_quiet quiet;
    char *partial = NULL, *lockpath = NULL;
    int rc = ZVP_SUCCESS, lockfd = -1;
    double t0 = now_s();
    memset(&r, 0, sizeof r);
    memset(&sum, 0, sizeof sum);
    r.comm = comm;
    r.opt = opt;
    r.axes = axes;
    r.fapl = r.dxpl = H5I_INVALID_HID;
    r.win = MPI_WIN_NULL;
    MPI_Comm_rank(comm, &r.rank);
    MPI_Comm_size(comm, &r.ranks);
    if (opt->sweep.threads < 0)
        rc = zvp_fail(err, ZVP_EINVAL, "sweep: threads = %d is out of range [0, inf) (0 = the "
                      "OpenMP default)", (int)opt->sweep.threads);
    if (!rc)
        rc = zvp_sweep_make_plan(mf, axes, n_axes, opt->sweep.block_points ? opt->sweep.block_points
                                 : ZVP_SWEEP_DEFAULT_BLOCK, &r.pl, err);
    r.fixed = rc ? NULL : zvp_model_file_params((zvp_model_file *)mf);
    if (!rc && !r.fixed)
        rc = zvp_fail(err, ZVP_EINVAL, "sweep: the model file has no parameter vector");
    sum.points = r.pl.points;
    if (!rc) {
        size_t n = strlen(path);
        partial = malloc(n + sizeof ".partial");
        lockpath = malloc(n + sizeof ".partial.lock");
        if (!partial || !lockpath)
            rc = zvp_fail(err, ZVP_ENOMEM, "sweep: out of memory");
        else {
            sprintf(partial, "%s.partial", path);
            sprintf(lockpath, "%s.partial.lock", path);
        }
    }
    /* one lock, held by rank 0: a second sweep to the same path fails at once */
    if (!rc && r.rank == 0)
        rc = zvp_sweep_lock(lockpath, partial, &lockfd, err);
    rc = agree(&r, rc, err);
    if (rc == ZVP_SUCCESS) {
        zvp_h5_quiet_begin(&quiet);
        zvp_sweep_file_init(&r.f, &r.pl, path, partial, 0);
        rc = run(&r, mf, path, partial, &sum, err);
        zvp_h5_quiet_end(&quiet);
        teardown(&r);
        if (r.rank == 0)
            zvp_sweep_unlock(lockpath, lockfd);
    }
    free(partial);
    free(lockpath);
    sum.seconds = now_s() - t0;
    if (summary)
        *summary = sum;
    return rc;
}
