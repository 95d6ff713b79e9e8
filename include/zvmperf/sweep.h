/*
 * zvmperf/sweep.h - a model evaluated over many points: in memory into caller-owned
 * arrays (zvp_eval_points, zvp_eval_grid), or over a grid written to an HDF5 file
 * (zvp_sweep_run). OpenMP-parallel; results bitwise identical whatever the thread count.
 * The file layout, the status codes and the blocks are described in src/sweep/README.md.
 */
#ifndef ZVMPERF_SWEEP_H
#define ZVMPERF_SWEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest grid a sweep accepts, in points (the product of the axis lengths): 10^9 points
 * make 8 GB per output uncompressed; larger studies are split into several sweeps. */
#define ZVP_SWEEP_MAX_POINTS 1000000000ULL

/* Status of one point (uint8): in the status arrays of zvp_eval_points/zvp_eval_grid and
 * in a sweep file's /status (which holds 0..3 only). */
enum {
    ZVP_POINT_NOT_COMPUTED = 0, /* sweep file only: not reached (the sweep stopped) */
    ZVP_POINT_OK = 1,           /* zvp_model_eval returned ZVP_SUCCESS */
    ZVP_POINT_UNSTABLE = 2,     /* ZVP_EUNSTABLE, no steady state: outputs NaN */
    ZVP_POINT_INVALID = 3,      /* ZVP_EINVAL, invalid input at this point: outputs NaN */
    ZVP_POINT_FAILED = 4        /* in memory only: any other model status (e.g.
                                   ZVP_EMAXITER): outputs NaN */
};

/* One sweep axis: a parameter name and its values (caller-owned during the call). */
typedef struct zvp_axis {
    const char *name;     /* a parameter of the model */
    const double *values; /* [n_values], finite */
    size_t n_values;      /* >= 1 */
} zvp_axis;

/**
 * zvp_eval_points - evaluate m at n_points points, each the base vector with n_vary
 * parameters replaced, in parallel; each point as zvp_model_eval(m, point, out, NULL)
 * alone would, bit for bit, for any thread count.
 * @param[in]  m            the model.
 * @param[in]  base_params  [m->n_params], the values of the parameters that do not vary.
 * @param[in]  n_points     number of points (0: nothing to do).
 * @param[in]  n_vary       number of varied parameters (0: every point is base_params).
 * @param[in]  vary_index   [n_vary] distinct parameter indices (< m->n_params).
 * @param[in]  vary_values  [n_points * n_vary] row-major: value j of point i at
 *                          vary_values[i * n_vary + j], in the parameter's unit.
 * @param[out] outputs      [m->n_outputs * n_points] OUTPUT-MAJOR: output j of point i at
 *                          outputs[j * n_points + i]; NaN where status[i] != ZVP_POINT_OK.
 * @param[out] status       [n_points] ZVP_POINT_OK, _UNSTABLE, _INVALID (e.g. a value out
 *                          of the parameter's range) or _FAILED.
 * @param[in]  threads      OpenMP threads, >= 0; 0 = the OpenMP default.
 * @return ZVP_SUCCESS whenever the arguments are valid, even if points fail (status says
 *         which); ZVP_EINVAL (m, base_params, status, outputs (when m has outputs),
 *         vary_index or vary_values NULL where needed; an index >= m->n_params; an index
 *         given twice; threads < 0; sizes that overflow); ZVP_ENOMEM.
 * Memory: one parameter/output vector per thread. Thread safety: pure (OpenMP inside).
 */
int zvp_eval_points(const zvp_model *m, const double *base_params, size_t n_points,
                    size_t n_vary, const size_t *vary_index, const double *vary_values,
                    double *outputs, uint8_t *status, int threads, zvp_error *err);

/**
 * zvp_eval_grid - evaluate m over the flat points [first, first + count) of the Cartesian
 * product of the axes in C order (first axis slowest: with lengths n_0..n_{k-1}, point
 * (i_0, ..., i_{k-1}) has flat index (..(i_0 n_1 + i_1) n_2 + ..) + i_{k-1}); the other
 * parameters at base_params. Results as zvp_eval_points, bit for bit.
 * @param[in]  axes     [n_axes]: names of parameters of m, each at most once, each with
 *                      n_values >= 1. Values are not range-checked here: a value the model
 *                      rejects gives ZVP_POINT_INVALID at its points. n_axes = 0: a grid
 *                      of one point (base_params).
 * @param[out] outputs  [m->n_outputs * count] output-major (outputs[j * count + p] for
 *                      flat point first + p); status [count].
 * @return ZVP_SUCCESS whenever the arguments are valid; ZVP_ENOTFOUND (an axis name that
 *         is not a parameter; the message lists them); ZVP_EINVAL (NULL arguments as in
 *         zvp_eval_points, axes NULL with n_axes > 0, an axis without a name or values,
 *         an axis given twice, first + count beyond the grid, threads < 0); ZVP_ENOMEM.
 */
int zvp_eval_grid(const zvp_model *m, const double *base_params, const zvp_axis *axes,
                  size_t n_axes, uint64_t first, uint64_t count, double *outputs,
                  uint8_t *status, int threads, zvp_error *err);

/**
 * zvp_eval_grid_stop - zvp_eval_grid that a caller can stop: *stop (when stop is not NULL)
 * is read before each point; once it is nonzero, every point not yet started gets status
 * ZVP_POINT_NOT_COMPUTED (0) and NaN outputs, while the points in progress finish. The
 * points computed are bit for bit those of zvp_eval_grid. stop is typically a flag that a
 * signal handler sets (SIGINT); the library only reads it. Returns as zvp_eval_grid
 * (ZVP_SUCCESS also when stopped: status 0 says which points were not computed).
 */
int zvp_eval_grid_stop(const zvp_model *m, const double *base_params, const zvp_axis *axes,
                       size_t n_axes, uint64_t first, uint64_t count, double *outputs,
                       uint8_t *status, int threads, const volatile sig_atomic_t *stop,
                       zvp_error *err);

/**
 * zvp_axis_parse - parse "NAME=LO:HI:STEP", "NAME=V1,V2,..." or "NAME=V" into a name and a
 * newly allocated value array (spaces around NAME and the numbers are allowed).
 * A range gives LO + i*STEP for i = 0, 1, ... (computed, never accumulated) while
 * i <= (HI - LO)/STEP + min((HI - LO)/STEP x 1e-9, 1/2): HI is included when it lies on the
 * grid within a relative 1e-9 of HI - LO (at most half a STEP), and the last value is then
 * HI itself (so 0:0.3:0.1 ends at 0.3, not 0.30000000000000004). A list keeps its order (not sorted, not de-duplicated).
 * NAME is [A-Za-z_][A-Za-z0-9_]*; it is not checked against any model here.
 * @param[in]  spec      the text.
 * @param[out] name      malloc'ed name (free with free()); NULL on failure.
 * @param[out] values    malloc'ed values (free with free()); NULL on failure.
 * @param[out] n_values  count (>= 1); 0 on failure.
 * @return ZVP_SUCCESS; ZVP_EPARSE (malformed: no '=', bad name, empty or non-numeric field,
 *         not three range fields, ':' mixed with ','; the message quotes spec); ZVP_EINVAL
 *         (STEP <= 0, HI < LO, more than 10^9 values, a value that is inf/nan or overflows;
 *         NULL argument); ZVP_ENOMEM.
 * Thread safety: pure.
 */
int zvp_axis_parse(const char *spec, char **name, double **values, size_t *n_values,
                   zvp_error *err);

/**
 * zvp_progress_fn - progress of a sweep: called from the calling thread once at the start
 * (done_points = the points already computed when resuming, else 0) and after every block
 * written; done_points of total_points are then in the file. Return nonzero to stop: the
 * sweep stops after that block, keeps the valid partial file and returns ZVP_ECANCELED.
 * Keep it short (no HDF5 calls).
 */
typedef int (*zvp_progress_fn)(uint64_t done_points, uint64_t total_points, void *user);

/* Options of a sweep run (plain struct; fill with zvp_sweep_options_init). */
typedef struct zvp_sweep_options {
    int32_t threads;       /* OpenMP threads; 0 = the OpenMP default */
    int32_t reserved;
    uint64_t block_points; /* points per block (memory ~ block_points x (n_outputs + 1) x 8 B); 0 = 65536;
                              values below 65536 (one HDF5 chunk) are raised to 65536 */
    const char *command;   /* command line recorded as the root attribute `command` (may be NULL) */
    zvp_progress_fn progress; /* may be NULL */
    void *progress_user;      /* passed to progress */
    int32_t resume;        /* 1: continue PATH.partial (checked against this sweep); 0: start anew */
    /* NULL (default): values only. Otherwise each output OUT also gets OUT_lo and OUT_hi,
     * the bounds of its interval (zvp_interval_grid with these options; interval.h). */
    const struct zvp_interval_options *interval;
    /* NULL (default), or a flag the caller sets (e.g. from a SIGINT handler) to stop the
     * sweep soon: read before each point (zvp_eval_grid_stop) and, with intervals, between
     * slices of a block sized to take about a tenth of a second. Once it is nonzero the
     * points in progress finish, the block is written with status 0 at the points not
     * computed, and the sweep returns ZVP_ECANCELED (resumable). The library only reads it. */
    const volatile sig_atomic_t *stop;
} zvp_sweep_options;

/** zvp_sweep_options_init - defaults: threads 0, reserved 0, block_points 65536, command
 *  NULL, progress NULL, progress_user NULL, resume 0, interval NULL, stop NULL. A NULL opt
 *  is a no-op. */
void zvp_sweep_options_init(zvp_sweep_options *opt);

/* Summary of a finished sweep. */
typedef struct zvp_sweep_summary {
    uint64_t points;          /* grid size */
    uint64_t ok;              /* points with status ZVP_POINT_OK */
    uint64_t unstable;        /* status ZVP_POINT_UNSTABLE */
    uint64_t invalid;         /* status ZVP_POINT_INVALID */
    double seconds;           /* wall time of the evaluation and writing */
} zvp_sweep_summary;

/**
 * zvp_sweep_run - evaluate mf's model over the grid of `axes` (other parameters fixed at
 * mf's values) with zvp_eval_grid, block by block, into the netCDF-4/CF file `path`
 * (layout version 2 in src/sweep/README.md: one coordinate variable per axis, one N-D
 * variable per output and /status, /parameters, global attributes).
 * Crash-safe: the sweep writes PATH.partial (locked through PATH.partial.lock for the whole
 * run), flushes (and fsyncs) it after every block, marks it complete and renames it over
 * `path` only at the end: an existing file at `path` is never touched by a sweep that
 * fails or is interrupted; the partial file then stays, valid up to its last block, and
 * opt->resume = 1 continues it (the model, the axes, the fixed parameters and the
 * model-file text must be the same: ZVP_EINVAL names the first difference; only the points
 * at status 0 are computed, those of a block that a stop cut short included; the datasets
 * end bit-identical to an uninterrupted run). Without resume a stale partial file is replaced; with resume an
 * unreadable one (cut by a crash) is replaced too (zvp_sweep_run_notify says so).
 * Every axis value is checked against its parameter's [min, max], and against being whole
 * for an integer parameter, before anything is written: one value outside it (or 1.5 on
 * an integer axis) makes the whole sweep ZVP_EINVAL (no file is created).
 * Each point is then evaluated with zvp_model_eval: ZVP_SUCCESS -> status 1, ZVP_EUNSTABLE
 * (no steady state, or a non-finite output) -> 2, ZVP_EINVAL -> 3, outputs NaN for 2 and 3.
 * Status 3 is a value the model rejects at that point although it lies in the range: a
 * combination the model refuses (e.g. fsio's cp_memory_gb >= real_memory_gb), or a fixed
 * value written out of range through zvp_model_file_params. When every point of the grid
 * has status 3 the sweep is ZVP_EINVAL ("no point of the sweep is valid input", naming the
 * first point, its axis values and the model's message): the partial file is removed and
 * an existing file at `path` is left as it was. Any other model status
 * (ZVP_EMAXITER, ZVP_ENOMEM, ...) stops the sweep after
 * the current block is written: that point and the rest keep status 0, and the status
 * is returned with a message naming the first such point (flat index and axis values).
 * @param[in]  mf       model and fixed parameters (and the model-file text recorded).
 * @param[in]  axes     [n_axes] axes; names must be parameters of the model, each at most
 *                      once; values finite; 1 <= n_axes <= 8.
 * @param[in]  path     output file.
 * @param[in]  opt      options, or NULL for defaults; threads >= 0.
 * @param[out] summary  may be NULL; filled also on failure (points counted so far,
 *                      including those found done in a resumed partial file).
 * @return ZVP_SUCCESS (even when some points are unstable or invalid: see /status);
 *         ZVP_ENOTFOUND (unknown axis name; the message names it and lists the model's
 *         parameters); ZVP_EINVAL (bad axis, duplicate axis, an axis value outside the
 *         parameter's range, more than ZVP_SWEEP_MAX_POINTS points, threads < 0,
 *         NULL argument; resume: a partial file of another sweep); ZVP_EIO (HDF5 failure:
 *         the message names the file and the object; another sweep holds the lock on
 *         PATH.partial; HDF5's own error printing is off during the call and restored
 *         after); ZVP_ECANCELED (opt->progress asked to stop, or
 *         *opt->stop became nonzero: the partial file is valid and resumable); ZVP_ENOMEM; a model status
 *         as described above.
 * Memory: block_points x (8 n_outputs + 1) bytes plus one parameter/output vector per
 * thread, one bit per block, and HDF5's chunk cache; independent of the grid size.
 * Thread safety: uses OpenMP internally; HDF5 is called from the calling thread only,
 * outside the parallel regions; do not call HDF5 from other threads meanwhile.
 */
int zvp_sweep_run(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                  const char *path, const zvp_sweep_options *opt, zvp_sweep_summary *summary,
                  zvp_error *err);

/* zvp_sweep_notice_fn - a notice of zvp_sweep_run_notify (one sentence, no newline). */
typedef void (*zvp_sweep_notice_fn)(const char *message, void *user);

/**
 * zvp_sweep_run_notify - zvp_sweep_run, telling `notice` (when not NULL; from the calling
 * thread, before the first block) what it does with an existing partial file: replaced
 * (stale, without resume), unreadable and replaced (resume), or missing (resume starts
 * from the beginning). The library never prints: the CLI prints these on stderr.
 */
int zvp_sweep_run_notify(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                         const char *path, const zvp_sweep_options *opt,
                         zvp_sweep_summary *summary, zvp_sweep_notice_fn notice,
                         void *notice_user, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_SWEEP_H */
