/*
 * tests/sweep_fixtures.h - what the sweep suites (test_sweep_h5.c, test_sweep_resume.c)
 * share: the mmc model file they sweep and the bytes of a sweep file's variables.
 */
#ifndef ZVP_TEST_SWEEP_FIXTURES_H
#define ZVP_TEST_SWEEP_FIXTURES_H
#include <stdio.h>
#include <stdlib.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include "zvmperf/zvmperf.h"

/* Model mmc with its defaults and service_rate_per_s = mu; NULL on failure. */
static inline zvp_model_file *zvp_test_mmc_file(double mu)
{
    zvp_error err;
    const zvp_model *m = zvp_model_find("mmc", &err);
    zvp_model_file *mf;
    if (!m)
        return NULL;
    mf = zvp_model_file_new(m);
    if (mf && zvp_model_file_set(mf, "service_rate_per_s", mu, &err)) {
        zvp_model_file_free(mf);
        return NULL;
    }
    return mf;
}

/* Every output of a sweep file of `points` points (model order), then /status, as one
 * malloc'ed byte buffer of *len bytes; NULL on error. */
static inline unsigned char *zvp_test_sweep_bytes(const char *path, const zvp_model *m,
                                                  size_t points, size_t *len)
{
    size_t k, per = points * sizeof(double);
    unsigned char *buf = malloc(per * m->n_outputs + points);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int ok = buf && file >= 0;
    for (k = 0; ok && k < m->n_outputs; k++) {
        char p[128];
        snprintf(p, sizeof p, "/%s", m->outputs[k].name);
        ok = H5LTread_dataset_double(file, p, (double *)(void *)(buf + k * per)) >= 0;
    }
    if (ok)
        ok = H5LTread_dataset(file, "/status", H5T_NATIVE_UINT8, buf + m->n_outputs * per) >= 0;
    if (file >= 0)
        H5Fclose(file);
    if (!ok) {
        free(buf);
        return NULL;
    }
    *len = per * m->n_outputs + points;
    return buf;
}
#endif
