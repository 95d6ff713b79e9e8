/*
 * models/spinlock.c - spin-lock contention from a user's own numbers: N CPUs each work
 * work_us outside the lock, then take one of `zones` lock instances (Zipf-chosen), hold it
 * hold_us (SCV hold_scv), and spin while it is held; passing the lock to a spinner costs
 * handoff_us per spinner. Analytic: MVA on the closed network with a residual-life
 * correction for non-exponential holds and the handoff cost from the queue seen at a
 * departure; simulated (the `sim` hook) on the same network with random-order handoff.
 * Equations, derivation and limits: models/README.md, spinlock.
 */
#include <math.h>
#include <stdlib.h>
#include "registry.h"
#include "internal.h"
#include "zvmperf/queue.h"

enum { P_CPUS, P_WORK, P_HOLD, P_SCV, P_ZONES, P_SKEW, P_HANDOFF, N_P };
enum { O_SPIN, O_UTIL, O_ACQ, O_SPIN_ACQ, O_COLL, N_O };

static const zvp_param_desc spinlock_params[N_P] = {
    {"cpus", "1", "CPUs that take the lock (integer)", 1, 4096, 64, 1, 0},
    {"work_us", "us", "mean CPU time between lock requests, outside the lock (exponential)", 0,
     1e9, 45, 0, 0},
    {"hold_us", "us", "mean lock hold time per acquisition", 1e-6, 1e9, 5, 0, 0},
    {"hold_scv", "1", "squared coefficient of variation of the hold time (0 constant, 1 "
     "exponential)", 0, 100, 1, 0, 0},
    {"zones", "1", "lock instances the requests spread over (integer)", 1, 65536, 1, 1, 0},
    {"zone_skew", "1", "Zipf exponent of the zone choice (0 uniform)", 0, 4, 0, 0, 0},
    {"handoff_us", "us", "cost of passing the lock to a spinner, per CPU spinning on it at "
     "the handoff", 0, 1e6, 0, 0, 0},
};

static const zvp_param_desc spinlock_outputs[N_O] = {
    {"spin_busy_pct", "%", "time spinning summed over CPUs, in % of one CPU", 0, INFINITY, 0,
     0, 0},
    {"lock_util_pct", "%", "utilization of the busiest zone (hold + handoff)", 0, 100, 0, 0, 0},
    {"acquisitions_per_s", "1/s", "lock acquisitions per second, all zones", 0, INFINITY, 0, 0,
     0},
    {"spin_per_acq_us", "us", "mean spin per acquisition", 0, INFINITY, 0, 0, 0},
    {"collisions_per_s", "1/s", "acquisitions per second that found the lock held", 0, INFINITY,
     0, 0, 0},
};

/* The zone probabilities p_z = z^-s / sum_y y^-s (z = 1..L); uniform when s = 0. */
static void zipf(size_t L, double s, double *p)
{
    double sum = 0.0;
    for (size_t z = 0; z < L; z++)
        sum += p[z] = s > 0 ? pow((double)(z + 1), -s) : 1.0;
    for (size_t z = 0; z < L; z++)
        p[z] /= sum;
}

/* MVA over the population 1..N with the two corrections (models/README.md, spinlock).
 * G groups of m[g] identical zones of probability p[g]; w: [4 G] scratch. Writes X, the
 * utilizations U[g] and the busy probabilities at arrival B[g] (population N - 1). */
static void spin_mva(unsigned long N, double Z, double S, double c2, double h, size_t G,
                     const double *m, const double *p, double *w, double *X)
{
    double *Q = w, *U = w + G, *T = w + 2 * G, *R = w + 3 * G;
    double x = 0.0;
    for (size_t g = 0; g < G; g++)
        Q[g] = U[g] = 0.0;
    for (unsigned long n = 1; n <= N; n++) {
        double cyc = Z, tmax = 0.0;
        for (size_t g = 0; g < G; g++) {
            T[g] = S + h * Q[g];
            double resid = (c2 * S * S + T[g] * T[g]) / (2.0 * T[g]);
            R[g] = T[g] + (Q[g] - U[g]) * T[g] + U[g] * resid;
            cyc += m[g] * p[g] * R[g];
            tmax = fmax(tmax, p[g] * T[g]);
        }
        x = fmin((double)n / cyc, 1.0 / tmax);
        if (n == N)
            break; /* keep Q, U of N - 1: the arrival's view */
        /* f = 1 unless the busiest zone caps x: then the zones still hold n - x Z CPUs */
        const double f = ((double)n - x * Z) / (x * (cyc - Z));
        for (size_t g = 0; g < G; g++) {
            Q[g] = f * x * p[g] * R[g];
            U[g] = x * p[g] * T[g];
        }
    }
    *X = x;
}

static int spinlock_eval(const double *pr, double *out, zvp_error *err)
{
    const unsigned long N = (unsigned long)pr[P_CPUS];
    const size_t L = (size_t)pr[P_ZONES];
    const double Z = pr[P_WORK] * 1e-6, S = pr[P_HOLD] * 1e-6, h = pr[P_HANDOFF] * 1e-6;
    const size_t G = pr[P_SKEW] > 0 ? L : 1; /* uniform: one group of L identical zones */
    double *buf = malloc(6 * G * sizeof *buf), X;
    if (!buf)
        return zvp_fail(err, ZVP_ENOMEM, "spinlock: out of memory");
    double *m = buf, *p = buf + G, *w = buf + 2 * G;
    if (G == 1) {
        m[0] = (double)L;
        p[0] = 1.0 / (double)L;
    } else {
        zipf(L, pr[P_SKEW], p);
        for (size_t g = 0; g < G; g++)
            m[g] = 1.0;
    }
    spin_mva(N, Z, S, pr[P_SCV], h, G, m, p, w, &X);
    /* w: Q, U of population N - 1; T at N */
    double busy = 0.0, umax = 0.0, coll = 0.0;
    for (size_t g = 0; g < G; g++) {
        double u = X * p[g] * w[2 * G + g];
        busy += m[g] * u;
        umax = fmax(umax, u);
        coll += m[g] * p[g] * w[G + g];
    }
    /* Little's law on the whole network: CPUs at the locks = N - X Z, of which `busy` hold */
    double spin = fmax(0.0, (double)N - X * Z - busy);
    out[O_SPIN] = 100.0 * spin;
    out[O_UTIL] = 100.0 * fmin(1.0, umax);
    out[O_ACQ] = X;
    out[O_SPIN_ACQ] = X > 0 ? 1e6 * spin / X : 0.0;
    out[O_COLL] = X * fmin(1.0, coll);
    free(buf);
    return ZVP_SUCCESS;
}

/* ---- the network for the simulator -------------------------------------------------------- */

/* One block: L stations, demands [L], visits [L], customers, think. */
typedef struct spin_net {
    unsigned long customers;
    double think;
    double *demands, *visits;
    zvp_sim_station st[];
} spin_net;

static int spinlock_network(const double *pr, zvp_sim_network *net, void **storage,
                            zvp_error *err)
{
    const size_t L = (size_t)pr[P_ZONES];
    spin_net *b = malloc(sizeof *b + L * sizeof b->st[0] + 2 * L * sizeof(double));
    *storage = b;
    if (!b)
        return zvp_fail(err, ZVP_ENOMEM, "spinlock: out of memory");
    b->demands = (double *)(void *)(b->st + L);
    b->visits = b->demands + L;
    zipf(L, pr[P_SKEW], b->visits);
    for (size_t z = 0; z < L; z++) {
        zvp_sim_station s = {ZVP_STATION_QUEUE, 1, ZVP_SIM_ROS, ZVP_SIM_DIST_PHASE, pr[P_SCV],
                             0.0, pr[P_HANDOFF] * 1e-6};
        b->st[z] = s;
        b->demands[z] = b->visits[z] * pr[P_HOLD] * 1e-6;
    }
    b->customers = (unsigned long)pr[P_CPUS];
    b->think = pr[P_WORK] * 1e-6;
    zvp_sim_network n = {b->st, L, 1, b->demands, b->visits, 0, 1, NULL, &b->customers,
                         &b->think, NULL};
    *net = n;
    return ZVP_SUCCESS;
}

static const char not_counted[] = "not measured by the simulator (it does not count the "
                                  "arrivals that find the server busy)";

static int spinlock_sim_outputs(const double *pr, const zvp_sim_result *r, zvp_sim_estimate *o,
                                const char **why, zvp_error *err)
{
    const size_t L = r->n_stations;
    const zvp_sim_figures *net = zvp_sim_cell(r, L, 1);
    zvp_sim_estimate u = zvp_sim_cell(r, 0, 1)->utilization; /* zone 1: the largest p */
    for (size_t z = 1; pr[P_SKEW] == 0 && z < L; z++)
        if (zvp_sim_cell(r, z, 1)->utilization.mean > u.mean)
            u = zvp_sim_cell(r, z, 1)->utilization; /* uniform: the busiest as simulated */
    const double c[4] = {100.0, 100.0, 1.0, 1e6};
    const zvp_sim_estimate *e[4] = {&net->mean_in_queue, &u, &net->throughput_per_s,
                                    &net->wait_s};
    for (int i = 0; i < 4; i++) {
        o[i].mean = c[i] * e[i]->mean;
        o[i].half_width = c[i] * e[i]->half_width;
        o[i].ci_lo = c[i] * e[i]->ci_lo;
        o[i].ci_hi = c[i] * e[i]->ci_hi;
    }
    o[O_COLL].mean = o[O_COLL].half_width = o[O_COLL].ci_lo = o[O_COLL].ci_hi = NAN;
    why[O_COLL] = not_counted;
    return ZVP_SUCCESS;
}

static const zvp_model_sim spinlock_sim = {spinlock_network, spinlock_sim_outputs};

const zvp_model zvp_model_spinlock = {
    "spinlock",
    "Spin-lock contention from your own numbers: cpus CPUs each work work_us, then take one "
    "of `zones` locks (Zipf exponent zone_skew), hold it hold_us (SCV hold_scv) and spin "
    "while it is held; handing the lock to a spinner costs handoff_us x the CPUs spinning on "
    "it. Exact MVA (the machine repairman for one zone) with a residual-life correction for "
    "non-exponential holds and the handoff cost; `zvmperf simulate spinlock` simulates it.",
    "Closed queueing network (Reiser & Lavenberg 1980 MVA; residual-life correction as in "
    "Lazowska et al., Quantitative System Performance, 1984); models/README.md, spinlock",
    N_P, spinlock_params,
    N_O, spinlock_outputs,
    spinlock_eval,
    &spinlock_sim,
};
