/*
 * tests/test_fit_engine.c - the calibration engine run on fit files: recovery of a known
 * parameter, standard errors, bounds, multistart, degenerate fits, the calibrated model file
 * and the text and HDF5 reports.
 *
 * Expected values: the fits use synthetic M/M/1 data (tests/data/mm1_*.csv) computed from the
 * closed form L = rho / (1 - rho), rho = lambda/mu, with mu = 2.5/s, by /usr/bin/python3 (not
 * by the library). The noisy fit is checked against an independent
 * scipy.optimize.least_squares fit (see test_fit_noisy).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "tests.h"
#include "fit_fixtures.h"

static void test_fit_recover_exact(void)
{
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    zvp_error err;
    const double lambda[7] = {0.25, 0.5, 1.0, 1.25, 1.5, 2.0, 2.25};
    const zvp_model_file *mf;
    const char *out;
    FILE *fp;

    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("data/fit_mm1.ini", &fit, &err), ZVP_SUCCESS);
    out = zvp_fit_output_path(fit);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_STRING_EQUAL(out, "data/../tmp/mm1-calibrated.ini");
    CU_ASSERT_EQUAL_FATAL(zvp_fit_run(fit, &res, &err), ZVP_SUCCESS);

    CU_ASSERT_EQUAL(zvp_fit_result_n_free(res), 1);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_param_name(res, 0), "service_rate_per_s");
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    CU_ASSERT(zvp_fit_result_stderrs(res)[0] >= 0.0);
    CU_ASSERT(zvp_fit_result_stderrs(res)[0] < 1e-6);
    CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), 7);
    CU_ASSERT_EQUAL(zvp_fit_result_n_matched(res), 1);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_output_name(res, 0), "mean_in_system");
    CU_ASSERT(zvp_fit_result_r2(res, 0) > 1.0 - 1e-10);
    CU_ASSERT(zvp_fit_result_mape(res, 0) < 1e-4);
    CU_ASSERT(zvp_fit_result_mape_all(res) < 1e-4);
    CU_ASSERT(zvp_fit_result_rmse(res, 0) < 1e-5);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 5); /* 6 measured cells - 1 */
    CU_ASSERT(zvp_fit_result_cost(res) < 1e-12);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "r1");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 6), "r7");
    /* measured and fitted per row; r4 (row 3) is not measured */
    for (size_t i = 0; i < 7; i++)
        ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[i], zvp_test_mm1_mean_in_system(lambda[i] / MU_TRUE), 1e-5);
    CU_ASSERT(isnan(zvp_fit_result_measured(res)[3]));
    ZVP_ASSERT_REL(zvp_fit_result_measured(res)[6], 9.0, 1e-15);
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[3], 1.0, 1e-5); /* rho = 0.5 */

    /* the calibrated model file: fitted + fixed values and the standard error */
    mf = zvp_fit_result_model_file(res);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    CU_ASSERT_STRING_EQUAL(zvp_model_file_model(mf)->name, "mmc");
    CU_ASSERT_EQUAL(zvp_model_file_params((zvp_model_file *)mf)[1],
                    zvp_fit_result_estimates(res)[0]);
    CU_ASSERT_EQUAL(zvp_model_file_params((zvp_model_file *)mf)[2], 1.0);
    CU_ASSERT_EQUAL(zvp_model_file_stderr(mf, 1), zvp_fit_result_stderrs(res)[0]);
    CU_ASSERT(isnan(zvp_model_file_stderr(mf, 2)));
    /* model.h: an index >= n_params (mmc has 3) and a NULL handle give NaN / NULL */
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_model(mf)->n_params, 3);
    CU_ASSERT(isnan(zvp_model_file_stderr(mf, 3)));
    CU_ASSERT(isnan(zvp_model_file_stderr(NULL, 0)));
    CU_ASSERT_PTR_NULL(zvp_model_file_model(NULL));
    CU_ASSERT_PTR_NULL(zvp_model_file_params(NULL));
    CU_ASSERT_PTR_NULL(zvp_model_file_text(NULL));
    zvp_model_file_set_stderr(NULL, 0, 1.0); /* no-op, no crash */
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, out, &err), ZVP_SUCCESS);
    CU_ASSERT(zvp_test_file_contains(out, "fit_file"));
    CU_ASSERT(zvp_test_file_contains(out, "r2_mean_in_system"));
    CU_ASSERT(zvp_test_file_contains(out, "arrival_rate_per_s from column arrival_rate_per_s"));
    CU_ASSERT(zvp_test_file_contains(out, "fitted_at"));

    /* the text report */
    fp = fopen(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    zvp_fit_result_print(res, fp);
    fclose(fp);
    CU_ASSERT(zvp_test_file_contains(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "service_rate_per_s"));
    CU_ASSERT(zvp_test_file_contains(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "mean_in_system"));
    CU_ASSERT(zvp_test_file_contains(ZVP_TEST_TMPDIR "/fit_mm1_report.txt", "r7"));

    zvp_fit_result_free(res);
    zvp_fit_free(fit);
    zvp_fit_free(NULL);
    zvp_fit_result_free(NULL);
}

/*
 * Noisy data: independent reference from /usr/bin/python3 with scipy 1.10:
 *   least_squares(lambda m: (L(m, lam) - y) / |y|, [3.0], xtol=ftol=gtol=1e-15)
 *   -> mu = 2.50168441431541; cost = sum r^2 = 0.00352336693303156;
 *   se = sqrt(cost / (6 - 1) / sum(J^2)), J = -lam / (mu - lam)^2 / |y| (analytic)
 *   -> 0.00570616312673316.
 */
static void test_fit_noisy(void)
{
    zvp_fit_result *res = zvp_test_run_fit("data/fit_mm1_noisy.ini");
    double mu = zvp_fit_result_estimates(res)[0], se = zvp_fit_result_stderrs(res)[0];
    ZVP_ASSERT_REL(mu, 2.50168441431541, 1e-6);
    ZVP_ASSERT_REL(zvp_fit_result_cost(res), 0.00352336693303156, 1e-6);
    ZVP_ASSERT_REL(se, 0.00570616312673316, 1e-3);
    CU_ASSERT(se > 0.0);
    CU_ASSERT(fabs(mu - MU_TRUE) < 3.0 * se);
    ZVP_ASSERT_REL(zvp_fit_result_covariance(res)[0], se * se, 1e-12);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 5);
    /* Goodness of fit at the optimum, from an independent computation (/usr/bin/python3,
     * mpmath at 40 digits): mu* solves d/dmu sum ((L(mu, lam) - y)/|y|)^2 = 0 with
     * mpmath.findroot, mu* = 2.501684414343899307 (scipy's 2.50168441431541 above agrees
     * to 1e-11); then with the absolute residuals L(mu*, lam_i) - y_i:
     *   R^2 = 1 - SSres/SStot = 0.9997787104212207764 (1 - R^2 = 2.212895787792236e-4),
     *   RMSE = sqrt(SSres/6) = 0.046562702832150363427,
     *   MAPE = 100/6 sum |L - y|/|y| = 2.1094823694181258442 %.
     * An error e in mu moves these by ~10 e relative (dL/L = mu/(mu - lam) dmu/mu at
     * lam = 2.25), hence the tolerances. */
    ZVP_ASSERT_REL(mu, 2.501684414343899307, 1e-9);
    ZVP_ASSERT_REL(1.0 - zvp_fit_result_r2(res, 0), 2.212895787792236e-4, 1e-6);
    ZVP_ASSERT_REL(zvp_fit_result_r2(res, 0), 0.9997787104212207764, 1e-12);
    ZVP_ASSERT_REL(zvp_fit_result_rmse(res, 0), 0.046562702832150363427, 1e-8);
    ZVP_ASSERT_REL(zvp_fit_result_mape(res, 0), 2.1094823694181258442, 1e-8);
    ZVP_ASSERT_REL(zvp_fit_result_mape_all(res), 2.1094823694181258442, 1e-8); /* one output */
    /* one matched output: j = 1 is out of range, NaN; so is a NULL result */
    CU_ASSERT(isnan(zvp_fit_result_r2(res, 1)) && isnan(zvp_fit_result_rmse(res, 1)) &&
              isnan(zvp_fit_result_mape(res, 1)));
    CU_ASSERT(isnan(zvp_fit_result_r2(NULL, 0)) && isnan(zvp_fit_result_mape_all(NULL)));
    zvp_fit_result_free(res);
}

/* Same inputs, same output, bit for bit (the multistart draws are seeded). */
static void test_fit_deterministic(void)
{
    zvp_fit_result *a = zvp_test_run_fit("data/fit_mm1_noisy.ini");
    zvp_fit_result *b = zvp_test_run_fit("data/fit_mm1_noisy.ini");
    CU_ASSERT_EQUAL(zvp_fit_result_estimates(a)[0], zvp_fit_result_estimates(b)[0]);
    CU_ASSERT_EQUAL(zvp_fit_result_stderrs(a)[0], zvp_fit_result_stderrs(b)[0]);
    zvp_fit_result_free(a);
    zvp_fit_result_free(b);
}

static void test_fit_bounds(void)
{
    zvp_fit_result *res = zvp_test_run_fit("data/fit_mm1_bounds.ini");
    double mu = zvp_fit_result_estimates(res)[0];
    CU_ASSERT(mu >= 3.0 && mu <= 10.0);
    /* the cost falls monotonically towards the unconstrained optimum 2.5 < lo: the estimate
     * is the lower bound itself, to 1e-6 of the interval width (hi - lo = 7) */
    CU_ASSERT(fabs(mu - 3.0) <= 1e-6 * (10.0 - 3.0));
    /* at a bound the delta-method stderr would be 0: reported as NaN instead */
    CU_ASSERT(isnan(zvp_fit_result_stderrs(res)[0]));
    zvp_fit_result_free(res);
}

/* A start at mu = 0.6, where the rows with lambda >= 0.6 have no steady state: the fit must
 * not stop there (large residuals, not a GSL error) and the multistart finds mu. */
static void test_fit_unstable_start(void)
{
    char path[256];
    zvp_fit_result *res;
    zvp_test_write_fit("unstable_start",
              FIT_HEAD "starts = 8\n" FIT_FIXED "[free]\nservice_rate_per_s = 0.6, 0.5, 20\n" FIT_MATCH,
              path, sizeof path);
    res = zvp_test_run_fit(path);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], MU_TRUE, 1e-6);
    zvp_fit_result_free(res);
}

/* The starts run in parallel (src/fit/solver.c): the same fit on 1 and on 2 threads gives the
 * same estimate, standard error and cost bit for bit (the first start of the smallest cost
 * wins, whichever thread ran it); 8 starts, some of them without a steady state. */
static void test_fit_threads_identical(void)
{
    char path[256];
    zvp_fit_result *r[2];
    const int saved = omp_get_max_threads();
    zvp_test_write_fit("threads_identical",
              FIT_HEAD "starts = 8\n" FIT_FIXED "[free]\nservice_rate_per_s = 0.6, 0.5, 20\n" FIT_MATCH,
              path, sizeof path);
    for (int t = 0; t < 2; t++) {
        omp_set_num_threads(t + 1);
        r[t] = zvp_test_run_fit(path);
    }
    omp_set_num_threads(saved);
    CU_ASSERT_EQUAL(zvp_fit_result_estimates(r[0])[0], zvp_fit_result_estimates(r[1])[0]);
    CU_ASSERT_EQUAL(zvp_fit_result_cost(r[0]), zvp_fit_result_cost(r[1]));
    CU_ASSERT(zvp_fit_result_stderrs(r[0])[0] == zvp_fit_result_stderrs(r[1])[0] ||
              (isnan(zvp_fit_result_stderrs(r[0])[0]) && isnan(zvp_fit_result_stderrs(r[1])[0])));
    ZVP_ASSERT_REL(zvp_fit_result_estimates(r[1])[0], MU_TRUE, 1e-6);
    zvp_fit_result_free(r[0]);
    zvp_fit_result_free(r[1]);
}

/* Two free parameters (the GSL Jacobian hands f as a strided column of J) and as many
 * measured cells as parameters (dof = 0: no standard errors). M/M/1 closed forms:
 * throughput X = lambda, response R = 1 / (mu - lambda); X = 2/s and R = 2 s give
 * lambda = 2/s, mu = 2.5/s. */
static void test_fit_two_params_dof0(void)
{
    char path[256];
    zvp_fit_result *res;
    zvp_test_write_file(ZVP_TEST_TMPDIR "/p2.csv", "label, throughput_per_s [1/s], response_s [s]\nonly, 2, 2\n");
    zvp_test_write_fit("p2",
              "[fit]\nmodel = mmc\ndata = p2.csv\nstarts = 4\n[fixed]\nservers = 1\n"
              "[free]\narrival_rate_per_s = 1, 0.1, 10\nservice_rate_per_s = 5, 0.5, 20\n"
              "[match]\nthroughput_per_s = throughput_per_s\nresponse_s = response_s\n",
              path, sizeof path);
    res = zvp_test_run_fit(path);
    CU_ASSERT_EQUAL(zvp_fit_result_n_free(res), 2);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_param_name(res, 0), "arrival_rate_per_s");
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_param_name(res, 1), "service_rate_per_s");
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[0], 2.0, 1e-8);
    ZVP_ASSERT_REL(zvp_fit_result_estimates(res)[1], 2.5, 1e-8);
    CU_ASSERT_EQUAL(zvp_fit_result_n_matched(res), 2);
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_output_name(res, 1), "response_s");
    ZVP_ASSERT_REL(zvp_fit_result_fitted(res)[1], 2.0, 1e-8);
    CU_ASSERT_EQUAL(zvp_fit_result_dof(res), 0);
    CU_ASSERT(isnan(zvp_fit_result_stderrs(res)[0]));
    CU_ASSERT(isnan(zvp_fit_result_covariance(res)[1]));
    CU_ASSERT(isnan(zvp_fit_result_r2(res, 0))); /* one cell: SStot = 0 */
    CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, 0), "only");
    zvp_fit_result_free(res);
}

/* Bounds that keep the model unstable at row r7 for every mu: no usable start -> EFIT. */
static void test_fit_no_usable_start(void)
{
    char path[256];
    zvp_fit *fit = NULL;
    zvp_fit_result *res = (zvp_fit_result *)1;
    zvp_error err;
    zvp_test_write_fit("never_stable",
              FIT_HEAD "starts = 2\n" FIT_FIXED "[free]\nservice_rate_per_s = 1, 0.5, 2\n" FIT_MATCH,
              path, sizeof path);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read(path, &fit, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_fit_run(fit, &res, &err), ZVP_EFIT);
    CU_ASSERT_PTR_NULL(res);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "row"));
    zvp_fit_free(fit);
}

static void test_fit_write_h5(void)
{
    const char *path = ZVP_TEST_TMPDIR "/fit_mm1.h5";
    zvp_fit_result *res = zvp_test_run_fit("data/fit_mm1.ini");
    size_t rows = zvp_fit_result_n_rows(res), nm = zvp_fit_result_n_matched(res);
    double est[1] = {NAN}, resid[16];
    hsize_t dims[2] = {0, 0};
    H5T_class_t cls;
    size_t tsize;
    hid_t f;
    zvp_error err;
    /* The writer must leave HDF5's process-wide automatic error printing as it found it. */
    H5E_auto2_t auto0, auto1;
    void *auto0_data, *auto1_data;
    CU_ASSERT_FATAL(H5Eget_auto2(H5E_DEFAULT, &auto0, &auto0_data) >= 0);
    CU_ASSERT_FATAL(H5Eset_auto2(H5E_DEFAULT, (H5E_auto2_t)H5Eprint2, stderr) >= 0);

    CU_ASSERT_EQUAL_FATAL(zvp_fit_result_write_h5(res, path, &err), ZVP_SUCCESS);
    CU_ASSERT_FATAL(rows * nm <= 16);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    CU_ASSERT(H5LTread_dataset_double(f, "/estimate", est) >= 0);
    CU_ASSERT_EQUAL(est[0], zvp_fit_result_estimates(res)[0]);
    CU_ASSERT(H5LTget_dataset_info(f, "/residual", dims, &cls, &tsize) >= 0);
    CU_ASSERT_EQUAL(dims[0], rows);
    CU_ASSERT_EQUAL(dims[1], nm);
    CU_ASSERT(H5LTread_dataset_double(f, "/residual", resid) >= 0);
    for (size_t i = 0; i < rows * nm; i++) {
        double y = zvp_fit_result_measured(res)[i], fv = zvp_fit_result_fitted(res)[i];
        if (isnan(y)) {
            CU_ASSERT(isnan(resid[i]));
        } else {
            CU_ASSERT_EQUAL(resid[i], fv - y);
        }
    }
    H5Fclose(f);

    /* a directory that does not exist: EIO naming the path */
    CU_ASSERT_EQUAL(zvp_fit_result_write_h5(res, ZVP_TEST_TMPDIR "/no/such/dir/x.h5", &err),
                    ZVP_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no/such/dir/x.h5"));
    CU_ASSERT(H5Eget_auto2(H5E_DEFAULT, &auto1, &auto1_data) >= 0);
    CU_ASSERT(auto1 == (H5E_auto2_t)H5Eprint2 && auto1_data == (void *)stderr);
    H5Eset_auto2(H5E_DEFAULT, auto0, auto0_data);
    zvp_fit_result_free(res);
}

int zvp_test_register_fit_engine(void)
{
    CU_pSuite s = CU_add_suite("fit_engine", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "fit_recover_exact", test_fit_recover_exact) ||
        !CU_add_test(s, "fit_noisy", test_fit_noisy) ||
        !CU_add_test(s, "fit_deterministic", test_fit_deterministic) ||
        !CU_add_test(s, "fit_bounds", test_fit_bounds) ||
        !CU_add_test(s, "fit_unstable_start", test_fit_unstable_start) ||
        !CU_add_test(s, "fit_threads_identical", test_fit_threads_identical) ||
        !CU_add_test(s, "fit_no_usable_start", test_fit_no_usable_start) ||
        !CU_add_test(s, "fit_two_params_dof0", test_fit_two_params_dof0) ||
        !CU_add_test(s, "fit_write_h5", test_fit_write_h5))
        return (int)CU_get_error();
    return 0;
}
