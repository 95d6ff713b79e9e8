/* src/interval/interval_impl.h - private: the prepared interval computation shared by
 * src/interval/plan.c and interval.c, and the delta-method helpers validate.c reuses. */
#ifndef ZVMPERF_INTERVAL_IMPL_H
#define ZVMPERF_INTERVAL_IMPL_H

#include <math.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include "internal.h"
#include "zvmperf/interval.h"

#define ZVP_IV_MAX_COV 64
#define ZVP_IV_MAX_SAMPLES 100000000u

/* Quantile (1 + level) / 2 of Student's t with dof degrees of freedom; of the standard
 * normal when dof is NaN, infinite or <= 0 is not meant (NaN for dof = 0). */
double zvp_interval_quantile(double level, double dof);

/* Delta-method bounds of y: var = sum_ab g[a * stride] g[b * stride] cov[a * p + b] (NaN
 * covariance entries skipped: that parameter held fixed) + extra; y -+ q sqrt(var); NaN
 * bounds when var is not finite. */
void zvp_delta_bounds(double y, const double *g, size_t stride, const double *cov, size_t p,
                      double extra, double q, double *lo, double *hi);

/* The counter-based generator: a gsl_rng of this type is seeded per draw with
 * zvp_interval_key(seed, point, draw) (splitmix64; any 64-bit seed). */
const gsl_rng_type *zvp_interval_rng_type(void);
uint64_t zvp_interval_key(uint64_t seed, uint64_t point, uint64_t draw);

/* What every point needs, checked once. */
typedef struct zvp_iv_plan {
    const zvp_model *m;
    zvp_interval_options o;
    size_t n;                       /* parameters with covariance */
    size_t idx[ZVP_IV_MAX_COV];     /* their indices */
    double tlo[ZVP_IV_MAX_COV], thi[ZVP_IV_MAX_COV]; /* their transforms */
    double cov[ZVP_IV_MAX_COV * ZVP_IV_MAX_COV];     /* covariance of u */
    gsl_matrix *chol;               /* MC: lower Cholesky factor of cov */
    double *resvar;                 /* [n_outputs] residual variance to add (0: none) */
    int *relative;                  /* [n_outputs] */
    double q;                       /* delta: the quantile */
    size_t *rng_idx;                /* [n_ranges] parameter index of each range */
} zvp_iv_plan;

int zvp_iv_plan_make(const zvp_model_file *mf, const zvp_interval_options *opt,
                     zvp_iv_plan *pl, zvp_error *err);
void zvp_iv_plan_free(zvp_iv_plan *pl);
/* The centre u of the covariance parameters at params; ZVP_EINVAL naming a parameter
 * outside its transform's (lo, hi). */
int zvp_iv_centre(const zvp_iv_plan *pl, const double *params, double *u, zvp_error *err);

#endif
