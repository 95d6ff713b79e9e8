/*
 * models/cms.c - the CMS1 interactive workload (TPNS-driven CMS users with think time) on a
 * 2-way processor with paging to expanded storage and DASD, a minidisk cache and real I/O,
 * as a closed queueing network solved by exact MVA. Paging is driven by memory: the page-ins
 * per command follow a lifetime function of the storage per user (Belady & Kuehner 1969),
 * applied to central storage (faults from central, served by expanded storage or DASD) and
 * to central + expanded storage (faults served by DASD).
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "cms".
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define MS 1e-3
#define US 1e-6
#define CMS_MAX_CPUS 64
#define PAGES_PER_MIB 256.0  /* 4 KiB pages */
#define CMS_REF_PAGES 100.0  /* the storage per user at which lifetime_faults_ref is stated */
#define CMS_MIN_PAGES 1.0    /* least central storage per user the model accepts */
#define CMS_MAX_USERS 1000000UL

enum {
    P_USERS,
    P_THINK_S,
    P_CPUS,
    P_CPU_MS_PER_CMD,
    P_PAGEABLE_PAGES,
    P_XSTOR_MIB,
    P_MDC_REAL_MIB,
    P_MDC_XSTOR_MIB,
    P_SHARED_PAGES,
    P_SERVER_PAGES,
    P_LT_FAULTS_REF,
    P_LT_EXPONENT,
    P_PAGE_VOLUMES,
    P_PAGE_READ_MS,
    P_XSTOR_IN_US,
    P_MDC_READS_PER_CMD,
    P_MDC_HIT_RATIO,
    P_OTHER_RIO_PER_CMD,
    P_IO_VOLUMES,
    P_DASD_SERVICE_MS,
    P_NET_DELAY_S,
    P_OTHER_DELAY_S,
    P_RESPONSE_LIMIT_S,
    P_PAGING_CPU_US,
    P_PAGE_INS_REF,
    N_PARAMS
};

static const zvp_param_desc cms_params[N_PARAMS] = {
    {"users", "1", "logged-on CMS users (closed population), integer", 1, 1e6, 3420, 1, 0},
    {"think_s", "s", "mean think time per command (TPNS AVG THINK (T))", 0, 1e4, 9.12, 0, 0},
    {"cpus", "1", "processors, integer", 1, CMS_MAX_CPUS, 2, 1, 0},
    {"cpu_ms_per_cmd", "ms",
     "processor time per command, CP + emulation (PBT/CMD (H)); per release: 64-bit CP's "
     "larger control blocks cost CP time (report 004: +5.2 % CP/CMD (H))",
     1e-3, 1e4, 5.172, 0, 0},
    {"pageable_pages", "pages",
     "central storage left to paging after CP's own storage (PGBLPGS); per release: CP free "
     "storage grows with the extended control blocks (report 004, FREEPGS)",
     1, 1e9, 244000, 0, 0},
    {"xstor_mib", "MiB", "expanded storage (LPAR: 2 GB expanded)", 0, 1e7, 2048, 0, 0},
    {"mdc_real_mib", "MiB", "minidisk cache in central storage (MDC REAL SIZE (MB))", 0, 1e7,
     266, 0, 0},
    {"mdc_xstor_mib", "MiB", "minidisk cache in expanded storage (MDC XSTOR SIZE (MB))", 0,
     1e7, 204, 0, 0},
    {"shared_pages", "pages", "resident shared pages, held once for all users (SHRPGS)", 0, 1e9,
     1184, 0, 0},
    {"server_pages", "pages",
     "central storage held by the server virtual machines (TCPIP WKSET (V))", 0, 1e9, 7700, 0,
     0},
    {"lifetime_faults_ref", "1",
     "page-ins per command at 100 pages of storage per user (lifetime function scale)", 1e-6,
     1e6, 2.0, 0, 0},
    {"lifetime_exponent", "1",
     "k of the lifetime L(m) ~ m^k (Belady & Kuehner 1969): faults per command ~ m^-k", 0.05,
     10, 1.3, 0, 0},
    {"page_volumes", "1", "paging DASD volumes, integer (DASD table: 18 RAMAC 2 + 4 3390-2)", 1,
     1e4, 22, 1, 0},
    {"page_read_ms", "ms",
     "service time of one DASD page read; 0 = dasd_service_ms (one page per I/O)", 0, 1e3, 0, 0, 0},
    {"xstor_in_us", "us", "latency of one expanded-storage page-in", 0, 1e5, 100, 0, 0},
    {"mdc_reads_per_cmd", "1", "minidisk reads through the minidisk cache per command", 0, 1e4,
     8.772, 0, 0},
    {"mdc_hit_ratio", "1", "minidisk cache read hit ratio (MDC HIT RATIO)", 0, 1, 0.95, 0, 0},
    {"other_rio_per_cmd", "1",
     "real I/Os per command that the minidisk cache cannot avoid (writes, uncached)", 0, 1e4,
     5.231, 0, 0},
    {"io_volumes", "1", "DASD volumes holding the users' minidisks, integer (DASD table: 32)", 1,
     1e4, 32, 1, 0},
    {"dasd_service_ms", "ms", "DASD service time per real I/O", 1e-3, 1e3, 6, 0, 0},
    {"net_delay_s", "s",
     "per-command delay inside the measured response but outside the host's CPU and DASD "
     "(input/output transfer between the external TPNS system and the host)",
     0, 1e3, 0, 0, 0},
    {"other_delay_s", "s",
     "per-command time in neither think time nor response (network, TPNS, screens)", 0, 1e3,
     0, 0, 0},
    {"response_limit_s", "s", "response time that defines users_at_limit", 1e-3, 1e3, 1, 0, 0},
    {"paging_cpu_us", "us",
     "CP processor time per page-in, charged on the page-ins per command beyond page_ins_ref; "
     "report 004 gives none (at most CP/CMD (H) / page-ins per command = 1108 / 6.60 = 168 us)",
     0, 1e4, 0, 0, 0},
    {"page_ins_ref", "1",
     "page-ins per command (XSTOR IN + READS) of the run whose cpu_ms_per_cmd was measured", 0,
     1e6, 6.602, 0, 0},
};

enum {
    O_ETR,
    O_RESPONSE,
    O_ITR,
    O_CPU_UTIL,
    O_PAGE_READS,
    O_XSTOR_IN,
    O_DASD_RESP,
    O_CPU_RESID,
    O_CYCLE,
    O_REAL_IO,
    O_HOST_RESPONSE,
    O_PAGE_READS_CMD,
    O_XSTOR_IN_CMD,
    O_CENTRAL_PER_USER,
    O_STORAGE_PER_USER,
    O_USERS_AT_LIMIT,
    N_OUTPUTS
};

static const zvp_param_desc cms_outputs[N_OUTPUTS] = {
    {"etr", "cmd/s", "commands per second (ETR (T))", 0, INFINITY, 0, 0, 0},
    {"response_s", "s",
     "response time per command: CPU + paging + XSTOR + DASD residence + net_delay_s", 0,
     INFINITY, 0, 0, 0},
    {"itr", "cmd/s", "ETR / (per-processor utilization / 100), like ITR (H)", 0, INFINITY, 0, 0, 0},
    {"cpu_util_pct", "%", "processor utilization summed over the processors (TOTAL (H))", 0,
     100.0 * CMS_MAX_CPUS, 0, 0, 0},
    {"page_reads_per_s", "1/s", "DASD page reads per second (READS/SEC)", 0, INFINITY, 0, 0, 0},
    {"xstor_in_per_s", "1/s", "expanded-storage page-ins per second (XSTOR IN/SEC)", 0, INFINITY,
     0, 0, 0},
    {"dasd_resp_ms", "ms", "response time per real I/O on the user volumes", 0, INFINITY, 0, 0, 0},
    {"cpu_residence_s", "s", "CPU residence time per command (queueing + service)", 0, INFINITY,
     0, 0, 0},
    {"cycle_s", "s", "cycle time per command N / X = think + other delay + response", 0,
     INFINITY, 0, 0, 0},
    {"real_io_per_s", "1/s", "real I/Os per second to the user volumes", 0, INFINITY, 0, 0, 0},
    {"host_response_s", "s", "response time per command in the host: response_s - net_delay_s",
     0, INFINITY, 0, 0, 0},
    {"page_reads_per_cmd", "1", "DASD page reads per command, F(central + expanded per user)",
     0, INFINITY, 0, 0, 0},
    {"xstor_in_per_cmd", "1",
     "expanded-storage page-ins per command, F(central per user) - F(central + expanded per user)",
     0, INFINITY, 0, 0, 0},
    {"central_per_user_pages", "pages",
     "central storage per user: (pageable - MDC real - server - shared pages) / users", 0,
     INFINITY, 0, 0, 0},
    {"storage_per_user_pages", "pages",
     "central + expanded storage per user (expanded storage less its MDC part)", 0, INFINITY,
     0, 0, 0},
    {"users_at_limit", "1",
     "most users whose response time is at most response_limit_s (capacity), whole", 0,
     (double)CMS_MAX_USERS, 0, 1, 0},
};

/* Pages of central storage left to the users' private pages, and of expanded storage. */
static double central_user_pages(const double *p)
{
    return p[P_PAGEABLE_PAGES] - p[P_MDC_REAL_MIB] * PAGES_PER_MIB - p[P_SERVER_PAGES] -
           p[P_SHARED_PAGES];
}

static double xstor_user_pages(const double *p)
{
    double x = (p[P_XSTOR_MIB] - p[P_MDC_XSTOR_MIB]) * PAGES_PER_MIB;
    return x > 0 ? x : 0;
}

/* Page-ins per command with m pages of storage per user: F(m) = F_ref (m_ref / m)^k, the
 * reciprocal of the Belady-Kuehner lifetime L(m) = a m^k in commands. */
static double faults_per_cmd(const double *p, double m)
{
    return p[P_LT_FAULTS_REF] * exp(p[P_LT_EXPONENT] * log(CMS_REF_PAGES / m));
}

/* One solution of the network at n users. */
typedef struct cms_point {
    double x, response, cpu_resid, io_resid, io_visits, page_reads, xstor_in, m_c, m_t, cpu_ms;
} cms_point;

static int cms_solve(const double *p, unsigned long n, cms_point *pt, zvp_error *err)
{
    enum { S_CPU, S_PAGE, S_XSTOR, S_IO, S_NET, N_ST };
    zvp_station st[N_ST];
    double rs[N_ST], q[N_ST], u[N_ST];
    double scratch[2 * N_ST + 2 * CMS_MAX_CPUS + N_ST + 8];
    zvp_mva_result r = {0, 0, rs, q, u};
    double page_ms, real_io, users = n > 0 ? (double)n : 1.0, fc, ft;
    int s;

    pt->m_c = central_user_pages(p) / users;
    pt->m_t = pt->m_c + xstor_user_pages(p) / users;
    if (pt->m_c < CMS_MIN_PAGES)
        return zvp_fail(err, ZVP_EINVAL,
                        "cms: users = %lu leave %g pages of central storage per user "
                        "(pageable_pages - mdc_real_mib x 256 - server_pages - shared_pages = %g); "
                        "allowed: at least %g page per user",
                        n, pt->m_c, central_user_pages(p), CMS_MIN_PAGES);
    fc = faults_per_cmd(p, pt->m_c);
    ft = faults_per_cmd(p, pt->m_t);
    pt->page_reads = ft;
    pt->xstor_in = fc - ft > 0 ? fc - ft : 0;
    pt->cpu_ms = p[P_CPU_MS_PER_CMD] + p[P_PAGING_CPU_US] * 1e-3 * (fc - p[P_PAGE_INS_REF]);
    if (!(pt->cpu_ms >= 1e-3)) /* also catches a non-finite fc */
        return zvp_fail(err, ZVP_EINVAL,
                        "cms: processor time per command %g ms at %g page-ins per command "
                        "(cpu_ms_per_cmd = %g, paging_cpu_us = %g, page_ins_ref = %g); allowed: "
                        "at least 0.001 ms (paging_cpu_us x page_ins_ref below cpu_ms_per_cmd x 1000)",
                        pt->cpu_ms, fc, p[P_CPU_MS_PER_CMD], p[P_PAGING_CPU_US], p[P_PAGE_INS_REF]);
    page_ms = p[P_PAGE_READ_MS] > 0 ? p[P_PAGE_READ_MS] : p[P_DASD_SERVICE_MS];
    real_io = p[P_OTHER_RIO_PER_CMD] + p[P_MDC_READS_PER_CMD] * (1.0 - p[P_MDC_HIT_RATIO]);
    pt->io_visits = real_io / p[P_IO_VOLUMES]; /* real I/Os per command at one user volume */

    st[S_CPU] = (zvp_station){ZVP_STATION_MULTI, (int32_t)p[P_CPUS], 1, 0, pt->cpu_ms * MS};
    st[S_PAGE] = (zvp_station){ZVP_STATION_QUEUE, 1, (uint32_t)p[P_PAGE_VOLUMES], 0,
                               pt->page_reads * page_ms * MS / p[P_PAGE_VOLUMES]};
    st[S_XSTOR] = (zvp_station){ZVP_STATION_DELAY, 1, 1, 0, pt->xstor_in * p[P_XSTOR_IN_US] * US};
    st[S_IO] = (zvp_station){ZVP_STATION_QUEUE, 1, (uint32_t)p[P_IO_VOLUMES], 0,
                             pt->io_visits * p[P_DASD_SERVICE_MS] * MS};
    st[S_NET] = (zvp_station){ZVP_STATION_DELAY, 1, 1, 0, p[P_NET_DELAY_S]};
    if (!isfinite(st[S_PAGE].demand_s) || !isfinite(st[S_XSTOR].demand_s))
        return zvp_fail(err, ZVP_EUNSTABLE,
                        "cms: page-ins per command not finite at %g pages per user "
                        "(lifetime_faults_ref = %g, lifetime_exponent = %g)",
                        pt->m_c, p[P_LT_FAULTS_REF], p[P_LT_EXPONENT]);
    if (zvp_mva_scratch_doubles(st, N_ST) > sizeof scratch / sizeof scratch[0])
        return zvp_fail(err, ZVP_EINVAL, "cms: internal scratch too small");
    s = zvp_mva_exact(st, N_ST, p[P_THINK_S] + p[P_OTHER_DELAY_S], n, &r, scratch, err);
    if (s != ZVP_SUCCESS)
        return s;
    pt->x = r.throughput_per_s;
    pt->response = r.response_s;
    pt->cpu_resid = rs[S_CPU];
    pt->io_resid = rs[S_IO];
    return ZVP_SUCCESS;
}

/* Most users n with response(n) <= limit, by bisection: response grows with n (more users
 * queue, and less storage per user means more page-ins, and more CPU per command when
 * paging_cpu_us > 0). The upper end is the first n where the CPU's asymptotic bound
 * R >= n D_min / m - Z' alone exceeds the limit, D_min the least processor time per command
 * (no page-ins at all), or where central storage per user falls below CMS_MIN_PAGES (no room:
 * counted as above the limit), or CMS_MAX_USERS + 1. */
static int users_at_limit(const double *p, double *out, zvp_error *err)
{
    double limit = p[P_RESPONSE_LIMIT_S], z = p[P_THINK_S] + p[P_OTHER_DELAY_S];
    double d_min = p[P_CPU_MS_PER_CMD] - p[P_PAGING_CPU_US] * 1e-3 * p[P_PAGE_INS_REF];
    double d = fmax(d_min, 1e-3) * MS / p[P_CPUS];
    double n_cpu = ceil((limit + z) / d) + 1, n_mem = floor(central_user_pages(p) / CMS_MIN_PAGES);
    unsigned long lo = 0, hi;
    cms_point pt;
    int s;

    if (n_mem < 1) {
        *out = 0;
        return ZVP_SUCCESS;
    }
    hi = (unsigned long)fmin(fmin(n_cpu, n_mem + 1), (double)CMS_MAX_USERS + 1);
    while (hi - lo > 1) { /* invariant: R(lo) <= limit (R(0) = 0), R(hi) > limit or no room */
        unsigned long mid = lo + (hi - lo) / 2;
        if ((double)mid > n_mem) {
            hi = mid;
            continue;
        }
        zvp_error e;
        zvp_error_clear(&e);
        s = cms_solve(p, mid, &pt, &e);
        if (s != ZVP_SUCCESS) /* a user count other than the point's: say which, and why */
            return zvp_fail(err, s,
                            "cms: users_at_limit (the most users with response <= %g s) "
                            "evaluates users = %lu on its way: %s",
                            limit, mid, e.message);
        if (pt.response > limit)
            hi = mid;
        else
            lo = mid;
    }
    *out = (double)lo;
    return ZVP_SUCCESS;
}

static int cms_eval(const double *p, double *out, zvp_error *err)
{
    cms_point pt;
    double x;
    unsigned long n = (unsigned long)p[P_USERS];
    int s;

    /* zvp_model_eval has checked every parameter (ranges, whole numbers) */
    s = cms_solve(p, n, &pt, err);
    if (s != ZVP_SUCCESS)
        return s;
    x = pt.x;
    out[O_ETR] = x;
    out[O_RESPONSE] = pt.response;
    out[O_CPU_UTIL] = 100.0 * x * pt.cpu_ms * MS;
    out[O_ITR] = p[P_CPUS] / (pt.cpu_ms * MS);
    out[O_PAGE_READS] = x * pt.page_reads;
    out[O_XSTOR_IN] = x * pt.xstor_in;
    /* per-visit response at one volume = residence per command / visits per command */
    out[O_DASD_RESP] = pt.io_visits > 0 ? pt.io_resid / pt.io_visits / MS : p[P_DASD_SERVICE_MS];
    out[O_CPU_RESID] = pt.cpu_resid;
    out[O_CYCLE] = x > 0 ? p[P_USERS] / x : p[P_THINK_S] + p[P_OTHER_DELAY_S] + pt.response;
    out[O_REAL_IO] = x * pt.io_visits * p[P_IO_VOLUMES];
    out[O_HOST_RESPONSE] = pt.response - p[P_NET_DELAY_S];
    out[O_PAGE_READS_CMD] = pt.page_reads;
    out[O_XSTOR_IN_CMD] = pt.xstor_in;
    out[O_CENTRAL_PER_USER] = pt.m_c;
    out[O_STORAGE_PER_USER] = pt.m_t;
    return users_at_limit(p, &out[O_USERS_AT_LIMIT], err);
}

const zvp_model zvp_model_cms = {
    "cms",
    "CMS1 interactive workload: users with TPNS think time in a closed network of a "
    "multiprocessor CPU, paging DASD volumes, expanded-storage page-ins, user DASD volumes "
    "behind a minidisk cache, and an unmeasured per-command delay; page-ins per command from a "
    "lifetime function of the central and of the central + expanded storage per user; exact MVA.",
    "report 004 ("
    "2064 2-Way LPAR, 1G/2G: CMS1 with external TPNS), "
    "Table 1 and the DASD configuration table; lifetime function: Belady & Kuehner, "
    "\"Dynamic space-sharing in computer systems\", CACM 12(5), 1969; exact MVA "
    "(src/queue/README.md)",
    N_PARAMS, cms_params,
    N_OUTPUTS, cms_outputs,
    cms_eval,
    NULL, /* no network for the simulator */
};
