/*
 * models/sweetspot.c - available-list lock contention driving the Sweet Spot Priming
 * workload (VIRSTOEX), z/VM 6.3 (one global available-list lock, RSA2GLCK) and z/VM 6.4
 * (available-list zones, one lock per zone: AVZAnnnn/AVZBnnnn).
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "sweetspot".
 */

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include "paging.h"
#include "registry.h"
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
    P_CP_WORK_US,
    P_OTHER_HOLD_US,
    P_PAGING_VOLUMES,
    P_PAGES_PER_IO,
    P_IO_OVERHEAD_MS,
    P_PAGE_TRANSFER_MS,
    P_PRIME_WORK_US,
    P_FRAMES_PER_ACQ,
    P_LOGOFF_WORK_US,
    N_PARAMS
};

static const zvp_param_desc sweetspot_params[N_PARAMS] = {
    {"storage_gb", "GiB", "central storage", 1, 65536, 256, 0, 0},
    {"cpus", "1", "processors (IFL cores) dedicated to the LPAR, integer", 1, 4096, 64, 1, 0},
    {"users_per_phase", "1", "users logged on in each of the four priming phases (Table 1)", 1,
     1e6, 88, 1, 0},
    {"user_virtual_gb", "GiB",
     "virtual memory size of each user; 0 = scaled with storage as the workload does "
     "(Table 1: 2 GiB + 4.5 GiB per 256 GiB of central storage)",
     0, 1e6, 0, 0, 0},
    {"touch_fraction", "1", "share of each user's virtual memory above 2 GiB that priming changes",
     1e-6, 1, 0.21, 0, 0},
    {"lock_zones", "1",
     "available-list locks: 1 = one global lock (z/VM 6.3), 0 = one zone per CPU up to "
     "zone_max (z/VM 6.4), L > 1 = L zones",
     0, 65536, 1, 1, 0},
    {"zone_max", "1", "largest zone count when lock_zones = 0 (64 on z/VM 6.4, AVLZN)", 1, 65536,
     64, 1, 0},
    {"avail_hold_us", "us", "available-list lock hold time per acquisition", 1e-3, 1e4, 5.5, 0, 0},
    {"cp_work_us", "us", "CP work per page-out cycle outside the spin locks, per CPU", 0, 1e7, 40, 0, 0},
    {"other_hold_us", "us", "hold time of the other CP locks of the paging path per cycle", 0, 1e4,
     4, 0, 0},
    /* The paging DASD (model `paging`, models/README.md, paging): defaults are the calibration
     * calibration/params/paging-zvm64.ini (volumes, block size and overhead are assumptions
     * stated there; the transfer time is fitted to the CM4 ETR of Tables 3 and 4). */
    {"paging_volumes", "1", "paging devices serving page-out concurrently, integer", 1, 1e5, 32, 1, 0},
    {"pages_per_io", "1", "pages written per block page-out I/O", 1, 4096, 16, 0, 0},
    {"io_overhead_ms", "ms", "paging I/O time independent of its size", 0, 1e4, 0.2, 0, 0},
    {"page_transfer_ms", "ms", "paging I/O time per 4 KiB page", 0, 1e4, 0.167017133231, 0, 0},
    {"prime_work_us", "us", "CPU work per available-list acquisition while priming (no paging)",
     0, 1e7, 50, 0, 0},
    {"frames_per_acq", "1", "frames obtained or returned per available-list acquisition", 1,
     1e5, 8, 0, 0},
    {"logoff_work_us", "us", "CPU work per available-list acquisition during logoff", 0, 1e7, 100, 0, 0},
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
    {"etr", "kpages/s", "CM4 (paging) phase: thousand pages written to paging DASD per second", 0,
     INFINITY, 0, 0, 0},
    {"itr", "kpages/s", "ETR / (busy per processor / 100)", 0, INFINITY, 0, 0, 0},
    {"busy_per_cpu_pct", "%", "total busy per processor in the CM4 phase", 0, 100, 0, 0, 0},
    {"spin_busy_pct", "%", "total spin lock busy in the CM4 phase, summed over CPUs", 0, INFINITY,
     0, 0, 0},
    {"avail_spin_busy_pct", "%",
     "spin busy on the available-list locks (RSA2GLCK on 6.3, AVZ zone locks on 6.4)", 0,
     INFINITY, 0, 0, 0},
    {"cm1_priming_s", "s", "elapsed time of the CM1 priming phase", 0, INFINITY, 0, 0, 0},
    {"cm2_priming_s", "s", "elapsed time of the CM2 priming phase", 0, INFINITY, 0, 0, 0},
    {"cm3_priming_s", "s", "elapsed time of the CM3 priming phase", 0, INFINITY, 0, 0, 0},
    {"cm4_priming_s", "s", "elapsed time of the CM4 (paging) priming phase", 0, INFINITY, 0, 0, 0},
    {"logoff_s", "s", "elapsed time of the logoff of all users", 0, INFINITY, 0, 0, 0},
    {"avail_lock_util_pct", "%", "utilization of one available-list lock (zone) in CM4", 0, 100,
     0, 0, 0},
    {"lock_zones_used", "1", "number of available-list locks modelled", 1, INFINITY, 0, 0, 0},
    {"cm4_pages_written_m", "Mpages", "pages written to paging DASD in the CM4 phase", 0,
     INFINITY, 0, 0, 0},
};

/* The closed network of one phase: L uniform available-list zones, optionally the other
 * paging-path lock, think time = work (+ idle). */
typedef struct lock_net {
    zvp_station st[2];
    size_t n_st;
    unsigned long cpus;
    double work_s;
} lock_net;

typedef struct lock_sol {
    double x_per_s;      /* cycles (acquisitions) per second */
    double avail_spin;   /* CPUs spinning on available-list locks (all zones) */
    double other_spin;   /* CPUs spinning on the other lock */
    double avail_util;   /* utilization of one zone */
} lock_sol;

static int lock_solve(const lock_net *net, double idle_s, lock_sol *sol, zvp_error *err)
{
    double rs[2], q[2], u[2];
    double scratch[64];
    zvp_mva_result r = {0, 0, rs, q, u};
    int st;
    if (zvp_mva_scratch_doubles(net->st, net->n_st) > sizeof scratch / sizeof scratch[0])
        return zvp_fail(err, ZVP_EINVAL, "sweetspot: internal scratch too small");
    st = zvp_mva_exact(net->st, net->n_st, net->work_s + idle_s, net->cpus, &r, scratch, err);
    if (st != ZVP_SUCCESS)
        return st;
    sol->x_per_s = r.throughput_per_s;
    sol->avail_spin = (double)net->st[0].replicas * fmax(0.0, q[0] - u[0]);
    sol->other_spin = net->n_st > 1 ? fmax(0.0, q[1] - u[1]) : 0.0;
    sol->avail_util = u[0];
    return ZVP_SUCCESS;
}

typedef struct idle_ctx {
    const lock_net *net;
    double target_per_s;
    int status;
    zvp_error *err;
} idle_ctx;

static double idle_residual(double idle_s, void *p)
{
    idle_ctx *c = p;
    lock_sol s;
    int st = lock_solve(c->net, idle_s, &s, c->err);
    if (st != ZVP_SUCCESS) {
        c->status = st;
        return NAN;
    }
    return s.x_per_s / c->target_per_s - 1.0;
}

/* Idle time per cycle that brings the closed network's throughput down to target_per_s
 * (which must be below the throughput at zero idle). X(idle) is continuous and strictly
 * decreasing; X(cpus / target) < target brackets the root. GSL Brent. */
static int solve_idle(const lock_net *net, double target_per_s, double *idle_s, zvp_error *err)
{
    idle_ctx c = {net, target_per_s, ZVP_SUCCESS, err};
    gsl_function f = {idle_residual, &c};
    double lo = 0.0, hi = (double)net->cpus / target_per_s, root = hi;
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    int st = ZVP_SUCCESS, it;
    if (!s)
        return zvp_fail(err, ZVP_ENOMEM, "sweetspot: out of memory (root solver)");
    if (gsl_root_fsolver_set(s, &f, lo, hi) != GSL_SUCCESS) {
        gsl_root_fsolver_free(s);
        return c.status ? c.status
                        : zvp_fail(err, ZVP_EFIT, "sweetspot: cannot bracket the idle time");
    }
    for (it = 0; it < 200; it++) {
        double a, b;
        if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS || c.status) {
            st = c.status ? c.status
                          : zvp_fail(err, ZVP_EMAXITER, "sweetspot: idle-time root finder failed");
            break;
        }
        root = gsl_root_fsolver_root(s);
        a = gsl_root_fsolver_x_lower(s);
        b = gsl_root_fsolver_x_upper(s);
        if (gsl_root_test_interval(a, b, 1e-15, 1e-12) == GSL_SUCCESS)
            break;
    }
    if (st == ZVP_SUCCESS && it == 200)
        st = zvp_fail(err, ZVP_EMAXITER, "sweetspot: idle-time root finder did not converge");
    gsl_root_fsolver_free(s);
    *idle_s = root;
    return st;
}

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

/* The paging (CM4) phase at its final state: the network (zones, work), its solution and the
 * idle time per cycle that holds the page-out rate at the paging DASD ceiling (0 above it). */
static int cm4_state(const double *p, unsigned long *zones, lock_net *net, lock_sol *s,
                     double *idle_s, zvp_error *err)
{
    const unsigned long cpus = (unsigned long)p[P_CPUS];
    double pageout_per_s;
    int st;
    *zones = p[P_LOCK_ZONES] >= 1 ? (unsigned long)p[P_LOCK_ZONES]
                                  : (unsigned long)fmin(p[P_CPUS], p[P_ZONE_MAX]);
    *idle_s = 0.0;
    net->st[0] = (zvp_station){ZVP_STATION_QUEUE, 1, (uint32_t)*zones, 0,
                               p[P_AVAIL_HOLD_US] * US / (double)*zones};
    net->st[1] = (zvp_station){ZVP_STATION_QUEUE, 1, 1, 0, p[P_OTHER_HOLD_US] * US};
    net->n_st = 2;
    net->cpus = cpus;
    net->work_s = p[P_CP_WORK_US] * US;
    if ((st = lock_solve(net, 0.0, s, err)) != ZVP_SUCCESS)
        return st;
    pageout_per_s = zvp_paging_pageout_max_per_s(p[P_PAGING_VOLUMES], p[P_PAGES_PER_IO],
                                                 p[P_IO_OVERHEAD_MS] * 1e-3,
                                                 p[P_PAGE_TRANSFER_MS] * 1e-3);
    if (!(pageout_per_s > 0.0) || !isfinite(pageout_per_s))
        return zvp_fail(err, ZVP_EINVAL,
                        "sweetspot: io_overhead_ms = %.17g and page_transfer_ms = %.17g give no "
                        "finite page-out capacity; at least one must be > 0",
                        p[P_IO_OVERHEAD_MS], p[P_PAGE_TRANSFER_MS]);
    if (s->x_per_s > pageout_per_s) {
        if ((st = solve_idle(net, pageout_per_s, idle_s, err)) != ZVP_SUCCESS)
            return st;
        if ((st = lock_solve(net, *idle_s, s, err)) != ZVP_SUCCESS)
            return st;
    }
    return ZVP_SUCCESS;
}

static int sweetspot_eval(const double *p, double *out, zvp_error *err)
{
    const double cpus_d = p[P_CPUS], users_d = p[P_USERS_PER_PHASE];
    unsigned long zones, n_prime, n_logoff;
    double virt_gb, pages, frames, w[5], touch_rate, pageout_per_s, resident;
    lock_net net;
    lock_sol s;
    double idle_s = 0.0;
    int st;

    /* zvp_model_eval has checked every parameter (ranges, whole numbers) */
    /* frame counts */
    if ((st = user_virtual_gb(p, &virt_gb, err)) != ZVP_SUCCESS)
        return st;
    pages = users_d * p[P_TOUCH_FRACTION] * (virt_gb - 2.0) * PAGES_PER_GB;
    frames = p[P_STORAGE_GB] * PAGES_PER_GB;
    for (int i = 1; i <= 4; i++) {
        w[i] = fmax(0.0, i * pages - frames) - fmax(0.0, (i - 1) * pages - frames);
    }

    /* paging (CM4) phase */
    if ((st = cm4_state(p, &zones, &net, &s, &idle_s, err)) != ZVP_SUCCESS)
        return st;
    out[O_ETR] = s.x_per_s / 1e3;
    out[O_BUSY] = 100.0 * fmax(0.0, (cpus_d - s.x_per_s * idle_s) / cpus_d);
    out[O_ITR] = out[O_ETR] / (out[O_BUSY] / 100.0);
    out[O_AVAIL_SPIN] = 100.0 * s.avail_spin;
    out[O_SPIN] = 100.0 * (s.avail_spin + s.other_spin);
    out[O_AVAIL_UTIL] = 100.0 * s.avail_util;
    out[O_ZONES] = (double)zones;
    out[O_CM4_WRITTEN] = w[4] / 1e6;
    pageout_per_s = s.x_per_s; /* the page-out rate actually reached */

    /* non-paging priming: users' virtual CPUs on the real CPUs, available-list lock only */
    n_prime = (unsigned long)fmin(cpus_d, users_d);
    net.n_st = 1;
    net.cpus = n_prime;
    net.work_s = p[P_PRIME_WORK_US] * US;
    if ((st = lock_solve(&net, 0.0, &s, err)) != ZVP_SUCCESS)
        return st;
    touch_rate = s.x_per_s * p[P_FRAMES_PER_ACQ];
    for (int i = 1; i <= 4; i++)
        out[O_CM1 + i - 1] = (pages - w[i]) / touch_rate + w[i] / pageout_per_s;

    /* logoff: all users' resident frames go back to the available lists */
    n_logoff = (unsigned long)fmin(cpus_d, 4.0 * users_d);
    net.cpus = n_logoff;
    net.work_s = p[P_LOGOFF_WORK_US] * US;
    if ((st = lock_solve(&net, 0.0, &s, err)) != ZVP_SUCCESS)
        return st;
    resident = fmin(4.0 * pages, frames);
    out[O_LOGOFF] = resident / (s.x_per_s * p[P_FRAMES_PER_ACQ]);
    return ZVP_SUCCESS;
}

/* ---- the network for the simulator ------------------------------------------------------- */

/* The paging (CM4) network at the analytic eval's final state, in one block: stations
 * [L zones, then the other lock when other_hold_us > 0], demands, visits, customers, think.
 * models/README.md, sweetspot, "Simulated". */
typedef struct sim_block {
    unsigned long customers;
    double think;
    double *demands, *visits;
    zvp_sim_station st[];
} sim_block;

static int sweetspot_network(const double *p, zvp_sim_network *net, void **storage,
                             zvp_error *err)
{
    unsigned long zones;
    lock_net ln;
    lock_sol s;
    double idle_s, virt_gb;
    int st;
    *storage = NULL;
    if ((st = user_virtual_gb(p, &virt_gb, err)) != ZVP_SUCCESS ||
        (st = cm4_state(p, &zones, &ln, &s, &idle_s, err)) != ZVP_SUCCESS)
        return st;
    const int other = p[P_OTHER_HOLD_US] > 0;
    const size_t L = (size_t)zones, K = L + (size_t)other;
    if (K > ZVP_SIM_MAX_STATIONS)
        return zvp_fail(err, ZVP_EINVAL,
                        "sweetspot: the simulator takes at most %lu stations: lock_zones = %.17g "
                        "(%zu zones%s) is out of range for simulate: [0, %lu]",
                        ZVP_SIM_MAX_STATIONS, p[P_LOCK_ZONES], L,
                        other ? " + the other lock" : "",
                        ZVP_SIM_MAX_STATIONS - (unsigned long)other);
    sim_block *b = malloc(sizeof *b + K * sizeof b->st[0] + 2 * K * sizeof(double));
    if (!b)
        return zvp_fail(err, ZVP_ENOMEM, "sweetspot: out of memory (network)");
    *storage = b;
    b->demands = (double *)(void *)(b->st + K);
    b->visits = b->demands + K;
    for (size_t k = 0; k < K; k++) {
        zvp_sim_station q = {ZVP_STATION_QUEUE, 1, ZVP_SIM_ROS, ZVP_SIM_DIST_PHASE, 1.0, 0.0, 0.0};
        b->st[k] = q;
        b->visits[k] = k < L ? 1.0 / (double)L : 1.0;
        b->demands[k] = k < L ? p[P_AVAIL_HOLD_US] * US / (double)L : p[P_OTHER_HOLD_US] * US;
    }
    b->customers = ln.cpus;
    b->think = ln.work_s + idle_s;
    /* route_one (exactly one zone per cycle) when the zones are the only stations; with the
     * other lock, each zone is visited with probability 1/L independently (mean 1 zone) */
    zvp_sim_network n = {b->st, K, 1, b->demands, b->visits, 0, !other, NULL, &b->customers,
                         &b->think, NULL};
    *net = n;
    return ZVP_SUCCESS;
}

static zvp_sim_estimate est_scale(zvp_sim_estimate e, double c)
{
    zvp_sim_estimate o = {c * e.mean, c * e.half_width, c * e.ci_lo, c * e.ci_hi};
    return o;
}

/* f increasing in x, applied to the interval of x */
static zvp_sim_estimate est_map(zvp_sim_estimate x, double (*f)(double, const double *),
                                const double *a)
{
    zvp_sim_estimate o = {f(x.mean, a), 0.0, f(x.ci_lo, a), f(x.ci_hi, a)};
    o.half_width = fmax(o.ci_hi - o.mean, o.mean - o.ci_lo);
    return o;
}

/* a = {idle_s, cpus}: busy per CPU (%) falls with X (the CPUs idling are X idle_s, Little's
 * law); ITR = ETR / busy rises with it. */
static double neg_busy_of_x(double x, const double *a)
{
    return -100.0 * fmax(0.0, (a[1] - x * a[0]) / a[1]);
}

static double itr_of_x(double x, const double *a)
{
    const double busy = fmax(0.0, (a[1] - x * a[0]) / a[1]);
    return busy > 0 ? x / 1e3 / busy : INFINITY;
}

static const char not_network[] =
    "not simulated: the priming and logoff phases are other networks, and the frame counts "
    "are no queueing figure (only the paging (CM4) network is simulated)";

static int sweetspot_sim_outputs(const double *p, const zvp_sim_result *r, zvp_sim_estimate *o,
                                 const char **why, zvp_error *err)
{
    unsigned long zones;
    lock_net ln;
    lock_sol s;
    double idle_s;
    int st = cm4_state(p, &zones, &ln, &s, &idle_s, err);
    if (st != ZVP_SUCCESS)
        return st;
    const size_t K = r->n_stations, C = r->n_classes, L = (size_t)zones;
    const zvp_sim_figures *net = zvp_sim_cell(r, K, C);
    const double a[2] = {idle_s, p[P_CPUS]};
    zvp_sim_estimate busy = est_map(net->throughput_per_s, neg_busy_of_x, a), avail, util;
    o[O_ETR] = est_scale(net->throughput_per_s, 1e-3);
    o[O_BUSY] = (zvp_sim_estimate){-busy.mean, busy.half_width, -busy.ci_hi, -busy.ci_lo};
    o[O_ITR] = est_map(net->throughput_per_s, itr_of_x, a);
    o[O_SPIN] = est_scale(net->mean_in_queue, 100.0);
    /* the zones' spin: all spin less the other lock's. Its half-width is bounded by the sum
     * of theirs, and by the sum of the zones' (the sample standard deviation of a sum is at
     * most the sum of theirs): the smaller bound, a conservative interval */
    avail = net->mean_in_queue;
    if (K > L) {
        const zvp_sim_estimate q = zvp_sim_cell(r, L, C)->mean_in_queue;
        double hw_zones = 0.0;
        for (size_t k = 0; k < L; k++)
            hw_zones += zvp_sim_cell(r, k, C)->mean_in_queue.half_width;
        avail.mean -= q.mean;
        avail.half_width = fmin(avail.half_width + q.half_width, hw_zones);
        avail.ci_lo = avail.mean - avail.half_width;
        avail.ci_hi = avail.mean + avail.half_width;
    }
    o[O_AVAIL_SPIN] = est_scale(avail, 100.0);
    /* one zone's utilization: the mean over the zones, their mean half-width (conservative) */
    util = (zvp_sim_estimate){0.0, 0.0, 0.0, 0.0};
    for (size_t k = 0; k < L; k++) {
        util.mean += zvp_sim_cell(r, k, C)->utilization.mean / (double)L;
        util.half_width += zvp_sim_cell(r, k, C)->utilization.half_width / (double)L;
    }
    util.ci_lo = util.mean - util.half_width;
    util.ci_hi = util.mean + util.half_width;
    o[O_AVAIL_UTIL] = est_scale(util, 100.0);
    o[O_ZONES] = (zvp_sim_estimate){(double)zones, 0.0, (double)zones, (double)zones};
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
    "Sweet Spot Priming workload (VIRSTOEX) on z/VM: frame-manager available-list lock "
    "contention (one global lock on 6.3, per-zone locks on 6.4) in a closed network of CPUs "
    "solved by exact MVA, with a paging-DASD page-out ceiling and frame counts setting the "
    "phase times.",
    "report 000 ("
    "Memory Management Serialization Contention Relief and 2 TB Central Storage Support), "
    "Tables 1, 3, 4",
    N_PARAMS, sweetspot_params,
    N_OUTPUTS, sweetspot_outputs,
    sweetspot_eval,
    &sweetspot_sim,
};
