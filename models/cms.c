/*
 * models/cms.c - the CMS1 interactive workload (TPNS-driven CMS users with think time) on a
 * 2-way processor with paging to expanded storage and DASD, a minidisk cache and real I/O,
 * as a closed queueing network solved by exact MVA.
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

enum {
    P_USERS,
    P_THINK_S,
    P_CPUS,
    P_CPU_MS_PER_CMD,
    P_PAGE_READS_PER_CMD,
    P_PAGE_VOLUMES,
    P_PAGE_READ_MS,
    P_XSTOR_IN_PER_CMD,
    P_XSTOR_IN_US,
    P_MDC_READS_PER_CMD,
    P_MDC_HIT_RATIO,
    P_OTHER_RIO_PER_CMD,
    P_IO_VOLUMES,
    P_DASD_SERVICE_MS,
    P_NET_DELAY_S,
    P_OTHER_DELAY_S,
    N_PARAMS
};

static const zvp_param_desc cms_params[N_PARAMS] = {
    {"users", "1", "logged-on CMS users (closed population), integer", 0, 1e6, 3420, 1, 0},
    {"think_s", "s", "mean think time per command (TPNS AVG THINK (T))", 0, 1e4, 9.12, 0, 0},
    {"cpus", "1", "processors, integer", 1, CMS_MAX_CPUS, 2, 1, 0},
    {"cpu_ms_per_cmd", "ms", "processor time per command, CP + emulation (PBT/CMD (H))", 1e-3,
     1e4, 5.172, 0, 0},
    {"page_reads_per_cmd", "1", "DASD page reads per command (READS/SEC / ETR (T))", 0, 1e4,
     1.124, 0, 0},
    {"page_volumes", "1", "paging DASD volumes, integer (DASD table: 18 RAMAC 2 + 4 3390-2)", 1,
     1e4, 22, 1, 0},
    {"page_read_ms", "ms",
     "service time of one DASD page read; 0 = dasd_service_ms (one page per I/O)", 0, 1e3, 0, 0, 0},
    {"xstor_in_per_cmd", "1", "expanded-storage page-ins per command (XSTOR IN/SEC / ETR (T))", 0,
     1e4, 5.478, 0, 0},
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
};

static int cms_eval(const double *p, double *out, zvp_error *err)
{
    enum { S_CPU, S_PAGE, S_XSTOR, S_IO, S_NET, N_ST };
    zvp_station st[N_ST];
    double rs[N_ST], q[N_ST], u[N_ST];
    double scratch[2 * N_ST + CMS_MAX_CPUS + 8];
    zvp_mva_result r = {0, 0, rs, q, u};
    double page_ms, real_io, io_visits, x;
    int s;

    /* zvp_model_eval has checked every parameter (ranges, whole numbers) */
    page_ms = p[P_PAGE_READ_MS] > 0 ? p[P_PAGE_READ_MS] : p[P_DASD_SERVICE_MS];
    real_io = p[P_OTHER_RIO_PER_CMD] + p[P_MDC_READS_PER_CMD] * (1.0 - p[P_MDC_HIT_RATIO]);
    io_visits = real_io / p[P_IO_VOLUMES]; /* real I/Os per command at one user volume */

    st[S_CPU] = (zvp_station){ZVP_STATION_MULTI, (int32_t)p[P_CPUS], 1, 0,
                              p[P_CPU_MS_PER_CMD] * MS};
    st[S_PAGE] = (zvp_station){ZVP_STATION_QUEUE, 1, (uint32_t)p[P_PAGE_VOLUMES], 0,
                               p[P_PAGE_READS_PER_CMD] * page_ms * MS / p[P_PAGE_VOLUMES]};
    st[S_XSTOR] = (zvp_station){ZVP_STATION_DELAY, 1, 1, 0,
                                p[P_XSTOR_IN_PER_CMD] * p[P_XSTOR_IN_US] * US};
    st[S_IO] = (zvp_station){ZVP_STATION_QUEUE, 1, (uint32_t)p[P_IO_VOLUMES], 0,
                             io_visits * p[P_DASD_SERVICE_MS] * MS};
    st[S_NET] = (zvp_station){ZVP_STATION_DELAY, 1, 1, 0, p[P_NET_DELAY_S]};
    if (zvp_mva_scratch_doubles(st, N_ST) > sizeof scratch / sizeof scratch[0])
        return zvp_fail(err, ZVP_EINVAL, "cms: internal scratch too small");
    s = zvp_mva_exact(st, N_ST, p[P_THINK_S] + p[P_OTHER_DELAY_S], (unsigned long)p[P_USERS], &r,
                      scratch, err);
    if (s != ZVP_SUCCESS)
        return s;

    x = r.throughput_per_s;
    out[O_ETR] = x;
    out[O_RESPONSE] = r.response_s;
    out[O_CPU_UTIL] = 100.0 * x * p[P_CPU_MS_PER_CMD] * MS;
    out[O_ITR] = p[P_CPUS] / (p[P_CPU_MS_PER_CMD] * MS);
    out[O_PAGE_READS] = x * p[P_PAGE_READS_PER_CMD];
    out[O_XSTOR_IN] = x * p[P_XSTOR_IN_PER_CMD];
    /* per-visit response at one volume = residence per command / visits per command */
    out[O_DASD_RESP] = io_visits > 0 ? rs[S_IO] / io_visits / MS : p[P_DASD_SERVICE_MS];
    out[O_CPU_RESID] = rs[S_CPU];
    out[O_CYCLE] = x > 0 ? p[P_USERS] / x : p[P_THINK_S] + p[P_OTHER_DELAY_S] + r.response_s;
    out[O_REAL_IO] = x * real_io;
    out[O_HOST_RESPONSE] = r.response_s - p[P_NET_DELAY_S];
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_cms = {
    "cms",
    "CMS1 interactive workload: users with TPNS think time in a closed network of a "
    "multiprocessor CPU, paging DASD volumes, expanded-storage page-ins, user DASD volumes "
    "behind a minidisk cache, and an unmeasured per-command delay; exact MVA.",
    "report 004 ("
    "2064 2-Way LPAR, 1G/2G: CMS1 with external TPNS), "
    "Table 1 and the DASD configuration table; exact MVA (src/queue/README.md)",
    N_PARAMS, cms_params,
    N_OUTPUTS, cms_outputs,
    cms_eval,
    NULL, /* no network for the simulator */
};
