/*
 * models/cms.c - the CMS1 interactive workload (TPNS-driven CMS users with think time) on a
 * 2-way processor with paging to expanded storage and DASD, a minidisk cache and real I/O,
 * as a closed queueing network solved by exact MVA.
 *
 * Source of the workload and the measurements: reports/004_ba3a459889d6b8ee.txt (CMS1, 3420
 * users, 2064-109 2-way LPAR, 1 GB central + 2 GB expanded storage), Table 1 (per-command
 * figures for VM/ESA 2.4.0 and z/VM 3.1.0 31-bit and 64-bit CP) and the DASD configuration
 * table. Equations: MODELS.md 4.1 (exact MVA, response-time, utilization and Little's laws),
 * 4.3 (m-server CPU station), 4.4 (TPNS think time).
 *
 * Mechanism. N users cycle: think (think_s, TPNS AVG THINK (T)) -> a command that visits
 *   CPU        ZVP_STATION_MULTI, m = cpus, demand D_cpu = cpu_ms_per_cmd
 *              (PBT/CMD (H): total processor time per command, CP + emulation, which already
 *              includes the CPU time of the page moves and I/O handling);
 *   paging DASD page_volumes ZVP_STATION_QUEUE replicas, demand per volume
 *              page_reads_per_cmd x page_read_ms / page_volumes (READS/SEC / ETR (T); page
 *              writes are asynchronous and left out of the command's path);
 *   XSTOR      a delay station, xstor_in_per_cmd x xstor_in_us (XSTOR IN/SEC / ETR (T));
 *              the move is synchronous, so it costs latency but queues only for the CPU;
 *   user DASD  io_volumes ZVP_STATION_QUEUE replicas, demand per volume
 *              real_io_per_cmd x dasd_service_ms / io_volumes, with the minidisk cache
 *              avoiding the read hits:
 *                  real_io_per_cmd = other_rio_per_cmd + mdc_reads_per_cmd (1 - mdc_hit_ratio)
 *              (RIO/CMD (V) = real I/Os; MDC READS / ETR (T) = reads through the cache);
 *   a network delay net_delay_s per command (a pure delay, counted in the response): TPNS
 *              runs on an external system, so its response time (AVG LAST (T), "the last
 *              response to the screen", gloss.html) also holds the transfer of the input and of
 *              the screens between TPNS and the host (network, the TCPIP virtual machine's
 *              path), which no host station models. Fitted to AVG LAST (T). Without it the
 *              host stations give about 0.10-0.12 s at the measured ETR, close to AVG FIRST (T)
 *              0.10 s but below AVG LAST (T) 0.17 s;
 *   an unmeasured delay other_delay_s per command (a pure delay, added to the think time):
 *              the part of the cycle that is neither TPNS think time nor the measured
 *              response. Response-time law on Table 1, VM/ESA 2.4.0: N / X - Z =
 *              3420 / 341.54 - 9.12 = 0.89 s per command, but AVG LAST (T) is 0.17 s, so
 *              about 0.72 s of each cycle is in neither. TPNS's AVG THINK (T) is "the average
 *              think time determined by TPNS" (glossary, gloss.html) -- the scripted delay --
 *              and the TPNS response is timed from the input to the last screen reply, so the
 *              rest is time TPNS spends outside both: keying/transmission of the input and
 *              output through the network and the external TPNS system, screen handling
 *              between replies of multi-screen commands, and the script's own processing.
 *              It is fitted (one number per release) and is not a queue.
 *
 * Outputs. X and the residence times from exact MVA; ETR = X; response = the sum of the
 * residence times at the four service stations plus net_delay_s (= N/X - think_s -
 * other_delay_s); host_response_s = response - net_delay_s;
 * CPU utilization (sum over processors, like TOTAL (H)) = 100 X D_cpu (utilization law);
 * ITR = ETR / (per-processor utilization / 100) = cpus / D_cpu (like ITR (H));
 * page reads and XSTOR page-ins per second = X x per-command counts; DASD response per
 * real I/O = the user-volume residence per visit.
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
    "reports/004_ba3a459889d6b8ee.txt Table 1 and DASD configuration; MODELS.md 4.1, 4.3, 4.4",
    N_PARAMS, cms_params,
    N_OUTPUTS, cms_outputs,
    cms_eval,
};
