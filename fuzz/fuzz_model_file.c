/*
 * fuzz/fuzz_model_file.c - libFuzzer harness: the model-file loader.
 * The input is parsed from memory with zvp_model_file_parse (zvp_model_file_read is
 * zvp_read_input + that; the file path is fuzzed through the eval harness). A file that
 * loads is written with zvp_model_file_write into the scratch directory and read back
 * with zvp_model_file_read: the model and the parameters must come back bit-identical
 * (the writer promises an exact round trip of [parameters]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zvmperf/zvmperf.h"
#include "common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char out_path[FUZZ_PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_path(out_path, "written.ini");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    zvp_model_file *mf = NULL, *back = NULL;
    zvp_error err = {0};
    if (zvp_model_file_parse("fuzz", (const char *)data, size, &mf, &err) != ZVP_SUCCESS) {
        if (mf)
            __builtin_trap(); /* *out is NULL on failure */
        return 0;
    }
    const zvp_model *m = zvp_model_file_model(mf);
    const double *p = zvp_model_file_params(mf);
    if (!m || !p || !zvp_model_file_text(mf))
        __builtin_trap();
    for (size_t i = 0; i < m->n_params; i++)
        (void)zvp_model_file_stderr(mf, i);
    if (zvp_model_file_write(mf, out_path, &err) == ZVP_SUCCESS &&
        zvp_model_file_read(out_path, &back, &err) == ZVP_SUCCESS) {
        if (zvp_model_file_model(back) != m ||
            memcmp(zvp_model_file_params(back), p, m->n_params * sizeof *p) != 0)
            __builtin_trap(); /* [parameters] did not round-trip */
    }
    zvp_model_file_free(back);
    zvp_model_file_free(mf);
    return 0;
}
