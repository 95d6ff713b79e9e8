/*
 * zvmperf/interval.h - a calibrated model file evaluated with an interval on every output:
 * delta method or Monte Carlo over the covariance of the fitted parameters (the file's
 * [transform] and [covariance]), as a prediction interval (plus the output's residual
 * variance) or a confidence interval. Method, seeding and limits: src/interval/README.md.
 * Source: Seber & Wild, "Nonlinear Regression", Wiley 1989, sec. 5.1 (linearisation);
 * GSL manual, "Random Number Distributions", gsl_ran_multivariate_gaussian.
 */
#ifndef ZVMPERF_INTERVAL_H
#define ZVMPERF_INTERVAL_H

#include <stddef.h>
#include <stdint.h>
#include "modelfile.h"
#include "sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { ZVP_INTERVAL_DELTA = 0, ZVP_INTERVAL_MC = 1 };

/* An uncalibrated input sampled uniformly in [lo, hi] (Monte Carlo only; an integer
 * parameter takes whole values lo..hi with equal weight, and both ends must be whole:
 * ZVP_EINVAL naming the range otherwise). */
typedef struct zvp_interval_range {
    const char *name; /* a parameter of the model without a covariance entry */
    double lo, hi;    /* lo < hi, within the parameter's [min, max]; whole for an integer one */
} zvp_interval_range;

/* Options (fill with zvp_interval_default_options, then change fields). */
typedef struct zvp_interval_options {
    double level;       /* (0, 1); default 0.9 */
    int method;         /* ZVP_INTERVAL_DELTA (default) or ZVP_INTERVAL_MC */
    int prediction;     /* 1 (default): add the output's residual variance; 0: confidence */
    size_t samples;     /* Monte Carlo draws, [2, 10^8]; default 1000 */
    uint64_t seed;      /* Monte Carlo seed; default 1 */
    int threads;        /* OpenMP threads, [0, 1024]; 0: the OpenMP default */
    const zvp_interval_range *ranges; /* [n_ranges], may be NULL when n_ranges = 0 */
    size_t n_ranges;
} zvp_interval_options;

/* Monte Carlo at a point whose centre (value) has no steady state: the bounds come from the
 * draws that have one only when at least zvp_interval_min_stable_draws(level) draws do, so
 * that each empirical quantile has ZVP_INTERVAL_MIN_TAIL_DRAWS stable draws beyond it. */
#define ZVP_INTERVAL_MIN_TAIL_DRAWS 5

/** zvp_interval_min_stable_draws - ceil(2 ZVP_INTERVAL_MIN_TAIL_DRAWS / (1 - level)): the
 *  stable draws a Monte Carlo point without a steady state at its centre needs for bounds
 *  (level 0.9: 100; 0.95: 200; 0.99: 1000). 0 for a level outside (0, 1). */
size_t zvp_interval_min_stable_draws(double level);

/** zvp_interval_default_options - level 0.9, delta, prediction, 1000 samples, seed 1,
 *  threads 0, no ranges. */
zvp_interval_options zvp_interval_default_options(void);

/**
 * zvp_interval_eval - the outputs of mf's model at params with an interval each.
 * value: the model at params; lo, hi: the bounds. Delta: y -+ q sqrt(g^T S g (+ s2)), g the
 * gradient w.r.t. the fitted u by central differences, S the file's covariance of u, s2 the
 * residual variance (relative: s2 y^2), q Student-t with the file's dof_effective (normal
 * when unknown). MC: `samples` draws u ~ N(u(params), S) (Cholesky of S), each seeded from
 * (seed, point 0, draw index) so results do not depend on threads, mapped back through the
 * logistic transform, ranges drawn uniformly, plus the residual scatter N(0, s2) for a
 * prediction; empirical quantiles (1 -+ level) / 2 of the draws with a model result.
 * An output without a residual variance (not matched by the fit) gets the parameter part
 * only. Fitted parameters without covariance (at a bound) are held at their value.
 * @param params    [n_params], or NULL: the file's parameters.
 * @param value, lo, hi  [n_outputs] each; NaN where undefined, and lo/hi NaN for a
 *                   whole-number output (descriptor `integer`) under the delta method: the
 *                   derivative of a step function is 0 almost everywhere, so the method
 *                   has no interval for it (Monte Carlo has).
 * @param no_result  may be NULL: share (0..1) of the MC draws without a model result (no
 *                   steady state); 0 for delta.
 * No steady state at params (the centre; e.g. the middle of the ranges): the value is NaN
 * and the return is ZVP_EUNSTABLE with the model's message and what the interval did there.
 * Monte Carlo with no_result not NULL still takes the draws (same seeds as anywhere else):
 * *no_result is their share without a steady state and lo, hi are the quantiles of the
 * stable draws, conditional on a steady state, when at least
 * zvp_interval_min_stable_draws(level) draws are stable, else NaN (the message gives the
 * count). With no_result NULL, or the delta method (it needs the model at the centre for
 * its derivatives), lo and hi are NaN.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL, an option out of range naming it, no covariance in
 *         the file ("intervals undefined": a saturated or uncalibrated file), ranges with
 *         the delta method, a range of an unknown or fitted parameter, a fitted parameter
 *         outside its transform's (lo, hi)); ZVP_EUNSTABLE (above); the model's other status
 *         when params do not evaluate (outputs NaN); ZVP_ENOMEM.
 */
int zvp_interval_eval(const zvp_model_file *mf, const double *params,
                      const zvp_interval_options *opt, double *value, double *lo, double *hi,
                      double *no_result, zvp_error *err);

/**
 * zvp_interval_points - zvp_interval_eval at n_points points (the base vector with n_vary
 * parameters replaced, as zvp_eval_points), in parallel over the points; point i is seeded
 * as point index first_index + i, so a grid computed in slices gives the same numbers.
 * @param value, lo, hi  [n_outputs * n_points] OUTPUT-MAJOR (x[j * n_points + i]).
 * @param no_result      [n_points] or NULL; status [n_points] ZVP_POINT_* of the value.
 *                       A point whose value has no steady state has ZVP_POINT_UNSTABLE and
 *                       value NaN; under Monte Carlo with no_result given, its lo, hi and
 *                       no_result are as zvp_interval_eval's there (bounds of the stable
 *                       draws when there are enough, else NaN); otherwise NaN.
 * @return as zvp_interval_eval for the arguments; points that fail have their status and
 *         NaN (ZVP_SUCCESS); ZVP_ENOMEM.
 */
int zvp_interval_points(const zvp_model_file *mf, const double *base_params,
                        uint64_t first_index, size_t n_points, size_t n_vary,
                        const size_t *vary_index, const double *vary_values,
                        const zvp_interval_options *opt, double *value, double *lo, double *hi,
                        double *no_result, uint8_t *status, zvp_error *err);

/**
 * zvp_interval_grid - zvp_interval_points over the flat points [first, first + count) of
 * the axes' Cartesian product (C order, as zvp_eval_grid); point index = flat index.
 * @return as zvp_interval_points; ZVP_ENOTFOUND / ZVP_EINVAL for axes as zvp_eval_grid.
 */
int zvp_interval_grid(const zvp_model_file *mf, const double *base_params,
                      const zvp_axis *axes, size_t n_axes, uint64_t first, uint64_t count,
                      const zvp_interval_options *opt, double *value, double *lo, double *hi,
                      double *no_result, uint8_t *status, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_INTERVAL_H */
