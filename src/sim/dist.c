/*
 * src/sim/dist.c - service-time samplers from mean and SCV, the per-replication generator
 * (counter-based seeding), the bounded reservoir of response times, and zvp_sim_draw.
 * The distributions: src/sim/README.md, "Service times".
 */
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include "internal.h"
#include "sim_impl.h"

void sim_sampler_init(sim_sampler *s, int dist, double mean, double scv)
{
    s->k = 1;
    s->mean = mean;
    s->p = s->r1 = s->r2 = s->mu = s->sigma = 0.0;
    if (mean <= 0.0) {
        s->type = SMP_ZERO;
    } else if (scv == 0.0) {
        s->type = SMP_DET;
    } else if (dist == ZVP_SIM_DIST_LOGNORMAL) {
        s->type = SMP_LOGN;
        s->sigma = sqrt(log1p(scv));
        s->mu = log(mean) - 0.5 * s->sigma * s->sigma;
    } else if (scv == 1.0) {
        s->type = SMP_EXP;
    } else if (scv < 1.0) {
        /* Tijms (1994), sec. 2.2: k = ceil(1/scv), Erlang k-1 with probability p else Erlang
         * k, one rate mu = (k - p)/mean; p = (k scv - sqrt(k (1 + scv) - k^2 scv))/(1 + scv). */
        double k = ceil(1.0 / scv - 1e-12);
        double p = (k * scv - sqrt(fmax(0.0, k * (1.0 + scv) - k * k * scv))) / (1.0 + scv);
        s->type = SMP_MERL;
        s->k = (unsigned)k;
        s->p = fmin(fmax(p, 0.0), 1.0);
        s->r1 = (k - s->p) / mean;
    } else {
        /* H2 with balanced means (p1/mu1 = p2/mu2): p1 = (1 + sqrt((scv-1)/(scv+1)))/2,
         * mu1 = 2 p1/mean, mu2 = 2 (1 - p1)/mean. */
        double p = 0.5 * (1.0 + sqrt((scv - 1.0) / (scv + 1.0)));
        s->type = SMP_H2;
        s->p = p;
        s->r1 = 2.0 * p / mean;
        s->r2 = 2.0 * (1.0 - p) / mean;
    }
}

/* Erlang n with rate r: -log(prod of n uniforms)/r, the product renormalised in log space
 * before it underflows. */
static double erlang(unsigned n, double r, gsl_rng *g)
{
    double prod = 1.0, logsum = 0.0;
    for (unsigned i = 0; i < n; i++) {
        prod *= gsl_rng_uniform_pos(g);
        if (prod < 1e-280) {
            logsum += log(prod);
            prod = 1.0;
        }
    }
    return -(logsum + log(prod)) / r;
}

double sim_sample(const sim_sampler *s, gsl_rng *g)
{
    switch (s->type) {
    case SMP_EXP:
        return -s->mean * log(gsl_rng_uniform_pos(g));
    case SMP_DET:
        return s->mean;
    case SMP_MERL:
        return erlang(gsl_rng_uniform(g) < s->p ? s->k - 1 : s->k, s->r1, g);
    case SMP_H2:
        return -log(gsl_rng_uniform_pos(g)) / (gsl_rng_uniform(g) < s->p ? s->r1 : s->r2);
    case SMP_LOGN:
        return gsl_ran_lognormal(g, s->mu, s->sigma);
    default:
        return 0.0;
    }
}

/* splitmix64 (Steele, Lea & Flood 2014): a bijective mixer of 64-bit counters. */
static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

gsl_rng *sim_rng_new(uint64_t seed, uint64_t rep)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g)
        return NULL;
    uint64_t s = splitmix64(splitmix64(seed) ^ (rep * 0xd1b54a32d192ed03ULL + 1));
    /* mt19937 takes 32 bits of seed; 0 would select GSL's default seed */
    unsigned long s32 = (unsigned long)((s ^ (s >> 32)) & 0xffffffffUL);
    gsl_rng_set(g, s32 ? s32 : 4357UL);
    return g;
}

/* Li (1994), algorithm L: after the reservoir is full, the index of the next sample taken is
 * drawn directly (geometric skip), so a sample not taken costs one comparison. */
static void reservoir_skip(sim_reservoir *r, gsl_rng *g)
{
    double skip = floor(log(gsl_rng_uniform_pos(g)) / log1p(-r->w));
    if (!(skip < 4e18))
        skip = 4e18;
    r->next = r->seen + (uint64_t)skip + 1;
}

void sim_reservoir_add(sim_reservoir *r, double x, uint32_t s, gsl_rng *g)
{
    r->seen++;
    if (r->n < r->k) {
        r->s[r->n].v = x;
        r->s[r->n].slice = s;
        r->n++;
        if (r->n == r->k) {
            r->w = exp(log(gsl_rng_uniform_pos(g)) / r->k);
            reservoir_skip(r, g);
        }
        return;
    }
    if (r->seen != r->next)
        return;
    unsigned long i = gsl_rng_uniform_int(g, r->k);
    r->s[i].v = x;
    r->s[i].slice = s;
    r->w *= exp(log(gsl_rng_uniform_pos(g)) / r->k);
    reservoir_skip(r, g);
}

int zvp_sim_draw(int dist, double mean, double scv, uint64_t seed, size_t n, double *out,
                 zvp_error *err)
{
    if (dist != ZVP_SIM_DIST_PHASE && dist != ZVP_SIM_DIST_LOGNORMAL)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_draw: dist = %d is out of range [0, 1] "
                        "(0 phase-type, 1 lognormal)", dist);
    if (zvp_check_range(err, "zvp_sim_draw: mean", mean, 0.0, 1e300) ||
        zvp_check_range(err, "zvp_sim_draw: scv", scv, 0.0, ZVP_SIM_MAX_SCV))
        return ZVP_EINVAL;
    if (n > 0 && !out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_sim_draw: out is NULL with n = %zu", n);
    gsl_rng *g = sim_rng_new(seed, 0);
    if (!g)
        return zvp_fail(err, ZVP_ENOMEM, "zvp_sim_draw: out of memory");
    sim_sampler s;
    sim_sampler_init(&s, dist, mean, scv);
    for (size_t i = 0; i < n; i++)
        out[i] = sim_sample(&s, g);
    gsl_rng_free(g);
    return ZVP_SUCCESS;
}
