/*
 * models/paging.c - paging DASD as a service queue (block paging).
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "paging".
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "paging.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define MS 1e-3

enum {
    P_VOLUMES,
    P_PAGES_PER_IO,
    P_PAGES_PER_READ_IO,
    P_IO_OVERHEAD_MS,
    P_PAGE_TRANSFER_MS,
    P_PAGEOUT_RATE,
    P_PAGEIN_RATE,
    N_PARAMS
};

static const zvp_param_desc paging_params[N_PARAMS] = {
    {"volumes", "1",
     "paging devices serving I/O concurrently (volumes, or exposures with HyperPAV aliases), "
     "integer",
     1, 100000, 32, 1, 0},
    {"pages_per_io", "pages", "mean pages written per page-out (block write) I/O", 1, 4096, 16, 0, 0},
    {"pages_per_read_io", "pages", "mean pages read per page-in (block read) I/O", 1, 4096, 1, 0, 0},
    {"io_overhead_ms", "ms", "device time per I/O independent of its size (start, protocol, "
     "positioning)", 0, 1e4, 0.2, 0, 0},
    {"page_transfer_ms", "ms", "device time per 4 KiB page transferred", 1e-6, 1e4, 0.17, 0, 0},
    {"pageout_rate_per_s", "pages/s", "page-out (write) demand", 0, 1e9, 0, 0, 0},
    {"pagein_rate_per_s", "pages/s", "page-in (read) demand", 0, 1e9, 0, 0, 0},
};

enum {
    O_PAGEOUT_MAX,
    O_PAGEOUT_MAX_K,
    O_IO_RATE,
    O_UTIL,
    O_RESPONSE,
    O_WAIT,
    O_PAGEIN_RESPONSE,
    N_OUTPUTS
};

static const zvp_param_desc paging_outputs[N_OUTPUTS] = {
    {"pageout_max_per_s", "pages/s",
     "page-out capacity: (volumes - page-in load) x pages_per_io / S_io", 0, INFINITY, 0, 0, 0},
    {"pageout_max_kpages_per_s", "kpages/s", "the same in thousand pages per second", 0,
     INFINITY, 0, 0, 0},
    {"io_rate_per_s", "1/s", "paging I/Os per second (page-out + page-in)", 0, INFINITY, 0, 0, 0},
    {"device_util_pct", "%", "utilization of the paging devices", 0, 100, 0, 0, 0},
    {"io_response_s", "s", "mean paging I/O response time (wait + service), M/M/c", 0, INFINITY,
     0, 0, 0},
    {"io_wait_s", "s", "mean wait of a paging I/O for a device (Erlang C)", 0, INFINITY, 0, 0, 0},
    {"pagein_io_response_s", "s", "response time of a page-in I/O (wait + read service)", 0,
     INFINITY, 0, 0, 0},
};

double zvp_paging_pageout_max_per_s(double volumes, double pages_per_io, double io_overhead_s,
                                    double page_transfer_s)
{
    double s_io;
    if (!(volumes > 0) || !(pages_per_io > 0) || !(io_overhead_s >= 0) || !(page_transfer_s >= 0) ||
        !isfinite(volumes) || !isfinite(pages_per_io) || !isfinite(io_overhead_s) ||
        !isfinite(page_transfer_s))
        return NAN;
    s_io = io_overhead_s + pages_per_io * page_transfer_s;
    if (!(s_io > 0))
        return NAN;
    return volumes * pages_per_io / s_io;
}

static void set_nan(double *out)
{
    for (int i = 0; i < N_OUTPUTS; i++)
        out[i] = NAN;
}

static int paging_eval(const double *p, double *out, zvp_error *err)
{
    const double c = p[P_VOLUMES], bw = p[P_PAGES_PER_IO], br = p[P_PAGES_PER_READ_IO];
    const double t_ov = p[P_IO_OVERHEAD_MS] * MS, t_pg = p[P_PAGE_TRANSFER_MS] * MS;
    const double lw = p[P_PAGEOUT_RATE], lr = p[P_PAGEIN_RATE];
    double s_w, s_r, io_w, io_r, io, a_r, a, s_mean;
    zvp_station_result q;
    int st;

    set_nan(out); /* zvp_model_eval has checked the parameters (volumes is a whole number) */
    s_w = t_ov + bw * t_pg;
    s_r = t_ov + br * t_pg;
    io_w = lw / bw;
    io_r = lr / br;
    io = io_w + io_r;
    a_r = io_r * s_r;
    a = io_w * s_w + a_r;
    if (a >= c)
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "paging: device utilization %.6g >= 1 (page-out %.6g + page-in %.6g "
                        "pages/s on %.17g volumes): no steady state",
                        a / c, lw, lr, c);
    s_mean = io > 0 ? a / io : s_w;
    st = zvp_mmc(io, 1.0 / s_mean, (unsigned long)c, &q, err);
    if (st != ZVP_SUCCESS)
        return st;
    out[O_PAGEOUT_MAX] = zvp_paging_pageout_max_per_s(c - a_r, bw, t_ov, t_pg);
    out[O_PAGEOUT_MAX_K] = out[O_PAGEOUT_MAX] / 1e3;
    out[O_IO_RATE] = io;
    out[O_UTIL] = 100.0 * a / c;
    out[O_RESPONSE] = q.wait_s + s_mean;
    out[O_WAIT] = q.wait_s;
    out[O_PAGEIN_RESPONSE] = q.wait_s + s_r;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_paging = {
    "paging",
    "Paging DASD as a multi-server queue with block paging: service time per I/O = overhead + "
    "pages x transfer time; page-out ceiling volumes x pages_per_io / S_io (less the servers "
    "taken by page-ins); M/M/c (Erlang C) response time and device utilization at the given "
    "page-out and page-in rates.",
    "report 000 ("
    "Memory Management Serialization Contention Relief and 2 TB Central Storage Support), "
    "Tables 3 and 4 (ETR of the DASD-limited CM4 phase = the page-out ceiling); "
    "block paging on a multi-server queue (models/README.md, paging)",
    N_PARAMS, paging_params,
    N_OUTPUTS, paging_outputs,
    paging_eval,
    NULL, /* no network for the simulator */
};
