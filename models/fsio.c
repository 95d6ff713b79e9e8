/*
 * models/fsio.c - page-cached versus direct-I/O file-system guests under constrained z/VM
 * real memory: instantiated and resident memory, share of the DPA, share of z/VM's page
 * reads, paged-in share, and relative throughput.
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "fsio".
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define PAGES_PER_GIB 262144.0

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
    P_STORAGE_UTIL,
    P_RESIDENCY_S,
    P_CACHE_REREF_S,
    P_ACTIVE_REREF_S,
    P_BASE_REREF_S,
    P_OTHER_READS,
    P_IO_PAGE_MS,
    P_PAGE_READ_MS,
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
    {"dirty_pool_gb", "GiB", "largest part of the file cache waiting for write-back (dirty pool)",
     0, 1e5, 8, 0, 0},
    {"buffer_gb", "GiB", "transfer-buffer memory fixed per direct I/O in progress", 0, 1e5, 0.04,
     0, 0},
    {"storage_util", "1", "utilization of the direct-I/O storage path at io_intensity = 1", 0, 1,
     0.4, 0, 0},
    {"residency_s", "s", "z/VM's residency time of an unreferenced page under constraint", 1e-6,
     1e9, 120, 0, 0},
    {"cache_reref_s", "s", "mean re-reference interval of a dirty-pool page (write-back)", 1e-6,
     1e9, 100, 0, 0},
    {"active_reref_s", "s", "mean re-reference interval of an active file-cache page", 1e-6, 1e9,
     0.2, 0, 0},
    {"base_reref_s", "s", "mean re-reference interval of a base page", 1e-6, 1e12, 1e9, 0, 0},
    {"other_page_reads_per_s", "pages/s",
     "z/VM page reads caused by the rest of the workload set", 0, 1e9, 100000, 0, 0},
    {"io_page_ms", "ms", "time of one page of file I/O without paging delay", 1e-6, 1e6, 0.5, 0, 0},
    {"page_read_ms", "ms", "z/VM page read time seen by the guest", 0, 1e6, 5, 0, 0},
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
    N_OUTPUTS
};

static const zvp_param_desc fsio_outputs[N_OUTPUTS] = {
    {"instantiated_gb", "GiB", "instantiated guest memory (cache + base + buffers in use)", 0,
     INFINITY, 0, 0, 0},
    {"resident_gb", "GiB", "part of it resident in z/VM real memory", 0, INFINITY, 0, 0, 0},
    {"resident_share_pct", "%", "resident / instantiated", 0, 100, 0, 0, 0},
    {"dpa_share_pct", "%", "resident / DPA", 0, 100, 0, 0, 0},
    {"page_read_share_pct", "%", "share of z/VM's page reads caused by this guest", 0, 100, 0, 0, 0},
    {"paged_in_share_pct", "%", "resident memory paged in per second, in % of the resident", 0,
     INFINITY, 0, 0, 0},
    {"throughput_rel", "1", "file I/O throughput relative to no memory constraint", 0, 1, 0, 0, 0},
    {"page_reads_per_s", "pages/s", "z/VM page reads caused by this guest", 0, INFINITY, 0, 0, 0},
    {"dpa_gb", "GiB", "dynamic paging area = real_memory_gb - cp_memory_gb", 0, INFINITY, 0, 0, 0},
    {"io_in_progress", "1", "mean direct I/Os in progress (M/M/1 L; 0 for page-cached)", 0,
     INFINITY, 0, 0, 0},
};

enum { C_DIRTY, C_ACTIVE, C_BASE, N_CLASSES };

/* Resident memory with residency time t: the buffers plus sum_j S_j (1 - exp(-lambda_j t)). */
static double fsio_resident(const double *size, const double *rate, double buffers, double t)
{
    double res = buffers;
    for (int j = 0; j < N_CLASSES; j++)
        res += size[j] * -expm1(-rate[j] * t);
    return res;
}

/* The residency time z/VM can sustain: residency_s while the resident memory fits in the DPA;
 * otherwise the DPA is full and pages are stolen sooner: the T < residency_s at which the
 * resident memory equals the DPA (Che's characteristic time from the capacity; resident
 * memory grows with T, so bisection). */
static double fsio_residency(const double *size, const double *rate, double buffers,
                             double t, double dpa)
{
    if (fsio_resident(size, rate, buffers, t) <= dpa)
        return t;
    double lo = 0.0, hi = t;
    for (int i = 0; i < 200 && lo < hi; i++) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        if (fsio_resident(size, rate, buffers, mid) <= dpa)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int fsio_eval(const double *p, double *out, zvp_error *err)
{
    double t = p[P_RESIDENCY_S];
    const int direct = p[P_DIRECT_IO] != 0.0;
    double size[N_CLASSES], rate[N_CLASSES], miss[N_CLASSES];
    double cache = 0.0, in_progress = 0.0, buffers, inst, res, reads = 0.0, dpa, refs, p_miss;
    /* zvp_model_eval has checked every parameter; cross-parameter conditions are checked here */
    dpa = p[P_REAL_MEMORY_GB] - p[P_CP_MEMORY_GB];
    if (dpa <= 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: cp_memory_gb = %.17g must be below real_memory_gb = %.17g",
                        p[P_CP_MEMORY_GB], p[P_REAL_MEMORY_GB]);
    if (direct) {
        zvp_station_result q;
        int st = zvp_mmc(p[P_STORAGE_UTIL] * p[P_IO_INTENSITY], 1.0, 1, &q, err);
        if (st != ZVP_SUCCESS)
            return st;
        in_progress = q.mean_in_system; /* rho / (1 - rho) */
    } else {
        if (p[P_PAGE_CACHE_GB] < p[P_OTHER_CACHE_GB])
            return zvp_fail(err, ZVP_EINVAL,
                            "fsio: page_cache_gb = %.17g must be at least other_cache_gb = "
                            "%.17g for the page-cached variant",
                            p[P_PAGE_CACHE_GB], p[P_OTHER_CACHE_GB]);
        cache = p[P_PAGE_CACHE_GB] - p[P_OTHER_CACHE_GB];
    }
    buffers = p[P_BUFFER_GB] * in_progress;
    size[C_DIRTY] = fmin(cache, p[P_DIRTY_POOL_GB]);
    size[C_ACTIVE] = cache - size[C_DIRTY];
    size[C_BASE] = p[P_BASE_GB] + p[P_OTHER_CACHE_GB];
    rate[C_DIRTY] = 1.0 / p[P_CACHE_REREF_S];
    rate[C_ACTIVE] = 1.0 / p[P_ACTIVE_REREF_S];
    rate[C_BASE] = 1.0 / p[P_BASE_REREF_S];
    /* the buffers are fixed by CP while the I/O is in progress: they must fit in the DPA */
    if (buffers > dpa)
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: direct-I/O buffers in progress buffer_gb x L = %.17g GiB (L = %.17g "
                        "from storage_util x io_intensity = %.17g) exceed the DPA real_memory_gb "
                        "- cp_memory_gb = %.17g GiB: resident memory cannot exceed what is "
                        "available",
                        buffers, in_progress, p[P_STORAGE_UTIL] * p[P_IO_INTENSITY], dpa);
    t = fsio_residency(size, rate, buffers, t, dpa);
    inst = buffers;
    for (int j = 0; j < N_CLASSES; j++) {
        double x = rate[j] * t;
        inst += size[j];
        miss[j] = size[j] * PAGES_PER_GIB * rate[j] * exp(-x);
        reads += miss[j];
    }
    res = fmin(fsio_resident(size, rate, buffers, t), dpa);
    if (inst <= 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: instantiated memory is 0 (page_cache_gb, base_gb and "
                        "other_cache_gb all 0, no direct I/O in progress); need at least one "
                        "page");
    refs = (size[C_DIRTY] * rate[C_DIRTY] + size[C_ACTIVE] * rate[C_ACTIVE]) * PAGES_PER_GIB;
    p_miss = refs > 0.0 ? (miss[C_DIRTY] + miss[C_ACTIVE]) / refs : 0.0;
    out[O_INSTANTIATED] = inst;
    out[O_RESIDENT] = res;
    out[O_RESIDENT_SHARE] = 100.0 * res / inst;
    out[O_DPA_SHARE] = 100.0 * res / dpa;
    out[O_PAGE_READ_SHARE] = reads > 0.0 ? 100.0 * reads / (reads + p[P_OTHER_READS]) : 0.0;
    out[O_PAGED_IN_SHARE] = res > 0.0 ? 100.0 * reads / (res * PAGES_PER_GIB) : 0.0;
    out[O_THROUGHPUT_REL] = 1.0 / (1.0 + p_miss * p[P_PAGE_READ_MS] / p[P_IO_PAGE_MS]);
    out[O_PAGE_READS] = reads;
    out[O_DPA_GB] = dpa;
    out[O_IO_IN_PROGRESS] = in_progress;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_fsio = {
    "fsio",
    "Linux file-system I/O guest, page-cached or direct I/O, under constrained z/VM real "
    "memory: instantiated memory from the dirty pool and active part of the page cache, base "
    "pages and the direct-I/O buffers in progress (M/M/1 storage path, Little's law, fixed by "
    "CP during the I/O); z/VM residency of each page class from its re-reference rate and the "
    "residency time (Che / working-set), page reads from the non-resident referenced pages, "
    "share of the DPA and of z/VM's page reads.",
    "report 002 ("
    "File system I/O workload), "
    "numbers stated in its text (CID 64/20)",
    N_PARAMS, fsio_params,
    N_OUTPUTS, fsio_outputs,
    fsio_eval,
    NULL, /* no network for the simulator */
};
