/*
 * models/dump.c - z/VM system dump write rate to ECKD or EDEV dump devices, by release, with
 * the channel (link) bandwidth of the configuration as a shared server.
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "dump".
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "internal.h"
#include "zvmperf/queue.h"

#define MS 1e-3
#define FRAME_BYTES 4096.0 /* one z/VM frame, 4 KiB */

enum {
    P_FRAMES,
    P_FT_PCT,
    P_VOLUMES,
    P_MAX_FRAMES,
    P_CHAIN,
    P_RUN,
    P_T0_MS,
    P_TF_MS,
    P_FT_SINGLE,
    P_CHANNELS,
    P_GBPS,
    P_LINE_BITS,
    P_STORAGE_GB,
    P_SCAN_S_GIB,
    N_PARAMS
};

static const zvp_param_desc dump_params[N_PARAMS] = {
    {"frames", "frames", "frames dumped (integer)", 0, 1e12, 1e6, 1, 0},
    {"ft_pct", "%", "share of the dumped frames that are CP frame-table frames", 0, 100, 50, 0, 0},
    {"volumes", "1", "dump devices written in parallel, one I/O each at a time (integer; 14 "
     "3390-3 ECKD or 100 9336 EDEV in report 003)", 1, 100000, 14, 1, 0},
    {"max_frames_per_io", "frames", "largest number of frames one I/O carries (integer)", 1,
     1e6, 90, 1, 0},
    {"chain_noncontiguous", "1", "1 = an I/O chains non-contiguous frames (ECKD on z/VM 6.3), "
     "0 = an I/O carries one contiguous run only (integer 0 or 1)", 0, 1, 1, 1, 0},
    {"other_run_frames", "frames", "mean length of the contiguous runs of non-frame-table "
     "frames (geometric runs; 1 = isolated frames)", 1, 1e9, 1, 0, 0},
    {"io_overhead_ms", "ms", "device time per I/O independent of its size, t0", 0, 1e4, 0.3, 0, 0},
    {"frame_transfer_ms", "ms", "device time per frame written, t_f (the channel transfer "
     "is counted separately)", 1e-6, 1e4, 2, 0, 0},
    {"ft_single_writes", "1", "further single-frame writes of each frame-table frame besides "
     "its contiguous one (integer; 1 on z/VM 6.2, 0 on 6.3: inferred, see models/README.md)",
     0, 4, 0, 1, 0},
    {"channels", "1", "channels (links) shared by the dump I/Os (integer; four Fibre-channel "
     "switched channels (ECKD) or one Fibre-channel-protocol channel (EDEV) in report 003)",
     1, 1024, 4, 1, 0},
    {"channel_gbps", "Gbit/s", "link rate of one channel as the report states it (8.0 ECKD, "
     "16.8 EDEV in report 003)", 0.01, 1e4, 8, 0, 0},
    {"line_bits_per_byte", "1", "link bits per data byte (10 = 8b/10b coding of Fibre "
     "Channel up to 8 Gbit/s; 8 = no coding overhead, an upper bound)", 8, 10, 10, 0, 0},
    {"storage_gb", "GiB", "real (SYSGEN) storage of the dumped system (256 or 1024 in report "
     "003)", 0, 1e7, 256, 0, 0},
    {"scan_s_per_gib", "s/GiB", "time per dump per GiB of real storage, before and after the "
     "writes (choosing the frames to dump from every frame's entry; see models/README.md)",
     0, 100, 0, 0, 0},
};

enum {
    O_RATE,
    O_ELAPSED,
    O_FRAMES_PER_IO,
    O_IO_RATE,
    O_IO_TIME,
    O_DEV_CAP,
    O_CH_CAP,
    O_CH_UTIL,
    O_SCAN,
    N_OUTPUTS
};

static const zvp_param_desc dump_outputs[N_OUTPUTS] = {
    {"rate_frames_per_s", "frames/s", "dump rate (frames dumped / elapsed time)", 0, INFINITY,
     0, 0, 0},
    {"elapsed_s", "s", "dump elapsed time", 0, INFINITY, 0, 0, 0},
    {"frames_per_io", "frames", "mean frames written per I/O", 0, INFINITY, 0, 0, 0},
    {"io_rate_per_s", "1/s", "dump I/Os per second over all devices", 0, INFINITY, 0, 0, 0},
    {"io_time_ms", "ms", "mean device time per I/O (without the channel)", 0, INFINITY, 0, 0, 0},
    {"device_cap_frames_per_s", "frames/s", "rate with an infinitely fast channel: volumes / "
     "device time per dumped frame", 0, INFINITY, 0, 0, 0},
    {"channel_cap_frames_per_s", "frames/s", "rate with infinitely fast devices: channels x "
     "link bytes per second / bytes written per dumped frame", 0, INFINITY, 0, 0, 0},
    {"channel_util_pct", "%", "mean utilization of the channels", 0, 100, 0, 0, 0},
    {"scan_s", "s", "time of the dump not spent writing: storage_gb x scan_s_per_gib", 0,
     INFINITY, 0, 0, 0},
};

static int dump_eval(const double *p, double *out, zvp_error *err)
{
    const double f = p[P_FT_PCT] / 100.0, b_max = p[P_MAX_FRAMES], m = p[P_RUN];
    const double t0 = p[P_T0_MS] * MS, tf = p[P_TF_MS] * MS, x = p[P_FT_SINGLE];
    /* seconds of one channel per 4 KiB frame */
    const double s_frame = FRAME_BYTES * p[P_LINE_BITS] / (p[P_GBPS] * 1e9);
    double n_main, n_io, w, dev_per_frame, z, s;
    zvp_station_result r;

    /* zvp_model_eval has checked every parameter (ranges, whole numbers) */
    if (p[P_CHAIN] == 1.0) {
        n_main = 1.0 / b_max;
    } else {
        /* E[min(L, B)] = m (1 - p^B), p = 1 - 1/m; p^B = exp(B log1p(-1/m)) (m = 1: p = 0) */
        double e_other = m > 1.0 ? -m * expm1(b_max * log1p(-1.0 / m)) : 1.0;
        n_main = f / b_max + (1.0 - f) / e_other;
    }
    n_io = n_main + x * f;     /* I/Os per dumped frame */
    w = 1.0 + x * f;           /* frames written per dumped frame */
    dev_per_frame = n_io * t0 + w * tf;
    z = dev_per_frame / n_io;  /* device time per I/O: the source's "think" time */
    s = w * s_frame / n_io;    /* channel time per I/O */
    /* each volume keeps one I/O in flight: N = volumes sources, c = channels servers */
    int st = zvp_repairman((unsigned long)p[P_VOLUMES], z, s, (unsigned long)p[P_CHANNELS], &r,
                           err);
    if (st != ZVP_SUCCESS)
        return st;
    /* writing rate r_w = X / n'; elapsed = T_s + frames / r_w; rate = frames / elapsed */
    const double dev_cap = p[P_VOLUMES] / dev_per_frame, ch_cap = p[P_CHANNELS] / (w * s_frame);
    /* the network's rate never exceeds either cap; the min keeps rounding (a few ulps at
     * saturation) from doing so */
    const double r_w = fmin(r.throughput_per_s / n_io, fmin(dev_cap, ch_cap));
    const double t_scan = p[P_STORAGE_GB] * p[P_SCAN_S_GIB];
    out[O_ELAPSED] = t_scan + p[P_FRAMES] / r_w;
    out[O_RATE] = t_scan > 0.0 ? p[P_FRAMES] / out[O_ELAPSED] : r_w;
    out[O_FRAMES_PER_IO] = w / n_io;
    out[O_IO_RATE] = r.throughput_per_s;
    out[O_IO_TIME] = z / MS;
    out[O_DEV_CAP] = dev_cap;
    out[O_CH_CAP] = ch_cap;
    out[O_CH_UTIL] = 100.0 * r.utilization;
    out[O_SCAN] = t_scan;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_dump = {
    "dump",
    "z/VM system dump write rate: I/Os of t0 + b t_f on parallel dump devices, frames per I/O "
    "set by the release's chaining (any frames vs contiguous runs only, frame-table frames "
    "contiguous, other frames in geometric runs); the volumes share the configuration's "
    "channels as a finite-source M/M/c//N queue (channel time = bytes / link rate); "
    "elapsed = frames / rate.",
    "report 003 ("
    "System Dump Improvements), "
    "Tables 2, 3, 4 and their notes (channels, link rates, volumes)",
    N_PARAMS, dump_params,
    N_OUTPUTS, dump_outputs,
    dump_eval,
    NULL, /* no network for the simulator */
};
