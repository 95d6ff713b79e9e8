/* tests/test_dump_limits.c - the dump model's hardware limits and sweeps (issue 14, points 5
 * and 6): the rate never exceeds the device cap (volumes / device time per dumped frame) nor
 * the channel cap (channels x link bytes per second / bytes written per dumped frame), both
 * computed here from the parameters, independently of the model; it approaches each cap when
 * the other resource is made fast; dump time grows with frames; the channel utilization stays
 * within 0-100 %. Link rates and counts: report 003 (System Dump Improvements), notes of
 * Tables 2-4 ("Four 8.0 Gbps Fibre-channel switched channels ... 14 3390-3 volumes"; "One
 * 16.8 Gbps Fibre-channel-protocol channel ... 100 9336 volumes"). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

enum { FRAMES, FT, VOL, BMAX, CHAIN, RUN, T0, TF, XFT, CH, GBPS, LBPB, STOR, SCAN, NP };

static const zvp_model *model(void) { return zvp_test_model("dump", NP); }

/* the two caps, from the parameters (the model's mechanism written out again here) */
static void caps(const double *p, double *dev_cap, double *ch_cap)
{
    double f = p[FT] / 100, n, w;
    if (p[CHAIN] == 1) {
        n = 1 / p[BMAX];
    } else {
        /* E[min(L, B)] for geometric runs of mean m, summed term by term */
        double m = p[RUN], q = 1 - 1 / m, eb = 0, qj = 1;
        for (int j = 1; j <= (int)p[BMAX]; j++, qj *= q)
            eb += qj; /* P(L >= j) */
        n = f / p[BMAX] + (1 - f) / eb;
    }
    n += p[XFT] * f;
    w = 1 + p[XFT] * f;
    *dev_cap = p[VOL] / (n * p[T0] * 1e-3 + w * p[TF] * 1e-3);
    *ch_cap = p[CH] * p[GBPS] * 1e9 / p[LBPB] / 4096.0 / w;
}

/* A grid over the configurations of report 003 and beyond: the rate is under both caps and
 * the channel utilization in [0, 100] %. */
static void test_rate_under_caps(void)
{
    const zvp_model *m = model();
    /* ECKD as in Table 2 notes and EDEV as in Table 3 notes */
    const double cfg[2][3] = {{14, 4, 8.0}, {100, 1, 16.8}};
    double out[16], dcap, ccap;
    int n = 0;
    for (int c = 0; c < 2; c++)
        for (double ft = 0; ft <= 100; ft += 25)
            for (int i0 = -2; i0 <= 2; i0++)
                for (int i1 = -3; i1 <= 1; i1++)
                    for (int chain = 0; chain <= 1; chain++)
                        for (int x = 0; x <= 1; x++) {
                            double t0 = pow(10, i0), tf = pow(10, i1);
                            double p[NP] = {1e6, ft, cfg[c][0], 256, chain, 3, t0, tf, x,
                                            cfg[c][1], cfg[c][2], 10};
                            CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
                            caps(p, &dcap, &ccap);
                            double r = zvp_test_output(m, out, "rate_frames_per_s");
                            CU_ASSERT(r > 0 && r <= dcap * (1 + 1e-9) && r <= ccap * (1 + 1e-9));
                            ZVP_ASSERT_REL(zvp_test_output(m, out, "device_cap_frames_per_s"), dcap, 1e-9);
                            ZVP_ASSERT_REL(zvp_test_output(m, out, "channel_cap_frames_per_s"), ccap, 1e-12);
                            double u = zvp_test_output(m, out, "channel_util_pct");
                            CU_ASSERT(u >= 0 && u <= 100);
                            n++;
                        }
    CU_ASSERT_EQUAL(n, 2 * 5 * 5 * 5 * 2 * 2);
}

/* The channel caps of report 003's two configurations, by hand: 4 x 8.0 Gbit/s at 10 link
 * bits per byte = 3.2e9 B/s = 781,250 frames/s; 16.8 Gbit/s = 1.68e9 B/s = 410,156.25
 * frames/s. With devices far faster than the channel (t0 = 0, t_f = 1e-6 ms, 1000 volumes
 * keeping the channel saturated) the rate reaches the channel cap (within 0.1 %); with a
 * channel far faster than the devices (1e4 Gbit/s) it reaches the device cap. */
static void test_caps_reached(void)
{
    const zvp_model *m = model();
    double out[16];
    double eckd[NP] = {1e6, 50, 1000, 90, 1, 1, 0, 1e-6, 0, 4, 8.0, 10};
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, eckd, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "channel_cap_frames_per_s"), 781250.0, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 781250.0, 1e-3);
    CU_ASSERT(zvp_test_output(m, out, "channel_util_pct") > 99.9);
    double edev[NP] = {1e6, 100, 1000, 256, 0, 1, 0, 1e-6, 0, 1, 16.8, 10};
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, edev, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "channel_cap_frames_per_s"), 410156.25, 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 410156.25, 1e-3);
    /* device-bound: 14 volumes, t0 = 0.3 ms, t_f = 2 ms, 90 frames per I/O: the device
     * cap is 14 / (0.3/90 + 2) ms = 6988.35 frames/s */
    double slow[NP] = {1e6, 50, 14, 90, 1, 1, 0.3, 2.0, 0, 4, 1e4, 10};
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, slow, out, NULL), ZVP_SUCCESS);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "device_cap_frames_per_s"), 14 / (0.3e-3 / 90 + 2e-3), 1e-12);
    ZVP_ASSERT_REL(zvp_test_output(m, out, "rate_frames_per_s"), 14 / (0.3e-3 / 90 + 2e-3), 1e-4);
    /* deep saturation (review: 100,000 volumes, t0 = 0, t_f = 1e-6 ms): the rate is at most
     * the cap exactly, not the cap and an ulp (was 781250.0000000001) */
    double deep[NP] = {1e6, 50, 1e5, 90, 1, 1, 0, 1e-6, 0, 4, 8.0, 10};
    for (int k = 0; k < 40; k++) {
        deep[TF] = 1e-6 * (1.0 + 0.37 * k);
        deep[VOL] = 1e5 - 997.0 * k;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, deep, out, NULL), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") <=
                  zvp_test_output(m, out, "channel_cap_frames_per_s"));
        CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") <=
                  zvp_test_output(m, out, "device_cap_frames_per_s"));
    }
}

/* Sweeps: dump time grows with frames (strictly) at fixed contiguity; more volumes never lower
 * the rate; a faster channel never lowers it; for the calibrated EDEV z/VM 6.3 file, at 100 %
 * frame-table frames the rate stays under the channel cap of Table 3's configuration. */
static void test_sweeps(void)
{
    const zvp_model *m = model();
    double p[NP] = {0, 51, 100, 256, 0, 1, 56, 0.8, 0, 1, 16.8, 10}, out[16], prev = -1;
    for (double fr = 0; fr <= 5e6; fr += 5e5) {
        p[FRAMES] = fr;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, out, "elapsed_s") > prev);
        prev = zvp_test_output(m, out, "elapsed_s");
    }
    p[FRAMES] = 1e6;
    p[FT] = 100;
    prev = 0;
    for (double v = 1; v <= 10000; v *= 2) {
        p[VOL] = v;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") >= prev);
        prev = zvp_test_output(m, out, "rate_frames_per_s");
    }
    p[VOL] = 100;
    prev = 0;
    for (double g = 0.5; g <= 64; g *= 2) {
        p[GBPS] = g;
        CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, p, out, NULL), ZVP_SUCCESS);
        CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") >= prev);
        prev = zvp_test_output(m, out, "rate_frames_per_s");
    }
    double q[NP];
    zvp_test_read_params("../calibration/params/dump-edev-zvm63.ini", "dump", q, NP);
    q[FT] = 100;
    CU_ASSERT_EQUAL_FATAL(zvp_model_eval(m, q, out, NULL), ZVP_SUCCESS);
    CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") < 16.8e9 / 10 / 4096);
    CU_ASSERT(zvp_test_output(m, out, "rate_frames_per_s") < 177681.0); /* the earlier extrapolation */
}

int zvp_test_register_dump_limits(void)
{
    CU_pSuite s = CU_add_suite("dump_limits", NULL, NULL);
    if (!s || !CU_add_test(s, "rate_under_caps", test_rate_under_caps) ||
        !CU_add_test(s, "caps_reached", test_caps_reached) ||
        !CU_add_test(s, "sweeps", test_sweeps))
        return 1;
    return 0;
}
