/*
 * models/dump.c - z/VM system dump write rate to ECKD or EDEV dump devices, by release.
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "dump".
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "internal.h"

#define MS 1e-3

enum {
    P_FRAMES,
    P_FT_PCT,
    P_VOLUMES,
    P_MAX_FRAMES,
    P_CHAIN,
    P_RUN,
    P_T0_MS,
    P_TF_MS,
    P_FT_EXTRA,
    N_PARAMS
};

static const zvp_param_desc dump_params[N_PARAMS] = {
    {"frames", "frames", "frames dumped (integer)", 0, 1e12, 1e6, 1, 0},
    {"ft_pct", "%", "share of the dumped frames that are CP frame-table frames", 0, 100, 50, 0, 0},
    {"volumes", "1", "dump devices written in parallel (integer; 14 3390-3 ECKD or 100 9336 "
     "EDEV in report 003)", 1, 100000, 14, 1, 0},
    {"max_frames_per_io", "frames", "largest number of frames one I/O carries (integer)", 1,
     1e6, 90, 1, 0},
    {"chain_noncontiguous", "1", "1 = an I/O chains non-contiguous frames (ECKD on z/VM 6.3), "
     "0 = an I/O carries one contiguous run only (integer 0 or 1)", 0, 1, 1, 1, 0},
    {"other_run_frames", "frames", "mean length of the contiguous runs of non-frame-table "
     "frames (geometric runs; 1 = isolated frames)", 1, 1e9, 1, 0, 0},
    {"io_overhead_ms", "ms", "device time per I/O independent of its size, t0", 0, 1e4, 0.3, 0, 0},
    {"frame_transfer_ms", "ms", "device time per frame written, t_f", 1e-6, 1e4, 2, 0, 0},
    {"ft_extra_ios_per_frame", "1", "additional single-frame I/Os per frame-table frame", 0,
     100, 0, 0, 0},
};

enum { O_RATE, O_ELAPSED, O_FRAMES_PER_IO, O_IO_RATE, O_IO_TIME, N_OUTPUTS };

static const zvp_param_desc dump_outputs[N_OUTPUTS] = {
    {"rate_frames_per_s", "frames/s", "dump rate (frames dumped / elapsed time)", 0, INFINITY,
     0, 0, 0},
    {"elapsed_s", "s", "dump elapsed time", 0, INFINITY, 0, 0, 0},
    {"frames_per_io", "frames", "mean dumped frames per I/O", 0, INFINITY, 0, 0, 0},
    {"io_rate_per_s", "1/s", "dump I/Os per second over all devices", 0, INFINITY, 0, 0, 0},
    {"io_time_ms", "ms", "mean device time per I/O", 0, INFINITY, 0, 0, 0},
};

static int dump_eval(const double *p, double *out, zvp_error *err)
{
    const double f = p[P_FT_PCT] / 100.0, b_max = p[P_MAX_FRAMES], m = p[P_RUN];
    const double t0 = p[P_T0_MS] * MS, tf = p[P_TF_MS] * MS, x = p[P_FT_EXTRA];
    double n_main, n_io, dev_per_frame, tau;

    /* zvp_model_eval has checked every parameter (ranges, whole numbers) */
    if (p[P_CHAIN] == 1.0) {
        n_main = 1.0 / b_max;
    } else {
        /* E[min(L, B)] = m (1 - p^B), p = 1 - 1/m; p^B = exp(B log1p(-1/m)) (m = 1: p = 0) */
        double e_other = m > 1.0 ? -m * expm1(b_max * log1p(-1.0 / m)) : 1.0;
        n_main = f / b_max + (1.0 - f) / e_other;
    }
    n_io = n_main + x * f;
    dev_per_frame = n_io * t0 + tf * (1.0 + x * f);
    tau = dev_per_frame / p[P_VOLUMES];
    out[O_RATE] = 1.0 / tau;
    out[O_ELAPSED] = p[P_FRAMES] * tau;
    out[O_FRAMES_PER_IO] = 1.0 / n_io;
    out[O_IO_RATE] = n_io / tau;
    out[O_IO_TIME] = dev_per_frame / n_io / MS;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_dump = {
    "dump",
    "z/VM system dump write rate: I/Os of t0 + b t_f on parallel dump devices, frames per I/O "
    "set by the release's chaining (any frames vs contiguous runs only, frame-table frames "
    "contiguous, other frames in geometric runs); rate by renewal-reward, elapsed = frames / "
    "rate.",
    "report 003 ("
    "System Dump Improvements), "
    "Tables 2, 3, 4",
    N_PARAMS, dump_params,
    N_OUTPUTS, dump_outputs,
    dump_eval,
    NULL, /* no network for the simulator */
};
