/*
 * models/overcommit.c - memory overcommitment of Linux guests on z/VM with VMRM-CMM
 * ballooning and CMMA page-state discard (MODELS.md 3, "Model C").
 *
 * Known limits of the calibration (calibration/fits/overcommit-zvm53.ini): it meets the
 * report's throughput ratios (MAPE 0.12 %), CPU (974 vs 963 %) and page space (5.004 vs
 * "less than 5 GB"), but NOT four text statements: VMRM-CMM page movement main->XSTOR
 * < 400/s and XSTOR->DASD < 200/s (model 2036 and 1368/s), CMMA's "more than 50 %"
 * movement decrease (model 2.5 %), and CMM+CMMA slightly below CMM alone in throughput and
 * above it in page space (model: equal). Two redesigns (hot/cold/unused page classes;
 * pfault theta < 1) did not help: with page space ~5 GB and 2 GB XSTOR, each guest has
 * 0.5 GB on DASD against 7.9 GB in the z/VM 5.3 run, so for any convex lifetime curve the
 * CMM run keeps >= 0.063 of the 5.3 run's DASD faults per unit of work, and the stated
 * throughput ratios then force XSTOR->DASD >= about 222/theta pages/s with a 5 ms DASD
 * read. Queueing on the paging DASD (a read time that grows with the paging load) is the
 * likely missing mechanism; the report gives no paging-volume count to calibrate it.
 *
 * Source of the measurements: reports/001_63a1ddd08fe16ee9.txt (z/VM 5.3 "Cooperative
 * Memory Management and Collaborative Memory Management Assist Results"), ten Linux guests,
 * 80 GB main memory, 100% planned overcommitment; the numbers its text states are in
 * calibration/data/001_text_cmm_cmma.csv, re-arranged per configuration in
 * calibration/data/001_fit_overcommit.csv. Workload set-up (16 GB, 3 virtual CPUs per
 * guest, OLTP database with 9152 MB of buffers and caches, XSTOR then DASD paging): IBM
 * Linux on Z documentation "z/VM Large Memory - Linux on System z" (Dec 2007), section
 * "Setup for the z/VM large memory tests". 100% planned overcommitment of 80 GB means
 * 160 GB of guest virtual memory, 16 GB for each of the ten guests.
 *
 * Mechanism (all guests identical; sizes in GB, rates per CPU-second of guest work):
 *
 *  Frames. DPA M = real_memory_gb - cp_memory_gb. VMRM-CMM (cmm = 1) balloons every guest by
 *      B = vmrm_relief * max(0, n V - M) / n           (MODELS.md 3.1: B_i = share x deficit)
 *  so the guest's footprint is m_g = V - B. Host-resident part R = min(m_g, M / n); on z/VM
 *  5.2 (pgmbk_below_2g = 1) every in-use 1 MB segment needs an 8 KB PGMBK below 2 GB, so at
 *  most 128 x pgmbk_gb GB of guest memory can be in use (IBM z/VM performance report notes,
 *  "Absolute Maximum In-Use Virtual Storage for z/VM 5.2"; segments assumed fully populated):
 *  R = min(R, 128 pgmbk_gb / n). XSTOR holds the next X_g = xstor_gb / n of each guest
 *  (R_x = min(m_g, R + X_g)); the rest of the footprint lives on DASD:
 *      dasd_page_space_gb = n (m_g - R_x).
 *
 *  Faults. Lifetime function with a steep knee (MODELS.md 3.2, Chamberlin-Fuller-Liu form
 *  generalised to exponent k, clamped):  L(m) = min(L_max, max(L_min, L_max / (1 + (W/m)^k))),
 *  f(m) = 1 / L(m) faults per CPU-second with m GB resident, W = working set. The guest's own
 *  LRU sees m_g: guest-level misses (database/file reads from the guest's disks)
 *      G = f(m_g).
 *  The host's global LRU works on guest-real frames and approximates the guest's choice
 *  poorly (double paging; MODELS.md 3.1 pitfalls): x resident frames hold only as much of the
 *  guest's LRU order as r(x) = m_g (x / m_g)^(1/eta) frames would (eta = 1: the same choice
 *  as the guest; r(m_g) = m_g, r(0) = 0), so host page-ins of stable pages are
 *      F_main = f(r(R)) - f(m_g),  of which from DASD  F_dasd = f(r(R_x)) - f(m_g).
 *  Without CMMA a guest that reallocates one of its free pages (a_u pages per CPU-second)
 *  touches a non-resident frame with probability (m_g - R) / m_g and the host pages its stale
 *  content back in (from XSTOR or DASD in proportion); with CMMA (cmma = 1) that page is
 *  "unused", discarded without a write and re-supplied as a fresh frame: no I/O, but every
 *  free/allocate is one ESSA state change (2 a_u per CPU-second, essa_us each).
 *
 *  Page movement (steady-state flow balance of the paging hierarchy main -> XSTOR -> DASD):
 *  every host page-in is matched by one page-out of main storage (to XSTOR), and every page
 *  read back from DASD was migrated XSTOR -> DASD earlier:
 *      main_to_xstor_per_s = X (F_main + F_u),  xstor_to_dasd_per_s = X (F_dasd + F_u,dasd).
 *
 *  Throughput (MODELS.md 3.2, "time per unit of guest work = 1 + theta (F + G) D_f", in
 *  a closed network, MODELS.md 4.1). Customers: n x vcpus_per_guest virtual CPUs. Per unit
 *  of work (one CPU-second of guest work) each visits the real processors (a multi-server
 *  station, servers = processors) with demand
 *      D_cpu = 1 + cp_fault_us (F_main + F_u) + xstor_move_us (page moves) + guest_io_cpu_us G
 *              + essa_us 2 a_u cmma
 *  then blocks for theta (F_dasd + F_u,dasd) dasd_read_ms + G guest_io_ms (a delay station),
 *  then idles think_s (waiting for the database clients). Exact MVA gives X (units/s);
 *      cpu_util_pct = 100 X D_cpu,  throughput_rel = X / X_baseline,
 *  where the baseline is the same model (same parameters) without CMM and CMMA on z/VM 5.2
 *  with the same guests (baseline = 0), on z/VM 5.3 with the same guests (1), or on z/VM
 *  5.3 with baseline_guests guests (2: the report's five-guest baseline).
 *  overcommit_ratio = n m_g / real_memory_gb (the real-memory overcommitment of the
 *  report's withheld Table 1; CMMA's discarded unused pages are not subtracted).
 */
#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "zvmperf/queue.h"
#include "../src/internal.h"

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
    N_PARAMS
};

static const zvp_param_desc overcommit_params[N_PARAMS] = {
    {"guests", "1", "number of identical Linux guests (integer)", 1, 1000, 10, 1, 0},
    {"guest_virtual_gb", "GB", "virtual (guest-real) memory of each guest (report 001: 160 GB / 10)",
     0.01, 1e5, 16, 0, 0},
    {"working_set_gb", "GB",
     "working set of each guest, the knee of the lifetime function (database buffers and "
     "caches 9152 MB)",
     0.001, 1e5, 8.9375, 0, 0},
    {"real_memory_gb", "GB", "z/VM main (central) storage", 0.1, 1e6, 80, 0, 0},
    {"xstor_gb", "GB", "expanded storage (XSTOR) used for paging", 0, 1e6, 2, 0, 0},
    {"cp_memory_gb", "GB", "main storage used by CP itself (DPA = real_memory_gb - this)", 0, 1e6,
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
    {"pgmbk_gb", "GB", "z/VM 5.2: storage below 2 GB available for PGMBKs", 0.001, 2, 0.5, 0, 0},
    {"vmrm_relief", "1", "share of the memory deficit VMRM-CMM removes by ballooning", 0, 1,
     0.9, 0, 0},
    {"dasd_read_ms", "ms", "page read from paging DASD as seen by the faulting guest", 0, 1e4, 5, 0, 0},
    {"xstor_move_us", "us", "CPU time to move one page main <-> XSTOR (synchronous)", 0, 1e4, 10, 0, 0},
    {"cp_fault_us", "us", "CP CPU time per host page fault (fault, steal, page-out scheduling)", 0,
     1e5, 30, 0, 0},
    {"guest_io_ms", "ms", "guest disk read time per guest-level miss", 0, 1e4, 5, 0, 0},
    {"guest_io_cpu_us", "us", "CPU time per guest disk I/O (Linux and CP)", 0, 1e5, 50, 0, 0},
    {"essa_us", "us", "CPU time per CMMA page-state change (ESSA)", 0, 1e4, 2, 0, 0},
    {"fault_blocking", "1", "theta: share of a host fault's delay that blocks the virtual CPU", 0,
     1, 1, 0, 0},
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
    N_OUTPUTS
};

static const zvp_param_desc overcommit_outputs[N_OUTPUTS] = {
    {"throughput_rel", "1", "throughput relative to the baseline configuration (see baseline)", 0,
     INFINITY, 0, 0, 0},
    {"dasd_page_space_gb", "GB", "guest pages held on DASD paging space", 0, INFINITY, 0, 0, 0},
    {"main_to_xstor_per_s", "pages/s", "page movement main storage -> XSTOR", 0, INFINITY, 0, 0, 0},
    {"xstor_to_dasd_per_s", "pages/s", "page movement XSTOR -> DASD", 0, INFINITY, 0, 0, 0},
    {"overcommit_ratio", "1", "guest footprint (after ballooning) / main storage", 0, INFINITY, 0, 0, 0},
    {"cpu_util_pct", "%", "LPAR CPU utilization summed over processors", 0, INFINITY, 0, 0, 0},
    {"throughput_per_s", "1/s", "CPU-seconds of guest work done per second, all guests", 0,
     INFINITY, 0, 0, 0},
    {"host_page_ins_per_s", "pages/s", "host page-ins (from XSTOR and DASD), all guests", 0,
     INFINITY, 0, 0, 0},
    {"guest_io_per_s", "1/s", "guest-level misses (guest disk reads), all guests", 0, INFINITY, 0, 0, 0},
    {"balloon_gb", "GB", "VMRM-CMM balloon per guest", 0, INFINITY, 0, 0, 0},
    {"resident_gb", "GB", "host-resident memory per guest", 0, INFINITY, 0, 0, 0},
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
} oc_state;

static int oc_solve(const double *p, const oc_config *c, oc_state *s, zvp_error *err)
{
    const double n = c->guests, v = p[P_GUEST_VIRTUAL_GB], eta = p[P_HOST_LRU_EFF];
    const double dpa = p[P_REAL_MEMORY_GB] - p[P_CP_MEMORY_GB];
    double balloon = 0.0, mg, r, rx, xg, fmg, f_main, f_dasd, f_xstor, au, fu, fu_x, fu_d, g;
    double moves, d_cpu, d_delay, vcpus;
    zvp_station st[2];
    double rs[2], q[2], u[2];
    zvp_mva_result res = {0, 0, rs, q, u};
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
    f_main = fmax(0.0, fault_rate(p, mg * pow(r / mg, 1.0 / eta)) - fmg);
    f_dasd = fmax(0.0, fault_rate(p, mg * pow(rx / mg, 1.0 / eta)) - fmg);
    f_dasd = fmin(f_dasd, f_main);
    f_xstor = f_main - f_dasd;
    /* reallocated free pages found non-resident (no CMMA) */
    au = p[P_UNUSED_REALLOC];
    fu = c->cmma ? 0.0 : au * (mg - r) / mg;
    fu_x = c->cmma ? 0.0 : au * (rx - r) / mg;
    fu_d = fu - fu_x;
    g = fmg;

    /* page moves through main storage per CPU-second: page-outs, XSTOR page-ins, migrations */
    moves = p[P_XSTOR_GB] > 0.0 ? (f_main + fu) + (f_xstor + fu_x) + (f_dasd + fu_d) : 0.0;
    d_cpu = 1.0 + 1e-6 * (p[P_CP_FAULT_US] * (f_main + fu) + p[P_XSTOR_MOVE_US] * moves +
                          p[P_GUEST_IO_CPU_US] * g + (c->cmma ? p[P_ESSA_US] * 2.0 * au : 0.0));
    d_delay = 1e-3 * (p[P_FAULT_BLOCKING] * (f_dasd + fu_d) * p[P_DASD_READ_MS] +
                      g * p[P_GUEST_IO_MS]);

    vcpus = n * p[P_VCPUS];
    st[0] = (zvp_station){ZVP_STATION_MULTI, (int32_t)p[P_PROCESSORS], 1, 0, d_cpu};
    st[1] = (zvp_station){ZVP_STATION_DELAY, 1, 1, 0, d_delay};
    status = zvp_mva_exact(st, 2, p[P_THINK_S], (unsigned long)vcpus, &res, NULL, err);
    if (status != ZVP_SUCCESS)
        return status;
    if (!isfinite(res.throughput_per_s) || res.throughput_per_s <= 0.0)
        return zvp_fail(err, ZVP_EUNSTABLE, "overcommit: no positive steady-state throughput");

    s->x_per_s = res.throughput_per_s;
    s->cpu_util_pct = 100.0 * s->x_per_s * d_cpu;
    s->dasd_gb = n * (mg - rx);
    s->main_xstor = p[P_XSTOR_GB] > 0.0 ? s->x_per_s * (f_main + fu) : 0.0;
    s->xstor_dasd = p[P_XSTOR_GB] > 0.0 ? s->x_per_s * (f_dasd + fu_d) : 0.0;
    s->footprint_gb = n * mg;
    s->host_faults_per_s = s->x_per_s * (f_main + fu);
    s->guest_io_per_s = s->x_per_s * g;
    s->balloon_gb = balloon;
    s->resident_gb = r;
    return ZVP_SUCCESS;
}

static int check_int(const double *p, int i, zvp_error *err)
{
    const zvp_param_desc *d = &overcommit_params[i];
    if (p[i] != floor(p[i]))
        return zvp_fail(err, ZVP_EINVAL,
                        "overcommit: parameter %s = %.17g is not an integer in [%g, %g]", d->name,
                        p[i], d->min, d->max);
    return ZVP_SUCCESS;
}

static int overcommit_eval(const double *p, double *out, zvp_error *err)
{
    static const int ints[] = {P_GUESTS, P_CMM,        P_CMMA,       P_PGMBK_BELOW_2G,
                               P_BASELINE, P_BASELINE_GUESTS, P_PROCESSORS, P_VCPUS};
    oc_config cfg, base;
    oc_state s, sb;
    int st;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if ((st = check_int(p, ints[i], err)) != ZVP_SUCCESS)
            return st;
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
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_overcommit = {
    "overcommit",
    "Memory overcommitment of identical Linux guests on z/VM: VMRM-CMM ballooning shrinks the "
    "guests' footprint, CMMA lets the host discard unused pages; host faults from a clamped "
    "steep-knee lifetime function with a host-LRU inefficiency, paging hierarchy main -> XSTOR "
    "-> DASD by flow balance, z/VM 5.2 PGMBK-below-2-GB limit, throughput from exact MVA of "
    "virtual CPUs on the real processors with fault delays, relative to a baseline run.",
    "reports/001_63a1ddd08fe16ee9.txt (text numbers); MODELS.md 3; IBM 'z/VM Large Memory - "
    "Linux on System z' (2007) set-up",
    N_PARAMS, overcommit_params,
    N_OUTPUTS, overcommit_outputs,
    overcommit_eval,
};
