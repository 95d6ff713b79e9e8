/*
 * models/fsio.c - page-cached versus direct-I/O file-system guests on a z/VM host with
 * constrained real memory (report 002): the guest's page classes (dirty pool, active page
 * cache, base pages) and the direct-I/O buffers fixed while their I/O is in flight share the
 * DPA with the rest of the workload set; residency from Che's characteristic time of the DPA
 * (models/memhost.c), so real memory drives residency and paging; fio's direct I/O as a
 * closed loop at the job's queue depth (exact MVA); page reads on the paging DASD as an M/M/c
 * queue.
 *
 * Equations, assumptions, parameters, sources and what the calibration does not reproduce:
 * models/README.md, section "fsio" (core: section "memhost").
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "memhost.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define PG ZVP_MEMHOST_PAGES_PER_GIB

enum {
    P_DIRECT_IO,
    P_PAGE_CACHE_GB,
    P_IO_INTENSITY,
    P_REAL_MEMORY_GB,
    P_CP_MEMORY_GB,
    P_OTHER_CACHE_GB,
    P_BASE_GB,
    P_DIRTY_POOL_GB,
    P_BUFFER_GB,
    P_QUEUE_DEPTH,
    P_DEVICE_SHARE,
    P_CACHE_REREF_S,
    P_ACTIVE_REREF_S,
    P_BASE_REREF_S,
    P_OTHER_GB,
    P_OTHER_REREF_S,
    P_PC_CACHE_GB,
    P_STORAGE_COUPLING,
    P_IO_PAGE_MS,
    P_DASD_READ_MS,
    P_PAGING_VOLUMES,
    P_PAGED_IN_BASE_S,
    P_TRANSIENT_READS,
    N_PARAMS
};

static const zvp_param_desc fsio_params[N_PARAMS] = {
    {"direct_io", "1", "0 = page-cached file I/O, 1 = direct I/O (integer)", 0, 1, 0, 1, 0},
    {"page_cache_gb", "GiB",
     "observed Linux page cache (report 002: ~6 medium, ~10 high page-cached, ~0.3 direct)", 0,
     1e5, 6, 0, 0},
    {"io_intensity", "1", "file I/O rate relative to the medium level (high = 10/6)", 0.01, 100,
     1, 0, 0},
    {"real_memory_gb", "GiB", "z/VM real memory", 1, 1e6, 64, 0, 0},
    {"cp_memory_gb", "GiB", "real memory not in the DPA (CP's own use)", 0, 1e6, 12, 0, 0},
    {"other_cache_gb", "GiB",
     "page cache for shared libraries and processes (report 002: ~300 MiB)", 0, 1e5, 0.29296875,
     0, 0},
    {"base_gb", "GiB", "instantiated kernel and process memory outside the page cache", 0, 1e5,
     0.4, 0, 0},
    {"dirty_pool_gb", "GiB",
     "largest part of the file cache waiting for write-back (Linux's dirty limit; report 002: "
     "between the medium and high levels' file caches, 5.71..9.71)",
     0, 1e5, 7.7, 0, 0},
    {"buffer_gb", "GiB", "transfer-buffer memory CP fixes per direct I/O in flight", 0, 1e5, 0.04,
     0, 0},
    {"queue_depth", "1", "fio jobs x iodepth of the direct-I/O guest at io_intensity = 1", 1, 1e4,
     6, 0, 0},
    {"device_share", "1",
     "share of one job's I/O cycle spent at the storage device when it runs alone (S / (S + Z)); "
     "1 / device_share is the loop's knee in jobs (report 002: between 6 and 10)",
     1e-6, 0.999999, 0.125, 0, 0},
    {"cache_reref_s", "s", "mean re-reference interval of a dirty-pool page (write-back)", 1e-6,
     1e9, 100, 0, 0},
    {"active_reref_s", "s", "mean re-reference interval of an active file-cache page", 1e-6, 1e9,
     0.2, 0, 0},
    {"base_reref_s", "s", "mean re-reference interval of a base page", 1e-6, 1e12, 1e9, 0, 0},
    {"other_gb", "GiB", "instantiated memory of the rest of the workload set on the host", 0, 1e6,
     100, 0, 0},
    {"other_reref_s", "s", "mean re-reference interval of a page of the rest of the workload set",
     1e-6, 1e12, 100, 0, 0},
    {"pc_cache_gb", "GiB",
     "page cache of the page-cached companion guest at io_intensity = 1 (its throughput loads "
     "the shared storage server)",
     0, 1e5, 6, 0, 0},
    {"storage_coupling", "1",
     "share of the direct-I/O device time due to the page-cached companion's load on the same "
     "storage server",
     0, 0.99, 0.2, 0, 0},
    {"io_page_ms", "ms", "time of one page of file I/O without paging delay", 1e-6, 1e6, 0.5, 0, 0},
    {"dasd_read_ms", "ms", "device time of one z/VM page read (no queueing)", 0, 1e4, 1, 0, 0},
    {"paging_volumes", "1", "paging devices of the host, c of the M/M/c paging station (integer)",
     1, 1e4, 256, 1, 0},
    {"paged_in_base_s", "s",
     "time base of the report's 'fraction of resident memory being paged in' (not stated)", 1e-3,
     1e6, 1, 0, 0},
    {"transient_reads_per_s", "pages/s",
     "page reads of the rest of the workload set for pages its guests release soon after use "
     "(flagged unused): no residency, so not bounded by DPA / T",
     0, 1e9, 0, 0, 0},
};

enum {
    O_INSTANTIATED,
    O_RESIDENT,
    O_RESIDENT_SHARE,
    O_DPA_SHARE,
    O_PAGE_READ_SHARE,
    O_PAGED_IN_SHARE,
    O_THROUGHPUT_REL,
    O_PAGE_READS,
    O_DPA_GB,
    O_IO_IN_PROGRESS,
    O_CHAR_TIME,
    O_PAGING_UTIL,
    N_OUTPUTS
};

static const zvp_param_desc fsio_outputs[N_OUTPUTS] = {
    {"instantiated_gb", "GiB", "instantiated guest memory (cache + base + buffers in flight)", 0,
     INFINITY, 0, 0, 0},
    {"resident_gb", "GiB", "part of it resident in z/VM real memory", 0, INFINITY, 0, 0, 0},
    {"resident_share_pct", "%", "resident / instantiated", 0, 100, 0, 0, 0},
    {"dpa_share_pct", "%", "resident / DPA", 0, 100, 0, 0, 0},
    {"page_read_share_pct", "%", "share of z/VM's page reads caused by this guest", 0, 100, 0, 0, 0},
    {"paged_in_share_pct", "%", "resident memory paged in per paged_in_base_s, in % of the resident", 0,
     INFINITY, 0, 0, 0},
    {"throughput_rel", "1", "file I/O throughput relative to the same host without memory constraint",
     0, INFINITY, 0, 0, 0},
    {"page_reads_per_s", "pages/s", "z/VM page reads caused by this guest", 0, INFINITY, 0, 0, 0},
    {"dpa_gb", "GiB", "dynamic paging area = real_memory_gb - cp_memory_gb", 0, INFINITY, 0, 0, 0},
    {"io_in_progress", "1", "mean direct I/Os in flight at the device (closed loop; 0 page-cached)",
     0, INFINITY, 0, 0, 0},
    {"char_time_s", "s", "characteristic (residency) time of the DPA (1e12: no constraint)", 0,
     INFINITY, 0, 0, 0},
    {"paging_util_pct", "%", "utilization of the paging DASD (M/M/c; saturated: ZVP_EUNSTABLE)", 0, 100, 0,
     0, 0},
};

enum { C_DIRTY, C_ACTIVE, C_BASE, C_OTHER, N_CLASSES };

/* Mean I/Os at the device of the closed loop: n jobs (linear between whole numbers), device
 * demand s (queue), the rest of the cycle z (delay). Also its throughput. */
static int fsio_loop(double n, double s, double z, double *l_dev, double *x, zvp_error *err)
{
    zvp_station st[2] = {{ZVP_STATION_QUEUE, 1, 1, 0, s}, {ZVP_STATION_DELAY, 1, 1, 0, z}};
    double rs[2], q[2], u[2], lq[2] = {0, 0}, xs[2] = {0, 0};
    const double lo = floor(n), w = n - lo;
    for (int k = 0; k < 2; k++) {
        zvp_mva_result r = {0, 0, rs, q, u};
        int status = zvp_mva_exact(st, 2, 0.0, (unsigned long)lo + (unsigned long)k, &r, NULL, err);
        if (status != ZVP_SUCCESS)
            return status;
        lq[k] = q[0];
        xs[k] = r.throughput_per_s;
    }
    *l_dev = (1.0 - w) * lq[0] + w * lq[1];
    *x = (1.0 - w) * xs[0] + w * xs[1];
    return ZVP_SUCCESS;
}

typedef struct fsio_host {
    double t, inst, res, reads, other_reads, p_miss, read_s, l_dev, dpa, util;
} fsio_host;

/* The host with one fsio guest (page-cached or direct I/O) and the rest of the workload set. */
static int fsio_host_solve(const double *p, int direct, double cache_gb, double s_dev,
                           fsio_host *h, zvp_error *err)
{
    zvp_memhost_class k[N_CLASSES];
    const zvp_memhost_dasd dasd = {(unsigned long)p[P_PAGING_VOLUMES], 1e-3 * p[P_DASD_READ_MS],
                                   1e-3 * p[P_DASD_READ_MS], 1.0};
    double cache = 0.0, buffers = 0.0, x, refs, u;
    int st;
    h->dpa = p[P_REAL_MEMORY_GB] - p[P_CP_MEMORY_GB];
    h->l_dev = 0.0;
    if (direct) {
        const double sh = p[P_DEVICE_SHARE];
        if ((st = fsio_loop(p[P_QUEUE_DEPTH] * p[P_IO_INTENSITY], s_dev * sh, 1.0 - sh, &h->l_dev,
                            &x, err)) != ZVP_SUCCESS)
            return st;
        buffers = p[P_BUFFER_GB] * h->l_dev;
    } else
        cache = cache_gb - p[P_OTHER_CACHE_GB];
    k[C_DIRTY] = (zvp_memhost_class){fmin(cache, p[P_DIRTY_POOL_GB]), 1.0 / p[P_CACHE_REREF_S], 0};
    k[C_ACTIVE] = (zvp_memhost_class){cache - k[C_DIRTY].size_gb, 1.0 / p[P_ACTIVE_REREF_S], 0};
    k[C_BASE] = (zvp_memhost_class){p[P_BASE_GB] + p[P_OTHER_CACHE_GB], 1.0 / p[P_BASE_REREF_S], 0};
    k[C_OTHER] = (zvp_memhost_class){p[P_OTHER_GB], 1.0 / p[P_OTHER_REREF_S], 0};
    if (buffers >= h->dpa)
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: direct-I/O buffers in flight buffer_gb x L = %.17g GiB (L = %.17g "
                        "at queue_depth x io_intensity = %.17g jobs) fill the DPA real_memory_gb "
                        "- cp_memory_gb = %.17g GiB: resident memory cannot exceed what is "
                        "available",
                        buffers, h->l_dev, p[P_QUEUE_DEPTH] * p[P_IO_INTENSITY], h->dpa);
    if ((st = zvp_memhost_char_time(k, N_CLASSES, buffers, h->dpa, &h->t, err)) != ZVP_SUCCESS)
        return st;
    h->inst = buffers;
    h->res = buffers;
    h->reads = 0.0;
    for (int j = 0; j < C_OTHER; j++) {
        h->inst += k[j].size_gb;
        h->res += k[j].size_gb * zvp_memhost_hit(k[j].rate_per_s, h->t);
        h->reads += zvp_memhost_misses(&k[j], h->t);
    }
    h->other_reads = zvp_memhost_misses(&k[C_OTHER], h->t) + p[P_TRANSIENT_READS];
    /* the file I/O that pays for paging is the write-back of dirty pages (report 002: "later,
     * when Linux again accessed such pages in order to write them to the I/O file, z/VM first
     * had to ... fetch previously paged out pages"): misses per write-back of the dirty pool */
    refs = k[C_DIRTY].size_gb * k[C_DIRTY].rate_per_s * PG;
    h->p_miss = refs > 0.0 ? zvp_memhost_misses(&k[C_DIRTY], h->t) / refs : 0.0;
    /* the page reads are an open demand here (they do not slow down with the file I/O they
     * delay): at an offered load >= paging_volumes the paging DASD has no steady state */
    if ((st = zvp_memhost_dasd_read(&dasd, h->reads + h->other_reads, 0.0, &u, &h->read_s,
                                    NULL)) != ZVP_SUCCESS)
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "fsio: paging DASD saturated, no steady state: %.6g page reads/s (fsio "
                        "guest %.6g, rest of the workload set %.6g) x dasd_read_ms = %.6g ms "
                        "= %.6g busy volumes >= paging_volumes = %lu (%s guest at "
                        "real_memory_gb = %.6g); page reads are an open demand in this model",
                        h->reads + h->other_reads, h->reads, h->other_reads, p[P_DASD_READ_MS],
                        u * (double)dasd.volumes, dasd.volumes,
                        direct ? "direct-I/O" : "page-cached", p[P_REAL_MEMORY_GB]);
    h->util = fmin(1.0, u);
    return ZVP_SUCCESS;
}

static int fsio_eval(const double *p, double *out, zvp_error *err)
{
    const int direct = p[P_DIRECT_IO] != 0.0;
    fsio_host h, pc;
    double thr, s_dev = 1.0;
    int st;
    if (p[P_REAL_MEMORY_GB] <= p[P_CP_MEMORY_GB])
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: cp_memory_gb = %.17g must be below real_memory_gb = %.17g",
                        p[P_CP_MEMORY_GB], p[P_REAL_MEMORY_GB]);
    if (!direct && p[P_PAGE_CACHE_GB] < p[P_OTHER_CACHE_GB])
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: page_cache_gb = %.17g must be at least other_cache_gb = %.17g for "
                        "the page-cached variant",
                        p[P_PAGE_CACHE_GB], p[P_OTHER_CACHE_GB]);
    if (direct) {
        /* the page-cached companion's throughput loads the shared storage server */
        const double pcg = fmax(p[P_OTHER_CACHE_GB], p[P_PC_CACHE_GB] * p[P_IO_INTENSITY]);
        double tpc, xc, x0, l0;
        if ((st = fsio_host_solve(p, 0, pcg, 1.0, &pc, err)) != ZVP_SUCCESS)
            return st;
        tpc = pc.p_miss > 0.0 ? 1.0 / (1.0 + pc.p_miss * 1e3 * pc.read_s / p[P_IO_PAGE_MS]) : 1.0;
        s_dev = 1.0 - p[P_STORAGE_COUPLING] * (1.0 - tpc);
        if ((st = fsio_host_solve(p, 1, 0.0, s_dev, &h, err)) != ZVP_SUCCESS)
            return st;
        if ((st = fsio_loop(p[P_QUEUE_DEPTH] * p[P_IO_INTENSITY], p[P_DEVICE_SHARE] * s_dev,
                            1.0 - p[P_DEVICE_SHARE], &l0, &xc, err)) != ZVP_SUCCESS)
            return st;
        if ((st = fsio_loop(p[P_QUEUE_DEPTH] * p[P_IO_INTENSITY], p[P_DEVICE_SHARE],
                            1.0 - p[P_DEVICE_SHARE], &l0, &x0, err)) != ZVP_SUCCESS)
            return st;
        thr = xc / x0;
    } else {
        if ((st = fsio_host_solve(p, 0, p[P_PAGE_CACHE_GB], 1.0, &h, err)) != ZVP_SUCCESS)
            return st;
        thr = h.p_miss > 0.0 ? 1.0 / (1.0 + h.p_miss * 1e3 * h.read_s / p[P_IO_PAGE_MS]) : 1.0;
    }
    if (h.inst <= 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: instantiated memory is 0 (page_cache_gb, base_gb and "
                        "other_cache_gb all 0, no direct I/O in flight); need at least one page");
    out[O_INSTANTIATED] = h.inst;
    out[O_RESIDENT] = fmin(h.res, h.dpa);
    out[O_RESIDENT_SHARE] = fmin(100.0, 100.0 * h.res / h.inst);
    out[O_DPA_SHARE] = fmin(100.0, 100.0 * h.res / h.dpa);
    out[O_PAGE_READ_SHARE] =
        h.reads > 0.0 ? 100.0 * h.reads / (h.reads + h.other_reads) : 0.0;
    out[O_PAGED_IN_SHARE] = h.res > 0.0 ? 100.0 * h.reads * p[P_PAGED_IN_BASE_S] / (h.res * PG) : 0.0;
    out[O_THROUGHPUT_REL] = thr;
    out[O_PAGE_READS] = h.reads;
    out[O_DPA_GB] = h.dpa;
    out[O_IO_IN_PROGRESS] = h.l_dev;
    out[O_CHAR_TIME] = fmin(h.t, 1e12); /* 1e12: no constraint (T infinite) */
    out[O_PAGING_UTIL] = 100.0 * h.util;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_fsio = {
    "fsio",
    "Linux file-system I/O guest, page-cached or direct I/O, on a z/VM host with constrained "
    "real memory: the guest's dirty pool, active page cache and base pages and the direct-I/O "
    "buffers CP fixes while their I/O is in flight share the DPA with the rest of the workload "
    "set; residency of every class from Che's characteristic time of the DPA (real memory drives "
    "residency and paging); fio direct I/O as a closed loop at its queue depth (exact MVA); "
    "page reads on an M/M/c paging DASD; the page-cached companion's throughput loads the "
    "shared storage server of the direct-I/O guest.",
    "report 002 ("
    "File system I/O workload), "
    "numbers stated in its text (CID 64/20); Che, Tung & Wang (IEEE JSAC 20(7), 2002)",
    N_PARAMS, fsio_params,
    N_OUTPUTS, fsio_outputs,
    fsio_eval,
    NULL, /* no network for the simulator */
};
