/*
 * src/sweep/sweep_impl.h - private interface between the parts of the sweep engine
 * (axis.c, grid.c, plan.c, h5write.c, resume.c, run.c). Not installed. See
 * src/sweep/README.md; the MPI driver reuses the plan and the file layer below.
 */
#ifndef ZVMPERF_SWEEP_IMPL_H
#define ZVMPERF_SWEEP_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <hdf5.h>
#include "zvmperf/sweep.h"
#include "h5util.h"

#define ZVP_SWEEP_MAX_AXES 8
#define ZVP_SWEEP_DEFAULT_BLOCK 65536u
#define ZVP_SWEEP_CHUNK_TARGET 65536u /* points per HDF5 chunk, at most (512 KiB float64) */
#define ZVP_SWEEP_SLICE_MAX 8192u     /* points per slice of a block, at most (run.c) */

/* zvp_eval_grid_strided - zvp_eval_grid_stop writing output j of point p at
 * outputs[j * ostride + p] (ostride >= count): a run of a sweep's block evaluated in place. */
int zvp_eval_grid_strided(const zvp_model *m, const double *base_params, const zvp_axis *axes,
                          size_t n_axes, uint64_t first, uint64_t count, double *outputs,
                          size_t ostride, uint8_t *status, int threads,
                          const volatile sig_atomic_t *stop, zvp_error *err);

/* zvp_grid_param_list - the parameter names of m, ", "-separated, into buf (truncated with
 * "..." when it does not fit). size >= 1. */
void zvp_grid_param_list(const zvp_model *m, char *buf, size_t size);

/* zvp_grid_resolve_axis - check axis k of axes[] and store its parameter index in param[k]:
 * a name (ZVP_EINVAL when NULL), a parameter of m (ZVP_ENOTFOUND; the message lists the
 * parameters), not the parameter of an earlier axis param[0..k-1] (ZVP_EINVAL), and at least
 * one value (ZVP_EINVAL). `who` starts the messages ("sweep", "zvp_eval_grid"). */
int zvp_grid_resolve_axis(const zvp_model *m, const zvp_axis *axes, size_t k, size_t *param,
                          const char *who, zvp_error *err);

/* The sweep's plan: the grid (axes resolved and checked) and its cut into blocks and HDF5
 * chunks (src/sweep/README.md, "Blocks and chunks"). */
typedef struct zvp_sweep_plan {
    const zvp_model *m;
    size_t n_axes;
    uint64_t dims[ZVP_SWEEP_MAX_AXES];        /* axis lengths */
    size_t param[ZVP_SWEEP_MAX_AXES];         /* parameter index of each axis */
    const double *values[ZVP_SWEEP_MAX_AXES]; /* axis values */
    uint64_t points;          /* grid size */
    size_t split;             /* block split axis */
    uint64_t inner;           /* points per index step of the split axis */
    uint64_t per_block;       /* indices of the split axis per block */
    uint64_t block_capacity;  /* per_block * inner: points per block buffer */
    uint64_t chunk[ZVP_SWEEP_MAX_AXES];
    /* NULL: values only; else OUT_lo, OUT_hi beside each output (src/interval) and the
     * block buffers hold value, lo, hi blocks one after the other */
    const struct zvp_interval_options *interval;
} zvp_sweep_plan;

/* zvp_sweep_groups - the N-D float64 variables of the plan, in block-buffer order (each a
 * block of points): the outputs; with intervals every OUT_lo, then every OUT_hi; with Monte
 * Carlo intervals then ZVP_SWEEP_SHARE_NAME (h5write.c). */
size_t zvp_sweep_groups(const zvp_sweep_plan *pl);
/* 1 when the plan's intervals are Monte Carlo (the file has ZVP_SWEEP_SHARE_NAME). */
int zvp_sweep_has_share(const zvp_sweep_plan *pl);
#define ZVP_SWEEP_SHARE_NAME "stable_draw_share"
#define ZVP_SWEEP_SHARE_TEXT                                                                   \
    "(draws with a model result) / samples at the point: 1 - no_steady_state_share of "       \
    "'zvmperf eval --interval L --method mc --json' with the same seed at the same flat "      \
    "point index; also at status 2 (no steady state at the centre, OUT_lo and OUT_hi NaN); "   \
    "NaN at status 0 and 3"

/* zvp_sweep_make_plan - check the axes of a sweep of mf (names, duplicates, finite values
 * within each parameter's [min, max], whole for an integer parameter, 1..8 axes, at most ZVP_SWEEP_MAX_POINTS points) and
 * cut the grid into blocks of about block_points points (raised to one chunk). */
int zvp_sweep_make_plan(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                        uint64_t block_points, zvp_sweep_plan *pl, zvp_error *err);

/* zvp_sweep_block - the block that starts at flat point f0: its hyperslab start[]/count[]
 * (n_axes entries each) and its number of points (returned). */
uint64_t zvp_sweep_block(const zvp_sweep_plan *pl, uint64_t f0, uint64_t *start,
                         uint64_t *count);

/* zvp_sweep_n_blocks - the number of blocks of the plan; the block b starts at flat point
 * b * (per_block * inner) along the split axis, cut at the end of each outer row: use
 * zvp_sweep_block_start. */
uint64_t zvp_sweep_n_blocks(const zvp_sweep_plan *pl);
/* zvp_sweep_block_start - the first flat point of block b (b < zvp_sweep_n_blocks). */
uint64_t zvp_sweep_block_start(const zvp_sweep_plan *pl, uint64_t b);

/* ---- the sweep file, layout version 2 (h5write.c, resume.c; README.md "File layout") ----
 * Every function below is called by every process that has the file open (under MPI: by
 * every rank, collectively, with the same arguments except the block data). fapl and dxpl
 * are HDF5 property lists: H5P_DEFAULT for a serial sweep (then the guard driver of
 * src/h5util.h does the I/O: guard = 1), or the MPI driver's file-access list
 * (H5Pset_fapl_mpio) and collective transfer list (H5Pset_dxpl_mpio) with guard = 0. */
#define ZVP_SWEEP_LAYOUT_VERSION 2

/* The attribute no_interval_reason of OUT_lo / OUT_hi for a whole-number output under the
 * delta method (interval.h: no interval, NaN bounds at every point). */
#define ZVP_SWEEP_NO_DELTA_REASON                                                              \
    "no delta-method interval for a whole-number output: it is a step function of the "       \
    "parameters, whose derivative is 0 almost everywhere, so the bounds are NaN at every "      \
    "point; the Monte Carlo method (--method mc) gives bounds"

typedef struct zvp_sweep_file {
    const char *path;  /* the target OUT, for messages */
    const char *file;  /* the file opened: OUT.partial */
    int guard;         /* 1: guard driver (serial); 0: plain H5Fcreate/H5Fopen with fapl */
    int unreadable;    /* set by zvp_sweep_file_open when HDF5 cannot read the file */
    zvp_h5_guard g;
    hid_t h5, status, space; /* file, /status, a file dataspace for the hyperslabs */
    hid_t axis[ZVP_SWEEP_MAX_AXES];
    hid_t *output; /* [n_outputs] */
    size_t n_outputs;
    hsize_t dims[ZVP_SWEEP_MAX_AXES], chunk[ZVP_SWEEP_MAX_AXES];
} zvp_sweep_file;

/* zvp_sweep_file_init - no handle open; target and file (OUT.partial) are kept by pointer. */
void zvp_sweep_file_init(zvp_sweep_file *f, const zvp_sweep_plan *pl, const char *target,
                         const char *file, int guard);

/* zvp_sweep_file_create - create f->file (truncating it) with the whole layout: root
 * attributes (sweep_complete = 0; `created` = created, or now when NULL: pass one string to
 * every rank), the coordinate variables, /parameters (fixed[] at the non-swept parameters),
 * and /status and the outputs empty (fill 0 / NaN). ZVP_EIO naming the object. */
int zvp_sweep_file_create(zvp_sweep_file *f, const zvp_model_file *mf, const zvp_sweep_plan *pl,
                          const char *command, const char *created, const double *fixed,
                          hid_t fapl, zvp_error *err);

/* zvp_sweep_file_open - reopen f->file read-write for --resume and check it against the
 * sweep asked for (resume.c): layout version, model, axes (names, lengths, values bit for
 * bit), fixed parameters (bit for bit) and model-file text, in that order. ZVP_EINVAL
 * naming the first difference; ZVP_EIO with f->unreadable = 1 when HDF5 cannot open the
 * file or one of its datasets (a partial file cut by a crash). */
int zvp_sweep_file_open(zvp_sweep_file *f, const zvp_model_file *mf, const zvp_sweep_plan *pl,
                        const double *fixed, hid_t fapl, zvp_error *err);

/* zvp_sweep_file_write_block - write the block start[]/count[] (npts points) of /status
 * (sbuf[npts], written last) and of every output (obuf[n_outputs * npts], output-major).
 * npts = 0: an empty selection (a rank with no block in a collective round). */
int zvp_sweep_file_write_block(zvp_sweep_file *f, hid_t dxpl, const uint64_t *start,
                               const uint64_t *count, uint64_t npts, const double *obuf,
                               const uint8_t *sbuf, zvp_error *err);

/* zvp_sweep_file_read_block - read the block start[]/count[] (npts points) of every output
 * into obuf[n_outputs * npts] (output-major, the layout of write_block) and of /status into
 * sbuf[npts]: a block that a stop cut short, read back to finish it. ZVP_EIO (f->unreadable
 * = 1) when HDF5 cannot. */
int zvp_sweep_file_read_block(zvp_sweep_file *f, hid_t dxpl, const uint64_t *start,
                              const uint64_t *count, uint64_t npts, double *obuf, uint8_t *sbuf,
                              zvp_error *err);

/* zvp_sweep_file_read_status - read the block start[]/count[] of /status into sbuf[npts]
 * (npts = 0: empty selection). ZVP_EIO (f->unreadable = 1) when HDF5 cannot. */
int zvp_sweep_file_read_status(zvp_sweep_file *f, hid_t dxpl, const uint64_t *start,
                               const uint64_t *count, uint64_t npts, uint8_t *sbuf,
                               zvp_error *err);

/* zvp_sweep_file_flush - H5Fflush (the guard driver also fsyncs): the file on disk is then
 * complete up to the last block written; ZVP_EIO on a write error (disk full). */
int zvp_sweep_file_flush(zvp_sweep_file *f, zvp_error *err);

/* zvp_sweep_file_finish - set sweep_complete = 1 and flush (before the rename). */
int zvp_sweep_file_finish(zvp_sweep_file *f, zvp_error *err);

/* zvp_sweep_file_close - close every handle; rc is returned unless it is ZVP_SUCCESS and a
 * close or an earlier write failed (ZVP_EIO). Safe on an initialised f, and twice. */
int zvp_sweep_file_close(zvp_sweep_file *f, int rc, zvp_error *err);

/* ---- resume.c ---- */

/* zvp_sweep_check_partial - the checks of zvp_sweep_file_open on the open f->h5. */
int zvp_sweep_check_partial(zvp_sweep_file *f, const zvp_model_file *mf,
                            const zvp_sweep_plan *pl, const double *fixed, zvp_error *err);

/* zvp_sweep_interval_text - the root attribute `interval` of a sweep with intervals o (level,
 * kind, method, draws and seed, ranges): what the writer stores and --resume compares. */
void zvp_sweep_interval_text(const struct zvp_interval_options *o, char *text, size_t cap);


/* zvp_sweep_lock - create and lock (flock LOCK_EX | LOCK_NB) the lock file lockpath
 * (OUT.partial.lock) and keep it locked in *fd until zvp_sweep_unlock. ZVP_EIO when
 * another process holds it ("another sweep is writing 'OUT.partial' ..."), or it cannot be
 * created. */
int zvp_sweep_lock(const char *lockpath, const char *partial, int *fd, zvp_error *err);
/* zvp_sweep_unlock - remove lockpath and release the lock (fd < 0: no-op). */
void zvp_sweep_unlock(const char *lockpath, int fd);

/* zvp_sweep_all_invalid - every point of the grid has status 3 (the model refused each):
 * ZVP_EINVAL with "no point of the sweep is valid input: model 'M' refuses all N points; the
 * first, point 0 (axis values): <the model's message there>; <path> is left as it was". The
 * serial and the MPI sweep (src/mpi/) both end so, keeping no file. */
int zvp_sweep_all_invalid(const zvp_sweep_plan *pl, const double *fixed, const char *path,
                          zvp_error *err);

/* The first failed point of a sweep (flat index `flat`, the other parameters at `fixed`):
 * evaluated again, serially, for a message naming its flat index and axis values; returns
 * the model's status (run.c; the MPI sweep uses it too). */
int zvp_sweep_point_error(const zvp_sweep_plan *pl, const double *fixed, uint64_t flat,
                          zvp_error *err);

#endif
