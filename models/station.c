/* models/station.c - single-station queueing models exposed through the model contract,
 * so that the generic kernels can be evaluated, swept and fitted like the z/VM models. */
#include <math.h>
#include <stdlib.h>
#include "registry.h"
#include "internal.h"
#include "zvmperf/queue.h"

static const zvp_param_desc station_outputs[] = {
    {"utilization", "1", "per-server utilization", 0, 1, 0, 0, 0},
    {"throughput_per_s", "1/s", "completions per second", 0, INFINITY, 0, 0, 0},
    {"mean_in_system", "1", "mean number at the station (queue + service)", 0, INFINITY, 0, 0, 0},
    {"mean_in_queue", "1", "mean number waiting", 0, INFINITY, 0, 0, 0},
    {"response_s", "s", "mean response time at the station (wait + service)", 0, INFINITY, 0, 0, 0},
    {"wait_s", "s", "mean wait before service", 0, INFINITY, 0, 0, 0},
    {"pwait", "1", "probability that an arrival waits", 0, 1, 0, 0, 0},
};
#define N_STATION_OUTPUTS (sizeof station_outputs / sizeof station_outputs[0])

static void station_to_outputs(const zvp_station_result *r, double *out)
{
    out[0] = r->utilization;
    out[1] = r->throughput_per_s;
    out[2] = r->mean_in_system;
    out[3] = r->mean_in_queue;
    out[4] = r->response_s;
    out[5] = r->wait_s;
    out[6] = r->pwait;
}

/* ---- the network for the simulator: one station ---------------------------------------- */

typedef struct one_net {
    zvp_sim_station st;
    double demand, rate, think;
    unsigned long customers;
} one_net;

/* One FCFS station of c servers and service time S: open with Poisson arrivals (rate lambda)
 * when open, else closed with N customers thinking Z (exponential). */
static int one_network(int open, double lambda, unsigned long N, double Z, double S,
                       unsigned long c, zvp_sim_network *net, void **storage, zvp_error *err)
{
    one_net *b = malloc(sizeof *b);
    *storage = b;
    if (!b)
        return zvp_fail(err, ZVP_ENOMEM, "station: out of memory");
    zvp_sim_station st = {c > 1 ? ZVP_STATION_MULTI : ZVP_STATION_QUEUE, (int32_t)c,
                          ZVP_SIM_FCFS, ZVP_SIM_DIST_PHASE, 1.0, 0.0, 0.0};
    b->st = st;
    b->demand = S;
    b->rate = lambda;
    b->think = Z;
    b->customers = N;
    zvp_sim_network n = {&b->st, 1, 1, &b->demand, NULL, open, 0, &b->rate, &b->customers,
                         &b->think, NULL};
    *net = n;
    return ZVP_SUCCESS;
}

static const char no_pwait[] = "not measured by the simulator (it does not count the arrivals "
                               "that wait)";

static int one_outputs(const double *p, const zvp_sim_result *r, zvp_sim_estimate *o,
                       const char **why, zvp_error *err)
{
    const zvp_sim_figures *g = zvp_sim_cell(r, 0, 1);
    o[0] = g->utilization;
    o[1] = g->throughput_per_s;
    o[2] = g->queue_length;
    o[3] = g->mean_in_queue;
    o[4] = g->response_s;
    o[5] = g->wait_s;
    o[6].mean = o[6].half_width = o[6].ci_lo = o[6].ci_hi = NAN;
    why[6] = no_pwait;
    return ZVP_SUCCESS;
}

/* ---- M/M/c ------------------------------------------------------------------------------ */
static const zvp_param_desc mmc_params[] = {
    {"arrival_rate_per_s", "1/s", "Poisson arrival rate lambda", 0, 1e12, 0.5, 0, 0},
    {"service_rate_per_s", "1/s", "service rate mu of one server", 1e-12, 1e12, 1, 0, 0},
    {"servers", "1", "number of servers c (integer)", 1, 1e7, 1, 1, 0},
};

static int mmc_eval(const double *p, double *out, zvp_error *err)
{
    zvp_station_result r;
    int st = zvp_mmc(p[0], p[1], (unsigned long)p[2], &r, err);
    if (st == ZVP_SUCCESS)
        station_to_outputs(&r, out);
    return st;
}

static int mmc_network(const double *p, zvp_sim_network *net, void **storage, zvp_error *err)
{
    if (!(p[0] < p[2] * p[1])) {
        *storage = NULL;
        return zvp_fail(err, ZVP_EUNSTABLE, "mmc: arrival_rate_per_s = %.17g >= servers x "
                        "service_rate_per_s = %.17g: no steady state to simulate", p[0],
                        p[2] * p[1]);
    }
    return one_network(1, p[0], 0, 0.0, 1.0 / p[1], (unsigned long)p[2], net, storage, err);
}

static const zvp_model_sim mmc_sim = {mmc_network, one_outputs};

const zvp_model zvp_model_mmc = {
    "mmc",
    "M/M/c queue (Erlang C); servers = 1 is M/M/1. No steady state when "
    "arrival_rate_per_s >= servers x service_rate_per_s.",
    "Gross, Shortle, Thompson & Harris, Fundamentals of Queueing Theory, 4th ed. 2008, sec. 2.3",
    sizeof mmc_params / sizeof mmc_params[0], mmc_params,
    N_STATION_OUTPUTS, station_outputs,
    mmc_eval,
    &mmc_sim,
};

/* ---- finite source M/M/c//N ---------------------------------------------------------------- */
static const zvp_param_desc repairman_params[] = {
    {"sources", "1", "number of sources N (integer)", 0, 1e8, 64, 1, 0},
    {"think_s", "s", "mean time a source spends away from the station", 0, 1e12, 9, 0, 0},
    {"service_s", "s", "mean service (hold) time", 1e-15, 1e12, 1, 0, 0},
    {"servers", "1", "number of servers c (integer)", 1, 1e7, 1, 1, 0},
};

static int repairman_eval(const double *p, double *out, zvp_error *err)
{
    zvp_station_result r;
    int st = zvp_repairman((unsigned long)p[0], p[1], p[2], (unsigned long)p[3], &r, err);
    if (st == ZVP_SUCCESS)
        station_to_outputs(&r, out);
    return st;
}

static int repairman_network(const double *p, zvp_sim_network *net, void **storage,
                             zvp_error *err)
{
    return one_network(0, 0.0, (unsigned long)p[0], p[1], p[2], (unsigned long)p[3], net,
                       storage, err);
}

static const zvp_model_sim repairman_sim = {repairman_network, one_outputs};

const zvp_model zvp_model_repairman = {
    "repairman",
    "Finite-source M/M/c//N (machine repairman): N sources alternate think time and service "
    "at c servers; exact birth-death solution in log space. With c = 1 it is the single "
    "single spin-lock model (sources = CPUs, service = lock hold time; models/README.md).",
    "Kleinrock, Queueing Systems Vol. 1, 1975, sec. 3.8-3.9",
    sizeof repairman_params / sizeof repairman_params[0], repairman_params,
    N_STATION_OUTPUTS, station_outputs,
    repairman_eval,
    &repairman_sim,
};
