/*
 * models/overcommit.c - memory overcommitment of Linux guests on z/VM (report 001): page
 * classes per guest (stable, page cache, unused), CMMA page states (stable, unused, volatile,
 * potentially volatile) and their discard, the VMRM-CMM balloon at the steady state of the
 * VMRM SHRINK/RELEASE loop, host residency in main storage and XSTOR from Che's
 * characteristic time (models/memhost.c), the paging DASD as an M/M/c queue and the throughput
 * of the virtual CPUs on the real processors (finite-source M/M/c, exact).
 *
 * Equations, assumptions, parameters, sources and what the calibration does not reproduce:
 * models/README.md, section "overcommit" (core: section "memhost").
 */

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include "registry.h"
#include "memhost.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define PG ZVP_MEMHOST_PAGES_PER_GIB

enum {
    P_GUESTS,
    P_GUEST_VIRTUAL_GB,
    P_WORKING_SET_GB,
    P_UNUSED_SHARE,
    P_DIRTY_SHARE,
    P_FILE_SET_GB,
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
    P_THINK_S,
    P_STABLE_REREF_S,
    P_HOT_SHARE,
    P_COLD_REREF_S,
    P_FILE_READS,
    P_UNUSED_REREF_S,
    P_PGMBK_GB,
    P_VMRM_TARGET,
    P_DASD_READ_MS,
    P_DASD_WRITE_MS,
    P_PAGES_PER_WRITE_IO,
    P_PAGING_VOLUMES,
    P_XSTOR_MOVE_US,
    P_CP_FAULT_US,
    P_CP_DISCARD_US,
    P_ESSA_US,
    P_BALLOON_US,
    P_BALLOON_CHURN,
    P_GUEST_IO_MS,
    P_GUEST_IO_CPU_US,
    P_FAULT_BLOCKING,
    P_REREF_SPREAD,
    N_PARAMS
};

static const zvp_param_desc overcommit_params[N_PARAMS] = {
    {"guests", "1", "number of identical Linux guests (integer)", 1, 1000, 10, 1, 0},
    {"guest_virtual_gb", "GiB", "virtual (guest-real) memory of each guest (report 001: 160 GB / 10)",
     0.01, 1e5, 16, 0, 0},
    {"working_set_gb", "GiB",
     "stable (anonymous, shared-memory) pages of each guest: database buffers and caches 9152 MB",
     0.001, 1e5, 8.9375, 0, 0},
    {"unused_share", "1", "share of each guest's memory Linux holds free (CMMA state unused)", 0,
     0.9, 0.05, 0, 0},
    {"dirty_share", "1",
     "share of the page cache that is dirty (CMMA potentially volatile pages that stay stable)",
     0, 1, 0.1, 0, 0},
    {"file_set_gb", "GiB", "database files each guest reads through its page cache (uniform access)",
     0.01, 1e6, 32, 0, 0},
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
    {"think_s", "s", "virtual-CPU idle time per CPU-second of guest work (client wait)", 0, 1e4,
     0, 0, 0},
    {"stable_reref_s", "s",
     "mean guest CPU time between references to one stable page (re-reference interval)", 1e-6,
     1e9, 10, 0, 0},
    {"hot_share", "1", "share of the stable pages that are hot (re-referenced every stable_reref_s)",
     0, 1, 0.5, 0, 0},
    {"cold_reref_s", "s", "mean guest CPU time between references to one cold stable page", 1e-6,
     1e9, 1000, 0, 0},
    {"file_reads_per_s", "pages/s", "page-cache reads per CPU-second of guest work", 0, 1e9, 2000,
     0, 0},
    {"unused_reref_s", "s", "mean guest CPU time until a free page is reallocated", 1e-6, 1e9, 100,
     0, 0},
    {"pgmbk_gb", "GiB", "z/VM 5.2: storage below 2 GB available for PGMBKs", 0.001, 2, 0.5, 0, 0},
    {"vmrm_target", "1",
     "VMRM constraint threshold: virtual CPUs waiting for host page reads from the paging DASD, "
     "system-wide (page reads per second x read time), above which VMRM issues SHRINK, below "
     "which RELEASE",
     0, 1e6, 2, 0, 0},
    {"dasd_read_ms", "ms", "device time of a one-page read I/O from paging DASD (no queueing)",
     0, 1e4, 5, 0, 0},
    {"dasd_write_ms", "ms", "device time of one block-write I/O (pages_per_write_io pages)", 0,
     1e4, 8, 0, 0},
    {"pages_per_write_io", "pages", "pages migrated to DASD per block-write I/O", 1, 4096, 16, 0, 0},
    {"paging_volumes", "1",
     "paging DASD volumes serving I/O concurrently, c of the M/M/c paging station (integer)", 1,
     1000, 8, 1, 0},
    {"xstor_move_us", "us", "CPU time to move one page main <-> XSTOR (synchronous)", 0, 1e4, 10,
     0, 0},
    {"cp_fault_us", "us", "CP CPU time per host page-in (fault, steal, page-out scheduling)", 0,
     1e5, 30, 0, 0},
    {"cp_discard_us", "us",
     "CP CPU time per CMMA discard (volatile discard fault or unused page re-supplied)", 0, 1e5,
     5, 0, 0},
    {"essa_us", "us", "CPU time per CMMA page-state change (ESSA)", 0, 1e4, 2, 0, 0},
    {"balloon_us", "us", "CP CPU time per balloon page moved (diagnose to release or reclaim it)", 0, 1e5, 10,
     0, 0},
    {"balloon_churn", "1/s",
     "share of the balloon VMRM's SHRINK/RELEASE moves per CPU-second of guest work", 0, 1, 1e-4,
     0, 0},
    {"guest_io_ms", "ms", "blocking time of one guest disk read (page-cache miss or re-read)", 0,
     1e4, 5, 0, 0},
    {"guest_io_cpu_us", "us", "CPU time per guest disk read (Linux and CP)", 0, 1e5, 50, 0, 0},
    {"fault_blocking", "1",
     "theta: share of a DASD page read's time that blocks the virtual CPU (> 0 with cmm = 1: "
     "VMRM's signal is the page wait)",
     0, 1, 1, 0, 0},
    {"reref_spread", "1",
     "spread of the re-reference rates within a class: log-uniform over [rate/s, rate*s] (1 = "
     "one rate)", 1, 1000, 1, 0, 0},
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
    O_UNUSED_FAULTS,
    O_CP_UTIL,
    O_GUEST_UTIL,
    O_PAGE_MOVES,
    O_CP_PER_WORK,
    O_PAGE_MOVES_REL,
    O_PAGE_INS_PER_WORK,
    O_PAGE_MOVES_DECREASE,
    N_OUTPUTS
};

static const zvp_param_desc overcommit_outputs[N_OUTPUTS] = {
    {"throughput_rel", "1", "throughput relative to the baseline configuration (see baseline)", 0,
     INFINITY, 0, 0, 0},
    {"dasd_page_space_gb", "GiB", "guest pages held on DASD paging space", 0, INFINITY, 0, 0, 0},
    {"main_to_xstor_per_s", "pages/s", "page movement main storage -> XSTOR", 0, INFINITY, 0, 0, 0},
    {"xstor_to_dasd_per_s", "pages/s", "page movement XSTOR -> DASD (main -> DASD without XSTOR)", 0,
     INFINITY, 0, 0, 0},
    {"overcommit_ratio", "1", "guest footprint (after ballooning) / main storage", 0, INFINITY, 0,
     0, 0},
    {"cpu_util_pct", "%", "LPAR CPU utilization summed over processors", 0, INFINITY, 0, 0, 0},
    {"throughput_per_s", "1/s", "CPU-seconds of guest work done per second, all guests", 0,
     INFINITY, 0, 0, 0},
    {"host_page_ins_per_s", "pages/s", "host page-ins (from XSTOR and DASD), all guests", 0,
     INFINITY, 0, 0, 0},
    {"guest_io_per_s", "1/s", "guest disk reads (page-cache misses and CMMA re-reads), all guests",
     0, INFINITY, 0, 0, 0},
    {"balloon_gb", "GiB", "VMRM-CMM balloon per guest (steady state of the VMRM loop)", 0,
     INFINITY, 0, 0, 0},
    {"resident_gb", "GiB", "host-resident memory per guest", 0, INFINITY, 0, 0, 0},
    {"paging_util_pct", "%", "utilization of the paging DASD volumes (M/M/c station)", 0, 100, 0,
     0, 0},
    {"dasd_read_response_ms", "ms", "DASD page read time seen by a fault: M/M/c wait + service",
     0, INFINITY, 0, 0, 0},
    {"discard_faults_per_s", "1/s",
     "CMMA discard faults (re-reads of discarded volatile page-cache pages), all guests", 0,
     INFINITY, 0, 0, 0},
    {"unused_faults_per_s", "1/s",
     "reallocations of free pages that find no host frame (CMMA: fresh frame; else page-in)", 0,
     INFINITY, 0, 0, 0},
    {"cp_util_pct", "%", "z/VM (CP) overhead: CP CPU utilization summed over processors", 0,
     INFINITY, 0, 0, 0},
    {"guest_util_pct", "%", "guest CPU utilization (work, guest I/O, ESSA)", 0, INFINITY,
     0, 0, 0},
    {"page_moves_per_s", "pages/s", "all page movement: main -> XSTOR plus XSTOR -> DASD", 0,
     INFINITY, 0, 0, 0},
    {"cp_us_per_work", "us", "CP CPU time per CPU-second of guest work (z/VM overhead per work)",
     0, INFINITY, 0, 0, 0},
    {"page_moves_rel", "1",
     "page_moves_per_s relative to the baseline configuration (1 when neither moves pages)", 0,
     INFINITY, 0, 0, 0},
    {"page_ins_per_work", "pages", "host page-ins per CPU-second of guest work (one guest)", 0,
     INFINITY, 0, 0, 0},
    {"page_moves_decrease_pct", "%",
     "decrease of page_moves_per_s against the baseline configuration: 100 (1 - page_moves_rel)",
     -INFINITY, 100, 0, 0, 0},
};

enum { K_STABLE, K_COLD, K_CLEAN, K_DIRTY, K_UNUSED, N_KINDS };

typedef struct oc_config {
    double guests;
    int cmm, cmma, pgmbk;
} oc_config;

/* Per-guest flows per CPU-second of guest work at a given balloon. */
typedef struct oc_flows {
    double f_main, f_dasd, discards, unused, churn, g, dasd_gb, resident_gb, cache_gb, swapped;
} oc_flows;

typedef struct oc_ctx {
    const double *p;
    const oc_config *c;
} oc_ctx;

/* The guest's own page replacement: with balloon b (GiB) the guest keeps unused_share of its
 * remaining memory V - b free and holds its anonymous pages (hot and cold stable) and its file
 * set in the rest by its LRU (Che's characteristic time T_g inside the guest), so the page the
 * balloon takes is the guest's coldest: page cache or anonymous pages by their rates, not in a
 * fixed order. k[] receives the guest-resident part of each class (what the host backs); *g
 * the guest's disk reads per unit of work (page-cache misses plus swap-ins), *swapped the
 * anonymous pages on the guest's swap disk (GiB). */
static int oc_classes(const double *p, double b, zvp_memhost_class *k, double *cache,
                      double *swapped, double *g, zvp_error *err)
{
    const double v = p[P_GUEST_VIRTUAL_GB], gm = fmax(0.0, v - b);
    const double u = p[P_UNUSED_SHARE] * gm, w = fmin(v, p[P_WORKING_SET_GB]);
    const double h = p[P_HOT_SHARE], phi = p[P_DIRTY_SHARE], sp = p[P_REREF_SPREAD];
    const double rc = p[P_FILE_READS] / (p[P_FILE_SET_GB] * PG);
    zvp_memhost_class gc[3];
    double tg, r[3];
    int st;
    gc[0] = (zvp_memhost_class){h * w, 1.0 / p[P_STABLE_REREF_S], sp};
    gc[1] = (zvp_memhost_class){(1.0 - h) * w, 1.0 / p[P_COLD_REREF_S], sp};
    gc[2] = (zvp_memhost_class){p[P_FILE_SET_GB], rc > 0.0 ? rc : 1e-300, sp};
    if ((st = zvp_memhost_char_time(gc, 3, 0.0, gm - u, &tg, err)) != ZVP_SUCCESS)
        return st;
    for (int i = 0; i < 3; i++)
        r[i] = gc[i].size_gb * zvp_memhost_class_hit(&gc[i], tg);
    *swapped = gc[0].size_gb + gc[1].size_gb - r[0] - r[1];
    *cache = r[2];
    *g = (zvp_memhost_misses(&gc[0], tg) + zvp_memhost_misses(&gc[1], tg) +
          (rc > 0.0 ? zvp_memhost_misses(&gc[2], tg) : 0.0));
    k[K_STABLE] = (zvp_memhost_class){r[0], gc[0].rate_per_s, sp};
    k[K_COLD] = (zvp_memhost_class){r[1], gc[1].rate_per_s, sp};
    k[K_CLEAN] = (zvp_memhost_class){(1.0 - phi) * r[2], gc[2].rate_per_s, sp};
    k[K_DIRTY] = (zvp_memhost_class){phi * r[2], gc[2].rate_per_s, sp};
    /* Linux frees and allocates pages at the workload's rate: the balloon shrinks the free
     * pool (u), not the rate, so a ballooned guest reuses its free pages sooner */
    k[K_UNUSED] = (zvp_memhost_class){u, v / (gm * p[P_UNUSED_REREF_S]), sp};
    return ZVP_SUCCESS;
}

/* Host residency (main storage, then XSTOR) and the flows of one guest at balloon b. */
static int oc_flows_at(const double *p, const oc_config *cf, double b, oc_flows *fl, zvp_error *err)
{
    zvp_memhost_class k[N_KINDS], paged[N_KINDS];
    const double n = cf->guests;
    double cm = p[P_REAL_MEMORY_GB] - p[P_CP_MEMORY_GB], tm, tx, pinned = 0.0, g;
    size_t np = 0, nm;
    int st;
    if ((st = oc_classes(p, b, k, &fl->cache_gb, &fl->swapped, &g, err)) != ZVP_SUCCESS)
        return st;
    if (cf->pgmbk)
        cm = fmin(cm, 128.0 * p[P_PGMBK_GB]); /* 1 MB segment per 8 KB PGMBK below 2 GB */
    cm /= n;
    /* every class competes for main storage (one characteristic time); with CMMA the clean
     * page cache (volatile) and the free pages (unused) are discarded when CP steals their
     * frames: they never reach XSTOR or DASD (held at their main-storage residency) */
    nm = N_KINDS;
    if ((st = zvp_memhost_char_time(k, nm, 0.0, cm, &tm, err)) != ZVP_SUCCESS)
        return st;
    for (size_t i = 0; i < nm; i++) {
        if (cf->cmma && (i == K_CLEAN || i == K_UNUSED))
            pinned += k[i].size_gb * zvp_memhost_class_hit(&k[i], tm);
        else
            paged[np++] = k[i];
    }
    tx = tm;
    if (p[P_XSTOR_GB] > 0.0 &&
        (st = zvp_memhost_char_time(paged, np, pinned, cm + p[P_XSTOR_GB] / n, &tx, err)) !=
            ZVP_SUCCESS)
        return st;
    *fl = (oc_flows){0, 0, 0, 0, 0, 0, 0, 0, fl->cache_gb, fl->swapped};
    for (size_t i = 0; i < np; i++) {
        fl->f_main += zvp_memhost_misses(&paged[i], tm);
        fl->f_dasd += zvp_memhost_misses(&paged[i], tx);
        fl->dasd_gb += paged[i].size_gb * (1.0 - zvp_memhost_class_hit(&paged[i], tx));
    }
    for (size_t i = 0; i < nm; i++)
        fl->resident_gb += k[i].size_gb * zvp_memhost_class_hit(&k[i], tm);
    fl->f_dasd = fmin(fl->f_dasd, fl->f_main);
    if (cf->cmma) {
        fl->discards = zvp_memhost_misses(&k[K_CLEAN], tm);
        /* a free page whose frame CP stole (discarded, no write) needs a fresh frame when
         * Linux reallocates it: no page-in, no XSTOR or DASD I/O */
        fl->unused = zvp_memhost_misses(&k[K_UNUSED], tm);
        /* Linux sets every page it frees unused and every page it allocates stable (ESSA):
         * unused_share x V pages per unused_reref_s, whatever the balloon */
        fl->churn = k[K_UNUSED].size_gb * PG * k[K_UNUSED].rate_per_s;
    }
    fl->g = g; /* the guest's page-cache misses and swap-ins (its own LRU) */
    return ZVP_SUCCESS;
}

typedef struct oc_net {
    double d_cpu_s, delay_fixed_s, blocking, dasd_reads, think_s;
    unsigned long vcpus;
    int32_t processors;
} oc_net;

/* The closed network of the virtual CPUs: the real processors (multi-server) and a delay (think
 * time, guest I/O, page wait). A delay station is a think time in product form, so the network
 * is the finite-source M/M/c//N (machine repairman), solved exactly as a birth-death chain in
 * O(N) (the same answer as exact MVA, which costs O(N c) and took 26 s at 64,000 vCPUs on
 * 1000 processors; Kleinrock 1975, sec. 3.8-3.9). */
static int oc_mva(const void *ctx, double read_s, double *x, zvp_error *err)
{
    const oc_net *d = ctx;
    zvp_station_result r;
    const double z = d->think_s + d->delay_fixed_s + d->blocking * d->dasd_reads * read_s;
    int status = zvp_repairman(d->vcpus, z, d->d_cpu_s, (unsigned long)d->processors, &r, err);
    if (status != ZVP_SUCCESS)
        return status;
    *x = r.throughput_per_s;
    return ZVP_SUCCESS;
}

typedef struct oc_state {
    double x, util, read_s, balloon, cp_work, guest_work;
    oc_flows fl;
} oc_state;

/* Flows and throughput of the configuration at balloon b (GiB per guest): the guest and host
 * residency, then the closed network of the virtual CPUs with the paging DASD's read time at
 * its consistent page rate (fixed point). */
static int oc_solve_at(const double *p, const oc_config *cf, double b, oc_state *s, zvp_error *err)
{
    const double xs = p[P_XSTOR_GB] > 0.0 ? 1.0 : 0.0;
    const zvp_memhost_dasd dasd = {(unsigned long)p[P_PAGING_VOLUMES], 1e-3 * p[P_DASD_READ_MS],
                                   1e-3 * p[P_DASD_WRITE_MS], p[P_PAGES_PER_WRITE_IO]};
    double essa, gio;
    oc_net net;
    int st;
    if ((st = oc_flows_at(p, cf, b, &s->fl, err)) != ZVP_SUCCESS)
        return st;
    s->balloon = b;
    gio = s->fl.g + s->fl.discards;
    essa = cf->cmma ? 2.0 * (gio + s->fl.churn) : 0.0;
    /* CP: faults, XSTOR moves, discards, and the balloon pages VMRM's SHRINK/RELEASE moves
     * (each released or reclaimed with a CP diagnose) */
    s->cp_work = 1e-6 * (p[P_CP_FAULT_US] * s->fl.f_main + p[P_XSTOR_MOVE_US] * 2.0 * xs * s->fl.f_main +
                         p[P_CP_DISCARD_US] * (s->fl.discards + s->fl.unused) +
                         p[P_BALLOON_US] * p[P_BALLOON_CHURN] * b * PG);
    s->guest_work = 1.0 + 1e-6 * (p[P_GUEST_IO_CPU_US] * gio + p[P_ESSA_US] * essa);
    net.d_cpu_s = s->cp_work + s->guest_work;
    net.delay_fixed_s = 1e-3 * p[P_GUEST_IO_MS] * gio;
    net.blocking = p[P_FAULT_BLOCKING];
    net.dasd_reads = s->fl.f_dasd;
    net.think_s = p[P_THINK_S];
    net.vcpus = (unsigned long)(cf->guests * p[P_VCPUS]);
    net.processors = (int32_t)p[P_PROCESSORS];
    st = zvp_memhost_paging_fixed_point(&dasd, s->fl.f_dasd, oc_mva, &net, &s->x, &s->util,
                                        &s->read_s, err);
    if (st == ZVP_EUNSTABLE && err) { /* name the input that decides whether reads throttle */
        char msg[sizeof err->message], at[64] = "";
        snprintf(msg, sizeof msg, "%s", err->message);
        if (cf->cmm)
            snprintf(at, sizeof at, "at a VMRM balloon of %.6g GiB per guest; ", b);
        return zvp_fail(err, st, "%s (%sfault_blocking = %.17g: the share of a page read that "
                        "blocks the virtual CPU, range [0, 1])", msg, at, p[P_FAULT_BLOCKING]);
    }
    if (st != ZVP_SUCCESS)
        return st;
    if (!isfinite(s->x) || s->x <= 0.0)
        return zvp_fail(err, ZVP_EUNSTABLE, "overcommit: no positive steady-state throughput");
    return ZVP_SUCCESS;
}

/* VMRM's constraint signal, system-wide and per second as the CP monitor reports it: the
 * virtual CPUs waiting for host page reads from the paging DASD, x F_dasd R_read by Little's
 * law (theta of a read blocks). It grows with the host's paging and with the DASD's queueing,
 * so VMRM never releases balloon into a saturated paging DASD (there the wait is unbounded). */
static int oc_signal(const void *ctx, double b, double *sig, zvp_error *err)
{
    const oc_ctx *c = ctx;
    oc_state s;
    int st = oc_solve_at(c->p, c->c, b, &s, NULL);
    if (st == ZVP_EUNSTABLE) { /* saturated paging at any throughput: constrained */
        *sig = INFINITY;
        return ZVP_SUCCESS;
    }
    if (st != ZVP_SUCCESS)
        return oc_solve_at(c->p, c->c, b, &s, err);
    *sig = c->p[P_FAULT_BLOCKING] * s.x * s.fl.f_dasd * s.read_s;
    return ZVP_SUCCESS;
}

static int oc_solve(const double *p, const oc_config *cf, oc_state *s, zvp_error *err)
{
    const double v = p[P_GUEST_VIRTUAL_GB];
    const oc_ctx ctx = {p, cf};
    double b = 0.0;
    int st;
    if (cf->cmm) {
        st = zvp_memhost_vmrm_steady(oc_signal, &ctx, p[P_VMRM_TARGET],
                                     v - p[P_HOT_SHARE] * fmin(v, p[P_WORKING_SET_GB]), &b, err);
        if (st != ZVP_SUCCESS)
            return st;
    }
    return oc_solve_at(p, cf, b, s, err);
}

static int overcommit_eval(const double *p, double *out, zvp_error *err)
{
    oc_config cfg, base;
    oc_state s, sb;
    const double n = p[P_GUESTS], xs = p[P_XSTOR_GB] > 0.0 ? 1.0 : 0.0;
    int st;
    if (p[P_REAL_MEMORY_GB] <= p[P_CP_MEMORY_GB])
        return zvp_fail(err, ZVP_EINVAL,
                        "overcommit: cp_memory_gb = %.17g must be below real_memory_gb = %.17g",
                        p[P_CP_MEMORY_GB], p[P_REAL_MEMORY_GB]);
    if (p[P_WORKING_SET_GB] + p[P_UNUSED_SHARE] * p[P_GUEST_VIRTUAL_GB] > p[P_GUEST_VIRTUAL_GB])
        return zvp_fail(err, ZVP_EINVAL,
                        "overcommit: working_set_gb = %.17g plus unused_share x guest_virtual_gb "
                        "= %.17g exceeds guest_virtual_gb = %.17g",
                        p[P_WORKING_SET_GB], p[P_UNUSED_SHARE] * p[P_GUEST_VIRTUAL_GB],
                        p[P_GUEST_VIRTUAL_GB]);
    if (p[P_CMM] != 0.0 && !(p[P_FAULT_BLOCKING] > 0.0))
        return zvp_fail(err, ZVP_EINVAL,
                        "overcommit: cmm = 1 needs fault_blocking > 0 (it is %.17g, range [0, 1]): "
                        "VMRM's constraint signal is the virtual CPUs in page wait, which no "
                        "page read causes when fault_blocking = 0",
                        p[P_FAULT_BLOCKING]);
    cfg = (oc_config){n, (int)p[P_CMM], (int)p[P_CMMA], (int)p[P_PGMBK_BELOW_2G]};
    base = (oc_config){p[P_BASELINE] == 2 ? p[P_BASELINE_GUESTS] : n, 0, 0,
                       p[P_BASELINE] == 0 ? 1 : 0};
    if ((st = oc_solve(p, &cfg, &s, err)) != ZVP_SUCCESS)
        return st;
    if ((st = oc_solve(p, &base, &sb, err)) != ZVP_SUCCESS) {
        if (err) { /* say that it is the baseline, not the configuration asked for */
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s", err->message);
            return zvp_fail(err, st, "overcommit: the baseline configuration (baseline = %g: %g "
                            "guests without CMM or CMMA%s), against which throughput_rel and "
                            "page_moves_rel are taken, has no result: %s",
                            p[P_BASELINE], base.guests,
                            base.pgmbk ? ", z/VM 5.2 PGMBK limit" : "", msg);
        }
        return st;
    }
    out[O_THROUGHPUT_REL] = s.x / sb.x;
    out[O_DASD_GB] = n * s.fl.dasd_gb;
    out[O_MAIN_XSTOR] = xs * s.x * s.fl.f_main;
    out[O_XSTOR_DASD] = s.x * s.fl.f_dasd; /* without XSTOR: main -> DASD */
    out[O_OVERCOMMIT] = n * (p[P_GUEST_VIRTUAL_GB] - s.balloon) / p[P_REAL_MEMORY_GB];
    out[O_CPU] = 100.0 * s.x * (s.cp_work + s.guest_work);
    out[O_THROUGHPUT] = s.x;
    out[O_HOST_FAULTS] = s.x * s.fl.f_main;
    out[O_GUEST_IO] = s.x * (s.fl.g + s.fl.discards);
    out[O_BALLOON] = s.balloon;
    out[O_RESIDENT] = s.fl.resident_gb;
    out[O_PAGING_UTIL] = 100.0 * s.util;
    out[O_DASD_READ_RESPONSE] = 1e3 * s.read_s;
    out[O_DISCARD_FAULTS] = s.x * s.fl.discards;
    out[O_UNUSED_FAULTS] = s.x * (cfg.cmma ? s.fl.unused : 0.0);
    out[O_CP_UTIL] = 100.0 * s.x * s.cp_work;
    out[O_GUEST_UTIL] = 100.0 * s.x * s.guest_work;
    out[O_PAGE_MOVES] = out[O_MAIN_XSTOR] + out[O_XSTOR_DASD];
    out[O_CP_PER_WORK] = 1e6 * s.cp_work;
    out[O_PAGE_INS_PER_WORK] = s.fl.f_main;
    /* with no page moves in the baseline either there is nothing to decrease: 1, not 0/0
     * (page moves fall continuously to 0 in both as memory grows) */
    const double mv = s.x * (xs * s.fl.f_main + s.fl.f_dasd);
    const double mvb = sb.x * (xs * sb.fl.f_main + sb.fl.f_dasd);
    if (!(mvb > 0.0) && mv > 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "overcommit: page_moves_rel is undefined: the baseline configuration "
                        "(baseline = %g: %g guests without CMM or CMMA, %s, on real_memory_gb = "
                        "%g less cp_memory_gb = %g) moves no pages (its guests fit) while this "
                        "configuration (%g guests, cmm = %d, cmma = %d, %s) moves %g pages/s; "
                        "choose another baseline (0, 1 or 2)%s, or read page_moves_per_s",
                        p[P_BASELINE], base.guests,
                        base.pgmbk ? "z/VM 5.2 PGMBK limit" : "no PGMBK limit",
                        p[P_REAL_MEMORY_GB], p[P_CP_MEMORY_GB], n, cfg.cmm, cfg.cmma,
                        cfg.pgmbk ? "z/VM 5.2 PGMBK limit (pgmbk_below_2g = 1)" : "no PGMBK limit",
                        mv, p[P_BASELINE] == 2 ? " or more guests for it (baseline_guests)" : "");
    out[O_PAGE_MOVES_REL] = mvb > 0.0 ? mv / mvb : 1.0;
    out[O_PAGE_MOVES_DECREASE] = 100.0 * (1.0 - out[O_PAGE_MOVES_REL]);
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_overcommit = {
    "overcommit",
    "Memory overcommitment of identical Linux guests on z/VM: page classes per guest (stable, "
    "clean and dirty page cache, unused) with the CMMA page states and their discard cost, the "
    "VMRM-CMM balloon at the steady state of the VMRM SHRINK/RELEASE loop on the host's page wait "
    "signal, residency in main storage and XSTOR from Che's characteristic time (real memory "
    "drives paging), paging DASD as an M/M/c queue, z/VM 5.2 PGMBK-below-2-GB limit, throughput "
    "from the exact finite-source M/M/c of virtual CPUs on the real processors, relative to a "
    "baseline run.",
    "report 001 ("
    "Cooperative Memory Management and Collaborative Memory Management Assist Results), "
    "numbers stated in its text; workload set-up from IBM 'z/VM Large Memory - "
    "Linux on System z' (2007); Che, Tung & Wang (IEEE JSAC 20(7), 2002)",
    N_PARAMS, overcommit_params,
    N_OUTPUTS, overcommit_outputs,
    overcommit_eval,
    NULL, /* no network for the simulator */
};
