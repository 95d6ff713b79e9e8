/* tests/test_dump.c - dump write-rate model (models/dump.c, models/README.md, dump) and its four
 * calibrated files against report 003 (System Dump Improvements), Tables 2-4 and the report's
 * summary claims. Expected values: closed forms worked by hand, an independent summation
 * (the geometric run-length mean), and the transcribed CSVs in calibration/data. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define DATA "../calibration/data/"
#define PARAMS "../calibration/params/"
#define FITS "../calibration/fits/"

enum { FRAMES, FT, VOL, BMAX, CHAIN, RUN, T0, TF, XFT, NP };

static const zvp_model *model(void) { return zvp_test_model("dump", NP); }

/* E[min(L, B)] for geometric runs (mean m = 4, p = 0.75, B = 10), by direct summation of
 * sum_j min(j, B) p^(j-1) (1 - p) (independent of the closed form the model uses); then the
 * rate by renewal-reward: volumes E[b] / (t0 + E[b] t_f). */
static void test_run_length_and_rate(void)
{
    const zvp_model *m = model();
    double p[NP] = {1000, 0, 3, 10, 0, 4, 1.0, 0.1, 0}, out[8];
    double eb = 0, pj = 1;
    for (int j = 1; j < 5000; j++, pj *= 0.75)
        eb += (j < 10 ? j : 10) * pj * 0.25;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "frames_per_io"), eb, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 3.0 * eb / (1e-3 + eb * 1e-4), 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "io_time_ms"), 1.0 + eb * 0.1, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 1000.0 / zvp_test_output(m, out, "rate_frames_per_s"),
                   1e-12);
}

/* Mixed contiguity, by hand: f = 0.5, B = 10, isolated other frames (m = 1), t0 = 1 ms,
 * t_f = 0.1 ms, 2 volumes: I/Os per frame n = 0.5/10 + 0.5/1 = 0.55, device time per frame
 * 0.55 + 0.1 = 0.65 ms, over 2 volumes 0.325 ms: rate = 3076.923... frames/s, E[b] = 1/0.55.
 * With one extra single-frame I/O per frame-table frame (x = 1): n' = 1.05, device time
 * 1.05 x 1 + 0.1 x 1.5 = 1.2 ms per frame, rate = 2 / 1.2e-3 = 1666.67 frames/s.
 * Chaining non-contiguous frames (ECKD 6.3): n = 1/10, 0.2 ms per frame, rate 10000/s. */
static void test_closed_forms(void)
{
    const zvp_model *m = model();
    double p[NP] = {2e6, 50, 2, 10, 0, 1, 1.0, 0.1, 0}, out[8];
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 2.0 / 0.65e-3, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "frames_per_io"), 1.0 / 0.55, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 2e6 * 0.325e-3, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "io_rate_per_s"), 0.55 * 2.0 / 0.65e-3, 1e-12);
    p[XFT] = 1;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 2.0 / 1.2e-3, 1e-12);
    p[XFT] = 0;
    p[CHAIN] = 1;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 1e4, 1e-12);
}

static void test_invariants(void)
{
    const zvp_model *m = model();
    double p[NP] = {1e6, 50, 14, 90, 0, 1.5, 0.35, 2.0, 0}, out[8], prev, r0;
    /* a dump of zero frames takes zero time; elapsed is proportional to frames */
    p[FRAMES] = 0;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_test_output(m, out, "elapsed_s"), 0.0);
    CU_ASSERT(isfinite(zvp_test_output(m, out, "rate_frames_per_s")) && zvp_test_output(m, out, "rate_frames_per_s") > 0);
    p[FRAMES] = 1e6;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    double e1 = zvp_test_output(m, out, "elapsed_s");
    p[FRAMES] = 3e6;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 3.0 * e1, 1e-12);
    /* contiguous-only I/O: more frame-table (contiguous) frames never lower the rate;
     * longer runs of the other frames never lower it */
    prev = 0;
    for (double ft = 0; ft <= 100; ft += 10) {
        p[FT] = ft;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") >= prev);
        prev = zvp_test_output(m, out, "rate_frames_per_s");
    }
    p[FT] = 50;
    prev = 0;
    for (double run = 1; run <= 1e4; run *= 3) {
        p[RUN] = run;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") >= prev);
        CU_ASSERT(zvp_test_output(m, out, "frames_per_io") <= 90.0 + 1e-9);
        prev = zvp_test_output(m, out, "rate_frames_per_s");
    }
    /* chaining non-contiguous frames never loses, and makes the rate independent of
     * contiguity */
    p[RUN] = 1.5;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    r0 = zvp_test_output(m, out, "rate_frames_per_s");
    p[CHAIN] = 1;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") >= r0);
    r0 = zvp_test_output(m, out, "rate_frames_per_s");
    p[FT] = 5;
    p[RUN] = 1;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), r0, 1e-12);
    /* twice the volumes, twice the rate */
    p[VOL] = 28;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 2.0 * r0, 1e-12);
}

static void expect_einval(const double *p, const char *name, const char *value)
{
    double out[8];
    zvp_test_expect_eval_error(model(), p, out, ZVP_EINVAL, name, value, NULL);
    CU_ASSERT(isnan(out[0]) && isnan(out[1]));
}

static void test_bad_input(void)
{
    static const struct {
        int param;
        double value;
        const char *name, *text; /* both must be in the message */
    } cases[] = {{VOL, 2.5, "volumes", "2.5"},
                 {CHAIN, 0.5, "chain_noncontiguous", "0.5"},
                 {FRAMES, 10.25, "frames", "10.25"},
                 {FT, 150, "ft_pct", "150"},
                 {BMAX, 0, "max_frames_per_io", "[1"}};
    const double base[NP] = {1e6, 50, 14, 90, 1, 1, 0.35, 2.0, 0};
    double p[NP];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(p, base, sizeof p);
        p[cases[i].param] = cases[i].value;
        expect_einval(p, cases[i].name, cases[i].text);
    }
}

/* ---- calibrated files against report 003 ----------------------------------------------- */

typedef struct dump_set {
    const char *params;
    const char *fit;      /* the fit file that calibrated params */
    const char *dasd;
    double release;
    const char *tables[2];
} dump_set;

static const dump_set sets[] = {
    {PARAMS "dump-eckd-zvm62.ini", FITS "dump-eckd-zvm62.ini", "ECKD", 6.2,
     {DATA "003_table2_dump_eckd_256gb.csv", NULL}},
    {PARAMS "dump-eckd-zvm63.ini", FITS "dump-eckd-zvm63.ini", "ECKD", 6.3,
     {DATA "003_table2_dump_eckd_256gb.csv", DATA "003_table4_dump_eckd_1tb.csv"}},
    {PARAMS "dump-edev-zvm62.ini", FITS "dump-edev-zvm62.ini", "EDEV", 6.2,
     {DATA "003_table3_dump_edev_256gb.csv", NULL}},
    {PARAMS "dump-edev-zvm63.ini", FITS "dump-edev-zvm63.ini", "EDEV", 6.3,
     {DATA "003_table3_dump_edev_256gb.csv", NULL}},
};

/* Evaluate a calibrated file at (frames, ft_pct). */
static void eval_at(zvp_model_file *mf, double frames, double ft_pct, double *out)
{
    const zvp_model *m = zvp_model_file_model(mf);
    double p[NP];
    zvp_error err = {0};
    CU_ASSERT_EQUAL_FATAL(m->n_params, NP);
    memcpy(p, zvp_model_file_params(mf), sizeof p);
    p[FRAMES] = frames;
    p[FT] = ft_pct;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, &err), ZVP_SUCCESS);
}

/* Each file reproduces its release's rows of the published tables (read from calibration/data,
 * filtered here by DASD type and release): rate and elapsed time within 3% on every row and
 * MAPE <= 1.5% (the SNAP and PSW repeats of one load differ by up to 3.6% in the report, e.g.
 * 3943 vs 4087 frames/s, so the model cannot do better than about half of that on them). */
static void test_calibrated_rows(void)
{
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        zvp_model_file *mf = NULL;
        zvp_error err = {0};
        double out[8];
        zvp_test_rel_error fit_err = {0};
        CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(sets[s].params, &mf, &err), ZVP_SUCCESS);
        const zvp_model *m = zvp_model_file_model(mf);
        CU_ASSERT_STRING_EQUAL_FATAL(m->name, "dump");
        for (int k = 0; k < 2 && sets[s].tables[k]; k++) {
            zvp_table *t = NULL;
            CU_ASSERT_EQUAL_FATAL(zvp_table_read(sets[s].tables[k], &t, &err), ZVP_SUCCESS);
            long c_dasd = zvp_test_col(t, "dasd_type"), c_rel = zvp_test_col(t, "release"), c_fr = zvp_test_col(t, "dumped_frames");
            long c_ft = zvp_test_col(t, "ft_pct"), c_el = zvp_test_col(t, "elapsed_s"), c_rate = zvp_test_col(t, "rate");
            for (size_t i = 0; i < zvp_table_rows(t); i++) {
                if (strcmp(zvp_table_text(t, i, (size_t)c_dasd), sets[s].dasd) != 0 ||
                    fabs(zvp_table_value(t, i, (size_t)c_rel) - sets[s].release) > 1e-9)
                    continue;
                eval_at(mf, zvp_table_value(t, i, (size_t)c_fr), zvp_table_value(t, i, (size_t)c_ft), out);
                double r1 = fabs(zvp_test_output(m, out, "rate_frames_per_s") / zvp_table_value(t, i, (size_t)c_rate) - 1);
                double r2 = fabs(zvp_test_output(m, out, "elapsed_s") / zvp_table_value(t, i, (size_t)c_el) - 1);
                zvp_test_rel_error_add(&fit_err, r1);
                zvp_test_rel_error_add(&fit_err, r2);
            }
            zvp_table_free(t);
        }
        CU_ASSERT_EQUAL(fit_err.n, s == 1 ? 16u : 8u);
        zvp_test_rel_error_check(&fit_err, 0.03, 1.5, sets[s].params, "rate and elapsed");
        zvp_model_file_free(mf);
    }
}

/* Each fit file (data = the transcribed tables, rows chosen with `where`) fits exactly the rows
 * of its release and DASD type, filtered here independently from the same tables: same run IDs
 * in table order (Table 2 before Table 4 for ECKD 6.3) and the same measured rate and elapsed
 * time, cell for cell. */
static void test_fit_rows(void)
{
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        zvp_fit_result *res = zvp_test_run_fit(sets[s].fit);
        size_t found = 0, nm;
        long j_rate = -1, j_el = -1;
        nm = zvp_fit_result_n_matched(res);
        for (size_t j = 0; j < nm; j++) {
            if (!strcmp(zvp_fit_result_output_name(res, j), "rate_frames_per_s"))
                j_rate = (long)j;
            if (!strcmp(zvp_fit_result_output_name(res, j), "elapsed_s"))
                j_el = (long)j;
        }
        CU_ASSERT_FATAL(j_rate >= 0 && j_el >= 0);
        for (int k = 0; k < 2 && sets[s].tables[k]; k++) {
            zvp_table *t = NULL;
            CU_ASSERT_EQUAL_FATAL(zvp_table_read(sets[s].tables[k], &t, NULL), ZVP_SUCCESS);
            long c_run = zvp_test_col(t, "runid"), c_dasd = zvp_test_col(t, "dasd_type"), c_rel = zvp_test_col(t, "release");
            long c_el = zvp_test_col(t, "elapsed_s"), c_rate = zvp_test_col(t, "rate");
            for (size_t i = 0; i < zvp_table_rows(t); i++) {
                if (strcmp(zvp_table_text(t, i, (size_t)c_dasd), sets[s].dasd) != 0 ||
                    fabs(zvp_table_value(t, i, (size_t)c_rel) - sets[s].release) > 1e-9)
                    continue;
                CU_ASSERT_FATAL(found < zvp_fit_result_n_rows(res));
                CU_ASSERT_STRING_EQUAL(zvp_fit_result_row_label(res, found),
                                       zvp_table_text(t, i, (size_t)c_run));
                CU_ASSERT_EQUAL(zvp_fit_result_measured(res)[found * nm + (size_t)j_rate],
                                zvp_table_value(t, i, (size_t)c_rate));
                CU_ASSERT_EQUAL(zvp_fit_result_measured(res)[found * nm + (size_t)j_el],
                                zvp_table_value(t, i, (size_t)c_el));
                found++;
            }
            zvp_table_free(t);
        }
        CU_ASSERT_EQUAL(found, s == 1 ? 8u : 4u);
        CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), found);
        zvp_fit_result_free(res);
    }
}

/* The report's summary claims, from the calibrated models at the measured conditions
 * (frames and ft_pct of loads 1 and 2, Tables 2 and 3):
 *   ECKD 6.3 over 6.2: +50% to +90%. The printed rows themselves give +56% to +94%
 *     (6153/3176), so the claim is checked with 5 points of slack: [45%, 95%].
 *   EDEV 6.3 over 6.2: +190% to +1500%. The printed rows give +193% to +1582% (15224/905),
 *     so the check is [180%, 1650%].
 *   ECKD 6.3 at 1 TB (Table 4 conditions): every rate within 10% of every 256 GB rate. */
static void test_summary_claims(void)
{
    zvp_model_file *mf[4] = {0};
    double o62[8], o63[8];
    for (int s = 0; s < 4; s++)
        CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(sets[s].params, &mf[s], NULL), ZVP_SUCCESS);
    const zvp_model *m = zvp_model_file_model(mf[0]);
    /* (frames, ft_pct) of the 6.3 rows: Table 2 loads 1 and 2, Table 3 loads 1 and 2 */
    const double eckd[2][2] = {{1014243, 51}, {566038, 92}};
    const double edev[2][2] = {{1026690, 51}, {578493, 90}};
    double lo = INFINITY, hi = -INFINITY;
    for (int l = 0; l < 2; l++) {
        eval_at(mf[0], eckd[l][0], eckd[l][1], o62);
        eval_at(mf[1], eckd[l][0], eckd[l][1], o63);
        double gain = 100 * (zvp_test_output(m, o63, "rate_frames_per_s") / zvp_test_output(m, o62, "rate_frames_per_s") - 1);
        CU_ASSERT(gain >= 45 && gain <= 95);
        lo = fmin(lo, gain);
        hi = fmax(hi, gain);
    }
    CU_ASSERT(hi - lo > 20); /* the gain depends on the load, as in the report */
    for (int l = 0; l < 2; l++) {
        eval_at(mf[2], edev[l][0], edev[l][1], o62);
        eval_at(mf[3], edev[l][0], edev[l][1], o63);
        double gain = 100 * (zvp_test_output(m, o63, "rate_frames_per_s") / zvp_test_output(m, o62, "rate_frames_per_s") - 1);
        CU_ASSERT(gain >= 180 && gain <= 1650);
        if (l == 1)
            CU_ASSERT(gain > 1000); /* best improvement at 90% frame-table frames */
    }
    const double tb[2][2] = {{4138337, 50}, {4154508, 50}};
    for (int a = 0; a < 2; a++) {
        double r1tb;
        eval_at(mf[1], tb[a][0], tb[a][1], o63);
        r1tb = zvp_test_output(m, o63, "rate_frames_per_s");
        for (int l = 0; l < 2; l++) {
            eval_at(mf[1], eckd[l][0], eckd[l][1], o62);
            CU_ASSERT(fabs(r1tb / zvp_test_output(m, o62, "rate_frames_per_s") - 1) <= 0.10);
        }
    }
    for (int s = 0; s < 4; s++)
        zvp_model_file_free(mf[s]);
}

int zvp_test_register_dump(void)
{
    CU_pSuite s = CU_add_suite("dump", NULL, NULL);
    if (!s || !CU_add_test(s, "run_length_and_rate", test_run_length_and_rate) ||
        !CU_add_test(s, "closed_forms", test_closed_forms) ||
        !CU_add_test(s, "invariants", test_invariants) ||
        !CU_add_test(s, "bad_input", test_bad_input) ||
        !CU_add_test(s, "calibrated_rows", test_calibrated_rows) ||
        !CU_add_test(s, "fit_rows", test_fit_rows) ||
        !CU_add_test(s, "summary_claims", test_summary_claims))
        return 1;
    return 0;
}
