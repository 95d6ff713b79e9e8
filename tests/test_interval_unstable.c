/*
 * tests/test_interval_unstable.c - Monte Carlo intervals at a point whose centre has no
 * steady state (include/zvmperf/interval.h, src/interval/README.md "No steady state at the
 * centre").
 *
 * The point: an M/M/c station (model mmc) with arrival rate lambda = 7/s, c = 2 servers and
 * the service rate mu drawn uniformly from [1, 5]/s; the centre mu = 3 has utilization
 * lambda / (c mu) = 7/6 >= 1, so no steady state (Gross et al. 2008, sec. 2.3). The fitted
 * lambda carries a negligible covariance (its spread is 1e-6 of mu's range), so a draw is
 * stable exactly when mu > lambda / c = 3.5: the stable share of uniform draws is
 * p = (5 - 3.5) / (5 - 1) = 0.375, and the count of S draws is Binomial(S, p). Given
 * stability, mu is uniform on (3.5, 5), so the utilization U = 3.5 / mu has
 * P(U <= x) = (5 - 3.5 / x) / 1.5 and quantile x_q = 3.5 / (5 - 1.5 q); the throughput is
 * lambda = 7 in every stable draw. These closed forms are the expected values; tolerances
 * are 4 binomial (or order-statistic) standard deviations.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"

static const char MMC_TEXT[] = "[model]\nname = mmc\n[parameters]\narrival_rate_per_s = 7\n"
                               "service_rate_per_s = 3\nservers = 2\n[transform]\n"
                               "arrival_rate_per_s = logistic 0.01 100\n[covariance]\n"
                               "arrival_rate_per_s = 1e-14\n";
static const zvp_interval_range MU_RANGE = {"service_rate_per_s", 1.0, 5.0};

static zvp_model_file *unstable_file(void)
{
    zvp_model_file *mf = NULL;
    zvp_error err;
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_parse("mmc-unstable", MMC_TEXT, strlen(MMC_TEXT), &mf,
                                               &err), ZVP_SUCCESS);
    return mf;
}

static zvp_interval_options mc_options(size_t samples, int threads)
{
    zvp_interval_options o = zvp_interval_default_options();
    o.method = ZVP_INTERVAL_MC;
    o.samples = samples;
    o.threads = threads;
    o.prediction = 0;
    o.ranges = &MU_RANGE;
    o.n_ranges = 1;
    return o;
}

/* The utilization quantile q of the stable draws (closed form above). */
static double util_quantile(double q) { return 3.5 / (5.0 - 1.5 * q); }

static void test_min_stable_draws(void)
{
    /* 2 x 5 / (1 - level), rounded up */
    CU_ASSERT_EQUAL(zvp_interval_min_stable_draws(0.9), 100);
    CU_ASSERT_EQUAL(zvp_interval_min_stable_draws(0.95), 200);
    CU_ASSERT_EQUAL(zvp_interval_min_stable_draws(0.99), 1000);
    CU_ASSERT_EQUAL(zvp_interval_min_stable_draws(0.5), 20);
    CU_ASSERT_EQUAL(zvp_interval_min_stable_draws(0.7), 34); /* 33.33 -> 34 */
    CU_ASSERT_EQUAL(zvp_interval_min_stable_draws(1.0), 0);
    CU_ASSERT_EQUAL(zvp_interval_min_stable_draws(NAN), 0);
}

/* The bounds of the stable draws, the share, the status and message; any thread count. */
static void test_stable_part(void)
{
    zvp_model_file *mf = unstable_file();
    const zvp_model *m = zvp_model_file_model(mf);
    size_t no = m->n_outputs, S = 4000;
    size_t ju = (size_t)zvp_model_output_index(m, "utilization", NULL),
           jx = (size_t)zvp_model_output_index(m, "throughput_per_s", NULL);
    double *v = calloc(6 * no, sizeof *v), *lo = v + no, *hi = lo + no, *v2 = hi + no,
           *lo2 = v2 + no, *hi2 = lo2 + no, share = -1.0, share2 = -1.0;
    double p = 0.375, tol = 4.0 * sqrt(p * (1.0 - p) / (double)S);
    zvp_interval_options o = mc_options(S, 1);
    zvp_error err;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, &share, &err),
                          ZVP_EUNSTABLE);
    /* the message names the centre, the stable count and the model's reason */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "service_rate_per_s = 3 of 1..5"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "of 4000 draws"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "saturated"));
    CU_ASSERT_DOUBLE_EQUAL(1.0 - share, p, tol);
    for (size_t j = 0; j < no; j++) {
        CU_ASSERT(isnan(v[j])); /* no value: the centre has no steady state */
        CU_ASSERT(isfinite(lo[j]) && isfinite(hi[j]) && lo[j] <= hi[j]);
    }
    /* order statistics of ~1500 stable draws: sd of the 5 % / 95 % quantile of U is about
     * 0.0012 / 0.0023 (density of U at the quantile); 4 sd */
    CU_ASSERT_DOUBLE_EQUAL(lo[ju], util_quantile(0.05), 0.005);
    CU_ASSERT_DOUBLE_EQUAL(hi[ju], util_quantile(0.95), 0.01);
    CU_ASSERT(lo[ju] > 0.7 && hi[ju] < 1.0); /* within the stable part (0.7, 1) */
    CU_ASSERT_DOUBLE_EQUAL(lo[jx], 7.0, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(hi[jx], 7.0, 1e-5);
    /* the same bits on 2 threads */
    o.threads = 2;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v2, lo2, hi2, &share2, &err),
                          ZVP_EUNSTABLE);
    CU_ASSERT(memcmp(lo, lo2, no * sizeof *lo) == 0 && memcmp(hi, hi2, no * sizeof *hi) == 0);
    CU_ASSERT(memcmp(&share, &share2, sizeof share) == 0);
    /* no_result NULL: no share to qualify the bounds, so none (the sweep's case) */
    CU_ASSERT_EQUAL(zvp_interval_eval(mf, NULL, &o, v2, lo2, hi2, NULL, &err), ZVP_EUNSTABLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no_result"));
    for (size_t j = 0; j < no; j++)
        CU_ASSERT(isnan(v2[j]) && isnan(lo2[j]) && isnan(hi2[j]));
    free(v);
    zvp_model_file_free(mf);
}

/* Too few stable draws for the level: NaN bounds, the share still given; a lower level
 * needs fewer. */
static void test_too_few(void)
{
    zvp_model_file *mf = unstable_file();
    const zvp_model *m = zvp_model_file_model(mf);
    size_t no = m->n_outputs, S = 150;
    double *v = calloc(3 * no, sizeof *v), *lo = v + no, *hi = lo + no, share = -1.0;
    double p = 0.375, tol = 4.0 * sqrt(p * (1.0 - p) / (double)S);
    zvp_interval_options o = mc_options(S, 0);
    zvp_error err;
    /* expected 56 stable draws, at most 56 + 4 sd = 80 < 100 needed at level 0.9 */
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, &share, &err),
                          ZVP_EUNSTABLE);
    CU_ASSERT_DOUBLE_EQUAL(1.0 - share, p, tol);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "fewer than the 100 needed"));
    for (size_t j = 0; j < no; j++)
        CU_ASSERT(isnan(v[j]) && isnan(lo[j]) && isnan(hi[j]));
    /* level 0.5 needs 20 (at least 56 - 4 sd = 32 are stable): bounds, the quartiles */
    o.level = 0.5;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_eval(mf, NULL, &o, v, lo, hi, &share, &err),
                          ZVP_EUNSTABLE);
    size_t ju = (size_t)zvp_model_output_index(m, "utilization", NULL);
    CU_ASSERT(isnan(v[ju]));
    CU_ASSERT(lo[ju] > 0.7 && lo[ju] < util_quantile(0.5) && hi[ju] > util_quantile(0.5) &&
              hi[ju] < 1.0);
    free(v);
    zvp_model_file_free(mf);
}

/* Points: an unstable and a stable centre side by side (servers 2 and 3); the share of each
 * from its closed form; no_result NULL leaves the unstable point's bounds NaN and the stable
 * point's bits unchanged. */
static void test_points(void)
{
    zvp_model_file *mf = unstable_file();
    const zvp_model *m = zvp_model_file_model(mf);
    size_t no = m->n_outputs, S = 3000, ks = (size_t)zvp_model_param_index(m, "servers", NULL);
    size_t ju = (size_t)zvp_model_output_index(m, "utilization", NULL);
    static const double servers[2] = {2.0, 3.0};
    double *b = calloc(6 * no * 2, sizeof *b), nores[2];
    double *b2 = b + 3 * no * 2;
    /* stable iff mu > 7 / c: shares (5 - 3.5) / 4 and (5 - 7/3) / 4 */
    double p[2] = {0.375, (5.0 - 7.0 / 3.0) / 4.0};
    uint8_t st[2], st2[2];
    zvp_interval_options o = mc_options(S, 2);
    zvp_error err;
    CU_ASSERT_EQUAL_FATAL(zvp_interval_points(mf, zvp_model_file_params(mf), 0, 2, 1, &ks, servers,
                                              &o, b, b + 2 * no, b + 4 * no, nores, st, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL(st[0], ZVP_POINT_UNSTABLE);
    CU_ASSERT_EQUAL(st[1], ZVP_POINT_OK);
    for (int i = 0; i < 2; i++)
        CU_ASSERT_DOUBLE_EQUAL(1.0 - nores[i], p[i], 4.0 * sqrt(p[i] * (1 - p[i]) / (double)S));
    CU_ASSERT(isnan(b[ju * 2 + 0]));                             /* value, unstable centre */
    CU_ASSERT_DOUBLE_EQUAL(b[ju * 2 + 1], 7.0 / 9.0, 1e-12);     /* value, 7 / (3 x 3) */
    CU_ASSERT_DOUBLE_EQUAL(b[2 * no + ju * 2 + 0], util_quantile(0.05), 0.005); /* lo */
    CU_ASSERT_DOUBLE_EQUAL(b[4 * no + ju * 2 + 0], util_quantile(0.95), 0.01);  /* hi */
    CU_ASSERT_EQUAL_FATAL(zvp_interval_points(mf, zvp_model_file_params(mf), 0, 2, 1, &ks, servers,
                                              &o, b2, b2 + 2 * no, b2 + 4 * no, NULL, st2, &err),
                          ZVP_SUCCESS);
    CU_ASSERT(st2[0] == st[0] && st2[1] == st[1]);
    for (size_t j = 0; j < no; j++)
        for (size_t q = 0; q < 3; q++) {
            double x = b[q * 2 * no + j * 2 + 1], y = b2[q * 2 * no + j * 2 + 1];
            CU_ASSERT(memcmp(&x, &y, sizeof x) == 0);     /* stable point: the same bits */
            CU_ASSERT(isnan(b2[q * 2 * no + j * 2 + 0])); /* unstable: NaN without the share */
        }
    free(b);
    zvp_model_file_free(mf);
}

/* The delta method needs the model at the centre: a status and a message, never NaN alone. */
static void test_delta(void)
{
    zvp_model_file *mf = unstable_file();
    size_t no = zvp_model_file_model(mf)->n_outputs;
    double *v = calloc(3 * no, sizeof *v), share = -1.0;
    zvp_interval_options o = zvp_interval_default_options();
    zvp_error err;
    CU_ASSERT_EQUAL(zvp_interval_eval(mf, NULL, &o, v, v + no, v + 2 * no, &share, &err),
                    ZVP_EUNSTABLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "delta method"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "7 / (2 * 3)")); /* the model names the point */
    for (size_t j = 0; j < 3 * no; j++)
        CU_ASSERT(isnan(v[j]));
    free(v);
    zvp_model_file_free(mf);
}

int zvp_test_register_interval_unstable(void)
{
    CU_pSuite s = CU_add_suite("interval_unstable", NULL, NULL);
    if (!s || !CU_add_test(s, "stable draws needed: 2 x 5 / (1 - level)", test_min_stable_draws) ||
        !CU_add_test(s, "unstable centre: bounds of the stable draws, closed-form share",
                     test_stable_part) ||
        !CU_add_test(s, "unstable centre, too few stable draws: NaN bounds", test_too_few) ||
        !CU_add_test(s, "points: unstable and stable centres, no_result NULL", test_points) ||
        !CU_add_test(s, "delta method at an unstable centre: a status", test_delta))
        return -1;
    return 0;
}
