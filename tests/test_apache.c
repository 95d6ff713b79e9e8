/* tests/test_apache.c - Apache Scaling model (models/apache.c; report 000 Tables 2, 6, 7).
 * Expected values: closed forms (ITR = N / D, T/V = D / e), the published rows of Tables 6 and 7,
 * and an independent computation by a short /usr/bin/python3 script that solves the same
 * network as a finite-source M/M/c//N birth-death chain (machine repairman, Kleinrock 1975
 * sec. 3.9) instead of MVA (noted at each test). The withheld 32-core column is not used. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define DATA "../calibration/data/"
#define PARAMS "../calibration/params/"

enum { CORES, STORAGE, CLIENTS, SPC, EMUL, ALPHA, CP, SIZE, Z0, Z1, NP };

static const zvp_model *model(void) { return zvp_test_model("apache", NP); }

/* Independent values from the repairman chain (python script, /tmp/apind.py during
 * development: birth rates (N-k)/Z, death rates min(k,c)/D, probabilities in log space;
 * X = E[min(k,c)]/D, busy = X D / c), at the closed-form D and Z:
 *   (a) defaults: 8 cores, 512 GB, 24 sessions: D = 2.3 (1 + 0.02 x 7) + 0.9 + 0.03 x 7 x 0.5
 *       = 3.627 ms, Z = 3 + 0.5 x 8 = 7 ms -> X = 2051.360478, busy = 93.003556 %.
 *   (b) 24 cores, 1536 GB, 72 sessions: D = 5.293 ms, Z = 15 ms -> X = 3536.860351,
 *       busy = 78.002508 %.
 *   (c) 4 cores, 256 GB (Table 2's 64 GB per core), 1 client x 5 sessions, emul 1, alpha 0.1,
 *       cp 0.5, size 0.2, think 2 + 0.25/core: D = 1.3 + 0.5 + 0.2 x 3 x 256/1024 = 1.95 ms,
 *       Z = 3 ms, 5 sessions -> X = 1007.710872, busy = 49.125905 %. */
static void test_apache_independent_repairman(void)
{
    const zvp_model *m = model();
    double out[16];
    double pa[NP] = {8, 512, 0, 6, 2.3, 0.02, 0.9, 0.03, 3, 0.5};
    double pb[NP] = {24, 1536, 0, 6, 2.3, 0.02, 0.9, 0.03, 3, 0.5};
    double pc[NP] = {4, 256, 1, 5, 1.0, 0.1, 0.5, 0.2, 2, 0.25};
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, pa, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "etr"), 2051.360478, 1e-8);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "busy_per_cpu_pct"), 93.003556, 1e-8);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "cpu_per_tx_ms"), 3.627, 1e-12);
    CU_ASSERT_EQUAL(zvp_test_output(m, out, "sessions"), 24.0);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, pb, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "etr"), 3536.860351, 1e-8);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "busy_per_cpu_pct"), 78.002508, 1e-8);
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, pc, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "etr"), 1007.710872, 1e-8);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "busy_per_cpu_pct"), 49.125905, 1e-8);
    CU_ASSERT_EQUAL(zvp_test_output(m, out, "sessions"), 5.0);
}

/* Closed forms: ITR = N / D, T/V = D / e, emulation + CP busy = busy, think = Z, and the
 * utilization law ITR = ETR / (busy/100). Case (a) above: ITR = 8 / 3.627e-3 = 2205.6796...,
 * T/V = 3.627 / 2.622 = 1.383295...; with alpha = spin = 0 ITR scales linearly (no loss). */
static void test_apache_closed_forms(void)
{
    const zvp_model *m = model();
    double out[16], p[NP] = {8, 512, 0, 6, 2.3, 0.02, 0.9, 0.03, 3, 0.5};
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "itr"), 8.0 / 3.627e-3, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "tv_ratio"), 3.627 / 2.622, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "itr"),
                   zvp_test_output(m, out, "etr") / (zvp_test_output(m, out, "busy_per_cpu_pct") / 100.0), 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "emul_busy_per_cpu_pct") + zvp_test_output(m, out, "cp_busy_per_cpu_pct"),
                   zvp_test_output(m, out, "busy_per_cpu_pct"), 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "think_ms"), 7.0, 1e-12);
    /* no contention: ITR per core = 1 / (emul + cp) at every core count */
    p[ALPHA] = 0;
    p[SIZE] = 0;
    p[STORAGE] = 0; /* 64 GB per core (Table 2) */
    for (double n = 1; n <= 32; n *= 2) {
        p[CORES] = n;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        ZVP_ASSERT_REL(zvp_test_output(m, out, "itr"), n / 3.2e-3, 1e-12);
        ZVP_ASSERT_REL(zvp_test_output(m, out, "tv_ratio"), 3.2 / 2.3, 1e-12);
    }
}

/* Mechanism invariants: more sessions never lower ETR or busy (closed network); ETR within the
 * MVA asymptotic bounds X <= min(N/D, sessions/(D + Z)) (src/queue/README.md, exact MVA);
 * busy <= 100. */
static void test_apache_invariants(void)
{
    const zvp_model *m = model();
    double p[NP] = {16, 1024, 0, 6, 2.0, 0.05, 0.9, 0.03, 3.5, 0.47}, out[16];
    double prev_etr = 0, prev_busy = 0;
    for (double c = 1; c <= 64; c++) {
        p[CLIENTS] = c;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        double etr = zvp_test_output(m, out, "etr"), busy = zvp_test_output(m, out, "busy_per_cpu_pct");
        double d = zvp_test_output(m, out, "cpu_per_tx_ms") * 1e-3, z = zvp_test_output(m, out, "think_ms") * 1e-3;
        CU_ASSERT(etr >= prev_etr * (1 - 1e-12));
        CU_ASSERT(busy >= prev_busy * (1 - 1e-12));
        CU_ASSERT(busy <= 100.0);
        CU_ASSERT(etr <= 16.0 / d * (1 + 1e-12));
        CU_ASSERT(etr <= 6.0 * c / (d + z) * (1 + 1e-12));
        prev_etr = etr;
        prev_busy = busy;
    }
}

/* Cores and storage grow together in Table 2 (64 GB per core), so the model has one size
 * effect: storage_gb = 0 and storage_gb = 64 x cores give the same outputs bit for bit, and any
 * other storage is refused with a message naming storage_gb, its value and the allowed value
 * (a storage effect at fixed cores is not in the data). */
static void test_apache_storage_tied_to_cores(void)
{
    const zvp_model *m = model();
    double p[NP] = {16, 0, 0, 6, 2.0, 0.05, 0.9, 0.03, 3.5, 0.47}, a[16], b[16];
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, a, NULL), ZVP_SUCCESS);
    p[STORAGE] = 1024;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, b, NULL), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(memcmp(a, b, m->n_outputs * sizeof a[0]), 0);
    static const double off[] = {512, 1023, 1025, 2048};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        char v[32];
        p[STORAGE] = off[i];
        snprintf(v, sizeof v, "%.0f", off[i]);
        zvp_test_expect_eval_error(m, p, b, ZVP_EINVAL, "storage_gb", v, "1024", "Table 2", NULL);
        CU_ASSERT(isnan(b[0]));
    }
}

/* Bounded extrapolation along Table 2's line, with the calibrated files: a sweep of cores 1..256
 * is answered for 1..32 (storage up to 2048 GB, the z/VM 6.4 maximum; report 000) and refused
 * above with a message naming cores and [1, 32]. Where answered: busy in [0, 100], ETR never
 * above the CPUs' capacity N/D nor the sessions' bound sessions/(D + Z) (exact-MVA asymptotic
 * bounds), ITR = N/D; CPU per transaction, its emulation and its CP part are nondecreasing in
 * the cores (the mechanism: contention and the size term only add work per transaction). */
static void check_line(const char *params_file)
{
    zvp_model_file *mf = NULL;
    zvp_error err = {0};
    double p[NP], out[16], prev_d = 0, prev_e = 0, prev_c = 0;
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(params_file, &mf, &err), ZVP_SUCCESS);
    const zvp_model *m = zvp_model_file_model(mf);
    for (double n = 1; n <= 256; n++) {
        memcpy(p, zvp_model_file_params(mf), sizeof p);
        p[CORES] = n;
        if (n > 32) {
            char v[32];
            snprintf(v, sizeof v, "%.0f", n);
            zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, "cores", v, "[1, 32]", NULL);
            continue;
        }
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, &err), ZVP_SUCCESS);
        double etr = zvp_test_output(m, out, "etr");
        double busy = zvp_test_output(m, out, "busy_per_cpu_pct");
        double d = zvp_test_output(m, out, "cpu_per_tx_ms") * 1e-3;
        double z = zvp_test_output(m, out, "think_ms") * 1e-3;
        double sessions = zvp_test_output(m, out, "sessions");
        double tv = zvp_test_output(m, out, "tv_ratio");
        double e = d / tv, c = d - e;
        CU_ASSERT(busy >= 0 && busy <= 100.0);
        CU_ASSERT(etr > 0 && etr <= n / d * (1 + 1e-12));
        CU_ASSERT(etr <= sessions / (d + z) * (1 + 1e-12));
        ZVP_ASSERT_REL(zvp_test_output(m, out, "itr"), n / d, 1e-12);
        CU_ASSERT(d >= prev_d * (1 - 1e-12));
        CU_ASSERT(e >= prev_e * (1 - 1e-9) && c >= prev_c * (1 - 1e-9));
        prev_d = d;
        prev_e = e;
        prev_c = c;
    }
    zvp_model_file_free(mf);
}

static void test_apache_line_zvm63(void) { check_line(PARAMS "apache-zvm63.ini"); }
static void test_apache_line_zvm64(void) { check_line(PARAMS "apache-zvm64.ini"); }

/* The committed calibrated files reproduce the printed rows (8, 16, 24 cores) of Tables 6
 * and 7 (configuration from Table 2). Tolerances we state, per output: the largest relative
 * error at any row and the MAPE over the rows.
 * z/VM 6.3 (6 parameters on 9 independent numbers): ETR and ITR 3 % per row, 2 % MAPE; busy
 * and T/V 1.5 % per row, 1 % MAPE, close to the fit's own residuals (at most 1.0 %), so they
 * guard the committed file against drift rather than measure the model.
 * z/VM 6.4: NOTHING is fitted to Table 7 (the 6.4 file is the Table 6 calibration: 6.4 = the
 * 6.3 workload plus nothing), so this checks a prediction; the bounds come from the report's own
 * scatter between runs it calls equal: Table 5's Sweet Spot ETR deltas reach 4.8 % where the text
 * says "ETR was relatively the same", so ETR and ITR 5 % per row, 3 % MAPE; Table 8 calls a 1.2 %
 * busy delta a "small variation", and T/V is printed to 2 decimals (0.7 % at 1.36), so busy and
 * T/V 2.5 % per row, 1.5 % MAPE. The other test of prediction is the withheld 32-core column,
 * which no test uses, and `zvmperf validate` (models/README.md, apache).
 * test uses, and `zvmperf validate` (models/README.md, apache). */
typedef struct {
    const char *name;
    double max_rel, mape;
} release_tol;

static const release_tol tol63[] = {{"etr", 0.03, 2.0}, {"itr", 0.03, 2.0},
                                    {"busy_per_cpu_pct", 0.015, 1.0}, {"tv_ratio", 0.015, 1.0}};
static const release_tol tol64[] = {{"etr", 0.05, 3.0}, {"itr", 0.05, 3.0},
                                    {"busy_per_cpu_pct", 0.025, 1.5}, {"tv_ratio", 0.025, 1.5}};

static void check_release(const char *params_file, const char *results_csv, const release_tol *tol)
{
    zvp_error err = {0};
    zvp_model_file *mf = NULL;
    zvp_table *res = NULL, *cfg = NULL;
    double out[16], p[NP];
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(params_file, &mf, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_table_read(results_csv, &res, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_table_read(DATA "000_table2_apache_config.csv", &cfg, &err),
                          ZVP_SUCCESS);
    const zvp_model *m = zvp_model_file_model(mf);
    CU_ASSERT_STRING_EQUAL_FATAL(m->name, "apache");
    size_t rows = zvp_table_rows(res);
    CU_ASSERT_EQUAL_FATAL(rows, 3); /* the 32-core column is withheld */
    long c_cores = zvp_table_col_index(res, "cpus", &err);
    long c_storage = zvp_table_col_index(res, "storage_gb", &err);
    long k_storage = zvp_table_col_index(cfg, "storage_gb", &err);
    long k_clients = zvp_table_col_index(cfg, "awm_clients", &err);
    CU_ASSERT_FATAL(c_cores >= 0 && c_storage >= 0 && k_storage >= 0 && k_clients >= 0);
    zvp_test_rel_error fit_err[4] = {{0}};
    for (size_t i = 0; i < rows; i++) {
        double storage = zvp_table_value(res, i, (size_t)c_storage);
        size_t r = zvp_test_row_where(cfg, k_storage, storage);
        memcpy(p, zvp_model_file_params(mf), sizeof p);
        p[CORES] = zvp_table_value(res, i, (size_t)c_cores);
        p[STORAGE] = storage;
        p[CLIENTS] = zvp_table_value(cfg, r, (size_t)k_clients);
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, &err), ZVP_SUCCESS);
        for (size_t t = 0; t < 4; t++) {
            long c = zvp_table_col_index(res, tol[t].name, &err);
            CU_ASSERT_FATAL(c >= 0);
            double meas = zvp_table_value(res, i, (size_t)c);
            zvp_test_rel_error_add(&fit_err[t], fabs(zvp_test_output(m, out, tol[t].name) - meas) / meas);
        }
    }
    for (size_t t = 0; t < 4; t++)
        zvp_test_rel_error_check(&fit_err[t], tol[t].max_rel, tol[t].mape, params_file, tol[t].name);
    zvp_table_free(res);
    zvp_table_free(cfg);
    zvp_model_file_free(mf);
}

static void test_apache_calibrated_zvm63(void)
{
    check_release(PARAMS "apache-zvm63.ini", DATA "000_table6_apache_zvm63.csv", tol63);
}

static void test_apache_calibrated_zvm64(void)
{
    check_release(PARAMS "apache-zvm64.ini", DATA "000_table7_apache_zvm64.csv", tol64);
}

/* z/VM 6.4 = the 6.3 workload plus nothing: the two calibrated files hold the same parameters,
 * bit for bit (both are the Table 6 fit; calibration/fits/apache-zvm64.ini says why report 000's
 * Table 8 identifies no release term). A refit that lets them drift apart would turn the claims'
 * 6.4-over-6.3 deltas from 0 into fit noise, which this catches. */
static void test_apache_no_release_parameter(void)
{
    zvp_model_file *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(PARAMS "apache-zvm63.ini", &a, NULL), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(PARAMS "apache-zvm64.ini", &b, NULL), ZVP_SUCCESS);
    const double *pa = zvp_model_file_params(a), *pb = zvp_model_file_params(b);
    for (int i = 0; i < NP; i++)
        CU_ASSERT_EQUAL(pb[i], pa[i]);
    zvp_model_file_free(a);
    zvp_model_file_free(b);
}

static void test_apache_bad_input(void)
{
    const zvp_model *m = model();
    double out[16], p[NP];
    zvp_model_defaults(m, p);
    p[CORES] = 8.5;
    zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, "cores", "8.5", "[1, 32]", NULL);
    CU_ASSERT(isnan(out[0]));
    zvp_model_defaults(m, p);
    p[CORES] = 0;
    zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, "cores", NULL);
    zvp_model_defaults(m, p);
    p[CLIENTS] = 2.25;
    zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, "awm_clients", "2.25", NULL);
    zvp_model_defaults(m, p);
    p[ALPHA] = -0.1;
    zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, "alpha", NULL);
    zvp_model_defaults(m, p);
    p[STORAGE] = NAN;
    zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, "storage_gb", NULL);
}

int zvp_test_register_apache(void)
{
    CU_pSuite s = CU_add_suite("apache", NULL, NULL);
    if (!s)
        return CU_get_error();
    if (!CU_add_test(s, "independent repairman values", test_apache_independent_repairman) ||
        !CU_add_test(s, "closed forms", test_apache_closed_forms) ||
        !CU_add_test(s, "invariants", test_apache_invariants) ||
        !CU_add_test(s, "storage tied to cores (Table 2)", test_apache_storage_tied_to_cores) ||
        !CU_add_test(s, "z/VM 6.3 file along Table 2's line, cores 1..256", test_apache_line_zvm63) ||
        !CU_add_test(s, "z/VM 6.4 file along Table 2's line, cores 1..256", test_apache_line_zvm64) ||
        !CU_add_test(s, "calibrated z/VM 6.3 reproduces Table 6", test_apache_calibrated_zvm63) ||
        !CU_add_test(s, "z/VM 6.3 calibration predicts Table 7", test_apache_calibrated_zvm64) ||
        !CU_add_test(s, "6.4 = 6.3 workload, no release parameter", test_apache_no_release_parameter) ||
        !CU_add_test(s, "bad input", test_apache_bad_input))
        return CU_get_error();
    return 0;
}
