/* tests/test_dump.c - dump write-rate model (models/dump.c, models/README.md, dump) and its four
 * calibrated files against report 003 (System Dump Improvements), Tables 2-4 and the report's
 * summary claims. Expected values: closed forms worked by hand (the finite-source queue of the
 * volumes on the channels for N = 1 and N = 2), an independent summation (the geometric
 * run-length mean), and the transcribed CSVs in calibration/data. The channel and device caps
 * and the sweeps are in tests/test_dump_limits.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define DATA "../calibration/data/"
#define PARAMS "../calibration/params/"
#define FITS "../calibration/fits/"

enum { FRAMES, FT, VOL, BMAX, CHAIN, RUN, T0, TF, XFT, CH, GBPS, LBPB, STOR, SCAN, NP };

static const zvp_model *model(void) { return zvp_test_model("dump", NP); }

/* seconds of one channel per 4 KiB frame at g Gbit/s with 10 link bits per byte (8b/10b) */
static double s_frame(double gbps) { return 4096.0 * 10.0 / (gbps * 1e9); }

/* E[min(L, B)] for geometric runs (mean m = 4, p = 0.75, B = 10), by direct summation of
 * sum_j min(j, B) p^(j-1) (1 - p) (independent of the closed form the model uses). With one
 * volume on one channel the volume's I/O alternates device time t0 + E[b] t_f and channel
 * time E[b] s (N = 1: no queueing), so rate = E[b] / (t0 + E[b] (t_f + s)). */
static void test_run_length_and_rate(void)
{
    const zvp_model *m = model();
    double p[NP] = {1000, 0, 1, 10, 0, 4, 1.0, 0.1, 0, 1, 8, 10}, out[16];
    double eb = 0, pj = 1, s = s_frame(8);
    for (int j = 1; j < 5000; j++, pj *= 0.75)
        eb += (j < 10 ? j : 10) * pj * 0.25;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "frames_per_io"), eb, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), eb / (1e-3 + eb * (1e-4 + s)), 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "io_time_ms"), 1.0 + eb * 0.1, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 1000.0 / zvp_test_output(m, out, "rate_frames_per_s"),
                   1e-12);
}

/* The time per dump per GiB of storage, T_s = storage_gb x scan_s_per_gib, adds to the writing
 * time: elapsed = T_s + frames / r_w, rate = frames / elapsed. Worked by hand on the N = 1 case
 * above (isolated frames, B = 10, one volume, one channel: r_w = 1 / (t0 + t_f + s)) with
 * 256 GiB x 0.02 s/GiB = 5.12 s; no frames: elapsed = T_s, rate 0; T_s = 0 gives r_w back. */
static void test_scan_time(void)
{
    const zvp_model *m = model();
    double p[NP] = {1000, 0, 1, 10, 0, 1, 1.0, 0.1, 0, 1, 8, 10, 256, 0.02}, out[16];
    const double r_w = 1.0 / (1e-3 + 1e-4 + s_frame(8)), t_s = 256 * 0.02;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "scan_s"), 5.12, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 5.12 + 1000.0 / r_w, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 1000.0 / (t_s + 1000.0 / r_w), 1e-9);
    /* the I/O side is unchanged by the scan */
    ZVP_ASSERT_REL(zvp_test_output(m, out, "io_rate_per_s"), r_w, 1e-9);
    /* dump time grows with frames, by 1 / r_w per frame; the rate rises towards r_w */
    p[FRAMES] = 3000;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 5.12 + 3000.0 / r_w, 1e-9);
    CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") > 1000.0 / (t_s + 1000.0 / r_w));
    CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") < r_w);
    p[FRAMES] = 0;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 5.12, 1e-12);
    CU_ASSERT_EQUAL(zvp_test_output(m, out, "rate_frames_per_s"), 0.0);
    /* 1 TB: four times the time; no scan: the writing rate itself */
    p[FRAMES] = 1000;
    p[STOR] = 1024;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 20.48 + 1000.0 / r_w, 1e-9);
    p[SCAN] = 0;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), r_w, 1e-9);
}

/* Why the calibrated files keep scan_s_per_gib at 0 (models/README.md, dump), from the printed
 * rows alone (Tables 2 and 3, SNAP rows). A time T_s per 256 GB dump, common to both loads:
 *   ECKD 6.3 (every I/O chains 90 frames, one time per frame): the two loads give the line
 *     157 = T_s + 1014243 tau, 92 = T_s + 566038 tau, so T_s = 9.9 s;
 *   EDEV 6.3 (frame-table frames contiguous, 521,000-524,000 of them in both loads, so the
 *     same time in both; the other frames with one cost c per frame in both loads, whatever
 *     their common run length): the other frames of load 1 (49 %) and load 2 (10 %) take
 *     270 s more, so c = 270 / (other_1 - other_2) s, and T_s plus the frame-table frames'
 *     time is 38 - other_2 c, about 3 s. The two devices cannot share T_s. */
static void test_scan_bound(void)
{
    const double tau = (157.0 - 92.0) / (1014243.0 - 566038.0), ts_eckd = 92.0 - 566038.0 * tau;
    const double o1 = 1026690.0 * 0.49, o2 = 578493.0 * 0.10, c = (308.0 - 38.0) / (o1 - o2);
    const double ts_edev_max = 38.0 - o2 * c;
    CU_ASSERT(ts_eckd > 9.5 && ts_eckd < 10.5);
    CU_ASSERT(ts_edev_max > 2.0 && ts_edev_max < 3.5);
    CU_ASSERT(ts_eckd > 2.5 * ts_edev_max);
    /* one physical parameter: the four calibrated files carry the same value */
    static const char *files[4] = {PARAMS "dump-eckd-zvm62.ini", PARAMS "dump-eckd-zvm63.ini",
                                   PARAMS "dump-edev-zvm62.ini", PARAMS "dump-edev-zvm63.ini"};
    double q[NP], first = -1;
    for (int i = 0; i < 4; i++) {
        zvp_test_read_params(files[i], "dump", q, NP);
        if (i == 0)
            first = q[SCAN];
        CU_ASSERT_EQUAL(q[SCAN], first);
    }
    CU_ASSERT(first >= 0 && first * 256 <= ts_edev_max);
}

/* Mixed contiguity, by hand: f = 0.5, B = 10, isolated other frames (m = 1), t0 = 1 ms,
 * t_f = 0.1 ms: I/Os per frame n = 0.5/10 + 0.5/1 = 0.55, device time per frame 0.65 ms,
 * per I/O Z = 0.65/0.55 ms, channel time per I/O S = s/0.55. Two volumes on one channel
 * (finite-source M/M/1//2): p_k ~ 2!/(2-k)! r^k with r = S/Z, so the channel is busy with
 * probability U = (2r + 2r^2)/(1 + 2r + 2r^2) and the I/O rate is U/S; the frame rate is that
 * times E[b] = 1/0.55. With one extra single-frame write per frame-table frame (x = 1):
 * n' = 1.05 I/Os and w = 1.5 frames written per dumped frame, Z = (1.05 + 0.15)/1.05 ms,
 * S = 1.5 s/1.05. Chaining non-contiguous frames (ECKD 6.3, x = 0): n = 1/10. */
static double mm1_2_io_rate(double z, double s)
{
    double r = s / z, u = (2 * r + 2 * r * r) / (1 + 2 * r + 2 * r * r);
    return u / s;
}

static void test_closed_forms(void)
{
    const zvp_model *m = model();
    double p[NP] = {2e6, 50, 2, 10, 0, 1, 1.0, 0.1, 0, 1, 0.05, 10}, out[16];
    double s = s_frame(0.05), x_io, rate;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    x_io = mm1_2_io_rate(0.65e-3 / 0.55, s / 0.55);
    rate = x_io / 0.55;
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), rate, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "io_rate_per_s"), x_io, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "frames_per_io"), 1.0 / 0.55, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "elapsed_s"), 2e6 / rate, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "device_cap_frames_per_s"), 2.0 / 0.65e-3, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "channel_cap_frames_per_s"), 1.0 / s, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "channel_util_pct"), 100 * x_io * s / 0.55, 1e-9);
    p[XFT] = 1;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    x_io = mm1_2_io_rate(1.2e-3 / 1.05, 1.5 * s / 1.05);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), x_io / 1.05, 1e-9);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "frames_per_io"), 1.5 / 1.05, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "device_cap_frames_per_s"), 2.0 / 1.2e-3, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "channel_cap_frames_per_s"), 1.0 / (1.5 * s), 1e-12);
    p[XFT] = 0;
    p[CHAIN] = 1;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    x_io = mm1_2_io_rate(0.2e-3 / 0.1, s / 0.1);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), x_io / 0.1, 1e-9);
}

static void test_invariants(void)
{
    const zvp_model *m = model();
    double p[NP] = {1e6, 50, 14, 90, 0, 1.5, 0.35, 2.0, 0, 4, 8, 10}, out[16], prev, r0;
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
    /* twice the volumes: at most twice the rate (they share the channels), and here, with
     * the channels under 1 % busy, within 0.1 % of twice */
    CU_ASSERT(zvp_test_output(m, out, "channel_util_pct") < 1.0);
    p[VOL] = 28;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
    CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") <= 2.0 * r0 * (1 + 1e-12));
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 2.0 * r0, 1e-3);
}

static void expect_einval(const double *p, const char *name, const char *value)
{
    double out[16];
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
                 {BMAX, 0, "max_frames_per_io", "[1"},
                 {XFT, 0.5, "ft_single_writes", "0.5"},
                 {CH, 0, "channels", "[1"},
                 {GBPS, 0, "channel_gbps", "0"},
                 {LBPB, 11, "line_bits_per_byte", "11"}};
    const double base[NP] = {1e6, 50, 14, 90, 1, 1, 0.35, 2.0, 0, 4, 8, 10};
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
     {DATA "003_table2_dump_eckd_256gb.csv", NULL}},
    {PARAMS "dump-edev-zvm62.ini", FITS "dump-edev-zvm62.ini", "EDEV", 6.2,
     {DATA "003_table3_dump_edev_256gb.csv", NULL}},
    {PARAMS "dump-edev-zvm63.ini", FITS "dump-edev-zvm63.ini", "EDEV", 6.3,
     {DATA "003_table3_dump_edev_256gb.csv", NULL}},
};

/* Evaluate a calibrated file at (frames, ft_pct, storage_gb). */
static void eval_size(zvp_model_file *mf, double frames, double ft_pct, double gib, double *out)
{
    const zvp_model *m = zvp_model_file_model(mf);
    double p[NP];
    zvp_error err = {0};
    CU_ASSERT_EQUAL_FATAL(m->n_params, NP);
    memcpy(p, zvp_model_file_params(mf), sizeof p);
    p[FRAMES] = frames;
    p[FT] = ft_pct;
    p[STOR] = gib;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, &err), ZVP_SUCCESS);
}

/* the same at 256 GB (Tables 2 and 3) */
static void eval_at(zvp_model_file *mf, double frames, double ft_pct, double *out)
{
    eval_size(mf, frames, ft_pct, 256, out);
}

/* Each file reproduces its release's rows of the published tables (read from calibration/data,
 * filtered here by DASD type and release): rate and elapsed time within 6 % on every row and
 * MAPE <= 3.5 %. Each fit has one free parameter for two loads (the SNAP and PSW repeats of one
 * load differ by up to 3.6 % in the report, e.g. 3943 vs 4087 frames/s), so one load's rows
 * test the parameter the other load set: measured 0.4 % (EDEV 6.2) to 3.1 % MAPE (EDEV 6.3,
 * worst row 5.1 %). */
static void test_calibrated_rows(void)
{
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        zvp_model_file *mf = NULL;
        zvp_error err = {0};
        double out[16];
        zvp_test_rel_error fit_err = {0};
        CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(sets[s].params, &mf, &err), ZVP_SUCCESS);
        const zvp_model *m = zvp_model_file_model(mf);
        CU_ASSERT_STRING_EQUAL_FATAL(m->name, "dump");
        for (int k = 0; k < 2 && sets[s].tables[k]; k++) {
            zvp_table *t = NULL;
            CU_ASSERT_EQUAL_FATAL(zvp_table_read(sets[s].tables[k], &t, &err), ZVP_SUCCESS);
            long c_dasd = zvp_test_col(t, "dasd_type"), c_rel = zvp_test_col(t, "release"), c_fr = zvp_test_col(t, "dumped_frames");
            long c_ft = zvp_test_col(t, "ft_pct"), c_el = zvp_test_col(t, "elapsed_s"), c_rate = zvp_test_col(t, "rate");
            long c_sz = zvp_test_col(t, "size_gb");
            for (size_t i = 0; i < zvp_table_rows(t); i++) {
                if (strcmp(zvp_table_text(t, i, (size_t)c_dasd), sets[s].dasd) != 0 ||
                    fabs(zvp_table_value(t, i, (size_t)c_rel) - sets[s].release) > 1e-9)
                    continue;
                eval_size(mf, zvp_table_value(t, i, (size_t)c_fr),
                          zvp_table_value(t, i, (size_t)c_ft), zvp_table_value(t, i, (size_t)c_sz), out);
                double r1 = fabs(zvp_test_output(m, out, "rate_frames_per_s") / zvp_table_value(t, i, (size_t)c_rate) - 1);
                double r2 = fabs(zvp_test_output(m, out, "elapsed_s") / zvp_table_value(t, i, (size_t)c_el) - 1);
                zvp_test_rel_error_add(&fit_err, r1);
                zvp_test_rel_error_add(&fit_err, r2);
            }
            zvp_table_free(t);
        }
        CU_ASSERT_EQUAL(fit_err.n, 8u);
        zvp_test_rel_error_check(&fit_err, 0.06, 3.5, sets[s].params, "rate and elapsed");
        zvp_model_file_free(mf);
    }
}

/* Each fit file (data = the transcribed tables, rows chosen with `where`) fits exactly the rows
 * of its release and DASD type, filtered here independently from the same tables: same run IDs
 * in table order and the same measured rate and elapsed time, cell for cell. Table 4 (1 TB) is
 * in no fit: test_table4_predicted predicts it. */
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
        CU_ASSERT_EQUAL(found, 4u);
        CU_ASSERT_EQUAL(zvp_fit_result_n_rows(res), found);
        zvp_fit_result_free(res);
    }
}

/* The report's summary claims, from the calibrated models at the measured conditions
 * (frames and ft_pct of loads 1 and 2, Tables 2 and 3):
 *   ECKD 6.3 over 6.2: "+50% to +90%". The printed rows give +56.3 % / +63.8 % (load 1, PSW /
 *     SNAP) and +93.6 % / +93.7 % (load 2). Checked here against the printed rows of each
 *     load (their SNAP/PSW mean, 60.0 % and 93.7 %) within 6 points: a 3 % error of a rate
 *     that doubles moves the gain by about 6 points, and the fits accept 3.5 % MAPE. The
 *     model gives about +57 % and +98 %: above the report's rounded "90 %" at load 2 (the
 *     claim 003-eckd-gain-load2 in calibration/claims/003_dump.csv fails; models/README.md,
 *     dump, says why).
 *   EDEV 6.3 over 6.2: +190% to +1500%. The printed rows give +193% to +1582% (15224/905),
 *     so the check is [180%, 1650%].
 *   ECKD 6.3 at 1 TB (Table 4 conditions): every rate within 10% of every 256 GB rate. */
static void test_summary_claims(void)
{
    zvp_model_file *mf[4] = {0};
    double o62[16], o63[16];
    for (int s = 0; s < 4; s++)
        CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(sets[s].params, &mf[s], NULL), ZVP_SUCCESS);
    const zvp_model *m = zvp_model_file_model(mf[0]);
    /* (frames, ft_pct) of the 6.3 rows: Table 2 loads 1 and 2, Table 3 loads 1 and 2 */
    const double eckd[2][2] = {{1014243, 51}, {566038, 92}};
    const double edev[2][2] = {{1026690, 51}, {578493, 90}};
    /* printed gains, mean of SNAP and PSW: (6460/3943 + 6386/4087)/2 - 1, (6153/3176 + 6153/3178)/2 - 1 */
    const double printed[2] = {100 * ((6460.0 / 3943 + 6386.0 / 4087) / 2 - 1),
                               100 * ((6153.0 / 3176 + 6153.0 / 3178) / 2 - 1)};
    double lo = INFINITY, hi = -INFINITY;
    for (int l = 0; l < 2; l++) {
        eval_at(mf[0], eckd[l][0], eckd[l][1], o62);
        eval_at(mf[1], eckd[l][0], eckd[l][1], o63);
        double gain = 100 * (zvp_test_output(m, o63, "rate_frames_per_s") / zvp_test_output(m, o62, "rate_frames_per_s") - 1);
        CU_ASSERT(fabs(gain - printed[l]) <= 6);
        lo = fmin(lo, gain);
        hi = fmax(hi, gain);
    }
    CU_ASSERT(lo >= 45); /* the report's lower end, 50 %, with its rows' 5 points of slack */
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
        eval_size(mf[1], tb[a][0], tb[a][1], 1024, o63);
        r1tb = zvp_test_output(m, o63, "rate_frames_per_s");
        for (int l = 0; l < 2; l++) {
            eval_at(mf[1], eckd[l][0], eckd[l][1], o62);
            CU_ASSERT(fabs(r1tb / zvp_test_output(m, o62, "rate_frames_per_s") - 1) <= 0.10);
        }
    }
    for (int s = 0; s < 4; s++)
        zvp_model_file_free(mf[s]);
}

/* Table 4 (1 TB, z/VM 6.3) is in no fit: the file calibrated on the 256 GB rows of Table 2
 * predicts each of its rates and elapsed times within 5 % (measured 2.9 % to 4.4 % low: the
 * model's 6.3 ECKD rate does not depend on the frame-table share or the size, and the 1 TB
 * rows are 3-5 % faster than the 256 GB ones). */
static void test_table4_predicted(void)
{
    zvp_model_file *mf = NULL;
    zvp_table *t = NULL;
    zvp_test_rel_error pred = {0};
    double out[16];
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(PARAMS "dump-eckd-zvm63.ini", &mf, NULL), ZVP_SUCCESS);
    const zvp_model *m = zvp_model_file_model(mf);
    CU_ASSERT_EQUAL_FATAL(zvp_table_read(DATA "003_table4_dump_eckd_1tb.csv", &t, NULL), ZVP_SUCCESS);
    long c_fr = zvp_test_col(t, "dumped_frames"), c_ft = zvp_test_col(t, "ft_pct");
    long c_el = zvp_test_col(t, "elapsed_s"), c_rate = zvp_test_col(t, "rate");
    long c_sz = zvp_test_col(t, "size_gb");
    for (size_t i = 0; i < zvp_table_rows(t); i++) {
        eval_size(mf, zvp_table_value(t, i, (size_t)c_fr), zvp_table_value(t, i, (size_t)c_ft),
                  zvp_table_value(t, i, (size_t)c_sz), out);
        zvp_test_rel_error_add(&pred, fabs(zvp_test_output(m, out, "rate_frames_per_s") /
                                           zvp_table_value(t, i, (size_t)c_rate) - 1));
        zvp_test_rel_error_add(&pred, fabs(zvp_test_output(m, out, "elapsed_s") /
                                           zvp_table_value(t, i, (size_t)c_el) - 1));
    }
    CU_ASSERT_EQUAL(pred.n, 8u);
    zvp_test_rel_error_check(&pred, 0.05, 5.0, "dump-eckd-zvm63 on Table 4", "rate and elapsed");
    zvp_table_free(t);
    zvp_model_file_free(mf);
}

/* No fit takes a value from a fit that takes a value from it: the device roots (ECKD 6.3,
 * EDEV 6.2) have no base, and each other fit's base is a root's output. */
static void test_calibration_order(void)
{
    static const struct {
        const char *fit, *base_fit; /* base_fit NULL: a root */
    } order[] = {{FITS "dump-eckd-zvm63.ini", NULL},
                 {FITS "dump-eckd-zvm62.ini", FITS "dump-eckd-zvm63.ini"},
                 {FITS "dump-edev-zvm62.ini", NULL},
                 {FITS "dump-edev-zvm63.ini", FITS "dump-edev-zvm62.ini"}};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        zvp_fit *fit = NULL, *root = NULL;
        CU_ASSERT_EQUAL_FATAL(zvp_fit_read(order[i].fit, &fit, NULL), ZVP_SUCCESS);
        if (!order[i].base_fit) {
            CU_ASSERT_PTR_NULL(zvp_fit_base_path(fit));
        } else {
            CU_ASSERT_EQUAL_FATAL(zvp_fit_read(order[i].base_fit, &root, NULL), ZVP_SUCCESS);
            CU_ASSERT_PTR_NOT_NULL_FATAL(zvp_fit_base_path(fit));
            CU_ASSERT_STRING_EQUAL(zvp_fit_base_path(fit), zvp_fit_output_path(root));
            CU_ASSERT_PTR_NULL(zvp_fit_base_path(root));
            zvp_fit_free(root);
        }
        zvp_fit_free(fit);
    }
}

int zvp_test_register_dump(void)
{
    CU_pSuite s = CU_add_suite("dump", NULL, NULL);
    if (!s || !CU_add_test(s, "run_length_and_rate", test_run_length_and_rate) ||
        !CU_add_test(s, "scan_time", test_scan_time) ||
        !CU_add_test(s, "scan_bound", test_scan_bound) ||
        !CU_add_test(s, "closed_forms", test_closed_forms) ||
        !CU_add_test(s, "invariants", test_invariants) ||
        !CU_add_test(s, "bad_input", test_bad_input) ||
        !CU_add_test(s, "calibrated_rows", test_calibrated_rows) ||
        !CU_add_test(s, "fit_rows", test_fit_rows) ||
        !CU_add_test(s, "summary_claims", test_summary_claims) ||
        !CU_add_test(s, "table4_predicted", test_table4_predicted) ||
        !CU_add_test(s, "calibration_order", test_calibration_order))
        return 1;
    return 0;
}
