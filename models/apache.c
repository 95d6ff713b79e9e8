/*
 * models/apache.c - the Apache Scaling workload (Linux AWM clients and Apache servers as z/VM
 * guests) scaled along report 000's Table 2 line: IFL cores and central storage grow together
 * (64 GB per core), so the model has one combined size effect, indexed by cores; storage is
 * accepted only on that line. z/VM 6.3 and 6.4.
 *
 * Equations, assumptions, parameters, sources (report numbers and tables) and what the
 * calibration does not reproduce: models/README.md, section "apache".
 */

#include <math.h>
#include <stddef.h>
#include "registry.h"
#include "zvmperf/queue.h"
#include "internal.h"

#define MS 1e-3
/* report 000, Table 2: 512/1024/1536/2048 GB with 8/16/24/32 IFL cores. The line ends at 2 TB,
 * the z/VM 6.4 maximum supported central storage (report 000, abstract): 32 cores. */
#define APACHE_MAX_CORES 32
#define APACHE_GB_PER_CORE 64.0
#define APACHE_MAX_GB 2048

enum {
    P_CORES,
    P_STORAGE_GB,
    P_AWM_CLIENTS,
    P_SESSIONS_PER_CLIENT,
    P_EMUL_MS,
    P_ALPHA,
    P_CP_MS,
    P_CP_SIZE_MS,
    P_THINK0_MS,
    P_THINK_PER_CORE_MS,
    N_PARAMS
};

static const zvp_param_desc apache_params[N_PARAMS] = {
    {"cores", "1",
     "IFL cores dedicated to the LPAR (non-SMT), integer; up to 32 (2 TB on Table 2's line of 64 "
     "GB per core, the z/VM 6.4 maximum)",
     1, APACHE_MAX_CORES, 8, 1, 0},
    {"storage_gb", "GiB",
     "central storage, whole GB: 0 or 64 x cores (Table 2's line; the data cannot separate a "
     "storage effect from the cores')",
     0, APACHE_MAX_GB, 0, 1, 0},
    {"awm_clients", "1",
     "AWM client guests, integer; 0 = cores / 2 as in Table 2 (4 clients per 8 cores)", 0, 1e5,
     0, 1, 0},
    {"sessions_per_client", "1",
     "client-server sessions per AWM client, integer (Table 2 note: 6)", 1, 1000, 6, 1, 0},
    {"emul_ms", "ms", "guest emulation CPU per transaction with one core", 1e-4, 1e3, 2.3, 0, 0},
    {"alpha", "1", "growth of guest emulation CPU per transaction per added core (USL contention)",
     0, 1, 0.02, 0, 0},
    {"cp_ms", "ms", "CP CPU per transaction, base (intercept of the size term)", 0, 1e3, 0.9, 0, 0},
    {"cp_size_ms", "ms",
     "CP CPU per transaction per other core per TB of Table 2's storage (64 GB per core): the "
     "combined size effect of cores and storage (USL coherency)",
     0, 1e3, 0.03, 0, 0},
    {"think0_ms", "ms", "non-CPU delay per transaction, intercept", 0, 1e5, 3, 0, 0},
    {"think_per_core_ms", "ms", "growth of the non-CPU delay per transaction per core", 0, 1e4,
     0.5, 0, 0},
};

enum {
    O_ETR,
    O_ITR,
    O_BUSY,
    O_TV,
    O_EMUL_BUSY,
    O_CP_BUSY,
    O_CPU_MS,
    O_THINK_MS,
    O_SESSIONS,
    N_OUTPUTS
};

static const zvp_param_desc apache_outputs[N_OUTPUTS] = {
    {"etr", "tx/s", "external transaction rate (AWM transactions per second)", 0, INFINITY, 0, 0, 0},
    {"itr", "tx/s", "internal transaction rate ETR / (busy per processor / 100)", 0, INFINITY, 0, 0, 0},
    {"busy_per_cpu_pct", "%", "total busy per processor", 0, 100, 0, 0, 0},
    {"tv_ratio", "1", "T/V ratio: total CPU time / emulation (virtual) CPU time", 1, INFINITY, 0, 0, 0},
    {"emul_busy_per_cpu_pct", "%", "emulation busy per processor", 0, 100, 0, 0, 0},
    {"cp_busy_per_cpu_pct", "%", "CP busy per processor", 0, 100, 0, 0, 0},
    {"cpu_per_tx_ms", "ms", "processor time per transaction D = emulation + CP", 0, INFINITY, 0, 0, 0},
    {"think_ms", "ms", "non-CPU delay per transaction Z", 0, INFINITY, 0, 0, 0},
    {"sessions", "1", "client-server sessions (closed-network customers): clients x "
     "sessions_per_client rounded up to a whole number", 0, INFINITY, 0, 0, 0},
};

static int apache_eval(const double *p, double *out, zvp_error *err)
{
    const double n = p[P_CORES], s_gb = APACHE_GB_PER_CORE * p[P_CORES];
    double clients, sessions_d, e_ms, c_ms, d_s, z_s;
    /* zvp_mva_scratch_doubles of one MULTI entry of m servers: 2 K + 2 m + K = 3 + 2 m */
    double scratch[3 + 2 * APACHE_MAX_CORES];
    double rs[1], q[1], u[1];
    zvp_mva_result r = {0, 0, rs, q, u};
    zvp_station cpu;
    int st;

    /* zvp_model_eval has checked every parameter; what a descriptor cannot state is checked
     * here: storage on Table 2's line, and the product of clients and sessions */
    if (p[P_STORAGE_GB] != 0 && p[P_STORAGE_GB] != s_gb)
        return zvp_fail(err, ZVP_EINVAL,
                        "apache: storage_gb = %.17g is off report 000's Table 2 line for cores = "
                        "%.17g: the data grow storage with cores (64 GB per core), so the model "
                        "cannot separate a storage effect; allowed storage_gb: %.17g (64 x "
                        "cores) or 0 (the same)",
                        p[P_STORAGE_GB], n, s_gb);
    clients = p[P_AWM_CLIENTS] > 0 ? p[P_AWM_CLIENTS] : n / 2.0;
    sessions_d = ceil(clients * p[P_SESSIONS_PER_CLIENT]);
    if (sessions_d > 1e6)
        return zvp_fail(err, ZVP_EINVAL,
                        "apache: sessions = awm_clients x sessions_per_client = %.17g is out of "
                        "range [1, 1e6]",
                        sessions_d);

    e_ms = p[P_EMUL_MS] * (1.0 + p[P_ALPHA] * (n - 1.0));
    c_ms = p[P_CP_MS] + p[P_CP_SIZE_MS] * (n - 1.0) * s_gb / 1024.0;
    d_s = (e_ms + c_ms) * MS;
    z_s = (p[P_THINK0_MS] + p[P_THINK_PER_CORE_MS] * n) * MS;

    cpu = (zvp_station){ZVP_STATION_MULTI, (int32_t)n, 1, 0, d_s};
    if (zvp_mva_scratch_doubles(&cpu, 1) > sizeof scratch / sizeof scratch[0])
        return zvp_fail(err, ZVP_EINTERNAL,
                        "apache: internal check failed: mva scratch of %zu doubles exceeds the "
                        "%zu reserved for cores <= %d (a model bug; please report)",
                        zvp_mva_scratch_doubles(&cpu, 1), sizeof scratch / sizeof scratch[0],
                        APACHE_MAX_CORES);
    st = zvp_mva_exact(&cpu, 1, z_s, (unsigned long)sessions_d, &r, scratch, err);
    if (st != ZVP_SUCCESS)
        return st;

    out[O_ETR] = r.throughput_per_s;
    out[O_BUSY] = 100.0 * u[0];
    out[O_ITR] = n / d_s; /* = ETR / (busy/100) by the utilization law */
    out[O_TV] = (e_ms + c_ms) / e_ms;
    out[O_EMUL_BUSY] = out[O_BUSY] * e_ms / (e_ms + c_ms);
    out[O_CP_BUSY] = out[O_BUSY] * c_ms / (e_ms + c_ms);
    out[O_CPU_MS] = e_ms + c_ms;
    out[O_THINK_MS] = z_s / MS;
    out[O_SESSIONS] = sessions_d;
    return ZVP_SUCCESS;
}

const zvp_model zvp_model_apache = {
    "apache",
    "Apache Scaling workload (Linux AWM clients and servers on z/VM) along report 000's Table 2 "
    "line, where IFL cores and central storage grow together (64 GB per core): client-server "
    "sessions in a closed network with the cores as an m-server CPU station (exact MVA) and a "
    "non-CPU delay; CPU per transaction split into guest emulation (grows with cores, USL "
    "contention) and CP work with one combined size term (USL coherency). Storage off that "
    "line is refused: the data cannot separate its effect from the cores'.",
    "report 000 ("
    "Memory Management Serialization Contention Relief and 2 TB Central Storage Support), "
    "Tables 2, 6, 7 (32-core column withheld); "
    "exact MVA with an m-server station and the USL (src/queue/README.md)",
    N_PARAMS, apache_params,
    N_OUTPUTS, apache_outputs,
    apache_eval,
    NULL, /* no network for the simulator */
};
