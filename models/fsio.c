/*
 * models/fsio.c - page-cached versus direct-I/O file-system guests under constrained z/VM
 * real memory: instantiated and resident memory, share of the DPA, share of z/VM's page
 * reads, paged-in share, and relative throughput.
 *
 * Source of the measurements: reports/002_9d3375a5ebfff038.txt ("File system I/O workload",
 * CID 64/20: 64 GiB real memory, 20 CPUs); the numbers its text states are in
 * calibration/data/002_text_fsio.csv, one row per variant and level in
 * calibration/data/002_fit_fsio.csv. Equations: MODELS.md 3 (working-set residency, host page
 * reads) and 6 (DPA).
 *
 * Mechanism. The guest's instantiated memory is three classes of pages:
 *   file cache   C = page_cache_gb - other_cache_gb   (page-cached variant only; 0 for direct
 *                I/O, whose observed page cache is the other_cache_gb of libraries/processes)
 *   base         B = base_gb + other_cache_gb           (kernel, processes, shared libraries)
 *   I/O buffers  D = buffer_gb * io_intensity           (application + driver transfer buffers)
 *   instantiated_gb = C + B + D.
 * Page references: a page of a class is re-referenced as a Poisson stream of rate lambda. The
 * file cache's rate is the inverse of the time a dirty page waits between the fio write and
 * Linux's write-back, lambda_c = 1 / cache_reref_s; by Little's law (cache size = page rate
 * x dirty lifetime) it does not depend on the level, which changes only C. Base pages are
 * touched by the I/O path in proportion to the I/O intensity, lambda_b = io_intensity /
 * base_reref_s. Buffers are used "very intensely" (report 002): lambda_d = 1 / buffer_reref_s.
 * z/VM keeps resident the pages referenced within its residency time T under constraint
 * (working-set / global-aging-list residency; Che's approximation for LRU): a class of size
 * S is resident in the share 1 - exp(-lambda T), and its references miss (page reads) at
 *   S x 262144 x lambda exp(-lambda T)  pages/s.
 *   resident_gb = sum_j S_j (1 - exp(-lambda_j T)),  resident_share_pct = 100 resident/inst.
 *   DPA = real_memory_gb - cp_memory_gb,  dpa_share_pct = 100 resident / DPA.
 *   page_read_share_pct = 100 reads / (reads + other_page_reads_per_s), where
 *     other_page_reads_per_s is z/VM's page-read rate caused by the rest of the combined
 *     workload set;
 *   paged_in_share_pct = 100 reads x 1 s / resident pages (share of the resident memory
 *     paged in per second).
 *   throughput_rel: a file I/O of one page takes io_page_ms; when the page-cache page it
 *     needs was paged out (probability exp(-lambda_c T) for the page-cached variant; the
 *     direct-I/O buffers miss with exp(-lambda_d T)), the guest waits page_read_ms more:
 *     throughput_rel = 1 / (1 + P_miss page_read_ms / io_page_ms), relative to the same
 *     workload without memory constraint (T -> infinity). The report states throughput
 *     only qualitatively, so this output is not calibrated.
 */
#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "../src/internal.h"

#define PAGES_PER_GIB 262144.0

enum {
    P_DIRECT_IO,
    P_PAGE_CACHE_GB,
    P_IO_INTENSITY,
    P_REAL_MEMORY_GB,
    P_CP_MEMORY_GB,
    P_OTHER_CACHE_GB,
    P_BASE_GB,
    P_BUFFER_GB,
    P_RESIDENCY_S,
    P_CACHE_REREF_S,
    P_BASE_REREF_S,
    P_BUFFER_REREF_S,
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
     "page cache for shared libraries and processes (report 002: ~300 MiB)", 0, 1e5, 0.29296875, 0, 0},
    {"base_gb", "GiB", "instantiated kernel and process memory outside the page cache", 0, 1e5,
     0.4, 0, 0},
    {"buffer_gb", "GiB", "I/O transfer buffers at io_intensity = 1", 0, 1e5, 0.02, 0, 0},
    {"residency_s", "s", "z/VM's residency time of an unreferenced page under constraint", 1e-6,
     1e9, 60, 0, 0},
    {"cache_reref_s", "s", "mean re-reference interval of a file-cache page", 1e-6, 1e9, 45, 0, 0},
    {"base_reref_s", "s", "mean re-reference interval of a base page at io_intensity = 1", 1e-6,
     1e12, 2000, 0, 0},
    {"buffer_reref_s", "s", "mean re-reference interval of an I/O buffer page", 1e-9, 1e9, 0.1, 0, 0},
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
    N_OUTPUTS
};

static const zvp_param_desc fsio_outputs[N_OUTPUTS] = {
    {"instantiated_gb", "GiB", "instantiated guest memory (file cache + base + buffers)", 0,
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
};

static int fsio_eval(const double *p, double *out, zvp_error *err)
{
    const double t = p[P_RESIDENCY_S];
    double size[3], rate[3], inst = 0.0, res = 0.0, reads = 0.0, dpa, p_miss;
    if (p[P_DIRECT_IO] != floor(p[P_DIRECT_IO]))
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: parameter direct_io = %.17g is not an integer in [0, 1]",
                        p[P_DIRECT_IO]);
    dpa = p[P_REAL_MEMORY_GB] - p[P_CP_MEMORY_GB];
    if (dpa <= 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: cp_memory_gb = %.17g must be below real_memory_gb = %.17g",
                        p[P_CP_MEMORY_GB], p[P_REAL_MEMORY_GB]);
    if (p[P_DIRECT_IO] == 0 && p[P_PAGE_CACHE_GB] < p[P_OTHER_CACHE_GB])
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: page_cache_gb = %.17g must be at least other_cache_gb = %.17g "
                        "for the page-cached variant",
                        p[P_PAGE_CACHE_GB], p[P_OTHER_CACHE_GB]);
    size[0] = p[P_DIRECT_IO] != 0 ? 0.0 : p[P_PAGE_CACHE_GB] - p[P_OTHER_CACHE_GB];
    size[1] = p[P_BASE_GB] + p[P_OTHER_CACHE_GB];
    size[2] = p[P_BUFFER_GB] * p[P_IO_INTENSITY];
    rate[0] = 1.0 / p[P_CACHE_REREF_S];
    rate[1] = p[P_IO_INTENSITY] / p[P_BASE_REREF_S];
    rate[2] = 1.0 / p[P_BUFFER_REREF_S];
    for (int j = 0; j < 3; j++) {
        double x = rate[j] * t;
        inst += size[j];
        res += size[j] * -expm1(-x);
        reads += size[j] * PAGES_PER_GIB * rate[j] * exp(-x);
    }
    if (inst <= 0.0)
        return zvp_fail(err, ZVP_EINVAL,
                        "fsio: instantiated memory is 0 (page_cache_gb, base_gb, other_cache_gb "
                        "and buffer_gb all 0); need at least one page");
    p_miss = p[P_DIRECT_IO] != 0 ? exp(-rate[2] * t) : exp(-rate[0] * t);
    out[O_INSTANTIATED] = inst;
    out[O_RESIDENT] = res;
    out[O_RESIDENT_SHARE] = 100.0 * res / inst;
    out[O_DPA_SHARE] = 100.0 * res / dpa;
    out[O_PAGE_READ_SHARE] =
        reads > 0.0 ? 100.0 * reads / (reads + p[P_OTHER_READS]) : 0.0;
    out[O_PAGED_IN_SHARE] = res > 0.0 ? 100.0 * reads / (res * PAGES_PER_GIB) : 0.0;
    out[O_THROUGHPUT_REL] = 1.0 / (1.0 + p_miss * p[P_PAGE_READ_MS] / p[P_IO_PAGE_MS]);
    out[O_PAGE_READS] = reads;
    out[O_DPA_GB] = dpa;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_fsio = {
    "fsio",
    "Linux file-system I/O guest, page-cached or direct I/O, under constrained z/VM real "
    "memory: instantiated memory from page cache, base and buffers; z/VM residency of each "
    "page class from its re-reference rate and the residency time (Che / working-set), page "
    "reads from the non-resident referenced pages, share of the DPA and of z/VM's page reads.",
    "reports/002_9d3375a5ebfff038.txt (text numbers, CID 64/20); MODELS.md 3, 6",
    N_PARAMS, fsio_params,
    N_OUTPUTS, fsio_outputs,
    fsio_eval,
};
