/*
 * fuzz/fuzz_fit_file.c - libFuzzer harness: the fit-file loader (zvp_fit_read), which also
 * loads the data tables and the base model file the fit file names.
 * The scratch directory mirrors the repository's layout so that the shipped fit files
 * (the seed corpus) resolve their relative paths:
 *     <scratch>/fits/input.ini   the fuzz input, beside copies of the .csv and .ini files of
 *                                tests/data (its fit files use data = mm1_exact.csv ...)
 *     <scratch>/data/            copies of the .csv files of calibration/data (data = ../data/...)
 *     <scratch>/params/          copies of the .ini files of calibration/params (base = ../params/...)
 * zvp_fit_read only reads. Inputs naming device or proc files (dev/, proc/, sys/) are
 * skipped: reading /dev/zero without bound is a known defect (issue 9, case 13) that the
 * size-limited reader removes; then this filter can go.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zvmperf/zvmperf.h"
#include "common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char in_path[FUZZ_PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_path(in_path, "fits/input.ini");
    fuzz_copy_dir("tests/data", "fits", ".csv");
    fuzz_copy_dir("tests/data", "fits", ".ini");
    fuzz_copy_dir("calibration/data", "data", ".csv");
    fuzz_copy_dir("calibration/params", "params", ".ini");
    return 0;
}

static int mentions(const uint8_t *data, size_t size, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(data + i, what, n) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    zvp_fit *fit = NULL;
    zvp_error err = {0};
    if (mentions(data, size, "dev/") || mentions(data, size, "proc/") ||
        mentions(data, size, "sys/"))
        return 0;
    fuzz_write_file(in_path, data, size);
    if (zvp_fit_read(in_path, &fit, &err) != ZVP_SUCCESS) {
        if (fit)
            __builtin_trap(); /* *out is NULL on failure */
        return 0;
    }
    (void)zvp_fit_output_path(fit);
    for (size_t k = 0; k < zvp_fit_n_free(fit); k++) {
        double start, lo, hi;
        (void)zvp_fit_free_param_at(fit, k, &start, &lo, &hi);
    }
    for (size_t f = 0; f < zvp_fit_n_fixed(fit); f++)
        (void)zvp_fit_fixed_param_at(fit, f, NULL);
    zvp_fit_free(fit);
    return 0;
}
