/*
 * models/sweetspot.c - the Sweet Spot Priming workload (VIRSTOEX) on z/VM 6.3 and 6.4: one
 * mechanism for both releases. When page-out to paging DASD is the bottleneck, the CPUs whose
 * users need frames and find none go round the frame-request path again (retry, or defer and
 * come back), taking an available-list lock on every pass: lock demand, spin and CPU busy
 * follow from the frame shortfall. The z/VM 6.4 changes that report 000 names are release
 * parameters (available-list zones, PTRM allocations spread by CPU address, the defer logic
 * that checks the global IBR aging list first).
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "sweetspot".
 */

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "paging.h"
#include "registry.h"
#include "sweetspot.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define PAGES_PER_GB 262144.0 /* 4 KiB frames per GiB */
#define US 1e-6

enum {
    P_STORAGE_GB,
    P_CPUS,
    P_USERS_PER_PHASE,
    P_USER_VIRTUAL_GB,
    P_TOUCH_FRACTION,
    P_LOCK_ZONES,
    P_ZONE_MAX,
    P_AVAIL_HOLD_US,
    P_HOLD_SCV,
    P_CP_WORK_US,
    P_RETRY_WORK_US,
    P_DEFER_US,
    P_OTHER_HOLD_US,
    P_OTHER_LOCKS,
    P_IBR_CHECK,
    P_IBR_HOLD_US,
    P_PAGING_VOLUMES,
    P_PAGES_PER_IO,
    P_IO_OVERHEAD_MS,
    P_PAGE_TRANSFER_MS,
    P_FRAMES_PER_ACQ,
    P_RETURN_HOLD_US,
    P_LOGOFF_WORK_US,
    N_PARAMS
};

static const zvp_param_desc sweetspot_params[N_PARAMS] = {
    {"storage_gb", "GiB", "central storage", 1, 65536, 256, 0, 0},
    {"cpus", "1", "processors (IFL cores) dedicated to the LPAR, integer", 1, 4096, 64, 1, 0},
    {"users_per_phase", "1",
     "users logged on in each of the four priming phases (Table 1), one virtual CPU each", 1,
     1e6, 88, 1, 0},
    {"user_virtual_gb", "GiB",
     "virtual memory size of each user; 0 = scaled with storage as the workload does "
     "(Table 1: 2 GiB + 4.5 GiB per 256 GiB of central storage)",
     0, 1e6, 0, 0, 0},
    {"touch_fraction", "1", "workload: share of each user's virtual memory above 2 GiB that "
     "priming changes", 1e-6, 1, 0.21, 0, 0},
    {"lock_zones", "1",
     "release (z/VM 6.4 available-list zones, report 000): available-list locks; 1 = one "
     "global lock (z/VM 6.3, RSA2GLCK), 0 = one zone per CPU up to zone_max, L > 1 = L zones",
     0, 65536, 1, 1, 0},
    {"zone_max", "1", "release (available-list zones): largest zone count when lock_zones = 0",
     1, 65536, 64, 1, 0},
    {"avail_hold_us", "us", "workload: available-list lock hold per acquisition", 1e-3, 1e4, 4.4,
     0, 0},
    {"hold_scv", "1", "workload: squared coefficient of variation of every lock hold (1 "
     "exponential, 0 constant)", 0, 100, 12, 0, 0},
    {"cp_work_us", "us",
     "workload: CP work outside the locks per page written while paging, and per frame "
     "obtained while priming", 0, 1e7, 23, 0, 0},
    {"retry_work_us", "us",
     "workload: CP work outside the locks per pass round the frame-request path that finds no "
     "frame (defer, retry, replenishment)", 0, 1e7, 170, 0, 0},
    {"defer_us", "us",
     "workload: time a user stays deferred (its CPU free) per pass that finds no frame", 0, 1e7,
     150, 0, 0},
    {"other_hold_us", "us",
     "workload: hold of the other CP locks of the paging path (PTRM address-space allocation) "
     "per page written", 0, 1e4, 3.5, 0, 0},
    {"other_locks", "1",
     "release (z/VM 6.4 spreads PTRM allocations by CPU address over the 128 PTRM address "
     "spaces, report 000): lock instances the other-lock traffic spreads over; 1 on z/VM 6.3",
     1, 65536, 1, 1, 0},
    {"ibr_check", "1",
     "release (z/VM 6.4 defer logic checks the global IBR aging list before deferring, report "
     "000): IBR aging-list lock visits per pass that finds no frame; 0 on z/VM 6.3",
     0, 100, 0, 0, 0},
    {"ibr_hold_us", "us", "workload: global IBR aging-list lock hold per check", 0, 1e4, 2.9, 0,
     0},
    /* The paging DASD (model `paging`, models/README.md, paging): defaults are the calibration
     * calibration/params/paging-zvm64.ini (volumes, block size and overhead are assumptions
     * stated there; the transfer time is fitted to the CM4 ETR of Tables 3 and 4). */
    {"paging_volumes", "1", "paging devices serving page-out concurrently, integer", 1, 1e5, 32, 1, 0},
    {"pages_per_io", "1", "pages written per block page-out I/O", 1, 4096, 16, 0, 0},
    {"io_overhead_ms", "ms", "paging I/O time independent of its size", 0, 1e4, 0.2, 0, 0},
    {"page_transfer_ms", "ms", "paging I/O time per 4 KiB page", 0, 1e4, 0.167017133231, 0, 0},
    {"frames_per_acq", "1", "workload: frames obtained per available-list acquisition while "
     "priming", 1, 1e5, 7, 0, 0},
    {"return_hold_us", "us", "workload: available-list lock hold per frame returned at logoff",
     1e-3, 1e4, 1.2, 0, 0},
    {"logoff_work_us", "us", "workload: CPU work per frame returned at logoff, outside the lock",
     0, 1e7, 65, 0, 0},
};

enum {
    O_ETR,
    O_ITR,
    O_BUSY,
    O_SPIN,
    O_AVAIL_SPIN,
    O_CM1,
    O_CM2,
    O_CM3,
    O_CM4,
    O_LOGOFF,
    O_AVAIL_UTIL,
    O_ZONES,
    O_CM4_WRITTEN,
    N_OUTPUTS
};

static const zvp_param_desc sweetspot_outputs[N_OUTPUTS] = {
    {"etr", "kpages/s", "thousand pages written to paging DASD per second while CM4 pages out "
     "(the steady state, not a phase average; 0 when nothing is paged out)", 0, INFINITY, 0, 0,
     0},
    {"itr", "kpages/s", "ETR / (busy per processor / 100) (0 when nothing is paged out)", 0,
     INFINITY, 0, 0, 0},
    {"busy_per_cpu_pct", "%", "total busy per processor while CM4 pages out (steady state, not a "
     "phase average)", 0, 100, 0, 0, 0},
    {"spin_busy_pct", "%", "total spin lock busy while CM4 pages out, summed over CPUs (steady "
     "state, not a phase average)", 0, INFINITY, 0, 0, 0},
    {"avail_spin_busy_pct", "%",
     "spin busy on the available-list locks (RSA2GLCK on 6.3, AVZ zone locks on 6.4) while CM4 "
     "pages out", 0,
     INFINITY, 0, 0, 0},
    {"cm1_priming_s", "s", "elapsed time of the CM1 priming phase", 0, INFINITY, 0, 0, 0},
    {"cm2_priming_s", "s", "elapsed time of the CM2 priming phase", 0, INFINITY, 0, 0, 0},
    {"cm3_priming_s", "s", "elapsed time of the CM3 priming phase", 0, INFINITY, 0, 0, 0},
    {"cm4_priming_s", "s", "elapsed time of the CM4 (paging) priming phase", 0, INFINITY, 0, 0, 0},
    {"logoff_s", "s", "elapsed time of the logoff of all users", 0, INFINITY, 0, 0, 0},
    {"avail_lock_util_pct", "%", "utilization of one available-list lock (zone) while CM4 pages out", 0, 100,
     0, 0, 0},
    {"lock_zones_used", "1", "number of available-list locks modelled", 1, INFINITY, 0, 0, 0},
    {"cm4_pages_written_m", "Mpages", "pages written to paging DASD in the CM4 phase", 0,
     INFINITY, 0, 0, 0},
};

/* The virtual size of each user (GiB): the parameter, or 0 = scaled with storage. */
static int user_virtual_gb(const double *p, double *virt_gb, zvp_error *err)
{
    *virt_gb = p[P_USER_VIRTUAL_GB] > 0 ? p[P_USER_VIRTUAL_GB] : 2.0 + 4.5 * p[P_STORAGE_GB] / 256.0;
    if (*virt_gb < 2.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "sweetspot: parameter user_virtual_gb = %.17g is out of range: 0 (scaled) or [2, 1e6]",
                        *virt_gb);
    return ZVP_SUCCESS;
}

static double zones_of(const double *p)
{
    return p[P_LOCK_ZONES] >= 1 ? p[P_LOCK_ZONES] : fmin(p[P_CPUS], p[P_ZONE_MAX]);
}

/* Frame counts: pages each phase touches (P) and the pages each of CM1..CM4 must write to
 * DASD (w[1..4]) with F frames of central storage; F >= 4P: nothing is written. */
static int frame_counts(const double *p, double *pages, double *w, zvp_error *err)
{
    double virt_gb;
    int st = user_virtual_gb(p, &virt_gb, err);
    if (st != ZVP_SUCCESS)
        return st;
    const double frames = p[P_STORAGE_GB] * PAGES_PER_GB;
    *pages = p[P_USERS_PER_PHASE] * p[P_TOUCH_FRACTION] * (virt_gb - 2.0) * PAGES_PER_GB;
    w[0] = 0.0;
    for (int i = 1; i <= 4; i++)
        w[i] = fmax(0.0, i * *pages - frames) - fmax(0.0, (i - 1) * *pages - frames);
    return ZVP_SUCCESS;
}

/* The paging phase's inputs from the parameters. */
static int cm4_inputs(const double *p, ss_cm4_in *in, zvp_error *err)
{
    in->cpus = p[P_CPUS];
    in->users = p[P_USERS_PER_PHASE];
    in->zones = zones_of(p);
    in->avail_hold_s = p[P_AVAIL_HOLD_US] * US;
    in->c2 = p[P_HOLD_SCV];
    in->cp_work_s = p[P_CP_WORK_US] * US;
    in->retry_work_s = p[P_RETRY_WORK_US] * US;
    in->defer_s = p[P_DEFER_US] * US;
    in->other_hold_s = p[P_OTHER_HOLD_US] * US;
    in->other_locks = p[P_OTHER_LOCKS];
    in->ibr_visits = p[P_IBR_CHECK];
    in->ibr_hold_s = p[P_IBR_HOLD_US] * US;
    in->pageout_per_s = zvp_paging_pageout_max_per_s(p[P_PAGING_VOLUMES], p[P_PAGES_PER_IO],
                                                     p[P_IO_OVERHEAD_MS] * 1e-3,
                                                     p[P_PAGE_TRANSFER_MS] * 1e-3);
    if (!(in->pageout_per_s > 0.0) || !isfinite(in->pageout_per_s))
        return zvp_fail(err, ZVP_EINVAL,
                        "sweetspot: io_overhead_ms = %.17g and page_transfer_ms = %.17g give no "
                        "finite page-out capacity; at least one must be > 0",
                        p[P_IO_OVERHEAD_MS], p[P_PAGE_TRANSFER_MS]);
    return ZVP_SUCCESS;
}

/* One lock group alone (priming, logoff): n CPUs, work Z, hold S per acquisition. */
static double one_group_rate(const double *p, double n, double Z, double S)
{
    ss_group g = {zones_of(p), S, 1.0};
    ss_net_sol s;
    ss_mva(n, Z, p[P_HOLD_SCV], &g, 1, &s);
    return s.x_per_s;
}

static int sweetspot_eval(const double *p, double *out, zvp_error *err)
{
    const double cpus_d = p[P_CPUS], users_d = p[P_USERS_PER_PHASE];
    double pages, w[5];
    ss_cm4_in in;
    ss_cm4 s;
    int st;

    /* zvp_model_eval has checked every parameter (ranges, whole numbers) */
    if ((st = frame_counts(p, &pages, w, err)) != ZVP_SUCCESS ||
        (st = cm4_inputs(p, &in, err)) != ZVP_SUCCESS)
        return st;
    out[O_ZONES] = in.zones;
    out[O_CM4_WRITTEN] = w[4] / 1e6;
    if (w[4] > 0.0) { /* the CM4 phase pages: the frame shortfall drives the locks */
        ss_cm4_solve(&in, &s);
        out[O_ETR] = s.etr / 1e3;
        out[O_BUSY] = 100.0 * s.n / cpus_d;
        out[O_ITR] = out[O_ETR] / (out[O_BUSY] / 100.0);
        out[O_AVAIL_SPIN] = 100.0 * s.net.spin[0];
        out[O_SPIN] = 100.0 * (s.net.spin[0] + s.net.spin[1] + s.net.spin[2]);
        out[O_AVAIL_UTIL] = 100.0 * s.net.util[0];
    } else { /* nothing is paged out: no paging phase, no paging spin */
        s.etr = 0.0;
        out[O_ETR] = out[O_ITR] = out[O_BUSY] = out[O_SPIN] = out[O_AVAIL_SPIN] = 0.0;
        out[O_AVAIL_UTIL] = 0.0;
    }

    /* priming without paging: min(cpus, users) CPUs obtain frames_per_acq frames per
     * acquisition after cp_work_us of CP work per frame */
    const double f = p[P_FRAMES_PER_ACQ];
    const double touch = f * one_group_rate(p, fmin(cpus_d, users_d), f * in.cp_work_s,
                                            in.avail_hold_s);
    for (int i = 1; i <= 4; i++)
        out[O_CM1 + i - 1] = (pages - w[i]) / touch + (w[i] > 0 ? w[i] / s.etr : 0.0);

    /* logoff: all users' resident frames go back to the available lists, one per acquisition */
    const double frames = p[P_STORAGE_GB] * PAGES_PER_GB;
    const double ret = one_group_rate(p, fmin(cpus_d, 4.0 * users_d), p[P_LOGOFF_WORK_US] * US,
                                      p[P_RETURN_HOLD_US] * US);
    out[O_LOGOFF] = fmin(4.0 * pages, frames) / ret;
    return ZVP_SUCCESS;
}

/* ---- the network for the simulator ------------------------------------------------------- */

/* The paging (CM4) network at the analytic eval's final state (n CPUs on the frame-request
 * path, rounded to whole CPUs; share phi of passes that get a frame), in one block: stations
 * [L zones, the other locks, the IBR aging-list lock] (a group left out when it takes no
 * time), demands, visits, customers, think. models/README.md, sweetspot, "Simulated". */
typedef struct sim_block {
    unsigned long customers;
    double think;
    size_t n_group[SS_GROUPS];
    double *demands, *visits;
    zvp_sim_station st[];
} sim_block;

static int cm4_final(const double *p, ss_cm4 *s, zvp_error *err)
{
    ss_cm4_in in;
    double pages, w[5];
    int st;
    if ((st = frame_counts(p, &pages, w, err)) != ZVP_SUCCESS ||
        (st = cm4_inputs(p, &in, err)) != ZVP_SUCCESS)
        return st;
    if (!(w[4] > 0.0))
        return zvp_fail(err, ZVP_EINVAL,
                        "sweetspot: storage_gb = %.17g leaves nothing to page out in CM4 (4 x "
                        "%.6g pages touched fit in the frames): there is no paging network to "
                        "simulate; use less storage or more users",
                        p[P_STORAGE_GB], pages);
    ss_cm4_solve(&in, s);
    return ZVP_SUCCESS;
}

static int sweetspot_network(const double *p, zvp_sim_network *net, void **storage,
                             zvp_error *err)
{
    ss_cm4 s;
    int st;
    *storage = NULL;
    if ((st = cm4_final(p, &s, err)) != ZVP_SUCCESS)
        return st;
    size_t n_group[SS_GROUPS], K = 0, active = 0;
    for (size_t j = 0; j < SS_GROUPS; j++) {
        n_group[j] = s.g[j].v > 0 && s.g[j].S > 0 ? (size_t)s.g[j].m : 0;
        K += n_group[j];
        active += n_group[j] > 0;
    }
    if (K > ZVP_SIM_MAX_STATIONS)
        return zvp_fail(err, ZVP_EINVAL,
                        "sweetspot: the simulator takes at most %lu stations: lock_zones = %.17g "
                        "(%zu zones) with other_locks = %.17g gives %zu; out of range for "
                        "simulate",
                        ZVP_SIM_MAX_STATIONS, p[P_LOCK_ZONES], n_group[0], p[P_OTHER_LOCKS], K);
    sim_block *b = malloc(sizeof *b + K * sizeof b->st[0] + 2 * K * sizeof(double));
    if (!b)
        return zvp_fail(err, ZVP_ENOMEM, "sweetspot: out of memory (network)");
    *storage = b;
    b->demands = (double *)(void *)(b->st + K);
    b->visits = b->demands + K;
    size_t k = 0;
    for (size_t j = 0; j < SS_GROUPS; j++) {
        b->n_group[j] = n_group[j];
        for (size_t i = 0; i < n_group[j]; i++, k++) {
            zvp_sim_station q = {ZVP_STATION_QUEUE, 1, ZVP_SIM_ROS, ZVP_SIM_DIST_PHASE,
                                 p[P_HOLD_SCV], 0.0, 0.0};
            b->st[k] = q;
            b->visits[k] = s.g[j].v / s.g[j].m;
            b->demands[k] = b->visits[k] * s.g[j].S;
        }
    }
    b->customers = (unsigned long)fmax(1.0, round(s.n));
    b->think = s.think_s;
    /* route_one (exactly one zone per pass) when the zones are the only stations; else each
     * station is visited independently with its probability (the same means) */
    const int one = active == 1 && n_group[0] > 0;
    zvp_sim_network n = {b->st, K, 1, b->demands, b->visits, 0, one, NULL, &b->customers,
                         &b->think, NULL};
    *net = n;
    return ZVP_SUCCESS;
}

static zvp_sim_estimate est_scale(zvp_sim_estimate e, double c)
{
    zvp_sim_estimate o = {c * e.mean, c * e.half_width, c * e.ci_lo, c * e.ci_hi};
    return o;
}

static zvp_sim_estimate est_const(double v)
{
    return (zvp_sim_estimate){v, 0.0, v, v};
}

static const char not_network[] =
    "not simulated: the priming and logoff phases are other networks, and the frame counts "
    "are no queueing figure (only the paging (CM4) network is simulated)";

static int sweetspot_sim_outputs(const double *p, const zvp_sim_result *r, zvp_sim_estimate *o,
                                 const char **why, zvp_error *err)
{
    ss_cm4 s;
    int st = cm4_final(p, &s, err);
    if (st != ZVP_SUCCESS)
        return st;
    const size_t K = r->n_stations, C = r->n_classes;
    const size_t L = s.g[0].v > 0 && s.g[0].S > 0 ? (size_t)s.g[0].m : 0;
    const zvp_sim_figures *net = zvp_sim_cell(r, K, C);
    const double busy = fmax(1.0, round(s.n)) / p[P_CPUS];
    /* pages written = passes x phi (phi from the analytic solution); busy = CPUs simulated /
     * cpus (the deferred users are off the CPUs); ITR = ETR / busy */
    o[O_ETR] = est_scale(net->throughput_per_s, s.phi * 1e-3);
    o[O_BUSY] = est_const(100.0 * busy);
    o[O_ITR] = est_scale(net->throughput_per_s, s.phi * 1e-3 / busy);
    o[O_SPIN] = est_scale(net->mean_in_queue, 100.0);
    /* the zones' spin and one zone's utilization: sums and means over the zone stations,
     * half-widths added (conservative: the sample deviation of a sum is at most theirs) */
    zvp_sim_estimate avail = est_const(0.0), util = est_const(0.0);
    for (size_t k = 0; k < L; k++) {
        const zvp_sim_figures *c = zvp_sim_cell(r, k, C);
        avail.mean += c->mean_in_queue.mean;
        avail.half_width += c->mean_in_queue.half_width;
        util.mean += c->utilization.mean / (double)L;
        util.half_width += c->utilization.half_width / (double)L;
    }
    if (L == K) /* the zones alone: the network's own interval is the tighter one */
        avail = net->mean_in_queue;
    avail.ci_lo = avail.mean - avail.half_width;
    avail.ci_hi = avail.mean + avail.half_width;
    util.ci_lo = util.mean - util.half_width;
    util.ci_hi = util.mean + util.half_width;
    o[O_AVAIL_SPIN] = est_scale(avail, 100.0);
    o[O_AVAIL_UTIL] = est_scale(util, 100.0);
    o[O_ZONES] = est_const(zones_of(p));
    for (int j = O_CM1; j <= O_LOGOFF; j++) {
        o[j] = (zvp_sim_estimate){NAN, NAN, NAN, NAN};
        why[j] = not_network;
    }
    o[O_CM4_WRITTEN] = (zvp_sim_estimate){NAN, NAN, NAN, NAN};
    why[O_CM4_WRITTEN] = not_network;
    return ZVP_SUCCESS;
}

static const zvp_model_sim sweetspot_sim = {sweetspot_network, sweetspot_sim_outputs};

const zvp_model zvp_model_sweetspot = {
    "sweetspot",
    "Sweet Spot Priming workload (VIRSTOEX) on z/VM 6.3 and 6.4: when page-out to DASD is the "
    "bottleneck, CPUs that find no free frame go round the frame-request path again (retry or "
    "defer) and take an available-list lock each pass; closed network of CPUs over the "
    "available-list locks (one on 6.3, zones on 6.4), the PTRM and IBR aging-list locks, MVA "
    "with non-exponential holds, the busiest lock by the exact finite-source M/G/1 chain; "
    "frame counts set the phase times.",
    "report 000 ("
    "Memory Management Serialization Contention Relief and 2 TB Central Storage Support), "
    "Tables 1, 3, 4 and its list of z/VM 6.4 changes",
    N_PARAMS, sweetspot_params,
    N_OUTPUTS, sweetspot_outputs,
    sweetspot_eval,
    &sweetspot_sim,
};
