/*
 * src/sweep/plan.c - the plan of an HDF5 sweep: the axes checked against the model, and
 * the grid cut into blocks (one hyperslab and one contiguous range of flat indices each)
 * and HDF5 chunks aligned with the blocks. The construction is described in
 * src/sweep/README.md, "Blocks and chunks".
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "internal.h"
#include "sweep/sweep_impl.h"

/* Tiling of the grid for a target number of points (src/sweep/README.md): split axis,
 * trailing product S_a and count c along the split axis. target >= 1. */
static void zvp_sweep_tile(const uint64_t *dims, size_t n, uint64_t target, size_t *axis,
                           uint64_t *inner, uint64_t *count)
{
    size_t a = n - 1;
    uint64_t s = 1; /* S_a */
    while (a > 0 && s * dims[a] <= target) {
        s *= dims[a];
        a--;
    }
    *axis = a;
    *inner = s;
    *count = target / s < dims[a] ? target / s : dims[a];
}

int zvp_sweep_make_plan(const zvp_model_file *mf, const zvp_axis *axes, size_t n_axes,
                        uint64_t block_points, zvp_sweep_plan *pl, zvp_error *err)
{
    const zvp_model *m = zvp_model_file_model(mf);
    size_t k, i, ca;
    uint64_t ci, cc;
    int rc;
    memset(pl, 0, sizeof *pl);
    if (!m)
        return zvp_fail(err, ZVP_EINVAL, "sweep: the model file has no model");
    if (n_axes < 1 || n_axes > ZVP_SWEEP_MAX_AXES)
        return zvp_fail(err, ZVP_EINVAL, "sweep: n_axes = %zu is out of range [1, %d]", n_axes,
                        ZVP_SWEEP_MAX_AXES);
    pl->m = m;
    pl->n_axes = n_axes;
    pl->points = 1;
    for (k = 0; k < n_axes; k++) {
        const zvp_axis *ax = &axes[k];
        const zvp_param_desc *d;
        if ((rc = zvp_grid_resolve_axis(m, axes, k, pl->param, "sweep", err)))
            return rc;
        for (i = 0; i < ax->n_values; i++)
            if (!isfinite(ax->values[i]))
                return zvp_fail(err, ZVP_EINVAL, "sweep axis '%s': value %zu = %g is not finite",
                                ax->name, i, ax->values[i]);
        if ((uint64_t)ax->n_values > UINT64_MAX / pl->points ||
            (uint64_t)ax->n_values * pl->points > (uint64_t)(SIZE_MAX / 2))
            return zvp_fail(err, ZVP_EINVAL, "sweep: too many points (axis '%s' makes the grid "
                            "larger than %zu points)", ax->name, (size_t)(SIZE_MAX / 2));
        d = &m->params[pl->param[k]];
        for (i = 0; i < ax->n_values; i++)
            if (ax->values[i] < d->min || ax->values[i] > d->max)
                return zvp_fail(err, ZVP_EINVAL,
                                "sweep axis '%s': value %.17g is out of range [%.17g, %.17g] "
                                "(unit %s)",
                                ax->name, ax->values[i], d->min, d->max, d->unit);
        for (i = 0; d->integer && i < ax->n_values; i++)
            if (ax->values[i] != floor(ax->values[i]))
                return zvp_fail(err, ZVP_EINVAL,
                                "sweep axis '%s': value %.17g is not a whole number; %s must be "
                                "whole (an integer in [%.17g, %.17g], unit %s)",
                                ax->name, ax->values[i], ax->name, d->min, d->max, d->unit);
        pl->points *= (uint64_t)ax->n_values;
        if (pl->points > ZVP_SWEEP_MAX_POINTS)
            return zvp_fail(err, ZVP_EINVAL,
                            "sweep: the grid has %llu points or more (axis '%s' brings it there); "
                            "at most %llu points are allowed: split the study into several sweeps",
                            (unsigned long long)pl->points, ax->name,
                            (unsigned long long)ZVP_SWEEP_MAX_POINTS);
        pl->dims[k] = (uint64_t)ax->n_values;
        pl->values[k] = ax->values;
    }
    /* Blocks of fewer points than a chunk would make small chunks (large files, slow
     * writes): a block holds at least one chunk's worth of points. */
    if (block_points < ZVP_SWEEP_CHUNK_TARGET)
        block_points = ZVP_SWEEP_CHUNK_TARGET;
    if (block_points > pl->points)
        block_points = pl->points;
    /* chunks: at most ZVP_SWEEP_CHUNK_TARGET points, aligned with the blocks */
    zvp_sweep_tile(pl->dims, n_axes, block_points < ZVP_SWEEP_CHUNK_TARGET ? block_points
                                                                           : ZVP_SWEEP_CHUNK_TARGET,
                   &ca, &ci, &cc);
    for (k = 0; k < n_axes; k++)
        pl->chunk[k] = k < ca ? 1 : k == ca ? cc : pl->dims[k];
    zvp_sweep_tile(pl->dims, n_axes, block_points, &pl->split, &pl->inner, &pl->per_block);
    if (pl->split == ca && pl->per_block < pl->dims[ca])
        pl->per_block -= pl->per_block % cc; /* whole chunks per block (per_block >= cc) */
    pl->block_capacity = pl->per_block * pl->inner;
    return ZVP_SUCCESS;
}

uint64_t zvp_sweep_block(const zvp_sweep_plan *pl, uint64_t f0, uint64_t *start,
                         uint64_t *count)
{
    uint64_t row = f0 / pl->inner; /* flat index over the axes up to the split axis */
    uint64_t j = row % pl->dims[pl->split], outer = row / pl->dims[pl->split];
    uint64_t cnt = pl->dims[pl->split] - j < pl->per_block ? pl->dims[pl->split] - j
                                                            : pl->per_block;
    size_t k;
    for (k = pl->n_axes; k-- > 0;) {
        if (k > pl->split) {
            start[k] = 0;
            count[k] = pl->dims[k];
        } else if (k == pl->split) {
            start[k] = j;
            count[k] = cnt;
        } else {
            start[k] = outer % pl->dims[k];
            outer /= pl->dims[k];
            count[k] = 1;
        }
    }
    return cnt * pl->inner;
}

uint64_t zvp_sweep_n_blocks(const zvp_sweep_plan *pl)
{
    uint64_t row = pl->dims[pl->split] * pl->inner; /* points per outer row */
    uint64_t per_row = (pl->dims[pl->split] + pl->per_block - 1) / pl->per_block;
    return pl->points / row * per_row;
}

uint64_t zvp_sweep_block_start(const zvp_sweep_plan *pl, uint64_t b)
{
    uint64_t per_row = (pl->dims[pl->split] + pl->per_block - 1) / pl->per_block;
    return b / per_row * pl->dims[pl->split] * pl->inner + b % per_row * pl->block_capacity;
}
