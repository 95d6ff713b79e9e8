/*
 * src/sweep/sweep_impl.h - private interface between the parts of the sweep engine
 * (axis.c, grid.c, plan.c, h5write.c). Not installed. See src/sweep/README.md.
 */
#ifndef ZVMPERF_SWEEP_IMPL_H
#define ZVMPERF_SWEEP_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include "zvmperf/sweep.h"

#define ZVP_SWEEP_MAX_AXES 8
#define ZVP_SWEEP_DEFAULT_BLOCK 65536u
#define ZVP_SWEEP_CHUNK_TARGET 65536u /* points per HDF5 chunk, at most (512 KiB float64) */

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
} zvp_sweep_plan;

/* zvp_sweep_make_plan - check the axes of a sweep of mf (names, duplicates, finite values
 * within each parameter's [min, max], 1..8 axes, at most ZVP_SWEEP_MAX_POINTS points) and
 * cut the grid into blocks of about block_points points (raised to one chunk). */
int zvp_sweep_make_plan(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                        uint64_t block_points, zvp_sweep_plan *pl, zvp_error *err);

/* zvp_sweep_block - the block that starts at flat point f0: its hyperslab start[]/count[]
 * (n_axes entries each) and its number of points (returned). */
uint64_t zvp_sweep_block(const zvp_sweep_plan *pl, uint64_t f0, uint64_t *start,
                         uint64_t *count);

#endif
