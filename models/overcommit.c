/*
 * models/overcommit.c - memory overcommitment of Linux guests on z/VM with VMRM-CMM
 * ballooning and CMMA page-state discard.
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "overcommit".
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define PAGES_PER_GB 262144.0

enum {
    P_GUESTS,
    P_GUEST_VIRTUAL_GB,
    P_WORKING_SET_GB,
    P_REAL_MEMORY_GB,
    P_XSTOR_GB,
    P_CP_MEMORY_GB,
    P_CMM,
    P_CMMA,
    P_PGMBK_BELOW_2G,
    P_BASELINE,
    P_BASELINE_GUESTS,
    P_PROCESSORS,
    P_VCPUS,
    P_KNEE_EXPONENT,
    P_LIFETIME_MAX_S,
    P_LIFETIME_MIN_S,
    P_HOST_LRU_EFF,
    P_UNUSED_REALLOC,
    P_THINK_S,
    P_PGMBK_GB,
    P_VMRM_RELIEF,
    P_DASD_READ_MS,
    P_XSTOR_MOVE_US,
    P_CP_FAULT_US,
    P_GUEST_IO_MS,
    P_GUEST_IO_CPU_US,
    P_ESSA_US,
    P_FAULT_BLOCKING,
    P_PAGING_VOLUMES,
    P_PAGES_PER_WRITE_IO,
    P_DASD_WRITE_MS,
    P_DISCARD_READ_MS,
    N_PARAMS
};

static const zvp_param_desc overcommit_params[N_PARAMS] = {
    {"guests", "1", "number of identical Linux guests (integer)", 1, 1000, 10, 1, 0},
    {"guest_virtual_gb", "GiB", "virtual (guest-real) memory of each guest (report 001: 160 GB / 10)",
     0.01, 1e5, 16, 0, 0},
    {"working_set_gb", "GiB",
     "working set of each guest, the knee of the lifetime function (database buffers and "
     "caches 9152 MB)",
     0.001, 1e5, 8.9375, 0, 0},
    {"real_memory_gb", "GiB", "z/VM main (central) storage", 0.1, 1e6, 80, 0, 0},
    {"xstor_gb", "GiB", "expanded storage (XSTOR) used for paging", 0, 1e6, 2, 0, 0},
    {"cp_memory_gb", "GiB", "main storage used by CP itself (DPA = real_memory_gb - this)", 0, 1e6,
     1, 0, 0},
    {"cmm", "1", "VMRM-CMM ballooning: 0 off, 1 on (integer)", 0, 1, 0, 1, 0},
    {"cmma", "1", "CMMA page-state discard: 0 off, 1 on (integer)", 0, 1, 0, 1, 0},
    {"pgmbk_below_2g", "1",
     "1 = z/VM 5.2 (PGMBKs must reside below 2 GB), 0 = z/VM 5.3 (integer)", 0, 1, 0, 1, 0},
    {"baseline", "1",
     "reference of throughput_rel, same model without CMM/CMMA: 0 = z/VM 5.2 same guests, "
     "1 = z/VM 5.3 same guests, 2 = z/VM 5.3 with baseline_guests guests (integer)",
     0, 2, 1, 1, 0},
    {"baseline_guests", "1", "guests of the baseline = 2 reference run (integer)", 1, 1000, 5, 1, 0},
    {"processors", "1", "real processors of the LPAR (integer)", 1, 1000, 10, 1, 0},
    {"vcpus_per_guest", "1", "virtual CPUs of each guest (integer)", 1, 64, 3, 1, 0},
    {"knee_exponent", "1", "steepness k of the lifetime knee L = L_max / (1 + (W/m)^k)", 0.5, 20,
     4, 0, 0},
    {"lifetime_max_s", "s", "guest CPU time between faults with ample memory (L_max)", 1e-6, 1e6,
     0.01, 0, 0},
    {"lifetime_min_s", "s", "clamp: shortest mean CPU time between faults (L_min)", 1e-9, 1,
     1e-5, 0, 0},
    {"host_lru_efficiency", "1",
     "eta: quality of the host's page selection relative to the guest's (1 = same)", 0.01, 1,
     0.5, 0, 0},
    {"unused_realloc_per_s", "pages/s",
     "free guest pages reallocated per CPU-second of guest work", 0, 1e7, 1000, 0, 0},
    {"think_s", "s", "virtual-CPU idle time per CPU-second of guest work (client wait)", 0, 1e4,
     1, 0, 0},
    {"pgmbk_gb", "GiB", "z/VM 5.2: storage below 2 GB available for PGMBKs", 0.001, 2, 0.5, 0, 0},
    {"vmrm_relief", "1", "share of the memory deficit VMRM-CMM removes by ballooning", 0, 1,
     0.9, 0, 0},
    {"dasd_read_ms", "ms",
     "device service time of a one-page read I/O from paging DASD (without queueing)", 0, 1e4, 5,
     0, 0},
    {"xstor_move_us", "us", "CPU time to move one page main <-> XSTOR (synchronous)", 0, 1e4, 10, 0, 0},
    {"cp_fault_us", "us", "CP CPU time per host page fault (fault, steal, page-out scheduling)", 0,
     1e5, 30, 0, 0},
    {"guest_io_ms", "ms", "guest disk read time per guest-level miss", 0, 1e4, 5, 0, 0},
    {"guest_io_cpu_us", "us", "CPU time per guest disk I/O (Linux and CP)", 0, 1e5, 50, 0, 0},
    {"essa_us", "us", "CPU time per CMMA page-state change (ESSA)", 0, 1e4, 2, 0, 0},
    {"fault_blocking", "1", "theta: share of a host fault's delay that blocks the virtual CPU", 0,
     1, 1, 0, 0},
    {"paging_volumes", "1",
     "paging DASD volumes serving I/O concurrently, c of the M/M/c paging station (integer)", 1,
     1000, 8, 1, 0},
    {"pages_per_write_io", "pages", "pages migrated XSTOR -> DASD per block-write I/O", 1, 4096,
     16, 0, 0},
    {"dasd_write_ms", "ms", "device service time of one block-write I/O (pages_per_write_io pages)",
     0, 1e4, 8, 0, 0},
    {"discard_read_ms", "ms",
     "CMMA discard fault: time the faulting virtual CPU waits while the guest re-reads the "
     "discarded page-cache page from its own disk",
     0, 1e4, 5, 0, 0},
};

enum {
    O_THROUGHPUT_REL,
    O_DASD_GB,
    O_MAIN_XSTOR,
    O_XSTOR_DASD,
    O_OVERCOMMIT,
    O_CPU,
    O_THROUGHPUT,
    O_HOST_FAULTS,
    O_GUEST_IO,
    O_BALLOON,
    O_RESIDENT,
    O_PAGING_UTIL,
    O_DASD_READ_RESPONSE,
    O_DISCARD_FAULTS,
    N_OUTPUTS
};

static const zvp_param_desc overcommit_outputs[N_OUTPUTS] = {
    {"throughput_rel", "1", "throughput relative to the baseline configuration (see baseline)", 0,
     INFINITY, 0, 0, 0},
    {"dasd_page_space_gb", "GiB", "guest pages held on DASD paging space", 0, INFINITY, 0, 0, 0},
    {"main_to_xstor_per_s", "pages/s", "page movement main storage -> XSTOR", 0, INFINITY, 0, 0, 0},
    {"xstor_to_dasd_per_s", "pages/s", "page movement XSTOR -> DASD", 0, INFINITY, 0, 0, 0},
    {"overcommit_ratio", "1", "guest footprint (after ballooning) / main storage", 0, INFINITY, 0, 0, 0},
    {"cpu_util_pct", "%", "LPAR CPU utilization summed over processors", 0, INFINITY, 0, 0, 0},
    {"throughput_per_s", "1/s", "CPU-seconds of guest work done per second, all guests", 0,
     INFINITY, 0, 0, 0},
    {"host_page_ins_per_s", "pages/s", "host page-ins (from XSTOR and DASD), all guests", 0,
     INFINITY, 0, 0, 0},
    {"guest_io_per_s", "1/s", "guest-level misses (guest disk reads), all guests", 0, INFINITY, 0, 0, 0},
    {"balloon_gb", "GiB", "VMRM-CMM balloon per guest", 0, INFINITY, 0, 0, 0},
    {"resident_gb", "GiB", "host-resident memory per guest", 0, INFINITY, 0, 0, 0},
    {"paging_util_pct", "%", "utilization of the paging DASD volumes (M/M/c station)", 0, 100, 0,
     0, 0},
    {"dasd_read_response_ms", "ms", "DASD page read time seen by a fault: M/M/c wait + service",
     0, INFINITY, 0, 0, 0},
    {"discard_faults_per_s", "1/s",
     "CMMA discard faults (re-reads of discarded volatile page-cache pages by the guests)", 0,
     INFINITY, 0, 0, 0},
};

/* Faults per CPU-second with m GB resident (clamped lifetime function). */
static double fault_rate(const double *p, double m)
{
    const double lmax = p[P_LIFETIME_MAX_S], lmin = fmin(p[P_LIFETIME_MIN_S], lmax);
    double life;
    if (m <= 0.0)
        return 1.0 / lmin;
    life = lmax / (1.0 + pow(p[P_WORKING_SET_GB] / m, p[P_KNEE_EXPONENT]));
    return 1.0 / fmin(lmax, fmax(lmin, life));
}

typedef struct oc_config {
    double guests;
    int cmm, cmma, pgmbk;
} oc_config;

typedef struct oc_state {
    double x_per_s, cpu_util_pct, dasd_gb, main_xstor, xstor_dasd, footprint_gb;
    double host_faults_per_s, guest_io_per_s, balloon_gb, resident_gb;
    double paging_util, dasd_read_s, discard_faults_per_s;
} oc_state;

/* Per-unit-of-work quantities of one configuration that do not depend on the throughput. */
typedef struct oc_demands {
    double d_cpu_s;         /* CPU demand per CPU-second of guest work, s */
    double delay_fixed_s;   /* blocking time per unit of work other than DASD page reads, s */
    double dasd_reads;      /* page reads from DASD per unit of work (= migrations XSTOR -> DASD) */
    double blocking;        /* theta */
    double s_read_s;        /* device time of a one-page read I/O, s */
    double s_write_s;       /* device time of a block-write I/O, s */
    double pages_per_write; /* b_w */
    unsigned long volumes;  /* c */
    unsigned long vcpus;    /* customers of the closed network */
    int32_t processors;
    double think_s;
} oc_demands;

/* Paging DASD as an M/M/c station (models/README.md, paging) at throughput x (units of work per second):
 * page reads lambda_r = x r (one page per I/O, service S_r), migrations lambda_w = x r written
 * in blocks of b_w pages (service S_w); offered load a = lambda_r S_r + lambda_w S_w / b_w,
 * pooled M/M/c with the mean service of the I/O mix; a page read takes Wq + S_r. Returns
 * ZVP_EUNSTABLE when a >= c (the devices saturate). */
static int oc_paging(const oc_demands *d, double x, double *util, double *read_s, zvp_error *err)
{
    const double lr = x * d->dasd_reads, io = lr + lr / d->pages_per_write;
    const double a = lr * d->s_read_s + lr * d->s_write_s / d->pages_per_write;
    zvp_station_result q;
    int st;
    *util = a / (double)d->volumes;
    *read_s = d->s_read_s;
    if (io <= 0.0 || a <= 0.0)
        return ZVP_SUCCESS;
    if (a >= (double)d->volumes)
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "overcommit: paging DASD utilization %.6g >= 1 (%.6g page reads/s and as "
                        "many migrations on paging_volumes = %lu): saturated",
                        *util, lr, d->volumes);
    st = zvp_mmc(io, io / a, d->volumes, &q, err);
    if (st != ZVP_SUCCESS)
        return st;
    *read_s = q.wait_s + d->s_read_s;
    return ZVP_SUCCESS;
}

/* Throughput of the closed network (exact MVA: vcpus customers, processors as a multi-server
 * station with demand d_cpu, a delay station with the blocking time, think time) when a DASD
 * page read takes read_s. */
static int oc_mva(const oc_demands *d, double read_s, double *x, zvp_error *err)
{
    zvp_station st[2];
    double rs[2], q[2], u[2];
    zvp_mva_result res = {0, 0, rs, q, u};
    int status;
    st[0] = (zvp_station){ZVP_STATION_MULTI, d->processors, 1, 0, d->d_cpu_s};
    st[1] = (zvp_station){ZVP_STATION_DELAY, 1, 1, 0,
                          d->delay_fixed_s + d->blocking * d->dasd_reads * read_s};
    status = zvp_mva_exact(st, 2, d->think_s, d->vcpus, &res, NULL, err);
    if (status != ZVP_SUCCESS)
        return status;
    *x = res.throughput_per_s;
    return ZVP_SUCCESS;
}

/* g(x) = X_mva(R_read(x)) - x at throughput x; -x where the paging DASD saturates (its
 * limit there: R_read grows without bound, X_mva falls to 0). */
static int oc_gap(const oc_demands *d, double x, double *g, zvp_error *err)
{
    double u, r, xm;
    int st;
    if (oc_paging(d, x, &u, &r, NULL) != ZVP_SUCCESS) {
        *g = -x;
        return ZVP_SUCCESS;
    }
    if ((st = oc_mva(d, r, &xm, err)) != ZVP_SUCCESS)
        return st;
    *g = xm - x;
    return ZVP_SUCCESS;
}

/* Consistent throughput: the DASD read time depends on the paging load x r, the throughput
 * x on the read time. g(x) = X_mva(R_read(x)) - x is strictly decreasing (R_read grows with x,
 * X_mva falls with the delay), positive at x = 0 and -x at the saturation throughput
 * x_sat = c / (r (S_r + S_w / b_w)), so it has one root in (0, min(X_mva(S_r), x_sat)),
 * found by regula falsi with the Illinois modification (Dowell & Jarratt, BIT 11, 1971:
 * the bracket shrinks superlinearly from both sides; about 8 MVA solves instead of the 45 of
 * bisection) to a bracket of relative width 1e-13 (a bisection step when the secant point
 * is not inside the bracket). */
static int oc_fixed_point(const oc_demands *d, double *x_out, double *util, double *read_s,
                          zvp_error *err)
{
    double lo = 0.0, hi, glo, ghi, x_sat;
    int st, side = 0;
    if ((st = oc_mva(d, d->s_read_s, &hi, err)) != ZVP_SUCCESS)
        return st;
    glo = hi; /* g(0) = X_mva(S_r) */
    x_sat = d->dasd_reads > 0.0 ? (double)d->volumes /
                                      (d->dasd_reads * (d->s_read_s + d->s_write_s / d->pages_per_write))
                                : INFINITY;
    if (hi >= x_sat)
        hi = x_sat;
    if ((st = oc_gap(d, hi, &ghi, err)) != ZVP_SUCCESS)
        return st;
    if (ghi >= 0.0) {
        lo = hi; /* no paging delay at all below X_mva(S_r): the root is the end */
        glo = ghi;
    }
    for (int i = 0; i < 200 && ghi < 0.0 && hi - lo > 1e-13 * hi; i++) {
        double x = hi - ghi * (hi - lo) / (ghi - glo), gx;
        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        if ((st = oc_gap(d, x, &gx, err)) != ZVP_SUCCESS)
            return st;
        if (gx == 0.0) {
            lo = hi = x;
            break;
        }
        if (gx > 0.0) {
            lo = x;
            glo = gx;
            if (side == 1)
                ghi *= 0.5; /* hi retained twice: Illinois */
            side = 1;
        } else {
            hi = x;
            ghi = gx;
            if (side == -1)
                glo *= 0.5;
            side = -1;
        }
    }
    *x_out = 0.5 * (lo + hi);
    if (oc_paging(d, *x_out, util, read_s, NULL) != ZVP_SUCCESS)
        *x_out = lo;
    if (!(*x_out > 0.0))
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "overcommit: paging DASD saturated at any positive throughput");
    return oc_paging(d, *x_out, util, read_s, err);
}

static int oc_solve(const double *p, const oc_config *c, oc_state *s, zvp_error *err)
{
    const double n = c->guests, v = p[P_GUEST_VIRTUAL_GB], eta = p[P_HOST_LRU_EFF];
    const double wset = p[P_WORKING_SET_GB];
    const double dpa = p[P_REAL_MEMORY_GB] - p[P_CP_MEMORY_GB];
    double balloon = 0.0, mg, r, rx, xg, fmg, f_main, f_dasd, f_xstor, au, fu, fu_x, fu_d, g;
    double moves, pos_main, pos_dasd, vol_main = 0.0, vol_dasd = 0.0, disc = 0.0;
    oc_demands d;
    int status;

    if (dpa <= 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "overcommit: cp_memory_gb = %.17g must be below real_memory_gb = %.17g",
                        p[P_CP_MEMORY_GB], p[P_REAL_MEMORY_GB]);
    if (c->cmm)
        balloon = p[P_VMRM_RELIEF] * fmax(0.0, n * v - dpa) / n;
    mg = v - balloon;
    r = fmin(mg, dpa / n);
    if (c->pgmbk)
        r = fmin(r, 128.0 * p[P_PGMBK_GB] / n); /* 1 MB segment per 8 KB PGMBK */
    xg = p[P_XSTOR_GB] / n;
    rx = fmin(mg, r + xg);

    /* host page-ins of stable pages (host LRU inefficiency eta), per CPU-second */
    fmg = fault_rate(p, mg);
    pos_main = mg * pow(r / mg, 1.0 / eta);
    pos_dasd = mg * pow(rx / mg, 1.0 / eta);
    f_main = fmax(0.0, fault_rate(p, pos_main) - fmg);
    f_dasd = fmax(0.0, fault_rate(p, pos_dasd) - fmg);
    f_dasd = fmin(f_dasd, f_main);
    /* the part of them that hits the guest's page cache (LRU positions beyond W): clean,
     * hence volatile under CMMA; discarded by the host instead of paged, re-read by the guest */
    if (mg > wset) {
        vol_main = fmax(0.0, fault_rate(p, fmax(pos_main, wset)) - fmg);
        vol_dasd = fmin(vol_main, fmax(0.0, fault_rate(p, fmax(pos_dasd, wset)) - fmg));
    }
    if (c->cmma) {
        disc = vol_main;
        f_main -= vol_main;
        f_dasd = fmin(f_main, fmax(0.0, f_dasd - vol_dasd));
    }
    f_xstor = f_main - f_dasd;
    /* reallocated free pages found non-resident (no CMMA); recently freed, so still in XSTOR
     * when there is XSTOR (served from DASD only without XSTOR) */
    au = p[P_UNUSED_REALLOC];
    fu = c->cmma ? 0.0 : au * (mg - r) / mg;
    fu_x = c->cmma ? 0.0 : au * (rx - r) / mg; /* PROP */
    fu_d = fu - fu_x;
    g = fmg;

    /* page moves through main storage per CPU-second: page-outs, XSTOR page-ins, migrations */
    moves = p[P_XSTOR_GB] > 0.0 ? (f_main + fu) + (f_xstor + fu_x) + (f_dasd + fu_d) : 0.0;
    d.d_cpu_s = 1.0 + 1e-6 * (p[P_CP_FAULT_US] * (f_main + fu + disc) + p[P_XSTOR_MOVE_US] * moves +
                              p[P_GUEST_IO_CPU_US] * (g + disc) +
                              (c->cmma ? p[P_ESSA_US] * 2.0 * au : 0.0));
    d.delay_fixed_s = 1e-3 * (g * p[P_GUEST_IO_MS] + disc * p[P_DISCARD_READ_MS]);
    d.dasd_reads = f_dasd + fu_d;
    d.blocking = p[P_FAULT_BLOCKING];
    d.s_read_s = 1e-3 * p[P_DASD_READ_MS];
    d.s_write_s = 1e-3 * p[P_DASD_WRITE_MS];
    d.pages_per_write = p[P_PAGES_PER_WRITE_IO];
    d.volumes = (unsigned long)p[P_PAGING_VOLUMES];
    d.vcpus = (unsigned long)(n * p[P_VCPUS]);
    d.processors = (int32_t)p[P_PROCESSORS];
    d.think_s = p[P_THINK_S];

    status = oc_fixed_point(&d, &s->x_per_s, &s->paging_util, &s->dasd_read_s, err);
    if (status != ZVP_SUCCESS)
        return status;
    if (!isfinite(s->x_per_s) || s->x_per_s <= 0.0)
        return zvp_fail(err, ZVP_EUNSTABLE, "overcommit: no positive steady-state throughput");

    s->cpu_util_pct = 100.0 * s->x_per_s * d.d_cpu_s;
    /* with CMMA the discarded page cache holds no DASD slots: only the stable pages beyond R_x */
    s->dasd_gb = c->cmma ? n * fmax(0.0, fmin(mg, wset) - rx) : n * (mg - rx);
    s->discard_faults_per_s = s->x_per_s * disc;
    s->main_xstor = p[P_XSTOR_GB] > 0.0 ? s->x_per_s * (f_main + fu) : 0.0;
    s->xstor_dasd = p[P_XSTOR_GB] > 0.0 ? s->x_per_s * (f_dasd + fu_d) : 0.0;
    s->footprint_gb = n * mg;
    s->host_faults_per_s = s->x_per_s * (f_main + fu);
    s->guest_io_per_s = s->x_per_s * g;
    s->balloon_gb = balloon;
    s->resident_gb = r;
    return ZVP_SUCCESS;
}

static int overcommit_eval(const double *p, double *out, zvp_error *err)
{
    oc_config cfg, base;
    oc_state s, sb;
    int st;
    /* zvp_model_eval has checked every parameter; only lo <= hi is checked here */
    if (p[P_LIFETIME_MIN_S] > p[P_LIFETIME_MAX_S])
        return zvp_fail(err, ZVP_EINVAL,
                        "overcommit: lifetime_min_s = %.17g must not exceed lifetime_max_s = %.17g",
                        p[P_LIFETIME_MIN_S], p[P_LIFETIME_MAX_S]);

    cfg = (oc_config){p[P_GUESTS], (int)p[P_CMM], (int)p[P_CMMA], (int)p[P_PGMBK_BELOW_2G]};
    base = (oc_config){p[P_BASELINE] == 2 ? p[P_BASELINE_GUESTS] : p[P_GUESTS], 0, 0,
                       p[P_BASELINE] == 0 ? 1 : 0};
    if ((st = oc_solve(p, &cfg, &s, err)) != ZVP_SUCCESS)
        return st;
    if ((st = oc_solve(p, &base, &sb, err)) != ZVP_SUCCESS)
        return st;

    out[O_THROUGHPUT_REL] = s.x_per_s / sb.x_per_s;
    out[O_DASD_GB] = s.dasd_gb;
    out[O_MAIN_XSTOR] = s.main_xstor;
    out[O_XSTOR_DASD] = s.xstor_dasd;
    out[O_OVERCOMMIT] = s.footprint_gb / p[P_REAL_MEMORY_GB];
    out[O_CPU] = s.cpu_util_pct;
    out[O_THROUGHPUT] = s.x_per_s;
    out[O_HOST_FAULTS] = s.host_faults_per_s;
    out[O_GUEST_IO] = s.guest_io_per_s;
    out[O_BALLOON] = s.balloon_gb;
    out[O_RESIDENT] = s.resident_gb;
    out[O_PAGING_UTIL] = 100.0 * s.paging_util;
    out[O_DASD_READ_RESPONSE] = 1e3 * s.dasd_read_s;
    out[O_DISCARD_FAULTS] = s.discard_faults_per_s;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_overcommit = {
    "overcommit",
    "Memory overcommitment of identical Linux guests on z/VM: VMRM-CMM ballooning shrinks the "
    "guests' footprint, CMMA lets the host discard unused pages and volatile (clean page-cache) "
    "pages, whose later access is a guest re-read (discard fault); host faults from a clamped "
    "steep-knee lifetime function with a host-LRU inefficiency, paging hierarchy main -> XSTOR "
    "-> DASD by flow balance, paging DASD as an M/M/c station, z/VM 5.2 PGMBK-below-2-GB "
    "limit, throughput from exact MVA of virtual CPUs on the real processors with fault delays, relative to a baseline run.",
    "report 001 ("
    "Cooperative Memory Management and Collaborative Memory Management Assist Results), "
    "numbers stated in its text; workload set-up from IBM 'z/VM Large Memory - "
    "Linux on System z' (2007)",
    N_PARAMS, overcommit_params,
    N_OUTPUTS, overcommit_outputs,
    overcommit_eval,
    NULL, /* no network for the simulator */
};
