/*
 * bench/bench_sim.c - simulator throughput (make bench; figures printed, nothing asserted on
 * time): events per CPU second (and per wall second) on one thread for the repairman with 64 sources (think 9 x hold,
 * exponential, FCFS and ROS; deterministic hold), an M/M/1 at 0.9 and a 10-station closed
 * network; and the peak resident memory after runs of 1e6 and 1e7 events (flat in the run
 * length: the statistics are cumulative snapshots and bounded reservoirs).
 *
 * usage: bench_sim [EVENTS]      (default 20000000 events per case)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "zvmperf/zvmperf.h"

static long maxrss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double run(const char *name, const zvp_sim_network *net, uint64_t events, double exact_x)
{
    zvp_sim_options o;
    zvp_sim_result *r = NULL;
    zvp_error e;
    zvp_sim_default_options(&o);
    o.events = events / 2;
    o.replications = 2;
    o.threads = 1;
    double c0 = cpu_s();
    if (zvp_sim_run(net, &o, &r, &e)) {
        printf("%-34s failed: %s\n", name, e.message);
        return NAN;
    }
    double cpu = cpu_s() - c0;
    const zvp_sim_figures *g = zvp_sim_cell(r, net->n_stations, net->n_classes);
    printf("%-34s %6.1f M events/CPU-s %6.1f M events/s wall (%llu events, %.2f s; X = %.6g",
           name, (double)r->events / cpu / 1e6, r->events_per_s / 1e6,
           (unsigned long long)r->events, r->seconds, g->throughput_per_s.mean);
    if (isfinite(exact_x))
        printf(", exact %.6g", exact_x);
    printf(")\n");
    double eps = (double)r->events / cpu;
    zvp_sim_result_free(r);
    return eps;
}

int main(int argc, char **argv)
{
    uint64_t events = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000ULL;
    zvp_init();
    printf("bench_sim: one thread, %llu events per case\n", (unsigned long long)events);

    /* repairman: 64 sources, think 9, hold 1 */
    zvp_sim_station lock = {ZVP_STATION_QUEUE, 1, ZVP_SIM_FCFS, ZVP_SIM_DIST_PHASE, 1.0, 0, 0};
    double d = 1.0, z = 9.0;
    unsigned long n = 64;
    zvp_sim_network rep = {&lock, 1, 1, &d, NULL, 0, 0, NULL, &n, &z, NULL};
    zvp_station_result ex;
    zvp_repairman(64, 9.0, 1.0, 1, &ex, NULL);
    run("repairman N=64, exp, FCFS", &rep, events, ex.throughput_per_s);
    lock.discipline = ZVP_SIM_ROS;
    run("repairman N=64, exp, ROS", &rep, events, ex.throughput_per_s);
    lock.discipline = ZVP_SIM_FCFS;
    lock.scv = 0.0;
    run("repairman N=64, deterministic hold", &rep, events, NAN);
    lock.scv = 1.0;
    lock.discipline = ZVP_SIM_PS;
    run("repairman N=64, exp, PS", &rep, events, ex.throughput_per_s);

    /* M/M/1 at rho = 0.9 */
    zvp_sim_station q = {ZVP_STATION_QUEUE, 1, ZVP_SIM_FCFS, ZVP_SIM_DIST_PHASE, 1.0, 0, 0};
    double lam = 0.9;
    zvp_sim_network mm1 = {&q, 1, 1, &d, NULL, 1, 0, &lam, NULL, NULL, NULL};
    run("M/M/1 rho = 0.9", &mm1, events, 0.9);

    /* closed network: 10 queues, 32 customers */
    zvp_sim_station st[10];
    double dem[10];
    for (int k = 0; k < 10; k++) {
        st[k] = q;
        dem[k] = 0.01 * (k + 1);
    }
    unsigned long n32 = 32;
    double z1 = 1.0;
    zvp_sim_network net = {st, 10, 1, dem, NULL, 0, 0, NULL, &n32, &z1, NULL};
    run("closed network K=10, N=32", &net, events, NAN);

    /* memory flat in the run length */
    lock.discipline = ZVP_SIM_FCFS;
    long before = maxrss_kb();
    run("repairman, 1e6 events", &rep, 1000000, ex.throughput_per_s);
    long m6 = maxrss_kb();
    run("repairman, 1e7 events", &rep, 10000000, ex.throughput_per_s);
    long m7 = maxrss_kb();
    printf("peak resident memory: %ld kB before, %ld kB after 1e6 events, %ld kB after 1e7\n",
           before, m6, m7);
    return 0;
}
