/*
 * bench/bench_queue.c - queueing-kernel benchmarks (make bench; figures printed, nothing
 * asserted on time):
 *   - exact single-class MVA: nanoseconds per customer-station step at K = 10 and 100
 *     queueing stations, N = 1e4 and 1e5 (demands D_k = 0.001 k / K, think 1 s), against
 *     the latency of one dependent floating-point add (measured here: the machine's floor
 *     for the recursion's sequential station sum);
 *   - exact multiclass MVA, 2 classes x 200 customers on 10 stations;
 *   - Erlang C with 1e5 servers at 99 000 Erlangs;
 * and, when GNU Octave with the `queueing` package is on PATH, the same computations with
 * qncsmva, qncmmva and erlangc (timed inside Octave with tic/toc, so interpreter start-up
 * is excluded), side by side, with the ratio and the relative difference of the results.
 * Otherwise prints "peer not installed".
 *
 * usage: bench_queue [--no-peer]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zvmperf/zvmperf.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Latency of one dependent double add, ns (a chain the compiler cannot reorder). */
static double add_latency_ns(void)
{
    volatile double seed = 1e-9;
    double a = 0.0, inc = seed;
    const long n = 200000000L;
    double t0 = now_s();
    for (long i = 0; i < n; i++)
        a += inc;
    double t1 = now_s();
    volatile double sink = a;
    (void)sink;
    return (t1 - t0) / (double)n * 1e9;
}

typedef struct {
    const char *name;
    double ours_s, peer_s;   /* seconds per call */
    double ours_x, peer_x;   /* a result to compare */
    double steps;            /* customer-station steps (MVA) or 0 */
} row;

static double time_mva(size_t K, unsigned long N, double *x_out)
{
    zvp_station *st = calloc(K, sizeof *st);
    double *scratch = malloc(2 * K * sizeof(double));
    zvp_error e;
    for (size_t k = 0; k < K; k++) {
        st[k].kind = ZVP_STATION_QUEUE;
        st[k].replicas = 1;
        st[k].demand_s = 0.001 * (double)(k + 1) / (double)K;
    }
    zvp_mva_result r = {0, 0, NULL, NULL, NULL};
    int reps = 0;
    double t0 = now_s(), t1 = t0;
    do {
        if (zvp_mva_exact(st, K, 1.0, N, &r, scratch, &e)) {
            fprintf(stderr, "bench: %s\n", e.message);
            break;
        }
        reps++;
        t1 = now_s();
    } while (t1 - t0 < 0.3);
    *x_out = r.throughput_per_s;
    free(st);
    free(scratch);
    return (t1 - t0) / reps;
}

static double time_multi(double *x_out)
{
    zvp_station st[10];
    double d[20];
    for (int k = 0; k < 10; k++) {
        memset(&st[k], 0, sizeof st[k]);
        st[k].kind = ZVP_STATION_QUEUE;
        st[k].replicas = 1;
        d[k] = 0.01 * (k + 1);
        d[10 + k] = 0.01 * (10 - k);
    }
    double z[2] = {1.0, 2.0}, x[2];
    unsigned long n[2] = {200, 200};
    zvp_mva_multi_result r = {x, NULL, NULL, NULL, NULL};
    zvp_error e;
    int reps = 0;
    double t0 = now_s(), t1 = t0;
    do {
        if (zvp_mva_multi_exact(st, 10, d, z, n, 2, &r, &e)) {
            fprintf(stderr, "bench: %s\n", e.message);
            break;
        }
        reps++;
        t1 = now_s();
    } while (t1 - t0 < 0.3);
    *x_out = x[0] + x[1];
    return (t1 - t0) / reps;
}

static double time_erlangc(double *x_out)
{
    zvp_error e;
    double c = 0.0;
    int reps = 0;
    double t0 = now_s(), t1 = t0;
    do {
        zvp_erlang_c(99000.0, 100000, &c, &e);
        reps++;
        t1 = now_s();
    } while (t1 - t0 < 0.2);
    *x_out = c;
    return (t1 - t0) / reps;
}

/* Run the Octave side; fills peer_s / peer_x of rows by name. Returns 0 when it ran. */
static int run_peer(row *rows, size_t nrows)
{
    if (system("command -v octave >/dev/null 2>&1") != 0)
        return -1;
    const char *script =
        "octave --no-gui --no-window-system -q --eval \""
        "try; pkg load queueing; catch; printf('NOPKG\\n'); exit(0); end;"
        "for K=[10 100]; for N=[1e4 1e5];"
        " S=0.001*(1:K)/K; tic; [U,R,Q,X]=qncsmva(N,S,ones(1,K),ones(1,K),1.0); t=toc;"
        " printf('mva_K%d_N%d %.17g %.17g\\n',K,N,t,X(1)); end; end;"
        "S=[0.01*(1:10); 0.01*(10:-1:1)]; tic;"
        " [U,R,Q,X]=qncmmva([200 200],S,ones(2,10),ones(1,10),[1 2]); t=toc;"
        " printf('multi %.17g %.17g\\n',t,X(1,1)+X(2,1));"
        "tic; for i=1:10; c=erlangc(99000,100000); end; t=toc/10;"
        " printf('erlangc %.17g %.17g\\n',t,c);\" 2>/dev/null";
    FILE *p = popen(script, "r");
    if (!p)
        return -1;
    char line[256];
    int got = 0;
    while (fgets(line, sizeof line, p)) {
        char name[64];
        double t, x;
        if (strncmp(line, "NOPKG", 5) == 0) {
            pclose(p);
            return -1;
        }
        if (sscanf(line, "%63s %lf %lf", name, &t, &x) != 3)
            continue;
        for (size_t i = 0; i < nrows; i++)
            if (strcmp(rows[i].name, name) == 0) {
                rows[i].peer_s = t;
                rows[i].peer_x = x;
                got++;
            }
    }
    pclose(p);
    return got ? 0 : -1;
}

int main(int argc, char **argv)
{
    int want_peer = !(argc > 1 && strcmp(argv[1], "--no-peer") == 0);
    zvp_init();
    row rows[6];
    memset(rows, 0, sizeof rows);
    const size_t Ks[2] = {10, 100};
    const unsigned long Ns[2] = {10000, 100000};
    static char names[4][32];
    size_t nr = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++, nr++) {
            snprintf(names[nr], sizeof names[nr], "mva_K%zu_N%lu", Ks[a], Ns[b]);
            rows[nr].name = names[nr];
            rows[nr].ours_s = time_mva(Ks[a], Ns[b], &rows[nr].ours_x);
            rows[nr].steps = (double)Ks[a] * (double)Ns[b];
            rows[nr].peer_s = rows[nr].peer_x = NAN;
        }
    rows[nr].name = "multi";
    rows[nr].ours_s = time_multi(&rows[nr].ours_x);
    rows[nr].peer_s = rows[nr].peer_x = NAN;
    nr++;
    rows[nr].name = "erlangc";
    rows[nr].ours_s = time_erlangc(&rows[nr].ours_x);
    rows[nr].peer_s = rows[nr].peer_x = NAN;
    nr++;

    const double lat = add_latency_ns();
    int peer = want_peer ? run_peer(rows, nr) : -1;

    printf("== queueing kernels (bench/bench_queue.c) ==\n");
    printf("dependent FP add latency on this machine: %.3f ns\n", lat);
    printf("%-18s %14s %12s %10s %14s %10s %12s\n", "case", "zvmperf_s", "ns/step", "x_add_lat",
           "octave_s", "ratio", "rel_diff");
    for (size_t i = 0; i < nr; i++) {
        const row *r = &rows[i];
        char nsstep[32] = "-", xl[32] = "-", ps[32] = "-", ratio[32] = "-", diff[32] = "-";
        if (r->steps > 0) {
            double ns = r->ours_s / r->steps * 1e9;
            snprintf(nsstep, sizeof nsstep, "%.3f", ns);
            snprintf(xl, sizeof xl, "%.2f", ns / lat);
        }
        if (isfinite(r->peer_s)) {
            snprintf(ps, sizeof ps, "%.4g", r->peer_s);
            snprintf(ratio, sizeof ratio, "%.0f", r->peer_s / r->ours_s);
            snprintf(diff, sizeof diff, "%.2g", fabs(r->peer_x - r->ours_x) / fabs(r->ours_x));
        }
        printf("%-18s %14.6g %12s %10s %14s %10s %12s\n", r->name, r->ours_s, nsstep, xl, ps,
               ratio, diff);
    }
    if (peer != 0)
        printf("peer not installed (GNU Octave with the queueing package: Debian octave-queueing)\n");
    printf("cases: mva_K*_N* exact single-class MVA (queueing stations, D_k = 0.001 k/K s, Z = 1 s);\n"
           "multi: exact multiclass MVA, 2 classes x 200 customers, 10 stations;\n"
           "erlangc: Erlang C, 1e5 servers, 99000 Erlangs. ratio = octave time / zvmperf time;\n"
           "rel_diff compares the system throughput (Erlang C: the probability of waiting).\n");
    return 0;
}
