/*
 * tests/test_usl.c - the Universal Scalability Law: values, peak, and the least-squares fit
 * (zvp_usl_*).
 *
 * Independent reference (typed in from a /usr/bin/python3 script, not from this code):
 * --- usl.py (numpy + scipy.optimize.curve_fit, method 'lm', unbounded) --------------------
 *   n = [1,2,4,8,16,32,48,64], x = usl(n, 100, 0.05, 0.0005) * (1 + noise),
 *   noise = [.01,-.015,.02,-.01,.005,.012,-.02,.008]:
 *   gamma, alpha, beta = 100.18038717608621, 0.04975437731042141, 0.00050998745659178
 *   standard errors    = 3.101032898084993, 0.004452499475053348, 4.2800805907637225e-05
 *   peak sqrt((1-alpha)/beta) = 43.165640713320485
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/queue.h"

/* ---- USL ------------------------------------------------------------------------------------ */

static void test_usl(void)
{
    zvp_error e;
    double x, np, xp;
    /* closed forms: X(1) = gamma; beta = 0 is Amdahl: X(N) = gamma N/(1 + alpha (N-1)) */
    CU_ASSERT_EQUAL(zvp_usl_eval(1.0, 7.0, 0.3, 0.01, &x, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(x, 7.0, 1e-15);
    CU_ASSERT_EQUAL(zvp_usl_eval(10.0, 2.0, 0.1, 0.0, &x, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(x, 20.0 / 1.9, 1e-15);
    CU_ASSERT_EQUAL(zvp_usl_peak(1.0, 0.05, 0.0005, &np, &xp, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(np, sqrt(0.95 / 0.0005), 1e-15);
    CU_ASSERT_EQUAL(zvp_usl_peak(1.0, 0.05, 0.0, &np, &xp, &e), ZVP_SUCCESS);
    CU_ASSERT(isinf(np));
    ZVP_ASSERT_REL(xp, 20.0, 1e-15);
    CU_ASSERT_EQUAL(zvp_usl_eval(4.0, 1.0, -0.1, 0.0, &x, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "alpha = -0.1"));
    /* fit: noiseless data recovers the parameters */
    const double n[8] = {1, 2, 4, 8, 16, 32, 48, 64};
    double y[8];
    for (int i = 0; i < 8; i++)
        zvp_usl_eval(n[i], 100.0, 0.05, 0.0005, &y[i], NULL);
    zvp_usl_fit_result f;
    CU_ASSERT_EQUAL_FATAL(zvp_usl_fit(n, y, 8, &f, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(f.gamma, 100.0, 1e-8);
    ZVP_ASSERT_REL(f.alpha, 0.05, 1e-7);
    ZVP_ASSERT_REL(f.beta, 0.0005, 1e-7);
    /* noisy data: usl.py (scipy curve_fit, unbounded; the optimum is interior) */
    const double yn[8] = {101.0, 187.44053282588013, 352.94117647058823, 574.7460087082728,
                          859.893048128342, 1063.1648063033488, 1050.4689593568557,
                          1046.2536490431396};
    CU_ASSERT_EQUAL_FATAL(zvp_usl_fit(n, yn, 8, &f, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(f.gamma, 100.18038717608621, 1e-6);
    ZVP_ASSERT_REL(f.alpha, 0.04975437731042141, 1e-5);
    ZVP_ASSERT_REL(f.beta, 0.00050998745659178, 1e-5);
    ZVP_ASSERT_REL(f.gamma_se, 3.101032898084993, 1e-4);
    ZVP_ASSERT_REL(f.alpha_se, 0.004452499475053348, 1e-4);
    ZVP_ASSERT_REL(f.beta_se, 4.2800805907637225e-05, 1e-4);
    ZVP_ASSERT_REL(f.n_peak, 43.165640713320485, 1e-5);
    /* data that want alpha < 0 (superlinear) are held at alpha = 0 */
    double ys[8];
    for (int i = 0; i < 8; i++)
        ys[i] = n[i] * (1.0 + 0.002 * n[i]);
    CU_ASSERT_EQUAL_FATAL(zvp_usl_fit(n, ys, 8, &f, &e), ZVP_SUCCESS);
    CU_ASSERT(f.alpha >= 0.0 && f.beta >= 0.0 && f.alpha < 1e-6 && f.beta < 1e-6);
    CU_ASSERT_EQUAL(zvp_usl_fit(n, y, 2, &f, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "len = 2") && zvp_test_msg_has(&e, "at least 3 points"));
    y[3] = -1.0;
    CU_ASSERT_EQUAL(zvp_usl_fit(n, y, 8, &f, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "x[3] = -1"));
}

static void test_usl_unidentifiable(void)
{
    zvp_error e;
    zvp_usl_fit_result f;
    /* One distinct n: X(1) = gamma for every alpha, beta; two distinct n leave a curve of
     * (alpha, beta). Both must fail as bad input, never return start values with se = 0. */
    const double n1[3] = {1, 1, 1}, x1[3] = {1, 1, 1};
    zvp_error_clear(&e);
    CU_ASSERT_EQUAL(zvp_usl_fit(n1, x1, 3, &f, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "distinct"));
    CU_ASSERT(isnan(f.alpha_se) && isnan(f.beta_se));
    const double n2[4] = {1, 2, 2, 2}, x2[4] = {1, 1.8, 1.8, 1.8};
    CU_ASSERT_EQUAL(zvp_usl_fit(n2, x2, 4, &f, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "2 distinct"));
    /* Three points, three parameters: an exact fit (alpha = 1/9, beta = 0 reproduces
     * X(1) = 1, X(2) = 1.8, X(4) = 3 by hand: 2/(1 + 1/9) = 1.8, 4/(1 + 3/9) = 3), but no
     * residual degree of freedom: the standard errors are NaN, not 0. */
    const double n3[3] = {1, 2, 4}, x3[3] = {1, 1.8, 3};
    CU_ASSERT_EQUAL_FATAL(zvp_usl_fit(n3, x3, 3, &f, &e), ZVP_SUCCESS);
    ZVP_ASSERT_REL(f.gamma, 1.0, 1e-8);
    CU_ASSERT_DOUBLE_EQUAL(f.alpha, 1.0 / 9.0, 1e-7);
    CU_ASSERT(f.beta < 1e-8);
    CU_ASSERT(isnan(f.gamma_se) && isnan(f.alpha_se) && isnan(f.beta_se));
    /* Too many points. */
    CU_ASSERT_EQUAL(zvp_usl_fit(n3, x3, (size_t)ZVP_USL_MAX_POINTS + 1, &f, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "ZVP_USL_MAX_POINTS"));
}

/* Work limits: no input may make a kernel run for minutes. Each case below ran for minutes
 * (or tens of seconds) before the limit check and must now fail at once with ZVP_EINVAL. */
int zvp_test_register_usl(void)
{
    CU_pSuite s = CU_add_suite("usl", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "usl", test_usl) ||
        !CU_add_test(s, "usl_unidentifiable", test_usl_unidentifiable))
        return (int)CU_get_error();
    return 0;
}
