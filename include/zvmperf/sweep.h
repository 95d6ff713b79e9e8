/*
 * zvmperf/sweep.h - OpenMP parameter sweeps written to HDF5.
 *
 * A sweep evaluates a model over the Cartesian product of axes (row-major: the last axis
 * varies fastest). Points are computed in blocks, in parallel, and each block is written
 * by the calling thread before the next, so memory does not grow with the grid. Results
 * are bitwise identical whatever the thread count. HDF5 layout: ../shared/DESIGN.md,
 * "Sweep output"; as written by zvp_sweep_run:
 *
 *   /                  string attributes (variable-length UTF-8; h5py reads str):
 *                        zvmperf_version, model, model_source (the model's `source`),
 *                        created (ISO 8601 UTC, "YYYY-MM-DDTHH:MM:SSZ"), command (opt->command,
 *                        "" if NULL), model_file (text of the model file, "" when the handle
 *                        was made by zvp_model_file_new), axes (the swept parameter names in
 *                        axis order, comma-separated, e.g. "storage_gb,cpus")
 *   /axes/<param>      1-D float64 [n_values], a dimension scale (H5DSset_scale, NAME =
 *                        <param>); attributes `units`, `description` (from the descriptor)
 *   /outputs/<output>  N-D float64, shape = axis lengths in axis order, chunked, shuffled
 *                        and deflated; fill value NaN; attributes `units`, `description`;
 *                        scale of axis k attached to dimension k, dimension k labelled with
 *                        the axis name (H5DSset_label); NaN where /status != 1
 *   /status            N-D uint8, same shape, chunking, scales and labels; attributes
 *                        `codes` (text of the codes below), `units` ("1"), `description`
 *   /parameters        group with two attributes per fixed (non-swept) parameter:
 *                        <param> (scalar float64, the value) and <param>_units (string);
 *                        in h5py: g.attrs["storage_gb"], g.attrs["storage_gb_units"]
 *
 * Blocks: a block is one hyperslab and one contiguous range of flat indices: fixed indices
 * on the axes before a "split" axis, consecutive indices on the split axis, all of the
 * axes after it (at most opt->block_points points). Chunks (at most 65536 points) are
 * aligned with the blocks, so every write covers whole chunks.
 */
#ifndef ZVMPERF_SWEEP_H
#define ZVMPERF_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest grid a sweep accepts, in points (the product of the axis lengths): 10^9 points
 * make 8 GB per output uncompressed; larger studies are split into several sweeps. */
#define ZVP_SWEEP_MAX_POINTS 1000000000ULL

/* Status values stored per point in /status. */
enum {
    ZVP_POINT_NOT_COMPUTED = 0,
    ZVP_POINT_OK = 1,
    ZVP_POINT_UNSTABLE = 2, /* no steady state: outputs NaN */
    ZVP_POINT_INVALID = 3   /* invalid input at this point: outputs NaN */
};

/* One sweep axis: a parameter name and its values (caller-owned during the call). */
typedef struct zvp_axis {
    const char *name;     /* a parameter of the model */
    const double *values; /* [n_values], finite */
    size_t n_values;      /* >= 1 */
} zvp_axis;

/**
 * zvp_axis_parse - parse "NAME=LO:HI:STEP", "NAME=V1,V2,..." or "NAME=V" into a name and a
 * newly allocated value array (spaces around NAME and the numbers are allowed).
 * A range gives LO + i*STEP for i = 0, 1, ... (computed, never accumulated) while
 * i <= (HI - LO)/STEP x (1 + 1e-9): HI is included when it lies on the grid within a
 * relative 1e-9 of HI - LO, and the last value is then HI itself (so 0:0.3:0.1 ends at
 * 0.3, not 0.30000000000000004). A list keeps its order (not sorted, not de-duplicated).
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

/* Options of a sweep run (plain struct; fill with zvp_sweep_options_init). */
typedef struct zvp_sweep_options {
    int32_t threads;       /* OpenMP threads; 0 = the OpenMP default */
    int32_t reserved;
    uint64_t block_points; /* points per block (memory ~ block_points x (n_outputs + 1) x 8 B); 0 = 65536;
                              values below 65536 (one HDF5 chunk) are raised to 65536 */
    const char *command;   /* command line recorded as the root attribute `command` (may be NULL) */
} zvp_sweep_options;

/** zvp_sweep_options_init - defaults: threads 0, reserved 0, block_points 65536, command
 *  NULL. A NULL opt is a no-op. */
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
 * mf's values) and write the HDF5 file `path` (created or truncated; layout above).
 * Every axis value is checked against its parameter's [min, max] before anything is
 * written: one value outside it makes the whole sweep ZVP_EINVAL (no file is created).
 * Each point is then evaluated with zvp_model_eval: ZVP_SUCCESS -> status 1, ZVP_EUNSTABLE
 * (no steady state, or a non-finite output) -> 2, ZVP_EINVAL -> 3, outputs NaN for 2 and 3.
 * Status 3 is a value the model rejects at that point although it lies in the range: a
 * non-whole value of an integer parameter (e.g. servers = 1.5), a combination the model
 * refuses (e.g. fsio's cp_memory_gb >= real_memory_gb), or a fixed value written out of
 * range through zvp_model_file_params (then every point). Any other model status
 * (ZVP_EMAXITER, ZVP_ENOMEM, ...) stops the sweep after
 * the current block is written: that point and the rest keep status 0, and the status
 * is returned with a message naming the first such point (flat index and axis values).
 * @param[in]  mf       model and fixed parameters (and the model-file text recorded).
 * @param[in]  axes     [n_axes] axes; names must be parameters of the model, each at most
 *                      once; values finite; 1 <= n_axes <= 8.
 * @param[in]  path     output file.
 * @param[in]  opt      options, or NULL for defaults; threads >= 0.
 * @param[out] summary  may be NULL; filled also on failure (points counted so far).
 * @return ZVP_SUCCESS (even when some points are unstable or invalid: see /status);
 *         ZVP_ENOTFOUND (unknown axis name; the message names it and lists the model's
 *         parameters); ZVP_EINVAL (bad axis, duplicate axis, an axis value outside the
 *         parameter's range, more than ZVP_SWEEP_MAX_POINTS points, threads < 0,
 *         NULL argument); ZVP_EIO (HDF5 failure: the message names the file and the
 *         object; HDF5's own error printing is off during the call and restored after);
 *         ZVP_ENOMEM; a model status as described above.
 * Memory: block_points x (8 n_outputs + 1) bytes plus one parameter/output vector per
 * thread, and HDF5's chunk cache; independent of the grid size.
 * Thread safety: uses OpenMP internally; HDF5 is called from the calling thread only,
 * outside the parallel regions; do not call HDF5 from other threads meanwhile.
 */
int zvp_sweep_run(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                  const char *path, const zvp_sweep_options *opt, zvp_sweep_summary *summary,
                  zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_SWEEP_H */
